"""What a sentence's pronouns point to, for the rules reader: a record must read alone.

"I went to a pottery class. I loved it." -> the second sentence's "it" is "the pottery class", the one thing the
sentence before names. A pronoun ("it", "they", "his"), a pointing word ("this", "that opportunity") or an
empty word ("something") with nothing it clearly points to, in its own sentence or the one before, makes the
sentence unfit for a record: the passages keep it searchable, a record that says "John finds it fulfilling"
tells no one anything.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .ages import grown_up
from .dates import DAY
from .lexicon import KIN

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

# what each pronoun may point to: a thing, several things or people, a man, a woman
POINTS = {"it": "thing", "its": "thing", "itself": "thing", "they": "plural", "them": "plural", "their": "plural",
          "theirs": "plural", "themselves": "plural", "he": "male", "him": "male", "his": "male", "himself": "male",
          "she": "female", "her": "female", "hers": "female", "herself": "female"}
POINTING = {"this": "thing", "that": "thing", "these": "plural", "those": "plural"}
# name nothing unless a modifier says what
EMPTY = {"something", "someone", "somebody", "somewhere", "stuff", "nothing", "everything"}
MALE = {"husband", "boyfriend", "fiance", "fiancé", "son", "stepson", "dad", "father", "brother", "grandpa",
        "grandfather", "uncle", "nephew", "man", "guy", "boy", "gentleman", "king", "grandson", "grandad", "granddad",
        "stepfather", "stepdad", "daddy", "papa"}
FEMALE = {"wife", "girlfriend", "fiancee", "fiancée", "daughter", "stepdaughter", "mom", "mum", "mother", "sister",
          "grandma", "grandmother", "aunt", "niece", "woman", "girl", "lady", "queen", "granddaughter", "gran",
          "granny", "nan", "nana", "auntie", "stepmother", "stepmum", "stepmom", "mummy", "mommy", "mama"}
# the words kept from home ("nonna", "kokum", "opa"), by the relation they name
MALE |= {word for word, relation in KIN.items() if relation in ("grandfather", "father", "brother", "son")}
FEMALE |= {word for word, relation in KIN.items() if relation in ("grandmother", "mother", "sister", "daughter")}
PARENTS = {"mum", "mom", "mother", "dad", "father", "parent"}  # "a mum of two": of two children
PEOPLE = MALE | FEMALE | {"friend", "partner", "kid", "child", "baby", "cousin", "teacher", "coach", "person",
                          "neighbor", "neighbour", "boss", "people", "folks", "colleague", "coworker", "teammate",
                          "mentor"}
# nouns of time: "this week", "that day" point to a time the dates module reads, not to a thing said before
TIME_NOUNS = {"day", "week", "weekend", "month", "year", "morning", "afternoon", "evening", "night", "time",
              "summer", "winter", "spring", "fall", "autumn", "season", "semester"}
PLACES = ("GPE", "LOC", "FAC")
WEEKDAYS = re.compile(rf"{DAY}s?")
COPULAS = {"be", "seem", "feel", "look", "sound", "become", "get"}
# determiners standing for a noun said before: "I'll see if I can find any", "both are great"
STANDING = {"enough", "any", "some", "both", "all", "each", "either", "neither", "another", "none", "few", "several",
            "many", "more"}
# nouns of something else, left unsaid without "of …": "the atmosphere (of the game)", "my favorite part (of it)",
# "looking for a solution (to what broke)", "a great turnout (at the event)"
RELATIONAL = {"idea", "atmosphere", "copy", "part", "rest", "plot", "ending", "outcome", "sequel", "highlight",
              "finish", "solution", "turnout"}
COMPLEMENTS = {"of", "for", "about", "behind", "on", "to", "from"}
# happenings and states of affairs: "the meeting", "the situation" is one the talk had before, said or not
HAPPENINGS = {"meeting", "party", "event", "game", "match", "trip", "show", "concert", "tournament", "feast",
              "festival", "ceremony", "wedding", "race", "competition", "workshop", "session", "conference",
              "situation", "process", "experience", "moment", "issue", "problem", "news", "change", "accident"}
AFTER = {"afterward", "afterwards"}
# what "the same …" repeats of the talk: "my mum says the same thing"
SAID_THINGS = {"thing", "way", "story", "advice", "question", "answer", "stuff", "words"}
# nouns of a kind that says nothing of which ones without the talk before: "some people", "some funds"
KINDS = {"people", "folks", "event", "resource", "fund", "thing", "idea", "option", "place", "activity"}
TEMPORAL = {"during", "after", "before", "since", "until", "till", "over", "throughout"}
# determiners of a noun that is no referent: "do you have any other causes?"
QUANTIFIERS = {"any", "no", "every", "each", "which", "what", "whatever", "other"}
_MODIFIERS = ("amod", "relcl", "acl", "prep", "compound", "appos")
_CORE = ("nsubj", "nsubjpass", "dobj", "pobj", "attr", "dative", "poss", "conj", "oprd", "appos", "npadvmod")


@dataclass(frozen=True)
class Said:
    """A sentence and who said it: the one before is where a pronoun's referent is looked for."""

    span: Span
    speaker: str


