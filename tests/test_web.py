"""The web view in process (Starlette's TestClient over the real app, Memory and keys, the sample vault adopted):
escaping, CSRF, the session cookie's flags, the Content-Security-Policy, isolation between organisations, bad
input. The browser tests are in test_web_browser.py."""
from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from server.app import create_app
from server.web.present import page_view, timelines, turns_of
from server.web.sessions import COOKIE, Sessions
from twinfs import Memory, Settings
from twinfs.keys import Keys
from twinfs.models import AddRequest, HistoryValue, Item, Record
from twinfs.sample import USER, adopt

HOSTILE = '<script>alert("x")</script> & <b>bold</b>'


@pytest.fixture(scope="module")
def web_home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("web") / "home"


@pytest.fixture(scope="module")
def served(web_home, embedder) -> Iterator[tuple[TestClient, dict[str, str]]]:
    home = web_home
    adopt(home)
    keys = Keys(home)
    tokens = {"read": keys.create("demo", "app", "read")[0], "write": keys.create("demo", "app", "write")[0],
              "other": keys.create("globex", "app", "write")[0]}
    settings = Settings(home=home, reading=False, watch=False)
    with Memory(settings, embedder=embedder) as memory:
        memory.reindex(USER)
        memory.add(USER, AddRequest(items=[Item.model_validate(
            {"id": "msg-evil", "kind": "message", "conversation": "evil", "role": "user", "name": "Mallory",
             "text": f"My favourite tag is {HOSTILE}", "at": "2026-10-04T10:00:00Z"})], wait=True))
        with TestClient(create_app(settings, memory), base_url="http://127.0.0.1") as client:
            yield client, tokens


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, html[:500]
    return found.group(1)


