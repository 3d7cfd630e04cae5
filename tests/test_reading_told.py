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
    ("I've worked at Tesco since 2019.", {("employer", "Tesco")}),
    ("yes, I drive the number 49 bus for First Bus", {("job", "drives the number 49 bus"),
                                                     ("employer", "First Bus")}),
    ("Vet tech at Veterinaria San Roque (did my diploma in Rosario), 8 to 4.", {("job", "vet tech"),
                                                                              ("employer", "Veterinaria San Roque")}),
    ("Engineer at Arup, based in Leeds.", {("job", "engineer"), ("employer", "Arup")}),
    ("I coach my son's football team on Sundays.", {("hobby", "coach my son's football team")}),
    ("I speak English and Teochew at home.", {("language", "Teochew")}),
    ("Pets: 1 cat (Biscuit, sterilised, 11 yrs)", {("pet", "cat named Biscuit")}),
    ("Pets: a cat, Biscuit", {("pet", "cat named Biscuit")}),
    ("Current address: 14 Florida Road, Morningside, Durban (moving out end of December)",
     {("home_city", "Morningside"), ("home_city", "Durban")}),
    ("Current employment: Architectural technologist, Studio Mkhize, Durban", {("job", "Architectural technologist"),
                                                                              ("employer", "Studio Mkhize")}),
    ("I'm 52, no more ladders for me. Actually 53, had the birthday Tuesday.", {("age", "53")}),
    ("Weekends I'm out sea fishing at Crosshaven, that's my therapy.", {("hobby", "sea fishing")}),
    ("Priya & Omar (from my work at Radio-Canada) - Priya's allergic to shellfish.", {("employer", "Radio-Canada")}),
    ("(and I DJ weddings on the side, so no one is allowed to request the Macarena)", {("job", "DJ weddings")}),
    ("Monthly income: R32 000 (plus freelance 3D renders on the side)", {("job", "freelance 3D renders")}),
    ("I work at the NHS and I LOVE it, NOT joking.", {("employer", "NHS")}),
    ("I'm coeliac AND allergic to peanuts.", {("health", "coeliac")}),
    ("I'm running the city 10k on 14 December so carbs that week pls.", {("plans", "running the city 10k")}),
])
def test_what_is_told(text, expected):
    got = values(read(("user", text)))
    assert expected <= got, got


@pytest.mark.parametrize(("text", "unwanted"), [
    ("Add the eggs, then I whisk the lot.", ("plans", "eggs")),
    ("I work at Christmas, every year.", ("employer", "Christmas")),
    ("I work for myself these days.", ("employer", "myself")),
    ("I had a dentist appointment at 4:30, it went fine.", ("plans", "dentist appointment")),
    ("I used to fix my own bike when I worked at Halfords.", ("employer", "Halfords")),
    ("I manage a team of twelve engineers.", ("hobby", "manage a team")),
    ("I don't have pets anymore, our old dog Bubu died last year.", ("pet", "dog named Bubu")),
    ("Our cat Mimi died in March.", ("pet", "cat named Mimi")),
    ("I'm 52, no more ladders for me. Actually 53, had the birthday Tuesday.", ("age", "52")),
    ("My granddaughter Ioana is going to Bologna next year and I want to visit her.", ("plans", "visit")),
    ("I'm out fishing today with my dad.", ("hobby", "fishing")),  # once, no pastime said
    ("Unfortunately, I also lost my job at Door Dash.", ("employer", "Door Dash")),
])
def test_what_is_not_told(text, unwanted):
    assert unwanted not in values(read(("user", text))), values(read(("user", text)))


def test_an_appointment_ahead_is_a_plan():
    kinds = {(r.attribute, r.kind) for r in read(("user", "I have an interview on 24 November at 10:00."))}
    assert ("plans", "plan") in kinds, kinds


def test_a_request_to_add_a_fact_keeps_no_request_in_the_record():
    texts = [r.text for r in read(("user", "Please add that I live in Leeds."))]
    assert texts and not any("dd that" in t for t in texts), texts


def test_a_pronoun_of_a_granddaughter_is_her_not_a_place():
    texts = [r.text for r in read(("user", "My granddaughter Ioana is going to Bologna next year and I want to visit "
                                           "her."))]
    assert not any("visit Bologna" in t for t in texts), texts


@pytest.mark.parametrize(("text", "expected"), [
    ("No alcohol, I'm vegetarian.", "No alcohol"),  # what one does without, kept
    ("No way, I moved to Leeds!", "Noor moved to Leeds"),  # an exclamation, taken off
])
def test_a_leading_no(text, expected):
    texts = [r.text for r in read(("user", text))]
    assert any(t.startswith(expected) for t in texts), texts


def test_answers_by_bare_number_to_a_chats_numbered_questions():
    records = read(("assistant", "1) Are you over 16?\n2) Do you have a fever?\n3) Do you have any allergies to "
                                 "medicines?"),
                   ("user", "1 yes, 45\n2 no\n3 yes, penicillin, I come out in a rash"))
    assert {("age", "45"), ("allergy", "penicillin")} <= values(records), values(records)


@pytest.mark.parametrize(("asked", "answer", "expected"), [
    ("Where are you based?", "Rosario (born in Córdoba though, moved here for work in 2012)", ("home_city", "Rosario")),
    ("Which area are you in, so I can check stock?", "Chapel Allerton, north Leeds.", ("home_city", "Chapel Allerton")),
])
def test_an_answer_with_an_aside(asked, answer, expected):
    assert expected in values(read(("assistant", asked), ("user", answer)))
