"""Facts said in passing, in the ways a voice note, a list of emoji or a long aside says them: a repair said as it is
spoken, an emoji as a list's bullet, a relative who has died, a pet named after its name, a taste said as an
obsession, a condition said as "my …" (each sentence written for these tests)."""
from __future__ import annotations

import pytest
from test_reading_plain import read, values


@pytest.mark.parametrize(("text", "expected"), [
    ("So we're in Bristol— well, technically Keynsham now, since June.", {("home_city", "Keynsham")}),
    ("And I'm forty-one— no, forty-two, as of Sunday, ugh.", {("age", "forty-two")}),
    ("fun facts:\n🌿 allergic to pollen, sadly\n🏡 Leeds born & raised", {("allergy", "pollen"),
                                                                         ("hometown", "Leeds")}),
    ("I do two days a week as a radiographer at the Royal Infirmary.", {("job", "radiographer"),
                                                                        ("employer", "Royal Infirmary")}),
    ("Thursdays are out, that's my evening Greek classes.", {("language", "Greek")}),
    ("I've finally signed myself up for the Sunday pottery course at the arts centre.",
     {("plans", "Sunday pottery course")}),
    ("My knees are fine, but don't ask me about my asthma.", {("health", "asthma")}),
    ("My fingers get stiff with rheumatoid arthritis in the cold.", {("health", "rheumatoid arthritis")}),
    ("I've been veg since uni, honestly.", {("diet", "veg")}),
    ("We have two rabbits already, Toffee and Fudge, so no.", {("pet", "rabbits named Toffee and Fudge")}),
    ("The goldfish are Sid, Nancy and Elvis; they are very old.", {("pet", "goldfish named Sid, Nancy and Elvis")}),
    ("Plus Biscuit, our spaniel, who eats socks.", {("pet", "spaniel named Biscuit")}),
    ("I've become slightly obsessed with Lisbon's tram lines.", {("likes", "Lisbon's tram lines")}),
    ("Afrobeats is my whole personality these days.", {("likes", "Afrobeats")}),
    ("I honestly can't stand the smell of wet dog.", {("dislikes", "smell of wet dog")}),
    ("I cannot abide milk in my coffee.", {("dislikes", "milk in my coffee")}),
    ("I'm a vet nurse, I work at, um, Paws and Claws, the one by the station.", {("employer", "Paws and Claws")}),
    ("I live alone in Whitby since the kids left.", {("home_city", "Whitby")}),
    ("Since March I've been renting a two-bed in Leipzig, near the zoo.", {("home_city", "Leipzig")}),
    ("I'm now a data engineer at a tiny fintech called Ledgerly, less money.", {("employer", "Ledgerly")}),
    ("Update for those of you asking — we moved out of the city to Clonakilty last spring.",
     {("home_city", "Clonakilty")}),
    ("Oh and I have psoriasis, so gentle soap please — my skin hates perfume.", {("health", "psoriasis")}),
    ("No more crisps at midnight, I'm off sugar for good.", {("diet", "off sugar")}),
    ("I have eczema on my hands and high blood pressure, so no salt.", {("health", "eczema"),
                                                                         ("health", "high blood pressure")}),
    ("Tomasz and I have been 12 years married this spring.", {("partner", "Tomasz")}),
    ("Our boy Kofi (9) made the school chess team.", {("son", "Kofi")}),
    ("Quick fix: we moved to Ōtāhuhu in June, I forgot to say.", {("home_city", "Ōtāhuhu")}),
    ("I'm allergic to latex and to ibuprofen, sadly.", {("allergy", "latex"), ("allergy", "ibuprofen")}),
    ("Polish at home, English at work, bad French on holiday.", {("language", "Polish"), ("language", "English")}),
    ("I am Halina, 58 years old, a retired midwife, and I live in Gdynia.", {("age", "58"),
                                                                              ("job", "retired midwife")}),
    ("**Typical Sunday:** I'm allergic to cats btw, so no cafés with cats.", {("allergy", "cats")}),
    ("I speak Urdu and English, so is that enough for the job?", {("language", "Urdu"), ("language", "English")}),
    ("The fiddle is my da's thing, not mine.", {("family", "da")}),
    ("My landlord in Rathmines is selling up in spring.", {("home_city", "Rathmines")}),
    ("I fix boilers for a living and I'm sick of the cold.", {("job", "fix boilers")}),
    ("I'm currently a physio at Meadow Clinic in Bray, outpatients side.", {("job", "physio"),
                                                                            ("employer", "Meadow Clinic")}),
    ("Takeaway is fine, I'm a climber, not a cook.", {("hobby", "climber")}),
    ("No dog photos, I'm a cat guy through and through.", {("likes", "cat")}),
    ("I coach netball at Ridgeway Primary here in Nelson.", {("home_city", "Nelson")}),
    ("I live in Valencia, in the Ruzafa, and I walk to work.", {("home_city", "Valencia"), ("home_city", "Ruzafa")}),
    ("I knit jumpers for the twins every winter.", {("hobby", "knit jumpers")}),
    ("I already do kickboxing on Tuesdays at 7.", {("hobby", "kickboxing")}),
    ("I just joined a choir on Wednesdays at 7:30pm.", {("hobby", "choir")}),
])
def test_facts_said_in_passing(text, expected):
    got = values(read(("user", text)))
    assert expected <= got, got


@pytest.mark.parametrize(("text", "unwanted"), [
    ("I live in Bristol— well, technically Keynsham now.", ("home_city", "Bristol")),  # taken back as said
    ("She's lived with us since my dad passed, bless her.", ("family", "dad")),  # died: no relative now
    ("I live alone since my wife, Maureen, passed away.", ("partner", "Maureen")),
    ("I cook every night now, which I never did while I was married.", ("relationship_status", "married")),
    ("Marmite toast, hmm, I tried that once and— no.", ("job", "Marmite toast")),  # a food, no doer
    ("I do three shifts a week at the café, it's fine.", ("hobby", "three shifts a week")),
    ("I'm 1.85 and ninety kilos, so a big bike.", ("age", "1")),  # a height
    ("I'm a Galway girl, so the rain is nothing.", ("likes", "Galway")),  # where one is from
    ("I'm a lucky guy, honestly.", ("likes", "lucky")),
    ("I'm here in Oslo for a conference, then home.", ("home_city", "Oslo")),  # a stay
    ("I'm starting a master's here in Ghent in September.", ("home_city", "Ghent")),  # ahead
])
def test_what_is_not_so_now(text, unwanted):
    assert unwanted not in values(read(("user", text))), values(read(("user", text)))


def test_a_relative_who_passed_a_test_is_still_a_relative():
    assert ("brother", "Tom") in values(read(("user", "My brother Tom just passed his driving test!")))
