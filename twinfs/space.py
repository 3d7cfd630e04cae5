"""Everything of one end user in one place: the vault, its inbox, its phases, its two indexes, its one writer,
and what is known of it beyond its files (condition.py: where it stands, its upkeep, the pace of its adds)."""
from __future__ import annotations

import hashlib
import json
import os
import secrets
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from .condition import Adds, Standing, Upkeep
from .durable import atomic_write, fsync_dir
from .forms import as_utc, iso
from .index import TextEmbedder
from .index.meaning import MeaningIndex
from .index.words import WordIndex
from .models import EndUser, Item
from .passage_lock import PassageLock
from .passages import TURN_LINE, Turn
from .paths import item_filename, thread_id
from .state import State
from .vault import Vault

WRITING = "twin-writing"  # the writer's mark in .git


def new_event_id() -> str:
    """Sortable by time, so the inbox is applied in the order adds were accepted."""
    return f"ev_{time.time_ns():016x}{secrets.token_hex(4)}"


def item_hash(item: Item) -> str:
    raw = json.dumps(item.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


def stored_hash(entry: dict) -> str:
    """item_hash of an item as stored in its file (a ValidationError when a hand edit broke it)."""
    return item_hash(Item(**{k: v for k, v in entry.items() if k in Item.model_fields}))


def thread_of(user: EndUser, item: Item) -> str:
    if item.kind == "message":
        return thread_id(user.dirname, "message", item.conversation or "default")
    return thread_id(user.dirname, "document", item.conversation or item.id)


_added_lock = threading.Lock()
_last_added = 0


def added_stamp() -> int:
    """A strictly increasing stamp (ns): turns said at the same time keep the order they were added in."""
    global _last_added
    with _added_lock:
        _last_added = max(time.time_ns(), _last_added + 1)
        return _last_added


class Writer:
    """The one writer of a vault's files, git and indexes: a lock that leaves a mark in .git while it is held.
    A mark found when the vault is opened says a step stopped midway (a crash, or a step that failed): what it
    left uncommitted is repaired as that, not taken for an edit by hand."""

    def __init__(self, mark: Path, on_enter: Callable[[], None] | None = None):
        self.mark = mark
        self.on_enter = on_enter  # the owner notes the vault in the home's pending index first (pending.py)
        self._turns = threading.Condition()  # first come, first served: the pipeline never starves a correct
        self._next = self._serving = 0
        self._gone: set[int] = set()  # tickets whose holder stopped waiting (an interrupt): skipped
        self.stopped_midway = False  # a step failed while holding: its leftovers are a repair's, not a person's
        self._steps = 0  # steps holding the writer or waiting for it (not a bare turn: closing waits so)

    def __enter__(self) -> Writer:
        with self._turns:
            self._steps += 1
        try:
            self.take_turn()
        except BaseException:
            self._step_done()
            raise
        try:
            if self.on_enter:
                self.on_enter()
            self.mark.write_bytes(b"")
        except OSError:
            pass  # a full or read-only disk: the step itself will say so
        except BaseException:
            self._step_done()
            self.give_turn()
            raise
        return self

    def _step_done(self) -> None:
        with self._turns:
            self._steps -= 1

    def __exit__(self, kind, exc, tb) -> None:
        try:
            if kind is None:
                self.mark.unlink(missing_ok=True)
            else:
                self.stopped_midway = True
        except OSError:
            pass
        finally:
            self._step_done()
            self.give_turn()

    def take_turn(self) -> None:
        """Wait for the writer's turn without a step of one's own (no mark made or removed): closing a vault
        waits so for the step under way. `give_turn` ends it."""
        with self._turns:
            ticket = self._next
            self._next += 1
            try:
                self._turns.wait_for(lambda: self._serving == ticket)
            except BaseException:
                if self._serving == ticket:
                    self._advance()
                else:
                    self._gone.add(ticket)
                raise

    def give_turn(self) -> None:
        with self._turns:
            self._advance()

    def _advance(self) -> None:
        self._serving += 1
        while self._serving in self._gone:
            self._gone.discard(self._serving)
            self._serving += 1
        self._turns.notify_all()

    def locked(self) -> bool:
        """Held, or a step waits for its turn."""
        with self._turns:
            return self._serving != self._next

    def stepping(self) -> bool:
        """A step holds the writer or waits for it (a bare turn, such as closing's wait, is not one)."""
        with self._turns:
            return self._steps > 0


class Space:
    """One end user's memory as stored. Writes go through the pipeline's one writer for this end user; a
    read-only Space (beside another process that owns the home) never writes anything."""

    def __init__(self, home: Path, user: EndUser, embedder: TextEmbedder, read_only: bool = False,
                 machine: str = "localhost"):
        self.user = user
        self.root = home / "users" / user.dirname
        self.vault = Vault(self.root, machine)
        self.inbox = self.root / ".inbox"
        self.read_only = read_only
        self._embedder = embedder
        self._opened = threading.Lock()
        self._state: State | None = None
        self._words: WordIndex | None = None
        self._meaning: MeaningIndex | None = None
        self.accept_lock = threading.Lock()  # adds of this end user take turns writing the inbox
        self.writer = Writer(self.root / ".git" / WRITING)  # the one writer of files, git and indexes
        self.passages_lock = PassageLock(self.root / ".twin")  # readers see a cut whole, never half-written
        self.opening = threading.Lock()
        self.syncing = threading.Lock()  # two syncs of one vault take turns
        self.standing = Standing()  # repaired when first opened, or broken and why; moved to another server
        self.upkeep = Upkeep()  # hand edits to mend, a rebuild under way
        self.adds = Adds()  # the pace of its adds, that background work gives way to
        self.landed = threading.Condition()
        self._threads: dict[str, dict[str, dict]] = {}  # thread -> item id -> stored item (the writer's cache)
        self.heads: dict[str, list] = {}  # thread -> where its passages begin, as landing last cut them
        self._speakers: set[str] | None = None  # speakers(), once read
        self.kept_records: dict[str, tuple] = {}  # thread -> (its file's stamp, its records): ledger.kept_records

    @property
    def exists(self) -> bool:
        return self.vault.exists

    def create(self) -> None:
        self.vault.init(self.user.dirname)
        self.inbox.mkdir(exist_ok=True)

    @property
    def state(self) -> State:
        with self._opened:
            if self._state is None:
                self._state = State(self.root / ".twin" / "state.sqlite", read_only=self.read_only)
            return self._state

    @property
    def words(self) -> WordIndex:
        with self._opened:
            if self._words is None:
                self._words = WordIndex(self.root / ".twin" / "whoosh", read_only=self.read_only)
            return self._words

    @property
    def embedder(self) -> TextEmbedder:
        return self._embedder

    @property
    def meaning(self) -> MeaningIndex:
        with self._opened:
            if self._meaning is None:
                self._meaning = MeaningIndex(self.root / ".twin" / "meaning", self._embedder,
                                             read_only=self.read_only)
            return self._meaning

    def speakers(self) -> list[str]:
        """The names turns are said under in this memory ("Alice Chen", "Assistant"), kept in memory since every
        search asks. Landing records them; a vault landed before they were recorded has them read once from its
        passages."""
        with self._opened:
            known = self._speakers
        if known is None:
            known = set(self.state.speakers())
            if not known:
                known = {m.group(1) for f in self.root.glob("passages/*/messages/*/p_*.md")
                         for m in TURN_LINE.finditer(f.read_text(encoding="utf-8", errors="replace"))}
                if not self.read_only:
                    self.state.add_speakers(known)
            with self._opened:
                self._speakers = known
        return sorted(known)

    def add_speakers(self, names: set[str]) -> None:
        """New speakers seen by the writer: recorded, and known to searches at once."""
        self.state.add_speakers(names)
        with self._opened:
            if self._speakers is not None:
                self._speakers = self._speakers | names

    def close(self) -> None:
        """Let go of every file, connection and git process this Space holds; it opens them again if used."""
        with self._opened:
            if self._state:
                self._state.close()
            if self._meaning:
                self._meaning.close()
            if self._words:
                self._words.close()
            self.vault.close()
            self._state = self._words = self._meaning = None
            self._speakers = None
            self.kept_records = {}

    @property
    def idle(self) -> bool:
        """Nothing about it lives only in this object (its leases are Spaces'): it may be closed and opened
        again later as it is."""
        return not self.writer.locked() and not self.opening.locked() and not self.upkeep.hand_edited \
            and not self.writer.stopped_midway and not self.upkeep.rebuilding and not self.vault.behind

    def put_inbox(self, event: str, entries: list[dict]) -> None:
        atomic_write(self.inbox / f"{event}.json", json.dumps({"event": event, "items": entries}, ensure_ascii=False))

    def _inbox_events(self) -> list[str]:
        try:
            with os.scandir(self.inbox) as entries:
                return [e.name[:-5] for e in entries if e.name.startswith("ev_") and e.name.endswith(".json")]
        except FileNotFoundError:
            return []

    def pending(self) -> list[str]:
        """Inbox events in the order they were accepted (their ids sort by time)."""
        return sorted(self._inbox_events())

    def pending_count(self) -> int:
        return len(self._inbox_events())

    def take_inbox(self, event: str) -> list[dict]:
        return json.loads((self.inbox / f"{event}.json").read_text(encoding="utf-8"))["items"]

    def drop_inbox(self, event: str) -> None:
        (self.inbox / f"{event}.json").unlink(missing_ok=True)
        fsync_dir(self.inbox)

    # items as stored
    @staticmethod
    def item_path(thread: str, item_id: str) -> str:
        return f"items/{thread}/{item_filename(item_id)}"

    def thread_items(self, thread: str) -> list[dict]:
        """A thread's stored items. Read from the files once, then kept up to date by the one writer (a long
        conversation would otherwise be read whole for every message added to it)."""
        cached = self._threads.get(thread)
        if cached is None:
            cached = self._threads[thread] = self._read_thread(thread)[0]  # a file broken by hand is skipped
        return list(cached.values())

    def reread(self, thread: str) -> bool:
        """Read a thread's items again from its files, as a hand edit left them; False, the items kept as the
        writer held them, when a file does not read as an item (an editor saving it in place: looked at again
        once it is saved; a slip: the thread is cut again when it is mended)."""
        items, broken = self._read_thread(thread)
        if broken:
            return False
        self._threads[thread] = items
        return True

    def _read_thread(self, thread: str) -> tuple[dict[str, dict], int]:
        """A thread's items as its files hold them, and how many files did not read as an item."""
        folder = self.root / "items" / thread
        items: dict[str, dict] = {}
        broken = 0
        for f in folder.glob("*.json") if folder.is_dir() else []:
            try:
                entry = json.loads(f.read_text(encoding="utf-8"))
                items[entry["id"]] = entry
            except FileNotFoundError:
                continue  # taken out meanwhile
            except (OSError, ValueError, KeyError, TypeError):
                broken += 1
        return items, broken

    def cached_ids(self, thread: str) -> set[str] | None:
        """The ids of a thread's items as the writer holds them, without reading a file (None: not held)."""
        cached = self._threads.get(thread)
        return None if cached is None else set(cached)

    def thread_item(self, thread: str, item_id: str) -> dict | None:
        self.thread_items(thread)
        return self._threads[thread].get(item_id)

    def put_item(self, thread: str, entry: dict) -> None:
        self.vault.write(self.item_path(thread, entry["id"]),
                         json.dumps(entry, indent=1, ensure_ascii=False) + "\n", durable=False)
        if thread in self._threads:
            self._threads[thread][entry["id"]] = entry

    def drop_item(self, thread: str, item_id: str) -> None:
        self.vault.delete(self.item_path(thread, item_id))
        self._threads.get(thread, {}).pop(item_id, None)

    def forget_cache(self, threads: list[str] | None = None) -> None:
        """Files changed behind the writer's back (reindex, a hand edit, a merge): read them again (of these
        threads only, when given)."""
        if threads is None:
            self._threads.clear()
            self.heads.clear()
            return
        for thread in threads:
            self._threads.pop(thread, None)

    def threads(self) -> list[str]:
        folder = self.root / "items"
        return sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []


def said_order(entry: dict) -> tuple:
    """Where a stored item falls in its thread: the order said (ties: the order added)."""
    return (entry["at"], entry.get("added", 0), entry["id"])


def turns_of(entries: list[dict]) -> list[Turn]:
    """Stored items of a thread -> turns in the order said."""
    turns = []
    for e in sorted(entries, key=said_order):
        at = as_utc(datetime.fromisoformat(e["at"].replace("Z", "+00:00")))
        turns.append(Turn(id=e["id"], kind=e["kind"], text=e["text"], at=at, role=e.get("role"),
                          name=e.get("name"), title=e.get("title")))
    return turns


def stored_item(item: Item, thread: str, added: int, clock: str | None = None) -> dict:
    """An item as its file holds it: the item, its thread, when it was added here and its stamp (clock.py)."""
    data = item.model_dump(mode="json", exclude_none=True)
    data["at"] = iso(item.at)
    data["thread"] = thread
    data["added"] = added
    if clock:
        data["clock"] = clock
    return data
