"""The model's keys (twinfs/reading/keys.py) on LoCoMo dev: `fast` recall with them beside the records as keys, no
keys and BM25, on the same questions of a fixed sample of whole conversations.

    ./run bench model_keys [--conversations conv-42,conv-26] [--model qwen-coder-1.5b] [--threads 2]
                           [--write-only] [--measure-only]

Sample, fixed: the first conversation of each half of LoCoMo dev (conv-26 tune, conv-42 report; bench/locomo_recall's
split), the report half's first. Every passage of a sampled conversation gets its keys before it is measured, so
each question ranks passages that all had the same chance.

1. **Write** (hours on 2 cores): the conversations are landed in a home of their own (reading off; the passages are
   cut as the product cuts them), and the model is asked for each passage's keys by what the background pass calls
   (KeyWriter.keys through Checker.complete), one passage at a time. Each answer is appended to a cache,
   ~/.cache/twinfs/bench/model_keys/<version>/<conversation>.jsonl (one JSON line a passage, flushed and synced:
   a kill loses at most the passage being asked), keyed by the passage's text as the model reads it; <version> is
   a hash of the model file and of everything that shapes the answer (prefix, schema, bounds, tokens). A run
   that finds a passage in the cache does not ask again.
2. **Measure** (minutes), for the conversations whose every passage has keys: in a copy of the landed home, the
   keys files are written beside the passages and indexed (passage_keys.py) -> `fast` with the model's keys alone;
   in a copy of a home read by the rules (TWIN_READER_MODEL=none) -> `fast` with the records as keys, then with
   the model's keys added; `fast` without any keys (search.KEYS off) and the words lane alone (BM25) on the same
   questions. R@k overall and R@5 by category, the model's seconds a passage, and every question the model's keys
   did not lift to R@5 = 1 with the keys its evidence passages were given (--misses FILE).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from bench import homes, locomo
from bench.locomo_recall import HALVES, KS, answerable, half, recall
from bench.reading import machine
from twinfs import EndUser, Memory, Settings, passage_keys
from twinfs import search as ranking
from twinfs.index import Bounds
from twinfs.models import AddRequest, SearchRequest
from twinfs.passage_keys import PassageKeys, index_keys, write_keys
from twinfs.reading import keys as model_keys
from twinfs.reading.keycheck import check_keys

SAMPLE = ("conv-42", "conv-26")  # the first conversation of each half (report, then tune)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def version(model: Path) -> str:
    """What the cached answers depend on: the model file and everything that shapes the prompt and the answer."""
    shaping = {"model": model.name, "bytes": model.stat().st_size, "prefix": model_keys.PREFIX,
               "suffix": model_keys.SUFFIX, "schema": model_keys.SCHEMA, "chars": model_keys.CHARS,
               "passage_chars": model_keys.PASSAGE_CHARS, "max_tokens": model_keys.MAX_TOKENS}
    return hashlib.sha256(json.dumps(shaping, sort_keys=True).encode()).hexdigest()[:16]


def body_hash(passage_text: str) -> str:
    return hashlib.sha256(model_keys.body_of(passage_text).encode()).hexdigest()[:16]


class KeyCache:
    """One conversation's answers, one JSON line a passage, appended and synced as each is made."""

    def __init__(self, folder: Path, conversation: str):
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / f"{conversation}.jsonl"
        self.rows: dict[str, dict] = {}
        if self.path.exists():
            for line in self.path.read_text().splitlines():
                try:
                    row = json.loads(line)
                    self.rows[row["body"]] = row
                except (ValueError, KeyError, TypeError):
                    continue  # a line cut short by a kill: asked again

    def __contains__(self, body: str) -> bool:
        return body in self.rows

    def keys(self, body: str) -> PassageKeys | None:
        row = self.rows.get(body)
        return PassageKeys(tuple(row["questions"]), tuple(row["about"])) if row and row["parsed"] else None

    def add(self, row: dict) -> None:
        with self.path.open("a") as f:
            f.write(json.dumps(row) + "\n")
            f.flush()
            os.fsync(f.fileno())
        self.rows[row["body"]] = row


