"""A reader that fails, dies or hangs mid-window: that window is tried again later with back-off, status says so,
and landing, search and the other windows go on. The llama.cpp child and the endpoint are real (SmolLM2, a
socket that never answers)."""
from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time
from contextlib import suppress
from datetime import timedelta

import pytest
from conftest import chat
from test_filing import LINES, T0, Clock, Scripted, open_memory, phases
from test_reading_llm import SMALL, window

from twinfs import EndUser, Phase
from twinfs.errors import Unavailable
from twinfs.models import AddRequest, ForgetRequest, SearchRequest, StatusRequest
from twinfs.reading import Outcome
from twinfs.reading.llama import LlamaReader
from twinfs.reading.openai import OpenAIReader
from twinfs.steps.read import FIRST_RETRY


@pytest.fixture
def user():
    return EndUser(org="acme", project="app", account="faults")


class Flaky(Scripted):
    """Fails the first `failures` reads of window 0 in `how`: "raise" (a crash), "down" (Unavailable), "bad"."""

    def __init__(self, failures: int, how: str):
        super().__init__()
        self.failures = failures
        self.how = how

    def read(self, window):
        if window.position == 0 and self.failures > 0:
            self.failures -= 1
            self.calls.append((window.position, ["failed"]))
            if self.how == "raise":
                raise RuntimeError("llama.cpp crashed")
            if self.how == "down":
                raise Unavailable("the reader endpoint did not answer", retry_after=5)
            return Outcome([], 40, failed="bad answer twice: not JSON")
        return super().read(window)


@pytest.mark.parametrize("how", ["raise", "bad", "down"])
def test_a_failed_window_is_read_again_after_a_back_off_and_status_says_so(tmp_path, embedder, user, how):
    clock = Clock(T0 + timedelta(hours=1))
    reader = Flaky(failures=2, how=how)
    memory = open_memory(tmp_path, embedder, reader, clock)
    try:
        memory.add(user, AddRequest(items=chat("c1", LINES[:24], start=T0), wait=True))
        assert memory.idle(120)
        first = [c for c in reader.calls if c[1] == ["failed"]]
        assert len(first) == 1
        ids = ["m00", "m11", "m12"]
        # a crash or an endpoint down stops this pass; a bad answer lets the next window be read
        assert phases(memory, user, ids)["m12"] == (Phase.landed if how != "bad" else Phase.folded)
        assert phases(memory, user, ids)["m00"] == Phase.landed
        notes = memory.status(user, StatusRequest(ids=ids)).notes
        assert notes and "1 window of 1 conversation could not be read yet" in notes[-1]
        assert "tried again from 2026-10-01 10:00:30 UTC" in notes[-1]
        assert memory.search(user, SearchRequest(query="topic 3", fast=True)).hits  # search is unaffected

        memory.pipeline.wake(memory.space(user))  # woken before the back-off is over: nothing is read
        assert memory.idle(120)
        assert len([c for c in reader.calls if c[1] == ["failed"]]) == 1

        clock.now += timedelta(seconds=FIRST_RETRY)  # fails again: the back-off doubles
        memory.pipeline.wake(memory.space(user))
        assert memory.idle(120)
        assert len([c for c in reader.calls if c[1] == ["failed"]]) == 2
        assert "tried again from 2026-10-01 10:01:30 UTC" in memory.status(user, StatusRequest(ids=ids)).notes[-1]

        clock.now += timedelta(seconds=2 * FIRST_RETRY)  # the reader works again
        memory.pipeline.wake(memory.space(user))
        assert memory.idle(120)
        assert set(phases(memory, user, ids).values()) <= {Phase.read, Phase.folded}
        assert memory.status(user, StatusRequest(ids=ids)).notes is None
        records = json.loads(next((memory.home / "users" / user.dirname / "records").glob("th_*.json")).read_text())
        assert sorted(t for r in records for t in r["turns"]) == [f"m{i:02d}" for i in range(24)]
    finally:
        memory.close()


@pytest.mark.slow
def test_a_reader_child_that_is_killed_is_started_again(tmp_path):
    reader = LlamaReader("smollm2", **SMALL, timeout=300)
    reader.child.load()
    pid = reader.child.pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(Unavailable, match="died"):
        reader.read(window())
    outcome = reader.read(window())  # a new child, the same model
    assert reader.child.pid not in (None, pid) and outcome.tokens > 100


