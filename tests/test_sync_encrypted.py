"""Sync through a remote that cannot read the memory (`gcrypt::`): real git-remote-gcrypt and GnuPG, throwaway
GnuPG homes made here, a local folder as the remote. What leaves the machine is ciphertext; a second home with the
key clones it; a forget leaves no ciphertext of what was forgotten; every failure is one line, changing nothing."""
from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import MOVE, chat, until
from starlette.testclient import TestClient
from twinfs.server.app import create_app

from twinfs import EndUser, Memory, Settings
from twinfs.errors import Invalid
from twinfs.keys import Keys
from twinfs.models import AddRequest, ForgetRequest, GrepRequest

pytestmark = pytest.mark.skipif(not (shutil.which("git-remote-gcrypt") and shutil.which("gpg")),
                                reason="git-remote-gcrypt and gnupg are not installed: apt-get install "
                                       "git-remote-gcrypt gnupg")
USER = EndUser(org="acme", project="app", account="alice")
SECRETS = [b"Lisbon", b"Miso", b"Alice Chen", b"msg-001", b"acme.app.alice", b"river"]


def gnupg_home(folder: Path, name: str) -> Path:
    folder.mkdir(mode=0o700, parents=True)
    subprocess.run(["gpg", "--batch", "--passphrase", "", "--quick-gen-key", f"{name} <{name}@example.invalid>",
                    "future-default", "default", "never"], env={**os.environ, "GNUPGHOME": str(folder)},
                   check=True, capture_output=True)
    return folder


