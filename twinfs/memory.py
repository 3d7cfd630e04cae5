"""The facade every front end calls (server, CLI, MCP, Python): one Memory for a whole $TWIN_HOME."""
from __future__ import annotations

import errno
import logging
import shutil
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import git

from . import browse, folding, forgetting, landing, ledger, mending, repair, sync, syncing, tombstones, worked
from . import search as searching
from .clock import Clock
from .errors import Invalid, NotFound, TwinError, Unavailable
from .filing import Reading, index_records
from .filtering import Filter, make_filter
from .index import Bounds, meaning
from .index.embedder import Embedder, shared_embedder
from .jobs import Pipeline
from .models import (AddRequest, AddResult, CorrectRequest, CorrectResult, EndUser, ForgetRequest, ForgetResult,
                     GrepRequest, GrepResult, HistoryRequest, HistoryResult, HistoryValue, LineageRequest,
                     LineageResult, Phase, ReadRequest, ReadResult, SearchRequest, SearchResult, StatusRequest,
                     StatusResult, SyncRequest, SyncResult, parse_day)
from .owner import HomeBusy, HomeLock, holder
from .pages import Folding
from .reading import Budget, Reader, make_reader
from .settings import Settings
from .space import Space, added_stamp, item_hash, new_event_id, stored_item, thread_of
from .vault import Vault
from .watching import Watcher

log = logging.getLogger("twinfs")
WAIT_SECONDS = 10.0


def _user_of(dirname: str) -> EndUser:
    """`<org>.<project>.<account>`, a vault's folder name, as the end user it belongs to."""
    org, project, account = dirname.split(".", 2)
    return EndUser(org=org, project=project, account=account)


def vaults(home: Path) -> list[str]:
    """The end users' vault folders of a home, by name."""
    folder = home / "users"
    return sorted(p.name for p in folder.iterdir() if (p / ".git").is_dir()) if folder.is_dir() else []


def synced_vaults(home: Path) -> list[str]:
    """The vaults of a home that have a remote, by folder name."""
    return [d for d in vaults(home) if (home / "users" / d / ".git" / sync.STATE).exists()]


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


