"""The FAISS index of a meaning lane: a flat scan while it is small, an inverted file (IVF) past FLAT_UP_TO.

A flat scan is exact and is rebuilt from the vectors in SQLite in milliseconds when a vault opens. Past
FLAT_UP_TO segments (~12,000 passages) it costs more than the rest of a search, its removals move every vector
after the one removed, and reading all vectors at each open takes seconds; so the index becomes IVF: NLIST
lists trained on a sample (again once the index outgrows it), vectors stored as float16, a quarter of the lists
searched (top-10 passages the same as a flat scan's 1.000 of the time at 90,415 segments, against 0.938 with 64
lists: bench/README.md, "Scale"), kept on disk beside the vectors and caught up with SQLite at open (segments
added since, segments gone since). A search narrowed to a few segments (a scope, a date) scans those exactly.
Each kind of doc (passages, records) has an index of its own: a search asks for one kind, and in one index shared
by both it had to fetch 2,000 candidates to find enough of the kind it asked for (at 100,000 passages, ~14 ms of
a fast search went to its two searches).
"""
from __future__ import annotations

import json
import logging
import os
import secrets
import sqlite3
from pathlib import Path
from typing import Any

import faiss
import numpy as np

log = logging.getLogger("twinfs.index")
FLAT_UP_TO = 50_000  # segments
NLIST_MIN, NLIST_MAX, NPROBE_MIN = 64, 2048, 64  # lists (4·√n when trained), lists searched at least
PROBED = 4  # one list in PROBED is searched: fewer lost passages near a list's edge than a fixed 64
TRAIN_PER_LIST = 40  # vectors a list is trained on (faiss asks for 39)
RETRAIN_AT = 1.5  # the lists are trained again once the index holds this many times what they were trained on
EXACT_UP_TO = 20_000  # segments a narrowed search scans exactly
# An IVF search of one question runs its lists on this many threads (OpenMP, faiss's parallel_mode 1: the lists
# probed are shared out, each thread keeps its own top-k, merged at the end; the same scores): at 100,000 passages
# the passages' index (599,041 segments, 512 lists probed) took p50 12.5 ms on one thread, 7.1 ms on two, the
# records' (224,192) 4.5 and 3.0 ms. OpenMP's thread count is a setting of each calling thread, so it is set at
# each search. A flat index searches one question on one thread whatever it is given.
SEARCH_THREADS = min(2, len(os.sched_getaffinity(0)))
KEY = "ivf"  # in the lane's meta table (as ivf.<kind>): the file the IVF index is kept in, the last segment it holds


def lists(n: int) -> int:
    return max(NLIST_MIN, min(NLIST_MAX, int(4 * n ** 0.5)))


