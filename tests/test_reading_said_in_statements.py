"""Plain statements the rules reader missed on the twenty-seventh and twenty-eighth reading sets (a lost-property
form, a school questionnaire, a forum post, a visa letter, a witness statement, a citizenship statement), each
sentence written for these tests (said on 4 March 2026): what they say is read; a role held for nothing, a contrast
or another's words are not; an age or a job put right in a later turn retracts the one said before."""
from __future__ import annotations

import pytest
from test_reading_plain import read, values

from twinfs.reading.withdrawn import withdraw


@pytest.mark.parametrize(("text", "expected"), [
    # what is asked of the listener in brackets leaves what follows it the speaker's
    ("Bag: a tin of biscuits (I'm diabetic, so they're sugar-free - please don't eat them, ha); my inhaler, because "
     "I'm allergic to dust mites", {("health", "diabetic"), ("allergy", "dust mites")}),
    ("I work part time in procurement at Hull City Council.", {("job", "works in procurement"),
                                                                ("employer", "Hull City Council")}),
    ("I lecture in bookbinding at Bath College, mostly evenings.", {("job", "lectures in bookbinding"),
                                                                     ("employer", "Bath College")}),
    ("I'm a radiographer at Leeds Teaching Hospitals.", {("job", "radiographer")}),  # not "… at leeds teaching"
    ("I work as kitchen porter in Sunnyside Care Home since 2021.", {("employer", "Sunnyside Care Home")}),
    ("I manage the canteen at Oakfield Academy, have done for years.", {("job", "manages the canteen"),
                                                                        ("employer", "Oakfield Academy")}),
    ("Honestly I'm a shift leader now, not a trainee any more.", {("job", "shift leader")}),  # a contrast, no denial
    ("since january i am warehouse supervisor now, same company.", {("job", "warehouse supervisor")}),
    ("I am only a junior engineer, not a manager.", {("job", "junior engineer")}),
    ("I've got IBS, so no onions for me.", {("health", "IBS")}),
    ("I'm 6 years sober this spring.", {("health", "6 years sober")}),
    ("Also I like to crochet, mostly hats.", {("hobby", "crochet")}),
    ("i like to bake baklava for the neighbours.", {("hobby", "bake baklava")}),
    ("My native place is Nellore, a small city.", {("hometown", "Nellore")}),
    ("My hometown is Tromsø.", {("hometown", "Tromsø")}),
    ("Three rabbits, Biscuit and Fudge and Pip? No - two rabbits, Biscuit and Fudge.",
     {("pet", "rabbits named Biscuit and Fudge")}),
    ("- tortoise called Sheldon (older than me, nearly)", {("pet", "tortoise named Sheldon")}),
    ("- boyfriend Arjun is a pharmacist and cooks every night", {("partner", "Arjun")}),
    ("DH Marco works nights at the depot, so mornings are chaos.", {("partner", "Marco")}),
    ("We live in Crookes with DS1 Theo (7) and DD Ivy (4).", {("son", "Theo"), ("daughter", "Ivy")}),
    ("We moved to Galway in 2017 with my husband Oyun-Erdene.", {("partner", "Oyun-Erdene")}),  # not "Oyun"
    ("My sister Anne-Marie lives in Lyon.", {("sister", "Anne-Marie")}),
    ("Next of kin: wife, Chloe Tan Mei Ling", {("partner", "Chloe Tan Mei Ling")}),
    ("Travelling with: husband Ravi (teacher) and son Dev (11)", {("partner", "Ravi"), ("son", "Dev")}),
    ("Visa details below.\nDaughter Meera is doing her A-levels, she stays home.", {("daughter", "Meera")}),
    ("Pete and I do the crossword every Sunday.", {("hobby", "crossword")}),
    ("i go salsa dancing at the community centre every friday night", {("hobby", "salsa dancing")}),
    ("Name: Dana Reyes, age 52", {("age", "52")}),
    ("Langs: Tagalog, English, some Spanish", {("language", "Tagalog"), ("language", "English")}),
    ("Baby number two due in May (I'm 30 wks pregnant).", {("health", "30 wks pregnant")}),
    ("I speak Tamil, Malay and English - will they interview in Mandarin?",
     {("language", "Tamil"), ("language", "Malay")}),  # what is asked after the dash is apart
])
def test_a_plain_statement_is_read(text, expected):
    got = values(read(("user", text), who="Dana Reyes"))
    assert expected <= got, got


