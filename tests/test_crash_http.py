"""Crash trials over HTTP (bench/crash.py runs 20): the server killed with its git children at a random moment and
inside a commit, a Whoosh commit and a forget's history rewrite, restarted, and checked."""
from __future__ import annotations

import signal
import subprocess

import pytest
from served import start_server

from bench import crash


@pytest.mark.slow
@pytest.mark.parametrize("seed,point", [(11, None), (12, "commit"), (13, "words"), (14, "rewrite")])
def test_a_killed_server_loses_nothing_accepted_and_starts_clean(tmp_path, seed, point):
    result = crash.trial(tmp_path, seed, point)
    assert result["adds"] > 0, result
    failed = {k: v for k, v in result.items() if k not in ("repaired",) and v is not True
              and k not in ("seed", "point", "crash", "ran", "adds", "forgets", "restart_to_listening",
                            "restart_to_landed", "ok")}
    assert not failed, result
    assert result["ok"], result


def test_a_server_stopped_while_landing_finishes_its_step_and_leaves_nothing_half_done(tmp_path):
    """SIGTERM (what a service manager sends) while the inbox is long: the step under way ends, the vault is
    closed, and nothing is left for a repair (uvicorn raises the signal again once it stops, so closing the
    memory after `uvicorn.run` never ran: the writer's mark and a half-landed tree were left)."""
    home = tmp_path / "home"
    home.mkdir()
    server = start_server(home, TWIN_READING="0", TWIN_WATCH="0")
    with server.client(server.write, account="stopped") as c:
        for n in range(40):
            items = [{"id": f"m{n}-{i}", "kind": "message", "conversation": f"c{i % 5}", "role": "user",
                      "text": f"turn {i} of batch {n}: the ferry leaves at {i % 12 + 1} o'clock",
                      "at": f"2026-10-{n % 28 + 1:02d}T10:{i:02d}:00Z"} for i in range(25)]
            assert c.post("/v1/memory/add", json={"items": items}).status_code == 202
    server.process.send_signal(signal.SIGTERM)
    assert server.process.wait(120) is not None
    vault = home / "users" / "acme.app.stopped"
    assert not (vault / ".git" / "twin-writing").exists(), server.log.read_text()[-2000:]
    assert not list((vault / ".twin" / "whoosh").glob("*/*.tmp"))
    status = subprocess.run(["git", "-C", str(vault), "status", "--porcelain"], capture_output=True, text=True)
    assert status.stdout == ""
