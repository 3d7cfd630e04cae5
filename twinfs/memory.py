"""The facade every front end calls (server, CLI, MCP, Python): one Memory for a whole $TWIN_HOME."""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone

from . import browse, folding, forgetting, landing, ledger, mending, worked
from . import search as searching
from .errors import NotFound, Unavailable
from .filing import Reading, index_records
from .filtering import Filter, make_filter
from .index import Bounds, meaning
from .index.embedder import Embedder, shared_embedder
from .jobs import Pipeline
from .models import (AddRequest, AddResult, CorrectRequest, CorrectResult, EndUser, ForgetRequest, ForgetResult,
                     GrepRequest, GrepResult, HistoryRequest, HistoryResult, HistoryValue, LineageRequest,
                     LineageResult, Phase, ReadRequest, ReadResult, SearchRequest, SearchResult, StatusRequest,
                     StatusResult, parse_day)
from .pages import Folding
from .reading import Budget, Reader, make_reader
from .settings import Settings
from .space import Space, added_stamp, item_hash, new_event_id, stored_item, thread_of
from .watching import Watcher

log = logging.getLogger("twinfs")
WAIT_SECONDS = 10.0


def _user_of(dirname: str) -> EndUser:
    """`<org>.<project>.<account>`, a vault's folder name, as the end user it belongs to."""
    org, project, account = dirname.split(".", 2)
    return EndUser(org=org, project=project, account=account)


