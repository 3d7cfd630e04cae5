"""Beyond one machine: the shipped nginx front door shards end users across three real `twin serve` processes by
X-Twin-Account (each on its own home, one keys.json), and an end user moves to another server with `twin sync`
while adds keep coming, answering 503 with Retry-After during the move and losing nothing."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from front import NGINX, start_front, stop_front
from served import ROOT, start_server, stop_server

from twinfs.keys import Keys

pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed: .ci/run installs Debian's nginx "
                                                      "with apt-get; elsewhere `apt-get install nginx`")
ACCOUNTS = [f"user-{n:02d}" for n in range(30)]
ENV = {"TWIN_READING": "0", "TWIN_WATCH": "0"}  # the spine alone: sharding does not depend on reading


@pytest.fixture(scope="module")
def shards(tmp_path_factory):
    root = tmp_path_factory.mktemp("shards")
    homes = [root / f"home{n}" for n in (1, 2, 3)]
    for home in homes:
        home.mkdir()
    token, _ = Keys(homes[0]).create("acme", "app", "write")
    for home in homes[1:]:
        shutil.copy(homes[0] / "keys.json", home / "keys.json")  # the same keys on every server
    with ThreadPoolExecutor(3) as pool:
        servers = list(pool.map(lambda home: start_server(home, **ENV), homes))
    front = start_front(root / "nginx", servers)
    try:
        yield root, token, servers, front
    finally:
        stop_front(front)
        for server in servers:
            stop_server(server)


def port_of(server) -> int:
    return int(server.url.rsplit(":", 1)[1])


def client(url: str, token: str, account: str) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=60, headers={"Authorization": f"Bearer {token}",
                                                            "X-Twin-Account": account})


def items(account: str, ids: list[str]) -> list[dict]:
    return [{"id": i, "kind": "message", "conversation": "chat", "role": "user",
             "text": f"Note {i} for codeword{account.replace('-', '')}", "at": "2026-10-01T09:30:00Z"} for i in ids]


@pytest.mark.slow
def test_every_end_user_reaches_one_server_always(shards):
    root, token, servers, front = shards
    seen: dict[str, set[str]] = defaultdict(set)

    def one_user(account: str) -> None:
        with client(front.url, token, account) as http:
            answers = [http.post("/v1/memory/add", json={"items": items(account, [f"{account}-a", f"{account}-b"]),
                                                         "wait": True})]
            answers += [http.post("/v1/memory/search", json={"query": f"note for {account}", "fast": True}),
                        http.post("/v1/memory/status", json={"ids": [f"{account}-a"]}),
                        http.post("/v1/memory/add", json={"items": items(account, [f"{account}-c"])}),
                        http.post("/v1/memory/grep", json={"pattern": f"codeword{account.replace('-', '')}"})]
        assert [r.status_code for r in answers] == [202, 200, 200, 202, 200], [r.text for r in answers]
        assert answers[1].json()["found"] >= 1
        assert answers[4].json()["found"] >= 2
        for r in answers:
            seen[account].add(r.headers["X-Twin-Server"])

    with ThreadPoolExecutor(6) as pool:
        list(pool.map(one_user, ACCOUNTS))

    by_port = {port_of(s): s for s in servers}
    used = set()
    for account in ACCOUNTS:
        assert len(seen[account]) == 1, f"{account} reached {seen[account]}"
        port = int(next(iter(seen[account])).rsplit(":", 1)[1])
        used.add(port)
        holders = [s for s in servers if (s.home / "users" / f"acme.app.{account}").is_dir()]
        assert holders == [by_port[port]], f"{account}'s vault is in {[str(s.home) for s in holders]}"
    assert used == set(by_port), "the ring spreads 30 end users over all three servers"
    # each vault is independent: one end user's words are not in another's memory
    with client(front.url, token, ACCOUNTS[1]) as http:
        r = http.post("/v1/memory/grep", json={"pattern": f"codeword{ACCOUNTS[0].replace('-', '')}"})
        assert r.status_code == 200 and r.json()["found"] == 0
    counts = [httpx.get(f"{s.url}/v1/health").json()["users"] for s in servers]
    assert sum(counts) == len(ACCOUNTS)


class Adder(threading.Thread):
    """Adds one item at a time for one end user through the front door, as an app would, until stopped; keeps
    every id answered 202 and every 503 (with its Retry-After), and retries nothing itself."""

    def __init__(self, url: str, token: str, account: str):
        super().__init__(daemon=True)
        self.http = client(url, token, account)
        self.account = account
        self.accepted: list[str] = []
        self.refused: list[tuple[str | None, str]] = []  # (Retry-After, message) of each 503
        self.other: list[str] = []
        self.servers: list[str] = []
        self.halt = threading.Event()

    def run(self) -> None:
        n = 0
        while not self.halt.is_set():
            n += 1
            item_id = f"{self.account}-{n:04d}"
            r = self.http.post("/v1/memory/add", json={"items": items(self.account, [item_id])})
            if r.status_code == 202:
                self.accepted.append(item_id)
                self.servers.append(r.headers["X-Twin-Server"])
            elif r.status_code == 503:
                self.refused.append((r.headers.get("Retry-After"), r.json()["error"]["message"]))
            else:
                self.other.append(f"{r.status_code} {r.text}")
            time.sleep(0.02)

    def stop(self) -> None:
        self.halt.set()
        self.join(30)
        self.http.close()


def twin(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-m", "twinfs.cli", "--home", str(home), *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    return done


@pytest.mark.slow
def test_an_end_user_moves_to_another_server_with_twin_sync(shards):
    """The procedure of docs/beyond-one-machine.md, step by step, while the end user and a neighbour add."""
    root, token, servers, front = shards
    with client(front.url, token, "mover") as http:
        first = http.post("/v1/memory/add", json={"items": items("mover", ["mover-0000"]), "wait": True})
    assert first.status_code == 202
    port = int(first.headers["X-Twin-Server"].rsplit(":", 1)[1])
    source = next(s for s in servers if port_of(s) == port)
    target = next(s for s in servers if s is not source)
    group = next(name for name, p in front.upstreams.items() if p == port_of(target))
    neighbour = next(a for a in (f"near-{n}" for n in range(200)) if _server_of(front, token, a) == port)

    mover, near = Adder(front.url, token, "mover"), Adder(front.url, token, neighbour)
    mover.start()
    near.start()
    time.sleep(1.0)
    remote = f"{root}/moves/{{vault}}.git"
    # 1. the source hands the end user off: every add it accepted goes to the remote; 503 for them from now on
    left = twin(source.home, "sync", "--org", "acme", "--project", "app", "--account", "mover", "--remote", remote,
                "--leave", "--json")
    # 2. the target takes the vault from the remote (a clone, its indexes built there)
    came = twin(target.home, "sync", "--org", "acme", "--project", "app", "--account", "mover", "--remote", remote,
                "--json")
    # 3. the front door sends the end user to the target
    with open(front.moved, "a") as out:
        out.write(f"~^mover$ {group};\n")
    front.reload()
    deadline = time.monotonic() + 30
    while (not mover.servers or not mover.servers[-1].endswith(f":{port_of(target)}")) \
            and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)
    mover.stop()
    near.stop()

    assert '"kind":"sent"' in left.stdout.replace(" ", ""), left.stdout
    assert '"kind":"cloned"' in came.stdout.replace(" ", ""), came.stdout
    assert mover.other == [] and near.other == [], (mover.other, near.other)
    assert mover.servers[-1].endswith(f":{port_of(target)}"), "the front door never sent the end user on"
    assert mover.refused, "the move answered no 503"
    for retry_after, message in mover.refused:
        assert retry_after is not None and int(retry_after) > 0
        assert "moved to another server" in message
    assert near.refused == [] and set(near.servers) == {f"127.0.0.1:{port}"}, "the neighbour was disturbed"
    # nothing the end user was answered 202 for is lost: every id is on the target, landed, and searchable
    ids = ["mover-0000", *mover.accepted]
    with client(front.url, token, "mover") as http:
        deadline = time.monotonic() + 60
        while True:
            r = http.post("/v1/memory/status", json={"ids": ids})
            assert r.status_code == 200 and r.headers["X-Twin-Server"].endswith(f":{port_of(target)}")
            phases = r.json()["phases"]
            if all(p == "landed" for p in phases.values()) or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert set(phases.values()) == {"landed"}, {i: p for i, p in phases.items() if p != "landed"}
        found = http.post("/v1/memory/search", json={"query": f"Note {ids[-1]}", "fast": True}).json()
    assert any(ids[-1] in hit["text"] for hit in found["hits"])
    stored = {json.loads(f.read_text())["id"]
              for f in (target.home / "users" / "acme.app.mover" / "items").rglob("*.json")}
    assert stored == set(ids)
    # the source keeps its copy, but never answers from it again
    r = httpx.post(f"{source.url}/v1/memory/search", json={"query": "note"},
                   headers={"Authorization": f"Bearer {token}", "X-Twin-Account": "mover"})
    assert r.status_code == 503 and int(r.headers["Retry-After"]) > 0


def _server_of(front, token: str, account: str) -> int:
    """Which server's port the ring gives an account (a status call creates nothing)."""
    r = httpx.post(f"{front.url}/v1/memory/status", json={"ids": ["x"]},
                   headers={"Authorization": f"Bearer {token}", "X-Twin-Account": account})
    return int(r.headers["X-Twin-Server"].rsplit(":", 1)[1])