def trimmed(sample: dict, sessions: int | None) -> dict:
    """The conversation's first `sessions` sessions and the questions whose evidence is all in them (None: all)."""
    if sessions is None:
        return sample
    conversation = {k: v for k, v in sample["conversation"].items()
                    if not (m := re.match(r"session_(\d+)", k)) or int(m.group(1)) <= sessions}
    asked = [qa for qa in sample["qa"] if all(session_of(t) <= sessions for t in locomo.evidence(qa))]
    return {**sample, "conversation": conversation, "qa": asked}


def session_of(turn: str) -> int:
    """'D12:3' -> 12 (a turn id LoCoMo mistyped counts as past every session)."""
    m = re.match(r"D(\d+):", turn)
    return int(m.group(1)) if m else 10**6


def user_of(sample_id: str) -> EndUser:
    return EndUser(org="bench", project="locomo", account=sample_id)


def build(samples: list[dict], read: bool) -> homes.Home:
    """The sampled conversations landed (and with `read`, read by the rules) in a home kept under the cache."""
    if read:
        os.environ["TWIN_READER_MODEL"] = "none"
    how = "model_keys " + ",".join(f"{s['sample_id']}:{len(locomo.sessions(s))}" for s in samples) + (
        " read" if read else " landed")
    home = homes.Home("model_keys", homes.home_key(locomo.DEV, how, homes.SHAPING + (homes.READING if read else ())))
    if home.built:
        return home
    embedder = homes.KeptEmbedder(homes.cache_root() / "locomo" / "vectors.sqlite")
    started = time.perf_counter()
    with Memory(Settings(home=home.folder / "home", reading=read, quiet_seconds=0, fold_seconds=0),
                embedder=embedder) as memory:
        memory.warm()
        for sample in samples:
            for session in locomo.items(sample):
                res = memory.add(user_of(sample["sample_id"]), AddRequest(items=session))
                memory.wait(user_of(sample["sample_id"]), [res.event], timeout=300)
        if read:
            memory.idle(timeout=3600)
    home.finish({"seconds": time.perf_counter() - started, "read": read})
    return home


def passages(home: homes.Home, sample_id: str) -> dict[str, str]:
    """A conversation's passages in a built home: path in the vault -> text."""
    root = home.folder / "home" / "users" / user_of(sample_id).dirname
    return {f.relative_to(root).as_posix(): f.read_text() for f in sorted(root.glob("passages/**/p_*.md"))}


def write(samples: list[dict], model: str, threads: int, cache_dir: Path) -> None:
    """Ask the model for every passage of the sample that the cache does not hold yet, one line each."""
    from twinfs.passages import parse
    from twinfs.reading.checking import Checker, load
    from twinfs.reading.shipped import model_path

    landed = build(samples, read=False)
    todo = []
    for sample in samples:
        cache = KeyCache(cache_dir, sample["sample_id"])
        found = passages(landed, sample["sample_id"])
        left = sorted(((p, t) for p, t in found.items() if body_hash(t) not in cache),
                      key=lambda pt: (session_of(parse(pt[1]).turns[0]), pt[0]))  # a session's passages together
        print(f"  {sample['sample_id']}: {len(found)} passages, {len(found) - len(left)} in the cache", flush=True)
        todo += [(cache, sample["sample_id"], p, t) for p, t in left]
    if not todo:
        return
    writer = model_keys.KeyWriter(Checker(load(str(model_path(model)), n_threads=threads), name=model))
    for n, (cache, sample_id, path, text) in enumerate(todo, 1):
        started = time.perf_counter()
        keys = writer.answer(text)  # as the model wrote them: code's check (keycheck.py) is applied when measured
        seconds = time.perf_counter() - started
        cache.add({"body": body_hash(text), "passage": path, "parsed": keys is not None,
                   "questions": list(keys.questions) if keys else [], "about": list(keys.about) if keys else [],
                   "seconds": round(seconds, 2), "load": round(os.getloadavg()[0], 1),
                   "at": datetime.now(UTC).isoformat(timespec="seconds")})
        print(f"  [{n}/{len(todo)}] {sample_id} {path.rsplit('/', 2)[-2][-6:]}/{path.rsplit('/', 1)[-1]} "
              f"{seconds:.1f} s: {keys}", flush=True)


