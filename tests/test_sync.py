"""Sync with real git: twin homes as machines and a bare remote on local disk; they converge with nothing lost."""
from __future__ import annotations

import json
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from twinfs import EndUser, Memory, Phase, Settings
from twinfs.errors import Invalid, NotFound
from twinfs.models import AddRequest, CorrectRequest, ForgetRequest, SearchRequest, StatusRequest
from twinfs.sync.remote import Refused

T0 = datetime(2026, 10, 1, 9, 0, tzinfo=UTC)
USER = EndUser(org="acme", project="app", account="alice")


def say(ident: str, text: str, conversation: str = "c1", minutes: int = 0, role: str = "user") -> dict:
    return {"id": ident, "kind": "message", "conversation": conversation, "role": role,
            "name": "Alice Chen" if role == "user" else "Assistant", "text": text,
            "at": (T0 + timedelta(minutes=minutes)).isoformat()}


@pytest.fixture
def machines(tmp_path, embedder):
    """Two machines (each its own twin home, its own name) and a remote that does not exist yet."""
    opened = []

    def machine(name: str, reading: bool = True, watch: bool = False) -> Memory:
        settings = Settings(home=tmp_path / name, reading=reading, quiet_seconds=0, fold_seconds=0, machine=name,
                            watch=watch)
        memory = Memory(settings, embedder=embedder).start()
        opened.append(memory)
        return memory

    yield machine, str(tmp_path / "remote" / "{vault}.git")
    for memory in opened:
        memory.close()


def vault_files(memory: Memory, *tops: str) -> dict[str, str]:
    root = memory.home / "users" / USER.dirname
    return {p.relative_to(root).as_posix(): p.read_text() for top in tops for p in sorted((root / top).rglob("*"))
            if p.is_file()}


def settled(*memories: Memory) -> None:
    for memory in memories:
        assert memory.idle(120)


def git(memory: Memory, *args: str) -> str:
    return subprocess.run(["git", "-C", str(memory.home / "users" / USER.dirname), *args], capture_output=True,
                          text=True, check=True).stdout


@pytest.mark.slow
def test_two_machines_that_added_apart_converge_with_the_same_files_and_answers(machines):
    machine, remote = machines
    a, b = machine("laptop-a"), machine("laptop-b", watch=True)
    a.add(USER, AddRequest(items=[say("a1", "I just moved to Lisbon from Berlin."),
                                  say("a2", "My cat Miso loves the balcony.", minutes=1)], wait=True))
    b.add(USER, AddRequest(items=[say("b1", "I work as a product designer now.", minutes=2),
                                  say("b2", "We went hiking in Sintra on Sunday.", "c2", minutes=3)], wait=True))
    settled(a, b)
    first = a.sync_with(USER, remote)
    assert first.kind == "sent" and first.sent
    second = b.sync_with(USER, remote)  # unrelated histories of one vault: a union
    assert second.kind == "merged" and second.received == 2 and second.sent
    settled(b)
    b.sync_with(USER)
    third = a.sync_with(USER)
    assert third.kind == "received"
    settled(a, b)
    a.sync_with(USER)
    b.sync_with(USER)
    settled(a, b)
    for top in ("items", "passages", "records", "pages"):
        assert vault_files(a, top) == vault_files(b, top), top
    assert len(vault_files(a, "items")) == 4
    for memory in (a, b):
        phases = memory.status(USER, StatusRequest(ids=["a1", "a2", "b1", "b2"])).phases
        assert set(phases.values()) == {Phase.folded}, phases
    for query in ("Where does Alice live?", "What is Alice's job?", "Where did we go hiking?"):
        left, right = (m.search(USER, SearchRequest(query=query)) for m in (a, b))
        assert [h.id for h in left.hits] == [h.id for h in right.hits]
        assert left.known == right.known
    assert git(a, "status", "--porcelain") == "" and git(b, "status", "--porcelain") == ""
    import time
    time.sleep(2)  # the watcher's quiet second: what a merge wrote is not taken for an edit by hand
    settled(b)
    assert "(by hand)" not in git(b, "log", "--format=%s")
    phases = b.status(USER, StatusRequest(ids=["a1", "ev_nothere"])).phases
    assert phases == {"a1": Phase.folded, "ev_nothere": Phase.unknown}  # a peer's items have phases here

def both_holding(machine, remote: str, item: dict) -> tuple[Memory, Memory]:
    """Two machines (reading off) that both hold a vault of one item, synced through the remote."""
    a, b = machine("laptop-a", reading=False), machine("laptop-b", reading=False)
    a.add(USER, AddRequest(items=[item], wait=True))
    a.sync_with(USER, remote)
    b.sync_with(USER, remote)
    return a, b


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


