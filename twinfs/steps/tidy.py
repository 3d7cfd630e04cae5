"""The tidy steps: hand edits (what a person changed in a vault's files) committed and indexed again by the one
writer before the other steps (Mending), and what landing left for later done once adds pause (Tidying).

Every step of the writer (landing, reading, folding, correct) commits what it writes before it lets go, so
what `git status` shows under the writer was changed by hand: an item (the source of truth: the passages around
its turns, before the edit and after, are cut again, as landing cuts a turn arriving out of time order, and read
again; only reindex and forget cut a whole thread), a passage (indexed as it now reads; it keeps the edit until
turns land in it and it is cut again), a record file (its records indexed again, the pages folded again) or a
page. The watcher (twinfs/watching.py) calls for this when files change; `Memory.mend` runs it at once.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Callable

from pydantic import ValidationError

from ..background import LAND, LATER
from ..durable import file_stamp, read_exact
from ..ledger import load_records, records_path
from ..passage_keys import is_keys_path, passage_of
from ..passages import passage_id
from ..space import Space, said_order, stored_hash
from .land import Span, index_docs, passage_doc, recut_all
from .read import ADDS_QUIET, YIELD_MAX, drop_records, index_records

log = logging.getLogger("twinfs.mending")
SHOWN = 3  # paths named in the commit message
AGAIN = 3  # times a file saved anew while it was mended is mended again at once


def mend(space: Space) -> list[str]:
    """Commit and index again what was edited by hand; returns the paths (none: nothing was)."""
    changed = space.vault.changes()
    if not changed:
        space.writer.stopped_midway = False
        return []
    written = _settled(space, changed)
    named = ", ".join(changed[:SHOWN]) + (f" and {len(changed) - SHOWN} more" if len(changed) > SHOWN else "")
    if space.writer.stopped_midway:  # not a person's edit: what a step left when it stopped (repair.py)
        space.vault.commit(f"repair: {named} (left uncommitted by a step that stopped midway)", changed + written)
        space.writer.stopped_midway = False
    else:
        space.vault.commit(f"edit: {named} (by hand)", changed + written)
    return changed


def _settled(space: Space, changed: list[str]) -> list[str]:
    """settle(), and again for the files saved anew while it read them (an editor writing in place as the thread
    was cut): the commit stages each file as it is then, so what was cut must be what is committed, or git would
    show nothing left to mend while the passages hold an older or half-saved text. At most AGAIN times."""
    written: list[str] = []
    todo = changed
    for _ in range(AGAIN):
        stamps = {rel: file_stamp(space.vault.path(rel)) for rel in todo}
        written += settle(space, todo)
        todo = [rel for rel in todo if file_stamp(space.vault.path(rel)) != stamps[rel]]
        if not todo:
            break
    return sorted(set(written))


class Mending:
    """The pipeline's first step, in landing's lane: hand edits the watcher saw (and what a step that failed left
    uncommitted) are committed and indexed again before anything else runs. `mend`: Writes.mend."""

    lane = LAND
    marks = None

    def __init__(self, mend: Callable[[Space], object]):
        self.mend = mend

    def __call__(self, space: Space) -> None:
        if space.upkeep.hand_edited:
            with space.writer, space.upkeep.mending():  # looked at again with the next try if it fails
                self.mend(space)


class Tidying:
    """The pipeline's last step: what landing left for later, once the end user's adds pause — the merges of the
    words lane (words.LAND_MERGE) and the git index of a large vault (vault.TREES_FROM) — and then a big index's
    frequent terms decoded for the searches to come (words.WARM_FROM)."""

    lane = LATER
    marks = None

    def __call__(self, space: Space) -> float | None:
        if space.words.untidy() or space.vault.behind:
            wait = space.adds.give_way(ADDS_QUIET, YIELD_MAX)
            if wait:
                return wait  # the seconds to come back after: it gave way to adds
            with space.writer:
                space.words.tidy()
                space.vault.index_caught_up()
        space.words.warm()
        return None


def settle(space: Space, changed: list[str], gone: tuple[str, ...] | list[str] = ()) -> list[str]:
    """Bring the indexes and phases in line with files that changed behind the writer's back (by hand, left by a
    step that stopped, brought by a merge): items' threads cut again, passages and records indexed as they now
    read. `gone`: ids of items whose files went. Returns the paths it wrote or removed itself, to be committed."""
    edited = sorted({rel.split("/")[1] for rel in changed if rel.startswith("items/") and rel.count("/") == 2})
    held = {thread: _held(space, thread, changed) for thread in edited}  # what the writer held before the change
    # a thread whose item file does not read (an editor saving it in place, a slip) keeps its items and passages
    # as the writer holds them, so its turns stay found; the file is committed as it is, and cut when it reads
    # (read once more as a whole, each file as it is now: one may break between the look and the read)
    threads = [thread for thread in edited if not _unreadable(space, held[thread]) and space.reread(thread)]
    for thread in sorted(set(edited) - set(threads)):
        log.warning("%s: an item file of %s edited by hand does not read as its item; the thread stays as it was "
                    "cut until it does", space.user.dirname, thread)
    if gone:
        space.state.drop(list(gone))
    before = {path for thread in threads for path in space.state.cuts(thread)}
    cuts = recut_all(space, {thread: _touched(space, thread, held[thread], changed) for thread in threads})
    indexed = {d.path for done in cuts.values() for d in done.docs}
    kept = {path for done in cuts.values() for path in done.paths}
    written = sorted(indexed | (before - kept))  # what the cuts wrote or took away, not the passages they kept
    for thread in threads:
        _restore_phases(space, thread, changed)
        if not space.thread_items(thread):
            drop_records(space, thread, commit=False)  # a thread left with no items keeps nothing read from them
            written.append(records_path(thread))
    docs, drops = [], []
    for rel in changed:
        if rel.startswith("passages/") and rel.endswith(".md") and rel not in indexed:
            target = space.vault.path(rel)
            if target.is_file():
                docs.append(passage_doc(rel, read_exact(target)))
            else:
                drops.append(passage_id(rel))
    keyed = {passage_of(rel) for rel in changed if is_keys_path(rel)} - indexed - {d.path for d in docs}
    for rel in sorted(keyed):  # a keys file edited: its passage indexed again (with_keys reads it)
        if space.vault.path(rel).is_file():
            docs.append(passage_doc(rel, read_exact(space.vault.path(rel))))
    if docs or drops:
        index_docs(space, docs, drops)
    for rel in changed:
        if rel.startswith("records/") and rel.endswith(".json"):
            thread = rel.removeprefix("records/").removesuffix(".json")
            try:
                index_records(space, thread, load_records(space, thread))
            except (ValueError, ValidationError) as exc:  # broken by hand: committed, kept out of the index
                log.warning("%s: %s is not a list of records (%s); its facts stay out of search until mended",
                            space.user.dirname, rel, str(exc).splitlines()[0])
    return written


def _held(space: Space, thread: str, changed: list[str]) -> dict[str, tuple] | None:
    """Where the writer held each changed item of a thread before the change (its file -> its place in the
    thread), read from what it holds, not from the files that changed; None where it did not hold the thread."""
    if space.cached_ids(thread) is None:
        return None
    edited = {rel for rel in changed if rel.startswith(f"items/{thread}/")}
    return {path: said_order(e) for e in space.thread_items(thread)
            if (path := space.item_path(thread, e["id"])) in edited}


def _unreadable(space: Space, held: dict[str, tuple] | None) -> bool:
    """Whether a changed file of an item the writer holds now holds no item of that id (or does not read)."""
    for path in held or ():
        try:
            entry = json.loads(space.vault.path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            continue  # taken out by hand: cut without it
        except (OSError, ValueError):
            return True
        if not isinstance(entry, dict) or space.item_path(path.split("/")[1], str(entry.get("id"))) != path:
            return True
    return False


def _touched(space: Space, thread: str, held: dict[str, tuple] | None, changed: list[str]) -> Span | None:
    """Where the items that changed in a thread fall in it, before the change and after (new turns brought by a
    merge, an item edited, moved in time or taken out by hand): the passages around those places alone are cut
    again (land.recut), as landing cuts a turn arriving out of time order. None: cut it whole, where the writer
    did not hold the thread before (what moved from where cannot be told), or a changed file holds no item of
    its name (broken, or its id edited: the thread is read again as its files now stand)."""
    if held is None:
        return None
    edited = {rel for rel in changed if rel.startswith(f"items/{thread}/")}
    now = {path: said_order(e) for e in space.thread_items(thread)
           if (path := space.item_path(thread, e["id"])) in edited}
    if any(path not in now and space.vault.path(path).exists() for path in edited):
        return None
    orders = [*held.values(), *now.values()]
    return Span(min(orders), max(orders)) if orders else None


def _restore_phases(space: Space, thread: str, changed: list[str]) -> None:
    """An item edited by hand has landed again as it now reads; reading reads the windows it touches again."""
    rows = []
    prefix = f"items/{thread}/"
    edited = {rel.removeprefix(prefix) for rel in changed if rel.startswith(prefix)}
    for entry in space.thread_items(thread):
        if space.item_path(thread, entry["id"]).removeprefix(prefix) not in edited:
            continue
        try:
            rows.append((entry["id"], thread, stored_hash(entry)))
        except ValidationError as exc:
            log.warning("%s: item %s edited by hand is not a valid item (%s)", space.user.dirname, entry.get("id"),
                        str(exc).splitlines()[0])
    if rows:
        space.state.restore(rows, landed={r[0] for r in rows})
