"""The brief on small real conversations: known, facts, notes, worked_out, held, before, corrections, lineage."""
from __future__ import annotations

import json
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from twinfs import EndUser, Memory, Phase, Settings
from twinfs.models import AddRequest, CorrectRequest, HistoryRequest, Item, LineageRequest, SearchRequest, StatusRequest
from twinfs.reading import Draft, Outcome, finish

SAMPLE = Path(__file__).resolve().parents[1] / "sample_vault.jsonl"
SCRIPT = {
    "msg-101": [Draft(kind="state", text="Alice lives in Berlin", subject="Alice Chen", attribute="home_city",
                      value="Berlin", turns=["msg-101"]),
                Draft(kind="state", text="Alice works as a product designer", subject="Alice", attribute="job",
                      value="product designer", turns=["msg-101"])],
    "msg-103": [Draft(kind="preference", text="Alice is vegetarian", subject="Alice", attribute="diet",
                      value="vegetarian", turns=["msg-103"])],
    "msg-104": [Draft(kind="plan", text="Alice could cook a weekly lentil curry", subject="Alice Chen",
                      turns=["msg-104"])],
    "msg-001": [Draft(kind="state", text="Alice lives in Lisbon", subject="Alice Chen", attribute="city_of_residence",
                      value="Lisbon", turns=["msg-001"]),
                Draft(kind="event", text="Alice moved to Lisbon", subject="Alice Chen", when="last week",
                      turns=["msg-001"])],
    "msg-003": [Draft(kind="relation", text="Alice has a cat called Miso", subject="Alice", attribute="pet",
                      value="Miso", turns=["msg-003"]),
                Draft(kind="preference", text="Alice eats fish again", subject="Alice", attribute="diet",
                      value="eats fish", turns=["msg-003"])],
}


class Scripted:
    name = "scripted"

    def read(self, window):
        drafts = [d for t in window.reading for d in SCRIPT.get(t.id, [])]
        return Outcome(records=finish(window, drafts), tokens=5 * len(window.new))


NOW = datetime(2026, 10, 5, 12, 0, tzinfo=UTC)
USER = EndUser(org="acme", project="app", account="alice")


def items(ids: set[str] | None = None) -> list[Item]:
    out = [Item.model_validate_json(line) for line in SAMPLE.read_text().splitlines() if line.strip()]
    return [i for i in out if ids is None or i.id in ids]


@pytest.fixture
def memory(tmp_path, embedder):
    settings = Settings(home=tmp_path, reading=True, quiet_seconds=0, fold_seconds=0)
    with Memory(settings, embedder=embedder, reader=Scripted(), clock=lambda: NOW) as m:
        m.add(USER, AddRequest(items=items(), wait=True))
        m.idle(60)
        yield m


@pytest.mark.slow
def test_items_go_through_every_phase(memory):
    phases = memory.status(USER, StatusRequest(ids=["msg-001", "msg-104", "doc-porto"])).phases
    assert phases == {"msg-001": Phase.folded, "msg-104": Phase.folded, "doc-porto": Phase.folded}
    root = memory.home / "users" / USER.dirname
    page = (root / "pages" / "alice-chen.md").read_text()
    assert page.startswith("---\n") and "Lisbon" in page and "Berlin" in page
    assert "](../records/th_" in page  # relative links that work in an editor and in Obsidian
    log = memory.space(USER).vault.repo.git.log("--format=%s").splitlines()
    assert any(m.startswith("fold: ") for m in log) and any(m.startswith("read: ") for m in log)


