"""The end users' Spaces a process keeps open: at most TWIN_OPEN_USERS, the least recently used closed first.

An open Space holds SQLite connections, Whoosh and FAISS indexes, git processes: a home of thousands of end users
cannot keep them all open (a thousand open end users held 11,000 files and 3.7 GB). Each request and each piece of
background work holds a lease on the Space it uses; a Space is closed only when no lease holds it and nothing
about it lives only in memory (Space.idle), so closing loses nothing: an add waits in the inbox on disk, and the
home's pending index (pending.py) has the work found again. What the owner learnt when it first opened a vault
(repaired, or broken and why) is kept by name, so opening it again costs only its files (Space.open is lazy).
"""
from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .models import EndUser
from .space import Space

log = logging.getLogger("twinfs.spaces")


class Spaces:
    def __init__(self, make: Callable[[EndUser], Space], capacity: int,
                 on_close: Callable[[Space], None] | None = None):
        self.make = make
        self.capacity = max(1, capacity)
        self.on_close = on_close
        self._open: OrderedDict[str, Space] = OrderedDict()
        self._lock = threading.Lock()
        self._prepared: dict[str, str | None] = {}  # vault -> why it is broken (None: it is not), once prepared
        self._leases: dict[str, int] = {}  # vault -> requests and work using its Space now: it stays open
        self.closed = 0  # Spaces closed to make room (for benchmarks and tests)

    def get(self, user: EndUser, keep: bool = False, hold: bool = False) -> Space:
        """The end user's Space, opened (lazily) if it is not; kept open only if the vault exists or `keep`.
        `hold`: take a lease on it (release it with `release`)."""
        with self._lock:
            space = self._open.get(user.dirname)
            if space is None:
                space = self.make(user)
                if user.dirname in self._prepared:
                    space.standing.known(self._prepared[user.dirname])
                if not (keep or space.exists):
                    return space
                self._open[user.dirname] = space
            self._open.move_to_end(user.dirname)
            if hold:
                self._leases[user.dirname] = self._leases.get(user.dirname, 0) + 1
        self._shrink()
        return space

    def release(self, space: Space) -> None:
        name = space.user.dirname
        with self._lock:
            if self._open.get(name) is space:  # a Space never kept open (its vault did not exist) holds no lease
                left = self._leases.get(name, 0) - 1
                if left > 0:
                    self._leases[name] = left
                else:
                    self._leases.pop(name, None)
        self._shrink()

    @contextmanager
    def held(self, user: EndUser, keep: bool = False, open: Callable[[Space], None] | None = None
             ) -> Iterator[Space]:
        space = self.get(user, keep=keep, hold=True)
        try:
            if open:
                open(space)
            yield space
        finally:
            self.release(space)

    def prepared(self, space: Space) -> None:
        """The owner has repaired this vault (or found it broken): not to be done again while this process runs."""
        with self._lock:
            self._prepared[space.user.dirname] = space.standing.broken

    def broken(self) -> int:
        with self._lock:
            return sum(1 for why in self._prepared.values() if why)

    def peek(self, name: str) -> Space | None:
        """The open Space of this vault, without opening it or making it more recent."""
        with self._lock:
            return self._open.get(name)

    def values(self) -> list[Space]:
        with self._lock:
            return list(self._open.values())

    def __len__(self) -> int:
        with self._lock:
            return len(self._open)

    def _shrink(self) -> None:
        """Close the least recently used idle Spaces while more than `capacity` are open."""
        gone: list[Space] = []
        with self._lock:
            over = len(self._open) - self.capacity
            if over <= 0:
                return
            for name, space in list(self._open.items()):
                if over <= 0:
                    break
                if space.idle and not self._leases.get(name):
                    del self._open[name]
                    gone.append(space)
                    over -= 1
        for space in gone:
            self._close(space)
        self.closed += len(gone)

    def _close(self, space: Space) -> None:
        try:
            space.close()
        except Exception:  # a Space that fails to close must not stop the request that made room
            log.exception("closing %s", space.user.dirname)
        if self.on_close:
            self.on_close(space)

    def close_all(self, wait_writer: bool = False) -> None:
        """Close every open Space; `wait_writer`: each once whatever step still runs in it (a request's correct,
        a sync) has finished, by taking its writer."""
        with self._lock:
            spaces = list(self._open.values())
            self._open.clear()
            self._leases.clear()
        for space in spaces:
            if wait_writer:  # its turn only: the marks of a step that failed stay for the repair at next open
                space.writer.take_turn()
                try:
                    self._close(space)
                finally:
                    space.writer.give_turn()
            else:
                self._close(space)
