"""The facade every front end calls (server, CLI, MCP, Python): one Memory for a whole $TWIN_HOME."""
from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from datetime import UTC, datetime

from . import browse, folding, ledger
from . import search as searching
from .brief import Briefs
from .clock import Clock
from .errors import Invalid, NotFound, TwinError, Unavailable, unwritable
from .filtering import Filter, make_filter
from .forms import parse_day
from .index import Bounds
from .index.embedder import Embedder, shared_embedder
from .jobs import Pipeline
from .lifecycle import Lifecycle, vaults
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
)
from .notes import status_notes
from .reading import Budget, Reader, make_reader
from .reading.checkpass import CheckPass, check_pass
from .settings import Settings
from .space import Space, added_stamp, item_hash, new_event_id, stored_item, thread_of
from .steps.fold import Folding
from .steps.land import Landing
from .steps.read import Reading
from .steps.tidy import Mending, Tidying
from .sync import encrypted
from .sync import remote as sync_remote
from .sync import run as sync_run
from .vault import Vault
from .writes import Writes

log = logging.getLogger("twinfs")
WAIT_SECONDS = 10.0


class Memory:
    """`read_only=True`: beside another process that owns the home (see home_lock.py), answer reading operations
    from what it wrote, and never write. Otherwise this Memory owns the home from start() to close()."""

    def __init__(self, settings: Settings, embedder: Embedder | None = None, reader: Reader | None = None,
                 clock: Callable[[], datetime] | None = None, read_only: bool = False, owner: str = "twin",
                 stamps: Clock | None = None):
        self.settings = settings
        self.home = settings.home
        self.read_only = read_only
        self.embedder = embedder or shared_embedder()
        self.clock = clock or (lambda: datetime.now(UTC))
        self.reading: Reading | None = None
        self.checking: CheckPass | None = None
        self.folding: Folding | None = None
        # the brief's folded records, per open end user
        self.briefs = Briefs(self.embedder, self.clock, lambda space: self.life.records_seen(space))
        self.pipeline = Pipeline(workers=settings.workers)
        if settings.reading:
            reader = reader or make_reader(*settings.window_reader)
            budget = Budget(self.home / "budget.json", settings.daily_read_tokens, clock=self.clock)
            self.reading = Reading(reader, budget, settings.quiet_seconds, clock=self.clock)
            self.reading.landing = self.pipeline.landing
            self.folding = Folding(settings.fold_seconds, self.briefs.folded, clock=self.clock)
        self.writes = Writes(self.embedder, stamps or Clock(settings.machine), self.clock, self.briefs,
                             self.folding, self.pipeline.wake, settings.sync_gpg_keys)
        if self.reading:  # the rules read; a model checks them (reading/checkpass.py: Settings.model_checks)
            self.checking = check_pass(settings, self.writes.fold, self.pipeline.landing)
        self.pipeline.use([step for step in (Mending(self.writes.mend), Landing(self.pipeline), self.reading,
                                             self.folding, self.checking, Tidying()) if step is not None])  # jobs.STEPS
        self.judge: Filter = make_filter(self.reading.reader if self.reading else None, self.embedder)
        self.life = Lifecycle(settings, self.pipeline, self.writes, self.folding, bool(self.reading), self.clock,
                              read_only=read_only, owner=owner, on_close=lambda space: self.briefs.forget(
                                  space.user.dirname), stopping=self._stopping)
        # its parts, as the front ends, tests and benchmarks reach them
        self.lock, self.spaces, self.pending, self.remotes = (self.life.lock, self.life.spaces, self.life.pending,
                                                              self.life.remotes)

    def _stopping(self) -> None:
        if self.reading:
            self.reading.stopping.set()
            if self.checking:
                self.checking.stopping.set()

    def start(self) -> Memory:
        """Own the home (or refuse, naming its owner), then pick up what a crash or stop left (lifecycle.py)."""
        self.life.start()
        return self

    def close(self) -> None:
        self.life.close()

    def __enter__(self) -> Memory:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def space(self, user: EndUser, create: bool = False, hold: bool = False) -> Space:
        """The end user's Space (lifecycle.py: prepared the first time this owner opens it); use it under `_held`
        (a lease), or it may be closed while in use."""
        return self.life.space(user, create=create, hold=hold)

    def _held(self, user: EndUser, create: bool = False) -> AbstractContextManager[Space]:
        """The end user's Space under a lease: it stays open until the block ends."""
        return self.life.held(user, create=create)

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
        self.life.writable()

    # hand edits
    def mend(self, user: EndUser) -> list[str]:
        """Commit and index again what was edited by hand in this end user's vault now; the paths edited."""
        self._writable()
        with self._existing(user) as space:
            with space.writer:
                changed = self.writes.mend(space)
            self.pipeline.wake(space.user.dirname)  # which settles it in the pending index
            return changed

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
                self.life.mark(space)  # in the pending index before the inbox: a restart finds it
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
        stamps = self.writes.stamps
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
            return StatusResult(phases=phases, notes=status_notes(space, self.pipeline, self.reading, self.checking,
                                                                self.read_only) or None)

    def _usable(self, space: Space) -> Space:
        if space.standing.broken:
            raise Unavailable(f"the memory of end user '{space.user.account}' could not be repaired when it was "
                              f"opened ({space.standing.broken}); an operator must mend it", retry_after=300)
        return space

    def search(self, user: EndUser, request: SearchRequest, limit: int = searching.HITS) -> SearchResult:
        with self._existing(user) as space:
            if space.upkeep.rebuilding:
                raise Unavailable(f"end user '{user.account}' is being rebuilt; try again shortly", retry_after=5)
            if self.checking:
                self.checking.used()  # the model pass runs on one thread for a few seconds
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
            return self.writes.correct(self._usable(space), request)

    def forget(self, user: EndUser, request: ForgetRequest) -> ForgetResult:
        """Items or threads out of the files, the indexes, the pages and the git history; their threads read again."""
        self._writable()
        with self._existing(user) as space:
            return self.writes.forget(self._usable(space), request.ids)

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
            return self.writes.sync(space, url)

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
            if not space.exists:  # a new machine joining: cloned in the Space kept open for it
                if leave or stay:
                    raise Invalid(f"end user '{user.account}' is not held here: there is nothing to leave or to keep")
                if url is None:
                    raise NotFound(f"no memory for end user '{user.account}' here: give --remote to fetch it")
                with self.life.joining(user) as joining:  # the Space every other opener gets, and waits on
                    out = sync_run.clone(joining, url, progress, self.settings.sync_gpg_keys)
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
                synced = self.writes.sync(space, url)
            except TwinError:
                if kept != url:  # a new remote that failed at once (encrypted to another key, unreachable) is
                    sync_remote.configure_back(space.vault, kept)  # not kept: the vault is as it was
                raise
            if stay:
                sync_remote.note(space.vault, left=None)
                space.standing.moved(None)
            return synced

    def synced(self) -> list[str]:
        """The end users whose vaults have a remote, by folder name."""
        return self.life.synced()

    def health(self) -> dict[str, int]:
        """Counts for GET /v1/health (no names: it answers without a key)."""
        synced = self.synced()
        failed = sum(1 for d in synced if sync_remote.state(Vault(self.home / "users" / d)).get("error"))
        return {"users": self.life.count_users(), "broken": self.spaces.broken(),
                "failing": len(self.pipeline.troubles), "synced": len(synced), "sync_failed": failed}

    # upkeep
    def reindex(self, user: EndUser, progress: Callable[[int, int], None] | None = None) -> dict[str, int]:
        """Rebuild .twin/ from the files. Searches answer 503 meanwhile; adds wait in the inbox."""
        self._writable()
        with self._existing(user) as space:
            return self.writes.reindex(space, progress)
