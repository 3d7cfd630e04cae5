"""One owner per home: the one process that writes a twin home holds an OS file lock on it for its life.

The kernel lets go of the lock when the owner dies, however it dies, so a lock is never mistaken for a live
owner; and once a process holds it, whatever a dead process left in the home (git's locks, temp files, a step
stopped midway) is stale by construction and safe to repair. The lock file also says who owns the home (pid,
command, port when it serves) for the message a second writer gets, and a token with which a process beside
the owner (`twin mcp` while `twin serve` runs) reaches it over loopback.
"""
from __future__ import annotations

import fcntl
import json
import os
import secrets
import time
from datetime import UTC, datetime
from pathlib import Path

from .errors import TwinError

LOCK_NAME = "owner.lock"
LOCAL_TOKEN = "tm_local_"  # prefix of the owner's loopback token (never stored in keys.json)


class HomeBusy(TwinError):
    """Another live process owns this home."""

    status = 409

    def __init__(self, home: Path, holder: dict):
        self.holder = holder
        super().__init__(f"{describe(holder)} owns the twin home {home}: "
                         "stop it first, or send this through it")


def describe(holder: dict) -> str:
    what = holder.get("command") or "a twin process"
    where = f", port {holder['port']}" if holder.get("port") else ""
    return f"{what} (pid {holder.get('pid', '?')}{where})"


class HomeLock:
    """The home's lock. `acquire` takes it or raises HomeBusy naming the owner; `holder` tells who has it."""

    def __init__(self, home: Path):
        self.home = Path(home)
        self.path = self.home / LOCK_NAME
        self._fd: int | None = None
        self.info: dict = {}

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self, command: str) -> HomeLock:
        if self._fd is not None:
            return self
        self.home.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        for attempt in range(5):
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                owner = holder(self.home)
                if owner is None and attempt < 4:  # only someone asking who owns it, for an instant
                    time.sleep(0.02)
                    continue
                os.close(fd)
                raise HomeBusy(self.home, owner or {}) from None
        self._fd = fd
        self.info = {"pid": os.getpid(), "command": command, "port": None,
                     "since": datetime.now(UTC).isoformat(timespec="seconds"),
                     "token": LOCAL_TOKEN + secrets.token_urlsafe(24)}
        self._write()
        return self

    def serving(self, host: str, port: int) -> None:
        """The owner serves HTTP here: a process beside it can reach it."""
        self.info.update(host=host, port=port)
        self._write()

    def _write(self) -> None:
        raw = json.dumps(self.info).encode()
        assert self._fd is not None, "written only while the lock is held"
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, raw, 0)

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            os.ftruncate(self._fd, 0)
        finally:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def holder(home: Path) -> dict | None:
    """Who owns this home now (pid, command, host, port, token), or None when no live process does."""
    path = Path(home) / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            raw = os.pread(fd, 65536, 0)
            try:
                return json.loads(raw) if raw else {}
            except ValueError:
                return {}  # the owner is writing it this very moment
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None  # the file is there, nobody holds it: its owner is gone
    finally:
        os.close(fd)