def test_a_new_machine_joining_clones_and_builds_its_indexes(machines):
    machine, remote = machines
    a = machine("laptop-a")
    a.add(USER, AddRequest(items=[say(f"m{i}", f"Day {i}: we talked about trains and the river.", minutes=i)
                                  for i in range(30)], wait=True))
    settled(a)
    a.sync_with(USER, remote)
    c = machine("desktop")
    joined = c.sync_with(USER, remote)
    assert joined.kind == "cloned" and joined.received == 30
    assert c.search(USER, SearchRequest(query="trains and the river", fast=True)).found > 0
    settled(c)
    assert vault_files(a, "items", "passages", "records") == vault_files(c, "items", "passages", "records")
    assert c.status(USER, StatusRequest(ids=["m0"])).phases["m0"] in (Phase.read, Phase.folded)


def test_a_vault_opened_while_it_is_being_cloned_waits_until_it_is_whole(machines):
    """The clone's writer marks the vault pending, so the ticker (or a request) opens it midway: that opener
    gets the Space the clone builds in and waits for it, never a second Space that repairs the half-built vault
    under a writer of its own (it removed the Whoosh writer's MAIN.tmp folder the clone was indexing into)."""
    import threading

    machine, remote = machines
    a = machine("laptop-a", reading=False)
    a.add(USER, AddRequest(items=[say(f"m{i}", f"Day {i}: trains and the river.", minutes=i) for i in range(12)],
                           wait=True))
    a.sync_with(USER, remote)
    b = machine("laptop-b", reading=False)
    found: list[int] = []
    opener = threading.Thread(target=lambda: found.append(
        b.search(USER, SearchRequest(query="trains and the river", fast=True)).found))
    seen_midway: list[bool] = []

    def progress(done: int, total: int) -> None:
        if not seen_midway:  # the first file read: a second opener races the build
            opener.start()
            opener.join(1.0)
            seen_midway.append(bool(found))

    joined = b.sync_with(USER, remote, progress=progress)
    opener.join(60)
    assert joined.kind == "cloned" and joined.received == 12
    assert seen_midway == [False]  # it waited for the clone to finish
    assert found and found[0] > 0  # and then found what was cloned
    assert len(b.spaces) == 1 and b.idle(60)
    assert git(b, "status", "--porcelain") == ""


def test_bad_remotes_are_refused_with_one_line_and_leave_the_vault_as_it_was(machines, tmp_path):
    machine, remote = machines
    a = machine("laptop-a", reading=False)
    a.add(USER, AddRequest(items=[say("m1", "hello")], wait=True))
    head = git(a, "rev-parse", "HEAD")
    for url, words in [("https://bob:hunter2@example.com/x.git", "password"),
                       ("ext::sh -c touch% /tmp/pwned", "transport helper"),
                       ("http://example.com/x.git", "not one sync uses")]:
        with pytest.raises(Invalid) as refused:
            a.sync_with(USER, url)
        assert words in refused.value.message and "hunter2" not in refused.value.message
    not_git = tmp_path / "plain-folder"
    not_git.mkdir()
    (not_git / "file.txt").write_text("not a repository")
    with pytest.raises(Invalid) as refused:
        a.sync_with(USER, str(not_git))
    assert "not a git repository" in refused.value.message
    with pytest.raises(Exception) as down:
        a.sync_with(USER, "ssh://nobody@127.0.0.1:1/nothing.git")
    assert "cannot be reached" in str(down.value) or "refused our credentials" in str(down.value)
    # a remote that holds another end user's vault
    bob = EndUser(org="acme", project="app", account="bob")
    a.add(bob, AddRequest(items=[say("x1", "I am Bob")], wait=True))
    a.sync_with(bob, str(tmp_path / "bob.git"))
    with pytest.raises(Refused) as other:
        a.sync_with(USER, str(tmp_path / "bob.git"))
    assert "acme.app.bob" in other.value.message
    assert git(a, "rev-parse", "HEAD") == head and git(a, "status", "--porcelain") == ""
    assert "hunter2" not in git(a, "config", "--list")
    with pytest.raises(NotFound):
        machine("elsewhere", reading=False).sync_with(USER)


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


def test_ids_that_differ_only_in_case_reserved_and_overlong_ids_sync_and_check_out(machines):
    machine, remote = machines
    a, b = machine("laptop-a", reading=False), machine("laptop-b", reading=False)
    ids = ["Msg-1", "msg-1", "CON", "aux", "." * 128, "a" * 128]
    a.add(USER, AddRequest(items=[say(i, f"turn number {n}", minutes=n) for n, i in enumerate(ids)], wait=True))
    a.sync_with(USER, remote)
    b.sync_with(USER, remote)
    names = [p.name for p in (b.home / "users" / USER.dirname / "items").rglob("*.json")]
    assert len({n.lower() for n in names}) == len(ids) == len(names)
    assert all(len(n.encode()) <= 120 for n in names)
    assert set(b.status(USER, StatusRequest(ids=ids)).phases.values()) == {Phase.landed}


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


