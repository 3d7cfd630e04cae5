"""The languages a speaker says they speak or learn, in the many ways people say it (reading/languages.py); each
sentence written for these tests."""
from __future__ import annotations

import pytest
from test_reading_plain import read, values


@pytest.mark.parametrize(("text", "expected"), [
    ("Honestly I get by in Italian and decent Greek, nothing more.", {"Italian", "Greek"}),
    ("My Japanese is still A2 so menus are a gamble.", {"Japanese"}),
    ("The two languages I speak are Polish and English.", {"Polish", "English"}),
    ("The two languages are Polish and English.", set()),  # whose is not said
    ("My languages are Welsh, English and some Breton.", {"Welsh", "English", "Breton"}),
    ("Urdu and Punjabi I speak both, English at work.", {"Urdu", "Punjabi", "English"}),
    ("Swahili and English are both fine for me, whichever is easier.", {"Swahili", "English"}),
    ("I'm one of the few fluent Catalan speakers in our office.", {"Catalan"}),
    ("Aquí en casa hablamos Portuguese, perdón por el spanglish.", {"Portuguese"}),
    ("Fluent in Hindi and Marathi; conversational Tamil.", {"Hindi", "Marathi", "Tamil"}),
    ("Speak Amharic, English, and enough Arabic to haggle.", {"Amharic", "English", "Arabic"}),
    ("I work as a translator, Korean and Japanese into English, mostly games.", {"Korean", "Japanese", "English"}),
    ("I've been doing duolingo Swedish every morning since June.", {"Swedish"}),
])
def test_languages_said(text, expected):
    got = {v for a, v in values(read(("user", text))) if a == "language"}
    assert got == expected, got


@pytest.mark.parametrize("text", [
    "My brother speaks Dutch at work.",  # another's
    "Should I learn Spanish or Portuguese first?",  # a question
    "I'm learning French cooking from videos.",  # a cuisine
    "If I ever speak German well enough I'd move to Berlin.",  # an if
])
def test_no_language_of_the_speaker(text):
    got = {v for a, v in values(read(("user", text))) if a == "language"}
    assert not got, got
