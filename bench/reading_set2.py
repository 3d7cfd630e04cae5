"""The second, harder reading set (bench/reading_set2.json): read it with a reader, score any records against it.

    from bench.reading_set2 import load_set, read_set, score_set, print_scores
    conversations = load_set()
    records, seconds, tokens = read_set(reader, conversations)  # {conversation id: [Record]}
    print_scores({"rules": score_set(records), "rules + model": score_set(checked)}, verbose=True)

`score_set` takes the records that hold (a dropped or retracted record left out) of any reader or pass, keyed by
the set's conversation id ("s2-01"), and counts:
- gold values found: a record of the gold's subject in that conversation whose attribute means the gold's concept
  and whose value holds one of the gold's `match` words;
- values set wrongly: records of the subject whose value holds a distractor's `match` words (one of three letters or
  fewer as a word of its own: "bus" is not in "business") under an attribute of one of its concepts (a suggestion,
  another's fact, a hypothetical… taken as theirs), or whose value holds a gold value's words under an attribute of
  another meaning (a mislabel: "hobby: new job as a data analyst");
- other values: records with an attribute that match neither (not judged: a value the gold did not list).
Meanings: hobby and likes count as one; diet accepts allergy and health; a relation word ("brother", "son") or
"children" means family; "plan"/"plans" plans.
"""
from __future__ import annotations

import json
import re
import statistics
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from twinfs.folding import concept_of
from twinfs.models import Record
from twinfs.passages import Turn
from twinfs.reading import Reader, Window, plan_windows
from twinfs.reading.ages import SPELLED
from twinfs.reading.lexicon import KIN
from twinfs.reading.withdrawn import withdraw

SET2 = Path(__file__).resolve().parent / "reading_set2.json"
# the concepts an attribute may mean for a gold value of each concept to count as found
ACCEPT: dict[str, set[str]] = {
    "hobby": {"hobby", "likes"}, "likes": {"hobby", "likes"}, "diet": {"diet", "allergy", "health"},
    "allergy": {"allergy", "health"}, "health": {"health", "allergy"}, "family": {"family"},
    "partner": {"partner", "family"},
}
_EXTRA = {"plan": "plans", "plans": "plans", "children": "family", "family": "family", "relative": "family",
          "granddaughter": "family", "grandson": "family", "grandchild": "family", "grandchildren": "family",
          "former_job": "former_job", "previous_job": "former_job", "former_employer": "former_employer",
          "hobbies": "hobby",
          "favorite": "likes", "dislike": "dislikes"}


@dataclass
class Conversation:
    id: str
    user: str
    turns: list[Turn]
    windows: list[Window]
    gold: list[dict]  # each with its conversation and turn
    distractors: list[dict]


@dataclass
class Score:
    found: int = 0
    total: int = 0
    missed: list[dict] = field(default_factory=list)
    wrong: list[tuple[str, Record, str]] = field(default_factory=list)  # (conversation, record, why)
    other: list[tuple[str, Record]] = field(default_factory=list)
    seconds_per_turn: list[float] = field(default_factory=list)  # a pass's time per user turn, when it gives it

    @property
    def share(self) -> float:
        return self.found / max(1, self.total)


def meaning(attribute: str | None) -> str | None:
    """The concept an attribute's name means, as the set's gold names them."""
    if not attribute:
        return None
    key = re.sub(r"[^a-z0-9]+", "_", attribute.lower()).strip("_")
    if key in _EXTRA:
        return _EXTRA[key]
    if key.startswith(("favorite_", "favourite_")):
        return "likes"
    key = key.replace("_", "-") if key.replace("_", "-") in KIN else key  # "mother_in_law": KIN's "mother-in-law"
    if key in KIN or key.rstrip("s") in KIN:
        relation = KIN.get(key, KIN.get(key.rstrip("s")))
        return "partner" if relation == "partner" else "family"
    concept = concept_of(key)
    return "family" if concept == "children" else concept


def load_set(path: Path = SET2) -> list[Conversation]:
    body = json.loads(path.read_text())
    out = []
    for conv in body["conversations"]:
        start = datetime.fromisoformat(conv["started"].replace("Z", "+00:00"))
        turns = [Turn(t["id"], "message", t["text"], start + timedelta(seconds=40 * i), t["role"],
                      t["speaker"] if t["role"] == "user" else None) for i, t in enumerate(conv["turns"])]
        thread = f"bench/{conv['id']}"
        sources = {t.id: f"passages/memory/messages/{thread}" for t in turns}
        windows = plan_windows(thread, turns, sources, set(), turns[-1].at + timedelta(days=1), 600)
        gold = [{**g, "conversation": conv["id"], "turn": t["id"]} for t in conv["turns"] for g in t.get("gold", [])]
        distractors = [{**d, "conversation": conv["id"], "turn": t["id"], "text": t["text"]}
                       for t in conv["turns"] for d in t.get("distractors", [])]
        out.append(Conversation(conv["id"], conv["user"], turns, windows, gold, distractors))
    return out


