"""The rules reader makes no wrong record of the kinds the judged sample of #31 found (a value cut inside its
phrase, a sentence whose "I" is left out read as a garble, what a question asks for taken as the thing named, a
purpose read as a fact, a past verb given a present's "-s") and reads two plain values it missed (a status a future
presupposes, habits said as verbs). Small conversations written for these tests."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from twinfs.passages import Turn
from twinfs.reading import Window
from twinfs.reading.rules import RulesReader

T0 = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)


def read(*said: tuple[str, str]) -> list:
    """`said`: (speaker, text) pairs, every one a person's turn; the records of the last speaker's turns."""
    items = [Turn(f"t{i}", "message", text, T0 + timedelta(minutes=i), "user", who)
             for i, (who, text) in enumerate(said)]
    return RulesReader().read(Window("th_wrong", items, [t.id for t in items], {})).records


def texts(records) -> list[str]:
    return [r.text for r in records]


def test_a_value_cut_inside_its_phrase_is_no_value():
    records = read(("Noor", "Now I'm passionate about creating a safe, inviting place for people to grow."),
                   ("Noor", "Plus, I'm learning how to market myself and boost my brand."),
                   ("Noor", "I'm passionate about fashion trends and finding unique pieces."))
    values = {r.value for r in records if r.value}
    assert "creating a safe" not in values
    assert not any(v.startswith("how to") or v.endswith(" boost") or v.endswith(" unique") for v in values)
    # the records themselves stay: what was said is true and whole
    assert any("creating a safe, inviting place for people to grow" in t for t in texts(records))
    assert any("market themself and boost their brand" in t for t in texts(records))


def test_a_first_clause_without_its_i_is_the_speakers():
    records = read(("Gina", "Anything new?"),
                   ("Jon", "Hi Gina! Nice to see you too. Lost my job as a welder yesterday, so I'm gonna try "
                           "starting my own bakery."))
    jon = [r for r in records if r.subject == "Jon"]
    assert jon and all(r.text.startswith("Jon lost their job as a welder") for r in jon), texts(jon)
    assert not any("Lost Jon's" in t for t in texts(records))
    assert ("former_job", "welder") in {(r.attribute, r.value) for r in jon}
    lost = next(r for r in jon if r.attribute == "former_job")
    assert lost.happened == (T0 + timedelta(minutes=1) - timedelta(days=1)).date().isoformat()


def test_what_a_question_asks_for_is_no_referent():
    records = read(("John", "Movie marathons with friends, right? So, what's your favorite genre?"),
                   ("Tim", "I'm a huge fan of this genre! Here's a pic."))
    assert not any("favorite" in (r.value or "") or "favorite genre" in r.text for r in records), texts(records)
    records = read(("John", "Who was the main actress in Titanic?"),
                   ("Tim", "I've heard about her a lot lately."))
    assert not any("Titanic" in t for t in texts([r for r in records if r.subject == "Tim"])), texts(records)


def test_a_purpose_is_no_fact_of_its_own():
    records = read(("Jon", "I've been into dancing since I was a kid and it's been my passion and escape. I wanna "
                           "start a dance studio so I can teach others the joy that dancing brings me."))
    assert not any(t.startswith("Jon can teach") for t in texts(records)), texts(records)


def test_a_past_tagged_as_a_present_keeps_its_form():
    records = read(("Joanna", "I've been reading a lot this week! There's a lot of good books I forgot I owned."))
    assert records and not any("forgots" in t for t in texts(records)), texts(records)
    assert any("Joanna forgot" in t for t in texts(records)), texts(records)
    records = read(("John", "I need to find a better way to focus my energy on the campaign."))
    assert any(t.startswith("John needs to find") for t in texts(records)), texts(records)


def test_a_status_a_future_presupposes_is_the_speakers():
    records = read(("Lena", "It'll be hard as a single mom, but I'm ready for it!"))
    found = {(r.attribute, r.value) for r in records if r.attribute}
    assert ("relationship_status", "single") in found, found
    records = read(("Lena", "If I were a single mom, I'd move closer to my parents."))
    assert not any(r.attribute == "relationship_status" for r in records)


def test_habits_said_as_verbs_are_hobbies():
    records = read(("Ines", "I love my friends. We usually watch films, swim, and have quiz nights at my flat."))
    found = {(r.attribute, r.value) for r in records if r.attribute}
    assert {("hobby", "watch films"), ("hobby", "swim")} <= found, found
    assert not any(v.startswith("have") for a, v in found), found
