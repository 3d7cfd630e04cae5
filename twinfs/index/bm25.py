"""Whoosh's own BM25F scores for an Or of terms, computed with numpy a block of postings at a time.

Whoosh stays the index; this replaces only its scoring loop, which walked every matching doc (2,000-5,000 a
question on a vault of 10,000 passages) through Python matchers at 15-30 us each. The scores are Whoosh's to the
bit: the same idf and average field length from the whole index, the same byte-quantised field lengths, the same
order of additions (Whoosh sums an Or through a huffman-like tree of its terms' doc frequencies in each segment,
and float addition is not associative), and the same order of ties (score, then docnum).
"""
from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np
from whoosh.codec.whoosh3 import LENGTHS_COLUMN, W3LeafMatcher, W3TermInfo, _lenfield
from whoosh.matching.wrappers import FilterMatcher
from whoosh.query import Term
from whoosh.reading import SegmentReader
from whoosh.scoring import BM25F
from whoosh.util import make_weighted_tree
from whoosh.util.numeric import byte_to_length

# Whoosh's one-byte field length, decoded (0: no length, which doc_field_length gives as None)
_LENGTHS = np.array([byte_to_length(b) if b else 0 for b in range(256)], dtype=np.float64)


def postings_blocks(matcher) -> list[tuple[np.ndarray, np.ndarray]]:
    """(docnums, weights as float32) of each block of a W3 posting list. Whoosh has no public way to read a
    block at once, so this leans on W3LeafMatcher's private _read_data/_data/_next_block (whoosh/codec/whoosh3.py);
    tests/test_words.py checks it against the matcher's public id()/weight() walk, so it fails if they change."""
    blocks = []
    while matcher.is_active():
        matcher._read_data()
        deltas, weights = matcher._data[0], matcher._data[1]
        ids = np.cumsum(np.asarray(deltas, dtype=np.int64))  # the ids are stored as deltas from 0
        if weights is None:  # a block of weights all 1.0, or all one value, is stored as that value
            weights = np.ones(len(ids), dtype=np.float32)
        elif isinstance(weights, float):
            weights = np.full(len(ids), weights, dtype=np.float32)
        else:
            weights = np.asarray(weights, dtype=np.float32)  # stored as float32 (array "f"): kept exactly
        blocks.append((ids, weights))
        matcher._next_block()
    return blocks


class _Node:
    """A subtree of Whoosh's Or; compares equal to any other, as Whoosh's matchers do when their weights tie."""

    __slots__ = ("scores",)

    def __init__(self, scores):
        self.scores = scores

    def __lt__(self, other):
        return False

    def __eq__(self, other):
        return True


def _union(a: _Node, b: _Node) -> _Node:
    if a.scores is None:
        return b
    if b.scores is None:
        return a
    return _Node(a.scores + b.scores)  # x + 0.0 == x: a doc one side lacks keeps the other side's sum exactly


# Posting lists decoded, kept while their segment lives (a segment's postings never change; deletions are read
# apart), the least recently asked dropped first, up to POSTINGS_KEPT bytes a scorer or KEPT_PER_DOC a doc of its
# index, whichever is more. A posting takes 8 bytes (docnum int32, weight float32, as Whoosh stores it). At 100,000
# passages a search decoded ~550 blocks of zlib'd pickles (a question's common words), 30 ms of its 43 in the words
# lane; every posting list of that index decoded takes ~690 bytes a passage (86 distinct words in a passage) and
# the records' ~110 bytes a record, so 1 KB a doc keeps most of what is ever asked.
POSTINGS_KEPT = 16 * 2**20
KEPT_PER_DOC = 1024