def _mass(x: Token) -> bool:
    """A bare singular noun ("Love and acceptance should be everyone's right"): no doer that the subject "them" of
    a clause ("I want them to experience it") can mean, even with another noun beside it."""
    return x.tag_ == "NN" and x.lemma_.lower() not in PEOPLE and not any(
        c.dep_ in ("det", "poss", "compound", "amod") for c in x.children)


def _complements(t: Token) -> set[str]:
    """The prepositions that say what a noun of something else is of: an idea "from a magazine" says where it came
    from, not what it was for."""
    return COMPLEMENTS - {"from"} if t.lemma_.lower() == "idea" else COMPLEMENTS


def _role(t: Token) -> bool:
    """A bare plural of a role, the subject of its clause, not named before in the sentence: "the dancers are so
    excited" are those of a studio told before (the agent's ending: dancers, artists, musicians, participants)."""
    noun = t.head
    return t.lower_ == "the" and t.dep_ == "det" and noun.tag_ == "NNS" and noun.dep_ == "nsubj" \
        and all(c.i == t.i for c in noun.children) and noun.lemma_.lower() not in PEOPLE \
        and noun.lemma_.lower().endswith(("er", "ist", "ian", "ant")) \
        and not any(x.lemma_ == noun.lemma_ for x in t.sent if x.i < t.i)


def _fits(chunk_root: Token, wants: str) -> bool:
    """Whether a noun could be what a pronoun of this kind points to."""
    low, lemma = chunk_root.lower_, chunk_root.lemma_.lower()
    noun = chunk_root.pos_ in ("NOUN", "PROPN") or (wants == "thing" and chunk_root.tag_ == "VBG")
    if low in ("gon", "wan"):
        return False  # a leading "Gonna", "Wanna" spaCy reads as a noun: "Gonna continue doing it" names no "it"
    if not noun or lemma in TIME_NOUNS or chunk_root.ent_type_ in ("DATE", "TIME") or WEEKDAYS.fullmatch(low):
        return False  # "I'll keep Wednesdays, I asked them for …": a day is no one asked
    person = chunk_root.ent_type_ == "PERSON" or lemma in PEOPLE
    if wants == "thing" and chunk_root.tag_ == "VBG":
        return chunk_root.dep_ in ("dobj", "pobj", "nsubj", "xcomp", "pcomp")  # "I started surfing and it's great"
    if wants == "thing":
        return not person and chunk_root.tag_ in ("NN", "NNP")
    if wants == "plural":
        return chunk_root.tag_ in ("NNS", "NNPS") or any(c.dep_ == "conj" for c in chunk_root.children)
    gendered = MALE if wants == "male" else FEMALE
    return lemma in gendered or low in gendered or (chunk_root.ent_type_ == "PERSON" and chunk_root.pos_ == "PROPN")


def _clause(t: Token) -> int:
    """The verb a word belongs to: a pronoun never means a noun of its own clause ("I share my skills with them",
    "I know a bit of it": neither is the other)."""
    head = t.head
    while head.pos_ not in ("VERB", "AUX") and head.head.i != head.i:
        head = head.head
    return head.i


