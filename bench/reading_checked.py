"""The second reading set, rules alone and rules + the model's check pass, side by side.

    ./run bench reading_checked [--model qwen-coder-1.5b] [--conversations N] [--verbose]

The rules read each conversation; then every record they made from a user's turn is asked about once
(twinfs/reading/checking.py, the same questions and verdicts as the background pass) and the verdicts applied
as the pass applies them (a drop retracts, a replace corrects). Prints the set's scores for both, and the model's
seconds per user turn (median, p95) with the CPU and load.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

from bench.reading import machine
from bench.reading_set2 import load_set, print_scores, read_set, score_set
from twinfs.reading import make_reader
from twinfs.reading.checking import Checker, load, questions
from twinfs.reading.shipped import model_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="qwen-coder-1.5b")
    parser.add_argument("--conversations", type=int, default=None)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    conversations = load_set()[: args.conversations]
    rules, _, _ = read_set(make_reader(), conversations)
    checker = Checker(load(str(model_path(args.model)), n_threads=args.threads))
    checked: dict[str, list] = {}
    per_turn: dict[str, float] = {}
    for conv in conversations:
        kept = {r.id: r for r in rules.get(conv.id, [])}
        for q in questions(list(kept.values()), conv.turns):
            started = time.perf_counter()
            (_, answer, verdict), = checker.check([q])
            turn = next(t.id for t in conv.turns if t.text == q.turn)
            per_turn[f"{conv.id}/{turn}"] = per_turn.get(f"{conv.id}/{turn}", 0.0) + time.perf_counter() - started
            if args.verbose:
                print(f"  {conv.id} {q.attribute}={q.value!r} -> {answer} -> {verdict.action} {verdict.why}")
            if verdict.action == "drop":
                kept.pop(q.record, None)
            elif verdict.action == "replace":
                kept[q.record] = kept[q.record].model_copy(update={"attribute": verdict.attribute,
                                                                   "value": verdict.value})
        checked[conv.id] = list(kept.values())
    print_scores({"rules": score_set(rules, conversations), "rules + model": score_set(checked, conversations)},
                 args.verbose)
    times = sorted(per_turn.values())
    if times:
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        print(f"  model pass ({args.model}, {args.threads} threads): {len(times)} user turns asked about, "
              f"{checker.questions} questions; {statistics.median(times):.2f} s a turn median, {p95:.2f} s p95; "
              f"prefix {checker.prefix_tokens} tokens, {checker.evaluated} prompt tokens evaluated in all")
    print(f"  {machine()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
