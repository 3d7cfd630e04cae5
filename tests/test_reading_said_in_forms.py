"""Plain statements the rules reader still missed on the twenty-sixth reading set after its first fixes (a jury
form, condo minutes, a casting profile, a coach's e-mail, a personal statement), each sentence written for these
tests (said on 4 March 2026): what they say is read, and what they say of work, of others or of the past is not."""
from __future__ import annotations

import pytest
from test_reading_plain import read, values


@pytest.mark.parametrize(("text", "expected"), [
    ("We have a hedgehog called Mrs Tiggy who sleeps in the shed.", {("pet", "hedgehog named Mrs Tiggy")}),
    ("also we've got a collie cross named Pip who herds the kids.", {("pet", "collie named Pip")}),
    ("We have also a cat, Norwegian forest, her name is Saga.", {("pet", "cat named Saga")}),
    ("And I love baking with my own sourdough starter on Sundays.", {("hobby", "baking")}),
    ("i hate being stuck in traffic, so the early shift suits me.", {("dislikes", "being stuck in traffic")}),
    ("I enjoy being outdoors.", {("likes", "being outdoors")}),
    ("I'm booked on my first aid refresher course on 17 April.", {("plans", "first aid refresher course")}),
    ("Also I'm booked in for a hip replacement at St Luke's on 9 May and I'll need lifts after that.",
     {("plans", "hip replacement")}),
    ("I signed up this morning for the beginners' pottery workshop at the library on 21 March, it looked fun!",
     {("plans", "beginners' pottery workshop")}),
    ("fyi my driving theory final is on april 2 at 9am.", {("plans", "driving theory final")}),
    ("I was born in a small town near Kraków, where my grandparents kept bees.", {("hometown", "Kraków")}),
    ("In June we moved to a flat on Albert Street in Camden, which is tiny.", {("home_city", "Camden")}),
    ("I left Chile at 9 and grew up in Gothenburg, so Swedish is my first language really.",
     {("hometown", "Gothenburg")}),
    ("I'm a Glasgow-born nurse, 41, and I've lived in Leeds for ten years.",
     {("hometown", "Glasgow"), ("job", "nurse"), ("home_city", "Leeds")}),
    ("Quick one: I swim four mornings a week at the lido.", {("hobby", "swim")}),
    ("I do parkrun at Heaton Park most Saturdays.", {("hobby", "parkrun")}),
    ("i play five-a-side football thursdays (in goal, always).", {("hobby", "five-a-side football")}),
    ("I'm on a low-FODMAP diet for now, so no onions in anything please.", {("diet", "low-FODMAP")}),
    ("im red-green colourblind, so the chart needs other colours.", {("health", "colourblind")}),
])
def test_a_plain_statement_is_read(text, expected):
    got = values(read(("user", text), who="Dana Reyes"))
    assert expected <= got, got


@pytest.mark.parametrize(("text", "wrong"), [
    ("I love playing with my kids after school.", ("hobby", "playing")),  # a doing with them, no pastime
    ("I love finding new suppliers for my shop.", ("hobby", "finding new suppliers")),  # work
    ("I love being a dad.", ("likes", "being a dad")),
    ("I met Tom, who moved here and grew up in Leeds.", ("hometown", "Leeds")),  # Tom's
    ("I was booked on a course in March last year.", ("plans", "course")),
    ("I was booked in for a scan last year, then they cancelled it.", ("plans", "scan")),
])
def test_what_is_not_a_fact_of_theirs_is_not_read(text, wrong):
    assert wrong not in values(read(("user", text), who="Dana Reyes"))
