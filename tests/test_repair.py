"""Starting clean after a crash: real git killed holding its lock, steps killed midway in a real child process,
a vault in the old format, landing that keeps failing, a vault that cannot be repaired."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import MOVE, chat

from twinfs import EndUser, Memory, Phase, Settings
from twinfs.errors import Unavailable
from twinfs.models import AddRequest, ForgetRequest, SearchRequest, StatusRequest

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def git(vault: Path, *args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(vault), *args], capture_output=True, text=True, **kw)


def fsck_clean(vault: Path) -> bool:
    done = git(vault, "fsck", "--strict", "--no-dangling")
    return done.returncode == 0 and "error" not in done.stderr and "warning" not in done.stderr


def test_a_vault_whose_git_index_was_split_is_written_whole_once_opened(tmp_path, embedder, alice):
    """Vaults were set to a split index, which git read in 0.9 s at 457,654 files against 0.04 s for a whole one:
    the first open sets it off and writes the index whole; the shared parts go, and nothing looks changed."""
    with Memory(Settings(home=tmp_path, watch=False), embedder=embedder) as memory:
        memory.add(alice, AddRequest(items=chat("c1", MOVE), wait=True))
        vault = memory.space(alice).root
        assert not list((vault / ".git").glob("sharedindex.*"))
    git(vault, "config", "core.splitIndex", "true", check=True)  # as a vault of an earlier version was set
    git(vault, "update-index", "--split-index", check=True)
    assert list((vault / ".git").glob("sharedindex.*"))
    with Memory(Settings(home=tmp_path, watch=False), embedder=embedder) as memory:
        memory.add(alice, AddRequest(items=chat("c1", MOVE[:1] + [("msg-009", "user", "Back again.")]), wait=True))
        assert git(vault, "config", "core.splitIndex").stdout.strip() == "false"
        assert not list((vault / ".git").glob("sharedindex.*"))
        assert git(vault, "status", "--porcelain").stdout == ""
        assert memory.search(alice, SearchRequest(query="back again", fast=True)).hits
    assert fsck_clean(vault)


def test_a_git_killed_holding_index_lock_is_repaired_and_landing_goes_on(tmp_path, embedder, alice):
    settings = Settings(home=tmp_path / "home", reading=False)
    with Memory(settings, embedder=embedder) as memory:
        memory.add(alice, AddRequest(items=chat("c1", MOVE[:1]), wait=True))
        vault = memory.space(alice).root
    # real git processes killed while they hold the index's and the branch's locks: what a kill -9 leaves
    (vault / "pages").mkdir(exist_ok=True)
    (vault / "pages" / "note.md").write_text("a note written by hand\n")
    git(vault, "add", "pages/note.md", check=True)
    head = git(vault, "rev-parse", "HEAD").stdout.strip()
    index = subprocess.Popen(["git", "-C", str(vault), "update-index", "--index-info"], stdin=subprocess.PIPE,
                             start_new_session=True)
    branch = subprocess.Popen(["git", "-C", str(vault), "update-ref", "--stdin"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, start_new_session=True)
    branch.stdin.write(f"start\nupdate refs/heads/main {head}\nprepare\n".encode())
    branch.stdin.flush()
    assert branch.stdout.readline() == b"start: ok\n" and branch.stdout.readline() == b"prepare: ok\n"
    deadline = time.monotonic() + 30
    while not (vault / ".git" / "index.lock").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    for stuck in (index, branch):
        os.killpg(stuck.pid, signal.SIGKILL)
        stuck.wait(10)
    assert (vault / ".git" / "index.lock").exists() and (vault / ".git" / "refs/heads/main.lock").exists()
    assert git(vault, "commit", "-m", "x").returncode != 0  # wedged, as the issue saw it

    with Memory(Settings(home=tmp_path / "home", reading=False, watch=True), embedder=embedder) as memory:
        space = memory.space(alice)
        assert any("index.lock" in line for line in space.standing.repaired)
        assert any("main.lock" in line for line in space.standing.repaired)
        memory.add(alice, AddRequest(items=chat("c1", MOVE[1:]), wait=True))
        phases = memory.status(alice, StatusRequest(ids=["msg-001", "msg-002", "msg-003"])).phases
        assert set(phases.values()) == {Phase.landed}
        assert memory.idle(30)
    log = git(vault, "log", "--format=%s").stdout
    assert "edit: pages/note.md (by hand)" in log  # the hand edit that was staged is kept, as a hand edit
    assert not (vault / ".git" / "index.lock").exists() and fsck_clean(vault)



def _proc_state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds processes through /proc")
def test_an_upkeep_that_outlived_its_killed_owner_is_stopped_before_the_next_owner_runs_git(tmp_path, embedder, alice):
    """A kill -9 during the upkeep (git gc, the commit-graph write) does not reach its children: one still running
    raced the next start's forget purge (`git fsck`: a commit it could not parse). The next owner stops it first."""
    settings = Settings(home=tmp_path / "home", reading=False)
    with Memory(settings, embedder=embedder) as memory:
        memory.add(alice, AddRequest(items=chat("c1", MOVE), wait=True))
        vault = memory.space(alice).root
    # an orphan: a git working in the vault whose parent is gone (started by a shell that exits at once)
    background = 'sleep 600 </dev/null 2>/dev/null | git -C "$1" cat-file --batch >/dev/null 2>&1 & echo $!'
    shell = subprocess.run(["sh", "-c", background, "sh", str(vault)], capture_output=True, text=True,
                           start_new_session=True, check=True)
    orphan = int(shell.stdout.strip())
    group = os.getpgid(orphan)
    try:
        assert _proc_state(orphan) not in ("gone", "Z")
        (vault / ".git" / "gc.pid").write_text(f"{orphan} {os.uname().nodename}")  # as a gc that runs leaves it
        (vault / ".git" / "objects" / "info").mkdir(exist_ok=True)
        (vault / ".git" / "objects" / "info" / "commit-graph.lock").write_text("")
        assert git(vault, "commit-graph", "write", "--reachable").returncode != 0  # the graph could not be written
        with Memory(settings, embedder=embedder) as memory:
            space = memory.space(alice)
            assert _proc_state(orphan) in ("gone", "Z")
            assert any("upkeep" in line for line in space.standing.repaired)
            assert any("commit-graph.lock" in line for line in space.standing.repaired)
            assert not (vault / ".git" / "gc.pid").exists()
            memory.forget(alice, ForgetRequest(ids=["msg-003"]))  # its purge: git gc, the commit graph written
            assert memory.idle(30)
        assert "Miso" not in git(vault, "log", "-p", "--all").stdout
        assert fsck_clean(vault)
    finally:
        os.killpg(group, signal.SIGKILL)


