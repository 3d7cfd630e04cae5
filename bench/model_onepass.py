"""The model pass asked in one running sequence a passage (twinfs/reading/onepass.py) against today's separate
prompts (checking.Checker.check, then keys.KeyWriter): what each costs, and the keys the one sequence writes.

    ./run bench model_onepass --cost [--conversations conv-26] [--sessions 8] [--passages 6]
    ./run bench model_onepass --write [--conversations conv-26] [--sessions 8]

`--cost`: the first `--passages` passages of bench/model_keys_cost.py, each asked today's way (all their check
questions, then all their keys, as the pass asks a thread) and then in one sequence each, by one loaded model
(n_ctx onepass.CONTEXT for both): seconds a passage for the check and for the keys, prompt tokens evaluated, and
the check questions whose verdict differs between the two. `--write`: every passage of the sample asked in one
sequence, the keys appended to a cache of bench/model_keys.py's form (its own folder, printed), so that
`./run bench model_keys … --measure-only --keys-cache FOLDER` measures recall with them.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from bench import homes, locomo
from bench.model_keys import KeyCache, body_hash, trimmed, version
from bench.model_keys_cost import cost_sample, windows_of
from bench.reading import machine


def cost(checker, windows: list, one_first: bool = False) -> None:
    from twinfs.reading.keys import KeyWriter
    from twinfs.reading.onepass import PassageRun

    n, asked = len(windows), sum(len(a) for _, _, a in windows)
    loads = [os.getloadavg()[0]]
    writer, run = KeyWriter(checker), PassageRun(checker)

    def separate() -> tuple[list, float, float, int]:
        evaluated = checker.evaluated
        started = time.perf_counter()
        checked = [checker.check(a) for _, _, a in windows]
        checking = time.perf_counter() - started
        started = time.perf_counter()
        for _, text, _ in windows:
            writer.answer(text)
        return checked, checking, time.perf_counter() - started, checker.evaluated - evaluated

    def one() -> tuple[list, int]:
        evaluated = checker.evaluated
        return [run.passage(text, a)[0] for _, text, a in windows], checker.evaluated - evaluated

    if one_first:
        new, new_tokens = one()
        loads.append(os.getloadavg()[0])
        old, checking, keying, old_tokens = separate()
    else:
        old, checking, keying, old_tokens = separate()
        loads.append(os.getloadavg()[0])
        new, new_tokens = one()
    print(f"{n} passages, {asked} check questions ({asked / n:.1f} a passage)")
    print(f"separate prompts: check {checking / n:.1f} s a passage, keys {keying / n:.1f} s: keys / check = "
          f"{keying / checking:.0%}; {old_tokens} prompt tokens evaluated ({old_tokens / n:.0f} a passage)")
    print(f"one sequence: check {run.seconds['check'] / n:.1f} s a passage, keys {run.seconds['keys'] / n:.1f} s: "
          f"keys / check = {run.seconds['keys'] / run.seconds['check']:.0%}; {new_tokens} prompt tokens evaluated "
          f"({new_tokens / n:.0f} a passage); {run.fresh} sequences begun again")
    print(f"the pass a passage: {(checking + keying) / n:.1f} s separate, {sum(run.seconds.values()) / n:.1f} s "
          "in one sequence")
    differ = 0
    for before, after in zip(old, new, strict=True):
        was = {q.key: (v.action, v.attribute, v.value) for q, _, v in before}
        for q, answer, v in after:
            if was.get(q.key) != (v.action, v.attribute, v.value):
                differ += 1
                print(f"  differs: {q.attribute}={q.value!r} {q.clause!r}: separate {was.get(q.key)}, one sequence "
                      f"{(v.action, v.attribute, v.value)} ({answer})")
    print(f"verdicts that differ: {differ} of {asked}")
    print(f"{'one sequence' if one_first else 'separate prompts'} first; load {loads[0]:.1f} at the start, "
          f"{loads[1]:.1f} between, {os.getloadavg()[0]:.1f} at the end; {machine()}")


def write(checker, windows: list, folder: Path) -> None:
    from twinfs.reading.onepass import PassageRun

    run = PassageRun(checker)
    caches: dict[str, KeyCache] = {}
    for n, (sample_id, text, asked) in enumerate(windows, 1):
        cache = caches.setdefault(sample_id, KeyCache(folder, sample_id))
        if body_hash(text) in cache:
            continue
        before = dict(run.seconds)
        _, keys = run.passage(text, asked)
        seconds = {k: round(run.seconds[k] - before[k], 2) for k in before}
        cache.add({"body": body_hash(text), "passage": "", "parsed": keys is not None,
                   "questions": list(keys.questions) if keys else [], "about": list(keys.about) if keys else [],
                   "seconds": seconds["keys"], "check_seconds": seconds["check"], "load": round(os.getloadavg()[0], 1),
                   "at": datetime.now(UTC).isoformat(timespec="seconds")})
        print(f"  [{n}/{len(windows)}] {sample_id} {len(asked)} questions {seconds}: {keys}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    cost_sample(parser)
    parser.add_argument("--cost", action="store_true")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--one-first", action="store_true", help="--cost: the one sequence asked first")
    args = parser.parse_args(argv)
    from twinfs.reading import onepass
    from twinfs.reading.checking import Checker, load
    from twinfs.reading.shipped import model_path

    by_id = {s["sample_id"]: s for s in locomo.load()}
    samples = [trimmed(by_id[c], args.sessions) for c in args.conversations.split(",")]
    windows = windows_of(samples, args.passages if args.cost else None)
    path = model_path(args.model)
    checker = Checker(load(str(path), n_threads=args.threads, n_ctx=onepass.CONTEXT), name=args.model)
    if args.cost:
        cost(checker, windows, args.one_first)
    if args.write:
        shaping = version(path) + onepass.SYSTEM + onepass.INDEX + onepass.ASK
        folder = homes.cache_root() / "model_keys" / ("onepass-" + hashlib.sha256(shaping.encode()).hexdigest()[:12])
        print(f"keys cache: {folder}", flush=True)
        write(checker, windows, folder)
        print(f"{machine()}\nnext: ./run bench model_keys --conversations {args.conversations} --sessions "
              f"{args.sessions} --measure-only --keys-cache {folder}")
    print("command: ./run bench model_onepass " + " ".join(sys.argv[1:] if argv is None else argv))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
