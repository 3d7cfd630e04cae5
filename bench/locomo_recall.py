"""Evidence-turn recall of search on LoCoMo's dev split, with a plain BM25 baseline over the same passages.

./run bench locomo_recall [--limit-conversations N]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import locomo  # noqa: E402

from twinfs import EndUser, Memory, Settings  # noqa: E402
from twinfs.index import Bounds  # noqa: E402
from twinfs.ledger import all_records  # noqa: E402
from twinfs.models import AddRequest, SearchRequest  # noqa: E402
from twinfs.passages import parse  # noqa: E402
from twinfs.search import blend, fuse, lanes  # noqa: E402

KS = (1, 3, 5, 10)


def recall(ranked_turns: list[list[str]], gold: set[str]) -> dict[int, float]:
    out = {}
    for k in KS:
        seen = {t for turns in ranked_turns[:k] for t in turns}
        out[k] = len(gold & seen) / len(gold)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit-conversations", type=int, default=None)
    ap.add_argument("--rrf-k", type=int, nargs="*", default=[10, 30, 60])
    ap.add_argument("--brief", action="store_true",
                    help="also read the conversations (the embedded reader) and measure the filtered brief")
    args = ap.parse_args()
    data = locomo.load()[: args.limit_conversations]
    variants: dict[str, list[dict[int, float]]] = {}
    latencies: list[float] = []
    land_seconds: list[float] = []
    per_cat: dict[int, list[float]] = {}
    n_questions = n_turns = 0
    brief_recall: list[float] = []
    brief_passages: list[int] = []
    brief_chars: list[int] = []
    brief_ms: list[float] = []
    held: list[bool] = []
    read_seconds = 0.0
    with tempfile.TemporaryDirectory() as tmp, Memory(Settings(home=Path(tmp), reading=args.brief, quiet_seconds=0,
                                                               fold_seconds=0)) as memory:
        memory.embedder.query("warm up")
        for sample in data:
            user = EndUser(org="bench", project="locomo", account=sample["sample_id"])
            for session in locomo.items(sample):
                n_turns += len(session)
                t0 = time.perf_counter()
                res = memory.add(user, AddRequest(items=session))
                memory.wait(user, [res.event], timeout=300)
                land_seconds.append(time.perf_counter() - t0)
            if args.brief:
                t0 = time.perf_counter()
                memory.idle(timeout=3600)
                read_seconds += time.perf_counter() - t0
                record_turns = {r.id: r.turns for r in all_records(memory.space(user))}
            space = memory.space(user)
            turns_of = {}
            for f in space.root.glob("passages/**/*.md"):
                p = parse(f.read_text())
                turns_of[p.id] = p.turns
            for qa in sample["qa"]:
                if qa["category"] not in (1, 2, 3, 4):
                    continue
                gold = locomo.evidence(qa)
                if not gold:
                    continue
                n_questions += 1
                q = qa["question"]
                t0 = time.perf_counter()
                result = memory.search(user, SearchRequest(query=q, fast=True), limit=10)
                latencies.append((time.perf_counter() - t0) * 1000)
                fused = recall([h.turns for h in result.hits], gold)
                if args.brief:
                    t0 = time.perf_counter()
                    brief = memory.search(user, SearchRequest(query=q))
                    brief_ms.append((time.perf_counter() - t0) * 1000)
                    shown = {t for h in brief.hits for t in h.turns}
                    shown |= {t for f in brief.facts or [] for t in record_turns.get(f.id, [])}
                    brief_recall.append(len(gold & shown) / len(gold))
                    brief_passages.append(len(brief.hits))
                    brief_chars.append(sum(len(h.text) for h in brief.hits) + sum(len(f.text) for f in brief.facts or []))
                    held.append(bool(brief.held))
                variants.setdefault("twinfs search (fast)" + (", with facts" if args.brief else ""), []).append(fused)
                per_cat.setdefault(qa["category"], []).append(fused[5])
                bounds = Bounds(type="passage")
                words, meaning = lanes(space, q, bounds)
                variants.setdefault("BM25 alone (baseline)", []).append(
                    recall([turns_of.get(d, []) for d, _, _ in words], gold))
                variants.setdefault("meaning alone", []).append(
                    recall([turns_of.get(d, []) for d, _, _ in meaning], gold))
                for w in (0.3, 0.4, 0.5):
                    variants.setdefault(f"score fusion, words {w}", []).append(
                        recall([turns_of.get(d, []) for d, _, _ in blend([words, meaning], w)], gold))
                for k in args.rrf_k:
                    variants.setdefault(f"RRF k={k}", []).append(
                        recall([turns_of.get(d, []) for d, _, _ in fuse([words, meaning], k)], gold))
    print(f"LoCoMo dev: {len(data)} conversations, {n_turns} turns, {n_questions} questions (categories 1-4)")
    print(f"{'ranking':28} " + " ".join(f"R@{k:<5}" for k in KS))
    for name, rows in variants.items():
        print(f"{name:28} " + " ".join(f"{statistics.mean(r[k] for r in rows):.3f} " for k in KS))
    print("recall@5 by category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop): " +
          ", ".join(f"{c}: {statistics.mean(v):.3f}" for c, v in sorted(per_cat.items())))
    print(f"add -> landed per session (~{n_turns // max(1, len(land_seconds))}"
          f" turns): p50 {locomo.percentile(land_seconds, 50):.3f} s, p95 {locomo.percentile(land_seconds, 95):.3f} s")
    print(f"search fast (library call, 10 hits): p50 {locomo.percentile(latencies, 50):.1f} ms, "
          f"p95 {locomo.percentile(latencies, 95):.1f} ms")
    if args.brief:
        print(f"brief (filtered by the {memory.judge.name} judge; reader {memory.reading.reader.name}, "
              f"{read_seconds:.0f} s to read and fold): recall of evidence turns in hits + facts "
              f"{statistics.mean(brief_recall):.3f}, median {statistics.median(brief_passages):.0f} passages and "
              f"{statistics.median(brief_chars):.0f} characters, held {sum(held) / len(held):.2f}; "
              f"latency p50 {locomo.percentile(brief_ms, 50):.0f} ms, p95 {locomo.percentile(brief_ms, 95):.0f} ms")
    print("command: ./run bench locomo_recall" + (f" --limit-conversations {args.limit_conversations}"
                                                 if args.limit_conversations else "") + (" --brief" if args.brief else ""))


if __name__ == "__main__":
    main()
