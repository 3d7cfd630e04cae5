"""The land step: takes a Space's inbox; files its items, cuts their threads into passages, indexes both lanes,
commits, and marks the items `landed`. Also reindex.

Reconcile by checksum: every step compares hashes and touches only what changed, so landing the same event
twice (after a crash between commit and inbox removal) changes nothing and indexes nothing twice.
"""
from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .. import faults
from ..background import LAND, side
from ..durable import read_exact
from ..index import Doc
from ..ledger import load_records
from ..models import Phase
from ..passage_keys import drop_keys, passage_doc, with_keys
from ..passages import Passage, content_hash, cut, parse, passage_id, render
from ..space import Space, said_order, stored_hash, turns_of
from .read import drop_records, record_docs

Progress = Callable[[int, int], None]
CHUNK = 512  # docs a reindex indexes (and keeps) at a time


def cut_thread(thread: str, entries: list[dict], tail: list[dict] | None = None, first_number: int = 1
               ) -> list[Passage]:
    """The passages a thread's stored items cut into (only those of `tail`, from passage `first_number` on,
    when given); the thread's first item names the kind and source."""
    first = min(entries, key=lambda e: (e["at"], e.get("added", 0)))
    return cut(thread, first["kind"], first.get("source", "memory"), turns_of(entries if tail is None else tail),
               first_number)


def speakers_of(entries: list[dict]) -> set[str]:
    """The names messages are said under, as their passages show them."""
    return {t.speaker for t in turns_of([e for e in entries if e.get("kind") == "message"])}


@dataclass(frozen=True)
class Head:
    """Where a passage begins: its number, its first turn's place in the thread, and whether that turn begins
    there (a long turn cut in pieces may begin in the passage before)."""

    number: int
    order: tuple
    whole: bool


@dataclass
class Cut:
    """A thread cut anew: docs to index, ids to drop, every passage's path and hash, and where each begins.
    Record it with `keep_cut` only once indexed, so a crash in between leaves the old cut and the next
    landing indexes those passages again."""

    docs: list[Doc]
    drops: list[str]
    paths: dict[str, str]
    heads: list[Head]


def keep_cut(space: Space, thread: str, done: Cut) -> None:
    space.state.set_cuts(thread, done.paths)
    space.heads[thread] = done.heads


@dataclass(frozen=True)
class Span:
    """Where the turns just added to a thread fall in it: the first one's place and the last one's."""

    first: tuple
    last: tuple


def recut(space: Space, thread: str, added: Span | None = None) -> Cut:
    """Cut a thread anew from its items; write the passages whose cut changed. `added`: where the turns just
    added, edited or taken out fall. Then only the passages between the last one that begins before them and the
    first one that begins after them are cut again (_region): at the thread's end that is its tail (a long
    conversation is not re-rendered whole for every message added to it); in its middle (a turn arriving out
    of time order, an edit) it is the passage or two around it, and every other passage keeps its turns, its
    number and its file. A passage the window needs beyond the ones it had takes the thread's next free number,
    so numbers no longer say the order once turns arrived out of it (a passage's `from` and `to` do)."""
    entries = space.thread_items(thread)
    before = space.state.cuts(thread)
    if not entries:
        for path in before:
            space.vault.delete(path)
            drop_keys(space, path)
        return Cut([], [passage_id(p) for p in before], {}, [])
    known = space.heads.get(thread)
    if known is None and added is not None and before:
        known = _heads_from_files(space, thread, before)  # after a restart: read back from the passages
    region = _region(known, before, added)
    after: list[Head] = []
    if known is None or region is None:
        heads, now = [], {}
        passages = cut_thread(thread, entries)
    else:
        start, end = region
        ordered = sorted(entries, key=said_order)
        orders = [said_order(e) for e in ordered]
        first = bisect_left(orders, known[start].order) if start else 0  # a turn said before all others too
        last = bisect_left(orders, known[end].order) if end < len(known) else len(ordered)
        passages = cut_thread(thread, entries, ordered[first:last])
        numbers = [h.number for h in known[start:end]]
        top = max((_number(path) for path in before), default=0)
        for n, p in enumerate(passages):
            p.number = numbers[n] if n < len(numbers) else top + 1 + n - len(numbers)
        heads, after = known[:start], known[end:]
        recut_numbers = set(numbers)
        now = {path: h for path, h in before.items() if _number(path) not in recut_numbers}
    docs: list[Doc] = []
    for n, p in enumerate(passages):
        opener = space.thread_item(thread, p.turns[0])
        assert opener is not None, f"{p.turns[0]} of {thread} is cut but not held"
        order = said_order(opener)
        heads.append(Head(p.number, order, n == 0 or p.turns[0] != passages[n - 1].turns[-1]))
        text = render(p)
        h = content_hash(text)
        now[p.path] = h
        target = space.vault.path(p.path)
        # a passage whose cut is unchanged keeps its file, so a correction made there by hand survives
        if before.get(p.path) != h or not target.exists():
            space.vault.write(p.path, text, durable=False)
            docs.append(passage_doc(p.path, text))
    heads += after
    gone = [path for path in before if path not in now]
    for path in gone:
        space.vault.delete(path)
        drop_keys(space, path)
    return Cut(docs, [passage_id(p) for p in gone], now, heads)


