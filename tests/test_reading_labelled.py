"""A filled-in form's lines read by their labels (reading/labelled.py), through the rules reader."""
from __future__ import annotations

from test_reading_plain import read, values

from twinfs.reading.labelled import facts

FORM = """Could you proofread my registration form for the climbing gym? My English is not so good.

Name: Keiko Tanaka
Age: 34
Address: Fremantle, Perth
Place of birth: Osaka
Occupation: Marine biologist
Employer: CSIRO
Languages: Japanese, English and a little French
Allergies: none known except latex
Medical conditions: asthma (mild)
Past conditions: broken wrist (2015)
Position applied for: Route setter
Emergency contact: Daniel Ross (husband)
Children: Mei (daughter, 4)
Children's allergies: Mei - eggs"""


def test_a_label_says_what_its_value_is():
    assert facts("Languages: Portuguese, English, some Spanish", "Rafa") == [
        ("language", "Portuguese"), ("language", "English"), ("language", "some Spanish")]
    assert facts("Allergies: none known except penicillin", "Rafa") == [("allergy", "penicillin")]
    assert facts("Diet: low-carb since diagnosis", "Rafa") == [("diet", "low-carb")]
    assert facts("Dependents: Theo (son, 9), Bia (daughter, 6)", "Rafa") == [("son", "Theo"), ("daughter", "Bia")]
    assert facts("like: Coltrane, obviously.", "Rafa") == [("likes", "Coltrane")]
    assert facts("Allergies: none", "Rafa") == [] and facts("Smoker: no (quit 2020)", "Rafa") == []
    assert facts("Age: 41 (as of May)", "Rafa") == [("age", "41")] and facts("Age: forty-one", "Rafa") == [
        ("age", "forty-one")]
    assert facts("Age: prefer not to say", "Rafa") == []  # no age, as ages.py reads a label
    assert facts("Dependents' allergies: Bia - peanuts", "Rafa") == []  # someone else's
    assert facts("Previous employer: DHL", "Rafa") == []  # a former thing
    assert facts("Note: I live in Leeds", "Rafa") == []  # no label of a fact: the sentence is read as said


def _read(text: str) -> set[tuple[str, str]]:
    return values(read(("user", text), who="Keiko Tanaka"))


def test_the_rules_read_the_speakers_form_and_nobody_elses():
    read = _read(FORM)
    for fact in [("age", "34"), ("home_city", "Fremantle, Perth"), ("hometown", "Osaka"), ("job", "Marine biologist"),
                 ("employer", "CSIRO"), ("language", "Japanese"), ("language", "English"),
                 ("language", "a little French"), ("allergy", "latex"), ("health", "asthma"),
                 ("partner", "Daniel Ross"), ("daughter", "Mei")]:
        assert fact in read, (fact, read)
    assert not {v for _, v in read} & {"broken wrist", "eggs", "Route setter", "Mei - eggs"}
    dads = "Here's my dad's form, can you check it?\n\nName: Hiroshi Tanaka\nAge: 67\nOccupation: retired welder"
    assert not {a for a, _ in _read(dads)} & {"age", "job"}


def test_the_model_pass_gate_takes_a_forms_line_as_the_speakers_and_a_relatives_label_as_not():
    from twinfs.reading.assertion import gate

    assert gate("Age? 27.\nJob: Pharmacist now, switched last year.", "Pharmacist", concept="job").holds("job")
    assert not gate("Partner's job: Pharmacist, at Boots.", "Pharmacist", concept="job").holds("job")
