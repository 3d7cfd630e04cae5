"""Landed means readable, at every moment: while one end user's threads grow and are cut again (turns arriving
out of time order move later turns from one passage file to the next), every turn `status` calls landed is found
by grep, and read of the passage grep names holds it, on every request."""
from __future__ import annotations

import random
import threading
import time
from datetime import UTC, datetime, timedelta

import pytest

from twinfs import EndUser, Memory, Settings
from twinfs.models import AddRequest, GrepRequest, ReadRequest, StatusRequest

USER = EndUser(org="acme", project="app", account="hammered")
T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


def turn(n: int, at: datetime) -> dict:
    # each text unique and long enough that a few turns fill a passage, so every insertion shifts the cut
    return {"id": f"m{n:05d}", "kind": "message", "conversation": f"c{n % 2}", "role": "user", "name": "Dana",
            "text": f"note {n:05d} zq{n:05d}x " + "a long line about the garden and the river walk " * 6,
            "at": at.isoformat()}


def check_landed(memory: Memory, landed: list[str], lock: threading.Lock, stop: threading.Event,
                 counts: dict[str, int], misses: list[str], seed: int) -> None:
    """Until `stop`: grep for the exact text of a landed turn, then read the passage grep names; a miss is a turn
    grep does not find, or a passage that lost it while no grep finds it elsewhere (moved by a later cut is fine)."""
    mine = random.Random(seed)
    while not stop.is_set():
        with lock:
            if not landed:
                continue
            item = mine.choice(landed)
        needle = f"zq{item[1:]}x"
        found = memory.grep(USER, GrepRequest(pattern=needle))
        counts["grep"] += 1
        if not found.lines:
            misses.append(f"grep {item}")
            continue
        path = found.lines[0].path
        content = memory.read(USER, ReadRequest(path=path)).content
        counts["read"] += 1
        if needle not in content and not memory.grep(USER, GrepRequest(pattern=needle)).lines:
            misses.append(f"read {item} at {path}")


@pytest.mark.slow
def test_every_landed_turn_is_found_by_grep_and_read_while_threads_are_cut_again(tmp_path, embedder):
    settings = Settings(home=tmp_path / "home", reading=False, watch=False)
    rng = random.Random(7)
    landed: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()
    misses: list[str] = []
    counts = {"grep": 0, "read": 0}
    with Memory(settings, embedder=embedder) as memory:
        memory.add(USER, AddRequest(items=[turn(0, T0)], wait=True))

        def write() -> None:
            n = 1
            while not stop.is_set() and n < 1500:
                # out of time order: anywhere in the hours already said, so the cut shifts after it
                batch = [turn(n + k, T0 + timedelta(seconds=rng.randint(0, 6 * 3600))) for k in range(3)]
                n += 3
                memory.add(USER, AddRequest(items=batch, wait=True))
                phases = memory.status(USER, StatusRequest(ids=[b["id"] for b in batch])).phases
                with lock:
                    landed.extend(i for i, p in phases.items() if p.value != "accepted")

        writer = threading.Thread(target=write)
        readers = [threading.Thread(target=check_landed, args=(memory, landed, lock, stop, counts, misses, s))
                   for s in range(2)]
        writer.start()
        for r in readers:
            r.start()
        deadline = time.monotonic() + 420
        while counts["grep"] < 5000 and time.monotonic() < deadline:  # a loaded machine: the greps go on
            time.sleep(0.2)
        stop.set()
        writer.join()
        for r in readers:
            r.join()
    assert counts["grep"] >= 5000, counts
    assert misses == [], f"{len(misses)} misses of {counts}: {misses[:5]}"
