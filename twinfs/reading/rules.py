"""The embedded default reader: spaCy's small English pipeline, no LLM.

Each informative first-person sentence a person says becomes a record in the third person with the speaker as
subject: "I went to a support group yesterday" said by Caroline -> "Caroline went to a support group" (event,
happened the day before). Questions, greetings, thanks, imperatives and what is said about the listener (a
clause with "you") are left out, and so are an assistant's own turns: they are suggestions, not facts about the
person. Kinds, attributes and time phrases come from spaCy's parse and entities and a few word lists
(`sentence.py`, `trimming.py`, `third_person.py`, `attributes.py`).
"""
from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

from pydantic import ValidationError

from ..text import FIRST
from .asked import answered, last_question, with_question, worth_carrying
from .assertion import BREAK, gate, make_believe
from .attributes import alone, named_aside, pet_named
from .dates import DAY, MONTH, Prefer, phrases, resolve
from .foreign import stated
from .kinds import departed
from .labelled import facts as labelled
from .lexicon import KIN
from .own_words import as_read
from .pipeline import nlp
from .plans import dated_plan
from .records import Draft, Outcome, finish
from .reference import POINTING, POINTS, Said
from .sentence import BULLETS, Sentence
from .suggestions import suggestion
from .talk import asked_past, asked_when, back_then, chatter, remembered
from .texting import plain
from .third_person import kin_named, named_kin
from .trimming import ANNOUNCED
from .windows import Window
from .withdrawn import ended

log = logging.getLogger("twinfs.rules")

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

POINTING_WORDS = set(POINTS) | set(POINTING)
AFTERTHOUGHT = 4  # words besides its time a sentence that only dates the one before may have ("From the SPCA,")
UNDATED = "(a past without a day)"  # what a turn told so far when its time has no day
SETTLED = {"approve", "confirm", "book", "schedule", "arrange", "fix", "set", "plan"}  # "is confirmed, March 3rd"
SCHEDULED = {"start", "begin", "leave", "fly", "move", "finish", "arrive", "return", "graduate", "retire", "go",
             "travel", "head", "sail", "drive"}
# a sentence that opens news of its own: what the turn told before does not date it
NEWS = re.compile(rf"^\W*(?:(?:also|and|oh|actually|anyway|ok|okay)\W+)*(?:{ANNOUNCED.pattern}|by the way|"
                  r"in other news|on another note)\b", re.I)
WEEKDAY = re.compile(rf"(?:on |this )?{DAY}", re.I)
SINGLE_PARENT = re.compile(r"\bas an? single (?:parent|mom|mother|dad|father)\b", re.I)
RECENT = 3  # sentences back where "this necklace" may find the necklace named before


# what one did for work, kept as a former job when said with "used to" ("I used to work at Lidl")
WORK = ("job", "employer", "former_job", "former_employer")
# how a pastime or a taste listed in an answer reads when attributes.alone has no form for it ("Alice enjoys chess")
LISTED = {"likes": "likes", "hobby": "enjoys"}

# the attributes the rules set only from "my <kin>" or "my <pet>" ("My cat's name is Pixel": the cat's, and hers)
RELATIONS = {*KIN.values(), "family", "child", "children", "pet"}


# a sentence about having someone at all: "If I ever have kids, my kids will …" says of no kids
HAVING = re.compile(r"\b(?:if|when|once|until|unless|wish|hope)\b[^,;]*\b(?:have|has|had|get|gets|got|adopt|marry|"
                    r"meet|find|start)\b", re.I)


# a relative the sentence says has died ("NAMED": the value, where the sentence says it)


