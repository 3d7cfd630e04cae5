"""The speaker written of by their own name (reading/bio.py) and a game's lie (reading/games.py): a bio in the third
person is the speaker's, someone else's bio is not, and the item said to be the lie is no fact (each turn written for
these tests; the user is Tomás Reyes)."""
from __future__ import annotations

from test_reading_plain import read, values

from twinfs.reading.bio import in_first_person
from twinfs.reading.games import without_the_lie

BIO = ("Could you trim this for the festival programme? Third person please:\n\n'Tomás Reyes is a sound engineer at "
       "Radio Clásica in Seville, where he mixes the Sunday concerts. Originally from Cádiz, he studied acoustics at "
       "the University of Granada. He lives with his wife Lucía and a grumpy cat named Pimiento.'")


def test_a_bio_of_the_speaker_in_the_third_person_is_read_as_theirs():
    said = in_first_person(BIO, "Tomás Reyes")
    assert "I am a sound engineer at Radio Clásica" in said and "I live with my wife Lucía" in said
    assert said.count("\n") == BIO.count("\n")  # its lines as they were
    got = values(read(("user", BIO), who="Tomás Reyes"))
    assert {("job", "sound engineer"), ("employer", "Radio Clásica"), ("hometown", "Cádiz"),
            ("partner", "Lucía")} <= got, got


def test_a_bio_of_someone_else_stays_theirs():
    text = "Can you shorten my sister's bio? 'Marta Reyes is a pilot with Iberia. She lives in Madrid.'"
    assert in_first_person(text, "Tomás Reyes") == text
    assert not {a for a, _ in values(read(("user", text), who="Tomás Reyes"))} & {"job", "home_city", "employer"}


def test_a_sentence_about_another_ends_the_speakers_bio():
    said = in_first_person("Tomás plays the oud. Lucía teaches maths and she runs marathons.", "Tomás Reyes")
    assert said.startswith("I play the oud.") and "she runs marathons" in said


def test_the_lie_of_two_truths_and_a_lie_is_no_fact():
    text = ("For the icebreaker, two truths and a lie:\n1. Tomás has met the King\n2. Tomás has a pet iguana called "
            "Rocky\n3. Tomás speaks four languages (Spanish, English, Catalan, Italian)\nThe lie is 2, obviously.")
    assert "iguana" not in without_the_lie(text)
    got = values(read(("user", text), who="Tomás Reyes"))
    assert not any(a == "pet" for a, _ in got), got
    assert {("language", "Catalan"), ("language", "Italian")} <= got, got


def test_a_lie_said_by_a_word_of_it_goes_with_its_item():
    text = "Two truths and a lie: I've surfed in Bali, I play the bagpipes, I own a boat. The lie is Bali, sadly."
    assert "Bali, I play" not in without_the_lie(text) and "bagpipes" in without_the_lie(text)
    assert without_the_lie("I'd never lie to you: I live in Ronda.") == "I'd never lie to you: I live in Ronda."
