"""Plain statements the rules reader still missed on the twenty-sixth reading set after its first fixes (a jury
form, condo minutes, a casting profile, a coach's e-mail, a personal statement) and on the twenty-seventh's first
reading (a volunteer fire application, a karaoke bio, a bride's speech), each sentence written for these tests (said
on 4 March 2026): what they say is read, and what they say of work, of unpaid roles, of others or of the past is
not."""
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
    ("We have a kelpie named Dusty who herds the chickens.", {("pet", "kelpie named Dusty")}),
    ("I've asthma, so no smoke machine on stage please.", {("health", "asthma")}),
    ("My citizenship interview is booked for April 14, fingers crossed.", {("plans", "citizenship interview")}),
    ("I'm a paramedic and I volunteer with mountain rescue at weekends.", {("job", "paramedic")}),
    ("i repair old sewing machines and typewriters for a living, mostly from a garage.",
     {("job", "repair old sewing machines and typewriters")}),
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
    ("I'm a paramedic and I volunteer with mountain rescue at weekends.", ("job", "paramedic and I volunteer")),
    ("I'm treasurer of the allotment society, which is a lot of spreadsheets.", ("job", "treasurer")),
    ("I'm the cub leader for the 3rd Ashby pack - unpaid, obviously.", ("job", "cub leader")),
    ("I'm volunteer crew at the Whitby lifeboat station.", ("job", "crew")),
    ("I'm the assistant cub leader for Troop 12 - voluntary, of course.", ("job", "assistant cub leader")),
    ("I'm the assistant cub leader for Troop 12 - voluntary, of course.", ("employer", "Troop")),
    ("I'm the treasurer for Hexham Rugby Club, which is unpaid and endless.", ("job", "treasurer")),
    ("I'm the treasurer for Hexham Rugby Club, which is unpaid and endless.", ("employer", "Hexham Rugby Club")),
])
def test_what_is_not_a_fact_of_theirs_is_not_read(text, wrong):
    assert wrong not in values(read(("user", text), who="Dana Reyes"))


def test_a_pastime_given_up_later_is_retracted():
    """"I don't do X anymore" in a later turn ends the pastime read earlier: retracted, with the later words."""
    records = read(("user", "I do pilates, and I love old films."), ("assistant", "Nice!"),
                   ("user", "Actually, I don't do pilates anymore, the class moved to mornings."))
    ended = next(r for r in records if r.attribute == "former_hobby")
    assert ended.value == "pilates"
    pilates = next(r for r in records if (r.attribute, r.value) == ("hobby", "pilates"))
    assert pilates.retracted is None  # the reader reads; the read step (and the bench) retract
    from twinfs.reading.withdrawn import withdraw
    assert withdraw(records, {"t0": 0, "t1": 1, "t2": 2}, "2026-03-04T10:05:00Z") == [pilates.id]
    assert ("likes", "old films") in values([r for r in records if not r.retracted])


@pytest.mark.parametrize(("value", "sentence"), [
    ("club sec", "Dragon boat on Sundays - I'm also club sec, unpaid."),
    ("secretary", "I'm secretary of the residents' association, which eats my Tuesdays."),
    ("run director", "I'm run director once a month (volunteer, obviously)."),
])
def test_a_role_held_for_nothing_is_no_job_the_model_may_name(value, sentence):
    from twinfs.reading.kinds import misfit
    assert misfit("job", value, sentence) is not None


def test_a_paid_role_beside_volunteering_stays_a_job():
    from twinfs.reading.kinds import misfit
    assert misfit("job", "nurse", "I'm a nurse and I volunteer at the food bank on Sundays.") is None


def test_what_is_done_for_a_living_is_no_pastime_the_model_may_name():
    from twinfs.reading.kinds import misfit
    assert misfit("hobby", "repair old sewing machines", "i repair old sewing machines for a living") is not None
    assert misfit("hobby", "repair old sewing machines", "i repair old sewing machines on weekends") is None