def test_the_brief_knows_where_alice_lives_now_and_before(memory):
    brief = memory.search(USER, SearchRequest(query="Where does Alice live?"))
    assert brief.known[0] == "Values as stated, newest said first:"
    assert "- Alice Chen · home_city: Lisbon [said 2026-10-01]; Berlin [said 2024-06-01]" in brief.known
    assert brief.facts and any("Lisbon" in f.text for f in brief.facts)
    fact = next(f for f in brief.facts if "lives in Lisbon" in f.text)
    assert fact.text.startswith("(happened 2026-10-01) Alice lives in Lisbon (Alice Chen · ")
    assert fact.source.startswith("passages/memory/messages/") and fact.path.startswith(f"records/{fact.thread}.json#")
    assert brief.filtered is True and brief.held is True
    assert 1 <= brief.found <= 3 and any("Lisbon" in h.text for h in brief.hits)

    then = memory.search(USER, SearchRequest(query="Where does Alice live?", before="2025-01-01"))
    assert "- Alice Chen · home_city: Berlin [said 2024-06-01]" in then.known
    assert all("Lisbon" not in line for line in then.known)
    assert all(h.said < "2025-01-01" for h in then.hits) and all("Lisbon" not in f.text for f in then.facts or [])

    moved = memory.search(USER, SearchRequest(query="When did Alice move to Lisbon?", fast=True))
    event = next(f for f in moved.facts if "moved to Lisbon" in f.text)
    assert event.text.startswith("(happened 2026-09-2")  # "last week", resolved from the turn's own day
    assert moved.filtered is False and moved.held is None


def test_a_preference_that_changes_is_newest_first(memory):
    brief = memory.search(USER, SearchRequest(query="What is Alice's diet?", fast=True))
    line = next(x for x in brief.known if "· diet:" in x)
    assert line == "- Alice Chen · diet: eats fish [said 2026-10-01]; vegetarian [said 2024-06-01]"
    history = memory.history(USER, HistoryRequest(subject="Alice", attribute="diet"))
    assert [(v.value, v.said) for v in history.values] == [("vegetarian", "2024-06-01"), ("eats fish", "2026-10-01")]
    assert all(v.records and v.records[0].startswith("th_") for v in history.values)


def test_notes_say_whose_words_and_what_is_not_read_yet(memory):
    brief = memory.search(USER, SearchRequest(query="What could Alice cook, like a lentil curry?", fast=True))
    suggestion = next(f for f in brief.facts if "lentil curry" in f.text)
    assert any(suggestion.id in n and "assistant's suggestion" in n for n in brief.notes)
    # a newer turn, not read yet (the reader waits for a quiet spell): its passage is newer than every fact
    later = [Item(id="msg-006", kind="message", conversation="moving", role="user", name="Alice Chen",
                  text="Update: Mei cancelled, so the Porto trip moves to December.", at="2026-10-04T18:00:00Z")]
    memory.reading.quiet_seconds = 10 ** 6
    memory.add(USER, AddRequest(items=later, wait=True))
    memory.idle(30)
    fresh = memory.search(USER, SearchRequest(query="When is the Porto trip with Mei?", fast=True))
    assert any(h.turns[-1] == "msg-006" for h in fresh.hits)
    assert any("newer than every fact (not read yet)" in n for n in fresh.notes)


def test_worked_out_lines_are_computed_not_guessed(memory):
    brief = memory.search(USER, SearchRequest(query="How long ago did Alice move to Lisbon?", fast=True))
    assert any(line.startswith("Span: ") and "2026-10-05" in line for line in brief.worked_out or [])


