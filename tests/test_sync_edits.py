"""Sync with real git, what was changed on two machines: the same item edited on both, a correction, a record file
edited by hand on both, a forget, a sync killed midway — all kept, visible, or gone everywhere as they should be."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from syncing import USER, both_holding, git, say, settled, vault_files

from twinfs import Phase
from twinfs.models import AddRequest, CorrectRequest, ForgetRequest, SearchRequest, StatusRequest


def test_the_same_item_edited_on_both_keeps_the_later_edit_and_names_the_other(machines):
    machine, remote = machines
    a, b = both_holding(machine, remote, say("m1", "The meeting is on Monday."))
    b.add(USER, AddRequest(items=[say("m1", "The meeting is on Tuesday.")], wait=True))
    a.add(USER, AddRequest(items=[say("m1", "The meeting is on Wednesday.")], wait=True))  # the later edit
    b.sync_with(USER)
    result = a.sync_with(USER)
    assert result.kind == "merged" and any(k.startswith("m1: kept laptop-a") for k in result.kept)
    b.sync_with(USER)
    for memory in (a, b):
        assert "Wednesday" in memory.search(USER, SearchRequest(query="When is the meeting?", fast=True)).hits[0].text
    assert "m1: kept laptop-a" in git(a, "log", "-1", "--format=%B", "--merges") or \
        "m1: kept laptop-a" in git(a, "log", "--format=%B")
    assert "Tuesday" in git(a, "log", "-p", "--full-history", "--", "items")  # the losing version stays in history


def test_a_correction_on_one_machine_survives_the_merge_and_the_re_reads(machines):
    machine, remote = machines
    a, b = machine("laptop-a"), machine("laptop-b")
    a.add(USER, AddRequest(items=[say("m1", "I just moved to Lisbon."), say("m2", "Lovely!", role="assistant",
                                                                              minutes=1)], wait=True))
    settled(a)
    a.sync_with(USER, remote)
    b.sync_with(USER, remote)
    settled(b)
    fact = next(f for f in b.search(USER, SearchRequest(query="Where does Alice live?")).facts or []
                if "Lisbon" in f.text)
    b.correct(USER, CorrectRequest(id=fact.id, reason="it was Porto", value="Porto"))
    a.add(USER, AddRequest(items=[say("m2", "Lovely, enjoy the river!", role="assistant", minutes=1),
                                  say("m3", "Thanks, the tram is loud.", minutes=2)], wait=True))  # a re-read
    settled(a)
    b.sync_with(USER)
    a.sync_with(USER)
    settled(a, b)
    b.sync_with(USER)
    settled(a, b)
    for memory in (a, b):
        known = memory.search(USER, SearchRequest(query="Where does Alice live?")).known or []
        assert any("home_city: Porto" in line for line in known), known
        records = json.loads(next((memory.home / "users" / USER.dirname / "records").glob("*.json")).read_text())
        assert next(r for r in records if r["id"] == fact.id)["retracted"]["reason"] == "it was Porto"


@pytest.mark.slow
def test_a_record_file_edited_by_hand_on_both_keeps_both_versions_visibly(machines):
    machine, remote = machines
    a, b = machine("laptop-a"), machine("laptop-b")
    a.add(USER, AddRequest(items=[say("m1", "I just moved to Lisbon.")], wait=True))
    settled(a)
    a.sync_with(USER, remote)
    b.sync_with(USER, remote)
    settled(b)
    rel = next((a.home / "users" / USER.dirname / "records").glob("*.json")).relative_to(
        a.home / "users" / USER.dirname).as_posix()
    for memory, word in ((b, "Lisboa"), (a, "Lisbon city")):  # a edits last: a's edit is the newer one
        path = memory.home / "users" / USER.dirname / rel
        records = json.loads(path.read_text())
        records[0]["text"] = records[0]["text"].replace("Lisbon", word)
        path.write_text(json.dumps(records, indent=1) + "\n")
        memory.mend(USER)
        import time
        time.sleep(1.1)  # commit times in seconds: the two edits are told apart
    b.sync_with(USER)
    result = a.sync_with(USER)
    assert result.conflicts == [f"conflicts/{rel.removesuffix('.json')}.laptop-b.json"]
    b.sync_with(USER)
    for memory in (a, b):
        root = memory.home / "users" / USER.dirname
        assert "Lisbon city" in (root / rel).read_text()
        assert "Lisboa" in (root / result.conflicts[0]).read_text()
        notes = memory.status(USER, StatusRequest(ids=["m1"])).notes or []
        assert any("conflicts/" in n for n in notes)
        assert "<<<<<<<" not in (root / rel).read_text()
        hits = memory.search(USER, SearchRequest(query="Lisboa", fast=True)).facts or []
        assert all("Lisboa" not in f.text for f in hits)  # nothing indexes a conflict copy
    (b.home / "users" / USER.dirname / result.conflicts[0]).unlink()  # a person resolves it
    b.mend(USER)
    b.sync_with(USER)
    assert a.sync_with(USER).conflicts == []
    assert not (a.home / "users" / USER.dirname / result.conflicts[0]).exists()


def all_objects(memory_home: Path) -> bytes:
    return subprocess.run(["git", "-C", str(memory_home), "cat-file", "--batch-all-objects", "--batch"],
                          capture_output=True, check=True).stdout


@pytest.mark.slow
def test_a_forget_on_one_machine_forgets_everywhere_history_and_remote_included(machines, tmp_path):
    machine, remote = machines
    a, b = machine("laptop-a"), machine("laptop-b")
    a.add(USER, AddRequest(items=[say("m1", "I just moved to Lisbon."),
                                  say("s1", "My bank PIN is aardvark4411.", "secrets", minutes=1)], wait=True))
    settled(a)
    a.sync_with(USER, remote)
    b.sync_with(USER, remote)
    b.add(USER, AddRequest(items=[say("b1", "We planned a trip to Porto.", minutes=5)], wait=True))  # while apart
    settled(a, b)
    gone = a.forget(USER, ForgetRequest(ids=["s1"]))
    assert gone.forgotten == ["s1"]
    first = a.sync_with(USER)
    assert first.sent
    second = b.sync_with(USER)
    assert second.forgotten == 1 and second.kind == "replayed"
    settled(a, b)
    a.sync_with(USER)
    b.sync_with(USER)
    settled(a, b)
    remote_dir = tmp_path / "remote" / f"{USER.dirname}.git"
    for where in (a.home / "users" / USER.dirname, b.home / "users" / USER.dirname, remote_dir):
        assert b"aardvark4411" not in all_objects(where), where
        assert not any(b"aardvark4411" in f.read_bytes() for f in where.rglob("*") if f.is_file()), where
    for memory in (a, b):
        phases = memory.status(USER, StatusRequest(ids=["s1", "m1", "b1"])).phases
        assert phases["s1"] == Phase.unknown and phases["m1"] != Phase.unknown and phases["b1"] != Phase.unknown
    assert vault_files(a, "items") == vault_files(b, "items")
    stones = json.loads((a.home / "users" / USER.dirname / "forgotten.json").read_text())
    assert "s1" not in json.dumps(stones) and len(stones["forgotten"]) == 1
    # the same id added again after the forget is a new item, and stays everywhere
    b.add(USER, AddRequest(items=[say("s1", "A new note under an old id.", "secrets", minutes=9)], wait=True))
    b.sync_with(USER)
    a.sync_with(USER)
    assert a.status(USER, StatusRequest(ids=["s1"])).phases["s1"] != Phase.unknown


KILLED = """
import sys
from datetime import datetime, timedelta, timezone
from twinfs import EndUser, Memory, Settings
home, remote = sys.argv[1], sys.argv[2]
user = EndUser(org="acme", project="app", account="alice")
with Memory(Settings(home=home, reading=False, machine="laptop-b")) as memory:
    memory.sync_with(user)
