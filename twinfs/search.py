"""Ranking: the two lanes (words, meaning), fused, lifted by the times and people a question names; the passages
and the facts best first. The brief built from them is brief.py's."""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from functools import lru_cache

from . import continuation
from .event_times import event_spans
from .forms import iso
from .index import Bounds
from .ledger import indexed_record
from .models import Fact, Hit, Record
from .passage_keys import KEY_SPEAKER
from .passages import MAX_CHARS, parse
from .reading.dates import TimeSpan, as_day, days_in, time_spans
from .space import Space

RRF_K = 60  # reciprocal-rank fusion's damping constant (Cormack et al.), kept for comparison in the bench
WORDS_WEIGHT = 0.35  # score fusion: 0.35 x BM25/best BM25 + 0.65 x cosine; best of those measured on LoCoMo
LANE_DEPTH = 50
MEANING_FLOOR = 0.2  # a meaning-lane candidate below this cosine is unrelated to the question
HITS = 10  # passages in an unfiltered answer
FACTS = 30  # facts in an answer: short and dated, 30 cost about what two passages do, and a question whose
# answer is spread over many sessions finds it in them (LoCoMo brief recall 0.816 with 15 -> 0.857 with 30)
DATE_BOOST = 0.2  # how much being said (or having happened) inside a time the question names lifts a doc
SPEAKER_LIFT = 0.05  # how much a turn said by someone the question names gains in the meaning lane
CHAT_WORDS_WEIGHT = 0.1  # the same share in a chat with the assistant
PER_THREAD = 2  # in a question that gathers (GATHERS), passages of one thread before those of others
GATHERS = re.compile(r"\b(?:how many|how much|in total|total|altogether|both|all the)\b", re.IGNORECASE)
ROLE_LIFT = 0.2  # how much a turn of the side a question does not ask about loses, in a chat with the assistant
LATE = 0.0  # late interaction past the best turn: a passage's meaning score also gains this share of its second
# best segment's cosine (0: its best segment alone, as the lane has scored since it had segments). Not the default:
# on the tuning halves 0.2 lifted LoCoMo R@5 0.847 -> 0.852 but lowered LongMemEval turn@5 0.951 -> 0.924, and 0.1
# moved neither (bench/results/locomo_recall.md and longmemeval_recall.md, 2026-12-04)
KEYS = True  # passages found by their keys too (passage_keys.py); False: by their own text alone (the bench's
# "without keys" column)


def fuse(lanes: list[list[tuple[str, str, float]]], k: int = RRF_K) -> list[tuple[str, str, float]]:
    """Reciprocal-rank fusion: each lane adds 1/(k + rank) for each doc it ranks."""
    score: dict[str, float] = {}
    path: dict[str, str] = {}
    for lane in lanes:
        for rank, (doc, where, _) in enumerate(lane, 1):
            score[doc] = score.get(doc, 0.0) + 1.0 / (k + rank)
            path.setdefault(doc, where)
    return [(d, path[d], s) for d, s in sorted(score.items(), key=lambda kv: -kv[1])]


def blend(lanes: list[list[tuple[str, str, float]]], words_weight: float = WORDS_WEIGHT
          ) -> list[tuple[str, str, float]]:
    """Score fusion: BM25 scaled by the best BM25 of this question, plus the cosine of the meaning lane.
    On LoCoMo it beat reciprocal-rank fusion at every k tried (bench/README.md)."""
    words, meaning = lanes
    score: dict[str, float] = {}
    path: dict[str, str] = {}
    top = words[0][2] if words and words[0][2] > 0 else 1.0
    for doc, where, s in words:
        score[doc] = words_weight * s / top
        path[doc] = where
    for doc, where, s in meaning:
        score[doc] = score.get(doc, 0.0) + (1 - words_weight) * s
        path.setdefault(doc, where)
    return [(d, path[d], s) for d, s in sorted(score.items(), key=lambda kv: -kv[1])]


def lanes(space: Space, query: str, bounds: Bounds, depth: int = LANE_DEPTH) -> list[list[tuple[str, str, float]]]:
    """Words over the question as asked; meaning over passages as the people it names would ask it."""
    return [space.words.search(query, bounds, depth, keys=KEYS), meaning_lane(space, query, bounds, depth)]


