"""A passage's keys (passage_keys.py): kept beside it in the vault, indexed as more ways to find it, gone with it."""
from __future__ import annotations

import subprocess
import time
from datetime import UTC, datetime, timedelta

import pytest
from conftest import until

from twinfs import EndUser, Memory, Settings, passage_keys, search
from twinfs.index import Bounds
from twinfs.models import AddRequest, ForgetRequest, SearchRequest
from twinfs.passage_keys import PassageKeys, keys_path, parse_keys, read_keys, render_keys

MIRA = EndUser(org="acme", project="app", account="mira")
T0 = datetime(2024, 5, 6, 9, 0, tzinfo=UTC)
# one session a day; the third holds the new guitar under a name the question never uses
SESSIONS = [
    "Trying a new recipe tonight: lentil soup with cumin and lemon.",
    "The marathon training plan says twelve kilometres on Sunday morning.",
    "Finally picked up the sunburst Stratocaster from the shop, it plays beautifully.",
    "My sister visits next month, we want to see the botanical garden together.",
    "Repainted the balcony railing green, the neighbours approve.",
]
QUESTION = "Which guitar did she purchase?"  # no word of the third session's text
KEYS = PassageKeys(questions=("What guitar did Mira purchase?",), about=("Mira", "Fender guitar"))


def sessions() -> list[dict]:
    return [{"id": f"s{n}", "kind": "message", "conversation": f"day-{n}", "role": "user", "name": "Mira",
             "text": text, "at": (T0 + timedelta(days=n)).isoformat()} for n, text in enumerate(SESSIONS)]


def land(memory, items: list[dict]) -> None:
    res = memory.add(MIRA, AddRequest(items=items))
    assert memory.wait(MIRA, [res.event], timeout=60)


def git(root, *args) -> str:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True).stdout


def guitar_passage(space) -> str:
    return next(p.relative_to(space.root).as_posix() for p in space.root.glob("passages/**/p_*.md")
                if "Stratocaster" in p.read_text())


def keyed_by_hand(memory, keys: PassageKeys = KEYS) -> str:
    """Keys written beside the guitar's passage as a person would, then mended (what the watcher calls)."""
    space = memory.space(MIRA)
    passage = guitar_passage(space)
    space.vault.path(keys_path(passage)).write_text(render_keys(passage, keys))
    assert keys_path(passage) in memory.mend(MIRA)
    return passage


def found(memory, question: str = QUESTION) -> list[list[str]]:
    return [h.turns for h in memory.search(MIRA, SearchRequest(query=question, fast=True)).hits]


@pytest.fixture
def mira(memory):
    land(memory, sessions())
    return memory


def test_the_keys_file_reads_back_and_a_broken_one_says_why():
    text = render_keys("passages/memory/messages/th_0/p_0001.md", KEYS)
    assert text.startswith("# What else finds p_0001.md in search")
    assert parse_keys(text) == KEYS
    assert parse_keys("questions: Where is the shop?\n") == PassageKeys(questions=("Where is the shop?",))
    with pytest.raises(ValueError, match="questions is not a list"):
        parse_keys("questions: {a: 1}\n")
    with pytest.raises(ValueError, match="not a mapping"):
        parse_keys("- just a list\n")


def test_a_passage_is_found_through_a_key_that_shares_no_word_with_its_text(mira, monkeypatch):
    space = mira.space(MIRA)
    bounds = Bounds(type="passage")
    assert not space.words.search(QUESTION, bounds, 10)  # the words lane: nothing to match
    before = dict((d, s) for d, _, s in search.meaning_lane(space, QUESTION, bounds, 10))
    passage = keyed_by_hand(mira)
    doc = space.words.search(QUESTION, bounds, 10)[0]
    assert doc[1] == passage  # found by the keys field alone
    after = dict((d, s) for d, _, s in search.meaning_lane(space, QUESTION, bounds, 10))
    guitar = doc[0]
    assert after.get(guitar) == before.get(guitar)  # a key question is no vector (passage_keys.QUESTION_SEGMENTS)
    assert found(mira)[0] == ["s2"]
    monkeypatch.setattr(search, "KEYS", False)  # by their own text alone, as before the keys
    assert all(d != guitar for d, _, _ in search.lanes(space, QUESTION, bounds)[0])
    # kept in git like every file: a person sees who wrote which key when
    assert git(space.root, "log", "-1", "--format=%s").startswith(f"edit: {keys_path(passage)}")


