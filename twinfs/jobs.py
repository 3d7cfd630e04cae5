"""The background pipeline: for each end user, one writer at a time files the inbox (land), then runs the
later steps (read, fold). The inbox on disk is the queue, so a restart simply picks up where it stopped.

Landing comes first: it has its own workers, and the later steps run on one worker of their own, at a lower
priority, so a new add never waits behind another end user's reading (bench/load.py: add -> landed p95 with
reading on went from 1.1 s to under 1 s at 50 items/s)."""
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

from .background import LAND_NICE, LATER_NICE, backoff, lower_priority
from .space import Space
from .steps.land import land_event

log = logging.getLogger("twinfs.jobs")
Step = Callable[[Space], "float | None"]
LAND, LATER = "land", "later"
NICE = {LAND: LAND_NICE, LATER: LATER_NICE}
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
    `settle(space)` is told when an end user's work is done for now (Memory notes what is left, and when)."""

    def __init__(self, workers: int = 2, steps: list[Step] | None = None,
                 mend: Callable[[Space], object] | None = None, open: Opener | None = None,
                 settle: Callable[[Space], None] | None = None):
        self._pools = {LAND: ThreadPoolExecutor(max_workers=workers, thread_name_prefix="twin-land"),
                       LATER: ThreadPoolExecutor(max_workers=1, thread_name_prefix="twin-later")}
        self._lock = threading.Lock()
        self._busy: set[tuple[str, str]] = set()  # (lane, end user) being worked on or queued
        self._again: set[tuple[str, str]] = set()  # … and woken again meanwhile
        self.troubles: dict[str, Trouble] = {}  # end user -> what keeps failing for them
        self._due: list[tuple[float, str]] = []  # (when, end user) to be woken again
        self._timer: threading.Thread | None = None
        self._idle = threading.Condition(self._lock)
        self.steps: list[Step] = list(steps or [])
        self.mend = mend  # commits and indexes what was edited by hand, when the watcher saw some
        self._known: dict[str, Space] = {}  # without `open`: the Space last woken, by end user
        self.open: Opener = open or (lambda name: nullcontext(self._known.get(name)))
        self.settle = settle
        self.closed = False

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
            self._retry(name, time.monotonic() + LAST_RETRY / 10)
        finally:
            if not released:
                with self._lock:
                    self._busy.discard(key)
                    self._idle.notify_all()

    def _work(self, space: Space, lane: str) -> None:
        key = (lane, space.user.dirname)
        while True:
            try:
                if space.upkeep.hand_edited and self.mend:
                    with space.writer, space.upkeep.mending():  # looked at again with the next try if it fails
                        self.mend(space)
                self._land_all(space)  # in the later lane too: what came in meanwhile lands first
                if lane == LATER:
                    for step in self.steps:  # each takes the writer for each of its turns
                        if self.closed:
                            break
                        back = step(space)
                        if back:  # the step gave way (to adds still coming in): the later steps run after that
                            self._retry(key[1], time.monotonic() + back)
                            break
            except Exception as exc:  # logged, and tried again with back-off; the server goes on
                space.upkeep.edited()  # what the failed step left uncommitted is mended first, as a repair
                self._failed(space, "the work on this memory" if lane == LAND else "reading and folding", exc)
            with self._lock:
                if key in self._again and not self.closed:
                    self._again.discard(key)
                    continue
                later = (LATER, key[1])
                if lane == LAND and self.steps and not self.closed:
                    if later in self._busy:
                        self._again.add(later)
                    else:
                        self._busy.add(later)
                        self._pools[LATER].submit(self._drain, key[1], LATER)
                other = (LAND if lane == LATER else LATER, key[1])
                done = not self.closed and other not in self._busy and key[1] not in self.troubles
            if done and self.settle:  # still busy meanwhile: idle() waits for it, a wake comes back here
                try:
                    self.settle(space)
                except Exception:  # noting what is left must not stop the work of the others
                    log.exception("settling %s", key[1])
            with self._lock:
                if key in self._again and not self.closed:
                    self._again.discard(key)
                    continue
                self._busy.discard(key)
                self._idle.notify_all()
            return

    def _land_all(self, space: Space) -> None:
        """Land the inbox in the order adds were accepted (an edit never lands before what it edits), one add
        per turn of the writer, so a correct, a forget or a sync waits one landing, not the whole inbox. An
        event that fails stays first in line, tried again with back-off, and the end user's status says so."""
        key = space.user.dirname
        while not self.closed:
            trouble = self.troubles.get(key)
            if trouble and trouble.what.startswith("landing") and trouble.due > time.monotonic():
                self._retry(key, trouble.due)
                return
            with space.writer:
                events = space.pending()
                if not events:
                    self._cleared(key, "landing")
                    return
                try:
                    land_event(space, events[0])
                    self._cleared(key, "landing")
                except Exception as exc:
                    self._failed(space, f"landing of {len(events)} add{'s' if len(events) != 1 else ''}", exc)
                    return
                finally:
                    with space.landed:
                        space.landed.notify_all()

    def _failed(self, space: Space, what: str, exc: Exception) -> None:
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
        self._retry(key, trouble.due)

    def _cleared(self, key: str, what: str) -> None:
        if key in self.troubles and self.troubles[key].what.startswith(what):
            with self._lock:
                self.troubles.pop(key, None)

    def _retry(self, name: str, due: float) -> None:
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
