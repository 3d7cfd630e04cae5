"""Held, judged by whose a statement is: a reply that echoes the other's news does not make it the replier's."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from twinfs import EndUser
from twinfs.holding import sentences_of
from twinfs.models import AddRequest, SearchRequest
from twinfs.search import UNHELD_PASSAGES

T0 = datetime(2024, 5, 6, 19, 0, tzinfo=timezone.utc)
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
