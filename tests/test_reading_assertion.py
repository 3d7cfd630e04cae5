"""The structural gate: whose a value is in a turn and whether it is asserted (twinfs.reading.assertion)."""
from __future__ import annotations

import pytest

from twinfs.reading.assertion import gate


@pytest.mark.parametrize(("text", "value", "concept"), [
    ("I work as a welder in Hull.", "welder", "job"),
    ("We live in Tromsø now.", "Tromsø", "home"),
    ("My sister Ines just had a baby.", "Ines", "family"),
    ("Our parrot is called Kiwi.", "Kiwi", "pet"),
    ("I can't stand olives.", "olives", "dislikes"),
    ("I don't eat shellfish.", "shellfish", "diet"),
    ("I'm planning to visit Hanoi in May.", "Hanoi", "plans"),
    ("My brother keeps nagging me about golf, but I find golf dull.", "golf", "dislikes"),
    ("I was born in Porto.", "Porto", "hometown"),
    # an if-clause after the statement that leads on to a clause of its own conditions that clause, not this one
    ("I'm a big rugby fan, if the club needs a steward I'm the one to call.", "rugby fan", "likes"),
    # "X, that's where I grew up": the clause after the value says whose it is, whatever the field's "if"
    ("Birthplace line if the form has one: Tabriz, that's where I grew up.", "Tabriz", "hometown"),
    ("I've lived in Aarhus since 2015 - Trøjborg, if anyone's nearby.", "Aarhus", "home"),  # an aside to readers
])
def test_what_the_speaker_says_of_themself_holds(text, value, concept):
    verdict = gate(text, value, concept=concept)
    assert verdict.whose == "speaker", verdict
    assert verdict.holds(concept), verdict


@pytest.mark.parametrize(("text", "value", "concept", "reason"), [
    ("My uncle Rafa is a baker in Seville.", "baker", "job", None),  # a relative's fact
    ("My friend Zoe lives in Oslo.", "Oslo", "home", None),  # a friend's fact
    ("My cat Miso hates the tram noise.", "tram noise", "dislikes", None),  # a pet's, not the speaker's
    ("If we ever moved, I'd open a bookshop in Galway.", "Galway", "home", "conditional"),
    ("My dad wants me to study law, but I hate the idea.", "law", "school", "advice"),
    ("Should I take up fencing?", "fencing", "hobby", "question"),
    ("I used to play rugby at school.", "rugby", "hobby", "past_habit"),
    ("I might try kayaking this summer.", "kayaking", "hobby", "modal"),
    ("I'm not a smoker.", "smoker", "hobby", "negated"),
    ("I don't like jazz much.", "jazz", "likes", "negated_liking"),
    # a value that holds its own verb: its mood is that verb's
    ("If we ever moved back to Chile I'd open a little café.", "open a little café", "plans", "conditional"),
    ("Maybe one day I could run a marathon.", "run a marathon", "plans", "modal"),
])
def test_what_is_not_theirs_or_not_asserted_does_not_hold(text, value, concept, reason):
    verdict = gate(text, value, concept=concept)
    assert not verdict.holds(concept), verdict
    if reason is None:
        assert verdict.whose == "other"
    else:
        assert reason in verdict.reasons


def test_an_assistants_turn_and_a_value_not_said():
    assert gate("You might enjoy pilates.", "pilates", role="assistant").whose == "assistant"
    verdict = gate("I love hiking.", "sailing")
    assert verdict.whose == "none" and "not_a_span" in verdict.reasons


def test_the_occurrence_that_holds_wins():
    text = "My friend wants me to join his chess club, but I find chess slow."
    assert gate(text, "chess", concept="dislikes").holds("dislikes")
    assert not gate(text, "chess club", concept="hobby").holds("hobby")
    assert gate(text, "chess club").holder == "My friend"


@pytest.mark.parametrize(("text", "value", "concept"), [
    ("I retired from the fire service last year.", "fire service", "job"),
    ("I quit my job at the bakery in March.", "bakery", "employer"),
    ("Last spring I resigned from the bank.", "bank", "employer"),
    ("I left Glasgow in 2019.", "Glasgow", "home"),
])
def test_what_the_speaker_left_is_no_longer_theirs(text, value, concept):
    verdict = gate(text, value, concept=concept)
    assert verdict.whose == "speaker" and "former" in verdict.reasons, verdict
    assert not verdict.holds(concept), verdict


def test_leaving_for_a_place_and_what_a_leaving_starts_are_not_left():
    assert "former" not in gate("I'm leaving for Lima next week.", "Lima", concept="home").reasons
    started = gate("I left the bakery to start my own cafe.", "cafe", concept="job")
    assert "former" not in started.reasons, started
