"""Reading wired into the pipeline, with a scripted reader: windows, quiet period, budget, edits, restart."""
from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
from conftest import chat

from twinfs import EndUser, Memory, Phase, Settings
from twinfs.models import AddRequest, StatusRequest
from twinfs.reading import Draft, Outcome, finish


class Scripted:
    """A reader that turns every turn it reads into one record, and counts what it was asked."""

    name = "scripted"

    def __init__(self, tokens_per_turn: int = 10):
        self.calls: list[tuple[int, list[str]]] = []
        self.tokens_per_turn = tokens_per_turn

    def read(self, window):
        self.calls.append((window.position, list(window.new)))
        drafts = [Draft(kind="event", text=f"{t.speaker} said: {t.text[:60]}", subject=t.speaker, turns=[t.id])
                  for t in window.reading]
        return Outcome(records=finish(window, drafts), tokens=self.tokens_per_turn * len(window.new))


class Clock:
    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now


LINES = [(f"m{i:02d}", "user" if i % 2 == 0 else "assistant", f"line {i} about topic {i}") for i in range(30)]
T0 = datetime(2026, 10, 1, 9, 0, tzinfo=UTC)


def open_memory(home, embedder, reader, clock, **kw):
    settings = Settings(home=home, reading=True, quiet_seconds=600, **kw)
    return Memory(settings, embedder=embedder, reader=reader, clock=clock).start()


@pytest.fixture
def user():
    return EndUser(org="acme", project="app", account="reader")


def phases(memory, user, ids):
    return memory.status(user, StatusRequest(ids=ids)).phases


@pytest.mark.slow
def test_full_windows_are_read_at_once_and_the_newest_part_after_a_quiet_spell(tmp_path, embedder, user):
    reader, clock = Scripted(), Clock(T0 + timedelta(minutes=21))  # the last turn was said at 09:19:20
    memory = open_memory(tmp_path, embedder, reader, clock)
    try:
        memory.add(user, AddRequest(items=chat("c1", LINES, start=T0), wait=True))
        memory.idle(30)
        assert [pos for pos, _ in reader.calls] == [0, 1]  # two full windows of 12; 6 turns still waiting
        got = phases(memory, user, ["m00", "m23", "m24", "m29"])
        assert got == {"m00": Phase.folded, "m23": Phase.folded, "m24": Phase.landed, "m29": Phase.landed}
        records_file = next((memory.home / "users" / user.dirname / "records").glob("th_*.json"))
        records = json.loads(records_file.read_text())
        assert len(records) == 24 and records[0]["turns"] == ["m00"] and records[0]["said"] == "2026-10-01"
        assert all(r["id"].startswith(records_file.stem + "#r") for r in records)
        log = memory.space(user).vault.repo.git.log("--format=%s").splitlines()
        assert any(m.startswith("read: ") and records_file.stem in m for m in log)

        clock.now = T0 + timedelta(minutes=40)  # quiet for 20 minutes now
        memory.pipeline.wake(memory.space(user))
        memory.idle(30)
        assert [pos for pos, _ in reader.calls] == [0, 1, 2]
        assert phases(memory, user, ["m29"]) == {"m29": Phase.read}  # folded again only after TWIN_FOLD_SECONDS
        assert len(json.loads(records_file.read_text())) == 30

        # the conversation grows: only the window that changed is read again, and it replaces its records
        more = chat("c1", [("m30", "user", "line 30 arrives late")], start=T0 + timedelta(minutes=50))
        memory.add(user, AddRequest(items=more, wait=True))
        clock.now = T0 + timedelta(hours=2)
        memory.pipeline.wake(memory.space(user))
        memory.idle(30)
        assert reader.calls[-1] == (2, [f"m{i}" for i in range(24, 31)])
        assert len(reader.calls) == 4
        assert len(json.loads(records_file.read_text())) == 31

        # an edit re-reads only the window that holds it
        edit = chat("c1", LINES, start=T0)[5:6]
        edit[0]["text"] = "line 5 was edited"
        memory.add(user, AddRequest(items=edit, wait=True))
        memory.pipeline.wake(memory.space(user))
        memory.idle(30)
        assert reader.calls[-1][0] == 0 and len(reader.calls) == 5
        texts = [r["text"] for r in json.loads(records_file.read_text())]
        assert any("line 5 was edited" in t for t in texts) and not any("line 5 about" in t for t in texts)
    finally:
        memory.close()

    # after a restart, nothing already read is read again
    again = Scripted()
    memory = open_memory(tmp_path, embedder, again, Clock(T0 + timedelta(hours=3)))
    try:
        memory.idle(30)
        assert again.calls == []
    finally:
        memory.close()