PARTS = {  # how the model's keys are kept in a column: checked by code (keycheck.py) or as written; which part
    "checked": lambda keys, text: check_keys(keys, text),
    "unchecked": lambda keys, text: keys,
    "questions": lambda keys, text: PassageKeys(check_keys(keys, text).questions, ()),
    "about": lambda keys, text: PassageKeys((), check_keys(keys, text).about),
}


def keyed(memory: Memory, sample_id: str, cache: KeyCache, part: str = "checked") -> int:
    """The cached keys (PARTS[part] of them) written beside each passage of a conversation and indexed (a passage
    left without keys loses its file); returns how many passages have keys."""
    space = memory.space(user_of(sample_id))
    paths, kept = [], 0
    with space.writer:
        for f in sorted(space.root.glob("passages/**/p_*.md")):
            text = f.read_text()
            keys = cache.keys(body_hash(text))
            rel = f.relative_to(space.root).as_posix()
            write_keys(space, rel, PARTS[part](keys, text) if keys else PassageKeys())
            paths.append(rel)
            kept += bool(keys and PARTS[part](keys, text))
        index_keys(space, paths)
    return kept


def ask(memory: Memory, sample: dict, keys: bool = True) -> list[dict[int, float]]:
    """R@k of `fast` for each answerable question, in order (the question's vector made by an earlier search)."""
    user, out = user_of(sample["sample_id"]), []
    ranking.KEYS = keys
    try:
        for qa, gold in answerable(sample):
            result = memory.search(user, SearchRequest(query=qa["question"], fast=True), limit=10)
            out.append(recall([h.turns for h in result.hits], gold))
    finally:
        ranking.KEYS = True
    return out


def bm25(memory: Memory, sample: dict, keys: bool = False) -> list[dict[int, float]]:
    space = memory.space(user_of(sample["sample_id"]))
    turns_of = homes.passage_turns(space)
    return [recall([turns_of.get(d, []) for d, _, _ in space.words.search(qa["question"], Bounds(type="passage"), 10,
                                                                            keys=keys)], gold)
            for qa, gold in answerable(sample)]


def opened(home: homes.Home, into: Path, read: bool) -> Memory:
    """A copy of a built home, opened (the cached home stays as it was built)."""
    shutil.copytree(home.folder / "home", into)
    embedder = homes.KeptEmbedder(homes.cache_root() / "locomo" / "vectors.sqlite")
    return Memory(Settings(home=into, reading=read, quiet_seconds=0, fold_seconds=0), embedder=embedder)


# the model's checked keys with their questions' place in the meaning lane the other way round from the default
OTHER_LANES = "model keys, questions " + ("words lane only" if passage_keys.QUESTION_SEGMENTS else "as vectors too")
COLUMNS = ("model keys", "model keys unchecked", "model questions only", "model about only", OTHER_LANES,
           "records as keys", "model keys + records", "no keys", "BM25", "BM25 + model keys")


