"""A profile pasted as YAML or JSON (reading/profile.py), a household table whose "who" column names the speaker
(reading/tables.py), children listed under a heading (reading/kin_lists.py), and who a sentence without a subject
is about (reading/assertion.py, reading/elided.py); written for these tests."""
from __future__ import annotations

from test_reading_elided import values

from twinfs.reading.kin_lists import kin_lines
from twinfs.reading.labelled import facts
from twinfs.reading.profile import profile_lines
from twinfs.reading.tables import table_lines

YAML = """Could you check my profile for the recipe app?

```yaml
name: Ines Duarte
age: 52
city: Porto
originally_from: Braga
occupation: notary
household:
  - husband: Rui
  - dog: Farrapo
allergies:
  - walnuts
  - penicillin
likes: [grilled sardines, vinho verde]
goals:
  - maybe try intermittent fasting?
```"""


def test_a_yaml_profile_is_read_as_a_form():
    got = values(("user", YAML))
    assert {("age", "52"), ("home_city", "Porto"), ("hometown", "Braga"), ("job", "notary"), ("partner", "Rui"),
            ("pet", "dog named Farrapo"), ("allergy", "walnuts"), ("allergy", "penicillin"),
            ("likes", "grilled sardines"), ("likes", "vinho verde")} <= got, got
    assert not any(a == "plans" for a, _ in got), got  # a goal with a "maybe?" is no plan


def test_a_json_profile_turns_into_lines_and_a_broken_block_stays_as_written():
    assert profile_lines('{"diet": "vegan", "languages": ["Welsh", "English"]}') == (
        "Diet: vegan\nLanguages: Welsh, English")
    broken = "```yaml\nname: [unclosed\n```"
    assert profile_lines(broken) == broken
    assert profile_lines("```\nprint('hi')\n```") == "```\nprint('hi')\n```"  # code, no mapping


def test_a_pet_named_under_its_kind():
    assert facts("Cat: Mochi", "Ines") == [("pet", "cat named Mochi")]
    assert facts("Pets: Mochi (cat), two hens", "Ines") == [("pet", "cat named Mochi"), ("pet", "two hens")]


TABLE = """Our rota:

| Chore | Who | When | Notes |
|---|---|---|---|
| Hoovering | Tomas | Sat | hates it |
| Walking Nala | Tomas | mornings | Nala is our old greyhound |
| Cooking | Ines | weekdays | I've been vegan since March |
"""


def test_the_speakers_row_of_a_table_is_found_by_its_who_column_and_first_name():
    written = table_lines(TABLE, "Ines Duarte")
    assert "- I've been vegan since March" in written
    assert "- Nala is our old greyhound" in written  # the writer's "our" in another's row
    assert "hates it" not in written  # Tomas's
    got = values(("user", TABLE))
    assert ("diet", "vegan") in got, got


def test_children_listed_under_a_heading_are_named_and_what_they_do_is_not_the_speakers():
    text = "Sure. My grandchildren, with their ages:\n- Leonor (15): wants to be a vet, rows\n- little Rui (3): trains"
    assert kin_lines(text) == "Sure.\nGrandchildren: Leonor (15), little Rui (3)\n"
    got = values(("user", text))
    assert {("grandchild", "Leonor"), ("grandchild", "Rui")} <= got, got
    assert not any(a in ("job", "plans", "hobby") for a, _ in got), got


def test_a_sentence_without_its_subject_goes_on_about_the_she_before_it():
    got = values(("user", "She taught music for 30 years and swam every morning. Diabetic since 1990 and still "
                          "eating cake. I'm coeliac myself."))
    assert ("health", "diabetic") not in got and any(v == "coeliac" for _, v in got), got


def test_a_like_said_in_irony_is_a_dislike():
    got = values(("user", "Oh great, I just LOVE queueing at the post office."))
    assert any(a == "dislikes" and "queueing" in v for a, v in got), got
    assert not any(a == "likes" for a, _ in got), got


def test_an_age_turned_on_a_day_said_and_an_attempt_that_is_no_plan():
    assert ("age", "37") in values(("user", "I turned 37 last Friday, birthday brain."))
    assert not any(a == "plans" for a, _ in values(("user", "I'm going to try to visit Kerala more often.")))
