"""A letter to oneself, a pasted FAQ, a game of picks, and the plain forms around them: "Dear me in 2036, right now
you are 31", "Q: … A: …", "1) mate or coffee?" - "1) mate", "I've been the supervisor at …", "we've lived up at …",
"I avoid …", "my hay fever is killing me", a taking back that hands the fact to someone else (each sentence written
for these tests)."""
from __future__ import annotations

import pytest
from test_reading_plain import read, values

from twinfs.reading.asked import chosen
from twinfs.reading.kinds import departed, stands_as_read
from twinfs.reading.letters import to_oneself

LETTER = ("We're doing a time capsule at work, can you tidy my letter?\n\n"
          "Dear future me,\n"
          "Right now you are 44, you live in a terraced house in Headingley and you work as a paramedic at Yorkshire "
          "Ambulance Service. Your knees already hate the stairs. Dad keeps telling you to slow down.\n"
          "Love, Ruth")


def test_a_letter_to_oneself_is_the_speakers():
    got = values(read(("user", LETTER)))
    assert {("age", "44"), ("home_city", "Headingley"), ("job", "paramedic"),
            ("employer", "Yorkshire Ambulance Service")} <= got, got


@pytest.mark.parametrize(("text", "expected"), [
    ("Dear me,\nYou still hate mornings.\nYours, me", "Dear me,\nI still hate mornings.\nYours, me"),
    ("Dear 50-year-old me,\nMum asked you twice and you're still late.", "Dear 50-year-old me,\nMum asked me twice "
     "and I'm still late."),
    ("Dear future self, when you read this, are you still in Leeds?", "Dear future self, when you read this, are you "
     "still in Leeds?"),  # the greeting's own line: the letter starts after it
    ("Dear Sam, you are a star.", "Dear Sam, you are a star."),  # a letter to someone else
])
def test_to_oneself(text, expected):
    assert to_oneself(text) == expected


BURSTS = ("ok so\nI'm Orla\nI teach 3rd class\nat Scoil Mhuire\nin Drumcondra\nand I live\nin Phibsborough\n"
          "with my sister")


def test_a_message_sent_in_bursts_reads_as_its_sentences():
    got = values(read(("user", BURSTS)))
    assert {("job", "teaches 3rd class"), ("home_city", "Phibsborough")} <= got, got


TRANSCRIPT = ("Here's the podcast transcript, can you make show notes?\n\n"
              "HOST: Welcome back, I'm Dave, broadcasting from my garage in Whitby. Today's guest makes cheese.\n"
              "NO: Thanks for having me, Dave.\n"
              "HOST: How did you start?\n"
              "NO: I was a teacher for years. Now I'm a cheesemaker full time and we live in Goathland.\n")


def test_a_transcript_is_read_by_who_speaks_its_lines():
    got = values(read(("user", TRANSCRIPT), who="Nell Oakes"))
    assert {("job", "cheesemaker"), ("home_city", "Goathland")} <= got, got
    assert ("home_city", "Whitby") not in got and ("hometown", "Whitby") not in got, got


def test_a_form_is_no_transcript():
    got = values(read(("user", "Name: Nell Oakes\nJob: cheesemaker\nHome: Goathland"), who="Nell Oakes"))
    assert {("job", "cheesemaker")} <= got, got


def test_a_letter_to_someone_else_stays_theirs():
    got = values(read(("user", "Can you check this card?\n\nDear Sam,\nYou live in Bristol now and you work at "
                               "Aardman, so proud of you.\nLove, Noor")))
    assert not {v for v in got if v[0] in ("home_city", "employer")}, got


FAQ = ("Here's my About page, tighten it?\n\n"
       "Q: What languages do you work in?\n"
       "A: Portuguese, English, and enough French to order dinner.\n"
       "Q: Studio pets?\n"
       "A: Tinta, a black cat who sleeps on the scanner.\n")


def test_a_pasted_faq_answers_its_own_questions():
    got = values(read(("user", FAQ)))
    assert {("language", "Portuguese"), ("language", "English"), ("language", "French"),
            ("pet", "cat named Tinta")} <= got, got


AMA = ("Can you make my AMA answers punchier?\n\n"
       '1. "Where are you from originally?" — Kimberley, born and raised. Moved to Cape Town for work.\n'
       '2. "Favourite bird?" — Hadeda. Loud, ugly, loyal.\n'
       '3. "What languages do you use at work?" — Afrikaans and English mostly, a bit of isiXhosa when the '
       "grannies call.\n"
       '4. "How old are you?" — 41. Next.\n')


