"""The LLM readers for real: the shipped SmolLM2 GGUF in process, and llama-cpp-python's own server over HTTP.

Small context and one short record keep each call to a few seconds on two cores. They check structure, not
quality: a 135M model reads poorly.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from served import free_port

from twinfs.passages import Turn
from twinfs.reading import Window, make_reader
from twinfs.reading.llama import LlamaReader, gbnf, grammar
from twinfs.reading.openai import OpenAIReader, chat_url
from twinfs.reading.prompts import Answer, messages, schema
from twinfs.reading.shipped import smollm2 as shipped_gguf

THREAD = "th_00000000000000aa"
T0 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
KINDS = {"state", "preference", "event", "plan", "relation", "opinion"}
# one record always fits in 300 tokens; one thread, as the other test worker has the other core
SMALL = {"n_ctx": 2048, "max_tokens": 300, "max_records": 1, "n_threads": 1}


def window() -> Window:
    said = [("Caroline", "Hey Mel! How have you been?"),
            ("Melanie", "Busy! I ran a charity race for mental health last Saturday."),
            ("Caroline", "I went to a LGBTQ support group yesterday and it was so powerful."),
            ("Melanie", "I love painting. We are going camping next month.")]
    turns = [Turn(f"D1:{i + 1}", "message", text, T0 + timedelta(seconds=30 * i), "user", name)
             for i, (name, text) in enumerate(said)]
    return Window(THREAD, turns, ["D1:2", "D1:3", "D1:4"], {t.id: "passages/p.md" for t in turns})


def check(outcome, w: Window) -> None:
    # a 135M model may copy the prompt back twice: then the window fails with no records, never fake ones
    assert outcome.failed is None or (outcome.records == [] and outcome.failed.startswith("bad answer twice"))
    assert outcome.tokens > 100  # the backend's own count: the prompt alone is longer
    assert len(outcome.records) <= 1
    for record in outcome.records:
        assert record.kind in KINDS and record.text and record.subject
        assert record.id.startswith(f"{THREAD}#r") and len(record.id.split("#r")[1]) == 16
        assert record.turns and set(record.turns) <= set(w.new)
        assert record.said == "2023-05-08" and record.by == "user" and record.source == "passages/p.md"


@pytest.fixture(scope="module")
def gguf() -> str:
    return str(shipped_gguf())


@pytest.mark.slow
def test_llama_reader_reads_with_the_shipped_gguf(gguf):
    reader = make_reader(model="smollm2", **SMALL)
    assert isinstance(reader, LlamaReader) and reader.path == shipped_gguf()
    w = window()
    outcome = reader.read(w)
    check(outcome, w)
    # the answer itself is held to the schema: valid JSON of the drafts, citing only turns the window reads
    text, tokens = reader._complete(messages(w), schema(w, 1))
    answer = Answer.model_validate(json.loads(text, strict=False))
    assert tokens > 100 and len(answer.records) <= 1
    assert all(set(d.turns) <= set(w.new) for d in answer.records)


@pytest.fixture(scope="module")
def server(gguf):
    port = free_port()
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", gguf, "--host", "127.0.0.1", "--port", str(port),
         "--n_ctx", "2048", "--n_threads", "1", "--verbose", "False"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited: {proc.stderr.read().decode()[-2000:]}")
            try:
                if httpx.get(f"{url}/v1/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("llama_cpp.server did not start within 90 s")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.mark.slow
def test_openai_reader_reads_from_llama_cpp_server(server):
    reader = make_reader(url=server, max_tokens=300, max_records=1)
    assert isinstance(reader, OpenAIReader) and reader.url == f"{server}/v1/chat/completions"
    w = window()
    try:
        outcome = reader.read(w)
        check(outcome, w)
        # llama-cpp-python's server refuses OpenAI's `json_schema` format; the reader falls back to json_object
        assert reader._mode == "json_object"
        assert reader.model  # found on /v1/models
    finally:
        reader.close()


def test_openai_reader_reports_a_dead_endpoint():
    from twinfs.errors import Unavailable

    reader = OpenAIReader(f"http://127.0.0.1:{free_port()}/v1", model="m", timeout=2)
    with pytest.raises(Unavailable):
        reader.read(window())
    assert chat_url("http://h:1/") == "http://h:1/v1/chat/completions"
    assert chat_url("http://h:1/v1/chat/completions") == "http://h:1/v1/chat/completions"


def test_a_window_longer_than_the_context_fails_without_records(gguf):
    outcome = LlamaReader(gguf, n_ctx=256, max_tokens=50, max_records=1).read(window())
    assert outcome.records == [] and "context" in outcome.failed


def test_the_grammar_bounds_each_text_field_flatly():
    text = gbnf(schema(window(), 2))
    assert 'text-string ::= "\\"" char{0,200} "\\"" space' in text
    assert "records-item-text-kv ::= \"\\\"text\\\"\" space \":\" space text-string" in text
    assert '"\\"D1:2\\""' in text and '"\\"D1:1\\""' not in text  # only the turns the window reads
    assert grammar(schema(window(), 2)) is not None


def test_an_endpoint_judges_the_brief_and_a_gguf_on_the_cpu_does_not(gguf, embedder):
    from twinfs.filtering import MeaningFilter, ModelFilter, make_filter

    assert isinstance(make_filter(OpenAIReader("http://127.0.0.1:9/v1", model="m"), embedder), ModelFilter)
    assert isinstance(make_filter(LlamaReader(gguf), embedder), MeaningFilter)  # minutes an answer here
    assert isinstance(make_filter(None, embedder), MeaningFilter)
