"""Reading without an LLM: windows, record finishing, the retry rule, the budget, the rules reader."""
from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

import pytest

from twinfs.passages import Turn
from twinfs.reading import Budget, Draft, Outcome, Window, finish, make_reader, plan_windows
from twinfs.reading.prompts import ask, parse, schema
from twinfs.reading.rules import RulesReader
from twinfs.reading.third_person import third_person_verb

T0 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
THREAD = "th_0123456789abcdef"


def turns(n: int, start: datetime = T0, step: int = 30) -> list[Turn]:
    return [Turn(f"m{i}", "message", f"message number {i}", start + timedelta(seconds=step * i),
                 "user" if i % 2 == 0 else "assistant", "Alice" if i % 2 == 0 else None) for i in range(n)]


def sources(items: list[Turn]) -> dict[str, str]:
    return {t.id: f"passages/memory/messages/{THREAD}/p_{1 + i // 10:04d}.md" for i, t in enumerate(items)}


def plan(items: list[Turn], read: set[str] | None = None, now: datetime | None = None, quiet: int = 600,
         **kw) -> list[Window]:
    now = now or items[-1].at + timedelta(hours=1)
    return plan_windows(THREAD, items, sources(items), read or set(), now, quiet, **kw)


# windows

def test_windows_read_fixed_positions_with_context():
    windows = plan(turns(30), size=12, context=4)
    assert [w.new for w in windows] == [[f"m{i}" for i in range(a, b)] for a, b in ((0, 12), (12, 24), (24, 30))]
    assert [t.id for t in windows[1].turns] == [f"m{i}" for i in range(8, 24)]
    assert windows[0].turns[0].id == "m0"  # the first window has no context
    assert [w.position for w in windows] == [0, 1, 2]
    assert windows[1].sources["m12"].endswith("p_0002.md")
    assert [t.id for t in windows[2].reading] == [f"m{i}" for i in range(24, 30)]


def test_appending_turns_keeps_earlier_hashes():
    before = plan(turns(24))
    after = plan(turns(40))
    assert [w.hash for w in after[:2]] == [w.hash for w in before]


def test_partial_window_waits_for_a_quiet_conversation():
    items = turns(30)
    newest = items[-1].at
    talking = plan(items, now=newest + timedelta(seconds=599), quiet=600)
    assert [w.new[0] for w in talking] == ["m0", "m12"]  # full windows are ready at once
    quiet = plan(items, now=newest + timedelta(seconds=601), quiet=600)
    assert [w.new[0] for w in quiet] == ["m0", "m12", "m24"]
    assert plan(turns(5), now=T0, quiet=600) == []


def test_read_windows_are_skipped():
    items = turns(30)
    first = plan(items)
    again = plan(items, read={w.hash for w in first[:2]})
    assert [w.hash for w in again] == [first[2].hash]
    assert plan(items, read={w.hash for w in first}) == []


def test_an_edit_rereads_only_the_windows_holding_it():
    items = turns(36)
    read = {w.hash for w in plan(items)}
    edited = list(items)
    edited[5] = Turn("m5", "message", "an edited message", items[5].at, items[5].role, items[5].name)
    assert [w.position for w in plan(edited, read=read)] == [0]
    # a turn that is also context of the next window re-reads that window too
    edited = list(items)
    edited[20] = Turn("m20", "message", "an edited message", items[20].at, items[20].role, items[20].name)
    assert [w.position for w in plan(edited, read=read)] == [1, 2]


def test_window_hash_covers_ids_texts_and_new():
    items = turns(4)
    window = Window(THREAD, items, ["m2", "m3"], {})
    assert window.hash == Window(THREAD, list(items), ["m2", "m3"], {"m2": "x"}).hash
    assert window.hash != Window(THREAD, items, ["m3"], {}).hash
    renamed = [Turn("zz", t.kind, t.text, t.at, t.role, t.name) if t.id == "m2" else t for t in items]
    assert window.hash != Window(THREAD, renamed, ["zz", "m3"], {}).hash


