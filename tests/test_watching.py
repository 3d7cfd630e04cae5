"""Hand edits: a person edits the vault's files; the watcher has them committed, indexed again, and searchable."""
from __future__ import annotations

import json
import subprocess
import time

import pytest
from conftest import MOVE, PORTO, chat, until

from twinfs import Memory, Settings
from twinfs.models import AddRequest, SearchRequest, StatusRequest
from twinfs.watching import Watcher


def log(memory, user) -> list[str]:
    root = memory.home / "users" / user.dirname
    done = subprocess.run(["git", "-C", str(root), "log", "--format=%s"], capture_output=True, text=True)
    return done.stdout.splitlines()


@pytest.fixture
def watched(tmp_home, embedder):
    with Memory(Settings(home=tmp_home, reading=False, watch=True), embedder=embedder) as m:
        yield m


@pytest.mark.slow
def test_the_watcher_commits_and_indexes_hand_edits(watched, alice):
    watched.add(alice, AddRequest(items=chat("c1", MOVE) + [PORTO], wait=True))
    space = watched.space(alice)
    time.sleep(1.5)  # the watcher's quiet spell: the writer's own files must not come back as hand edits
    watched.pipeline.wait_idle(10)
    assert not any("(by hand)" in line for line in log(watched, alice))

    passage = next(space.root.glob("passages/memory/messages/*/p_0001.md"))
    passage.write_text(passage.read_text().replace("My cat Miso", "My parrot Kiwi"))
    rel = passage.relative_to(space.root).as_posix()
    assert until(lambda: log(watched, alice)[0] == f"edit: {rel} (by hand)"), log(watched, alice)[:3]
    hit = watched.search(alice, SearchRequest(query="parrot Kiwi", fast=True)).hits[0]
    assert "Kiwi" in hit.text and hit.turns == ["msg-001", "msg-002", "msg-003"]

    document = next(space.root.glob("passages/memory/documents/*/p_0001.md"))
    document.unlink()
    assert until(lambda: log(watched, alice)[0].startswith("edit: passages/memory/documents/")), log(watched, alice)[:4]
    assert all(h.turns != ["doc-porto"] for h in watched.search(alice, SearchRequest(query="Douro", fast=True)).hits)


def test_items_edited_by_hand_while_stopped_are_mended_when_the_vault_is_first_opened(tmp_home, embedder, alice):
    settings = Settings(home=tmp_home, reading=False, watch=True)
    with Memory(settings, embedder=embedder) as m:
        m.add(alice, AddRequest(items=chat("c1", MOVE), wait=True))
        root = m.space(alice).root
        assert m.idle(60)  # the pipeline is done with it, so the pending index holds nothing of it at the stop
    item = next(root.glob("items/*/msg-001.json"))
    entry = json.loads(item.read_text())
    item.write_text(json.dumps({**entry, "text": "I just moved to Madrid from Berlin, near the park."}))
    with Memory(settings, embedder=embedder) as m:
        time.sleep(1.5)
        assert not log(m, alice)[0].startswith("edit: "), "start-up opened a vault with nothing to do"
        m.status(alice, StatusRequest(ids=["msg-001"]))  # its first open looks for edits made while stopped
        assert until(lambda: log(m, alice)[0].startswith("edit: items/")), log(m, alice)[:3]
        m.pipeline.wait_idle(10)
        text = next(root.glob("passages/memory/messages/*/p_0001.md")).read_text()
        assert "Madrid" in text and "Lisbon" not in text  # the item is the source: its passage is cut again
        assert m.search(alice, SearchRequest(query="Madrid park", fast=True)).hits[0].turns[0] == "msg-001"
        assert m.status(alice, StatusRequest(ids=["msg-001"])).phases["msg-001"] == "landed"


