"""The spine with real parts: git, Whoosh, FAISS and the MiniLM embedder."""
from __future__ import annotations

import json
import subprocess
from datetime import UTC

import pytest
from conftest import MOVE, PORTO, chat

from twinfs import Invalid, NotFound, Phase
from twinfs.models import AddRequest, GrepRequest, SearchRequest, StatusRequest


def add(memory, user, items, wait=True):
    return memory.add(user, AddRequest(items=items, wait=wait))


def test_add_lands_commits_and_is_found_by_words_and_meaning(memory, alice):
    res = add(memory, alice, chat("c1", MOVE))
    assert res.event.startswith("ev_") and res.ids == ["msg-001", "msg-002", "msg-003"]
    assert set(res.phases.values()) == {Phase.landed}
    root = memory.home / "users" / "acme.app.alice"
    passages = list(root.glob("passages/memory/messages/th_*/p_0001.md"))
    assert len(passages) == 1
    text = passages[0].read_text()
    assert "turns: [msg-001, msg-002, msg-003]" in text and "**Alice Chen** 09:30 · I just moved to Lisbon" in text
    items = list(root.glob("items/th_*/*.json"))
    assert len(items) == 3 and json.loads(items[0].read_text())["kind"] == "message"
    log = subprocess.run(["git", "-C", str(root), "log", "--format=%s"], capture_output=True, text=True).stdout
    assert log.splitlines()[0].startswith("add: 3 items to th_")
    ignored = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--ignored"],
                             capture_output=True, text=True).stdout
    assert ".twin/" in ignored and "passages" not in ignored.replace(".twin/", "")  # indexes never committed

    by_words = memory.search(alice, SearchRequest(query="tram noise", fast=True))
    assert by_words.hits and by_words.hits[0].turns == ["msg-001", "msg-002", "msg-003"]
    hit = by_words.hits[0]
    assert hit.content == "stored" and hit.roles == ["user", "assistant"] and hit.path.endswith("p_0001.md")
    by_meaning = memory.search(alice, SearchRequest(query="Which pet does she have?", fast=True))
    assert by_meaning.hits and "Miso" in by_meaning.hits[0].text  # no word of the question is in the passage
    assert by_meaning.filtered is False and by_meaning.held is None


def test_the_lanes_fuse(memory, alice):
    add(memory, alice, chat("c1", MOVE) + [PORTO])
    space = memory.space(alice)
    from twinfs.index import Bounds
    from twinfs.search import fuse, lanes

    words, meaning = lanes(space, "boat tour on the river Douro", Bounds(type="passage"))
    assert words[0][0] == meaning[0][0]  # both lanes agree on the Porto plan
    fused = fuse([words, meaning])
    assert fused[0][0] == words[0][0] and fused[0][2] == pytest.approx(2 / 61)


def test_scope_after_and_before(memory, alice):
    add(memory, alice, chat("c1", MOVE) + [PORTO])
    scoped = memory.search(alice, SearchRequest(query="Porto", scope="passages/memory/documents"))
    assert scoped.found == 1 and scoped.hits[0].path.startswith("passages/memory/documents/")
    assert scoped.known is None and scoped.filtered is None  # a ranked list, not a brief
    assert memory.search(alice, SearchRequest(query="Porto", scope="passages/other")).found == 0
    after = memory.search(alice, SearchRequest(query="Lisbon", after="2026-10-02"))
    assert [h.turns for h in after.hits] == [["doc-porto"]]
    before = memory.search(alice, SearchRequest(query="Lisbon", before="2026-10-02", fast=True))
    assert before.hits and all(h.turns != ["doc-porto"] for h in before.hits)
    assert memory.search(alice, SearchRequest(query="Lisbon", before="2026-09-01", fast=True)).found == 0


