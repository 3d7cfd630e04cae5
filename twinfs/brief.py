"""The brief: the whole answer to a question. The ranked passages and facts (search.py), filtered by the judge
and held or not (filtering.py, holding.py), with `known` and `worked_out` from the end user's records folded into
pages, and notes on how to read them.

Every brief asks for the records folded into pages, so they are kept while the files stand: a record file that
changed is read again alone (a vault of 100,000 passages has thousands of them), and the folds as of a day
(`before`) are kept for the last few days asked about. Whether the files stand is told by a count of their changes
where the watcher sees every one as it happens; elsewhere by a stat of each file (4,670 files at 100,000 passages:
14 ms of a 45 ms fast search).
"""
from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from . import folding, worked
from .filtering import Candidate, Filter
from .holding import holds
from .index import Bounds, TextEmbedder
from .known import known_lines, relevant
from .ledger import all_records
from .models import Hit, Phase, Record, SearchRequest, SearchResult
from .passages import segments_of
from .search import (
    HITS,
    ROLE_NAMES,
    FoundFact,
    first_person,
    question_times,
    rank_facts,
    rank_passages,
    unnamed,
)
from .space import Space
from .steps.read import Reading, record_segment

DAYS_KEPT = 8  # folds as of a day (`before`) kept per end user
UNHELD_PASSAGES, UNHELD_FACTS = 2, 10  # what a brief holding nothing shows: the nearest, to say what is there;
# an answerable question held false by mistake keeps more (LoCoMo brief recall tune / report: 1 passage 0.858 / 0.849,
# 2 passages 0.862 / 0.857), and still fewer than a held brief's 3


@dataclass
class Context:
    """What the brief needs from outside the lanes: the judge, the budget, the pages."""

    judge: Filter | None = None
    reading_waits_until: datetime | None = None
    known: list[str] = field(default_factory=list)
    worked_out: list[str] = field(default_factory=list)


@dataclass
class Folded:
    stamp: tuple = ()
    records: list[Record] = field(default_factory=list)
    pages: list = field(default_factory=list)
    days: OrderedDict = field(default_factory=OrderedDict)  # day -> (records, pages) as of that day


class Briefs:
    """The briefs of a home's end users, with each one's folded records kept while its files stand."""

    def __init__(self, embedder: TextEmbedder, clock: Callable[[], datetime],
                 seen: Callable[[Space], tuple | None] = lambda space: None):
        """`seen(space)`: a stamp of the vault's records/ that changes whenever a file under it does, or None
        where no such count is kept (then each file's own stamp is looked at)."""
        self.embedder = embedder
        self.clock = clock
        self.seen = seen
        self._kept: dict[str, Folded] = {}
        self._lock = threading.Lock()

    def forget(self, name: str) -> None:
        """An end user closed, or changed behind the files' stamps (forget, sync): fold again when asked."""
        with self._lock:
            self._kept.pop(name, None)

    def context(self, space: Space, request: SearchRequest, judge: Filter, reading: Reading | None
                ) -> Context:
        context = Context()
        if request.ranked:
            return context
        org = space.user.org
        waiting = reading is not None and reading.waiting(org)
        if reading is not None and waiting:
            context.reading_waits_until = reading.budget.resumes_at(org)
        if not request.fast and not (waiting and judge.name == "model"):
            context.judge = judge  # an LLM judge spends the budget; spent, the brief goes unfiltered
        before = request.before_at
        records, pages = self.folded(space, before.date().isoformat() if before else None)
        if records:
            wanted = relevant(pages, request.query, self.embedder)
            context.known = known_lines(pages, wanted)
            chosen = {s for s, _ in wanted}
            context.worked_out = worked.conflicts([p for p in pages if p.subject in chosen], wanted)
            today = (before.date().isoformat() if before else self.clock().date().isoformat())
            for line in (worked.count_line(records, request.query), worked.span_line(records, request.query, today)):
                if line:
                    context.worked_out.append(line)
        return context

    def answer(self, space: Space, request: SearchRequest, judge: Filter, reading: Reading | None,
               limit: int = HITS) -> SearchResult:
        return brief(space, request, limit, self.context(space, request, judge, reading))

    def folded(self, space: Space, day: str | None = None) -> tuple[list[Record], list]:
        """The records and the pages they fold into, as the files now stand (said before `day`, when given)."""
        name = space.user.dirname
        counted = self.seen(space)  # taken before the files are read: a change after it changes it again
        stamp = ("counted", counted) if counted is not None else tuple(sorted(_stamps(space).items()))
        with self._lock:
            kept = self._kept.get(name) or Folded()
        if kept.stamp != stamp:
            records = all_records(space)
            kept = Folded(stamp, records, folding.fold(records, self.embedder))
            with self._lock:
                self._kept[name] = kept
        if day is None:
            return kept.records, kept.pages
        with self._lock:
            found = kept.days.get(day)
            if found:
                kept.days.move_to_end(day)
                return found
        earlier = [r for r in kept.records if r.said < day]
        found = (earlier, folding.fold(earlier, self.embedder))
        with self._lock:
            kept.days[day] = found
            while len(kept.days) > DAYS_KEPT:
                kept.days.popitem(last=False)
        return found


