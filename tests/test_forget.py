"""Forget: an item (or a thread) leaves the files, the indexes, the pages and the git history."""
from __future__ import annotations

import subprocess
import threading
from contextlib import suppress

from conftest import MOVE, PORTO, chat

from twinfs.models import AddRequest, ForgetRequest, GrepRequest, SearchRequest, StatusRequest

SECRET = "my bank PIN is 4471-zebra"


def git(root, *args) -> str:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True).stdout


def everything_in(root) -> str:
    """Every object git holds, every file of the vault and of .twin/, as text."""
    objects = [line.split()[0] for line in git(root, "cat-file", "--batch-all-objects", "--batch-check").splitlines()]
    blobs = [git(root, "cat-file", "-p", sha) for sha in objects]
    files = [p.read_bytes().decode("utf-8", "replace") for p in root.rglob("*") if p.is_file()]
    return "\n".join(blobs + files)


def test_forgetting_an_item_leaves_nothing_of_it_anywhere(memory, alice):
    lines = MOVE + [("msg-004", "user", f"By the way, {SECRET}.")]
    memory.add(alice, AddRequest(items=chat("c1", lines) + [PORTO], wait=True))
    memory.add(alice, AddRequest(items=chat("c1", [("msg-004", "user", f"Correction: {SECRET}, really.")]),
                                 wait=True))  # an edit: two versions in the history
    root = memory.space(alice).root
    assert "4471-zebra" in everything_in(root)
    commits = len(git(root, "rev-list", "HEAD").splitlines())
    porto_items = next(root.glob("items/*/doc-porto.json")).parent.relative_to(root).as_posix()
    porto = git(root, "log", "--format=%s|%an|%aI", "--", porto_items)  # another thread's history stays

    memory.search(alice, SearchRequest(query="bank PIN zebra?", fast=True))
    assert memory.embedder._asked.get(["bank PIN zebra?"])
    result = memory.forget(alice, ForgetRequest(ids=["msg-004", "nope"]))
    assert result.forgotten == ["msg-004"] and result.unknown == ["nope"]
    assert "4471-zebra" not in everything_in(root)
    assert "zebra" not in git(root, "log", "--all", "-p")
    assert git(root, "log", "-1", "--format=%s").strip() == "forget: 1 item from 1 thread"
    assert len(git(root, "rev-list", "HEAD").splitlines()) == commits + 1  # history kept, rewritten
    assert git(root, "log", "--format=%s|%an|%aI", "--", porto_items) == porto
    assert result.commit == git(root, "rev-parse", "HEAD").strip()
    assert git(root, "status", "--porcelain") == ""

    assert memory.status(alice, StatusRequest(ids=["msg-004", "msg-001"])).phases == {
        "msg-004": "unknown", "msg-001": "landed"}
    assert memory.grep(alice, GrepRequest(pattern="zebra")).found == 0
    assert not memory.embedder._asked.get(["bank PIN zebra?"])  # nothing kept in memory either
    found = memory.search(alice, SearchRequest(query="bank PIN zebra", fast=True))
    assert all("zebra" not in h.text for h in found.hits)
    assert memory.search(alice, SearchRequest(query="tram noise", fast=True)).hits[0].turns[:1] == ["msg-001"]


def test_a_forget_purges_while_git_thinks_a_gc_is_running(memory, alice):
    """The vault's background upkeep (`git gc --auto`) running, or a gc.pid a killed process left whose pid lives
    on: git refuses a second gc ('gc is already running'), and a restart could not repair a forget so."""
    import os
    import socket

    memory.add(alice, AddRequest(items=chat("c1", MOVE + [("msg-004", "user", f"By the way, {SECRET}.")]),
                                 wait=True))
    root = memory.space(alice).root
    (root / ".git" / "gc.pid").write_text(f"{os.getpid()} {socket.gethostname()}")  # alive, on this machine
    assert subprocess.run(["git", "-C", str(root), "gc", "--prune=now", "--quiet"],
                          capture_output=True).returncode == 128  # what the purge ran
    assert memory.forget(alice, ForgetRequest(ids=["msg-004"])).forgotten == ["msg-004"]
    assert "4471-zebra" not in everything_in(root)


def test_forgetting_a_thread_and_what_is_still_in_the_inbox(memory, alice):
    memory.add(alice, AddRequest(items=chat("c1", MOVE) + [PORTO], wait=True))
    space = memory.space(alice)
    thread = next(t for t in space.threads() if any(e["id"] == "doc-porto" for e in space.thread_items(t)))
    memory.add(alice, AddRequest(items=chat("c2", [("late-1", "user", f"Also {SECRET}.")])))  # not waited for
    result = memory.forget(alice, ForgetRequest(ids=[thread, "late-1"]))
    assert result.forgotten == ["doc-porto", "late-1"] and result.unknown == []
    assert "4471-zebra" not in everything_in(space.root) and "Douro" not in everything_in(space.root)
    assert not list(space.root.glob(f"items/{thread}/*")) and not list(space.root.glob(f"passages/*/*/{thread}/*"))
    assert memory.search(alice, SearchRequest(query="Where does Alice live?", fast=True)).hits
    assert memory.forget(alice, ForgetRequest(ids=["doc-porto"])).forgotten == []  # already gone


