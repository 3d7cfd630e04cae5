"""Times a question names by an event: "the week before the wedding", "the day after my sister's graduation".
The event's day is what memory holds of it: the day the best record about it says it happened (or was said), else
the day of the passage that best names it; the span is then counted from that day, and search lifts what was said
inside it as it does for "in May" (search.dated)."""
from __future__ import annotations

import re
from datetime import date, timedelta

from .index import Bounds
from .ledger import indexed_record
from .reading.dates import TimeSpan, as_day, days_in
from .space import Space

# "(the) week before the wedding", "a day after my sister's graduation party", "the month after our move"
ANCHORED = re.compile(r"\b(?:the\s+|a\s+)?(day|weekend|week|month)\s+(before|after)\s+(?:the|my|our|his|her|their|"
                      r"your)\s+((?:[\w'’-]+)(?:\s+[\w'’-]+){0,2})", re.IGNORECASE)
ENDS = re.compile(r"\s+\b(?:and|or|when|where|did|was|were|in|at|on|to|with|for|that|is|are|do|does)\b.*$",
                  re.IGNORECASE)
LENGTH = {"day": 1, "weekend": 3, "week": 7, "month": 31}  # days counted from the event's day, not that day


def event_day(space: Space, event: str, bounds: Bounds) -> date | None:
    """The day memory says this event happened: its best record's `happened` (else `said`), else the day the
    passage that best names it was said; None when nothing names it."""
    for doc, path, _ in space.words.search(event, Bounds(bounds.scope, bounds.before, None, "record"), 5):
        record = indexed_record(space, path, doc)
        days = days_in(record.happened, record.said) if record else []
        if days:
            return days[0]
    for doc, _, _ in space.words.search(event, Bounds(bounds.scope, bounds.before, None, "passage"), 1):
        span = space.words.spans("passage", [doc]).get(doc)
        if span:
            return as_day(span[0])
    return None


def event_spans(space: Space, query: str, bounds: Bounds) -> list[TimeSpan]:
    """The spans a question names by events memory holds a day for."""
    out = []
    for m in ANCHORED.finditer(query):
        unit, side, event = m.group(1).lower(), m.group(2).lower(), ENDS.sub("", m.group(3)).rstrip("?.!,;")
        day = event_day(space, event, bounds) if event else None
        if day is None:
            continue
        days = timedelta(days=LENGTH[unit])
        first, last = (day - days, day - timedelta(days=1)) if side == "before" else (day + timedelta(days=1),
                                                                                     day + days)
        out.append(TimeSpan(phrase=m.group(0), first=first, last=last))
    return out
