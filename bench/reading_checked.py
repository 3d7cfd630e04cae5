"""The second reading set, rules alone and rules + the model's check pass, side by side.

    ./run bench reading_checked [--model qwen-coder-1.5b] [--conversations N] [--judged] [--notes] [--verbose]

The rules read each conversation; then every record they made from a user's turn (its value; with `--notes`, of one
without a value, whether it reads alone), and every sentence of a user's turn about the speaker that they left
alone, is asked about once (twinfs/reading/checking.py, the same questions and verdicts as the background pass) and
the verdicts applied as the pass applies them (a drop retracts, a replace corrects, an add makes a record
`by: model`, reading/checked.py). Prints the set's scores for both, what the model
changed, and its seconds per user turn (median, p95) with the CPU and load. `--judged`: also the judged sample of
`./run bench reading` (50 rules records of LoCoMo dev, judged by hand), each asked about: right after the check
= judged-right records kept + judged-wrong records dropped + the replacements judged right (a replaced
record is judged by its replacement's id in bench/reading_judged.json).
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from bench.reading import machine
from bench.reading_set2 import SET2, load_set, print_scores, read_set, score_set
from twinfs.models import Record
from twinfs.reading import make_reader
from twinfs.reading.checked import made
from twinfs.reading.checking import (
    Checker,
    ModelAnswer,
    Question,
    concept,
    load,
    questions,
    verdict_of,
)
from twinfs.reading.shipped import model_path


class Replayed:
    """The model's answers as a `--verbose` run printed them, given again in the order asked: the verdicts (code's)
    decided anew without asking the model (`--replay LOG`); no timing."""

    LINE = re.compile(r"^  (\S+) .* -> (ModelAnswer\(.*?\)|None) -> ")

    def __init__(self, log: str):
        self.answers: dict[str, list[ModelAnswer | None]] = {}
        self.done = set()  # the conversations the run finished
        for line in Path(log).read_text(encoding="utf-8").splitlines():
            if line.startswith("  after "):
                self.done.add(line.split()[1].rstrip(":"))
            m = self.LINE.match(line)
            if m and not line.startswith("  judged"):
                answer = eval(m[2], {"ModelAnswer": ModelAnswer})  # noqa: S307 - our own log's repr
                self.answers.setdefault(m[1], []).append(answer)
        self.thread, self.questions, self.evaluated, self.prefix_tokens, self.name = "", 0, 0, 0, "replayed"

    def check(self, asked: list[Question]) -> list:
        out = []
        for q in asked:
            left = self.answers.get(self.thread, [])
            answer = left.pop(0) if left else None
            self.questions += answer is not None
            out.append((q, answer, verdict_of(q, answer)))
        return out


def asked_of(checker: Checker, thread: str, asked: list[Question], turns: list, onepass: bool) -> list:
    """(question, answer, verdict, seconds) for each question: one at a time as the pass asks them, or (`onepass`)
    in one running sequence for each passage the product cuts the conversation into (reading/onepass.py; the
    seconds of a question there count the lines appended before it)."""
    if not onepass:
        out = []
        for q in asked:
            started = time.perf_counter()
            (_, answer, verdict), = checker.check([q])
            out.append((q, answer, verdict, time.perf_counter() - started))
        return out
    from twinfs.passages import cut, render
    from twinfs.reading.onepass import PassageRun

    run, done, timed = PassageRun(checker), {}, {}
    for passage in cut(thread, "message", "memory", turns):
        mine = [q for q in asked if q.turn_id in passage.turns and q.key not in done]
        for q, answer, verdict in run.passage(render(passage), mine, keys=False, timed=timed)[0]:
            done[q.key] = (q, answer, verdict)
    return [(*done[q.key], timed.get(q.key, 0.0)) for q in asked if q.key in done]


def check_records(checker: Checker, thread: str, records: list[Record], turns: list, changes: Counter,
                  per_turn: dict[str, float], verbose: bool = False, clauses: bool = True,
                  notes: bool = False, onepass: bool = False) -> list[Record]:
    """The records as the pass leaves them: each question asked, its verdict applied in memory."""
    kept = {r.id: r for r in records}
    by_turn = {t.id: t for t in turns}
    for q, answer, verdict, seconds in asked_of(checker, thread, questions(records, turns, clauses=clauses,
                                                                          notes=notes), turns, onepass):
        key = f"{thread}/{q.turn_id}"
        per_turn[key] = per_turn.get(key, 0.0) + seconds
        if verbose:
            asked = f"note {q.note!r}" if q.note is not None else f"{q.attribute}={q.value!r}" if q.record \
                else f"clause {q.clause!r}"
            print(f"  {thread} {asked} -> {answer} -> {verdict.action} {verdict.attribute} {verdict.value!r} "
                  f"{verdict.why}")
        changes[verdict.action] += 1
        if verdict.action == "drop":
            kept.pop(q.record or "", None)
        elif verdict.action in ("replace", "add"):
            name = q.attribute if q.attribute and concept(q.attribute) == verdict.attribute else verdict.attribute
            new = made(thread, q, verdict, by_turn[q.turn_id or ""], None, name or "other")
            if q.record:
                kept.pop(q.record, None)
            if new is not None:
                kept[new.id] = new
    return list(kept.values())


def judged(checker: Checker, verbose: bool, notes: bool = False) -> str:
    """The judged sample of `./run bench reading` (rules on LoCoMo dev), before and after the check."""
    from bench.reading import load, read
    from bench.reading_scores import Judge, judged_sample

    sessions = load(None)
    run = read("rules", sessions, Judge({n for s in sessions for n in (*s.events, *s.observations)}).count)
    picked, judgments = judged_sample(run)
    threads = {f"{s.conversation}/s{s.number}": s.turns for s in sessions}
    before = after = replaced = replaced_judged = unjudged = 0
    dropped: Counter = Counter()  # judged right / wrong, dropped by the check
    for record in picked:
        right = judgments.get(record.id, {}).get("right")
        if right is None:
            unjudged += 1
            continue
        before += bool(right)
        turns = threads.get(record.id.split("#")[0], [])
        n = next((i for i, t in enumerate(turns) if record.turns and t.id == record.turns[0]), None)
        if n is None or not (notes or record.attribute and record.value):
            after += bool(right)  # not asked: stands as the rules made it
            continue
        before_text = turns[n - 1].text if n else ""
        if record.attribute and record.value:
            q = Question(turns[n].text, before_text, record.attribute, record.value, record.id, turn_id=turns[n].id)
        else:
            q = Question(turns[n].text, before_text, record=record.id, turn_id=turns[n].id, note=record.text)
        (_, answer, verdict), = checker.check([q])
        replacement = None
        if verdict.action == "replace":  # the record the pass writes in its place, judged by its own id
            name = record.attribute if record.attribute and concept(record.attribute) == verdict.attribute \
                else verdict.attribute
            replacement = made(record.id.split("#")[0], q, verdict, turns[n], None, name or "other")
        if verbose:
            asked = f"note {record.text[:90]!r}" if q.note else f"{record.attribute}={record.value!r}"
            new = f" {replacement.id} {replacement.attribute}={replacement.value!r}" if replacement else ""
            print(f"  judged {'right' if right else 'WRONG'} {asked} -> {verdict.action}{new}", flush=True)
        if verdict.action == "replace":
            verdict_of_new = judgments.get(replacement.id, {}).get("right") if replacement else None
            if verdict_of_new is None:
                replaced += 1
            else:
                after += bool(verdict_of_new)
                replaced_judged += 1
        elif (verdict.action == "drop") != bool(right):
            after += 1
        if verdict.action == "drop":
            dropped["right" if right else "wrong"] += 1
    return (f"judged sample: rules {before} of {len(picked) - unjudged} right; after the check {after} right, "
            f"{replaced} replaced (not judged), {replaced_judged} replaced and judged; dropped {dropped['wrong']} "
            f"judged wrong and {dropped['right']} judged right")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="qwen-coder-1.5b")
    parser.add_argument("--conversations", type=int, default=None)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--judged", action="store_true", help="also the judged sample of ./run bench reading")
    parser.add_argument("--no-clauses", action="store_true", help="ask about the rules' records only")
    parser.add_argument("--notes", action="store_true", help="ask about the records without a value too")
    parser.add_argument("--replay", help="a --verbose run's output: its model answers decided anew, not asked again")
    parser.add_argument("--separate", action="store_true",
                        help="each question in a prompt of its own, as the pass asked before reading/onepass.py "
                             "(the product's way is checkpass.ONEPASS: one running sequence a passage)")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--gold-set", type=Path, default=SET2,
                        help="a set of the second set's shape to read instead (bench/reading_set6.json)")
    args = parser.parse_args(argv)
    from twinfs.reading.checkpass import ONEPASS

    args.onepass = ONEPASS and not args.separate
    print(f"  at the start: {machine()}; {'one sequence a passage' if args.onepass else 'a prompt a question'}")
    conversations = load_set(args.gold_set)[: args.conversations]
    rules, _, _ = read_set(make_reader(), conversations)
    replayed = Replayed(args.replay) if args.replay else None
    from twinfs.reading.onepass import CONTEXT

    checker = replayed or Checker(load(str(model_path(args.model)), n_threads=args.threads,
                                       n_ctx=CONTEXT if args.onepass else 1024), name=args.model)
    if replayed:
        conversations = [c for c in conversations if c.id in replayed.done]
        print(f"  replaying the answers of {args.replay} for {len(conversations)} conversations")
    checked: dict[str, list] = {}
    per_turn: dict[str, float] = {}
    changes: Counter = Counter()
    for conv in conversations:
        thread = f"bench/{conv.id}"
        if replayed:
            replayed.thread = thread
        checked[conv.id] = check_records(checker, thread, rules.get(conv.id, []), conv.turns, changes, per_turn,
                                         args.verbose, clauses=not args.no_clauses, notes=args.notes,
                                         onepass=args.onepass)
        done = conversations[: len(checked)]
        so_far = {k: score_set({c.id: v[c.id] for c in done}, done) for k, v in (("rules", rules), ("model", checked))}
        print(f"  after {conv.id}: " + "; ".join(f"{k} found {v.found}/{v.total}, set wrongly {len(v.wrong)}"
                                                 for k, v in so_far.items()), flush=True)
    print_scores({"rules": score_set(rules, conversations), "rules + model": score_set(checked, conversations)},
                 args.verbose, args.gold_set)
    print(f"  the model's verdicts: {dict(sorted(changes.items()))}")
    times = sorted(per_turn.values())
    if times and not replayed:
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        print(f"  model pass ({args.model}, {args.threads} threads): {len(times)} user turns asked about, "
              f"{checker.questions} questions; {statistics.median(times):.2f} s a turn median, {p95:.2f} s p95, "
              f"{sum(times):.0f} s in all; "
              f"prefix {checker.prefix_tokens} tokens, {checker.evaluated} prompt tokens evaluated in all")
    if args.judged and not replayed:
        print(f"  {judged(checker, args.verbose, args.notes)}")
    print(f"  at the end: {machine()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
