"""Landed means readable, at every moment: while one end user's threads grow and are cut again (turns arriving
out of time order move later turns from one passage file to the next), every turn `status` calls landed is found
by grep, and read of the passage grep names holds it, on every request."""
from __future__ import annotations

import pytest
from hammered import LEAST, Hammer

from twinfs import Memory, Settings

GREPS = 5000  # the 5,000 of #35


@pytest.mark.slow
def test_every_landed_turn_is_found_by_grep_and_read_while_threads_are_cut_again(tmp_path, embedder):
    settings = Settings(home=tmp_path / "home", reading=False, watch=False)
    with Memory(settings, embedder=embedder) as memory:
        hammer = Hammer(memory)
        hammer.run(seed=7, most=160, greps=GREPS)
    assert hammer.counts["grep"] >= GREPS, hammer.counts
    assert hammer.counts["written"] >= LEAST, hammer.counts  # threads grown and cut again while they read
    assert hammer.misses == [], f"{len(hammer.misses)} misses of {hammer.counts}: {hammer.misses[:5]}"
