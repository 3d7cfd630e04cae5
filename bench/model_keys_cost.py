"""What the model's keys (twinfs/reading/keys.py) cost beside the model pass's check questions (checking.py) of the
same windows: seconds a passage for each, asked by one loaded model in one process, one after the other, as the
pass asks them (a thread's check questions first, then its passages' keys).

    ./run bench model_keys_cost [--conversations conv-26] [--sessions 8] [--passages 6] [--model qwen-coder-1.5b]

The passages are a conversation's first `--passages` in session order, from bench/model_keys.py's home read by the
rules (the check questions are those of their turns: checking.questions over the thread's records and turns). The
issue (#33) allows the keys at most ~30% of the pass's time a window.
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from bench import locomo
from bench.model_keys import build, opened, passages, session_of, trimmed, user_of
from bench.reading import machine


def windows_of(samples: list[dict], first: int | None) -> list[tuple[str, str, list]]:
    """(conversation, passage text, its check questions) in session order, from the home read by the rules."""
    from twinfs.ledger import all_records
    from twinfs.passages import parse
    from twinfs.reading.checking import questions
    from twinfs.space import turns_of

    read_home = build(samples, read=True)
    out = []
    with tempfile.TemporaryDirectory(prefix="model_keys_cost-") as scratch, \
            opened(read_home, Path(scratch) / "read", read=False) as memory:
        for sample in samples:
            space = memory.space(user_of(sample["sample_id"]))
            records = all_records(space)
            found = sorted(passages(read_home, sample["sample_id"]).values(),
                           key=lambda t: session_of(parse(t).turns[0]))[:first]
            for text in found:
                p = parse(text)
                mine = [r for r in records if r.id.startswith(p.thread + "#")]
                turns = turns_of(space.thread_items(p.thread))
                out.append((sample["sample_id"], text,
                            [q for q in questions(mine, turns) if q.turn_id in set(p.turns)]))
    return out


def cost_sample(parser: argparse.ArgumentParser) -> None:
    """The options that pick the passages a cost is measured on and the model that asks (model_onepass's too)."""
    parser.add_argument("--conversations", default="conv-26")
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--passages", type=int, default=6)
    parser.add_argument("--model", default="qwen-coder-1.5b")
    parser.add_argument("--threads", type=int, default=2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    cost_sample(parser)
    args = parser.parse_args(argv)
    from twinfs.reading.checking import Checker, load
    from twinfs.reading.keys import KeyWriter
    from twinfs.reading.shipped import model_path

    by_id = {s["sample_id"]: s for s in locomo.load()}
    samples = [trimmed(by_id[c], args.sessions) for c in args.conversations.split(",")]
    windows = [(text, asked) for _, text, asked in windows_of(samples, args.passages)]
    load_at_start = os.getloadavg()[0]
    checker = Checker(load(str(model_path(args.model)), n_threads=args.threads), name=args.model)
    writer = KeyWriter(checker)
    started = time.perf_counter()
    for _, asked in windows:
        checker.check(asked)
    checking = time.perf_counter() - started
    started = time.perf_counter()
    for text, _ in windows:
        writer.answer(text)
    keying = time.perf_counter() - started
    n, asked = len(windows), sum(len(a) for _, a in windows)
    print(f"{n} passages, {asked} check questions ({asked / n:.1f} a passage)")
    print(f"check questions: {checking / n:.1f} s a passage; keys: {keying / n:.1f} s a passage; "
          f"keys / check = {keying / checking:.0%}")
    print(f"load {load_at_start:.1f} at the start, {os.getloadavg()[0]:.1f} at the end; {machine()}")
    print(f"command: ./run bench model_keys_cost --conversations {args.conversations} --sessions {args.sessions} "
          f"--passages {args.passages}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
