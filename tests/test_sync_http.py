"""Sync while serving: POST /v1/memory/sync with the operator's remote, TWIN_SYNC_SECONDS pulling a peer's adds."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest
from served import ROOT, start_server, stop_server
from syncing import USER, say

from twinfs import Memory, Settings
from twinfs.client import TwinClient
from twinfs.errors import Unavailable
from twinfs.models import AddRequest, StatusRequest


@pytest.mark.slow
def test_the_server_syncs_on_request_and_every_few_seconds(tmp_path, embedder):
    remote = str(tmp_path / "remote" / "{vault}.git")
    peer = Memory(Settings(home=tmp_path / "peer", reading=False, machine="peer"), embedder=embedder).start()
    try:
        peer.add(USER, AddRequest(items=[say("p1", "The spare key is under the blue flowerpot.")], wait=True))
        peer.sync_with(USER, remote)
        home = tmp_path / "server"
        # the operator sets the remote once, before serving: the vault is cloned here
        with Memory(Settings(home=home, reading=False, machine="server"), embedder=embedder) as operator:
            assert operator.sync_with(USER, remote).kind == "cloned"
        # every 20 s, once the vault's adds have been quiet 10 s: the sync on request below comes right after
        # its add, so the turn is still unsent and `sent` is the request's own (at 2 s the server's own sync,
        # 1 s after the add, could send it first on a slow machine); the peer's later add arrives by the
        # server's own sync, 10-15 s after the add
        srv = start_server(home, TWIN_READING="0", TWIN_SYNC_SECONDS="20", TWIN_MACHINE="server")
        try:
            with srv.client(srv.write, account="alice") as c:
                r = c.post("/v1/memory/sync", json={})
                assert r.status_code == 200, r.text
                assert r.json()["kind"] == "up to date" and r.json()["remote"].endswith("acme.app.alice.git")
                r = c.post("/v1/memory/sync", json={"remote": "/tmp/elsewhere.git"})
                assert r.status_code == 422 and "cannot name a remote" in r.json()["error"]["message"]
                r = c.post("/v1/memory/sync", json={}, headers={"X-Twin-Account": "nobody"})
                assert r.status_code == 404
                assert c.post("/v1/memory/add", json={"items": [say("s1", "Dinner with Mei on Friday.")],
                                                     "wait": True}).status_code == 202
                with TwinClient(srv.url, srv.write, account="alice") as client:
                    assert client.sync().sent is True
                with srv.client(srv.read, account="alice") as reader:
                    assert reader.post("/v1/memory/sync", json={}).status_code == 403
            peer.sync_with(USER)
            assert peer.status(USER, StatusRequest(ids=["s1"])).phases["s1"].value == "landed"
            peer.add(USER, AddRequest(items=[say("p2", "The boiler is serviced in March.", minutes=3)], wait=True))
            peer.sync_with(USER)
            deadline = time.monotonic() + 60
            found = []
            with srv.client(srv.read, account="alice") as c:
                while time.monotonic() < deadline and not found:
                    hits = c.post("/v1/memory/search", json={"query": "boiler serviced", "fast": True}).json()["hits"]
                    found = [h for h in hits if "boiler" in h["text"]]
                    time.sleep(0.5)
                assert found, "the server did not pull the peer's add within 60 s"
                notes = c.post("/v1/memory/status", json={"ids": ["p2"]}).json().get("notes", [])
                assert any(n.startswith("Last synced with its remote at") for n in notes), notes
                health = c.get("/v1/health").json()
                assert health["synced"] == 1 and health["sync_failed"] == 0
        finally:
            stop_server(srv)
    finally:
        peer.close()


def twin(home, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    return subprocess.run([sys.executable, "-m", "twinfs.cli", "--home", str(home), *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=300)


@pytest.mark.slow
def test_twin_sync_beside_a_running_server_goes_through_it(tmp_path, embedder):
    """The operator's `twin sync` while `twin serve` owns the home: sent through it with the owner's token,
    which no key replaces; --leave makes the server answer 503 for the end user, --stay undoes it."""
    remote = str(tmp_path / "remote" / "{vault}.git")
    with Memory(Settings(home=tmp_path / "peer", reading=False, machine="peer"), embedder=embedder) as peer:
        peer.add(USER, AddRequest(items=[say("p1", "The spare key is under the blue flowerpot.")], wait=True))
        peer.sync_with(USER, remote)
    home = tmp_path / "server"
    srv = start_server(home, TWIN_READING="0", TWIN_MACHINE="server")
    try:
        sync = ("sync", "--org", "acme", "--project", "app", "--account", "alice", "--json")
        came = twin(home, *sync, "--remote", remote)
        assert came.returncode == 0, came.stderr
        assert json.loads(came.stdout)["kind"] == "cloned"
        with srv.client(srv.write, account="alice") as c:
            assert c.post("/v1/memory/status", json={"ids": ["p1"]}).json()["phases"]["p1"] == "landed"
            for token in (srv.write, "tm_local_guessed"):
                r = c.post("/v1/owner/sync", json={"remote": "/tmp/x.git"},
                           headers={"Authorization": f"Bearer {token}"})
                assert r.status_code == (403 if token == srv.write else 401), r.text
            assert c.post("/v1/memory/add", json={"items": [say("s1", "Dinner with Mei on Friday.")]}
                          ).status_code == 202
            left = twin(home, *sync, "--leave")
            assert left.returncode == 0, left.stderr
            assert json.loads(left.stdout)["sent"] is True
            for route, body in (("search", {"query": "flowerpot"}), ("status", {"ids": ["s1"]}),
                                ("add", {"items": [say("s2", "Too late.")]}), ("sync", {})):
                r = c.post(f"/v1/memory/{route}", json=body)
                assert r.status_code == 503 and int(r.headers["Retry-After"]) > 0, (route, r.text)
                assert "moved to another server" in r.json()["error"]["message"]
            assert twin(home, *sync, "--leave", "--stay").returncode == 2
            assert twin(home, "sync", "--all", "--leave").returncode == 2
            stay = twin(home, *sync, "--stay")
            assert stay.returncode == 0, stay.stderr
            r = c.post("/v1/memory/search", json={"query": "flowerpot", "fast": True})
            assert r.status_code == 200 and r.json()["found"] >= 1
    finally:
        stop_server(srv)
    # what was added before the leave went to the remote with it
    with Memory(Settings(home=tmp_path / "other", reading=False, machine="other"), embedder=embedder) as other:
        assert other.sync_with(USER, remote).kind == "cloned"
        assert other.status(USER, StatusRequest(ids=["p1", "s1"])).phases == {"p1": "landed", "s1": "landed"}


def test_a_leave_takes_every_add_accepted_before_it(tmp_path, embedder):
    """Adds still in the inbox when the leave begins go to the remote; an add after it is refused, not lost."""
    remote = str(tmp_path / "remote" / "{vault}.git")
    with Memory(Settings(home=tmp_path / "a", reading=False, machine="a"), embedder=embedder) as a:
        a.add(USER, AddRequest(items=[say("a0", "First note.")], wait=True))
        for n in range(1, 6):
            a.add(USER, AddRequest(items=[say(f"a{n}", f"Note number {n}.", minutes=n)]))  # no wait: in the inbox
        assert a.sync_with(USER, remote, leave=True).sent
        with pytest.raises(Unavailable, match="moved to another server"):
            a.add(USER, AddRequest(items=[say("late", "After the leave.")]))
    # the mark outlives a restart of the source
    with (Memory(Settings(home=tmp_path / "a", reading=False, machine="a"), embedder=embedder) as again,
          pytest.raises(Unavailable)):
        again.status(USER, StatusRequest(ids=["a0"]))
    with Memory(Settings(home=tmp_path / "b", reading=False, machine="b"), embedder=embedder) as b:
        b.sync_with(USER, remote)
        phases = b.status(USER, StatusRequest(ids=[f"a{n}" for n in range(6)] + ["late"])).phases
        assert {i: p.value for i, p in phases.items()} == {**{f"a{n}": "landed" for n in range(6)}, "late": "unknown"}
