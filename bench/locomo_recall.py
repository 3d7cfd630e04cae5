"""Evidence-turn recall of search on LoCoMo's dev split, beside the words lane alone; with --brief, `held`.

./run bench locomo_recall [--limit-conversations N] [--brief] [--keys] [--home DIR] [--late W,...] [--keys-weight W,...]
                          [--follow W,...] [--misses FILE]

Split, fixed: conversations 0-2 tune, 3-4 report. Every question of categories 1-4 with evidence is asked `fast`
(first k passages). With --brief the conversations are read, and the brief is asked for those questions, for
category 5 (what the conversation says of the *other* speaker: memory holds no answer about the one asked), for
foreign questions (categories 1-4 of another conversation of the same half, asked of this memory) and for the same
foreign questions renamed (its speaker's name put as this conversation's: the right person, a thing never said).
With --keys (or --brief) the conversations are read by the rules, their records become their passages' keys
(passage_keys.py), and `fast` is asked with the keys and without them (search.KEYS), beside BM25 over the text alone.
--late W,... asks `fast` again with each share of a passage's second-best turn (search.LATE), --keys-weight W,...
with each weight of the keys' BM25 (keyfield.KEYS_WEIGHT), --follow W,... with each share of the first hit's score
its next passage is lifted to (continuation.FOLLOW; 0: off): a column each, the same questions, the same run.
--misses FILE writes the tuning half's questions that `fast` (the first column) leaves evidence of out of its first
5 hits, one JSON object a line: the question, its category, answer and evidence turns, the first 10 hits' turns.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import time
from pathlib import Path

from bench import homes, locomo
from twinfs import EndUser, Memory, Settings, continuation
from twinfs import search as ranking
from twinfs.index import Bounds, keyfield
from twinfs.index.embedder import Embedder
from twinfs.ledger import all_records
from twinfs.models import AddRequest, SearchRequest
from twinfs.search import meaning_lane

KS = (1, 3, 5, 10)
TUNE = 3  # conversations 0-2 tune, the rest report
HALVES = ("tune", "report")


def half(n: int) -> str:
    return HALVES[0] if n < TUNE else HALVES[1]


def foreign_of(n: int, count: int) -> int:
    """The conversation whose questions conversation n is asked as foreign ones: the next in its own half."""
    first, last = (0, min(TUNE, count)) if n < TUNE else (TUNE, count)
    return first + (n - first + 1) % (last - first)


def recall(ranked_turns: list[list[str]], gold: set[str]) -> dict[int, float]:
    out = {}
    for k in KS:
        seen = {t for turns in ranked_turns[:k] for t in turns}
        out[k] = len(gold & seen) / len(gold)
    return out


def speakers(sample: dict) -> list[str]:
    return [sample["conversation"]["speaker_a"], sample["conversation"]["speaker_b"]]


def renamed(sample: dict, other: dict) -> list[str]:
    """The other conversation's answerable questions that name one of its speakers, that speaker's name put as
    this conversation's speaker of the same place ("Why did Jon start his dance studio?" asked of Caroline and
    Melanie as "Why did Caroline start his dance studio?"): the right person, a thing their memory never says."""
    mine, theirs = speakers(sample), speakers(other)
    out = []
    for qa, _ in answerable(other):
        named = [k for k, name in enumerate(theirs) if re.search(rf"\b{re.escape(name)}\b", qa["question"])]
        if len(named) == 1:
            out.append(re.sub(rf"\b{re.escape(theirs[named[0]])}\b", mine[named[0]], qa["question"]))
    return out


def answerable(sample: dict) -> list[tuple[dict, set[str]]]:
    return [(qa, locomo.evidence(qa)) for qa in sample["qa"]
            if qa["category"] in (1, 2, 3, 4) and locomo.evidence(qa)]


def index_bytes(space) -> int:
    """What the two lanes take on disk for one end user (.twin/whoosh and .twin/meaning)."""
    twin = space.root / ".twin"
    return sum(f.stat().st_size for top in ("whoosh", "meaning") for f in (twin / top).rglob("*") if f.is_file())


def variants(late: tuple[float, ...], key_weights: tuple[float, ...], follows: tuple[float, ...] = ()
             ) -> list[tuple[str, str, float]]:
    """(column, the setting it changes, its value) for each extra `fast` column asked."""
    return [(f"twinfs fast, late interaction {w:g} x 2nd turn", "LATE", w) for w in late] + \
        [(f"twinfs fast, keys weight {w:g}", "KEYS_WEIGHT", w) for w in key_weights] + \
        [(f"twinfs fast, next passage followed at {w:g}" if w else "twinfs fast, next passage not followed",
          "FOLLOW", w) for w in follows]


def asked_as(setting: str, value: float, ask):
    """`ask()` with search.LATE, keyfield.KEYS_WEIGHT or continuation.FOLLOW set to `value`, then as it was."""
    module = {"LATE": ranking, "KEYS_WEIGHT": keyfield, "FOLLOW": continuation}[setting]
    was = getattr(module, setting)
    setattr(module, setting, value)
    try:
        return ask()
    finally:
        setattr(module, setting, was)


def run(limit: int | None = None, brief: bool = False, fresh: bool = False, folder: Path | None = None,
        embedder: Embedder | None = None, keys: bool = False, late: tuple[float, ...] = (),
        key_weights: tuple[float, ...] = (), follows: tuple[float, ...] = ()) -> dict:
    """Build (or reuse) the home of the conversations (read too with `brief`), ask the questions. `folder`: a home
    built before, used as it is. `embedder`: another meaning lane's (bench/embedder_recall.py), in a home of its own."""
    data = locomo.load()[:limit]
    fast: dict[tuple[str, str], list[dict[int, float]]] = {}  # (ranking, half) -> per question
    misses: list[dict] = []  # the tuning half's questions whose evidence `fast` leaves out of its first 5 hits
    per_cat: dict[tuple[str, int], list[float]] = {}
    briefs: dict[tuple[str, str], list[dict]] = {}  # (half, asked: answerable | category 5 | foreign) -> rows
    latencies: list[float] = []
    plain_ms: list[float] = []  # the same searches without the keys, each right after its twin with them
    column_ms: dict[str, list[float]] = {}  # an extra column's searches (variants)
    column_cat: dict[tuple[str, str, int], list[float]] = {}  # (column, half, category) -> R@5
    brief_ms: list[float] = []
    land_seconds: list[float] = []
    read = brief or keys
    if read:  # the rules read; the model pass (hours here) is not run beside the questions
        os.environ.setdefault("TWIN_READER_MODEL", "none")
    how = f"limit={limit} brief={read}" + (f" embedder={embedder.variant}" if embedder else "")
    home = homes.Home("locomo", homes.home_key(locomo.DEV, how, homes.SHAPING + (homes.READING if read else ())),
                      fresh=fresh, folder=folder)
    growth: list[tuple[int, int]] = []  # (bytes before, after) of each end user's indexes, keys indexed
    embedder = embedder or homes.KeptEmbedder(homes.cache_root() / "locomo" / "vectors.sqlite")
    with Memory(Settings(home=home.folder / "home", reading=read, quiet_seconds=0, fold_seconds=0),
                embedder=embedder) as memory:
        memory.warm()
        if not home.built:
            for sample in data:
                user = EndUser(org="bench", project="locomo", account=sample["sample_id"])
                for session in locomo.items(sample):
                    t0 = time.perf_counter()
                    res = memory.add(user, AddRequest(items=session))
                    memory.wait(user, [res.event], timeout=300)
                    land_seconds.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            if read:
                memory.idle(timeout=3600)
            home.finish({"land_seconds": land_seconds, "read_seconds": time.perf_counter() - t0,
                         "embedded": embedder.embedded})
        facts = home.facts()
        land_seconds, read_seconds, embedded = facts["land_seconds"], facts["read_seconds"], facts["embedded"]
        n_turns = sum(len(s) for sample in data for s in locomo.items(sample))
        for n, sample in enumerate(data):
            user = EndUser(org="bench", project="locomo", account=sample["sample_id"])
            space = memory.space(user)
            if read:  # a home read before passages had keys: its records become keys now (unchanged ones: none)
                was = index_bytes(space)
                memory.reindex(user)
                growth.append((was, index_bytes(space)))
            turns_of = homes.passage_turns(space)
            for qa, gold in answerable(sample):
                q = qa["question"]
                if read:  # asked twice, with the keys and without: the question's vector made before either
                    memory.search(user, SearchRequest(query=q, fast=True), limit=10)
                t0 = time.perf_counter()
                result = memory.search(user, SearchRequest(query=q, fast=True), limit=10)
                latencies.append((time.perf_counter() - t0) * 1000)
                got = recall([h.turns for h in result.hits], gold)
                fast.setdefault(("twinfs fast" + (", with keys" if read else ""), half(n)), []).append(got)
                per_cat.setdefault((half(n), qa["category"]), []).append(got[5])
                if got[5] < 1 and half(n) == HALVES[0]:
                    misses.append({"conversation": sample["sample_id"], "question": q, "category": qa["category"],
                                   "answer": str(qa.get("answer")), "evidence": sorted(gold),
                                   "hits": [h.turns for h in result.hits]})
                bounds = Bounds(type="passage")
                if read:
                    ranking.KEYS = False
                    try:
                        t0 = time.perf_counter()
                        plain = memory.search(user, SearchRequest(query=q, fast=True), limit=10)
                        plain_ms.append((time.perf_counter() - t0) * 1000)
                    finally:
                        ranking.KEYS = True
                    fast.setdefault(("twinfs fast, without keys", half(n)), []).append(
                        recall([h.turns for h in plain.hits], gold))
                    fast.setdefault(("words lane with keys", half(n)), []).append(
                        recall([turns_of.get(d, []) for d, _, _ in space.words.search(q, bounds, 10)], gold))
                fast.setdefault(("words lane alone (BM25)", half(n)), []).append(
                    recall([turns_of.get(d, []) for d, _, _ in space.words.search(q, bounds, 10, keys=False)], gold))
                fast.setdefault(("meaning lane alone", half(n)), []).append(
                    recall([turns_of.get(d, []) for d, _, _ in meaning_lane(space, q, bounds, 10)], gold))
                for name, setting, value in variants(late, key_weights, follows):
                    t0 = time.perf_counter()
                    other = asked_as(setting, value, lambda q=q, user=user: memory.search(
                        user, SearchRequest(query=q, fast=True), limit=10))
                    column_ms.setdefault(name, []).append((time.perf_counter() - t0) * 1000)
                    got = recall([h.turns for h in other.hits], gold)
                    fast.setdefault((name, half(n)), []).append(got)
                    column_cat.setdefault((name, half(n), qa["category"]), []).append(got[5])
            if not brief:
                continue
            record_turns = {r.id: r.turns for r in all_records(space)}
            asked = [("answerable", qa, gold) for qa, gold in answerable(sample)]
            asked += [("category 5", qa, set()) for qa in sample["qa"] if qa["category"] == 5]
            if len(data) > 1:
                asked += [("foreign", qa, set()) for qa, _ in answerable(data[foreign_of(n, len(data))])]
                asked += [("foreign, renamed", {"question": q}, set())
                          for q in renamed(sample, data[foreign_of(n, len(data))])]
            for what, qa, gold in asked:
                t0 = time.perf_counter()
                result = memory.search(user, SearchRequest(query=qa["question"]))
                brief_ms.append((time.perf_counter() - t0) * 1000)
                shown = {t for h in result.hits for t in h.turns}
                shown |= {t for f in result.facts or [] for t in record_turns.get(f.id, [])}
                briefs.setdefault((half(n), what), []).append({
                    "held": bool(result.held), "passages": len(result.hits),
                    "recall": len(gold & shown) / len(gold) if gold else None,
                    "chars": sum(len(h.text) for h in result.hits) + sum(len(f.text) for f in result.facts or [])})
    return {"conversations": len(data), "turns": n_turns, "fast": fast, "per_cat": per_cat, "briefs": briefs,
            "latencies": latencies, "plain_ms": plain_ms, "brief_ms": brief_ms, "land_seconds": land_seconds,
            "column_ms": column_ms, "column_cat": column_cat, "misses": misses,
            "read_seconds": read_seconds,
            "embedded": embedded, "home": str(home.folder), "growth": growth,
            "judge": memory.judge.name, "reader": memory.reading.reader.name if memory.reading else None}


