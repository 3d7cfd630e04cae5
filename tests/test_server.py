"""The server end to end: `twin serve` as a process on a free loopback port, a real httpx client, real parts behind."""
from __future__ import annotations

import re
import socket
import threading
import time

import httpx
import pytest
from conftest import MOVE, PORTO, chat
from served import Server, start_server, stop_server

from twinfs.models import AddRequest, GrepRequest, ReadRequest, SearchRequest, StatusRequest

HIT_KEYS = {"id", "path", "thread", "text", "content", "roles", "turns"}
PASSAGE = re.compile(r"^passages/memory/(messages|documents)/(th_[0-9a-f]{16})/p_(\d{4})\.md$")


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    srv = start_server(tmp_path_factory.mktemp("server-home"))
    yield srv
    stop_server(srv)


@pytest.fixture(scope="session")
def seeded(server):
    """user_42 of acme.app holds the seed's Alice conversation and the Porto plan, landed."""
    with server.client(server.write) as c:
        r = c.post("/v1/memory/add", json={"items": chat("c1", MOVE) + [PORTO], "wait": True})
    assert r.status_code == 202, r.text
    return r.json()


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


# the seeds' examples

def test_add_answers_202_with_event_ids_and_phases(server, seeded):
    assert seeded["event"].startswith("ev_")
    assert seeded["ids"] == ["msg-001", "msg-002", "msg-003", "doc-porto"]
    assert seeded["phases"] == {i: "landed" for i in seeded["ids"]}  # wait: true held it until they landed