def test_this_owners_own_git_in_a_vault_is_not_taken_for_an_orphan(tmp_path):
    from twinfs import repair

    vault = tmp_path / "vault"
    subprocess.run(["git", "init", "-q", str(vault)], check=True)
    ours = subprocess.Popen(["git", "-C", str(vault), "cat-file", "--batch"], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while os.readlink(f"/proc/{ours.pid}/cwd") != str(vault.resolve()) and time.monotonic() < deadline:
            time.sleep(0.01)  # until git has changed into the vault
        assert repair._stop_gits_in(vault) == (0, 1)
        assert ours.poll() is None
    finally:
        ours.kill()
        ours.wait()

CHILD = textwrap.dedent("""
    import sys
    from twinfs import EndUser, Memory, Settings
    from twinfs.models import AddRequest, ForgetRequest
    home, step = sys.argv[1], sys.argv[2]
    user = EndUser(org="acme", project="app", account="alice")
    items = [{"id": f"m{i}", "kind": "message", "conversation": "c1", "role": "user", "name": "Alice",
              "text": f"I moved to Lisbon and the locker code is {4000 + i}", "at": f"2026-10-01T09:{i:02d}:00Z"}
             for i in range(20)]
    memory = Memory(Settings(home=home, quiet_seconds=0, fold_seconds=0)).start()
    memory.add(user, AddRequest(items=items, wait=True))
    memory.add(user, AddRequest(items=[{"id": "secret", "kind": "message", "conversation": "c2", "role": "user",
                                        "text": "the vault code is platypus77", "at": "2026-10-02T09:00:00Z"}],
                                wait=True))
    if step == "forget":
        memory.forget(user, ForgetRequest(ids=["secret"]))
    memory.idle(120)
    print("survived", flush=True)
""")


def run_child(home: Path, step: str, crash_at: str) -> None:
    child = subprocess.run([sys.executable, "-c", CHILD, str(home), step], env={**ENV, "TWIN_CRASH_AT": crash_at},
                           capture_output=True, text=True, timeout=300, start_new_session=True)
    assert child.returncode == -signal.SIGKILL, (child.returncode, child.stderr[-2000:])


@pytest.mark.slow
def test_a_read_killed_before_its_commit_is_committed_as_a_repair_not_a_hand_edit(tmp_path, embedder):
    home = tmp_path / "home"
    run_child(home, "read", "read:1")
    user = EndUser(org="acme", project="app", account="alice")
    vault = home / "users" / user.dirname
    assert (vault / ".git" / "twin-writing").exists() and git(vault, "status", "--porcelain").stdout
    with Memory(Settings(home=home, quiet_seconds=0, fold_seconds=0, watch=True), embedder=embedder) as memory:
        assert memory.idle(120)
        space = memory.space(user)
        assert any("stopped midway" in line for line in space.standing.repaired)
        deadline = time.monotonic() + 120  # the turns the killed step read are read again, by the ticker
        while memory.status(user, StatusRequest(ids=["m0"])).phases["m0"] not in (Phase.read, Phase.folded):
            assert time.monotonic() < deadline, "m0 was never read again"
            time.sleep(0.2)
        facts = memory.search(user, SearchRequest(query="Where does Alice live?")).facts or []
        assert any("Lisbon" in f.text for f in facts)
    log = git(vault, "log", "--format=%s").stdout
    assert "repair: records/" in log and "(by hand)" not in log
    assert git(vault, "status", "--porcelain").stdout == "" and fsck_clean(vault)
    assert not (vault / ".git" / "twin-writing").exists()


def test_a_forget_killed_inside_its_history_rewrite_is_finished_at_the_next_start(tmp_path, embedder):
    home = tmp_path / "home"
    run_child(home, "forget", "rewrite:1")
    user = EndUser(org="acme", project="app", account="alice")
    vault = home / "users" / user.dirname
    with Memory(Settings(home=home, reading=False), embedder=embedder) as memory:
        phases = memory.status(user, StatusRequest(ids=["secret", "m3"])).phases
        assert phases["secret"] == Phase.unknown and phases["m3"] != Phase.unknown
        hits = memory.search(user, SearchRequest(query="the vault code platypus77", fast=True)).hits
        assert all("platypus" not in h.text for h in hits)
    objects = subprocess.run(["git", "-C", str(vault), "cat-file", "--batch-all-objects", "--batch"],
                             capture_output=True, check=True).stdout
    assert b"platypus77" not in objects
    assert not any(b"platypus77" in f.read_bytes() for f in vault.rglob("*") if f.is_file())
    assert fsck_clean(vault) and not list((vault / ".git").glob("twin-*.json"))


def test_a_vault_killed_while_being_made_is_made_at_the_next_start(tmp_path, embedder, alice):
    home = tmp_path / "home"
    vault = home / "users" / alice.dirname
    vault.mkdir(parents=True)
    git(vault, "init", "-q", "-b", "main", check=True)  # what a kill inside first_commit leaves: no commit yet,
    (vault / ".vault.json.k1ll3d.tmp").write_text('{"vault": "acme.app.alice"')  # the marker half-written
    with Memory(Settings(home=home, quiet_seconds=3600), embedder=embedder) as memory:
        repaired = memory.space(alice).standing.repaired
        assert any("being made" in line for line in repaired) and any(".vault.json" in line for line in repaired)
        memory.add(alice, AddRequest(items=chat("c1", [("m1", "user", "I moved to Lisbon")]), wait=True))
        assert memory.status(alice, StatusRequest(ids=["m1"])).phases["m1"] == Phase.landed
    assert not list(vault.glob(".*.tmp")) and json.loads((vault / "vault.json").read_text())["format"] == 2
    assert git(vault, "status", "--porcelain").stdout == "" and fsck_clean(vault)


def test_a_vault_in_the_old_format_gets_portable_item_names_with_its_history(tmp_path, embedder, alice):
    settings = Settings(home=tmp_path / "home", reading=False)
    ids = ["D1:3", "Msg-1", "msg-1", "con", "." * 128]
    with Memory(settings, embedder=embedder) as memory:
        memory.add(alice, AddRequest(items=chat("c1", [(i, "user", f"turn {n} about trains") for n, i in
                                                       enumerate(ids[:4])]), wait=True))
        vault = memory.space(alice).root
    # as a vault of the first format held them: %XX names, no vault.json
    folder = next((vault / "items").iterdir())
    for f in folder.iterdir():
        ident = json.loads(f.read_text())["id"]
        f.rename(folder / ("".join(c if c.isalnum() or c in "_-" else f"%{ord(c):02X}" for c in ident) + ".json"))
    (vault / "vault.json").unlink()
    git(vault, "add", "-A", check=True)
    git(vault, "commit", "-qm", "as the first format named them", check=True)
    old_names = sorted(p.name for p in folder.iterdir())
    assert "Msg-1.json" in old_names and "msg-1.json" in old_names  # one file on a case-blind disk

    with Memory(settings, embedder=embedder) as memory:
        space = memory.space(alice)
        assert any("format 2" in line for line in space.standing.repaired)
        names = sorted(p.name for p in folder.iterdir())
        assert len({n.lower() for n in names}) == 4 and "con.json" not in names
        assert space.vault.marker() == {"vault": alice.dirname, "format": 2}
        memory.add(alice, AddRequest(items=chat("c1", [(ids[4], "user", "a turn whose id is 128 dots")]),
                                     wait=True))
        phases = memory.status(alice, StatusRequest(ids=ids)).phases
        assert set(phases.values()) == {Phase.landed}, phases
        assert ids[4] in memory.search(alice, SearchRequest(query="128 dots", fast=True)).hits[0].turns
    assert "as the first format named them" in git(vault, "log", "--format=%s").stdout  # history kept
    assert git(vault, "status", "--porcelain").stdout == ""


@pytest.mark.slow
def test_landing_that_keeps_failing_is_retried_with_back_off_and_said_in_status(tmp_path, embedder, alice):
    with Memory(Settings(home=tmp_path / "home", reading=False), embedder=embedder) as memory:
        memory.add(alice, AddRequest(items=chat("c1", MOVE[:1]), wait=True))
        space = memory.space(alice)
        real, calls = space.meaning.apply, []

        def failing(docs, drops):
            calls.append(time.monotonic())
            if len(calls) <= 3:
                raise OSError(28, "No space left on device")
            return real(docs, drops)

        space.meaning.apply = failing
        memory.add(alice, AddRequest(items=chat("c1", MOVE[1:2])))
        deadline = time.monotonic() + 10
        while len(calls) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        status = memory.status(alice, StatusRequest(ids=["msg-002"]))
        assert status.phases["msg-002"] == Phase.accepted
        assert any("Landing of 1 add has failed" in n and "No space left" in n for n in status.notes or []), status
        assert memory.idle(30)
        assert len(calls) == 4 and calls[2] - calls[1] >= 1.5  # 1 s, then 2 s, then 4 s between tries
        status = memory.status(alice, StatusRequest(ids=["msg-002"]))
        assert status.phases["msg-002"] == Phase.landed and not status.notes


def test_a_vault_that_cannot_be_repaired_is_reported_and_the_others_go_on(tmp_path, embedder, alice):
    bob = EndUser(org="acme", project="app", account="bob")
    settings = Settings(home=tmp_path / "home", reading=False)
    with Memory(settings, embedder=embedder) as memory:
        memory.add(alice, AddRequest(items=chat("c1", MOVE[:1]), wait=True))
        memory.add(bob, AddRequest(items=chat("c1", MOVE[:1]), wait=True))
        bob_vault = memory.space(bob).root
    head = (bob_vault / ".git" / "HEAD").read_text()
    ref = bob_vault / ".git" / head.split(": ")[1].strip()
    ref.write_text("0" * 40 + "\n")  # a branch pointing at nothing
    with Memory(settings, embedder=embedder) as memory:
        assert memory.space(bob).standing.broken and "HEAD" in memory.space(bob).standing.broken
        notes = memory.status(bob, StatusRequest(ids=["msg-001"])).notes
        assert notes and "could not be repaired" in notes[0]
        with pytest.raises(Unavailable):
            memory.add(bob, AddRequest(items=chat("c1", MOVE[1:2])))
        memory.add(alice, AddRequest(items=chat("c1", MOVE[1:2]), wait=True))
        assert memory.status(alice, StatusRequest(ids=["msg-002"])).phases["msg-002"] == Phase.landed


@pytest.mark.slow
def test_a_long_inbox_does_not_keep_a_correction_waiting_behind_all_of_it(tmp_path, embedder, alice):
    """The pipeline takes the writer one landing at a time, and the writer serves in turn: a hand-edit mend (as a
    correct or a sync would) runs while most of the inbox still waits."""
    with Memory(Settings(home=tmp_path / "home", reading=False), embedder=embedder) as memory:
        memory.add(alice, AddRequest(items=chat("c1", MOVE[:1]), wait=True))
        space = memory.space(alice)
        real = space.meaning.apply

        def slow(docs, drops):
            time.sleep(0.3)
            return real(docs, drops)

        space.meaning.apply = slow
        for n in range(20):
            memory.add(alice, AddRequest(items=chat(f"c{n}", [(f"m{n}", "user", f"turn {n} about boats")])))
        time.sleep(0.5)  # the pipeline is landing
        memory.mend(alice)
        assert len(space.pending()) >= 10  # served in turn, not after the whole inbox
        assert memory.idle(60) and not space.pending()
