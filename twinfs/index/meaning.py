"""The meaning lane: sentence embeddings (all-MiniLM-L6-v2, shipped in a PyPI wheel) in a FAISS index.

Each doc is embedded as segments (a turn, or a piece of a document) since MiniLM reads only ~256 word pieces;
a doc scores as its best segment, and a segment knows who said it, so a question about someone can favour their
words. Vectors live in SQLite under .twin/meaning/, so the FAISS index is rebuilt from them in milliseconds at
open, and a segment whose text was embedded once is never embedded again.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections import Counter
from contextlib import closing
from itertools import zip_longest
from pathlib import Path

import numpy as np

from ..state import read_only_db, transaction
from . import Bounds, Doc, TextEmbedder
from .vectors import KEY, Vectors, key


def _text_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _ts(value) -> int | None:
    return None if value is None else int(value.timestamp())


SCHEMA = """
CREATE TABLE IF NOT EXISTS docs (id TEXT PRIMARY KEY, hash TEXT, path TEXT, thread TEXT, type TEXT,
                                 start INTEGER, end INTEGER);
CREATE TABLE IF NOT EXISTS segments (sid INTEGER PRIMARY KEY AUTOINCREMENT, doc TEXT, thash TEXT, who TEXT);
CREATE INDEX IF NOT EXISTS segments_doc ON segments(doc);
CREATE INDEX IF NOT EXISTS docs_thread ON docs(thread);
CREATE TABLE IF NOT EXISTS vectors (thash TEXT PRIMARY KEY, vec BLOB);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
"""
KINDS = ("passage", "record")  # the kinds of doc, each with a FAISS index of its own (vectors.py)
# How passages are cut into segments (passages.spoken_segments); an index segmented otherwise is segmented again
# at start, reusing every vector whose text is unchanged. 2: a long turn in sentence groups, each knowing its speaker.
SEGMENTS = "2"


def outdated(folder: Path, variant: str) -> bool:
    """Whether the index in this folder holds passages segmented otherwise than now (or not yet again since), or
    vectors made by another variant of the embedder than `variant`."""
    path = folder / "vectors.sqlite"
    if not path.exists():
        return False
    with closing(sqlite3.connect(path)) as db:
        columns = _segment_columns(db)
        if not columns:
            return False
        if "who" not in columns or _meta(db, "segments") != SEGMENTS or _made_by(db) != variant:
            return bool(db.execute("SELECT 1 FROM docs WHERE type = 'passage' LIMIT 1").fetchone())
        return bool(db.execute("SELECT 1 FROM docs WHERE type = 'passage' AND hash = '' LIMIT 1").fetchone())


def _meta(db: sqlite3.Connection, key: str) -> str | None:
    try:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    except sqlite3.OperationalError:  # an index from before the meta table
        return None
    return row[0] if row else None


def _made_by(db: sqlite3.Connection) -> str:
    """The embedder's variant that made the vectors; an index from before the key was made in fp32 (or bf16)."""
    return _meta(db, "embedder") or "fp32"


def _segment_columns(db: sqlite3.Connection) -> set[str]:
    return {row[1] for row in db.execute("PRAGMA table_info(segments)")}


