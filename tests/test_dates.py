from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from twinfs.reading.dates import find, phrases, resolve, time_spans

MONDAY = date(2023, 5, 8)  # LoCoMo's first session: "1:56 pm on 8 May, 2023", a Monday

# (phrase, said on, prefer, the day it names)
TABLE = [
    ("yesterday", MONDAY, "past", date(2023, 5, 7)),
    ("last night", MONDAY, "past", date(2023, 5, 7)),
    ("today", MONDAY, "past", MONDAY),
    ("earlier today", MONDAY, "past", MONDAY),
    ("this morning", MONDAY, "past", MONDAY),
    ("tomorrow", MONDAY, "future", date(2023, 5, 9)),
    ("two days ago", MONDAY, "past", date(2023, 5, 6)),
    ("3 weeks ago", MONDAY, "past", date(2023, 4, 17)),
    ("a few days ago", MONDAY, "past", date(2023, 5, 5)),
    ("a couple of days ago", MONDAY, "past", date(2023, 5, 6)),
    ("a few weeks ago", MONDAY, "past", date(2023, 4, 17)),
    ("three years ago", MONDAY, "past", date(2020, 5, 8)),
    ("the other day", MONDAY, "past", date(2023, 5, 6)),
    ("last week", MONDAY, "past", date(2023, 5, 1)),
    ("next week", MONDAY, "future", date(2023, 5, 15)),
    ("last month", MONDAY, "past", date(2023, 4, 8)),
    ("a month ago", MONDAY, "past", date(2023, 4, 8)),
    ("next month", MONDAY, "future", date(2023, 6, 8)),
    ("last year", MONDAY, "past", date(2022, 5, 8)),
    ("next year", MONDAY, "future", date(2024, 5, 8)),
    ("in 2020", MONDAY, "past", date(2020, 1, 1)),
    ("back in 2019", MONDAY, "past", date(2019, 1, 1)),
    ("since 2015", MONDAY, "past", date(2015, 1, 1)),
    ("last Saturday", MONDAY, "past", date(2023, 5, 6)),
    ("next Friday", MONDAY, "future", date(2023, 5, 12)),
    ("on Saturday", MONDAY, "past", date(2023, 5, 6)),
    ("on Saturday", MONDAY, "future", date(2023, 5, 13)),
    ("Friday", date(2023, 6, 27), "past", date(2023, 6, 23)),
    ("last weekend", MONDAY, "past", date(2023, 5, 6)),
    ("this weekend", MONDAY, "future", date(2023, 5, 13)),
    ("my whole weekend", MONDAY, "past", date(2023, 5, 6)),
    ("all weekend", MONDAY, "future", date(2023, 5, 13)),
    ("from September", MONDAY, "future", date(2023, 9, 1)),
    ("last summer", MONDAY, "past", date(2022, 6, 1)),
    ("last fall", MONDAY, "past", date(2022, 9, 1)),
    ("in June", MONDAY, "future", date(2023, 6, 1)),
    ("last March", MONDAY, "past", date(2023, 3, 1)),
    ("last May", MONDAY, "past", date(2022, 5, 1)),  # said in May: the May before
    ("last May", date(2023, 8, 1), "past", date(2023, 5, 1)),
    ("next May", MONDAY, "future", date(2024, 5, 1)),
    ("next September", MONDAY, "future", date(2023, 9, 1)),
    ("this June", MONDAY, "future", date(2023, 6, 1)),
    ("June 2022", MONDAY, "past", date(2022, 6, 1)),
    ("May 2nd", MONDAY, "past", date(2023, 5, 2)),
    ("in 3 days", MONDAY, "future", date(2023, 5, 11)),
    ("in a week", MONDAY, "future", date(2023, 5, 15)),
    ("2023-04-01", MONDAY, "past", date(2023, 4, 1)),
    ("yesterday", date(2022, 1, 1), "past", date(2021, 12, 31)),
    ("last month", date(2023, 3, 31), "past", date(2023, 2, 28)),
    ("Saturday the 13th", MONDAY, "future", date(2023, 5, 13)),  # the day of the month says which Saturday
    ("Sat 13th", MONDAY, "future", date(2023, 5, 13)),
    ("20–23 November", MONDAY, "future", date(2023, 11, 20)),  # a range: its first day
    ("June 3-5", MONDAY, "future", date(2023, 6, 3)),
    ("Saturday 9am", MONDAY, "future", date(2023, 5, 13)),  # the day, not its hour
    ("Friday at 15:30", MONDAY, "future", date(2023, 5, 12)),
    ("at 3pm", MONDAY, "future", MONDAY),  # a time of the day it is said
]


