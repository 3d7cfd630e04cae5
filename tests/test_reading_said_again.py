"""Plain statements the rules reader missed or misfiled on the twenty-fifth reading set's first reading (a guest card,
a vlog script, a carpool post, a radio-contest entry, a mentoring questionnaire), each sentence written for these
tests: what they say is read, and what they take back, joke about or quote is not."""
from __future__ import annotations

import pytest
from test_reading_plain import read, values

from twinfs.reading.own_words import own_words
from twinfs.reading.texting import plain
from twinfs.reading.withdrawn import ended


@pytest.mark.parametrize(("text", "expected"), [
    ("Big one for the form: I'm allergic to wasp stings and carry two pens with me.", {("allergy", "wasp stings")}),
    ("I am allergic on hazelnuts, please no Nutella.", {("allergy", "hazelnuts")}),  # a learner's preposition
    ("I get migraines when the office lights flicker.", {("health", "migraines")}),
    ("My skin gets eczema from the cleaning stuff at work.", {("health", "eczema")}),
    ("Health: I have problem with my knee (old injury), so ground floor please. Also I snore, sorry!", {
        ("health", "problem with my knee"), ("health", "snores")}),
    ("Last winter I got type 1 diabetes, so carbs are maths now.", {("health", "type 1 diabetes")}),
    ("I'm off the sweets since my check-up.", {("diet", "off sweets")}),
    ("I fast on Mondays and Thursdays.", {("diet", "fasts on Mondays and Thursdays")}),
    ("In my spare time I paint and I garden (slowly).", {("hobby", "garden")}),
    ("I've joined a sea rowing group on the harbour.", {("hobby", "sea rowing group")}),
    ("I go to the gym before my shift most days.", {("hobby", "gym")}),
    ("I still play in a Saturday league, bad ankle and all.", {("hobby", "play in a Saturday league")}),
    ("I'm a 44-year-old cartographer in Valparaíso.", {("job", "cartographer")}),
    ("I am a foreman on the night crew.", {("job", "foreman")}),
    ("I love a proper fry-up more than anything.", {("likes", "proper fry-up")}),
    ("Also I can't stand jackfruit, sorry everyone.", {("dislikes", "jackfruit")}),
    ("Rosalind and me got married in 1979.", {("partner", "Rosalind")}),
    ("I'm improving my Portuguese with a tutor.", {("language", "Portuguese")}),
    ("Grew up in Corner Brook, been living in Halifax since 2001.", {("home_city", "Halifax")}),
    ("Our cat Pesto would be fed by the neighbours while we're away.", {("pet", "cat named Pesto")}),
    ("No allergy to dogs here, I have a dog myself, Biko, a lurcher.", {("pet", "dog named Biko")}),
    ("Oh and my citizenship interview is on 9 March, so no lifts that day.", {("plans", "citizenship interview")}),
    ("We have two kids: Ilse is 9 and loves horses, and the twins Bram and Joris are 4.", {("child", "Bram"),
                                                                                          ("child", "Joris")}),
    ("I'm a clumsy but devoted banjo player.", {("hobby", "banjo")}),
    ("Welcome back to a week in my life as a glassblower in Murano.", {("job", "glassblower")}),
    ("Also you can add that I go to an evening course at the Kulturhaus Lenzburg.", {("school",
                                                                                      "Kulturhaus Lenzburg")}),
    ("Sundays I have Korean class at Humber College.", {("school", "Humber College")}),
    ("i'm doing a part-time certificate in bookkeeping at night, at NAIT", {("school", "NAIT")}),
    ("Please put in that I'm hard of hearing - one hearing aid - in case they ring.", {("health", "hard of hearing")}),
    ("Place of birth (optional, for the guestbook map!): Tartu, Estonia", {("hometown", "Tartu, Estonia")}),
])
def test_a_plain_statement_is_read(text, expected):
    got = values(read(("user", text), who="Dana Reyes"))
    assert expected <= got, got


@pytest.mark.parametrize(("text", "wrong"), [
    ("About food: I am pescatarian, my husband eats anything.", ("job", "pescatarian")),  # a diet, no job
    ("I do Japanese calligraphy on Sunday mornings.", ("language", "Japanese")),  # an art, no language spoken
    ("I'm doing an evening course in Greek - no wait, Turkish! Turkish, on Tuesdays.", ("language", "Greek")),
    ("I am allergic to cat hair... no wait, that is my brother, sorry.", ("allergy", "cat hair")),
    ("I'm moving to Lisbon next year. I'm not, but my boss reads this and I want him nervous.", ("plans",
                                                                                               "move to Lisbon")),
    ("Please remove 'my wife does the books' from the old page, that was years ago.", ("partner", "wife")),
    ("I'm a team player, I'll cover the late shift.", ("job", "team player")),
    ("I loved my days as a student in Cork.", ("job", "student")),
    ("I'm a dreamer in every way, my mum says.", ("job", "dreamer")),  # "in" no place
    ("The twins Sam and Ali are coming over later.", ("child", "Sam")),  # whose twins, nothing says
    ("My husband says I snore but I don't.", ("health", "snores")),
    ("In my head I'm a 30-year-old jazz pianist in Paris.", ("age", "30")),
])
def test_what_is_taken_back_joked_or_quoted_is_not_read(text, wrong):
    got = values(read(("user", text), who="Dana Reyes"))
    assert wrong not in got, got


def test_the_repaired_and_joked_words_are_left_out_of_the_reading():
    assert own_words("I take a class in Greek - no wait, Turkish!") == "I take a class in Turkish!"
    assert own_words("I hate olives... no wait, that is my sister, sorry. I like figs.") == "I like figs."
    assert own_words("Hi. I'm a pilot. I'm not, but it sounds good. I drive a van.") == \
        "Hi. I'm not, but it sounds good. I drive a van."
    assert own_words("I'm vegan. I'm not strict about honey.") == "I'm vegan. I'm not strict about honey."


def test_a_verb_said_with_s_after_i_reads_as_english():
    assert plain("I plays the fiddle and I only speaks English.") == "I play the fiddle and I only speak English."
    assert plain("The First World War I has read about.") == "The First World War I has read about."
    got = values(read(("user", "I plays the fiddle every Friday. I loves a boil-up."), who="Dana Reyes"))
    assert {("hobby", "fiddle"), ("likes", "boil-up")} <= got, got


@pytest.mark.parametrize(("text", "expected"), [
    ("We don't live in Kraków anymore, we moved to Gdańsk.", [("former_home", "Kraków")]),
    ("I am not bookkeeper now, since June I run the office.", [("former_job", "bookkeeper")]),
    ("I'm not at Halden Mills no more, I retired in May.", [("former_employer", "Halden Mills")]),
    ("I'm not at Tesco now, I'm at home.", []),  # where one is at the moment
])
def test_an_end_said_by_we_or_without_an_article_is_read(text, expected):
    assert ended(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("5. Languages: Tamil, English, and Sourashtra with my grandmother", {("language", "Tamil"), ("language",
                                                                                                  "Sourashtra")}),
    ("1. Current role and organisation: Junior planner, Halden & Crewe (Leeds office).", {
        ("job", "Junior planner"), ("employer", "Halden & Crewe")}),
    ("Interests: I like long walks. My hobby is birdwatching. Is there a hide nearby?", {("hobby", "birdwatching")}),
])
def test_a_numbered_or_questioning_form_line_is_read(text, expected):
    got = values(read(("user", text), who="Dana Reyes"))
    assert expected <= got, got
