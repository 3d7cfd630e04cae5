"""One family of domain errors. Front ends translate them (HTTP status, CLI exit line, MCP error)."""
from __future__ import annotations

import errno
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import ValidationError


class TwinError(Exception):
    """Base of every error the library raises on purpose. `status` is the HTTP status it maps to."""

    status = 500

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class BadRequest(TwinError):
    """The request cannot be understood: an unusable end-user id, a body that is not JSON."""

    status = 400


class Unauthorized(TwinError):
    status = 401


class Forbidden(TwinError):
    status = 403


class NotFound(TwinError):
    """No such end user, path or record."""

    status = 404


class TooLarge(TwinError):
    status = 413


class Invalid(TwinError):
    """A field is out of bounds. `field` names it when known."""

    status = 422

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


class Unavailable(TwinError):
    """At capacity, or the end user is being rebuilt: try again after `retry_after` seconds."""

    status = 503

    def __init__(self, message: str, retry_after: int = 1):
        super().__init__(message)
        self.retry_after = retry_after


def unwritable(exc: Exception, what: str) -> Unavailable:
    """A full disk or a read-only vault, as the 503 the seeds list: nothing was stored, try again later."""
    code = getattr(exc, "errno", None)
    text = str(exc) if code is None else ""  # git and SQLite say it in words; an OSError by its number
    if code in (errno.ENOSPC, errno.EDQUOT) or "No space left" in text or "database or disk is full" in text:
        return Unavailable(f"{what}: the disk holding this memory is full, so nothing was stored; try again once "
                           "there is space", retry_after=30)
    if code in (errno.EROFS, errno.EACCES, errno.EPERM) or "Read-only file system" in text or "readonly" in text:
        return Unavailable(f"{what}: this memory's folder cannot be written (read-only or not permitted), so "
                           "nothing was stored; try again once it can be", retry_after=60)
    return Unavailable(f"{what}: this memory's folder could not be written ({exc}), so nothing was stored",
                       retry_after=10)


def describe(exc: ValidationError, prefix: str = "") -> str:
    """A pydantic error as one line that names the field: `items[3].at: Input should be …`."""
    parts = []
    for err in exc.errors()[:3]:
        loc = ""
        for part in err["loc"]:
            loc += f"[{part}]" if isinstance(part, int) else (f".{part}" if loc else str(part))
        msg = err["msg"].removeprefix("Value error, ")
        parts.append(f"{prefix}{loc}: {msg}" if loc else f"{prefix}{msg}")
    more = len(exc.errors()) - 3
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")