class Memory:
    def __init__(self, settings: Settings, embedder: Embedder | None = None, reader: Reader | None = None,
                 clock: Callable[[], datetime] | None = None):
        self.settings = settings
        self.home = settings.home
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
        self._stop = threading.Event()

    # lifecycle
    def start(self) -> "Memory":
        """Pick up what a crash or stop left: every end user with adds still in the inbox lands them."""
        (self.home / "users").mkdir(parents=True, exist_ok=True)
        for dirname in self.users():
            user = _user_of(dirname)
            space = self.space(user)
            if space.vault.purge_pending():
                with space.writer:
                    forgetting.purge(space)  # a forget that stopped before its history was rewritten
            if meaning.outdated(space.root / ".twin" / "meaning"):
                log.info("reindexing %s: the meaning lane learns who said each turn", dirname)
                self.reindex(user)  # nothing is embedded again
            if self.settings.watch and not space.pending():
                space.hand_edited = True  # what was edited while no one watched (a pending add commits it anyway)
            if space.hand_edited or space.pending() or (self.reading and space.state.unread_threads()):
                self.pipeline.wake(space)
        if self.reading:
            self._ticker = threading.Thread(target=self._tick, name="twin-ticker", daemon=True)
            self._ticker.start()
        if self.settings.watch:
            self._watcher = Watcher(self.home / "users", self._wrote, self._edited_by_hand).start()
        return self

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
        self._stop.set()
        if self._watcher:
            self._watcher.stop()
        self.pipeline.close()
        with self._lock:
            for space in self._spaces.values():
                space.close()
            self._spaces.clear()

    def __enter__(self) -> "Memory":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def space(self, user: EndUser, create: bool = False) -> Space:
        """The end user's Space; only end users that exist (or are being created) are kept open."""
        with self._lock:
            space = self._spaces.get(user.dirname)
            if space is not None:
                return space
            space = Space(self.home, user, self.embedder)
            if not (create or space.exists):
                return space
            space = self._spaces.setdefault(user.dirname, space)
        if create and not space.exists:
            with space.accept_lock:
                space.create()
        return space

    # hand edits
    def mend(self, user: EndUser) -> list[str]:
        """Commit and index again what was edited by hand in this end user's vault now; the paths edited."""
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
        return space

    def users(self) -> list[str]:
        folder = self.home / "users"
        return sorted(p.name for p in folder.iterdir() if (p / ".git").is_dir()) if folder.is_dir() else []

    # writing
    def add(self, user: EndUser, request: AddRequest) -> AddResult:
        """Durable before it returns: the items are in the end user's inbox, fsync'd. Landing follows."""
        space = self.space(user)
        if space.pending_count() >= self.settings.max_pending:
            raise Unavailable(f"the landing queue of end user '{user.account}' is full "
                              f"({self.settings.max_pending} adds waiting); try again shortly", retry_after=2)
        space = self.space(user, create=True)
        event = new_event_id()
        ids = [item.id for item in request.items]
        with space.accept_lock:
            known = space.state.item_rows(ids)
            entries, rows = [], []
            phases = {i: Phase(known[i][1]) for i in ids if i in known}
            for item in request.items:
                h = item_hash(item)
                if known.get(item.id, ("",))[0] == h:
                    continue  # the same content again: nothing to do, its phase stands
                thread = thread_of(user, item)
                entry = stored_item(item, thread, added_stamp())
                entry["hash"] = h
                if item.id in known and known[item.id][2] != thread:
                    entry["moved_from"] = known[item.id][2]  # an edit that moves it to another conversation
                entries.append(entry)
                rows.append((item.id, thread, h))
                phases[item.id] = Phase.accepted
            if entries:
                space.put_inbox(event, entries)
            space.state.accept(event, rows, ids)
        if entries:
            self.pipeline.wake(space)
        if request.wait and entries:
            self._wait_landed(space, ids, WAIT_SECONDS)
            phases = space.state.phases(ids)
        return AddResult(event=event, ids=ids, phases=phases)

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
        phases = space.state.phases(request.ids)
        notes = None
        if self.reading and self.reading.waiting(user.org) and space.state.has_phase("landed"):
            until = self.reading.budget.resumes_at(user.org).strftime("%Y-%m-%d %H:%M UTC")
            notes = [f"Reading is waiting on the daily budget until {until}: landed items are searchable, "
                     "and are read then."]
        return StatusResult(phases=phases, notes=notes)

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
            context.worked_out = worked.conflicts([p for p in pages if p.subject in chosen])
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
        space = self._existing(user)
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
        space = self._existing(user)
        with space.writer:
            forgotten, unknown, threads = forgetting.forget(space, request.ids)
            if forgotten:
                folding_ = self.folding or (Folding(self.embedder, 0) if (space.root / "pages").is_dir() else None)
                if folding_:
                    folding_(space, force=True)
                space.vault.commit(f"forget: {len(forgotten)} item{'s' if len(forgotten) != 1 else ''} "
                                   f"from {len(threads)} thread{'s' if len(threads) != 1 else ''}")
                space.vault.purge_later(forgetting.history_paths(space, threads), threads)
            forgetting.purge(space)  # also what an earlier forget noted and did not finish
            sha = space.vault.head() if forgotten else None
        self._pages.pop(user.dirname, None)
        self.embedder.forget()
        self.pipeline.wake(space)  # the rest of those threads is read again
        return ForgetResult(forgotten=forgotten, unknown=unknown, commit=sha)

    def lineage(self, user: EndUser, request: LineageRequest) -> LineageResult:
        return LineageResult(**ledger.lineage(self._existing(user), request.id))

    def grep(self, user: EndUser, request: GrepRequest) -> GrepResult:
        return browse.grep(self._existing(user), request)

    def read(self, user: EndUser, request: ReadRequest | str) -> ReadResult:
        if isinstance(request, str):
            request = ReadRequest(path=request)
        before = parse_day(request.before, "before") if request.before else None
        return browse.read(self._existing(user), request.path, before)

    # upkeep
    def reindex(self, user: EndUser, progress: Callable[[int, int], None] | None = None) -> dict[str, int]:
        """Rebuild .twin/ from the files. Searches answer 503 meanwhile; adds wait in the inbox."""
        space = self._existing(user)
        with space.writer:
            space.rebuilding = True
            try:
                stats = landing.reindex(space, progress)
            finally:
                space.rebuilding = False
        self.pipeline.wake(space)
        return stats