def test_an_item_edited_into_another_conversation_moves_with_its_records(tmp_path, embedder, user):
    reader, clock = Scripted(), Clock(T0 + timedelta(hours=5))
    memory = open_memory(tmp_path, embedder, reader, clock)
    try:
        memory.add(user, AddRequest(items=chat("c1", LINES[:3], start=T0), wait=True))
        memory.idle(30)
        moved = chat("c9", LINES[:3], start=T0)
        memory.add(user, AddRequest(items=moved, wait=True))
        memory.idle(30)
        root = memory.home / "users" / user.dirname
        assert len(list(root.glob("items/*/m00.json"))) == 1  # the item lives in one thread only
        assert len(list(root.glob("passages/**/*.md"))) == 1
        records = list(root.glob("records/*.json"))
        assert len(records) == 1 and len(json.loads(records[0].read_text())) == 3
        assert memory.space(user).words.count() == memory.space(user).meaning.count() == 4  # 1 passage, 3 records
    finally:
        memory.close()


def test_a_spent_budget_holds_reading_until_the_next_utc_day(tmp_path, embedder, user):
    reader, clock = Scripted(tokens_per_turn=10), Clock(datetime(2026, 10, 1, 23, 0, tzinfo=UTC))
    memory = open_memory(tmp_path, embedder, reader, clock, daily_read_tokens=150)
    try:
        memory.add(user, AddRequest(items=chat("c1", LINES[:24], start=T0), wait=True))
        memory.add(user, AddRequest(items=chat("c2", [(f"n{i}", r, t) for i, (_, r, t) in enumerate(LINES[:24])],
                                               start=T0), wait=True))
        memory.idle(30)
        assert len(reader.calls) == 2  # 120 tokens, then 240 > 150: the third window waits
        assert memory.reading.waiting("acme")
        status = memory.status(user, StatusRequest(ids=["m00", "m23"]))
        assert status.notes and "waiting on the daily budget until 2026-10-02 00:00 UTC" in status.notes[0]
        from twinfs.models import SearchRequest

        brief = memory.search(user, SearchRequest(query="topic 3", fast=True))
        assert any("waiting on the daily budget" in n for n in brief.notes)
        assert brief.hits  # landing and search keep working while reading waits
        assert sorted(set(phases(memory, user, ["m00", "m23"]).values())) != [Phase.read]
        clock.now = datetime(2026, 10, 2, 0, 1, tzinfo=UTC)
        assert not memory.reading.waiting("acme")
        memory.pipeline.wake(memory.space(user))
        memory.idle(30)
        assert len(reader.calls) == 4
    finally:
        memory.close()


def test_an_add_lands_while_another_end_user_is_being_read(tmp_path, embedder, user):
    """Landing has workers of its own: with one worker, an add still lands while a slow read holds the other."""
    started, release = threading.Event(), threading.Event()

    class Slow(Scripted):
        def read(self, window):
            started.set()
            release.wait(60)
            return super().read(window)

    other = EndUser(org="acme", project="app", account="other")
    memory = open_memory(tmp_path, embedder, Slow(), Clock(T0 + timedelta(hours=1)), workers=1)
    try:
        memory.add(user, AddRequest(items=chat("c1", LINES[:12], start=T0)))  # one full window: read at once
        assert started.wait(30)
        added = memory.add(other, AddRequest(items=chat("c2", LINES[:3], start=T0), wait=True))
        assert set(added.phases.values()) == {Phase.landed}  # landed while the read is still held
        assert phases(memory, user, ["m00"]) == {"m00": Phase.landed}
        release.set()
        assert memory.idle(60)
        assert phases(memory, user, ["m00"]) == {"m00": Phase.folded}
    finally:
        release.set()
        memory.close()


def test_the_same_end_user_lands_an_add_while_a_window_is_read_and_a_window_changed_meanwhile_is_read_again(
        tmp_path, embedder, user):
    """The reader runs without the end user's writer: an add to the conversation being read lands at once (a
    model takes 40-150 s a window), and what was read of a window an edit changed meanwhile is not filed — the
    window is read again as it now stands."""
    started, release = threading.Event(), threading.Event()

    class Slow(Scripted):
        def __init__(self):
            super().__init__()
            self.held: list[bool] = []  # was the writer taken while it read?

        def read(self, window):
            self.held.append(space.writer.locked())
            if len(self.calls) == 0:
                started.set()
                release.wait(60)
            return super().read(window)

    reader = Slow()
    memory = open_memory(tmp_path, embedder, reader, Clock(T0 + timedelta(hours=1)))
    try:
        space = memory.space(user, create=True)
        memory.add(user, AddRequest(items=chat("c1", LINES[:12], start=T0)))  # one full window: read at once
        assert started.wait(30)
        edit = chat("c1", LINES[:12], start=T0)[3:4]
        edit[0]["text"] = "line 3 was edited while the window was read"
        added = memory.add(user, AddRequest(items=edit, wait=True))
        assert set(added.phases.values()) == {Phase.landed}  # landed while the read was still under way
        release.set()
        assert memory.idle(60)
        assert not any(reader.held)
        assert [pos for pos, _ in reader.calls] == [0, 0]  # read as it was, then again as it is
        records = json.loads(next((space.root / "records").glob("th_*.json")).read_text())
        texts = [r["text"] for r in records]
        assert len(records) == 12 and any("was edited" in t for t in texts)
        assert not any("line 3 about" in t for t in texts)  # the read of the window as it was is not filed
        assert phases(memory, user, ["m00", "m03"]) == {"m00": Phase.folded, "m03": Phase.folded}
    finally:
        release.set()
        memory.close()


