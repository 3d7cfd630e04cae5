"""The embedded judge (MeaningFilter) on candidates written for the test, with the real embedder."""
from __future__ import annotations

from twinfs.filtering import Candidate, MeaningFilter

QUESTION = "Where did Ines adopt her kitten?"
ANSWER = "Ines: I adopted a grey kitten called Pebble from the shelter on Elm Street."  # cosine ~0.63
BREAD = "Tomas: My third sourdough loaf finally rose properly."  # ~0.08, unrelated
POTTERY = "Ines: I started taking pottery classes on Thursdays, my first bowl was lopsided."  # ~0.07, unrelated
KEYBOARD = "Ines: Pebble the kitten sleeps on my keyboard all day."  # ~0.44, near the kitten
CLOSER = "Ines: We got a kitten last spring, she came from a shelter."  # ~0.80: nearer the question, and no answer
ALSO_CLOSER = "Ines: The kitten adoption at the shelter was a happy day for me."  # ~0.66, no answer either


def passages(*texts: str) -> list[Candidate]:
    return [Candidate(f"P{i}", t, (t,)) for i, t in enumerate(texts, 1)]


def fact(key: str, text: str) -> Candidate:
    return Candidate(key, text, (text,))


def test_passages_are_kept_in_the_order_given_not_by_their_cosine(embedder):
    judge = MeaningFilter(embedder, max_passages=2)
    verdict = judge.judge(QUESTION, [fact("F1", "Ines adopted a grey kitten from the shelter"),
                                     *passages(ANSWER, BREAD, POTTERY, CLOSER, ALSO_CLOSER)])
    # the ranking put the answer first: it stays although a later passage is closer to the question as asked; the
    # bread and the pottery (unrelated) are left out though they come before the one kept with it
    assert sorted(verdict.keep) == ["F1", "P1", "P4"]
    assert verdict.held is True


def test_passages_have_a_wider_margin_than_facts(embedder):
    candidates = [fact("F1", CLOSER), fact("F2", KEYBOARD), *passages(ANSWER, KEYBOARD, BREAD)]
    verdict = MeaningFilter(embedder).judge(QUESTION, candidates)
    # 0.36 below the best: outside the facts' margin (0.3), inside the passages' (0.4)
    assert sorted(verdict.keep) == ["F1", "P1", "P2"]
    verdict = MeaningFilter(embedder, passage_margin=0.3).judge(QUESTION, candidates)
    assert sorted(verdict.keep) == ["F1", "P1"]


def test_the_first_passage_stays_even_below_the_cut(embedder):
    verdict = MeaningFilter(embedder, max_passages=3).judge(QUESTION, passages(BREAD, CLOSER, ANSWER))
    assert verdict.keep == ["P1", "P2", "P3"]
    verdict = MeaningFilter(embedder, max_passages=1).judge(QUESTION, passages(BREAD, CLOSER, ANSWER))
    assert verdict.keep == ["P1"]


def test_nothing_to_judge_holds_nothing_without_a_model_call(embedder):
    from twinfs.filtering import ModelFilter

    calls = []
    model = ModelFilter(lambda messages, schema: calls.append(messages) or ('{"keep": [], "held": true}', 1))
    for judge in (model, MeaningFilter(embedder)):
        verdict = judge.judge("Where does Alice live?", [])
        assert verdict.keep == [] and verdict.held is False
    assert calls == []