# finishing

def window_for_finishing() -> Window:
    items = [
        Turn("a1", "message", "I moved to Lisbon last week.", datetime(2026, 10, 1, 9, 30, tzinfo=UTC),
             "user", "Alice Chen"),
        Turn("a2", "message", "Lisbon is lovely.", datetime(2026, 10, 1, 9, 31, tzinfo=UTC), "assistant"),
        Turn("a3", "message", "I start my new job next Monday.", datetime(2026, 10, 3, 8, 0, tzinfo=UTC),
             None, "Alice Chen"),
    ]
    return Window(THREAD, items, ["a1", "a2", "a3"], {t.id: f"passages/p_{t.id}.md" for t in items})


def test_finish_builds_records_with_code_decided_fields():
    window = window_for_finishing()
    records = finish(window, [
        Draft(kind="state", text="Alice lives in Lisbon", subject="Alice Chen", attribute="Home City",
              value="Lisbon", when="last week", turns=["a1", "elsewhere"]),
        Draft(kind="event", text="The assistant praised Lisbon", subject="assistant", turns=["a2"]),
        Draft(kind="plan", text="Alice starts a new job", subject="I", when="next Monday", turns=["a3"]),
        Draft(kind="event", text="Cited nothing it read", subject="Alice", turns=["zz"]),
    ])
    assert len(records) == 3
    lisbon, praised, job = records
    assert lisbon.turns == ["a1"] and lisbon.source == "passages/p_a1.md"
    assert (lisbon.said, lisbon.happened, lisbon.by) == ("2026-10-01", "2026-09-24", "user")
    assert (lisbon.attribute, lisbon.value) == ("home_city", "Lisbon")
    assert lisbon.id.startswith(f"{THREAD}#r") and len(lisbon.id) == len(THREAD) + 2 + 16
    assert lisbon.render() == "(happened 2026-09-24) Alice lives in Lisbon (Alice Chen · home_city: Lisbon) (state)"
    assert praised.by == "assistant" and praised.subject == "Assistant" and praised.happened == "2026-10-01"
    # no role means the user's words; "next Monday" resolves against the turn's own day (a Saturday)
    assert (job.by, job.subject, job.said, job.happened) == ("user", "Alice Chen", "2026-10-03", "2026-10-05")


def test_record_ids_are_stable_and_follow_content():
    window = window_for_finishing()
    draft = Draft(kind="state", text="Alice lives in Lisbon", subject="Alice Chen", turns=["a1"])
    other = Draft(kind="event", text="Alice moved", subject="Alice Chen", turns=["a1"])
    one = finish(window, [draft, other])
    two = finish(window, [other, draft])
    assert {r.id for r in one} == {r.id for r in two}
    changed = finish(window, [draft.model_copy(update={"text": "Alice lives in Porto"})])
    assert changed[0].id not in {r.id for r in one}
    assert finish(Window("th_ffffffffffffffff", window.turns, window.new, {}), [draft])[0].id != one[0].id


def test_duplicate_drafts_become_one_record_citing_both_turns():
    window = window_for_finishing()
    records = finish(window, [Draft(kind="state", text="Alice is busy", subject="Alice Chen", turns=["a1"]),
                              Draft(kind="state", text="Alice is busy", subject="Alice Chen", turns=["a1", "a2"])])
    assert len(records) == 1 and records[0].turns == ["a1", "a2"]


def test_a_plan_without_a_time_phrase_has_not_happened():
    window = window_for_finishing()
    record = finish(window, [Draft(kind="plan", text="Alice wants a dog", subject="Alice Chen", turns=["a3"])])[0]
    assert record.happened is None and record.render().startswith("(said 2026-10-03)")


# the LLM answer rule, with a scripted backend

def scripted(*answers: str):
    calls = []

    def complete(messages, wanted):
        calls.append((messages, wanted))
        return answers[len(calls) - 1], 100

    return complete, calls