def test_a_reader_child_that_hangs_is_ended_at_its_deadline():
    reader = LlamaReader("smollm2", **SMALL, timeout=300)
    reader.child.load()
    pid = reader.child.pid
    os.kill(pid, signal.SIGSTOP)  # a hang: the process lives but never answers
    reader.timeout = 1.0
    started = time.monotonic()
    try:
        with pytest.raises(Unavailable, match="did not answer within 1 s"):
            reader.read(window())
    finally:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)
    assert time.monotonic() - started < 10
    assert reader.child.pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # the hung child was ended, not left behind


@pytest.fixture
def silent_endpoint():
    """A socket that accepts connections and reads requests but never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
                held.append(conn)
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join(5)
    for conn in held:
        conn.close()
    server.close()


@pytest.mark.slow
def test_an_endpoint_that_never_answers_times_out_and_its_window_waits(tmp_path, embedder, user, silent_endpoint):
    reader = OpenAIReader(silent_endpoint, model="m", timeout=1.0)
    started = time.monotonic()
    with pytest.raises(Unavailable, match="did not answer"):
        reader.read(window())
    assert time.monotonic() - started < 10

    clock = Clock(T0 + timedelta(hours=1))
    memory = open_memory(tmp_path, embedder, reader, clock)
    try:
        memory.add(user, AddRequest(items=chat("c1", LINES[:12], start=T0), wait=True))
        assert memory.idle(120)
        assert phases(memory, user, ["m00"]) == {"m00": Phase.landed}
        notes = memory.status(user, StatusRequest(ids=["m00"])).notes
        assert notes and "could not be read yet" in notes[-1] and "did not answer" in notes[-1]
        assert memory.search(user, SearchRequest(query="topic 3", fast=True)).hits
        other = EndUser(org="acme", project="app", account="other")
        added = memory.add(other, AddRequest(items=chat("c2", LINES[:3], start=T0), wait=True))
        assert set(added.phases.values()) == {Phase.landed}  # landing for another end user goes on
    finally:
        memory.close()
        reader.close()


class Slow(Scripted):
    """Takes its time over each window, and says when the first one began."""

    def __init__(self):
        super().__init__()
        self.began = threading.Event()

    def read(self, window):
        self.began.set()
        time.sleep(0.5)
        return super().read(window)


def read_backlog(memory, user, reader: Slow) -> None:
    """Eight conversations of 12 turns added, and the reading of the first under way."""
    items = [it for c in range(8) for it in chat(f"c{c}", [(f"c{c}-{i}", "user", f"conversation {c} line {i}")
                                                          for i in range(12)], start=T0)]
    memory.add(user, AddRequest(items=items, wait=True))
    assert reader.began.wait(120)


def test_closing_ends_a_reading_pass_after_the_conversation_under_way(tmp_path, embedder, user):
    """A stop (SIGTERM to twin serve) does not wait for a pass over a long backlog: the rest is read next time."""
    reader = Slow()
    memory = open_memory(tmp_path, embedder, reader, Clock(T0 + timedelta(hours=1)))
    try:
        read_backlog(memory, user, reader)
    finally:
        memory.close()
    read = {c[1][0].split("-")[0] for c in reader.calls}
    assert 1 <= len(read) < 8, read  # the conversation under way was finished; the others wait in the vault
    again = open_memory(tmp_path, embedder, Scripted(), Clock(T0 + timedelta(hours=1)))
    try:
        assert again.idle(120)
        ids = [f"c{c}-11" for c in range(8)]
        assert all(p in (Phase.read, Phase.folded) for p in phases(again, user, ids).values())
    finally:
        again.close()


@pytest.mark.slow
def test_a_forget_waits_for_the_conversation_being_read_not_for_the_whole_backlog(tmp_path, embedder, user):
    """Reading takes the end user's writer one conversation at a time: a forget (or a correct, or a first open)
    asked while a backlog is read runs after the conversation under way."""
    reader = Slow()
    memory = open_memory(tmp_path, embedder, reader, Clock(T0 + timedelta(hours=1)))
    try:
        read_backlog(memory, user, reader)
        memory.forget(user, ForgetRequest(ids=["c7-0"]))
        read = {c[1][0].split("-")[0] for c in reader.calls}
        assert len(read) <= 2, read  # the conversation under way (and at most the next) was read first
        assert memory.idle(120)
        assert len({c[1][0].split("-")[0] for c in reader.calls}) == 8  # the pass went on after the forget
    finally:
        memory.close()
