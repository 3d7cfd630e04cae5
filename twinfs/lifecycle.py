"""What the owner of a home does beside answering requests (Memory's life cycle): start-up from the pending
index, a vault's first open (repair, and finishing what a dead process began), the ticker that wakes due work,
the background sync, and closing. Memory inherits it; it uses Memory's stores and steps."""
from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import git

from . import forgetting, repair
from .background import backoff, give_back_memory
from .errors import TwinError
from .index import meaning
from .models import EndUser
from .pending import next_due
from .space import Space
from .sync import remote as sync_remote
from .sync import run as sync_run
from .watching import Watcher

if TYPE_CHECKING:
    from .home_lock import HomeLock
    from .jobs import Pipeline
    from .pending import Marks
    from .reading.checkpass import CheckPass
    from .settings import Settings
    from .spaces import Spaces
    from .steps.fold import Folding
    from .steps.read import Reading

log = logging.getLogger("twinfs")


class Lifecycle:
    """The life cycle of the Memory that owns a home (start() to close()); see Memory for the state it uses."""

    # what it uses of the Memory it is part of (made in Memory.__init__; the methods are Memory's)
    settings: Settings
    home: Path
    read_only: bool
    lock: HomeLock
    owner: str
    clock: Callable[[], datetime]
    spaces: Spaces
    pending: Marks
    remotes: Marks
    pipeline: Pipeline
    reading: Reading | None
    checking: CheckPass | None
    folding: Folding | None
    trims: int
    _every: float
    _stop: threading.Event
    _hooks: sync_run.Hooks
    _ticker: threading.Thread | None
    _watcher: Watcher | None
    _syncer: threading.Thread | None
    _held: Callable[..., AbstractContextManager[Space]]
    _forget: Callable[..., object]
    _sync: Callable[[Space, str], object]
    _reindex: Callable[..., object]
    _wrote: Callable[[str, str], bool]
    _edited_by_hand: Callable[[str], None]
    synced: Callable[[], list[str]]

    def start(self):
        """Own the home (or refuse, naming its owner), then pick up what a crash or stop left: each vault is
        repaired, and every end user with adds still in the inbox lands them."""
        if self.read_only or self.lock.held:
            return self  # another process owns the home (nothing here is ours to pick up), or started already
        self.lock.acquire(self.owner)
        try:
            self._start()
        except BaseException:
            self.lock.release()
            raise
        return self

    def _start(self) -> None:
        """One listing of the home's pending index, not of the vaults: only a vault it names is opened, by the
        pipeline, when its turn comes (start-up opens none). A home from before the index has every vault
        looked at once."""
        (self.home / "users").mkdir(parents=True, exist_ok=True)
        if not self.pending.exists:
            self.pending.load()
            self.pending.mark_all(self._listed())
        if not self.remotes.exists:
            self.remotes.load()
            self.remotes.mark_all([d for d in self._listed()
                                   if (self.home / "users" / d / ".git" / sync_remote.STATE).exists()])
        self.pending.load()
        self._wake_due()
        self._ticker = threading.Thread(target=self._tick, name="twin-ticker", daemon=True)
        self._ticker.start()
        if self.settings.watch:
            self._watcher = Watcher(self.home / "users", self._wrote, self._edited_by_hand,
                                    limit=self.settings.watch_limit).start()
        if self.settings.sync_seconds:
            self._syncer = threading.Thread(target=self._sync_every, name="twin-sync", daemon=True)
            self._syncer.start()

    def _listed(self) -> list[str]:
        """The vaults' folder names, from one listing (no stat of each)."""
        folder = self.home / "users"
        if not folder.is_dir():
            return []
        with os.scandir(folder) as entries:
            return sorted(e.name for e in entries if e.is_dir() and e.name.count(".") >= 2
                          and not e.name.startswith("."))

    def _wake_due(self) -> None:
        for name in self.pending.due():
            self.pipeline.wake(name)

    def _mark(self, space: Space) -> None:
        """Before a vault has work anywhere on disk (an add, a step of its writer): in the pending index."""
        if not self.read_only:
            self.pending.mark(space.user.dirname)

    def _mark_writing(self, space: Space) -> None:
        """A step takes the writer: marked under the accept lock, so a settle under way either clears the mark
        before this one, or sees the writer taken and leaves the vault due (see _settle)."""
        with space.accept_lock:
            self._mark(space)

    def _settle(self, space: Space) -> None:
        """The pipeline is done with this vault for now: what is left is due then in the pending index."""
        folded_at = space.state.get("folded_at") if self.folding else None
        waited = (self.clock() - datetime.fromisoformat(folded_at)).total_seconds() if folded_at else None
        due = next_due(space, bool(self.reading), bool(self.folding), waited, self.settings.fold_seconds, self._every)
        with space.accept_lock:  # an add marks and writes the inbox under it: nothing slips between
            # a step holding the writer (a forget, a correct) may fail or crash before the pipeline settles the
            # vault again: the mark it made stands, or the next start would not open the vault to finish it
            if space.pending() or space.upkeep.hand_edited or space.writer.stopped_midway or space.writer.locked():
                due = time.time()
            if due is None:
                self.pending.clear(space.user.dirname)
            else:
                self.pending.mark(space.user.dirname, due, exact=True)

    def _sync_every(self) -> None:
        """TWIN_SYNC_SECONDS: every vault with a remote syncs that often (fetching even when nothing changed
        here, so a peer's adds arrive), once its adds have been quiet a moment; a remote that is down is tried
        again with back-off up to an hour. Its status notes say how the last sync went."""
        every = float(self.settings.sync_seconds or 0)
        quiet = min(10.0, every / 2)
        due: dict[str, float] = {}
        failures: dict[str, int] = {}
        while not self._stop.wait(min(every, 5.0)):
            for dirname in self.synced():
                now = time.monotonic()
                if due.get(dirname, 0.0) > now:
                    continue
                with self._held(EndUser.of_folder(dirname)) as space:
                    if space.standing.broken or space.standing.left or not space.exists or not space.adds.quiet(quiet):
                        continue
                    try:
                        url = sync_remote.configured(space.vault)
                        if url:
                            self._sync(space, url)
                        failures.pop(dirname, None)
                        due[dirname] = now + every
                    except Exception as exc:  # noted in the vault's sync state by the sync itself; the others go on
                        failures[dirname] = failures.get(dirname, 0) + 1
                        due[dirname] = now + backoff(failures[dirname] + 1, every, 3600.0)
                        log.warning("sync of %s failed (try %d): %s", dirname, failures[dirname], exc)

    def _prepare(self, space: Space) -> None:
        """The first time this owner opens a vault: repair what a dead process left, finish what it began (a
        forget, a reindex, a history rewrite), bring the vault to this format. A vault that cannot be repaired
        is marked broken and reported; the other end users go on. Until it is done, a request that opens the
        vault waits (until space.health is prepared: see _opening)."""
        midway = repair.stopped_midway(space)
        repaired: list[str] = []
        try:
            with space.writer:
                repaired = repair.repair(space, midway)
                if not space.vault.tuned():
                    space.vault.configure()  # a vault made before git was set for many files
                space.vault.monitored()
                if space.vault.purge_pending():
                    forgetting.purge(space)  # a forget that stopped before its history was rewritten
            pending = repair.pending_forget(space)
            if pending:
                log.warning("%s: finishing a forget that stopped midway", space.user.dirname)
                self._forget(space, *pending)
            with space.writer:
                if sync_run.resume(space, self._hooks):
                    log.warning("%s: finished a sync's merge that stopped midway", space.user.dirname)
            lane = space.root / ".twin" / "meaning"
            if repair.reindex_pending(space) or meaning.outdated(lane, space.embedder.variant):
                log.warning("%s: reindexing (a reindex stopped midway, or the meaning lane's format or embedder "
                            "is another)", space.user.dirname)
                self._reindex(space)  # nothing unchanged is embedded again
        except (repair.Broken, OSError, sqlite3.Error, git.GitCommandError, subprocess.CalledProcessError,
                TwinError) as exc:
            log.error("%s cannot be repaired here: %s; its other end users' neighbours go on",
                      space.user.dirname, space.standing.failed(exc))
        space.standing.opened(repaired)
        self.spaces.prepared(space)
        if not space.standing.broken:
            if self.settings.watch:
                space.upkeep.edited()  # what was edited while no one watched (nothing is, if nothing was)
            self._settle(space)  # what is left, in the pending index (opening it marked it)
            self.pipeline.wake(space.user.dirname)  # and done

    def _tick(self) -> None:
        """Wake the vaults whose work is due, open or not (the pending index says): the newest part of a
        conversation is read once it has been quiet for TWIN_QUIET_SECONDS, pages are folded every
        TWIN_FOLD_SECONDS, and a spent budget comes back the next UTC day."""
        trimmed_at = self.spaces.closed
        while not self._stop.wait(self._every):
            try:
                self._wake_due()
            except Exception:  # the index must not stop the ticker
                log.exception("ticker")
            if self.spaces.closed != trimmed_at:  # end users were closed to make room since the last look
                trimmed_at = self.spaces.closed
                self.trims += give_back_memory()

    def close(self) -> None:
        if self._stop.is_set():
            return  # closed already (the server's shutdown, then serve's own `finally`)
        self._stop.set()
        if self._watcher:
            self._watcher.stop()
        if self._syncer:
            self._syncer.join(120)  # a sync under way finishes
        if self.reading:
            self.reading.stopping.set()  # a pass over a long backlog would hold the stop for minutes
            if self.checking:
                self.checking.stopping.set()
        self.pipeline.close()
        self.spaces.close_all(wait_writer=not self.read_only)
        self.lock.release()