@pytest.mark.slow
def test_random_work_on_three_machines_converges_to_the_oracle(machines):
    """Seeded: adds, edits, corrections, hand edits and forgets on three machines, syncs in random order; then
    every machine holds the same files, and the items are exactly what an independent oracle says."""
    import random

    rng = random.Random(7)
    machine, remote = machines
    names = ("laptop-a", "laptop-b", "desktop")
    homes = {n: machine(n) for n in names}
    homes["laptop-a"].add(USER, AddRequest(items=[say("seed", "Hello, this is my memory.")], wait=True))
    homes["laptop-a"].sync_with(USER, remote)
    for n in names[1:]:
        homes[n].sync_with(USER, remote)
    oracle = {"seed": "Hello, this is my memory."}
    retracted: dict[str, set[str]] = {}  # record id -> the item ids it cites
    topics = ["Lisbon", "my cat Miso", "the garden", "a trip to Porto", "my sister Mei", "the tram", "trains"]
    counter = 0
    for step in range(36):
        name = rng.choice(names)
        memory = homes[name]
        action = rng.choices(["add", "edit", "correct", "hand", "forget", "sync"], [5, 3, 1, 1, 1, 4])[0]
        if action == "add":
            counter += 1
            ident = f"i{counter}"
            text = f"On step {step} I talked about {rng.choice(topics)}."
            memory.add(USER, AddRequest(items=[say(ident, text, f"c{rng.randrange(3)}", minutes=counter)], wait=True))
            oracle[ident] = text
        elif action == "edit":
            ident = rng.choice(sorted(oracle))
            entry = next((json.loads(p.read_text()) for p in
                          (memory.home / "users" / USER.dirname / "items").rglob("*.json")
                          if json.loads(p.read_text())["id"] == ident), None)
            if entry is None:
                continue  # this machine has not seen it yet
            text = f"Edited on {name} at step {step}: about {rng.choice(topics)}."
            memory.add(USER, AddRequest(items=[{**{k: entry[k] for k in ("id", "kind", "role", "name", "at")},
                                                "conversation": entry.get("conversation", "c0"), "text": text}],
                                        wait=True))
            oracle[ident] = text
        elif action == "correct":
            assert memory.idle(120)
            facts = memory.search(USER, SearchRequest(query=rng.choice(topics), fast=True)).facts or []
            live = [f for f in facts if f.id not in retracted]
            if live:
                fact = live[0]
                memory.correct(USER, CorrectRequest(id=fact.id, reason=f"wrong, said {name}"))
                records = json.loads((memory.home / "users" / USER.dirname / fact.path.split("#")[0]).read_text())
                retracted[fact.id] = set(next(r for r in records if r["id"] == fact.id)["turns"])
        elif action == "hand":
            assert memory.idle(120)
            passages = sorted((memory.home / "users" / USER.dirname / "passages").rglob("*.md"))
            if passages:
                target = rng.choice(passages)
                target.write_text(target.read_text().replace("talked", "chatted", 1))
                memory.mend(USER)
        elif action == "forget":
            ident = rng.choice(sorted(oracle))
            if ident != "seed" and memory.forget(USER, ForgetRequest(ids=[ident])).forgotten:
                del oracle[ident]
                retracted = {r: turns for r, turns in retracted.items() if ident not in turns}
        else:
            assert memory.idle(120)
            memory.sync_with(USER)
    for _ in range(3):
        for n in names:
            assert homes[n].idle(120)
            homes[n].sync_with(USER)
    for n in names:
        assert homes[n].idle(120)
    views = {n: vault_files(homes[n], "items", "passages", "records", "pages", "conflicts") for n in names}
    assert views["laptop-a"] == views["laptop-b"] == views["desktop"]
    items = {json.loads(text)["id"]: json.loads(text)["text"] for path, text in views["desktop"].items()
             if path.startswith("items/")}
    assert items == oracle
    records = [r for path, text in views["desktop"].items() if path.startswith("records/")
               for r in json.loads(text)]
    by_id = {r["id"]: r for r in records}
    for record_id, turns in retracted.items():
        if turns <= set(oracle) and record_id in by_id:
            assert by_id[record_id]["retracted"], record_id
    live = {r["id"] for r in records if not r["retracted"]}
    assert not live & {r for r, turns in retracted.items() if turns <= set(oracle)}


def test_two_syncs_of_one_vault_take_turns(machines):
    import threading

    machine, remote = machines
    a, b = both_holding(machine, remote, say("a1", "one"))
    b.add(USER, AddRequest(items=[say("b1", "two", minutes=1)], wait=True))
    b.sync_with(USER)
    a.add(USER, AddRequest(items=[say("a2", "three", minutes=2)], wait=True))
    results, errors = [], []

    def run():
        try:
            results.append(a.sync_with(USER))
        except Exception as exc:  # noqa: BLE001 - the test reports it
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors and len(results) == 3
    assert sorted(r.kind for r in results).count("merged") == 1  # one merged; the others found it done
    assert git(a, "status", "--porcelain") == "" and len(vault_files(a, "items")) == 3
