"""Reading benchmark on LoCoMo dev: conversation tokens read per second, event recall, record precision.

    ./run bench reading [--backend rules|smollm2|gguf:PATH|url:URL|turns|all] [--limit-conversations N]
                        [--llm-sessions N] [--threshold 0.5] [--sample 200] [--seed 0] [--set2-only]

Every backend measured also reads the second set (bench/reading_set2.json, written for #31 before tuning; scored
by bench/reading_set2.py: gold values found, values set wrongly). `--set2-only`: that set alone (seconds).
`--gold-set PATH`: another set of that shape instead (bench/reading_set6.json, _set8.json, _set9.json, each
written before any tuning).

Each session is one thread (turn i at the session's time + 30 s * i, role "user", name = the speaker), cut by
plan_windows (12 turns + 4 of context) and read by the backend. Measures:
- tokens/s: conversation tokens (the MiniLM tokenizer's word pieces of the turns a window reads, the same count
  for every backend) over the wall time of `reader.read`, models loaded beforehand.
- event recall: an annotated `event_summary` event counts as found when a record of the same speaker
  (subject == speaker) dated within ±3 days of the event (happened, else said) has MiniLM cosine >= threshold.
- precision: a random sample of records; a record counts as right when its cosine to the best event or
  observation of its subject in the same conversation is >= threshold (observations are gpt-3.5 annotations,
  so this judges "says something the annotators also noted", not truth).
`turns` is a reference, not a reader: every turn verbatim ("Caroline: I went …") as an event record of its speaker.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from bench.reading_scores import (
    DAYS,
    TUNING_CONVERSATIONS,
    Judge,
    coverage,
    judged_sample,
    precision,
    recall,
    relative_dates,
)
from bench.reading_set2 import SET2, load_set, print_scores, read_set, score_set
from twinfs.models import Record
from twinfs.passages import Turn
from twinfs.reading import Outcome, Reader, Window, make_reader, plan_windows
from twinfs.reading.records import Draft, finish

HERE = Path(__file__).resolve()
DATA = HERE.parents[2] / "shared/bench/locomo/dev.json"
SAMPLE_SESSIONS = 5  # the sample of windows, like the gold list, comes from sessions 1-5


@dataclass
class Session:
    conversation: str
    number: int
    day: date
    windows: list[Window]
    events: dict[str, list[str]]
    observations: dict[str, list[str]]
    turns: list[Turn] = field(default_factory=list)


@dataclass
class Run:
    name: str
    sessions: list[Session]
    records: dict[str, list[Record]] = field(default_factory=dict)  # conversation -> records
    seconds: float = 0.0
    tokens: int = 0  # conversation tokens read
    backend_tokens: int = 0
    failed: int = 0
    windows: int = 0


def session_time(text: str) -> datetime:
    return datetime.strptime(text, "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def load(limit: int | None) -> list[Session]:
    data = json.loads(DATA.read_text())
    sessions: list[Session] = []
    for sample in data[:limit]:
        conv = sample["conversation"]
        n = 1
        while f"session_{n}" in conv:
            start = session_time(conv[f"session_{n}_date_time"])
            thread = f"{sample['sample_id']}/s{n}"
            turns = [Turn(t["dia_id"], "message", t["text"], start + timedelta(seconds=30 * i), "user", t["speaker"])
                     for i, t in enumerate(conv[f"session_{n}"])]
            sources = {t.id: f"passages/memory/messages/{thread}" for t in turns}
            end = turns[-1].at + timedelta(days=1) if turns else start
            windows = plan_windows(thread, turns, sources, set(), end, 600) if turns else []
            ev = sample["event_summary"].get(f"events_session_{n}", {})
            events = {k: v for k, v in ev.items() if k != "date"}
            obs = sample["observation"].get(f"session_{n}_observation", {})
            observations = {k: [fact for fact, *_ in v] for k, v in obs.items()}
            sessions.append(Session(sample["sample_id"], n, start.date(), windows, events, observations, turns))
            n += 1
    return sessions


class Verbatim:
    """Reference: every turn as it was said, named by its speaker, as an event record of the speaker."""

    name = "turns (verbatim reference)"

    def read(self, window: Window) -> Outcome:
        drafts = [Draft(kind="event", text=f"{t.speaker}: {t.text}"[:200], subject=t.speaker, turns=[t.id])
                  for t in window.reading]
        return Outcome(finish(window, drafts), 0)


def reader_for(backend: str) -> Reader:
    if backend == "rules":
        return make_reader()
    if backend == "turns":
        return Verbatim()
    if backend == "smollm2":
        return make_reader(model="smollm2", n_ctx=4096, max_tokens=512)
    if backend == "qwen":
        return make_reader(model="qwen-coder-1.5b", n_ctx=4096, max_tokens=512, max_records=6, timeout=1800)
    if backend.startswith("gguf:"):
        return make_reader(model=backend[5:], n_ctx=8192, max_tokens=1024)
    if backend.startswith("url:"):
        return make_reader(url=backend[4:])
    raise SystemExit(f"unknown backend {backend!r}: rules, qwen, smollm2, gguf:PATH, url:URL, turns or all")


def warm(reader: Reader, sessions: list[Session]) -> None:
    """Load the reader's models outside the timing: a model's child started, or one turn read once."""
    if hasattr(reader, "child"):
        reader.child.load()
        return
    first = next(s.windows[0] for s in sessions if s.windows)
    turn = first.turns[0]
    reader.read(Window("warm", [turn], [turn.id], {}))


def sample_windows(sessions: list[Session], count: int, seed: int) -> list[Session]:
    """`count` windows of 6 turns (+2 of context) picked at random from sessions 1-5 of every conversation, the
    same for every backend, each as a session of its own window (an hour of 2 cores for the Qwen reader)."""
    pool = []
    for session in sessions:
        if session.number > SAMPLE_SESSIONS or not session.turns:
            continue
        thread = f"{session.conversation}/s{session.number}"
        sources = {t.id: f"passages/memory/messages/{thread}" for t in session.turns}
        for window in plan_windows(thread, session.turns, sources, set(), session.turns[-1].at + timedelta(days=1),
                                   600, size=6, context=2):
            pool.append((session, window))
    order = list(range(len(pool)))
    random.Random(seed).shuffle(order)  # the first k of any count are the same k: a run cut short is a sample too
    picked = order[:count]
    return [Session(pool[i][0].conversation, pool[i][0].number, pool[i][0].day, [pool[i][1]], pool[i][0].events,
                    pool[i][0].observations, pool[i][0].turns) for i in picked]


def read(backend: str, sessions: list[Session], count, progress: bool = False, save_to: Path | None = None) -> Run:
    reader = reader_for(backend)
    warm(reader, sessions)
    run = Run(reader.name, sessions)
    for session in sessions:
        for window in session.windows:
            started = time.perf_counter()
            outcome = reader.read(window)
            run.seconds += time.perf_counter() - started
            run.windows += 1
            run.tokens += sum(count(t.text) for t in window.reading)
            run.backend_tokens += outcome.tokens
            run.failed += outcome.failed is not None
            run.records.setdefault(session.conversation, []).extend(outcome.records)
            if save_to is not None:
                save(run, save_to)  # after every window: a slow run stopped early is still scored
            if progress:
                print(f"  window {run.windows} ({window.thread} #{window.position}): {len(outcome.records)} records "
                      f"in {time.perf_counter() - started:.0f} s{' (failed)' if outcome.failed else ''}")
    return run


def save(run: Run, path: Path) -> None:
    """A run's records and counts, so a slow backend is read once and scored again (`--load`)."""
    body = {"name": run.name, "seconds": run.seconds, "tokens": run.tokens, "backend_tokens": run.backend_tokens,
            "failed": run.failed, "windows": run.windows,
            "records": {c: [r.model_dump() for r in rs] for c, rs in run.records.items()}}
    path.write_text(json.dumps(body, indent=1))


