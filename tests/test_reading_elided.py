"""The "I" a note about oneself leaves out (reading/elided.py), and what the rules reader then reads of a list of
notes and a terse answer (conversations written for these tests)."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from twinfs.passages import Turn
from twinfs.reading import Window
from twinfs.reading.elided import with_subject
from twinfs.reading.rules import RulesReader

T0 = datetime(2026, 5, 6, 9, 0, tzinfo=UTC)


def values(*said: tuple[str, str]) -> set[tuple[str, str]]:
    turns = [Turn(f"t{i}", "message", text, T0 + timedelta(minutes=i), role, "Ines" if role == "user" else None)
             for i, (role, text) in enumerate(said)]
    records = RulesReader().read(Window("th_elided", turns, [t.id for t in turns], {})).records
    return {(r.attribute, r.value) for r in records if r.attribute}


@pytest.mark.parametrize(("text", "written"), [
    ("- 41, live in Tromsø", "- I'm 41, I live in Tromsø"),
    ("* Speak Basque and Spanish", "* I speak Basque and Spanish"),
    ("2. three kids", "2. I have three kids"),
    ("ok. allergic to wasps. Married since 2009.", "ok. I'm allergic to wasps. I'm married since 2009."),
    ("Pescatarian, and no nuts.", "Pescatarian, and no nuts."),  # a list: an answer's (asked.py)
    ("Vegan lasagne tonight! Have a great day.", "Vegan lasagne tonight! Have a great day."),  # a dish; a wish
    ("Live in the moment, they say.", "Live in the moment, they say."),  # no list: an imperative stays
    ("Welsh, English and a bit of Breton.", "I speak Welsh, English and a bit of Breton."),
    ("French, Spanish, Italian. Which one first?", "French, Spanish, Italian. Which one first?"),  # asked about
    ("Diet: vegan\nLanguages: Welsh, English", "Diet: vegan\nLanguages: Welsh, English"),  # a form's, left as said
    ("Live in Split; grew up in Zadar. Speak Croatian. Not a fan of: jazz.",
     "I live in Split; I grew up in Zadar. I speak Croatian. I'm not a fan of jazz."),  # a profile's
    ("Live in the moment! Obsessed. He plays.", "Live in the moment! Obsessed. He plays."),  # no place; an answer
    ("- lactose intolerant", "- I'm lactose intolerant"),
    ("To do:\n- go to the bank\n- read chapter 3", "To do:\n- go to the bank\n- read chapter 3"),  # no facts of one's
    ("Hi, as a type 1 diabetic what should I pack?", "Hi, I'm a type 1 diabetic. What should I pack?"),
    ("As a nurse, I see it a lot.", "I'm a nurse. I see it a lot."),
    ("As a kid, I loved it.", "As a kid, I loved it."),  # what one was, no job
])
def test_the_i_a_note_leaves_out_is_written_in_and_nothing_else(text, written):
    assert with_subject(text) == written


def test_a_list_of_notes_about_oneself_is_read_line_by_line():
    got = values(("user", "Some notes for the profile:\n- 41, live in Tromsø\n- work as a ferry engineer for "
                          "Hurtigruten\n- allergic to wasps\n- speak Norwegian, Sami and some German\n- hate karaoke\n"
                          "- a cat called Brunost"))
    assert {("age", "41"), ("home_city", "Tromsø"), ("job", "ferry engineer"), ("employer", "Hurtigruten"),
            ("allergy", "wasps"), ("language", "Norwegian"), ("language", "Sami"), ("language", "German"),
            ("dislikes", "karaoke"), ("pet", "cat named Brunost")} <= got, got


def test_a_terse_answer_to_a_request_for_several_things_gives_each():
    got = values(("assistant", "Happy to help. Tell me a bit about you — age, and where you're based."),
                 ("user", "63. Bergen. vegetarian, 30 years. Danish, Norwegian, decent English."))
    assert {("age", "63"), ("home_city", "Bergen"), ("diet", "vegetarian"), ("language", "Danish"),
            ("language", "Norwegian"), ("language", "English")} <= got, got


def test_a_number_answering_something_else_is_no_age():
    got = values(("assistant", "What age did you start playing?"), ("user", "Twelve."))
    assert not any(a == "age" for a, _ in got), got


def test_a_profile_written_without_i_and_an_aside_of_sorry_are_read():
    got = values(("user", "Polish my bio? 'Live in Split; grew up in Zadar. Allergic to cats, sorry cat people. "
                          "Not a fan of: jazz, rain. Speak Croatian and Italian.'"))
    assert {("home_city", "Split"), ("hometown", "Zadar"), ("allergy", "cats"), ("dislikes", "jazz"),
            ("language", "Croatian")} <= got, got


def test_a_taste_leaves_its_trailing_myself_and_either():
    got = values(("user", "Not a fan of cyclists myself, to be honest. I can't stand sweet desserts either."))
    assert {("dislikes", "cyclists"), ("dislikes", "sweet desserts")} <= got, got


def test_relatives_by_the_words_of_home_and_a_diet_of_home_are_read():
    got = values(("user", "My mam's coming over from Galway in July."),
                 ("user", "Our eldest, Layla, is 14."),
                 ("user", "We are more temple people - my mother-in-law, Lalitha, sent a list of temples."),
                 ("user", "One doubt - I am pure veg, will we starve?"))
    assert {("family", "mam"), ("child", "Layla"), ("mother_in_law", "Lalitha"), ("diet", "pure veg")} <= got, got
    assert not any(v == "people" for _, v in got), got
