"""The two lanes over one end user's passages (and later records): words (Whoosh BM25) and meaning (FAISS)."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

import numpy as np


class TextEmbedder(Protocol):
    """What the lanes, the brief and the judge take of an embedder: index/embedder.py's `Embedder` (MiniLM) is the
    one shipped; a bench or a test may hand another that has these."""

    name: str
    dim: int  # the width of its vectors, what the meaning lane's index is built for

    @property
    def variant(self) -> str: ...  # how batch vectors are made, as far as vectors differ (meaning.outdated)

    def encode(self, texts: list[str]) -> np.ndarray: ...  # (n, dim), normalised

    def query(self, text: str) -> np.ndarray: ...  # (1, dim), a question's vector

    def forget(self) -> None: ...  # drop what it kept of texts (a forget)


@dataclass(frozen=True)
class Doc:
    """What both lanes index: a passage (or a record) as text with its place and its time span."""

    id: str
    path: str
    thread: str
    type: str  # passage | record
    text: str
    start: datetime | None
    end: datetime | None
    hash: str
    segments: tuple[str, ...] = field(default=(), compare=False)  # what the meaning lane embeds
    speakers: tuple[str | None, ...] = field(default=(), compare=False)  # who said each segment, when known
    keys: str = field(default="", compare=False)  # the words lane's `keys` field: what else finds it (passage_keys.py)


@dataclass(frozen=True)
class Bounds:
    """Which docs a search may see: a path prefix and a time window (end < before, end >= after)."""

    scope: str | None = None
    before: datetime | None = None
    after: datetime | None = None
    type: str | None = None

    @property
    def open(self) -> bool:
        return not (self.scope or self.before or self.after or self.type)
