"""A hybrid logical clock: which of two edits of one item came later, across machines whose clocks differ.

A stamp is wall time in milliseconds, a counter and the machine: `0001733045000123-0000-laptop-a`. Each new stamp
is later than every stamp this clock has made or seen (`observe`), so an edit made after seeing another's
version wins over it even when this machine's clock runs behind, and a machine whose clock runs fast does not
win every conflict after it has seen the others' stamps. Stamps compare as (wall, counter, machine).
"""
from __future__ import annotations

import threading
import time


def parse(stamp: str) -> tuple[int, int, str]:
    wall, counter, machine = stamp.split("-", 2)
    return int(wall), int(counter), machine


def of_item(entry: dict) -> tuple[int, int, str]:
    """An item's stamp as a tuple; an item stored before items had stamps counts by when it was added."""
    stamp = entry.get("clock")
    if stamp:
        try:
            return parse(stamp)
        except ValueError:
            pass
    return int(entry.get("added", 0)) // 1_000_000, 0, ""


class Clock:
    def __init__(self, machine: str, wall=time.time):
        self.machine = machine
        self._wall = wall
        self._last = (0, 0)
        self._lock = threading.Lock()

    def now(self, after: tuple[int, int, str] | None = None) -> str:
        """A new stamp, later than any made or seen, and than `after` (the version an edit replaces)."""
        with self._lock:
            if after is not None:
                self._see(after)
            wall = int(self._wall() * 1000)
            last_wall, counter = self._last
            self._last = (wall, 0) if wall > last_wall else (last_wall, counter + 1)
            return f"{self._last[0]:016d}-{self._last[1]:04d}-{self.machine}"

    def observe(self, stamp: tuple[int, int, str]) -> None:
        with self._lock:
            self._see(stamp)

    def _see(self, stamp: tuple[int, int, str]) -> None:
        if (stamp[0], stamp[1]) > self._last:
            self._last = (stamp[0], stamp[1])