@pytest.mark.parametrize("phrase, said, prefer, expected", TABLE)
def test_phrase_resolves_against_the_day_it_was_said(phrase, said, prefer, expected):
    assert resolve(phrase, said, prefer) == expected


@pytest.mark.parametrize("phrase", ["recently", "every week", "five years", "for 3 months", "", None, "someday",
                                    "now and then", "the future", "15 seconds", "around 31 minutes and 15 seconds",
                                    "two hours and ten minutes"])
def test_phrases_that_name_no_day(phrase):
    assert resolve(phrase, MONDAY) is None


def test_a_duration_said_in_a_turn_leaves_the_window_read():
    """"around 31 minutes and 15 seconds" is how long, not when: once taken for a day, its 32 characters were
    over what a record's `when` holds and the rules reader refused the whole window (LongMemEval, #31)."""
    from twinfs.passages import Turn
    from twinfs.reading import Window
    from twinfs.reading.rules import RulesReader

    at = datetime(2023, 5, 8, 9, 0, tzinfo=UTC)
    turns = [Turn("t0", "message", "I finished my first 5K run in around 31 minutes and 15 seconds yesterday.", at,
                  "user", "Ana"),
             Turn("t1", "message", "My dog is called Biscuit.", at, "user", "Ana")]
    outcome = RulesReader().read(Window("th_duration", turns, ["t0", "t1"], {}))
    assert outcome.failed is None
    run = next(r for r in outcome.records if "5K" in r.text)
    assert run.happened == "2023-05-07"  # the day is yesterday's, not the duration's
    assert ("pet", "dog named Biscuit") in {(r.attribute, r.value) for r in outcome.records}


def test_a_datetime_base_is_taken_as_its_utc_day():
    late = datetime(2023, 5, 8, 23, 30, tzinfo=UTC)
    assert resolve("yesterday", late) == date(2023, 5, 7)


def test_find_takes_the_first_phrase_that_names_a_day():
    assert find("I went to a LGBTQ support group yesterday and it was so powerful.", MONDAY) == \
        ("yesterday", date(2023, 5, 7))
    assert find("We're thinking about going camping next month.", MONDAY, "future") == \
        ("next month", date(2023, 6, 8))
    assert find("May I ask you something?", MONDAY) is None
    assert phrases("I ran a race last Saturday and rested on Sunday") == ["last Saturday", "on Sunday"]


NOW = date(2026, 11, 30)


@pytest.mark.parametrize("question, first, last, every_year", [
    ("What did Caroline paint on October 13, 2023?", date(2023, 10, 12), date(2023, 10, 14), False),
    ("What did John host for the veterans in May 2023?", date(2023, 5, 1), date(2023, 5, 31), False),
    ("Which tournament did Nate win at the beginning of November 2022?", date(2022, 11, 1), date(2022, 11, 30), False),
    ("What charity event did John organise in 2024?", date(2024, 1, 1), date(2024, 12, 31), False),
    ("When did Melanie go camping in June?", date(2026, 6, 1), date(2026, 6, 30), True),
    ("What did I eat last week?", date(2026, 11, 20), date(2026, 11, 26), False),
    ("Where was I yesterday?", date(2026, 11, 28), date(2026, 11, 30), False),
    ("What did I cook last May?", date(2026, 5, 1), date(2026, 5, 31), False),  # the month, not a day of it
])
def test_a_question_names_the_days_it_asks_about(question, first, last, every_year):
    (window,) = time_spans(question, NOW)
    assert (window.first, window.last, window.every_year) == (first, last, every_year)


