"""Every route in process (Starlette's TestClient over the real app, Memory, git, Whoosh and FAISS; no socket):
the layer between the library's tests and the real-server ones, fast enough to run on every change."""
from __future__ import annotations

import pytest
from conftest import MOVE, chat
from starlette.testclient import TestClient
from twinfs.server.app import create_app
from twinfs.server.routes import OPERATIONS

from twinfs.keys import Keys

BODIES = {"add": {"items": chat("c1", MOVE)}, "status": {"ids": ["msg-001"]}, "search": {"query": "Lisbon"},
          "grep": {"pattern": "Lisbon"}, "read": {"path": "pages/nobody.md"},
          "history": {"subject": "Alice Chen", "attribute": "home_city"}, "lineage": {"id": "th_0#r0"},
          "correct": {"id": "th_0#r0", "reason": "wrong"}, "forget": {"ids": ["nothing"]}, "sync": {}}


@pytest.fixture
def app(settings, memory):
    keys = Keys(settings.home)
    write, _ = keys.create("acme", "app", "write")
    read, _ = keys.create("acme", "app", "read")
    other, _ = keys.create("acme", "other", "write")
    with TestClient(create_app(settings, memory)) as client:
        yield client, {"write": write, "read": read, "other": other}


def ask(client, name: str, token: str | None, body, account: str | None = "alice"):
    headers = {"X-Twin-Account": account} if account else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    send = {"json": body} if not isinstance(body, bytes) else {"content": body}
    return client.post(f"/v1/memory/{name}", headers=headers, **send)


def error_of(r) -> str:
    body = r.json()
    assert set(body) == {"error"} and body["error"]["status"] == r.status_code
    assert "Traceback" not in r.text
    return body["error"]["message"]


def test_every_route_is_in_the_table_and_answers_a_real_request(app):
    client, tokens = app
    assert {op.name for op in OPERATIONS} == set(BODIES)
    assert ask(client, "add", tokens["write"], {**BODIES["add"], "wait": True}).status_code == 202
    for op in OPERATIONS:
        r = ask(client, op.name, tokens["write"], BODIES[op.name])
        assert r.status_code in (op.status, *op.errors), (op.name, r.status_code, r.text)
        if r.status_code == op.status:
            op.answer.model_validate(r.json())  # the answer its model promises
        else:
            error_of(r)


@pytest.mark.parametrize("op", [op.name for op in OPERATIONS])
def test_no_key_is_a_401_and_a_made_up_one_too(app, op):
    client, _ = app
    assert ask(client, op, None, BODIES[op]).status_code == 401
    r = ask(client, op, "tm_made_up", BODIES[op])
    assert r.status_code == 401 and "key" in error_of(r)


@pytest.mark.parametrize("op", [op.name for op in OPERATIONS if op.write])
def test_a_read_key_cannot_write(app, op):
    client, tokens = app
    r = ask(client, op, tokens["read"], BODIES[op])
    assert r.status_code == 403 and error_of(r)


@pytest.mark.parametrize("op", [op.name for op in OPERATIONS if op.name != "sync"])
def test_bad_bodies_are_one_json_error_naming_what_was_wrong(app, op):
    client, tokens = app
    for body, _status in ((b"{not json", 400), (b"[]", 422), ({"unknown_field": 1}, 422)):
        r = ask(client, op, tokens["write"], body)
        assert r.status_code in (400, 422), (op, body, r.status_code, r.text)
        assert error_of(r)
    r = ask(client, op, tokens["write"], BODIES[op], account="../etc")
    assert r.status_code == 400 and "../etc" in error_of(r)


def test_a_key_reads_only_its_own_project(app):
    client, tokens = app
    assert ask(client, "add", tokens["write"], {**BODIES["add"], "wait": True}).status_code == 202
    mine = ask(client, "grep", tokens["read"], {"pattern": "Lisbon"}).json()
    assert mine["found"] >= 1 and "Lisbon" in mine["lines"][0]["text"]
    r = ask(client, "grep", tokens["other"], {"pattern": "Lisbon"})  # another project's key: no such end user
    assert r.status_code == 404 and "alice" in error_of(r)


def test_health_and_the_openapi_document(app):
    client, _ = app
    assert client.get("/v1/health").status_code == 200
    document = client.get("/v1/openapi.json").json()
    assert {f"/v1/memory/{op.name}" for op in OPERATIONS} <= set(document["paths"])
