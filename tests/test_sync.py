"""Sync with real git: twin homes as machines and a bare remote on local disk; they converge with nothing lost."""
from __future__ import annotations

import json

import pytest
from syncing import USER, both_holding, git, say, settled, vault_files

from twinfs import EndUser, Phase
from twinfs.errors import Invalid, NotFound
from twinfs.models import AddRequest, CorrectRequest, ForgetRequest, SearchRequest, StatusRequest
from twinfs.sync.remote import Refused


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
