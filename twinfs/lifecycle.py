"""The life cycle of the Memory that owns a home, a part Memory holds: start-up from the pending index, each
vault's first open (repair, and finishing what a dead process began), the end users' Spaces held under a lease
while in use, the ticker that wakes due work, the background sync, the watcher of hand edits, and closing."""
from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import git

from . import forgetting, repair
from .background import backoff, give_back_memory
from .errors import TwinError, Unavailable, unwritable
from .home_lock import HomeBusy, HomeLock, holder
from .index import meaning
from .jobs import Pipeline
from .models import EndUser
from .pending import Marks, next_due
from .settings import Settings
from .space import Space
from .spaces import Spaces
from .steps.fold import Folding
from .sync import remote as sync_remote
from .sync import run as sync_run
from .watching import Watcher
from .writes import Writes

log = logging.getLogger("twinfs")


class Lifecycle:
    """`read_only=True`: beside another process that owns the home (see home_lock.py), it never writes nor
    prepares a vault. Otherwise it owns the home from start() to close(). It opens vaults for the pipeline and
    tells it, once a vault's work is done for now, what is left and when (`settle`)."""

    def __init__(self, settings: Settings, pipeline: Pipeline, writes: Writes, folding: Folding | None,
                 reading: bool, clock: Callable[[], datetime], read_only: bool = False, owner: str = "twin",
                 on_close: Callable[[Space], None] | None = None, stopping: Callable[[], None] | None = None):
        self.settings = settings
        self.home = settings.home
        self.read_only = read_only
        self.lock = HomeLock(self.home)
        self.owner = owner  # what this process is, for the message a second writer gets
        self.pipeline = pipeline
        self.writes = writes
        self.folding = folding
        self.reading = reading  # whether reading is on (what is due in the pending index depends on it)
        self.clock = clock
        self.stopping = stopping  # tells the background steps that the owner is closing
        self.spaces = Spaces(self._make, settings.open_users, on_close=on_close)
        self.pending = Marks(self.home / "pending")  # vaults with work to do (pending.py)
        self.remotes = Marks(self.home / "synced")  # vaults with a git remote
        self.users: int | None = None  # end users in the home, counted once (health answers often)
        pipeline.open, pipeline.settle = self.held_by_name, self.settle
        self.every = max(1.0, min(30.0, settings.quiet_seconds / 4))  # how often the ticker looks
        self.trims = 0  # times the ticker gave freed memory back after end users were closed (_tick)
        self.watcher: Watcher | None = None
        self._ticker: threading.Thread | None = None
        self._syncer: threading.Thread | None = None
        self._stop = threading.Event()

    def space(self, user: EndUser, create: bool = False, hold: bool = False) -> Space:
        """The end user's Space; only end users that exist (or are being created) are kept open, and only so
        many (spaces.py): use it under `held` (a lease), or it may be closed while in use. The owner repairs a
        vault the first time it opens it (see _prepare)."""
        space = self.spaces.get(user, keep=create, hold=hold)
        try:
            self._opening(space, create)
        except BaseException:
            if hold:
                self.spaces.release(space)
            raise
        return space

    def _opening(self, space: Space, create: bool = False) -> None:
        if create and not space.exists:
            self.writable()
            with space.opening:  # a request that finds the vault half made waits below until it is made
                if not space.exists:
                    try:
                        space.create()
                    except (OSError, git.GitCommandError) as exc:
                        shutil.rmtree(space.root, ignore_errors=True)  # nothing half-made stays
                        raise unwritable(exc, f"end user '{space.user.account}'") from None
                    self.prepared(space)
                    if self.users is not None:
                        self.users += 1
        if not space.standing.prepared and not self.read_only:
            with space.opening:  # a vault being cloned (joining) is opened once it is whole and prepared
                if not space.standing.prepared and space.exists:
                    self._prepare(space)

    def prepared(self, space: Space) -> None:
        """A vault made or cloned here: opened from now on as one this owner has prepared (nothing to repair)."""
        space.standing.opened()
        self.spaces.prepared(space)

    @contextmanager
    def joining(self, user: EndUser) -> Iterator[Space]:
        """The Space a vault is cloned into (a new machine joining), held open by Spaces so that every other
        opener (the ticker the clone's writer wakes, a request) gets this one and waits (space.opening) until the
        vault is whole and prepared: a second Space of it repaired the half-built vault under a writer of its
        own. A clone that fails leaves no vault, and this Space closed."""
        self.writable()
        space = self.spaces.get(user, keep=True, hold=True)
        try:
            with space.opening:
                if space.exists:  # another sync cloned it while this one waited
                    raise Unavailable(f"end user '{user.account}' was cloned here meanwhile: sync again",
                                      retry_after=1)
                try:
                    yield space
                except BaseException:
                    space.close()
                    raise
                self.prepared(space)  # opened from now on as a vault this owner has prepared
        finally:
            self.spaces.release(space)

    def _make(self, user: EndUser) -> Space:
        space = Space(self.home, user, self.writes.embedder, read_only=self.read_only, machine=self.settings.machine)
        space.writer.on_enter = lambda: self._mark_writing(space)
        space.standing.moved(sync_remote.state(space.vault).get("left"))  # handed to another server: kept in .git
        return space

    @contextmanager
    def held(self, user: EndUser, create: bool = False) -> Iterator[Space]:
        """The end user's Space under a lease: it stays open until the block ends."""
        space = self.space(user, create=create, hold=True)
        try:
            yield space
        finally:
            self.spaces.release(space)

    @contextmanager
    def held_by_name(self, dirname: str) -> Iterator[Space | None]:
        """For the pipeline: the vault of this folder name under a lease, or None when there is none."""
        with self.held(EndUser.of_folder(dirname)) as space:
            yield space if space.exists else None

    def writable(self) -> None:
        if self.read_only:
            raise HomeBusy(self.home, holder(self.home) or {})

    def synced(self) -> list[str]:
        """The end users whose vaults have a remote, by folder name."""
        return self.remotes.names() if self.remotes.exists else synced_vaults(self.home)

    def count_users(self) -> int:
        if self.users is None:
            self.users = len(self._listed())
        return self.users

    # what the watcher tells
    def wrote(self, dirname: str, rel: str) -> bool:
        space = self.spaces.peek(dirname)  # a vault not open has not been written since it was closed
        if space is None:
            return False
        if space.vault.wrote(rel):
            return True
        if rel.startswith("records/"):
            space.vault.records_changed()  # by hand: the brief folds the records again, now, not once mended
        return False

    def edited_by_hand(self, dirname: str) -> None:
        self.pending.mark(dirname)
        with self.held(EndUser.of_folder(dirname)) as space:
            if space.exists:
                space.upkeep.edited()  # kept open until the pipeline has mended it (Space.idle)
                self.pipeline.wake(space.user.dirname)

    def records_seen(self, space: Space) -> tuple | None:
        """What changes of the vault's records/ are counted by (Briefing.folded), when every change is: this
        process's writes, and the watcher's inotify events for the rest; None when they are not all told (no
        watcher, a vault polled or not watched yet), and each file must be looked at."""
        watcher = self.watcher
        if watcher is None or not watcher.sees(space.user.dirname, "records"):
            return None
        return space.vault.records_version, watcher.overflows

    def start(self) -> None:
        """Own the home (or refuse, naming its owner), then pick up what a crash or stop left: each vault is
        repaired, and every end user with adds still in the inbox lands them."""
        if self.read_only or self.lock.held:
            return  # another process owns the home (nothing here is ours to pick up), or started already
        self.lock.acquire(self.owner)
        try:
            self._start()
        except BaseException:
            self.lock.release()
            raise

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
            self.watcher = Watcher(self.home / "users", self.wrote, self.edited_by_hand,
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
        self.pending.wake_due(self.pipeline.wake)

    def mark(self, space: Space) -> None:
        """Before a vault has work anywhere on disk (an add, a step of its writer): in the pending index."""
        if not self.read_only:
            self.pending.mark(space.user.dirname)

    def _mark_writing(self, space: Space) -> None:
        """A step takes the writer: marked under the accept lock, so a settle under way either clears the mark
        before this one, or sees the writer taken and leaves the vault due (see settle)."""
        with space.accept_lock:
            self.mark(space)

    def settle(self, space: Space) -> None:
        """The pipeline is done with this vault for now: what is left is due then in the pending index."""
        folded_at = space.state.get("folded_at") if self.folding else None
        waited = (self.clock() - datetime.fromisoformat(folded_at)).total_seconds() if folded_at else None
        due = next_due(space, bool(self.reading), bool(self.folding), waited, self.settings.fold_seconds, self.every)
        with space.accept_lock:  # an add marks and writes the inbox under it: nothing slips between
            # a step holding the writer (a forget, a correct) may fail or crash before the pipeline settles the
            # vault again: the mark it made stands, or the next start would not open the vault to finish it
            if space.pending() or space.upkeep.hand_edited or space.writer.stopped_midway or space.writer.stepping():
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
                with self.held(EndUser.of_folder(dirname)) as space:
                    if space.standing.broken or space.standing.left or not space.exists or not space.adds.quiet(quiet):
                        continue
                    try:
                        url = sync_remote.configured(space.vault)
                        if url:
                            self.writes.sync(space, url)
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
                self.writes.forget(space, *pending)
            with space.writer:
                if sync_run.resume(space, self.writes.hooks):
                    log.warning("%s: finished a sync's merge that stopped midway", space.user.dirname)
            lane = space.root / ".twin" / "meaning"
            if repair.reindex_pending(space) or meaning.outdated(lane, space.embedder.variant):
                log.warning("%s: reindexing (a reindex stopped midway, or the meaning lane's format or embedder "
                            "is another)", space.user.dirname)
                self.writes.reindex(space)  # nothing unchanged is embedded again
        except (repair.Broken, OSError, sqlite3.Error, git.GitCommandError, subprocess.CalledProcessError,
                TwinError) as exc:
            log.error("%s cannot be repaired here: %s; its other end users' neighbours go on",
                      space.user.dirname, space.standing.failed(exc))
        space.standing.opened(repaired)
        self.spaces.prepared(space)  # the vault's Standing, kept by name while this process runs
        if not space.standing.broken:
            if self.settings.watch:
                space.upkeep.edited()  # what was edited while no one watched (nothing is, if nothing was)
            self.settle(space)  # what is left, in the pending index (opening it marked it)
            self.pipeline.wake(space.user.dirname)  # and done

    def _tick(self) -> None:
        """Wake the vaults whose work is due, open or not (the pending index says): the newest part of a
        conversation is read once it has been quiet for TWIN_QUIET_SECONDS, pages are folded every
        TWIN_FOLD_SECONDS, and a spent budget comes back the next UTC day."""
        trimmed_at = self.spaces.closed
        while not self._stop.wait(self.every):
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
        if self.watcher:
            self.watcher.stop()
        if self._syncer:
            self._syncer.join(120)  # a sync under way finishes
        if self.stopping:
            self.stopping()  # a pass over a long backlog would hold the stop for minutes
        self.pipeline.close()
        self.spaces.close_all(wait_writer=not self.read_only)
        self.lock.release()


def vaults(home: Path) -> list[str]:
    """The end users' vault folders of a home, by name."""
    folder = home / "users"
    return sorted(p.name for p in folder.iterdir() if (p / ".git").is_dir()) if folder.is_dir() else []


def synced_vaults(home: Path) -> list[str]:
    """The vaults of a home that have a remote, by folder name."""
    return [d for d in vaults(home) if (home / "users" / d / ".git" / sync_remote.STATE).exists()]
