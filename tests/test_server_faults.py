"""Faults no well-formed request can cause, injected in process: the app still answers JSON and goes on serving."""
from __future__ import annotations

import logging

import pytest
from conftest import chat
from starlette.testclient import TestClient
from twinfs.server.app import create_app

from twinfs.keys import Keys
from twinfs.models import AddRequest


@pytest.fixture
def served(settings, memory):
    token, _ = Keys(settings.home).create("acme", "app", "write")
    with TestClient(create_app(settings, memory), raise_server_exceptions=True) as client:
        client.headers.update({"Authorization": f"Bearer {token}", "X-Twin-Account": "alice"})
        yield client, memory


def test_an_unexpected_exception_is_a_json_500_without_traceback_and_logged(served, monkeypatch, caplog):
    client, memory = served

    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire at /secret/path")

    monkeypatch.setattr(memory, "status", broken)
    with caplog.at_level(logging.ERROR, logger="twinfs.server"):
        r = client.post("/v1/memory/status", json={"ids": ["x"]}, headers={"X-Request-Id": "trace-500"})
    assert r.status_code == 500 and r.headers["x-request-id"] == "trace-500"
    assert r.json() == {"error": {"status": 500, "message": "internal error: the server logged it; "
                                                           "the request may be retried"}}
    assert "secret" not in r.text and "Traceback" not in r.text
    assert "trace-500" in caplog.text and "disk on fire" in caplog.text  # the operator sees it, the client not
    monkeypatch.undo()
    assert client.post("/v1/memory/status", json={"ids": ["x"]}).status_code == 200


def test_an_end_user_being_rebuilt_is_503_with_retry_after(served, alice):
    client, memory = served
    memory.add(alice, AddRequest(items=chat("c1", [("m1", "user", "I live in Lisbon.")]), wait=True))
    with memory.space(alice).upkeep.rebuild():
        r = client.post("/v1/memory/search", json={"query": "Lisbon"})
    assert r.status_code == 503 and int(r.headers["retry-after"]) >= 1
    assert "rebuilt" in r.json()["error"]["message"]
    assert client.post("/v1/memory/search", json={"query": "Lisbon", "fast": True}).json()["found"] == 1


def test_a_memory_passed_in_is_left_open_at_shutdown(settings, memory):
    with TestClient(create_app(settings, memory)) as client:
        assert client.get("/v1/health").json()["ok"] is True
    assert memory.pipeline.closed is False
