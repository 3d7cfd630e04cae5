"""Worked out: lines computed by code over the records when the question asks for them — conflicts (two
current values for one subject · attribute), counts ("how many times…") and spans between days ("how long
ago…"). Never guessed by a model. Pure functions, like folding.
"""
from __future__ import annotations

import math
import re
from collections import defaultdict
from datetime import date

from .folding import Page, Value, canonical_subject, concept_of, live_records, newer_first, resolve_subjects
from .known import names_in
from .models import Record
from .text import IRREGULAR, LIGHT_VERBS, gerund, norm, stem, stems_of, words_of

ONE_AT_A_TIME = {"home", "job", "employer", "diet", "partner", "age"}  # a newer value replaces the older


def conflicts(pages: list[Page], asked: list[tuple[str, str | None]] | None = None) -> list[str]:
    """Two values stated on the same newest day, the user's own word overruled only by the assistant, or a value
    that holds one at a time (home, job, diet …) stated anew: what changed, so the older is not taken as now
    (only for the subject · attribute pairs `asked` about, when given)."""
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
            both = _held_with(page, newest, rivals or attr.values[1:2])
            if both:
                held = [newest, *both]
                stated = " and as ".join(v.value for v in held)
                ids = ", ".join(v.records[0] for v in held)
                lines.append(f"Both hold: {where} holds as {stated}, as the fold question found ({ids})")
                continue
            if rivals:
                stated = " and as ".join(v.value for v in [newest] + rivals)
                ids = ", ".join(v.records[0] for v in [newest] + rivals)
                lines.append(f"Conflict: {where} was stated as {stated} on {newest.said} ({ids})")
                continue
            own = next((v for v in attr.values if v.by != "assistant"), None)
            if newest.by == "assistant" and own is not None:
                lines.append(f"Conflict: {where} was stated by the user as {own.value} on {own.said} and by the "
                             f"assistant as {newest.value} on {newest.said} ({own.records[0]}, {newest.records[0]})")
            elif concept_of(attr.name) in ONE_AT_A_TIME and newest.by != "assistant" and (
                    asked is None or (page.subject, attr.name) in asked):
                before = attr.values[1]
                lines.append(f"Changed: {where} was {before.value} (said {before.said}), then {newest.value} "
                             f"(said {newest.said}): the newer holds unless corrected ({before.records[0]}, "
                             f"{newest.records[0]})")
    return lines


def _held_with(page: Page, newest: Value, others: list[Value]) -> list[Value]:
    """The values the fold question found holding beside `newest` (each record notes the other's id in `held`:
    reading/foldcheck.py), when every one of `others` is; else none, and the values are told as they stand."""
    by_id = {r.id: r for r in page.records}
    noted = {other for rid in newest.records for other in ((by_id[rid].held or {}).get("with", [])
                                                            if rid in by_id else [])}
    if not others or not all(noted & set(v.records) for v in others):
        return []
    return others


_COUNT = re.compile(r"\bhow\s+(?:many\s+(?:times\b)?|often\b)(.*)", re.I | re.S)
_SPAN_UNIT = r"(?:days?|weeks?|months?|years?)"
_SPAN_COUNT = rf"\bhow\s+many\s+{_SPAN_UNIT}\s+(?:ago|since|has|have|had|did|passed)\b"
_SPAN = re.compile(r"\bhow\s+long\s+(?:ago\b|since\b|has\s+it\s+been\b|had\s+it\s+been\b|has\b|have\b)"
                   rf"|\bwhen\s+(?:did|was|were|had|has|have)\b|{_SPAN_COUNT}", re.I)
_AUXILIARY = {"did", "does", "do", "has", "have", "had", "was", "is"}


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


