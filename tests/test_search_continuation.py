"""A first hit found by its last turn: the next passage of its thread, which holds the answer in words of its own,
follows it (continuation.FOLLOW; an option, off by default)."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from twinfs import EndUser, continuation
from twinfs.continuation import next_passage
from twinfs.models import AddRequest, SearchRequest

T0 = datetime(2024, 6, 1, 17, 0, tzinfo=UTC)
PAIR = EndUser(org="acme", project="app", account="noa-and-ravi")
# (conversation, minutes after T0, speaker, text); Ravi asks at the end of one sitting, Noa answers after a pause,
# which opens the next passage: the answer shares no word with the question but her name
TURNS = [
    ("studio", 0, "Noa", "Evening! I spent the whole afternoon fixing the chain on my old bike."),
    ("studio", 1, "Ravi", "Oof, greasy work. Did the new chain fit?"),
    ("studio", 2, "Noa", "It did, after I took two links out with the tool from the hardware shop."),
    ("studio", 3, "Ravi", "That mural on your wall is stunning, Noa! What inspired you to paint it?"),
    ("studio", 45, "Noa", "After a spring of volunteering at the community garden, I kept seeing those neighbours "
                          "working side by side, and I wanted to keep that feeling on the wall."),
    ("studio", 46, "Ravi", "That is a lovely reason."),
    ("trip", 1440, "Ravi", "I watched a documentary about street murals in Lisbon, really inspiring painters."),
    ("trip", 1441, "Noa", "I would love to see those murals some day, the colours must be amazing."),
    ("gallery", 2880, "Ravi", "The gallery downtown shows mural sketches by young painters this month."),
    ("gallery", 2881, "Noa", "Let's go on Sunday, I want to see how they plan a big wall."),
]
QUESTION = "What inspired Noa's mural?"


@pytest.fixture
def pair(memory):
    memory.add(PAIR, AddRequest(items=[
        {"id": f"t{i}", "kind": "message", "conversation": conv, "role": "user", "name": who, "text": text,
         "at": (T0 + timedelta(minutes=minutes)).isoformat()} for i, (conv, minutes, who, text) in enumerate(TURNS)],
        wait=True))
    return memory


def ranked(memory, question: str, share: float) -> list[list[str]]:
    was = continuation.FOLLOW
    continuation.FOLLOW = share
    try:
        return [h.turns for h in memory.search(PAIR, SearchRequest(query=question, fast=True), limit=5).hits]
    finally:
        continuation.FOLLOW = was


def test_the_passage_after_a_first_hit_found_by_its_last_turn_follows_it(pair):
    asked = ["t0", "t1", "t2", "t3"]  # the sitting that ends on Ravi's question
    answer = ["t4", "t5"]  # after the pause: Noa's answer
    plain = ranked(pair, QUESTION, 0.0)
    assert plain[0] == asked
    assert plain.index(answer) > 1  # the murals of other days, which share the question's words, come before it
    followed = ranked(pair, QUESTION, 0.9)
    assert followed[:2] == [asked, answer]
    assert sorted(map(tuple, followed)) == sorted(map(tuple, plain))  # the same passages, one moved up


def test_a_first_hit_found_by_an_earlier_turn_is_not_followed(pair):
    question = "How did Noa fix her bike chain?"  # found by Noa's first turn of the sitting, not its last
    assert ranked(pair, question, 0.9) == ranked(pair, question, 0.0)


def test_the_next_passage_of_a_thread():
    assert next_passage("th_ab/p_0007", "passages/memory/messages/th_ab/p_0007.md") == \
        ("th_ab/p_0008", "passages/memory/messages/th_ab/p_0008.md")
    assert next_passage("th_ab/p_0009", "passages/memory/messages/th_ab/p_0009.md")[0] == "th_ab/p_0010"
    assert next_passage("th_ab/p_0007", "passages/memory/messages/th_ab/p_0003.md") is None  # not the same one
    assert next_passage("loose-id", "notes/loose.md") is None