def _heads_from_files(space: Space, thread: str, before: dict[str, str]) -> list[Head] | None:
    """Where each passage begins, from the passage files the last cut wrote (a restart forgot it), or None
    where a file is not as that cut left it (edited by hand, gone) or names a turn the thread does not hold:
    then the thread is cut whole. A read of the thread's passages, once a thread a start."""
    found = []
    for path, kept in before.items():
        try:
            text = read_exact(space.vault.path(path))
        except (OSError, UnicodeDecodeError):
            return None
        turns = parse(text).turns
        item = space.thread_item(thread, turns[0]) if turns else None
        if content_hash(text) != kept or item is None:
            return None
        found.append((said_order(item), _number(path), turns))
    found.sort(key=lambda f: (f[0], f[1]))  # the pieces of a long turn were numbered in their order
    return [Head(number, order, n == 0 or turns[0] != found[n - 1][2][-1])
            for n, (order, number, turns) in enumerate(found)]


def _number(path: str) -> int:
    return int(path.rsplit("_", 1)[-1].removesuffix(".md"))


def _region(heads: list[Head] | None, before: dict[str, str], added: Span | None) -> tuple[int, int] | None:
    """Which passages (heads[start:end], in time order) to cut again, or None: cut the whole thread. From the
    last passage that begins with a whole turn said before the first turn touched, to the first that begins
    with a whole turn said after the last one touched (the thread's end when none does). A cut begins afresh
    at each passage (passages.cut), so the passages outside come out of a whole cut of them as they are."""
    if not heads or added is None or len(heads) != len(before) or \
            sorted(_number(p) for p in before) != sorted(h.number for h in heads):
        return None  # nothing known of the last cut (a restart, a hand edit), or no cut yet: cut it whole
    start = next((n for n in range(len(heads) - 1, -1, -1) if heads[n].whole and heads[n].order < added.first), 0)
    end = next((n for n in range(start + 1, len(heads)) if heads[n].whole and heads[n].order > added.last),
               len(heads))
    return start, end


def index_docs(space: Space, docs: list[Doc], drops: list[str], meanwhile: Callable[[], object] | None = None
               ) -> None:
    """Both lanes; the meaning lane embeds on a side thread while the words lane (and `meanwhile`) run here."""
    docs = with_keys(space, docs)
    meaning = side.submit(space.meaning.apply, docs, drops)
    try:
        space.words.apply(docs, drops)
        if meanwhile:
            meanwhile()
    finally:
        meaning.result()


