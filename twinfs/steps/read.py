"""The read step: takes a Space's landed threads; the windows a thread still owes are read, their records
written to records/<thread>.json and committed, and the items they hold marked `read`. The reader runs beside
the end user's one writer; what it gave is filed by the writer."""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from .. import faults
from ..background import LATER, backoff
from ..errors import Unavailable
from ..forms import to_second
from ..index import Doc
from ..ledger import dump_records, load_records, records_path
from ..models import Phase, Record
from ..passage_keys import fact_segment, index_record_keys
from ..passages import content_hash, parse
from ..reading import Budget, Outcome, Reader, Window, plan_windows
from ..reading.withdrawn import withdraw
from ..space import Space, turns_of

log = logging.getLogger("twinfs.reading")
FIRST_RETRY, LAST_RETRY = 30, 3600  # seconds before a window that failed to read is tried again, doubling
READ_SECONDS = 2.0  # windows read in a run before what they gave is filed (one commit a run, not a window)
# Reading gives way to a stream of adds: it starts once the end user's adds have paused this long (a read beside a
# landing doubled the landing, both being Python under one GIL), but after YIELD_MAX of giving way it reads anyway.
ADDS_QUIET, YIELD_MAX = 1.0, 30.0
LANDING_WAIT = 2.0  # and a window waits for landings of other end users under way, at most this long


def record_segment(r: Record) -> str:
    """What the meaning lane embeds of a record (and the filter asks of it, from the same stored vector)."""
    return fact_segment(r)


def record_docs(thread: str, records: list[Record]) -> list[Doc]:
    """Live records as both lanes index them (a retracted one is not searchable), addressed `#N` from 1."""
    docs = []
    for n, r in enumerate(records, 1):
        if r.retracted:
            continue
        said = datetime.fromisoformat(r.said).replace(tzinfo=UTC)
        text = r.render()
        docs.append(Doc(id=r.id, path=f"{records_path(thread)}#{n}", thread=thread, type="record", text=text,
                        start=said, end=said, hash=content_hash(f"{n}\x00{text}"),
                        segments=(record_segment(r),)))
    return docs


def index_records(space: Space, thread: str, records: list[Record]) -> None:
    """Bring both lanes in line with a thread's record file: changed ones replaced, vanished ones dropped."""
    docs = record_docs(thread, records)
    known = {i: h for i, h in space.meaning.hashes(thread).items() if i.startswith(f"{thread}#")}
    wanted = {d.id for d in docs}
    changed = [d for d in docs if known.get(d.id) != d.hash]
    drops = [i for i in known if i not in wanted]
    space.words.apply(changed, drops)
    space.meaning.apply(changed, drops)
    index_record_keys(space, thread, records)  # the passages they were read from are found by them too


def drop_records(space: Space, thread: str, commit: bool = True) -> None:
    """A thread whose items all left it (or some were forgotten): its records, their index entries and its read
    windows go too. `commit=False`: the caller commits (forget, which says why)."""
    if space.vault.path(records_path(thread)).exists():
        space.vault.delete(records_path(thread))
        if commit:
            space.vault.commit(f"read: 0 records from {thread} (its items moved away)", [records_path(thread)])
    index_records(space, thread, [])
    space.state.drop_windows(thread)


def sources_of(space: Space, thread: str) -> dict[str, str]:
    """turn id -> the passage that holds it (its first piece, for a long turn)."""
    out: dict[str, str] = {}
    for path in sorted(space.state.cuts(thread)):
        try:
            for turn in parse(space.vault.read(path)).turns:
                out.setdefault(turn, path)
        except FileNotFoundError:
            continue
    return out


def _retracted_twin(records, record: Record) -> Record | None:
    """A retracted record saying the same of the same subject from some of the same turns: a re-read that words
    the statement a little differently does not bring back what a person retracted."""
    if not record.attribute:
        return None
    for r in records:
        if r.retracted and (r.kind, r.subject, r.attribute, r.value) == \
                (record.kind, record.subject, record.attribute, record.value) and set(r.turns) & set(record.turns):
            return r
    return None


