"""The model's second pass: code's verdict on each answer (whose fact, asserted, a span of the turn), the fixed
prefix evaluated once (SmolLM2-135M, real llama.cpp), and what the model drops retracted through `correct`."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from conftest import chat, until

from twinfs import Memory, Settings, ledger
from twinfs.models import AddRequest, LineageRequest
from twinfs.reading.checking import Checker, ModelAnswer, Question, amend, decide, load, questions
from twinfs.reading.checkpass import CheckPass
from twinfs.reading.shipped import model_path


def test_a_relatives_job_is_never_the_speakers():
    q = Question("My brother works as a chef in Porto.", "", "job", "chef", "th#r1")
    verdict = decide(q, ModelAnswer(True, "job", "chef"))
    assert verdict.action == "drop" and "brother" in verdict.why.lower()


def test_a_hypothetical_home_is_dropped():
    q = Question("If I ever moved, I'd live in Lisbon.", "", "home", "Lisbon", "th#r1")
    verdict = decide(q, ModelAnswer(True, "home", "Lisbon"))
    assert verdict.action == "drop" and "conditional" in verdict.why


def test_a_paraphrase_or_a_copied_example_is_not_set():
    turn = "I teach chemistry at a school in Leeds."
    assert decide(Question(turn), ModelAnswer(True, "job", "chemistry teacher")).action == "none"  # paraphrased
    assert decide(Question(turn), ModelAnswer(True, "home", "Lisbon")).action == "none"  # a value not in the turn
    kept = decide(Question(turn, "", "job", "teach chemistry", "th#r1"), ModelAnswer(True, "job", "chemistry teacher"))
    assert kept.action == "keep" and "not said in the turn" in kept.why  # the rules' record stands unchanged


def test_a_label_the_model_fixes_and_a_value_it_finds():
    turn = "I started a new job as a nurse last week."
    fixed = decide(Question(turn, "", "hobby", "new job as a nurse", "th#r1"), ModelAnswer(True, "job", "a nurse"))
    assert (fixed.action, fixed.attribute, fixed.value) == ("replace", "job", "a nurse")
    found = decide(Question("My cat is called Miso."), ModelAnswer(True, "pet", "miso"))
    assert (found.action, found.value) == ("add", "Miso")  # as the turn spells it


@pytest.fixture(scope="module")
def smollm2():
    return load(str(model_path("smollm2")), n_threads=2)


def test_the_prefix_is_evaluated_once(smollm2):
    checker = Checker(smollm2, max_tokens=3)
    asked = [Question("I live in Leeds.", "Where are you based?", "home", "Leeds"),
             Question("My dog is called Mango.", "Any pets?", "pet", "Mango"),
             Question("I work as a nurse.", "", "job", "nurse")]
    counts = []
    for q in asked:
        checker.ask(q)
        counts.append(checker.evaluated)
    assert counts[0] >= checker.prefix_tokens > 100
    # each later question evaluates its own tokens only, far fewer than the prefix
    assert all(0 < b - a < checker.prefix_tokens for a, b in zip(counts, counts[1:], strict=False)), counts


def test_what_the_model_drops_is_retracted_in_lineage(tmp_path, embedder, alice):
    settings = Settings(home=tmp_path / "home", quiet_seconds=0, reader_model="none")
    lines = [("m1", "user", "Hi there."), ("m2", "assistant", "Hello! Where are you based these days?"),
             ("m3", "user", "I live in Leeds with my wife.")]
    with Memory(settings, embedder=embedder) as memory:
        memory.add(alice, AddRequest(items=chat("c1", lines), wait=True))
        assert memory.idle(60)
        with memory._existing(alice) as space:
            records = ledger.all_records(space)
        turns = [SimpleNamespace(id=i, role=role, text=text) for i, role, text in lines]
        asked = questions(records, turns)
        home = next(q for q in asked if q.attribute and q.value == "Leeds")
        assert home.before.startswith("Hello!")  # the turn before goes with the question
        # the model's answer (by hand here: this is the path, not the model) says it is not the speaker's fact
        dropped = amend(memory.correct, alice, [(home, None, decide(home, ModelAnswer(False, "home", "Leeds")))])
        assert dropped == [home.record]
        lineage = memory.lineage(alice, LineageRequest(id=home.record))
        assert lineage.record.retracted["reason"].startswith("model check")  # retracted, never deleted
        assert [c.message.split(":")[0] for c in lineage.commits] == ["correct", "read"]


def test_the_pass_resumes_where_it_stopped(tmp_path, embedder, alice, smollm2):
    settings = Settings(home=tmp_path / "home", quiet_seconds=0, reader_model="none")
    lines = [("m1", "user", "I live in Leeds with my wife."), ("m2", "assistant", "Lovely. What do you do?"),
             ("m3", "user", "I work as a nurse at the hospital.")]
    with Memory(settings, embedder=embedder) as memory:
        memory.add(alice, AddRequest(items=chat("c1", lines), wait=True))
        assert memory.idle(60)
        checker = Checker(smollm2, max_tokens=3)  # too few tokens to answer: every record stays, each is asked
        first = CheckPass(lambda: checker, memory.writes.correct)
        first.stopping.set()  # stopped at once: nothing asked, nothing marked
        with memory._existing(alice) as space:
            first(space)
            assert checker.questions == 0
            owed = len([r for r in ledger.all_records(space) if r.attribute and not r.retracted])  # user turns
            first.stopping.clear()
            # the pass gives way while adds are recent (it returns how long to wait): the pipeline calls it again
            assert until(lambda: first(space) is None and checker.questions == owed > 0, 60), checker.questions
    with Memory(settings, embedder=embedder) as memory:  # after a restart: nothing is asked twice
        again = Checker(smollm2, max_tokens=3)
        with memory._existing(alice) as space:
            later = CheckPass(lambda: again, memory.writes.correct)
            assert until(lambda: later(space) is None, 30)
        assert again.questions == 0


def test_the_same_meaning_under_the_rules_name_stays():
    turn = "I moved to Headingley last spring."
    same = decide(Question(turn, "", "home_city", "Headingley", "th#r1"), ModelAnswer(True, "home", "Headingley"))
    assert same.action == "keep"  # home_city is the concept home: nothing to correct


def test_without_the_model_one_line_says_pages_are_rules_only(caplog):
    from twinfs.reading.checkpass import checker_for

    assert checker_for("none") is None and not caplog.records  # asked for: no line
    assert checker_for("/nowhere/model.gguf") is None
    assert [r.getMessage() for r in caplog.records if "rules-only" in r.getMessage()] != []
