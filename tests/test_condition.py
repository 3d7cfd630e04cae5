"""What is known of an end user's memory beyond its files (condition.py): each part changes through its methods."""
from __future__ import annotations

import time

import pytest

from twinfs.condition import Adds, Standing, Upkeep


def test_standing_says_whether_a_vault_was_prepared_and_why_it_is_broken_in_one_line():
    standing = Standing()
    assert not standing.prepared
    assert standing.failed(OSError("disk gone\nmore detail")) == "disk gone" and standing.prepared
    assert Standing().failed(KeyError()) == "KeyError"
    made = Standing()
    made.opened()
    assert made.prepared and made.repaired == [] and made.broken is None
    again = Standing()
    again.known("no HEAD")  # prepared earlier in this process: not repaired again
    assert again.prepared and again.broken == "no HEAD"
    again.moved("2026-12-04T06:00:00Z")
    assert again.left == "2026-12-04T06:00:00Z"
    again.moved(None)
    assert again.left is None


def test_hand_edits_taken_to_mend_come_back_when_mending_fails():
    upkeep = Upkeep()
    upkeep.edited()
    with upkeep.mending():
        assert not upkeep.hand_edited
    assert not upkeep.hand_edited
    upkeep.edited()
    with pytest.raises(RuntimeError), upkeep.mending():
        raise RuntimeError("disk full")
    assert upkeep.hand_edited  # looked at again with the next try
    with pytest.raises(RuntimeError), upkeep.rebuild():
        assert upkeep.rebuilding
        raise RuntimeError("killed")
    assert not upkeep.rebuilding


def test_background_work_gives_way_to_adds_but_not_for_ever():
    adds = Adds()
    assert adds.give_way(1.0, 30.0) == 0.0 and adds.quiet(1.0)  # no add yet: go on
    adds.accepted()
    assert not adds.quiet(1.0)
    assert 0.0 < adds.give_way(1.0, 30.0) <= 1.0  # an add just now: come back once they pause
    adds.gave_way = time.monotonic() - 31.0  # it has given way for longer than it may
    assert adds.give_way(1.0, 30.0) == 0.0