class Segments:
    """Each segment's doc and speaker, as arrays by segment id: a search maps its 2,000 candidates to docs at once
    (a Python loop over them was a sixth of a fast search), and the two dicts they replace held ~600,000 segments
    at 100,000 passages (resident 12.9 -> 11.4 KB a passage with these)."""

    def __init__(self):
        self.doc = np.full(1024, -1, dtype=np.int32)  # segment id -> the doc's number (-1: none)
        self.who = np.full(1024, -1, dtype=np.int32)  # segment id -> the speaker's number (-1: none known)
        self.docs: list[str] = []  # doc number -> doc id
        self._doc_number: dict[str, int] = {}
        self.speakers: list[str] = []
        self._speaker_number: dict[str, int] = {}

    @staticmethod
    def _number(value: str, numbers: dict[str, int], values: list[str]) -> int:
        n = numbers.get(value)
        if n is None:
            n = numbers[value] = len(values)
            values.append(value)
        return n

    def put(self, sids: list[int], docs: list[str], whos: list[str | None]) -> None:
        if not sids:
            return
        top = max(sids)
        if top >= len(self.doc):
            grown = max(top + 1, len(self.doc) * 2)
            self.doc = np.concatenate([self.doc, np.full(grown - len(self.doc), -1, dtype=np.int32)])
            self.who = np.concatenate([self.who, np.full(grown - len(self.who), -1, dtype=np.int32)])
        at = np.array(sids, dtype=np.int64)
        self.doc[at] = [self._number(d, self._doc_number, self.docs) for d in docs]
        self.who[at] = [self._number(w, self._speaker_number, self.speakers) if w else -1 for w in whos]

    def drop(self, sids: list[int]) -> None:
        at = np.array([s for s in sids if s < len(self.doc)], dtype=np.int64)
        self.doc[at] = -1
        self.who[at] = -1

    def doc_of(self, sid: int) -> str | None:
        n = int(self.doc[sid]) if 0 <= sid < len(self.doc) else -1
        return self.docs[n] if n >= 0 else None

    def count_by(self, kind_of: dict[str, str]) -> Counter:
        """Live segments of each kind of doc."""
        numbers, counts = np.unique(self.doc[self.doc >= 0], return_counts=True)
        out: Counter = Counter()
        for n, count in zip(numbers.tolist(), counts.tolist(), strict=False):
            out[kind_of.get(self.docs[n])] += count
        return out

    def speaking(self, names: frozenset[str]) -> np.ndarray:
        """The numbers of these speakers (of those ever seen)."""
        return np.array([self._speaker_number[n] for n in names if n in self._speaker_number], dtype=np.int32)


