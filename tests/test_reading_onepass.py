"""The model pass in one running sequence a passage (reading/onepass.py): the order it asks in and what it sends (a
scripted model), and that a real GGUF (SmolLM2-135M) evaluates each line of the passage once."""
from __future__ import annotations

import json

import pytest

from twinfs.reading import checking
from twinfs.reading.checking import Question
from twinfs.reading.keys import lines_of
from twinfs.reading.onepass import ASK, INDEX, SYSTEM, PassageRun

PASSAGE = """---
id: th_0000000000000000/p_0001
thread: th_0000000000000000
turns: [m1, m2, m3]
roles: [user]
from: '2024-05-07T09:00:00Z'
to: '2024-05-07T09:02:00Z'
---
Context: messages (memory), 7 May 2024.

**Mira** 09:00 · Finally picked up the sunburst Stratocaster from the shop in Camden. ^m1
**Jon** 09:01 · Nice! Are you bringing it to band practice on Friday? ^m2
**Mira** 09:02 · Yes! My sister works as a nurse in Leeds. I teach piano on weekends. ^m3
"""
M1 = "Finally picked up the sunburst Stratocaster from the shop in Camden."
M2 = "Nice! Are you bringing it to band practice on Friday?"
M3 = "Yes! My sister works as a nurse in Leeds. I teach piano on weekends."
ASKED = [Question(M1, "", clause=M1, turn_id="m1"),
         Question(M3, M2, "job", "a nurse", "r1", turn_id="m3"),
         Question(M3, M2, clause="I teach piano on weekends.", turn_id="m3")]
CHECK = json.dumps({"attribute": "hobby", "value": "piano", "keep": True})
KEYS = json.dumps({"questions": ["Where did Mira pick up her Stratocaster?"], "about": ["Camden"]})


class ScriptedLlama:
    """A llama_cpp.Llama's surface: one token a character, each completion's prompt noted as text."""

    def __init__(self, answers: list[str]):
        self.answers, self.prompts, self.evaluated = list(answers), [], 0

    def tokenize(self, text: bytes, add_bos: bool = False, special: bool = True) -> list[int]:
        return list(text.decode())  # type: ignore[arg-type]  # characters stand for tokens

    def n_ctx(self) -> int:
        return 100_000

    def eval(self, tokens: list) -> None:
        return None

    def create_completion(self, prompt: list, **kwargs) -> dict:
        self.prompts.append("".join(prompt))
        return {"choices": [{"text": self.answers.pop(0)}]}


def test_lines_of_gives_each_line_its_turn():
    assert lines_of(PASSAGE) == [("Context: messages (memory), 7 May 2024.", None), (f"Mira: {M1}", "m1"),
                                 (f"Jon: {M2}", "m2"), (f"Mira: {M3}", "m3")]


def test_each_question_follows_its_turn_in_one_growing_sequence_and_the_keys_come_last():
    llm = ScriptedLlama([CHECK, CHECK, CHECK, KEYS])
    done, keys = PassageRun(checking.Checker(llm)).passage(PASSAGE, ASKED)
    first, second, third, last = llm.prompts
    assert first == SYSTEM + f"Context: messages (memory), 7 May 2024.\nMira: {M1}\nSentence: {M1}" + ASK
    assert second.startswith(first + CHECK) and second.endswith(f"Jon: {M2}\nMira: {M3}\nWords: a nurse" + ASK)
    assert third.startswith(second + CHECK) and third.endswith("Sentence: I teach piano on weekends." + ASK)
    assert last.startswith(third + CHECK) and last.endswith(INDEX + ASK)
    assert all(p.count(f"Jon: {M2}") <= 1 and p.count(f"Mira: {M3}") <= 1 for p in llm.prompts)  # each line once
    assert [q.key for q, _, _ in done] == [q.key for q in ASKED]
    assert done[2][2].action == "add" and done[2][2].value == "piano"
    assert keys.questions == ("Where did Mira pick up her Stratocaster?",) and keys.about == ("Camden",)


def test_a_question_of_another_turn_is_asked_the_separate_way_after_the_keys():
    elsewhere = Question("I live in Oslo.", "", clause="I live in Oslo.", turn_id="m9")
    llm = ScriptedLlama([CHECK, KEYS, CHECK])
    done, _ = PassageRun(checking.Checker(llm)).passage(PASSAGE, [elsewhere, ASKED[0]])
    assert llm.prompts[1].endswith(INDEX + ASK)
    assert llm.prompts[2] == "".join(checking.PREFIX + elsewhere.prompt())
    assert [q.key for q, _, _ in done] == [ASKED[0].key, elsewhere.key]


PASTED = """---
id: th_0000000000000001/p_0001
thread: th_0000000000000001
turns: [m1, m2]
roles: [user]
from: '2024-05-07T09:00:00Z'
to: '2024-05-07T09:01:00Z'
---
Context: messages (memory), 7 May 2024.

**Jon** 09:00 · How old are you, by the way? ^m1
**Mira** 09:01 · Pasting the chat: ^m2
[07/05/24, 08:10] Ana: I'm vegan now ^m2
[07/05/24, 08:11] Mira: I'm 41 and in Sligo ^m2
"""


def test_a_turn_is_sent_as_code_reads_it_anothers_pasted_lines_left_out():
    turn = "Pasting the chat:\n\nI'm 41 and in Sligo"  # own_words.as_read's
    llm = ScriptedLlama([CHECK])
    PassageRun(checking.Checker(llm)).passage(PASSAGE_OF_PASTE := PASTED, [
        Question(turn, "How old are you, by the way?", "age", "41", "r1", turn_id="m2")], keys=False)
    assert llm.prompts[0].endswith(f"Jon: How old are you, by the way?\nMira: {turn}\nWords: 41" + ASK)
    assert "vegan" not in llm.prompts[0] and PASSAGE_OF_PASTE.count("Mira") == 2


