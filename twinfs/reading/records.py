"""Finishing: drafts a reader proposes -> validated Records. One function every reader uses.

Code, not the model, decides what a model cannot know or may get wrong: the id, the days, who said it,
which turns it may cite and where they are stored.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import date, datetime

from pydantic import BaseModel, Field, ValidationError

from ..models import Record, RecordKind
from ..text import norm
from .dates import Prefer, as_day, find, phrases, resolve
from .windows import Window

_SELF = {"i", "me", "myself", "user", "the user", "speaker", "the speaker", "you", "assistant", "the assistant"}
_ATTRIBUTE_RE = re.compile(r"[^a-z0-9]+")


class Draft(BaseModel):
    """What a reader proposes for one record, before code fixes ids, days, speaker and source.

    The lengths bound what a model may write; they stay small because llama.cpp turns each into a grammar rule
    whose size grows with the length."""

    kind: RecordKind
    text: str = Field(min_length=1, max_length=200, description="one short statement in the third person")
    subject: str = Field(max_length=60, description="who or what it is about, by name")
    attribute: str | None = Field(None, max_length=40, description="e.g. home_city, job, pet; null if none")
    value: str | None = Field(None, max_length=80, description="the attribute's value; null if no attribute")
    when: str | None = Field(None, max_length=30,
                             description="the time phrase as said ('yesterday', 'next month') or YYYY-MM-DD")
    turns: list[str] = Field(min_length=1, max_length=6, description="ids of the turns it was read from")


@dataclass
class Outcome:
    records: list[Record] = field(default_factory=list)
    tokens: int = 0  # what the backend counted (prompt + completion); for the rules reader, spaCy tokens
    failed: str | None = None  # a bad answer twice: no records then, never fake ones


def record_id(thread: str, record: dict) -> str:
    """`<thread>#r` + 16 hex digits over the thread and the record's content, so its position never matters."""
    content = {k: record.get(k) for k in ("kind", "text", "subject", "attribute", "value", "happened", "said")}
    canonical = json.dumps(content, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"{thread}#r" + hashlib.sha256((thread + canonical).encode()).hexdigest()[:16]


def _attribute(name: str | None) -> str | None:
    if not name:
        return None
    name = _ATTRIBUTE_RE.sub("_", name.strip().lower()).strip("_")
    return name[:60] or None


def _clean(text: str | None) -> str | None:
    if text is None:
        return None
    text = " ".join(str(text).split())
    return text or None


def _happened(draft: Draft, text: str, said_text: str, at: datetime, from_model: bool) -> date | None:
    """The day a draft names, from a time phrase the cited turn really holds (a model's own date is not
    trusted): its `when` if the turn says it, else the first time phrase of the record's text the turn says,
    else (`from_model`: a model leaves `when` out) the turn's only time phrase."""
    prefer: Prefer = "future" if draft.kind == "plan" else "past"
    said_low = " ".join(said_text.lower().split())
    own = not from_model and re.fullmatch(r"\d{4}-\d{2}-\d{2}", draft.when or "")  # the rules' own day: a
    # question just before named it ("How was the opening last night?"), not said in the turn cited
    if draft.when and (own or " ".join(draft.when.lower().split()) in said_low) \
            and (day := resolve(draft.when, at, prefer)) is not None:
        return day
    found = find(text, at, prefer)
    if found and " ".join(found[0].lower().split()) in said_low:
        return found[1]
    if not from_model:
        return None
    days = {d for p in phrases(said_text) if (d := resolve(p, at, prefer)) is not None}
    return days.pop() if len(days) == 1 else None


def _grounded(value: str, said: list[str]) -> bool:
    """A value shares a word of three letters or more with what the cited turns say."""
    words = set(re.findall(r"[a-z0-9]{3,}", " ".join(said).lower()))
    return bool(set(re.findall(r"[a-z0-9]{3,}", value.lower())) & words)


def finish(window: Window, drafts: list[Draft], from_model: bool = False) -> list[Record]:
    """Records from drafts: only turns the window reads, days resolved from the cited turn, stable ids, no
    duplicates."""
    allowed = set(window.new)
    records: dict[str, Record] = {}
    for draft in drafts:
        turns = list(dict.fromkeys(t for t in draft.turns if t in allowed))
        text = _clean(draft.text)
        if not turns or not text:
            continue
        cited = window.turn(turns[0])
        assert cited is not None  # every id in window.new is a turn of the window
        said = as_day(cited.at)
        happened = _happened(draft, text, cited.text, cited.at, from_model)
        if happened is None and draft.kind != "plan":
            happened = said  # a state, event or preference without a time phrase holds as of the day it was said
        subject = _clean(draft.subject)
        speakers = {norm(t.speaker) for t in window.turns} - {norm(cited.speaker)}
        by = "assistant" if cited.role == "assistant" else "user"
        if not subject or subject.lower() in _SELF or (by == "user" and norm(subject) in speakers):
            subject = cited.speaker  # a model may name the other speaker of a turn; the turn says who spoke
        attribute = _attribute(draft.attribute) if by == "user" else None  # a suggestion sets no one's value
        value = _clean(draft.value) if attribute else None
        if from_model and value and not _grounded(value, [turn.text for t in turns if (turn := window.turn(t))]):
            attribute = value = None  # a value the cited turns never say (a model copies the prompt's examples)
        if value is None:
            attribute = None
        body = {
            "kind": draft.kind, "text": text, "subject": subject, "attribute": attribute, "value": value,
            "happened": happened.isoformat() if happened else None, "said": said.isoformat(),
            "by": by,
            "turns": turns,
            "source": next((window.sources[t] for t in turns if t in window.sources), ""),
        }
        try:
            record = Record(id=record_id(window.thread, body), **body)
        except ValidationError:
            continue
        if record.id in records:
            merged = records[record.id].turns + [t for t in turns if t not in records[record.id].turns]
            records[record.id] = records[record.id].model_copy(update={"turns": merged})
        else:
            records[record.id] = record
    return list(records.values())