def _relative(noun: Token, t: Token) -> bool:
    """The word sits in a relative clause of the noun: "folks who lost their jobs" (their: the folks'); not as its
    subject, which is someone else ("the freedom it brings": it is not the freedom)."""
    if _gap_subject(t, noun):
        return False
    return any(a.dep_ == "relcl" and a.head.i == noun.i for a in t.ancestors)


def _gap_subject(t: Token, noun: Token) -> bool:
    """The word is the subject of a relative clause on the noun (or on a noun it is listed with)."""
    if t.dep_ not in ("nsubj", "nsubjpass") or t.head.dep_ != "relcl":
        return False
    modified = t.head.head
    return noun.i == modified.i or any(c.i == noun.i for c in modified.conjuncts)


def _specific(root: Token) -> bool:
    """A referent that says which: a name, or a noun with words of its own ("a pottery class", "my sister's
    cat"); "the movie" alone says no more than "it"."""
    return root.pos_ == "PROPN" or any(c.dep_ in ("compound", "amod", "poss", "nummod", "prep", "appos", "acl",
                                                  "relcl") for c in root.children)


def _asked(noun: Token, said: Said) -> bool:
    """The noun is what a question asks for: "What's your favorite genre?" names no genre."""
    return said.span.text.rstrip().endswith("?") and any(
        w.lower_ in ("what", "which") for w in (*noun.children, *noun.head.children))


def _ambient(t: Token) -> bool:
    """An "it" that points to nothing said before: "it's nice to have", "it's been tough with the car",
    "I made it", "it's raining"."""
    if t.dep_ == "expl":
        return True
    head = t.head
    if t.dep_ == "dobj" and head.lemma_ == "make":  # "I made it (to the final)", not "I made it with milk"
        return all(c.dep_ not in ("prep", "dobj") or c.lower_ in ("to", "through") for c in head.children)
    if t.dep_ in ("nsubj", "nsubjpass") and head.lemma_ in COPULAS:
        said = any(c.dep_ in ("acomp", "attr") for c in head.children)  # "it's nice to", not "it's why I"
        return said and any(c.dep_ in ("xcomp", "ccomp") and c.i > t.i for c in head.children) or any(
            c.dep_ == "advcl" and any(m.dep_ == "mark" and m.lower_ in ("like", "as", "if") for m in c.children)
            for c in head.children) or (head.lemma_ in ("feel", "seem", "look", "sound") and any(
            c.lower_ in ("like", "as") for c in head.children)) or (  # "it feels like all my work is paying off"
            head.lemma_ == "be" and any(c.dep_ == "acomp" for c in head.children)
            and any(c.dep_ == "prep" and c.lower_ in ("with", "for", "as") for c in head.children))
    return False