@pytest.mark.parametrize(("text", "wrong"), [
    ("I'm also a Sunday school teacher at St Peter's, every week.", ("job", "Sunday school teacher")),
    ("I'm also a Sunday school teacher at St Peter's, every week.", ("employer", "St Peter's")),
    ("I'm a school governor at Millbrook Primary, is that worth saying?", ("employer", "Millbrook Primary")),
    ("I'm a bit older now, and slower.", ("job", "bit older")),
    ("I like to run errands before work.", ("hobby", "run")),
    ("I like to paint the kitchen every spring.", ("hobby", "paint")),
    ("A cat called Mog lives next door and eats our fish.", ("pet", "cat named Mog")),
    ("I pay the gym by DD every month.", ("daughter", "by")),
    ("Father Brian is our parish priest, he baptised both kids.", ("father", "Brian")),
    ("Baby number two due in May (I'm 30 wks pregnant).", ("age", "30")),
    ("Kids: Leo (6), and another due in May (a girl!)", ("child", "May")),
    ("Name: Ruth Okafor, age 80 (my mum's form)", ("age", "80")),
])
def test_what_is_not_a_fact_of_theirs_is_not_read(text, wrong):
    assert wrong not in values(read(("user", text), who="Dana Reyes"))


def test_an_age_put_right_later_retracts_the_one_said_before():
    records = read(("user", "I'm 44 and I work in a bakery."), ("assistant", "Done."),
                   ("user", "I said 44 earlier but I turned 45 last week, sorry."))
    said = [r.id for r in records if (r.attribute, r.value) == ("age", "44")]
    assert said and withdraw(records, {"t0": 0, "t1": 1, "t2": 2}, "2026-03-04T10:05:00Z") == said
    assert {r.value for r in records if r.attribute == "age" and not r.retracted} == {"45"}


@pytest.mark.parametrize(("before", "after", "ended"), [
    ("I am forklift driver at Tesco Daventry.", "Sorry, I wrote forklift driver but that is old, I am shift manager "
                                               "now.", ("job", "forklift driver")),
    ("We live in Salthill, near the prom.", "One mistake: we are not in Salthill anymore, we moved in May.",
     ("home_city", "Salthill")),
])
def test_a_value_put_right_later_is_retracted(before, after, ended):
    records = read(("user", before), ("assistant", "Thanks."), ("user", after))
    assert ended in values(records)
    withdraw(records, {"t0": 0, "t1": 1, "t2": 2}, "2026-03-04T10:05:00Z")
    assert ended not in values([r for r in records if not r.retracted])


@pytest.mark.parametrize(("concept", "value", "sentence"), [
    ("partner", "Winston", "I'm a widower, my wife Maureen passed in 2021 and the house is quiet."),
    ("family", "mother", "When the time comes I'll be buried next to my mother in Kilkenny."),
    ("family", "my bicycle", "My bicycle goes to my nephew, he's the only one who rides."),
])
def test_what_the_model_may_not_name_a_relative_of_now(concept, value, sentence):
    from twinfs.reading.kinds import misfit
    assert misfit(concept, value if value != "Winston" else "Maureen", sentence) is not None


def test_a_relative_alive_stays_one_the_model_may_name():
    from twinfs.reading.kinds import misfit
    assert misfit("partner", "Maureen", "My wife Maureen retired in 2021 and the house is loud.") is None
    assert misfit("family", "my nephew", "My bicycle goes to my nephew, he's the only one who rides.") is None
