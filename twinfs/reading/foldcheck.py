"""The fold question: two values of a one-at-a-time attribute (home, job, employer, diet, partner, age) that code
cannot order, answered by the model, and written with why.

    for q in rivals(records, turns):                  # same subject, same concept: said the same day, or one a plan
        holds = ask(checker, q)                       # "first" | "second" | "both" | None (no answer)
    retract_folded(space, thread, [(q, holds)], now, model)   # as the writer: what the answer changes, with why

Code orders everything it can by dates (folding.py: the newest said, then happened, holds); what is left is two
values said the same day (happened the same day or not said) — "I live in Leeds … we just moved to York" — and a
plan beside a value that holds ("we're moving to Berlin next year": its day is when it may happen, not when it
starts to hold). The model answers which holds now, and every answer is written with why, naming both values and
the turns:
- the one that no longer holds is retracted ("model fold (qwen-coder-1.5b): home holds as 'York' now, not 'Leeds'
  (both said 2026-03-02; turns m3, m9)"), so the page folds the one that holds and `lineage` shows why;
- a plan that does not hold yet is not lost: it is retracted with `replaced_by` the same words as a plan
  (attribute `plans`), so the page keeps the home and lists the move among the plans;
- "both": each record notes it (`held`: "model fold (…): home holds as both 'Leeds' and 'York' (…)"), in one commit,
  so `lineage` of either says why the page shows both.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..forms import to_second
from ..text import norm
from .checked import commit_checked
from .checking import SUFFIX, concept

ONE_AT_A_TIME = ("home", "job", "employer", "diet", "partner", "age")  # as worked.py: a newer value replaces the older
HOLDS = ("first", "second", "both")
FOLD_SCHEMA = {"type": "object", "additionalProperties": False, "required": ["holds"],
               "properties": {"holds": {"type": "string", "enum": list(HOLDS)}}}
# a plan and a value that holds are not both true now: the plan is done (it holds) or not yet (the other does)
PLAN_SCHEMA = {"type": "object", "additionalProperties": False, "required": ["holds"],
               "properties": {"holds": {"type": "string", "enum": ["first", "second"]}}}
FOLD_PREFIX = (
    "<|im_start|>system\nA person said two things in a chat that are one at a time (one home, one job, one "
    "partner...). You get the kind of fact, the first value with the turn that says it, then the second. Answer in "
    "JSON: holds (which holds now: first, second, or both when both can be true at once; a plan holds only once it "
    "is done, not before).<|im_end|>\n<|im_start|>user\n")


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

    @property
    def schema(self) -> dict:
        return PLAN_SCHEMA if _plan(self.first) or _plan(self.second) else FOLD_SCHEMA

    def prompt(self) -> str:
        def value(r: Any) -> str:
            return f"{r.value} (a plan)" if _plan(r) else str(r.value)

        return (f"Kind: {self.concept}\nFirst: {value(self.first)}\nSaid: {self.first_turn[:300]}\n"
                f"Second: {value(self.second)}\nSaid: {self.second_turn[:300]}") + SUFFIX


def _plan(record: Any) -> bool:
    return getattr(record, "kind", None) == "plan"


def rivals(records: list[Any], turns: list[Any]) -> list[FoldQuestion]:
    """The pairs of one thread's live values code cannot order: the same subject and concept, different values,
    either said the same day and happened the same day (or not said when), or one of them a plan and the other not
    (whatever their days); the first said first. A pair the fold question already answered "both" is not asked."""
    order = {t.id: n for n, t in enumerate(turns)}
    text = {t.id: t.text for t in turns}
    live = [r for r in records if not r.retracted and r.attribute and r.value and r.by != "assistant"
            and concept(r.attribute) in ONE_AT_A_TIME and r.turns and r.turns[0] in order]
    live.sort(key=lambda r: (order[r.turns[0]], r.id))
    pairs = []
    for i, a in enumerate(live):
        for b in live[i + 1:]:
            if (a.subject, concept(a.attribute)) != (b.subject, concept(b.attribute)) or norm(a.value) == norm(b.value):
                continue
            if _plan(a) == _plan(b) and (a.said != b.said or (a.happened and b.happened and a.happened != b.happened)):
                continue  # code orders them by their days
            if a.turns[0] == b.turns[0] and (norm(a.value) in norm(b.value) or norm(b.value) in norm(a.value)):
                continue  # two readings of the same words
            if a.held and b.held and b.id in a.held.get("with", []):
                continue  # answered before: both hold
            pairs.append(FoldQuestion(str(concept(a.attribute)), a, b, text[a.turns[0]], text[b.turns[0]]))
    return pairs


def ask(checker: Any, question: FoldQuestion) -> str | None:
    """The model's closed answer (one of HOLDS; first or second when one is a plan), or None."""
    checker.questions += 1
    try:
        holds = json.loads(checker.complete(FOLD_PREFIX, question.prompt(), question.schema))
        return holds["holds"] if holds.get("holds") in HOLDS else None
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def _days(q: FoldQuestion) -> str:
    """When the two were said (and a plan's day), and their turns: what a reason names."""
    first, second = q.first, q.second
    said = f"both said {first.said}" if first.said == second.said else f"said {first.said} and {second.said}"
    plans = [f"{r.value!r} a plan" + (f" for {r.happened}" if r.happened else "") for r in (first, second) if _plan(r)]
    turns = ", ".join(dict.fromkeys(first.turns[:1] + second.turns[:1]))
    return f"({'; '.join([said, *plans])}; turns {turns})"