def test_a_time_the_question_names_lifts_what_was_said_then(memory, alice):
    from datetime import datetime
    june = datetime(2023, 6, 10, 18, 0, tzinfo=UTC)
    march = datetime(2024, 3, 2, 18, 0, tzinfo=UTC)
    add(memory, alice, chat("spring", [("s1", "user", "We went hiking in the hills and the view was great.")], march)
        + chat("summer", [("j1", "user", "We went hiking by the lake, it rained all day.")], june))
    for question, turns in (("Where did we go hiking in June 2023?", ["j1"]),
                            ("Where did we go hiking in June?", ["j1"]),
                            ("Where did we go hiking on 2 March 2024?", ["s1"])):
        found = memory.search(alice, SearchRequest(query=question, fast=True))
        assert [h.turns for h in found.hits] == [turns, [t for t in ("s1", "j1") if t not in turns]], question


def test_speakers_are_recorded_and_a_question_put_in_their_first_person(memory, alice):
    from twinfs.search import first_person

    add(memory, alice, chat("c1", MOVE) + [PORTO])
    space = memory.space(alice)
    assert space.speakers() == ["Alice Chen", "Assistant"]  # from messages only; the document has no speaker
    speakers = (*space.speakers(), "Bob Stone")
    alice_chen = frozenset({"Alice Chen"})
    assert first_person("Where does Alice live now?", speakers) == ("Where does I live now?", alice_chen)
    assert first_person("What is Alice Chen's cat called?", speakers) == ("What is my cat called?", alice_chen)
    assert first_person("Did Chen say she liked her flat? Ask her.", speakers) == \
        ("Did I say I liked my flat? Ask me.", alice_chen)
    assert first_person("What did Alice tell Bob about his job?", speakers) == \
        ("What did I tell I about his job?", frozenset({"Alice Chen", "Bob Stone"}))  # whose "his": not known
    assert first_person("What did the Assistant suggest?", speakers) == ("What did the Assistant suggest?", frozenset())
    assert first_person("Is Alicetown far? Ask her.", speakers) == ("Is Alicetown far? Ask her.", frozenset())
    with_will = (*speakers, "Will")
    assert first_person("Will Alice move? What did Will say?", with_will) == \
        ("Will I move? What did I say?", frozenset({"Alice Chen", "Will"}))  # the opening "Will" asks
    found = memory.search(alice, SearchRequest(query="What is Alice's cat called?", fast=True))
    assert found.hits and "Miso" in found.hits[0].text
    assert memory.search(alice, SearchRequest(query="Where does Alice live?", fast=True)).hits[0].turns[0] == "msg-001"

    space.state._many("DELETE FROM speakers", [()])  # a vault landed before speakers were recorded
    space._speakers = None
    assert space.speakers() == ["Alice Chen", "Assistant"]  # read once from its passages


def test_the_turns_of_whom_a_question_names_are_lifted_in_the_meaning_lane(memory, alice):
    from twinfs.index import Bounds
    from twinfs.search import SPEAKER_LIFT, first_person, meaning_lane

    said = [("bob", "Bob Stone", "I've been learning to play the cello."),
            ("alice", "Alice Chen", "I'm learning the cello, on Thursday evenings.")]
    add(memory, alice, [{"id": who, "kind": "message", "conversation": who, "role": "user", "name": name, "text": text,
                         "at": f"2026-10-0{n}T10:00:00Z"} for n, (who, name, text) in enumerate(said, 1)])
    space = memory.space(alice)
    question = "What instrument is Alice learning?"
    asked, named = first_person(question, tuple(space.speakers()))
    assert named == {"Alice Chen"}
    bounds = Bounds(type="passage")
    plain = {space.vault.read(path).split("^")[-1].strip(): score
             for _, path, score in space.meaning.search(asked, bounds, 10)}
    assert plain["bob"] > plain["alice"]  # Bob's words are closer to the question
    lifted = [(space.vault.read(path).split("^")[-1].strip(), score)
              for _, path, score in meaning_lane(space, question, bounds)]
    assert [who for who, _ in lifted] == ["alice", "bob"]  # but it asks about Alice
    assert dict(lifted) == pytest.approx({"alice": plain["alice"] + SPEAKER_LIFT, "bob": plain["bob"]})
    assert memory.search(alice, SearchRequest(query=question, fast=True)).hits[0].turns == ["alice"]
    found = memory.search(alice, SearchRequest(query="What instrument is Bob learning?", fast=True))
    assert found.hits[0].turns == ["bob"]


