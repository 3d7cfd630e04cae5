"""A large vault's git asks watchman what changed (twinfs/fsmonitor.py): git status stays right and stops
lstat-ing every file. Real git, real watchman (skipped with a message where watchman is not installed)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from conftest import MOVE, chat

from twinfs import Memory, Settings, fsmonitor
from twinfs import vault as vaults
from twinfs.models import AddRequest

pytestmark = pytest.mark.skipif(shutil.which("watchman") is None,
                                reason="watchman is not installed (apt-get install watchman): .ci/run installs it")


def git(root, *args: str, env: dict | None = None) -> str:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True,
                          env={**os.environ, **(env or {})}).stdout


def valid_by_monitor(root) -> int:
    """Index entries git took as unchanged on the monitor's word (`git ls-files -f`: a lowercase tag)."""
    return sum(1 for line in git(root, "ls-files", "-f").splitlines() if line[:1].islower())


@pytest.fixture
def watched(tmp_path, monkeypatch):
    """A vault with some files, large by the threshold (0), its watch taken out by watchman afterwards."""
    monkeypatch.delenv(fsmonitor.SETTING, raising=False)
    monkeypatch.setattr(vaults, "TREES_FROM", 0)
    root = tmp_path / "v"
    vault = vaults.Vault(root)
    vault.init("acme.app.alice")
    for n in range(40):
        vault.write(f"pages/p{n}.md", f"# page {n}\n")
    vault.commit("pages", ["pages"])
    yield vault
    subprocess.run(["watchman", "watch-del", str(root)], capture_output=True)


def test_a_large_vault_asks_watchman_and_still_sees_every_hand_edit(watched):
    root = watched.root
    watched.monitored()
    assert fsmonitor.enabled(root) and git(root, "config", "core.fsmonitor").strip() == ".git/twin-fsmonitor"
    assert git(root, "status", "--porcelain") == ""  # the first call: watchman starts watching, git scans
    assert git(root, "status", "--porcelain") == ""
    assert valid_by_monitor(root) >= 40  # git took the files as unchanged on watchman's word, without lstat

    (root / "pages" / "p3.md").write_text("# page 3, by hand\n")
    (root / "pages" / "p7.md").unlink()
    (root / "pages" / "new.md").write_text("# a new page\n")
    assert watched.changes() == ["pages/new.md", "pages/p3.md", "pages/p7.md"]
    watched.commit("hand edits", ["pages"])
    assert watched.changes() == []
    (root / "pages" / "p9.md").write_text("# again\n")  # after a commit: from the token the last status kept
    assert watched.changes() == ["pages/p9.md"]


def test_without_watchman_git_scans_as_before(watched, tmp_path):
    """The hook exits non-zero when it cannot reach watchman (here: not on PATH), and git scans instead."""
    root = watched.root
    watched.monitored()
    bare = tmp_path / "bin"
    bare.mkdir()
    (bare / "git").symlink_to(shutil.which("git"))
    env = {"PATH": str(bare)}
    (root / "pages" / "p1.md").write_text("# page 1, by hand\n")
    assert git(root, "status", "--porcelain", env=env) == " M pages/p1.md\n"
    assert valid_by_monitor(root) == 0


def test_turned_off_the_hook_is_taken_out_and_a_small_vault_gets_none(watched, monkeypatch):
    root = watched.root
    watched.monitored()
    assert fsmonitor.enabled(root)
    monkeypatch.setenv(fsmonitor.SETTING, "off")
    watched.monitored()
    assert not fsmonitor.enabled(root) and not (root / ".git" / fsmonitor.HOOK_NAME).exists()
    assert subprocess.run(["git", "-C", str(root), "config", "core.fsmonitor"], capture_output=True).returncode == 1

    monkeypatch.delenv(fsmonitor.SETTING)
    monkeypatch.setattr(vaults, "TREES_FROM", 4 << 20)
    watched.monitored()
    assert not fsmonitor.enabled(root)


def test_the_hook_follows_the_interpreter_and_git_never_sees_a_stale_one(watched):
    """The hook names the Python that wrote it; written again at the next open when that moved."""
    root = watched.root
    watched.monitored()
    hook = root / ".git" / fsmonitor.HOOK_NAME
    hook.write_text(hook.read_text().replace(os.path.realpath(sys.executable), "/gone/python3"))
    watched.monitored()
    assert hook.read_text().splitlines()[0] == f"#!{os.path.realpath(sys.executable)} -IS"
    assert os.access(hook, os.X_OK)


def test_an_end_user_whose_vault_is_large_gets_the_monitor_when_opened(tmp_home, embedder, alice, monkeypatch):
    monkeypatch.delenv(fsmonitor.SETTING, raising=False)
    monkeypatch.setattr(vaults, "TREES_FROM", 0)  # every vault large
    root = tmp_home / "users" / alice.dirname
    try:
        with Memory(Settings(home=tmp_home, reading=False), embedder=embedder) as m:
            m.add(alice, AddRequest(items=chat("a", MOVE), wait=True))
        assert not fsmonitor.enabled(root)  # made in this process: the next open sets it
        with Memory(Settings(home=tmp_home, reading=False), embedder=embedder) as m:
            m.add(alice, AddRequest(items=chat("b", MOVE), wait=True))
            assert fsmonitor.enabled(root)
            space = m.spaces.peek(alice.dirname)
            assert space.vault.changes() == []
            page = next((root / "passages").rglob("*.md"))
            page.write_text(page.read_text() + "\nA line by hand.\n")
            assert space.vault.changes() == [page.relative_to(root).as_posix()]
    finally:
        subprocess.run(["watchman", "watch-del", str(root)], capture_output=True)
