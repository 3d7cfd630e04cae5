"""The filter: one model call over compact candidates keeps what the question needs and judges `held`.

Two judges share one contract. With an LLM reader configured (a GGUF or an endpoint) the LLM is asked, its
answer held to a JSON schema; the embedded default asks the embedder, which scores every candidate against
the question in one batch and keeps those close to the best. None means "not judged": the brief then comes
back unfiltered with `filtered: false`.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from pydantic import BaseModel, Field, ValidationError

from .index import TextEmbedder

log = logging.getLogger("twinfs.filter")
Complete = Callable[[list[dict], dict], tuple[str, int]]


@dataclass(frozen=True)
class Candidate:
    key: str  # F1, F2 … for facts, P1, P2 … for passages
    text: str
    parts: tuple[str, ...] = ()  # a passage's turns: the embedder judges each and takes the best


@dataclass(frozen=True)
class Judgement:
    keep: list[str]
    held: bool
    tokens: int = 0


class Filter(Protocol):
    name: str

    def judge(self, question: str, candidates: list[Candidate],
              embed: Callable[[list[str]], np.ndarray] | None = None) -> Judgement | None: ...


class MeaningFilter:
    """Keeps facts within `margin` of the best cosine and passages within `passage_margin`; at most `max_passages`
    passages, the first in the order given (the search's ranking), since the ranking finds the evidence better than
    a cosine to the question as asked. Brief recall, tune / report, 3 passages either way: LoCoMo 0.796 / 0.792
    with the closest passages, 0.856 / 0.867 in the ranking's order, 0.857 / 0.869 with passages cut at 0.4 (as with
    no cut); LongMemEval 0.717 / 0.694, 0.706 / 0.803, 0.722 / 0.803.

    held: the best fact or passage clears `held_at`. Both numbers are measured on LoCoMo (bench/README.md)."""

    name = "meaning"

    def __init__(self, embedder: TextEmbedder, margin: float = 0.3, floor: float = 0.3, held_at: float = 0.45,
                 max_passages: int = 3, max_facts: int = 30, passage_margin: float = 0.4):
        self.embedder, self.margin, self.floor, self.held_at = embedder, margin, floor, held_at
        self.passage_margin = passage_margin
        self.max_passages, self.max_facts = max_passages, max_facts

    def judge(self, question: str, candidates: list[Candidate],
              embed: Callable[[list[str]], np.ndarray] | None = None) -> Judgement | None:
        """`embed` may serve vectors the index already holds, so a passage's turns are not embedded again."""
        if not candidates:
            return Judgement(keep=[], held=False)
        texts, owner = [], []
        for i, c in enumerate(candidates):
            for part in c.parts or (c.text,):
                texts.append(part[:1000])
                owner.append(i)
        sims = (embed or self.embedder.encode)(texts) @ self.embedder.query(question)[0]
        scores = np.full(len(candidates), -1.0)
        for i, sim in zip(owner, sims, strict=False):
            scores[i] = max(scores[i], float(sim))
        best = float(np.max(scores))
        passage = [c.key.startswith("P") for c in candidates]
        cut = [max(self.floor, best - (self.passage_margin if p else self.margin)) for p in passage]
        order = sorted((i for i in range(len(candidates)) if not passage[i]), key=lambda i: -scores[i]) + \
            [i for i in range(len(candidates)) if passage[i]]  # facts closest first, passages in the order given
        keep: list[str] = []
        passages = facts = 0
        for i in order:
            c = candidates[i]
            if scores[i] < cut[i] and not (passage[i] and passages == 0):
                continue  # the first passage always stays: a brief with no passage cannot be quoted
            if passage[i]:
                if passages >= self.max_passages:
                    continue
                passages += 1
            else:
                if facts >= self.max_facts:
                    continue
                facts += 1
            keep.append(c.key)
        return Judgement(keep=keep, held=best >= self.held_at)


class Verdict(BaseModel):
    keep: list[str] = Field(max_length=20, description="keys of the candidates the question needs, e.g. F1, P2")
    held: bool = Field(description="whether these candidates answer the question")


PROMPT = ("You choose memory for a question. Candidates are facts (F…) and passages (P…). Keep only those the "
          "question needs, fewest passages possible, and say whether they answer it. Answer in JSON.")


class ModelFilter:
    """An LLM (the configured reader's backend) judges the candidates; a bad answer is tried once more."""

    name = "model"

    def __init__(self, complete: Complete, snippet: int = 300):
        self.complete = complete
        self.snippet = snippet

    def judge(self, question: str, candidates: list[Candidate],
              embed: Callable[[list[str]], np.ndarray] | None = None) -> Judgement | None:
        if not candidates:
            return Judgement(keep=[], held=False)  # nothing found holds nothing: no model call for it
        lines = "\n".join(f"[{c.key}] {c.text[:self.snippet]}" for c in candidates)
        messages = [{"role": "system", "content": PROMPT},
                    {"role": "user", "content": f"Question: {question}\n\nCandidates:\n{lines}"}]
        keys = {c.key for c in candidates}
        tokens = 0
        for _ in range(2):
            try:
                text, used = self.complete(messages, Verdict.model_json_schema())
            except Exception as exc:  # unreachable or failing model: the brief goes unfiltered
                log.warning("filter model failed: %s", exc)
                return None
            tokens += used
            try:
                verdict = Verdict.model_validate(json.loads(text))
            except (ValueError, ValidationError):
                continue
            keep = [k for k in verdict.keep if k in keys]
            if not any(k.startswith("P") for k in keep):
                first = next((c.key for c in candidates if c.key.startswith("P")), None)
                keep += [first] if first else []
            return Judgement(keep=keep, held=verdict.held, tokens=tokens)
        return None


def make_filter(reader, embedder: TextEmbedder) -> Filter:
    """The LLM reader's model when it answers fast enough to judge a search (an endpoint: `judges`), else the
    embedder: a GGUF on this machine's CPU takes tens of seconds an answer, and is busy reading windows."""
    complete = getattr(reader, "_complete", None) if getattr(reader, "judges", False) else None
    return ModelFilter(complete) if complete else MeaningFilter(embedder)