def test_an_edit_supersedes_and_is_accepted_until_it_lands(memory, alice):
    add(memory, alice, chat("c1", MOVE))
    edited = chat("c1", MOVE)[2:]
    edited[0]["text"] = "My dog Pepper loves the beach at Cascais."
    res = add(memory, alice, edited, wait=False)
    assert res.phases["msg-003"] in (Phase.accepted, Phase.landed)
    memory.wait(alice, ["msg-003"])
    assert memory.status(alice, StatusRequest(ids=["msg-003", res.event])).phases == {
        "msg-003": Phase.landed, res.event: Phase.landed}
    hits = memory.search(alice, SearchRequest(query="dog Pepper beach", fast=True)).hits
    assert "Pepper" in hits[0].text and "Miso" not in hits[0].text
    assert memory.search(alice, SearchRequest(query="Miso", scope="passages/")).found == 0
    same = add(memory, alice, edited, wait=False)  # the same content again changes nothing
    assert same.phases["msg-003"] == Phase.landed


def test_status_of_items_events_and_unknowns(memory, alice):
    res = add(memory, alice, chat("c1", MOVE))
    phases = memory.status(alice, StatusRequest(ids=["msg-001", res.event, "nope-404"])).phases
    assert phases == {"msg-001": Phase.landed, res.event: Phase.landed, "nope-404": Phase.unknown}
    from twinfs import EndUser

    stranger = EndUser(org="acme", project="app", account="nobody")
    assert memory.status(stranger, StatusRequest(ids=["msg-001"])).phases == {"msg-001": Phase.unknown}
    with pytest.raises(NotFound, match="no memory for end user 'nobody' yet"):
        memory.search(stranger, SearchRequest(query="x"))


def test_grep_and_read(memory, alice):
    add(memory, alice, chat("c1", MOVE) + [PORTO])
    g = memory.grep(alice, GrepRequest(pattern="lisbon"))
    assert g.found >= 2 and all(line.path.startswith("passages/") for line in g.lines)
    assert any("moved to Lisbon" in line.text for line in g.lines)
    r = memory.grep(alice, GrepRequest(pattern=r"Day \d+:", regex=True, scope="passages/memory/documents"))
    assert [line.text.split(":")[0] for line in r.lines] == ["Day 1", "Day 2"]
    dated = memory.grep(alice, GrepRequest(pattern="Lisbon", after="2026-10-02"))
    assert {line.path.split("/")[2] for line in dated.lines} == {"documents"}
    with pytest.raises(Invalid, match="pattern"):
        memory.grep(alice, GrepRequest(pattern="([a-z", regex=True))
    first = g.lines[0]
    content = memory.read(alice, first.path).content
    assert content.split("\n")[first.line - 1] == first.text
    with pytest.raises(NotFound):
        memory.read(alice, "passages/memory/messages/th_0000000000000000/p_0001.md")


@pytest.mark.parametrize("bad", ["../../keys.json", "/etc/passwd", ".git/config", ".twin/state.sqlite",
                                 "passages/../../acme.app.bob/items", "items/../.inbox"])
def test_read_refuses_paths_that_leave_memory(memory, alice, bad):
    add(memory, alice, chat("c1", MOVE))
    with pytest.raises(Invalid):
        memory.read(alice, bad)


