"""`twin import chatgpt` on a generated export: messages a second, peak RSS of the importing process, and the time
until the last message is searchable (grep finds it: landed).

The export is made once per size, as ChatGPT writes it (a list of conversations, each a `mapping` tree with a
system root and alternating user and assistant messages), and cached under ~/.cache/twinfs/bench/import-<size>.
The import runs in process, as `twin import` runs it (importers.run.import_file into a Memory on a fresh home),
reading off: messages accepted a second, the process's peak RSS (the embedder and indexes included), and the time
until the last message has landed.

    ./run bench import [--conversations 10000] [--messages 200000]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import tempfile
import time
from pathlib import Path

from bench.homes import cache_root
from twinfs import EndUser, Memory, Settings
from twinfs.importers.run import import_file
from twinfs.models import GrepRequest, Phase, StatusRequest

WORDS = ("garden", "river", "tram", "bread", "sister", "guitar", "lesson", "Lisbon", "Porto", "walk", "coffee",
         "rain", "dog", "cat", "paint", "trip", "train", "boat", "market", "book", "film", "recipe", "bike",
         "school", "office", "cellar", "light", "noise", "friend", "plan", "week")


def export(path: Path, conversations: int, messages: int) -> None:
    if path.exists():
        return
    rng = random.Random(11)
    per = max(2, messages // conversations)
    t0 = 1_700_000_000.0
    tmp = path.with_suffix(".part")
    with tmp.open("w", encoding="utf-8") as f:
        f.write("[")
        for c in range(conversations):
            mapping = {"root": {"id": "root", "message": None, "parent": None, "children": [f"c{c}m0"]}}
            for m in range(per):
                nid, parent = f"c{c}m{m}", ("root" if m == 0 else f"c{c}m{m - 1}")
                role = "user" if m % 2 == 0 else "assistant"
                text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 40)))
                mapping[nid] = {"id": nid, "parent": parent, "children": [f"c{c}m{m + 1}"] if m + 1 < per else [],
                                "message": {"id": nid, "author": {"role": role}, "create_time": t0 + c * 600 + m * 20,
                                            "content": {"content_type": "text", "parts": [f"{text} (c{c}m{m})"]}}}
            conv = {"id": f"conv-{c}", "title": f"chat {c}", "create_time": t0 + c * 600, "mapping": mapping,
                    "current_node": f"c{c}m{per - 1}"}
            f.write(("," if c else "") + json.dumps(conv))
        f.write("]")
    tmp.rename(path)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--conversations", type=int, default=10000)
    ap.add_argument("--messages", type=int, default=200000)
    args = ap.parse_args()
    path = cache_root() / f"import-{args.conversations}-{args.messages}" / "conversations.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    made = time.perf_counter()
    export(path, args.conversations, args.messages)
    print(f"export: {path.stat().st_size / 1e6:.1f} MB ({time.perf_counter() - made:.0f} s to make or find)")
    per = max(2, args.messages // args.conversations)
    last = f"chatgpt:c{args.conversations - 1}m{per - 1}"
    user = EndUser(org="bench", project="import", account="one")
    home = Path(tempfile.mkdtemp(prefix="twin-import-"))
    try:
        with Memory(Settings(home=home, reading=False, watch=False)) as memory:
            start = time.perf_counter()
            summary = import_file(memory, user, "chatgpt", path)
            accepted = time.perf_counter() - start
            rss_accepted = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            while memory.status(user, StatusRequest(ids=[last])).phases[last] != Phase.landed:
                time.sleep(0.5)
            searchable = time.perf_counter() - start
            found = memory.grep(user, GrepRequest(pattern=f"({last.split(':')[1]})")).found
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{summary.conversations:,} conversations, {summary.turns:,} messages accepted in {accepted:.0f} s: "
              f"{summary.turns / accepted:,.0f} messages/s; peak RSS {rss_accepted:,.0f} MB by then "
              f"(the embedder and the indexes included), {rss:,.0f} MB once landed")
        print(f"the last message searchable after {searchable:.0f} s ({summary.turns / searchable:,.0f} messages/s "
              f"landed; grep finds it: {found})")
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(f"CPU: {cpu_name()}; load {os.getloadavg()[0]:.1f}; command: ./run bench import --conversations "
          f"{args.conversations} --messages {args.messages}")


def cpu_name() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown"


if __name__ == "__main__":
    main()
