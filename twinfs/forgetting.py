"""Forget: items (or whole threads) leave the memory with everything derived from them, history included.

As the end user's one writer: what waits in the inbox lands first; the items' files go; their threads are cut
again without them; every record of those threads goes and the rest of each thread is read again from scratch
(a record may say what a forgotten turn said without citing it); the pages are folded again; both lanes drop
the docs and compact, so no segment or cached vector keeps their text; one commit says how many went (never
what), and then every commit is rewritten with those threads' files as they are now, and the old objects pruned.
What is to be rewritten is noted in .git first, so a failure or a crash before the rewrite is finished has it
done by the next forget or the next start.
"""
from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

from . import git_history
from .ledger import dump_records, load_records, records_path
from .space import Space
from .steps.land import land_event, recut_all
from .steps.read import drop_records, index_records

THREAD = re.compile(r"^th_[0-9a-f]{16}$")


def forget(space: Space, ids: list[str]) -> tuple[list[str], list[str], list[str]]:
    """-> (item ids forgotten, ids unknown, threads touched). The caller folds the pages and rewrites history."""
    for event in space.pending():
        land_event(space, event)  # an add still in the inbox is forgotten too
    by_thread: dict[str, set[str]] = {}
    unknown: list[str] = []
    rows = space.state.item_rows(ids)
    for ident in dict.fromkeys(ids):
        if ident in rows:
            by_thread.setdefault(rows[ident][2], set()).add(ident)
        elif THREAD.match(ident) and space.thread_items(ident):
            by_thread.setdefault(ident, set()).update(e["id"] for e in space.thread_items(ident))
        else:
            unknown.append(ident)
    threads = sorted(by_thread)
    forgotten = sorted({i for items in by_thread.values() for i in items})
    if not forgotten:
        return [], unknown, []
    for thread in threads:
        corrections = _corrections(space, thread, by_thread[thread])
        for ident in by_thread[thread]:
            space.drop_item(thread, ident)
        drop_records(space, thread, commit=False)  # the rest of the thread is read again from scratch
        if corrections:  # … but what a person corrected of the turns that stay, stays corrected
            space.vault.write(records_path(thread), dump_records(corrections), durable=False)
            index_records(space, thread, corrections)
    recut_all(space, dict.fromkeys(threads))
    space.state.forget(forgotten, threads)
    space.words.compact()
    space.meaning.compact()
    return forgotten, unknown, threads


def _corrections(space: Space, thread: str, leaving: set[str]) -> list:
    """The records a person retracted or corrected that cite none of the turns leaving the thread."""
    try:
        records = load_records(space, thread)
    except ValueError:
        return []
    made = {r.retracted.get("replaced_by") for r in records if r.retracted}
    return [r for r in records if (r.retracted or r.id in made) and not set(r.turns) & leaving]


def history_paths(space: Space, threads: list[str]) -> list[str]:
    """What forget rewrites in every commit: the threads' items, records and passages (wherever they ever were),
    and the pages."""
    ever = git_history.paths_ever(space.vault, "passages")
    passages = sorted({posixpath.dirname(p) for p in ever if posixpath.basename(posixpath.dirname(p)) in threads})
    return [f"items/{t}" for t in threads] + [records_path(t) for t in threads] + passages + ["pages"]


def purge(space: Space) -> int:
    """Rewrite the history that forgets noted and has not rewritten yet (a failure, a crash in between); the
    commits rewritten (0: nothing waited)."""
    pending = space.vault.purge_pending()
    if not pending:
        return 0
    rewritten = git_history.rewrite_history(space.vault, pending["prefixes"], redact(pending["threads"]))
    space.vault.purge_done()
    return rewritten


def redact(threads: list[str]) -> Callable[[str], str]:
    """A commit message that could carry what was said about these threads (a correction's values and reason,
    the item files edited by hand, whose names are their ids) keeps only what kind of commit it was."""
    def message(body: str) -> str:
        kind = body.split(":", 1)[0]
        if kind in ("correct", "edit") and any(t in body for t in threads):
            return f"{kind}: (forgotten)"
        return body
    return message