def restore(path: Path, sessions: list[Session]) -> Run:
    body = json.loads(path.read_text())
    run = Run(body["name"], sessions, seconds=body["seconds"], tokens=body["tokens"],
              backend_tokens=body["backend_tokens"], failed=body["failed"], windows=body["windows"])
    run.records = {c: [Record(**r) for r in rs] for c, rs in body["records"].items()}
    return run


def report(run: Run, judge: Judge, args, scope: str, scope_all: bool) -> None:
    """Every figure of one run."""
    n_records = sum(len(r) for r in run.records.values())
    rate = f"{run.tokens / run.seconds:,.0f} conversation tokens/s" if run.seconds else "n/a"
    print(f"\n{run.name}: {scope}")
    print(f"  speed      {rate} ({run.tokens:,} MiniLM tokens in {run.seconds:.1f} s; "
          f"backend counted {run.backend_tokens:,} tokens; {run.failed} windows failed)")
    print(f"  records    {n_records:,} ({n_records / max(1, run.tokens) * 1000:.1f} per 1k conversation tokens)")
    if not args.fast:  # the MiniLM judge's measures take most of the bench's time
        found, total = recall(run, judge, args.threshold)
        strict, _ = recall(run, judge, args.threshold + 0.1)
        right, judged = precision(run, judge, args.threshold, args.sample, args.seed)
        right_strict, _ = precision(run, judge, args.threshold + 0.1, args.sample, args.seed)
        judge.masked = True
        found_masked, _ = recall(run, judge, args.threshold)
        right_masked, _ = precision(run, judge, args.threshold, args.sample, args.seed)
        judge.masked = False
        print(f"  recall     {found / max(1, total):.3f} of {total} events at cosine >= {args.threshold:g}, "
              f"±{DAYS} days ({strict / max(1, total):.3f} at >= {args.threshold + 0.1:g})")
        print(f"  precision  {right / max(1, judged):.3f} of {judged} sampled records match an event or observation "
              f"of their subject at cosine >= {args.threshold:g} ({right_strict / max(1, judged):.3f} at >= "
              f"{args.threshold + 0.1:g})")
        print(f"  names masked (every speaker's name read as 'someone' by the judge): recall "
              f"{found_masked / max(1, total):.3f}, precision {right_masked / max(1, judged):.3f} "
              f"at cosine >= {args.threshold:g}")
    only = None if scope_all else {(s.conversation, t) for s in run.sessions for w in s.windows for t in w.new}
    got, of, missed = coverage(run, only)
    print(f"  attributes {got} of {of} gold values under an attribute of their meaning ({got / max(1, of):.3f})")
    if args.verbose:
        for g in missed:
            print(f"    missed {g['conversation']} {g['turn']} {g['speaker']} · {g['concept']}: {g['value']}")
    good, dated = relative_dates(run, run.sessions)
    print(f"  dates      {good} of {dated} records from a relative phrase dated within its tolerance "
          f"({good / max(1, dated):.3f})")
    filled = sum(1 for rs in run.records.values() for r in rs if r.attribute)
    print(f"  filled     {filled} records with an attribute ({filled / max(1, n_records):.3f} of records)")
    if scope_all and run.name.startswith("rules"):
        picked, judgments = judged_sample(run)
        verdicts = [judgments[r.id]["right"] for r in picked if r.id in judgments]
        print(f"  judged     {sum(verdicts)} of {len(verdicts)} sampled records right "
              f"({len(picked) - len(verdicts)} of the {len(picked)} not judged yet)")
        tuning = list(dict.fromkeys(s.conversation for s in run.sessions))[:TUNING_CONVERSATIONS]
        for half, inside in (("tuning half", True), ("report half", False)):
            kept = [judgments[r.id]["right"] for c, rs in run.records.items() if (c in tuning) == inside
                    for r in rs if r.id in judgments]
            print(f"  every judged record, {half}: {sum(kept)} of {len(kept)} right "
                  f"({sum(kept) / max(1, len(kept)):.3f})")
        if args.verbose:
            for r in picked:
                mark = {True: "right", False: "WRONG"}.get(judgments.get(r.id, {}).get("right"), "unjudged")
                print(f"    {mark:8} {r.id} {r.turns} {r.render()}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", default="all", help="rules, qwen, smollm2, gguf:PATH, url:URL, turns, or all")
    parser.add_argument("--scope", choices=("all", "sample"), default=None,
                        help="all windows of every conversation, or the sample of --windows windows "
                             "(default: all for rules and turns, the sample for a model)")
    parser.add_argument("--limit-conversations", type=int, default=None)
    parser.add_argument("--windows", type=int, default=30, help="windows in the sample every backend reads")
    parser.add_argument("--threshold", type=float, default=0.5)
    parser.add_argument("--sample", type=int, default=400, help="records sampled for precision")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fast", action="store_true", help="skip the MiniLM judge's recall and precision")
    parser.add_argument("--verbose", action="store_true", help="list the gold values missed and the judged sample")
    parser.add_argument("--save", type=Path, help="write the run's records here (one backend)")
    parser.add_argument("--load", type=Path, action="append", default=[],
                        help="score a saved run instead of reading again (repeatable)")
    parser.add_argument("--set2-only", action="store_true", help="read and score the second set only")
    parser.add_argument("--gold-set", type=Path, default=SET2,
                        help="a set of the second set's shape to score instead (bench/reading_set6.json)")
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)
    command = "./run bench reading " + " ".join(sys.argv[1:] if argv is None else argv)
    print(command.strip())
    print(machine())
    if args.set2_only or not DATA.is_file():
        if not args.set2_only:
            print(f"no LoCoMo data at {DATA}: the second set only")
        for backend in (["rules"] if args.backend in ("all", "turns") else [args.backend]):
            second_set(backend, args.verbose, args.gold_set)
        return 0
    sessions = load(args.limit_conversations)
    sample = sample_windows(sessions, args.windows, args.seed)
    names = {name for s in sessions for name in (*s.events, *s.observations)}
    judge = Judge(names)
    runs: list[tuple[str, str]] = []  # (backend, scope)
    if args.backend == "all":
        runs = [("rules", "all"), ("turns", "all"), ("rules", "sample"), ("smollm2", "sample"), ("qwen", "sample")]
    else:
        runs = [(args.backend, args.scope or ("all" if args.backend in ("rules", "turns") else "sample"))]
    loaded = {}
    for path in args.load:
        body = json.loads(path.read_text())
        loaded[body["name"]] = path
    for backend, scope in runs:
        subset = sessions if scope == "all" else sample
        described = (f"{len({s.conversation for s in subset})} conversations, {len(subset)} sessions"
                     if scope == "all" else f"the sample: {len(subset)} windows of 6 turns from sessions 1-5")
        name = next((n for n in loaded if backend in n.lower() or (backend == "qwen" and "qwen" in n.lower())), None)
        if name is not None and scope == "sample":
            run = restore(loaded[name], subset)
            if run.windows < len(subset):
                print(f"\n(the saved {run.name} run read the first {run.windows} windows of the sample)")
        else:
            try:
                run = read(backend, subset, judge.count, progress=scope == "sample" and backend != "rules",
                           save_to=args.save)
            except Exception as e:  # a model that is not installed here: say so, measure the rest
                print(f"\n{backend}: not measured ({e})")
                continue
        if args.save:
            save(run, args.save)
        report(run, judge, args, described, scope == "all")
    for backend in dict.fromkeys(b for b, _ in runs if b != "turns"):
        second_set(backend, args.verbose, args.gold_set)
    return 0


def machine() -> str:
    """The CPU, its cores and the load, as the figures are read."""
    import os

    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), "unknown CPU") if Path("/proc/cpuinfo").is_file() else "unknown CPU"
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"CPU: {cpu}, {os.cpu_count()} cores; load {load}"


def second_set(backend: str, verbose: bool, path: Path = SET2) -> None:
    """The second set (or another of its shape) read by one backend, scored, with its reading speed."""
    try:
        reader = reader_for(backend)
        conversations = load_set(path)
        read_set(reader, conversations)  # the models and date parser loaded outside the timing
        records, seconds, tokens = read_set(reader, conversations)
    except Exception as e:  # a model that is not installed here
        print(f"\nsecond set, {backend}: not measured ({e})")
        return
    print_scores({reader.name: score_set(records, conversations)}, verbose, path)
    print(f"  ({tokens:,} words read in {seconds:.2f} s by {reader.name})")


if __name__ == "__main__":
    sys.exit(main())
