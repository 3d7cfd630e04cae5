"""The fold step: takes a Space's records; writes pages/<subject>.md, at most every TWIN_FOLD_SECONDS per end
user, commits, and marks the items read since `folded`. The folding itself is pure (folding.py); this writes it down."""
from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from ..background import LATER
from ..durable import read_exact
from ..folding import render_page
from ..ledger import records_path
from ..models import Phase
from ..space import Space

log = logging.getLogger("twinfs.fold")


def record_paths(records) -> dict[str, str]:
    """record id -> `records/<thread>.json#N`, N counted in each thread's file from 1."""
    out: dict[str, str] = {}
    seen: dict[str, int] = {}
    for r in records:
        thread = r.id.split("#")[0]
        seen[thread] = seen.get(thread, 0) + 1
        out[r.id] = f"{records_path(thread)}#{seen[thread]}"
    return out


class Folding:
    """`folded`: the records and the pages they fold into as the files now stand — the brief's (Briefing.folded),
    which it keeps while no record file changes, so a fold step folded beforehand, without the writer, finds
    them made when it takes the writer (0.5 s at 22,733 records that an add waited for)."""

    lane = LATER
    marks = Phase.folded

    def __init__(self, fold_seconds: int, folded: Callable[[Space], tuple[list, list]],
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)):
        self.fold_seconds = fold_seconds
        self.folded = folded
        self.clock = clock

    def due(self, space: Space) -> bool:
        if not space.state.has_phase("read"):
            return False
        last = space.state.get("folded_at")
        return last is None or self.clock() - datetime.fromisoformat(last) >= timedelta(seconds=self.fold_seconds)

    def __call__(self, space: Space) -> None:
        """The pipeline's fold step: when due, folded first without the writer, then written under it (again
        only if a record file changed meanwhile)."""
        if not self.due(space):
            return
        self.folded(space)
        with space.writer:
            self.fold(space)

    def fold(self, space: Space, force: bool = False) -> int:
        """As the writer: the pages written and committed, when due (`force`: now)."""
        if not force and not self.due(space):
            return 0
        started = self.clock()
        records, pages = self.folded(space)
        paths = record_paths(records)
        written = set()
        for page in pages:
            rel = f"pages/{page.slug}.md"
            text = render_page(page, paths)
            written.add(rel)
            target = space.vault.path(rel)
            if not target.exists() or read_exact(target) != text:
                space.vault.write(rel, text, durable=False)
        for old in space.root.glob("pages/*.md"):
            if f"pages/{old.name}" not in written:
                space.vault.delete(f"pages/{old.name}")
        space.vault.commit(f"fold: {len(pages)} page{'s' if len(pages) != 1 else ''} from {len(records)} records",
                           ["pages"])
        space.state.fold_all()
        space.state.put("folded_at", started.isoformat())
        return len(pages)
