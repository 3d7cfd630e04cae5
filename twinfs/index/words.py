"""The words lane: a Whoosh index (BM25F, stemming) under .twin/whoosh."""
from __future__ import annotations

import threading
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from whoosh import index as whoosh_index
from whoosh import query as Q
from whoosh.analysis import StemmingAnalyzer
from whoosh.collectors import FilterCollector, TopCollector
from whoosh.fields import ID, NUMERIC, STORED, TEXT, Schema

from .. import faults
from . import Bounds, Doc, keyfield
from .bm25 import Scorer

SCHEMA = Schema(
    id=ID(stored=True, unique=True),
    path=ID(stored=True),
    thread=ID(stored=True),
    type=ID(stored=True),
    start=NUMERIC(stored=True, bits=64, signed=True),
    end=NUMERIC(stored=True, bits=64, signed=True),
    hash=STORED,
    text=TEXT(analyzer=StemmingAnalyzer(), phrase=False),
    keys=keyfield.FIELD,  # a passage's keys (passage_keys.py)
)
FAR_PAST, FAR_FUTURE = -(2**62), 2**62
# A search walks every segment: with the 7-9 small ones Whoosh's own policy left (a commit adds one), a search
# took twice as long as with one or two. Merging every segment but the largest kept two, but rewrote a share of
# the whole index at each commit: in a conversation of 4,000 turns a landing spent 110 ms merging. Tiers keep
# both low: a run of the smallest segments is merged once together it weighs a quarter of the next bigger one
# (so each passage is rewritten a few times in its life), and never more than MAX_SEGMENTS stay.
TIER = 4
MAX_SEGMENTS = 4
# A merge costs ~1 ms a passage, and by the tiers alone a landing in a vault of 100,000 now and then merged all of
# them: a commit of docs merges at most LAND_MERGE docs (a 3-passage landing on an untidy 10,000-passage copy: 570-700
# ms at 500, 21-25 ms at 50), the later lane the rest once adds pause (`tidy`). A segment of CAP docs is merged no
# more save by `compact` (a search walks one more segment per CAP docs: 24 cost a 10,000-passage search 5 ms at p50).
LAND_MERGE = {"passage": 50, "record": 250}  # records are one line: a fifth of a passage's postings or less
CAP = {"passage": 10_000, "record": 50_000}
# A question's terms are decoded from Whoosh's posting lists the first time they are asked (~7 ms a common word's
# ~400 blocks at 100,000 passages; the first questions after an open paid 20-45 ms): once an index of WARM_FROM docs
# or more is open, the later lane decodes its most frequent terms' lists, up to half of bm25.KEPT_PER_DOC (`warm`).
WARM_FROM = 20_000
TOC_TRIES = 10  # a searcher reads the index's contents again so often when a commit merged a segment away


def plan(counts: list[int], cap: int, most: int | None = None) -> list[int]:
    """Which segments, by their doc counts, a commit merges into its new one (their indexes): of those under
    `cap` docs, the run of smallest that together weigh a TIER-th of the next bigger one, so that no more than
    MAX_SEGMENTS stay under `cap`; the biggest of them left out while the run weighs more than `most` docs."""
    small = sorted((i for i, c in enumerate(counts) if c < cap), key=lambda i: counts[i], reverse=True)
    start, tail = len(small), 0
    for k in range(len(small) - 1, 0, -1):
        tail += counts[small[k]]
        if tail * TIER >= counts[small[k - 1]]:
            start = k - 1
    merged = small[min(start, MAX_SEGMENTS - 1):]  # the new segment makes one more
    if most is not None:
        while merged and sum(counts[i] for i in merged) > most:
            merged = merged[1:]
    return merged


def merge_tiers(cap: int, most: int | None = None):
    """A Whoosh merge policy (see plan): the segments to keep as they are; the others are merged into the new one."""
    def policy(writer, segments):
        from whoosh.reading import SegmentReader

        merged = set(plan([seg.doc_count_all() for seg in segments], cap, most))
        for i in sorted(merged):
            reader = SegmentReader(writer.storage, writer.schema, segments[i])
            writer.add_reader(reader)
            reader.close()
        return [seg for i, seg in enumerate(segments) if i not in merged]
    return policy


def _ts(value) -> int | None:
    return None if value is None else int(value.timestamp())


TYPES = ("passage", "record")


