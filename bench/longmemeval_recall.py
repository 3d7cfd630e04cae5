"""Evidence recall of search on LongMemEval's dev set (long user-assistant histories), beside the words lane alone.

./run bench longmemeval_recall [--limit N] [--sample N] [--keys] [--late W,...] [--keys-weight W,...] [--fresh]
                                [--follow W,...] [--brief] [--home DIR] [--landing N] [--latency]

Each question's history is its own end user: one conversation a session, roles as given, no names, each turn
at the session's date + 30 s a turn (LongMemEval dates sessions, not turns; blank turns are left out, as the
product refuses them), and the question is asked `fast`, before the end of its own day (asked_at). Measured at
k = 1, 3, 5, 10 hits: evidence-session recall_any / recall_all (some / every answer session holds a hit) and
evidence-turn recall (the share of `has_answer` turns in the hits' `turns`). Split, fixed: within each question
type, the questions sorted by id, the first half tunes and the second reports.
With --keys the histories are read by the rules (no model), their records become their passages' keys
(passage_keys.py), and `fast` is asked with the keys and without them (search.KEYS), beside BM25 over the text alone.
--sample N asks N questions a half (a fixed rule, `sample`: the types in turn, each type's questions by id), and
its home holds only their histories: reading 60 histories of ~490 turns takes hours on 2 cores. --late, --follow and
--keys-weight add a `fast` column for each value, as in locomo_recall.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench import homes
from bench.locomo_recall import asked_as, shares, variants
from twinfs import EndUser, Memory, Settings
from twinfs import search as ranking
from twinfs.index import Bounds
from twinfs.models import AddRequest, SearchRequest
from twinfs.search import meaning_lane

DEV = Path(__file__).resolve().parents[2] / "shared" / "bench" / "longmemeval" / "dev.json"
KS = (1, 3, 5, 10)
HALVES = ("tune", "report")


def load(path: Path = DEV) -> list[dict]:
    if not path.exists():
        print(f"LongMemEval dev set not found at {path}: nothing to measure (it is not part of a user's clone).")
        sys.exit(0)
    return json.loads(path.read_text())


def half_of(questions: list[dict]) -> dict[str, str]:
    """question id -> tune | report: within each type, sorted by id, the first half tunes."""
    out: dict[str, str] = {}
    for kind in sorted({q["question_type"] for q in questions}):
        ids = sorted(q["question_id"] for q in questions if q["question_type"] == kind)
        for i, qid in enumerate(ids):
            out[qid] = HALVES[0] if i < len(ids) // 2 else HALVES[1]
    return out


def sample(questions: list[dict], halves: dict[str, str], n: int) -> list[dict]:
    """N questions of each half: the types in turn (sorted), each type's questions by id, until N are taken; the
    same rule with and without keys, so the columns ask the same questions."""
    out = []
    for half in HALVES:
        by_type: dict[str, list[dict]] = {}
        for q in sorted(questions, key=lambda q: (q["question_type"], q["question_id"])):
            if halves[q["question_id"]] == half:
                by_type.setdefault(q["question_type"], []).append(q)
        taken: list[dict] = []
        depth = 0
        while len(taken) < n and any(depth < len(qs) for qs in by_type.values()):
            taken += [qs[depth] for _, qs in sorted(by_type.items()) if depth < len(qs)][:n - len(taken)]
            depth += 1
        out += taken
    return out


def when(text: str) -> datetime:
    """LongMemEval's '2023/05/20 (Sat) 02:21' as UTC."""
    return datetime.strptime(text, "%Y/%m/%d (%a) %H:%M").replace(tzinfo=UTC)


def asked_at(q: dict) -> datetime:
    """The last second of the question's day: LongMemEval dates a question by its day, and 3 of the 60 have an
    answer session later that same day (6613b389 at 13:04 has its anniversary session at 19:55), which a
    `before` of the question's minute would hide. The day stays the same, so "last week" reads alike."""
    return when(q["question_date"]).replace(hour=23, minute=59, second=59)


def user_of(q: dict) -> EndUser:
    return EndUser(org="bench", project="longmemeval", account=q["question_id"])