def meaning_lane(space: Space, query: str, bounds: Bounds, depth: int = LANE_DEPTH) -> list[tuple[str, str, float]]:
    """Over passages, the question in the first person of the speakers it names, their own turns lifted by
    SPEAKER_LIFT; in a chat with the assistant, the turns of the side it does not ask about lowered by ROLE_LIFT
    (lowered, so a document, which no one says, keeps its place beside the side asked). A fact keeps its
    subject's name ("Caroline went hiking"), so facts meet the question as asked."""
    if bounds.type != "passage":
        return space.meaning.search(query, bounds, depth, floor=MEANING_FLOOR)
    asked, favour, lift = meaning_asks(space, query)
    without = frozenset() if KEYS else frozenset({KEY_SPEAKER})
    return space.meaning.search(asked, bounds, depth, floor=MEANING_FLOOR, favour=favour, lift=lift,
                                without=without, second=LATE)


def meaning_asks(space: Space, query: str) -> tuple[str, frozenset[str], float]:
    """How the meaning lane asks over passages: the text it embeds, whose turns it moves and by how much."""
    speakers = tuple(space.speakers())
    asked, named = first_person(query, speakers)
    if named:
        return asked, named, SPEAKER_LIFT
    side = side_asked(query, speakers)
    return query, frozenset(speakers) - side if side else frozenset(), -ROLE_LIFT


def words_weight(space: Space, query: str) -> float:
    """The words lane's share of a passage's score: CHAT_WORDS_WEIGHT in a chat with the assistant that the
    question names no one of, WORDS_WEIGHT otherwise."""
    speakers = tuple(space.speakers())
    return CHAT_WORDS_WEIGHT if side_asked(query, speakers) and not first_person(query, speakers)[1] else WORDS_WEIGHT


ASSISTANT = "Assistant"  # how an assistant's turn without a name shows
# a question about what the assistant said before ("you recommended", "remind me", "our previous chat"); "can you
# suggest" asks for something new, and its answer is in what the user said of themselves
ASKS_ASSISTANT = re.compile(
    r"\byou\s+(?:\w+ly\s+)?(?:told|recommended|suggested|mentioned|said|gave|provided|listed|explained|shared|"
    r"described|wrote|named|offered|came up with)\b|"
    r"\b(?:did|had) you\s+(?:\w+ly\s+)?(?:tell|recommend|suggest|mention|say|give|provide|list|explain|share|"
    r"describe|write|name|offer|come up with)\b|\bremind me\b|"
    r"\bour (?:previous|last|earlier|past)\s+(?:conversation|chat|discussion|talk)\b|"
    r"\bwe (?:discussed|talked about|went over|outlined|covered)\b", re.IGNORECASE)


def side_asked(query: str, speakers: tuple[str, ...]) -> frozenset[str]:
    """In a chat with the assistant, whose turns a question is about: the assistant's when it asks what was
    said to the user, else the user's own (a memory of the user's life is what they said of it)."""
    if ASSISTANT not in speakers:
        return frozenset()
    if ASKS_ASSISTANT.search(query):
        return frozenset({ASSISTANT})
    return frozenset(speakers) - {ASSISTANT, "System", "Tool"}


ROLE_NAMES = frozenset({"User", "Assistant", "System", "Tool", "Someone"})  # what a turn without a name shows


@lru_cache(maxsize=256)
def _names(speakers: tuple[str, ...]) -> tuple[re.Pattern | None, dict[str, frozenset[str]]]:
    """A pattern for the speakers' names and their parts ("Alice Chen", "Alice", "Chen"), and who each names."""
    named: dict[str, set[str]] = {}
    for name in speakers:
        if name in ROLE_NAMES:
            continue
        for part in {name, *name.split()}:
            if len(part) > 1 and part[0].isupper():
                named.setdefault(part, set()).add(name)
    if not named:
        return None, {}
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, named), key=len, reverse=True)) + r")(['’]s)?\b")
    return pattern, {part: frozenset(names) for part, names in named.items()}


