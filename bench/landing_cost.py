"""The cost of landing one turn into a long conversation, in time order and out of it (issue #35).

    ./run bench landing_cost [--sizes 100 1000 5000] [--runs 5]

For each size, one end user holds one conversation of that many turns (30 s apart, so no pause starts a new
passage: the worst case for a cut); then `--runs` single turns are added one at a time, each waited for: at the
end of the thread (in order), then at random earlier times (out of order). Each prints add -> landed (median)
and how many passage files the landing's commit changed (median): what the cut rewrote and indexed again.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from bench.chat import T0, varied
from twinfs import EndUser, Memory, Settings
from twinfs.models import AddRequest

STEP = timedelta(seconds=30)


def files_changed(root: Path) -> int:
    out = subprocess.run(["git", "-C", str(root), "show", "--name-only", "--format=", "HEAD", "--", "passages"],
                         capture_output=True, text=True).stdout
    return len([line for line in out.splitlines() if line])


def one(memory: Memory, user: EndUser, ident: str, at_index: float) -> tuple[float, int]:
    item = {"id": ident, "kind": "message", "conversation": "long", "role": "user",
            # longer than the room a full passage leaves, so that it always pushes turns along
            "text": f"A turn added later ({ident}): the boiler man comes on Tuesday at nine. " * 6,
            "at": (T0 + STEP * at_index).isoformat()}
    start = time.perf_counter()
    memory.add(user, AddRequest(items=[item], wait=True))
    took = time.perf_counter() - start
    return took, files_changed(memory.space(user).root)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print(f"{'turns':>6}  {'in order':>10} {'files':>6}  {'out of order':>12} {'files':>6}  build")
    with tempfile.TemporaryDirectory() as tmp, Memory(Settings(home=Path(tmp), reading=False, watch=False)) as memory:
        memory.embedder.query("warm up")
        for size in args.sizes:
            user = EndUser(org="bench", project="cost", account=f"t{size}")
            start = time.perf_counter()
            for first in range(0, size, 500):
                memory.add(user, AddRequest(items=varied(first, min(500, size - first), "long"), wait=True))
            built = time.perf_counter() - start
            rows = {"in": [], "out": []}
            for n in range(args.runs):
                rows["in"].append(one(memory, user, f"in{n}", size + n))
            for n in range(args.runs):
                # between two turns of the thread's first 90 %: everything after it moves
                rows["out"].append(one(memory, user, f"out{n}", rng.uniform(0, 0.9 * size) + 0.5))
            med = {k: (statistics.median(t for t, _ in v) * 1000, statistics.median(f for _, f in v))
                   for k, v in rows.items()}
            print(f"{size:>6}  {med['in'][0]:>8.0f}ms {med['in'][1]:>6.0f}  {med['out'][0]:>10.0f}ms "
                  f"{med['out'][1]:>6.0f}  {built:.0f} s", flush=True)
    print(f"\nload {os.getloadavg()[0]:.1f}; command: ./run bench landing_cost --sizes "
          f"{' '.join(map(str, args.sizes))} --runs {args.runs}")


if __name__ == "__main__":
    main()