@pytest.fixture(scope="module")
def keyrings(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("gnupg")
    return {"mine": gnupg_home(base / "mine", "laptop"), "other": gnupg_home(base / "other", "stranger")}


def open_home(path: Path, embedder, **settings) -> Memory:
    return Memory(Settings(home=path, reading=False, watch=False, **settings), embedder=embedder).start()


def remote_bytes(remote: Path) -> bytes:
    return b"".join(p.read_bytes() for p in remote.rglob("*") if p.is_file())


def decrypted_history(remote: Path, into: Path) -> bytes:
    """Everything the remote holds, decrypted with the key (a plain clone through gcrypt), every object's bytes."""
    subprocess.run(["git", "init", "-q", str(into)], check=True)
    subprocess.run(["git", "-C", str(into), "config", "gcrypt.gpg-args", "--batch --no-tty"], check=True)
    subprocess.run(["git", "-C", str(into), "fetch", "-q", f"gcrypt::{remote}", "+refs/heads/*:refs/heads/*"],
                   check=True, capture_output=True)
    objects = subprocess.run(["git", "-C", str(into), "cat-file", "--batch-all-objects", "--batch"],
                             capture_output=True, check=True).stdout
    return objects


def test_what_leaves_the_machine_is_ciphertext_and_a_second_home_with_the_key_clones_it(
        tmp_path, embedder, keyrings, monkeypatch):
    monkeypatch.setenv("GNUPGHOME", str(keyrings["mine"]))
    remote = tmp_path / "sealed"
    with open_home(tmp_path / "a", embedder) as a:
        a.add(USER, AddRequest(items=chat("c1", MOVE), wait=True))
        out = a.sync_with(USER, remote=f"gcrypt::{remote}")
        assert out.sent and out.encrypted_to and "laptop@example.invalid" in out.encrypted_to[0]
    held = remote_bytes(remote)
    assert held and not [s for s in SECRETS if s in held]  # byte for byte: no text, id, name or account
    with open_home(tmp_path / "b", embedder) as b:
        cloned = b.sync_with(USER, remote=f"gcrypt::{remote}")
        assert cloned.kind == "cloned" and cloned.received == 3
        assert b.grep(USER, GrepRequest(pattern="Lisbon")).found == 1
        b.add(USER, AddRequest(items=chat("c2", [("msg-101", "user", "We adopted a second cat, Pico.")]),
                               wait=True))
        assert b.sync_with(USER).sent
    with open_home(tmp_path / "a", embedder) as a:
        assert a.sync_with(USER).received == 1  # merged by items, through the encrypted remote
        assert a.grep(USER, GrepRequest(pattern="Pico")).found == 1
    assert b"Pico" not in remote_bytes(remote)


def test_a_forget_leaves_no_ciphertext_of_the_forgotten_item_once_both_sides_synced(
        tmp_path, embedder, keyrings, monkeypatch):
    monkeypatch.setenv("GNUPGHOME", str(keyrings["mine"]))
    remote = tmp_path / "sealed"
    with open_home(tmp_path / "a", embedder) as a:
        a.add(USER, AddRequest(items=chat("c1", MOVE), wait=True))
        a.sync_with(USER, remote=f"gcrypt::{remote}")
    with open_home(tmp_path / "b", embedder) as b:
        b.sync_with(USER, remote=f"gcrypt::{remote}")
    assert b"Miso" in decrypted_history(remote, tmp_path / "look-before")
    files_before = sorted(p.name for p in remote.iterdir())
    with open_home(tmp_path / "a", embedder) as a:
        a.forget(USER, ForgetRequest(ids=["msg-003"]))  # "My cat Miso hates the tram noise"
        assert a.sync_with(USER).sent
    with open_home(tmp_path / "b", embedder) as b:
        assert b.sync_with(USER).forgotten == 1  # the tombstone travelled
        assert b.grep(USER, GrepRequest(pattern="Miso")).found == 0
    files_after = sorted(p.name for p in remote.iterdir())
    # repacked whole by the forced push: of the files before, only the manifest (its name never changes) is left;
    # the packs are the new history's (the forced push's, and what the other side pushed after it)
    assert len(set(files_after) & set(files_before)) == 1
    everything = decrypted_history(remote, tmp_path / "look-after")
    assert b"Miso" not in everything and b"msg-003" not in everything  # decrypted: not a trace in any object
    assert b"Lisbon" in everything


def test_failures_are_one_line_and_change_nothing(tmp_path, embedder, keyrings, monkeypatch):
    monkeypatch.setenv("GNUPGHOME", str(keyrings["mine"]))
    plain = tmp_path / "plain.git"
    sealed = tmp_path / "sealed"
    with open_home(tmp_path / "a", embedder) as a:
        a.add(USER, AddRequest(items=chat("c1", MOVE), wait=True))
        vault = a.space(USER).vault

        # git-remote-gcrypt missing: a PATH without it
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        for tool in ("git", "gpg"):
            (bin_dir / tool).symlink_to(shutil.which(tool))
        monkeypatch.setenv("PATH", str(bin_dir))
        with pytest.raises(Invalid, match="needs git-remote-gcrypt, which is not installed"):
            a.sync_with(USER, remote=f"gcrypt::{sealed}")
        monkeypatch.undo()
        monkeypatch.setenv("GNUPGHOME", str(keyrings["mine"]))

        # no key at all
        empty = tmp_path / "empty-gnupg"
        empty.mkdir(mode=0o700)
        monkeypatch.setenv("GNUPGHOME", str(empty))
        with pytest.raises(Invalid, match="there is none: make one with `gpg --quick-gen-key"):
            a.sync_with(USER, remote=f"gcrypt::{sealed}")
        monkeypatch.setenv("GNUPGHOME", str(keyrings["mine"]))

        # a participant this machine does not hold
        a.settings = replace(a.settings, sync_gpg_keys=("nobody@example.invalid",))
        a.writes.hooks.gpg_keys = ["nobody@example.invalid"]
        with pytest.raises(Invalid, match="'nobody@example.invalid' .* is not in this machine's keyring"):
            a.sync_with(USER, remote=f"gcrypt::{sealed}")
        assert not sealed.exists() and "remote" not in vault.git("config", "--list")

        # the plain remote a vault used is never switched to an encrypted one silently, nor the reverse
        a.writes.hooks.gpg_keys = []
        a.settings = replace(a.settings, sync_gpg_keys=())
        a.sync_with(USER, remote=str(plain))
        with pytest.raises(Invalid, match="moving it to an encrypted one is an explicit step"):
            a.sync_with(USER, remote=f"gcrypt::{sealed}")
        assert not sealed.exists() and vault.git("config", "--get", "remote.origin.url").strip() == str(plain)
    with open_home(tmp_path / "b", embedder) as b:
        b.add(USER, AddRequest(items=chat("c1", MOVE), wait=True))
        b.sync_with(USER, remote=f"gcrypt::{sealed}")
        head = sorted(p.name for p in sealed.iterdir())
        with pytest.raises(Invalid, match="a plain remote would receive its memory in clear"):
            b.sync_with(USER, remote=str(tmp_path / "other-plain.git"))
        assert not (tmp_path / "other-plain.git").exists()
        assert b.space(USER).vault.git("config", "--get", "remote.origin.url").strip() == f"gcrypt::{sealed}"
    assert sorted(p.name for p in sealed.iterdir()) == head

    # a remote encrypted to another key: a home holding only the other key cannot join, and keeps nothing
    monkeypatch.setenv("GNUPGHOME", str(keyrings["other"]))
    with open_home(tmp_path / "c", embedder) as c:
        with pytest.raises(Invalid, match="encrypted to a key this machine does not hold"):
            c.sync_with(USER, remote=f"gcrypt::{sealed}")
        assert not c.space(USER).exists


def test_the_server_syncs_an_encrypted_remote_on_request_and_on_its_schedule(tmp_path, embedder, keyrings,
                                                                              monkeypatch):
    monkeypatch.setenv("GNUPGHOME", str(keyrings["mine"]))
    sealed = tmp_path / "sealed"
    settings = Settings(home=tmp_path / "a", reading=False, watch=False, sync_seconds=2)
    with open_home(tmp_path / "a", embedder, sync_seconds=2) as a:
        a.add(USER, AddRequest(items=chat("c1", MOVE), wait=True))
        a.sync_with(USER, remote=f"gcrypt::{sealed}")  # the operator sets the remote
        token, _ = Keys(settings.home).create("acme", "app", "write")
        with TestClient(create_app(settings, a)) as client:
            r = client.post("/v1/memory/sync", json={},
                            headers={"Authorization": f"Bearer {token}", "X-Twin-Account": "alice"})
            assert r.status_code == 200 and r.json()["encrypted_to"], r.text
        manifest = sorted(sealed.iterdir(), key=lambda p: p.stat().st_mtime)[-1].stat().st_mtime
        a.add(USER, AddRequest(items=chat("c3", [("msg-201", "user", "The heron is back on the river.")]),
                               wait=True))
        assert until(lambda: max(p.stat().st_mtime for p in sealed.iterdir()) > manifest, 30)  # TWIN_SYNC_SECONDS
    with open_home(tmp_path / "b", embedder) as b:
        b.sync_with(USER, remote=f"gcrypt::{sealed}")
        assert b.grep(USER, GrepRequest(pattern="heron")).found == 1


def test_a_git_repository_behind_gcrypt_stays_one_through_a_forget_and_a_plain_vault_s_is_refused(
        tmp_path, embedder, keyrings, monkeypatch):
    """gcrypt keeps a git repository (what it does over ssh and https; here a local bare one) as a git backend: a
    forget's forced push goes into it, never swapping in a folder of files it could not read again. A plain
    twinfs remote given as gcrypt:: is refused: gcrypt would add its branch beside the plain one, left in clear."""
    monkeypatch.setenv("GNUPGHOME", str(keyrings["mine"]))
    backend = tmp_path / "backend.git"
    subprocess.run(["git", "init", "-q", "--bare", str(backend)], check=True)
    with open_home(tmp_path / "a", embedder) as a:
        a.add(USER, AddRequest(items=chat("c1", MOVE), wait=True))
        assert a.sync_with(USER, remote=f"gcrypt::{backend}").sent
        a.forget(USER, ForgetRequest(ids=["msg-003"]))
        assert a.sync_with(USER).sent
        assert (backend / "HEAD").exists()  # still a git repository
        a.add(USER, AddRequest(items=chat("c2", [("msg-101", "user", "We adopted a second cat, Pico.")]),
                               wait=True))
        assert a.sync_with(USER).sent  # and still readable by gcrypt
    with open_home(tmp_path / "b", embedder) as b:
        assert b.sync_with(USER, remote=f"gcrypt::{backend}").kind == "cloned"
        assert b.grep(USER, GrepRequest(pattern="Pico")).found == 1
        assert b.grep(USER, GrepRequest(pattern="Miso")).found == 0
    objects = subprocess.run(["git", "--git-dir", str(backend), "cat-file", "--batch-all-objects", "--batch"],
                             capture_output=True, check=True).stdout
    assert not [s for s in SECRETS if s in objects]
    plain = tmp_path / "plain.git"
    with open_home(tmp_path / "c", embedder) as c:
        c.add(USER, AddRequest(items=chat("c1", MOVE), wait=True))
        c.sync_with(USER, remote=str(plain))
    with open_home(tmp_path / "d", embedder) as d:
        d.add(USER, AddRequest(items=chat("c3", [("msg-201", "user", "A note of d's.")]), wait=True))
        with pytest.raises(Invalid, match="holds a plain git repository with a vault's branch in clear"):
            d.sync_with(USER, remote=f"gcrypt::{plain}")
        assert "remote" not in d.space(USER).vault.git("config", "--list")
    assert subprocess.run(["git", "--git-dir", str(plain), "branch", "--list"], capture_output=True,
                          text=True).stdout.split() == ["*", "main"]  # nothing written beside the plain branch
