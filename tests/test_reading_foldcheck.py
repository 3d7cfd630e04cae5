"""The fold question's answers written with why: "both" notes each record (`held`) in one commit that `lineage`
shows, a plan beside a value that holds goes to the question (never ordered by its day), and a plan that does not
hold yet stays a plan. A scripted checker gives the answer (this is the path, not the model); Qwen, where it is
installed, answers a plan for itself."""
from __future__ import annotations

import json
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from conftest import chat, read_by_rules, until

from twinfs import Memory, Settings, ledger
from twinfs.folding import fold
from twinfs.models import AddRequest, HistoryRequest, LineageRequest, Record
from twinfs.reading.checking import CheckVerdict
from twinfs.reading.checkpass import CheckPass
from twinfs.reading.foldcheck import FOLD_SCHEMA, PLAN_SCHEMA, retract_folded, rivals
from twinfs.space import turns_of
from twinfs.worked import conflicts

TWO_JOBS = [("m1", "user", "I work as a nurse at the hospital."), ("m2", "assistant", "Busy! Anything else?"),
            ("m3", "user", "I'm also a part-time barista.")]
PLAN = [("m1", "user", "I live in Leeds with my wife."), ("m2", "assistant", "Nice! Any plans?"),
        ("m3", "user", "Next year we live in Berlin.")]  # "moving to" reads as a plan of its own


class Scripted:
    """A checker that keeps every record and answers the fold question as told, counting what it was asked."""

    name = "scripted"

    def __init__(self, holds: str):
        self.holds, self.questions, self.evaluated, self.folds = holds, 0, 0, []

    def use_threads(self, threads: int) -> None:
        return None

    def check(self, batch):
        self.questions += len(batch)
        return [(q, None, CheckVerdict("keep", why="scripted")) for q in batch]

    def complete(self, prefix: str, prompt: str, schema: dict, **bounds) -> str:
        if "holds" not in schema["properties"]:
            return "{}"  # the passages' keys (reading/keys.py): none
        assert schema == (PLAN_SCHEMA if "(a plan)" in prompt else FOLD_SCHEMA)
        self.folds.append(prompt)
        return json.dumps({"holds": self.holds})


def _thread(space):
    records = ledger.all_records(space)
    thread = records[0].id.split("#")[0]
    return thread, turns_of(space.thread_items(thread)), ledger.load_records(space, thread)


def test_both_holding_is_written_with_why_and_the_turns(tmp_path, embedder, alice):
    with read_by_rules(tmp_path, embedder, alice, TWO_JOBS) as memory:
        checker = Scripted("both")
        checking = CheckPass(lambda: checker, memory.writes.fold)
        with memory._existing(alice) as space:
            thread, turns, records = _thread(space)
            asked = rivals(records, turns)
            assert [(q.concept, q.first.value, q.second.value) for q in asked] == [
                ("job", "nurse", "part-time barista")]
            assert until(lambda: checking(space) is None, 60)  # the whole pass: the records, then the fold question
            assert len(checker.folds) == 1 and "part-time barista" in checker.folds[0]
            after = {r.id: r for r in ledger.load_records(space, thread)}
            assert rivals(list(after.values()), turns) == []  # answered: never asked again
            worked_out = conflicts(fold(list(after.values())))  # what a brief's worked_out says of the two
            assert any(line.startswith("Both hold: Alice Chen · job holds as") for line in worked_out), worked_out
            assert not any(line.startswith(("Conflict", "Changed")) for line in worked_out), worked_out
            text = space.vault.read(ledger.records_path(thread))
        for record, other in ((asked[0].first, asked[0].second), (asked[0].second, asked[0].first)):
            lineage = memory.lineage(alice, LineageRequest(id=record.id))
            held = lineage.record.held
            assert lineage.record.retracted is None and held["with"] == [other.id]
            assert held["reason"] == ("model fold (scripted): job holds as both 'nurse' and 'part-time barista' "
                                      f"(both said {record.said}; turns m1, m3)")
            assert [c.message.split(":")[0] for c in lineage.commits] == ["check", "read"]
            assert lineage.commits[0].message.startswith(
                "check: fold job 'nurse' and 'part-time barista' both hold")
        history = memory.history(alice, HistoryRequest(subject="Alice Chen", attribute="job"))
        assert sorted(v.value for v in history.values) == ["nurse", "part-time barista"]  # the page shows both
    assert text.count('"held"') == 2 and '"held": null' not in text  # a record without the note has none


