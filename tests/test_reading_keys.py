"""Keys written by the model (reading/keys.py), with a real GGUF: SmolLM2-135M, the small shipped model."""
from __future__ import annotations

import subprocess

import pytest

from twinfs.models import AddRequest
from twinfs.passage_keys import keys_path, read_keys
from twinfs.reading.keys import CHARS, NAMES, QUESTIONS, KeyWriter, body_of, key_thread

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

    return KeyWriter(load(str(model_path("smollm2"))))


def test_the_model_reads_the_turns_only():
    body = body_of(PASSAGE)
    assert body.startswith("Context: messages") and "^m1" not in body and "Stratocaster" in body


@pytest.mark.slow
def test_the_model_writes_short_keys_under_the_grammar(writer):
    keys = writer.keys(PASSAGE)
    assert keys is not None  # the grammar holds it to the schema: it always parses
    assert len(keys.questions) <= QUESTIONS and len(keys.about) <= NAMES
    assert all(0 < len(k) <= CHARS for k in (*keys.questions, *keys.about))


@pytest.mark.slow
def test_a_thread_gets_keys_files_indexed_and_committed_once(memory, alice, writer):
    items = [{"id": "m1", "kind": "message", "conversation": "gear", "role": "user", "name": "Mira",
              "text": "Finally picked up the sunburst Stratocaster from the shop in Camden, it plays beautifully.",
              "at": "2024-05-07T09:00:00Z"}]
    res = memory.add(alice, AddRequest(items=items))
    assert memory.wait(alice, [res.event], timeout=60)
    space = memory.space(alice)
    thread = next(iter(space.threads()))
    [passage] = list(space.state.cuts(thread))
    asked = []

    class Counting(KeyWriter):
        def keys(self, text):
            asked.append(text)
            return super().keys(text)

    counting = Counting(writer.llm)
    written = key_thread(space, thread, counting)
    assert key_thread(space, thread, counting) == 0 and len(asked) == 1  # asked once, whatever it said
    if written:
        keys = read_keys(space, passage)
        log = subprocess.run(["git", "-C", str(space.root), "log", "-1", "--format=%s"], capture_output=True,
                             text=True).stdout
        assert log.startswith("keys: p_0001.md of") and space.vault.path(keys_path(passage)).exists()
        doc = space.meaning.hashes(thread)
        assert keys and doc
