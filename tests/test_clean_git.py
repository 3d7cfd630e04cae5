"""git stays fsck-clean (issue #35): reflog entries that name objects git no longer has are dropped by the
repair a crash leads to, and a forget's prune waits for an upkeep started by an earlier opening of the vault."""
from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path

from conftest import MOVE, chat

from twinfs import Memory, Settings, git_history
from twinfs import vault as vault_module
from twinfs.models import AddRequest
from twinfs.repair import reflogs_mended
from twinfs.vault import Vault


def git(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)


def fsck_errors(root: Path) -> str:
    done = git(root, "fsck", "--strict", "--no-dangling")
    return "" if done.returncode == 0 and "error" not in done.stderr else done.stderr.strip()


def test_reflog_entries_naming_pruned_objects_are_dropped_by_the_repair_and_the_rest_kept(tmp_path, embedder,
                                                                                           alice):
    with Memory(Settings(home=tmp_path, watch=False, reading=False), embedder=embedder) as memory:
        memory.add(alice, AddRequest(items=chat("c1", MOVE[:2]), wait=True))
        memory.add(alice, AddRequest(items=chat("c1", MOVE[2:4]), wait=True))
        space = memory.space(alice)
        root = space.root
        kept = git(root, "reflog", "show", "--format=%H", "HEAD").stdout.split()
        # what the vaults held: a commit the reflogs still name, pruned
        git(root, "commit-tree", "-m", "soon gone", "HEAD^{tree}")
        gone = git(root, "commit-tree", "-m", "gone", "-p", "HEAD", "HEAD^{tree}").stdout.strip()
        git(root, "update-ref", "-m", "gone", "HEAD", gone)
        git(root, "update-ref", "-m", "back", "HEAD", kept[0])
        for log in (root / ".git" / "logs" / "HEAD", root / ".git" / "logs" / "refs" / "heads" / "main"):
            assert gone in log.read_text()
        obj = root / ".git" / "objects" / gone[:2] / gone[2:]
        obj.unlink()
        assert "invalid reflog entry" in fsck_errors(root)
        done = reflogs_mended(space)
        assert done and "1 object" in done[0]
        assert fsck_errors(root) == ""
        assert git(root, "reflog", "show", "--format=%H", "HEAD").stdout.split()[-len(kept):] == kept
        assert reflogs_mended(space) == []  # a clean vault: nothing to do


def test_a_prune_waits_for_the_upkeep_an_earlier_opening_of_the_vault_started(tmp_path):
    root = tmp_path / "v"
    first = Vault(root)
    first.init("a.b.c")
    release = threading.Event()
    upkeep = threading.Thread(target=release.wait, daemon=True)  # stands for a gc --auto still running
    with vault_module._UPKEEPS_LOCK:
        vault_module._UPKEEPS[str(root.resolve())] = upkeep
    upkeep.start()
    first.close()
    again = Vault(root)  # the vault opened again: a new Vault
    pruned = threading.Event()
    waiter = threading.Thread(target=lambda: (git_history.prune_now(again), pruned.set()), daemon=True)
    waiter.start()
    time.sleep(0.3)
    assert not pruned.is_set()  # waits for the running upkeep, whoever started it
    release.set()
    waiter.join(30)
    assert pruned.is_set()
    assert fsck_errors(root) == ""