class Scorer:
    """Top docs of an Or of terms by BM25F, as Whoosh's searcher.search would rank them. Keeps each live segment's
    field lengths (keyed by the segment's id, which a commit or merge changes) so a search reads only postings,
    and the posting lists last asked for (`budget`)."""

    def __init__(self, field: str = "text", B: float = 0.75, K1: float = 1.2):
        self.field = field
        self.weighting = BM25F(B=B, K1=K1)  # one B for every field: the scorer reads only self.weighting.B
        self._segments: dict[str, dict] = {}  # segment id -> what was read of it: "lengths", ("stored", names)
        self._postings: OrderedDict[tuple[str, bytes], tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._kept = 0  # bytes in _postings
        self.budget = POSTINGS_KEPT  # bytes _postings may hold: set from the index's size by forget_gone
        self._lock = threading.Lock()

    def supports(self, searcher) -> bool:
        """False where the old path must run: a field without lengths (not scorable), or a reader that is not
        made of W3 segments (an empty in-memory index)."""
        if not searcher.schema[self.field].scorable:
            return False
        return all(isinstance(ss.reader(), SegmentReader) for ss, _ in searcher.leaf_searchers())

    def _segment(self, reader: SegmentReader, what: str | tuple[str, tuple[str, ...]], read):
        key = reader.segment().segment_id()
        with self._lock:
            value = self._segments.get(key, {}).get(what)
        if value is None:
            value = read(reader)
            with self._lock:
                self._segments.setdefault(key, {})[what] = value
        return value

    def _read_lengths(self, reader: SegmentReader) -> np.ndarray:
        """Each doc's field length as the scorer sees it: Whoosh's one-byte length, decoded. The column is read
        at once (doc_field_length a doc at a time took 0.25 s at 100,000 passages, in a search's first open),
        which leans on private parts: the per-doc reader's column (whoosh/codec/whoosh3.py) and its _dbfile,
        _basepos and _count (FixedBytesColumn, whoosh/columns.py); tests/test_words.py checks it against
        doc_field_length."""
        count = reader.doc_count_all()
        column = reader._perdoc._cached_reader(_lenfield(self.field), LENGTHS_COLUMN)
        if column is None:
            return np.zeros(count)
        stored = min(column._count, count)  # Whoosh writes no bytes for the trailing docs of length 0
        codes = np.zeros(count, dtype=np.uint8)
        if stored:
            codes[:stored] = np.frombuffer(column._dbfile.get(column._basepos, stored), dtype=np.uint8)
        return _LENGTHS[codes]

    def stored(self, searcher, names: tuple[str, ...]) -> dict[str, np.ndarray] | None:
        """These stored fields of every doc (deleted ones too) by global docnum, each segment read once while it
        lives; None if a doc lacks one (the caller filters through Whoosh then)."""
        def read(reader):
            rows = [reader.stored_fields(d) for d in range(reader.doc_count_all())]
            if any(name not in row for row in rows for name in names):
                return {}
            return {name: np.array([row[name] for row in rows]) for name in names}

        parts = [self._segment(ss.reader(), ("stored", names), read) for ss, _ in searcher.leaf_searchers()]
        if not parts or any(not part for part in parts):
            return None
        return {name: np.concatenate([part[name] for part in parts]) for name in names}

    def forget_gone(self, searcher) -> None:
        """Drop what was read of segments no longer in the index (merged away); size the budget to the index."""
        live = {ss.reader().segment().segment_id() for ss, _ in searcher.leaf_searchers()}
        self.budget = max(POSTINGS_KEPT, KEPT_PER_DOC * searcher.doc_count_all())
        with self._lock:
            for segment in set(self._segments) - live:
                del self._segments[segment]
            for key in [key for key in self._postings if key[0] not in live]:
                ids, weights = self._postings.pop(key)
                self._kept -= ids.nbytes + weights.nbytes

    def _posting(self, reader: SegmentReader, btext: bytes) -> tuple[np.ndarray, np.ndarray]:
        """(docnums, weights) of a term's whole posting list in a segment, deleted docs included."""
        key = (reader.segment().segment_id(), btext)
        with self._lock:
            kept = self._postings.get(key)
            if kept is not None:
                self._postings.move_to_end(key)
                return kept
        m = reader.postings(self.field, btext)
        if isinstance(m, FilterMatcher):  # deletions: dropped by the caller for every term at once
            m = m.child
        if not isinstance(m, W3LeafMatcher):
            raise TypeError(f"not a W3 posting list: {type(m).__name__}")
        blocks = postings_blocks(m)
        ids = np.concatenate([b[0] for b in blocks]).astype(np.int32) if blocks else np.zeros(0, np.int32)
        weights = np.concatenate([b[1] for b in blocks]) if blocks else np.zeros(0, np.float32)
        with self._lock:
            if key not in self._postings:
                self._postings[key] = (ids, weights)
                self._kept += ids.nbytes + weights.nbytes
                while self._kept > self.budget and len(self._postings) > 1:
                    _, (old_ids, old_weights) = self._postings.popitem(last=False)
                    self._kept -= old_ids.nbytes + old_weights.nbytes
        return ids, weights

    def frequent(self, searcher, budget: int) -> list[tuple[str, bytes]]:
        """(segment id, term) of the field's most frequent terms, most docs first, whose posting lists are not
        kept yet and together take up to `budget` bytes decoded. Read from each segment's term table as it is
        stored (W3TermsReader's _tindex, _keycoder; the term info's struct, whoosh/codec/whoosh3.py): Whoosh's
        own iter_field unpickles every rare term's inlined postings, 6.2 s for the 300,000 terms of 100,000
        passages against 0.24 s. Terms with inlined postings (a few docs) are left out."""
        found = []
        for ss, _ in searcher.leaf_searchers():
            reader = ss.reader()
            segment, table = reader.segment().segment_id(), reader._terms
            prefix = table._keycoder(self.field, b"")
            for key, value in table._tindex.items_from(prefix):
                if not key.startswith(prefix):
                    break  # the next field's terms
                inlined, _, docs = W3TermInfo._struct.unpack_from(value)[:3]
                if not inlined:
                    found.append((docs, segment, key[len(prefix):]))
        found.sort(key=lambda f: -f[0])
        chosen, total = [], 0
        with self._lock:
            for docs, segment, btext in found:
                if (segment, btext) in self._postings:
                    continue
                total += docs * 8
                if total > budget:
                    break
                chosen.append((segment, btext))
        return chosen

    def warm(self, searcher, segment: str, btext: bytes) -> bool:
        """Decode and keep one term's posting list in a segment, if that segment is still live (a merge may have
        ended it since `frequent`). True if it was decoded."""
        for ss, _ in searcher.leaf_searchers():
            reader = ss.reader()
            if reader.segment().segment_id() == segment:
                with self._lock:
                    if (segment, btext) in self._postings:
                        return False
                self._posting(reader, btext)
                return True
        return False

    def search(self, searcher, terms: list[str], limit: int, allow: np.ndarray | None = None
               ) -> list[tuple[int, float]]:
        """(global docnum, score) best first, of the docs holding any of these terms (allow: a bool per global
        docnum, or None for every doc). The searcher must be one with this scorer's weighting."""
        field = self.field
        fieldobj = searcher.schema[field]
        B, K1 = self.weighting.B, self.weighting.K1
        avgfl = searcher.avg_field_length(field) or 1
        idf = {t: searcher.idf(field, fieldobj.to_bytes(t)) for t in terms}
        k1p1, oneminusb = K1 + 1, 1 - B
        found_ids, found_scores = [], []
        for ss, offset in searcher.leaf_searchers():
            reader = ss.reader()
            n = reader.doc_count_all()
            lengths = None
            leaves = []
            for t in terms:
                btext = fieldobj.to_bytes(t)
                if (field, btext) not in reader:
                    leaves.append((0, _Node(None)))
                    continue
                if lengths is None:
                    lengths = self._segment(reader, "lengths", self._read_lengths)
                ids, tf = self._posting(reader, btext)  # deletions: dropped below for every term at once
                tf = tf.astype(np.float64)  # as Whoosh reads its float32 weights into Python floats
                scores = np.zeros(n)
                fl = lengths[ids]
                # bm25() of whoosh/scoring.py, operation for operation, so each float rounds the same
                scores[ids] = idf[t] * ((tf * k1p1) / (tf + K1 * (oneminusb + B * fl / avgfl)))
                leaves.append((Term(field, t).estimate_size(reader), _Node(scores)))
            # DefaultOr builds this tree from the same weights with the same function
            root = leaves[0][1] if len(leaves) == 1 else make_weighted_tree(_union, leaves)
            if root.scores is None:
                continue
            hit = root.scores > 0
            deleted = reader.deleted_docs_set
            if deleted:
                hit[np.fromiter(deleted, dtype=np.int64, count=len(deleted))] = False
            if allow is not None:
                hit &= allow[offset:offset + n]
            local = np.flatnonzero(hit)
            found_ids.append(local + offset)
            found_scores.append(root.scores[local])
        if not found_ids:
            return []
        ids, scores = np.concatenate(found_ids), np.concatenate(found_scores)
        if len(ids) > limit:
            kth = np.partition(scores, len(scores) - limit)[len(scores) - limit]
            keep = scores >= kth  # every doc tied with the last place stays, for the docnum order below
            ids, scores = ids[keep], scores[keep]
        order = np.lexsort((ids, -scores))[:limit]
        return [(int(ids[i]), float(scores[i])) for i in order]