def test_reindex_rebuilds_from_files_and_embeds_only_what_changed(memory, alice):
    add(memory, alice, chat("c1", MOVE) + [PORTO])
    space = memory.space(alice)
    again = memory.reindex(alice)
    assert again["passages"] == 2 and again["changed"] == 0 and again["embedded"] == 0
    passage = next(space.root.glob("passages/memory/messages/*/p_0001.md"))
    passage.write_text(passage.read_text().replace("My cat Miso", "My parrot Kiwi"))
    edited = memory.reindex(alice)
    assert edited["changed"] == 1 and edited["embedded"] == 1  # one turn's segment changed
    assert "Kiwi" in memory.search(alice, SearchRequest(query="parrot", fast=True)).hits[0].text
    import shutil

    space.close()
    shutil.rmtree(space.root / ".twin")
    rebuilt = memory.reindex(alice)
    assert rebuilt["passages"] == 2 and rebuilt["changed"] == 2
    assert memory.status(alice, StatusRequest(ids=["msg-001", "doc-porto"])).phases == {
        "msg-001": Phase.landed, "doc-porto": Phase.landed}
    assert memory.search(alice, SearchRequest(query="boat tour", fast=True)).hits[0].turns == ["doc-porto"]


def test_many_turns_make_many_passages_and_each_is_found(memory, alice):
    lines = [(f"t{i}", "user" if i % 2 == 0 else "assistant",
              f"Note {i}: the code word for box {i} is {w}.") for i, w in
             enumerate(["apple", "banana", "cherry", "damson", "elder", "fig", "grape", "hazel"] * 6)]
    add(memory, alice, chat("c2", lines))
    assert len(list(memory.space(alice).root.glob("passages/memory/messages/*/*.md"))) >= 2
    hits = memory.search(alice, SearchRequest(query="code word for box 45", fast=True)).hits
    assert "t45" in hits[0].turns


def test_read_before_a_day_shows_the_file_as_git_held_it(memory, alice, monkeypatch):
    from twinfs.models import ReadRequest

    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-01-01T12:00:00+00:00")
    add(memory, alice, chat("c1", MOVE))
    monkeypatch.delenv("GIT_COMMITTER_DATE")
    add(memory, alice, chat("c1", MOVE + [("msg-004", "assistant", "Try earplugs for the tram.")]))
    path = memory.search(alice, SearchRequest(query="tram", fast=True)).hits[0].path
    now = memory.read(alice, ReadRequest(path=path)).content
    then = memory.read(alice, ReadRequest(path=path, before="2026-06-01")).content
    assert "msg-004" in now and "msg-004" not in then and "msg-003" in then
    with pytest.raises(NotFound, match="before 2025-12-01"):
        memory.read(alice, ReadRequest(path=path, before="2025-12-01"))


def test_the_words_index_keeps_few_segments_and_loses_nothing(tmp_path):
    from twinfs.index import Bounds, Doc
    from twinfs.index.words import MAX_SEGMENTS, WordIndex

    index = WordIndex(tmp_path)
    for i in range(12):  # one commit a landing
        index.apply([Doc(id=f"p{i}", path=f"passages/p{i}.md", thread="th", type="passage",
                         text=f"the tram to Belem number {i}", start=None, end=None, hash=str(i))], [])
        with index.ix("passage").reader() as reader:
            assert len(reader.leaf_readers()) <= MAX_SEGMENTS
    index.apply([], ["p3"])
    found = {doc for doc, _, _ in index.search("tram Belem", Bounds(type="passage"))}
    assert found == {f"p{i}" for i in range(12)} - {"p3"}


