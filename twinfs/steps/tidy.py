"""Hand edits: what a person changed in a vault's files is committed and indexed again by the one writer.

Every step of the writer (landing, reading, folding, correct) commits what it writes before it lets go, so
what `git status` shows under the writer was changed by hand: an item (the source of truth: its thread is cut
again and read again), a passage (indexed as it now reads; it keeps the edit until turns land in it and
it is cut again), a record file (its records indexed again, the pages folded again) or a page. The watcher
(twinfs/watching.py) calls for this when files change; `Memory.mend` runs it at once.
"""
from __future__ import annotations

import logging

from pydantic import ValidationError

from ..ledger import load_records, records_path
from ..passage_keys import is_keys_path, passage_of
from ..passages import passage_id
from ..space import Space, said_order, stored_hash
from ..vault import read_exact
from .land import Span, index_docs, passage_doc, recut_all
from .read import drop_records, index_records

log = logging.getLogger("twinfs.mending")
SHOWN = 3  # paths named in the commit message


def mend(space: Space) -> list[str]:
    """Commit and index again what was edited by hand; returns the paths (none: nothing was)."""
    changed = space.vault.changes()
    if not changed:
        space.writer.stopped_midway = False
        return []
    written = settle(space, changed)
    named = ", ".join(changed[:SHOWN]) + (f" and {len(changed) - SHOWN} more" if len(changed) > SHOWN else "")
    if space.writer.stopped_midway:  # not a person's edit: what a step left when it stopped (repair.py)
        space.vault.commit(f"repair: {named} (left uncommitted by a step that stopped midway)", changed + written)
        space.writer.stopped_midway = False
    else:
        space.vault.commit(f"edit: {named} (by hand)", changed + written)
    return changed


def settle(space: Space, changed: list[str], gone: tuple[str, ...] | list[str] = ()) -> list[str]:
    """Bring the indexes and phases in line with files that changed behind the writer's back (by hand, left by a
    step that stopped, brought by a merge): items' threads cut again, passages and records indexed as they now
    read. `gone`: ids of items whose files went. Returns the paths it wrote or removed itself, to be committed."""
    threads = sorted({rel.split("/")[1] for rel in changed if rel.startswith("items/") and rel.count("/") == 2})
    known = {thread: space.cached_ids(thread) for thread in threads}  # what the writer held before the change
    space.forget_cache(threads)
    if gone:
        space.state.drop(list(gone))
    before = {path for thread in threads for path in space.state.cuts(thread)}
    cuts = recut_all(space, {thread: _added_from(space, thread, known[thread], changed) for thread in threads})
    recut_paths = {path for done in cuts.values() for path in done.paths}
    indexed = {d.path for done in cuts.values() for d in done.docs}
    written = sorted(before | recut_paths)
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


def _added_from(space: Space, thread: str, known: set[str] | None, changed: list[str]) -> Span | None:
    """Where the turns that came into a thread begin, when every changed file of it is a new turn (a merge that
    brought a peer's new messages): its tail alone is cut again (land.recut). None: cut it whole (and when
    the writer did not hold the thread before, so what is new cannot be told)."""
    if known is None:
        return None
    prefix = f"items/{thread}/"
    edited = {rel.removeprefix(prefix) for rel in changed if rel.startswith(prefix)}
    entries = [e for e in space.thread_items(thread) if space.item_path(thread, e["id"]).removeprefix(prefix) in edited]
    if len(entries) != len(edited) or any(e["id"] in known for e in entries):
        return None  # an edit, a removal or a broken file: the whole thread
    orders = [said_order(e) for e in entries]
    return Span(min(orders), max(orders))


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