def measure(samples: list[dict], cache_dir: Path, by_id: dict[str, dict]) -> dict:
    """Each column's R@k per question of the conversations whose every passage the cache holds."""
    caches = {s["sample_id"]: KeyCache(cache_dir, s["sample_id"]) for s in samples}
    landed = build(samples, read=False)
    whole = [s for s in samples if all(body_hash(t) in caches[s["sample_id"]]
                                       for t in passages(landed, s["sample_id"]).values())]
    rows: dict[str, dict[str, list[dict[int, float]]]] = {c: {} for c in COLUMNS}  # column -> conversation -> R@k
    if not whole:
        return {"whole": [], "rows": rows, "caches": caches}
    read_home = build(samples, read=True)
    with tempfile.TemporaryDirectory(prefix="model_keys-") as scratch:
        with opened(landed, Path(scratch) / "landed", read=False) as memory:
            memory.warm()
            for s in whole:
                ask(memory, s)  # each question's vector made once, before any column is timed or counted
                rows["no keys"][s["sample_id"]] = ask(memory, s, keys=False)
                rows["BM25"][s["sample_id"]] = bm25(memory, s)
                for column, part in (("model keys unchecked", "unchecked"), ("model questions only", "questions"),
                                     ("model about only", "about"), ("model keys", "checked")):
                    keyed(memory, s["sample_id"], caches[s["sample_id"]], part)
                    rows[column][s["sample_id"]] = ask(memory, s)
                rows["BM25 + model keys"][s["sample_id"]] = bm25(memory, s, keys=True)
                passage_keys.QUESTION_SEGMENTS = not passage_keys.QUESTION_SEGMENTS
                try:
                    keyed(memory, s["sample_id"], caches[s["sample_id"]], "checked")
                    rows[OTHER_LANES][s["sample_id"]] = ask(memory, s)
                finally:
                    passage_keys.QUESTION_SEGMENTS = not passage_keys.QUESTION_SEGMENTS
        with opened(read_home, Path(scratch) / "read", read=True) as memory:
            memory.warm()
            for s in whole:
                ask(memory, s)
                rows["records as keys"][s["sample_id"]] = ask(memory, s)
                keyed(memory, s["sample_id"], caches[s["sample_id"]])
                rows["model keys + records"][s["sample_id"]] = ask(memory, s)
    return {"whole": whole, "rows": rows, "caches": caches, "landed": landed, "read": read_home}


def _mean(values: list[float]) -> str:
    return f"{homes.mean(values):.3f}" if values else "—"


def report(result: dict, args: argparse.Namespace) -> str:
    whole, rows, caches = result["whole"], result["rows"], result["caches"]
    asked = [r for c in caches.values() for r in c.rows.values()]
    lines = [f"model keys: {len(asked)} passages asked; seconds a passage, median: " + ", ".join(
        f"{statistics.median(got):.1f} s at load {name} ({len(got)})" for name, got in (
            ("< 4", [r["seconds"] for r in asked if r.get("load", 0) < 4]),
            (">= 4", [r["seconds"] for r in asked if r.get("load", 0) >= 4])) if got) if asked else
        "model keys: none asked yet"]
    for sid, cache in caches.items():
        parsed = [r for r in cache.rows.values() if r["parsed"]]
        written = sum(len(r["questions"]) for r in parsed)
        lines.append(f"  {sid}: {len(cache.rows)} in the cache, {len(parsed)} with keys, {written} questions, "
                     f"{sum(len(r['about']) for r in parsed)} names")
    if not whole:
        return "\n".join([*lines, "no sampled conversation has keys for all its passages yet: nothing measured"])
    for s in whole:
        written = kept = 0
        for text in passages(result["landed"], s["sample_id"]).values():
            keys = caches[s["sample_id"]].keys(body_hash(text))
            if keys:
                written += len(keys.questions) + len(keys.about)
                checked = check_keys(keys, text)
                kept += len(checked.questions) + len(checked.about)
        lines.append(f"  {s['sample_id']}: code's check kept {kept} of the {written} keys written")
    halves = {s["sample_id"]: half(_index(s)) for s in whole}
    lines += ["", "| ranking | half (questions) | " + " | ".join(f"R@{k}" for k in KS) + " |",
              "| --- | --- |" + " --- |" * len(KS)]
    for column in COLUMNS:
        for h in HALVES:
            got = [r for sid, per in rows[column].items() if halves[sid] == h for r in per]
            if got:
                lines.append(f"| {column} | {h} ({len(got)}) | " + " | ".join(_mean([r[k] for r in got]) for k in KS)
                             + " |")
    lines += ["", "R@5 by category (all sampled questions):", "",
              "| ranking | " + " | ".join(f"{name} ({_count(whole, c)})" for c, name in CATEGORIES.items()) + " |",
              "| --- |" + " --- |" * len(CATEGORIES)]
    for column in COLUMNS:
        by_cat: dict[int, list[float]] = {}
        for s in whole:
            for (qa, _), r in zip(answerable(s), rows[column][s["sample_id"]], strict=True):
                by_cat.setdefault(qa["category"], []).append(r[5])
        lines.append(f"| {column} | " + " | ".join(_mean(by_cat.get(c, [])) for c in CATEGORIES) + " |")
    moved = [(r[5], m[5]) for s in whole for r, m in zip(rows["no keys"][s["sample_id"]],
                                                         rows["model keys"][s["sample_id"]], strict=True)]
    lines.append(f"\nmodel keys against no keys, R@5 a question: {sum(m > r for r, m in moved)} up, "
                 f"{sum(m < r for r, m in moved)} down, {sum(m == r for r, m in moved)} the same")
    if args.misses:
        args.misses.write_text("".join(json.dumps(m) + "\n" for m in misses(result)))
        lines.append(f"the questions under R@5 = 1 with the model's keys, with their evidence's keys: {args.misses}")
    lines += [f"homes: {result['landed'].folder} (landed), {result['read'].folder} (read by the rules); "
              f"keys {next(iter(caches.values())).path.parent}", machine(),
              "command: ./run bench model_keys --conversations " + ",".join(s["sample_id"] for s in whole)
              + (f" --sessions {args.sessions}" if args.sessions else "") + " --measure-only"]
    return "\n".join(lines)