def first_person(query: str, speakers: tuple[str, ...]) -> tuple[str, frozenset[str]]:
    """The question as the speakers it names would ask it of themselves ("What did Caroline research?" ->
    "What did I research?", "Caroline's" -> "my"), and who they are. People speak of themselves as "I": the
    turn that answers is nearly always the named person's own (96% of LoCoMo's evidence turns), and a name
    weighs so much in MiniLM's vector that "Caroline" drew every turn Caroline said. When one person is named,
    "she", "his", "her" ... are taken as theirs. The words lane still matches the names. LoCoMo fast recall@5:
    0.837 with the mean of the cosines to the question as asked and with the names put as "they"; 0.846 with
    this and their turns lifted by SPEAKER_LIFT; 0.848 with the words lane's weight 0.4 -> 0.35; 0.852 with the
    pronouns (bench/README.md)."""
    pattern, named = _names(speakers)
    if pattern is None:
        return query, frozenset()
    who: set[str] = set()

    def swap(m: re.Match) -> str:
        opening = not query[:m.start()].strip() or query[:m.start()].rstrip()[-1] in ".?!"
        if opening and m.group(1).lower() in ASKING and not m.group(2):
            return m.group(0)  # "Will Caroline go?" asks; it does not name Will
        who.update(named[m.group(1)])
        return "my" if m.group(2) else "I"

    asked = pattern.sub(swap, query)
    if len(who) == 1:
        asked = PRONOUN.sub(lambda m: _pronoun(m.group(1).lower(), m.group(2)), asked)
    return asked, frozenset(who)


def unnamed(query: str, speakers: tuple[str, ...]) -> str:
    """The question with the speakers' names left out ("What did someone realize?"): the records it finds
    are those of what it asks, whoever they are about, so their subjects can say whose it is (holding.py)."""
    pattern, _ = _names(speakers)
    return pattern.sub("someone", query) if pattern else query


# the words a yes/no question opens with, which a speaker may also be called ("Will", "May", "Can")
ASKING = frozenset({"will", "may", "can", "could", "would", "should", "shall", "might", "must", "do", "does",
                    "did", "is", "are", "was", "were", "has", "have", "had"})
FIRST_PERSON = {"she": "I", "he": "I", "his": "my", "him": "me", "herself": "myself", "himself": "myself"}
PRONOUN = re.compile(r"\b(she|he|his|him|her|herself|himself)\b(\s+\w)?", re.IGNORECASE)


def _pronoun(word: str, then: str | None) -> str:
    """A third-person pronoun as its speaker would say it: "her" before a word is "my", else "me"."""
    if word == "her":
        return ("my" + then) if then else "me"
    return FIRST_PERSON[word] + (then or "")


def dated_lanes(space: Space, query: str, bounds: Bounds, times: list[TimeSpan]) -> list[list[tuple[str, str, float]]]:
    """The lanes, and each lane again inside every dated window the question names, so a passage (or a fact)
    said then is a candidate even when the whole memory holds fifty closer ones."""
    found = lanes(space, query, bounds)
    for w in times:
        if w.every_year:
            continue  # "in June" of any year is no one range
        after = datetime.combine(w.first, time(), tzinfo=UTC)
        before = datetime.combine(w.last + timedelta(days=1), time(), tzinfo=UTC)
        after, before = max(after, bounds.after or after), min(before, bounds.before or before)
        if after < before:
            inside = lanes(space, query, Bounds(bounds.scope, before, after, bounds.type))
            found = [lane + extra for lane, extra in zip(found, inside, strict=False)]
    if not times:
        return found
    return [sorted({doc: (doc, path, score) for doc, path, score in sorted(lane, key=lambda r: r[2])}.values(),
                   key=lambda r: -r[2]) for lane in found]


def dated(space: Space, ranked: list[tuple[str, str, float]], times: list[TimeSpan]) -> list[tuple[str, str, float]]:
    """Passages said inside a time the question names ("in June 2023", "last week") move up by DATE_BOOST."""
    if not times or not ranked:
        return ranked
    spans = space.words.spans("passage", [doc for doc, _, _ in ranked])
    out = []
    for doc, path, score in ranked:
        span = spans.get(doc)
        if span and any(w.meets(as_day(span[0]), as_day(span[1])) for w in times):
            score += DATE_BOOST
        out.append((doc, path, score))
    return sorted(out, key=lambda r: -r[2])


