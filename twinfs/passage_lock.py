"""One consistent view of a vault's passages. A cut rewrites several passage files at once (a turn that arrives
out of time order moves later turns from one file to the next), so a walk over them could read a file after a
turn left it and the next before it arrived. Readers (grep, read, lineage) hold the lock shared for their whole
walk; a cut, a sync's merge or a forget holds it exclusive only while it writes the files. It is the kernel's
flock on `.twin/passages.lock`: a process reading beside the owner (the CLI) waits as a thread does, and the lock
of a process that died goes with it."""
from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

NAME = "passages.lock"


class PassageLock:
    def __init__(self, folder: Path):
        self.path = folder / NAME

    @contextmanager
    def shared(self) -> Iterator[None]:
        """For a read of several passage files that must agree. Where the lock file cannot be opened (a vault
        never written by this version, or read-only), nothing writes its passages either: read without it."""
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except OSError:
            yield
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
            yield
        finally:
            os.close(fd)  # closing releases the lock

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """For writing passage files: readers wait until every file of the change is in place."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)