def items(q: dict) -> list[list[dict]]:
    """One add a session: its turns as messages of one conversation, ids `<session id>:<turn number>`."""
    out = []
    for sid, day, turns in zip(q["haystack_session_ids"], q["haystack_dates"], q["haystack_sessions"], strict=False):
        at = when(day)
        session = [{"id": f"{sid}:{i}", "kind": "message", "conversation": sid, "role": t["role"],
                    "text": t["content"], "at": (at + timedelta(seconds=30 * i)).isoformat()}
                   for i, t in enumerate(turns) if t["content"].strip()]
        if session:
            out.append(session)
    return out


def evidence_turns(q: dict) -> set[str]:
    return {f"{sid}:{i}" for sid, turns in zip(q["haystack_session_ids"], q["haystack_sessions"], strict=False)
            for i, t in enumerate(turns) if t.get("has_answer")}


def measures(ranked_turns: list[list[str]], sessions: set[str], turns: set[str]) -> dict[str, float]:
    """any@k, all@k (evidence sessions) and turn@k for one question's ranked hits."""
    out = {}
    for k in KS:
        seen = {t for hit in ranked_turns[:k] for t in hit}
        found = {t.rsplit(":", 1)[0] for t in seen} & sessions
        out[f"any@{k}"] = float(bool(found))
        out[f"all@{k}"] = float(found == sessions)
        out[f"turn@{k}"] = len(seen & turns) / len(turns) if turns else float("nan")
    return out


def build(memory: Memory, questions: list[dict], embedder: homes.KeptEmbedder | homes.CountingEmbedder) -> dict:
    """Add every history (all its sessions, then wait until they land); add -> landed per history."""
    landed = {}
    for n, q in enumerate(questions, 1):
        user = user_of(q)
        before = embedder.embedded
        sessions = items(q)
        t0, cpu0 = time.perf_counter(), time.process_time()
        events = [memory.add(user, AddRequest(items=s)).event for s in sessions]
        if not memory.wait(user, events, timeout=3600):
            raise SystemExit(f"{q['question_id']}: not landed within an hour")
        seconds = time.perf_counter() - t0
        landed[q["question_id"]] = {"seconds": seconds, "cpu": time.process_time() - cpu0,
                                    "turns": sum(map(len, sessions)),
                                    "chars": sum(len(t["text"]) for s in sessions for t in s),
                                    "embedded": embedder.embedded - before}
        print(f"  landed {n}/{len(questions)} {q['question_id']}: {landed[q['question_id']]['turns']} turns in "
              f"{seconds:.1f} s ({landed[q['question_id']]['embedded']} segments embedded)", file=sys.stderr)
    return landed


