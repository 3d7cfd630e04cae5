from __future__ import annotations

import pytest
from pydantic import ValidationError

from twinfs import BadRequest, EndUser, Invalid
from twinfs.models import AddRequest, Item, SearchRequest
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
    with pytest.raises(ValidationError, match="appears twice"):
        AddRequest(items=[item(), item()])


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
