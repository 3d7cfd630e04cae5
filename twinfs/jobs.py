"""The background pipeline: for each end user, one writer at a time files the inbox (land), then runs the
later steps (read, fold). The inbox on disk is the queue, so a restart simply picks up where it stopped."""
from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from .landing import land_event
from .space import Space

log = logging.getLogger("twinfs.jobs")
Step = Callable[[Space], None]
MAX_TRIES = 3


def _lower_priority() -> None:
    """Background work yields the CPU to searches: on 2 cores this halved search p95 during landings."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
    except (AttributeError, OSError):
        pass  # not Linux, or not allowed: the work still runs, only at the same priority


class Pipeline:
    def __init__(self, workers: int = 2, steps: list[Step] | None = None):
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="twin-writer")
        self._lock = threading.Lock()
        self._busy: set[str] = set()
        self._again: set[str] = set()
        self._tries: dict[tuple[str, str], int] = {}
        self._idle = threading.Condition(self._lock)
        self.steps: list[Step] = list(steps or [])
        self.closed = False

    def wake(self, space: Space) -> None:
        """There is work for this end user: make sure its one writer runs (again)."""
        key = space.user.dirname
        with self._lock:
            if self.closed:
                return
            if key in self._busy:
                self._again.add(key)
                return
            self._busy.add(key)
        self._pool.submit(self._drain, space)

    def _drain(self, space: Space) -> None:
        key = space.user.dirname
        _lower_priority()
        while True:
            try:
                with space.writer:
                    self._land_all(space)
                    for step in self.steps:
                        if not self.closed:
                            step(space)
            except Exception:  # a step that fails is logged and retried on the next wake; the server goes on
                log.exception("pipeline step failed for %s", key)
            with self._lock:
                if key in self._again and not self.closed:
                    self._again.discard(key)
                    continue
                self._busy.discard(key)
                self._idle.notify_all()
                return

    def _land_all(self, space: Space) -> None:
        key = space.user.dirname
        while not self.closed:
            events = [e for e in space.pending() if self._tries.get((key, e), 0) < MAX_TRIES]
            if not events:
                return
            event = events[0]
            try:
                land_event(space, event)
                self._tries.pop((key, event), None)
            except Exception:
                self._tries[(key, event)] = self._tries.get((key, event), 0) + 1
                log.exception("landing %s for %s failed (try %d of %d); the event stays in the inbox",
                              event, key, self._tries[(key, event)], MAX_TRIES)
            with space.landed:
                space.landed.notify_all()

    def wait_idle(self, timeout: float | None = None) -> bool:
        with self._lock:
            return self._idle.wait_for(lambda: not self._busy, timeout)

    def close(self) -> None:
        with self._lock:
            self.closed = True
        self._pool.shutdown(wait=True, cancel_futures=True)
