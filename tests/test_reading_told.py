"""Facts told to the assistant to take down, and the shorthand around them: "Also add that I'm …", "Just so you
know, …", an appointment kept ("Dentist at 4:30"), a laugh that ends a sentence, a workplace the parse does not
know for an organisation, a note's "Still …" (each sentence written for these tests)."""
from __future__ import annotations

import pytest
from test_reading_plain import read, values


@pytest.mark.parametrize(("text", "expected"), [
    ("Please add that I live in Leeds.", {("home_city", "Leeds")}),
    ("Also mention that I work at Boots.", {("employer", "Boots")}),
    ("Put down that I have a cat called Miso.", {("pet", "cat named Miso")}),
    ("Just so you know, I'm a nurse.", {("job", "nurse")}),
    ("For context, I'm allergic to penicillin.", {("allergy", "penicillin")}),
    ("Also add that I'm sitting my exam at 2pm on the 12th.", {("plans", "sitting my exam at 2pm")}),
    ("I work at Boots in Leeds as a pharmacist.", {("employer", "Boots"), ("job", "pharmacist")}),
    ("I work at Leeds General Infirmary on nights.", {("employer", "Leeds General Infirmary")}),
    ("Still can't stand the Warriors' defence lol.", {("dislikes", "Warriors' defence")}),
    ("I moved to Sligo haha!", {("home_city", "Sligo")}),
    ("Love a good pub quiz.", {("likes", "good pub quiz")}),
    ("Still living in Māngere.", {("home_city", "Māngere")}),
    ("I have a dentist appointment at 4:30.", {("plans", "dentist appointment")}),
    ("Today: pairing with Efua on the tickets. Dentist at 4:30.", {("plans", "dentist")}),
    ("I have physio on Monday.", {("plans", "physio")}),
])
def test_what_is_told(text, expected):
    got = values(read(("user", text)))
    assert expected <= got, got


@pytest.mark.parametrize(("text", "unwanted"), [
    ("Add the eggs, then I whisk the lot.", ("plans", "eggs")),
    ("I work at Christmas, every year.", ("employer", "Christmas")),
    ("I work for myself these days.", ("employer", "myself")),
    ("I had a dentist appointment at 4:30, it went fine.", ("plans", "dentist appointment")),
])
def test_what_is_not_told(text, unwanted):
    assert unwanted not in values(read(("user", text))), values(read(("user", text)))


def test_an_appointment_ahead_is_a_plan():
    kinds = {(r.attribute, r.kind) for r in read(("user", "I have an interview on 24 November at 10:00."))}
    assert ("plans", "plan") in kinds, kinds


def test_a_request_to_add_a_fact_keeps_no_request_in_the_record():
    texts = [r.text for r in read(("user", "Please add that I live in Leeds."))]
    assert texts and not any("dd that" in t for t in texts), texts
