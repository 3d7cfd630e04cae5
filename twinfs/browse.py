"""grep and read: the vault's files as they are, found by pattern or named by path."""
from __future__ import annotations

import errno
import json
import time
from datetime import datetime
from pathlib import Path

import regex

from . import git_history
from .errors import Invalid, NotFound
from .models import GrepLine, GrepRequest, GrepResult, ReadResult
from .passages import parse
from .paths import VAULT_TOPS, clean_relpath
from .space import Space

MAX_LINES = 1000
REGEX_SECONDS = 0.05  # per line: a pathological pattern gives up instead of holding a worker
TRIES = 5  # of a line whose match timed out while its thread waited for a core (_search)


def grep(space: Space, req: GrepRequest) -> GrepResult:
    scope = req.scope or "passages/"
    if scope.split("/")[0] not in VAULT_TOPS:
        raise Invalid(f"scope '{req.scope}' is outside memory: start it with one of {', '.join(VAULT_TOPS)}", "scope")
    try:
        pattern = regex.compile(req.pattern if req.regex else regex.escape(req.pattern), regex.IGNORECASE)
    except regex.error as exc:
        raise Invalid(f"pattern is not a valid regular expression: {exc}", "pattern") from None
    with space.passages_lock.shared():  # one state of the passages for the whole walk, never half a cut
        lines, truncated = _walk(space, scope, pattern, req.before_at, req.after_at, timed=req.regex)
    return GrepResult(pattern=req.pattern, found=len(lines), lines=lines, truncated=truncated)


def _walk(space: Space, scope: str, pattern: regex.Pattern, before: datetime | None, after: datetime | None,
          timed: bool = True) -> tuple[list[GrepLine], bool]:
    top = space.root / scope.split("/")[0]
    lines: list[GrepLine] = []
    truncated = False
    for f in sorted(top.rglob("*")) if top.is_dir() else []:
        rel = f.relative_to(space.root).as_posix()
        if not f.is_file() or not rel.startswith(scope.rstrip("/")) or f.name.startswith("."):
            continue
        try:
            text = _as_stored(f)
        except FileNotFoundError:
            continue  # deleted by hand (or by git) since the listing: it is not in memory any more
        if rel.startswith("passages/") and (before or after):
            p = parse(text)
            if (before and p.end and p.end >= before) or (after and p.end and p.end < after):
                continue
        for n, line in enumerate(text.split("\n"), 1):
            # words as written (an escaped literal) match in linear time: only a regular expression is timed
            if (_search(pattern, line) if timed else pattern.search(line) is not None):
                if len(lines) >= MAX_LINES:
                    truncated = True
                    break
                lines.append(GrepLine(path=rel, line=n, text=line[:2000]))
        if truncated:
            break
    return lines, truncated


def _search(pattern: regex.Pattern, line: str) -> bool:
    """Whether the pattern is found in the line; Invalid when matching it takes REGEX_SECONDS of this thread's
    time. regex's timeout counts the clock's time, and on a loaded machine a thread can wait that long for a core
    in the middle of a plain match: a try that timed out having spent less than that of its own time is tried
    again (a few times), so only a pattern that is slow to match itself is refused."""
    for _ in range(TRIES):
        began = time.thread_time()
        try:
            return pattern.search(line, timeout=REGEX_SECONDS) is not None
        except TimeoutError:
            if time.thread_time() - began >= REGEX_SECONDS / 2:
                break
    raise Invalid("pattern is too slow to match (catastrophic backtracking): simplify it", "pattern")


def read(space: Space, path: str, before: datetime | None = None) -> ReadResult:
    """A passage, a record file or one record (`records/<thread>.json#3`), a page or an item, as stored;
    with `before`, as the vault held it then (its git history)."""
    rel, _, fragment = path.partition("#")
    rel = clean_relpath(rel, "path")
    if rel.split("/")[0] not in VAULT_TOPS:
        raise Invalid(f"path '{path}' is outside memory: it must start with one of {', '.join(VAULT_TOPS)}", "path")
    target = (space.root / rel).resolve()
    if not target.is_relative_to(space.root.resolve()):
        raise Invalid(f"path '{path}' leaves the vault", "path")
    if before is not None:
        rev = git_history.rev_before(space.vault, before)
        content = git_history.show(space.vault, rel, rev) if rev else None
        if content is None:
            raise NotFound(f"no file at '{rel}' in this memory before {before.date().isoformat()}")
    else:
        with space.passages_lock.shared():  # a passage as one cut left it, never midway through the next
            content = _stored_or_none(target)
        if content is None:
            raise NotFound(f"no file at '{rel}' in this memory")
    if not fragment:
        return ReadResult(path=rel, content=content)
    if not rel.startswith("records/") or not fragment.isdigit():
        raise Invalid(f"'#{fragment}' names a record by its number: records/<thread>.json#N, N from 1", "path")
    records = json.loads(content)
    n = int(fragment)
    if not 1 <= n <= len(records):
        raise NotFound(f"'{rel}' holds {len(records)} records; there is no #{n}")
    return ReadResult(path=f"{rel}#{n}", content=json.dumps(records[n - 1], indent=1, ensure_ascii=False))


def _is_file(path: Path) -> bool:
    """A name no file system can hold (a segment over 255 bytes) names no file: not found, never an error."""
    try:
        return path.is_file()
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            return False
        raise


def _stored_or_none(path: Path) -> str | None:
    """The file's text, or None where no file is (or the name is one no file system can hold)."""
    if not _is_file(path):
        return None
    try:
        return _as_stored(path)
    except (FileNotFoundError, IsADirectoryError):
        return None


def _as_stored(path: Path) -> str:
    """The file's text byte for byte: read_text() would turn a text's \r\n and \r into \n."""
    return path.read_bytes().decode("utf-8", errors="replace")
