"""The cores other programs leave free: how many threads the model may run on without taking them from anyone.

llama.cpp's threads spin while they wait for one another, so given more threads than there are free cores they slow
down far more than in proportion. Measured on a 2-core EPYC: the pipeline's model test takes 7.9 s alone, 347 s at 2
threads beside one busy process, 12 s at 1 thread beside it. The model pass asks before each passage what the rest of
the machine used since it last asked (every core's busy time less this process's own, psutil's counters) and runs on
what is left: more than half a core used by other programs counts as taken.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable

import psutil

FIRST_LOOK = 0.25  # seconds watched when there is no earlier reading to compare with
LEAST_SPAN = 0.1  # seconds: readings closer than this tell nothing new; the last answer stands


def machine_busy() -> float:
    """Seconds every core of the machine has spent busy since boot (all but idle and waiting on disk)."""
    spent = psutil.cpu_times()
    return sum(spent) - spent.idle - getattr(spent, "iowait", 0.0)


def own_busy() -> float:
    """Seconds this process (all its threads, llama.cpp's among them) has spent on a core."""
    spent = os.times()
    return spent.user + spent.system


def cores() -> int:
    """The cores this process may run on (its affinity where the system says, else all of them)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, psutil.cpu_count() or 1)


class FreeCores:
    """Called: how many cores the other programs left free since the last call, at least 1 and at most `cores`."""

    def __init__(self, machine: Callable[[], float] = machine_busy, own: Callable[[], float] = own_busy,
                 count: Callable[[], int] = cores, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        self.machine, self.own, self.count, self.clock, self.sleep = machine, own, count, clock, sleep
        self.last: tuple[float, float, float] | None = None  # (when, machine busy, own busy) at the last call
        self.free = count()

    def reading(self) -> tuple[float, float, float]:
        return self.clock(), self.machine(), self.own()

    def __call__(self) -> int:
        if self.last is None:
            self.last = self.reading()
            self.sleep(FIRST_LOOK)
        now = self.reading()
        span = now[0] - self.last[0]
        if span < LEAST_SPAN:
            return self.free
        others = max(0.0, (now[1] - self.last[1]) - (now[2] - self.last[2])) / span
        self.last = now
        total = self.count()
        self.free = max(1, min(total, math.floor(total - others + 0.5)))
        return self.free
