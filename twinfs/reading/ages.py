"""How old the speaker says they are, in the forms people use: "I'm 34", "I turned forty last week", "at 37 I'm
too old for this", "learning to drive, at forty-one", and said bare at a clause's start ("38 now and it's less
forgiving", "52, semi-hermit", "…, 4th year, 23 and skint"). `low` is a sentence's tokens joined by single
spaces, lower-cased ("i 'm 34"); a time one will be that age ("when I'm 35") tells none."""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from .lexicon import KIN, SOMEDAY, TENS

if TYPE_CHECKING:
    from spacy.tokens import Token

UNITS = (r"months?|weeks?|wks?|days?|hrs?|yrs? (?:sober|clean|married|together)|hours?|minutes?|mins?|miles?|km|k|"
         r"kg|kilos?|lbs?|pounds?|feet|ft|inches|percent|%|"
         r"times|pm|am")
SPELLED = TENS + r"(?:-(?:one|two|three|four|five|six|seven|eight|nine))?"
# a number at a clause's start, followed by "now", "and <words>" or ", <words>": no count, sum or list of numbers
BARE = re.compile(r"(?:^|[,;:.–—-] )(\d{2}|" + SPELLED + r")(?: now)?"
                  r"(?: and (?!(?:a half|under|over|up|counting|more|above|below)\b)|, )(?=[a-z])")
STILL = r"(?: still| now| only| actually)?"  # "yes I'm still 44", "I'm 41 now"
OTHERS = {"he", "she", "they", "his", "her", "their", "him", "them"}
# the names of things, not people, before a bare age: "Freelance translator, Irish and German. Fifty-two, …"
NAMING_NO_ONE = {"NORP", "LANGUAGE", "GPE", "LOC", "FAC", "ORG", "DATE", "TIME", "PRODUCT", "EVENT"}


def ages(low: str, tokens: Iterable[Token]) -> list[str]:
    """The ages a sentence gives its speaker, as said."""
    found = []
    m = re.search(r"\bi(?: 'm| am| just turned| turned)" + STILL + r" (\d{1,3})(?![.,]\d)(?: years? old)?\b"
                  r"(?! ?(?:" + UNITS + r")\b)", low)  # not "I'm 1.85": a height
    if m and grown_up(m.group(1)) and "%" not in low and not _someday(low[:m.start()]):
        found.append(m.group(1))  # "I'm 5 months pregnant" tells no age; a child's words the speaker pastes ("MY
        # NAME: Yasmine. I am 8 and a half") are not the grown-up speaker's
    m = re.search(r"\bi(?: 'm| am| just turned| turned)" + STILL + r" (" + SPELLED + r")(?: years? old)?"
                  r"(?: ?[.!,;]|$| last| this| on| in| and| but| so)", low)
    if m and not _someday(low[:m.start()]):
        found.append(m.group(1))  # "I turned forty last week": as said
    m = re.search(r"^(?:and |but |so )?at (\d{2}|" + SPELLED + r"),? (?:i(?: 'm| am)|my)\b", low)
    if m and (not m.group(1).isdigit() or 10 < int(m.group(1)) < 110):
        found.append(m.group(1))  # "at 37 I'm too old for this", "At forty-five, my memory is not what it was"
    m = re.search(r"\bi(?: 'm| am)? [^,]+, at (\d{2}|" + SPELLED + r")(?: years old)?\W*$", low)
    if m and (not m.group(1).isdigit() or 10 < int(m.group(1)) < 110):
        found.append(m.group(1))  # "I'm finally learning to drive, at forty-one": the speaker's age, said last
    first = next(iter(tokens), None)  # the whole sentence: the reader trims a label before a colon
    m = re.search(r"(?:^|[(,•-] )age ?: ?(\d{1,3}|" + SPELLED + r")\b", first.sent.text.lower()) if first else None
    if m and first and told_age(m.group(1)) and not _someone(
            t for t in first.sent if t.idx < first.sent.start_char + m.start(1)):
        found.append(m.group(1))  # a list's "- age: forty-six (not sure if that matters)"; not "my son, age: 12"
    m = BARE.search(low)
    said = [t for t in tokens if t.like_num and t.lower_ == m.group(1).split("-")[-1]] if m else []
    if m and said and (not m.group(1).isdigit() or 16 <= int(m.group(1)) < 100) \
            and not re.search(r"\d", low[max(0, m.start(1) - 6):m.start(1)]) and not _someday(low[:m.start(1)]) \
            and said_bare(said[0].doc[said[0].i - m.group(1).count("-") * 2], said[0]):
        found.append(m.group(1))  # "Retired postman so I've got the time – 63 and bored stiff"
    return found


def grown_up(word: str) -> bool:
    """A grown-up's age as said: 13 to 119, or spelled from "twenty" on ("I'm 37"; not a child's "I am 8 and a half"
    pasted, nor "like I'm nine")."""
    return (word.isdigit() and 12 < int(word) < 120) or re.fullmatch(SPELLED, word) is not None


def told_age(value: str) -> bool:
    """The value is an age as people write one: 1 to 119 in digits, or spelled ("forty-six")."""
    said = value.strip().lower()
    return (said.isdigit() and 0 < int(said) < 120) or re.fullmatch(SPELLED, said) is not None


def said_bare(first: Token, last: Token) -> bool:
    """The number from `first` to `last` is said bare at a clause's start, before "now", "and" or a comma ("52,
    semi-hermit", "… – 63 and bored stiff"), and the sentence's words before it name no one else, whose age it may
    be ("Mum's retired – 63 and bored", "Priya? 29, and still at home"): the whole sentence, the reader may have
    trimmed its start."""
    doc = first.doc
    before = doc[first.sent.start:first.i]
    at = [t.lower_ for t in before] in (["at"], ["and", "at"], ["but", "at"], ["so", "at"])  # "At forty-five, my …"
    said = doc[doc[first.sent.start - 1].sent.start:first.sent.start] if first.sent.start > 0 else doc[0:0]
    return first.like_num and (first.i == first.sent.start or at or before[-1].is_punct) and last.i + 1 < len(doc) \
        and doc[last.i + 1].lower_ in (",", "and", "now") and not _someone(before) and not (
            (not len(before) or at) and _someone(said, subject=True))  # "My dad retired. 63 and bored stiff": his


def _someone(tokens: Iterable[Token], subject: bool = False) -> bool:
    """The words name someone other than the speaker (as a sentence's subject, `subject`): a relative, "he", a name
    ("Priya", not "Irish and German" nor a capital that starts a sentence: "Freelance translator, …")."""
    return any(t.lower_ in KIN or t.lower_ in OTHERS or (
        t.pos_ == "PROPN" and t.text[:1].isupper() and t.ent_type_ not in NAMING_NO_ONE
        and (not subject or t.dep_ in ("nsubj", "nsubjpass", "poss"))) for t in tokens)


def _someday(before: str) -> bool:
    """The words before an age say when, not how old: "maybe when I'm 35", "by the time I'm forty"."""
    return re.search(SOMEDAY + "$", before + " ") is not None