def run(limit: int | None = None, fresh: bool = False, brief: bool = False, folder: Path | None = None,
        keys: bool = False, per_half: int | None = None, late: tuple[float, ...] = (),
        key_weights: tuple[float, ...] = (), follows: tuple[float, ...] = ()) -> dict:
    """Build (or reuse) the home, ask every question; the rows by ranking and half, and the timings. `folder`: a
    home built before, used as it is (opened by this code, so an index of an older format is brought up to it).
    `keys`: the histories read by the rules and ranked with their records as keys, and without; `per_half`: the
    questions of `sample`, and a home of their histories alone."""
    questions = load()
    halves = half_of(questions)
    questions = sorted(questions,
                       key=lambda q: (HALVES.index(halves[q["question_id"]]), q["question_type"], q["question_id"]))
    if limit:
        questions = [q for q in questions if halves[q["question_id"]] == "tune"][:limit]
    if per_half:
        questions = sample(questions, halves, per_half)
    if keys:  # the rules read; the model pass (hours here) is not run beside the questions
        os.environ.setdefault("TWIN_READER_MODEL", "none")
    how = f"limit={limit}" + (f" sample={per_half}" if per_half else "") + (" keys" if keys else "")
    home = homes.Home("longmemeval", homes.home_key(DEV, how, homes.SHAPING + (homes.READING if keys else ())),
                      fresh=fresh, folder=folder)
    embedder = homes.KeptEmbedder(homes.cache_root() / "longmemeval" / "vectors.sqlite")
    settings = Settings(home=home.folder / "home", reading=keys, quiet_seconds=0, fold_seconds=0)
    rows: dict[tuple[str, str, str], list[dict[str, float]]] = {}  # (ranking, half, type) -> per question
    briefs: dict[tuple[str, str], list[dict]] = {}  # (half, answerable | foreign) -> per question
    latencies: list[float] = []
    column_ms: dict[str, list[float]] = {}  # an extra column's searches (variants)
    with Memory(settings, embedder=embedder) as memory:
        memory.warm()
        facts = home.facts()
        if not home.built:
            print(f"building {home.folder} ({len(questions)} histories)", file=sys.stderr)
            landed = build(memory, questions, embedder)
            t0 = time.perf_counter()
            if keys:
                memory.idle(timeout=4 * 3600)
            facts = {"landed": landed, "built": datetime.now().isoformat(timespec="minutes"),
                     "read_seconds": time.perf_counter() - t0}
            home.finish(facts)
        for q in questions:
            user = user_of(q)
            half, kind = halves[q["question_id"]], q["question_type"]
            sessions, turns = set(q["answer_session_ids"]), evidence_turns(q)
            asked = asked_at(q)
            if keys:  # a home read before passages had keys: its records become keys now (unchanged ones: none)
                memory.reindex(user)
            turns_of = homes.passage_turns(memory.space(user))
            request = SearchRequest(query=q["question"], fast=True, before=asked.isoformat())
            if keys:  # asked twice, with the keys and without: the question's vector made before either
                memory.search(user, request, limit=10)
            t0 = time.perf_counter()
            result = memory.search(user, request, limit=10)
            latencies.append((time.perf_counter() - t0) * 1000)
            space = memory.space(user)
            bounds = Bounds(type="passage", before=asked)
            ranked = {"twinfs fast" + (", with keys" if keys else ""): [h.turns for h in result.hits]}
            if keys:
                ranking.KEYS = False
                try:
                    ranked["twinfs fast, without keys"] = [h.turns for h in memory.search(user, request, limit=10).hits]
                finally:
                    ranking.KEYS = True
                ranked["words lane with keys"] = [turns_of.get(d, []) for d, _, _ in
                                                  space.words.search(q["question"], bounds, 10)]
            ranked |= {"words lane alone (BM25)": [turns_of.get(d, []) for d, _, _ in
                                                   space.words.search(q["question"], bounds, 10, keys=False)],
                      "meaning lane alone": [turns_of.get(d, []) for d, _, _ in
                                             meaning_lane(space, q["question"], bounds, 10)]}
            for name, setting, value in variants(late, key_weights, follows):
                t0 = time.perf_counter()
                other = asked_as(setting, value, lambda user=user, request=request: memory.search(
                    user, request, limit=10))
                column_ms.setdefault(name, []).append((time.perf_counter() - t0) * 1000)
                ranked[name] = [h.turns for h in other.hits]
            for name, hits in ranked.items():
                rows.setdefault((name, half, kind), []).append(measures(hits, sessions, turns))
            if brief:  # nothing is read here: the brief of passages alone, and the same judge of held
                mine = [x for x in questions if halves[x["question_id"]] == half]
                other = mine[(mine.index(q) + 1) % len(mine)]  # the next question of the same half, a foreign one
                for what, asked_q in (("answerable", q), ("foreign", other)):
                    found = memory.search(user, SearchRequest(query=asked_q["question"], before=asked.isoformat()))
                    shown = {t for h in found.hits for t in h.turns}
                    briefs.setdefault((half, what), []).append({
                        "held": bool(found.held), "passages": len(found.hits),
                        "recall": len(shown & turns) / len(turns) if what == "answerable" else None})
    return {"rows": rows, "briefs": briefs, "latencies": latencies, "column_ms": column_ms,
            "read_seconds": facts.get("read_seconds"), "landed": facts["landed"], "home": str(home.folder),
            "questions": len(questions), "embedded now": embedder.embedded, "note": facts.get("note", "")}