def read_set(reader: Reader, conversations: list[Conversation],
             count=None) -> tuple[dict[str, list[Record]], float, int]:
    """Every conversation read window by window: its records, the seconds `reader.read` took, the tokens read
    (`count(text)`, else words)."""
    count = count or (lambda text: len(text.split()))
    records: dict[str, list[Record]] = {}
    seconds, tokens = 0.0, 0
    for conv in conversations:
        for window in conv.windows:
            started = time.perf_counter()
            outcome = reader.read(window)
            seconds += time.perf_counter() - started
            tokens += sum(count(t.text) for t in window.reading)
            records.setdefault(conv.id, []).extend(outcome.records)
        order = {t.id: n for n, t in enumerate(conv.turns)}
        withdraw(records.get(conv.id, []), order, "2026-01-01T00:00:00Z")  # as the read step files them
    return records, seconds, tokens


def _holds(value: str | None, words: list[str]) -> bool:
    """`value` holds one of `words`; a number only as a whole number ("3", Rory's age, is not in "37"; "thirty",
    Camille's, not in "thirty-two")."""
    low = (value or "").lower()
    return any(re.search(rf"(?<!\d){re.escape(w)}(?!\d)", low) if w.isdigit()
               else re.search(rf"(?<![\w-]){w}(?![\w-])", low) if re.fullmatch(SPELLED, w) else w in low for w in words)


def _names(value: str | None, words: list[str]) -> bool:
    """`value` holds one of a distractor's `words`, a short one (three letters or fewer) as a word of its own or its
    plural: the job "owner of a little business" holds no "bus" (another's "he drives the 52 bus")."""
    low = (value or "").lower()
    return any(re.search(rf"(?<!\w){re.escape(w)}(?:e?s)?(?!\w)", low) if len(w) <= 3 and w.isalpha()
               else _holds(value, [w]) for w in words)


def score_set(records: dict[str, list[Record]], conversations: list[Conversation] | None = None) -> Score:
    """Gold values found and values set wrongly by `records` (conversation id -> the records that hold)."""
    conversations = conversations if conversations is not None else load_set()
    score = Score()
    for conv in conversations:
        held = [r for r in records.get(conv.id, []) if r.attribute and r.value and not getattr(r, "retracted", None)]
        for g in conv.gold:
            accepted = ACCEPT.get(g["concept"], {g["concept"]})
            hit = any(r.subject == g["subject"] and meaning(r.attribute) in accepted and _holds(r.value, g["match"])
                      for r in held)
            score.found += hit
            score.total += 1
            if not hit:
                score.missed.append(g)
        for r in held:
            if r.subject != conv.user:
                continue
            concept = meaning(r.attribute)
            golds = [g for g in conv.gold if _holds(r.value, g["match"])]
            said = {g["turn"] for g in golds if concept in ACCEPT.get(g["concept"], {g["concept"]})}
            why = next((f"{d['kind']} ({d['turn']}: {d['text']})" for d in conv.distractors
                        if concept in {c for x in d["concepts"] for c in ACCEPT.get(x, {x})}
                        and _names(r.value, d["match"]) and not (said and set(r.turns) & said)), None)
            # a gold value read from its own turn is no distractor's, though one elsewhere shares its words ("my
            # Tagalog is ok" after the assistant's "open with a line in Tagalog")
            if why is None and golds and not any(concept in ACCEPT.get(g["concept"], {g["concept"]}) for g in golds):
                why = "mislabel (" + ", ".join(f"{g['turn']}: {g['concept']} {g['value']!r}" for g in golds) + ")"
            if why is not None:
                score.wrong.append((conv.id, r, why))
            elif not golds:
                score.other.append((conv.id, r))
    return score


def print_scores(scores: dict[str, Score], verbose: bool = False, path: Path = SET2) -> None:
    """The set's figures, one column a pass (e.g. "rules", "rules + model")."""
    names = list(scores)
    width = max(14, *(len(n) + 2 for n in names))
    first = next(iter(scores.values()))
    which = "second set" if path == SET2 else "gold set"
    print(f"\n{which} ({path.name}: {first.total} gold values, written before tuning)")
    print("  " + " " * 26 + "".join(f"{n:>{width}}" for n in names))
    rows = [("gold values found", lambda s: f"{s.found}/{s.total} {s.share:.3f}"),
            ("values set wrongly", lambda s: str(len(s.wrong))),
            ("other values (not judged)", lambda s: str(len(s.other)))]
    if any(s.seconds_per_turn for s in scores.values()):
        rows.append(("s per user turn med/p95", lambda s: (
            f"{statistics.median(s.seconds_per_turn):.2f}/{_p95(s.seconds_per_turn):.2f}" if s.seconds_per_turn
            else "-")))
    for label, cell in rows:
        print(f"  {label:26}" + "".join(f"{cell(s):>{width}}" for s in scores.values()))
    if verbose:
        for name, s in scores.items():
            for g in s.missed:
                print(f"    [{name}] missed {g['conversation']} {g['turn']} {g['concept']}: {g['value']}")
            for conv, r, why in s.wrong:
                print(f"    [{name}] WRONG  {conv} {r.turns} {r.attribute}: {r.value} — {why}")
            for conv, r in s.other:
                print(f"    [{name}] other  {conv} {r.turns} {r.attribute}: {r.value}")


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