def test_a_commit_merges_a_bounded_number_of_docs_and_the_later_lane_merges_the_rest(tmp_path, embedder,
                                                                                      monkeypatch):
    """A merge costs ~1 ms a passage: a landing merges at most LAND_MERGE docs, segments of CAP docs are merged no
    more, and the later lane does the merges the tiers still want once adds pause — losing no doc."""
    from twinfs.index import Bounds, Doc
    from twinfs.index import words as words_module
    from twinfs.index.words import WordIndex, plan

    assert plan([2000, 200, 60, 50], cap=10_000) == [1, 2, 3]  # the run of smallest that weighs a quarter
    assert plan([2000, 200, 60, 50], cap=10_000, most=150) == [2, 3]  # at most 150 docs: the biggest waits
    assert plan([20_000, 2000, 200, 60, 50], cap=10_000) == [2, 3, 4]  # a segment of CAP docs stays as it is
    assert plan([20_000, 30_000], cap=10_000) == []

    monkeypatch.setitem(words_module.LAND_MERGE, "passage", 4)
    index = WordIndex(tmp_path / "words")
    for i in range(30):  # one commit a landing, each of one doc: merges of up to 4 docs only
        index.apply([Doc(id=f"p{i}", path=f"passages/p{i}.md", thread="th", type="passage",
                         text=f"the tram to Belem number {i}", start=None, end=None, hash=str(i))], [])
    counts = sorted((seg.doc_count_all() for seg in index.ix("passage")._segments()), reverse=True)
    assert max(counts) <= 5 and len(counts) > words_module.MAX_SEGMENTS and index.untidy()
    index.tidy()
    counts = sorted((seg.doc_count_all() for seg in index.ix("passage")._segments()), reverse=True)
    assert len(counts) <= words_module.MAX_SEGMENTS and sum(counts) == 30 and not index.untidy()
    found = {doc for doc, _, _ in index.search("tram Belem", Bounds(type="passage"))}
    assert found == {f"p{i}" for i in range(30)}
    index.close()


def test_the_later_lane_merges_what_landings_left_once_adds_pause(memory, alice, monkeypatch):
    from twinfs.index import Bounds
    from twinfs.index import words as words_module

    monkeypatch.setitem(words_module.LAND_MERGE, "passage", 2)
    for i in range(12):  # a conversation each: a passage each, landed with merges of at most 2 docs
        add(memory, alice, chat(f"c{i}", [(f"m{i}", "user", f"the tram to Belem number {i}")]), wait=False)
    assert memory.idle(60)
    space = memory.space(alice)
    counts = [seg.doc_count_all() for seg in space.words.ix("passage")._segments()]
    assert not space.words.untidy() and len(counts) <= words_module.MAX_SEGMENTS and sum(counts) == 12
    assert len(space.words.search("tram Belem", Bounds(type="passage"))) == 12



def test_merges_a_stopped_process_left_undone_are_done_after_the_vaults_first_open(settings, embedder, alice,
                                                                                  monkeypatch):
    """A process that stops before adds pause leaves the words lane's merges undone (at 100,000 passages, 487
    segments: a fast search took 98 ms instead of 30), and a new process saw none of it until an index was open:
    the first open of the vault has the later lane look, and merge once adds pause."""
    from twinfs import Memory
    from twinfs.index import Bounds
    from twinfs.index import words as words_module
    from twinfs.steps.land import passage_doc

    with Memory(settings, embedder=embedder) as memory:
        for i in range(10):
            add(memory, alice, chat(f"c{i}", [(f"m{i}", "user", f"the tram to Belem number {i}")]))
        vault = memory.space(alice).root
        words_folder = memory.space(alice).words.folder
    # what a process killed between landings and their merges leaves: each passage indexed by a commit of its own
    monkeypatch.setitem(words_module.LAND_MERGE, "passage", 0)
    left_behind = words_module.WordIndex(words_folder)
    for path in sorted((vault / "passages").rglob("*.md")):
        rel = path.relative_to(vault).as_posix()
        left_behind.apply([passage_doc(rel, path.read_text(encoding="utf-8"))], [])
    left_behind.close()
    folder = words_folder / "passage"
    left = len(list(folder.glob("*.seg")))
    assert left > words_module.MAX_SEGMENTS + 2
    monkeypatch.setitem(words_module.LAND_MERGE, "passage", 50)
    with Memory(settings, embedder=embedder) as memory:
        memory.status(alice, StatusRequest(ids=["m0"]))  # opens the vault; no search opens the words lane first
        assert memory.idle(60)
        space = memory.space(alice)
        counts = [seg.doc_count_all() for seg in space.words.ix("passage")._segments()]
        assert not space.words.untidy() and len(counts) <= words_module.MAX_SEGMENTS and sum(counts) == 10
        assert len(list(folder.glob("*.seg"))) < left
        assert len(space.words.search("tram Belem", Bounds(type="passage"))) == 10


