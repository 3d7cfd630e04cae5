"""The background pipeline: for each end user, one writer at a time runs the steps in the order STEPS gives
(hand edits mended, the inbox landed, then read, folded, checked, tidied). The inbox on disk is the queue, so a
restart simply picks up where it stopped.

Each step says its lane: landing's (and mending's) has its own workers, and the later steps run on one worker
of their own, at a lower priority, so a new add never waits behind another end user's reading (bench/load.py:
add -> landed p95 with reading on went from 1.1 s to under 1 s at 50 items/s)."""
from __future__ import annotations

import heapq
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from .background import LAND, LAND_NICE, LATER, LATER_NICE, backoff, lower_priority
from .models import Phase
from .reading.checkpass import CheckPass
from .space import Space
from .steps.fold import Folding
from .steps.land import Landing
from .steps.read import Reading
from .steps.tidy import Mending, Tidying

log = logging.getLogger("twinfs.jobs")
# the steps in the order they run for an end user: the one place that order lives
STEPS = (Mending, Landing, Reading, Folding, CheckPass, Tidying)
NICE = {LAND: LAND_NICE, LATER: LATER_NICE}
FAILING = {LAND: "the work on this memory", LATER: "reading and folding"}  # what status says keeps failing


class Step(Protocol):
    """A step: called with an end user's Space, it takes the writer for each of its turns, and returns the seconds
    after which to come back when it gave way to adds (None: done for now). `lane`: LAND or LATER; `marks`: the
    phase it brings items to (None: it changes none)."""

    def __call__(self, space: Space) -> float | None: ...


def lane_of(step: Step) -> str:
    """A step runs in the later lane unless it says otherwise."""
    return getattr(step, "lane", LATER)


def marks_of(step: Step) -> Phase | None:
    return getattr(step, "marks", None)


def in_order(steps: list[Step]) -> list[Step]:
    """The steps in STEPS' order (a step of no kind it names runs after those it does, as given)."""
    return sorted(steps, key=lambda step: STEPS.index(type(step)) if type(step) in STEPS else len(STEPS))


FIRST_RETRY, LAST_RETRY = 1.0, 300.0  # seconds: work that failed is tried again after 1, 2, 4 … 300


@dataclass
class Trouble:
    """Work of one end user that keeps failing (a full disk, a vault that cannot be written): tried again with
    back-off, never dropped, and said in status notes."""

    what: str
    since: datetime
    tries: int = 0
    error: str = ""
    due: float = 0.0  # monotonic time of the next try

    @property
    def delay(self) -> float:
        return backoff(self.tries, FIRST_RETRY, LAST_RETRY)

    def note(self) -> str:
        return (f"{self.what} has failed {self.tries} time{'s' if self.tries != 1 else ''} since "
                f"{self.since.strftime('%Y-%m-%d %H:%M:%S')} UTC ({self.error}); it is tried again after a pause "
                f"that doubles up to {LAST_RETRY / 60:.0f} minutes (next in {max(0.0, self.due - time.monotonic()):.0f}"
                " s), and nothing accepted is lost")


Opener = Callable[[str], AbstractContextManager["Space | None"]]


