"""The model's keys (twinfs/reading/keys.py) beside the model pass's check, per window, on the second reading set.

    ./run bench reading_keys [--model qwen-coder-1.5b] [--conversations N] [--verbose]

For each window the rules read: the model pass's closed questions about the window's records (checking.py), then
the keys asked for the window's turns (the prompt the background pass sends for a passage), on one loaded model
and one kept prefix each (the two prompts alternate once a window, as the background pass does once a thread).
Prints the seconds of each a window (median, sum), the keys' share of the pass, the keys written (--verbose) and
the CPU and load. The target is keys <= ~30% of the check pass's time (issue #33).
"""
from __future__ import annotations

import argparse
import statistics
import time

from bench.reading import machine
from bench.reading_set2 import load_set, read_set
from twinfs.reading import make_reader
from twinfs.reading.checking import Checker, load, questions
from twinfs.reading.keys import KeyWriter
from twinfs.reading.shipped import model_path


def window_text(window) -> str:
    """The window's new turns as a passage file shows them (speaker, then the words)."""
    lines = [f"**{t.name or t.role or 'Someone'}** · {t.text}" for t in window.turns if t.id in window.new]
    return "---\nid: w\n---\n" + "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="qwen-coder-1.5b")
    parser.add_argument("--conversations", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    conversations = load_set()[: args.conversations]
    rules, _, _ = read_set(make_reader(), conversations)
    llm = load(str(model_path(args.model)), n_threads=args.threads)
    checker = Checker(llm)
    writer = KeyWriter(checker)  # through the checker: its kept prefix and token count
    check_s: list[float] = []
    keys_s: list[float] = []
    counts = [0, 0]
    for conv in conversations:
        records = rules.get(conv.id, [])
        for window in conv.windows:
            mine = [r for r in records if set(r.turns) & set(window.new)]
            started = time.perf_counter()
            checker.check(questions(mine, conv.turns))
            check_s.append(time.perf_counter() - started)
            started = time.perf_counter()
            keys = writer.keys(window_text(window))
            keys_s.append(time.perf_counter() - started)
            if keys:
                counts[0] += len(keys.questions)
                counts[1] += len(keys.about)
            if args.verbose:
                print(f"  {conv.id} window {window.position}: {len(mine)} records checked in {check_s[-1]:.1f} s; "
                      f"keys in {keys_s[-1]:.1f} s: {keys}")
    print(f"  {args.model}, {args.threads} threads, {len(conversations)} conversations, {len(check_s)} windows:")
    print(f"  check pass a window: median {statistics.median(check_s):.1f} s, {sum(check_s):.0f} s in all")
    share = sum(keys_s) / max(sum(check_s), 1e-9)
    print(f"  keys a window: median {statistics.median(keys_s):.1f} s, {sum(keys_s):.0f} s in all "
          f"({counts[0]} questions, {counts[1]} names); keys / check pass = {share:.0%}")
    print(f"  {machine()}")
    print(f"command: ./run bench reading_keys --model {args.model} --conversations {args.conversations}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