class Memory:
    """`read_only=True`: beside another process that owns the home (see owner.py), answer reading operations
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
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self._spaces: dict[str, Space] = {}
        self._lock = threading.Lock()
        self.pipeline = Pipeline(workers=settings.workers, mend=self._mend)
        self.reading: Reading | None = None
        self.folding: Folding | None = None
        if settings.reading:
            reader = reader or make_reader(model=settings.reader_model, url=settings.reader_url)
            budget = Budget(self.home / "budget.json", settings.daily_read_tokens, clock=self.clock)
            self.reading = Reading(reader, budget, settings.quiet_seconds, clock=self.clock)
            self.folding = Folding(self.embedder, settings.fold_seconds, clock=self.clock)
            self.pipeline.steps += [self.reading, self.folding]
        self.judge: Filter = make_filter(self.reading.reader if self.reading else None, self.embedder)
        self._pages: dict[str, tuple[tuple, tuple[list, list]]] = {}
        self._ticker: threading.Thread | None = None
        self._watcher: Watcher | None = None
        self._syncer: threading.Thread | None = None
        self._stop = threading.Event()
        self._hooks = syncing.Hooks(land=self._land_now, mend=self._mend, fold=self._fold, clock=self.stamps,
                                    forget=lambda space, ids, stones: self._forget_held(space, ids, stones))

    # lifecycle
    def start(self) -> "Memory":
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
        (self.home / "users").mkdir(parents=True, exist_ok=True)
        for dirname in self.users():
            space = self.space(_user_of(dirname))
            if space.broken:
                continue
            if self.settings.watch and not space.pending():
                space.hand_edited = True  # what was edited while no one watched (a pending add commits it anyway)
            if space.hand_edited or space.pending() or (self.reading and space.state.unread_threads()):
                self.pipeline.wake(space)
        if self.reading:
            self._ticker = threading.Thread(target=self._tick, name="twin-ticker", daemon=True)
            self._ticker.start()
        if self.settings.watch:
            self._watcher = Watcher(self.home / "users", self._wrote, self._edited_by_hand).start()
        if self.settings.sync_seconds:
            self._syncer = threading.Thread(target=self._sync_every, name="twin-sync", daemon=True)
            self._syncer.start()

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
                space = self.space(_user_of(dirname))
                if due.get(dirname, 0.0) > now or space.broken or space.left or now - space.last_add < quiet:
                    continue
                try:
                    url = sync.configured(space.vault)
                    if url:
                        self._sync(space, url)
                    failures.pop(dirname, None)
                    due[dirname] = now + every
                except Exception as exc:  # noted in the vault's sync state by the sync itself; the others go on
                    failures[dirname] = failures.get(dirname, 0) + 1
                    due[dirname] = now + min(3600.0, every * 2 ** failures[dirname])
                    log.warning("sync of %s failed (try %d): %s", dirname, failures[dirname], exc)

    def _prepare(self, space: Space) -> None:
        """The first time this owner opens a vault: repair what a dead process left, finish what it began (a
        forget, a reindex, a history rewrite), bring the vault to this format. A vault that cannot be repaired
        is marked broken and reported; the other end users go on."""
        midway = repair.stopped_midway(space)
        space.left = sync.state(space.vault).get("left")
        try:
            with space.writer:
                space.repaired = repair.repair(space, midway)
                if space.vault.purge_pending():
                    forgetting.purge(space)  # a forget that stopped before its history was rewritten
            pending = repair.pending_forget(space)
            if pending:
                log.warning("%s: finishing a forget that stopped midway", space.user.dirname)
                self._forget(space, *pending)
            with space.writer:
                if syncing.resume(space, self._hooks):
                    log.warning("%s: finished a sync's merge that stopped midway", space.user.dirname)
            if repair.reindex_pending(space) or meaning.outdated(space.root / ".twin" / "meaning"):
                log.warning("%s: reindexing (a reindex stopped midway, or the meaning lane's format is older)",
                            space.user.dirname)
                self._reindex(space)  # nothing unchanged is embedded again
        except (repair.Broken, OSError, sqlite3.Error, git.GitCommandError, subprocess.CalledProcessError,
                TwinError) as exc:
            space.broken = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            log.error("%s cannot be repaired here: %s; its other end users' neighbours go on",
                      space.user.dirname, space.broken)

    def _tick(self) -> None:
        """Wake end users with unread turns now and then: the newest part of a conversation is read once it
        has been quiet for TWIN_QUIET_SECONDS, and a spent budget comes back the next UTC day."""
        every = max(1.0, min(30.0, self.settings.quiet_seconds / 4))
        while not self._stop.wait(every):
            with self._lock:
                spaces = [s for s in self._spaces.values() if s.exists]
            for space in spaces:
                try:
                    if space.state.unread_threads() or (self.folding and self.folding.due(space)):
                        self.pipeline.wake(space)
                except Exception:  # a broken vault must not stop the others' reading
                    log.exception("ticker: %s", space.user.dirname)

    def close(self) -> None:
        if self._stop.is_set():
            return  # closed already (the server's shutdown, then serve's own `finally`)
        self._stop.set()
        if self._watcher:
            self._watcher.stop()
        if self._syncer:
            self._syncer.join(120)  # a sync under way finishes
        self.pipeline.close()
        with self._lock:
            spaces = list(self._spaces.values())
            self._spaces.clear()
        for space in spaces:
            if not self.read_only:
                with space.writer:  # whatever step still runs (a request's correct, a sync) finishes first
                    space.close()
            else:
                space.close()
        self.lock.release()

    def __enter__(self) -> "Memory":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def space(self, user: EndUser, create: bool = False) -> Space:
        """The end user's Space; only end users that exist (or are being created) are kept open. The owner
        repairs a vault the first time it opens it (see _prepare)."""
        with self._lock:
            space = self._spaces.get(user.dirname)
            if space is None:
                space = Space(self.home, user, self.embedder, read_only=self.read_only,
                              machine=self.settings.machine)
                if not (create or space.exists):
                    return space
                space = self._spaces.setdefault(user.dirname, space)
        if create and not space.exists:
            self._writable()
            with space.opening:  # a request that finds the vault half made waits below until it is made
                if not space.exists:
                    try:
                        space.create()
                    except (OSError, git.GitCommandError) as exc:
                        shutil.rmtree(space.root, ignore_errors=True)  # nothing half-made stays
                        raise unwritable(exc, f"end user '{user.account}'") from None
                    space.repaired = []
        if space.repaired is None and not self.read_only:
            with space.opening:
                if space.repaired is None and space.broken is None:
                    self._prepare(space)
        return space

    def _writable(self) -> None:
        if self.read_only:
            raise HomeBusy(self.home, holder(self.home) or {})

    # hand edits
    def mend(self, user: EndUser) -> list[str]:
        """Commit and index again what was edited by hand in this end user's vault now; the paths edited."""
        self._writable()
        space = self._existing(user)
        with space.writer:
            return self._mend(space)

    def _mend(self, space: Space) -> list[str]:
        changed = mending.mend(space)
        if self.folding and any(rel.startswith(("items/", "records/")) for rel in changed):
            self.folding(space, force=True)
        return changed

    def _open(self, dirname: str) -> Space | None:
        space = self.space(_user_of(dirname))
        return space if space.exists else None

    def _wrote(self, dirname: str, rel: str) -> bool:
        with self._lock:
            space = self._spaces.get(dirname)
        return space is not None and space.vault.wrote(rel)

    def _edited_by_hand(self, dirname: str) -> None:
        space = self._open(dirname)
        if space is not None:
            space.hand_edited = True
            self.pipeline.wake(space)

    def warm(self) -> None:
        """Load both embedder runtimes and the date parser now rather than on the first search (the brief
        embeds names in batches; landing does too)."""
        self.embedder.query("warm up")
        self.embedder.encode(["warm up"])
        searching.question_times("What did we do on 3 June 2023?", Bounds())

    def _existing(self, user: EndUser) -> Space:
        space = self.space(user)
        if not space.exists:
            raise NotFound(f"no memory for end user '{user.account}' yet")
        return self._here(space)

    @staticmethod
    def _here(space: Space) -> Space:
        """A vault this home handed to another server (`twin sync --leave`) is not answered from here: its
        requests retry, and the front door sends them to the server that has it now."""
        if space.left:
            raise Unavailable(f"end user '{space.user.account}' moved to another server at {space.left}; try "
                              "again shortly", retry_after=5)
        return space

    def users(self) -> list[str]:
        return vaults(self.home)

    # writing
    def add(self, user: EndUser, request: AddRequest) -> AddResult:
        """Durable before it returns: the items are in the end user's inbox, fsync'd. Landing follows. A full
        disk or a folder that cannot be written is a 503, and nothing of the add is kept."""
        self._writable()
        space = self.space(user)
        if space.pending_count() >= self.settings.max_pending:
            raise Unavailable(f"the landing queue of end user '{user.account}' is full "
                              f"({self.settings.max_pending} adds waiting); try again shortly", retry_after=2)
        space = self._usable(self.space(user, create=True))
        ids = [item.id for item in request.items]
        with space.accept_lock:
            self._here(space)  # under the accept lock: a leave's sync takes every add accepted before it
            event = new_event_id()  # taken in turn, so the inbox lands adds in the order they were accepted
            try:
                entries, phases = self._accept(space, user, request, event, ids)
            except (OSError, sqlite3.Error) as exc:
                try:
                    (space.inbox / f"{event}.json").unlink(missing_ok=True)  # not answered 202: not to land either
                except OSError:
                    pass  # nothing was written there, or nothing can be
                raise unwritable(exc, f"add for end user '{user.account}'") from None
        if entries:
            space.last_add = time.monotonic()
            self.pipeline.wake(space)
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
        return self._wait_landed(self._existing(user), ids, timeout)

    def idle(self, timeout: float | None = None) -> bool:
        return self.pipeline.wait_idle(timeout)

    # reading
    def status(self, user: EndUser, request: StatusRequest) -> StatusResult:
        space = self.space(user)
        if not space.exists:
            return StatusResult(phases={i: Phase.unknown for i in request.ids})
        self._here(space)
        phases = space.state.phases(request.ids)
        return StatusResult(phases=phases, notes=self.notes(space) or None)

    def notes(self, space: Space) -> list[str]:
        """What an app should know of this end user's memory beyond phases: work that waits or keeps failing."""
        notes = []
        if space.broken:
            notes.append(f"This memory could not be repaired when it was opened ({space.broken}): adds are "
                         "refused until an operator mends it; nothing it held is lost.")
        trouble = self.pipeline.troubles.get(space.user.dirname)
        if trouble:
            notes.append(trouble.note()[0].upper() + trouble.note()[1:] + ".")
        if self.read_only and space.pending_count():
            notes.append(f"{space.pending_count()} adds wait in the inbox: they land when the process that owns "
                         "this home gets to them.")
        noted = sync.state(space.vault)
        if noted.get("error"):
            notes.append(f"The last sync, at {noted.get('error_at')}, failed: {noted['error']}")
        elif noted.get("synced_at"):
            notes.append(f"Last synced with its remote at {noted['synced_at']}.")
        copies = sync.conflict_copies(space.vault) if noted else []
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
        return notes

    def _usable(self, space: Space) -> Space:
        if space.broken:
            raise Unavailable(f"the memory of end user '{space.user.account}' could not be repaired when it was "
                              f"opened ({space.broken}); an operator must mend it", retry_after=300)
        return space

    def search(self, user: EndUser, request: SearchRequest, limit: int = searching.HITS) -> SearchResult:
        space = self._existing(user)
        if space.rebuilding:
            raise Unavailable(f"end user '{user.account}' is being rebuilt; try again shortly", retry_after=5)
        return searching.search(space, request, limit, self._context(space, request))

    def _context(self, space: Space, request: SearchRequest) -> searching.Context:
        """What the brief adds to the lanes: known, worked_out, the judge, and whether reading waits."""
        context = searching.Context()
        if request.ranked:
            return context
        org = space.user.org
        waiting = self.reading is not None and self.reading.waiting(org)
        if waiting:
            context.reading_waits_until = self.reading.budget.resumes_at(org)
        if not request.fast and not (waiting and self.judge.name == "model"):
            context.judge = self.judge  # an LLM judge spends the budget; spent, the brief goes unfiltered
        records, pages = self._folded(space)
        before = request.before_at
        if before is not None:
            records = [r for r in records if r.said < before.date().isoformat()]
            pages = folding.fold(records, self.embedder)
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

    def _folded(self, space: Space) -> tuple[list, list]:
        """The records and the pages they fold into, as the files now stand; kept until a record file
        changes, since every brief asks."""
        stamp = tuple(sorted((f.name, f.stat().st_mtime_ns, f.stat().st_size)
                             for f in space.root.glob("records/th_*.json")))
        cached = self._pages.get(space.user.dirname)
        if cached and cached[0] == stamp:
            return cached[1]
        records = ledger.all_records(space)
        folded = (records, folding.fold(records, self.embedder))
        self._pages[space.user.dirname] = (stamp, folded)
        return folded

    def history(self, user: EndUser, request: HistoryRequest) -> HistoryResult:
        space = self._existing(user)
        rows = folding.history(self._folded(space)[0], request.subject, request.attribute, self.embedder)
        return HistoryResult(subject=request.subject, attribute=request.attribute,
                             values=[HistoryValue(**row) for row in rows])

    def correct(self, user: EndUser, request: CorrectRequest) -> CorrectResult:
        """Retract a record or replace its value: a commit, the lanes updated, the pages folded again."""
        self._writable()
        space = self._usable(self._existing(user))
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
        return CorrectResult(id=old.id, retracted=True, replaced_by=new.id if new else None, commit=sha)

    def forget(self, user: EndUser, request: ForgetRequest) -> ForgetResult:
        """Items or threads out of the files, the indexes, the pages and the git history; their threads read again."""
        self._writable()
        return self._forget(self._usable(self._existing(user)), request.ids)

    def _forget(self, space: Space, ids: list[str], stones: list[dict] | None = None) -> ForgetResult:
        with space.writer:
            result = self._forget_held(space, ids, stones)
        self.pipeline.wake(space)  # the rest of those threads is read again
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
        self._pages.pop(space.user.dirname, None)
        self.embedder.forget()
        return ForgetResult(forgotten=forgotten, unknown=unknown, commit=space.vault.head() if forgotten else None)

    def _land_now(self, space: Space) -> None:
        """As the writer: the inbox lands now, in order (before a merge takes the vault further)."""
        for event in space.pending():
            landing.land_event(space, event)
        with space.landed:
            space.landed.notify_all()

    def _fold(self, space: Space) -> None:
        """Fold the pages now: with the reading's folding, or once where pages exist although reading is off."""
        folding_ = self.folding or (Folding(self.embedder, 0) if (space.root / "pages").is_dir() else None)
        if folding_:
            folding_(space, force=True)

    def lineage(self, user: EndUser, request: LineageRequest) -> LineageResult:
        return LineageResult(**ledger.lineage(self._existing(user), request.id))

    def grep(self, user: EndUser, request: GrepRequest) -> GrepResult:
        return browse.grep(self._existing(user), request)

    def read(self, user: EndUser, request: ReadRequest | str) -> ReadResult:
        if isinstance(request, str):
            request = ReadRequest(path=request)
        before = parse_day(request.before, "before") if request.before else None
        return browse.read(self._existing(user), request.path, before)

    # sync
    def sync(self, user: EndUser, request: SyncRequest | None = None) -> SyncResult:
        """The HTTP API's sync: with the remote the operator configured for this vault, never one a client names."""
        self._writable()
        space = self._usable(self._existing(user))
        url = sync.configured(space.vault)
        if url is None:
            raise NotFound(f"no remote is configured for end user '{user.account}': the operator sets one with "
                           f"`twin sync --account {user.account} --remote URL`")
        return self._sync(space, url)

    def sync_with(self, user: EndUser, remote: str | None = None,
                  progress: Callable[[int, int], None] | None = None, leave: bool = False,
                  stay: bool = False) -> SyncResult:
        """`twin sync`: with `remote` (kept as the vault's remote from then on) or the one kept before. An end
        user this home does not hold yet is cloned from the remote (a new machine joining). `leave`: hand the
        vault to another server: from the moment no add is accepted any more, everything goes to the remote,
        and this home answers 503 for the end user from then on. `stay`: serve it here again, after a sync."""
        self._writable()
        space = self.space(user)
        url = sync.check_url(remote, user.dirname) if remote else None
        if not space.exists:
            if leave or stay:
                raise Invalid(f"end user '{user.account}' is not held here: there is nothing to leave or to keep")
            if url is None:
                raise NotFound(f"no memory for end user '{user.account}' here: give --remote to fetch it")
            out = syncing.clone(space, url, progress)
            with self._lock:
                self._spaces[user.dirname] = space
            space.repaired = []
            self.pipeline.wake(space)  # read here what was read there, and fold
            return self._result(out)
        self._usable(space)
        if url is not None:
            sync.configure(space.vault, url)
        url = url or sync.configured(space.vault)
        if url is None:
            raise NotFound(f"no remote is kept for end user '{user.account}' yet: give --remote URL")
        if leave:
            with space.accept_lock:  # adds accepted before this are in the inbox, and the sync lands them
                space.left = sync.when()
                sync.note(space.vault, left=space.left)
        out = self._sync(space, url)
        if stay:
            sync.note(space.vault, left=None)
            space.left = None
        return out

    def _sync(self, space: Space, url: str) -> SyncResult:
        out = syncing.run(space, url, self._hooks)
        self._pages.pop(space.user.dirname, None)
        self.pipeline.wake(space)  # what came in is read, and the pages folded
        return self._result(out)

    @staticmethod
    def _result(out: sync.Outcome) -> SyncResult:
        hosted = not (out.remote.startswith("/") or out.remote.startswith("file://"))
        note = ("The remote is a hosted git service: a forget rewrote the history pushed there, but the host keeps "
                "the unreachable objects until its own garbage collection.") if out.forgotten and hosted else None
        return SyncResult(remote=out.remote, kind=out.kind, received=len(out.received), sent=out.sent,
                          forgotten=len(out.forgotten), kept=out.kept, conflicts=out.conflicts, head=out.head,
                          note=note)

    def synced(self) -> list[str]:
        """The end users whose vaults have a remote, by folder name."""
        return synced_vaults(self.home)

    def health(self) -> dict[str, int]:
        """Counts for GET /v1/health (no names: it answers without a key)."""
        with self._lock:
            broken = sum(1 for s in self._spaces.values() if s.broken)
        synced = self.synced()
        failed = sum(1 for d in synced if sync.state(Vault(self.home / "users" / d)).get("error"))
        return {"users": len(self.users()), "broken": broken, "failing": len(self.pipeline.troubles),
                "synced": len(synced), "sync_failed": failed}

    # upkeep
    def reindex(self, user: EndUser, progress: Callable[[int, int], None] | None = None) -> dict[str, int]:
        """Rebuild .twin/ from the files. Searches answer 503 meanwhile; adds wait in the inbox."""
        self._writable()
        return self._reindex(self._existing(user), progress)

    def _reindex(self, space: Space, progress: Callable[[int, int], None] | None = None) -> dict[str, int]:
        """A reindex is noted in .twin/ while it runs: one a crash stopped is run again at the next start."""
        with space.writer:
            space.rebuilding = True
            try:
                repair.begin_reindex(space)
                stats = landing.reindex(space, progress)
                repair.end_reindex(space)
            finally:
                space.rebuilding = False
        self.pipeline.wake(space)
        return stats
