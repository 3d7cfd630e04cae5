"""Cutting a thread's turns into windows a reader reads once. Pure functions: no disk, no model."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ..forms import as_utc, iso
from ..passages import Turn


@dataclass
class Window:
    """Turns a reader reads at once: `context` turns first, then the turns it reads (their ids in `new`)."""

    thread: str
    turns: list[Turn]
    new: list[str]
    sources: dict[str, str] = field(default_factory=dict)
    position: int = 0  # which window of the thread: turns [position*size, (position+1)*size) are read

    @property
    def hash(self) -> str:
        """Changes when any turn it holds changes (text, speaker, time) or when the turns it reads change."""
        body = {
            "thread": self.thread,
            "turns": [[t.id, t.kind, t.role, t.name, t.title, iso(t.at), t.text] for t in self.turns],
            "new": self.new,
        }
        return hashlib.sha256(json.dumps(body, ensure_ascii=False, sort_keys=True).encode()).hexdigest()[:32]

    @property
    def reading(self) -> list[Turn]:
        """The turns this window reads, without the context."""
        wanted = set(self.new)
        return [t for t in self.turns if t.id in wanted]

    def turn(self, turn_id: str) -> Turn | None:
        for t in self.turns:
            if t.id == turn_id:
                return t
        return None


def plan_windows(thread: str, turns: list[Turn], sources: dict[str, str], read_hashes: set[str], now: datetime,
                 quiet_seconds: int, size: int = 12, context: int = 4) -> list[Window]:
    """The windows of a thread still to read, oldest first.

    Window k reads turns [k*size, (k+1)*size) with up to `context` turns before them, so appending turns never
    changes an earlier window. The last, partial window waits until the newest turn is `quiet_seconds` old.
    """
    if size < 1:
        raise ValueError("a window reads at least one turn")
    context = max(0, context)
    quiet = as_utc(now) - timedelta(seconds=quiet_seconds)
    windows: list[Window] = []
    for position, start in enumerate(range(0, len(turns), size)):
        reading = turns[start:start + size]
        if len(reading) < size and as_utc(reading[-1].at) > quiet:
            break
        held = turns[max(0, start - context):start] + reading
        window = Window(thread, held, [t.id for t in reading],
                        {t.id: sources[t.id] for t in reading if t.id in sources}, position)
        if window.hash not in read_hashes:
            windows.append(window)
    return windows
