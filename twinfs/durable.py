"""Files written so that a crash leaves the old or the new, never half: atomic writes beside the target,
folders fsync'd, a file's stamp (what an edit would change) and its text read exactly as stored."""
from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def read_exact(path: Path) -> str:
    """A file's text as stored: no newline turned into another (read_text would make \r\n and \r into \n)."""
    return path.read_bytes().decode("utf-8")


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, data: str | bytes, durable: bool = True,
                 written: Callable[[tuple | None], None] | None = None) -> None:
    """Write a temp file beside the target, fsync it, then rename over: a reader sees old or new, never half.
    `written(stamp)` is told the file's stamp (file_stamp: a rename keeps it) before the rename makes it seen."""
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode() if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        if written is not None:
            written(file_stamp(Path(tmp)))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if durable:
        fsync_dir(path.parent)


def file_stamp(path: Path) -> tuple | None:
    """A file's size, change time and inode (None when it is gone): what an edit would change."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns, st.st_ino