def _index(sample: dict) -> int:
    return [s["sample_id"] for s in locomo.load()].index(sample["sample_id"])


def _count(whole: list[dict], category: int) -> int:
    return sum(qa["category"] == category for s in whole for qa, _ in answerable(s))


def misses(result: dict) -> list[dict]:
    """Each question the model's keys left under R@5 = 1: its evidence turns, the passages holding them and the
    keys the model wrote for those passages, and R@5 of every column."""
    from twinfs.passages import parse

    out = []
    for s in result["whole"]:
        sid, cache = s["sample_id"], result["caches"][s["sample_id"]]
        held = {}
        for path, text in passages(result["landed"], sid).items():
            keys = cache.keys(body_hash(text)) or PassageKeys()
            checked = check_keys(keys, text)
            for turn in parse(text).turns:
                held[turn] = {"passage": path.rsplit("/", 2)[-2][-6:] + "/" + path.rsplit("/", 1)[-1],
                              "questions": list(checked.questions), "about": list(checked.about),
                              "dropped": [k for k in (*keys.questions, *keys.about)
                                          if k not in checked.questions + checked.about]}
        for n, (qa, gold) in enumerate(answerable(s)):
            r5 = {c: result["rows"][c][sid][n][5] for c in COLUMNS}
            if r5["model keys"] < 1:
                out.append({"conversation": sid, "category": CATEGORIES[qa["category"]], "question": qa["question"],
                            "evidence": sorted(gold), "r5": r5,
                            "keys": {t: held.get(t) for t in sorted(gold)}})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", default=",".join(SAMPLE))
    parser.add_argument("--sessions", type=int, default=None,
                        help="only each conversation's first N sessions, and the questions whose evidence is in them")
    parser.add_argument("--model", default="qwen-coder-1.5b")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--write-only", action="store_true", help="ask the model; measure nothing")
    parser.add_argument("--measure-only", action="store_true", help="measure with what the cache holds")
    parser.add_argument("--keys-cache", type=Path, default=None, help="the cache's folder (default: by version)")
    parser.add_argument("--misses", type=Path, default=None, help="write the questions the keys did not lift here")
    args = parser.parse_args(argv)
    from twinfs.reading.shipped import model_path

    wanted = args.conversations.split(",")
    by_id = {s["sample_id"]: s for s in locomo.load()}
    samples = [trimmed(by_id[c], args.sessions) for c in wanted]
    cache_dir = args.keys_cache or homes.cache_root() / "model_keys" / version(model_path(args.model))
    print(f"model keys cache: {cache_dir}", flush=True)
    if not args.measure_only:
        write(samples, args.model, args.threads, cache_dir)
    if not args.write_only:
        print(report(measure(samples, cache_dir, by_id), args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