class WordIndex:
    """One Whoosh index a type of doc: BM25 normalises by the average length over every doc of an index, so
    thousands of one-line records in the passages' index skewed their ranking (LoCoMo recall@5 0.77 -> 0.73)."""

    def __init__(self, folder: Path, read_only: bool = False):
        self.folder = folder
        self.read_only = read_only  # beside another owner: open what exists, never create or write
        self._ix: dict[str, Any] = {}  # type -> Whoosh FileIndex (untyped)
        self._lock = threading.Lock()
        self._analyzer = SCHEMA["text"].analyzer
        self._scorers = {type: Scorer("text") for type in TYPES}  # each keeps its live segments' field lengths
        self._keys_scorer = Scorer("keys")  # the passages' keys field, with the same searcher
        self._searchers: dict[str, tuple] = {}  # type -> (the index, its searcher)
        self._searching = {type: threading.Lock() for type in TYPES}  # a Whoosh searcher is not thread-safe
        self._warmed: set[str] = set()  # types whose frequent terms were decoded since this was opened

    def ix(self, type: str, write: bool = False):
        """The index of one type of doc. Only a write creates it: a search of a lane nothing was indexed in yet
        reads an empty one, and writes nothing (beside another owner, or on a full disk)."""
        with self._lock:
            if type not in self._ix:
                folder = self.folder / type
                if self.read_only or not write:
                    if not whoosh_index.exists_in(str(folder)):
                        from whoosh.filedb.filestore import RamStorage

                        return RamStorage().create_index(SCHEMA)  # nothing indexed yet: an empty lane
                    self._ix[type] = whoosh_index.open_dir(str(folder), readonly=self.read_only)
                    return self._ix[type]
                folder.mkdir(parents=True, exist_ok=True)
                if whoosh_index.exists_in(str(folder)):
                    self._ix[type] = whoosh_index.open_dir(str(folder))
                else:
                    self._ix[type] = whoosh_index.create_in(str(folder), SCHEMA)
            if write and not self.read_only and "keys" not in self._ix[type].schema.names():
                self._ix[type] = keyfield.add_field(self._ix[type])
            return self._ix[type]

    @contextmanager
    def searcher(self, type: str):
        """This type's searcher, kept open and brought up to date after a commit (fresh). One search at a time
        uses it."""
        with self._searching[type]:
            ix = self.ix(type)
            if type not in self._ix:  # nothing indexed yet: an empty in-memory index, not worth keeping
                with ix.searcher(weighting=self._scorers[type].weighting) as s:
                    yield s
                return
            kept, s = self._searchers.get(type, (None, None))
            if kept is not ix or not s.up_to_date():
                s = self._fresh(type, ix, s if kept is ix else None)
                self._searchers[type] = (ix, s)
            yield s

    def _fresh(self, type: str, ix, old):
        """A searcher of the index as its newest commit left it, keeping the old one's reader of each segment still
        there: opening a reader copies its files out of their mmap (Whoosh's BufferFile), 14-25 ms at 10,000 passages
        and more with each segment, paid by every landing (its lookups of the ids it replaces) and the first search
        after it. A commit adds a small segment (and merges a few): only those are opened, a kept reader told its
        deletions as of now. Not Whoosh's refresh: it added the old reader's segments to the new one's (found twice)."""
        from whoosh.reading import EmptyReader, MultiReader, SegmentReader
        from whoosh.searching import Searcher

        kept = {r.segment().segment_id(): r for r, _ in (old.ixreader.leaf_readers() if old is not None else [])
                if isinstance(r, SegmentReader)}
        for attempt in range(TOC_TRIES):
            readers, opened = [], []
            try:  # the contents file too may be gone: a commit replaced it since it was listed
                toc = ix._read_toc()
                for segment in toc.segments:
                    reader = kept.get(segment.segment_id())
                    if reader is None or reader.is_closed:
                        reader = SegmentReader(ix.storage, toc.schema, segment, generation=toc.generation)
                        opened.append(reader)
                    readers.append(reader)
                break
            except FileNotFoundError:  # merged away by a commit since the contents were read: read them again, as
                for reader in opened:  # Whoosh's own FileIndex.reader does
                    reader.close()
                if attempt == TOC_TRIES - 1:
                    raise
        for segment, reader in zip(toc.segments, readers, strict=True):
            if kept.pop(segment.segment_id(), None) is reader:  # the same files; the deletions are the segment's
                reader._segment = reader._perdoc._segment = segment  # (the reader and its per-doc reader read them)
                reader._gen = toc.generation
                reader.__dict__.pop("deleted_docs_set", None)  # a cached_property of the deletions read before
        for reader in kept.values():  # merged away: closed, their files no longer in use
            if not reader.is_closed:
                reader.close()
        reader = MultiReader(readers, generation=toc.generation) if readers else EmptyReader(toc.schema)
        return Searcher(reader, fromindex=ix, weighting=self._scorers[type].weighting)

    def close(self) -> None:
        for type in TYPES:
            with self._searching[type]:
                _, s = self._searchers.pop(type, (None, None))
                if s is not None:
                    s.close()
        with self._lock:
            for ix in self._ix.values():
                ix.close()
            self._ix.clear()
        self._warmed.clear()

    def hashes(self) -> dict[str, str]:
        """id -> content hash of everything indexed (to find what changed)."""
        out: dict[str, str] = {}
        for type in TYPES:
            with self.ix(type).searcher() as s:
                out.update({f["id"]: f.get("hash", "") for f in s.all_stored_fields()})
        return out

    def apply(self, upserts: list[Doc], deletes: list[str]) -> None:
        """Replace these docs, delete those ids. The caller is the end user's one writer."""
        for type in TYPES:
            self._apply(type, [d for d in upserts if d.type == type], deletes)

    def _apply(self, type: str, upserts: list[Doc], deletes: list[str]) -> None:
        if not upserts and not deletes:
            return
        writer = self.ix(type, write=True).writer(timeout=30)
        try:
            # the ids replaced or deleted, found by the kept searcher when it reads the segments this writer
            # starts from (Whoosh's update_document opens a reader of every segment for it: see _fresh)
            with self.searcher(type) as s:
                same = s.ixreader.generation() == writer.generation - 1
                for doc_id in [*deletes, *(d.id for d in upserts)]:
                    writer.delete_by_term("id", doc_id, searcher=s if same else None)
            for d in upserts:
                writer.add_document(id=d.id, path=d.path, thread=d.thread, type=d.type, text=d.text,
                                    start=_ts(d.start) if d.start else FAR_PAST,
                                    end=_ts(d.end) if d.end else FAR_PAST, hash=d.hash,
                                    **({"keys": d.keys} if d.keys else {}))
            faults.point("words")
            writer.commit(mergetype=merge_tiers(CAP[type], LAND_MERGE[type]))
        except BaseException:
            writer.cancel()
            raise

    def untidy(self) -> bool:
        """Whether the tiers want a merge that commits left (LAND_MERGE): two segments or more to merge."""
        return any(self._untidy(type) for type in TYPES)

    def _untidy(self, type: str) -> bool:
        """Asked without the writer too. Merges a stopped process left undone are so seen at the first open
        (owning wakes the later lane then): at 100,000 passages a build stopped before adds paused left 487
        segments, and a fast search took 98 ms instead of 30."""
        if self.read_only:
            return False
        counts = self._doc_counts(type)
        return counts is not None and len(plan(counts, CAP[type])) >= 2

    def _doc_counts(self, type: str) -> list[int] | None:
        """Each segment's docs (deleted ones too), None if there is no index. An index not open yet is read for
        its table of contents and not kept (so a reindex rebuilding the folder meanwhile is not held open here,
        and a vault opened for an add opens no searcher)."""
        with self._lock:
            ix = self._ix.get(type)
        try:
            if ix is None:
                folder = str(self.folder / type)
                if not whoosh_index.exists_in(folder):
                    return None
                ix = whoosh_index.open_dir(folder, readonly=True)  # its table of contents: no file stays open
            return [seg.doc_count_all() for seg in ix._segments()]
        except (OSError, whoosh_index.EmptyIndexError):
            return None  # the folder is being rebuilt

    def tidy(self) -> None:
        """The merges the tiers want that commits left, done now. The caller is the end user's one writer."""
        for type in TYPES:
            if self._untidy(type):
                writer = self.ix(type, write=True).writer(timeout=30)
                try:
                    writer.commit(mergetype=merge_tiers(CAP[type]))
                except BaseException:
                    writer.cancel()
                    raise

    def warm(self) -> int:
        """Decode the posting lists of each big index's most frequent terms (WARM_FROM), once after it is opened
        or has grown that big; one term at a time under the searcher's lock, so a search waits for one list at
        most. Returns how many lists were decoded."""
        decoded = 0
        for type in TYPES:
            if type in self._warmed:
                continue
            if sum(self._doc_counts(type) or [0]) < WARM_FROM:
                continue  # its searcher is not opened for this; looked at again once it has grown
            self._warmed.add(type)
            scorer = self._scorers[type]
            with self.searcher(type) as s:
                if not scorer.supports(s):
                    continue
                scorer.forget_gone(s)  # which sizes its budget
                wanted = scorer.frequent(s, scorer.budget // 2)
            for segment, btext in wanted:
                with self.searcher(type) as s:
                    decoded += scorer.warm(s, segment, btext)
        return decoded

    def compact(self) -> None:
        """Merge every segment into one, so deleted docs leave the files too (forget)."""
        for type in TYPES:
            writer = self.ix(type, write=True).writer(timeout=30)
            writer.commit(optimize=True)

    def _filter(self, bounds: Bounds):
        parts = []
        if bounds.scope:
            parts.append(Q.Prefix("path", bounds.scope))
        if bounds.before:
            parts.append(Q.NumericRange("end", None, _ts(bounds.before), endexcl=True))
        if bounds.after:
            parts.append(Q.NumericRange("end", _ts(bounds.after), None))
        return Q.And(parts) if parts else None

    def terms(self, text: str) -> list[str]:
        return list(dict.fromkeys(t.text for t in self._analyzer(text)))

    def search(self, text: str, bounds: Bounds, limit: int = 50, keys: bool = True) -> list[tuple[str, str, float]]:
        """(id, path, BM25 score) best first: Whoosh's own ranking, scored with numpy (bm25.py). A passage scores
        as the best of its text and its keys (keyfield.py) (`keys=False`: its text alone)."""
        terms = self.terms(text)
        if not terms:
            return []
        type = bounds.type or "passage"
        scorer = self._scorers[type]
        with self.searcher(type) as s:
            if not scorer.supports(s):
                return self._search_whoosh(s, terms, bounds, limit)
            scorer.forget_gone(s)
            allow = self._allowed(s, scorer, bounds)
            found = scorer.search(s, terms, limit, allow)
            if keys and type == "passage" and keyfield.searchable(s, self._keys_scorer):
                self._keys_scorer.forget_gone(s)
                found = keyfield.best_of(found, self._keys_scorer.search(s, terms, limit, allow), limit)
            out = []
            for docnum, score in found:
                fields = s.stored_fields(docnum)
                out.append((fields["id"], fields["path"], score))
            return out

    def _allowed(self, s, scorer: Scorer, bounds: Bounds) -> np.ndarray | None:
        """A bool a global docnum: may this search see it (None: every doc). Read from each segment's stored
        path and end, kept while it lives: Whoosh's own filter walked the NumericRange's terms in Python, 150-250
        ms a search of 10,000 passages or 30,000 records."""
        where = self._filter(bounds)
        if where is None:
            return None
        fields = scorer.stored(s, ("path", "end"))
        if fields is None:  # a doc without them (an index written before they were): Whoosh's filter
            allow = np.zeros(s.doc_count_all(), dtype=bool)
            allow[np.fromiter(s.docs_for_query(where), dtype=np.int64)] = True
            return allow
        allow = np.ones(s.doc_count_all(), dtype=bool)
        if bounds.scope:
            allow &= np.char.startswith(fields["path"], bounds.scope)
        if bounds.before:
            allow &= fields["end"] < _ts(bounds.before)
        if bounds.after:
            allow &= fields["end"] >= _ts(bounds.after)
        return allow

    def search_whoosh(self, text: str, bounds: Bounds, limit: int = 50, replace: int = 0
                      ) -> list[tuple[str, str, float]]:
        """The same search through Whoosh's own matchers and collector (the fallback; tests and bench/words.py
        hold the fast path to it)."""
        terms = self.terms(text)
        if not terms:
            return []
        with self.searcher(bounds.type or "passage") as s:
            return self._search_whoosh(s, terms, bounds, limit, replace)

    def _search_whoosh(self, s, terms: list[str], bounds: Bounds, limit: int, replace: int = 0
                       ) -> list[tuple[str, str, float]]:
        q = Q.Or([Q.Term("text", t) for t in terms])
        q.matcher_type = Q.Or.DEFAULT_MATCHER  # a tree of unions: Whoosh's default for an index under 5,000 docs
        # reads every posting into arrays first, 4.7 -> 3.7 ms a search on LoCoMo's read vaults
        # Whoosh's collector swaps in cheaper matchers every `replace` docs (its default 10), which dropped a doc
        # of the top 50 in 5 of 200 questions at 10,000 passages: 0 keeps every doc, as the numpy path does
        collector = TopCollector(limit, replace=replace)
        where = self._filter(bounds)
        if where is not None:
            collector = FilterCollector(collector, allow=where)
        s.search_with_collector(q, collector)
        return [(r["id"], r["path"], float(r.score)) for r in collector.results()]

    def frequencies(self, words: list[str], type: str = "passage") -> tuple[dict[str, int], int]:
        """How many docs of a type hold each word (as the analyzer stems it), and how many docs there are."""
        with self.searcher(type) as s:
            out = {}
            for word in words:
                terms = self.terms(word)
                out[word] = max((s.doc_frequency("text", t) for t in terms), default=0)
            return out, s.doc_count()

    def spans(self, type: str, ids: list[str]) -> dict[str, tuple[datetime, datetime]]:
        """id -> (first, last) time said, for these docs of one type."""
        out = {}
        with self.searcher(type) as s:
            for doc_id in ids:
                fields = s.document(id=doc_id)
                if fields and fields.get("start", FAR_PAST) != FAR_PAST:
                    out[doc_id] = (datetime.fromtimestamp(fields["start"], UTC),
                                   datetime.fromtimestamp(fields.get("end", fields["start"]), UTC))
        return out

    def count(self) -> int:
        return sum(self.ix(type).doc_count() for type in TYPES)