def pointers(tokens: list[Token], span: Span) -> list[tuple[Token, str]]:
    """The words of `tokens` that point outside their sentence, each with what it wants ("thing", "plural",
    "male", "female", "same", "echo", "role", "place", or "" for an empty word nothing can fill)."""
    out: list[tuple[Token, str]] = []
    for t in tokens:
        low = t.lower_
        if low in POINTS:
            wants = POINTS[low]
            if low == "it" and t.head.lower_ == "worth" and any(
                    c.lower_ == "it" and c.dep_ == "nsubj" for c in t.head.head.children):
                out.append((t, ""))  # "it'll be worth it": the effort told before, whatever the sentence names
                continue
            if low == "it" and _ambient(t):
                continue
            if any(_fits(x, wants) and (_clause(x) != _clause(t) or t.dep_ == "poss")  # "Sam … his garage"
                   and not _gap_subject(t, x)  # "the freedom and connection it brings": it is neither
                   and (not x.is_ancestor(t) or _relative(x, t))
                   and not (low in ("they", "them") and t.dep_ == "nsubj" and _mass(x))  # a doer, not love
                   for x in span if x.i < t.i):
                continue  # "a support group and it was powerful": its referent is in the sentence
            if low == "it" and t.dep_ in ("nsubj", "nsubjpass") and t.head.lemma_ in COPULAS:
                wants = ""  # "It was such a welcoming environment": the whole event before, not one noun of it
            out.append((t, wants))
        elif low in POINTING and (t.tag_ == "DT" or t.dep_ == "det"):
            if t.dep_ == "det":
                if t.head.lemma_.lower() in TIME_NOUNS or t.head.ent_type_ in ("DATE", "TIME"):
                    continue  # "this week": a time phrase
                out.append((t, "same"))  # "this opportunity": the one named before, if it was
            elif t.dep_ in _CORE:
                out.append((t, ""))  # "I loved that": a whole statement before, no noun to put in its place
        elif _role(t):
            out.append((t, "role"))  # "the dancers": named in the sentences before, or of something told before
        elif low == "the" and t.dep_ == "det" and t.head.pos_ == "NOUN" and t.head.dep_ in _CORE \
                and all(c.i == t.i for c in t.head.children) and t.head.lemma_.lower() not in TIME_NOUNS \
                and not (t.head.dep_ == "pobj" and t.head.head.lower_ in TEMPORAL):
            out.append((t, "echo"))  # "the painting" after "an abstract painting": that one, if it was named
        elif t.lemma_.lower() in RELATIONAL and t.tag_ == "NN" and t.dep_ in _CORE and t.head.lemma_ != "do" \
                and not any((c.dep_ == "prep" and c.lower_ in _complements(t)) or c.dep_ in ("acl", "relcl", "compound")
                for c in t.children):
            out.append((t, ""))  # "the atmosphere was electric": of what was said before
        elif low in AFTER and not any(x.pos_ in ("VERB", "AUX") and x.i < t.i and x.i != t.head.i for x in span) \
                and not any(c.dep_ == "prep" and c.lower_ in ("at", "after", "during") for c in t.head.children):
            out.append((t, ""))  # "we played chess afterward": after what the sentence before told
        elif (low == "same" and t.dep_ == "amod" and t.head.lemma_.lower() in SAID_THINGS
              and not any(c.lower_ == "as" for c in (*t.children, *t.head.children))) \
                or (low == "one" and t.dep_ in _CORE and any(c.dep_ == "det" for c in t.children)
                    and not any(c.dep_ == "prep" and c.lower_ == "of" for c in t.children)):
            out.append((t, ""))  # "my mum says the same thing", "an old one I can use": the one said before
        elif low in EMPTY and not any(c.dep_ in ("relcl", "acl", "prep", "appos") for c in t.children):
            out.append((t, ""))  # "something new": new what?
        elif low == "here" and t.dep_ == "advmod" and t.head.pos_ == "VERB" and not list(t.children) \
                and not any(x.ent_type_ in PLACES for x in span):
            out.append((t, ""))  # "I started volunteering here": where the speaker is, not in the record
        elif low == "some" and t.dep_ == "det" and t.head.lemma_.lower() in KINDS and t.head.tag_ == "NNS" \
                and t.head.dep_ == "dobj" and all(c.i == t.i for c in t.head.children):
            out.append((t, ""))  # "raise some funds", "meet some people": for what, of whom, said before
        elif low == "then" and t.i > 0 and t.nbor(-1).lower_ == "back":
            out.append((t, ""))  # "back then": when was that?
        elif low == "there" and not _arrived(t) and (t.dep_ == "advmod" and (
                t.head.pos_ == "VERB" or t.head.lemma_ == "be" or (t.head.pos_ == "NOUN" and t.head.dep_ == "dobj"))
                or t.dep_ in ("pobj", "pcomp") and t.head.pos_ == "ADP"):  # "planning a trip there", "still there"
            if not any(x.ent_type_ in PLACES for x in span if x.i < t.i):
                out.append((t, "place"))  # "I've always wanted to try the seafood there": where?
        elif low in STANDING and t.dep_ in ("dobj", "nsubj", "pobj", "attr", "nsubjpass") and not any(
                c.dep_ == "prep" and (c.lower_ == "of" or low == "more") for c in t.children) and not (
                low == "more" and t.i + 1 < len(t.doc) and t.nbor().lower_ in ("about", "on", "than")):  # "some of"
            out.append((t, ""))
        elif t.pos_ == "NUM" and t.dep_ in ("dobj", "pobj", "attr", "nsubj") and t.ent_type_ in ("", "CARDINAL") \
                and not any(c.dep_ in _MODIFIERS + ("det", "poss") for c in t.children) \
                and not (t.dep_ == "pobj" and t.head.head.lemma_.lower() in PARENTS) \
                and not (t.dep_ == "pobj" and t.head.lower_ == "at" and re.fullmatch(
                    r"\d\d|\d{1,2}(?:[:.]\d\d)?(?:[ap]m|h)?", t.text, re.I)) \
                and not (t.dep_ == "dobj" and t.head.lemma_ == "turn") \
                and not (t.dep_ == "attr" and any(c.dep_ == "nsubj" and c.lower_ in ("i", "he", "she")
                                                  for c in t.head.children) and grown_up(t.lower_)
                         and not any(c.dep_ == "mark" or c.lower_ in ("when", "if", "once", "until", "till", "unless")
                                     for c in t.head.children)):  # "maybe when I'm 35": a time, no age
            out.append((t, ""))  # "the tank is big enough for three": three what? Not "a proud mum of two", "At
            # 36 I'm the old man of the group", "I turned 37 last Friday", "I'm 37" (an age), "on Saturdays at 7" (a
            # time)
        elif low == "one" and t.dep_ in ("attr", "dobj", "nsubj", "pobj") and not any(
                c.dep_ in _MODIFIERS + ("det", "poss") and not (c.dep_ == "prep" and c.lower_ != "of")
                for c in t.children):  # "working on one with my group": one of what
            out.append((t, ""))  # "I've been one since": one of what the other person said
    return out


