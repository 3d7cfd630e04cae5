"""First-person statements in the languages people switch into mid-chat (reading/foreign.py), and relatives named
in a list after their relation (reading/kin_lists.py); each sentence written for these tests."""
from __future__ import annotations

import pytest
from test_reading_plain import read, values

from twinfs.reading.foreign import stated
from twinfs.reading.kin_lists import listed_kin


@pytest.mark.parametrize(("text", "expected"), [
    ("Vivo en Valencia desde 2019, en Ruzafa, pero soy de Zaragoza.",
     {("home_city", "Valencia"), ("home_city", "Ruzafa"), ("hometown", "Zaragoza")}),
    ("Trabajo como enfermera en Hospital La Fe y tengo 29 años.",
     {("job", "enfermera"), ("employer", "Hospital La Fe"), ("age", "29")}),
    ("ich wohne seit drei Jahren in Bremen, ursprünglich aus Linz.", {("home_city", "Bremen"), ("hometown", "Linz")}),
    ("Ich arbeite als Tischler bei Holzbau Krämer.", {("job", "Tischler"), ("employer", "Holzbau Krämer")}),
    ("ik woon in Utrecht en ik werk als verpleegkundige.", {("home_city", "Utrecht"), ("job", "verpleegkundige")}),
    ("J'habite à Nantes avec mon copain Hugo.", {("home_city", "Nantes"), ("partner", "Hugo")}),
    ("Moro em Recife e trabalho como designer.", {("home_city", "Recife"), ("job", "designer")}),
    ("Kurz: ich bin laktoseintolerant und ich hasse Fußball.", {("diet", "laktoseintolerant"),
                                                               ("dislikes", "Fußball")}),
    ("Soy alérgica a las nueces, ojo.", {("allergy", "nueces")}),
    ("Me encanta el flamenco, de verdad.", {("likes", "el flamenco")}),
    ("Ich bin 44 and still learning.", {("age", "44")}),
    ("Nada de perros, tengo una gata, Frida.", {("pet", "gata named Frida")}),
    ("Wir haben einen Hund namens Bruno.", {("pet", "hund named Bruno")}),
])
def test_statements_in_another_language(text, expected):
    assert set(stated(text)) == expected


@pytest.mark.parametrize("text", [
    "No vivo en Madrid, solo trabajo allí.",  # denied
    "Si viviera en Lisboa, comería pastéis cada día.",  # supposed
    "Ich wohne nicht in Berlin.",  # denied
    "Mein Bruder wohnt in Wien.",  # another's
    "Vielleicht arbeite ich als Lehrer.",  # a maybe
    "No tengo un perro, Max es de mi hermano.",  # denied
    "I live in Leeds and work as a nurse.",  # English: the English reading's
])
def test_nothing_stated_in_another_language(text):
    assert stated(text) == []


def test_a_job_with_its_workplace_after_a_preposition_of_another_language():
    got = values(read(("user", "I work as a data analyst bei Northmere Energy and I have 9 days of leave.")))
    assert {("job", "data analyst"), ("employer", "Northmere Energy")} <= got, got


def test_a_statement_in_another_language_is_a_record_beside_the_english_ones():
    got = values(read(("user", "Soy Marta, trabajo como arquitecta en Estudio Norte, and I'm allergic to cats.")))
    assert {("job", "arquitecta"), ("employer", "Estudio Norte")} <= got, got
    assert any(a == "allergy" and "cats" in v for a, v in got), got


@pytest.mark.parametrize(("text", "expected"), [
    ("My grandchildren are Amelia ( 9 ) , Jack ( 7 ) and baby Rose .",
     [("grandchild", "Amelia"), ("grandchild", "Jack"), ("grandchild", "Rose")]),
    ("My three are Oliver , who is fourteen , Ruby , 12 , and little Finn who 's 6 .",
     [("child", "Oliver"), ("child", "Ruby"), ("child", "Finn")]),
    ("We have two kids - Leo is 5 and Maya is 3.", [("child", "Leo"), ("child", "Maya")]),
    ("My sisters are Anna and Beth.", [("sister", "Anna"), ("sister", "Beth")]),
    ("My kids are Liverpool fans.", []),  # no names
    ("My two are both at uni now.", []),
])
def test_relatives_named_in_a_list(text, expected):
    assert listed_kin(text) == expected


def test_children_listed_with_their_ages_are_the_speakers_and_their_ages_not():
    got = values(read(("user", "My three are Oliver, who is fourteen, Ruby, 12, and little Finn who's 6.")))
    assert {("child", "Oliver"), ("child", "Ruby"), ("child", "Finn")} <= got, got
    assert not any(a == "age" for a, _ in got), got
