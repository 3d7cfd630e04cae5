"""Forms a speaker fills in or signs: a numbered form's field names as its labels (reading/questionnaire.py), an
e-mail's signature under the speaker's whole name (reading/signature.py), a CV's interests and a job's span with its
months (reading/resume.py), a birth date beside an age and a list joined by "+" (reading/labelled.py), a date's day
and month one sentence (reading/pipeline.py). Conversations written for these tests (the user is Ines, Ines Duarte
where she signs)."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from test_reading_elided import values

from twinfs.passages import Turn
from twinfs.reading import Window
from twinfs.reading.questionnaire import by_number, field
from twinfs.reading.resume import cv_lines
from twinfs.reading.rules import RulesReader
from twinfs.reading.signature import signed

FORM = ("Sure, short answers are fine:\n1. Full name\n2. Date of birth / age\n3. Country + city of residence\n"
        "4. Occupation\n5. Known medical conditions?\n6. Allergies (drugs/food)?\n7. Do you have pets?")
FILLED = "1. Ines Duarte\n2. 02/05/1979 — 47\n3. Portugal, Braga\n4. pharmacist\n5. eczema, mild\n6. latex\n7. a cat"


def test_a_numbered_forms_field_names_label_its_answers():
    assert [field(i) for i in ("Full name", "Date of birth / age", "Country + city of residence", "Occupation",
                               "Known medical conditions?", "Do you have pets?")] == \
        [None, "Age", "Residence", "Occupation", "Medical conditions", None]  # a question is asked.ASKS's to read
    assert by_number(FILLED, FORM).splitlines()[:4] == ["Ines Duarte", "Age: 02/05/1979 — 47",
                                                        "Residence: Portugal, Braga", "Occupation: pharmacist"]
    got = values(("assistant", FORM), ("user", FILLED))
    assert {("age", "47"), ("job", "pharmacist"), ("health", "eczema"), ("allergy", "latex")} <= got, got
    assert any(a == "home_city" and "Braga" in v for a, v in got), got
    assert ("health", "mild") not in got, got  # how bad, not a condition


MAIL = """Can you make this sound friendlier?

Hi team,
I'm off from Monday for two weeks. Rui covers the pharmacy orders.

Best,
Ines

Ines Duarte
Senior Pharmacist | Farmácia Central do Minho
Braga, Portugal
+351 253 000 000"""

THEIRS = """My boss sent this, is it rude?

Do not call me on holiday.

Rui Matos
Operations Manager
Farmácia Central do Minho"""


def read_as(speaker: str, text: str) -> set[tuple[str, str]]:
    turn = Turn("t0", "message", text, datetime(2026, 3, 2, 9, tzinfo=UTC) + timedelta(minutes=1), "user", speaker)
    records = RulesReader().read(Window("th_forms", [turn], [turn.id], {})).records
    return {(r.attribute, r.value) for r in records if r.attribute}


def test_a_signature_under_the_speakers_own_name_gives_their_job_and_employer():
    assert "Job: Senior Pharmacist\nEmployer: Farmácia Central do Minho" in signed(MAIL, "Ines Duarte")
    got = read_as("Ines Duarte", MAIL)
    assert {("job", "Senior Pharmacist"), ("employer", "Farmácia Central do Minho")} <= got, got
    assert not any(a == "employer" and "Braga" in v for a, v in got), got  # a place, no organisation


def test_a_signature_under_someone_elses_name_says_nothing_of_the_speaker():
    assert signed(THEIRS, "Ines Duarte") == THEIRS
    assert not {a for a, _ in read_as("Ines Duarte", THEIRS)} & {"job", "employer"}


CV = """INES DUARTE

EXPERIENCE
Pharmacist — Farmácia Central, Braga (Mar 2019 – present)
Trainee — Hospital de Braga (Sep 2017 – Feb 2019)

INTERESTS
Trail running (club level), ceramics + sea swimming"""


def test_a_cvs_interests_are_hobbies_and_a_span_ending_in_a_month_is_a_job_that_was():
    written = cv_lines(CV)
    assert "Job: Pharmacist" in written and "Hospital de Braga" not in written
    got = values(("user", CV))
    assert {("job", "Pharmacist"), ("hobby", "Trail running"), ("hobby", "ceramics"), ("hobby", "sea swimming")} \
        <= got, got
    assert not any("Trainee" in v or "Hospital" in v for _, v in got), got


def test_a_day_and_its_month_stay_in_one_sentence():
    from twinfs.reading.pipeline import nlp

    said = [s.text for s in nlp()("Arjun has a swim meet in Geelong on Sunday 21 Feb and I am driving.").sents]
    assert said[0].endswith("Sunday 21 Feb"), said


DATING = """Rate my profile, be honest.

**My simple pleasures:** a pot of coffee on the balcony, the first snow.
**Typical Sunday:** fell running, then the pub quiz.
**Dealbreaker:** olives. Also people who are rude to waiters.
**My most irrational fear:** pigeons.
**Perfect Sunday:** brunch at my mum's, honestly."""


def test_a_dating_profiles_prompts_are_labels_of_tastes():
    got = values(("user", DATING))
    assert {("likes", "a pot of coffee on the balcony"), ("likes", "the first snow"), ("hobby", "fell running"),
            ("hobby", "the pub quiz"), ("dislikes", "olives"), ("dislikes", "pigeons")} <= got, got
    assert not any("my mum" in v for _, v in got), got  # a taste in the speaker's own words would read wrongly
