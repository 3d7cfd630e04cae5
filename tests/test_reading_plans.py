"""A plan said with its day is a value of the speaker's plans, in their words without the day; a wish, a maybe, a
negation, another's plan or a habit is not (conversations written for these tests)."""
from __future__ import annotations

from datetime import date

import pytest
from test_reading_plain import read, values


@pytest.mark.parametrize(("text", "plan"), [
    ("This is great. I'll submit the application on Friday, before the deadline.", "submit the application"),
    ("ok decided, i'm planting scent leaf and ugu next saturday.", "planting scent leaf and ugu"),
    ("We're selling the flat and buying a house in Lund this spring — the contract is already signed.",
     "selling the flat and buying a house in Lund"),
    ("Me and my wife Sherry live in San Antonio and we're driving up to Yellowstone in September — it's booked.",
     "driving up to Yellowstone"),
    ("I'm going to repaint the kitchen next weekend.", "repaint the kitchen"),
    ("We're flying to Reykjavik on Tuesday!", "flying to Reykjavik"),
    ("I'm putting together a quilt show next month and I'm gonna show my own quilts.", "putting together a quilt show"),
    ("I'm going back to the garage part-time from January.", "going back to the garage part-time"),
    ("I'm going to Porto with my son in April, to meet his in-laws.", "going to Porto with my son"),
    ("Meeting the landlord at the flat on Friday.", "Meeting the landlord at the flat"),  # the "I'm" left out
    ("Going to the garden centre on Thursday to pick up seeds.", "Going to the garden centre"),
    ("I have an audition on Wednesday for the city youth choir.", "have an audition for the city youth choir"),
    ("I'm seeing the physio at St Anne's on the 12th.", "seeing the physio at St Anne"),
    # a sentence that does not read alone ("she", "this") still says a plan that does
    ("I'll renew the passport tomorrow before she notices it's expired.", "renew the passport"),
    ("I'm interviewing a new nanny on the 9th, so I need this sorted before then.", "interviewing a new nanny"),
    ("Maybe Clontarf or Howth, I'll look at houses next week with the agent.", "look at houses with the agent"),
    ("I'm leading a workshop for the interns next Tuesday morning.", "leading a workshop for the interns"),
    ("And I am walking the Cami de Cavalls–Menorca route in May.", "walking the Cami de Cavalls–Menorca route"),
    ("I'll phone the garage tomorrow — if it's the clutch again I'll scream.", "phone the garage"),  # another's if
    # the speaker of the time phrase's own clause, not the sentence's first "I"
    ("I'm on nights at the depot, so I'll repaint the hallway Saturday morning.", "repaint the hallway"),
    ("I shall visit my cousin's farm in Galway by bus on the twenty-fourth, as always.", "visit my cousin's farm in "
                                                                                         "Galway by bus"),
    ("As you may know, I'm having my knee scoped on 3 March at St Vincent's.", "having my knee scoped at St Vincent"),
    ("I'm baking the cake on Sunday regardless, and Pia can bring cupcakes if she likes.",
     "baking the cake regardless"),
])
def test_a_plan_said_with_its_day_is_a_plan_of_the_speakers(text, plan):
    records = read(("user", text))
    assert ("plans", plan) in values(records), values(records)
    planned = next(r for r in records if r.attribute == "plans")
    assert planned.kind == "plan" and planned.happened is not None  # the day the plan names, kept as the record's


@pytest.mark.parametrize("text", [
    "Great, I'll draft it tonight.",  # only said before: what "it" is
    "I might learn Japanese next year.",
    "If I finish under two hours I'd go for a full marathon next year.",
    "I'm not going to the party on Friday.",
    "My sister is moving to Leeds next month.",
    "We drive up to the lake every September.",
    "I can't wait to see the fireworks next week.",
    "I'll be at my desk on Monday.",
    "I went fishing at the reservoir last Saturday.",
    "Lukas will come the weekend of the 14th.",
    "Scaffolding from May until August, apparently.",  # a noun, no deed left without its "I'm"
    "I'll see how it goes on Monday.",
    "Fair enough. I'll come and watch in May if my shifts allow it.",  # a plan on a condition
    "I'm taking the Friday after off to rest.",  # the day is the deed's own word: no deed whole without it
    "I have a headache since Tuesday.",
    "I'm still paying for the old gym, which I'll cancel since I never go — on the third try they answered.",
    "Honestly I'm tired, so maybe I'll do something nice on Friday.",
])
def test_a_wish_a_maybe_a_no_anothers_plan_or_a_habit_is_no_plan(text):
    assert not any(a == "plans" for a, _ in values(read(("user", text)))), values(read(("user", text)))


def test_the_day_said_is_not_part_of_the_value_and_a_plan_the_patterns_read_is_not_read_twice():
    got = values(read(("user", "I'm planning to visit Lisbon next spring.")))
    assert [v for a, v in got if a == "plans"] == ["visit Lisbon"], got


def test_two_days_said_together_leave_the_text_whole():
    records = read(("user", "I'm on a pottery course in Kilkenny Saturday and Sunday, first one in ages."))
    texts = [r.text for r in records]
    assert texts and all("Saturday and" not in t and "and Sunday" not in t for t in texts), texts
    days = [date.fromisoformat(r.happened).weekday() for r in records if r.happened]
    assert 5 in days, records  # the first day's, a Saturday


def test_a_days_part_goes_out_of_the_text_with_its_day():
    records = read(("user", "I'm leading a workshop for the interns next Tuesday morning."))
    assert records and all("morning" not in r.text and "Tuesday" not in r.text for r in records), records