def landing(n: int) -> dict:
    """Land the first n histories of the tuning half in a new home with the product's embedder (nothing kept):
    what landing really costs a turn, embedding included."""
    questions = load()
    halves = half_of(questions)
    questions = sorted((q for q in questions if halves[q["question_id"]] == HALVES[0]),
                       key=lambda q: (q["question_type"], q["question_id"]))
    chosen = [questions[i * len(questions) // n] for i in range(n)]  # spread over the types
    embedder = homes.CountingEmbedder()
    with tempfile.TemporaryDirectory() as tmp, \
            Memory(Settings(home=Path(tmp), reading=False, quiet_seconds=0, fold_seconds=0),
                   embedder=embedder) as memory:
        memory.warm()
        return build(memory, chosen, embedder)


def latency(folder: Path | None = None) -> list[float]:
    """Only `fast` search times over the built home: every question once to warm, then once timed."""
    questions = load()
    home = homes.Home("longmemeval", homes.home_key(DEV, "limit=None"), folder=folder)
    if not home.built:
        raise SystemExit(f"no built home at {home.folder}: run the bench once first")
    embedder = homes.KeptEmbedder(homes.cache_root() / "longmemeval" / "vectors.sqlite")
    out = []
    with Memory(Settings(home=home.folder / "home", reading=False, quiet_seconds=0, fold_seconds=0),
                embedder=embedder) as memory:
        memory.warm()
        for timed in (False, True):
            for q in questions:
                req = SearchRequest(query=q["question"], fast=True, before=asked_at(q).isoformat())
                t0 = time.perf_counter()
                memory.search(user_of(q), req, limit=10)
                if timed:
                    out.append((time.perf_counter() - t0) * 1000)
    return out


def landing_line(landed: dict) -> str:
    rows = landed.values()
    turns = sum(v["turns"] for v in rows)
    return (f"landing {len(rows)} histories ({turns} turns, {sum(v['chars'] for v in rows):,} characters) in a new "
            f"home, every segment embedded: {sum(v['seconds'] for v in rows) / turns * 1000:.1f} ms a turn "
            f"({sum(v['cpu'] for v in rows) / turns * 1000:.1f} ms of CPU, all threads, which other load moves less), "
            f"{sum(v['embedded'] for v in rows) / turns:.2f} segments a turn")


def table(result: dict) -> str:
    rows = result["rows"]
    names = list(dict.fromkeys(name for name, _, _ in rows))
    cols = [f"{m}@{k}" for m in ("any", "all", "turn") for k in KS]
    lines = ["| ranking | half | " + " | ".join(cols) + " |", "| --- | --- | " + " | ".join("---" for _ in cols) + " |"]
    for name in names:
        for half in HALVES:
            per = [r for (n, h, _), rs in rows.items() if n == name and h == half for r in rs]
            if per:
                lines.append(f"| {name} | {half} ({len(per)}) | " +
                             " | ".join(f"{homes.mean([r[c] for r in per]):.3f}" for c in cols) + " |")
    kinds = sorted({kind for _, _, kind in rows})
    lines += ["", "all@5 / turn@5 by question type, both halves:", "",
              "| ranking | " + " | ".join(kinds) + " |", "| --- | " + " | ".join("---" for _ in kinds) + " |"]
    for name in names:
        cells = []
        for kind in kinds:
            per = [r for (n, _, t), rs in rows.items() if n == name and t == kind for r in rs]
            cells.append(f"{homes.mean([r['all@5'] for r in per]):.2f} / {homes.mean([r['turn@5'] for r in per]):.2f}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    landed = result["landed"].values()
    if landed:
        per_turn = [v["seconds"] / v["turns"] * 1000 for v in landed]
        lines += ["", f"add -> landed per history (~{sum(v['turns'] for v in landed) // len(landed)} turns, "
                  f"{sum(v['chars'] for v in landed) // len(landed):,} characters): "
                  f"p50 {homes.percentile([v['seconds'] for v in landed], 50):.1f} s, "
                  f"p95 {homes.percentile([v['seconds'] for v in landed], 95):.1f} s; per turn p50 "
                  f"{homes.percentile(per_turn, 50):.1f} ms ({sum(v['embedded'] for v in landed)} segments embedded "
                  f"while landing; the rest were kept from earlier homes)"]
    else:
        lines += ["", f"this home was not landed by this run's code ({result['note']})"]
    lines += [f"search fast (library call, 10 hits, {result['questions']} questions): "
              f"p50 {homes.percentile(result['latencies'], 50):.1f} ms, "
              f"p95 {homes.percentile(result['latencies'], 95):.1f} ms"]
    lines += [f"  {name}: p50 {homes.percentile(ms, 50):.1f} ms, p95 {homes.percentile(ms, 95):.1f} ms"
              for name, ms in result.get("column_ms", {}).items()]
    if result.get("read_seconds"):
        lines.append(f"read by the rules after landing: {result['read_seconds']:.0f} s more")
    lines.append(f"home: {result['home']}")
    if result["briefs"]:
        lines += ["", "brief (nothing read: passages and the judge; foreign = the next question of the same half):", "",
                  "| half | asked | questions | held true | evidence-turn recall | passages, median |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for (half, what), got in sorted(result["briefs"].items()):
            recall = [r["recall"] for r in got if r["recall"] is not None]
            lines.append(f"| {half} | {what} | {len(got)} | {homes.mean([r['held'] for r in got]):.2f} | "
                         f"{f'{homes.mean(recall):.3f}' if recall else '—'} | "
                         f"{statistics.median(r['passages'] for r in got):.0f} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=None, help="only the first N questions of the tuning half")
    ap.add_argument("--sample", type=int, default=None, metavar="N",
                    help="only N questions a half (the types in turn), in a home of their histories alone")
    ap.add_argument("--keys", action="store_true",
                    help="read the histories (rules) and rank with their records as keys, and without")
    ap.add_argument("--late", type=shares, default=(), metavar="W,...",
                    help="also `fast` with each share of a passage's second-best turn (search.LATE)")
    ap.add_argument("--keys-weight", type=shares, default=(), metavar="W,...",
                    help="also `fast` with each weight of the keys' BM25 (keyfield.KEYS_WEIGHT); with --keys")
    ap.add_argument("--follow", type=shares, default=(), metavar="W,...",
                    help="also `fast` with each share for the first hit's next passage (continuation.FOLLOW; 0: off)")
    ap.add_argument("--fresh", action="store_true", help="build the home again even when one is kept")
    ap.add_argument("--brief", action="store_true", help="also the brief: held, and how many passages come back")
    ap.add_argument("--home", type=Path, default=None, help="a home built before (its folder under the cache)")
    ap.add_argument("--landing", type=int, default=None, metavar="N",
                    help="only measure landing: N histories of the tuning half into a new home, all embedded")
    ap.add_argument("--latency", action="store_true", help="only time `fast` searches over the built home")
    args = ap.parse_args()
    if args.latency:
        got = latency(args.home)
        print(f"search fast (library call, 10 hits, {len(got)} questions, warm): "
              f"p50 {homes.percentile(got, 50):.1f} ms, p95 {homes.percentile(got, 95):.1f} ms")
        print("command: ./run bench longmemeval_recall --latency")
        return
    if args.landing:
        print(landing_line(landing(args.landing)))
        print(f"command: ./run bench longmemeval_recall --landing {args.landing}")
        return
    result = run(args.limit, args.fresh, args.brief, args.home, args.keys, args.sample, args.late, args.keys_weight,
                 args.follow)
    print(f"LongMemEval dev: {result['questions']} questions, fast, before the end of each question's day")
    print(table(result))
    print("command: ./run bench longmemeval_recall" + (f" --limit {args.limit}" if args.limit else "")
          + (f" --sample {args.sample}" if args.sample else "") + (" --keys" if args.keys else "")
          + (f" --late {','.join(f'{w:g}' for w in args.late)}" if args.late else "")
          + (f" --keys-weight {','.join(f'{w:g}' for w in args.keys_weight)}" if args.keys_weight else "")
          + (f" --follow {','.join(f'{w:g}' for w in args.follow)}" if args.follow else "")
          + (" --brief" if args.brief else ""))


if __name__ == "__main__":
    main()