def good_answer(turn: str) -> str:
    return json.dumps({"records": [{"kind": "event", "text": "Alice moved to Lisbon", "subject": "Alice Chen",
                                    "attribute": None, "value": None, "when": "last week", "turns": [turn]}]})


def test_a_bad_answer_is_asked_again_once():
    window = window_for_finishing()
    complete, calls = scripted("{not json", good_answer("a1"))
    outcome = ask(window, complete)
    assert outcome.failed is None and outcome.tokens == 200 and len(calls) == 2
    assert [r.happened for r in outcome.records] == ["2026-09-24"]


def test_a_bad_answer_twice_fails_without_records():
    window = window_for_finishing()
    complete, _ = scripted('{"facts": []}', '{"records": [{"kind": "mood"}]}')
    outcome = ask(window, complete)
    assert outcome.records == [] and outcome.tokens == 200 and outcome.failed.startswith("bad answer twice")


def test_the_schema_limits_turns_to_the_window():
    window = Window(THREAD, turns(6), ["m4", "m5"], {})
    wanted = schema(window, max_records=3)
    item = wanted["properties"]["records"]["items"]
    assert item["properties"]["turns"]["items"]["enum"] == ["m4", "m5"]
    assert set(item["required"]) == set(Draft.model_fields) and wanted["properties"]["records"]["maxItems"] == 3
    assert "$defs" not in json.dumps(wanted) and "$ref" not in json.dumps(wanted)
    assert parse('{"records": []}') == []
    with pytest.raises(ValueError):
        parse("[]")


# budget

class Clock:
    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def test_budget_waits_for_the_next_utc_day(tmp_path):
    clock = Clock(datetime(2026, 10, 1, 22, 0, tzinfo=UTC))
    budget = Budget(tmp_path / "budget.json", 1000, clock)
    assert budget.allows("acme") and not budget.waiting("acme")
    budget.spend("acme", 600)
    assert budget.allows("acme")
    budget.spend("acme", 400)
    assert not budget.allows("acme") and budget.waiting("acme") and budget.allows("other")
    assert budget.resumes_at("acme") == datetime(2026, 10, 2, tzinfo=UTC)
    # it is kept on disk
    assert Budget(tmp_path / "budget.json", 1000, clock).waiting("acme")
    clock.now = datetime(2026, 10, 1, 23, 59, 59, tzinfo=UTC)
    assert budget.waiting("acme")
    clock.now = datetime(2026, 10, 2, 0, 0, 1, tzinfo=UTC)
    assert budget.allows("acme") and budget.spent("acme") == 0
    assert budget.resumes_at("acme") == clock.now


def test_budget_none_is_unlimited(tmp_path):
    budget = Budget(tmp_path / "b.json", None, Clock(T0))
    budget.spend("acme", 10 ** 9)
    assert budget.allows("acme")


# the rules reader

CONVERSATION = [
    ("Caroline", "Hey Mel! Good to see you! How have you been?"),
    ("Melanie", "Hey Caroline! I'm swamped with the kids & work. What's up with you?"),
    ("Caroline", "I went to a LGBTQ support group yesterday and it was so powerful."),
    ("Melanie", "Wow, that's cool, Caroline! I'm so happy for you."),
    ("Caroline", "Thanks! I'm going to start researching adoption agencies next month."),
    ("Melanie", "I love painting, it helps me relax. I painted a lake sunrise last Saturday."),
    ("Caroline", "I moved to Boston in 2020. I work as a counselor at a youth center."),
    ("Melanie", "My husband and I have been married for five years. We have a dog named Max."),
]


def conversation() -> Window:
    items = [Turn(f"D1:{i + 1}", "message", text, T0 + timedelta(seconds=30 * i), "user", name)
             for i, (name, text) in enumerate(CONVERSATION)]
    return Window(THREAD, items, [t.id for t in items], {t.id: "passages/x.md" for t in items})