def test_a_correction_changes_known_and_a_revert_undoes_it(memory):
    brief = memory.search(USER, SearchRequest(query="Where does Alice live?", fast=True))
    fact = next(f for f in brief.facts if "lives in Lisbon" in f.text)
    file = memory.home / "users" / USER.dirname / fact.path.split("#")[0]
    ids = [r["id"] for r in json.loads(file.read_text())]
    done = memory.correct(USER, CorrectRequest(id=fact.id, reason="she moved to Porto, not Lisbon", value="Porto"))
    assert done.retracted and done.replaced_by and done.commit
    assert [r["id"] for r in json.loads(file.read_text())] == ids + [done.replaced_by]  # every #N stands
    after = memory.search(USER, SearchRequest(query="Where does Alice live?", fast=True))
    assert "- Alice Chen · home_city: Porto [said 2026-10-01]; Berlin [said 2024-06-01]" in after.known
    assert all(f.id != fact.id for f in after.facts)  # search stops returning the retracted record
    lineage = memory.lineage(USER, LineageRequest(id=fact.id))
    assert lineage.record.retracted["reason"].startswith("she moved")
    assert lineage.turns[0].id == "msg-001" and "moved to Lisbon" in lineage.turns[0].text
    assert "msg-001" in lineage.source.content
    assert [c.message.split(":")[0] for c in lineage.commits] == ["correct", "read"]

    root = memory.home / "users" / USER.dirname
    subprocess.run(["git", "-C", str(root), "revert", "--no-edit", done.commit], check=True, capture_output=True)
    memory.reindex(USER)
    back = memory.search(USER, SearchRequest(query="Where does Alice live?", fast=True))
    assert "- Alice Chen · home_city: Lisbon [said 2026-10-01]; Berlin [said 2024-06-01]" in back.known
    assert any(f.id == fact.id for f in back.facts)


def test_a_correction_survives_a_re_read_of_its_window(memory):
    """Another turn of a read window is edited: the window is read again, and what a person retracted or
    corrected there stays so."""
    brief = memory.search(USER, SearchRequest(query="Which pet does Alice have?", fast=True))
    pet = next(f for f in brief.facts if "cat called Miso" in f.text)
    home = next(f for f in memory.search(USER, SearchRequest(query="Where does Alice live?", fast=True)).facts
                if "lives in Lisbon" in f.text)
    memory.correct(USER, CorrectRequest(id=pet.id, reason="that is the neighbour's cat"))
    memory.correct(USER, CorrectRequest(id=home.id, reason="she moved to Porto", value="Porto"))
    edited = [i for i in items({"msg-002"})][0].model_copy(update={"text": "Congratulations on the new flat!"})
    memory.add(USER, AddRequest(items=[edited], wait=True))
    assert memory.idle(60)
    assert memory.status(USER, StatusRequest(ids=["msg-002"])).phases["msg-002"] == Phase.folded
    records = json.loads((memory.home / "users" / USER.dirname / "records" /
                          f"{pet.id.split('#')[0]}.json").read_text())
    assert next(r for r in records if r["id"] == pet.id)["retracted"]["reason"] == "that is the neighbour's cat"
    after = memory.search(USER, SearchRequest(query="Which pet does Alice have?", fast=True))
    assert all(f.id != pet.id for f in after.facts or [])
    where = memory.search(USER, SearchRequest(query="Where does Alice live?", fast=True))
    assert any(line.startswith("- Alice Chen · home_city: Porto") for line in where.known), where.known


def test_scope_or_after_gives_the_ranked_list_with_facts(memory):
    ranked = memory.search(USER, SearchRequest(query="Porto", scope="passages/memory", after="2026-10-02"))
    assert ranked.known is None and ranked.notes is None and ranked.held is None
    assert [h.turns for h in ranked.hits] == [["doc-porto"]]
    facts = memory.search(USER, SearchRequest(query="cat", scope="records/"))
    assert facts.hits == [] and facts.facts and "Miso" in facts.facts[0].text


def test_records_file_is_plain_json_with_stable_ids(memory):
    root = memory.home / "users" / USER.dirname
    files = sorted(root.glob("records/th_*.json"))
    records = [r for f in files for r in json.loads(f.read_text())]
    assert {r["kind"] for r in records} >= {"state", "preference", "event", "plan", "relation"}
    curry = next(r for r in records if "lentil" in r["text"])
    assert curry["by"] == "assistant" and curry["turns"] == ["msg-104"]


