"""The model pass's threads beside another busy program (twinfs/reading/cores.py): seconds a question when the
pass keeps its 2 threads whatever else runs, against the threads the free cores allow.

    ./run bench model_threads [--model qwen-coder-1.5b] [--questions 4] [--busy 1]

Loads the model once (a Checker on 2 threads, the pass's default), asks one question to evaluate the kept prefix,
then asks the same closed questions (written for this bench) three times: alone on 2 threads; beside `--busy`
busy-loop processes on 2 threads (the pass before cores.py); beside them on the threads `FreeCores` gives (what the
pass does before each passage now). Prints seconds a question for each run, the threads used, the load and the CPU.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from bench.reading import machine

QUESTIONS = [  # (turn, the turn before, attribute, value)
    ("I moved to Galway in March and I love the sea air.", "Where are you these days?", "home", "Galway"),
    ("My sister Ines is a dentist in Porto, I'm the only one in tech.", "Any family nearby?", "job", "dentist"),
    ("We adopted a greyhound called Pilot last winter.", "Any pets?", "pet", "Pilot"),
    ("If I ever retire I'd open a bakery by the harbour.", "Plans for later?", "plans", "open a bakery"),
    ("I teach chemistry at a secondary school in Hull.", "What do you do?", "job", "teach chemistry"),
    ("Honestly I can't stand coriander, it tastes of soap.", "Anything you won't eat?", "dislikes", "coriander"),
]


def ask(checker, questions: list, threads: int | None, free=None) -> tuple[list[float], list[int]]:
    """Seconds each question took and the threads it ran on: `threads`, or what `free()` gives before each."""
    seconds, used = [], []
    for q in questions:
        n = threads if threads is not None else max(1, min(2, free()))
        checker.use_threads(n)
        started = time.perf_counter()
        checker.check([q])
        seconds.append(time.perf_counter() - started)
        used.append(n)
    return seconds, used


def main(argv: list[str] | None = None) -> None:
    from twinfs.reading.checking import Checker, Question, load
    from twinfs.reading.cores import FreeCores
    from twinfs.reading.shipped import model_path

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="qwen-coder-1.5b")
    parser.add_argument("--questions", type=int, default=4)
    parser.add_argument("--busy", type=int, default=1, help="busy-loop processes beside the pass")
    args = parser.parse_args(argv)
    print(f"./run bench model_threads --model {args.model} --questions {args.questions} --busy {args.busy}")
    print(machine())
    checker = Checker(load(str(model_path(args.model)), n_threads=2), name=args.model)
    asked = [Question(turn, before, attribute, value, f"th#r{n}", turn_id=f"t{n}")
             for n, (turn, before, attribute, value) in enumerate(QUESTIONS[:args.questions])]
    started = time.perf_counter()
    checker.check([Question("I live in Leeds.", "Where are you based?", "home", "Leeds", "th#r99", turn_id="t99")])
    print(f"the kept prefix and a first question: {time.perf_counter() - started:.1f} s")
    runs: dict[str, tuple[list[float], list[int]]] = {"alone, 2 threads": ask(checker, asked, 2)}
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    try:
        time.sleep(1.0)
        runs[f"beside {args.busy} busy, 2 threads"] = ask(checker, asked, 2)
        free = FreeCores()
        runs[f"beside {args.busy} busy, the free cores' threads"] = ask(checker, asked, None, free)
    finally:
        for process in busy:
            process.kill()
            process.wait()
    print(f"{'run':44} {'s a question (median)':>22} {'max':>7} {'threads':>8}")
    for name, (seconds, used) in runs.items():
        print(f"{name:44} {statistics.median(seconds):22.2f} {max(seconds):7.2f} {','.join(map(str, used)):>8}")
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
