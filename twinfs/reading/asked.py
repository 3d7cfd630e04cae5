"""The question a sentence answers, for the rules reader: a record that leans on it says it.

"How's the bakery?" - "Busy. We started opening on Sundays in August" -> "Lena and others started opening on Sundays
(asked: "How's the bakery?")". An answer leaves out what the question named ("the students" of "You miss teaching?",
"a few more" of "… submitting any more scripts?"); the record carries the question, as said, so it reads alone.
Only a question of the other speaker's turn just before, among the sentences just said (rules.RECENT), naming
something of its own (not "How's it going?"), short, more than an echo ("Cows?"), and only for a record with no
value whose sentence does not already name what it asks about. Measured on LoCoMo dev (bench/results/reading.md,
5 Dec 2026): 116 of 774 records gain a question; of the 90 judged before, the 75 right stay right and 3 of the 15
wrong read alone with it.

A verbless answer to a question that asks for one of the speaker's lasting facts gives that fact ("Where do you
live?" - "Sheffield, near the park." -> home_city Sheffield; "How old are you?" - "Forty-six." -> age; "What do you
do for a living?" - "Physiotherapist at a sports clinic."; "What are your hobbies?" - "Bouldering, making pasta and
chess."; "Any pets?" - "Two rabbits, Bun and Clover."): `answered`. An assistant asks this way most.
"""
from __future__ import annotations

import re
from itertools import dropwhile, takewhile
from typing import TYPE_CHECKING

from .assertion import finite
from .attributes import PET_WORDS
from .lexicon import DIETS, LANGUAGES
from .reference import TIME_NOUNS, Said
from .talk import GENERIC_NOUNS, LIGHT_VERBS
from .work import is_job

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

# what a question asks for, not what it is about: "What would you like help with?"
ASKING = {"help", "question", "questions", "tip", "tips", "update", "updates"}
MOST_WORDS = 14  # a longer question is more than the record should carry
MOST_CHARS = 200  # a record's text may be no longer (records.Draft)
ASKED = re.compile(r' \(asked: "[^"]*"\)$')


def without_question(text: str) -> str:
    """A record's own words, the question it answers left off."""
    return ASKED.sub("", text)


def _named(t: Token) -> bool:
    """A word naming something particular: "the bakery", "teaching", "the 42 route"; not "it", "things", "lately"."""
    lemma = t.lemma_.lower()
    if t.lower_ in ("wan", "gon", "wanna", "gonna", "got") or (t.pos_ == "PROPN" and t.i == t.sent.start
                                                                and not t.ent_type_):
        return False  # "Wanna tell me more?": spaCy may read a leading "Wanna" as a name
    if lemma in GENERIC_NOUNS or t.lower_ in GENERIC_NOUNS or lemma in TIME_NOUNS or lemma in ASKING:
        return False
    if t.pos_ in ("NOUN", "PROPN"):
        return t.ent_type_ not in ("DATE", "TIME")
    return t.pos_ == "VERB" and t.tag_ == "VBG" and lemma not in LIGHT_VERBS  # "You miss teaching?"


def last_question(before: list[Said], sentence: Span, speaker: str) -> Span | None:
    """The last question the other speaker asked just before this sentence's turn (`before`: the sentences said
    last, the newest first); in a pasted FAQ, the "Q:" line the sentence's "A:" line answers."""
    if faq := _faq_question(sentence):
        return faq
    lead = next((i for i, s in enumerate(before) if s.speaker != speaker), None)
    if lead is None or any(s.span.doc is not sentence.doc for s in before[:lead]):
        return None  # the speaker's turn before this one came between: "Oh, and I'm learning to drive" is news
    asker = before[lead].speaker
    for said in before[lead:]:
        if said.speaker != asker:
            return None
        if said.span.text.strip().endswith("?") or REQUEST.match(said.span.text):
            return said.span
    return None


