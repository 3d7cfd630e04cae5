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

UNITS = (r"months?|weeks?|days?|hours?|minutes?|mins?|miles?|km|k|kg|kilos?|lbs?|pounds?|feet|ft|inches|percent|%|"
         r"times|pm|am")
SPELLED = TENS + r"(?:-(?:one|two|three|four|five|six|seven|eight|nine))?"
# a number at a clause's start, followed by "now", "and <words>" or ", <words>": no count, sum or list of numbers
BARE = re.compile(r"(?:^|[,;:.–—-] )(\d{2})(?: now)?(?: and (?!(?:a half|under|over|up|counting|more|above|below)\b)"
                  r"|, )(?=[a-z])")
OTHERS = {"he", "she", "they", "his", "her", "their", "him", "them"}


def ages(low: str, tokens: Iterable[Token]) -> list[str]:
    """The ages a sentence gives its speaker, as said."""
    found = []
    m = re.search(r"\bi(?: 'm| am| just turned| turned) (\d{1,3})(?: years? old)?\b(?! ?(?:" + UNITS + r")\b)", low)
    if m and 0 < int(m.group(1)) < 120 and "%" not in low and not _someday(low[:m.start()]):
        found.append(m.group(1))  # "I'm 5 months pregnant" tells no age
    m = re.search(r"\bi(?: 'm| am| just turned| turned) (" + SPELLED + r")(?: years? old)?"
                  r"(?: [.!,]|$| last| this| on| in| and)", low)
    if m and not _someday(low[:m.start()]):
        found.append(m.group(1))  # "I turned forty last week": as said
    m = re.search(r"^(?:and |but |so )?at (\d{2}),? i(?: 'm| am)\b", low)
    if m and 10 < int(m.group(1)) < 110:
        found.append(m.group(1))  # "at 37 I'm too old for this"
    m = re.search(r"\bi(?: 'm| am)? [^,]+, at (\d{2}|" + SPELLED + r")(?: years old)?\W*$", low)
    if m and (not m.group(1).isdigit() or 10 < int(m.group(1)) < 110):
        found.append(m.group(1))  # "I'm finally learning to drive, at forty-one": the speaker's age, said last
    m = BARE.search(low)
    if m and 16 <= int(m.group(1)) < 100 and not re.search(r"\d", low[max(0, m.start(1) - 6):m.start(1)]) \
            and not _other_before(tokens, m.group(1)) and not _someday(low[:m.start(1)]):
        found.append(m.group(1))  # "Retired postman so I've got the time – 63 and bored stiff"
    return found


def _other_before(tokens: Iterable[Token], number: str) -> bool:
    """Whether the sentence's words before the number name someone else, whose age it may be: "Mum's retired – 63
    and bored", "Priya? 29, and still at home" (the whole sentence: the reader may have trimmed its start)."""
    at = next((t for t in tokens if t.text == number), None)
    return at is None or any((t.pos_ == "PROPN" and t.text[:1].isupper()) or t.lower_ in KIN or t.lower_ in OTHERS
                             for t in at.doc[at.sent.start:at.i])


def _someday(before: str) -> bool:
    """The words before an age say when, not how old: "maybe when I'm 35", "by the time I'm forty"."""
    return re.search(SOMEDAY + "$", before + " ") is not None
