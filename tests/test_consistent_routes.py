"""Every read route answers from one state of the vault (issue #35): the brief's quoted passages wait for a cut
that holds the passages' lock, as grep and read do, and quote what it left; a file that goes between a listing
and its read is never an error nor a silent gap; a grep is refused as too slow only for its pattern's sake."""
from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest

from twinfs.errors import Invalid
from twinfs.models import AddRequest, GrepRequest, SearchRequest

T0 = datetime(2026, 10, 1, 9, 0, tzinfo=UTC)
WAIT = 1.0  # seconds the brief is given to finish while a cut holds the lock: it must not


def test_the_brief_quotes_its_passages_as_a_cut_left_them_waiting_while_it_writes_them(memory, alice):
    memory.add(alice, AddRequest(items=[{"id": "m1", "kind": "message", "conversation": "walks", "role": "user",
                                         "text": "We walked along the river to the old mill", "at": T0.isoformat()}],
                                 wait=True))
    space = memory.space(alice)
    asked = SearchRequest(query="river mill walk", fast=True)
    path = memory.search(alice, asked).hits[0].path
    target = space.root / path
    text = target.read_text(encoding="utf-8")
    answers = []
    brief = threading.Thread(target=lambda: answers.append(memory.search(alice, asked)))
    with space.passages_lock.exclusive():  # a cut midway: the passage taken away, its new text not written yet
        target.unlink()
        brief.start()
        brief.join(WAIT)
        waited = brief.is_alive()
        target.write_text(text.replace("old mill", "old mill, cut again"), encoding="utf-8")
    brief.join()
    assert waited  # it read no passage while the cut was writing them
    quoted = {hit.path: hit.text for hit in answers[0].hits}
    assert "old mill, cut again" in quoted[path]  # the passage as the cut left it, not a gap


def test_an_item_moved_to_another_conversation_is_in_one_of_them_at_every_moment(memory, alice, monkeypatch):
    def said(conversation: str) -> dict:
        return {"id": "m1", "kind": "message", "conversation": conversation, "role": "user",
                "text": "A blue heron stood by the weir", "at": T0.isoformat()}

    memory.add(alice, AddRequest(items=[said("walks")], wait=True))
    space = memory.space(alice)
    name = space.item_path("any", "m1").rsplit("/", 1)[1]
    old = next(t for t in space.threads() if (space.root / space.item_path(t, "m1")).is_file())
    there: list[bool] = []  # after each item file taken away: whether the item is still in some thread's folder
    delete = space.vault.delete

    def watched(rel: str) -> None:
        delete(rel)
        if rel.startswith("items/"):
            there.append(any(space.root.glob(f"items/*/{name}")))

    monkeypatch.setattr(space.vault, "delete", watched)
    memory.add(alice, AddRequest(items=[said("birds")], wait=True))  # the same id in another conversation
    assert there == [True]  # a grep over items/ between the two writes finds it (in the old thread or the new)
    found = memory.grep(alice, GrepRequest(pattern="blue heron", scope="items/"))
    assert found.found == 1 and not found.lines[0].path.startswith(f"items/{old}/"), found.lines


def test_only_a_pattern_slow_to_match_itself_is_refused_as_too_slow(memory, alice):
    memory.add(alice, AddRequest(items=[{"id": "m1", "kind": "message", "conversation": "walks", "role": "user",
                                         "text": "a" * 40 + "!", "at": T0.isoformat()}], wait=True))
    with pytest.raises(Invalid, match="too slow to match"):  # its own time, however loaded the machine is
        memory.grep(alice, GrepRequest(pattern="(a|aa)+$", regex=True))
    assert memory.grep(alice, GrepRequest(pattern="a" * 40 + "!")).found == 1


def test_words_as_written_are_never_refused_as_too_slow(memory, alice, monkeypatch):
    """A grep of words (an escaped literal: linear to match) is not timed: at load ~8 a hammer's literal grep was
    refused after five tries of 50 ms each that its thread spent waiting for a core (CI of 4 Dec 2026, 16:20)."""
    from twinfs import browse

    memory.add(alice, AddRequest(items=[{"id": "m1", "kind": "message", "conversation": "walks", "role": "user",
                                         "text": "We walked the cliff path to Porthcurno.", "at": T0.isoformat()}],
                                 wait=True))
    monkeypatch.setattr(browse, "REGEX_SECONDS", 0.0)  # every timed match gives up at once
    assert memory.grep(alice, GrepRequest(pattern="cliff path to porthcurno")).found == 1
    with pytest.raises(Invalid, match="too slow to match"):
        memory.grep(alice, GrepRequest(pattern="cliff path", regex=True))