def _count_what(phrase: str, names: dict[str, list[str]]) -> str:
    """"did Alice go to the gym" -> "Alice going to the gym"; anything else is quoted as asked."""
    words = phrase.strip().rstrip("?.! ").split()
    if len(words) >= 3 and words[0].casefold() in _AUXILIARY:
        spellings = {norm(s) for ss in names.values() for s in ss}
        for n in (3, 2, 1):
            who = " ".join(words[1:1 + n])
            if len(words) > 1 + n and (norm(who) in spellings or canonical_subject(who, names)):
                verb = IRREGULAR.get(words[1 + n].casefold(), words[1 + n].casefold())
                return " ".join([who, gerund(verb)] + words[2 + n:])
    return f'"{" ".join(words)}"'


# What a "how many" question counts, by its words: plans, likes or what someone has; else events ("times").
_COUNT_KINDS = (
    (re.compile(r"\b(?:plan|plans|planning|planned|going to|gonna|intend|intends|upcoming|coming up|will)\b", re.I),
     {"plan"}),
    (re.compile(r"\b(?:like|likes|love|loves|enjoy|enjoys|prefer|prefers|favou?rites?|hate|hates|dislike|dislikes)\b",
                re.I), {"preference"}),
    (re.compile(r"\b(?:do|does|did)\s+(?:\w+\s+){1,3}(?:have|own|keep)\b", re.I), {"state", "relation"}),
)
_NAMED = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+")


def _count_kinds(question: str, asked: str) -> tuple[set[str], set[str]]:
    """The record kinds a "how many" question counts, and the stems of the words that chose them."""
    if re.search(r"\bhow\s+many\s+times\b|\bhow\s+often\b", question, re.I):
        return {"event"}, set()
    question = asked
    for pattern, kinds in _COUNT_KINDS:
        found = pattern.findall(question)
        if found:
            return kinds, {stem(w) for phrase in found for w in words_of(phrase)}
    return {"event"}, set()


def _same_thing(a: Record, b: Record, terms: set[str], subjects: dict[str, str]) -> bool:
    """One thing told twice (a trip in a message and in the plan's document): the same subject, days within a
    month (or undated), and a name or most words in common beyond the question's own."""
    if subjects[a.subject] != subjects[b.subject]:
        return False
    day_a, day_b = a.happened or a.said, b.happened or b.said
    if day_a == day_b:
        return True
    if a.kind == "event":
        return False  # an act done again on another day is another time
    try:
        apart = abs((date.fromisoformat(day_a) - date.fromisoformat(day_b)).days)
    except ValueError:
        return False
    if apart > 31 and a.happened and b.happened:
        return False
    own = {norm(w) for r in (a, b) for w in r.subject.split()}
    names_a = {norm(w) for w in _NAMED.findall(a.text)} - own
    names_b = {norm(w) for w in _NAMED.findall(b.text)} - own
    if names_a & names_b:
        return True
    if names_a and names_b:
        return False  # a cat named Miso and a cat named Tofu are two cats
    rest_a, rest_b = _record_stems(a) - terms - own, _record_stems(b) - terms - own
    return bool(rest_a | rest_b) and len(rest_a & rest_b) / len(rest_a | rest_b) >= 0.5


def count_line(records: list[Record], question: str) -> str | None:
    """How many records of the kind a "how many" question asks about (events; plans, likes or what someone has
    when it says so) match what it asks; one thing told twice counts once."""
    asked = _COUNT.search(question)
    if asked is None or re.search(_SPAN_COUNT, question, re.I):
        return None
    live = live_records(records)
    subjects, names = _subject_names(live)
    kinds, cues = _count_kinds(question, asked.group(1))
    terms, named = _terms(asked.group(1), names)
    terms -= cues
    if not terms:
        return None
    need = len(terms) if len(terms) <= 2 else len(terms) - 1
    seen: list[Record] = []
    for record in sorted(live, key=lambda r: (r.happened or r.said, r.said, r.id)):
        if record.kind not in kinds or (named and subjects[record.subject] not in named):
            continue
        if len(terms & _record_stems(record)) >= need \
                and not any(_same_thing(record, kept, terms, subjects) for kept in seen):
            seen.append(record)
    if not seen:
        return None
    days = [r.happened or r.said for r in seen]
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