def test_questions_that_name_no_time():
    assert time_spans("Where does Alice live?", NOW) == []
    assert time_spans("Has she lived there for five years?", NOW) == []
    assert time_spans("What did she do recently?", NOW) == []


def test_a_window_without_a_year_holds_in_every_year():
    (june,) = time_spans("What did we do in June?", NOW)
    assert june.holds(date(2019, 6, 15)) and not june.holds(date(2019, 7, 1))
    (may,) = time_spans("What happened in May 2023?", NOW)
    assert may.meets(date(2023, 4, 30), date(2023, 5, 1)) and not may.meets(date(2024, 5, 3), date(2024, 5, 3))
    assert may.meets(date(2023, 4, 1), date(2023, 6, 1))  # said over a span that holds the whole month


@pytest.mark.parametrize("phrase, said, prefer, expected", [
    ("on the 15th", date(2023, 8, 17), "past", date(2023, 8, 15)),  # dateparser alone gives 15 January
    ("the 15th", date(2023, 8, 10), "past", date(2023, 7, 15)),
    ("the 15th", date(2023, 8, 10), "future", date(2023, 8, 15)),
    ("the 31st", date(2023, 7, 10), "past", date(2023, 5, 31)),  # June has no 31st
    ("the twenty-third", date(2023, 8, 10), "future", date(2023, 8, 23)),  # said in words
    ("the first", date(2023, 8, 10), "future", date(2023, 9, 1)),
])
def test_a_day_of_the_month_is_the_nearest_one_on_the_side_preferred(phrase, said, prefer, expected):
    assert resolve(phrase, said, prefer) == expected


def test_a_day_of_the_month_in_words_is_found_only_where_the_sentence_goes_on():
    said = date(2023, 8, 10)
    assert find("I'll take the train up on the twenty-third, as every year.", said, "future") == \
        ("the twenty-third", date(2023, 8, 23))
    assert find("On the third attempt I passed.", said) is None  # the third of tries, no day
    assert find("I won on the second try", said) is None


def test_a_habit_names_no_day():
    said = date(2023, 5, 8)
    assert phrases("I go there every Tuesday and each summer") == []
    assert find("I go there every Tuesday, but I went on Saturday", said) == ("on Saturday", date(2023, 5, 6))


def test_a_sentence_past_a_bound_leaves_the_rest_of_the_window_read(monkeypatch, caplog):
    """Whatever phrase a sentence holds, one draft past a bound of `Draft` leaves that sentence's values alone (here
    none), never the window."""
    from twinfs.passages import Turn
    from twinfs.reading import Window, rules
    from twinfs.reading.records import Draft

    drafts = rules.RulesReader._drafts

    def too_long(self, sentence, turn, *rest):
        if "marathon" in sentence.span.text:
            Draft(kind="event", text="x", subject="Ana", when="w" * 31, turns=[turn.id])
        return drafts(self, sentence, turn, *rest)

    monkeypatch.setattr(rules.RulesReader, "_drafts", too_long)
    at = datetime(2023, 5, 8, 9, 0, tzinfo=UTC)
    turns = [Turn("t0", "message", "I ran a marathon in Porto yesterday. My dog is called Biscuit.", at, "user", "Ana")]
    with caplog.at_level("INFO", logger="twinfs.rules"):
        outcome = rules.RulesReader().read(Window("th_bound", turns, ["t0"], {}))
    assert outcome.failed is None and not any("marathon" in r.text for r in outcome.records)
    assert ("pet", "dog named Biscuit") in {(r.attribute, r.value) for r in outcome.records}
    assert "a sentence of turn t0 read for its values alone: when: String should have at most 30 characters" \
        in caplog.text


def test_a_day_named_with_its_weekday_or_as_a_range_is_one_phrase_and_any_thursday_none():
    assert phrases("What I will do: on Saturday the 8th I'm driving to IKEA.") == ["on Saturday the 8th"]
    assert phrases("I'm off to Tromsø 20–23 November for a conference.") == ["20–23 November"]
    assert phrases("I refuse to eat lentils out of a tub on a Thursday.") == []