def test_with_question_segments_a_key_question_is_a_vector_of_its_passage(mira, monkeypatch):
    monkeypatch.setattr(passage_keys, "QUESTION_SEGMENTS", True)
    space = mira.space(MIRA)
    bounds = Bounds(type="passage")
    before = dict((d, s) for d, _, s in search.meaning_lane(space, QUESTION, bounds, 10))
    keyed_by_hand(mira)
    guitar = space.words.search(QUESTION, bounds, 10)[0][0]
    after = dict((d, s) for d, _, s in search.meaning_lane(space, QUESTION, bounds, 10))
    assert after[guitar] > before.get(guitar, 0.0) + 0.1  # the key's vector, the passage's best segment now
    monkeypatch.setattr(search, "KEYS", False)
    alone = dict((d, s) for d, _, s in search.meaning_lane(space, QUESTION, bounds, 10))
    assert alone.get(guitar) == before.get(guitar)


def test_a_forgotten_passage_takes_its_keys_with_it(mira):
    passage = keyed_by_hand(mira)
    space = mira.space(MIRA)
    assert found(mira)[0] == ["s2"]
    mira.forget(MIRA, ForgetRequest(ids=["s2"]))
    assert not space.vault.path(keys_path(passage)).exists() and not space.vault.path(passage).exists()
    assert "Fender" not in git(space.root, "log", "--all", "-p")
    assert all(d[1] != passage for d in space.words.search("Fender guitar purchase", Bounds(type="passage"), 10))
    assert ["s2"] not in found(mira)
    assert git(space.root, "status", "--porcelain") == ""


def test_keys_of_a_passage_cut_again_stay_and_a_thread_of_its_own_keeps_them(mira):
    passage = keyed_by_hand(mira)
    land(mira, sessions())  # the same items again: nothing is cut again
    assert read_keys(mira.space(MIRA), passage) == KEYS and found(mira)[0] == ["s2"]


def test_a_broken_keys_file_is_committed_and_kept_out_of_search(mira):
    space = mira.space(MIRA)
    passage = guitar_passage(space)
    space.vault.path(keys_path(passage)).write_text("questions: [unclosed\n")
    assert keys_path(passage) in mira.mend(MIRA)
    assert read_keys(space, passage) == PassageKeys()
    assert all(d[1] != passage for d in space.words.search(QUESTION, Bounds(type="passage"), 10))
    assert git(space.root, "status", "--porcelain") == ""


@pytest.mark.slow
def test_a_key_edited_by_hand_changes_what_is_found_once_the_watcher_sees_it(tmp_home, embedder):
    with Memory(Settings(home=tmp_home, reading=False, watch=True), embedder=embedder) as memory:
        land(memory, sessions())
        space = memory.space(MIRA)
        time.sleep(1.5)  # the watcher's quiet spell: the writer's own files are no hand edits
        passage = guitar_passage(space)
        bounds = Bounds(type="passage")

        def by_words(question: str) -> list[str]:
            return [path for _, path, _ in space.words.search(question, bounds, 10)]

        space.vault.path(keys_path(passage)).write_text(render_keys(passage, KEYS))
        assert until(lambda: by_words(QUESTION) == [passage])
        assert until(lambda: git(space.root, "status", "--porcelain") == "")  # that edit committed
        edited = PassageKeys(questions=("When is the amplifier repair due?",))
        space.vault.path(keys_path(passage)).write_text(render_keys(passage, edited))
        assert until(lambda: by_words("amplifier repair") == [passage])
        assert by_words(QUESTION) == []
        assert found(memory, "When is the amplifier repair due?")[0] == ["s2"]
        assert until(lambda: git(space.root, "log", "-1", "--format=%s").startswith(f"edit: {keys_path(passage)}"))


def test_records_read_from_a_passage_are_its_keys(tmp_home, embedder):
    from whoosh import query as Q

    from twinfs.ledger import all_records
    from twinfs.passage_keys import KEY_SPEAKER
    from twinfs.steps.read import record_segment

    with Memory(Settings(home=tmp_home, reading=True, quiet_seconds=0, fold_seconds=0), embedder=embedder) as memory:
        land(memory, sessions())
        assert memory.idle(timeout=120)
        space = memory.space(MIRA)
        records = [r for r in all_records(space) if r.source]
        assert records, "the rules read records"
        for passage in {r.source for r in records}:
            mine = [r for r in records if r.source == passage]
            doc = next(d for d, _, _ in space.words.search(mine[0].text, Bounds(type="passage"), 10)
                       if d.endswith(passage.rsplit("/", 1)[-1].removesuffix(".md")) and d.split("/")[0] in passage)
            keyed = space.meaning._db.execute("SELECT thash FROM segments WHERE doc = ? AND who = ?",
                                              (doc, KEY_SPEAKER)).fetchall()
            assert len(keyed) == len({record_segment(r) for r in mine})  # one vector a fact, the record's own
            with space.words.searcher("passage") as s:
                for term in space.words.terms(mine[0].text):
                    assert doc in {f["id"] for f in s.search(Q.Term("keys", term), limit=None)}
        git_files = git(space.root, "ls-files")
        assert ".keys.yaml" not in git_files  # facts are keys where they are kept: records/, not copied
