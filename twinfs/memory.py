"""The facade every front end calls (server, CLI, MCP, Python): one Memory for a whole $TWIN_HOME."""
from __future__ import annotations

import errno
import logging
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path

import git

from . import browse, folding, forgetting, ledger, repair, tombstones
from . import search as searching
from .brief import Briefs
from .clock import Clock
from .errors import Invalid, NotFound, TwinError, Unavailable
from .filtering import Filter, make_filter
from .home_lock import HomeBusy, HomeLock, holder
from .index import Bounds
from .index.embedder import Embedder, shared_embedder
from .jobs import Pipeline
from .lifecycle import Lifecycle
from .models import (
    AddRequest,
    AddResult,
    CorrectRequest,
    CorrectResult,
    EndUser,
    ForgetRequest,
    ForgetResult,
    GrepRequest,
    GrepResult,
    HistoryRequest,
    HistoryResult,
    HistoryValue,
    LineageRequest,
    LineageResult,
    Phase,
    ReadRequest,
    ReadResult,
    SearchRequest,
    SearchResult,
    StatusRequest,
    StatusResult,
    SyncRequest,
    SyncResult,
    parse_day,
)
from .pending import Marks
from .reading import Budget, Reader, make_reader
from .reading.checkpass import CheckPass, checker_for
from .settings import Settings
from .space import Space, added_stamp, item_hash, new_event_id, stored_item, thread_of
from .spaces import Spaces
from .steps import land, tidy
from .steps.fold import Folding
from .steps.read import ADDS_QUIET, YIELD_MAX, Reading, index_records
from .sync import encrypted
from .sync import remote as sync_remote
from .sync import run as sync_run
from .vault import Vault
from .watching import Watcher

log = logging.getLogger("twinfs")
WAIT_SECONDS = 10.0


def vaults(home: Path) -> list[str]:
    """The end users' vault folders of a home, by name."""
    folder = home / "users"
    return sorted(p.name for p in folder.iterdir() if (p / ".git").is_dir()) if folder.is_dir() else []


def synced_vaults(home: Path) -> list[str]:
    """The vaults of a home that have a remote, by folder name."""
    return [d for d in vaults(home) if (home / "users" / d / ".git" / sync_remote.STATE).exists()]


def unwritable(exc: Exception, what: str) -> Unavailable:
    """A full disk or a read-only vault, as the 503 the seeds list: nothing was stored, try again later."""
    code = getattr(exc, "errno", None)
    text = str(exc) if code is None else ""  # git and SQLite say it in words; an OSError by its number
    if code in (errno.ENOSPC, errno.EDQUOT) or "No space left" in text or "database or disk is full" in text:
        return Unavailable(f"{what}: the disk holding this memory is full, so nothing was stored; try again once "
                           "there is space", retry_after=30)
    if code in (errno.EROFS, errno.EACCES, errno.EPERM) or "Read-only file system" in text or "readonly" in text:
        return Unavailable(f"{what}: this memory's folder cannot be written (read-only or not permitted), so "
                           "nothing was stored; try again once it can be", retry_after=60)
    return Unavailable(f"{what}: this memory's folder could not be written ({exc}), so nothing was stored",
                       retry_after=10)


