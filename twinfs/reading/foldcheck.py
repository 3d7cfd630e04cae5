"""The fold question: two values of a one-at-a-time attribute (home, job, employer, diet, partner, age) that code
cannot order, answered by the model, and written with why.

    for q in rivals(records, turns):                  # same subject, same concept, said the same day
        holds = ask(checker, q)                       # "first" | "second" | "both" | None (no answer)
    retract_folded(space, thread, [(q, holds)], now, model)   # as the writer: the value that no longer holds

Code orders everything it can by dates (folding.py: the newest said, then happened, holds); what is left is two
values said the same day (happened the same day or not said) — "I live in Leeds … we just moved to York". The
model answers which holds now; the one that does not is retracted with the reason, which names both values and the
turns ("model fold (qwen-coder-1.5b): home holds as 'York' now, not 'Leeds' (both said 2026-03-02; turns m3, m9)"),
so the page folds the one that holds and `lineage` shows why. "both": nothing changes (the page shows both).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..text import norm
from .checked import commit_checked
from .checking import SUFFIX, concept

ONE_AT_A_TIME = ("home", "job", "employer", "diet", "partner", "age")  # as worked.py: a newer value replaces the older
HOLDS = ("first", "second", "both")
FOLD_SCHEMA = {"type": "object", "additionalProperties": False, "required": ["holds"],
               "properties": {"holds": {"type": "string", "enum": list(HOLDS)}}}
FOLD_PREFIX = (
    "<|im_start|>system\nA person said two things in a chat, the same day, that are one at a time (one home, one "
    "job, one partner...). You get the kind of fact, the first value with the turn that says it, then the second. "
    "Answer in JSON: holds (which holds now: first, second, or both when both can be true at once).<|im_end|>\n"
    "<|im_start|>user\n")


@dataclass(frozen=True)
class FoldQuestion:
    concept: str
    first: Any  # the Record said first (by turn order)
    second: Any
    first_turn: str
    second_turn: str

    @property
    def key(self) -> str:
        return f"fold:{self.first.id}:{self.second.id}"

    def prompt(self) -> str:
        return (f"Kind: {self.concept}\nFirst: {self.first.value}\nSaid: {self.first_turn[:300]}\n"
                f"Second: {self.second.value}\nSaid: {self.second_turn[:300]}") + SUFFIX


def rivals(records: list[Any], turns: list[Any]) -> list[FoldQuestion]:
    """The pairs of one thread's live values code cannot order: the same subject and concept, different values,
    said the same day and happened the same day (or not said when); the first said first."""
    order = {t.id: n for n, t in enumerate(turns)}
    text = {t.id: t.text for t in turns}
    live = [r for r in records if not r.retracted and r.attribute and r.value and r.by != "assistant"
            and concept(r.attribute) in ONE_AT_A_TIME and r.turns and r.turns[0] in order]
    live.sort(key=lambda r: (order[r.turns[0]], r.id))
    pairs = []
    for i, a in enumerate(live):
        for b in live[i + 1:]:
            if (a.subject, concept(a.attribute), a.said) != (b.subject, concept(b.attribute), b.said):
                continue
            if norm(a.value) == norm(b.value) or (a.happened and b.happened and a.happened != b.happened):
                continue
            if a.turns[0] == b.turns[0] and (norm(a.value) in norm(b.value) or norm(b.value) in norm(a.value)):
                continue  # two readings of the same words
            pairs.append(FoldQuestion(str(concept(a.attribute)), a, b, text[a.turns[0]], text[b.turns[0]]))
    return pairs


def ask(checker: Any, question: FoldQuestion) -> str | None:
    """The model's closed answer (one of HOLDS), or None."""
    checker.questions += 1
    try:
        holds = json.loads(checker.complete(FOLD_PREFIX, question.prompt(), FOLD_SCHEMA))
        return holds["holds"] if holds.get("holds") in HOLDS else None
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def retract_folded(space: Any, thread: str, answered: list[tuple[FoldQuestion, str | None]], now: datetime,
                   model: str) -> int:
    """As the writer: for each answer "first" or "second", the other value retracted with why, in one commit."""
    from ..ledger import load_records

    records = load_records(space, thread)
    at = now.isoformat(timespec="seconds").replace("+00:00", "Z")
    said = []
    for q, holds in answered:
        if holds not in ("first", "second"):
            continue
        keep, drop = (q.first, q.second) if holds == "first" else (q.second, q.first)
        i = next((n for n, r in enumerate(records) if r.id == drop.id and not r.retracted), None)
        if i is None or not any(r.id == keep.id and not r.retracted for r in records):
            continue
        reason = (f"model fold ({model}): {q.concept} holds as {keep.value!r} now, not {drop.value!r} (both said "
                  f"{drop.said}; turns {', '.join(dict.fromkeys(q.first.turns[:1] + q.second.turns[:1]))})")
        records[i] = records[i].model_copy(update={"retracted": {"reason": reason, "at": at}})
        said.append(f"{q.concept} {keep.value!r} holds, not {drop.value!r}")
    return commit_checked(space, thread, records, said, model, what="fold ")
