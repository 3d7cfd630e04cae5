"""The meaning lane's late interaction past a passage's best turn (search.LATE), and a question naming no time
ranked as it would be with no time machinery at all (#33: "a question naming no time is ranked as today")."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from twinfs import EndUser, search
from twinfs.forms import iso
from twinfs.index import Bounds, Doc
from twinfs.index.meaning import MeaningIndex
from twinfs.models import AddRequest, SearchRequest

QUESTION = "Where did Lena go hiking with her dog?"
# passage -> its turns: one answers outright, one speaks of hiking twice, one of hiking once beside other things
PASSAGES = {
    "p_one": ("Lena: We hiked up to the Rotwand summit with Bruno, my dog, on Saturday.",
              "Omar: Did you finish the tax forms in the end?"),
    "p_two": ("Lena: Hiking trails near the lake are lovely in autumn.",
              "Lena: My dog loves long walks in the hills.",
              "Omar: Sounds like a good weekend for a hike."),
    "p_off": ("Omar: The new bakery on Hauptstrasse sells rye bread.",),
}


@pytest.fixture
def lane(tmp_path, embedder):
    index = MeaningIndex(tmp_path / "meaning", embedder)
    index.apply([Doc(id=doc, path=f"passages/{doc}.md", thread="t", type="passage", text="\n".join(turns),
                     start=None, end=None, hash=doc, segments=turns,
                     speakers=tuple(t.split(":")[0] for t in turns)) for doc, turns in PASSAGES.items()], [])
    yield index
    index.close()


def cosines(lane: MeaningIndex, turns: tuple[str, ...]) -> list[float]:
    """A passage's turns' cosines to the question, best first, from the vectors the lane holds for them."""
    return sorted((lane.embed(list(turns)) @ lane.embedder.query(QUESTION)[0]).tolist(), reverse=True)


def test_a_passage_scores_its_best_turn_and_a_share_of_its_second(lane):
    plain = {doc: score for doc, _, score in lane.search(QUESTION, Bounds(type="passage"))}
    for doc, turns in PASSAGES.items():  # today: the best turn alone
        assert plain[doc] == pytest.approx(cosines(lane, turns)[0], abs=1e-5)
    late = {doc: score for doc, _, score in lane.search(QUESTION, Bounds(type="passage"), second=0.5)}
    for doc, turns in PASSAGES.items():
        found = cosines(lane, turns)
        assert late[doc] == pytest.approx(found[0] + 0.5 * (found[1] if len(found) > 1 else 0.0), abs=1e-5)
    assert late["p_off"] == plain["p_off"]  # one turn: nothing to add
    # the passage that speaks of the question in two turns gains more than the one that answers in one
    assert late["p_two"] - plain["p_two"] > late["p_one"] - plain["p_one"]


def test_a_turn_below_the_floor_adds_nothing(lane):
    floor = float(np.mean(cosines(lane, PASSAGES["p_one"])))  # between its two turns
    found = {doc: score for doc, _, score in lane.search(QUESTION, Bounds(type="passage"), floor=floor, second=0.5)}
    assert found["p_one"] == pytest.approx(cosines(lane, PASSAGES["p_one"])[0], abs=1e-5)


def test_late_interaction_reaches_fast_search_as_an_option(memory, monkeypatch):
    user = EndUser(org="acme", project="app", account="lena")
    at = datetime(2024, 9, 2, 9, tzinfo=UTC)
    memory.add(user, AddRequest(wait=True, items=[
        {"id": f"{doc}-{i}", "kind": "message", "conversation": doc, "role": "user", "name": turn.split(":")[0],
         "text": turn.split(": ", 1)[1], "at": (at + timedelta(days=n, seconds=30 * i)).isoformat()}
        for n, (doc, turns) in enumerate(PASSAGES.items()) for i, turn in enumerate(turns)]))
    plain = memory.search(user, SearchRequest(query=QUESTION, fast=True)).hits
    monkeypatch.setattr(search, "LATE", 0.5)
    late = memory.search(user, SearchRequest(query=QUESTION, fast=True)).hits
    assert [h.thread for h in late] == [h.thread for h in plain]  # the order holds here; the scores move
    by_thread = {h.thread: h.score for h in plain}
    assert all(h.score >= by_thread[h.thread] for h in late) and any(h.score > by_thread[h.thread] for h in late)


RUNNER = EndUser(org="acme", project="app", account="runner")
RUNS = [(datetime(2024, 3, 12, 7, tzinfo=UTC), "Long run along the river, legs felt heavy after the hills."),
        (datetime(2024, 5, 14, 7, tzinfo=UTC), "Long run around the lake, legs felt fresh on the flats."),
        (datetime(2024, 7, 16, 7, tzinfo=UTC), "Long run by the river again, legs felt heavy in the heat."),
        (datetime(2024, 9, 30, 7, tzinfo=UTC), "Easy jog today, legs felt fine, knees a bit stiff.")]


@pytest.fixture
def runner(memory):
    res = memory.add(RUNNER, AddRequest(items=[
        {"id": f"s{n}", "kind": "message", "conversation": f"run-{n}", "role": "user", "name": "Mira", "text": text,
         "at": at.isoformat()} for n, (at, text) in enumerate(RUNS)]))
    assert memory.wait(RUNNER, [res.event], timeout=60)
    return memory


def unlifted(memory, query: str, before: datetime | None) -> list[tuple[str, float]]:
    """The passages as the two lanes fuse them, no time looked for: (first turn, score) best first."""
    space = memory.space(RUNNER)
    bounds = Bounds(before=before, type="passage")
    fused = search.blend(search.lanes(space, query, bounds), search.words_weight(space, query))
    hits = [search.hit_of(space, doc, path, score) for doc, path, score in fused]
    return [(h.turns[0], h.score) for h in hits if h and not (before and h.said and h.said >= iso(before))]


@pytest.mark.parametrize("query", ["How did my legs feel on the long run?",
                                   "How did my legs feel on the long run recently?",  # names no day
                                   "How did my legs feel on runs these days?",
                                   "Did May say how my legs felt on the long run?"])  # a name, not the month
@pytest.mark.parametrize("before", [None, datetime(2024, 8, 1, tzinfo=UTC)])
def test_a_question_naming_no_time_is_ranked_as_with_no_time_at_all(runner, query, before):
    space = runner.space(RUNNER)
    assert search.question_times(query, Bounds(before=before), space) == []
    asked = SearchRequest(query=query, fast=True, before=before.isoformat() if before else None)
    hits = runner.search(RUNNER, asked).hits
    assert [(h.turns[0], h.score) for h in hits] == [(t, pytest.approx(s, abs=1e-6))
                                                   for t, s in unlifted(runner, query, before)]
    if before:  # as of 1 August: the September jog is not there yet, and nothing said before it is lifted
        assert "s3" not in {h.turns[0] for h in hits} and len(hits) == 3
    else:  # asked now: the newest run is not lifted for being recent
        assert len(hits) == 4


def test_a_question_naming_a_time_is_lifted_where_one_naming_none_is_not(runner):
    before = datetime(2024, 10, 1, tzinfo=UTC)
    named = runner.search(RUNNER, SearchRequest(query="How did my legs feel on the long run in May?", fast=True,
                                                before=before.isoformat())).hits
    assert named[0].turns == ["s1"]
    plain = dict(unlifted(runner, "How did my legs feel on the long run in May?", before))
    assert named[0].score == pytest.approx(plain["s1"] + search.DATE_BOOST, abs=1e-6)


@pytest.mark.parametrize("before", [None, datetime(2024, 8, 1, tzinfo=UTC)])
def test_a_time_after_the_questions_day_lifts_nothing(runner, before):
    query = "How should my legs feel on the long run next week?"  # a plan: nothing was said in that week yet
    assert search.question_times(query, Bounds(before=before), runner.space(RUNNER))  # it does name a time
    asked = SearchRequest(query=query, fast=True, before=before.isoformat() if before else None)
    hits = runner.search(RUNNER, asked).hits
    assert [(h.turns[0], h.score) for h in hits] == [(t, pytest.approx(s, abs=1e-6))
                                                   for t, s in unlifted(runner, query, before)]
