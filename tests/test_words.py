"""The words lane's numpy scorer (twinfs/index/bm25.py) against Whoosh's own searcher.search, on real Whoosh
indexes of several segments with deleted docs."""
from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime, timedelta

import pytest
from whoosh import query as Q

from twinfs.index import Bounds, Doc
from twinfs.index import words as words_module
from twinfs.index.bm25 import Scorer, postings_blocks
from twinfs.index.words import WordIndex

VOCAB = ["walk", "dog", "park", "rain", "coffee", "sister", "moved", "berlin", "guitar", "lesson", "paint", "garden",
         "trip", "paris", "bake", "bread", "cat", "vet", "bill", "rent", "job", "interview", "run", "marathon", "book",
         "club", "movie", "night", "friend", "birthday", "cake", "beach", "swim", "lake", "hike", "mountain", "snow",
         "ski", "car", "repair", "bike", "ride", "train", "work", "office", "meeting"]
T0 = datetime(2024, 1, 1, tzinfo=UTC)


def text(rng: random.Random) -> str:
    # a skewed choice, so a few words sit in most docs (the case the scorer is for) and lengths vary widely
    n = rng.choice((1, 2, 3, 5, 8, 13, 30, 70))
    return " ".join(VOCAB[min(int(rng.expovariate(0.12)), len(VOCAB) - 1)] for _ in range(n))


def doc(rng: random.Random, i: int, type: str) -> Doc:
    end = T0 + timedelta(days=rng.randrange(365))
    words = "walk dog park" if i % 17 == 0 else text(rng)  # the same text in many docs: exact ties
    return Doc(id=f"{type}-{i}", path=f"{type}s/{rng.choice('abc')}/{i}.md", thread=rng.choice("xy"), type=type,
               text=words, start=end - timedelta(hours=1), end=end, hash=str(i))