class Reading:
    """The read step: callable on a Space by the pipeline.

    A window whose read fails (a bad answer twice, a reader that died or hung, an endpoint down) is not read:
    it is tried again later, after a back-off that doubles from FIRST_RETRY up to LAST_RETRY seconds, and status
    says so meanwhile. A reader that is down (Unavailable) pauses all reading for as long."""

    lane = LATER
    marks = Phase.read

    def __init__(self, reader: Reader, budget: Budget, quiet_seconds: int,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)):
        self.reader = reader
        self.budget = budget
        self.quiet_seconds = quiet_seconds
        self.clock = clock
        self._lock = threading.Lock()
        self._retry: dict[tuple[str, str, int], tuple[int, datetime]] = {}  # window -> (failures, not before)
        self._paused: tuple[int, datetime] = (0, datetime.min.replace(tzinfo=UTC))
        self.stopping = threading.Event()  # the owner is closing: the pass ends after the thread under way
        self.landing: Callable[[], bool] = lambda: False  # whether any end user's landing is under way (Pipeline)

    def waiting(self, org: str) -> bool:
        return self.budget.waiting(org)

    def __call__(self, space: Space) -> float | None:
        """Read what is unread, a conversation at a time. The reader runs without the end user's writer: it is
        taken to see which windows a conversation owes, and again to file what was read (for a window that did
        not change meanwhile), so an add lands while a window is read — a model's 40-150 s, the rules' tens of
        milliseconds — instead of after it. Returns the seconds after which to come back when it gave way to
        adds still coming in (ADDS_QUIET)."""
        unread = space.state.unread_threads()
        if unread and hasattr(self.reader, "warm"):
            self.reader.warm()  # a model loaded now, before the first window
        for thread in unread:
            while True:
                wait = space.adds.give_way(ADDS_QUIET, YIELD_MAX)
                if wait:
                    return wait
                if self.stopping.is_set():
                    return None  # what is left is read after the next start
                if not self.budget.allows(space.user.org):
                    return None  # reading waits for the next UTC day; landing and search go on
                if space.pending():
                    return None  # new adds land first (the pipeline comes back here after): searchable beats read
                if self.clock() < self._paused[1]:
                    return None  # the reader is down: the ticker comes back after the pause
                with space.writer:
                    windows = self.owed(space, thread)
                if not windows:
                    break
                outcomes = self.read_windows(space, windows)
                with space.writer:
                    self.file(space, thread, outcomes)
                if isinstance(outcomes[-1][1], Exception):
                    break  # the reader crashed or is down: this conversation waits for the next pass
        return None

    def _backoff(self, failures: int, at_least: int = 0) -> timedelta:
        return timedelta(seconds=max(at_least, backoff(failures, FIRST_RETRY, LAST_RETRY)))

    def _due(self, space: Space, thread: str, position: int) -> bool:
        with self._lock:
            held = self._retry.get((space.user.dirname, thread, position))
        return held is None or self.clock() >= held[1]

    def _failed(self, space: Space, thread: str, position: int, exc: Exception | None = None) -> datetime:
        """Note one more failure of a window (and of the reader, when it is down); when it is tried again."""
        now = self.clock()
        retry_after = exc.retry_after if isinstance(exc, Unavailable) else 0
        with self._lock:
            key = (space.user.dirname, thread, position)
            failures = self._retry.get(key, (0, now))[0] + 1
            again = now + self._backoff(failures, retry_after)
            self._retry[key] = (failures, again)
            if isinstance(exc, Unavailable):
                paused = self._paused[0] + 1
                self._paused = (paused, now + self._backoff(paused, retry_after))
        return again

    def _read(self, space: Space, thread: str, position: int) -> None:
        with self._lock:
            self._retry.pop((space.user.dirname, thread, position), None)
            self._paused = (0, self._paused[1])

    def notes(self, space: Space) -> list[str]:
        """What status says of windows that could not be read yet."""
        failed = space.state.failed_windows()
        if not failed:
            return []
        with self._lock:
            times = [self._retry[k][1] for thread, position, _ in failed
                     if (k := (space.user.dirname, thread, position)) in self._retry]
        when = f"from {min(times):%Y-%m-%d %H:%M:%S} UTC" if times else "on the next pass"
        threads = len({thread for thread, _, _ in failed})
        return [f"{len(failed)} window{'s' if len(failed) != 1 else ''} of {threads} conversation"
                f"{'s' if threads != 1 else ''} could not be read yet ({failed[0][2]}); tried again {when}: "
                "their items are searchable and stay landed until then."]

    def _planned(self, space: Space, thread: str) -> tuple[list[Window], dict]:
        """As the writer: the windows of a thread not read yet, and what each window read before gave."""
        entries = space.thread_items(thread)
        if not entries:
            return [], {}
        turns = turns_of(entries)
        done = space.state.windows(thread)
        read = {h for h, _, failed in done.values() if not failed}  # a failed window is read again, later
        planned = plan_windows(thread, turns, sources_of(space, thread), set(), self.clock(), self.quiet_seconds)
        # windows read before a crash cut their step short (their records kept by the repair): their items read
        space.state.set_thread_phase(thread, Phase.read, [i for w in planned if w.hash in read for i in w.new])
        return [w for w in planned if w.hash not in read], done

    def owed(self, space: Space, thread: str) -> list[Window]:
        """As the writer: the windows of a thread to read now (not read yet, and not waiting out a back-off)."""
        windows, _ = self._planned(space, thread)
        return [w for w in windows if self._due(space, thread, w.position)]

    def read_windows(self, space: Space, windows: list[Window]) -> list[tuple[Window, Outcome | Exception]]:
        """Without the writer: read windows in order, for up to READ_SECONDS (at least one) or until an add waits
        or the budget is spent; each with what the reader gave (a ReadOutcome) or the exception it raised. A
        reader that raised stops the run: the windows after it wait for the next pass."""
        out: list[tuple[Window, Outcome | Exception]] = []
        started = time.monotonic()
        for window in windows:
            if out and (time.monotonic() - started > READ_SECONDS or space.pending() or self.stopping.is_set()
                        or not self.budget.allows(space.user.org)):
                break
            self._after_landings()
            try:
                outcome = self.reader.read(window)
            except Exception as exc:  # a reader that died, hung or is down: this window waits, the rest is kept
                out.append((window, exc))
                break
            self.budget.spend(space.user.org, outcome.tokens)
            out.append((window, outcome))
        return out

    def _after_landings(self) -> None:
        """Wait while another end user's add lands (up to LANDING_WAIT): a window read beside a landing doubled it
        (both Python under one GIL), and reading is what can wait."""
        until = time.monotonic() + LANDING_WAIT
        while self.landing() and time.monotonic() < until and not self.stopping.is_set():
            time.sleep(0.005)

    def file(self, space: Space, thread: str, outcomes: list[tuple[Window, Outcome | Exception]]) -> int:
        """As the writer: what the windows gave, written to the thread's records and committed — for windows the
        thread still owes as they were read (one an add or an edit changed meanwhile is read again later)."""
        windows, done = self._planned(space, thread)
        owed = {(w.position, w.hash) for w in windows}
        records: dict[str, Record] | None = None
        filed = 0
        read_ids: list[str] = []
        just_read: set[str] = set()
        for window, outcome in outcomes:
            if (window.position, window.hash) not in owed:
                continue
            earlier = done.get(window.position, ("", [], None))[1]  # the records this window gave last time
            if isinstance(outcome, Exception):
                again = self._failed(space, thread, window.position, outcome)
                log.warning("window %d of %s could not be read (tried again from %s): %s", window.position,
                            thread, f"{again:%H:%M:%S}", outcome)
                space.state.set_window(thread, window.position, window.hash, earlier, str(outcome)[:300] or "failed")
                continue
            if outcome.failed:
                again = self._failed(space, thread, window.position)
                log.warning("window %d of %s failed to read (tried again from %s): %s", window.position, thread,
                            f"{again:%H:%M:%S}", outcome.failed)
                space.state.set_window(thread, window.position, window.hash, earlier, outcome.failed)
                continue
            if records is None:
                records = {r.id: r for r in load_records(space, thread)}
            self._read(space, thread, window.position)
            for old in earlier:  # a window read again (it grew, or an item in it was edited) replaces its records
                if old in records and not records[old].retracted:
                    records.pop(old)  # … but what a person retracted stays retracted: it is their correction
            for record in outcome.records:
                kept = records.get(record.id) or _retracted_twin(records.values(), record)
                if kept is not None and kept.retracted:
                    record = record.model_copy(update={"retracted": kept.retracted})
                records[record.id] = record
            just_read |= {r.id for r in outcome.records}
            space.state.set_window(thread, window.position, window.hash, [r.id for r in outcome.records], None)
            filed += len(outcome.records)
            read_ids += window.new
        if not read_ids or records is None:
            return 0
        order = {t.id: n for n, t in enumerate(turns_of(space.thread_items(thread)))}
        listed = list(records.values())
        # "Gwen is not my wife now": the earlier "wife Gwen" retracted, with why
        ended = withdraw(listed, order, to_second(self.clock()), just_read)
        ordered = sorted(listed,
                         key=lambda r: (r.said, min((order.get(c, len(order)) for c in r.turns), default=len(order)),
                                        r.id))
        space.vault.write(records_path(thread), dump_records(ordered), durable=False)
        index_records(space, thread, ordered)
        faults.point("read")
        space.vault.commit(f"read: {filed} record{'s' if filed != 1 else ''} from {thread}"
                           + (f"; ended {', '.join(ended)}" if ended else ""), [records_path(thread)])
        space.state.set_thread_phase(thread, Phase.read, read_ids)
        return filed
