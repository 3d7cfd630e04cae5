from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from twinfs import BadRequest, EndUser, Invalid
from twinfs.forms import MOMENT, NOT_BLANK, SCOPE, SPACE, VAULT_PATH
from twinfs.models import AddRequest, CorrectRequest, GrepRequest, Item, ReadRequest, SearchRequest, StatusRequest
from twinfs.paths import clean_relpath, thread_id


def item(**kw):
    base = {"id": "m1", "kind": "message", "text": "hi", "at": "2026-10-01T09:30:00Z"}
    return {**base, **kw}


def test_item_ids_like_locomo_are_valid():
    assert Item(**item(id="D1:3")).id == "D1:3"


@pytest.mark.parametrize("bad", ["", "a/b", "../x", "x" * 129, "a b", "é"])
def test_bad_item_ids_are_refused(bad):
    with pytest.raises(ValidationError) as e:
        Item(**item(id=bad))
    assert e.value.errors()[0]["loc"] == ("id",)


def test_items_are_checked_field_by_field():
    for field, value in [("kind", "email"), ("role", "system"), ("at", "yesterday"), ("text", "   "),
                         ("source", "../etc"), ("text", "x" * 100_001)]:
        with pytest.raises(ValidationError) as e:
            Item(**item(**{field: value}))
        assert e.value.errors()[0]["loc"] == (field,)
    with pytest.raises(ValidationError):
        Item(**item(colour="red"))  # unknown fields are refused, not ignored


def test_naive_times_are_utc_and_aware_ones_are_converted():
    assert Item(**item(at="2026-10-01T09:30:00")).at.isoformat() == "2026-10-01T09:30:00+00:00"
    assert Item(**item(at="2026-10-01T11:30:00+02:00")).at.isoformat() == "2026-10-01T09:30:00+00:00"


def test_add_request_bounds():
    with pytest.raises(ValidationError):
        AddRequest(items=[])
    with pytest.raises(ValidationError):
        AddRequest(items=[item(id=f"m{i}") for i in range(1001)])
    edited = AddRequest(items=[item(text="first"), item(id="m2"), item(text="edited")])
    assert [(i.id, i.text) for i in edited.items] == [("m2", "hi"), ("m1", "edited")]  # the later item is the edit


def test_search_request_dates_and_scope():
    assert SearchRequest(query="q", before="2026-10-02").before_at.isoformat() == "2026-10-02T00:00:00+00:00"
    for bad in ["2026-02-30", "yesterday", "2026-13-01"]:
        with pytest.raises(ValidationError, match="not a real day"):
            SearchRequest(query="q", before=bad)
    with pytest.raises(ValidationError):
        SearchRequest(query="")
    with pytest.raises(ValidationError):
        SearchRequest(query="x" * 2001)
    with pytest.raises((ValidationError, Invalid)):
        SearchRequest(query="q", scope="../../etc")
    assert SearchRequest(query="q", scope="passages/memory").ranked


@pytest.mark.parametrize("bad", ["/etc/passwd", "../x", "passages/../../x", "a\\b", ".git/config", "C:/x", "a\x00b"])
def test_client_paths_never_leave_the_vault(bad):
    with pytest.raises(Invalid):
        clean_relpath(bad, "path")


def test_clean_paths_are_normalised():
    assert clean_relpath("passages//memory/./messages/", "scope") == "passages/memory/messages/"


def test_end_user_ids():
    assert EndUser.parse("acme", "app", "user_42").dirname == "acme.app.user_42"
    for bad in [None, "", "../x", ".hidden", "a/b", "-x", "x" * 60]:
        with pytest.raises(BadRequest):
            EndUser.parse("acme", "app", bad)


def test_thread_ids_are_stable_and_distinct():
    a = thread_id("acme.app.alice", "message", "c1")
    assert a == thread_id("acme.app.alice", "message", "c1") and a.startswith("th_") and len(a) == 19
    assert a != thread_id("acme.app.bob", "message", "c1") != thread_id("acme.app.alice", "document", "c1")


@pytest.mark.parametrize("model, body, field", [
    (GrepRequest, {"pattern": "x", "regex": 0}, "regex"),
    (GrepRequest, {"pattern": "x", "regex": "true"}, "regex"),
    (SearchRequest, {"query": "x", "fast": "yes"}, "fast"),
    (SearchRequest, {"query": "x", "fast": 1}, "fast"),
    (SearchRequest, {"query": 7}, "query"),
    (SearchRequest, {"query": "x", "before": 20261001}, "before"),
    (AddRequest, {"items": [item()], "wait": "false"}, "wait"),
    (AddRequest, {"items": [item(at=1790000000)]}, "items"),
    (AddRequest, {"items": [item(at="1790000000")]}, "items"),
    (AddRequest, {"items": [item(id=42)]}, "items"),
    (StatusRequest, {"ids": [1]}, "ids"),
])
def test_nothing_is_coerced(model, body, field):
    with pytest.raises(ValidationError) as e:
        model.model_validate(body)
    assert e.value.errors()[0]["loc"][0] == field


