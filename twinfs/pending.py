"""The home's small indexes of vaults, so that nothing has to open (or even stat) every vault to find a few.

`$TWIN_HOME/pending/<vault>`: a vault with work still to do — adds in its inbox, turns to read, pages to fold, a
hand edit seen, a step of its writer under way (a crash leaves it marked: a forget, a sync's merge, a reindex
or any step stopped midway is finished when it is opened). The owner marks a vault before the work is durable
anywhere else and clears the mark once the vault has nothing left to do, so start-up lists one folder and opens
only what it names. A mark's modification time is when its work is due (a fold waits for TWIN_FOLD_SECONDS).
`$TWIN_HOME/synced/<vault>`: a vault with a git remote, for the periodic sync.

Marks are empty files: made and removed atomically, durable (the folder is fsync'd), readable by any tool.
"""
from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from .durable import fsync_dir


class Marks:
    """A folder of empty files named after vaults."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._lock = threading.Lock()
        self._known: dict[str, float] | None = None  # vault -> due (epoch seconds), as on disk

    @property
    def exists(self) -> bool:
        return self.folder.is_dir()

    def load(self) -> dict[str, float]:
        """Every mark and when its work is due: one listing, one stat a mark (not a vault)."""
        found = self._scan()
        with self._lock:
            self._known = dict(found)
        return found

    def _scan(self) -> dict[str, float]:
        self.folder.mkdir(parents=True, exist_ok=True)
        found: dict[str, float] = {}
        with os.scandir(self.folder) as entries:
            for entry in entries:
                if not entry.name.startswith("."):
                    try:
                        found[entry.name] = entry.stat().st_mtime
                    except FileNotFoundError:
                        continue
        return found

    def _names(self) -> dict[str, float]:
        """The marks, read once (the caller holds the lock)."""
        if self._known is None:
            self._known = self._scan()
        return self._known

    def __contains__(self, name: str) -> bool:
        with self._lock:
            return name in self._names()

    def names(self) -> list[str]:
        with self._lock:
            return sorted(self._names())

    def mark(self, name: str, due: float | None = None, exact: bool = False) -> None:
        """Mark a vault, its work due by `due` (now by default) or earlier if it was so already; `exact`: due at
        `due` whatever it was (what is left once a vault has been worked on). Durable before it returns."""
        due = time.time() if due is None else due
        with self._lock:
            known = self._names()
            if name in known and (known[name] == due or (not exact and known[name] <= due)):
                return
            path = self.folder / name
            new = name not in known
            if new:
                self.folder.mkdir(parents=True, exist_ok=True)
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o644))
            os.utime(path, (due, due))
            if new:
                fsync_dir(self.folder)
            known[name] = due

    def mark_all(self, names: list[str]) -> None:
        """Mark these vaults, due now, with one fsync for all (a home indexed for the first time)."""
        now = time.time()
        with self._lock:
            known = self._names()
            self.folder.mkdir(parents=True, exist_ok=True)
            for name in names:
                if name not in known:
                    os.close(os.open(self.folder / name, os.O_WRONLY | os.O_CREAT, 0o644))
                    known[name] = now
            fsync_dir(self.folder)

    def clear(self, name: str) -> None:
        with self._lock:
            known = self._names()
            if name not in known:
                return
            (self.folder / name).unlink(missing_ok=True)
            del known[name]

    def wake_due(self, wake: Callable[[str], None], now: float | None = None) -> None:
        """Wake each vault whose work is due by `now`, listed and woken under the index's lock: a settle clearing
        a mark meanwhile comes either first (the vault is not woken) or once its wake is queued — never between,
        where a wake from a stale listing would start work after whoever waits for the pipeline saw it idle."""
        now = time.time() if now is None else now
        with self._lock:
            for name in sorted(n for n, at in self._names().items() if at <= now):
                wake(name)


def next_due(space, reading: bool, folding: bool, folded_ago: float | None, fold_seconds: int, every: float
             ) -> float | None:
    """When a vault's remaining work is due (epoch seconds), None when it has none: turns still to read are
    looked at again in `every` seconds (the newest window waits for quiet, a spent budget for the next day);
    pages are folded `fold_seconds` after the last fold (`folded_ago` seconds ago; None: never folded)."""
    now = time.time()
    due: float | None = None
    if reading and space.state.unread_threads():
        due = now + every
    if folding and space.state.has_phase("read"):
        fold = now + max(0.0, fold_seconds - folded_ago) if folded_ago is not None else now
        due = fold if due is None else min(due, fold)
    return due
