"""Keys written by the model (reading/keys.py): asked through the model pass's Checker.complete (a scripted model
for the mechanics), and with a real GGUF: SmolLM2-135M, the small shipped model, and Qwen2.5-Coder-1.5B where
installed."""
from __future__ import annotations

import functools
import json
import subprocess

import pytest

from twinfs.models import AddRequest
from twinfs.passage_keys import PassageKeys, keys_path, read_keys
from twinfs.reading import checking
from twinfs.reading import keys as model_keys
from twinfs.reading.keys import CHARS, MAX_TOKENS, NAMES, QUESTIONS, KeyWriter, body_of, key_thread, writer_for

PASSAGE = """---
id: th_0000000000000000/p_0001
thread: th_0000000000000000
turns: [m1, m2]
roles: [user]
from: '2024-05-07T09:00:00Z'
to: '2024-05-07T09:01:00Z'
---
Context: messages (memory), 7 May 2024.

**Mira** 09:00 · Finally picked up the sunburst Stratocaster from the shop in Camden, it plays beautifully. ^m1
**Jon** 09:01 · Nice! Are you bringing it to band practice on Friday? ^m2
"""


@pytest.fixture(scope="module")
def writer():
    from twinfs.reading.checking import load
    from twinfs.reading.shipped import model_path

    return KeyWriter(checking.Checker(load(str(model_path("smollm2")), n_threads=1)))


class ScriptedLlama:
    """A llama_cpp.Llama's surface the checker uses, answering each completion from a script and noting what it
    was asked (the prompt, the token bound, the grammar object)."""

    def __init__(self, answers: list[str]):
        self.answers = list(answers)
        self.asked: list[dict] = []

    def tokenize(self, text: bytes, add_bos: bool = False, special: bool = True) -> list[int]:
        return list(range(len(text.split())))

    def eval(self, tokens: list[int]) -> None:
        return None

    def create_completion(self, prompt: str, **kwargs) -> dict:
        self.asked.append({"prompt": prompt, **kwargs})
        return {"choices": [{"text": self.answers.pop(0)}]}


KEYS_ANSWER = json.dumps({"questions": ["What guitar did Mira buy?", " ", "What guitar did Mira buy?"],
                          "about": ["Mira", "Camden"]})


def test_keys_are_asked_through_the_checkers_complete_with_their_own_bounds():
    llm = ScriptedLlama([KEYS_ANSWER, KEYS_ANSWER, "not json", '{"keep": true, "attribute": "home", "value": "x"}'])
    checker = checking.Checker(llm)
    writer = KeyWriter(checker)
    keys = writer.answer(PASSAGE)
    assert keys.questions == ("What guitar did Mira buy?",) and keys.about == ("Mira", "Camden")  # blanks, twice: once
    first = llm.asked[0]
    assert first["prompt"] == model_keys.PREFIX + body_of(PASSAGE) + model_keys.SUFFIX
    assert first["max_tokens"] == MAX_TOKENS
    assert f"{{1,{CHARS}}}" in first["grammar"]._grammar  # each key 1 to CHARS characters
    # code's check keeps what the passage says ("Camden"), not a speaker alone nor a guitar it never names
    assert writer.keys(PASSAGE) == PassageKeys((), ("Camden",))
    assert llm.asked[1]["grammar"] is first["grammar"]  # the keys' grammar made once
    assert writer.keys(PASSAGE) is None and writer.asked == 3  # an answer that does not parse: no keys
    # the check's own questions as before: the checker's 48 tokens, its grammar, values 0 to VALUE_CHARS
    answer = checker.ask(checking.Question("I live in Porto now.", attribute="home", value="Porto"))
    check = llm.asked[-1]
    assert answer is not None and check["max_tokens"] == 48 and check["grammar"] is not first["grammar"]
    assert check["grammar"] is checker.grammars[json.dumps(checking.SCHEMA, sort_keys=True)]
    assert f"{{0,{checking.VALUE_CHARS}}}" in check["grammar"]._grammar
    assert checker.questions == 1  # keys are not counted as the pass's questions


def test_no_checker_no_keys_and_one_writer_a_checker():
    checker = checking.Checker(ScriptedLlama([]))
    assert writer_for(None) is None
    assert writer_for(checker) is writer_for(checker) and writer_for(checker).checker is checker


