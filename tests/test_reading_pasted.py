"""What a turn pastes or answers by number: another's lines of a pasted chat are theirs (reading/own_words.py), a
numbered answer is read as what its numbered question asked (reading/questionnaire.py), a story's character is not
the speaker. Conversations written for these tests (the user is Ines)."""
from __future__ import annotations

import pytest
from test_reading_elided import values

from twinfs.reading.assertion import gate
from twinfs.reading.own_words import own_words
from twinfs.reading.questionnaire import by_number

CHAT = """Help me plan this, pasting the family chat:

[02/11/26, 08:14] Bruno: I'm vegetarian now btw, no roast please
[02/11/26, 08:15] Ines: I'm a pharmacist in Braga these days, I can do the Saturday
02/11/2026, 08:17 - Marta: my husband Rui can drive, he's a bus driver
[08:20] Bruno: we have a dog called Pipoca, can she come?

That's everyone."""


def test_a_pasted_chat_keeps_the_speakers_own_lines_and_drops_the_others():
    kept = own_words(CHAT, "Ines Duarte")
    assert "I'm a pharmacist in Braga" in kept and "[02/11/26" not in kept
    assert "vegetarian" not in kept and "Rui" not in kept and "Pipoca" not in kept
    got = values(("user", CHAT))
    assert ("job", "pharmacist") in got
    assert not {a for a, _ in got} & {"diet", "partner", "pet", "husband"}, got


def test_a_pasted_chat_without_the_speakers_lines_says_nothing_of_theirs():
    text = "[14:02] Tomás: I'm allergic to penicillin\n[14:03] Tomás: and I live in Faro now"
    assert own_words(text, "Ines").strip() == "" and values(("user", text)) == set()


QUESTIONS = ("Happy to help! Please answer by number:\n1. How old are you?\n2. Where do you live?\n"
             "3. Any allergies?\n4. What do you do for fun, and what do you avoid?\n5. Any pets?")
ANSWERS = "1. 44\n2. Coimbra, near the old town.\n3. Shellfish, badly.\n4. I like hiking, I hate crowds.\n5. No pets."


def test_numbered_answers_are_read_as_what_their_questions_asked():
    assert by_number(ANSWERS, QUESTIONS).splitlines()[:3] == ["Age: 44", "Home: Coimbra, near the old town.",
                                                              "Allergies: Shellfish, badly."]
    assert by_number(ANSWERS, QUESTIONS).splitlines()[3] == "I like hiking, I hate crowds."  # no label: no number
    got = values(("assistant", QUESTIONS), ("user", ANSWERS))
    assert {("age", "44"), ("allergy", "Shellfish")} <= got, got
    assert any(a == "home_city" and v.startswith("Coimbra") for a, v in got), got
    assert not any(a == "pet" for a, _ in got), got


def test_numbered_lines_that_answer_no_numbered_question_are_left_as_said():
    assert by_number(ANSWERS, "What would you like to know?") == ANSWERS
    assert by_number("1. 44", None) == "1. 44"


@pytest.mark.parametrize(("text", "value", "concept"), [
    ("My main character is Joana, a nurse from Porto who hides a secret.", "nurse", "job"),
    ("The protagonist lives in Lisbon with her cat.", "Lisbon", "home"),
])
def test_a_storys_character_is_not_the_speaker(text, value, concept):
    assert gate(text, value, concept=concept).whose == "other"


def test_a_plan_said_with_maybe_is_no_plan_and_a_parent_is_no_place():
    assert "modal" in gate("I'm moving to Leeds in May, maybe.", "moving to Leeds", concept="plans").reasons
    got = values(("user", "Sat 19/12 – train to Annecy, Christmas chez Maman & Papa (where I grew up) until the 2nd"))
    assert not any(a == "hometown" and v in ("Papa", "Maman") for a, v in got), got


def test_texted_misspellings_of_every_and_tomorrow_are_written_out():
    got = values(("user", "i play 5 a side evry tuesday with the lads from work"))
    assert not any(a == "plans" for a, _ in got), got
