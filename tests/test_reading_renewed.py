"""A renewal's "was X, now Y" lines, a profile's sheet whose name is hidden, what the speaker asks be left unsaid of
them, a thing named before what one feels of "it", and the plain forms around them: "I'm 37" with nothing after it,
"born and raised in …" with no "I", "moved to <company>'s second office", "I'm in <city> at my sister's", a heading
before ": I …", a pet named in dashes (each sentence written for these tests)."""
from __future__ import annotations

import pytest
from test_reading_plain import read, values

from twinfs.reading.kinds import misfit
from twinfs.reading.labelled import facts
from twinfs.reading.own_words import own_words

RENEWAL = ("Updating my gym membership, here's what changed:\n"
           "Name: Dana Reyes — same\n"
           "Address: was Leith Walk, now Portobello High Street, Portobello — moved in May\n"
           "Occupation: was bus driver, now driving instructor (passed in spring!)\n"
           "Employer: was Lothian Buses, now my own business, Reyes Driving School\n"
           "Medical: no change — mild asthma\n"
           "Dietary for team socials: was none, now no dairy")


def test_a_renewals_lines_give_the_new_value_not_the_old():
    got = values(read(("user", RENEWAL), who="Dana Reyes"))
    assert {("home_city", "Portobello"), ("job", "driving instructor"), ("employer", "Reyes Driving School"),
            ("health", "mild asthma"), ("diet", "no dairy")} <= got, got
    assert not {v for v in got if v[1] in ("Leith Walk", "bus driver", "Lothian Buses", "none", "owner of a gym")}, got


@pytest.mark.parametrize(("line", "expected"), [
    ("Address: was Leith Walk, now Portobello High Street, Portobello — moved in May", [("home_city", "Portobello")]),
    ("Job: previously nurse, now: midwife", [("job", "midwife")]),
    ("Employer: was the council, now my own company, Greenline Ltd", [("employer", "Greenline Ltd")]),
    ("Health: unchanged — type 2 diabetes", [("health", "type 2 diabetes")]),
    ("Dad of three: son Ravi (9), daughter Asha (6), son Dev (2)",
     [("son", "Ravi"), ("daughter", "Asha"), ("son", "Dev")]),
    ("Two kids: Ines (7) and Tomas (4)", [("child", "Ines"), ("child", "Tomas")]),
    ("Weekends: padel with the Tuesday crowd, every Saturday", [("hobby", "padel with the Tuesday crowd")]),
    ("Origin: Valparaíso", [("hometown", "Valparaíso")]),
    ("Grew up: Dundee", [("hometown", "Dundee")]),
    ("ALLERGIC: PENICILLIN", [("allergy", "PENICILLIN")]),
    ("ICE: Marta (esposa)", [("partner", "Marta")]),
    ("Language for the newsletter: Welsh", [("language", "Welsh")]),
])
def test_a_forms_line_said_another_way(line, expected):
    assert facts(line, "Dana Reyes") == expected


def test_a_sheet_whose_name_is_hidden_is_still_the_speakers():
    sheet = ("For the guessing game, my sheet:\nNAME: [hidden]\nHOME BASE: Leith, Edinburgh\nORIGIN: Dundee\n"
             "LANGUAGES: English (native), Gaelic (learning), French (rusty)")
    got = values(read(("user", sheet)))
    assert {("home_city", "Leith, Edinburgh"), ("hometown", "Dundee"), ("language", "English"),
            ("language", "French")} <= got, got
    other = "Name: Morag Ellis\nHometown: Dundee\nLanguages: English"  # a form with someone else's name on it
    assert not values(read(("user", other))), values(read(("user", other)))


@pytest.mark.parametrize(("text", "kept"), [
    ("Please don't write that I'm vegan, that's my sister.", "Please , that's my sister."),
    ("Careful, don't let him put that I smoke — I quit years ago.", "Careful, — I quit years ago."),
    ("Don't write that down, I'll remember it.", "Don't write that down, I'll remember it."),  # no "I" of theirs
])
def test_what_the_speaker_asks_be_left_unsaid_is_no_statement(text, kept):
    assert own_words(text) == kept


