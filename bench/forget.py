"""Forget in a vault with a long history: how long removing one item takes, history rewrite included.

    ./run bench forget [--adds 500] [--items 10]

One end user; `--adds` adds of `--items` messages each, in 20 conversations (so, as many commits), then one
item is forgotten. Prints the time of each part the forget goes through and the commits rewritten.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bench.chat import messages
from twinfs import (
    EndUser,
    Memory,
    Settings,
    forgetting,
    git_history,
)
from twinfs.models import AddRequest, ForgetRequest


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--adds", type=int, default=500)
    ap.add_argument("--items", type=int, default=10)
    args = ap.parse_args()
    user = EndUser(org="bench", project="forget", account="one")
    timed: dict[str, float] = {}

    def clock(owner, name):
        original = getattr(owner, name)

        def wrapper(*a, **k):
            t0 = time.perf_counter()
            try:
                return original(*a, **k)
            finally:
                timed[name] = timed.get(name, 0.0) + time.perf_counter() - t0
        setattr(owner, name, wrapper)

    with tempfile.TemporaryDirectory() as tmp, Memory(Settings(home=Path(tmp), reading=False)) as memory:
        t0 = time.perf_counter()
        n = 0
        for a in range(args.adds):
            memory.add(user, AddRequest(items=messages(n, args.items, f"c{a % 20}"), wait=True))
            n += args.items
        built = time.perf_counter() - t0
        clock(forgetting, "forget")
        clock(git_history, "rewrite_history")
        t0 = time.perf_counter()
        result = memory.forget(user, ForgetRequest(ids=["m7"]))
        total = time.perf_counter() - t0
    print(f"vault: {args.adds} adds of {args.items} items ({n} turns, {args.adds + 1} commits), built in {built:.0f} s")
    print(f"forget one item: {total:.2f} s — files and indexes {timed['forget']:.2f} s, history rewrite "
          f"{timed['rewrite_history']:.2f} s ({len(result.forgotten)} forgotten)")
    print(f"command: ./run bench forget --adds {args.adds} --items {args.items}")


if __name__ == "__main__":
    main()