def _faq_question(sentence: Span) -> Span | None:
    """The question of the "Q:" line before the sentence's "A:" line ("Q: What languages do you work in?\nA: Spanish,
    English, …"), or quoted at the start of its line ('"How old are you?" — 36.'), in a turn that pastes questions
    and answers; None elsewhere."""
    text = sentence.doc.text
    line = text.rfind("\n", 0, sentence.start_char) + 1
    if (quoted := QUOTED_ASK.match(text, line)) and sentence.start_char <= quoted.end() < sentence.end_char:  # '8.
        return sentence.doc.char_span(quoted.start(1), quoted.end(1), alignment_mode="expand")  # "Where are you
        # from?" — Durban, born and raised.': the first sentence after it answers it
    if not (answer := ANSWER_LINE.match(text, line)) or sentence.start_char > answer.end():
        return None  # the answer's first sentence
    asked = list(QUESTION_LINE.finditer(text, 0, line))
    return sentence.doc.char_span(asked[-1].start(1), asked[-1].end(1), alignment_mode="expand") if asked else None


def pasted_answer(turn: str, value: str) -> bool:
    """Whether `value` is said in an answer to a question `turn` pastes: after a line's quoted question ('13. "How old
    are you?" — 36.') or on an "A:" line after a "Q:" line (the model pass keeps what the rules read there, whatever
    the question's "you" says of the sentence)."""
    low, lines = value.lower(), turn.splitlines()
    for before, line in zip(["", *lines], lines, strict=False):  # each line with the one before it
        asked = QUOTED_ASK.match(line) or (ANSWER_LINE.match(line) if QUESTION_LINE.match(before) else None)
        if asked and low in line[asked.end():].lower():
            return True
    return False


QUESTION_LINE = re.compile(r"^[ \t]*Q[:.)][ \t]*(.+\?)[ \t]*$", re.M)
ANSWER_LINE = re.compile(r"[ \t]*A[:.)][ \t]")
QUOTED_ASK = re.compile(r"[ \t]*(?:\d{1,2}[.)][ \t]*)?[\"“]([^\"”\n]+\?)[\"”][ \t]*[—–-]+[ \t]*")  # an AMA's question
# a request for the listener's facts, said as no question: "Tell me a bit about you — age, and where you're based."
REQUEST = re.compile(r"(?:(?:please|so|and|also|first|ok|okay|great|sure)[,!]? )*(?:tell me|let me know|share)\b"
                     r"[^.!?]*\b(?:you|your|yourself)\b", re.I)


def worth_carrying(asked: Span | None) -> Span | None:
    """The last question (`last_question`), when it names something of its own and is short: one a record may
    carry."""
    if asked is None:
        return None
    words = [t for t in asked if not t.is_punct]
    if len(words) > MOST_WORDS or not any(_named(t) for t in words):
        return None
    if len(words) < 4 and not any(t.pos_ in ("VERB", "AUX") for t in words):
        return None  # "Cows?", "At the agency?": an echo of what the speaker said, no topic of its own
    return asked


# questions that ask for one of the speaker's lasting facts, and what kind of answer gives it: "Where do you live?" -
# "Manchester, near the university." (no verb, so no statement of its own) -> home_city Manchester
COMMON_PLACES = {"home", "town", "city", "country", "abroad", "here", "there", "work", "school", "uni", "university",
                 "nowhere", "everywhere", "somewhere", "near", "north", "south", "east", "west", "same"}
