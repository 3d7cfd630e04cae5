"""The words lane's `keys` field: a passage's keys (passage_keys.py) beside its text, scored apart from it, the
passage ranked by the best of the two (BM25 summed over both fields would favour a passage for saying a word in
its text and its keys alike)."""
from __future__ import annotations

from whoosh import index as whoosh_index
from whoosh.analysis import StemmingAnalyzer
from whoosh.fields import TEXT
from whoosh.writing import NO_MERGE

FIELD = TEXT(analyzer=StemmingAnalyzer(), phrase=False)
KEYS_WEIGHT = 1.0  # a passage's words score: the best of its text's BM25 and this share of its keys' BM25; swept
# 0.5-1.2 on the tuning halves (bench/results/locomo_recall.md, 2026-12-04 08:48): LoCoMo R@5 best at 1.0 (0.850, 0.8
# 0.847), LongMemEval's sample the same at every weight


def add_field(ix):
    """An index written before passages had keys gains the field (Whoosh keeps a schema in each index)."""
    writer = ix.writer(timeout=30)
    writer.add_field("keys", FIELD)
    writer.commit(mergetype=NO_MERGE)
    return whoosh_index.open_dir(ix.storage.folder)


def searchable(searcher, scorer) -> bool:
    """Whether this searcher's index has keys to search (and the numpy scorer can read them)."""
    return "keys" in searcher.schema.names() and bool(searcher.field_length("keys")) and scorer.supports(searcher)


def best_of(text: list[tuple[int, float]], keys: list[tuple[int, float]], limit: int) -> list[tuple[int, float]]:
    """(docnum, score) best first: each doc's best of its text's score and KEYS_WEIGHT of its keys'."""
    best = dict(text)
    for docnum, score in keys:
        best[docnum] = max(best.get(docnum, 0.0), KEYS_WEIGHT * score)
    return sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