@pytest.fixture(scope="module")
def words(tmp_path_factory):
    """Both types, over several commits that merge nothing (each keeps its segment), with deletions and
    replacements landing in the older segments."""
    rng = random.Random(13)
    wi = WordIndex(tmp_path_factory.mktemp("words"))
    n = 0
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(words_module, "TIER", 0)  # no run of segments ever weighs enough to be merged
        patch.setattr(words_module, "MAX_SEGMENTS", 100)
        for batch in (240, 50, 11):
            docs = [doc(rng, n + i, type) for i in range(batch) for type in ("passage", "record")]
            n += batch
            wi.apply(docs, [])
            gone = [f"{type}-{rng.randrange(n)}" for _ in range(batch // 4) for type in ("passage", "record")]
            again = [doc(rng, rng.randrange(n), "passage") for _ in range(batch // 8)]
            wi.apply(again, gone)
    yield wi
    wi.close()


def segments(wi: WordIndex, type: str):
    with wi.ix(type).searcher() as s:
        return [(ss.reader().doc_count_all(), ss.reader().has_deletions()) for ss, _ in s.leaf_searchers()]


def test_the_index_under_test_has_several_segments_with_deletions(words):
    for type in ("passage", "record"):
        segs = segments(words, type)
        assert len(segs) >= 3 and any(deleted for _, deleted in segs), segs


def question(rng: random.Random) -> str:
    picks = [rng.choice(VOCAB) for _ in range(rng.randrange(1, 9))]
    if rng.random() < 0.2:
        picks.append("zeppelin")  # in no doc
    return " ".join(picks)


def bounds(rng: random.Random) -> Bounds:
    day = lambda: T0 + timedelta(days=rng.randrange(365))  # noqa: E731
    return Bounds(scope=rng.choice((None, None, "passages/a", "records/b")),
                  before=rng.choice((None, day())), after=rng.choice((None, None, day())),
                  type=rng.choice((None, "passage", "record")))


@pytest.mark.slow
def test_the_numpy_scorer_ranks_and_scores_as_whoosh_does(words):
    rng = random.Random(7)
    seen = exact = 0
    for _ in range(300):
        q, b, limit = question(rng), bounds(rng), rng.choice((1, 3, 10, 50, 1000))
        fast, slow = words.search(q, b, limit), words.search_whoosh(q, b, limit)
        assert [h[:2] for h in fast] == [h[:2] for h in slow], (q, b, limit)
        assert all(abs(f[2] - s[2]) <= 1e-5 for f, s in zip(fast, slow, strict=False)), (q, b, limit)
        exact += sum(f[2] == s[2] for f, s in zip(fast, slow, strict=False))
        seen += len(fast)
    assert seen > 3000  # the questions matched plenty
    assert exact == seen  # to the bit: the same operations in the same order


def test_ties_at_the_cut_keep_the_lower_docnums(words):
    """"walk dog park" is the whole text of every 17th doc: their scores tie exactly, and a limit cuts them."""
    slow = words.search_whoosh("walk dog park", Bounds(), 1000)
    scores = [h[2] for h in slow]
    tie = max(set(scores), key=scores.count)
    first, many = scores.index(tie), scores.count(tie)
    assert many > 5
    for limit in (first + 1, first + many - 1):
        assert words.search("walk dog park", Bounds(), limit) == slow[:limit]


def test_postings_read_a_block_at_a_time_match_the_matchers_own_walk(words):
    """Fails if Whoosh's W3LeafMatcher internals that postings_blocks reads change."""
    with words.ix("passage").searcher() as s:
        for ss, _ in s.leaf_searchers():
            reader = ss.reader()
            for term in (b"walk", b"dog", b"offic"):
                if ("text", term) not in reader:
                    continue
                walk = reader.postings("text", term)
                expected = []
                while walk.is_active():
                    expected.append((walk.id(), walk.weight()))
                    walk.next()
                m = reader.postings("text", term)
                m = getattr(m, "child", m)  # a segment with deletions wraps it in a FilterMatcher
                got = [(int(i), float(w)) for ids, ws in postings_blocks(m) for i, w in zip(ids, ws, strict=False)]
                # the walk skips deleted docs; the blocks hold them (the scorer drops them after)
                assert [g for g in got if not reader.is_deleted(g[0])] == expected


def test_lengths_read_at_once_match_whoosh_s_own_per_doc_decoding(words, tmp_path):
    """Fails if the lengths column's internals that _read_lengths reads change; the last docs with empty text
    are the trailing run Whoosh writes no bytes for."""
    wi = WordIndex(tmp_path / "w")
    rng = random.Random(3)
    wi.apply([doc(rng, i, "passage") for i in range(30)]
             + [dataclasses.replace(doc(rng, 30 + i, "passage"), text="") for i in range(3)], [])
    for index in (words, wi):
        with index.ix("passage").searcher() as s:
            for ss, _ in s.leaf_searchers():
                reader = ss.reader()
                expected = [reader.doc_field_length(d, "text") or 0 for d in range(reader.doc_count_all())]
                assert Scorer("text")._read_lengths(reader).tolist() == expected
    assert expected[-3:] == [0, 0, 0] and min(expected[:-3]) > 0
    wi.close()


def test_lengths_are_kept_only_for_live_segments(tmp_path):
    rng = random.Random(3)
    wi = WordIndex(tmp_path)
    for batch in (30, 5):
        wi.apply([doc(rng, i + batch * 100, "passage") for i in range(batch)], [])
    assert wi.search("walk dog", Bounds(), 10) == wi.search_whoosh("walk dog", Bounds(), 10)
    scorer = wi._scorers["passage"]
    assert len(scorer._segments) == 2
    wi.compact()  # one segment now: the two old ones are gone
    # (a merge sums the byte-quantised lengths, so the average field length, and the scores, move a little)
    assert wi.search("walk dog", Bounds(), 10) == wi.search_whoosh("walk dog", Bounds(), 10)
    with wi.ix("passage").searcher() as s:
        live = {ss.reader().segment().segment_id() for ss, _ in s.leaf_searchers()}
    assert set(scorer._segments) == live and len(live) == 1
    wi.apply([Doc(id="new", path="passages/a/new.md", thread="x", type="passage", text="zeppelin walk", start=None,
                  end=None, hash="n")], ["passage-3000"])
    found = wi.search("zeppelin walk", Bounds(), 100)  # the kept searcher gives way to one that sees the commit
    assert found[0][0] == "new" and "passage-3000" not in [h[0] for h in found]
    assert found == wi.search_whoosh("zeppelin walk", Bounds(), 100)
    with wi.ix("passage").searcher() as s:  # a searcher of its own: each doc once, none merged away found again
        assert len(found) == s.search(Q.Or([Q.Term("text", "walk"), Q.Term("text", "zeppelin")]), limit=None
                                      ).scored_length()
    wi.close()


def test_posting_lists_kept_give_the_same_scores_and_see_deletions_and_new_segments(tmp_path, monkeypatch):
    from twinfs.index import bm25

    rng = random.Random(5)
    wi = WordIndex(tmp_path)
    wi.apply([doc(rng, i, "passage") for i in range(200)], [])
    first = wi.search("walk dog park", Bounds(), 50)
    scorer = wi._scorers["passage"]
    assert scorer._postings and first == wi.search("walk dog park", Bounds(), 50)  # read once, then kept
    gone = first[0][0]
    wi.apply([doc(rng, 900, "passage")], [gone])  # a deletion in the kept segment, and a segment more
    again = wi.search("walk dog park", Bounds(), 50)
    assert gone not in [h[0] for h in again] and again == wi.search_whoosh("walk dog park", Bounds(), 50)
    with wi.ix("passage").searcher() as s:
        live = {ss.reader().segment().segment_id() for ss, _ in s.leaf_searchers()}
    wi.compact()
    wi.search("walk dog park", Bounds(), 50)
    assert not {key[0] for key in scorer._postings} & live  # the merged-away segments' lists are dropped
    monkeypatch.setattr(bm25, "POSTINGS_KEPT", 1)  # kept up to a budget: the newest one alone here
    monkeypatch.setattr(bm25, "KEPT_PER_DOC", 0)
    assert wi.search("rain coffee", Bounds(), 50) == wi.search_whoosh("rain coffee", Bounds(), 50)
    assert len(scorer._postings) == 1 and scorer._kept == sum(a.nbytes + b.nbytes
                                                              for a, b in scorer._postings.values())
    wi.close()


def test_the_old_path_serves_what_the_scorer_does_not(words, tmp_path):
    empty = WordIndex(tmp_path / "none")
    with empty.ix("passage").searcher() as s:
        assert not Scorer("text").supports(s)  # nothing indexed yet: an in-memory empty index, not W3 segments
    assert empty.search("walk", Bounds(), 10) == []
    with words.ix("passage").searcher() as s:
        assert Scorer("text").supports(s)
        assert not Scorer("path").supports(s)  # an ID field keeps no lengths


def test_docs_without_a_stored_end_are_bounded_through_whoosh_s_filter(tmp_path):
    rng = random.Random(5)
    wi = WordIndex(tmp_path)
    wi.apply([doc(rng, i, "passage") for i in range(40)], [])
    writer = wi.ix("passage", write=True).writer()
    writer.add_document(id="bare", path="passages/a/bare.md", type="passage", text="walk dog walk")  # no end
    writer.commit()
    for b in (Bounds(before=T0 + timedelta(days=200)), Bounds(after=T0 + timedelta(days=100), scope="passages/a"),
              Bounds(scope="passages/a")):
        fast = wi.search("walk dog", b, 100)
        assert fast == wi.search_whoosh("walk dog", b, 100) and fast
        assert ("bare" in [h[0] for h in fast]) == (b.before is None and b.after is None)
    wi.close()


def test_after_a_commit_the_kept_searcher_opens_only_new_segments_and_sees_every_change(tmp_path):
    """Opening a segment's reader copies its files out of their mmap: after a commit the kept searcher keeps the
    readers of the segments still there (told their new deletions), opens only the new ones, closes those merged
    away, and finds what a searcher opened afresh finds; a writer finds the ids it replaces through it."""
    rng = random.Random(7)
    wi = WordIndex(tmp_path)
    wi.apply([doc(rng, i, "passage") for i in range(120)], [])
    wi.apply([doc(rng, i, "passage") for i in range(120, 160)], [])

    def readers() -> dict:
        with wi.searcher("passage") as s:
            return {r.segment().segment_id(): r for r, _ in s.ixreader.leaf_readers()}

    def fresh(q: str) -> list:
        with wi.ix("passage").searcher(weighting=wi._scorers["passage"].weighting) as s:
            return wi._search_whoosh(s, wi.terms(q), Bounds(), 50)

    before = readers()
    assert len(before) == 2
    first = wi.search("walk dog park", Bounds(), 50)
    gone, replaced = first[0][0], first[1][0]
    new = Doc(id=replaced, path="passages/a/new.md", thread="x", type="passage", text="sailing lesson",
              start=T0, end=T0, hash="new")
    wi.apply([new, doc(rng, 900, "passage")], [gone])  # deletions in kept segments, a replacement, a new doc
    after = readers()
    kept = set(before) & set(after)
    assert kept and all(after[k] is before[k] for k in kept)  # the same reader objects, not opened again
    assert len(set(after) - set(before)) >= 1
    for q in ("walk dog park", "sailing lesson", "rain coffee"):
        assert wi.search(q, Bounds(), 50) == fresh(q), q
    found = [h[0] for h in wi.search("walk dog park sailing lesson", Bounds(), 200)]
    assert gone not in found and found.count(replaced) == 1
    assert wi.ix("passage").doc_count() == 160  # 160 - 1 deleted + 1 new; the replacement replaced
    wi.compact()  # every segment merged into one: the old readers are closed
    merged = readers()
    assert len(merged) == 1 and all(r.is_closed for r in after.values())
    assert wi.search("walk dog park", Bounds(), 50) == fresh("walk dog park")
    wi.close()


def test_a_searcher_opened_as_a_commit_merges_segments_away_reads_the_contents_again(tmp_path, monkeypatch):
    """A search reads the index's table of contents, then opens the segments it names; a commit that merged
    those segments in between has deleted their files (a sync's settle while a search ran, seen in CI): the
    searcher reads the contents again, as Whoosh's own FileIndex.reader does, instead of failing."""
    rng = random.Random(11)
    wi = WordIndex(tmp_path)
    wi.apply([doc(rng, i, "passage") for i in range(60)], [])
    wi.apply([doc(rng, i, "passage") for i in range(60, 90)], [])
    ix = wi.ix("passage")
    stale = ix._read_toc()  # the contents as a search read them …
    assert len(stale.segments) == 2
    wi.compact()  # … before a commit merged both segments into one and deleted their files
    read = ix._read_toc
    tocs = iter([stale])
    monkeypatch.setattr(ix, "_read_toc", lambda: next(tocs, None) or read())
    wi._searchers.pop("passage", None)  # no kept searcher: every segment is opened
    found = wi.search("walk dog park", Bounds(), 50)
    assert found and len(found) == len({h[0] for h in found})
    with wi.searcher("passage") as s:
        assert len(list(s.ixreader.leaf_readers())) == 1
    wi.close()


def test_a_searcher_whose_contents_file_a_commit_replaced_reads_the_newest(tmp_path, monkeypatch):
    """The table of contents itself can go between Whoosh listing it and opening it (a commit wrote the next
    generation and deleted this one: `_MAIN_2.toc` not found, a 500 to a search in CI): read again, not failed."""
    rng = random.Random(12)
    wi = WordIndex(tmp_path)
    wi.apply([doc(rng, i, "passage") for i in range(40)], [])
    ix = wi.ix("passage")
    read = ix._read_toc
    gone = iter([FileNotFoundError(2, "No such file or directory", "_MAIN_2.toc")])

    def listed_then_deleted():
        if (error := next(gone, None)) is not None:
            raise error
        return read()

    monkeypatch.setattr(ix, "_read_toc", listed_then_deleted)
    wi._searchers.pop("passage", None)
    assert wi.search("walk dog park", Bounds(), 50)
    wi.close()


def test_a_big_index_s_most_frequent_terms_are_decoded_once_after_it_opens(tmp_path, monkeypatch):
    from twinfs.index import bm25

    rng = random.Random(9)
    wi = WordIndex(tmp_path)
    wi.apply([doc(rng, i, "passage") for i in range(300)], [])
    wi.apply([doc(rng, i, "passage") for i in range(300, 420)], [f"passage-{i}" for i in range(0, 300, 7)])
    wi.close()
    wi = WordIndex(tmp_path)
    monkeypatch.setattr(words_module, "WARM_FROM", 1000)
    assert wi.warm() == 0 and not wi._searchers  # a small index: its lists are decoded when asked; none opened
    monkeypatch.setattr(words_module, "WARM_FROM", 100)  # as if it had grown
    monkeypatch.setattr(bm25, "POSTINGS_KEPT", 2 * 8 * 1500)  # half of it: 1,500 postings of 8 bytes
    monkeypatch.setattr(bm25, "KEPT_PER_DOC", 8)  # under POSTINGS_KEPT here
    decoded = wi.warm()
    scorer = wi._scorers["passage"]
    kept = dict(scorer._postings)
    assert decoded == len(kept) > 3 and scorer._kept <= 8 * 1500
    with wi.ix("passage").searcher() as s:
        docs = {}  # (segment, term) -> its doc frequency, as Whoosh reads it
        for ss, _ in s.leaf_searchers():
            reader = ss.reader()
            for btext, info in reader.iter_field("text"):
                if not info.is_inlined():
                    docs[reader.segment().segment_id(), btext] = reader.doc_frequency("text", btext)
    assert all(len(ids) == docs[key] for key, (ids, _) in kept.items())  # deleted docs are in a list too
    assert min(docs[key] for key in kept) >= max(d for key, d in docs.items() if key not in kept)  # the most docs
    common = max(kept, key=lambda key: docs[key])[1]
    read = []
    monkeypatch.setattr(bm25, "postings_blocks", lambda m: read.append(m) or postings_blocks(m))
    assert wi.search(common.decode(), Bounds(), 50) == wi.search_whoosh(common.decode(), Bounds(), 50)
    assert len(read) == sum(term == common and key not in kept for key in docs for term in [key[1]])
    assert wi.warm() == 0  # once after an open
    monkeypatch.setattr(bm25, "KEPT_PER_DOC", 1000)  # past POSTINGS_KEPT: the budget grows with the index
    wi.search("walk", Bounds(), 5)
    with wi.ix("passage").searcher() as s:
        assert scorer.budget == 1000 * s.doc_count_all()
    wi.close()