ASKS = ((re.compile(r"\bwhere (?:do|did) you (?:live|stay)\b|\bwhere are you (?:based|living)\b|\b(?:which|what) "
                    r"(?:city|town|area|part of (?:town|the city)|neighbourhood|neighborhood|suburb) "
                    r"(?:are you in|do you live in)\b|\bwhere you(?:'re| are) based\b|\bwhere you "
                    r"live\b", re.I), "home_city"),
        (re.compile(r"\bwhere are you (?:originally )?from\b|\bwhere did you grow up\b|\bwhere were you born\b", re.I),
         "hometown"),
        (re.compile(r"\bhow old are you\b|\bare you (?:over|under) \d+\b|"
                    r"(?:[—–:,] ?|\b(?:your|and) )age\b(?= ?[,?.—–]| and\b)", re.I), "age"),
        (re.compile(r"\bwhat do you do (?:for (?:a living|work)|professionally)\b|\bwhat(?:'s| is) your (?:job|"
                    r"profession|occupation)\b", re.I), "job"),
        (re.compile(r"\bwhat are your hobbies\b|\bwhat do you (?:like to )?do for fun\b|\bwhat do you (?:like to )?do "
                    r"(?:in your (?:free|spare) time|on (?:a|your) days? off|at (?:the )?weekends?)\b", re.I), "hobby"),
        (re.compile(r"^\W*(?:your |any )?favou?rite (?:\w+ )?\w+\?", re.I), "likes"),  # an AMA's "Favourite snake?"
        (re.compile(r"\bwhat (?:kind of |sort of |type of )?(?:food|foods|cuisine|cuisines|music|books|films|movies|"
                    r"shows|games)(?: do you| are you into| you)(?: most| really)? (?:like|love|enjoy|into)\b", re.I),
         "likes"),
        (re.compile(r"\b(?:do you have |got )?any pets\b|\bdo you have (?:a |any )?(?:pets?|dog|cat)\b|"
                    r"^(?:\w+ )?pets\?", re.I), "pet"),
        (re.compile(r"\b(?:any |your |do you have (?:any )?(?:food )?)allergies\b|\bare you allergic to anything\b",
                    re.I), "allergy"),
        (re.compile(r"\b(?:do you have|have you got|got|any) (?:any )?(?:kids|children)\b", re.I), "children"),
        (re.compile(r"\b(?:any|your|do you have (?:any )?) ?diet(?:ary)? (?:restrictions|requirements|needs|"
                    r"preferences)\b|\bdo you eat meat\b", re.I), "diet"),
        (re.compile(r"\b(?:what|which) languages? do you (?:speak|work in|use|know)\b", re.I), "language"),
        (re.compile(r"\bwhere do you work\b|\bwho do you work for\b", re.I), "employer"),
        (re.compile(r"\bhow long have you (?:two |both )?been married\b", re.I), "married_for"),
        (re.compile(r"\bare you (?:married|single)\b", re.I), "relationship_status"))
# a verbless answer about children: "A daughter, Ada.", "Two boys, Sami and Jude.", "One, a little girl."
CHILDREN = re.compile(r"^(?:(?:yes|yeah|yep|one)[,!.]? )*(?:(an?|one|two|three|four|five|six|\d) )?"
                      r"(?:little |young |grown-up |grown |teenage |small )?(son|daughter|boy|girl|kid|child|sons|"
                      r"daughters|boys|girls|kids|children|twins)\b"
                      r"(?:[,:]? (?:named |called )?([A-Z][a-z]+)(?:,? and ([A-Z][a-z]+))?)?", re.I)
RELATIONSHIP = {"married", "single", "engaged", "divorced", "widowed", "separated"}
LEADS = {"oh", "um", "well", "yes", "yeah", "yep", "mostly", "mainly", "probably", "definitely", "honestly", "mm",
         "just", "really", "and", "also", "plus"}
# words that name no pastime or taste: "Nothing much, honestly.", "The usual stuff.", "Everything, really."
VAGUE = LEADS | {"nothing", "much", "anything", "everything", "something", "stuff", "things", "usual", "the", "a", "an",
                 "lots", "lot", "of", "whatever", "all", "sorts", "kinds", "sort", "kind", "this", "that", "and", "not",
                 "sure", "idk", "dunno", "various", "bits", "pieces", "same", "as", "you"}


# words of an answer that says no: "No, …", "None that I know of", "Nah, not yet"
REFUSALS = {"no", "not", "none", "nope", "nah"}


