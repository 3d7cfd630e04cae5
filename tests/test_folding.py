"""Folding records into pages, known lines, history and worked-out lines: pure functions on small real sets."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from twinfs.folding import fold, history, render_page, resolve_attributes, resolve_subjects, slug
from twinfs.known import known_lines, relevant
from twinfs.models import Record
from twinfs.worked import conflicts, count_line, span_line

TH1, TH2, TH3 = "th_8b5e5d4c8946d815", "th_a4c4bfb9e995f6bc", "th_0123456789abcdef"


def rec(n: int, text: str, subject: str = "Alice Chen", attribute: str | None = None, value: str | None = None,
        said: str = "2026-10-01", happened: str | None = "same", kind: str = "state", thread: str = TH1,
        by: str = "user", retracted: dict | None = None) -> Record:
    return Record(id=f"{thread}#r{n:016x}", kind=kind, text=text, subject=subject, attribute=attribute, value=value,
                  happened=said if happened == "same" else happened, said=said, by=by, turns=[f"msg-{n:03d}"],
                  source=f"passages/memory/messages/{thread}/p_0001.md", retracted=retracted)


BERLIN = rec(1, "Alice lives in Berlin", attribute="home_city", value="Berlin", said="2024-06-01", thread=TH2)
LISBON = rec(2, "Alice lives in Lisbon", subject="Alice", attribute="city_of_residence", value="Lisbon")
MOVED = rec(3, "Alice moved to Lisbon", kind="event", happened="2026-09-24")
MISO = rec(4, "Alice has a cat named Miso", subject="Alice", attribute="pet", value="cat named Miso",
           said="2025-03-02")
VEGETARIAN = rec(5, "Alice is vegetarian", attribute="diet", value="vegetarian", said="2025-01-10",
                 kind="preference", thread=TH2)
FISH = rec(6, "Alice eats fish now", attribute="dietary_preference", value="eats fish", said="2026-02-14",
           kind="preference", thread=TH3)
PURRS = rec(7, "Miso purrs at night", subject="Miso", said="2025-03-02")
MOVE_SET = [BERLIN, LISBON, MOVED, MISO, VEGETARIAN, FISH, PURRS]
KNOWN_LISBON = "- Alice Chen · home_city: Lisbon [said 2026-10-01]; Berlin [said 2024-06-01]"


def paths_of(records: list[Record]) -> dict[str, str]:
    per_thread: dict[str, int] = {}
    out = {}
    for r in records:
        thread = r.id.split("#")[0]
        per_thread[thread] = per_thread.get(thread, 0) + 1
        out[r.id] = f"records/{thread}.json#{per_thread[thread]}"
    return out


def page_of(pages, subject):
    return next(p for p in pages if p.subject == subject)


def test_a_move_gives_the_documented_known_line():
    pages = fold(MOVE_SET)
    assert known_lines(pages, [("Alice Chen", "home_city")]) == ["Values as stated, newest said first:", KNOWN_LISBON]
    assert known_lines(pages, [("alice", "city")])[1] == KNOWN_LISBON  # through an alias and a synonym
    assert known_lines(pages, [("Bob", None)]) == []
    assert known_lines(pages, [("Alice Chen", "shoe_size")]) == []


def test_a_page_holds_every_live_record_newest_first():
    alice = page_of(fold(MOVE_SET), "Alice Chen")
    assert alice.slug == "alice-chen"
    assert [r.id for r in alice.records] == [r.id for r in (LISBON, MOVED, FISH, MISO, VEGETARIAN, BERLIN)]
    assert [a.name for a in alice.attributes] == ["diet", "home_city", "pet"]
    home = next(a for a in alice.attributes if a.name == "home_city")
    assert [(v.value, v.said, v.records) for v in home.values] == [
        ("Lisbon", "2026-10-01", [LISBON.id]), ("Berlin", "2024-06-01", [BERLIN.id])]


def test_subjects_fold_by_first_or_last_name_unless_ambiguous():
    records = [rec(1, "x", subject="Alice"), rec(2, "x", subject="alice  chen"), rec(3, "x", subject="Alice Chen"),
               rec(4, "x", subject="Chen"), rec(5, "x", subject="Alex Kim"), rec(6, "x", subject="Alex Ruiz"),
               rec(7, "x", subject="Alex"), rec(8, "x", subject="Miso")]
    assert resolve_subjects(records) == {
        "Alice": "Alice Chen", "alice  chen": "Alice Chen", "Alice Chen": "Alice Chen", "Chen": "Alice Chen",
        "Alex Kim": "Alex Kim", "Alex Ruiz": "Alex Ruiz", "Alex": "Alex", "Miso": "Miso"}
    assert [p.subject for p in fold(records)] == ["Alex", "Alex Kim", "Alex Ruiz", "Alice Chen", "Miso"]


def test_a_middle_name_does_not_split_a_person():
    records = [rec(1, "x", subject="Alice Mei Chen"), rec(2, "x", subject="Alice Chen"), rec(3, "x", subject="Alice")]
    assert set(resolve_subjects(records).values()) == {"Alice Mei Chen"}


def test_attribute_synonyms_fold_to_the_most_used_name():
    records = [rec(1, "x", attribute="home_city", value="a"), rec(2, "x", attribute="home_city", value="b"),
               rec(3, "x", attribute="city_of_residence", value="c"), rec(4, "x", attribute="city", value="d"),
               rec(5, "x", attribute="lives_in", value="e"), rec(6, "x", attribute="occupation", value="f"),
               rec(7, "x", attribute="job", value="g"), rec(8, "x", attribute="hometown", value="h"),
               rec(9, "x", attribute="favourite_colour", value="i"),
               rec(10, "x", attribute="favorite_color", value="j")]
    folded = resolve_attributes(records)
    assert {folded[n] for n in ("home_city", "city_of_residence", "city", "lives_in")} == {"home_city"}
    assert folded["occupation"] == folded["job"] == "job"
    assert folded["hometown"] == "hometown"  # where one is from is not where one lives
    assert folded["favourite_colour"] == folded["favorite_color"]


def test_the_embedder_folds_names_the_table_does_not_know(embedder):
    records = [rec(1, "x", attribute="vehicle", value="a"), rec(2, "x", attribute="car", value="b"),
               rec(3, "x", attribute="car", value="c"), rec(4, "x", attribute="home_city", value="d"),
               rec(5, "x", attribute="city_of_residence", value="e"), rec(6, "x", attribute="favorite_city", value="f"),
               rec(7, "x", attribute="hometown", value="g")]
    folded = resolve_attributes(records, embedder)
    assert folded["vehicle"] == folded["car"] == "car"  # no table names cars: MiniLM folds them
    assert folded["city_of_residence"] == "home_city"
    assert len({folded["home_city"], folded["favorite_city"], folded["hometown"]}) == 3
    assert resolve_attributes(records[:2])["vehicle"] == "vehicle"  # without the embedder they stay apart
    assert known_lines(fold(MOVE_SET, embedder), [("Alice", "home_city")])[1] == KNOWN_LISBON


def test_a_changed_preference_shows_newest_first():
    lines = known_lines(fold(MOVE_SET), [("Alice Chen", "diet")])
    assert lines[1] == "- Alice Chen · diet: eats fish [said 2026-02-14]; vegetarian [said 2025-01-10]"


def test_one_value_said_twice_is_one_value_with_both_records():
    again = rec(9, "Alice lives in lisbon", attribute="home_city", value="lisbon ", said="2026-10-05", thread=TH3)
    home = page_of(fold(MOVE_SET + [again]), "Alice Chen").attributes[1]
    assert [(v.value, v.said, v.records) for v in home.values][0] == ("lisbon", "2026-10-05", [again.id, LISBON.id])
    assert len(home.values) == 2


def test_retracted_records_disappear():
    gone = LISBON.model_copy(update={"retracted": {"reason": "wrong", "at": "2026-10-02"}})
    pages = fold([BERLIN, gone, MOVED])
    assert known_lines(pages, [("Alice Chen", "home_city")])[1] == "- Alice Chen · home_city: Berlin [said 2024-06-01]"
    assert gone.id not in {r.id for r in page_of(pages, "Alice Chen").records}
    assert [h["value"] for h in history([BERLIN, gone], "Alice")] == ["Berlin"]


def test_before_gives_the_page_as_it_stood_then():
    pages = fold(MOVE_SET, before="2026-10-01")
    assert known_lines(pages, [("Alice Chen", "home_city")])[1] == "- Alice Chen · home_city: Berlin [said 2024-06-01]"
    assert LISBON.id not in {r.id for r in page_of(pages, "Alice Chen").records}
    assert known_lines(fold(MOVE_SET, before="2026-10-02T00:00:00Z"), [("Alice", "home_city")])[1] == KNOWN_LISBON


def test_render_page_has_front_matter_and_relative_links(tmp_path: Path):
    records = MOVE_SET
    alice = page_of(fold(records), "Alice Chen")
    paths = paths_of(records)
    text = render_page(alice, paths)
    _, front, body = text.split("---\n", 2)
    assert yaml.safe_load(front) == {"subject": "Alice Chen", "slug": "alice-chen", "aliases": ["Alice"],
                                     "updated": "2026-10-01"}
    assert body.startswith("# Alice Chen\n")
    assert "\n## home_city\n- Lisbon — said 2026-10-01 (happened 2026-10-01) · " \
           f"[{LISBON.id}](../records/{TH1}.json)" in body
    assert "\n## Other facts\n- (happened 2026-09-24) Alice moved to Lisbon (event) · " in body
    assert body.index("Lisbon — said") < body.index("Berlin — said")
    # every link resolves from pages/ to a file of the vault laid out as the spec says
    for thread in (TH1, TH2, TH3):
        (tmp_path / "records").mkdir(exist_ok=True)
        (tmp_path / "records" / f"{thread}.json").write_text("[]")
        (tmp_path / "passages/memory/messages" / thread).mkdir(parents=True)
        (tmp_path / "passages/memory/messages" / thread / "p_0001.md").write_text("x")
    (tmp_path / "pages").mkdir()
    links = re.findall(r"\]\(([^)]+)\)", body)
    assert any(link.startswith("../passages/") for link in links)
    for link in links:
        assert (tmp_path / "pages" / link).resolve().is_file(), link


def test_relevant_finds_subject_and_attribute():
    pages = fold(MOVE_SET)
    assert relevant(pages, "Where does Alice live?") == [("Alice Chen", "home_city")]
    assert relevant(pages, "What is Alice's cat called?") == [("Alice Chen", "pet")]
    assert relevant(pages, "Is Alice still vegetarian?") == [("Alice Chen", "diet")]
    assert relevant(pages, "Tell me about Alice Chen", limit=2) == [("Alice Chen", "home_city"), ("Alice Chen", "diet")]
    assert relevant(pages, "What's the weather like?") == []
    acme = rec(9, "Alice works at Acme", attribute="employer", value="Acme")
    assert relevant(fold(MOVE_SET + [acme]), "Where does Alice work?") == [("Alice Chen", "employer")]


def test_relevant_with_the_embedder(embedder):
    pages = fold(MOVE_SET, embedder)
    assert relevant(pages, "Where does Alice live?", embedder)[0] == ("Alice Chen", "home_city")
    assert relevant(pages, "What is Alice's cat called?", embedder)[0] == ("Alice Chen", "pet")
    assert relevant(pages, "What food does Alice avoid?", embedder)[0] == ("Alice Chen", "diet")


def test_history_is_oldest_first_with_record_ids():
    rows = history(MOVE_SET, "alice", "city")
    assert [(r["value"], r["said"], r["records"], r["attribute"], r["subject"], r["by"]) for r in rows] == [
        ("Berlin", "2024-06-01", [BERLIN.id], "home_city", "Alice Chen", "user"),
        ("Lisbon", "2026-10-01", [LISBON.id], "home_city", "Alice Chen", "user")]
    assert [r["attribute"] for r in history(MOVE_SET, "Alice Chen")] == ["home_city", "diet", "pet", "diet",
                                                                          "home_city"]
    assert history(MOVE_SET, "Bob") == []
    assert history(MOVE_SET, "Miso") == []  # known, but with no attribute


def test_conflict_on_the_same_day():
    porto = rec(8, "Alice lives in Porto", attribute="home_city", value="Porto", thread=TH3)
    assert conflicts(fold(MOVE_SET + [porto]))[-1] == \
        f"Conflict: Alice Chen · home_city was stated as Lisbon and as Porto on 2026-10-01 ({LISBON.id}, {porto.id})"
    assert not any(line.startswith("Conflict") for line in conflicts(fold(MOVE_SET)))


def test_two_values_the_fold_question_found_both_holding_are_no_conflict():
    porto = rec(8, "Alice lives in Porto", attribute="home_city", value="Porto", thread=TH3)
    reason = "model fold (qwen-coder-1.5b): home holds as both 'Lisbon' and 'Porto' (both said 2026-10-01)"
    lisbon = LISBON.model_copy(update={"held": {"reason": reason, "at": "2026-10-02T00:00:00Z", "with": [porto.id]}})
    porto = porto.model_copy(update={"held": {"reason": reason, "at": "2026-10-02T00:00:00Z", "with": [LISBON.id]}})
    records = [r for r in MOVE_SET if r.id != LISBON.id] + [lisbon, porto]
    lines = conflicts(fold(records))
    assert f"Both hold: Alice Chen · home_city holds as Lisbon and as Porto, as the fold question found " \
        f"({LISBON.id}, {porto.id})" in lines
    assert not any(line.startswith(("Conflict", "Changed: Alice Chen · home_city")) for line in lines)
    # held beside another value only: a third said the same day is still a conflict
    third = rec(12, "Alice lives in Faro", attribute="home_city", value="Faro", thread=TH3)
    assert conflicts(fold(records + [third]))[-1].startswith("Conflict: Alice Chen · home_city was stated as")


def test_a_diet_that_changes_says_what_changed_and_a_like_that_adds_does_not():
    coriander = rec(9, "Alice dislikes coriander", attribute="dislikes", value="coriander", said="2024-06-01")
    tea = rec(10, "Alice dislikes tea", attribute="dislikes", value="tea", said="2026-01-01")
    assert conflicts(fold([VEGETARIAN, FISH, coriander, tea])) == [
        "Changed: Alice Chen · diet was vegetarian (said 2025-01-10), then eats fish (said 2026-02-14): the newer "
        f"holds unless corrected ({VEGETARIAN.id}, {FISH.id})"]  # two dislikes both hold
    asked = conflicts(fold(MOVE_SET), [("Alice Chen", "diet")])  # a brief says what changed of what it asks
    assert len(asked) == 1 and asked[0].startswith("Changed: Alice Chen · diet was vegetarian")
    guess = rec(11, "Alice eats meat", attribute="diet", value="eats meat", said="2026-03-01", by="assistant")
    assert conflicts(fold([VEGETARIAN, FISH, guess]))[0].startswith(
        "Conflict: Alice Chen · diet was stated by the user as eats fish")


def test_conflict_when_only_the_assistant_overrules_the_user():
    guess = rec(8, "Alice lives in Porto", attribute="home_city", value="Porto", said="2026-10-03", by="assistant")
    assert conflicts(fold([BERLIN, guess])) == [
        "Conflict: Alice Chen · home_city was stated by the user as Berlin on 2024-06-01 and by the assistant as "
        f"Porto on 2026-10-03 ({BERLIN.id}, {guess.id})"]


GYM = [rec(20, "Alice went to the gym", kind="event", said="2026-09-01"),
       rec(21, "Alice worked out at the gym", kind="event", said="2026-09-08"),
       rec(22, "Alice went to the gym again", kind="event", said="2026-09-15"),
       rec(23, "Alice went to the gym", kind="event", said="2026-09-16", happened="2026-09-15", thread=TH2),
       rec(24, "Alice plans to go to the gym", kind="plan", said="2026-09-20", happened="2026-09-22"),
       rec(25, "Bob went to the gym", subject="Bob", kind="event", said="2026-09-03"),
       rec(26, "Alice ran a marathon", kind="event", said="2026-05-04")]


def test_count_line_counts_matching_events():
    assert count_line(GYM, "How many times did Alice go to the gym?") == \
        "Count: 3 records of Alice going to the gym (2026-09-01, 2026-09-08, 2026-09-15)"
    assert count_line(GYM, "How many times has anyone been to the gym?").startswith("Count: 4 records")
    assert count_line(GYM, "How many marathons has Alice run?") == \
        'Count: 1 records of "marathons has Alice run" (2026-05-04)'
    assert count_line(GYM, "Where does Alice live?") is None
    assert count_line(GYM, "How many times did Alice go skiing?") is None
    assert count_line(GYM, "How many days ago did Alice go to the gym?") is None
    assert count_line(GYM, "How many times did Alice go to the gym, and when did she last go?").startswith("Count: 3")


def test_span_line_measures_days_to_the_as_of_day():
    records = MOVE_SET + GYM
    assert span_line(records, "When did Alice move to Lisbon?", "2026-10-01") == \
        "Span: Alice moved to Lisbon on 2026-09-24, 7 days before 2026-10-01."
    assert span_line(records, "How long ago did Alice go to the gym?", "2026-10-01") == \
        "Span: Alice went to the gym again on 2026-09-15, 16 days (about 2 weeks) before 2026-10-01."
    assert span_line(records, "When did Alice first go to the gym?", "2026-10-01").startswith(
        "Span: Alice went to the gym on 2026-09-01, 30 days")
    assert span_line(records, "How many days ago did Alice go to the gym?", "2026-09-20") == \
        "Span: Alice went to the gym again on 2026-09-15, 5 days before 2026-09-20."
    assert span_line(records, "How long has it been since Alice moved to Lisbon?", "2027-01-01") == \
        "Span: Alice moved to Lisbon on 2026-09-24, 99 days (about 3 months) before 2027-01-01."
    assert span_line(records, "When did Alice move to Lisbon?", "2026-09-01") is None  # not yet said then
    assert span_line(records, "Where does Alice live?", "2026-10-01") is None


@pytest.mark.parametrize("subject, expected", [
    ("Alice Chen", "alice-chen"), ("  Zoë  O'Brien ", "zoe-o-brien"), ("../x", "x"),
    ("../../etc/passwd", "etc-passwd"),
    ("Miso", "miso"), ("a" * 80, "a" * 60), ("x" + "-" * 70 + "y", "x-y"), ("CON.txt", "con-txt")])
def test_slug(subject, expected):
    assert slug(subject) == expected


@pytest.mark.parametrize("subject", ["", "   ", "张伟", "🐱", "..", "/"])
def test_slug_is_never_empty_and_always_safe(subject):
    name = slug(subject)
    assert re.fullmatch(r"[a-z0-9][a-z0-9-]{0,59}", name)
    assert slug("张伟") != slug("李娜")


def test_pages_never_share_a_slug():
    pages = fold([rec(1, "x", subject="Zoë"), rec(2, "x", subject="Zoe!"), rec(3, "x", subject="张伟")])
    assert len({p.slug for p in pages}) == 3


TRIP = rec(30, "Alice Chen's sister Mei is visiting, so Alice Chen is planning a weekend trip to Porto with her",
           kind="plan", said="2026-10-01", happened="2026-11-01")
TRIP_DOC = rec(31, "Porto trip plan: train from Lisbon to Porto, a boat tour on the Douro", kind="plan",
               said="2026-10-03", happened="2026-11-07", thread=TH2)
MADRID = rec(32, "Alice is planning a trip to Madrid in spring", kind="plan", said="2026-10-04",
             happened="2027-03-01", thread=TH3)
BOB_TRIP = rec(33, "Bob is planning a trip to Rome", subject="Bob", kind="plan", said="2026-10-04",
               happened="2026-12-01")


def test_count_line_counts_plans_and_one_trip_told_twice_once():
    records = [TRIP, TRIP_DOC, MADRID, BOB_TRIP, rec(34, "Alice went on a trip to Faro", kind="event",
                                                     said="2026-08-01")]
    assert count_line(records, "How many trips is Alice planning?") == \
        'Count: 2 records of "trips is Alice planning" (2026-11-01, 2027-03-01)'
    assert count_line(records, "How many trips are planned?").startswith("Count: 3 records")  # Bob's too
    assert count_line(records, "How many times did Alice go on a trip?") == \
        "Count: 1 records of Alice going on a trip (2026-08-01)"
    likes = [rec(35, "Alice loves fado", kind="preference", attribute="likes", value="fado"),
             rec(36, "Alice loves the tram", kind="preference", attribute="likes", value="the tram"),
             rec(37, "Alice went to a fado bar", kind="event")]
    assert count_line(likes, "How many things does Alice love?") is None  # "things" names nothing she said
    assert count_line(likes, "How many fado songs does Alice love?") is None  # both words must be said
    pets = [rec(38, "Alice has a cat named Miso", attribute="pet", value="cat named Miso"),
            rec(39, "Alice has a cat named Tofu", attribute="pet", value="cat named Tofu", said="2026-10-02")]
    assert count_line(pets, "How many cats does Alice have?").startswith("Count: 2 records")
