"""What a question asks of an end user's pages: the subject · attribute pairs it is about, best first (by the
names it says, the words that cue a concept, and the embedder's nearness), and the brief's `known` lines for them.
The pages are folding.py's."""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from .folding import (
    CONCEPTS,
    Page,
    aliases,
    attribute_key,
    canonical_subject,
    concept_of,
    human,
    newer_first,
)
from .text import STOP, norm, stem, stems_of, words_of

# Cosine of a question and a humanised attribute name: right pairs scored 0.28-0.58, wrong ones mostly < 0.25.
NEAR_QUESTION = 0.25
_WEAK_CUES = {"where": "home"}  # "where" leans to home, but "where does she work?" must still go to work


def find_page(pages: list[Page], subject: str) -> Page | None:
    key = norm(subject)
    for page in pages:
        if key == norm(page.subject) or key in {norm(a) for a in aliases(page)}:
            return page
    name = canonical_subject(subject, [p.subject for p in pages])
    return next((p for p in pages if p.subject == name), None)


def same_attribute(a: str, b: str) -> bool:
    if attribute_key(a) == attribute_key(b):
        return True
    concept = concept_of(a)
    return concept is not None and concept == concept_of(b)


def known_lines(pages: list[Page], wanted: list[tuple[str, str | None]]) -> list[str]:
    """The brief's `known`: one line per subject · attribute, every value as stated, newest said first."""
    lines: list[str] = []
    for subject, attribute in wanted:
        page = find_page(pages, subject)
        if page is None:
            continue
        for attr in page.attributes:
            if attribute is not None and not same_attribute(attr.name, attribute):
                continue
            stated = "; ".join(f"{v.value} [said {v.said}]" for v in attr.values)
            line = f"- {page.subject} · {attr.name}: {stated}"
            if line not in lines:
                lines.append(line)
    return ["Values as stated, newest said first:"] + lines if lines else []


def names_in(words: list[str], names: dict[str, list[str]]) -> tuple[set[str], set[int]]:
    """The subjects a question names (full names first, then a first or last name) and the word positions used."""
    found: set[str] = set()
    used: set[int] = set()
    for subject, spellings in names.items():
        for spelling in spellings:
            tokens = words_of(spelling)
            for i in range(len(words) - len(tokens) + 1):
                if tokens and words[i:i + len(tokens)] == tokens:
                    found.add(subject)
                    used.update(range(i, i + len(tokens)))
    for i, word in enumerate(words):
        if i in used or word in STOP or len(word) < 2:
            continue
        hits = {s for s, spellings in names.items() if any(word in words_of(sp) for sp in spellings)}
        if hits:
            found |= hits
            used.add(i)
    return found, used


def cues(question_words: str) -> dict[str, float]:
    """How strongly a question's words ask for each known concept; a phrase ("for a living") is used up whole."""
    text = f" {question_words} "
    scores: dict[str, float] = defaultdict(float)
    for concept, (_, cues) in CONCEPTS.items():
        for cue in cues:
            if " " in cue and f" {cue} " in text:
                scores[concept] += 1
                text = text.replace(f" {cue} ", " ")
    stems = {stem(w) for w in text.split()}
    for concept, (_, cues) in CONCEPTS.items():
        scores[concept] += len({stem(c) for c in cues if " " not in c} & stems)
    for word, concept in _WEAK_CUES.items():
        if stem(word) in stems:
            scores[concept] += 0.4
    return scores


def relevant(pages: list[Page], question: str, embedder: Any = None, limit: int = 5) -> list[tuple[str, str | None]]:
    """The (subject, attribute) pairs a question is about, best first."""
    words = words_of(question)
    names = {p.subject: [p.subject] + aliases(p) for p in pages}
    named, used = names_in(words, names)
    rest = " ".join(w for i, w in enumerate(words) if i not in used)
    content = stems_of(rest)
    asked = cues(rest)
    candidates = [(p, a) for p in pages if not named or p.subject in named for a in p.attributes]
    near_of = nearness(embedder, question, sorted({a.name for _, a in candidates}))
    scored = []
    for page, attr in candidates:
        concept = concept_of(attr.name)
        lexical = asked.get(concept, 0.0) if concept else 0.0
        lexical += len(stems_of(human(attr.name)) & content)
        lexical += max((len(stems_of(v.value) & content) for v in attr.values), default=0)
        near = near_of.get(attr.name, 0.0)
        newest = attr.values[0].said if attr.values else ""
        scored.append((lexical + (near if near >= NEAR_QUESTION else 0.0), lexical, near, newest, page, attr))
    matched = [s for s in scored if s[1] > 0 or (named and s[0] > 0)]
    if matched:
        best = max(s[0] for s in matched)
        chosen = [s for s in matched if s[0] > 0.6 * best]
    elif named:
        chosen = scored  # a subject with no attribute asked about: its best guesses, nearest then newest
    else:
        return []
    chosen.sort(key=lambda s: (-s[0], -s[2], newer_first(s[3]), s[4].subject, s[5].name))
    return [(page.subject, attr.name) for *_, page, attr in chosen[:limit]]


def nearness(embedder: Any, question: str, attributes: list[str]) -> dict[str, float]:
    if embedder is None or not attributes:
        return {}
    query = embedder.query(question) if hasattr(embedder, "query") else embedder.encode([question])
    vectors = embedder.encode([human(a) for a in attributes])
    scores = vectors @ query[0]
    return {a: round(float(s), 6) for a, s in zip(attributes, scores, strict=False)}