class MeaningIndex:
    def __init__(self, folder: Path, embedder: TextEmbedder, read_only: bool = False):
        self.folder = folder
        self.embedder = embedder
        self.read_only = read_only
        self._lock = threading.RLock()
        if read_only:  # beside another owner: what it indexed, never written here
            self._db = read_only_db(folder / "vectors.sqlite", SCHEMA)
            self._load()
            return
        folder.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(folder / "vectors.sqlite", check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)
        self._migrate()
        self._load()

    def _migrate(self) -> None:
        """An index segmented otherwise (or before segments knew their speaker) has its passages read as
        changed, so a reindex (Memory.start runs one) segments them again; a segment whose text is unchanged
        keeps its vector, so only new texts are embedded. Blank hashes stay until then: `outdated` sees them."""
        speakerless = "who" not in _segment_columns(self._db)
        if speakerless:
            self._db.execute("ALTER TABLE segments ADD COLUMN who TEXT")
        if speakerless or _meta(self._db, "segments") != SEGMENTS:
            self._db.execute("UPDATE docs SET hash = '' WHERE type = 'passage'")
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('segments', ?)", (SEGMENTS,))
        self._unshared()
        variant = self.embedder.variant
        if _made_by(self._db) != variant:
            self._unmade(variant)
        elif _meta(self._db, "embedder") is None:
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('embedder', ?)", (variant,))

    def _unmade(self, variant: str) -> None:
        """Vectors of another variant of the embedder (cosine ~0.99 of this one's) would rank beside this one's
        questions a little off: every doc is read as changed and its vectors dropped, so the reindex at open
        embeds it all again, with this variant. One transaction: a crash leaves the old lane or the emptied one."""
        files = [_meta(self._db, key(kind)) for kind in KINDS]  # the shared file went first (_unshared)
        with transaction(self._db) as db:
            db.execute("DELETE FROM segments")
            db.execute("DELETE FROM vectors")
            db.execute("UPDATE docs SET hash = ''")
            db.executemany("DELETE FROM meta WHERE key = ?", [(key(kind),) for kind in KINDS])
            db.execute("INSERT OR REPLACE INTO meta VALUES ('embedder', ?)", (variant,))
        for ivf in filter(None, files):
            (self.folder / json.loads(ivf)["file"]).unlink(missing_ok=True)

    def _unshared(self) -> None:
        """A lane written when passages and records shared one IVF index: its file goes, and each kind's index
        is built from the vectors in SQLite at this open (once; a few seconds at 100,000 passages)."""
        ivf = _meta(self._db, KEY)
        if ivf:
            self._db.execute("DELETE FROM meta WHERE key = ?", (KEY,))
            (self.folder / json.loads(ivf)["file"]).unlink(missing_ok=True)

    def _load(self) -> None:
        self._segments = Segments()
        cursor = self._db.execute("SELECT sid, doc, who FROM segments")
        while rows := cursor.fetchmany(50_000):
            self._segments.put([int(r[0]) for r in rows], [r[1] for r in rows], [r[2] for r in rows])
        self._type_of: dict[str, str] = dict(self._db.execute("SELECT id, type FROM docs").fetchall())
        self._types = Counter(self._type_of.values())
        held = self._segments.count_by(self._type_of)  # segments of each kind
        dim = self.embedder.dim
        self._index = {kind: Vectors(self._db, self.folder, dim, read_only=self.read_only, kind=kind,
                                     count=held[kind]) for kind in KINDS}  # each flat, or IVF at size

    def close(self) -> None:
        with self._lock:
            try:
                for index in self._index.values():
                    index.save()  # an IVF index written now is not caught up with at the next open
            finally:
                self._db.close()

    def hashes(self, thread: str | None = None) -> dict[str, str]:
        """id -> content hash of the docs indexed (of one thread's only, when given)."""
        with self._lock:
            if thread is None:
                return dict(self._db.execute("SELECT id, hash FROM docs").fetchall())
            return dict(self._db.execute("SELECT id, hash FROM docs WHERE thread = ?", (thread,)).fetchall())

    def count(self) -> int:
        return self._db.execute("SELECT count(*) FROM docs").fetchone()[0]

    def apply(self, upserts: list[Doc], deletes: list[str]) -> int:
        """Replace these docs, delete those ids; returns how many segments had to be embedded."""
        todo: dict[str, str] = {}
        for d in upserts:
            for seg in d.segments:
                todo.setdefault(_text_hash(seg), seg)
        vectors, missing = self._vectors(todo)
        with self._lock:
            with transaction(self._db) as db:
                db.executemany("INSERT OR IGNORE INTO vectors VALUES (?, ?)",
                               [(h, vectors[h].tobytes()) for h in missing])
                gone: dict[str, list[int]] = {}  # kind -> segment ids
                for doc_id in [*deletes, *(d.id for d in upserts)]:
                    sids = [r[0] for r in db.execute("SELECT sid FROM segments WHERE doc = ?", (doc_id,))]
                    if sids:
                        gone.setdefault(self._type_of.get(doc_id, ""), []).extend(sids)
                    db.execute("DELETE FROM segments WHERE doc = ?", (doc_id,))
                    db.execute("DELETE FROM docs WHERE id = ?", (doc_id,))
                added: list[tuple[int, str, str, str | None, str]] = []
                for d in upserts:
                    db.execute("INSERT INTO docs VALUES (?, ?, ?, ?, ?, ?, ?)",
                               (d.id, d.hash, d.path, d.thread, d.type, _ts(d.start), _ts(d.end)))
                    for seg, who in zip_longest(d.segments, d.speakers[:len(d.segments)]):
                        h = _text_hash(seg)
                        cur = db.execute("INSERT INTO segments (doc, thash, who) VALUES (?, ?, ?)", (d.id, h, who))
                        assert cur.lastrowid is not None  # an INSERT's row
                        added.append((cur.lastrowid, d.id, h, who, d.type))
            for kind, sids in gone.items():
                if kind in self._index:
                    self._index[kind].remove(np.array(sids, dtype="int64"))
                self._segments.drop(sids)
            for doc_id in [*deletes, *(d.id for d in upserts)]:  # counted as they change: not all again each time
                gone_type = self._type_of.pop(doc_id, None)
                if gone_type:
                    self._types[gone_type] -= 1
            for d in upserts:
                self._type_of[d.id] = d.type
                self._types[d.type] += 1
            self._segments.put([a[0] for a in added], [a[1] for a in added], [a[3] for a in added])
            for kind in KINDS:
                mine = [a for a in added if a[4] == kind]
                if mine:
                    self._index[kind].add(np.vstack([vectors[a[2]] for a in mine]).astype("float32"),
                                          np.array([a[0] for a in mine], dtype="int64"))
        return len(missing)

    def compact(self) -> None:
        """Drop the vectors no segment uses any more (they are kept to spare embedding a text twice) and the
        free pages they leave: after forget, nothing of a forgotten text stays here."""
        with self._lock:
            for index in self._index.values():
                index.save()  # an IVF index on disk holds nothing removed either (its old file is deleted)
            self._db.execute("DELETE FROM vectors WHERE thash NOT IN (SELECT thash FROM segments)")
            self._db.execute("VACUUM")
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def _vectors(self, texts: dict[str, str]) -> tuple[dict[str, np.ndarray], list[str]]:
        """text hash -> vector for these texts: those stored already, the rest embedded now (their hashes
        returned as the second value, for the caller to store)."""
        hashes = list(texts)
        found: dict[str, np.ndarray] = {}
        for i in range(0, len(hashes), 500):
            chunk = hashes[i:i + 500]
            for h, blob in self._db.execute(
                    f"SELECT thash, vec FROM vectors WHERE thash IN ({','.join('?' * len(chunk))})", chunk):
                found[h] = np.frombuffer(blob, dtype="float32")
        missing = [h for h in hashes if h not in found]
        found.update(zip(missing, self.embedder.encode([texts[h] for h in missing]), strict=False))
        return found, missing

    def embed(self, texts: list[str]) -> np.ndarray:
        """Vectors for texts, from those stored when they were indexed; only new texts are embedded."""
        if not texts:
            return np.zeros((0, self.embedder.dim), dtype="float32")
        hashes = [_text_hash(t) for t in texts]
        found, _ = self._vectors(dict(zip(hashes, texts, strict=False)))
        return np.vstack([found[h] for h in hashes])

    def _allowed(self, bounds: Bounds) -> np.ndarray | None:
        """Segment ids inside scope and dates; None when they do not narrow (a kind is an index of its own)."""
        if not (bounds.scope or bounds.before or bounds.after):
            return None
        where, args = [], []
        if bounds.scope:
            where.append("substr(d.path, 1, ?) = ?")
            args += [len(bounds.scope), bounds.scope]
        if bounds.type:
            where.append("d.type = ?")
            args.append(bounds.type)
        if bounds.before:
            where.append("d.end < ?")
            args.append(_ts(bounds.before))
        if bounds.after:
            where.append("d.end >= ?")
            args.append(_ts(bounds.after))
        rows = self._db.execute(f"SELECT s.sid FROM segments s JOIN docs d ON d.id = s.doc WHERE {' AND '.join(where)}",
                                args).fetchall()
        return np.array([r[0] for r in rows], dtype="int64")

    def search(self, text: str, bounds: Bounds, limit: int = 50, floor: float = 0.0,
               favour: frozenset[str] = frozenset(), lift: float = 0.0, without: frozenset[str] = frozenset(),
               second: float = 0.0) -> list[tuple[str, str, float]]:
        """(doc id, path, cosine of its best segment) best first; docs below `floor` are left out. A segment
        said by someone in `favour` scores `lift` more (a negative lift: less); one said by someone in `without`
        is not counted (passage_keys.KEY_SPEAKER: a passage by its own text alone). `second`: a doc also gains
        this share of its second-best segment's cosine (late interaction over its turns beyond the best one)."""
        if bounds.type and not self._types.get(bounds.type):
            return []  # nothing of that type yet (no records before reading): no need to embed or search
        query = self.embedder.query(text)
        with self._lock:
            allowed = self._allowed(bounds)
            best: list[tuple[str, float]] = []
            for kind in [bounds.type] if bounds.type else KINDS:
                index, mine = self._index[kind], allowed
                if allowed is not None and not bounds.type:  # both kinds: each index its own
                    mine = np.array([sid for sid in allowed.tolist()
                                     if (doc := self._segments.doc_of(sid)) is not None
                                     and self._type_of.get(doc) == kind], dtype="int64")
                total = index.ntotal if mine is None else len(mine)
                if total:  # deep enough for `limit` docs of several segments each (a long turn is several)
                    k = min(total, max(limit * 8, 64) if mine is not None else 2000)
                    best += self._best(index.search(query, k, mine), limit, floor, favour, lift, without, second)
            top = sorted(best, key=lambda kv: -kv[1])[:limit]  # ties: in the order found
            if not top:
                return []
            paths = dict(self._db.execute(f"SELECT id, path FROM docs WHERE id IN ({','.join('?' * len(top))})",
                                          [d for d, _ in top]).fetchall())
            return [(d, paths.get(d, ""), s) for d, s in top]

    def _best(self, found: tuple[np.ndarray, np.ndarray], limit: int, floor: float, favour: frozenset[str],
              lift: float, without: frozenset[str] = frozenset(), second: float = 0.0) -> list[tuple[str, float]]:
        """The `limit` docs whose best segment among those found scores highest (lifted, or lowered, where its
        speaker is favoured), best first, ties in the order their first segment was found. The sums are float32,
        as FAISS's scores are. In numpy: a dict of every doc found (~1,000 of 2,000 segments at 100,000
        passages) took 2-3 ms a search."""
        scores, found_ids = found[0][0], found[1][0]
        table = self._segments
        ids = np.where((found_ids >= 0) & (found_ids < len(table.doc)), found_ids, 0)  # -1: fewer than asked
        docs = np.where(found_ids >= 0, table.doc[ids], -1)
        if favour:
            scores = scores + np.where(np.isin(table.who[ids], table.speaking(favour)), np.float32(lift),
                                       np.float32(0))
        if without:
            docs = np.where(np.isin(table.who[ids], table.speaking(without)), -1, docs)
        keep = np.flatnonzero((docs >= 0) & (scores >= floor))
        if not len(keep):
            return []
        docs, scores = docs[keep], scores[keep]
        order = np.argsort(docs, kind="stable")
        starts = np.flatnonzero(np.r_[True, docs[order][1:] != docs[order][:-1]])
        tops = np.maximum.reduceat(scores[order], starts)
        if second:  # each doc's second-best segment found (none: 0), docs in the same order as `starts`
            ranked = np.lexsort((-scores, docs))
            by_doc, by_score = docs[ranked], scores[ranked]
            heads = np.flatnonzero(np.r_[True, by_doc[1:] != by_doc[:-1]])
            has = heads + 1 < len(by_doc)
            has[has] = by_doc[heads[has] + 1] == by_doc[heads[has]]
            runner_up = np.zeros(len(heads), dtype=np.float32)
            runner_up[has] = by_score[heads[has] + 1]
            tops = tops + np.float32(second) * runner_up
        first = order[starts]  # where each doc's first segment was found
        return [(table.docs[int(docs[first[k]])], float(tops[k])) for k in np.lexsort((first, -tops))[:limit]]
