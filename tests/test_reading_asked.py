"""A record carries the question it answers (#31, twinfs/reading/asked.py): "Twice a week. I'm finally past the
beginner level" says nothing of what without "Still doing the night classes?"; and a verbless answer to a question for
a fact ("Where do you live?" - "Sheffield.") gives it. Conversations written for these tests."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from twinfs.passages import Turn
from twinfs.reading import Window
from twinfs.reading.asked import without_question
from twinfs.reading.rules import RulesReader

T0 = datetime(2026, 4, 8, 18, 0, tzinfo=UTC)


def last_turn(*said: tuple[str, str], role: str = "user") -> list:
    """The records of the last of `said` ((speaker, text) turns; the first one's role is `role`)."""
    turns = [Turn(f"t{i}", "message", text, T0 + timedelta(seconds=30 * i), role if i == 0 else "user", who)
             for i, (who, text) in enumerate(said)]
    records = RulesReader().read(Window("th_asked", turns, [t.id for t in turns], {})).records
    return [r for r in records if r.turns == [turns[-1].id]]


@pytest.mark.parametrize(("asked", "answer", "own"), [
    ("Still doing the night classes?", "Twice a week. I'm finally past the beginner level.",
     "Theo is finally past the beginner level"),
    ("How's the allotment?", "Overgrown. I pulled up the last of the beans on Sunday.",
     "Theo pulled up the last of the beans"),
    ("You miss the band?", "Some weeks. I miss the rehearsals, not the van.",
     "Theo misses the rehearsals, not the van"),
])
def test_an_answer_that_leans_on_the_question_carries_it(asked, answer, own):
    [record] = last_turn(("Noor", asked), ("Theo", answer))
    assert record.text == f'{own} (asked: "{asked}")'
    assert without_question(record.text) == own


@pytest.mark.parametrize(("asked", "answer"), [
    ("How's the pottery going?", "I finished my first pottery bowl on Sunday."),  # the answer names it
    ("How's it going?", "Busy. I repainted the whole hallway on Sunday."),  # the question names nothing
    ("At the gym?", "Yep. I lifted my heaviest deadlift ever."),  # an echo of the speaker's words, no topic
    ("Any news?", "I repainted the whole hallway on Sunday."),
])
def test_a_question_that_adds_nothing_is_left_off(asked, answer):
    records = last_turn(("Noor", asked), ("Theo", answer))
    assert records and all("asked:" not in r.text for r in records)


def test_a_record_with_a_value_reads_alone_without_it():
    records = last_turn(("Noor", "How's the new flat?"), ("Theo", "Lovely. I live in Leeds now, near the river."))
    assert any(r.attribute == "home_city" for r in records)
    assert all("asked:" not in r.text for r in records)


def test_the_speakers_own_turn_between_breaks_the_link():
    records = last_turn(("Noor", "How's the allotment?"), ("Theo", "Overgrown."),
                        ("Theo", "Oh, and I repainted the whole hallway on Sunday."))
    assert [r.text for r in records] == ["Theo repainted the whole hallway"]


def test_an_assistants_offer_of_help_is_no_topic():
    records = last_turn(("assistant", "Hi! What would you like help with?"),
                        ("Alice", "I'm planning meals for my family this week."), role="assistant")
    assert records and all("asked:" not in r.text for r in records)


def test_the_question_is_asked_only_of_the_sentences_just_after_it():
    records = last_turn(("Noor", "Still doing the night classes?"),
                        ("Theo", "Twice a week. It's tiring. My feet hurt. I bought new running shoes on Monday."))
    shoes = [r for r in records if "running shoes" in r.text]
    assert shoes and "asked:" not in shoes[0].text


@pytest.mark.parametrize(("asked", "answer", "fact", "text"), [
    ("Where do you live these days?", "Sheffield, near the park.", ("home_city", "Sheffield"),
     "Theo lives in Sheffield"),
    ("So where are you from?", "Accra. Then Croydon from age nine.", ("hometown", "Accra"), "Theo is from Accra"),
    ("How old are you, if you don't mind me asking?", "Forty-six.", ("age", "forty-six"), "Theo is forty-six"),
    ("How old are you?", "29, somehow.", ("age", "29"), "Theo is 29"),
])
def test_a_verbless_answer_to_a_question_for_a_fact_gives_it(asked, answer, fact, text):
    records = last_turn(("Noor", asked), ("Theo", answer))
    assert any((r.attribute, r.value) == fact and r.text == text for r in records), [r.text for r in records]


@pytest.mark.parametrize(("asked", "answer"), [
    ("Where does your brother live?", "Sheffield."),  # asked of someone else
    ("Where did you go on holiday?", "Sheffield, believe it or not."),  # a trip, not a home
    ("Where do you live?", "Near the park."),  # no place named
    ("How old are you?", "Old enough!"),
])
def test_an_answer_gives_no_fact_the_question_did_not_ask_of_the_speaker(asked, answer):
    assert not any(r.attribute for r in last_turn(("Noor", asked), ("Theo", answer)))


def test_an_assistants_question_is_answered_too():
    records = last_turn(("assistant", "Happy to help! Where are you based?"), ("Alice", "Bristol."), role="assistant")
    assert [(r.attribute, r.value) for r in records] == [("home_city", "Bristol")]


@pytest.mark.parametrize(("asked", "answer", "facts"), [
    ("What do you do for a living?", "Physiotherapist at a sports clinic.", {("job", "physiotherapist")}),
    ("What are your hobbies?", "Bouldering, making pasta and chess.",
     {("hobby", "bouldering"), ("hobby", "making pasta"), ("hobby", "chess")}),
    ("What kind of music do you like?", "Mostly Cuban jazz.", {("likes", "Cuban jazz")}),
    ("Do you have any pets?", "Yes, two rabbits, Bun and Clover.", {("pet", "rabbits named Bun and Clover")}),
    ("Which city are you in?", "Lyon.", {("home_city", "Lyon")}),
    ("Any allergies I should know about?", "Walnuts.", {("allergy", "walnuts")}),
])
def test_an_assistants_question_for_a_fact_answered_in_a_few_words_gives_it(asked, answer, facts):
    records = last_turn(("assistant", asked), ("Alice", answer), role="assistant")
    assert {(r.attribute, r.value) for r in records} == facts


@pytest.mark.parametrize(("asked", "answer"), [
    ("Do you have any pets?", "No, my landlord won't allow it."),
    ("Any pets?", "None, sadly."),
    ("What do you do for a living?", "Oh, this and that."),  # no job named
    ("What do you do for fun?", "Nothing much, honestly."),
    ("What kind of food do you like?", "Everything, really."),
    ("What are your hobbies?", "The usual stuff."),
    ("Any allergies?", "None that I know of."),
    ("Are you married?", "Nah, not me."),
    ("Any kids?", "Nah, none yet."),
    ("What music does your son like?", "Mostly drill."),  # asked of someone else
])
def test_no_fact_from_an_answer_that_gives_none_or_is_someone_elses(asked, answer):
    records = last_turn(("assistant", asked), ("Alice", answer), role="assistant")
    assert not any(r.attribute for r in records)


ASSISTANT_ASKS = [("m1", "assistant", "Hi! To tailor suggestions: where do you live these days?"),
                  ("m2", "user", "Sheffield, near the park."),
                  ("m3", "assistant", "Lovely. What are your hobbies?"),
                  ("m4", "user", "Bouldering, making pasta and chess."),
                  ("m5", "assistant", "Great mix! Any allergies I should know about for recipes?"),
                  ("m6", "user", "Walnuts.")]


def test_what_a_user_answers_an_assistant_in_a_few_words_reaches_their_page(tmp_path, embedder, alice):
    from conftest import read_by_rules

    from twinfs import ledger

    with read_by_rules(tmp_path, embedder, alice, ASSISTANT_ASKS) as memory, memory._existing(alice) as space:
        values = {(r.attribute, r.value) for r in ledger.all_records(space) if not r.retracted and r.attribute}
        page = (space.root / "pages" / "alice-chen.md").read_text()
    assert {("home_city", "Sheffield"), ("hobby", "bouldering"), ("hobby", "making pasta"), ("hobby", "chess"),
            ("allergy", "walnuts")} <= values
    assert "Sheffield" in page and "chess" in page and "walnuts" in page


@pytest.mark.parametrize(("asked", "answer", "facts"), [
    ("Do you have kids?", "Yes, a daughter, Ada.", {("daughter", "Ada")}),
    ("Any children?", "Two boys, Sami and Jude.", {("children", "two boys"), ("son", "Sami"), ("son", "Jude")}),
    ("Got any kids yet?", "One, a little girl.", {("children", "daughter")}),
    ("Have you got children?", "Three grown-up kids, all in London now.", {("children", "three kids")}),
    ("How long have you been married?", "Twelve years this June!", {("relationship_status", "married")}),
    ("How long have you two been married now?", "5 years already! Time flies.", {("relationship_status", "married")}),
    ("Are you married, by the way?", "Yes, to Omar.", {("relationship_status", "married"), ("partner", "Omar")}),
    ("Are you married?", "Engaged, actually!", {("relationship_status", "engaged")}),
    ("Are you single?", "Yep.", {("relationship_status", "single")}),
])
def test_an_answer_about_children_or_marriage_gives_it(asked, answer, facts):
    records = last_turn(("assistant", asked), ("Alice", answer), role="assistant")
    assert {(r.attribute, r.value) for r in records} == facts, [r.text for r in records]


@pytest.mark.parametrize(("asked", "answer"), [
    ("Do you have kids?", "Not yet, maybe one day."),
    ("Do you have kids?", "Nope."),
    ("Does your sister have kids?", "Two boys."),  # asked of someone else
    ("How long have you been married?", "Too long, ha."),  # no time named
    ("How long have you been learning Greek?", "Two years."),  # not about marriage
    ("Are you married?", "No, divorced last year."),  # a "no": nothing set from the answer alone
    ("Is your brother married?", "Yes, to Ines."),
])
def test_no_children_or_marriage_from_an_answer_that_gives_none(asked, answer):
    records = last_turn(("assistant", asked), ("Alice", answer), role="assistant")
    assert not any(r.attribute for r in records), [(r.attribute, r.value) for r in records]


@pytest.mark.parametrize(("asked", "answer", "facts"), [
    ("Any dietary restrictions I should know about?", "Pescatarian, and no shellfish please.",
     {("diet", "pescatarian"), ("diet", "no shellfish")}),
    ("Do you eat meat?", "Halal only.", {("diet", "halal")}),
    ("Do you eat meat?", "Mostly chicken, honestly.", set()),  # no diet named
    ("What languages do you speak?", "Welsh and English, a bit of Italian.",
     {("language", "Welsh"), ("language", "English"), ("language", "Italian")}),
    ("Where do you work these days?", "At Arup, in the bridges team.", {("employer", "Arup")}),
    ("Where do you work?", "At a garden centre near Stroud.", set()),  # no workplace named
    ("Any dietary requirements?", "Nope, I eat everything.", set()),
])
def test_an_answer_about_diet_languages_or_work_gives_what_it_names(asked, answer, facts):
    records = last_turn(("assistant", asked), ("Alice", answer), role="assistant")
    assert {(r.attribute, r.value) for r in records if r.attribute} == facts, [r.text for r in records]