def test_a_plan_beside_a_value_that_holds_is_asked_not_ordered_by_its_day(tmp_path, embedder, alice):
    with read_by_rules(tmp_path, embedder, alice, PLAN) as memory:
        with memory._existing(alice) as space:
            thread, turns, records = _thread(space)
            berlin = next(r for r in records if r.value == "Berlin")
            leeds = next(r for r in records if r.value == "Leeds")
            assert berlin.kind == "plan" and berlin.happened > leeds.happened  # by its day it would be newer
            asked = rivals(records, turns)
            assert [(q.concept, q.first.value, q.second.value) for q in asked] == [("home", "Leeds", "Berlin")]
            assert "Second: Berlin (a plan)" in asked[0].prompt() and asked[0].schema == PLAN_SCHEMA  # never both
            with space.writer:  # the current home holds: the plan is kept, as a plan
                assert retract_folded(space, thread, [(asked[0], "first")], datetime.now(UTC), "test") == 1
            after = {r.id: r for r in ledger.load_records(space, thread)}
            assert rivals(list(after.values()), turns) == []
        gone = after[berlin.id].retracted
        assert gone["reason"].startswith("model fold (test): home holds as 'Leeds' now, not 'Berlin' (both said")
        assert f"'Berlin' a plan for {berlin.happened}" in gone["reason"] and "turns m1, m3" in gone["reason"]
        plan = after[gone["replaced_by"]]
        assert (plan.attribute, plan.value, plan.kind, plan.by, plan.turns) == ("plans", "Berlin", "plan", "model",
                                                                                 ["m3"])
        history = memory.history(alice, HistoryRequest(subject="Alice Chen", attribute="home_city"))
        assert [v.value for v in history.values] == ["Leeds"]
        plans = memory.history(alice, HistoryRequest(subject="Alice Chen", attribute="plans"))
        assert "Berlin" in [v.value for v in plans.values]
        assert memory.lineage(alice, LineageRequest(id=berlin.id)).commits[0].message.startswith("check: fold home")


def _record(n: int, value: str, said: str, happened: str | None = None, kind: str = "state") -> Record:
    return Record(id=f"th_x#r{n}", kind=kind, text=f"Alice lives in {value}", subject="Alice", attribute="home_city",
                  value=value, said=said, happened=happened, turns=[f"m{n}"], source="p")


def test_code_orders_what_it_can_and_asks_of_every_plan_beside_a_value():
    turns = [SimpleNamespace(id=f"m{n}", text=f"turn {n}") for n in range(1, 6)]
    leeds = _record(1, "Leeds", "2026-03-01")
    york = _record(2, "York", "2026-03-05")  # said later: code orders it
    berlin = _record(3, "Berlin", "2026-03-09", "2027-03-09", kind="plan")  # a plan: asked, whatever its days
    munich = _record(4, "Munich", "2026-03-10", "2027-01-01", kind="plan")  # two plans: code orders them
    pairs = {(q.first.value, q.second.value) for q in rivals([leeds, york, berlin, munich], turns)}
    assert pairs == {("Leeds", "Berlin"), ("York", "Berlin"), ("Leeds", "Munich"), ("York", "Munich")}
    assert rivals([leeds, york], turns) == [] and rivals([berlin, munich], turns) == []


@pytest.mark.slow
def test_qwen_answers_a_plan_beside_a_home_and_two_jobs_held_at_once(tmp_path, embedder, alice):
    from test_reading_checking import _qwen_or_skip

    from twinfs.reading.checking import Checker, load
    from twinfs.reading.foldcheck import ask

    checker = Checker(load(_qwen_or_skip(), n_threads=1))
    settings = Settings(home=tmp_path / "home", quiet_seconds=0, reader_model="none")
    written = {}
    with Memory(settings, embedder=embedder) as memory:
        for conversation, lines in (("plan", PLAN), ("jobs", TWO_JOBS)):
            memory.add(alice, AddRequest(items=chat(conversation, lines), wait=True))
            assert memory.idle(60)
            with memory._existing(alice) as space:
                for thread in {r.id.split("#")[0] for r in ledger.all_records(space)} - set(written):
                    turns = turns_of(space.thread_items(thread))
                    asked = rivals(ledger.load_records(space, thread), turns)
                    holds = [ask(checker, q) for q in asked]
                    with space.writer:
                        retract_folded(space, thread, list(zip(asked, holds, strict=True)), datetime.now(UTC), "qwen")
                    written[thread] = (conversation, holds, ledger.load_records(space, thread))
    answers = {conversation: holds for conversation, holds, _ in written.values()}
    assert answers == {"plan": ["first"], "jobs": ["both"]}, answers  # Leeds is the home now; two jobs at once
    after = [r for _, _, records in written.values() for r in records]
    assert any(r.attribute == "plans" and r.value == "Berlin" and not r.retracted for r in after)
    assert sum(bool(r.held) and "both 'nurse' and 'part-time barista'" in r.held["reason"] for r in after) == 2
