"""The embedded judge (MeaningFilter) on candidates written for the test, with the real embedder."""
from __future__ import annotations

from twinfs.filtering import Candidate, MeaningFilter

QUESTION = "Where did Ines adopt her kitten?"
ANSWER = "Ines: I adopted a grey kitten called Pebble from the shelter on Elm Street."
BREAD = "Tomas: My third sourdough loaf finally rose properly."
KEYBOARD = "Ines: Pebble the kitten sleeps on my keyboard all day."
CLOSER = "Ines: We got a kitten last spring, she came from a shelter."  # nearer the question, and no answer
ALSO_CLOSER = "Ines: The kitten adoption at the shelter was a happy day for me."


def passages(*texts: str) -> list[Candidate]:
    return [Candidate(f"P{i}", t, (t,)) for i, t in enumerate(texts, 1)]


def test_passages_are_kept_in_the_order_given_not_by_their_cosine(embedder):
    judge = MeaningFilter(embedder, max_passages=2)
    record = "Ines adopted a grey kitten from the shelter"
    fact = Candidate("F1", record, (record,))
    verdict = judge.judge(QUESTION, [fact, *passages(ANSWER, BREAD, KEYBOARD, CLOSER, ALSO_CLOSER)])
    # the ranking put the answer first: it stays although two later passages are closer to the question as asked;
    # the bread (unrelated) and the keyboard (below the margin) are left out though they come before them
    assert sorted(verdict.keep) == ["F1", "P1", "P4"]
    assert verdict.held is True


def test_the_first_passage_stays_even_below_the_cut(embedder):
    verdict = MeaningFilter(embedder, max_passages=3).judge(QUESTION, passages(BREAD, CLOSER, ANSWER))
    assert verdict.keep == ["P1", "P2", "P3"]
    verdict = MeaningFilter(embedder, max_passages=1).judge(QUESTION, passages(BREAD, CLOSER, ANSWER))
    assert verdict.keep == ["P1"]
