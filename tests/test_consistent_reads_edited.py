"""Landed means readable while the watcher commits hand edits too (issue #35): turns arrive out of time order into
one end user's threads while a person edits item files of landed turns by hand (the watcher picks each up and
cuts again the passages around the turn) and two readers grep for every landed turn's exact words and read the
passage named."""
from __future__ import annotations

import json
import random
import subprocess
import time

import pytest
from hammered import LEAST, USER, Hammer

from twinfs import Memory, Settings

# each grep walks passages a person keeps editing: 2,000 here (test_consistent_reads.py does the 5,000 of #35)
GREPS = 2000
EDIT_SECONDS = 0.3


def subjects(root) -> list[str]:
    done = subprocess.run(["git", "-C", str(root), "log", "--format=%s"], capture_output=True, text=True)
    return done.stdout.split("\n")


def edit(hammer: Hammer) -> None:
    """A person's editor, every EDIT_SECONDS: a landed turn's item file gets more words (the words grep looks for
    stay)."""
    space = hammer.memory.space(USER)
    rng = random.Random(5)
    hammer.counts["edits"] = 0
    while not hammer.stop.wait(EDIT_SECONDS):
        item = hammer.pick(rng)
        if item is None:
            continue
        path = next((space.root / space.item_path(t, item) for t in space.threads()
                     if (space.root / space.item_path(t, item)).is_file()), None)
        if path is None:
            continue
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # moved or being written: another one next time
        entry["text"] += " (edited by hand)"
        path.write_text(json.dumps(entry), encoding="utf-8")
        hammer.counts["edits"] += 1


@pytest.mark.slow
def test_every_landed_turn_is_found_while_hand_edits_are_picked_up(tmp_path, embedder):
    settings = Settings(home=tmp_path / "home", reading=False, watch=True)
    with Memory(settings, embedder=embedder) as memory:
        hammer = Hammer(memory)
        hammer.run(seed=11, most=130, greps=GREPS, beside=(edit,))
        root = memory.space(USER).root
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any(m.startswith("edit:") for m in subjects(root)):
            time.sleep(0.2)
        assert any(m.startswith("edit:") for m in subjects(root))  # the watcher committed hand edits
    assert hammer.counts["grep"] >= GREPS and hammer.counts["edits"] >= 20, hammer.counts
    assert hammer.counts["written"] >= LEAST, hammer.counts  # threads grown and cut again while they read
    assert hammer.misses == [], f"{len(hammer.misses)} misses of {hammer.counts}: {hammer.misses[:5]}"
