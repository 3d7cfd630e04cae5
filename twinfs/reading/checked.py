"""What the model's check changes, written: one commit a window of questions, as a correction is written.

    changed = apply(space, thread, checked, turns, sources, now, "qwen-coder-1.5b")   # as the writer

- drop: the rules' record is retracted with the reason ("model check (<model>): …"), never deleted;
- replace (a new attribute or value for the same words): the rules' record retracted, `replaced_by` its
  replacement, which the model's answer makes;
- add (a sentence the rules left alone): a new record.
A record the model makes says `by: "model"` (the user's words, found or labelled by the model); code makes its
id, its days (from the turn's own time phrases), its subject (the turn's speaker), its turn and its source, as
for every reader (records.finish). `git log` shows the rules' record and then the check's commit.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from ..forms import to_second
from ..models import Record
from .attributes import alone
from .checking import CheckVerdict, ModelAnswer, Question, concept
from .records import Draft, finish
from .reference import pointers
from .windows import Window

KINDS = {"plans": "plan", "likes": "preference", "dislikes": "preference", "hobby": "preference",
         "family": "relation", "partner": "relation"}
Checked = list[tuple[Question, ModelAnswer | None, CheckVerdict]]


def made(thread: str, question: Question, verdict: CheckVerdict, turn: Any, source: str | None,
         attribute: str) -> Record | None:
    """The record the model's answer makes from `turn` (a passages.Turn): code's id, days, subject and source."""
    said = " ".join((question.clause or question.turn).split())
    text: str | None = f"{turn.speaker}: {said}"
    if question.clause and not _reads_alone(said):  # "My parents live an hour from there": from where?
        text = alone(turn.speaker, attribute, verdict.value or "")  # the value alone, when it reads alone
    if text is None:
        return None
    if len(text) > 200:
        text = text[:199].rsplit(" ", 1)[0] + "…"
    draft = Draft(kind=KINDS.get(verdict.attribute or "", "state"), text=text, subject=turn.speaker,
                  attribute=attribute, value=verdict.value, turns=[turn.id])
    window = Window(thread, [turn], [turn.id], {turn.id: source} if source else {})
    out = finish(window, [draft])
    return out[0].model_copy(update={"by": "model"}) if out and out[0].attribute else None


def _reads_alone(said: str) -> bool:
    """No word of the sentence points outside it ("there", "it", "the same thing": reference.pointers)."""
    from .pipeline import nlp

    return not any(pointers(list(sentence), sentence) for sentence in nlp()(said).sents)


def apply(space: Any, thread: str, checked: Checked, turns: list[Any], sources: dict[str, str], now: datetime,
          model: str) -> int:
    """As the writer: the verdicts of one batch written to the thread's records in one commit, the lanes updated.
    Returns how many records changed (0: nothing written)."""
    from ..ledger import load_records

    records = load_records(space, thread)
    at = to_second(now)
    by_turn = {t.id: t for t in turns}
    said: list[str] = []
    for question, _, verdict in checked:
        turn = by_turn.get(question.turn_id or "")
        if verdict.action not in ("drop", "replace", "add") or turn is None:
            continue
        new = None
        if verdict.action in ("replace", "add"):
            keep_name = question.attribute if question.attribute and concept(question.attribute) == verdict.attribute \
                else verdict.attribute
            new = made(thread, question, verdict, turn, sources.get(turn.id), keep_name or "other")
            if new is None or any(r.id == new.id or (not r.retracted and r.subject == new.subject and
                                                     r.attribute == new.attribute and r.value == new.value)
                                  for r in records):
                new = None
                if verdict.action == "add":
                    continue  # the rules (or an earlier check) already say it
        if question.record:
            i = next((n for n, r in enumerate(records) if r.id == question.record and not r.retracted), None)
            if i is None:
                continue  # corrected or read again meanwhile: a person's word stands
            reason = f"model check ({model}): {verdict.why}"[:2000]
            records[i] = records[i].model_copy(update={"retracted": {
                "reason": reason, "at": at, **({"replaced_by": new.id} if new else {})}})
            said.append(f"{'replace' if new else 'retract'} {question.record}")
        if new is not None:
            records.append(new)  # at the end: every other record keeps its records/<thread>.json#N
            if not question.record:
                said.append(f"add {new.attribute} {new.value!r}")
    return commit_checked(space, thread, records, said, model)


def commit_checked(space: Any, thread: str, records: list[Record], said: list[str], model: str,
                   what: str = "") -> int:
    """The thread's records as the model pass left them, written, committed (its message says what changed and
    which model) and indexed; how many changes. Nothing said: nothing written."""
    from ..ledger import dump_records, records_path
    from ..steps.read import index_records

    if not said:
        return 0
    space.vault.write(records_path(thread), dump_records(records), durable=True)
    space.vault.commit(f"check: {what}{'; '.join(said)[:300]} in {thread} (model {model})", [records_path(thread)])
    index_records(space, thread, records)
    return len(said)
