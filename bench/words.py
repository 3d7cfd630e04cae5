"""The words lane on a built vault: WordIndex.search (numpy scoring, twinfs/index/bm25.py) against Whoosh's own
matchers and collector (WordIndex.search_whoosh), passages and records, with and without a `before` bound.

    ./run bench words [--home ~/.cache/twinfs/bench/scale/big] [--questions 200]

Copies the Whoosh folders of the one vault in `--home` (the scale bench's big end user by default) to a temporary
folder and opens that copy, so the home is never touched. Asks the scale bench's questions and prints, for each
lane, ms a search p50/p95 of: main's code (a new searcher each search, Whoosh's collector, which swaps in cheaper
matchers every 10 docs and so can drop a doc of the top), the same on the kept searcher, Whoosh's collector without
the swaps (replace=0: the fallback, and what the numpy path must equal), and numpy; and how often each gives
numpy's ids in numpy's order with its scores (against replace=0 it must be 1.000) and the top-50 overlap. The first
search of each lane reads its segments' field lengths (cold).
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from whoosh import query as Q
from whoosh.scoring import BM25F

from bench.scale import cache_root, ms, questions
from twinfs.index import Bounds
from twinfs.index.words import WordIndex

ROOT = Path(__file__).resolve().parents[1]


def timed(fn, *args):
    started = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - started


def search_as_main(words: WordIndex, text: str, bounds: Bounds, limit: int = 50) -> list[tuple[str, str, float]]:
    """WordIndex.search as main had it before the numpy scorer: a new searcher each search, Whoosh's collector."""
    terms = words.terms(text)
    if not terms:
        return []
    q = Q.Or([Q.Term("text", t) for t in terms])
    q.matcher_type = Q.Or.DEFAULT_MATCHER
    with words.ix(bounds.type or "passage").searcher(weighting=BM25F()) as s:
        return [(r["id"], r["path"], float(r.score)) for r in s.search(q, limit=limit, filter=words._filter(bounds))]


def name_of(bounds: Bounds) -> str:
    return f"before {bounds.before:%Y-%m-%d}" if bounds.before else "no bounds"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--home", type=Path, default=cache_root() / "big")
    parser.add_argument("--questions", type=int, default=200)
    args = parser.parse_args()
    source = next(args.home.glob("users/*/.twin/whoosh"), None)
    if source is None:
        sys.exit(f"no vault with a words index under {args.home}/users")
    qs = questions(args.questions, 3)
    print(f"./run bench words --home {args.home} --questions {args.questions}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "whoosh"
        shutil.copytree(source, folder)
        words = WordIndex(folder, read_only=True)
        mid = datetime(2025, 1, 1, tzinfo=UTC)
        for type in ("passage", "record"):
            with words.ix(type).searcher() as s:
                print(f"{type}: {s.doc_count()} docs, {len(s.leaf_searchers())} segments")
            for bounds in (Bounds(type=type), Bounds(type=type, before=mid)):
                _, cold = timed(words.search, "warm up", bounds)
                times = {"main (new searcher, Whoosh)": [], "Whoosh, kept searcher": [],
                         "Whoosh exact (replace=0)": [], "numpy": []}
                same = {name: 0 for name in times}
                overlap = {name: 0.0 for name in times}
                for q in qs:
                    runs = {}
                    for name, fn in zip(times, (lambda q=q, bounds=bounds: search_as_main(words, q, bounds),
                                                lambda q=q, bounds=bounds: words.search_whoosh(q, bounds, replace=10),
                                                lambda q=q, bounds=bounds: words.search_whoosh(q, bounds),
                                                lambda q=q, bounds=bounds: words.search(q, bounds)), strict=False):
                        runs[name], took = timed(fn)
                        times[name].append(took)
                    new = runs["numpy"]
                    for name, old in runs.items():
                        same[name] += old == new
                        overlap[name] += len({h[0] for h in old} & {h[0] for h in new}) / max(1, len(old))
                n = len(qs)
                print(f"  {type} {name_of(bounds)}: first numpy search {cold * 1000:.1f} ms (reads the segments)")
                for name in times:
                    print(f"    {name:27s} {ms(times[name])}   numpy's ids, order and scores identical "
                          f"{same[name] / n:.3f}, top-50 overlap {overlap[name] / n:.3f}")
        words.close()


if __name__ == "__main__":
    main()
