"""Phases and bookkeeping of one end user, in SQLite under .twin/. Rebuildable from the files (see reindex)."""
from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .models import PHASE_ORDER, Phase

SCHEMA = """
CREATE TABLE IF NOT EXISTS items (id TEXT PRIMARY KEY, thread TEXT, hash TEXT, phase TEXT, event TEXT);
CREATE INDEX IF NOT EXISTS items_thread ON items(thread);
CREATE INDEX IF NOT EXISTS items_phase ON items(phase);
CREATE TABLE IF NOT EXISTS events (id TEXT PRIMARY KEY, ids TEXT);
CREATE TABLE IF NOT EXISTS cuts (path TEXT PRIMARY KEY, thread TEXT, hash TEXT);
CREATE INDEX IF NOT EXISTS cuts_thread ON cuts(thread);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS speakers (name TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS windows (thread TEXT, position INTEGER, hash TEXT, records TEXT, failed TEXT,
                                    PRIMARY KEY (thread, position));
"""


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One transaction on a connection in autocommit mode (isolation_level None): committed whole, or rolled back."""
    db.execute("BEGIN")
    try:
        yield db
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def read_only_db(path: Path, schema: str) -> sqlite3.Connection:
    """A connection that never writes the database (another process owns it): read-only where it exists; an
    empty one in memory, with the schema, where nothing was written yet."""
    if path.exists():
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False,
                             isolation_level=None)
        db.execute("PRAGMA query_only=ON")
        return db
    db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
    db.executescript(schema)
    return db


RANK = "(CASE phase WHEN 'accepted' THEN 0 WHEN 'landed' THEN 1 WHEN 'read' THEN 2 ELSE 3 END)"


class State:
    """Thread-safe: one connection behind a lock (every call is sub-millisecond)."""

    def __init__(self, path: Path, read_only: bool = False):
        self._lock = threading.Lock()
        if read_only:
            self._db = read_only_db(path, SCHEMA)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _rows(self, sql: str, args=()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def _many(self, sql: str, rows: list[tuple]) -> None:
        with self._lock, transaction(self._db):
            self._db.executemany(sql, rows)

    # items and events
    def _items_by_id(self, columns: str, ids: list[str]) -> list[tuple]:
        """`SELECT id, <columns>` for these ids, 500 at a time (SQLite bounds the number of parameters)."""
        rows: list[tuple] = []
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            rows += self._rows(f"SELECT id, {columns} FROM items WHERE id IN ({','.join('?' * len(chunk))})", chunk)
        return rows

    def item_hashes(self, ids: list[str]) -> dict[str, tuple[str, str]]:
        """id -> (hash, phase) for the known ones."""
        return {i: (h, p) for i, h, p in self._items_by_id("hash, phase", ids)}

    def item_rows(self, ids: list[str]) -> dict[str, tuple[str, str, str]]:
        """id -> (hash, phase, thread) for the known ones: what an add needs, in one query."""
        return {i: (h, p, t) for i, h, p, t in self._items_by_id("hash, phase, thread", ids)}

    def accept(self, event: str, items: list[tuple[str, str, str]], all_ids: list[str]) -> None:
        """items: (id, thread, hash) now accepted under `event`; the event names every id of the add."""
        with self._lock, transaction(self._db):
            self._db.executemany(
                "INSERT INTO items VALUES (?, ?, ?, 'accepted', ?) ON CONFLICT(id) DO UPDATE SET "
                "thread = excluded.thread, hash = excluded.hash, phase = 'accepted', event = excluded.event",
                [(i, t, h, event) for i, t, h in items])
            self._db.execute("INSERT OR REPLACE INTO events VALUES (?, ?)", (event, json.dumps(all_ids)))

    def adopt(self, event: str, items: list[tuple[str, str, str]]) -> None:
        """An inbox event found without its rows (a crash between the fsync and this table): take it in."""
        with self._lock, transaction(self._db):
            self._db.executemany("INSERT OR IGNORE INTO items VALUES (?, ?, ?, 'accepted', ?)",
                                 [(i, t, h, event) for i, t, h in items])
            self._db.execute("INSERT OR IGNORE INTO events VALUES (?, ?)",
                             (event, json.dumps([i for i, _, _ in items])))

    def restore(self, items: list[tuple[str, str, str]], landed: set[str]) -> None:
        """Items found on disk but not here (after .twin/ was deleted): landed if a passage holds them."""
        self._many("INSERT OR REPLACE INTO items VALUES (?, ?, ?, ?, NULL)",
                   [(i, t, h, "landed" if i in landed else "accepted") for i, t, h in items])

    def set_phase(self, pairs: list[tuple[str, str]], phase: Phase) -> None:
        """Move (id, hash) pairs forward to `phase`, only where the hash is still the newest (an edit waits)."""
        self._many(f"UPDATE items SET phase = ? WHERE id = ? AND hash = ? AND {RANK} < ?",
                   [(phase.value, i, h, PHASE_ORDER.index(phase)) for i, h in pairs])

    def set_thread_phase(self, thread: str, phase: Phase, ids: list[str] | None = None) -> None:
        """Move a thread's items (or these of them) forward to `phase`; never backward, never an accepted one."""
        rank = {p.value: n for n, p in enumerate(PHASE_ORDER)}
        rows = self._rows("SELECT id, phase FROM items WHERE thread = ?", (thread,))
        chosen = set(ids) if ids is not None else None
        moves = [(phase.value, i) for i, p in rows
                 if (chosen is None or i in chosen) and p != "accepted" and rank.get(p, 0) < rank[phase.value]]
        self._many("UPDATE items SET phase = ? WHERE id = ?", moves)

    def phases(self, ids: list[str]) -> dict[str, Phase]:
        """Each id, as an item or an event, -> its phase; an event is as far as its least advanced item."""
        found = {i: Phase(p) for i, (_, p) in self.item_hashes(ids).items()}
        rest = [i for i in ids if i not in found]
        out: dict[str, Phase] = {}
        for ident in ids:
            if ident in found:
                out[ident] = found[ident]
        for ident in rest:
            row = self._rows("SELECT ids FROM events WHERE id = ?", (ident,))
            if not row:
                out[ident] = Phase.unknown
                continue
            members = self.item_hashes(json.loads(row[0][0]))
            if not members:
                out[ident] = Phase.unknown
                continue
            out[ident] = min((Phase(p) for _, p in members.values()), key=PHASE_ORDER.index)
        return out

    def speakers(self) -> list[str]:
        return [n for (n,) in self._rows("SELECT name FROM speakers ORDER BY name")]

    def add_speakers(self, names: set[str]) -> None:
        self._many("INSERT OR IGNORE INTO speakers VALUES (?)", [(n,) for n in sorted(names)])

    def cuts(self, thread: str) -> dict[str, str]:
        return dict(self._rows("SELECT path, hash FROM cuts WHERE thread = ?", (thread,)))

    def set_cuts(self, thread: str, cuts: dict[str, str]) -> None:
        with self._lock, transaction(self._db):
            self._db.execute("DELETE FROM cuts WHERE thread = ?", (thread,))
            self._db.executemany("INSERT INTO cuts VALUES (?, ?, ?)", [(p, thread, h) for p, h in cuts.items()])

    # windows read: by position in the thread, with the records each gave (a re-read replaces them)
    def windows(self, thread: str) -> dict[int, tuple[str, list[str], str | None]]:
        return {p: (h, json.loads(r or "[]"), f) for p, h, r, f in
                self._rows("SELECT position, hash, records, failed FROM windows WHERE thread = ?", (thread,))}

    def set_window(self, thread: str, position: int, hash: str, records: list[str], failed: str | None) -> None:
        self._many("INSERT OR REPLACE INTO windows VALUES (?, ?, ?, ?, ?)",
                   [(thread, position, hash, json.dumps(records), failed)])

    def failed_windows(self) -> list[tuple[str, int, str]]:
        """(thread, position, why) of every window whose last read failed, newest thread first."""
        return self._rows("SELECT thread, position, failed FROM windows WHERE failed IS NOT NULL "
                          "ORDER BY thread, position")

    def has_phase(self, phase: str) -> bool:
        return bool(self._rows("SELECT 1 FROM items WHERE phase = ? LIMIT 1", (phase,)))

    def fold_all(self) -> None:
        """Everything read so far is in the pages now."""
        with self._lock:
            self._db.execute("UPDATE items SET phase = 'folded' WHERE phase = 'read'")

    def forget(self, ids: list[str], threads: list[str]) -> None:
        """These items are gone; the rest of their threads goes back to landed, to be read again (their windows
        are dropped with their records, filing.drop_records)."""
        with self._lock:
            with transaction(self._db):
                for i in range(0, len(ids), 500):
                    chunk = ids[i:i + 500]
                    self._db.execute(f"DELETE FROM items WHERE id IN ({','.join('?' * len(chunk))})", chunk)
                for thread in threads:
                    self._db.execute("UPDATE items SET phase = 'landed' WHERE thread = ? AND phase IN ('read', "
                                     "'folded')", (thread,))
            self._db.execute("VACUUM")  # nothing of them stays in free pages
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def drop(self, ids: list[str]) -> None:
        """Items whose files went (a merge took them away): no phase any more."""
        self._many("DELETE FROM items WHERE id = ?", [(i,) for i in ids])

    def drop_windows(self, thread: str) -> None:
        self._many("DELETE FROM windows WHERE thread = ?", [(thread,)])

    def phase_counts(self) -> dict[str, int]:
        """How many items are in each phase."""
        return dict(self._rows("SELECT phase, count(*) FROM items GROUP BY phase"))

    def unread_threads(self) -> list[str]:
        return [r[0] for r in self._rows("SELECT DISTINCT thread FROM items WHERE phase = 'landed'")]

    def get(self, key: str, default: str | None = None) -> str | None:
        row = self._rows("SELECT value FROM meta WHERE key = ?", (key,))
        return row[0][0] if row else default

    def put(self, key: str, value: str) -> None:
        self._many("INSERT OR REPLACE INTO meta VALUES (?, ?)", [(key, value)])