def test_a_fact_the_speaker_asks_be_left_out_sets_nothing():
    got = values(read(("user", "And please don't write that I hate dogs — my brother wrote that. I love dogs.")))
    assert ("likes", "dogs") in got and ("dislikes", "dogs") not in got, got
    got = values(read(("user", "Make sure Leo doesn't put that I'm diabetic, that's Grandpa.")))
    assert not any(a == "health" for a, _ in got), got


@pytest.mark.parametrize(("text", "expected"), [
    ("Is under 30 — no, I'm 37", ("age", "37")),
    ("and yes I'm still 44.", ("age", "44")),
    ("Neither — born and raised in Tromsø.", ("hometown", "Tromsø")),
    ("I grew up in #Ocotlán, a small town.", ("hometown", "Ocotlán")),
    ("Things I love: #mole #cumbia and rain on a tin roof. Things I hate: #traffic on Sundays.", ("likes", "cumbia")),
    ("Things I love: #mole #cumbia and rain on a tin roof. Things I hate: #traffic on Sundays.",
     ("dislikes", "traffic on Sundays")),
    ("Also if the school calls: I'm a paramedic, on nights this month.", ("job", "paramedic")),
    ("I'm a 2nd year apprentice sparky with Brightwire Electrical.", ("employer", "Brightwire Electrical")),
    ("I'm a backend dev at Quillstone.", ("job", "backend dev")),
    ("Now I coach the under-11s on Sunday mornings.", ("hobby", "coach the under-11s")),
    ("In the evenings I weave on a small loom, my aunt taught me.", ("hobby", "weave")),
    ("No, we just eat kosher, that's all.", ("diet", "kosher")),
    ("I just don't eat lamb.", ("diet", "no lamb")),
    ("Sunday roast is still my favourite thing in the world.", ("likes", "Sunday roast")),
    ("fennel, can't stand it, sorry Italy", ("dislikes", "fennel")),
    ("olives: i hate them, always have", ("dislikes", "olives")),
    ("I prefer email to calls. Hate long voice notes with a passion.", ("dislikes", "long voice notes")),
    ("And Mochi — my cat — needs her pills at eight.", ("pet", "cat named Mochi")),
    ("I also have a dog now, Bruno, adopted in March.", ("pet", "dog named Bruno")),
    ("Christmas is with my mãe and my sister Rita in Braga.", ("sister", "Rita")),
])
def test_the_plain_forms_of_this_session(text, expected):
    got = values(read(("user", text)))
    assert expected in got, got


@pytest.mark.parametrize(("text", "unwanted"), [
    ("My daughter's sheet: MY NAME: Lila. I am 8 and a half.", ("age", "8")),  # a child's words, pasted
    ("maybe when I'm 35 I'll go freelance", ("age", "35")),  # a time ahead, no age
    ("Yeah, I love it.", ("likes", "Yeah")),  # an answer, no thing named first
    ("I moved to Halden's second office in Sandvika last month.", ("home_city", "Halden")),  # a workplace
    ("I'm in Bergen at my sister's until Sunday.", ("home_city", "Bergen")),  # a stay
    ("I'm doing a part-time law degree in the evenings, so no more Tuesday football.",
     ("plans", "doing a part-time law degree in the evenings")),  # the day is the later clause's
])
def test_what_these_forms_do_not_say(text, unwanted):
    got = values(read(("user", text)))
    assert unwanted not in got, got


@pytest.mark.parametrize(("concept", "value", "sentence"), [
    ("age", "8 and a half", "MY NAME: Lila. I am 8 and a half."),
    ("plans", "want to be a vet", "When I grow up I want to be a vet."),
    ("school", "Leeds uni", "the course I didn't finish: Leeds uni, law, one year, dropped out."),
])
def test_the_model_pass_code_turns_down_a_childs_words(concept, value, sentence):
    assert misfit(concept, value, sentence) is not None
    assert misfit("age", "41", "I'm 41 now.") is None and misfit("plans", "want to be a vet", "I want to be a vet.") \
        is None