def _arrived(t: Token) -> bool:
    """ "there" of getting somewhere, not of a place: "we're almost there", "I'll get there", "been there for me"."""
    return (t.i > 0 and t.nbor(-1).lower_ in ("almost", "nearly", "halfway", "finally")) or t.head.lemma_ in (
        "get", "make") or any(c.dep_ == "prep" and c.lower_ == "for" and c.i == t.i + 1 for c in t.head.children)


def _owner(t: Token, chunk_speaker: str, speaker: str, names: set[str]) -> str | None:
    """A possessive inside a referent, as it reads from the speaker's side: "my" of the other person is theirs,
    "your" is the speaker's when the other person said it, the other person's when the speaker did (two people)."""
    low = t.lower_
    if low == "my":
        return f"{chunk_speaker}'s"
    if low == "our":
        return f"{chunk_speaker} and others'"
    if low == "your":
        if chunk_speaker != speaker:
            return f"{speaker}'s"
        others = names - {speaker}
        return f"{others.pop()}'s" if len(others) == 1 else None
    return None


def _phrase(root: Token, said: Said, speaker: str, names: set[str]) -> str | None:
    """A referent's noun phrase as it reads in a record: "a pottery class" -> "the pottery class", "my sister's
    cat" said by Mel -> "Mel's sister's cat"; None when it holds a pronoun of its own."""
    chunk = said.span.doc[root.left_edge.i:root.right_edge.i + 1]  # with what follows it: "the chance to write"
    if len(chunk) > 8 or any(t.is_punct and t.text not in ("'", "-") for t in chunk):
        return None
    words: list[str] = []
    for i, t in enumerate(chunk):
        low = t.lower_
        if i == 0 and low in ("a", "an", "some", "this", "that", "these", "those", "another", "the"):
            words.append("the")
        elif t.tag_ == "PRP$":
            owner = _owner(t, said.speaker, speaker, names)
            if owner is None:
                return None
            words.append(owner)
        elif t.pos_ == "PRON":
            return None
        else:
            words.append(t.text)
    return " ".join(words).replace(" 's", "'s")