def _asserted(span: Span, attribute: str, value: str) -> bool:
    """The value is the speaker's and said as true (assertion.gate): not a relative's, a hypothetical, a modal,
    "used to", a refusal or a question. A value the rules wrote in their own words ("single") passes."""
    verdict = gate(span, value, concept=attribute)
    said = value.split(" named ") if attribute == "pet" else [value]  # "our old dog Bubu died": no pet now
    if attribute in RELATIONS and departed(span.text, said):
        return False  # "since my dad passed", "my husband, Gerald, passed away": no relative who is now
    if attribute in RELATIONS and verdict.whose in ("speaker", "other") and "quoted" not in verdict.reasons:
        # "a gift from my grandma": "my" said it; not in another's words ('My sister texted: "… my partner, Brian"')
        mine = re.findall(rf"\b(?i:my|our) (\w+),? {re.escape(said[-1])}\b", span.text)  # "our dog Skipper"
        named = said[-1][:1].isupper() and any(KIN.get(w.lower()) == attribute or attribute in ("pet", "family")
                                            for w in mine) \
            or (attribute, value) in named_aside(span.text)  # "Grace (the wife) would kill me if …"
        presumed = re.search(rf"\b(?i:my|our) {re.escape(value)}\b", span.text) and not HAVING.search(span.text)
        # "relocate with my wife", "Should I tell my dad?": "my" says they are, whatever the sentence wishes or asks
        return named or not verdict.reasons & {"conditional", "question", "modal"} or bool(presumed) and not (
            verdict.reasons - {"conditional", "question", "modal", "plan"})  # "My son Elias might join"
    if attribute == "relationship_status" and SINGLE_PARENT.search(span.text) \
            and not verdict.reasons - {"modal", "plan", "not_a_span"}:
        return True  # "It'll be tough as a single parent": the future is the parenting; single she is now
    return verdict.stands(attribute)


def _told(turn, pairs: list[tuple[str, str]]) -> list[Draft]:
    """Values said with no statement around them (an answer to a question, a form's line), each as a statement of
    its own: attributes.alone's form, or a listed pastime's or taste's ("Alice enjoys chess"); none without one."""
    drafts = []
    for attribute, value in pairs:
        text = alone(turn.speaker, attribute, value) or (
            f"{turn.speaker} {LISTED[attribute]} {value}" if attribute in LISTED else None)
        if text:
            drafts.append(Draft(kind="state", text=text, subject=turn.speaker, attribute=attribute, value=value,
                                turns=[turn.id]))
    return drafts


def _held(sentence: Sentence) -> list[tuple[str, str]]:
    """The values a sentence states that are the speaker's and asserted (see _asserted)."""
    return [(a, v) for a, v in sentence.attributes() if _asserted(sentence.span, a, v)]


def _owned(t: Token) -> bool:
    """ "'s" of "My gran's recipe": a possessive of someone's, not "is" ("Writing's a part of me")."""
    return t.dep_ == "case" and t.i > 0 and any(c.dep_ == "poss" for c in t.nbor(-1).children)


IN_MONTH = re.compile(rf"in {MONTH}", re.I)
_DAYS = r"\d{1,2}(?:st|nd|rd|th)?(?:\s*[–-]\s*\d{1,2}(?:st|nd|rd|th)?)?"
OF_MONTH = re.compile(rf"(?:on\s+)?(?:the\s+)?{_DAYS}\s+(?:of\s+)?{MONTH}|(?:on\s+)?{MONTH}\s+{_DAYS}", re.I)


def _arranged(finite: Token | None, phrase: str) -> bool:
    """The present of an arrangement: a progressive ("we're getting married in August", "I'm seeing my brother on
    Tuesday"), or a weekday one has or is at ("We've got a gig on Saturday", "My exam is on Monday")."""
    if finite is None or finite.tag_ not in ("VBP", "VBZ", "VBN"):
        return False
    if finite.dep_ == "aux" and finite.tag_ != "VBN" and (finite.head.tag_ == "VBG" or any(
            c.dep_ == "auxpass" and c.tag_ == "VBG" for c in finite.head.children)):
        return True
    if finite.tag_ in ("VBP", "VBZ") and finite.lemma_ in SCHEDULED:
        return True  # "I start on the first of March": what a timetable says
    if finite.tag_ in ("VBP", "VBZ") and finite.dep_ == "auxpass" and finite.head.lemma_ in SETTLED:
        return True  # "My visa appointment is confirmed, March 3rd", "my leave is approved, 5th to 20th December"
    if finite.tag_ in ("VBP", "VBZ") and finite.lemma_ == "be" and (IN_MONTH.fullmatch(phrase.strip()) or (
            OF_MONTH.fullmatch(phrase.strip()) and not re.search(r"\b(?:birthday|born|anniversary)\b",
                                                                 finite.sent.text))):
        return True  # "My defence is in July", "I'm off to Tromsø 20–23 November": ahead, not the one gone
    if not WEEKDAY.fullmatch(phrase.strip()):
        return False
    day = next((t for t in finite.sent if re.fullmatch(DAY, t.text, re.I)), None)
    verb = next((a for a in day.ancestors if a.pos_ in ("VERB", "AUX")), None) if day is not None else None
    if verb is not None and verb.i != finite.i and not (finite.dep_ in ("aux", "auxpass") and verb.i == finite.head.i):
        return False  # "I have news, I passed my driving test on Tuesday": the day is of another verb's clause
    if finite.lower_ == "got":
        return any(c.lemma_ == "have" and c.tag_ in ("VBP", "VBZ") for c in finite.children)
    return finite.tag_ != "VBN" and finite.lemma_ in ("have", "be")