def recut_all(space: Space, threads: dict[str, Span | None], meanwhile: Callable[[], object] | None = None
              ) -> dict[str, Cut]:
    """Cut these threads anew (each from where its new turns begin, when known: see recut), index what changed
    in both lanes, and keep the cuts."""
    with space.passages_lock.exclusive():  # readers see each cut whole: before it or after it
        cuts = {thread: recut(space, thread, added) for thread, added in threads.items()}
    index_docs(space, [d for c in cuts.values() for d in c.docs], [i for c in cuts.values() for i in c.drops],
               meanwhile)
    for thread, done in cuts.items():
        keep_cut(space, thread, done)
    return cuts


def _touch(touched: dict[str, Span | None], thread: str, orders: list[tuple] | None) -> None:
    """Widen a thread's touched span by these places; None (a place not known): the whole thread."""
    if orders is None or (thread in touched and touched[thread] is None):
        touched[thread] = None
        return
    span = touched.get(thread)
    touched[thread] = Span(min(orders if span is None else [span.first, *orders]),
                           max(orders if span is None else [span.last, *orders]))


def land_event(space: Space, event: str) -> list[str]:
    """File one inbox event. Returns the threads it touched."""
    entries = space.take_inbox(event)
    space.state.adopt(event, [(e["id"], e["thread"], e["hash"]) for e in entries])
    by_thread: dict[str, list[dict]] = defaultdict(list)
    touched: dict[str, Span | None] = {}  # thread -> where the turns added, edited or taken out fall
    for e in entries:
        thread = e["thread"]
        stored = {k: v for k, v in e.items() if k not in ("hash", "moved_from")}
        was = None if e.get("moved_from") else space.thread_item(thread, e["id"])
        if was is not None and stored_hash(was) == e["hash"]:
            _touch(touched, thread, None)  # an earlier try wrote it, then failed: where it was is not told
        _touch(touched, thread, [said_order(stored)] + ([said_order(was)] if was else []))
        by_thread[thread].append(e)
        space.put_item(thread, stored)
        if e.get("moved_from"):  # taken out of its old thread once it is in the new one: never in neither
            gone = space.thread_item(e["moved_from"], e["id"])
            _touch(touched, e["moved_from"], [said_order(gone)] if gone else None)
            space.drop_item(e["moved_from"], e["id"])
            by_thread.setdefault(e["moved_from"], [])
    threads = sorted(by_thread)
    where = threads[0] if len(threads) == 1 else f"{len(threads)} threads ({', '.join(threads[:3])}…)"
    recut_all(space, {thread: touched.get(thread) for thread in by_thread},
              # the commit needs no index: it runs while the turns are embedded
              meanwhile=lambda: space.vault.commit_written(f"add: {len(entries)} item{'s' if len(entries) != 1 else ''}"
                                                   f" to {where}"))
    space.add_speakers(speakers_of(entries))
    for thread in threads:
        if not space.thread_items(thread):
            drop_records(space, thread)  # a thread left with no items keeps nothing read from them
    faults.point("land")
    space.state.set_phase([(e["id"], e["hash"]) for e in entries], Phase.landed)
    space.drop_inbox(event)
    return threads