def answered(asked: Span | None, sentence: Span) -> list[tuple[str, str]]:
    """The facts a verbless answer gives to a question asking for them: a place its first words name, an age, a
    job, pastimes or tastes as listed, a pet, children, being married."""
    if len(sentence) > 2 and sentence[0].text == "A" and sentence[1].text in (":", ")"):
        sentence = sentence[2:]  # a pasted FAQ's "A: Spanish, English, …"
    if asked is not None and asked.doc is sentence.doc and sentence.start_char < asked.end_char < sentence.end_char:
        sentence = sentence.doc[next(t.i for t in sentence if t.idx >= asked.end_char):sentence.end]  # '"How old
        # are you?" — 36.': the answer after its question
    if asked is None or any(finite(t) for t in sentence if not _aside(t) and not any(
            a.dep_ in ("relcl", "advcl") for a in (t, *t.ancestors))):
        return []  # a statement of its own; not "Rosario (moved here for work in 2012)", whose aside has a verb, nor
        # "Yerba, a grey cat who sits on every sketch", "Afrikaans when the tannies phone me", whose clauses have one
    if PICKING.search(asked.text) and (picked := chosen(asked.text, sentence.text.strip())):
        label, value = picked.split(". ")[0].split(": ", 1)  # "Would you rather tea or coffee?" - "Coffee, always."
        return [("language" if label == "Languages" else "likes", value)]
    attributes = [a for pattern, a in ASKS if pattern.search(asked.text)]
    if len(attributes) > 1:  # "Tell me your age, your job and where you live": an answer of each one's form
        return next((facts for a in attributes if a in ONE_FORM and (facts := _answer(a, asked, sentence))), [])
    return _answer(attributes[0], asked, sentence) if attributes else []


# what a question asking for several things may be answered with, each in a form of its own ("52.", "Hamburg.")
ONE_FORM = ("age", "home_city", "hometown", "job", "language", "diet", "employer", "pet", "children")


