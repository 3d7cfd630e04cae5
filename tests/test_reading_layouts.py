"""Turns laid out as something other than chat: a CV pasted with its headings (reading/resume.py), a household as a
markdown table (reading/tables.py), a key: value block about a family, someone else typing on the speaker's account
(reading/own_words.py). Conversations written for these tests."""
from __future__ import annotations

import pytest
from test_reading_elided import values

from twinfs.reading.own_words import own_words
from twinfs.reading.resume import cv_lines
from twinfs.reading.tables import table_lines

CV = """Could you turn this into a cover letter? My CV:

PIETER VAN DAM
Utrecht · 47

EXPERIENCE
- Head gardener, Kasteel de Haar (2017–present): 12 staff
- Tree surgeon, Groenwerk BV (2004–2016)

EDUCATION
- BSc Forestry, Wageningen University

LANGUAGES
Dutch & Frisian (native), German (B2)

Thanks!"""


def test_a_cvs_sections_are_read_as_a_forms_lines_and_a_job_that_ended_is_none():
    written = cv_lines(CV)
    assert "Job: Head gardener\nEmployer: Kasteel de Haar" in written
    assert "Groenwerk" not in written and "Tree surgeon" not in written
    assert "School: Wageningen University" in written
    assert "Languages: Dutch, Frisian (native), German (B2)" in written
    got = values(("user", CV))
    assert {("job", "Head gardener"), ("employer", "Kasteel de Haar"), ("school", "Wageningen University"),
            ("language", "Dutch"), ("language", "Frisian"), ("language", "German")} <= got, got
    assert not {v for _, v in got} & {"Tree surgeon", "Groenwerk BV"}, got


def test_a_turn_without_headings_or_tables_is_read_as_it_was():
    text = "EXPERIENCE matters, I think.\nI work at a bakery | sometimes at a bar."
    assert cv_lines(text) == text and table_lines(text) == text


TABLE = """Meal plan for the house please:

| name | age | notes |
|---|---|---|
| me (Oskar) | 52 | coeliac |
| Hanna (wife) | 50 | hates fennel |
| Lotta (my daughter) | 17 | vegan |

We're in Malmö."""


def test_a_household_table_gives_the_speaker_their_row_and_the_others_as_family():
    written = table_lines(TABLE)
    assert "Age: 52" in written and "Family: Hanna (wife), Lotta (daughter)" in written
    got = values(("user", TABLE))
    assert {("age", "52"), ("partner", "Hanna"), ("daughter", "Lotta")} <= got, got
    assert not {v for _, v in got} & {"50", "17", "vegan", "fennel"}, got  # the others' rows are theirs


def test_a_key_value_block_names_relatives_by_their_labels_and_keeps_the_speakers_items():
    got = values(("user", "```\npartner: Jonas, husband, drives\nkids: Ida (7), Noah (4)\nmy mum: Birgit, 70, "
                          "comes too\nsister: Maja, first two nights\ndiet: me vegan; Noah no eggs (allergy)\n"
                          "home base: Aarhus (Trøjborg)\n```"))
    assert {("partner", "Jonas"), ("child", "Ida"), ("child", "Noah"), ("mother", "Birgit"), ("sister", "Maja"),
            ("diet", "vegan"), ("home_city", "Aarhus")} <= got, got
    assert not any("egg" in v or "drives" in v for _, v in got), got


@pytest.mark.parametrize("text", [
    "hi, this is Tom, Ana's husband, typing on her account because she's on a call. I'm a chef and I'm allergic "
    "to cats.",
    "Hello, it's Priya, writing for him while he drives. I'm a nurse in Leeds.",
    "hi, this is Tom, Ana's husband, typing for her. anyway here is the plan: I'm a chef in Porto.",  # no "Ana here"
])
def test_someone_typing_for_the_speaker_says_nothing_of_theirs(text):
    assert own_words(text) == "" and values(("user", text)) == set()


def test_the_speaker_back_at_the_keyboard_is_read_again():
    text = "hi, this is Tom, Ana's husband, typing for her. I'm a chef.\nAna here, I'm back. I'm a nurse."
    got = values(("user", text))
    assert ("job", "nurse") in got and ("job", "chef") not in got, got


@pytest.mark.parametrize(("text", "want", "unwanted"), [
    ("Since my wife Margaret passed in 2015 I have lived alone.", None, ("partner", "Margaret")),
    ("My husband Ray died two years ago.", None, ("partner", "Ray")),
    ("My phone died, but my wife Ann called from Leeds.", ("partner", "Ann"), None),
    ("I have been teetotal since 1980.", ("diet", "teetotal"), None),
    ("I'm pre-diabetic, apparently.", ("health", "pre-diabetic"), None),
    ("I'm applying for a lab technician post at the hospital.", ("plans", "apply for a lab technician post"), None),
    ("If it goes well, I'm applying for a visa.", None, ("plans", "apply for a visa")),
    ("I'm a cataloguer at the university library, on reduced hours.", ("job", "cataloguer"), None),
    ("I'm a big believer at heart.", None, ("job", "big believer")),
    ("Since 2021 I run a small poultry farm outside the city.", ("job", "owner of a small poultry farm"), None),
    ("I'm a Cork man born and bred.", ("hometown", "Cork"), None),
    ("btw im on the swim team so i cant do tuesdays", ("hobby", "on the swim team"), None),
    ("I'm on the infra team at Vridhi Bank.", None, ("hobby", "on the infra team")),
    ("and i play bass in a band called wet cardboard", ("hobby", "play bass in a band"), None),
    ("I have sung in the Kumasi Male Voice Choir for 40 years.", ("hobby", "sing in the Kumasi Male Voice Choir"),
     None),
    ("i kinda like the alliances part", ("likes", "alliances part"), None),
    ("I am a non-smoker since 1999.", ("health", "non-smoker"), None),
    ("Dr Basra says I'm borderline anaemic.", ("health", "anaemic"), None),
    ("I've a dodgy left knee since an old hurling injury.", ("health", "dodgy left knee"), None),
    ("I've been veggie since 7th grade.", ("diet", "veggie"), None),
    ("• Mentor with Code First Girls since 2022", ("hobby", "Mentor with Code First Girls"), ("job", "Mentor")),
])
def test_plain_statements_of_a_life(text, want, unwanted):
    got = values(("user", text))
    assert want is None or want in got, got
    assert unwanted is None or unwanted not in got, got