def test_no_keys_asked_when_not_wanted():
    llm = ScriptedLlama([CHECK])
    done, keys = PassageRun(checking.Checker(llm)).passage(PASSAGE, ASKED[:1], keys=False)
    assert keys is None and len(llm.prompts) == 1 and len(done) == 1


@pytest.fixture(scope="module")
def smollm2():
    from twinfs.reading.checking import load
    from twinfs.reading.onepass import CONTEXT
    from twinfs.reading.shipped import model_path

    return checking.Checker(load(str(model_path("smollm2")), n_threads=1, n_ctx=CONTEXT))


def test_a_real_model_evaluates_each_token_of_the_sequence_about_once(smollm2):
    run = PassageRun(smollm2)
    run.passage(PASSAGE, ASKED)  # the system part evaluated with the first passage
    evaluated = smollm2.evaluated
    run.passage(PASSAGE.replace("Camden", "Brixton"), ASKED)
    sequence = smollm2.llm.n_tokens  # the tokens the context holds at the end: the whole running sequence
    system = len(smollm2.llm.tokenize(SYSTEM.encode(), add_bos=True, special=True))
    lines = len(smollm2.llm.tokenize(PASSAGE.split("\n\n", 1)[1].encode(), add_bos=False, special=True))
    # everything past the kept system part, evaluated once: the answers' own tokens may tokenize anew (a few each)
    assert smollm2.evaluated - evaluated <= sequence - system + 4 * (len(ASKED) + 1)
    smollm2.check(ASKED)  # today's prompts, their prefix kept
    separate = smollm2.evaluated
    smollm2.check(ASKED)
    assert smollm2.evaluated - separate > lines  # they evaluate the turns again, the turn before with each


LINES = [("m1", "user", "Hi there."), ("m2", "assistant", "Hello! Where are you based these days?"),
         ("m3", "user", "I live in Leeds with my wife. I teach chemistry at a school in Harrogate.")]


class KeyedLlama(ScriptedLlama):
    """Answers a check question with `keep` and the passage's index with keys naming what m3 says."""

    def __init__(self):
        super().__init__([])

    def create_completion(self, prompt: list, **kwargs) -> dict:
        text = "".join(prompt)
        self.prompts.append(text)
        if text.endswith(INDEX + ASK):
            return {"choices": [{"text": json.dumps({"questions": ["Where does Alice teach chemistry?"],
                                                     "about": ["Harrogate"]})}]}
        return {"choices": [{"text": json.dumps({"attribute": "other", "value": "x", "keep": True})}]}


def test_the_pass_asks_each_passage_in_one_sequence_writes_its_keys_and_resumes(tmp_path, embedder, alice):
    from conftest import chat, until

    from twinfs import Memory, Settings, ledger
    from twinfs.models import AddRequest
    from twinfs.passage_keys import keys_path, read_keys
    from twinfs.reading.checking import questions
    from twinfs.reading.checkpass import CheckPass
    from twinfs.space import turns_of

    settings = Settings(home=tmp_path / "home", quiet_seconds=0, reader_model="none")
    with Memory(settings, embedder=embedder) as memory:
        memory.add(alice, AddRequest(items=chat("c1", LINES), wait=True))
        assert memory.idle(60)
        llm = KeyedLlama()
        checker = checking.Checker(llm)
        with memory._existing(alice) as space:
            records = ledger.all_records(space)
            thread = records[0].id.split("#")[0]
            owed = len(questions(records, turns_of(space.thread_items(thread))))
            assert owed >= 2
            stopped = CheckPass(lambda: checker, onepass=True)
            stopped.stopping.set()
            stopped(space)
            assert llm.prompts == []  # stopped at once: nothing asked, nothing marked
            assert until(lambda: CheckPass(lambda: checker, onepass=True)(space) is None, 60)
            [passage] = list(space.state.cuts(thread))
            assert checker.questions == owed and len(llm.prompts) == owed + 1
            assert all(b.startswith(a) for a, b in zip(llm.prompts, llm.prompts[1:], strict=False))  # one sequence
            assert llm.prompts[-1].endswith(INDEX + ASK) and llm.prompts[-1].count("I live in Leeds") == 1
            assert read_keys(space, passage).about == ("Harrogate",)
            assert space.vault.path(keys_path(passage)).exists()
    with Memory(settings, embedder=embedder) as memory:  # after a restart: nothing asked twice, no keys again
        again = KeyedLlama()
        with memory._existing(alice) as space:
            assert until(lambda: CheckPass(lambda: checking.Checker(again), onepass=True)(space) is None, 30)
        assert again.prompts == []


def test_the_pass_asks_by_passage_by_default_and_loads_a_context_for_it(monkeypatch):
    from twinfs.reading import checkpass
    from twinfs.reading.onepass import CONTEXT

    assert checkpass.CheckPass(lambda: None).onepass and checkpass.ONEPASS
    loaded = {}
    monkeypatch.setattr("twinfs.reading.checking.load", lambda path, n_threads=2, n_ctx=1024: loaded.update(
        n_ctx=n_ctx) or ScriptedLlama([]))
    checkpass.checker_for("smollm2")
    assert loaded["n_ctx"] == CONTEXT
