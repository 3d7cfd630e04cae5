"""What every import reads: an export file or the zip it came in, streamed (ijson), as conversations of
messages; and the one error a bad export gives, naming the file and where it went wrong."""
from __future__ import annotations

import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import ijson

from ..errors import Invalid


class BadExport(Invalid):
    """An export that cannot be read: not JSON, cut short, or not of the shape its format has."""


@dataclass
class Message:
    id: str
    role: str  # user | assistant
    text: str
    at: datetime


@dataclass
class Conversation:
    id: str
    title: str | None
    messages: list[Message] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)  # why -> how many of its messages were left out

    def skip(self, why: str) -> None:
        self.skipped[why] = self.skipped.get(why, 0) + 1

    def take(self, id: str, said_by: Any, roles: dict[str, str], text: str, at: datetime | None) -> None:
        """One message of the export kept as a turn, or counted under why it was left out (whose it is, no text,
        no time): the same checks for every format."""
        role = roles.get(str(said_by))
        if role is None:
            self.skip(f"{said_by or 'unknown'} messages")
        elif not text:
            self.skip("messages without text")
        elif at is None:
            self.skip("messages without a time")
        else:
            self.messages.append(Message(id=id, role=role, text=text, at=at))


@contextmanager
def opened(path: Path, inside: str = "conversations.json") -> Iterator[IO[bytes]]:
    """The file as bytes; from a zip, its member named `inside` (at any depth: exports nest it in a folder)."""
    if not path.is_file():
        raise BadExport(f"{path}: no such file")
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if n.rsplit("/", 1)[-1] == inside]
            if not names:
                raise BadExport(f"{path}: the zip holds no {inside}")
            name = min(names, key=len)
            if archive.getinfo(name).file_size == 0:
                raise BadExport(f"{path}: its {inside} is empty")
            with archive.open(name) as member:
                yield member
        return
    if path.stat().st_size == 0:
        raise BadExport(f"{path}: the file is empty")
    with path.open("rb") as f:
        yield f


def array_items(stream: IO[bytes], path: Path) -> Iterator[dict[str, Any]]:
    """The top-level array's elements, one at a time; BadExport where the JSON breaks or is not an array."""
    try:
        first = _first_event(stream, path)
        if first != "start_array":
            raise BadExport(f"{path}: not an export of conversations (it does not begin with a list)")
        stream.seek(0)
        for n, item in enumerate(ijson.items(stream, "item", use_float=True)):
            if not isinstance(item, dict):
                raise BadExport(f"{path}: conversation {n + 1} is not an object")
            yield item
    except ijson.common.IncompleteJSONError as exc:
        raise BadExport(f"{path}: not valid JSON, or cut short, at byte {_at(stream)}: {_said(exc)}") from None
    except ijson.common.JSONError as exc:
        raise BadExport(f"{path}: not valid JSON at byte {_at(stream)}: {_said(exc)}") from None


def conversations_in(path: Path, conversation: Callable[[dict[str, Any], str], Conversation]
                     ) -> Iterator[Conversation]:
    """Each conversation of an export's list, read by its format's `conversation(raw, where)`."""
    with opened(path) as stream:
        for n, raw in enumerate(array_items(stream, path), 1):
            yield conversation(raw, f"{path}: conversation {n}")


def branch_to(leaf: str, parent: dict[str, Any], where: str) -> list[str]:
    """The message ids from `leaf` back to the first (one whose parent is not in `parent`), leaf first: the branch
    a person kept of a conversation that forked where they edited a message or retried an answer."""
    path: list[str] = []
    at: Any = leaf
    while isinstance(at, str) and at in parent:
        if at in path:
            raise BadExport(f"{where}: its messages loop at {at}")
        path.append(at)
        at = parent[at]
    return path


def _first_event(stream: IO[bytes], path: Path) -> str:
    for _, event, _ in ijson.parse(stream):
        return event
    raise BadExport(f"{path}: the file holds no JSON")


def _at(stream: IO[bytes]) -> str:
    try:
        return f"{stream.tell():,}"
    except (OSError, ValueError):
        return "?"


def _said(exc: Exception) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]


def moment(value: Any) -> datetime | None:
    """An export's time (seconds since the epoch, or ISO 8601 text) as an aware UTC datetime; None if neither."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return datetime.fromtimestamp(float(value), tz=UTC)
    if isinstance(value, str) and value:
        try:
            at = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
        return at if at.tzinfo else at.replace(tzinfo=UTC)
    return None
