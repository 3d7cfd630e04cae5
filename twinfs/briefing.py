"""What the brief adds to the lanes: known (from the pages), worked_out, the judge, and whether reading waits.

Every brief asks for the end user's records folded into pages, so they are kept while the files stand: a record
file that changed is read again alone (a vault of 100,000 passages has thousands of them), and the folds as of a
day (`before`) are kept for the last few days asked about. Whether the files stand is told by a count of their
changes where the watcher sees every one as it happens; elsewhere by a stat of each file (4,670 files at 100,000
passages: 14 ms of a 45 ms fast search).
"""
from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from . import folding, worked
from . import search as searching
from .filing import Reading
from .filtering import Filter
from .ledger import all_records
from .models import Record, SearchRequest
from .space import Space

DAYS_KEPT = 8  # folds as of a day (`before`) kept per end user


@dataclass
class Folded:
    stamp: tuple = ()
    records: list[Record] = field(default_factory=list)
    pages: list = field(default_factory=list)
    days: OrderedDict = field(default_factory=OrderedDict)  # day -> (records, pages) as of that day


class Briefing:
    def __init__(self, embedder, clock: Callable[[], datetime],
                 seen: Callable[[Space], tuple | None] = lambda space: None):
        """`seen(space)`: a stamp of the vault's records/ that changes whenever a file under it does, or None
        where no such count is kept (then each file's own stamp is looked at)."""
        self.embedder = embedder
        self.clock = clock
        self.seen = seen
        self._kept: dict[str, Folded] = {}
        self._lock = threading.Lock()

    def forget(self, name: str) -> None:
        """An end user closed, or changed behind the files' stamps (forget, sync): fold again when asked."""
        with self._lock:
            self._kept.pop(name, None)

    def context(self, space: Space, request: SearchRequest, judge: Filter, reading: Reading | None
                ) -> searching.Context:
        context = searching.Context()
        if request.ranked:
            return context
        org = space.user.org
        waiting = reading is not None and reading.waiting(org)
        if waiting:
            context.reading_waits_until = reading.budget.resumes_at(org)
        if not request.fast and not (waiting and judge.name == "model"):
            context.judge = judge  # an LLM judge spends the budget; spent, the brief goes unfiltered
        before = request.before_at
        records, pages = self.folded(space, before.date().isoformat() if before else None)
        if records:
            wanted = folding.relevant(pages, request.query, self.embedder)
            context.known = folding.known_lines(pages, wanted)
            chosen = {s for s, _ in wanted}
            context.worked_out = worked.conflicts([p for p in pages if p.subject in chosen], wanted)
            today = (before.date().isoformat() if before else self.clock().date().isoformat())
            for line in (worked.count_line(records, request.query), worked.span_line(records, request.query, today)):
                if line:
                    context.worked_out.append(line)
        return context

    def folded(self, space: Space, day: str | None = None) -> tuple[list[Record], list]:
        """The records and the pages they fold into, as the files now stand (said before `day`, when given)."""
        name = space.user.dirname
        counted = self.seen(space)  # taken before the files are read: a change after it changes it again
        stamp = ("counted", counted) if counted is not None else tuple(sorted(_stamps(space).items()))
        with self._lock:
            kept = self._kept.get(name) or Folded()
        if kept.stamp != stamp:
            records = all_records(space)
            kept = Folded(stamp, records, folding.fold(records, self.embedder))
            with self._lock:
                self._kept[name] = kept
        if day is None:
            return kept.records, kept.pages
        with self._lock:
            found = kept.days.get(day)
            if found:
                kept.days.move_to_end(day)
                return found
        earlier = [r for r in kept.records if r.said < day]
        found = (earlier, folding.fold(earlier, self.embedder))
        with self._lock:
            kept.days[day] = found
            while len(kept.days) > DAYS_KEPT:
                kept.days.popitem(last=False)
        return found


def _stamps(space: Space) -> dict[str, tuple]:
    """Record file (its thread) -> (modified, size), from one listing of records/."""
    out: dict[str, tuple] = {}
    try:
        with os.scandir(space.root / "records") as entries:
            for entry in entries:
                if entry.name.startswith("th_") and entry.name.endswith(".json"):
                    st = entry.stat()
                    out[entry.name[:-5]] = (st.st_mtime_ns, st.st_size)
    except FileNotFoundError:
        pass
    return out
