"""Plain statements the rules reader missed on the twenty-sixth reading set's first reading (an allotment letter, a
ride report, a donor-family letter, a forum post, a personal statement), each sentence written for these tests: what
they say is read, and what they say of the past, of others or to the listener is not."""
from __future__ import annotations

import pytest
from test_reading_plain import read, values


@pytest.mark.parametrize(("text", "expected"), [
    ("I teach chemistry in a sixth-form college in Derby, and in May my class won a prize.",
     {("job", "teaches chemistry")}),
    ("I teach geography, and I still love it after twenty years.", {("job", "teaches geography")}),
    ("I have a husband, Omar, and three children: Lina is 9 and Yusuf is 6.", {
        ("partner", "Omar"), ("children", "three children"), ("child", "Lina"), ("child", "Yusuf")}),
    ("I have a girlfriend called Petra.", {("partner", "Petra")}),
    ("least fav: anything with olives, tastes like feet.", {("dislikes", "anything with olives")}),
    ("fave snack after a run: salted pretzels.", {("likes", "salted pretzels")}),
    ("Honestly I hate anything with raisins.", {("dislikes", "anything with raisins")}),
    ("besides running i play drums at our community hall on fridays.", {("hobby", "drums")}),
    ("I play chess with my grandad most weekends.", {("hobby", "chess")}),
    ("born in Tulsa, live in Denver now.", {("hometown", "Tulsa"), ("home_city", "Denver")}),
    ("I'm 52, originally from Galway, and I've been in Melbourne for twelve years.", {
        ("age", "52"), ("hometown", "Galway"), ("home_city", "Melbourne")}),
    ("Rain was forecast, which for those of you who know me is bad news - I hate cycling in the wet.",
     {("dislikes", "cycling in the wet")}),
    ("lol funny u ask about food, i'm actually allergic to kiwi, my lips swell up.", {("allergy", "kiwi")}),
    ("my yiayia lives with us, she's 91 and still cooks every day.", {("family", "yiayia")}),
    ("On weekends I learn beadwork from my kokum.", {("family", "kokum")}),
])
def test_a_plain_statement_is_read(text, expected):
    got = values(read(("user", text), who="Dana Reyes"))
    assert expected <= got, got


@pytest.mark.parametrize(("text", "wrong"), [
    ("I taught French in a school in Nantes for years before the bakery.", ("job", "teaches French")),  # no more
    ("I teach them in a small school.", ("job", "teaches them")),
    ("I've been in Rome for three days and it's been lovely.", ("home_city", "Rome")),  # a visit, no home
    ("least fav: broccoli, smells like socks.", ("dislikes", "smells like socks")),  # of the broccoli
    ("If you want, I can play guitar at the party.", ("hobby", "guitar")),  # an offer
    ("You should come to Oslo, I'd love that.", ("plans", "come to Oslo")),
    ("Back home I played cricket on the beach until I was 15.", ("hobby", "cricket")),  # a childhood's
    ("I play games with my son after school.", ("hobby", "games")),  # time with him, no pastime named
    ("Hi, I want to write a short hello post for the choir's forum, can you help?",
     ("plans", "write a short hello post")),
])
def test_what_is_past_others_or_offered_is_not_read(text, wrong):
    got = values(read(("user", text), who="Dana Reyes"))
    assert wrong not in got, got


def test_a_dash_after_what_is_said_to_the_listeners_leads_to_the_speakers_own_words():
    got = values(read(("user", "Frost again, which as most of you know is my limit - I can't stand cold hands."),
                      who="Dana Reyes"))
    assert ("dislikes", "cold hands") in got, got