def reindex(space: Space, progress: Progress | None = None) -> dict[str, int]:
    """Rebuild .twin/ from the files: both lanes, phases and cuts. Unchanged passages are not embedded again."""
    space.forget_cache()
    root: Path = space.root
    files = sorted(root.glob("passages/**/*.md"))
    docs = []
    for n, f in enumerate(files, 1):
        rel = f.relative_to(root).as_posix()
        docs.append(passage_doc(rel, read_exact(f)))
        if progress:
            progress(n, len(files))
    n_passages = len(docs)
    docs = with_keys(space, docs)
    for f in sorted(root.glob("records/*.json")):
        try:
            docs += record_docs(f.stem, load_records(space, f.stem))
        except ValueError:
            continue  # a record file broken by hand stays out of the index until it is mended
    ids = {d.id for d in docs}
    stats = {"passages": n_passages, "records": len(docs) - n_passages, "changed": 0, "removed": 0, "embedded": 0}
    for lane in (space.words, space.meaning):
        known = lane.hashes()
        changed = [d for d in docs if known.get(d.id) != d.hash]
        removed = [i for i in known if i not in ids]
        # in chunks, each kept once done: a reindex killed midway (hours, at 100,000 passages) goes on from there
        for start in range(0, max(1, len(changed)), CHUNK):
            embedded = lane.apply(changed[start:start + CHUNK], removed if start == 0 else [])
            if lane is space.meaning:
                stats["embedded"] += embedded or 0
                if progress:
                    progress(len(files) + min(len(changed), start + CHUNK), len(files) + len(changed))
        stats["changed"] = max(stats["changed"], len(changed))
        stats["removed"] = max(stats["removed"], len(removed))
    _rebuild_state(space)
    return stats


def _rebuild_state(space: Space) -> None:
    """Phases and cuts from the files: an item found in some passage has landed; the others land again."""
    in_passages: set[str] = set()
    for f in space.root.glob("passages/**/*.md"):
        in_passages.update(parse(read_exact(f)).turns)
    for thread in space.threads():
        entries = space.thread_items(thread)
        if not entries:
            continue
        rows = [(e["id"], thread, stored_hash(e)) for e in entries]
        space.add_speakers(speakers_of(entries))
        known = space.state.item_hashes([r[0] for r in rows])
        fresh = [r for r in rows if r[0] not in known or known[r[0]][0] != r[2]]
        if fresh:
            space.state.restore(fresh, landed={r[0] for r in fresh if r[0] in in_passages})
        if all(r[0] in in_passages for r in rows):
            space.state.set_cuts(thread, {p.path: content_hash(render(p)) for p in cut_thread(thread, entries)})
            continue
        recut_all(space, {thread: None})  # items filed but never cut (a crash, a hand-added file)
        space.state.set_phase([(r[0], r[2]) for r in rows], Phase.landed)
        space.vault.commit(f"land: {thread} (reindex)")


class Troubles(Protocol):
    """What the land step tells the pipeline of adds that fail to land (jobs.Pipeline keeps the back-off, and
    status says so): an event that fails stays first in line, tried again after a pause."""

    closed: bool

    def waiting(self, name: str, what: str) -> float | None: ...  # when a back-off of `what` under way ends

    def failed(self, space: Space, what: str, exc: Exception) -> None: ...

    def cleared(self, name: str, what: str) -> None: ...

    def retry(self, name: str, due: float) -> None: ...


class Landing:
    """The land step, in the pipeline's first lane: the inbox lands in the order adds were accepted (an edit
    never lands before what it edits), one add per turn of the writer, so a correct, a forget or a sync waits
    one landing, not the whole inbox. An add that fails is tried again with back-off; the later steps go on."""

    lane = LAND
    marks = Phase.landed

    def __init__(self, troubles: Troubles):
        self.troubles = troubles

    def __call__(self, space: Space) -> None:
        name = space.user.dirname
        while not self.troubles.closed:
            with space.writer:  # the back-off is asked holding the writer: the other lane may have just failed
                due = self.troubles.waiting(name, "landing")
                if due is not None:
                    self.troubles.retry(name, due)
                    return
                events = space.pending()
                if not events:
                    self.troubles.cleared(name, "landing")
                    return
                try:
                    land_event(space, events[0])
                    self.troubles.cleared(name, "landing")
                except Exception as exc:
                    self.troubles.failed(space, f"landing of {len(events)} add{'s' if len(events) != 1 else ''}",
                                         exc)
                    return
                finally:
                    with space.landed:
                        space.landed.notify_all()