def probes(nlist: int) -> int:
    return min(nlist, max(NPROBE_MIN, nlist // PROBED))


def _array(rows: list[tuple[int, bytes]], dim: int) -> tuple[np.ndarray, np.ndarray]:
    ids = np.array([r[0] for r in rows], dtype="int64")
    vecs = np.frombuffer(b"".join(r[1] for r in rows), dtype="float32").reshape(len(rows), dim)
    return ids, vecs


def key(kind: str | None) -> str:
    """The meta key of a kind's IVF file; a lane written before kinds had indexes of their own kept one as KEY."""
    return f"{KEY}.{kind}" if kind else KEY


class Vectors:
    """The vectors of one lane's segments (of one kind of doc, when `kind` is given), searchable by inner
    product; ids are segment ids. `count`: how many segments of that kind SQLite holds, when the caller knows."""

    def __init__(self, db: sqlite3.Connection, folder: Path, dim: int, read_only: bool = False,
                 kind: str | None = None, count: int | None = None):
        self.db, self.folder, self.dim, self.read_only, self.kind = db, folder, dim, read_only, kind
        self.changed = 0  # adds and removals since the IVF index was last written
        self.trained = 0  # vectors the IVF lists were trained on
        if count is None:
            count = self._count()
        saved = self._saved()
        # faiss's SWIG classes carry no types: an IndexIDMap2 over a flat index, or an IVF index, or none yet
        self.index: Any = None
        if count > FLAT_UP_TO and saved:
            try:
                self.index = faiss.read_index(str(folder / saved["file"]))
                self.index.nprobe = probes(self.index.nlist)  # a file written with another share keeps ours
                # a file written before this was kept: what its lists imply (4·√n when trained)
                self.trained = saved.get("trained") or int((self.index.nlist / 4) ** 2)
                if self._stale(saved["upto"]):
                    self.index = None  # trained again on what SQLite holds, rather than caught up first
                else:
                    self._catch_up(saved["upto"])
            except RuntimeError as exc:  # a file a crash cut short: built again from the vectors
                log.warning("%s: the IVF index could not be read (%s); building it again", folder, exc)
                self.index = None
        if self.index is None:
            self._flat_from_sqlite()
            if count > FLAT_UP_TO:
                self._to_ivf()

    @property
    def ivf(self) -> bool:
        return not isinstance(self.index, faiss.IndexIDMap2)

    @property
    def ntotal(self) -> int:
        return self.index.ntotal

    def _saved(self) -> dict | None:
        try:
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key(self.kind),)).fetchone()
        except sqlite3.OperationalError:
            return None  # no meta table yet (a read-only lane written before it)
        return json.loads(row[0]) if row else None

    def _select(self, columns: str, where: str = "", args: tuple = (), vectors: bool = False) -> sqlite3.Cursor:
        """SELECT `columns` of this kind's segments (those whose s.sid is `where`, when given; v: their vectors)."""
        sql = f"SELECT {columns} FROM segments s" + (" JOIN vectors v ON v.thash = s.thash" if vectors else "")
        clauses = [f"s.sid {where}"] if where else []
        if self.kind:
            sql += " JOIN docs d ON d.id = s.doc"
            clauses.append("d.type = ?")
            args = (*args, self.kind)
        return self.db.execute(sql + (f" WHERE {' AND '.join(clauses)}" if clauses else ""), args)

    def _count(self, where: str = "", args: tuple = ()) -> int:
        return self._select("count(*)", where, args).fetchone()[0]

    def _add_from(self, where: str = "", args: tuple = ()) -> None:
        cursor = self._select("s.sid, v.vec", where, args, vectors=True)
        while rows := cursor.fetchmany(20_000):
            ids, vecs = _array(rows, self.dim)
            self.index.add_with_ids(vecs, ids)

    def _flat_from_sqlite(self) -> None:
        self.index = faiss.IndexIDMap2(faiss.IndexFlatIP(self.dim))
        self._add_from()

    def _outgrown(self, held: int | None = None) -> bool:
        return (self.index.ntotal if held is None else held) > RETRAIN_AT * max(1, self.trained)

    def _stale(self, upto: int) -> bool:
        """Whether the file read is to be trained again, not caught up: most of what its lists were trained on
        went while it was closed (a vault cut again by sentence), or what SQLite holds has outgrown them."""
        live, added = self._count("<= ?", (upto,)), self._count("> ?", (upto,))
        return self.index.ntotal - live > self.trained / 2 or self._outgrown(live + added)

    def _catch_up(self, upto: int) -> None:
        """Segments added since the file was written are added; those gone since are removed."""
        live = np.array([r[0] for r in self._select("s.sid", "<= ?", (upto,))], dtype="int64")
        lists = self.index.invlists
        held = np.concatenate([faiss.rev_swig_ptr(lists.get_ids(i), lists.list_size(i)).copy()
                               for i in range(lists.nlist)] or [np.zeros(0, dtype="int64")])
        gone = np.setdiff1d(held, live)
        if len(gone):
            self.remove(gone)
        kept = self.index.ntotal
        self._add_from("> ?", (upto,))
        self.changed = len(gone) + self.index.ntotal - kept

    def _to_ivf(self) -> None:
        """The flat index becomes IVF: trained on a sample of its vectors, then given all of them."""
        flat = self.index
        n = flat.ntotal
        vecs = flat.index.reconstruct_n(0, n)
        ids = faiss.vector_to_array(flat.id_map).copy()
        nlist = lists(n)
        ivf: Any = faiss.index_factory(self.dim, f"IVF{nlist},SQfp16", faiss.METRIC_INNER_PRODUCT)
        sample = vecs[np.random.default_rng(0).permutation(n)[:TRAIN_PER_LIST * nlist]]
        faiss.extract_index_ivf(ivf).cp.niter = 10
        ivf.train(sample)
        ivf.set_direct_map_type(faiss.DirectMap.Hashtable)  # type: ignore[attr-defined]  # SWIG-made, not in the stubs
        ivf.nprobe = probes(nlist)
        ivf.add_with_ids(vecs, ids)
        self.index, self.trained, self.changed = ivf, n, n
        log.info("%s: %d segments: the meaning lane is an IVF index now", self.folder, n)
        self.save()

    def add(self, vecs: np.ndarray, ids: np.ndarray) -> None:
        self.index.add_with_ids(vecs, ids)
        self.changed += len(ids)
        if not self.ivf and self.index.ntotal > FLAT_UP_TO:
            self._to_ivf()
        elif self.ivf and self._outgrown():
            self._retrain()
        elif self.ivf and self.changed > max(10_000, self.index.ntotal // 10):
            self.save()  # so that an open after a crash catches up on a tenth, not on all of it

    def _retrain(self) -> None:
        """Lists trained on a third of what the index holds now lose passages at their edges (top-10 overlap
        0.968 against 1.000 trained afresh, bench/README.md "Scale"): trained again, from the vectors in SQLite."""
        self._flat_from_sqlite()
        self._to_ivf()

    def remove(self, ids: np.ndarray) -> None:
        ids = np.ascontiguousarray(ids, dtype="int64")  # IVF's id map takes an array of ids, not a batch
        self.index.remove_ids(faiss.IDSelectorArray(len(ids), faiss.swig_ptr(ids)) if self.ivf else ids)
        self.changed += len(ids)

    def save(self) -> None:
        """Write the IVF index whole beside the vectors, then point the meta table at it."""
        if not self.ivf or self.read_only or not self.changed:
            return
        upto = self.db.execute("SELECT coalesce(max(sid), 0) FROM segments").fetchone()[0]
        name = f"ivf-{secrets.token_hex(4)}.faiss"
        faiss.write_index(self.index, str(self.folder / f".{name}.tmp"))
        (self.folder / f".{name}.tmp").rename(self.folder / name)
        old = self._saved()
        self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                        (key(self.kind), json.dumps({"file": name, "upto": upto, "trained": self.trained})))
        if old and old["file"] != name:
            (self.folder / old["file"]).unlink(missing_ok=True)
        self.changed = 0

    def search(self, query: np.ndarray, k: int, allowed: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """(scores, ids) of the k nearest, each (1, k); `allowed`: only these segment ids."""
        faiss.omp_set_num_threads(SEARCH_THREADS if self.ivf else 1)
        if self.ivf:
            faiss.extract_index_ivf(self.index).parallel_mode = 1  # a question's lists shared out (SEARCH_THREADS)
        if allowed is None:
            return self.index.search(query, k)
        if self.ivf and len(allowed) <= EXACT_UP_TO:
            vecs = self.index.reconstruct_batch(allowed)  # a few: scanned exactly
            scores = vecs @ query[0]
            top = np.argsort(-scores)[:k]
            return scores[top][None, :].astype("float32"), allowed[top][None, :]
        # faiss's SWIG parameter objects take their fields as keywords, which its stubs do not say
        params: Any = (faiss.SearchParametersIVF(sel=faiss.IDSelectorBatch(allowed), nprobe=min(  # type: ignore[call-arg]
            self.index.nlist, self.index.nprobe * max(1, self.index.ntotal // max(1, len(allowed)))))
            if self.ivf else faiss.SearchParameters(sel=faiss.IDSelectorBatch(allowed)))  # type: ignore[call-arg]
        return self.index.search(query, k, params=params)