def test_a_passage_is_found_by_the_keys_a_scripted_model_wrote(memory, alice):
    space, thread, passage = one_passage(memory, alice)
    answer = json.dumps({"questions": ["Which instrument did she purchase in Camden?"],
                         "about": ["sunburst electric guitar"]})
    llm = ScriptedLlama([answer])
    assert key_thread(space, thread, KeyWriter(checking.Checker(llm))) == 1
    assert key_thread(space, thread, KeyWriter(checking.Checker(llm))) == 0 and len(llm.asked) == 1  # asked once
    assert read_keys(space, passage).about == ("sunburst electric guitar",)
    log = subprocess.run(["git", "-C", str(space.root), "log", "-1", "--format=%s"], capture_output=True,
                         text=True).stdout
    assert log.startswith("keys: p_0001.md of")
    words = space.words.search("purchase instrument electric", space_bounds(), 5)
    assert [path for _, path, _ in words] == [passage]  # only its keys say these words
    assert not space.words.search("purchase instrument electric", space_bounds(), 5, keys=False)


def one_passage(memory, alice):
    """Mira's one turn about her guitar, landed: its space, thread and only passage."""
    items = [{"id": "m1", "kind": "message", "conversation": "gear", "role": "user", "name": "Mira",
              "text": "Finally picked up the sunburst Stratocaster from the shop in Camden, it plays beautifully.",
              "at": "2024-05-07T09:00:00Z"}]
    res = memory.add(alice, AddRequest(items=items))
    assert memory.wait(alice, [res.event], timeout=60)
    space = memory.space(alice)
    thread = next(iter(space.threads()))
    [passage] = list(space.state.cuts(thread))
    return space, thread, passage


def space_bounds():
    from twinfs.index import Bounds

    return Bounds(type="passage")


def test_the_model_reads_the_turns_only():
    body = body_of(PASSAGE)
    assert body.startswith("Context: messages") and "^m1" not in body and "09:00" not in body
    assert "\nMira: Finally picked up the sunburst Stratocaster" in body and "\nJon: Nice!" in body


@pytest.mark.slow
def test_the_model_writes_short_keys_under_the_grammar(writer):
    keys = writer.keys(PASSAGE)
    assert keys is not None  # the grammar holds it to the schema: it always parses
    assert len(keys.questions) <= QUESTIONS and len(keys.about) <= NAMES
    assert all(0 < len(k) <= CHARS for k in (*keys.questions, *keys.about))


@pytest.mark.slow
def test_a_thread_gets_keys_files_indexed_and_committed_once(memory, alice, writer):
    space, thread, passage = one_passage(memory, alice)
    asked = []

    class Counting(KeyWriter):
        def keys(self, text):
            asked.append(text)
            return super().keys(text)

    counting = Counting(writer.checker)
    written = key_thread(space, thread, counting)
    assert key_thread(space, thread, counting) == 0 and len(asked) == 1  # asked once, whatever it said
    if written:
        keys = read_keys(space, passage)
        log = subprocess.run(["git", "-C", str(space.root), "log", "-1", "--format=%s"], capture_output=True,
                             text=True).stdout
        assert log.startswith("keys: p_0001.md of") and space.vault.path(keys_path(passage)).exists()
        doc = space.meaning.hashes(thread)
        assert keys and doc


@functools.cache
def _qwen() -> object:
    from twinfs.reading.shipped import model_path

    return checking.load(str(model_path("qwen-coder-1.5b")), n_threads=1)


def qwen_keys(passage: str) -> PassageKeys | None:
    """The keys Qwen2.5-Coder-1.5B writes for `passage` (loaded once a process); skips where it is not installed."""
    from twinfs.errors import Invalid

    try:
        llama = _qwen()
    except (Invalid, ImportError, ValueError) as e:
        pytest.skip(f"Qwen2.5-Coder-1.5B is not installed here: {str(e).splitlines()[0]}")
    return KeyWriter(checking.Checker(llama)).keys(passage)


@pytest.mark.slow
def test_qwen_writes_keys_naming_what_the_passage_says():
    keys = qwen_keys(PASSAGE)
    assert keys is not None and keys.questions and len(keys.questions) <= QUESTIONS
    said = " ".join((*keys.questions, *keys.about)).lower()
    assert "mira" in said and ("stratocaster" in said or "guitar" in said)
