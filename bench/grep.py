"""grep over 1,000, 10,000 and 100,000 passages, with the passages' read lock (issue #35) and without it.

grep walks the passage files, so the bench writes them as landing renders them (passages.render of made-up
turns, 100 passages a thread) without indexing them, then times a grep for a word only the last passage holds
(the whole walk) and one for a word every passage holds (stopped at 1,000 lines), each the median of `--runs`.
"Without" replaces the lock with nothing: what grep cost before the lock. Caches the files under
~/.cache/twinfs/bench/grep-<n>.

    ./run bench grep [--sizes 1000 10000 100000] [--runs 5]
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from contextlib import nullcontext
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.homes import cache_root
from twinfs import browse
from twinfs.models import EndUser, GrepRequest
from twinfs.passages import Turn, cut, render
from twinfs.space import Space

USER = EndUser(org="bench", project="grep", account="one")
PER_THREAD = 100
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def build(home: Path, passages: int) -> None:
    root = home / "users" / USER.dirname
    if (root / ".built").exists():
        return
    made = 0
    thread_n = 0
    while made < passages:
        thread = f"th_{thread_n:016x}"
        turns = [Turn(id=f"m{thread_n}-{i}", kind="message", role="user" if i % 2 == 0 else "assistant",
                      name="Dana" if i % 2 == 0 else "Assistant", at=T0 + timedelta(minutes=i + thread_n),
                      text=f"turn {i} of {thread}: the garden, the river walk and the tram to work " * 4)
                 for i in range(PER_THREAD * 3)]
        for p in cut(thread, "message", "memory", turns)[:min(PER_THREAD, passages - made)]:
            target = root / p.path
            target.parent.mkdir(parents=True, exist_ok=True)
            text = render(p)
            if made == passages - 1:
                text += "\nthe last one says zebracorn\n"
            target.write_text(text, encoding="utf-8")
            made += 1
        thread_n += 1
    (root / ".twin").mkdir(parents=True, exist_ok=True)
    (root / ".built").write_text("")


def timed(space: Space, pattern: str, runs: int) -> float:
    took = []
    for _ in range(runs):
        start = time.perf_counter()
        browse.grep(space, GrepRequest(pattern=pattern))
        took.append((time.perf_counter() - start) * 1000)
    return statistics.median(took)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    print(f"{'passages':>9}  {'rare, lock':>11}  {'rare, none':>11}  {'common, lock':>13}  {'common, none':>13}")
    for n in args.sizes:
        home = cache_root() / f"grep-{n}"
        build(home, n)
        space = Space(home, USER, embedder=None)  # type: ignore[arg-type]  # grep needs no embedder
        row = []
        for pattern in ("zebracorn", "river walk"):
            locked = timed(space, pattern, args.runs)
            kept = space.passages_lock
            space.passages_lock = type("NoLock", (), {"shared": staticmethod(nullcontext)})()  # type: ignore
            bare = timed(space, pattern, args.runs)
            space.passages_lock = kept
            row += [locked, bare]
        print(f"{n:>9,}  {row[0]:>9.1f}ms  {row[1]:>9.1f}ms  {row[2]:>11.1f}ms  {row[3]:>11.1f}ms", flush=True)
    print(f"\nload {os.getloadavg()[0]:.1f}; command: ./run bench grep --sizes {' '.join(map(str, args.sizes))} "
          f"--runs {args.runs}")


if __name__ == "__main__":
    main()