def test_rules_reader_reads_first_person_sentences_in_the_third_person():
    reader = make_reader()
    assert isinstance(reader, RulesReader)
    outcome = reader.read(conversation())
    assert outcome.failed is None and outcome.tokens > 50
    by_text = {r.text: r for r in outcome.records}
    group = by_text["Caroline went to a LGBTQ support group and it was so powerful"]
    assert (group.kind, group.subject, group.happened, group.said, group.turns) == \
        ("event", "Caroline", "2023-05-07", "2023-05-08", ["D1:3"])
    adoption = next(r for r in outcome.records if "adoption agencies" in r.text)
    assert adoption.kind == "plan" and adoption.happened == "2023-06-08" and adoption.text.startswith("Caroline is")
    assert by_text["Melanie loves painting, it helps Melanie relax"].kind == "preference"
    sunrise = by_text["Melanie painted a lake sunrise"]
    assert (sunrise.kind, sunrise.happened) == ("event", "2023-05-06")
    boston = next(r for r in outcome.records if "Boston" in r.text)
    assert (boston.attribute, boston.value, boston.happened) == ("home_city", "Boston", "2020-01-01")
    job = next(r for r in outcome.records if "counselor" in r.text)
    assert (job.attribute, job.value) == ("job", "counselor")
    dog = next(r for r in outcome.records if "Max" in r.text)
    assert (dog.attribute, dog.value) == ("pet", "dog named Max")
    married = next(r for r in outcome.records if "married" in r.text)
    assert married.kind in ("relation", "state") and married.text.startswith("Melanie's husband and")
    # greetings, questions, thanks and talk about the listener are not records
    assert not any("Good to see" in r.text or "happy for" in r.text for r in outcome.records)
    assert {r.subject for r in outcome.records} == {"Caroline", "Melanie"}
    assert all(r.by == "user" and r.source == "passages/x.md" for r in outcome.records)


def test_rules_reader_skips_the_assistant_and_context():
    window = conversation()
    items = [Turn(t.id, t.kind, t.text, t.at, "assistant", None) if t.id == "D1:3" else t for t in window.turns]
    outcome = RulesReader().read(Window(THREAD, items, ["D1:3", "D1:6"], {}))
    assert {r.turns[0] for r in outcome.records} == {"D1:6"}


def test_rules_reader_is_deterministic():
    a = RulesReader().read(conversation())
    b = RulesReader().read(conversation())
    assert [r.id for r in a.records] == [r.id for r in b.records]


@pytest.mark.parametrize("verb, expected", [("go", "goes"), ("try", "tries"), ("love", "loves"), ("have", "has"),
                                            ("watch", "watches"), ("play", "plays"), ("am", "is"), ("will", "will")])
def test_third_person_verb(verb, expected):
    assert third_person_verb(verb) == expected


def test_outcome_defaults():
    assert Outcome([], 0).failed is None
    assert date.fromisoformat(finish(conversation(), [Draft(kind="state", text="x y z", subject="Caroline",
                                                            turns=["D1:1"])])[0].said) == T0.date()


def test_an_answer_cut_off_by_its_token_limit_keeps_the_records_it_finished():
    one = json.loads(good_answer("a1"))["records"][0]
    cut = json.dumps({"records": [one, one | {"text": "Alice likes fado"}]})[:-30]
    assert [d.text for d in parse(cut)] == ["Alice moved to Lisbon"]
    with pytest.raises(ValueError):
        parse('{"records": [{"kind": "ev')


def test_a_copy_of_the_prompt_is_not_a_record():
    window = window_for_finishing()
    echo = json.loads(good_answer("a1"))
    echo["records"][0]["text"] = "[a1] READ · Thu 01 Oct 2026 · Alice Chen (user): I moved to Lisbon last week."
    with pytest.raises(ValueError):
        parse(json.dumps(echo))
    complete, _ = scripted(json.dumps(echo), json.dumps(echo))
    assert ask(window, complete).failed


