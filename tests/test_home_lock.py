"""One owner per home: an OS lock the kernel lets go of; a second server refuses; one-shot writers refuse; readers
read beside the owner without writing; `twin mcp` beside a server works through it."""
from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import anyio
import pytest
from conftest import MOVE, chat, until
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from served import free_port, start_server, stop_server

from twinfs import Memory, Settings
from twinfs.home_lock import HomeBusy, HomeLock, holder
from twinfs.models import AddRequest

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "TWIN_READING": "0"}


def twin(home: Path, *args: str, stdin: str | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "twinfs.cli", "--home", str(home), *args], input=stdin,
                          capture_output=True, text=True, env=ENV, timeout=timeout)


def test_a_home_has_one_owner_and_a_dead_owner_holds_nothing(tmp_path):
    home = tmp_path / "home"
    lock = HomeLock(home).acquire("twin serve")
    lock.serving("127.0.0.1", 8765)
    with pytest.raises(HomeBusy) as refused:
        HomeLock(home).acquire("twin add")
    assert f"twin serve (pid {os.getpid()}, port 8765) owns the twin home" in refused.value.message
    assert holder(home)["port"] == 8765 and holder(home)["pid"] == os.getpid()
    lock.release()
    assert holder(home) is None
    HomeLock(home).acquire("again").release()

    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import time
        from twinfs.home_lock import HomeLock
        HomeLock({str(home)!r}).acquire("twin serve")
        print("held", flush=True)
        time.sleep(60)""")], stdout=subprocess.PIPE, text=True, env=ENV)
    assert child.stdout.readline().strip() == "held"
    assert holder(home)["pid"] == child.pid
    with pytest.raises(HomeBusy):
        HomeLock(home).acquire("twin add")
    child.send_signal(signal.SIGKILL)  # no clean-up: the lock file stays, the kernel's lock goes
    child.wait(30)
    assert (home / "owner.lock").exists() and holder(home) is None
    HomeLock(home).acquire("the next owner").release()


def test_two_memories_on_one_home_cannot_both_write(tmp_path, embedder, alice):
    settings = Settings(home=tmp_path / "home", reading=False)
    with Memory(settings, embedder=embedder) as first:
        first.add(alice, AddRequest(items=chat("c1", MOVE), wait=True))
        with pytest.raises(HomeBusy):
            Memory(settings, embedder=embedder).start()
        with Memory(settings, embedder=embedder, read_only=True) as reader, pytest.raises(HomeBusy):
            reader.add(alice, AddRequest(items=chat("c2", MOVE)))
    with Memory(settings, embedder=embedder):
        pass  # released by close


def snapshot(home: Path) -> dict[str, str]:
    """Every file of the home but SQLite's shared-memory and log files (a reader maps them) and the server log."""
    out = {}
    for f in sorted(home.rglob("*")):
        if f.is_file() and not f.name.endswith(("-shm", "-wal")) and f.name != "server.log":
            out[f.relative_to(home).as_posix()] = hashlib.sha256(f.read_bytes()).hexdigest()
    return out


@pytest.mark.slow
def test_beside_a_running_server_writers_refuse_and_readers_read_without_writing(tmp_path):
    home = tmp_path / "home"
    srv = start_server(home, TWIN_READING="0")
    try:
        with srv.client(srv.write) as c:
            assert c.post("/v1/memory/add", json={"items": chat("c1", MOVE), "wait": True}).status_code == 202
        port = srv.url.rsplit(":", 1)[1]
        owner = f"twin serve (pid {srv.process.pid}, port {port})"
        # the server done with the vault (it settles it out of the home's pending index last) before the snapshot
        assert until(lambda: not (home / "pending" / "acme.app.user_42").exists(), 60)
        before = snapshot(home)

        second = twin(home, "serve", "--port", str(free_port()), timeout=120)
        assert second.returncode == 1 and owner in second.stderr, second.stderr
        assert "Traceback" not in second.stderr

        line = json.dumps(chat("c9", [("new-1", "user", "A line that must not be added beside the server.")])[0])
        added = twin(home, "add", "--org", "acme", "--project", "app", "--account", "user_42", "-", stdin=line)
        assert added.returncode == 1 and owner in added.stderr and "Traceback" not in added.stderr
        forgot = twin(home, "forget", "--org", "acme", "--project", "app", "--account", "user_42", "msg-001")
        assert forgot.returncode == 1 and owner in forgot.stderr

        who = ["--org", "acme", "--project", "app", "--account", "user_42"]
        found = twin(home, "search", *who, "Where did Alice move?", "--fast", "--json")
        assert found.returncode == 0, found.stderr
        assert "Lisbon" in json.loads(found.stdout)["hits"][0]["text"]
        status = twin(home, "status", *who, "msg-001", "new-1", "--json")
        assert json.loads(status.stdout)["phases"] == {"msg-001": "landed", "new-1": "unknown"}
        grep = twin(home, "grep", *who, "Miso")
        assert grep.returncode == 0 and "Miso" in grep.stdout

        assert snapshot(home) == before  # nothing written twice, nothing written at all
        with srv.client(srv.read) as c:
            assert c.post("/v1/memory/status", json={"ids": ["new-1"]}).json()["phases"]["new-1"] == "unknown"
    finally:
        stop_server(srv)
    assert holder(home) is None  # a clean stop lets go of the home
    assert (home / "owner.lock").read_text() == ""  # … by closing its memory (SIGTERM), not by dying


@pytest.mark.slow
def test_twin_mcp_beside_a_running_server_works_through_it(tmp_path):
    home = tmp_path / "home"
    srv = start_server(home, TWIN_READING="0")
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "twinfs.cli", "--home", str(home), "mcp", "--org", "acme",
                                         "--project", "app", "--account", "alice"], env=ENV, cwd=str(ROOT))

    async def session():
        async with Client(params, read_timeout_seconds=120) as client:
            result = await client.call_tool("add", {"items": chat("c1", MOVE), "wait": True})
            assert not result.is_error, result.content
            assert set(json.loads(result.content[0].text)["phases"].values()) == {"landed"}
            result = await client.call_tool("search", {"query": "What is the cat called?"})
            assert not result.is_error and "Miso" in json.loads(result.content[0].text)["hits"][0]["text"]

    try:
        anyio.run(session)
        with srv.client(srv.read, account="alice") as c:  # the server itself holds what the MCP tool added
            hits = c.post("/v1/memory/search", json={"query": "Miso", "fast": True}).json()["hits"]
            assert hits and "Miso" in hits[0]["text"]
        assert holder(home)["pid"] == srv.process.pid
    finally:
        stop_server(srv)
    assert not (home / "users" / "local.default.alice").exists()  # nothing went around the server