def test_forgetting_a_read_item_drops_its_records_and_reads_the_rest_again(tmp_home, embedder, alice):
    from twinfs import Memory, Settings
    from twinfs.ledger import all_records

    lines = MOVE + [("msg-004", "user", "My sister Mei moved to Zebraville last spring.")]
    with Memory(Settings(home=tmp_home, reading=True, quiet_seconds=0, fold_seconds=0), embedder=embedder) as m:
        m.add(alice, AddRequest(items=chat("c1", lines), wait=True))
        assert m.idle(60)
        space = m.space(alice)
        assert "Zebraville" in everything_in(space.root)  # read into records and folded into pages
        assert any("msg-004" in r.turns for r in all_records(space))
        m.forget(alice, ForgetRequest(ids=["msg-004"]))
        assert "Zebraville" not in everything_in(space.root)
        assert m.idle(60)  # the rest of the thread is read and folded again
        records = all_records(space)
        assert records and not any("msg-004" in r.turns for r in records)
        assert "Zebraville" not in everything_in(space.root)
        assert m.status(alice, StatusRequest(ids=["msg-001", "msg-004"])).phases == {
            "msg-001": "folded", "msg-004": "unknown"}


def test_commit_messages_that_could_say_what_was_forgotten_are_redacted():
    from twinfs.forgetting import redact

    message = redact(["th_0123456789abcdef"])
    assert message("correct: replace pin '4471' -> '4472' in th_0123456789abcdef#r01 (typo)") == "correct: (forgotten)"
    assert message("edit: items/th_0123456789abcdef/bank-pin.json (by hand)") == "edit: (forgotten)"
    other = "correct: retract th_fedcba9876543210#r02 (wrong)"
    assert message(other) == other
    assert message("add: 3 items to th_0123456789abcdef") == "add: 3 items to th_0123456789abcdef"


def forget_that_fails(settings, embedder, alice, monkeypatch, landed=None, meanwhile=None):
    """An add (then `landed()`), then a forget whose history rewrite fails (a full disk), `meanwhile()` run while
    the forget holds the writer; -> the vault's root, its owner closed, the secret still in the history."""
    from twinfs import Memory, git_history

    def fails(*args, **kwargs):
        if meanwhile:
            meanwhile()
        raise OSError("the disk is full")

    with Memory(settings, embedder=embedder) as m:
        m.add(alice, AddRequest(items=chat("c1", MOVE + [("msg-004", "user", f"And {SECRET}.")]), wait=True))
        root = m.space(alice).root
        if landed:
            landed()
        with monkeypatch.context() as patched:
            patched.setattr(git_history, "rewrite_history", fails)
            with suppress(OSError):
                m.forget(alice, ForgetRequest(ids=["msg-004"]))
        assert "4471-zebra" in everything_in(root)  # still in the history: the rewrite failed
    assert "4471-zebra" in everything_in(root)  # nor did this owner finish it: what follows is the next start's
    return root


def finished_at_the_next_start(settings, embedder, root) -> None:
    from twinfs import Memory

    with Memory(settings, embedder=embedder) as m:  # the next start finishes it (in the pending index)
        assert m.idle(60)
        assert "4471-zebra" not in everything_in(root)
        assert not (root / ".git" / "twin-purge.json").exists()


def test_a_forget_that_fails_before_its_history_is_rewritten_is_finished_later(settings, embedder, alice,
                                                                               monkeypatch):
    finished_at_the_next_start(settings, embedder, forget_that_fails(settings, embedder, alice, monkeypatch))


def test_a_failed_forget_stays_due_when_the_pipeline_settles_the_vault_meanwhile(settings, embedder, alice,
                                                                                 monkeypatch):
    """The add's pipeline work settles the vault while the forget holds the writer (held back until then here;
    on a busy machine it happens by itself): the forget's mark in the pending index stands, so the next start
    opens the vault and finishes the forget. It was cleared before, and the secret stayed in the history."""
    from twinfs.lifecycle import Lifecycle

    settling, forgetting, settled = threading.Event(), threading.Event(), threading.Event()
    settle = Lifecycle.settle

    def late_settle(self, space):
        settling.set()  # the add's landing is done and the writer free: the forget takes it next
        forgetting.wait(20)
        settle(self, space)
        settled.set()

    def meanwhile():
        forgetting.set()
        assert settled.wait(20)

    monkeypatch.setattr(Lifecycle, "settle", late_settle)
    root = forget_that_fails(settings, embedder, alice, monkeypatch, lambda: settling.wait(20), meanwhile)
    monkeypatch.setattr(Lifecycle, "settle", settle)
    finished_at_the_next_start(settings, embedder, root)
