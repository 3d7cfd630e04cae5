"""The model pass's clause questions answer with words of the sentence (the grammar holds the value to its spans),
and code refuses values that say what is not or what is only sought (sentences written for these tests)."""
from __future__ import annotations

import pytest

from twinfs.reading.checking import SCHEMA, Checker, ModelAnswer, Question, decide, load, schema_of
from twinfs.reading.clauses import spans
from twinfs.reading.kinds import misfit
from twinfs.reading.shipped import model_path


def test_a_clauses_values_are_runs_of_its_words_that_name_something():
    said = spans("During term I live in the university dorms in Istanbul, near the sea.")
    assert {"the university dorms in Istanbul", "Istanbul", "university dorms"} <= set(said)
    assert all(s in "During term I live in the university dorms in Istanbul, near the sea." for s in said)
    assert "Istanbul, near the sea" not in said  # no run crosses a comma
    assert not {"in", "the", "I live in", "in the"} & set(said)  # none starts with a pronoun or ends on a preposition
    assert "both" not in spans("We're both mad about football.")  # a word that names nothing
    assert not any(s.startswith("no ") for s in spans("I'm broke so no private trainer please."))


def test_only_a_clause_question_is_held_to_its_spans():
    clause = Question("I sell fabric at Dugbe market.", clause="I sell fabric at Dugbe market.")
    held = schema_of(clause)["properties"]["value"]
    assert "Dugbe market" in held["enum"] and "fabric" in held["enum"]
    record = Question("I sell fabric at Dugbe market.", "", "job", "sell fabric", "th#r1")
    assert schema_of(record) is SCHEMA  # a record's words are the rules', checked as they are
    assert SCHEMA["properties"]["value"] == {"type": "string"}  # and the shared schema is left as it was


@pytest.mark.parametrize(("concept", "value", "sentence"), [
    ("job", "private trainer", "also i'm 23 and broke so no private trainer pls"),
    ("job", "no private trainer", "also i'm 23 and broke so no private trainer pls"),
    ("hobby", "not a gamer", "I am not a gamer at all."),
    ("job", "junior UX designer", "I'm applying for a junior UX designer position at a fintech company."),
    ("job", "nurse", "I've got an interview for a nurse job at St Mary's on Monday."),
    ("employer", "Google", "I'm interviewing at Google next week, wish me luck."),
])
def test_what_is_not_or_is_only_sought_is_no_value(concept, value, sentence):
    assert misfit(concept, value, sentence) is not None
    assert decide(Question(sentence, clause=sentence), ModelAnswer(True, concept, value)).action == "none"


@pytest.mark.parametrize(("concept", "value", "sentence"), [
    ("job", "nurse", "I work as a nurse, not a doctor."),
    ("hobby", "climbing", "I'm not a runner but I go climbing every week."),
    ("job", "designer", "I'm a designer at a fintech company."),
    ("language", "some Spanish", "I speak Norwegian, English and some Spanish."),
    ("pet", "Bubu", "Our old dog Bubu sleeps all day."),
])
def test_what_is_said_plainly_still_fits(concept, value, sentence):
    assert misfit(concept, value, sentence) is None


@pytest.fixture(scope="module")
def smollm2():
    return Checker(load(str(model_path("smollm2")), n_threads=1), max_tokens=40)


def test_a_real_models_answer_to_a_clause_is_words_of_that_clause(smollm2):
    """SmolLM2-135M copies and paraphrases freely when it may: held to the spans, every value it gives is said."""
    turn = "We're both mad about football. These days my hobby is bouldering, which my brother finds hilarious."
    asked = [Question(turn, "What do you two like?", clause="We're both mad about football."),
             Question(turn, "What do you two like?", clause="These days my hobby is bouldering, which my brother "
                                                             "finds hilarious.")]
    for q in asked:
        answer = smollm2.ask(q)
        assert answer is not None and answer.value in spans(q.clause or ""), answer