def test_mend_commits_a_broken_file_and_indexes_records_edited_by_hand(memory, alice):
    memory.add(alice, AddRequest(items=chat("c1", MOVE), wait=True))
    space = memory.space(alice)
    thread = space.threads()[0]
    assert memory.mend(alice) == []  # nothing edited: nothing committed
    record = {"id": f"{thread}#r00000000000000aa", "kind": "state", "text": "Alice lives in Lisbon",
              "subject": "Alice Chen", "attribute": "home_city", "value": "Lisbon", "happened": "2026-10-01",
              "said": "2026-10-01", "by": "user", "turns": ["msg-001"],
              "source": f"passages/memory/messages/{thread}/p_0001.md"}
    records = space.root / "records" / f"{thread}.json"
    records.parent.mkdir(exist_ok=True)
    records.write_text(json.dumps([record]))
    (space.root / "pages").mkdir(exist_ok=True)
    (space.root / "pages" / "notes.md").write_text("{ not a page the folder knows")
    assert memory.mend(alice) == ["pages/notes.md", f"records/{thread}.json"]
    assert log(memory, alice)[0] == f"edit: pages/notes.md, records/{thread}.json (by hand)"
    facts = memory.search(alice, SearchRequest(query="Where does Alice live?", fast=True)).facts
    assert facts and "Alice lives in Lisbon" in facts[0].text

    records.write_text("[{ broken")
    assert memory.mend(alice) == [f"records/{thread}.json"]  # committed as it is; its facts stay out
    assert memory.search(alice, SearchRequest(query="tram noise", fast=True)).hits  # and search goes on


def _lives_in(city: str, thread: str) -> str:
    return json.dumps([{"id": f"{thread}#r00000000000000ab", "kind": "state", "text": f"Alice lives in {city}",
                        "subject": "Alice Chen", "attribute": "home_city", "value": city, "happened": "2026-10-01",
                        "said": "2026-10-01", "by": "user", "turns": ["msg-001"],
                        "source": f"passages/memory/messages/{thread}/p_0001.md"}])


def _known(memory, user) -> str:
    return " ".join(memory.search(user, SearchRequest(query="Where does Alice live?", fast=True)).known or [])


def _records_by_hand(memory, user, city: str):
    """An end user with a conversation, and a records file of its thread written by hand: (the file, the thread)."""
    memory.add(user, AddRequest(items=chat("c1", MOVE), wait=True))
    thread = memory.space(user).threads()[0]
    records = memory.space(user).root / "records" / f"{thread}.json"
    records.parent.mkdir(exist_ok=True)
    records.write_text(_lives_in(city, thread))
    return records, thread


def test_the_brief_sees_a_record_edited_by_hand_without_looking_at_each_file_where_the_watcher_sees_it(
        watched, alice, monkeypatch):
    import twinfs.brief as brief
    records, thread = _records_by_hand(watched, alice, "Lisbon")
    assert until(lambda: watched.life.watcher.sees(alice.dirname, "records"))
    looked = []
    monkeypatch.setattr(brief, "_stamps", lambda space: looked.append(space) or {})
    assert until(lambda: "Lisbon" in _known(watched, alice)), _known(watched, alice)
    records.write_text(_lives_in("Porto", thread))  # in place: the folder's own stamp does not move
    assert until(lambda: "Porto" in _known(watched, alice)), _known(watched, alice)
    assert not looked  # counted, not stat'ed: 14 ms a search at 4,670 record files
    for _ in range(3):  # and nothing read again while nothing changes
        assert "Porto" in _known(watched, alice)
    assert not looked


def test_without_the_watcher_the_brief_looks_at_each_record_file(memory, alice):
    records, thread = _records_by_hand(memory, alice, "Lisbon")
    assert "Lisbon" in _known(memory, alice)
    records.write_text(_lives_in("Porto", thread))
    assert "Porto" in _known(memory, alice)  # at once: the file's own stamp changed


def test_a_new_folder_wakes_its_vault_only_for_files_the_writer_did_not_write(tmp_path):
    users = tmp_path / "users"
    (users / "a.b.c" / "passages" / "memory").mkdir(parents=True)
    ours: set[str] = set()
    woken: list[str] = []
    watcher = Watcher(users, wrote=lambda user, rel: rel in ours, wake=woken.append, quiet=0.2)
    watcher.start(wait=True)
    try:
        thread = users / "a.b.c" / "passages" / "memory" / "messages" / "th_1"
        ours.add("passages/memory/messages/th_1/p_0001.md")
        thread.mkdir(parents=True)  # the writer's new thread: a folder, then its first passage, its own
        (thread / "p_0001.md").write_text("the writer's")
        time.sleep(1.0)
        assert woken == []  # (a new folder woke its vault on every first add: a mend due at a stop, see above)
        moved = tmp_path / "by-hand"
        moved.mkdir()
        (moved / "p_0001.md").write_text("a person's")
        moved.rename(users / "a.b.c" / "passages" / "memory" / "notes")  # a folder moved in, files and all
        assert until(lambda: woken == ["a.b.c"], 5), woken
    finally:
        watcher.stop()
