"""One end user hammered with turns out of time order while readers check every landed turn (issue #35): the
writer and the readers that the read-consistency tests share (test_consistent_reads*.py)."""
from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from twinfs import EndUser, Memory
from twinfs.errors import NotFound
from twinfs.models import AddRequest, GrepRequest, ReadRequest, StatusRequest

USER = EndUser(org="acme", project="app", account="hammered")
T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
READERS = 2
MOST_SECONDS = 480  # at most (pytest-timeout stops a test at 600): at load 20 on 2 cores the writer lands
# ~0.8 turns a second beside two readers, and stops where it got
LEAST = 120  # turns the writer must have written by then: threads of dozens of passages, cut again


def turn(n: int, at: datetime) -> dict:
    # each text unique and long enough that a few turns fill a passage, so every insertion shifts the cut
    return {"id": f"m{n:05d}", "kind": "message", "conversation": f"c{n % 2}", "role": "user", "name": "Dana",
            "text": f"note {n:05d} zq{n:05d}x " + "a long line about the garden and the river walk " * 6,
            "at": at.isoformat()}


def needle(item: str) -> str:
    """The words of a turn that grep looks for: its text keeps them through a hand edit."""
    return f"zq{item[1:]}x"


@dataclass
class Hammer:
    """What the writer, the readers and anything run beside them share: the ids `status` called landed, the
    counts of what was done, and the misses (a landed turn that a read route did not show)."""

    memory: Memory
    landed: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    stop: threading.Event = field(default_factory=threading.Event)
    counts: dict[str, int] = field(default_factory=lambda: {"grep": 0, "read": 0, "written": 0})
    misses: list[str] = field(default_factory=list)

    def pick(self, rng: random.Random) -> str | None:
        with self.lock:
            return rng.choice(self.landed) if self.landed else None

    def write(self, seed: int, most: int) -> None:
        """Turns in batches of 3, each said anywhere in the hours already said (so the cut shifts after it),
        until `most` turns or `stop`; the ones `status` calls landed go into `landed`."""
        rng = random.Random(seed)
        n = 1
        while not self.stop.is_set() and n < most:
            batch = [turn(n + k, T0 + timedelta(seconds=rng.randint(0, 6 * 3600))) for k in range(3)]
            n += 3
            self.memory.add(USER, AddRequest(items=batch, wait=True))
            self.counts["written"] = n - 1
            phases = self.memory.status(USER, StatusRequest(ids=[b["id"] for b in batch])).phases
            with self.lock:
                self.landed.extend(i for i, p in phases.items() if p.value != "accepted")

    def check(self, seed: int) -> None:
        """Until `stop`: grep for the exact text of a landed turn, then read the passage grep names; a miss is a
        turn grep does not find, or a passage that lost it while no grep finds it elsewhere (moved by a later
        cut is fine)."""
        rng = random.Random(seed)
        while not self.stop.is_set():
            try:
                self._check_one(rng)
            except Exception as exc:  # any error of a read route is a miss (and the reader goes on)
                self.misses.append(f"{type(exc).__name__}: {exc}")

    def _check_one(self, rng: random.Random) -> None:
        item = self.pick(rng)
        if item is None:
            time.sleep(0.01)
            return
        words = needle(item)
        found = self.memory.grep(USER, GrepRequest(pattern=words))
        self.counts["grep"] += 1
        if not found.lines:
            self.misses.append(f"grep {item}")
            return
        path = found.lines[0].path
        try:
            content = self.memory.read(USER, ReadRequest(path=path)).content
        except NotFound:  # a later cut took the passage away: the turn must be in another one
            content = ""
        self.counts["read"] += 1
        if words not in content and not self.memory.grep(USER, GrepRequest(pattern=words)).lines:
            self.misses.append(f"read {item} at {path}")

    def _guarded(self, work: Callable[[], None]) -> None:
        """A worker whose error is told (a thread's exception would only be printed)."""
        try:
            work()
        except Exception as exc:
            self.misses.append(f"{type(exc).__name__} in {threading.current_thread().name}: {exc}")

    def run(self, seed: int, most: int, greps: int, beside: tuple[Callable[[Hammer], None], ...] = ()) -> None:
        """The writer, READERS readers and `beside` (each given this Hammer, run until `stop`), until the writer
        wrote its `most` turns and the readers did `greps` greps (or MOST_SECONDS went by: the caller checks that
        `counts` got at least `greps` greps and LEAST turns written); every thread joined before it returns."""
        self.memory.add(USER, AddRequest(items=[turn(0, T0)], wait=True))
        writer = threading.Thread(target=self._guarded, args=(lambda: self.write(seed, most),))
        workers = [writer, *(threading.Thread(target=self.check, args=(s,)) for s in range(READERS)),
                   *(threading.Thread(target=self._guarded, args=(lambda work=work: work(self),)) for work in beside)]
        for w in workers:
            w.start()
        deadline = time.monotonic() + MOST_SECONDS
        try:
            while (self.counts["grep"] < greps or writer.is_alive()) and time.monotonic() < deadline:
                time.sleep(0.2)
        finally:
            self.stop.set()
            for w in workers:
                w.join()
