"""The meaning lane's index choices on a built vault's vectors: top-10 passages of IVF and HNSW against a flat scan.

    ./run bench ivf [--home ~/.cache/twinfs/bench/scale/big] [--questions 200]

Reads the segments' vectors of the one vault in `--home` (the scale bench's big end user by default), asks the
scale bench's questions, and for each index variant reports how many of a flat scan's top-10 passages it finds
(passages scored by their best segment, 80 segments asked for, as twinfs.index.meaning does) and its time a
question. It chose `vectors.PROBED` (bench/README.md, "Scale").
"""
from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from pathlib import Path

import faiss
import numpy as np

from bench.scale import cache_root, questions
from twinfs.index.embedder import shared_embedder
from twinfs.index.vectors import TRAIN_PER_LIST, lists

ROOT = Path(__file__).resolve().parents[1]

SEGMENTS = 80  # what the meaning lane asks its index for, for 10 passages


def load(home: Path) -> tuple[np.ndarray, np.ndarray, dict[int, str]]:
    path = next(home.glob("users/*/.twin/meaning/vectors.sqlite"))
    rows = sqlite3.connect(f"file:{path}?mode=ro", uri=True).execute(
        "SELECT s.sid, s.doc, v.vec FROM segments s JOIN vectors v ON v.thash = s.thash JOIN docs d ON d.id = s.doc "
        "WHERE d.type = 'passage'").fetchall()  # the passages' index (records have their own)
    ids = np.array([r[0] for r in rows], dtype="int64")
    vecs = np.frombuffer(b"".join(r[2] for r in rows), dtype="float32").reshape(len(rows), -1)
    return ids, vecs, {r[0]: r[1] for r in rows}


def top_passages(index, queries: np.ndarray, doc: dict[int, str]) -> tuple[list[list[str]], float]:
    started = time.perf_counter()
    out = []
    for query in queries:
        scores, sids = index.search(query[None, :], SEGMENTS)
        best: dict[str, float] = {}
        for sid, score in zip(sids[0], scores[0], strict=False):
            if sid >= 0 and score > best.get(doc[int(sid)], -2.0):
                best[doc[int(sid)]] = float(score)
        out.append([d for d, _ in sorted(best.items(), key=lambda kv: -kv[1])[:10]])
    return out, (time.perf_counter() - started) / len(queries) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--home", type=Path, default=cache_root() / "big")
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--no-hnsw", action="store_true", help="IVF only (an HNSW graph of 1M segments takes long)")
    parser.add_argument("--codes", default="SQfp16,Flat", help="IVF codes to try, comma separated")
    args = parser.parse_args()
    ids, vecs, doc = load(args.home)
    n, dim = vecs.shape
    embedder = shared_embedder()
    queries = np.vstack([embedder.query(q) for q in questions(args.questions, 6)]).astype("float32")
    print(f"{args.home}: {n} segments of {len(set(doc.values()))} passages, {len(queries)} questions")
    flat = faiss.IndexIDMap2(faiss.IndexFlatIP(dim))
    flat.add_with_ids(vecs, ids)
    truth, took = top_passages(flat, queries, doc)
    print(f"flat scan: {took:.2f} ms a question")

    def report(name: str, index) -> None:
        got, took = top_passages(index, queries, doc)
        shared = np.mean([len(set(a) & set(b)) / max(1, len(a)) for a, b in zip(truth, got, strict=False)])
        print(f"{name}: top-10 overlap {shared:.3f}, {took:.2f} ms a question", flush=True)

    nlist = lists(n)
    for code in args.codes.split(","):
        ivf = faiss.index_factory(dim, f"IVF{nlist},{code}", faiss.METRIC_INNER_PRODUCT)
        faiss.extract_index_ivf(ivf).cp.niter = 10
        ivf.train(vecs[np.random.default_rng(0).permutation(n)[:TRAIN_PER_LIST * nlist]])
        ivf.add_with_ids(vecs, ids)
        for probed in sorted({32, 64, 128, nlist // 16, nlist // 8, nlist // 4, nlist // 2}):
            ivf.nprobe = probed
            report(f"IVF{nlist},{code} nprobe {probed}", ivf)
    if args.no_hnsw:
        print("command: ./run bench ivf " + " ".join(sys.argv[1:]))
        return
    hnsw = faiss.IndexHNSWFlat(dim, 32, faiss.METRIC_INNER_PRODUCT)
    hnsw.hnsw.efConstruction = 80
    graph = faiss.IndexIDMap2(hnsw)
    started = time.perf_counter()
    graph.add_with_ids(vecs, ids)
    print(f"HNSW32 built in {time.perf_counter() - started:.1f} s")
    for ef in (64, 128, 256):
        hnsw.hnsw.efSearch = ef
        report(f"HNSW32 efSearch {ef}", graph)
    print("command: ./run bench ivf " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
