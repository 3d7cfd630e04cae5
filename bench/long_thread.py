"""Landing in a long conversation: add -> landed as one thread grows to thousands of turns.

    ./run bench long_thread [--turns 8000] [--batch 10]

One end user, one conversation; turns are added `--batch` at a time (wait=True) and the add -> landed time
of each add is reported per stretch of the thread. Landing cuts only the thread's tail, so the time should
stay flat as the thread grows; the whole cut it replaced grew with the thread.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from bench.chat import messages
from twinfs import EndUser, Memory, Settings
from twinfs.models import AddRequest
from twinfs.steps import land


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=8000)
    ap.add_argument("--batch", type=int, default=10)
    args = ap.parse_args()
    user = EndUser(org="bench", project="long", account="one")
    stretch = max(args.batch, args.turns // 8)
    with tempfile.TemporaryDirectory() as tmp, Memory(Settings(home=Path(tmp), reading=False)) as memory:
        memory.embedder.query("warm up")
        times: list[float] = []
        whole: list[float] = []
        print(f"{'turns':>12} {'add -> landed p50':>18} {'p95':>8} {'a whole cut':>12}")
        for n in range(0, args.turns, args.batch):
            items = messages(n, args.batch, "one")
            t0 = time.perf_counter()
            memory.add(user, AddRequest(items=items, wait=True))
            times.append(time.perf_counter() - t0)
            if (n + args.batch) % stretch == 0:
                space = memory.space(user)
                thread = space.threads()[0]
                t0 = time.perf_counter()
                for p in land.cut_thread(thread, space.thread_items(thread)):
                    land.render(p)
                whole.append(time.perf_counter() - t0)
                ms = sorted(t * 1000 for t in times)
                print(f"{n + args.batch - stretch + 1:>5}-{n + args.batch:<6} {statistics.median(ms):>15.1f} ms "
                      f"{ms[int(0.95 * (len(ms) - 1))]:>5.1f} ms {whole[-1] * 1000:>9.1f} ms")
                times.clear()
    print(f"command: ./run bench long_thread --turns {args.turns} --batch {args.batch}")


if __name__ == "__main__":
    main()