def question_times(query: str, bounds: Bounds, space: Space | None = None) -> list[TimeSpan]:
    """The times a question names, relative ones ("last week") as of its `before` day or now; with the space,
    also those it names by an event memory holds ("the week before the wedding": event_times.py)."""
    times = time_spans(query, bounds.before or datetime.now(UTC))
    return times + event_spans(space, query, bounds) if space is not None else times


def rank_passages(space: Space, query: str, bounds: Bounds, limit: int = HITS,
                  times: list[TimeSpan] | None = None) -> list[Hit]:
    """Passages by both lanes, lifted when said inside a time the question names. Found facts no longer lift the
    passages they were read from: with the meaning lane in the speakers' first person, a lift of 0.1 x the
    fact's score cost LoCoMo fast recall@5 0.852 -> 0.837 and the brief's recall 0.876 -> 0.871."""
    if times is None:
        times = question_times(query, bounds, space)
    ranked = blend(dated_lanes(space, query, Bounds(bounds.scope, bounds.before, bounds.after, "passage"), times),
                   words_weight(space, query))
    ranked = dated(space, ranked, times)
    if continuation.FOLLOW:  # an option, off: how the meaning lane asked is worked out again only when on
        ranked = continuation.followed(space, ranked, *meaning_asks(space, query))
    hits: list[Hit] = []
    later: list[Hit] = []  # past PER_THREAD of their thread, in a question that gathers: after the others
    cap = PER_THREAD if GATHERS.search(query) else 0
    with space.passages_lock.shared():  # the passages quoted as one cut left them all, never midway through one
        for doc, path, score in ranked:
            hit = hit_of(space, doc, path, score)
            if hit is None or (bounds.before and hit.said and hit.said >= iso(bounds.before)):
                continue
            if cap and sum(h.thread == hit.thread for h in hits) >= cap:
                later.append(hit)
                continue
            hits.append(hit)
            if len(hits) >= limit:
                break
    return (hits + later)[:limit]


def hit_of(space: Space, doc: str, path: str, score: float) -> Hit | None:
    """A hit as the passage file reads now; None when the file is gone (the index is catching up)."""
    try:
        text = space.vault.read(path)
    except (FileNotFoundError, IsADirectoryError):
        return None
    p = parse(text, fallback_id=doc)
    said = iso(p.end) if p.end else None
    return Hit(id=p.id, path=path, thread=p.thread, text=p.body[:MAX_CHARS], roles=p.roles, turns=p.turns,
               said=said, score=round(score, 6))


@dataclass
class FoundFact:
    fact: Fact
    record: Record
    score: float


def rank_facts(space: Space, query: str, bounds: Bounds, limit: int = FACTS,
               times: list[TimeSpan] | None = None) -> list[FoundFact]:
    """Records by both lanes over their text, lifted when said or happened inside a time the question names."""
    if times is None:
        times = question_times(query, bounds, space)
    found = []
    before_day = bounds.before.date().isoformat() if bounds.before else None
    for doc, path, score in blend(dated_lanes(space, query, Bounds(bounds.scope, bounds.before, bounds.after, "record"),
                                              times)):
        record = indexed_record(space, path, doc)
        if record is None:
            continue  # the file changed since it was indexed; the next read step reindexes it
        if record.retracted or (before_day and record.said >= before_day):
            continue  # a fact is dated by its day alone: with `before` inside a day, that day's are left out
        if any(w.holds(day) for w in times for day in days_in(record.said, record.happened)):
            score += DATE_BOOST
        found.append(FoundFact(Fact(id=record.id, path=path, thread=record.id.split("#")[0], source=record.source,
                                    text=record.render()), record, score))
        if len(found) >= limit and not times:
            break  # best first already: nothing below can move up
    return sorted(found, key=lambda f: -f.score)[:limit]