def table(result: dict) -> str:
    lines = ["| ranking | half | " + " | ".join(f"R@{k}" for k in KS) + " |", "| --- | --- |" + " --- |" * len(KS)]
    for (name, h), rows in result["fast"].items():
        lines.append(f"| {name} | {h} ({len(rows)}) | " +
                     " | ".join(f"{homes.mean([r[k] for r in rows]):.3f}" for k in KS) + " |")
    cats = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
    lines += ["", "twinfs fast R@5 by category: " + "; ".join(
        f"{h}: " + ", ".join(f"{cats[c]} {homes.mean(v):.3f}" for (hh, c), v in sorted(result["per_cat"].items())
                             if hh == h) for h in HALVES)]
    for name in dict.fromkeys(n for n, _, _ in result.get("column_cat", {})):
        lines.append(f"{name} R@5 by category: " + "; ".join(
            f"{h}: " + ", ".join(f"{cats[c]} {homes.mean(v):.3f}" for (nn, hh, c), v in
                                 sorted(result["column_cat"].items()) if nn == name and hh == h) for h in HALVES))
    land = result["land_seconds"]
    lines.append(f"add -> landed per session (~{result['turns'] // max(1, len(land))} turns): "
                 f"p50 {homes.percentile(land, 50):.3f} s, p95 {homes.percentile(land, 95):.3f} s; "
                 f"{sum(land) / result['turns'] * 1000:.1f} ms a turn ({result['embedded']} segments embedded while "
                 f"landing, the rest kept from earlier homes); home {result['home']}")
    if result.get("growth"):
        was, now = (sum(g[k] for g in result["growth"]) for k in (0, 1))
        lines.append(f"indexes (.twin/whoosh + .twin/meaning) {was / 2**20:.1f} MB -> {now / 2**20:.1f} MB with the "
                     f"keys ({(now - was) / max(1, was):+.1%}; 0 once a run indexed them)")
    lines.append(f"search fast (library call, 10 hits): p50 {homes.percentile(result['latencies'], 50):.1f} ms, "
                 f"p95 {homes.percentile(result['latencies'], 95):.1f} ms" + (
                     f"; without the keys p50 {homes.percentile(result['plain_ms'], 50):.1f} ms, p95 "
                     f"{homes.percentile(result['plain_ms'], 95):.1f} ms" if result.get("plain_ms") else ""))
    for name, ms in result.get("column_ms", {}).items():
        lines.append(f"  {name}: p50 {homes.percentile(ms, 50):.1f} ms, p95 {homes.percentile(ms, 95):.1f} ms")
    if result["briefs"]:
        lines += ["", f"brief (judge: {result['judge']}; reader {result['reader']}, {result['read_seconds']:.0f} s to "
                  f"read and fold; latency p50 {homes.percentile(result['brief_ms'], 50):.0f} ms, p95 "
                  f"{homes.percentile(result['brief_ms'], 95):.0f} ms):", "",
                  "| half | asked | questions | held true | recall of evidence (hits + facts' turns) | "
                  "passages, median | characters, median |", "| --- | --- | --- | --- | --- | --- | --- |"]
        for (h, what), rows in sorted(result["briefs"].items()):
            got = [r["recall"] for r in rows if r["recall"] is not None]
            lines.append(f"| {h} | {what} | {len(rows)} | {homes.mean([r['held'] for r in rows]):.3f} | "
                         f"{f'{homes.mean(got):.3f}' if got else '—'} | "
                         f"{statistics.median(r['passages'] for r in rows):.0f} | "
                         f"{statistics.median(r['chars'] for r in rows):.0f} |")
    return "\n".join(lines)


