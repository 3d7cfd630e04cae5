"""Landing a long conversation cuts only its tail, into the very passages a whole cut makes."""
from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from twinfs.models import AddRequest
from twinfs.passages import parse, render
from twinfs.steps import land

T0 = datetime(2026, 10, 1, 9, 0, tzinfo=UTC)


def turn(n: int, at: datetime, text: str) -> dict:
    return {"id": f"m{n:03d}", "kind": "message", "conversation": "long", "role": "user" if n % 2 else "assistant",
            "name": "Alice Chen" if n % 2 else None, "text": text, "at": at.isoformat()}


def whole_cut(space, thread: str) -> dict[str, str]:
    return {p.path: render(p) for p in land.cut_thread(thread, space.thread_items(thread))}


def on_disk(space) -> dict[str, str]:
    return {f.relative_to(space.root).as_posix(): f.read_text(encoding="utf-8")
            for f in space.root.glob("passages/**/*.md")}


@pytest.mark.slow
def test_adds_at_the_end_cut_only_the_tail_into_the_passages_a_whole_cut_makes(memory, alice, monkeypatch):
    rng = random.Random(7)
    rendered = []
    monkeypatch.setattr(land, "render", lambda p: rendered.append(p.number) or render(p))
    at, n = T0, 0
    for batch in range(24):
        items = []
        for _ in range(rng.randint(1, 4)):
            at += timedelta(hours=2) if rng.random() < 0.1 else timedelta(seconds=30)  # now and then a pause
            words = rng.choice([8, 30, 300])  # a long turn is cut in pieces across passages
            items.append(turn(n, at, " ".join(f"w{n}x{i}" for i in range(words))))
            n += 1
        space = memory.space(alice)
        had = len(space.state.cuts(space.threads()[0])) if batch else 0
        rendered.clear()
        memory.add(alice, AddRequest(items=items, wait=True))
        thread = space.threads()[0]
        if batch:  # the tail: from the last passage that begins with a whole turn
            assert rendered and min(rendered) >= had - 2, (had, rendered)
    assert len(space.state.cuts(thread)) > 12
    assert on_disk(space) == whole_cut(space, thread)

    # an edit in the middle, and a turn said before the others, cut again only the passages around them
    middle = dict(space.thread_item(thread, "m010"))
    rendered.clear()
    memory.add(alice, AddRequest(items=[{**turn(10, datetime.fromisoformat(middle["at"]), "edited words")},
                                        turn(999, T0 - timedelta(days=1), "said first")], wait=True))
    assert len(rendered) < len(space.state.cuts(thread)) // 2
    on = on_disk(space)
    assert "edited words" in "".join(on.values())
    held = [t for text in on.values() for t in parse(text).turns]
    assert set(held) == {e["id"] for e in space.thread_items(thread)}
    short = {e["id"] for e in space.thread_items(thread) if len(e["text"]) < 900}  # in one passage, once
    assert sorted(t for t in held if t in short) == sorted(short)


def test_after_a_restart_the_cut_is_read_back_from_the_files_and_only_the_tail_cut(settings, embedder, alice,
                                                                                    monkeypatch):
    from twinfs import Memory

    with Memory(settings, embedder=embedder) as m:
        m.add(alice, AddRequest(items=[turn(i, T0 + timedelta(seconds=30 * i), "word " * 60) for i in range(40)],
                                wait=True))
    rendered = []
    monkeypatch.setattr(land, "render", lambda p: rendered.append(p.number) or render(p))
    with Memory(settings, embedder=embedder) as m:
        space = m.space(alice)
        total = len(space.state.cuts(space.threads()[0]))
        m.add(alice, AddRequest(items=[turn(40, T0 + timedelta(seconds=30 * 40), "one more")], wait=True))
        assert total > 5 and len(rendered) <= 2  # where the passages begin, read back from their files
        rendered.clear()
        m.add(alice, AddRequest(items=[turn(41, T0 + timedelta(seconds=30 * 41), "and another")], wait=True))
        assert len(rendered) <= 2
        assert on_disk(space) == whole_cut(space, space.threads()[0])


def test_a_state_write_that_fails_midway_leaves_the_state_as_it_was_and_usable(tmp_path):
    """Each write of several rows is one transaction: an error inside rolls it back, so the connection is not left
    mid-transaction (where every later write would fail) and no half of the write stays."""
    import pytest

    from twinfs.state import State

    state = State(tmp_path / "state.sqlite")
    state.set_cuts("th_a", {"passages/a/0001.md": "h1", "passages/a/0002.md": "h2"})
    with pytest.raises(sqlite3.Error):
        state.set_cuts("th_a", {"passages/a/0001.md": "h3", "passages/a/0002.md": {"not": "a hash"}})
    assert state.cuts("th_a") == {"passages/a/0001.md": "h1", "passages/a/0002.md": "h2"}  # the delete undone
    with pytest.raises(sqlite3.Error):
        state.adopt("ev1", [("i1", "th_a", "h"), ("i2", "th_a", object())])
    assert state.phases(["i1"])["i1"].value == "unknown"
    state.adopt("ev1", [("i1", "th_a", "h")])
    state.forget(["i1"], ["th_a"])
    state.set_cuts("th_a", {"passages/a/0001.md": "h4"})  # still writable
    assert state.cuts("th_a") == {"passages/a/0001.md": "h4"}
    state.close()
