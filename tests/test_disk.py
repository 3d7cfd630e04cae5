"""A full disk and a read-only vault: 503 with Retry-After, nothing half-written, and work again once it can be."""
from __future__ import annotations

import errno
import os
import subprocess
import time
import uuid

import pytest
from conftest import MOVE, chat
from starlette.testclient import TestClient
from twinfs.server.app import create_app

from twinfs import Memory, Phase, Settings
from twinfs.keys import Keys
from twinfs.models import SearchRequest, StatusRequest


def served(settings, memory):
    token, _ = Keys(settings.home).create("acme", "app", "write")
    client = TestClient(create_app(settings, memory))
    client.headers.update({"Authorization": f"Bearer {token}", "X-Twin-Account": "alice"})
    return client


def test_an_injected_enospc_on_add_is_a_503_that_stores_nothing(settings, memory, alice, monkeypatch):
    import twinfs.space

    real = twinfs.space.atomic_write

    def full(path, data, durable=True):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    with served(settings, memory) as client:
        assert client.post("/v1/memory/add", json={"items": chat("c1", MOVE[:1]), "wait": True}).status_code == 202
        monkeypatch.setattr(twinfs.space, "atomic_write", full)
        r = client.post("/v1/memory/add", json={"items": chat("c1", MOVE[1:])})
        assert r.status_code == 503 and int(r.headers["retry-after"]) >= 1
        assert "disk holding this memory is full" in r.json()["error"]["message"]
        assert "Traceback" not in r.text
        inbox = memory.space(alice).inbox
        assert not [p for p in inbox.iterdir()]  # nothing half-written
        assert memory.status(alice, StatusRequest(ids=["msg-002"])).phases["msg-002"] == Phase.unknown
        monkeypatch.setattr(twinfs.space, "atomic_write", real)  # space is back
        r = client.post("/v1/memory/add", json={"items": chat("c1", MOVE[1:]), "wait": True})
        assert r.status_code == 202 and set(r.json()["phases"].values()) == {Phase.landed.value}


@pytest.fixture
def small_disk(tmp_path):
    """A real 24 MB file system (tmpfs), where the machine lets this process mount one."""
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode:
        pytest.skip(f"cannot mount a small file system here: {done.stderr.decode().strip()}")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def fill(folder) -> list:
    """Write until the disk is full; returns the files (deleting them gives the space back)."""
    f = folder / f"filler-{uuid.uuid4().hex}"
    with open(f, "wb") as out:
        try:
            while True:
                out.write(b"\0" * 65536)
                out.flush()
                os.fsync(out.fileno())
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return [f]


def test_a_real_full_disk_and_a_read_only_one(small_disk, embedder, alice):
    settings = Settings(home=small_disk / "home", reading=False)
    with Memory(settings, embedder=embedder) as memory, served(settings, memory) as client:
        assert client.post("/v1/memory/add", json={"items": chat("c1", MOVE[:1]), "wait": True}).status_code == 202
        fillers = fill(small_disk)
        r = client.post("/v1/memory/add", json={"items": chat("c1", MOVE[1:])})
        assert r.status_code == 503 and "full" in r.json()["error"]["message"], r.text
        new_user = client.post("/v1/memory/add", json={"items": chat("c1", MOVE[:1])},
                               headers={"X-Twin-Account": "bob"})
        assert new_user.status_code == 503
        assert not (small_disk / "home" / "users" / "acme.app.bob").exists()  # no half-made vault
        assert memory.search(alice, SearchRequest(query="Lisbon", fast=True)).found == 1  # reading goes on
        for f in fillers:
            f.unlink()
        r = client.post("/v1/memory/add", json={"items": chat("c1", MOVE[1:]), "wait": True})
        assert r.status_code == 202 and set(r.json()["phases"].values()) == {"landed"}

        vault = str(memory.space(alice).root)  # the vault made read-only: a read-only bind mount over it
        subprocess.run(["mount", "--bind", vault, vault], check=True)
        try:
            for _ in range(100):  # "mount point is busy" while a background step still has a file of it open
                remounted = subprocess.run(["mount", "-o", "remount,bind,ro", vault], capture_output=True)
                if remounted.returncode == 0:
                    break
                time.sleep(0.1)
            assert remounted.returncode == 0, remounted.stderr.decode()
            r = client.post("/v1/memory/add", json={"items": chat("c2", MOVE[:1])})
            assert r.status_code == 503 and "cannot be written" in r.json()["error"]["message"], r.text
        finally:
            subprocess.run(["umount", vault], check=True)
        r = client.post("/v1/memory/add", json={"items": chat("c2", MOVE[:1]), "wait": True})
        assert r.status_code == 202 and set(r.json()["phases"].values()) == {"landed"}
        assert client.post("/v1/memory/status", json={"ids": ["msg-003"]}).json()["phases"]["msg-003"] == "landed"