def test_answers_of_a_read_memory_are_what_the_openapi_document_says(memory):
    """Facts, known, notes, history, lineage and a correction: the answers a fuzzer without reading never sees."""
    from jsonschema import Draft202012Validator
    from twinfs.server.openapi import document

    components = document()["components"]

    def conforms(answer) -> dict:
        body = json.loads(answer.model_dump_json(exclude_none=True))  # as the routes send it
        schema = {"$ref": f"#/components/schemas/{type(answer).__name__}", "components": components}
        errors = [e.message for e in Draft202012Validator(schema).iter_errors(body)]
        assert not errors, (type(answer).__name__, errors)
        return body

    brief = conforms(memory.search(USER, SearchRequest(query="Where does Alice live?", fast=True)))
    assert brief["facts"] and brief["known"] and "held" not in brief
    fact = brief["facts"][0]["id"]
    conforms(memory.history(USER, HistoryRequest(subject="Alice")))
    conforms(memory.history(USER, HistoryRequest(subject="nobody", attribute="x")))
    conforms(memory.lineage(USER, LineageRequest(id=fact)))
    conforms(memory.correct(USER, CorrectRequest(id=fact, reason="wrong")))
    conforms(memory.search(USER, SearchRequest(query="diet", scope="records/", after="2024-01-01")))
    conforms(memory.status(USER, StatusRequest(ids=["msg-101", "nope"])))


def test_records_are_parsed_once_per_version_of_their_file(memory):
    """Searches keep each record file parsed while it stands: a write of the same size is seen, a broken file
    gives no facts (and no error) until mended."""
    from twinfs.ledger import kept_records

    query = SearchRequest(query="Which pet does Alice have?", fast=True)
    pet = next(f for f in memory.search(USER, query).facts if "cat called Miso" in f.text)
    space = memory.space(USER)
    kept = kept_records(space, pet.thread)
    assert kept and kept_records(space, pet.thread) is kept  # not read again while the file stands
    path = memory.home / "users" / USER.dirname / "records" / f"{pet.thread}.json"
    original = path.read_text()
    path.write_text(original.replace("cat called Miso", "cat called Mimi"))  # same size, by hand
    renamed = next(f for f in memory.search(USER, query).facts if f.id == pet.id)
    assert "cat called Mimi" in renamed.text and kept_records(space, pet.thread) is not kept
    path.write_text(original[:-10])  # broken by hand
    assert all(f.thread != pet.thread for f in memory.search(USER, query).facts or [])
    path.write_text(original)
    assert any(f.id == pet.id and "Miso" in f.text for f in memory.search(USER, query).facts)


def test_a_passage_read_is_not_called_unread_when_no_fact_matches(memory):
    from twinfs.brief import Context, notes
    brief = memory.search(USER, SearchRequest(query="Where does Alice live?", fast=True))
    assert brief.hits and not any("not read yet" in n for n in brief.notes or [])
    # read, and no fact of them found for this question: they are read all the same
    assert not any("read" in n for n in notes(memory.space(USER), [], brief.hits, Context()))


def test_a_brief_that_finds_nothing_holds_nothing(memory):
    bob = EndUser(org="acme", project="app", account="bob")  # one turn, no facts read from it
    memory.add(bob, AddRequest(items=[Item(id="b1", kind="message", conversation="c", role="user", name="Bob",
                                           text="The ferry to the island leaves at nine.", at="2026-10-01T09:00:00Z")],
                               wait=True))
    brief = memory.search(bob, SearchRequest(query="qwxz zzyv plugh"))
    assert brief.hits == [] and not brief.facts
    assert brief.held is False and brief.filtered is True
    assert memory.search(bob, SearchRequest(query="qwxz zzyv plugh", fast=True)).held is None


def test_before_inside_a_day_leaves_out_the_facts_said_that_day(memory):
    day = memory.search(USER, SearchRequest(query="Where does Alice live?", fast=True, before="2026-10-02"))
    assert any("Lisbon" in f.text for f in day.facts)  # said 2026-10-01, before the 2nd
    noon = memory.search(USER, SearchRequest(query="Where does Alice live?", fast=True,
                                              before="2026-10-01T12:00:00Z"))
    assert noon.facts and all("Lisbon" not in f.text for f in noon.facts)
    assert all("Lisbon" not in line for line in noon.known or [])  # the same day as known leaves them out
