"""Worked out: lines computed by code over the records when the question asks for them — conflicts (two
current values for one subject · attribute), counts ("how many times…") and spans between days ("how long
ago…"). Never guessed by a model. Pure functions, like folding.
"""
from __future__ import annotations

import math
import re
from collections import defaultdict
from datetime import date

from .folding import Page, canonical_subject, live_records, names_in, newer_first, resolve_subjects
from .models import Record
from .text import IRREGULAR, LIGHT_VERBS, norm, stems_of, words_of


def conflicts(pages: list[Page]) -> list[str]:
    """Two values stated on the same newest day, or the user's own word overruled only by the assistant."""
    lines = []
    for page in pages:
        for attr in page.attributes:
            if len(attr.values) < 2:
                continue
            newest = attr.values[0]
            # "moved from Porto to Lisbon" read on one day gives two values, but different happened days
            rivals = [v for v in attr.values[1:] if v.said == newest.said
                      and (not v.happened or not newest.happened or v.happened == newest.happened)]
            where = f"{page.subject} · {attr.name}"
            if rivals:
                stated = " and as ".join(v.value for v in [newest] + rivals)
                ids = ", ".join(v.records[0] for v in [newest] + rivals)
                lines.append(f"Conflict: {where} was stated as {stated} on {newest.said} ({ids})")
                continue
            own = next((v for v in attr.values if v.by == "user"), None)
            if newest.by == "assistant" and own is not None:
                lines.append(f"Conflict: {where} was stated by the user as {own.value} on {own.said} and by the "
                             f"assistant as {newest.value} on {newest.said} ({own.records[0]}, {newest.records[0]})")
    return lines


_COUNT = re.compile(r"\bhow\s+(?:many\s+(?:times\b)?|often\b)(.*)", re.I | re.S)
_SPAN_UNIT = r"(?:days?|weeks?|months?|years?)"
_SPAN_COUNT = rf"\bhow\s+many\s+{_SPAN_UNIT}\s+(?:ago|since|has|have|had|did|passed)\b"
_SPAN = re.compile(r"\bhow\s+long\s+(?:ago\b|since\b|has\s+it\s+been\b|had\s+it\s+been\b|has\b|have\b)"
                   rf"|\bwhen\s+(?:did|was|were|had|has|have)\b|{_SPAN_COUNT}", re.I)
_AUXILIARY = {"did", "does", "do", "has", "have", "had", "was", "is"}
_GERUND = {"go": "going", "run": "running", "swim": "swimming", "get": "getting", "shop": "shopping",
           "sit": "sitting", "see": "seeing", "be": "being", "have": "having"}


def _subject_names(live: list[Record]) -> tuple[dict[str, str], dict[str, list[str]]]:
    subjects = resolve_subjects(live)
    names: dict[str, list[str]] = defaultdict(list)
    for spelling, canonical in sorted(subjects.items()):
        names[canonical].append(spelling)
    return subjects, names


def _terms(phrase: str, names: dict[str, list[str]]) -> tuple[set[str], set[str]]:
    """The content stems of a phrase without the subjects it names, and those subjects."""
    words = words_of(phrase)
    named, used = names_in(words, names)
    kept = " ".join(w for i, w in enumerate(words) if i not in used)
    return {t for t in stems_of(kept) if t not in LIGHT_VERBS}, named


def _record_stems(record: Record) -> set[str]:
    return stems_of(f"{record.text} {record.value or ''}", ())


def _gerund(verb: str) -> str:
    if verb in _GERUND:
        return _GERUND[verb]
    return (verb[:-1] if verb.endswith("e") and not verb.endswith("ee") else verb) + "ing"


def _count_what(phrase: str, names: dict[str, list[str]]) -> str:
    """"did Alice go to the gym" -> "Alice going to the gym"; anything else is quoted as asked."""
    words = phrase.strip().rstrip("?.! ").split()
    if len(words) >= 3 and words[0].casefold() in _AUXILIARY:
        spellings = {norm(s) for ss in names.values() for s in ss}
        for n in (3, 2, 1):
            who = " ".join(words[1:1 + n])
            if len(words) > 1 + n and (norm(who) in spellings or canonical_subject(who, names)):
                verb = IRREGULAR.get(words[1 + n].casefold(), words[1 + n].casefold())
                return " ".join([who, _gerund(verb)] + words[2 + n:])
    return f'"{" ".join(words)}"'


def count_line(records: list[Record], question: str) -> str | None:
    """How many event records match what a "how many (times)" question asks about."""
    asked = _COUNT.search(question)
    if asked is None or re.search(_SPAN_COUNT, question, re.I):
        return None
    live = live_records(records)
    subjects, names = _subject_names(live)
    terms, named = _terms(asked.group(1), names)
    if not terms:
        return None
    need = len(terms) if len(terms) <= 2 else len(terms) - 1
    seen: dict[tuple[str, str], Record] = {}
    for record in sorted(live, key=lambda r: (r.happened or r.said, r.said, r.id)):
        if record.kind != "event" or (named and subjects[record.subject] not in named):
            continue
        if len(terms & _record_stems(record)) >= need:
            # the same event told twice (same subject, same day) counts once
            seen.setdefault((subjects[record.subject], record.happened or record.id), record)
    if not seen:
        return None
    days = [r.happened or r.said for r in seen.values()]
    shown = ", ".join(days[:20]) + (", …" if len(days) > 20 else "")
    return f"Count: {len(days)} records of {_count_what(asked.group(1), names)} ({shown})"


def _about(days: int) -> str:
    for least, size, unit in ((365, 365.25, "year"), (60, 30.44, "month"), (14, 7, "week")):
        if days >= least:
            n = round(days / size)
            return f" (about {n} {unit}{'s' if n != 1 else ''})"
    return ""


def span_line(records: list[Record], question: str, today: str) -> str | None:
    """Days between the record a "how long ago / when did" question is about and today (the as-of day)."""
    asked = _SPAN.search(question)
    if asked is None:
        return None
    now = today.strip()[:10]
    live = [r for r in live_records(records) if r.said <= now and r.happened]
    subjects, names = _subject_names(live)
    terms, named = _terms(question[:asked.start()] + " " + question[asked.end():], names)
    if not terms:
        return None
    need = max(1, math.ceil(len(terms) / 2))
    first = "first" in words_of(question)
    best: tuple | None = None
    for record in live:
        happened = record.happened or ""
        if happened > now or (named and subjects[record.subject] not in named):
            continue
        hits = len(terms & _record_stems(record))
        if hits < need:
            continue
        key = (-hits, record.kind == "plan", happened if first else newer_first(happened), record.id)
        if best is None or key < best[0]:
            best = (key, record)
    if best is None:
        return None
    record = best[1]
    try:
        days = abs((date.fromisoformat(record.happened or now) - date.fromisoformat(now)).days)
    except ValueError:  # a hand-edited record with a day that is not a day
        return None
    text = record.text.strip().rstrip(".")
    return f"Span: {text} on {record.happened}, {days} day{'s' if days != 1 else ''}{_about(days)} before {now}."
