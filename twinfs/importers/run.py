"""One import: an export read as a stream, its messages made add items and added in batches through
Memory.add (durable as each batch is accepted; landing follows in the background). Each message keeps its
export's id (`chatgpt:<id>`, `claude:<uuid>`), so a second import of the same file adds nothing, and one cut
short (a bad export, a kill) is finished by running it again."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from ..errors import Invalid, Unavailable, describe
from ..models import MAX_TEXT, AddRequest, AddResult, EndUser, Item, Phase
from . import chatgpt, claude, jsonl
from .source import BadExport, Conversation

BATCH = 500  # items an add: what `twin add` sends
FORMATS: dict[str, tuple[str, Callable[[Path], Iterator[Conversation]]]] = {
    "chatgpt": (chatgpt.SOURCE, chatgpt.conversations),
    "claude": (claude.SOURCE, claude.conversations),
}


@dataclass
class Summary:
    conversations: int = 0
    turns: int = 0  # messages made items
    added: int = 0  # of them new (or changed) to this memory
    skipped: dict[str, int] = field(default_factory=dict)  # why -> how many messages were left out
    answers: list[AddResult] = field(default_factory=list)

    def skip(self, why: str, n: int = 1) -> None:
        self.skipped[why] = self.skipped.get(why, 0) + n


def items_of(conv: Conversation, source: str, summary: Summary, name: str | None = None) -> list[Item]:
    """A conversation's messages as add items; a text over MAX_TEXT is cut into parts of whole paragraphs. `name`:
    how the person is called in passages (their turns' `name`), so pages speak of them by it."""
    out = []
    for why, n in conv.skipped.items():
        summary.skip(why, n)
    for m in conv.messages:
        pieces = split(m.text)
        for k, piece in enumerate(pieces, 1):
            suffix = f".part{k}" if len(pieces) > 1 else ""
            try:
                out.append(Item.model_validate({  # the role read from the export is checked here, as any field
                    "id": f"{source}:{m.id}{suffix}", "kind": "message", "conversation": f"{source}:{conv.id}",
                    "role": m.role, "name": name if m.role == "user" else None, "text": piece, "at": m.at,
                    "source": source}))
            except ValidationError as exc:
                summary.skip(f"messages that are no item ({describe(exc)})")
    return out


def check_name(name: str | None) -> None:
    """A name no turn could carry stops the import before anything is added."""
    if name is None:
        return
    try:
        Item(id="name", kind="message", role="user", name=name, text="-", at=datetime.now(UTC))
    except ValidationError as exc:
        raise Invalid(f"--name {name!r}: {describe(exc)}", "name") from None


def split(text: str, most: int = MAX_TEXT) -> list[str]:
    if len(text) <= most:
        return [text]
    parts, current = [], ""
    for para in text.split("\n\n"):
        while len(para) > most:  # one paragraph past the limit: cut where it must be
            if current:
                parts.append(current)
                current = ""
            parts.append(para[:most])
            para = para[most:]
        if current and len(current) + 2 + len(para) > most:
            parts.append(current)
            current = ""
        current = f"{current}\n\n{para}" if current else para
    if current.strip():
        parts.append(current)
    return [p for p in parts if p.strip()]


def import_file(memory, user: EndUser, kind: str, path: Path, progress: Callable[[int, int], None] | None = None,
                summary: Summary | None = None, name: str | None = None) -> Summary:
    """Every conversation of the export at `path` into `user`'s memory, counted in `summary` (given, so that a
    caller still has the count when the export breaks). `name`: the person's, on their turns (items_of).
    `progress(conversations, turns)` after each batch. A bad
    export raises BadExport once what was read before it is added."""
    summary = summary if summary is not None else Summary()
    check_name(name)
    batch: list[Item] = []

    def flush() -> None:
        if batch:
            summary.answers.append(add(memory, user, batch))
            summary.added += sum(p == Phase.accepted for p in summary.answers[-1].phases.values())
            batch.clear()
            if progress:
                progress(summary.conversations, summary.turns)

    try:
        if kind == "jsonl":
            for item in jsonl.items(path):
                batch.append(item)
                summary.turns += 1
                if len(batch) >= BATCH:
                    flush()
        else:
            source, read = FORMATS[kind]
            for conv in read(path):
                summary.conversations += 1
                made = items_of(conv, source, summary, name)
                summary.turns += len(made)
                batch += made
                if len(batch) >= BATCH:
                    flush()
    except BadExport:
        flush()  # what was read whole before the export broke is kept: a re-run finishes the rest
        raise
    flush()
    return summary


def add(memory, user: EndUser, items: list[Item]) -> AddResult:
    """One add, waiting while the end user's landing queue is full (an import outruns landing)."""
    while True:
        try:
            return memory.add(user, AddRequest(items=items))
        except Unavailable as exc:
            if "queue" not in exc.message:
                raise
            time.sleep(exc.retry_after)
