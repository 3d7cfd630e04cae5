"""What the speaker says has ended (twinfs/reading/withdrawn.py): "Gwen is not my wife now" is a former partner, and
the earlier "my wife Gwen" of the same thread is retracted with the later words as why — through the real read step,
kept when the window is read again (each sentence written for these tests)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from conftest import T0, chat
from test_reading_plain import read, values

from twinfs import Memory, Settings, ledger
from twinfs.models import AddRequest, HistoryRequest, ReadRequest, Record
from twinfs.reading.withdrawn import ended, withdraw


@pytest.mark.parametrize(("text", "expected"), [
    ("Gwen is not my wife now, we divorced years ago.", [("former_partner", "Gwen")]),
    ("Tomasz is no longer my boyfriend.", [("former_partner", "Tomasz")]),
    ("Priya and I broke up in the summer.", [("former_partner", "Priya")]),
    ("My boyfriend Callum and I split up on Friday.", [("former_partner", "Callum")]),  # a partner no more
    ("I don't work at Halfords anymore.", [("former_employer", "Halfords")]),
    ("I no longer work for Marks & Spencer.", [("former_employer", "Marks & Spencer")]),
    ("I quit my job at Tesco in May.", [("former_employer", "Tesco")]),
    ("I'm no longer a nurse.", [("former_job", "nurse")]),
    ("i’m not a bus driver any more, i teach now", [("former_job", "bus driver")]),
    ("I don't live in Leeds any more.", [("former_home", "Leeds")]),
    ("I'm not vegetarian anymore, bacon won.", [("former_diet", "vegetarian")]),
])
def test_a_value_said_to_have_ended_is_a_former_one(text, expected):
    assert ended(text) == expected
    got = values(read(("user", text), who="Dana Reyes"))
    assert set(expected) <= got, got  # the rules read it so, and the value as no current one
    assert not {(a, v) for a, v in got if not a.startswith("former_") and v in {v for _, v in expected}}, got


@pytest.mark.parametrize("text", [
    "Gwen is not my wife.",  # denied, not ended: she never was
    "Sanne isn't my roommate, she's my floor-mate.",
    "I'm not a doctor, but that rash looks bad.",
    "I don't work at Google, I'm a contractor for them.",
    "i don't live in Leeds, i live in York",
    "I'm no longer sure about the trip.",
    "I left the party early.",
    "I quit Duolingo in the summer.",
    "I'm not a fan of cyclists myself now, to be honest.",
])
def test_a_denial_or_a_thing_left_ends_nothing(text):
    assert ended(text) == []


def _record(n: int, attribute: str, value: str, turn: str, subject: str = "Dana Reyes", by: str = "user") -> Record:
    return Record(id=f"th_1#r{n}", kind="state", text=f"{subject} {attribute} {value}", subject=subject,
                  attribute=attribute, value=value, said="2026-11-03", by=by, turns=[turn], source="")


def test_a_former_value_retracts_the_earlier_records_it_ends_and_nothing_else():
    records = [_record(1, "partner", "Gwen", "t1"), _record(2, "employer", "Halfords in Leeds", "t1"),
               _record(3, "partner", "Gwen", "t5"),  # said after the end: not what it ends
               _record(4, "partner", "Gwen", "t1", subject="Rhodri"),  # someone else's
               _record(5, "partner", "Gwenllian", "t1"),  # another name
               _record(6, "spouse", "Gwen", "t1", by="assistant"),  # the assistant's words
               _record(7, "home_city", "Halfords", "t1"),  # another meaning
               _record(8, "former_partner", "Gwen", "t3"), _record(9, "former_employer", "Halfords", "t3")]
    order = {"t1": 1, "t3": 3, "t5": 5}
    only = [r.model_copy() for r in records]
    assert withdraw(only, order, "2026-11-04T10:00:00Z", read={"th_1#r9"}) == ["th_1#r2"]  # only what was just read
    assert withdraw(records, order, "2026-11-04T10:00:00Z") == ["th_1#r1", "th_1#r2"]
    first = records[0].retracted
    assert first is not None and first["ended_by"] == "th_1#r8" and "no longer holds" in first["reason"]
    assert "(t3)" in first["reason"] and first["at"] == "2026-11-04T10:00:00Z"
    assert [r.id for r in records if r.retracted] == ["th_1#r1", "th_1#r2"]
    assert withdraw(records, order, "2026-11-05T10:00:00Z") == []  # once: a retracted record stays as it was


DIVORCED = [("m1", "user", "My wife is called Gwen and I work at Halfords in Bangor."),
            ("m2", "assistant", "Lovely! How long have you been there?"),
            ("m3", "user", "Oh wait, Gwen is not my wife now, we divorced ten years ago. My partner is Eirlys.")]


def test_the_read_step_retracts_what_a_later_turn_ends_and_keeps_it_retracted(tmp_path, embedder, alice):
    settings = Settings(home=tmp_path / "home", quiet_seconds=0, fold_seconds=0, reader_model="none")
    with Memory(settings, embedder=embedder) as memory:
        memory.add(alice, AddRequest(items=chat("c1", DIVORCED[:2]), wait=True))
        assert memory.idle(60)
        memory.add(alice, AddRequest(items=chat("c1", DIVORCED[2:], start=T0 + timedelta(minutes=5)), wait=True))
        assert memory.idle(60)
        with memory._existing(alice) as space:
            records = ledger.all_records(space)
        gwen = [r for r in records if r.attribute == "partner" and r.value == "Gwen"]
        assert gwen and all(r.retracted and "no longer holds" in r.retracted["reason"] for r in gwen), gwen
        assert any(r.attribute == "former_partner" and r.value == "Gwen" and not r.retracted for r in records)
        assert any(r.attribute == "partner" and r.value == "Eirlys" and not r.retracted for r in records)
        page = memory.read(alice, ReadRequest(path="pages/alice-chen.md")).content
        print(page)
        partners = page.split("## partner\n", 1)[1].split("\n## ", 1)[0]
        assert "Eirlys" in partners and "Gwen" not in partners, page  # Gwen under "former partner" only
        partner = memory.history(alice, HistoryRequest(subject="Alice Chen", attribute="partner"))
        assert [v.value for v in partner.values] == ["Eirlys"], partner
        # the thread grows: its window is read again, and what the later turn ended stays retracted
        more = [("m4", "assistant", "Got it."), ("m5", "user", "Eirlys and I love hiking in Snowdonia.")]
        memory.add(alice, AddRequest(items=chat("c1", more, start=T0 + timedelta(minutes=10)), wait=True))
        assert memory.idle(60)
        with memory._existing(alice) as space:
            again = ledger.all_records(space)
        assert [r for r in again if r.attribute == "partner" and r.value == "Gwen" and not r.retracted] == []


def test_the_model_pass_does_not_ask_an_ended_value_back_in():
    from types import SimpleNamespace

    from twinfs.reading.checking import questions

    turns = [SimpleNamespace(id="t1", role="user", speaker="Dana Reyes", text="I work at Halfords in Bangor."),
             SimpleNamespace(id="t3", role="user", speaker="Dana Reyes", text="I don't work at Halfords anymore.")]
    records = [_record(1, "employer", "Halfords", "t1"), _record(8, "former_employer", "Halfords", "t3")]
    withdraw(records, {"t1": 1, "t3": 3}, "2026-11-04T10:00:00Z")
    asked = questions(records, turns)
    assert not [q for q in asked if q.turn_id == "t1"], asked  # neither the record nor its sentence as a clause