def shares(text: str) -> tuple[float, ...]:
    """'0.1,0.2' -> (0.1, 0.2), for --late and --keys-weight."""
    try:
        return tuple(float(w) for w in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of numbers: {text!r}") from None


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit-conversations", type=int, default=None)
    ap.add_argument("--brief", action="store_true",
                    help="also read the conversations (the embedded reader) and measure the filtered brief and held")
    ap.add_argument("--keys", action="store_true",
                    help="read the conversations (rules) and rank with their records as keys, and without")
    ap.add_argument("--fresh", action="store_true", help="build the home again even when one is kept")
    ap.add_argument("--home", type=Path, default=None, help="a home built before (its folder under the cache)")
    ap.add_argument("--late", type=shares, default=(), metavar="W,...",
                    help="also `fast` with each share of a passage's second-best turn (search.LATE)")
    ap.add_argument("--keys-weight", type=shares, default=(), metavar="W,...",
                    help="also `fast` with each weight of the keys' BM25 (keyfield.KEYS_WEIGHT); with --keys")
    ap.add_argument("--misses", type=Path, default=None, metavar="FILE",
                    help="write the tuning half's questions `fast` misses evidence of in its first 5 hits (JSON lines)")
    ap.add_argument("--follow", type=shares, default=(), metavar="W,...",
                    help="also `fast` with each share for the first hit's next passage (continuation.FOLLOW; 0: off)")
    args = ap.parse_args()
    result = run(args.limit_conversations, args.brief, args.fresh, args.home, keys=args.keys, late=args.late,
                 key_weights=args.keys_weight, follows=args.follow)
    print(f"LoCoMo dev: {result['conversations']} conversations, {result['turns']} turns "
          f"(conversations 0-{TUNE - 1} tune, {TUNE}- report)")
    print(table(result))
    if args.misses:
        args.misses.write_text("".join(json.dumps(m) + "\n" for m in result["misses"]))
        print(f"{len(result['misses'])} tuning-half questions missing evidence in the first 5: {args.misses}")
    limit = f" --limit-conversations {args.limit_conversations}" if args.limit_conversations else ""
    print(f"command: ./run bench locomo_recall{limit}" + (" --brief" if args.brief else "")
          + (" --keys" if args.keys else "")
          + (f" --late {','.join(f'{w:g}' for w in args.late)}" if args.late else "")
          + (f" --keys-weight {','.join(f'{w:g}' for w in args.keys_weight)}" if args.keys_weight else "")
          + (f" --follow {','.join(f'{w:g}' for w in args.follow)}" if args.follow else "")
          + (f" --home {args.home}" if args.home else "") + (f" --misses {args.misses}" if args.misses else ""))


if __name__ == "__main__":
    main()
