"""Search: the two lanes, fused; the brief and the ranked list built from them."""
from __future__ import annotations

from .index import Bounds
from .models import Hit, SearchRequest, SearchResult
from .passages import MAX_CHARS, parse
from .space import Space

RRF_K = 60  # reciprocal-rank fusion's damping constant (Cormack et al.), kept for comparison in the bench
WORDS_WEIGHT = 0.4  # score fusion: 0.4 x BM25/best BM25 + 0.6 x cosine; best of those measured on LoCoMo
LANE_DEPTH = 50
MEANING_FLOOR = 0.2  # a meaning-lane candidate below this cosine is unrelated to the question
HITS = 10  # passages in an unfiltered answer


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
    return [space.words.search(query, bounds, depth),
            space.meaning.search(query, bounds, depth, floor=MEANING_FLOOR)]


def rank_passages(space: Space, query: str, bounds: Bounds, limit: int = HITS) -> list[Hit]:
    hits = []
    for doc, path, score in blend(lanes(space, query, Bounds(bounds.scope, bounds.before, bounds.after, "passage"))):
        hit = hit_of(space, doc, path, score)
        if hit is not None:
            hits.append(hit)
        if len(hits) >= limit:
            break
    return hits


def hit_of(space: Space, doc: str, path: str, score: float) -> Hit | None:
    """A hit as the passage file reads now; None when the file is gone (the index is catching up)."""
    try:
        text = space.vault.read(path)
    except (FileNotFoundError, IsADirectoryError):
        return None
    p = parse(text, fallback_id=doc)
    said = p.end.isoformat().replace("+00:00", "Z") if p.end else None
    return Hit(id=p.id, path=path, thread=p.thread, text=p.body[:MAX_CHARS], roles=p.roles, turns=p.turns,
               said=said, score=round(score, 6))


def search(space: Space, req: SearchRequest, limit: int = HITS) -> SearchResult:
    bounds = Bounds(scope=req.scope or None, before=req.before_at, after=req.after_at)
    hits = rank_passages(space, req.query, bounds, limit)
    if req.ranked:
        return SearchResult(query=req.query, found=len(hits), hits=hits)
    return SearchResult(query=req.query, found=len(hits), hits=hits, notes=[], filtered=False)