def resolve(found: list[tuple[Token, str]], recent: list[Said], speaker: str,
            names: set[str]) -> dict[int, str] | None:
    """What each pointing word of a sentence reads as, by token index; None when one of them points to nothing
    clear. A pronoun looks only at the sentence just before (`recent[0]`) and needs exactly one noun there it
    could mean (the speakers' own names are not candidates: "his" is neither of them); "this necklace" needs a
    necklace in one of the `recent` sentences."""
    out: dict[int, str] = {}
    for t, wants in found:
        if wants == "echo" and not recent:
            continue  # the first sentence of the talk: nothing before it to mean
        if wants == "role":  # "the dancers" the sentences before named are those; else the studio's, unsaid
            if not any(x.lemma_ == t.head.lemma_ for s in recent for x in s.span):
                return None
            wants = "echo"
        if not wants or not recent:
            return None
        if wants == "echo":  # "I did an abstract painting." - "I wanted the painting to be calm": which one
            lemma = t.head.lemma_.lower()
            named = [x for s in recent for x in s.span if x.lemma_.lower() == lemma and x.pos_ == "NOUN"]
            if lemma in HAPPENINGS and not any(_specific(x) for x in named):
                return None  # "I'm down to join the meeting": which one the talk knows, the record would not
            if all(any(c.dep_ == "det" and c.lower_ == "the" for c in x.children) and not _specific(x) for x in named):
                continue  # named here first, or only as "the court" before: it reads alone as it did there
            wants = "same"
        if wants == "same":  # "Love the necklace!" - "This necklace is special to me": "the necklace"
            said = next(((x, s) for s in recent for x in s.span
                         if x.lemma_.lower() == t.head.lemma_.lower() and x.pos_ == "NOUN" and _specific(x)
                         and x.tag_ == t.head.tag_  # "this city" is not "my favorite cities"
                         and not any(c.lower_ in QUANTIFIERS for c in x.children)), None)
            if said is not None and _asked(*said):
                return None  # "What's your favorite genre?" - "I'm a fan of this genre": which one is not said
            phrase = _phrase(*said, speaker, names) if said else None
            if phrase is None or t.head.children and any(c.i != t.i for c in t.head.lefts):
                return None  # "this necklace" after "Love the necklace!": which necklace is still not said
            out[t.i] = phrase
            out[t.head.i] = ""
            continue
        before = recent[0]
        if before.span.text.rstrip().endswith("?") and any(x.tag_ in ("WP", "WDT") for x in before.span):
            return None  # "Who was the main actress in Harry Potter? I've heard about her": the one asked for
        if wants == "place":  # the one place the latest sentence naming anything names: "Lisbon?" - "Yes! … there"
            places = next(({e.text for e in s.span.ents if e.label_ in PLACES} for s in recent
                           if any(x.pos_ in ("NOUN", "PROPN") for x in s.span)), set())
            if len(places) != 1:
                return None
            out[t.i] = ("" if t.head.pos_ == "ADP" else "in ") + places.pop()  # "from there" -> "from Lisbon"
            continue
        if any(POINTS.get(x.lower_) == wants and not (x.lower_ == "it" and _ambient(x))
               and not any(_fits(y, wants) for y in before.span if y.i < x.i) for x in before.span):
            return None  # "I give them advice. Being a role model for them …": them is who it was there, not a noun
        named = [c.root for c in before.span.noun_chunks  # every noun the sentence names, but its own time
                 if c.root.pos_ in ("NOUN", "PROPN") and c.root.text not in names and c.root.dep_ != "ROOT"
                 and c.root.lemma_.lower() not in TIME_NOUNS and c.root.ent_type_ not in ("DATE", "TIME")
                 and not (c.root.dep_ in ("appos", "compound") and c.root.head.pos_ in ("NOUN", "PROPN"))]
        if wants == "thing":
            roots = named if len(named) == 1 and _fits(named[0], wants) else []  # it: the one thing it names
        else:
            roots = [r for r in named if _fits(r, wants)]
        if len(roots) != 1 or not _specific(roots[0]) or any(c.lower_ in QUANTIFIERS for c in roots[0].children):
            return None  # "Got any paintings to show? I'd love to check them out": "any" names none
        phrase = _phrase(roots[0], before, speaker, names)
        if phrase is None:
            return None
        if t.lower_ in ("its", "their", "his") or (t.lower_ == "her" and t.dep_ == "poss"):
            phrase += "'" if phrase.endswith("s") else "'s"
        elif t.lower_.endswith("self") or t.lower_ == "themselves":
            return None  # "itself" stays with its sentence's own subject; never the case without one
        out[t.i] = phrase
    return out