@pytest.mark.parametrize("older", [
    "ALTER TABLE segments DROP COLUMN who",  # written before segments knew their speaker
    "UPDATE meta SET value = '1' WHERE key = 'segments'",  # segmented by an older rule
])
def test_an_index_of_an_older_format_is_segmented_again_at_start(settings, embedder, alice, older):
    import sqlite3
    from contextlib import closing

    from twinfs import Memory
    from twinfs.index import meaning

    with Memory(settings, embedder=embedder) as m:
        add(m, alice, chat("c1", MOVE))
    folder = settings.home / "users" / alice.dirname / ".twin" / "meaning"
    with closing(sqlite3.connect(folder / "vectors.sqlite")) as db:
        db.execute(older)
        db.commit()
        vectors = db.execute("SELECT count(*) FROM vectors").fetchone()[0]
    assert meaning.outdated(folder, embedder.variant)
    with Memory(settings, embedder=embedder) as m:
        # start-up opens no vault with nothing to do: mended when first opened
        assert meaning.outdated(folder, embedder.variant)
        m.status(alice, StatusRequest(ids=["msg-001"]))
        assert not meaning.outdated(folder, embedder.variant)
        with closing(sqlite3.connect(folder / "vectors.sqlite")) as db:
            assert {r[0] for r in db.execute("SELECT who FROM segments")} == {"Alice Chen", "Assistant"}
            assert db.execute("SELECT value FROM meta WHERE key = 'segments'").fetchone()[0] == meaning.SEGMENTS
            assert db.execute("SELECT count(*) FROM vectors").fetchone()[0] == vectors  # the same texts, kept
        found = m.search(alice, SearchRequest(query="What is Alice's cat called?", fast=True))
        assert found.hits[0].turns[0] == "msg-001"


def test_vectors_made_by_another_variant_of_the_embedder_are_made_again_when_first_opened(settings, embedder, alice):
    import sqlite3
    from contextlib import closing

    import numpy as np

    from twinfs import Memory
    from twinfs.index import meaning

    with Memory(settings, embedder=embedder) as m:
        add(m, alice, chat("c1", MOVE))
    folder = settings.home / "users" / alice.dirname / ".twin" / "meaning"
    with closing(sqlite3.connect(folder / "vectors.sqlite")) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'embedder'").fetchone()[0] == embedder.variant
        db.execute("UPDATE meta SET value = 'another' WHERE key = 'embedder'")
        db.execute("UPDATE vectors SET vec = zeroblob(1536)")  # what another variant made, as far as this one sees
        db.commit()
        segments = db.execute("SELECT count(*) FROM segments").fetchone()[0]
    assert meaning.outdated(folder, embedder.variant) and not meaning.outdated(folder, "another")
    with Memory(settings, embedder=embedder) as m:
        m.status(alice, StatusRequest(ids=["msg-001"]))
        assert not meaning.outdated(folder, embedder.variant)
        with closing(sqlite3.connect(folder / "vectors.sqlite")) as db:
            assert db.execute("SELECT value FROM meta WHERE key = 'embedder'").fetchone()[0] == embedder.variant
            assert db.execute("SELECT count(*) FROM segments").fetchone()[0] == segments
            vectors = [np.frombuffer(r[0], dtype="float32") for r in db.execute("SELECT vec FROM vectors")]
        assert vectors and all(abs(float(np.linalg.norm(v)) - 1) < 1e-4 for v in vectors)  # embedded again
        found = m.search(alice, SearchRequest(query="What is Alice's cat called?", fast=True))
        assert found.hits[0].turns[0] == "msg-001"