def test_an_ama_answers_its_quoted_questions():
    got = values(read(("user", AMA)))
    assert {("hometown", "Kimberley"), ("language", "Afrikaans"), ("language", "isiXhosa"), ("age", "41")} <= got, got
    assert not {v for v in got if v[1].lower() in ("loud", "ugly", "loyal", "next")}, got


@pytest.mark.parametrize(("question", "answer", "expected"), [
    ("tea or coffee?", "coffee. always.", "Likes: coffee. Always."),
    ("mountains or sea?", "sea > mountains, I grew up in Cádiz", "Likes: sea. I grew up in Cádiz"),
    ("would you rather live in a city or in the countryside?", "countryside, no question", "Likes: countryside. No "
     "question"),
    ("work nights forever or early shifts forever?", "early shifts", "Likes: early shifts"),
    ("only ever speak Polish or only ever speak English?", "Polish, obviously", "Languages: Polish"),
    ("tea or coffee?", "neither, I drink water", None),
    ("How old are you?", "45", None),
])
def test_a_pick_is_what_one_likes(question, answer, expected):
    assert chosen(question, answer) == expected


def test_a_day_off_answered():
    got = values(read(("assistant", "What do you do on a day off?"), ("user", "Surfing at Bantham, badly.")))
    assert ("hobby", "surfing at Bantham") in got and ("hobby", "badly") not in got, got


@pytest.mark.parametrize(("question", "answer", "expected"), [
    ("Tea or coffee person?", "Coffee, always.", ("likes", "coffee")),
    ("Would you rather hike or swim?", "Hike, no contest.", ("likes", "hike")),
])
def test_a_pick_asked_alone(question, answer, expected):
    assert expected in values(read(("assistant", question), ("user", answer)))


def test_a_booking_choice_is_no_taste():
    got = values(read(("assistant", "Morning or afternoon slot?"), ("user", "Morning, please.")))
    got |= values(read(("assistant", "Reminders: 1) text or email? 2) morning or evening?"),
                       ("user", "1) text\n2) morning")))
    assert not {v for v in got if v[0] == "likes"}, got


def test_picks_answered_by_number():
    got = values(read(("assistant", "Quick picks: 1) tea or coffee? 2) dogs or cats? 3) beach or mountains?"),
                      ("user", "1) tea, milky\n2) dogs obviously\n3) neither, I get sunburnt")))
    assert {("likes", "tea"), ("likes", "dogs")} <= got and not {v for v in got if "beach" in v[1]}, got


@pytest.mark.parametrize(("text", "expected"), [
    ("I've been the booking office supervisor at the Ullapool terminal since 2011.",
     {("job", "booking office supervisor")}),
    ("I'm the head chef at Dishoom.", {("job", "head chef"), ("employer", "Dishoom")}),
    ("We've lived up at Ganavan for twenty years now.", {("home_city", "Ganavan")}),
    ("I live at Portobello.", {("home_city", "Portobello")}),
    ("We were both born in Turda.", {("hometown", "Turda")}),
    ("I miss home (Madurai girl forever).", {("hometown", "Madurai")}),
    ("I walk every morning at 7, rain or not.", {("hobby", "walk")}),
    ("I cook a lot, mostly Keralan food.", {("hobby", "cook")}),
    ("I sing alto.", {("hobby", "sing alto")}),
    ("These days I sing with the Aberdeen Gaelic Choir on Tuesdays.",
     {("hobby", "sing with the Aberdeen Gaelic Choir")}),
    ("I avoid pork.", {("dislikes", "pork")}),
    ("I speak Tamil at home, Kannada to auto drivers, English at work and Hindi badly.",
     {("language", "Tamil"), ("language", "Kannada"), ("language", "English"), ("language", "Hindi")}),
    ("I speak Twi and small Fante.", {("language", "Fante")}),
    ("I'm contracted to eThekwini Municipality for callouts.", {("employer", "eThekwini Municipality")}),
    ("The diabetes is not diet-controlled anymore, I'm on metformin since August.", {("health", "on metformin")}),
    ("My leaving do is on Friday 27 November at the Crown.", {("plans", "leaving do")}),
    ("I'm writing a toast for our ruby wedding anniversary on 19 December.", {("plans", "ruby wedding anniversary")}),
    ("The pudding was lovely (I'm a sucker for anything with gooseberries).",
     {("likes", "anything with gooseberries")}),
    ("I'm terrified of wasps, don't laugh.", {("dislikes", "wasps")}),
    ("As someone who's coeliac and eats strictly gluten-free, I always ring ahead.", {("health", "coeliac"),
                                                                                      ("diet", "gluten-free")}),
    ("I'm a professional dog groomer, been doing it for years.", {("job", "professional dog groomer")}),
    ("Thanks, and I do actually speak Welsh.", {("language", "Welsh")}),
    ("Funny thing is I'm actually allergic to wasps.", {("allergy", "wasps")}),
    ("Now I run 400 hives and I'm a commercial beekeeper full time.", {("job", "commercial beekeeper")}),
    ("I do not eat pork, never.", {("diet", "no pork")}),
    ("I teach 4th class at Scoil Íde.", {("job", "teaches 4th class"), ("employer", "Scoil Íde")}),
    ("plus my hay fever is killing me", {("allergy", "hay fever")}),
    ("I get hay fever every spring.", {("allergy", "hay fever")}),
    ("my eczema is flaring up again.", {("health", "eczema")}),
    ("i'm 22 not 16, i don't need the drama.", {("age", "22")}),
    ("I love dumplings, can eat twenty in one sitting.", {("likes", "dumplings")}),
])
def test_plain_forms(text, expected):
    got = values(read(("user", text)))
    assert expected <= got, got


