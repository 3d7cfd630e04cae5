"""Both recall benches in one run, one table each: LoCoMo dev (conversations between two named people) and
LongMemEval dev (long user-assistant histories), every ranking beside the words lane alone, by half.

./run bench recall [--brief] [--locomo-home DIR] [--lme-home DIR]
"""
from __future__ import annotations

import argparse
import os
from datetime import UTC, datetime
from pathlib import Path

from bench import locomo_recall, longmemeval_recall


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--brief", action="store_true", help="also the brief: held, and how many passages come back")
    ap.add_argument("--locomo-home", type=Path, default=None, help="a LoCoMo home built before, used as it is")
    ap.add_argument("--lme-home", type=Path, default=None, help="a LongMemEval home built before, used as it is")
    args = ap.parse_args()
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, load {os.getloadavg()[0]:.1f} at the start")
    lo = locomo_recall.run(brief=args.brief, folder=args.locomo_home)
    print(f"\nLoCoMo dev: {lo['conversations']} conversations, {lo['turns']} turns "
          f"(conversations 0-{locomo_recall.TUNE - 1} tune, {locomo_recall.TUNE}- report)\n")
    print(locomo_recall.table(lo))
    lme = longmemeval_recall.run(brief=args.brief, folder=args.lme_home)
    print(f"\nLongMemEval dev: {lme['questions']} questions, fast, before the end of each question's day\n")
    print(longmemeval_recall.table(lme))
    print(f"\nload {os.getloadavg()[0]:.1f} at the end; command: ./run bench recall"
          + (" --brief" if args.brief else "")
          + (f" --locomo-home {args.locomo_home}" if args.locomo_home else "")
          + (f" --lme-home {args.lme_home}" if args.lme_home else ""))


if __name__ == "__main__":
    main()