def _answer(attribute: str, asked: Span, sentence: Span) -> list[tuple[str, str]]:
    """The facts a verbless answer gives to a question asking for `attribute`."""
    if attribute == "relationship_status":
        return _status(asked, sentence)
    words = list(dropwhile(lambda t: t.is_punct or t.pos_ == "INTJ" or t.lower_ in LEADS, sentence))
    words = [t for t in words if not (t.is_punct and t.i == sentence.end - 1)]
    if not words or any(t.lower_ in REFUSALS for t in sentence) and not (
            attribute == "diet" and sentence[0].lower_ not in REFUSALS):
        return []  # "No, …", "None that I know of"; but "Vegetarian, and no mushrooms" names a diet
    first, text = words[0], sentence.doc[words[0].i:words[-1].i + 1].text
    if attribute == "age":
        number = next((e.text for e in sentence.ents if e.start == first.i and e.label_ in ("CARDINAL", "DATE")),
                      first.text)
        number = number if number.isdigit() else number.lower()
        return [("age", number)] if first.like_num and (not number.isdigit() or 0 < int(number) < 120) else []
    if attribute == "job":
        job = re.split(r",| at | for | in ", text)[0]
        return [("job", job if first.ent_type_ else job[0].lower() + job[1:])] if is_job(job) else []
    if attribute in ("hobby", "likes", "allergy"):
        if not first.ent_type_:
            text = text[0].lower() + text[1:]  # "Climbing, …": capitalised as the sentence's first word, not a name
        items = [i.strip() for i in re.split(r",\s*(?:and\s+)?", text) if i.strip()]
        if len(items) > 1 and " and " in items[-1]:  # "climbing, baking bread and birdwatching"
            items[-1:] = items[-1].split(" and ")
        items = [re.split(r" (?:at|in|on|with|near) ", i)[0] if len(i.split()) > 4 else i for i in items
                 if not re.fullmatch(r"\w+ly", i)]  # "Surfing at Umhlanga main beach, badly": surfing
        items = [i for i in items if set(re.findall(r"[\w']+", i.lower())) - VAGUE  # "Jazz, mostly.", "Nothing much"
                 and not (attribute == "allergy" and re.search(r"\d", i))]  # "Budget 2.5 lakh, 120 guests"
        items = [re.sub(r"^(?:me|myself),? ", "", i) for i in items  # "me vegetarian": the speaker, as some say it
                 if not re.match(r"(?:since|for|from|until|till|ever since)\b", i, re.I)]  # "since school": a time
        return [("diet" if i.lower() in DIETS else attribute, i) for i in items if len(i.split()) <= 4] \
            if len(items) <= 5 else []  # a diet said to "What food do you love?" is a diet
    if attribute == "children":
        return _children(text)
    if attribute in ("diet", "language"):  # "Vegetarian, and no mushrooms.", "English and Portuguese, a bit of French."
        items = [re.sub(r"^(?:and|also|plus|a bit of|some|basic|fluent|conversational|mostly|strictly) |\s+(?:please|"
                        r"only|mostly)$", "", i.strip(), flags=re.I) for i in re.split(r",|\band\b", text) if i.strip()]
        if attribute == "language":  # "… and enough Italian to argue with my nonna"
            said = [re.match(r"(?:(?:enough|a little|decent|rusty|broken|basic|some) )?([\w-]+)", i) for i in items]
            return [("language", m.group(1)) for m in said if m and m.group(1).lower() in LANGUAGES]
        return [("diet", i.lower()) for i in items if i.lower() in DIETS or re.fullmatch(r"no [a-z]+", i.lower())]
    if attribute == "employer":  # "At Google.", "For the NHS, in Leeds." — a workplace named
        named = re.match(r"(?i:at|for|with) (?i:the )?((?:[A-Z][\w&'-]+)(?: [A-Z][\w&'-]+)*)", text)
        return [("employer", named.group(1))] if named else []
    if attribute == "married_for":  # "5 years already!", "Twelve years this June."
        long = first.like_num or first.lower_ in ("a", "almost", "nearly", "over", "about", "just") and any(
            t.lower_ in ("year", "years", "decade", "decades", "months") for t in words[:4])
        return [("relationship_status", "married")] if long else []
    if attribute == "pet":
        m = re.search(r"\b((?:" + PET_WORDS + r")s?)\b(?:,? (?:called |named )?"
                      r"((?-i:[A-Z][a-z]+(?:,? (?:and )?[A-Z][a-z]+)*)))?", text, re.I)  # names capitalised
        named = re.match(r"([A-Z][a-z]+), an? (?:[\w-]+ ){0,2}?(" + PET_WORDS + r")\b", text)  # "Yerba, a grey cat"
        if named:
            return [("pet", f"{named.group(2).lower()} named {named.group(1)}")]
        return [("pet", m.group(1).lower() + (f" named {m.group(2)}" if m.group(2) else ""))] if m else []
    place = next((e.text for e in sentence.ents if e.label_ in ("GPE", "LOC") and (
        e.start == first.i or len(words) <= 6)), None)  # "Small town in Ohio."
    if place is None and _a_name(first):  # spaCy's small model reads a bare "Bristol." as a firm, "Accra." as a noun
        place = " ".join(t.text for t in takewhile(_a_name, words))
    return [(attribute, place)] if place else []


def _children(text: str) -> list[tuple[str, str]]:
    """ "A daughter, Ada." -> daughter Ada; "Two boys, Sami and Jude." -> children: two boys, son Sami, son Jude."""
    m = CHILDREN.match(text)
    if m is None:
        return []
    count, kind, names = (m.group(1) or "").lower(), m.group(2).lower(), [n for n in m.group(3, 4) if n]
    one = {"boy": "son", "girl": "daughter", "kid": "child"}.get(kind.rstrip("s"), kind.rstrip("s"))
    if kind.endswith("s") or kind == "children":
        relation = {"sons": "son", "boys": "son", "daughters": "daughter", "girls": "daughter"}.get(kind, "child")
        facts = [("children", f"{count} {kind}".strip())] if count not in ("", "a", "an", "one") else []
        return facts + [(relation, n) for n in names]
    if one == "child":
        return [("child", names[0])] if names else [("children", "one child")]
    return [(one, names[0])] if names else [("children", one)]


