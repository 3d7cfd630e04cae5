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

import faiss
import numpy as np

from . import Bounds, Doc
from .embedder import DIM, Embedder
from ..state import read_only_db, transaction
from .vectors import KEY, Vectors

faiss.omp_set_num_threads(1)  # one end user's flat index is small: OpenMP start-up costs more than it saves


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


class MeaningIndex:
    def __init__(self, folder: Path, embedder: Embedder, read_only: bool = False):
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
        variant = self.embedder.variant
        if _made_by(self._db) != variant:
            self._unmade(variant)
        elif _meta(self._db, "embedder") is None:
            self._db.execute("INSERT OR REPLACE INTO meta VALUES ('embedder', ?)", (variant,))

    def _unmade(self, variant: str) -> None:
        """Vectors of another variant of the embedder (cosine ~0.99 of this one's) would rank beside this one's
        questions a little off: every doc is read as changed and its vectors dropped, so the reindex at open
        embeds it all again, with this variant. One transaction: a crash leaves the old lane or the emptied one."""
        ivf = _meta(self._db, KEY)
        with transaction(self._db) as db:
            db.execute("DELETE FROM segments")
            db.execute("DELETE FROM vectors")
            db.execute("UPDATE docs SET hash = ''")
            db.execute("DELETE FROM meta WHERE key = ?", (KEY,))
            db.execute("INSERT OR REPLACE INTO meta VALUES ('embedder', ?)", (variant,))
        if ivf:
            (self.folder / json.loads(ivf)["file"]).unlink(missing_ok=True)

    def _load(self) -> None:
        rows = self._db.execute("SELECT sid, doc, who FROM segments").fetchall()
        self._doc_of: dict[int, str] = {int(r[0]): r[1] for r in rows}
        self._who_of: dict[int, str] = {int(r[0]): r[2] for r in rows if r[2]}
        self._type_of: dict[str, str] = dict(self._db.execute("SELECT id, type FROM docs").fetchall())
        self._types = Counter(self._type_of.values())
        self._index = Vectors(self._db, self.folder, DIM, read_only=self.read_only)  # flat, or IVF at size

    def close(self) -> None:
        with self._lock:
            try:
                self._index.save()  # an IVF index written now is not caught up with at the next open
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
                gone: list[int] = []
                for doc_id in [*deletes, *(d.id for d in upserts)]:
                    gone += [r[0] for r in db.execute("SELECT sid FROM segments WHERE doc = ?", (doc_id,))]
                    db.execute("DELETE FROM segments WHERE doc = ?", (doc_id,))
                    db.execute("DELETE FROM docs WHERE id = ?", (doc_id,))
                added: list[tuple[int, str, str, str | None]] = []
                for d in upserts:
                    db.execute("INSERT INTO docs VALUES (?, ?, ?, ?, ?, ?, ?)",
                               (d.id, d.hash, d.path, d.thread, d.type, _ts(d.start), _ts(d.end)))
                    for seg, who in zip_longest(d.segments, d.speakers[:len(d.segments)]):
                        h = _text_hash(seg)
                        cur = db.execute("INSERT INTO segments (doc, thash, who) VALUES (?, ?, ?)", (d.id, h, who))
                        added.append((cur.lastrowid, d.id, h, who))
            if gone:
                self._index.remove(np.array(gone, dtype="int64"))
                for sid in gone:
                    self._doc_of.pop(sid, None)
                    self._who_of.pop(sid, None)
            for doc_id in [*deletes, *(d.id for d in upserts)]:  # counted as they change: not all again each time
                gone_type = self._type_of.pop(doc_id, None)
                if gone_type:
                    self._types[gone_type] -= 1
            for d in upserts:
                self._type_of[d.id] = d.type
                self._types[d.type] += 1
            if added:
                for sid, doc_id, _, who in added:
                    self._doc_of[sid] = doc_id
                    if who:
                        self._who_of[sid] = who
                self._index.add(np.vstack([vectors[a[2]] for a in added]).astype("float32"),
                                np.array([a[0] for a in added], dtype="int64"))
        return len(missing)

    def compact(self) -> None:
        """Drop the vectors no segment uses any more (they are kept to spare embedding a text twice) and the
        free pages they leave: after forget, nothing of a forgotten text stays here."""
        with self._lock:
            self._index.save()  # an IVF index on disk holds nothing removed either (its old file is deleted)
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
        found.update(zip(missing, self.embedder.encode([texts[h] for h in missing])))
        return found, missing

    def embed(self, texts: list[str]) -> np.ndarray:
        """Vectors for texts, from those stored when they were indexed; only new texts are embedded."""
        if not texts:
            return np.zeros((0, DIM), dtype="float32")
        hashes = [_text_hash(t) for t in texts]
        found, _ = self._vectors(dict(zip(hashes, texts)))
        return np.vstack([found[h] for h in hashes])

    def _allowed(self, bounds: Bounds) -> np.ndarray | None:
        """Segment ids inside scope and dates; None when only the type narrows (checked after the search)."""
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
               favour: frozenset[str] = frozenset(), lift: float = 0.0) -> list[tuple[str, str, float]]:
        """(doc id, path, cosine of its best segment) best first; docs below `floor` are left out. A segment
        said by someone in `favour` scores `lift` more (a negative lift: less)."""
        if bounds.type and not self._types.get(bounds.type):
            return []  # nothing of that type yet (no records before reading): no need to embed or search
        query = self.embedder.query(text)
        with self._lock:
            allowed = self._allowed(bounds)
            total = self._index.ntotal if allowed is None else len(allowed)
            if total == 0:
                return []
            k = min(total, max(limit * 8, 64) if allowed is not None or not bounds.type else 2000)
            scores, ids = self._index.search(query, k, allowed)
            best: dict[str, float] = {}
            # up to 2,000 candidates a search: plain Python numbers and bound lookups (a third of the lane's time
            # at 100,000 passages went to this loop); the same sums, in the same float32 -> float order
            doc_of, who_of, type_of, wanted = self._doc_of.get, self._who_of.get, self._type_of.get, bounds.type
            for sid, score in zip(ids[0].tolist(), scores[0].astype(np.float64).tolist() if not favour
                                  else scores[0]):
                if sid < 0:
                    continue
                if favour and who_of(sid) in favour:
                    score += lift
                if score < floor:
                    continue
                doc = doc_of(sid)
                if wanted and type_of(doc) != wanted:
                    continue
                if doc is not None and score > best.get(doc, -2.0):
                    best[doc] = float(score)
            top = sorted(best.items(), key=lambda kv: -kv[1])[:limit]
            if not top:
                return []
            paths = dict(self._db.execute(f"SELECT id, path FROM docs WHERE id IN ({','.join('?' * len(top))})",
                                          [d for d, _ in top]).fetchall())
            return [(d, paths.get(d, ""), s) for d, s in top]