class Pipeline:
    """Work is queued by end user (the vault's folder name), not by an open Space: a vault waiting its turn may
    be closed meanwhile (Memory keeps only so many open), and is opened again by `open` when its turn comes.
    `settle(space)` is told when an end user's work is done for now (Memory notes what is left, and when).
    A wake runs the steps of landing's lane, then queues the later lane, which runs every step in order (what
    came in meanwhile lands first)."""

    def __init__(self, workers: int = 2, steps: list[Step] | None = None, open: Opener | None = None,
                 settle: Callable[[Space], None] | None = None):
        self._pools = {LAND: ThreadPoolExecutor(max_workers=workers, thread_name_prefix="twin-land"),
                       LATER: ThreadPoolExecutor(max_workers=1, thread_name_prefix="twin-later")}
        self._lock = threading.Lock()
        self._busy: set[tuple[str, str]] = set()  # (lane, end user) being worked on or queued
        self._ending: set[tuple[str, str]] = set()  # of those, the ones whose steps are done (see _work)
        self._again: set[tuple[str, str]] = set()  # … and woken again meanwhile
        self.troubles: dict[str, Trouble] = {}  # end user -> what keeps failing for them
        self._due: list[tuple[float, str]] = []  # (when, end user) to be woken again
        self._timer: threading.Thread | None = None
        self._idle = threading.Condition(self._lock)
        self.steps: list[Step] = in_order(steps or [])
        self._known: dict[str, Space] = {}  # without `open`: the Space last woken, by end user
        self.open: Opener = open or (lambda name: nullcontext(self._known.get(name)))
        self.settle = settle
        self.closed = False

    def use(self, steps: list[Step]) -> None:
        """The steps to run (before the first wake), put in STEPS' order."""
        self.steps = in_order(steps)

    def wake(self, space: Space | str) -> None:
        """There is work for this end user: make sure its landing runs (again); the later steps follow it."""
        if isinstance(space, Space):
            self._known[space.user.dirname] = space
            space = space.user.dirname
        self._submit(space, LAND)

    def landing(self) -> bool:
        """Whether some end user's landing is queued or under way."""
        with self._lock:
            return any(lane == LAND for lane, _ in self._busy)

    def busy(self, name: str) -> bool:
        """Whether this end user's work is queued, under way, or waits to be tried again."""
        with self._lock:
            return (LAND, name) in self._busy or (LATER, name) in self._busy or any(n == name for _, n in self._due)

    def _submit(self, name: str, lane: str) -> None:
        key = (lane, name)
        with self._lock:
            if self.closed:
                return
            if key in self._busy:
                self._again.add(key)
                return
            self._busy.add(key)
        self._pools[lane].submit(self._drain, name, lane)

    def _drain(self, name: str, lane: str) -> None:
        key = (lane, name)
        lower_priority(NICE[lane])
        # _work hands the key back itself; let go of it here only if it did not, or this would drop the key of a
        # newer wake taken meanwhile (a lost wake: idle() said done while that wake's work had not run)
        released = False
        try:
            with self.open(name) as space:
                if space is not None and not space.standing.broken:  # else gone, or not written until it is mended
                    self._work(space, lane)
                    released = True
        except Exception:  # opening it failed: tried again with back-off, like a failed step
            log.exception("opening %s for its work failed", name)
            self.retry(name, time.monotonic() + LAST_RETRY / 10)
        finally:
            if not released:
                with self._lock:
                    self._busy.discard(key)
                    self._idle.notify_all()

    def _work(self, space: Space, lane: str) -> None:
        key = (lane, space.user.dirname)
        while True:
            try:
                for step in self.steps:  # each takes the writer for each of its turns
                    if lane == LAND and lane_of(step) != LAND:
                        continue  # the later lane runs it, after this one
                    if self.closed:
                        break
                    back = step(space)
                    if back:  # the step gave way (to adds still coming in): the later steps run after that
                        self.retry(key[1], time.monotonic() + back)
                        break
            except Exception as exc:  # logged, and tried again with back-off; the server goes on
                space.upkeep.edited()  # what the failed step left uncommitted is mended first, as a repair
                self.failed(space, FAILING[lane], exc)
            with self._lock:
                if key in self._again and not self.closed:
                    self._again.discard(key)
                    continue
                later = (LATER, key[1])
                if lane == LAND and any(lane_of(step) == LATER for step in self.steps) and not self.closed:
                    if later in self._busy:
                        self._again.add(later)
                    else:
                        self._busy.add(later)
                        self._pools[LATER].submit(self._drain, key[1], LATER)
                other = (LAND if lane == LATER else LATER, key[1])
                # the other lane past its steps too counts as done: each lane saw the other still busy, and the
                # vault stayed marked in the pending index with nothing to do (start-up opened it again)
                self._ending.add(key)
                done = not self.closed and (other not in self._busy or other in self._ending) \
                    and key[1] not in self.troubles
            if done and self.settle:  # still busy meanwhile: idle() waits for it, a wake comes back here
                try:
                    self.settle(space)
                except Exception:  # noting what is left must not stop the work of the others
                    log.exception("settling %s", key[1])
            with self._lock:
                self._ending.discard(key)
                if key in self._again and not self.closed:
                    self._again.discard(key)
                    continue
                self._busy.discard(key)
                self._idle.notify_all()
            return

    # what the steps tell of work that fails (steps/land.py's Troubles)
    def waiting(self, name: str, what: str) -> float | None:
        """When the back-off of `what` (work of this end user that failed) ends, while it is under way."""
        trouble = self.troubles.get(name)
        if trouble and trouble.what.startswith(what) and trouble.due > time.monotonic():
            return trouble.due
        return None

    def cleared(self, name: str, what: str) -> None:
        if name in self.troubles and self.troubles[name].what.startswith(what):
            with self._lock:
                self.troubles.pop(name, None)

    def failed(self, space: Space, what: str, exc: Exception) -> None:
        key = space.user.dirname
        with self._lock:
            trouble = self.troubles.get(key)
            if trouble is None or trouble.what.split()[0] != what.split()[0]:
                trouble = self.troubles[key] = Trouble(what, datetime.now(UTC))
            trouble.what = what
            trouble.tries += 1
            trouble.error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:300]
            trouble.due = time.monotonic() + trouble.delay
        log.error("%s for %s failed (try %d; again in %.0f s)", what, key, trouble.tries, trouble.delay,
                  exc_info=exc)
        self.retry(key, trouble.due)

    def retry(self, name: str, due: float) -> None:
        """Wake this end user again at `due` (monotonic), from one timer thread for all of them."""
        with self._lock:
            if self.closed:
                return
            heapq.heappush(self._due, (due, name))
            if self._timer is None:
                self._timer = threading.Thread(target=self._timer_loop, name="twin-retry", daemon=True)
                self._timer.start()
            self._idle.notify_all()

    def _timer_loop(self) -> None:
        while True:
            with self._lock:
                while not self.closed and (not self._due or self._due[0][0] > time.monotonic()):
                    self._idle.wait(max(0.05, self._due[0][0] - time.monotonic()) if self._due else None)
                if self.closed:
                    return
                _, name = heapq.heappop(self._due)
                key = (LAND, name)
                if key in self._busy:
                    self._again.add(key)
                    continue
                self._busy.add(key)
            self._pools[LAND].submit(self._drain, name, LAND)

    def wait_idle(self, timeout: float | None = None) -> bool:
        with self._lock:
            return self._idle.wait_for(lambda: not self._busy and not self._due, timeout)

    def close(self) -> None:
        with self._lock:
            self.closed = True
            self._idle.notify_all()
        for pool in self._pools.values():
            pool.shutdown(wait=True, cancel_futures=True)
