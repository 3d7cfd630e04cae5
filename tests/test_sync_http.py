"""Sync while serving: POST /v1/memory/sync with the operator's remote, TWIN_SYNC_SECONDS pulling a peer's adds."""
from __future__ import annotations

import time

from served import start_server, stop_server
from test_sync import USER, say
from twinfs import Memory, Settings
from twinfs.models import AddRequest, StatusRequest


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
        srv = start_server(home, TWIN_READING="0", TWIN_SYNC_SECONDS="2", TWIN_MACHINE="server")
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
                assert c.post("/v1/memory/sync", json={}).json()["sent"] is True
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