def test_the_seed_brief_where_does_alice_live(server, seeded):
    with server.client(server.read) as c:
        r = c.post("/v1/memory/search", json={"query": "Where does Alice live?"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["query"] == "Where does Alice live?"
    assert body["found"] == len(body["hits"]) >= 1
    assert isinstance(body.get("filtered"), bool)
    for hit in body["hits"]:
        assert set(hit) >= HIT_KEYS
        m = PASSAGE.match(hit["path"])
        assert m and hit["thread"] == m[2] and hit["id"] == f"{m[2]}/p_{m[3]}"
        assert hit["content"] == "stored" and set(hit["roles"]) <= {"user", "assistant"}
    top = body["hits"][0]
    assert "**Alice Chen** 09:30 · I just moved to Lisbon" in top["text"]
    assert top["text"].startswith("Context: messages (memory), 1 Oct 2026.")
    assert top["turns"] == ["msg-001", "msg-002", "msg-003"] and top["roles"] == ["user", "assistant"]
    for fact in body.get("facts", []):  # present once the conversation has been read
        assert {"id", "text", "thread", "path", "source"} <= set(fact)
    assert all(isinstance(line, str) for line in body.get("known", []))


def test_the_seed_ranked_list_porto_after_a_day(server, seeded):
    with server.client(server.read) as c:
        r = c.post("/v1/memory/search", json={"query": "Porto", "scope": "passages/memory", "after": "2026-10-01"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == {"query", "found", "hits"}  # a ranked list: no brief fields
    assert body["query"] == "Porto" and body["found"] == len(body["hits"]) >= 1
    top = body["hits"][0]
    m = PASSAGE.match(top["path"])
    assert m and m[1] == "documents" and top["id"] == f"{m[2]}/p_0001" and top["thread"] == m[2]
    assert top["text"].startswith("Context: documents (memory), 3 Oct 2026. Porto trip plan.\n\nDay 1: train from")
    assert top["turns"] == ["doc-porto"] and top["content"] == "stored"
    with server.client(server.read) as c:
        later = c.post("/v1/memory/search", json={"query": "Porto", "scope": "passages/memory", "after": "2026-10-04"})
    assert later.json() == {"query": "Porto", "found": 0, "hits": []}


def test_status_grep_and_read(server, seeded):
    with server.client(server.read) as c:
        status = c.post("/v1/memory/status", json={"ids": ["msg-001", seeded["event"], "nope-404"]})
        assert status.status_code == 200
        assert status.json() == {"phases": {"msg-001": "landed", seeded["event"]: "landed", "nope-404": "unknown"}}
        grep = c.post("/v1/memory/grep", json={"pattern": "tram noise"}).json()
        assert grep["found"] == 1 and grep["lines"][0]["text"].startswith("**Alice Chen**")
        line = grep["lines"][0]
        read = c.post("/v1/memory/read", json={"path": line["path"]})
        assert read.status_code == 200
        assert read.json()["content"].split("\n")[line["line"] - 1] == line["text"]


def test_fast_search_is_an_unfiltered_brief(server, seeded):
    with server.client(server.read) as c:
        body = c.post("/v1/memory/search", json={"query": "Which pet does she have?", "fast": True, "k": 3}).json()
    assert "Miso" in body["hits"][0]["text"]
    assert body["filtered"] is False and "held" not in body


# keys and end users

def test_a_read_key_cannot_add(server):
    with server.client(server.read) as c:
        r = c.post("/v1/memory/add", json={"items": chat("c9", MOVE[:1])})
    assert "read key" in error_of(r, 403)


def test_forget_over_http_needs_a_write_key_and_removes_the_item(server):
    with server.client(server.write, account="forgetful") as c:
        assert c.post("/v1/memory/add", json={"items": chat("c9", MOVE), "wait": True}).status_code == 202
    with server.client(server.read, account="forgetful") as c:
        assert "read key" in error_of(c.post("/v1/memory/forget", json={"ids": ["msg-003"]}), 403)
    with server.client(server.write, account="forgetful") as c:
        r = c.post("/v1/memory/forget", json={"ids": ["msg-003", "never"]})
        assert r.status_code == 200, r.text
        assert r.json()["forgotten"] == ["msg-003"] and r.json()["unknown"] == ["never"]
        assert c.post("/v1/memory/grep", json={"pattern": "Miso"}).json()["found"] == 0
        assert c.post("/v1/memory/status", json={"ids": ["msg-003"]}).json()["phases"] == {"msg-003": "unknown"}
        assert "ids" in error_of(c.post("/v1/memory/forget", json={"ids": []}), 422)


def test_unknown_or_missing_bearer_is_401(server):
    for token in ("tm_not-a-key-this-service-issued", "tm_"):
        with server.client(token) as c:
            assert "bearer" in error_of(c.post("/v1/memory/search", json={"query": "x"}), 401)
    with server.client(None) as c:
        r = c.post("/v1/memory/search", json={"query": "x"})
    assert "missing bearer" in error_of(r, 401) and r.headers["www-authenticate"] == "Bearer"
    with httpx.Client(base_url=server.url) as c:
        r = c.post("/v1/memory/search", json={"query": "x"}, headers={"Authorization": f"Basic {server.read}"})
    error_of(r, 401)


def test_one_organisations_key_cannot_see_anothers_end_user(server, seeded):
    with server.client(server.other) as c:
        msg = error_of(c.post("/v1/memory/search", json={"query": "Lisbon"}), 404)
        assert msg == "no memory for end user 'user_42' yet"
        error_of(c.post("/v1/memory/read", json={"path": a_passage_path(server)}), 404)
        assert c.post("/v1/memory/status", json={"ids": ["msg-001"]}).json() == {"phases": {"msg-001": "unknown"}}
        # its own user_42 is another end user: adding there leaves acme's untouched
        mine = {"id": "g-1", "kind": "message", "conversation": "g", "role": "user", "text": "I live in Oslo now.",
                "at": "2026-10-05T10:00:00Z"}
        assert c.post("/v1/memory/add", json={"items": [mine], "wait": True}).status_code == 202
        assert c.post("/v1/memory/grep", json={"pattern": "Lisbon"}).json()["found"] == 0
    with server.client(server.read) as c:
        assert c.post("/v1/memory/grep", json={"pattern": "Oslo"}).json()["found"] == 0
    assert {p.name for p in (server.home / "users").iterdir()} >= {"acme.app.user_42", "globex.app.user_42"}


def a_passage_path(server: Server) -> str:
    with server.client(server.read) as c:
        return c.post("/v1/memory/grep", json={"pattern": "Lisbon"}).json()["lines"][0]["path"]


@pytest.mark.parametrize("account, why", [
    (None, "missing"),
    ("", "missing"),
    ("../alice", "not a usable id"),
    ("-alice", "not a usable id"),
    ("al ice", "not a usable id"),
    ("a" * 56, "too long"),  # acme.app. + 56 = 65 characters
])
def test_x_twin_account_missing_or_unusable_is_400(server, account, why):
    with server.client(server.read, account=account) as c:
        assert why in error_of(c.post("/v1/memory/search", json={"query": "x"}), 400)


def test_an_account_sent_as_utf_8_is_named_as_typed(server):
    with server.client(server.read, account=None) as c:
        r = c.post("/v1/memory/search", json={"query": "x"}, headers={"X-Twin-Account": "bób".encode()})
        assert "X-Twin-Account 'bób' is not a usable id" in error_of(r, 400)


def test_the_longest_usable_account_is_accepted(server):
    with server.client(server.read, account="a" * 55) as c:  # exactly 64 with the prefix
        assert c.post("/v1/memory/status", json={"ids": ["x"]}).status_code == 200


# errors, each from a real request

def test_never_written_end_user_is_404_with_the_documented_message(server):
    with server.client(server.read, account="never_written") as c:
        for route, body in (("search", {"query": "anything"}), ("grep", {"pattern": "x"}),
                            ("read", {"path": "passages/memory"})):
            msg = error_of(c.post(f"/v1/memory/{route}", json=body), 404)
            assert msg == "no memory for end user 'never_written' yet"
    assert not (server.home / "users" / "acme.app.never_written").exists()


def test_missing_file_in_a_memory_is_404(server, seeded):
    with server.client(server.read) as c:
        r = c.post("/v1/memory/read", json={"path": "pages/nobody.md"})
    assert "no file" in error_of(r, 404)


def test_unknown_route_404_and_wrong_method_405(server):
    with server.client(server.read) as c:
        assert "no route" in error_of(c.post("/v1/memory/nope", json={}), 404)
        assert "no route" in error_of(c.get("/nope"), 404)  # / is the web view (docs/web.md)
        r = c.get("/v1/memory/search")
        assert "use POST" in error_of(r, 405) and r.headers["allow"] == "POST"
        assert "GET" in error_of(c.post("/v1/health"), 405)


@pytest.mark.parametrize("content, why", [
    (b"{not json", "not JSON"),
    (b"", "empty"),
    (b"[1, 2]", "not an array"),
    (b'"hello"', "not a string"),
    (b"\xff\xfe\xfa", "not"),
    (b"[" * 100_000 + b"]" * 100_000, "not"),
])
def test_a_body_that_is_not_a_json_object_is_400(server, content, why):
    with server.client(server.read) as c:
        r = c.post("/v1/memory/search", content=content, headers={"Content-Type": "application/json"})
    assert why in error_of(r, 400)


LONG_SCOPE = "passages/" + "a" * 504


@pytest.mark.parametrize("route, body, field", [
    ("search", {"query": ""}, "query"),
    ("search", {"query": "   "}, "query"),
    ("search", {"query": "q" * 2001}, "query"),
    ("search", {}, "query"),
    ("search", {"query": "x", "before": "2026-02-30"}, "before"),
    ("search", {"query": "x", "after": "2026-13-01"}, "after"),
    ("search", {"query": "x", "scope": LONG_SCOPE}, "scope"),
    ("search", {"query": "x", "scope": "../other"}, "scope"),
    ("search", {"query": "x", "colour": "blue"}, "colour"),
    ("search", {"query": "x", "fast": "very"}, "fast"),
    ("search", {"query": 42}, "query"),
    ("search", {"query": "x", "fast": "yes"}, "fast"),
    ("search", {"query": "x", "fast": 0}, "fast"),
    ("grep", {"pattern": "x", "regex": 0}, "regex"),
    ("grep", {"pattern": "x", "scope": "outside/x"}, "scope"),
    ("read", {"path": "items/a#1"}, "path"),
    ("history", {"subject": 3}, "subject"),
    ("lineage", {"id": "not-a-record"}, "id"),
    ("add", {"items": [{"id": "a", "kind": "message", "text": "x", "at": 1790000000}]}, "items[0].at"),
    ("add", {"items": [{"id": "a", "kind": "message", "text": "x", "at": "2026-10-01"}], "wait": 1}, "wait"),
    ("status", {"ids": [f"i{n}" for n in range(501)]}, "ids"),
    ("status", {"ids": []}, "ids"),
    ("status", {"ids": "msg-001"}, "ids"),
    ("grep", {"pattern": "([a-z", "regex": True}, "pattern"),
    ("read", {"path": "../../keys.json"}, "path"),
    ("read", {"path": "/etc/passwd"}, "path"),
    ("read", {"path": ".git/config"}, "path"),
    ("read", {"path": "passages/../../acme.app.other/items"}, "path"),
    ("add", {"items": []}, "items"),
    ("add", {"items": [{"id": "bad id!", "kind": "message", "text": "x", "at": "2026-10-01T09:00:00Z"}]},
     "items[0].id"),
    ("add", {"items": [{"id": "a", "kind": "message", "text": "x", "at": "2026-02-30T09:00:00Z"}]}, "items[0].at"),
    ("add", {"items": [{"id": "a", "kind": "email", "text": "x", "at": "2026-10-01T09:00:00Z"}]}, "items[0].kind"),
    ("add", {"items": [{"id": "a", "kind": "message", "text": "x" * 100_001, "at": "2026-10-01"}]},
     "items[0].text"),
])
def test_out_of_bounds_fields_are_422_naming_the_field(server, seeded, route, body, field):
    token = server.write if route == "add" else server.read
    with server.client(token) as c:
        msg = error_of(c.post(f"/v1/memory/{route}", json=body), 422)
    assert field in msg


def test_422_messages_say_what_was_wrong(server, seeded):
    with server.client(server.read) as c:
        assert "2026-02-30" in error_of(c.post("/v1/memory/search", json={"query": "x", "before": "2026-02-30"}),
                                        422)
        assert "Extra inputs" in error_of(c.post("/v1/memory/search", json={"query": "x", "colour": "b"}), 422)
        assert "500" in error_of(c.post("/v1/memory/status", json={"ids": ["i"] * 501}), 422)
        assert "2000" in error_of(c.post("/v1/memory/search", json={"query": "q" * 2001}), 422)
        assert "512" in error_of(c.post("/v1/memory/search", json={"query": "x", "scope": LONG_SCOPE}), 422)
        assert ".." in error_of(c.post("/v1/memory/read", json={"path": "../../keys.json"}), 422)


def test_a_body_over_the_limit_is_413_from_its_content_length(server):
    with server.client(server.write) as c:
        for size in (1_000_001, 20_000_000):
            r = c.post("/v1/memory/add", content=b" " * size, headers={"Content-Type": "application/json"})
            assert "1000000 bytes" in error_of(r, 413)
    with server.client(server.write) as c:  # exactly at the limit is read (and then is not JSON)
        error_of(c.post("/v1/memory/add", content=b" " * 1_000_000), 400)


def test_a_streamed_body_is_refused_as_soon_as_it_passes_the_limit(server):
    """Chunked, no Content-Length, and never finished: the 413 can only come from reading no further."""
    with socket.create_connection(("127.0.0.1", int(server.url.rsplit(":", 1)[1])), timeout=30) as s:
        s.sendall((f"POST /v1/memory/add HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer {server.write}\r\n"
                   "X-Twin-Account: user_42\r\nContent-Type: application/json\r\n"
                   "Transfer-Encoding: chunked\r\n\r\n").encode())
        chunk = b"[" + b" " * 65_534 + b"]"
        for _ in range(17):  # 1,114,112 bytes, and no terminating chunk
            s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        answer = b""
        try:
            while b"\r\n\r\n" not in answer or len(answer.split(b"\r\n\r\n", 1)[1]) < _length(answer):
                data = s.recv(65536)
                if not data:
                    break
                answer += data
        except ConnectionResetError:
            pass  # the server closes a connection whose body it left unread; the answer came first
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), answer[:300]
    assert b"x-request-id: req_" in head.lower() and b"connection: close" in head.lower()
    assert b'"status":413' in body and b"1000000 bytes" in body


def _length(answer: bytes) -> int:
    m = re.search(rb"content-length: (\d+)", answer, re.I)
    return int(m[1]) if m else 1 << 30


def test_a_streamed_body_over_the_limit_from_httpx(server):
    def chunks():
        for _ in range(40):
            yield b" " * 65_536

    with server.client(server.write) as c:
        error_of(c.post("/v1/memory/add", content=chunks()), 413)
    with server.client(server.write) as c:  # a small streamed body is read as any other
        r = c.post("/v1/memory/status", content=iter([b'{"ids": ', b'["msg-001"]}']))
    assert r.status_code == 200, r.text


# request ids, the OpenAPI document, health

def test_x_request_id_is_echoed_or_minted_on_every_answer(server, seeded):
    with server.client(server.read, **{"X-Request-Id": "app-trace-7f3a"}) as c:
        assert c.post("/v1/memory/search", json={"query": "Lisbon"}).headers["x-request-id"] == "app-trace-7f3a"
        assert c.post("/v1/memory/search", json={"query": ""}).headers["x-request-id"] == "app-trace-7f3a"
        assert c.get("/v1/nope").headers["x-request-id"] == "app-trace-7f3a"
    with server.client(server.read) as c:
        ids = {c.post("/v1/memory/search", json={"query": "Lisbon"}).headers["x-request-id"] for _ in range(3)}
        ids.add(c.get("/v1/health").headers["x-request-id"])
    assert len(ids) == 4 and all(re.match(r"^req_[0-9a-f]{16}$", i) for i in ids)
    with server.client("tm_nope", **{"X-Request-Id": "bad id\twith a tab"}) as c:
        r = c.post("/v1/memory/search", json={"query": "x"})
    assert r.status_code == 401 and r.headers["x-request-id"].startswith("req_")  # an unusable id is replaced


def test_openapi_is_generated_from_the_models_the_routes_validate_with(server):
    doc = httpx.get(f"{server.url}/v1/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    for route in ("add", "status", "search", "grep", "read"):
        op = doc["paths"][f"/v1/memory/{route}"]["post"]
        assert op["requestBody"]["content"]["application/json"]["schema"]["$ref"].startswith("#/components/")
        assert "422" in op["responses"] and "401" in op["responses"]
    schemas = doc["components"]["schemas"]
    for model in (AddRequest, StatusRequest, SearchRequest, GrepRequest, ReadRequest):
        mine = model.model_json_schema(ref_template="#/components/schemas/{model}")
        mine.pop("$defs", None)
        assert schemas[model.__name__] == mine
    assert schemas["SearchRequest"]["properties"]["query"]["maxLength"] == 2000
    assert schemas["StatusRequest"]["properties"]["ids"]["maxItems"] == 500
    assert "503" in doc["paths"]["/v1/memory/add"]["post"]["responses"]
    assert doc["paths"]["/v1/memory/add"]["post"]["responses"]["202"]


def test_openapi_states_the_bounds_the_routes_enforce(server):
    anyone = httpx.get(f"{server.url}/v1/openapi.json").json()
    mine = httpx.get(f"{server.url}/v1/openapi.json", headers={"Authorization": f"Bearer {server.read}"}).json()
    bound = {doc["paths"]["/v1/memory/search"]["post"]["parameters"][0]["schema"]["maxLength"] for doc in [anyone]}
    assert bound == {60}  # the widest any key allows: a one-character org and project
    header = mine["paths"]["/v1/memory/search"]["post"]["parameters"][0]
    assert header["name"] == "X-Twin-Account" and header["schema"]["maxLength"] == 64 - len("acme.app.")
    assert re.fullmatch(header["schema"]["pattern"][1:-1], "user_42")
    responses = mine["paths"]["/v1/memory/add"]["post"]["responses"]
    assert responses["503"]["headers"]["Retry-After"]["required"] is True
    assert responses["413"]["headers"]["Connection"]["schema"] == {"const": "close"}
    assert {"ItemStatus", "ForgetItems"} <= set(responses["202"]["links"])
    schemas = mine["components"]["schemas"]
    assert schemas["GrepRequest"]["properties"]["regex"]["type"] == "boolean"
    assert "pattern" in schemas["Item"]["properties"]["at"] and "format" not in schemas["Item"]["properties"]["at"]
    assert schemas["SearchRequest"]["properties"]["k"].get("type") is None  # ignored, whatever it holds
    hit = schemas["Hit"]
    assert hit["additionalProperties"] is False and "said" not in hit["required"]
    assert hit["properties"]["said"] == {"description": "when the passage's last turn was said", "title": "Said",
                                         "type": "string"}  # absent rather than null, as answers leave


def test_an_id_given_twice_in_one_add_is_an_edit(server):
    first = {"id": "twice", "kind": "message", "conversation": "t", "role": "user", "text": "I live in Rome.",
             "at": "2026-10-01T09:00:00Z"}
    with server.client(server.write, account="twice") as c:
        r = c.post("/v1/memory/add", json={"items": [first, {**first, "text": "I live in Oslo."}], "wait": True})
        assert r.status_code == 202 and r.json()["ids"] == ["twice"], r.text
        assert c.post("/v1/memory/grep", json={"pattern": "Oslo"}).json()["found"] == 1
        assert c.post("/v1/memory/grep", json={"pattern": "Rome"}).json()["found"] == 0


def test_k_is_ignored_over_http_whatever_it_holds(server, seeded):
    with server.client(server.read) as c:
        for k in (3, "3", None, [1, 2], {"n": 1}, 1e300):
            r = c.post("/v1/memory/search", json={"query": "Lisbon", "fast": True, "k": k})
            assert r.status_code == 200 and r.json()["found"] >= 1, (k, r.text)


def test_a_lone_surrogate_is_400_not_a_file_no_one_can_write(server):
    with server.client(server.write, account="surrogate") as c:
        r = c.post("/v1/memory/add",
                   content=b'{"items": [{"id": "s", "kind": "message", "text": "half \\ud800 a pair", '
                           b'"at": "2026-10-01"}]}',
                   headers={"Content-Type": "application/json"})
        assert "surrogate" in error_of(r, 400)
        r = c.post("/v1/memory/add", json={"items": [{"id": "s", "kind": "message", "text": "whole \U0001F600",
                                                      "at": "2026-10-01"}], "wait": True})
        assert r.status_code == 202 and r.json()["phases"] == {"s": "landed"}


def test_a_path_no_file_system_can_hold_is_404(server, seeded):
    with server.client(server.read) as c:
        assert "no file" in error_of(c.post("/v1/memory/read", json={"path": "items/" + "0" * 300}), 404)


def test_health(server, seeded):
    r = httpx.get(f"{server.url}/v1/health")
    body = r.json()
    assert r.status_code == 200 and body["ok"] is True and body["version"]
    assert body["users"] >= 1 and body["embedder"] == "all-MiniLM-L6-v2"


# many end users at once

def test_one_end_users_long_landing_does_not_hold_up_another(server, seeded):
    big = [{"id": f"big-{n}", "kind": "message", "conversation": f"long-{n // 100}", "role": "user",
            "text": f"Entry {n}: " + "a long day of notes about trains, rivers and friends. " * 8,
            "at": f"2026-10-{1 + n // 100:02d}T10:{n % 60:02d}:00Z"} for n in range(300)]
    done: dict[str, float] = {}

    def slow_add() -> None:
        with server.client(server.write, account="busy_user") as c:
            r = c.post("/v1/memory/add", json={"items": big, "wait": True})
        assert r.status_code == 202
        done["add"] = time.monotonic()

    adder = threading.Thread(target=slow_add)
    adder.start()
    time.sleep(0.5)  # the add is being parsed, accepted and landed
    searched = []
    with server.client(server.read) as c:
        while adder.is_alive() and len(searched) < 20:
            r = c.post("/v1/memory/search", json={"query": "Lisbon river", "fast": True})
            assert r.status_code == 200
            searched.append(time.monotonic())
    adder.join(60)
    assert searched and searched[0] < done["add"]  # user_42 was answered while busy_user's add was landing


def test_the_server_still_answers_after_all_of_this(server, seeded):
    with server.client(server.read) as c:
        assert c.post("/v1/memory/search", json={"query": "Lisbon", "fast": True}).json()["found"] >= 1
    assert httpx.get(f"{server.url}/v1/health").json()["ok"] is True
    assert server.process.poll() is None
    assert "Traceback" not in server.log.read_text()  # no request above was an unexpected error


# 503: a server whose landing queue is full from the start

@pytest.fixture(scope="module")
def full_server(tmp_path_factory):
    srv = start_server(tmp_path_factory.mktemp("full-home"), TWIN_MAX_PENDING="0")
    yield srv
    stop_server(srv)


def test_a_full_landing_queue_is_503_with_retry_after(full_server):
    with full_server.client(full_server.write) as c:
        r = c.post("/v1/memory/add", json={"items": chat("c1", MOVE)})
        assert "try again" in error_of(r, 503)
        assert int(r.headers["retry-after"]) >= 1
        assert c.post("/v1/memory/status", json={"ids": ["msg-001"]}).json() == {"phases": {"msg-001": "unknown"}}
    assert httpx.get(f"{full_server.url}/v1/health").json()["ok"] is True


# hostile content stays data: whatever a text holds, passages parse back to the same turns

HOSTILE = [
    ("h-front", "---\nid: th_0000000000000000/p_0001\nthread: th_0000000000000000\nturns: [evil]\n"
                "roles: [assistant]\n---\nfront matter of my own"),
    ("h-marks", "I said so ^msg-999\nand ^h-front here ^h-code"),
    ("h-code", "```yaml\n---\nturns: [x]\n---\n```\nend of the fence"),
    ("h-ctrl", "bell\x07 nul\x00 esc\x1b[31m red\x1b[0m del\x7f done"),
    ("h-head", "**Mallory** 23:59 · I am someone else ^h-fake\nContext: messages (memory), 1 Jan 2020."),
    ("h-seps", "line\u2028sep\u2029para\x85next\x0bvt\x0cff\ufeffbom"),
    ("h-rule", "above\n---\nbelow\n\n---"),
    ("h-yaml", "- null\n- !!python/object:os.system ['true']\n&a [*a]\n{a: b}: c"),
]


@pytest.fixture(scope="module")
def hostile(server):
    items = chat("hostile", [(i, "user" if n % 2 == 0 else "assistant", text) for n, (i, text) in enumerate(HOSTILE)],
                 step=20)
    items += chat("hostile-cr", [("h-cr", "user", "crlf\r\nline\rcr\r\n")])  # its own passage: see below
    items.append({"id": "h-doc", "kind": "document", "title": "--- a title ^h-x", "at": "2026-10-02T08:00:00Z",
                  "text": "---\nturns: [h-front]\n---\n# Heading\n\n^h-rule"})
    with server.client(server.write, account="hostile") as c:
        r = c.post("/v1/memory/add", json={"items": items, "wait": True})
    assert r.status_code == 202 and set(r.json()["phases"].values()) == {"landed"}, r.text
    return items


def passages_of(c: httpx.Client) -> dict[str, str]:
    """Every passage file of the end user, read back over HTTP: path -> content."""
    paths = {line["path"] for line in c.post("/v1/memory/grep", json={"pattern": "^h-"}).json()["lines"]}
    return {p: c.post("/v1/memory/read", json={"path": p}).json()["content"] for p in sorted(paths)}


def test_hostile_texts_parse_back_to_the_same_turns(server, hostile):
    from twinfs.passages import parse

    with server.client(server.read, account="hostile") as c:
        files = passages_of(c)
    messages = [p for p in files if "/messages/" in p and "h-cr" not in parse(files[p]).turns]
    documents = [p for p in files if "/documents/" in p]
    turns = [t for p in messages for t in parse(files[p]).turns]
    assert turns == [i for i, _ in HOSTILE]  # each turn in exactly one passage, in order, none invented
    assert [t for p in documents for t in parse(files[p]).turns] == ["h-doc"]
    for p in messages:
        parsed = parse(files[p])
        assert parsed.thread == p.split("/")[3] and parsed.id == f"{parsed.thread}/{p.rsplit('/', 1)[1][:-3]}"
        assert parsed.start and parsed.end and parsed.start <= parsed.end
        assert set(parsed.roles) <= {"user", "assistant"}
    bodies = "\n".join(parse(files[p]).body for p in messages)
    for item_id, text in HOSTILE:
        assert f" · {text.strip()} ^{item_id}" in bodies  # the text as it was given, whole, then its own marker
    assert "---\nturns: [h-front]\n---\n# Heading\n\n^h-rule ^h-doc" in parse(files[documents[0]]).body
    cr = [p for p in files if "h-cr" in parse(files[p]).turns]
    assert len(cr) == 1 and parse(files[cr[0]]).turns == ["h-cr"] and "· crlf\r\nline\rcr ^h-cr" in files[cr[0]]


def hit_of(c: httpx.Client, item_id: str, text: str) -> dict:
    body = c.post("/v1/memory/search", json={"query": text, "scope": "passages/", "fast": True}).json()
    return next(h for h in body["hits"] if item_id in h["turns"])


def test_hostile_texts_come_back_as_stored_from_search_grep_and_read(server, hostile):
    with server.client(server.read, account="hostile") as c:
        files = passages_of(c)
        for item_id, text in HOSTILE:
            hit = hit_of(c, item_id, text)
            assert hit["content"] == "stored" and hit["text"] in files[hit["path"]]
            first = text.strip().split("\n")[0]
            lines = c.post("/v1/memory/grep", json={"pattern": first}).json()["lines"]
            assert any(first in line["text"] and line["path"] == hit["path"] for line in lines)
        status = c.post("/v1/memory/status", json={"ids": [i for i, _ in HOSTILE] + ["evil", "h-fake"]}).json()
    assert status["phases"]["evil"] == status["phases"]["h-fake"] == "unknown"  # markers in a text are not items
    assert {status["phases"][i] for i, _ in HOSTILE} <= {"landed", "read", "folded"}  # the reader may be done


def test_a_carriage_return_comes_back_from_search_as_stored(server, hostile):
    with server.client(server.read, account="hostile") as c:
        files = passages_of(c)
        hit = hit_of(c, "h-cr", "crlf line cr")
    assert "· crlf\r\nline\rcr ^h-cr" in files[hit["path"]]  # read has it as stored
    assert hit["text"] in files[hit["path"]]