@pytest.mark.parametrize("text, attribute, value", [
    ("I've just moved to Denver with my sister.", "home_city", "Denver"),
    ("I'm originally from Toronto, Canada.", "hometown", "Toronto"),
    ("I'm a nurse at the city hospital.", "job", "nurse"),
    ("I'm working at Google these days.", "employer", "Google"),
    ("I'm single again after a long relationship.", "relationship_status", "single"),
    ("I just turned 32 and had a party.", "age", "32"),
    ("I've got two kids who love soccer.", "children", "two kids"),
    ("My favorite book is Dune by Frank Herbert.", "favorite_book", "Dune by Frank Herbert"),
    ("We adopted a puppy named Shadow last month.", "pet", "puppy named Shadow"),
])
def test_rules_reader_fills_attributes_of_common_states(text, attribute, value):
    turn = Turn("x1", "message", text, T0, "user", "Dana")
    records = RulesReader().read(Window(THREAD, [turn], ["x1"], {})).records
    assert (attribute, value) in [(r.attribute, r.value) for r in records]


def test_rules_reader_states_what_people_tell_an_assistant():
    said = [("user", "Priya", "Big news: I live in Leeds now and work as a nurse at the General Infirmary."),
            ("user", "Priya", "My brother Arjun is visiting next week, by the way."),
            ("user", "Priya", "I'm vegan and I'm allergic to peanuts."),
            ("assistant", "Assistant", "You might enjoy a peanut-free Thai curry this weekend."),
            ("user", "Priya", "Our dog Biscuit loves the park. I play the cello and I love jazz."),
            ("user", "Priya", "I speak Hindi and English. I hate early mornings.")]
    items = [Turn(f"p{i}", "message", text, T0 + timedelta(minutes=i), role, name)
             for i, (role, name, text) in enumerate(said)]
    records = RulesReader().read(Window(THREAD, items, [t.id for t in items], {})).records
    stated = {(r.attribute, r.value) for r in records if r.attribute}
    assert {("home_city", "Leeds"), ("job", "nurse"), ("brother", "Arjun"), ("diet", "vegan"),
            ("allergy", "peanuts"), ("pet", "dog named Biscuit"), ("hobby", "cello"), ("likes", "jazz"),
            ("language", "Hindi"), ("language", "English"), ("dislikes", "early mornings")} <= stated
    texts = [r.text for r in records]
    assert "Priya lives in Leeds now and works as a nurse at the General Infirmary" in texts  # clean, agreeing
    # a second "I" after a time phrase opens a clause of its own: "… last month and I work" agrees too
    moved = Turn("q1", "message", "I moved to Porto last month and I work as a nurse.", T0, "user", "Dana")
    assert [r.text for r in RulesReader().read(Window(THREAD, [moved], ["q1"], {})).records
            if r.attribute == "job"] == ["Dana moved to Porto and Dana works as a nurse"]
    assert not any("Big news" in t or "by the way" in t for t in texts)
    brother = next(r for r in records if r.attribute == "brother")
    assert brother.kind == "plan" and brother.happened == "2023-05-15"  # "next week", said on 8 May 2023
    suggestion = next(r for r in records if r.by == "assistant")
    assert suggestion.text == "The assistant suggested Priya enjoy a peanut-free Thai curry this weekend"
    assert (suggestion.subject, suggestion.attribute, suggestion.value) == ("Priya", None, None)
    assert all(r.by == "user" for r in records if r.attribute)  # the assistant never sets her values


@pytest.mark.slow
def test_the_rules_reader_keeps_torch_out_of_a_process_that_does_not_use_it():
    """spaCy's thinc imports torch when it is installed (~250 MB resident) though the small English pipeline never
    calls it; the reader loads spaCy with torch hidden, and torch still imports for the code that uses it."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys\n"
            "from twinfs.reading.rules import nlp\n"
            "doc = nlp()('I moved to Lisbon with my cat Miso.')\n"
            "assert [t.dep_ for t in doc][:2] == ['nsubj', 'ROOT'], doc\n"
            "assert 'torch' not in sys.modules, 'spaCy brought torch in'\n"
            "from twinfs import torch_import\n"
            "assert float(torch_import.torch().ones(2).sum()) == 2.0\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[1],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
