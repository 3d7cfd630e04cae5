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
live?" - "Sheffield, near the park." -> home_city Sheffield; "How old are you?" - "Forty-six." -> age): `answered`.
"""
from __future__ import annotations

import re
from itertools import takewhile
from typing import TYPE_CHECKING

from .reference import TIME_NOUNS, Said
from .talk import GENERIC_NOUNS, LIGHT_VERBS

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
    last, the newest first)."""
    lead = next((i for i, s in enumerate(before) if s.speaker != speaker), None)
    if lead is None or any(s.span.doc is not sentence.doc for s in before[:lead]):
        return None  # the speaker's turn before this one came between: "Oh, and I'm learning to drive" is news
    asker = before[lead].speaker
    for said in before[lead:]:
        if said.speaker != asker:
            return None
        if said.span.text.strip().endswith("?"):
            return said.span
    return None


def question(before: list[Said], sentence: Span, speaker: str) -> Span | None:
    """The last question, when it names something of its own and is short: the one a record may carry."""
    asked = last_question(before, sentence, speaker)
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
ASKS = ((re.compile(r"\bwhere (?:do|did) you (?:live|stay)\b|\bwhere are you (?:based|living)\b", re.I), "home_city"),
        (re.compile(r"\bwhere are you (?:originally )?from\b|\bwhere did you grow up\b|\bwhere were you born\b", re.I),
         "hometown"),
        (re.compile(r"\bhow old are you\b", re.I), "age"))


def answered(asked: Span | None, sentence: Span) -> tuple[str, str] | None:
    """The fact a verbless answer gives to a question asking for it: a place its first words name, or an age."""
    if asked is None or any(t.pos_ in ("VERB", "AUX") for t in sentence):
        return None
    attribute = next((a for pattern, a in ASKS if pattern.search(asked.text)), None)
    words = [t for t in sentence if not t.is_punct and t.pos_ != "INTJ" and t.lower_ not in ("oh", "um", "well")]
    if attribute is None or not words:
        return None
    first = words[0]
    if attribute == "age":
        number = next((e.text for e in sentence.ents if e.start == first.i and e.label_ in ("CARDINAL", "DATE")),
                      first.text)
        number = number if number.isdigit() else number.lower()
        return ("age", number) if first.like_num and (not number.isdigit() or 0 < int(number) < 120) else None
    place = next((e.text for e in sentence.ents if e.label_ in ("GPE", "LOC") and (
        e.start == first.i or len(words) <= 6)), None)  # "Small town in Ohio."
    if place is None and _a_name(first):  # spaCy's small model reads a bare "Bristol." as a firm, "Accra." as a noun
        place = " ".join(t.text for t in takewhile(_a_name, words))
    return (attribute, place) if place else None


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