def sign_in(client: TestClient, token: str) -> TestClient:
    client.cookies.clear()
    form = client.get("/")
    answer = client.post("/login", data={"csrf": csrf_of(form.text), "key": token}, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    return client


def test_the_sign_in_form_and_the_session_cookie(served):
    client, tokens = served
    client.cookies.clear()
    form = client.get("/")
    assert form.status_code == 200 and 'name="key"' in form.text and "End users" not in form.text
    answer = client.post("/login", data={"csrf": csrf_of(form.text), "key": tokens["read"]}, follow_redirects=False)
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert tokens["read"] not in cookie and tokens["read"] not in answer.headers.get("location", "")
    assert answer.headers["location"] == "/"
    listing = client.get("/")
    assert "End users of demo.app" in listing.text and ">alice<" in listing.text
    row = re.search(r">alice</a></td>\s*<td class=\"n\">(\d+)</td><td class=\"n\">(\d+)</td><td class=\"n\">(\d+)",
                    listing.text)
    assert row and row.groups() == ("4", "11", "1")  # 3 threads adopted + the hostile one; 10 + 1 items; 1 page


def test_a_wrong_key_or_a_missing_token_is_refused(served):
    client, tokens = served
    client.cookies.clear()
    form = client.get("/")
    wrong = client.post("/login", data={"csrf": csrf_of(form.text), "key": "tm_not-a-key"})
    assert wrong.status_code == 401 and "not a key this service issued" in wrong.text
    client.cookies.clear()
    client.get("/")
    no_token = client.post("/login", data={"key": tokens["read"]})
    assert no_token.status_code == 403 and "End users" not in no_token.text
    assert client.get("/users/alice").status_code in (200, 303) and "Sign in" in client.get("/users/alice").text


def test_every_answer_sends_a_content_security_policy_without_scripts(served):
    client, tokens = served
    sign_in(client, tokens["read"])
    for path in ("/", "/users/alice", "/users/alice/pages/alice-chen", "/static/web.css", "/users/nobody"):
        answer = client.get(path)
        policy = answer.headers["content-security-policy"]
        assert "default-src 'none'" in policy and "script-src" not in policy and "frame-ancestors 'none'" in policy
    assert "content-security-policy" not in client.get("/v1/health").headers  # the API is left as it was


def test_stored_text_is_escaped(served):
    client, tokens = served
    sign_in(client, tokens["write"])
    answer = client.get("/users/alice/search", params={"q": "favourite tag", "fast": "1"})
    assert answer.status_code == 200
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in answer.text
    assert "<script" not in answer.text and "<b>bold" not in answer.text
    confirm = client.get("/users/alice/forget", params={"id": "msg-evil"})
    assert "&lt;script&gt;" in confirm.text and "<script" not in confirm.text
    reflected = client.get("/users/alice/search", params={"q": "<script>x</script>"})
    assert "<script>x" not in reflected.text and "&lt;script&gt;x" in reflected.text


def test_a_person_page_shows_known_now_timelines_and_as_of_a_day(served):
    client, tokens = served
    sign_in(client, tokens["read"])
    page = client.get("/users/alice/pages/alice-chen")
    assert page.status_code == 200 and "Known now" in page.text
    timeline = page.text[page.text.index("<h3>home_city</h3>"):]
    timeline = timeline[:timeline.index("</section>")]
    assert timeline.index("Berlin") < timeline.index("Lisbon")  # oldest said first
    assert re.search(r'class="now">\s*<span class="day">2026-10-01</span>\s*<span class="value">Lisbon', timeline)
    assert "mark-changed" in timeline
    then = client.get("/users/alice/pages/alice-chen", params={"before": "2025-01-01"})
    known = then.text[then.text.index("Known before 2025-01-01"):then.text.index("Timelines")]
    assert "Berlin" in known and "Lisbon" not in known
    assert client.get("/users/alice/pages/alice-chen", params={"before": "2025-13-45"}).status_code == 422
    assert client.get("/users/alice/pages/nobody-here").status_code == 404


def test_lineage_shows_turns_conversation_and_commits(served):
    client, tokens = served
    sign_in(client, tokens["read"])
    record = "th_3c673913c32bf3b2#ra8c283c3985e06a1"
    page = client.get("/users/alice/lineage", params={"id": record})
    assert page.status_code == 200 and "Lisbon" in page.text and "made it" in page.text
    assert 'class="turn cited"' in page.text and "msg-001" in page.text
    assert "Correct this record" not in page.text and ">forget</a>" not in page.text  # a read key writes nothing
    assert client.get("/users/alice/lineage", params={"id": "th_0#r0"}).status_code in (404, 422)
    assert client.get("/users/alice/lineage").status_code == 400


def test_a_read_key_cannot_write_and_a_form_without_its_token_is_refused(served):
    client, tokens = served
    sign_in(client, tokens["read"])
    assert client.get("/users/alice/forget", params={"id": "msg-001"}).status_code == 403
    token = csrf_of(client.get("/").text)
    refused = client.post("/users/alice/forget", data={"csrf": token, "id": "msg-001"})
    assert refused.status_code == 403 and "read key" in refused.text
    sign_in(client, tokens["write"])
    assert client.post("/users/alice/forget", data={"id": "msg-001"}).status_code == 403  # no token
    assert client.post("/users/alice/forget", data={"csrf": token, "id": "msg-001"}).status_code == 403  # old one
    assert "msg-001" in client.get("/users/alice/lineage",
                                   params={"id": "th_3c673913c32bf3b2#ra8c283c3985e06a1"}).text  # still there


def test_isolation_is_the_apis(served):
    client, tokens = served
    sign_in(client, tokens["other"])
    listing = client.get("/")
    assert "End users of globex.app" in listing.text and "alice" not in listing.text
    for path in ("/users/alice", "/users/alice/pages/alice-chen"):
        assert client.get(path).status_code == 404
    assert client.get("/users/alice/search", params={"q": "Lisbon"}).status_code == 404
    assert client.get("/users/alice/lineage", params={"id": "th_3c673913c32bf3b2#ra8c283c3985e06a1"}
                      ).status_code == 404


def test_bad_input_is_a_page_naming_it(served):
    client, tokens = served
    sign_in(client, tokens["write"])
    bad_account = client.get("/users/..%2Fevil")
    assert bad_account.status_code in (400, 404) and "Traceback" not in bad_account.text
    assert client.get("/users/alice/search", params={"q": "x", "before": "yesterday"}).status_code == 422
    assert client.get("/users/alice/forget", params={"id": ""}).status_code == 422
    token = csrf_of(client.get("/").text)
    empty_reason = client.post("/users/alice/correct",
                               data={"csrf": token, "id": "th_3c673913c32bf3b2#ra8c283c3985e06a1", "reason": ""})
    assert empty_reason.status_code == 422 and "reason" in empty_reason.text
    huge = client.post("/users/alice/correct", data={"csrf": token, "reason": "x" * 30_000})
    assert huge.status_code == 400


def test_correct_then_forget_with_a_write_key(served):
    client, tokens = served
    sign_in(client, tokens["write"])
    record = "th_3469712b35d107c4#r5de5b3a7d6db6c9c"  # job: product designer
    confirm = client.get("/users/alice/correct", params={"id": record})
    assert "product designer" in confirm.text
    done = client.post("/users/alice/correct", data={"csrf": csrf_of(confirm.text), "id": record,
                                                     "reason": "a typo", "value": "illustrator"})
    assert done.status_code == 200 and "takes its place" in done.text
    page = client.get("/users/alice/pages/alice-chen").text
    job = page[page.index("<h3>job</h3>"):]
    job = job[:job.index("</section>")]
    assert "corrected" in job and "a typo" in job and "illustrator" in job and "correction" in job
    confirm = client.get("/users/alice/forget", params={"id": "msg-evil"})
    assert "Forget the item" in confirm.text and "favourite tag" in confirm.text
    gone = client.post("/users/alice/forget", data={"csrf": csrf_of(confirm.text), "id": "msg-evil"})
    assert gone.status_code == 200 and "Forgotten" in gone.text and "msg-evil" in gone.text
    assert "My favourite tag" not in client.get("/users/alice/search", params={"q": "favourite tag", "fast": "1"}).text


def test_sign_out_ends_the_session(served):
    client, tokens = served
    sign_in(client, tokens["read"])
    home = client.get("/")
    sid = client.cookies.get(COOKIE)
    out = client.post("/logout", data={"csrf": csrf_of(home.text)}, follow_redirects=False)
    assert out.status_code == 303
    client.cookies.set(COOKIE, sid)  # the old cookie no longer names a session
    assert "Sign in" in client.get("/").text



def test_a_revoked_key_ends_its_sessions_at_the_next_page(served, web_home):
    client, _ = served
    token, key = Keys(web_home).create("demo", "app", "read")
    sign_in(client, token)
    assert "End users of demo.app" in client.get("/").text
    Keys(web_home).revoke(key.id)
    answer = client.get("/users/alice")
    assert "no longer valid" in answer.text and "Sign in" in answer.text
    Keys(web_home).create("demo", "app", "read")  # the key file changes again: the session stays ended
    assert "End users" not in client.get("/").text


def test_an_idle_session_ends_and_the_oldest_go_past_the_limit():
    sessions = Sessions(idle_seconds=0.05, most=2)

    class Asking:  # what Sessions reads of a request: its cookies
        def __init__(self, sid: str | None = None):
            self.cookies = {COOKIE: sid} if sid else {}

    sid, session = sessions.start(Asking(), "tm_x")  # type: ignore[arg-type]
    assert sessions.get(Asking(sid)) is session  # type: ignore[arg-type]
    time.sleep(0.1)
    assert sessions.get(Asking(sid)) is None  # type: ignore[arg-type]
    first = sessions.start(Asking())[0]  # type: ignore[arg-type]
    sessions.start(Asking())  # type: ignore[arg-type]
    sessions.start(Asking())  # type: ignore[arg-type]
    assert sessions.get(Asking(first)) is None  # type: ignore[arg-type]


def test_forgetting_a_conversation_names_every_turn_first(served):
    client, tokens = served
    sign_in(client, tokens["write"])
    confirm = client.get("/users/alice/forget", params={"id": "th_3469712b35d107c4"})
    assert "Forget the conversation" in confirm.text and "These 4 turns go" in confirm.text
    assert all(f"msg-10{n}" in confirm.text for n in range(1, 5)) and "Berlin" in confirm.text
    unknown = client.get("/users/alice/forget", params={"id": "msg-never"})
    assert "No passage holds" in unknown.text


def test_timelines_mark_what_worked_out_names_and_the_corrections():
    def value(attribute: str, said: str, text: str, record: str, by: str = "user") -> HistoryValue:
        return HistoryValue(subject="Bo", attribute=attribute, value=text, said=said, happened=said,
                            records=[f"th_1#r{record}"], by=by)

    rows = [value("pet", "2026-01-02", "cat", "a1"), value("pet", "2026-01-02", "dog", "a2"),
            value("job", "2025-01-01", "baker", "b1"), value("job", "2026-01-01", "pilot", "b2"),
            value("job", "2026-03-01", "judge", "b3")]
    wrong = Record(id="th_1#rb0", kind="state", text="Bo is a clown", subject="Bo", attribute="job", value="clown",
                   said="2026-03-01", turns=["m1"], source="passages/x.md",
                   retracted={"reason": "a joke", "at": "2026-03-02T00:00:00Z", "replaced_by": "th_1#rb3"})
    lines, worked = timelines("Bo", rows, [wrong])
    by_name = dict(lines)
    assert [m.marks for m in by_name["pet"]] == [["conflict"], ["conflict"]]
    assert any(line.startswith("Conflict: Bo · pet") for line in worked)
    job = {m.value: m for m in by_name["job"]}
    assert job["clown"].marks == ["corrected"] and job["clown"].reason == "a joke"
    assert "correction" in job["judge"].marks and "now" in job["judge"].marks
    assert [m.value for m in by_name["job"]] == ["baker", "pilot", "clown", "judge"]  # oldest said first
    then, _ = timelines("Bo", rows, [wrong], before="2026-01-01")
    assert [m.value for m in dict(then)["job"]] == ["baker"]


def test_a_passage_and_a_page_are_read_into_turns_and_lines():
    context, turns = turns_of("Context: messages (memory), 1 Oct 2026.\n\n**Bo** 09:30 · first line\nsecond line "
                              "^m1\n**Assistant** 09:31 · <b>hi</b> ^m2\nA document line ^doc-1")
    assert context == "messages (memory), 1 Oct 2026."
    assert [(t.id, t.who, t.text) for t in turns] == [("m1", "Bo", "first line\nsecond line"),
                                                      ("m2", "Assistant", "<b>hi</b>"), ("doc-1", None,
                                                                                          "A document line")]
    view = page_view("---\nsubject: Bo\naliases: [Bob]\nupdated: '2026-10-01'\n---\n# Bo\n\n## job\n- a \\[big\\] "
                     "baker — said 2026-10-01 · [th_1#rab](../records/th_1.json) · [th_1/p_0001]"
                     "(../passages/memory/messages/th_1/p_0001.md)\n", "bo")
    assert (view.subject, view.aliases) == ("Bo", ["Bob"])
    line = view.sections[0][1][0]
    assert (line.text, line.records, line.passage) == ("a [big] baker — said 2026-10-01", ["th_1#rab"],
                                                       "passages/memory/messages/th_1/p_0001.md")