def _stamps(space: Space) -> dict[str, tuple]:
    """Record file (its thread) -> (modified, size), from one listing of records/."""
    out: dict[str, tuple] = {}
    try:
        with os.scandir(space.root / "records") as entries:
            for entry in entries:
                if entry.name.startswith("th_") and entry.name.endswith(".json"):
                    try:
                        st = entry.stat()
                    except FileNotFoundError:
                        continue  # taken away since the listing: not a record file any more
                    out[entry.name[:-5]] = (st.st_mtime_ns, st.st_size)
    except FileNotFoundError:
        pass
    return out


def brief(space: Space, req: SearchRequest, limit: int = HITS, context: Context | None = None) -> SearchResult:
    """The answer to `req`: the ranked list when it asks for one (`ranked`), else the brief."""
    bounds = Bounds(scope=req.scope or None, before=req.before_at, after=req.after_at)
    times = question_times(req.query, bounds, space)
    found = rank_facts(space, req.query, bounds, times=times)
    facts = [f.fact for f in found]
    hits = rank_passages(space, req.query, bounds, limit, times=times)
    if req.ranked:
        return SearchResult(query=req.query, found=len(hits), hits=hits, facts=facts or None)
    context = context or Context()
    held = None
    filtered = False
    if not req.fast and context.judge is not None:  # nothing found: every judge holds nothing, and says so
        candidates = [Candidate(f"F{i}", f.fact.text, (record_segment(f.record),))
                      for i, f in enumerate(found, 1)] + \
                     [Candidate(f"P{i}", h.text, tuple(segments_of(h.text))) for i, h in enumerate(hits, 1)]
        verdict = context.judge.judge(req.query, candidates, embed=space.meaning.embed)
        if verdict is not None:
            speakers = tuple(space.speakers())
            named = first_person(req.query, speakers)[1]
            records = []  # found for the question with its names left out: only where they can change a verdict
            if verdict.held and len(named) == 1:
                records = [(f.record.subject, f.score) for f in rank_facts(space, unnamed(req.query, speakers), bounds,
                                                                            times=times)]
            held = verdict.held and holds(space, req.query, named, frozenset(speakers) - ROLE_NAMES, records)
            keep = set(verdict.keep)
            found = [f for i, f in enumerate(found, 1) if f"F{i}" in keep][:None if held else UNHELD_FACTS]
            facts = [f.fact for f in found]
            hits = [h for i, h in enumerate(hits, 1) if f"P{i}" in keep][:None if held else UNHELD_PASSAGES]
            filtered = True
    return SearchResult(query=req.query, found=len(hits), known=context.known or None, facts=facts or None,
                        hits=hits, worked_out=context.worked_out or None,
                        notes=notes(space, found, hits, context), held=held, filtered=filtered)


UNREAD = frozenset({Phase.accepted, Phase.landed})


def unread(space: Space, hits: list[Hit]) -> list[Hit]:
    """The hits holding a turn the reader has not read yet (landed, waiting for a quiet spell or the budget)."""
    phases = space.state.phases(sorted({t for h in hits for t in h.turns}))
    return [h for h in hits if any(phases.get(t) in UNREAD for t in h.turns)]


def notes(space: Space, found: list[FoundFact], hits: list[Hit], context: Context) -> list[str]:
    """How to read the facts: whose words they are, what is not read yet, what waits on the budget. A passage
    is not read yet when one of its turns is not (its phase says so); one read that made no facts is read."""
    out = []
    suggested = [f.record.id for f in found if f.record.by == "assistant"]
    if suggested:
        out.append(f"{', '.join(suggested)} {'is' if len(suggested) == 1 else 'are'} the assistant's suggestion"
                   f"{'' if len(suggested) == 1 else 's'}, not the user's words.")
    fresh = unread(space, hits) if hits else []
    if fresh and len(fresh) == len(hits) and not found:
        out.append("No facts were read from these passages yet: take what they say from their words.")
    else:
        out += [f"{h.id} is newer than every fact (not read yet): take what it says from its words." for h in fresh]
    if context.reading_waits_until is not None:
        until = context.reading_waits_until.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
        out.append(f"Reading is waiting on the daily budget until {until}: the newest turns are in hits only.")
    return out
