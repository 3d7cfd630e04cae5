"""Record files (`records/<thread>.json`): load, write, find by id, correct, and trace a record's lineage."""
from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import PurePosixPath

from . import git_history
from .durable import file_stamp
from .errors import Invalid, NotFound
from .forms import THREAD_ID, to_second
from .models import Record
from .space import Space


def records_path(thread: str) -> str:
    return f"records/{thread}.json"


def load_records(space: Space, thread: str) -> list[Record]:
    """A thread's records; a file broken by hand raises ValueError (nothing is guessed from it)."""
    try:
        text = space.vault.path(records_path(thread)).read_text(encoding="utf-8")
    except FileNotFoundError:  # none yet, or taken away (a thread left with no items) since it was named
        return []
    return [Record.model_validate(r) for r in json.loads(text)]


def kept_records(space: Space, thread: str) -> tuple[Record, ...]:
    """A thread's records as its file now stands, parsed once for each version of the file (durable.file_stamp: size,
    modified time, inode) and kept on the Space: for searches and the brief, which only read them. A file broken by
    hand gives none (left out until mended)."""
    stamp = file_stamp(space.vault.path(records_path(thread)))
    if stamp is None:
        return ()
    kept = space.kept_records.get(thread)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    try:
        records = tuple(load_records(space, thread))  # read after the stat: never older than its stamp
    except (FileNotFoundError, ValueError):
        records = ()
    space.kept_records[thread] = (stamp, records)
    return records


def indexed_record(space: Space, path: str, doc: str) -> Record | None:
    """The record a lane's hit names (`records/<thread>.json#N` and the record's id), as its file now stands; None
    when the file changed since it was indexed (the next read step indexes it again)."""
    rel, _, n = path.partition("#")
    thread = PurePosixPath(rel).stem
    rows = kept_records(space, thread) if rel == records_path(thread) else ()
    if not n.isdigit() or not 1 <= int(n) <= len(rows) or rows[int(n) - 1].id != doc:
        return None
    return rows[int(n) - 1]


def dump_records(records: list[Record]) -> str:
    return json.dumps([r.model_dump(mode="json") for r in records], indent=1, ensure_ascii=False) + "\n"


def all_records(space: Space) -> list[Record]:
    """Every thread's records, threads in order; a file broken by hand left out until mended. Parsed once for
    each version of a file (kept_records): the fold step, the brief and search share them."""
    return [r for f in sorted(space.root.glob("records/th_*.json")) for r in kept_records(space, f.stem)]


def thread_of_record(record_id: str) -> str:
    thread, sep, name = record_id.partition("#")
    if not sep or not THREAD_ID.match(thread) or not name.startswith("r"):
        raise Invalid(f"id '{record_id}' is not a record id (th_<16 hex>#r<name>)", "id")
    return thread


def find(space: Space, record_id: str) -> tuple[list[Record], int]:
    """The thread's records and the index of this one in them."""
    records = load_records(space, thread_of_record(record_id))
    for i, r in enumerate(records):
        if r.id == record_id:
            return records, i
    raise NotFound(f"no record '{record_id}' in this memory")


def correct(space: Space, record_id: str, reason: str, value: str | None,
            now: datetime | None = None) -> tuple[Record, Record | None, list[Record]]:
    """Retract a record, or replace its value: the old one is retracted and a corrected copy takes its place.
    Returns (the retracted record, its replacement or None, the thread's records as they now stand)."""
    from .reading import record_id as make_id

    if not reason.strip():
        raise Invalid("reason must say why the record is wrong", "reason")
    records, i = find(space, record_id)
    old = records[i]
    if old.retracted:
        raise Invalid(f"record '{record_id}' is already retracted", "id")
    at = to_second(now or datetime.now(UTC))
    replacement = None
    if value is not None:
        if not old.attribute:
            raise Invalid(f"record '{record_id}' states no attribute, so it has no value to replace: retract it",
                          "value")
        text = old.text.replace(old.value, value) if old.value and old.value in old.text else \
            f"{old.text} (corrected: {old.attribute} is {value})"
        body = old.model_dump(mode="json") | {"text": text, "value": value, "by": "user", "retracted": None}
        body["id"] = make_id(thread_of_record(record_id), body)
        replacement = Record.model_validate(body)
    retracted = old.model_copy(update={"retracted": {"reason": reason, "at": at,
                                                     **({"replaced_by": replacement.id} if replacement else {})}})
    records[i] = retracted
    if replacement is not None and all(r.id != replacement.id for r in records):
        records.append(replacement)  # at the end: every other record keeps its records/<thread>.json#N
    return retracted, replacement, records


def _record_at(space: Space, rel: str, rev: str, record_id: str) -> dict | None:
    text = git_history.show(space.vault, rel, rev)
    if text is None:
        return None
    try:
        return next((r for r in json.loads(text) if r.get("id") == record_id), None)
    except ValueError:
        return None


def lineage(space: Space, record_id: str) -> dict:
    """The record, the text of its turns, its source passage, and every commit that changed it (newest first)."""
    records, i = find(space, record_id)
    record = records[i]
    thread = thread_of_record(record_id)
    rel = records_path(thread)
    items = {e["id"]: e for e in space.thread_items(thread)}
    turns = [{"id": t, "role": items[t].get("role"), "name": items[t].get("name"), "at": items[t].get("at"),
              "text": items[t].get("text")} if t in items else {"id": t, "text": None} for t in record.turns]
    try:
        with space.passages_lock.shared():  # the passage as one cut left it
            source = space.vault.read(record.source)
    except (FileNotFoundError, IsADirectoryError):
        source = None
    commits = []
    for c in git_history.log(space.vault, rel, limit=500):
        now = _record_at(space, rel, c.sha, record_id)
        before = _record_at(space, rel, f"{c.sha}~1", record_id)
        if now != before:
            commits.append({"sha": c.sha, "message": c.message, "at": c.at})
    return {"record": record.model_dump(mode="json"), "path": f"{rel}#{i + 1}", "turns": turns,
            "source": {"path": record.source, "content": source}, "commits": commits}
