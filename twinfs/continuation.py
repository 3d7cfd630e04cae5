"""A passage cut mid-exchange: when the first hit is found by its last turn (a question asked, a photo shown), what
that turn leads to (the answer, what the photo was of) opens the next passage of its thread, often in words of its
own. With FOLLOW, that next passage follows the first hit. An option, off: at 0.9 it lifts LoCoMo's tuning half
(`fast` R@5 0.846 -> 0.852, 3 questions up, none down) but not LongMemEval's sample (tune all@5 / turn@5 1.000 /
0.931 either way), and lowers LongMemEval's report turn@5 by one question (bench/results/locomo_recall.md and
longmemeval_recall.md, 2026-12-04 14:58)."""
from __future__ import annotations

import numpy as np

from .passages import parse, spoken_segments
from .space import Space

FOLLOW = 0.0  # the next passage scores at least this share of the first hit's score (0: off; measured at 0.9)


def next_passage(doc: str, path: str) -> tuple[str, str] | None:
    """The id and path of the passage after this one in its thread ("…/p_0007" -> "…/p_0008")."""
    thread, _, number = doc.rpartition("/p_")
    folder, _, name = path.rpartition("/p_")
    if not (thread and folder and number.isdigit() and name == f"{number}.md"):
        return None
    after = f"p_{int(number) + 1:04d}"
    return f"{thread}/{after}", f"{folder}/{after}.md"


def ends_on_best(space: Space, path: str, asked: str, favour: frozenset[str], lift: float) -> bool:
    """Whether the turn of this passage that the meaning lane scores best is its last (of two or more), scored as
    the lane scores it: the stored vectors of its own segments (not its keys), lifted where `favour` speaks."""
    try:
        body = parse(space.vault.read(path)).body
    except (FileNotFoundError, IsADirectoryError):
        return False
    spoken = spoken_segments(body)
    if len(spoken) < 2:
        return False
    scores = space.meaning.embed([text for _, text in spoken]) @ space.meaning.embedder.query(asked).ravel()
    scores = scores + np.array([lift if who in favour else 0.0 for who, _ in spoken], dtype=np.float32)
    return int(np.argmax(scores)) == len(spoken) - 1


def followed(space: Space, ranked: list[tuple[str, str, float]], asked: str, favour: frozenset[str], lift: float
             ) -> list[tuple[str, str, float]]:
    """The ranking (doc, path, score; best first) with the first hit's next passage scored at least FOLLOW of the
    first hit, when the first hit ends on its best turn and a next passage exists."""
    if not FOLLOW or not ranked:
        return ranked
    doc, path, score = ranked[0]
    after = next_passage(doc, path)
    if after is None or not space.vault.path(after[1]).exists() or not ends_on_best(space, path, asked, favour,
                                                                                     lift):
        return ranked
    scores = {d: (d, p, s) for d, p, s in ranked}
    was = scores.get(after[0])
    scores[after[0]] = (after[0], after[1], max(was[2] if was else 0.0, FOLLOW * score))
    return sorted(scores.values(), key=lambda r: -r[2])