def _undated_past(sentence: Sentence, valued: bool = False) -> bool:
    """The sentence tells of a past it names without a day: "last season", "years ago", "when I was younger" (the
    last only when it states no value: "When I was a kid I lived in Ohio" still says where)."""
    return any(e.label_ == "DATE" and re.search(r"\b(?:last|ago|previous|past)\b", e.text, re.I)
               for e in sentence.span.ents) or (back_then(sentence.tokens) and not valued)


def _afterthought(span: Span, phrase: str) -> bool:
    """A sentence of no verb that only adds a time to the one before: "From the SPCA, two weeks ago.", "On Sunday!"
    (not "Training for the Coast to Coast in May.")."""
    at = span.text.lower().find(phrase.lower())
    rest = [t for t in span if not t.is_punct and not (0 <= at <= t.idx - span.start_char < at + len(phrase))]
    return at >= 0 and len(rest) <= AFTERTHOUGHT and not any(t.pos_ in ("VERB", "AUX") for t in span)


class RulesReader:
    """Reads windows with spaCy and rules: fast, offline, deterministic."""

    name = "rules:spacy-sm"

    def warm(self) -> None:
        """Load spaCy's pipeline (seconds, once a process): the reading step asks for it before it takes the
        writer, so the first read after a start does not hold a landing up that long."""
        nlp()

    def read(self, window: Window) -> Outcome:
        turns = window.reading
        if not turns:
            return Outcome([], 0)
        drafts: list[Draft] = []
        tokens = 0
        user = None  # whom the assistant speaks to: the person who spoke last before it
        earlier = None  # the turn before the first one read: where the first sentence's "it" may point
        for turn in window.turns:
            if turn.id == turns[0].id:
                break
            user = turn.speaker if turn.role != "assistant" else user
            earlier = turn
        parsed = ([earlier] if earlier else []) + turns  # a user's turn read with the one before (by_number)
        docs = list(nlp().pipe([plain(t.text) if t.role == "assistant" else as_read(
            t.text, t.speaker, parsed[n - 1].text if n else None) for n, t in enumerate(parsed)], batch_size=32))
        before: list[Said] = []  # the sentences said last, the newest first
        if earlier is not None:
            before = [Said(s, earlier.speaker or "") for s in reversed(list(docs.pop(0).sents))][:RECENT]
        names = {t.speaker for t in window.turns if t.speaker}
        for turn, doc in zip(turns, docs, strict=True):
            tokens += len(doc)
            if turn.role == "assistant":  # its own words are suggestions, not facts about the person
                for span in doc.sents:
                    if user is not None:
                        drafts.extend(suggestion(span, turn, user))
                    before = [Said(span, turn.speaker or "assistant"), *before][:RECENT]  # "Where are you based?"
                continue
            user = turn.speaker
            # "How was the opening last night?" - "I sold four": that night's story
            told = asked_when(before, turn.text, turn.speaker, turn.at)
            pet = None  # the pet the sentence before named, without its name
            last = len(drafts)  # where the sentence before's drafts start
            for span in doc.sents:
                if NEWS.match(span.text):
                    told = None  # "… yesterday. Also, big news, I adopted a cat!": news of its own, not that day's
                if pet is not None and (name := pet_named(span.text, leading=True)):
                    drafts.append(Draft(kind="state", text=f"{turn.speaker}'s {pet} is called {name}",
                                        subject=turn.speaker, attribute="pet", value=f"{pet} named {name}",
                                        turns=[turn.id]))  # "I adopted a cat! She's a little tabby called Pickle"
                try:
                    made, said = self._sentence(span, turn, before, names, told)
                except ValidationError as e:  # a draft past a bound (a run-on sentence): its values alone, each
                    # a short statement, never the window lost
                    log.info("rules reader: a sentence of turn %s read for its values alone: %s", turn.id,
                             "; ".join(f"{'.'.join(map(str, err['loc']))}: {err['msg']}" for err in e.errors()))
                    whole = Sentence(span, turn.speaker)
                    made, said = self._alone(whole, turn, _held(whole)), None
                if said not in (None, UNDATED) and not made and _afterthought(span, said):
                    drafts[last:] = [d.model_copy(update={"when": said}) if d.kind == "event" and d.when is None
                                     else d for d in drafts[last:]]  # "I adopted a cat. Two weeks ago." that day's
                told = said or told
                last = len(drafts)
                drafts.extend(made)
                pet = next((d.value for d in made if d.attribute == "pet" and d.value and " named " not in d.value),
                           None)
                before = [Said(span, turn.speaker), *before][:RECENT]
        return Outcome(finish(window, drafts), tokens)

    def _sentence(self, span: Span, turn, before: list[Said], names: set[str],
                  told: str | None) -> tuple[list[Draft], str | None]:
        """The drafts of one sentence and the past time it names. `told`: the last past time the turn named so
        far, the time of a story's next events ("Last week I visited home. We had a great time")."""
        sentence = Sentence(span, turn.speaker)
        if make_believe(sentence.tokens):  # 'Translate: "I live in Paris"', "Pretend I'm a doctor"
            return [], None
        if pairs := labelled(span.text, turn.speaker, turn.text):  # a form's "Occupation: Sous chef"
            return _told(turn, pairs), None
        past = next((p for p in phrases(span.text) if (day := resolve(p, turn.at, "past")) is not None
                     and day <= turn.at.date() and not re.search(rf"\bsince\s+{re.escape(p)}", span.text, re.I)),
                    None)  # a phrase the dates module knows, not any number spaCy dates; "Since Monday!" no story's
        if past is not None and (sentence.kind() == "plan" or _arranged(sentence._finite(), past)):
            past = None  # "We're opening the second clinic in March, so …": ahead, no story told
        if past is None and _undated_past(sentence) and not re.search(r"\bsince\b", span.text, re.I):
            past = UNDATED  # "Last season, I hurt my ankle. … I stayed focused on my recovery": not the day said
        drafts = self._drafts(sentence, turn, before, names, told)
        read = {(d.value or "").lower() for d in drafts}  # what the English reading took, not said twice
        return drafts + _told(turn, [p for p in stated(span.text) if p[1].lower() not in read]), past

    def _drafts(self, sentence: Sentence, turn, before: list[Said], names: set[str],
                told: str | None) -> list[Draft]:
        span = sentence.span
        if span.text.rstrip().endswith("?") and (cut := next((t.i for t in reversed(span) if t.i > span.start + 2
                                                               and BREAK.match(t.doc.text, t.idx)), None)) is not None:
            stated = Sentence(nlp()(span.doc[span.start:cut].text)[:], turn.speaker)  # "I'm 27; is that too late?"
            return self._alone(stated, turn, _held(stated))
        said = sentence.attributes() if sentence.tokens and not span.text.rstrip().endswith("?") else []
        pairs = []
        for attribute, value in said:
            if attribute == "school" and _undated_past(sentence, True) and any(t.lemma_ in ("study", "graduate") and (
                    t.tag_ == "VBD" or any(c.lower_ == "did" for c in t.children)) for t in sentence.tokens):
                continue  # "I did study business at EAFIT, years ago": a school that was
            if _asserted(span, attribute, value):
                pairs.append((attribute, value))
            elif attribute in WORK and gate(span, value, concept=attribute).reasons == {"past_habit"}:
                pairs.append(("former_" + attribute.removeprefix("former_"), value))  # "I used to work as a nurse"
        pairs += [p for p in ended(span.text) if p not in pairs]  # "Gwen is not my wife now": what held no more
        asked = last_question(before, span, turn.speaker)
        if facts := answered(asked, span):  # "Where do you live?" - "Manchester, near the university."
            return _told(turn, facts + [p for p in pairs if p[0] not in {a for a, _ in facts}])
        if not (sentence.informative() or (pairs and ({t.lower_ for t in sentence.tokens} & FIRST or any(
                a in RELATIONS or a in ("job", "age", "language", "allergy") for a, _ in pairs)
                or span[0].text in BULLETS))):
            return []  # a short sentence that states a fact is kept: "I'm doing kickboxing", "Tom (bf) cooks",
            # "Senior developer at Monzo.", "4th year, 23 and skint.", "- Swedish native, fluent English", "No allergies
            # except hazelnuts, and that one is real"
        root = next((t for t in sentence.tokens if t.dep_ == "ROOT"), None)
        if not any(t.pos_ in ("VERB", "AUX") or (t.lower_ == "'s" and not _owned(t)) for t in sentence.tokens) \
                or (root is not None and sentence.fragment(root)):  # "Writing's a part", "Three, including my aunt"
            return self._alone(sentence, turn, pairs)  # "Oscar, my guinea pig.": no statement, but its value is one
        if chatter(sentence.tokens, span, bool(pairs)):
            return self._alone(sentence, turn, pairs)  # "I'm 34, so changing careers felt scary": "T is 34"
        if not sentence.readable(before, names):  # "I loved it" with nothing before it names: no record of it,
            return self._alone(sentence, turn, pairs)  # but of a value it states that reads without it
        kind = sentence.kind()
        prefer: Prefer = "future" if kind == "plan" else "past"
        phrase, where = sentence.time_phrase(turn.at)
        if phrase is not None and resolve(phrase, turn.at, prefer) is None:
            phrase, where = None, None
        ahead = kind in ("event", "state") and where is not None and phrase is not None and bool(re.search(
            r"\b(?:starting|beginning|starts(?: on)?|begins(?: on)?)\s+$", span.text[:where[0]], re.I)
            or re.match(r"(?:starting|beginning)\b", phrase, re.I))  # spaCy's date may hold it: "starting September"
        if ahead and root is not None and root.lower_ in ("starting", "beginning") and root.i == sentence.tokens[0].i:
            kind, ahead = "plan", False  # "Starting November 4th, and no more nights": the speaker's start ahead
        if ahead:  # "I got a job offer, … starting in September": the start's month, not the offer's
            phrase, where = None, None
        finite = sentence._finite()
        if phrase is not None and (kind in ("state", "relation") or (kind == "event" and finite is not None and (
                finite.tag_ in ("VBP", "VBZ") or finite.head.tag_ == "VBG"))) and _arranged(finite, phrase) \
                and (day := resolve(phrase, turn.at, "future")) is not None and day > turn.at.date():
            kind = "plan"  # "I'm seeing my brother on Tuesday", "We've got a gig on Saturday": an arrangement
            phrase, where = sentence.time_phrase(turn.at)
        if kind != "plan" and phrase is None and _undated_past(sentence, bool(pairs)):
            # "last season I hurt my ankle", "when I was younger, …": no day named, the day said is wrong; a value it
            return self._alone(sentence, turn, pairs)  # states holds without one ("I was a postman, years ago")
        if kind == "event" and phrase is None and told is None and asked_past(before, turn.speaker):
            return []  # "How was it?" - "We played games …": the day of what was asked about, not the day said
        if where is not None and remembered(span, where[0]):
            return []  # "I was just remembering yesterday, spending the day …": the day is what is remembered
        story = kind == "event" or (kind == "state" and finite is not None and finite.tag_ == "VBD")
        if story and phrase is None and told == UNDATED and finite is not None and finite.tag_ == "VBD":
            return self._alone(sentence, turn, pairs)  # a story's next events after "Last season, …": its time, no
            # day, not the day said; a value it states holds ("… when we moved here. Grew up in Nukuʻalofa")
        when = phrase or (told if story and told != UNDATED else None)  # "Last Friday I had a milestone. I was
        # able to jog": the same day
        when = turn.at.date().isoformat() if ahead else when
        # a relative phrase ("yesterday") is only true where it was said: the day it names replaces it
        dropped = where if phrase is not None and not re.fullmatch(
            r"(?:in |since |back in )?(?:19|20)\d\d", phrase.lower()) else None
        lead = next((t for t in reversed(sentence.tokens) if t.idx - span.start_char < dropped[0]), None) \
            if dropped is not None else None
        if lead is not None and lead.lower_ in ("until", "till", "before", "after", "by"):
            return self._alone(sentence, turn, pairs)  # "never liked sushi until last year": no day it happened
        if lead is not None and lead.lower_ == "for" and any(
                t.dep_ == "conj" and t.pos_ in ("VERB", "AUX") and any(c.dep_ in ("nsubj", "nsubjpass")
                                                                       for c in t.children) for t in sentence.tokens):
            dropped, when = None, None  # "I taught history for 35 years and I've never been so tired": of now too
        relative = dropped is not None
        text = sentence.rewrite(dropped)
        after = next((t for t in sentence.tokens if t.idx - span.start_char >= dropped[1]), None) if dropped else None
        subject = dropped is not None and after is not None and after.pos_ in ("AUX", "VERB") and not any(
            t.idx - span.start_char < dropped[0] for t in sentence.tokens)  # "Yesterday was crazy cool": of the day
        spent = dropped is not None and any(
            (t.dep_ == "dobj" and dropped[0] <= t.idx - span.start_char < dropped[1])
            or (t.dep_ == "case" and t.idx - span.start_char == dropped[1])
            for t in sentence.tokens)  # "I spent the weekend building a shed", "I loved yesterday's concert": said
        if subject or spent or (relative and re.search(r"\b(?:is|are|was|were|be)(?: -|,|$)", text)):
            text = sentence.rewrite(None)  # "our season opener is next week": the phrase is what is said
        text = named_kin(text, turn.speaker, kin_named(turn.text))
        if len(text.split()) < 3:
            return []
        if pairs and turn.speaker not in text:  # "Fifty-two, dodgy hip, so being yanked is no joke": whose, the
            return self._alone(sentence, turn, pairs)  # record says ("… is fifty-two")
        if not pairs:  # "I miss the students" after "You miss teaching?": the record says what it answers
            text = with_question(text, span, worth_carrying(asked))
        planned = None
        if phrase is not None and all(a != "plans" for a, _ in pairs) \
                and (plan := dated_plan(sentence, turn.at, kind == "plan")) is not None:
            planned = plan[0]
            pairs = [*pairs, ("plans", planned)]  # "I'll submit the application on Friday": a plan, with its day
        values: list[tuple[str | None, str | None, str]] = [
            (a, sentence.resolved(v), "plan" if (a, v) == ("plans", planned) or (a, kind) == ("plans", "state")
             else kind) for a, v in pairs] or [
            (None, None, kind)]
        return [Draft(kind=of_kind, text=text, subject=turn.speaker, attribute=attribute and attribute[:40],
                      value=value and value[:80], when=when, turns=[turn.id]) for attribute, value, of_kind in values]

    @staticmethod
    def _alone(sentence: Sentence, turn, pairs: list[tuple[str, str]]) -> list[Draft]:
        """The values a sentence that does not read alone states, each as a statement of its own: "This necklace
        is from my home country, Sweden" -> "Caroline is from Sweden"; none whose words point outside it."""
        drafts = []
        for attribute, value in pairs:
            words = set(re.findall(r"[\w']+", value.lower()))
            text = alone(turn.speaker, attribute, value)
            at = sentence.span.text.lower().find(value.lower())
            rest = sentence.span.text[at + len(value):] if at >= 0 else ""
            end = sentence.span.start_char + at + len(value)  # a clause of its own after the comma is no list:
            clause = at >= 0 and any(t.idx >= end and t.dep_ in ("nsubj", "nsubjpass") and t.head.i > t.i
                                     for t in sentence.tokens)  # "swimming pools, the chlorine makes me sick"
            listed = rest.startswith(",") and not clause and attribute not in (*WORK, "age", "school", "language") \
                and not re.match(
                r",\s*(?:(?:and|but|so|or)\s+)?(?:i|we|it|they|he|she|that|this|my|our|who|whose)\b"
                r"|,\s*(?:but|so|because|which|if|when|though|although|unless|while|for what|not|can|could|will)\b"
                r"|,\s*[\w ]{0,20}\bago\b", rest, re.I)  # "the energy, …" a list; "a postman, years ago" a time
            defined = re.match(r"\s+(?:that|which|who|whom|whose)\b|\s+(?:it|they|he|she)\s+\w+", rest, re.I) \
                and not (value[:1].isupper() and attribute in RELATIONS)  # "little Finn who's 6": named already
            if text is None or listed or defined or words & sentence.pointing or words & POINTING_WORDS:
                continue  # "the little garden that it has": which garden, the clause after it says
            kind = "preference" if attribute in ("likes", "dislikes", "hobby") else "state"
            drafts.append(Draft(kind=kind, text=text, subject=turn.speaker, attribute=attribute, value=value[:80],
                                turns=[turn.id]))
        if all(a != "plans" for a, _ in pairs) and sentence.tokens \
                and (plan := dated_plan(sentence, turn.at, sentence.kind() == "plan")) is not None \
                and not FIRST & set(re.findall(r"[\w']+", plan[0].lower())):  # "with my mum": the words as said
            said = "is" if any(t.text == plan[0].split()[0] and t.tag_ == "VBG" for t in sentence.tokens) \
                else "will"  # "I'll buy the course tomorrow
            text = f"{turn.speaker} {said} {plan[0]}"  # before she sees": the plan reads alone, with its day
            drafts.append(Draft(kind="plan", text=text, subject=turn.speaker, attribute="plans",
                                value=plan[0][:80], when=plan[1], turns=[turn.id]))
        return drafts