class Memory(Lifecycle):
    """`read_only=True`: beside another process that owns the home (see home_lock.py), answer reading operations
    from what it wrote, and never write. Otherwise this Memory owns the home from start() to close()."""

    def __init__(self, settings: Settings, embedder: Embedder | None = None, reader: Reader | None = None,
                 clock: Callable[[], datetime] | None = None, read_only: bool = False, owner: str = "twin",
                 stamps: Clock | None = None):
        self.settings = settings
        self.home = settings.home
        self.read_only = read_only
        self.lock = HomeLock(self.home)
        self.owner = owner  # what this process is, for the message a second writer gets
        self.stamps = stamps or Clock(settings.machine)  # which edit of an item came later, across machines
        self.embedder = embedder or shared_embedder()
        self.clock = clock or (lambda: datetime.now(UTC))
        self.spaces = Spaces(self._make, settings.open_users, on_close=self._closed)
        self.pending = Marks(self.home / "pending")  # vaults with work to do (pending.py)
        self.remotes = Marks(self.home / "synced")  # vaults with a git remote
        self._users: int | None = None  # end users in the home, counted once (health answers often)
        self._lock = threading.Lock()
        self.pipeline = Pipeline(workers=settings.workers, mend=self._mend, open=self._held_by_name,
                                 settle=self._settle)
        self.reading: Reading | None = None
        self.checking: CheckPass | None = None
        self.folding: Folding | None = None
        # the brief's folded records, per open end user
        self.briefs = Briefs(self.embedder, self.clock, self._records_seen)
        if settings.reading:
            reader = reader or make_reader(model=settings.reader_model, url=settings.reader_url)
            budget = Budget(self.home / "budget.json", settings.daily_read_tokens, clock=self.clock)
            self.reading = Reading(reader, budget, settings.quiet_seconds, clock=self.clock)
            self.reading.landing = self.pipeline.landing
            self.folding = Folding(settings.fold_seconds, self.briefs.folded, clock=self.clock)
            self.pipeline.steps += [self.reading, self._fold_when_due]  # each takes the writer for its turns
            if not settings.reader_url and not (settings.reader_model or os.environ.get("TWIN_READER_MODEL")):
                # the rules read; the shipped model checks them (reading/checkpass.py), loaded on its first use
                self.checking = CheckPass(lambda: checker_for(None), self._correct)
                self.pipeline.steps += [self.checking]
        self.pipeline.steps += [self._tidy, self._warm]
        self.judge: Filter = make_filter(self.reading.reader if self.reading else None, self.embedder)
        self._every = max(1.0, min(30.0, settings.quiet_seconds / 4))  # how often the ticker looks
        self._ticker: threading.Thread | None = None
        self.trims = 0  # times the ticker gave freed memory back after end users were closed (lifecycle._tick)
        self._watcher: Watcher | None = None
        self._syncer: threading.Thread | None = None
        self._stop = threading.Event()
        self._hooks = sync_run.Hooks(land=self._land_now, mend=self._mend, fold=self._fold, clock=self.stamps,
                                    gpg_keys=settings.sync_gpg_keys,
                                    forget=lambda space, ids, stones: self._forget_held(space, ids, stones))

    def __enter__(self) -> Memory:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def space(self, user: EndUser, create: bool = False, hold: bool = False) -> Space:
        """The end user's Space; only end users that exist (or are being created) are kept open, and only so
        many (spaces.py): use it under `_held` (a lease), or it may be closed while in use. The owner repairs a
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
            self._writable()
            with space.opening:  # a request that finds the vault half made waits below until it is made
                if not space.exists:
                    try:
                        space.create()
                    except (OSError, git.GitCommandError) as exc:
                        shutil.rmtree(space.root, ignore_errors=True)  # nothing half-made stays
                        raise unwritable(exc, f"end user '{space.user.account}'") from None
                    space.standing.opened()
                    self.spaces.prepared(space)
                    if self._users is not None:
                        self._users += 1
        if not space.standing.prepared and not self.read_only and space.exists:
            with space.opening:
                if not space.standing.prepared:
                    self._prepare(space)

    def _make(self, user: EndUser) -> Space:
        space = Space(self.home, user, self.embedder, read_only=self.read_only, machine=self.settings.machine)
        space.writer.on_enter = lambda: self._mark_writing(space)
        space.standing.moved(sync_remote.state(space.vault).get("left"))  # handed to another server (sync --leave)
        return space

    def _closed(self, space: Space) -> None:
        self.briefs.forget(space.user.dirname)

    @contextmanager
    def _held(self, user: EndUser, create: bool = False) -> Iterator[Space]:
        """The end user's Space under a lease: it stays open until the block ends."""
        space = self.space(user, create=create, hold=True)
        try:
            yield space
        finally:
            self.spaces.release(space)

    @contextmanager
    def _held_by_name(self, dirname: str) -> Iterator[Space | None]:
        """For the pipeline: the vault of this folder name under a lease, or None when there is none."""
        with self._held(EndUser.of_folder(dirname)) as space:
            yield space if space.exists else None

    @contextmanager
    def _existing(self, user: EndUser) -> Iterator[Space]:
        with self._held(user) as space:
            if not space.exists:
                raise NotFound(f"no memory for end user '{user.account}' yet")
            yield self._here(space)

    @staticmethod
    def _here(space: Space) -> Space:
        """A vault this home handed to another server (`twin sync --leave`) is not answered from here: its
        requests retry, and the front door sends them to the server that has it now."""
        if space.standing.left:
            raise Unavailable(f"end user '{space.user.account}' moved to another server at {space.standing.left}; try "
                              "again shortly", retry_after=5)
        return space

    def _writable(self) -> None:
        if self.read_only:
            raise HomeBusy(self.home, holder(self.home) or {})

    # hand edits
    def mend(self, user: EndUser) -> list[str]:
        """Commit and index again what was edited by hand in this end user's vault now; the paths edited."""
        self._writable()
        with self._existing(user) as space:
            with space.writer:
                changed = self._mend(space)
            self.pipeline.wake(space.user.dirname)  # which settles it in the pending index
            return changed

    def _mend(self, space: Space) -> list[str]:
        changed = tidy.mend(space)
        if self.folding and any(rel.startswith(("items/", "records/")) for rel in changed):
            self.folding(space, force=True)
        return changed

    def _fold_when_due(self, space: Space) -> None:
        if self.folding is None or not self.folding.due(space):
            return
        self.briefs.folded(space)  # folded without the writer; under it, again only if a record file changed
        with space.writer:
            self.folding(space)

    def _tidy(self, space: Space) -> float | None:
        """What landing left for later, once the end user's adds pause: the merges of the words lane
        (words.LAND_MERGE), and the git index of a large vault (vault.TREES_FROM)."""
        if not space.words.untidy() and not space.vault.behind:
            return None
        wait = space.adds.give_way(ADDS_QUIET, YIELD_MAX)
        if wait:
            return wait
        with space.writer:
            space.words.tidy()
            space.vault.index_caught_up()
        return None

    def _warm(self, space: Space) -> None:
        """Once merged (_tidy), a big index's frequent terms are decoded for the searches to come (words.WARM_FROM)."""
        space.words.warm()

    def _wrote(self, dirname: str, rel: str) -> bool:
        space = self.spaces.peek(dirname)  # a vault not open has not been written since it was closed
        if space is None:
            return False
        if space.vault.wrote(rel):
            return True
        if rel.startswith("records/"):
            space.vault.records_changed()  # by hand: the brief folds the records again, now, not once mended
        return False

    def _records_seen(self, space: Space) -> tuple | None:
        """What changes of the vault's records/ are counted by (Briefing.folded), when every change is: this
        process's writes, and the watcher's inotify events for the rest; None when they are not all told (no
        watcher, a vault polled or not watched yet), and each file must be looked at."""
        watcher = self._watcher
        if watcher is None or not watcher.sees(space.user.dirname, "records"):
            return None
        return space.vault.records_version, watcher.overflows

    def _edited_by_hand(self, dirname: str) -> None:
        self.pending.mark(dirname)
        with self._held(EndUser.of_folder(dirname)) as space:
            if space.exists:
                space.upkeep.edited()  # kept open until the pipeline has mended it (Space.idle)
                self.pipeline.wake(space.user.dirname)

    def warm(self) -> None:
        """Load both embedder runtimes and the date parser now rather than on the first search (the brief
        embeds names in batches; landing does too)."""
        self.embedder.query("warm up")
        self.embedder.encode(["warm up"])
        searching.question_times("What did we do on 3 June 2023?", Bounds())

    def users(self) -> list[str]:
        return vaults(self.home)

    # writing
    def add(self, user: EndUser, request: AddRequest) -> AddResult:
        """Durable before it returns: the items are in the end user's inbox, fsync'd. Landing follows. A full
        disk or a folder that cannot be written is a 503, and nothing of the add is kept."""
        self._writable()
        with self._held(user, create=True) as space:
            return self._add(self._usable(space), user, request)

    def _add(self, space: Space, user: EndUser, request: AddRequest) -> AddResult:
        if space.pending_count() >= self.settings.max_pending:
            raise Unavailable(f"the landing queue of end user '{user.account}' is full "
                              f"({self.settings.max_pending} adds waiting); try again shortly", retry_after=2)
        ids = [item.id for item in request.items]
        with space.accept_lock:
            self._here(space)  # under the accept lock: a leave's sync takes every add accepted before it
            event = new_event_id()  # taken in turn, so the inbox lands adds in the order they were accepted
            try:
                self._mark(space)  # in the pending index before the inbox: a restart finds it
                entries, phases = self._accept(space, user, request, event, ids)
            except (OSError, sqlite3.Error) as exc:
                with suppress(OSError):  # nothing was written there, or nothing can be
                    (space.inbox / f"{event}.json").unlink(missing_ok=True)  # not answered 202: not to land either
                raise unwritable(exc, f"add for end user '{user.account}'") from None
        if entries:
            space.adds.accepted()
            self.pipeline.wake(space.user.dirname)
        if request.wait and entries:
            self._wait_landed(space, ids, WAIT_SECONDS)
            phases = space.state.phases(ids)
        return AddResult(event=event, ids=ids, phases=phases)

    def _accept(self, space: Space, user: EndUser, request: AddRequest, event: str, ids: list[str]
                ) -> tuple[list[dict], dict[str, Phase]]:
        """Into the inbox (fsync'd) and the phases table, under the accept lock: the entries stored, the phases."""
        known = space.state.item_rows(ids)
        stamps = self.stamps
        entries, rows = [], []
        phases = {i: Phase(known[i][1]) for i in ids if i in known}
        for item in request.items:
            h = item_hash(item)
            if known.get(item.id, ("",))[0] == h:
                continue  # the same content again: nothing to do, its phase stands
            thread = thread_of(user, item)
            entry = stored_item(item, thread, added_stamp(), stamps.now())
            entry["hash"] = h
            if item.id in known and known[item.id][2] != thread:
                entry["moved_from"] = known[item.id][2]  # an edit that moves it to another conversation
            entries.append(entry)
            rows.append((item.id, thread, h))
            phases[item.id] = Phase.accepted
        if entries:
            space.put_inbox(event, entries)
        space.state.accept(event, rows, ids)
        return entries, phases

    def _wait_landed(self, space: Space, ids: list[str], timeout: float) -> bool:
        deadline = time.monotonic() + timeout

        def landed() -> bool:
            return all(p != Phase.accepted for p in space.state.phases(ids).values())

        with space.landed:
            while not landed():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                space.landed.wait(min(left, 0.5))
        return True

    def wait(self, user: EndUser, ids: list[str], timeout: float = 60.0) -> bool:
        """Until these items (or events) have landed: for CLIs and tests."""
        with self._existing(user) as space:
            return self._wait_landed(space, ids, timeout)

    def idle(self, timeout: float | None = None) -> bool:
        return self.pipeline.wait_idle(timeout)

    # reading
    def status(self, user: EndUser, request: StatusRequest) -> StatusResult:
        with self._held(user) as space:
            if not space.exists:
                return StatusResult(phases={i: Phase.unknown for i in request.ids})
            self._here(space)
            phases = space.state.phases(request.ids)
            return StatusResult(phases=phases, notes=self.notes(space) or None)

    def notes(self, space: Space) -> list[str]:
        """What an app should know of this end user's memory beyond phases: work that waits or keeps failing."""
        notes = []
        if space.standing.broken:
            notes.append(f"This memory could not be repaired when it was opened ({space.standing.broken}): adds are "
                         "refused until an operator mends it; nothing it held is lost.")
        trouble = self.pipeline.troubles.get(space.user.dirname)
        if trouble:
            notes.append(trouble.note()[0].upper() + trouble.note()[1:] + ".")
        if self.read_only and space.pending_count():
            notes.append(f"{space.pending_count()} adds wait in the inbox: they land when the process that owns "
                         "this home gets to them.")
        noted = sync_remote.state(space.vault)
        if noted.get("error"):
            notes.append(f"The last sync, at {noted.get('error_at')}, failed: {noted['error']}")
        elif noted.get("synced_at"):
            notes.append(f"Last synced with its remote at {noted['synced_at']}.")
        copies = sync_remote.conflict_copies(space.vault) if noted else []
        if copies:
            notes.append(f"{len(copies)} file{'s were' if len(copies) != 1 else ' was'} edited by hand differently "
                         f"on two machines; the other version waits under conflicts/ until a person deletes it: "
                         f"{', '.join(copies[:5])}")
        org = space.user.org
        if self.reading and self.reading.waiting(org) and space.state.has_phase("landed"):
            until = self.reading.budget.resumes_at(org).strftime("%Y-%m-%d %H:%M UTC")
            notes.append(f"Reading is waiting on the daily budget until {until}: landed items are searchable, "
                         "and are read then.")
        if self.reading:
            notes += self.reading.notes(space)
        if self.checking:
            notes += self.checking.notes(space)
        return notes

    def _usable(self, space: Space) -> Space:
        if space.standing.broken:
            raise Unavailable(f"the memory of end user '{space.user.account}' could not be repaired when it was "
                              f"opened ({space.standing.broken}); an operator must mend it", retry_after=300)
        return space

    def search(self, user: EndUser, request: SearchRequest, limit: int = searching.HITS) -> SearchResult:
        with self._existing(user) as space:
            if space.upkeep.rebuilding:
                raise Unavailable(f"end user '{user.account}' is being rebuilt; try again shortly", retry_after=5)
            return self.briefs.answer(space, request, self.judge, self.reading, limit)

    def history(self, user: EndUser, request: HistoryRequest) -> HistoryResult:
        with self._existing(user) as space:
            records = self.briefs.folded(space)[0]
        rows = folding.history(records, request.subject, request.attribute, self.embedder)
        return HistoryResult(subject=request.subject, attribute=request.attribute,
                             values=[HistoryValue(**row) for row in rows])

    def correct(self, user: EndUser, request: CorrectRequest) -> CorrectResult:
        """Retract a record or replace its value: a commit, the lanes updated, the pages folded again."""
        self._writable()
        with self._existing(user) as space:
            return self._correct(self._usable(space), request)

    def _correct(self, space: Space, request: CorrectRequest) -> CorrectResult:
        with space.writer:
            old, new, records = ledger.correct(space, request.id, request.reason, request.value, self.clock())
            thread = ledger.thread_of_record(request.id)
            space.vault.write(ledger.records_path(thread), ledger.dump_records(records), durable=True)
            what = f"replace {old.attribute} {old.value!r} -> {new.value!r} in" if new else "retract"
            sha = space.vault.commit(f"correct: {what} {request.id} ({request.reason[:80]})",
                                     [ledger.records_path(thread)])
            index_records(space, thread, records)
            if self.folding:
                self.folding(space, force=True)
        self.pipeline.wake(space.user.dirname)  # which settles it in the pending index
        return CorrectResult(id=old.id, retracted=True, replaced_by=new.id if new else None, commit=sha)

    def forget(self, user: EndUser, request: ForgetRequest) -> ForgetResult:
        """Items or threads out of the files, the indexes, the pages and the git history; their threads read again."""
        self._writable()
        with self._existing(user) as space:
            return self._forget(self._usable(space), request.ids)

    def _forget(self, space: Space, ids: list[str], stones: list[dict] | None = None) -> ForgetResult:
        with space.writer:
            result = self._forget_held(space, ids, stones)
        self.pipeline.wake(space.user.dirname)  # the rest of those threads is read again
        return result

    def _forget_held(self, space: Space, ids: list[str], stones: list[dict] | None = None) -> ForgetResult:
        """As the writer. What is forgotten is noted in .git first: a forget a crash stopped is done again at the
        next start. A tombstone (tombstones.py) is committed with it, so that sync forgets it everywhere; `stones`:
        the tombstones a remote sent, kept as they are instead of a new one."""
        repair.begin_forget(space, ids, stones)
        forgotten, unknown, threads = forgetting.forget(space, ids)
        whole = [i for i in ids if forgetting.THREAD.match(i) and i in threads]
        if stones is not None:
            for stone in stones:
                tombstones.add(space.vault, stone)
        elif forgotten:
            tombstones.add(space.vault, tombstones.entry(forgotten, whole, self.stamps.now()))
        if forgotten:
            self._fold(space)
        space.vault.commit(f"forget: {len(forgotten)} item{'s' if len(forgotten) != 1 else ''} "
                           f"from {len(threads)} thread{'s' if len(threads) != 1 else ''}"
                           + (" (tombstones from the remote)" if stones is not None else ""))
        if forgotten:
            space.vault.purge_later(forgetting.history_paths(space, threads), threads)
        forgetting.purge(space)  # also what an earlier forget noted and did not finish
        repair.end_forget(space)
        self.briefs.forget(space.user.dirname)
        self.embedder.forget()
        return ForgetResult(forgotten=forgotten, unknown=unknown, commit=space.vault.head() if forgotten else None)

    def _land_now(self, space: Space) -> None:
        """As the writer: the inbox lands now, in order (before a merge takes the vault further)."""
        for event in space.pending():
            land.land_event(space, event)
        with space.landed:
            space.landed.notify_all()

    def _fold(self, space: Space) -> None:
        """Fold the pages now: with the reading's folding, or once where pages exist although reading is off."""
        folding_ = self.folding or (Folding(0, self.briefs.folded) if (space.root / "pages").is_dir() else None)
        if folding_:
            folding_(space, force=True)

    def lineage(self, user: EndUser, request: LineageRequest) -> LineageResult:
        with self._existing(user) as space:
            return LineageResult(**ledger.lineage(space, request.id))

    def grep(self, user: EndUser, request: GrepRequest) -> GrepResult:
        with self._existing(user) as space:
            return browse.grep(space, request)

    def read(self, user: EndUser, request: ReadRequest | str) -> ReadResult:
        if isinstance(request, str):
            request = ReadRequest(path=request)
        before = parse_day(request.before, "before") if request.before else None
        with self._existing(user) as space:
            return browse.read(space, request.path, before)

    # sync
    def sync(self, user: EndUser, request: SyncRequest | None = None) -> SyncResult:
        """The HTTP API's sync: with the remote the operator configured for this vault, never one a client names."""
        self._writable()
        with self._existing(user) as space:
            url = sync_remote.configured(self._usable(space).vault)
            if url is None:
                raise NotFound(f"no remote is configured for end user '{user.account}': the operator sets one "
                               f"with `twin sync --account {user.account} --remote URL`")
            return self._sync(space, url)

    def sync_with(self, user: EndUser, remote: str | None = None,
                  progress: Callable[[int, int], None] | None = None, leave: bool = False,
                  stay: bool = False) -> SyncResult:
        """`twin sync`: with `remote` (kept as the vault's remote from then on) or the one kept before. An end
        user this home does not hold yet is cloned from the remote (a new machine joining). `leave`: hand the
        vault to another server: from the moment no add is accepted any more, everything goes to the remote,
        and this home answers 503 for the end user from then on. `stay`: serve it here again, after a sync_remote."""
        self._writable()
        url = sync_remote.check_url(remote, user.dirname) if remote else None
        with self._held(user) as space:
            if not space.exists:  # not kept open while it does not exist: closed once it is cloned
                if leave or stay:
                    raise Invalid(f"end user '{user.account}' is not held here: there is nothing to leave or to keep")
                if url is None:
                    raise NotFound(f"no memory for end user '{user.account}' here: give --remote to fetch it")
                try:
                    out = sync_run.clone(space, url, progress, self.settings.sync_gpg_keys)
                finally:
                    space.close()
                space.standing.opened()
                self.spaces.prepared(space)  # opened from now on as a vault this owner has prepared
                self.remotes.mark(user.dirname)
                self.pipeline.wake(user.dirname)  # read here what was read there, and fold
                return sync_run.result(out)
            self._usable(space)
            kept = sync_remote.configured(space.vault)
            if url is not None and url != kept:
                encrypted.refuse_switch(kept, url)
                if encrypted.encrypted(url):  # a missing tool or key stops it before anything changes
                    encrypted.tools()
                    encrypted.recipients(list(self.settings.sync_gpg_keys))
            if url is not None:
                sync_remote.configure(space.vault, url)
                self.remotes.mark(user.dirname)
            url = url or kept
            if url is None:
                raise NotFound(f"no remote is kept for end user '{user.account}' yet: give --remote URL")
            if leave:
                with space.accept_lock:  # adds accepted before this are in the inbox, and the sync lands them
                    space.standing.moved(sync_remote.when())
                    sync_remote.note(space.vault, left=space.standing.left)
            try:
                synced = self._sync(space, url)
            except TwinError:
                if kept != url:  # a new remote that failed at once (encrypted to another key, unreachable) is
                    sync_remote.configure_back(space.vault, kept)  # not kept: the vault is as it was
                raise
            if stay:
                sync_remote.note(space.vault, left=None)
                space.standing.moved(None)
            return synced

    def _sync(self, space: Space, url: str) -> SyncResult:
        out = sync_run.run(space, url, self._hooks)
        self.briefs.forget(space.user.dirname)
        self.pipeline.wake(space.user.dirname)  # what came in is read, and the pages folded
        return sync_run.result(out)

    def synced(self) -> list[str]:
        """The end users whose vaults have a remote, by folder name."""
        return self.remotes.names() if self.remotes.exists else synced_vaults(self.home)

    def health(self) -> dict[str, int]:
        """Counts for GET /v1/health (no names: it answers without a key)."""
        if self._users is None:
            self._users = len(self._listed())
        synced = self.synced()
        failed = sum(1 for d in synced if sync_remote.state(Vault(self.home / "users" / d)).get("error"))
        return {"users": self._users, "broken": self.spaces.broken(), "failing": len(self.pipeline.troubles),
                "synced": len(synced), "sync_failed": failed}

    # upkeep
    def reindex(self, user: EndUser, progress: Callable[[int, int], None] | None = None) -> dict[str, int]:
        """Rebuild .twin/ from the files. Searches answer 503 meanwhile; adds wait in the inbox."""
        self._writable()
        with self._existing(user) as space:
            return self._reindex(space, progress)

    def _reindex(self, space: Space, progress: Callable[[int, int], None] | None = None) -> dict[str, int]:
        """A reindex is noted in .twin/ while it runs: one a crash stopped is run again at the next start."""
        with space.writer, space.upkeep.rebuild():
            repair.begin_reindex(space)
            stats = land.reindex(space, progress)
            repair.end_reindex(space)
        self.pipeline.wake(space.user.dirname)
        return stats