@pytest.mark.parametrize("k", [None, 3, "3", 2.5, True, [1], {"n": 1}, "x" * 5000])
def test_k_is_ignored_whatever_it_holds(k):
    assert SearchRequest.model_validate({"query": "q", "k": k}).query == "q"


@pytest.mark.parametrize("good", ["2026-10-01", "2024-02-29", "2000-02-29", "2026-10-01T09:30", "2026-10-01T09:30:05",
                                  "2026-10-01T09:30:05.123456Z", "2026-10-01T23:59:59+05:30", "1000-01-01T00:00-23:59"])
def test_days_and_times_the_form_admits_are_real(good):
    assert SearchRequest(query="q", before=good).before_at is not None
    assert Item(**item(at=good)).at.tzinfo is not None


@pytest.mark.parametrize("bad", ["2026-02-29", "1900-02-29", "2026-04-31", "2026-10-01T24:00", "2026-10-01T09:60",
                                 "2026-10-01 09:30", "20261001", "2026-10-01T09", "2026-10-01T09:30:00.1234567",
                                 "2026-10-01t09:30z", "2026-10-01T09:30+0530", "0999-01-01", "3000-01-01",
                                 "2026-10-01\n", " 2026-10-01", "1790000000", ""])
def test_days_and_times_outside_the_form_are_refused(bad):
    assert not re.fullmatch(MOMENT, bad)
    with pytest.raises(ValidationError, match="not a real day"):
        SearchRequest(query="q", after=bad)
    with pytest.raises(ValidationError):
        Item(**item(at=bad))


def test_the_not_blank_form_is_str_strip_within_latin_1():
    latin = {c for c in map(chr, range(0x100)) if c.isspace()}
    assert {c for c in map(chr, range(0x100)) if not re.search(NOT_BLANK, c)} == latin
    assert set(re.findall(rf"[{SPACE}]", "".join(map(chr, range(0x3001))))) == {c for c in map(chr, range(0x3001))
                                                                                  if c.isspace()}
    for blank in ["", " ", "\t\n\r", "\x1c\x85\xa0"]:
        with pytest.raises(ValidationError):
            SearchRequest(query=blank)
    with pytest.raises(ValidationError):
        CorrectRequest(id="th_0123456789abcdef#r1", reason=" \n")


@pytest.mark.parametrize("good", ["items", "passages/", "passages/memory/messages", "records/th_0123456789abcdef.json",
                                  "pages/alice-chen.md", "passages/.x", "passages/...", "pages/a b.md"])
def test_vault_paths_the_form_admits_are_clean(good):
    assert re.fullmatch(SCOPE, good) and re.fullmatch(VAULT_PATH, good)
    assert clean_relpath(good, "path") == good
    assert ReadRequest(path=good).path == good and SearchRequest(query="q", scope=good).scope == good


@pytest.mark.parametrize("bad", ["/etc/passwd", "../x", "passages/../x", "passages/..", "passages/.", "passages//x",
                                 "passages/.. ", ".git/config", "other/x", "passagesx", "passages/a\\b",
                                 "passages/a\x00", "passages/a\nb", "items/a#1", " passages", "C:/x"])
def test_vault_paths_outside_the_form_are_refused(bad):
    with pytest.raises((ValidationError, Invalid)):  # Invalid: clean_relpath's own words, such as '..'
        ReadRequest(path=bad)
    with pytest.raises((ValidationError, Invalid)):
        SearchRequest(query="q", scope=bad)


def test_a_record_number_is_only_for_records_files():
    assert ReadRequest(path="records/th_0123456789abcdef.json#3").path.endswith("#3")
    for bad in ["pages/a.md#3", "records/x.json#", "records/x.json#a", "records/x.json#3#4"]:
        with pytest.raises((ValidationError, Invalid)):
            ReadRequest(path=bad)


def test_names_and_titles_are_one_line():
    for field in ("name", "title"):
        for bad in ["a\nb", "a\rb", "a\u2028b", "tab\there"]:
            with pytest.raises(ValidationError):
                Item(**item(**{field: bad}))
        assert getattr(Item(**item(**{field: "Alice ** 09:30 · ^x"})), field) == "Alice ** 09:30 · ^x"


def test_a_grep_regex_must_compile_only_when_regex_is_true():
    assert GrepRequest(pattern="([a-z").pattern == "([a-z"
    with pytest.raises(Invalid, match="not a valid regular expression"):
        GrepRequest(pattern="([a-z", regex=True)
