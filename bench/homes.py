"""Shared by the recall benchmarks: homes kept between runs, vectors kept by text, the dev split, percentiles.

A LongMemEval history takes minutes to embed on two cores, so a bench keeps the home it built under
~/.cache/twinfs/bench/<bench>/<key>, the key being a hash of the code that cuts passages and segments (and reads,
for a home read too) and of the data: a change to ranking alone reuses the home, a change to segments builds a
new one. Vectors are kept by text hash in one SQLite file a bench, so a new home embeds only
texts no home embedded before; each run says how many it embedded, since landing times are only landing's own
cost when that number is all of them.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import threading
from pathlib import Path

import numpy as np

from twinfs.index.embedder import Embedder, shared_embedder
from twinfs.passages import parse
from twinfs.space import Space

ROOT = Path(__file__).resolve().parents[1]
# What a built home's files depend on: how turns are cut into passages and segments. The indexes' own formats are
# brought up to date by the product when it opens the home, as for any end user's vault, and ranking is not kept.
SHAPING = ("twinfs/passages.py",)
READING = tuple(sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "twinfs" / "reading").rglob("*.py")))


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "twinfs" / "bench"


def home_key(data: Path, extra: str = "", shaping: tuple[str, ...] = SHAPING) -> str:
    """A hash of the code that shapes a home's files, of the data file's content (a copy of the same data keeps
    the homes) and of how the bench adds it."""
    h = hashlib.sha256()
    for rel in shaping:
        h.update((ROOT / rel).read_bytes())
    h.update(data.read_bytes())
    h.update(f"{data.name}:{extra}".encode())
    return h.hexdigest()[:16]


class Home:
    """A bench's home for one key: `built` once every history has landed in it (a file written last)."""

    def __init__(self, bench: str, key: str, fresh: bool = False, folder: Path | None = None):
        self.folder = folder or cache_root() / bench / key
        self.marker = self.folder / "built.json"
        if fresh or (self.folder.exists() and not self.marker.exists()):
            shutil.rmtree(self.folder, ignore_errors=True)  # a build that stopped half way starts again
        self.folder.mkdir(parents=True, exist_ok=True)

    @property
    def built(self) -> bool:
        return self.marker.exists()

    def facts(self) -> dict:
        return json.loads(self.marker.read_text()) if self.built else {}

    def finish(self, facts: dict) -> None:
        self.marker.write_text(json.dumps(facts, indent=1))


def as_set() -> dict[str, bool]:
    """How the product's embedder runs batches here (TWIN_EMBED_BF16 / TWIN_EMBED_INT8, else the CPU): the benches'
    embedders run them the same way."""
    shared = shared_embedder()
    return {"bf16": shared.bf16, "int8": shared.int8}


class CountingEmbedder(Embedder):
    """The product's embedder, counting the texts it embeds in batches (landing's segments)."""

    def __init__(self) -> None:
        super().__init__(**as_set())
        self.embedded = 0

    def encode(self, texts: list[str]) -> np.ndarray:
        self.embedded += len(texts)
        return super().encode(texts)


class KeptEmbedder(Embedder):
    """The product's embedder, whose batch vectors are also kept on disk by text across homes and runs."""

    def __init__(self, path: Path):
        super().__init__(**as_set())
        if self.variant != "fp32":  # vectors made another way are kept apart
            path = path.with_name(f"{path.stem}-{self.variant}{path.suffix}")
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, timeout=120, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (thash TEXT PRIMARY KEY, vec BLOB)")
        self._db_lock = threading.Lock()
        self.embedded = self.reused = 0

    def encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype="float32")
        hashes = [hashlib.sha256(t.encode()).hexdigest()[:32] for t in texts]
        found: dict[str, np.ndarray] = {}
        with self._db_lock:
            unique = list(dict.fromkeys(hashes))
            for i in range(0, len(unique), 500):
                chunk = unique[i:i + 500]
                for h, blob in self._db.execute(
                        f"SELECT thash, vec FROM vectors WHERE thash IN ({','.join('?' * len(chunk))})", chunk):
                    found[h] = np.frombuffer(blob, dtype="float32")
        todo = {h: t for h, t in zip(hashes, texts, strict=False) if h not in found}
        if todo:
            fresh = super().encode(list(todo.values()))
            with self._db_lock:
                self._db.executemany("INSERT OR IGNORE INTO vectors VALUES (?, ?)",
                                     [(h, v.astype("float32").tobytes()) for h, v in zip(todo, fresh, strict=False)])
            found.update(zip(todo, fresh, strict=False))
        self.embedded += len(todo)
        self.reused += len(set(hashes)) - len(todo)
        return np.vstack([found[h] for h in hashes])


def passage_turns(space: Space) -> dict[str, list[str]]:
    """passage id -> the turns it holds, as its file says."""
    out = {}
    for f in space.root.glob("passages/**/*.md"):
        p = parse(f.read_text())
        out[p.id] = p.turns
    return out


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("nan")
