"""A real `twin serve` process on a free loopback port, for the end-to-end tests."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from twinfs.keys import Keys

ROOT = Path(__file__).resolve().parents[1]
PASSAGE = re.compile(r"^passages/memory/(messages|documents)/(th_[0-9a-f]{16})/p_(\d{4})\.md$")  # a passage's path


@dataclass
class Server:
    url: str
    home: Path
    log: Path
    process: subprocess.Popen
    write: str  # acme.app write key
    read: str  # acme.app read key
    other: str  # globex.app write key: another organisation

    def client(self, token: str | None, account: str | None = "user_42", **headers: str) -> httpx.Client:
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if account is not None:
            headers["X-Twin-Account"] = account
        return httpx.Client(base_url=self.url, headers=headers, timeout=30)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(home: Path, port: int | None = None, **env: str) -> Server:
    keys = Keys(home)
    write, _ = keys.create("acme", "app", "write")
    read, _ = keys.create("acme", "app", "read")
    other, _ = keys.create("globex", "app", "write")
    port = port or free_port()
    log = home / "server.log"
    environ = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", **env}
    with open(log, "wb") as out:  # a file, not a pipe: a full pipe would block the server
        process = subprocess.Popen([sys.executable, "-m", "twinfs.cli", "--home", str(home), "serve",
                                    "--host", "127.0.0.1", "--port", str(port)],
                                   stdout=out, stderr=subprocess.STDOUT, env=environ, cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}:\n{log.read_text()}")
        try:
            if httpx.get(f"{url}/v1/health", timeout=2).status_code == 200:
                return Server(url, home, log, process, write, read, other)
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"the server did not answer /v1/health in 120 s:\n{log.read_text()}")


def stop_server(server: Server) -> None:
    server.process.terminate()
    try:
        server.process.wait(30)
    except subprocess.TimeoutExpired:
        server.process.kill()


def error_of(r: httpx.Response, status: int) -> str:
    """The response is the documented error: that status, JSON `{"error": {"status", "message"}}`, a request id."""
    assert r.status_code == status, r.text
    assert r.headers["content-type"] == "application/json"
    assert re.match(r"^req_[0-9a-f]{16}$", r.headers["x-request-id"]) or "x-request-id" in r.request.headers
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"status", "message"}
    assert body["error"]["status"] == status and body["error"]["message"]
    assert "Traceback" not in r.text
    return body["error"]["message"]


def seed(server: Server) -> dict:
    """The seed's Alice conversation and the Porto plan added for user_42 of acme.app, landed: the add's answer."""
    from conftest import MOVE, PORTO, chat

    with server.client(server.write) as c:
        r = c.post("/v1/memory/add", json={"items": chat("c1", MOVE) + [PORTO], "wait": True})
    assert r.status_code == 202, r.text
    return r.json()