print("not killed")
"""


@pytest.mark.parametrize("point", ["fetched", "merging", "pushing"])
def test_a_sync_killed_midway_leaves_a_clean_vault_at_the_next_start_and_loses_nothing(machines, tmp_path, point):
    import os
    import signal
    import sys

    machine, remote = machines
    a, b = machine("laptop-a", reading=False), machine("laptop-b", reading=False)
    a.add(USER, AddRequest(items=[say(f"a{i}", f"A's turn {i} about trains", minutes=i) for i in range(8)],
                           wait=True))
    a.sync_with(USER, remote)
    b.sync_with(USER, remote)
    a.add(USER, AddRequest(items=[say("a9", "A's later turn about boats", minutes=20)], wait=True))
    a.sync_with(USER)
    b.add(USER, AddRequest(items=[say(f"b{i}", f"B's turn {i} about gardens", "c2", minutes=i) for i in range(8)],
                           wait=True))
    b.close()  # the process that syncs next is killed midway
    root = Path(__file__).resolve().parents[1]
    child = subprocess.run([sys.executable, "-c", KILLED, str(b.home), remote], capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(root), "TWIN_CRASH_AT": point}, timeout=300)
    assert child.returncode == -signal.SIGKILL, child.stderr[-2000:]
    again = machine("laptop-b", reading=False)
    assert again.idle(60)  # the killed sync's vault is in the pending index: finished as soon as it starts
    vault = again.home / "users" / USER.dirname
    assert not (vault / ".git" / "MERGE_HEAD").exists() and not list((vault / ".git").rglob("*.lock"))
    assert subprocess.run(["git", "-C", str(vault), "fsck", "--strict", "--no-dangling"]).returncode == 0
    assert git(again, "status", "--porcelain") == ""
    ids = [f"a{i}" for i in range(8)] + ["a9"] * (point != "fetched") + [f"b{i}" for i in range(8)]
    assert set(again.status(USER, StatusRequest(ids=ids)).phases.values()) == {Phase.landed}
    again.sync_with(USER)
    a.sync_with(USER)
    assert vault_files(a, "items", "passages") == vault_files(again, "items", "passages")
    assert len(vault_files(a, "items")) == 17