@pytest.mark.parametrize(("text", "unwanted"), [
    ("I'm the cook at home.", ("job", "cook")),
    ("I'm the only nurse at Riverside on nights.", ("job", "only nurse")),
    ("We're moving at Christmas.", ("home_city", "Christmas")),
    ("I'm a professional worrier.", ("job", "professional worrier")),
    ("I'm off to Lisbon\non the 11th of December\nfor the hen\nmy hen\nobviously", ("pet", "hen")),
    ("My wedding was on 3 May.", ("plans", "wedding")),
    ("My birthday is on the 5th.", ("plans", "birthday")),
    ("I passed my driving test on Tuesday!", ("plans", "driving test")),
    ("We had our practical exam on Thursday, I did a tart.", ("plans", "practical exam")),
    ("The pudding was lovely (I'm a sucker for anything with gooseberries).", ("job", "sucker")),
    ("Thanks, and I do actually speak Welsh.", ("hobby", "actually speak Welsh")),
    ("Also I'm vegan — no wait, that's Mere, sorry.", ("diet", "vegan")),
    ("Also put that I'm hosting Christmas next year... no wait, it's my brother Ade's turn.",
     ("plans", "hosting Christmas")),
    ("i'm 22 not 16, i don't need the drama.", ("age", "16")),
])
def test_not_so(text, unwanted):
    assert unwanted not in values(read(("user", text)))


def test_a_day_put_right_takes_back_no_fact():
    got = values(read(("user", "Oh and we're flying to Derry for my niece's 21st on the 6th of December... no wait, "
                               "that's a Saturday, ignore me. I'm 33.")))
    assert ("age", "33") in got and any(a == "plans" and "Derry" in v for a, v in got), got


@pytest.mark.parametrize(("sentence", "names", "gone"), [
    ("since my dad passed, I cook on Sundays", ["dad"], True),
    ("my husband, Gerald, passed away in 2019", ["Gerald"], True),
    ("our old dog Bubu died last year", ["dog", "Bubu"], True),
    ("Bubu was put down in May", ["Bubu"], True),
    ("we lost our cat Miso in the spring", ["Miso"], True),
    ("my dad passed his driving test at 60", ["dad"], False),
    ("my dog Rex loves the beach", ["Rex"], False),
])
def test_one_reading_of_who_died(sentence, names, gone):
    """The rules' relatives and the model check's pets read a death the same way (kinds.departed)."""
    assert departed(sentence, names) is gone


def test_a_pet_that_died_is_no_pet_now():
    got = values(read(("user", "Our old cat Miso was put down in May, so it's just me and the fish now.")))
    assert not any(a == "pet" and "Miso" in v for a, v in got), got


def test_the_check_keeps_what_a_pasted_question_asked():
    """The model pass's gate reads an AMA's line whole, its question's "you" the listener; the answer the rules read
    after the question stands (kinds.stands_as_read)."""
    assert stands_as_read("age", "age", "41", AMA) and stands_as_read("hometown", "hometown", "Kimberley", AMA)
    assert stands_as_read("language", "language", "Portuguese", FAQ)
    assert stands_as_read("age", "age", "52", AMA) is None


def test_a_taste_said_in_so_many_words_stands_whatever_the_model_answers():
    """ "I hate jellyfish" said plainly: the model's "no fact" does not drop it (Qwen dropped two such on set 25); the
    same words as another's, or under an if, are not said so."""
    assert stands_as_read("dislikes", "dislikes", "jellyfish", "Ha, no sea swims for me, I hate jellyfish. Right.")
    assert stands_as_read("likes", "likes", "sea shanties", "Work is fine. And I love sea shanties!")
    assert stands_as_read("dislikes", "dislikes", "jellyfish", "My son says I hate jellyfish, he is wrong.") is None
    assert stands_as_read("likes", "likes", "jazz", "If I love jazz, why do I skip it?") is None