def _status(asked: Span, sentence: Span) -> list[tuple[str, str]]:
    """An answer to "Are you married?" (or single): "Yes, to Omar." -> married, partner Omar; "Engaged, actually!"
    -> engaged."""
    words = [t for t in sentence if not t.is_punct]
    if not words or any(t.lower_ in REFUSALS for t in words):
        return []
    if words[0].lower_ in RELATIONSHIP:
        return [("relationship_status", words[0].lower_)]
    if words[0].lower_ not in ("yes", "yeah", "yep", "yup"):
        return []
    status = re.search(r"\b(married|single)\b", asked.text, re.I)
    if status is None:
        return []
    partner = re.search(r"\bto ([A-Z][a-z]+)\b", sentence.text) if status.group(1).lower() == "married" else None
    return [("relationship_status", status.group(1).lower())] + ([("partner", partner.group(1))] if partner else [])


def _aside(t: Token) -> bool:
    """Whether a token is in brackets, an aside to the sentence it is in."""
    before = t.doc[t.sent.start:t.i].text
    return before.count("(") > before.count(")")


def _a_name(t: Token) -> bool:
    """A word that may be a place's name in a one-word answer: capitalised, a noun, not a common one of places."""
    return t.text[:1].isupper() and t.pos_ in ("PROPN", "NOUN") and t.lower_ not in COMMON_PLACES \
        and t.ent_type_ not in ("DATE", "TIME", "CARDINAL", "ORDINAL")


def with_question(text: str, sentence: Span, asked: Span | None) -> str:
    """The record's text with the question it answers, unless the sentence names what the question does."""
    if asked is None:
        return text
    named = {t.lemma_.lower() for t in asked if _named(t)}
    said = {t.lemma_.lower() for t in sentence} | {t.lower_ for t in sentence}
    if named & said:
        return text
    if '"' in asked.text:
        return text
    longer = f'{text} (asked: "{asked.text.strip()}")'
    return longer if len(longer) <= MOST_CHARS else text


def chosen(question: str, answer: str) -> str | None:
    """A choice's answer as a form's line of what the speaker likes, when the question offers things to choose from
    ("mountains or sea?", "would you rather live by the sea or in the mountains?") and the answer begins with one of
    them ("mountains > sea, I'm a Mendoza boy" -> "Likes: mountains. I'm a Mendoza boy"); None for any other."""
    asked = re.sub(r"^.*?\b(?:would you rather|do you prefer|which do you prefer|prefer)\b\s*", "", question.strip(),
                   flags=re.I).rstrip("?!. ")
    options = re.split(r",? or ", asked, flags=re.I)
    if len(options) != 2 or any(len(o.split()) > 6 for o in options):
        return None
    for option in options:
        words = option.split()
        parts = sorted({" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, len(words) + 1)
                        if words[j - 1].lower() not in CHOICE_STOP and words[i].lower() not in CHOICE_STOP},
                       key=len, reverse=True)  # "in the mountains" -> "mountains", "early shifts forever" -> "early
        # shifts"
        part, said = next(((part, m) for part in parts if (m := re.match(
            rf"{re.escape(part)}\b(?:,? (?:obviously|definitely|always|100%|for sure|all the way))?[ \t]*"
            r"(?:>[^,.;!?]*)?", answer, re.I))), ("", None))
        if said:
            rest = answer[said.end():].lstrip(" ,.;!-—–")
            label = "Languages" if re.search(r"\bspeak\b", option, re.I) else "Likes"  # "only ever speak German"
            return f"{label}: {part}" + (f". {rest[0].upper()}{rest[1:]}" if rest else "")  # spelled as offered
    return None


# a question put as a game of picks or preferences ("Quick picks: 1) mate or coffee?", "Would you rather …", "Tea or
# coffee person?"): its answer says what one likes; a booking's "Morning or afternoon?" says nothing of it
PICKING = re.compile(r"\b(?:would you rather|prefer|quick picks?|this or that|rapid[- ]fire|either[- ]or|pick one|"
                     r"person|team|round|game)\b", re.I)
# words a choice's option may begin or end with that are none of the things chosen from
CHOICE_STOP = {"a", "an", "the", "in", "on", "by", "at", "to", "of", "never", "only", "ever", "forever", "again",
               "always", "live", "have", "be", "work", "go", "eat", "drink", "speak", "play", "or"}
