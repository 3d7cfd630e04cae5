"""The embedder's batch runtimes side by side on this CPU: ms a segment, ms for the segments of 100 of
bench/load.py's turns, and the cosine of each runtime's vectors to fp32's (min / mean).

./run bench embedder [--turns 300] [--runs 5]
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from datetime import UTC, datetime

import numpy as np

from bench import load
from twinfs.index.embedder import Embedder, cpu_flags
from twinfs.passages import segments_of


def segments(turns: int) -> list[str]:
    """What landing embeds of `turns` of the load bench's messages: their segments, as the meaning lane cuts them."""
    rng = random.Random(1)
    out = []
    for batch in range(0, turns, 100):
        items = load.items(1, batch, min(100, turns - batch), rng)
        out += segments_of("\n".join(f"{'Alice' if i['role'] == 'user' else 'Assistant'}: {i['text']}" for i in items))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=300)
    ap.add_argument("--runs", type=int, default=5, help="timed runs of each runtime (the median is shown)")
    args = ap.parse_args()
    texts = segments(args.turns)
    flags = cpu_flags()
    features = (("AMX", "amx_bf16"), ("AVX-512", "avx512f"), ("AVX-512 BF16", "avx512_bf16"),
             ("AVX-512 VNNI", "avx512_vnni"), ("AVX-VNNI", "avx_vnni"), ("AVX2", "avx2"))
    cpu = ", ".join(name for name, flag in features if flag in flags)
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {cpu}, load {os.getloadavg()[0]:.1f}; "
          f"{len(texts)} segments of {args.turns} turns ({len(texts) / args.turns * 100:.0f} a 100)\n")
    runtimes = {"onnxruntime fp32": Embedder(bf16=False, int8=False),
                "onnxruntime int8": Embedder(bf16=False, int8=True)}
    if "amx_bf16" in flags:
        runtimes["torch bf16"] = Embedder(bf16=True)
    reference = runtimes["onnxruntime fp32"].encode(texts)
    print("| runtime | ms a segment | 100 turns | cosine to fp32, min / mean |")
    print("| --- | --- | --- | --- |")
    for name, embedder in runtimes.items():
        embedder.encode(texts[:64])  # loaded, warm
        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            vectors = embedder._encode(texts)  # past the short texts' cache, as a landing of new turns is
            times.append(time.perf_counter() - t)
        cosine = (vectors * reference).sum(axis=1)
        took = statistics.median(times)
        print(f"| {name} ({embedder.batch_runtime}) | {took / len(texts) * 1000:.2f} | {took / args.turns * 100:.2f} s "
              f"| {float(np.min(cosine)):.4f} / {float(np.mean(cosine)):.4f} |")
    print(f"\nload {os.getloadavg()[0]:.1f} at the end; "
          f"command: ./run bench embedder --turns {args.turns} --runs {args.runs}")


if __name__ == "__main__":
    main()