@pytest.mark.slow
@pytest.mark.parametrize("gives_way_for", [60.0, 0.5])
def test_reading_gives_way_to_adds_still_coming_in_but_not_for_ever(tmp_path, embedder, user, monkeypatch,
                                                                     gives_way_for):
    """A read beside a landing slows it (both Python under one GIL): reading waits until the end user's adds
    pause (read.ADDS_QUIET), and reads anyway once it has waited YIELD_MAX."""
    from twinfs.steps import read

    monkeypatch.setattr(read, "ADDS_QUIET", 3.0)
    monkeypatch.setattr(read, "YIELD_MAX", gives_way_for)
    reader = Scripted()
    memory = open_memory(tmp_path, embedder, reader, Clock(T0 + timedelta(hours=1)))
    try:
        memory.add(user, AddRequest(items=chat("c1", LINES[:12], start=T0), wait=True))  # a window to read now
        read_during = False
        for n in range(8):  # adds to another conversation, a quarter of a second apart
            time.sleep(0.25)
            memory.add(user, AddRequest(items=chat("c2", [(f"x{n}", "user", f"more {n}")], start=T0), wait=True))
            read_during = read_during or bool(reader.calls)
        assert read_during == (gives_way_for < 1)
        assert memory.idle(60)
        assert reader.calls and phases(memory, user, ["m00"]) == {"m00": Phase.folded}
    finally:
        memory.close()


@pytest.mark.parametrize("wait_at_most", [60.0, 0.3])
def test_a_window_waits_while_another_end_user_lands_but_not_for_ever(tmp_path, embedder, user, monkeypatch,
                                                                      wait_at_most):
    from twinfs.steps import read

    monkeypatch.setattr(read, "ADDS_QUIET", 0.0)
    monkeypatch.setattr(read, "LANDING_WAIT", wait_at_most)
    landing = threading.Event()
    reader = Scripted()
    memory = open_memory(tmp_path, embedder, reader, Clock(T0 + timedelta(hours=1)))
    try:
        memory.reading.landing = lambda: landing.is_set() or memory.pipeline.landing()
        landing.set()  # another end user's add is landing, as far as the reader can tell
        memory.add(user, AddRequest(items=chat("c1", LINES[:12], start=T0), wait=True))  # a window to read now
        time.sleep(1.5)
        assert bool(reader.calls) == (wait_at_most < 1)
        landing.clear()
        assert memory.idle(60)
        assert reader.calls and phases(memory, user, ["m00"]) == {"m00": Phase.folded}
    finally:
        landing.clear()
        memory.close()


def test_the_fold_step_folds_before_it_takes_the_writer(tmp_path, embedder, user, monkeypatch):
    """Folding every record takes seconds in a big vault: done beforehand (kept for the brief too), so under the
    writer only the pages are written — unless a record file changed in between, when it folds again."""
    from twinfs import brief

    held: list[bool] = []
    fold = brief.folding.fold

    def watched(records, embedder):
        held.append(space.writer.locked())
        return fold(records, embedder)

    monkeypatch.setattr(brief.folding, "fold", watched)
    memory = open_memory(tmp_path, embedder, Scripted(), Clock(T0 + timedelta(hours=1)))
    try:
        space = memory.space(user, create=True)
        memory.add(user, AddRequest(items=chat("c1", LINES[:12], start=T0), wait=True))
        assert memory.idle(60)
        assert phases(memory, user, ["m00"]) == {"m00": Phase.folded}
        assert list((space.root / "pages").glob("*.md"))
        assert held == [False]  # folded once, without the writer; the pages written from that fold
    finally:
        memory.close()


def test_a_reader_with_a_model_to_load_loads_it_before_taking_the_writer(tmp_path, embedder, user):
    """The rules reader loads spaCy (seconds) on its first read: asked to warm before the writer is taken, so an
    add that comes in meanwhile lands without waiting for the load."""
    class Warming(Scripted):
        def __init__(self):
            super().__init__()
            self.warmed: list[bool] = []  # was the writer held when it was asked?

        def warm(self):
            self.warmed.append(space.writer.locked())

    reader = Warming()
    memory = open_memory(tmp_path, embedder, reader, Clock(T0 + timedelta(minutes=21)))
    try:
        space = memory.space(user)
        memory.add(user, AddRequest(items=chat("c1", LINES, start=T0), wait=True))
        memory.idle(30)
        assert reader.calls and reader.warmed and not any(reader.warmed)
    finally:
        memory.close()


def test_the_rules_reader_warms_by_loading_its_pipeline():
    from twinfs.reading import pipeline, rules

    rules.RulesReader().warm()
    assert pipeline._nlp is not None and pipeline.nlp() is pipeline._nlp
