"""Held: whether memory holds an answer about what the question asks, judged by code over what was said.

Two things a cosine cannot tell, since a question and a turn about the same thing score alike whoever it is about:
- **a name the memory never heard of** ("What did Caroline research?" asked of a memory of Jon and Gina): no
  passage holds the word, so nothing held can be about them (unless the question names someone it knows too);
- **whose it is**, in a conversation of named people: "Who is Caroline a fan of?" when Melanie said "I'm a fan
  of …". A sentence is about who says it, unless it speaks to the other ("you", "your" and no "I"): then it is
  about the one spoken to; and a word the turn before stated is an echo, about whom that turn said it of. The
  question's words (its names left out), weighed by how rare they are in the memory, are looked for in those
  sentences; questions are left out, since asking about a thing does not say it. The records the reader filed
  say it too: found for the question with its names left out, their subjects say whom what it asks is about.
  It holds when enough of the words were said about the person it names, the records weighing in. User-assistant
  chats name no one, so neither rule reaches them.
"""
from __future__ import annotations

import calendar
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from .index import Bounds
from .passages import parse, spoken_segments
from .space import Space
from .text import FIRST, SECOND, STOP, stem, stems_of, words_of

OWNED_AT = 0.36  # the share of the question's words said about the person it names (with RECORDS_WEIGHT x how far
# the best record about them beats the best about the other), below which nothing holds; with the records that read
# alone, LoCoMo tune held 1-4 / category 5 false: 0.911 / 0.750 at 0.40, 0.919 / 0.750 from 0.35 to 0.365
RECORDS_WEIGHT = 1.5  # LoCoMo tune, categories 1-4 held / category 5 not: 0.914 / 0.732 words alone, 0.927 / 0.759
OWN_BEST = 0.5  # how much the best sentence about them, against the best about anyone else, adds to the share
DEPTH = 30  # passages the words lane finds for the question's words: where those words were said most
SENTENCE = re.compile(r"(?<=[.!?])\s+")
CAPITAL = re.compile(r"\b([A-Z][a-z]{2,})\b")
CALENDAR = frozenset(w.casefold() for w in [*calendar.month_name, *calendar.day_name] if w)  # times, not names


@dataclass(frozen=True)
class Statement:
    about: str | None  # whom the sentence is about, when its speaker is a person
    stems: frozenset[str]


def unheard(space: Space, question: str) -> list[str]:
    """Names in the question (capitalised words not opening a sentence) no passage or record holds."""
    names = []
    for m in CAPITAL.finditer(question):
        before = question[:m.start()].rstrip()
        if before and before[-1] not in ".?!:\"'(" and m.group(1).casefold() not in STOP | CALENDAR:
            names.append(m.group(1))
    if not names:
        return []
    heard, _ = space.words.frequencies(names)
    return [n for n in names if not heard[n]]


def sentences_of(body: str, people: frozenset[str]) -> list[Statement]:
    """A passage's sentences, each with whom it is about (None when no person said it); questions left out.
    A word the turn before stated is an echo ("That charity race sounds great!" after "I ran a charity race"):
    it stays about whom that turn said it of, so a reply does not make the other's news its speaker's."""
    spoken = [(who, text.split(": ", 1)[-1] if who else text) for who, text in spoken_segments(body)]
    present = {who for who, _ in spoken if who in people}
    out = []
    before: dict[str, str | None] = {}  # stem -> whom the turn before said it of
    now: dict[str, str | None] = {}  # the same, for the turn under way (its segments share a speaker)
    speaking: str | None = None
    for who, text in spoken:
        if who != speaking:
            before, now, speaking = now, {}, who
        other = present - {who}
        for sentence in SENTENCE.split(text):
            if not sentence.strip() or sentence.rstrip().endswith("?"):
                continue
            words = set(words_of(sentence))
            about = who if who in people else None
            if about and words & SECOND and not words & FIRST:
                about = next(iter(other)) if len(other) == 1 else None
            stems = frozenset(stems_of(sentence))
            echoed = {t for t in stems if t in before and before[t] != about} if about else set()
            for owner in {before[t] for t in echoed}:
                out.append(Statement(owner, frozenset(t for t in echoed if before[t] == owner)))
            out.append(Statement(about, stems - echoed))
            now.update({t: before[t] if t in echoed else about for t in stems})
    return out


def owned(space: Space, question: str, named: frozenset[str], people: frozenset[str]) -> float | None:
    """How much of what the question asks was said about the one person it names (None: no one, or more)."""
    if len(named) != 1:
        return None
    (person,) = named
    names = {s for name in people for s in stems_of(name, ())}
    asked = {stem(w): w for w in words_of(question)
             if w not in STOP | CALENDAR and not w.isdigit() and stem(w) not in names}  # a time is when, not what
    if not asked:
        return None
    docs, total = space.words.frequencies(list(asked.values()))
    weight = {t: math.log((total + 1) / (docs[w] + 0.5)) for t, w in asked.items()}
    terms = set(asked)
    found = space.words.search(" ".join(asked.values()), Bounds(type="passage"), DEPTH)
    said: list[Statement] = []
    for _, path, _ in found:
        try:
            said += sentences_of(parse(space.vault.read(path)).body, people)
        except (FileNotFoundError, IsADirectoryError):
            continue  # the index is catching up with a file just gone
    counts = {t: sum(t in s.stems for s in said) for t in terms}
    heard = [t for t in terms if counts[t]]
    if not heard:
        return None
    share = sum(weight[t] * sum(t in s.stems and s.about == person for s in said) / counts[t] for t in heard) \
        / sum(weight[t] for t in heard)
    best = {True: 0.0, False: 0.0}
    for s in said:
        hit = sum(weight[t] for t in terms & s.stems)
        mine = s.about == person
        best[mine] = max(best[mine], hit)
    return share + OWN_BEST * (best[True] - best[False]) / sum(weight.values())


def recorded(records: list[tuple[str, float]], person: str, people: frozenset[str]) -> float:
    """How far the best record about the person beats the best about anyone else the memory knows, among the
    records found for the question with its names left out ((subject, score) best first)."""
    mine = max((score for subject, score in records if subject == person), default=0.0)
    other = max((score for subject, score in records if subject != person and subject in people), default=0.0)
    return mine - other


def holds(space: Space, question: str, named: frozenset[str], people: frozenset[str],
          records: Sequence[tuple[str, float]] = ()) -> bool:
    """False when the question names someone the memory never heard of (and no one it knows: "Would Melanie
    enjoy Vivaldi?" is still about Melanie), or what it asks was said about others: in the sentences (`owned`)
    and in the records the reader filed, whose subject says whom each is about (`recorded`)."""
    if not named and unheard(space, question):
        return False
    share = owned(space, question, named, people)
    if share is None:
        return True
    (person,) = named
    return share + RECORDS_WEIGHT * recorded(list(records), person, people) >= OWNED_AT
