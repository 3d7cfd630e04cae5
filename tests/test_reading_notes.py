"""The model pass's question about a record without a value ("John added some sage", "it'll be worth it"): the
turn, the turn before and the record's text, answered keep or drop under a closed schema; a drop retracted with
why through the same path as `correct` (lineage shows the rules' record and then the check); the note questions
share the other questions' instructions, so switching keeps that part of the KV state (counted in tokens)."""
from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from conftest import read_by_rules

from twinfs import ledger
from twinfs.models import LineageRequest
from twinfs.reading.checked import apply
from twinfs.reading.checking import (
    INSTRUCTIONS,
    NOTE_PREFIX,
    NOTE_SCHEMA,
    PREFIX,
    Checker,
    ModelAnswer,
    Question,
    decide,
    load,
    questions,
)
from twinfs.reading.shipped import model_path
from twinfs.space import turns_of
from twinfs.steps.read import sources_of

SOUP = [("m1", "user", "I made a big pot of soup for my family."), ("m2", "assistant", "Yum! What kind?"),
        ("m3", "user", "Tomato. I live in Leeds, so it's soup weather. I added some sage for a nice flavor.")]


def test_a_record_without_a_value_is_asked_whether_it_reads_alone():
    lines = [SimpleNamespace(id="m1", role="assistant", kind="message", text="What did you cook?"),
             SimpleNamespace(id="m2", role="user", kind="message", text="Soup. I added some sage for flavor.")]
    rules = [SimpleNamespace(id="th#r1", retracted=None, attribute=None, value=None, turns=["m2"], by="user",
                             text="Alice added some sage for flavor"),
             SimpleNamespace(id="th#r2", retracted=None, attribute="likes", value="soup", turns=["m2"], by="user",
                             text="Alice likes soup")]
    asked = questions(rules, lines, clauses=False, notes=True)
    note = next(q for q in asked if q.record == "th#r1")
    assert (note.note, note.before, note.attribute) == ("Alice added some sage for flavor", "What did you cook?", None)
    assert note.prompt().endswith("Note: Alice added some sage for flavor<|im_end|>\n<|im_start|>assistant\n")
    assert "Before: What did you cook?" in note.prompt()
    assert [q.record for q in questions(rules, lines, clauses=False)] == ["th#r2"]  # not asked by default
    dropped = decide(note, ModelAnswer(False, "other", ""))
    assert dropped.action == "drop" and "reads alone" in dropped.why
    assert decide(note, ModelAnswer(True, "other", "")).action == "keep"


def test_a_dropped_note_is_retracted_and_shows_in_lineage(tmp_path, embedder, alice):
    with read_by_rules(tmp_path, embedder, alice, SOUP) as memory:
        with memory._existing(alice) as space:
            records = ledger.all_records(space)
            thread = records[0].id.split("#")[0]
            turns = turns_of(space.thread_items(thread))
            sage = next(q for q in questions(records, turns, notes=True) if q.note and "sage" in q.note)
            verdict = decide(sage, ModelAnswer(False, "other", ""))
            with space.writer:
                assert apply(space, thread, [(sage, None, verdict)], turns, sources_of(space, thread),
                             datetime.now(UTC), "test") == 1
            after = {r.id: r for r in ledger.load_records(space, thread)}
        assert sage.record in after and after[sage.record].retracted["reason"].startswith("model check (test): ")
        assert sum(not r.retracted for r in after.values()) == len(records) - 1  # the others stand
        lineage = memory.lineage(alice, LineageRequest(id=sage.record))
        assert [c.message.split(":")[0] for c in lineage.commits] == ["check", "read"]  # retracted, never deleted


class DropsNotes:
    """A scripted checker: every note dropped, every other record kept."""

    name, questions, evaluated = "scripted", 0, 0

    def use_threads(self, threads: int) -> None:
        return None

    def check(self, batch):
        self.questions += len(batch)
        return [(q, None, decide(q, ModelAnswer(q.note is None, "other", ""))) for q in batch]

    def complete(self, prefix: str, prompt: str, schema: dict, **bounds) -> str:
        return '{"holds":"both"}' if "holds" in schema["properties"] else "{}"  # keys (reading/keys.py): none


def test_the_pass_asks_about_notes_only_when_told(tmp_path, embedder, alice):
    from conftest import until

    from twinfs.reading.checkpass import CheckPass

    with read_by_rules(tmp_path, embedder, alice, SOUP) as memory, memory._existing(alice) as space:
        live = [r for r in ledger.all_records(space) if not r.retracted]
        plain = DropsNotes()
        assert until(lambda: CheckPass(lambda: plain)(space) is None, 60)  # the default: notes left alone
        assert [r.id for r in ledger.all_records(space) if not r.retracted] == [r.id for r in live]
        with space.writer:  # asked again from the start
            space.state.put(f"checked:{live[0].id.split('#')[0]}", "{}")
        notes = DropsNotes()
        assert until(lambda: CheckPass(lambda: notes, notes=True)(space) is None, 60)
        after = {r.id: r for r in ledger.all_records(space)}
    valueless = [r.id for r in live if not r.value]
    assert valueless and notes.questions > plain.questions
    assert all(after[i].retracted["reason"].startswith("model check (scripted): ") for i in valueless)
    assert all(not after[r.id].retracted for r in live if r.value)


def test_the_note_questions_share_the_instructions(smollm2_for_notes):
    checker = Checker(smollm2_for_notes, max_tokens=8)
    assert PREFIX.startswith(INSTRUCTIONS) and NOTE_PREFIX.startswith(INSTRUCTIONS)
    instructions = len(checker.llm.tokenize(INSTRUCTIONS.encode(), add_bos=False, special=True))
    note_prefix = len(checker.llm.tokenize(NOTE_PREFIX.encode(), add_bos=False, special=True))
    word = Question("I live in Leeds.", "Where are you based?", "home", "Leeds", "th#r1")
    note = Question("I added some sage.", "What soup?", record="th#r2", note="Alice added some sage")
    # asked in any order, a window's note questions come last: one switch
    assert [q.record for q, _, _ in checker.check([note, word])] == ["th#r1", "th#r2"]
    counts = [checker.evaluated]
    for q in (word, note, word, note):
        checker.ask(q)
        counts.append(checker.evaluated)
    spent = [b - a for a, b in zip(counts, counts[1:], strict=False)]
    # switching evaluates the part after the shared instructions and the question, never the instructions again
    assert all(0 < s < note_prefix - instructions + 80 for s in spent), (spent, instructions, note_prefix)
    answer = checker.complete(NOTE_PREFIX, note.prompt(), NOTE_SCHEMA)
    assert answer in ('{"keep":true}', '{"keep":false}')  # closed: the grammar allows nothing else


@pytest.fixture(scope="module")
def smollm2_for_notes():
    return load(str(model_path("smollm2")), n_threads=1)