def as_plan(thread: str, record: Any) -> Any:
    """A plan read as a value of a one-at-a-time attribute, as what it is: the same words under `plans`."""
    from .records import record_id

    body = record.model_dump(mode="json") | {"attribute": "plans", "by": "model", "retracted": None, "held": None}
    body["id"] = record_id(thread, body)
    return type(record).model_validate(body)


def retract_folded(space: Any, thread: str, answered: list[tuple[FoldQuestion, str | None]], now: datetime,
                   model: str) -> int:
    """As the writer: each answer written with why, in one commit — "first" or "second" retracts the other value
    (a plan that does not hold yet becomes a plan: `replaced_by` it under `plans`), "both" notes `held` on each."""
    from ..ledger import load_records

    records = load_records(space, thread)
    at = to_second(now)
    index = {r.id: n for n, r in enumerate(records)}
    said = []
    for q, holds in answered:
        if holds not in HOLDS or any(r.id not in index or records[index[r.id]].retracted for r in (q.first, q.second)):
            continue  # no answer, or corrected or folded meanwhile: a person's word stands
        live = [index[q.first.id], index[q.second.id]]
        if holds == "both":
            reason = f"model fold ({model}): {q.concept} holds as both {q.first.value!r} and {q.second.value!r} " \
                     f"{_days(q)}"
            for i, other in zip(live, (q.second, q.first), strict=True):
                with_ = [*(records[i].held or {}).get("with", []), other.id]
                records[i] = records[i].model_copy(update={"held": {"reason": reason, "at": at, "with": with_}})
            said.append(f"{q.concept} {q.first.value!r} and {q.second.value!r} both hold")
            continue
        keep, drop = (q.first, q.second) if holds == "first" else (q.second, q.first)
        i = index[drop.id]
        reason = f"model fold ({model}): {q.concept} holds as {keep.value!r} now, not {drop.value!r} {_days(q)}"
        plan = as_plan(thread, records[i]) if _plan(drop) and not _plan(keep) else None
        records[i] = records[i].model_copy(update={"retracted": {
            "reason": reason, "at": at, **({"replaced_by": plan.id} if plan else {})}})
        if plan is not None and plan.id not in index:
            index[plan.id] = len(records)
            records.append(plan)  # at the end: every other record keeps its records/<thread>.json#N
        said.append(f"{q.concept} {keep.value!r} holds, not {drop.value!r}" + (" (a plan)" if plan else ""))
    return commit_checked(space, thread, records, said, model, what="fold ")
