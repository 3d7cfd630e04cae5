"""What a turn says in the speaker's own words and still stands (reading/own_words.py): quoted lines, struck-through
words and values taken back are never the speaker's (conversations written for these tests)."""
from __future__ import annotations

import pytest
from test_reading_elided import T0, values

from twinfs.passages import Turn
from twinfs.reading.own_words import own_words


@pytest.mark.parametrize(("text", "left"), [
    ("> I'm a potter in Bruges now.\n> x Jan\n\nMy reply: great!", "\n\n\nMy reply: great!"),
    ("- ~~salsa classes~~ stopped in May", "-  stopped in May"),
    ("Job: welder - no wait, old answer. Crane operator now.", "Job: Crane operator now."),
    ("- keto - scratch that, it's outdated. vegan since June", "- vegan since June"),
    ("I live in Leeds, no wait, Bradford.", "I live in Leeds, no wait, Bradford."),  # what replaces what: unsaid
    ("It costs 5 > 3 pounds", "It costs 5 > 3 pounds"),
])
def test_quoted_struck_and_taken_back_words_are_left_out(text, left):
    assert own_words(text) == left


def test_a_pasted_email_is_the_other_writers_and_the_reply_is_the_speakers():
    got = values(("user", "Help me answer this?\n\n> Hey Ola! I'm a potter in Bruges now, vegan, with a dog "
                          "called Bolt.\n"
                          "> Jan\n\nDraft: Jan! I'm a nurse in Tromsø these days, and I'm vegetarian."))
    quoted = {"potter", "Bruges", "vegan", "dog named Bolt"}
    assert ("diet", "vegetarian") in got and not {v for _, v in got} & quoted, got


def test_a_form_line_taken_back_keeps_the_new_value_and_its_first_sentence():
    got = values(("user", "Age? 52.\nJob: welder - no wait, old answer. Crane operator now, since March.\n"
                 "Husband: Piotr. He'll come along.\nPets: none. Kids: none."))
    assert {("age", "52"), ("job", "Crane operator"), ("partner", "Piotr")} <= got, got
    assert not any(a in ("pet", "kin") or v in ("welder", "none") for a, v in got), got


def test_the_model_pass_asks_about_and_gates_the_turn_as_the_rules_read_it():
    from twinfs.reading.assertion import gate
    from twinfs.reading.checking import questions

    text = "Reply to this?\n> I'm a potter in Bruges now.\n\n- 41, live in Tromsø\n- work as a ferry engineer"
    asked = questions([], [Turn("t0", "message", text, T0, "user", "Ola")])
    assert asked and all("potter" not in q.turn and "potter" not in (q.clause or "") for q in asked)
    assert all(q.turn == "Reply to this?\n\n\n- I'm 41, I live in Tromsø\n- I work as a ferry engineer" for q in asked)
    assert gate(asked[0].turn, "Tromsø", concept="home").holds("home")  # "- live in …" is the speaker's, no order
