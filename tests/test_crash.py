"""A crash at any moment after add answered loses nothing: SIGKILL right after add returns, then restart."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from twinfs import EndUser, Memory, Phase, Settings
from twinfs.models import SearchRequest, StatusRequest

CHILD = textwrap.dedent("""
    import sys
    from datetime import datetime, timedelta, timezone
    from twinfs import EndUser, Memory, Settings
    from twinfs.models import AddRequest
    home, n = sys.argv[1], int(sys.argv[2])
    if len(sys.argv) > 3:  # landing commits from trees, the index left behind (a large vault: vault.TREES_FROM)
        import twinfs.vault
        twinfs.vault.TREES_FROM = int(sys.argv[3])
    t0 = datetime(2026, 10, 1, 9, 0, tzinfo=timezone.utc)
    memory = Memory(Settings(home=home, reading=False)).start()
    user = EndUser(org="acme", project="app", account="crash")
    for batch in range(3):
        items = [{"id": f"b{batch}-m{i}", "kind": "message", "conversation": f"c{batch}", "role": "user",
                  "text": f"batch {batch} turn {i}: the locker code is {batch * 1000 + i}",
                  "at": (t0 + timedelta(seconds=30 * i)).isoformat()} for i in range(n)]
        memory.add(user, AddRequest(items=items))
    print("accepted", flush=True)
    import time
    time.sleep(60)
""")


@pytest.mark.parametrize("trees_from", [None, 0], ids=["index", "trees"])
def test_sigkill_after_add_returned_loses_nothing(tmp_path: Path, embedder, trees_from):
    home = tmp_path / "home"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(home), "200",
                              *([] if trees_from is None else [str(trees_from)])], stdout=subprocess.PIPE, text=True,
                             env=env)
    assert child.stdout.readline().strip() == "accepted"
    child.send_signal(signal.SIGKILL)  # no clean-up: whatever was mid-landing stays mid-landing
    child.wait(timeout=30)
    user = EndUser(org="acme", project="app", account="crash")
    ids = [f"b{b}-m{i}" for b in range(3) for i in range(200)]
    with Memory(Settings(home=home, reading=False), embedder=embedder) as memory:
        assert memory.wait(user, ids, timeout=120)
        phases = memory.status(user, StatusRequest(ids=ids[:500])).phases
        phases.update(memory.status(user, StatusRequest(ids=ids[500:])).phases)
        assert set(phases.values()) == {Phase.landed}
        for code in ("locker code is 2199", "locker code is 17", "locker code is 1100"):
            hits = memory.search(user, SearchRequest(query=code, fast=True)).hits
            assert any(code.split()[-1] in h.text for h in hits), code
        space = memory.space(user)
        assert space.pending() == []
        # nothing landed twice: each item once in the passages, each passage once in each lane
        turns = [t for f in space.root.glob("passages/**/*.md") for t in _turns(f)]
        assert sorted(turns) == sorted(ids)
        assert space.words.count() == space.meaning.count() == len(list(space.root.glob("passages/**/*.md")))
        log = space.vault.repo.git.log("--format=%s").splitlines()
        assert sum(1 for m in log if m.startswith("add:")) <= 3
        memory.idle()  # an index a commit from trees left behind is caught up
        assert subprocess.run(["git", "-C", str(space.root), "status", "--porcelain"], capture_output=True,
                              text=True, check=True).stdout == ""


def _turns(f: Path) -> list[str]:
    from twinfs.passages import parse

    return parse(f.read_text()).turns


def test_an_inbox_event_without_its_phases_still_lands_and_reads_as_landed(tmp_path: Path, embedder):
    """The crash window between the inbox fsync and the phases table: the event is adopted when it lands."""
    import json

    from twinfs.models import AddRequest, Item
    from twinfs.space import added_stamp, item_hash, stored_item, thread_of

    home = tmp_path / "home"
    user = EndUser(org="acme", project="app", account="gap")
    with Memory(Settings(home=home, reading=False), embedder=embedder) as memory:
        memory.add(user, AddRequest(items=[{"id": "first", "kind": "message", "text": "hello",
                                            "at": "2026-10-01T09:00:00Z"}], wait=True))
        space = memory.space(user)
        item = Item(id="lost", kind="message", text="the locker code is 4242", at="2026-10-01T09:05:00Z")
        entry = stored_item(item, thread_of(user, item), added_stamp()) | {"hash": item_hash(item)}
        with space.accept_lock:  # as an add does: the pipeline's settle of the first add cannot slip between
            memory.pending.mark(user.dirname)  # in the pending index before the inbox
            (space.inbox / "ev_00000000000000ffdeadbeef.json").write_text(
                json.dumps({"event": "ev_00000000000000ffdeadbeef", "items": [entry]}))
    with Memory(Settings(home=home, reading=False), embedder=embedder) as memory:
        assert memory.idle(60)
        phases = memory.status(user, StatusRequest(ids=["lost", "ev_00000000000000ffdeadbeef"])).phases
        assert phases == {"lost": Phase.landed, "ev_00000000000000ffdeadbeef": Phase.landed}
        assert "4242" in memory.search(user, SearchRequest(query="locker code", fast=True)).hits[0].text


def test_a_landing_that_fails_before_indexing_indexes_everything_when_retried(tmp_path: Path, embedder):
    from twinfs.models import AddRequest

    user = EndUser(org="acme", project="app", account="retry")
    with Memory(Settings(home=tmp_path / "home", reading=False), embedder=embedder) as memory:
        space = memory.space(user, create=True)
        real = space.meaning.apply
        calls = []

        def flaky(docs, drops):
            calls.append(len(docs))
            if len(calls) == 1:
                raise OSError("disk hiccup")  # after the passages were written, before they were indexed
            return real(docs, drops)

        space.meaning.apply = flaky
        memory.add(user, AddRequest(items=[{"id": "m1", "kind": "message", "text": "the locker code is 4242",
                                            "at": "2026-10-01T09:00:00Z"}]))
        assert memory.idle(60)
        assert calls == [1, 1]  # tried again, and the passage was indexed the second time
        assert memory.status(user, StatusRequest(ids=["m1"])).phases["m1"] == Phase.landed
        assert "4242" in memory.search(user, SearchRequest(query="what is the locker code", fast=True)).hits[0].text