@pytest.mark.parametrize(("concept", "value", "sentence"), [
    ("school", "Claddagh", "We're right on the seafront in Claddagh, so it gets windy."),  # a place, no study
    ("family", "Tomas's dad", "Tomas's dad is diabetic, which is awkward for dinner."),  # another's relative
    ("plans", "working", "so i kinda need it working by tomorrow lol"),  # no deed
    ("language", "German", "I took German at school, but I've forgotten almost all of it."),  # a language that was
    ("language", "Irish", "God no, my Irish stopped at the Leaving Cert, I'd only embarrass myself."),
    ("language", "Duolingo Spanish", "I do Duolingo Spanish every night, mostly for the owl."),  # an app's course
    ("pet", "Bubu", "I don't have pets anymore, our old dog Bubu died last year."),  # a pet that died
])
def test_a_value_of_the_wrong_kind_is_no_value(concept, value, sentence):
    assert misfit(concept, value, sentence) is not None


@pytest.mark.parametrize(("value", "sentence"), [
    ("Bahasa Indonesia", "I speak Bahasa Indonesia, English, and Javanese with my grandma."),  # one language's name
    ("Bahasa Melayu", "At home it's Bahasa Melayu."),
    ("Filipino", "I speak Filipino and a bit of Cebuano."),
])
def test_a_languages_own_name_of_two_words_is_a_language(value, sentence):
    assert misfit("language", value, sentence) is None


def test_a_students_school_said_short_fits():
    assert misfit("school", "UCL", "I'm a student at UCL.") is None


@pytest.mark.parametrize("turn", ["By the way, I'm 31; is that too old to start?",
                                  "I'm 31 and my husband's 35, does that change the premium?"])
def test_a_value_the_rules_read_before_a_question_stands_when_the_model_agrees(turn):
    verdict = decide(Question(turn, "", "age", "31", "th#r1"), ModelAnswer(True, "age", "31"))
    assert verdict.action == "keep", verdict
    asked = decide(Question("Am I too old at 31?", "", "age", "31", "th#r2"), ModelAnswer(True, "age", "31"))
    assert asked.action == "drop", asked  # a question only: nothing stated


def test_a_job_that_was_stays_when_the_model_reads_it_as_a_job():
    turn = "I used to work as a lab technician, now I write about science."
    verdict = decide(Question(turn, "", "former_job", "lab technician", "th#r1"),
                     ModelAnswer(True, "job", "lab technician"))
    assert verdict.action == "keep", verdict


def test_a_pastimes_doer_stays_a_pastime_and_a_when_clause_is_none():
    turn = "I'm a keen fell runner, mostly weekends in the Lakes."
    kept = decide(Question(turn, "", "hobby", "fell runner", "th#r1"), ModelAnswer(True, "job", "fell runner"))
    assert kept.action == "keep" and kept.attribute is None, kept  # no job said
    moved = decide(Question("I started a new job as a nurse last week.", "", "hobby", "new job as a nurse", "th#r2"),
                   ModelAnswer(True, "job", "a nurse"))
    assert (moved.action, moved.attribute) == ("replace", "job")  # a job said as one still moves
    when = "my brakes squeal when i ride downhill."
    assert decide(Question(when, clause=when), ModelAnswer(True, "hobby", "ride")).action == "none"


def test_an_age_said_before_the_speaker_is_found():
    turn = "at 41 I'm too old for all-nighters."
    found = decide(Question(turn, clause=turn), ModelAnswer(True, "age", "41"))
    assert (found.action, found.value) == ("add", "41"), found


def test_a_state_that_was_is_no_value_and_a_birthplace_still_is():
    assert misfit("diet", "vegan", "I was fully vegan for two years in my twenties but it didn't stick.")
    assert misfit("hometown", "Ribe", "I was born in Ribe, a tiny town.") is None
    assert misfit("job", "tile cutter", "I'm fine with costing stuff, but I'm useless with a tile cutter.")


def test_a_value_is_never_part_of_a_hyphened_word():
    offered = spans("Also I am forty-four, so I learn slow.")
    assert "forty-four" in offered and "forty" not in offered and "four" not in offered, offered
    assert "sea-swim" in spans("I sea-swim at Salthill most mornings.")
    assert "sea" not in spans("I sea-swim at Salthill most mornings.")
    verdict = decide(Question("Also I am forty-four, so I learn slow.", "", None, None, "th#c1"),
                     ModelAnswer(True, "age", "forty"))
    assert verdict.action == "none", verdict  # "forty" is not said: "forty-four" is


def test_a_thing_tried_is_no_taste():
    assert misfit("likes", "Duolingo", "I have tried Duolingo last year but I stopped after a month.")
    assert misfit("hobby", "yoga", "We tried yoga once, not for us.")
    assert misfit("likes", "yoga", "I really love yoga.") is None
