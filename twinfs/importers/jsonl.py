"""JSONL: one add item a line, as `twin add` takes them (and as `POST /v1/memory/add` takes each item), streamed
a line at a time. A line that is not an item stops the import there, naming the line; the lines before it stay."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from pydantic import ValidationError

from ..errors import describe
from ..models import Item
from .source import BadExport


def items(path: Path) -> Iterator[Item]:
    if not path.is_file():
        raise BadExport(f"{path}: no such file")
    with path.open("rb") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                yield Item.model_validate_json(line)
            except ValidationError as exc:
                raise BadExport(f"{path} line {n}: {describe(exc)}") from None
