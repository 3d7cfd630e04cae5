"""Held, judged by whose a statement is: a reply that echoes the other's news does not make it the replier's."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from twinfs import EndUser, Memory, Settings
from twinfs.brief import UNHELD_PASSAGES
from twinfs.holding import holds, recorded, sentences_of
from twinfs.index import Bounds
from twinfs.models import AddRequest, SearchRequest
from twinfs.search import rank_facts, unnamed

T0 = datetime(2024, 5, 6, 19, 0, tzinfo=UTC)
PAIR = EndUser(org="acme", project="app", account="ines-and-tomas-echo")
PEOPLE = frozenset({"Ines", "Tomas"})

# each tells their own news; the other answers by repeating it, with no "you" that would say whose it is
NEWS = [
    ("Ines", "Last weekend I ran a charity marathon for the animal shelter and finished it in four hours."),
    ("Tomas", "A charity marathon for the shelter, that is brilliant! Four hours is a great marathon time."),
    ("Tomas", "I spent Sunday painting the garden fence a deep green, it took all afternoon."),
    ("Ines", "A deep green garden fence sounds lovely, painting takes patience."),
]


def body(turns: list[tuple[str, str]]) -> str:
    """A passage's body as passages.render writes it: one `**speaker** hh:mm · text` line a turn."""
    return "\n".join(f"**{who}** 19:0{i} · {text}" for i, (who, text) in enumerate(turns))


def test_an_echo_stays_with_whom_it_was_said_of():
    said = sentences_of(body(NEWS[:2]), PEOPLE)
    owners = {t: {s.about for s in said if t in s.stems} for t in ("marathon", "shelter", "brilliant")}
    assert owners["marathon"] == {"Ines"} and owners["shelter"] == {"Ines"}  # Tomas repeated Ines's news
    assert owners["brilliant"] == {"Tomas"}  # what he adds is his own
    # a question is no statement: asked back, the word stays with whom it was said of
    asked = sentences_of(body([NEWS[0], ("Tomas", "Did the marathon hurt? I could never run that far.")]), PEOPLE)
    assert {s.about for s in asked if "marathon" in s.stems} == {"Ines"}


@pytest.fixture
def pair(memory):
    items = [{"id": f"e{i}", "kind": "message", "conversation": f"news-{i // 2}", "role": "user", "name": who,
              "text": text, "at": (T0 + timedelta(days=i // 2, seconds=30 * i)).isoformat()}
             for i, (who, text) in enumerate(NEWS)]
    memory.add(PAIR, AddRequest(items=items, wait=True))
    return memory


@pytest.mark.parametrize("question, held, said", [
    ("How long did Ines take to finish the charity marathon?", True, "e0"),
    ("How long did Tomas take to finish the charity marathon?", False, "e0"),  # he only repeated it
    ("What colour did Tomas paint the garden fence?", True, "e2"),
    ("What colour did Ines paint the garden fence?", False, "e2"),
])
def test_what_one_person_said_of_another_is_not_held_about_the_replier(pair, question, held, said):
    answer = pair.search(PAIR, SearchRequest(query=question))
    assert answer.held is held
    assert said in answer.hits[0].turns  # the passage that says it comes first either way
    if not held:
        assert len(answer.hits) <= UNHELD_PASSAGES  # nothing holds: the nearest passages alone, to say what there is


def test_the_records_subject_says_whose_it_is(tmp_path, embedder):
    """Read by the rules reader, the records of the question with its names left out are about whom the news
    is; those of the other's news weigh against a question that names the replier."""
    settings = Settings(home=tmp_path, reading=True, quiet_seconds=0, fold_seconds=0)
    with Memory(settings, embedder=embedder) as memory:
        items = [{"id": f"e{i}", "kind": "message", "conversation": f"news-{i // 2}", "role": "user", "name": who,
                  "text": text, "at": (T0 + timedelta(days=i // 2, seconds=30 * i)).isoformat()}
                 for i, (who, text) in enumerate(NEWS)]
        memory.add(PAIR, AddRequest(items=items, wait=True))
        assert memory.idle(120)
        space = memory.space(PAIR)
        speakers = tuple(space.speakers())
        question = "How long did Tomas take to finish the charity marathon?"
        bare = unnamed(question, speakers)
        assert "Tomas" not in bare and "Ines" not in bare
        found = [(f.record.subject, f.score) for f in rank_facts(space, bare, Bounds())]
        assert found and found[0][0] == "Ines"  # the marathon's records are Ines's
        assert recorded(found, "Ines", PEOPLE) > 0 > recorded(found, "Tomas", PEOPLE)
        named = frozenset({"Tomas"})
        # the same words, judged with records that say the opposite, flip: the records weigh in
        assert holds(space, question, named, PEOPLE, found) is False
        assert holds(space, question, named, PEOPLE, [(s, v) for s, v in found if s == "Tomas"] + [("Tomas", 1.0)])
        assert memory.search(PAIR, SearchRequest(query=question)).held is False
        assert memory.search(PAIR, SearchRequest(query=question.replace("Tomas", "Ines"))).held is True
