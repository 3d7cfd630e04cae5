"""Search on small conversations written for the test: held, and what the lanes find in long chats."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from twinfs import EndUser, search
from twinfs.index import Bounds
from twinfs.models import AddRequest, SearchRequest
from twinfs.passages import parse
from twinfs.search import CHAT_WORDS_WEIGHT, MEANING_FLOOR, WORDS_WEIGHT, meaning_lane, side_asked, words_weight

T0 = datetime(2024, 3, 4, 18, 0, tzinfo=UTC)
FRIENDS = EndUser(org="acme", project="app", account="ines-and-tomas")

# two named people; each speaks of their own life, and thanks the other by name
TALK = [
    ("Tomas", "Hey Ines! Last Saturday I ran a charity race for the children's hospital. I realized that self-care "
              "is really important, I have been neglecting sleep for months."),
    ("Ines", "That's wonderful, Tomas! Running for the hospital is such a good cause."),
    ("Ines", "My news: I adopted a grey kitten called Pebble from the shelter on Elm Street. She sleeps on my "
             "keyboard all day."),
    ("Tomas", "Pebble sounds adorable, Ines. Shelters do great work."),
    ("Tomas", "I have been learning to bake sourdough bread, my third loaf finally rose properly."),
    ("Ines", "Nice one, Tomas! I started taking pottery classes on Thursdays, my first bowl was lopsided."),
]


def talk(day: datetime = T0) -> list[dict]:
    """Two turns a conversation, a day apart: a passage each."""
    return [{"id": f"t{i}", "kind": "message", "conversation": f"chat-{i // 2}", "role": "user", "name": who,
             "text": text, "at": (day + timedelta(days=i // 2, seconds=30 * i)).isoformat()}
            for i, (who, text) in enumerate(TALK)]


@pytest.fixture
def friends(memory):
    memory.add(FRIENDS, AddRequest(items=talk(), wait=True))
    return memory


def brief(memory, question: str):
    return memory.search(FRIENDS, SearchRequest(query=question))


def test_a_question_about_what_its_person_said_is_held(friends):
    question = "What did Tomas realize after his charity race?"
    assert words_weight(friends.space(FRIENDS), question) == WORDS_WEIGHT  # named people: the lanes as tuned
    answer = brief(friends, question)
    assert answer.held is True and answer.filtered is True
    assert answer.hits[0].turns == ["t0", "t1"] and len(answer.hits) > 1
    assert brief(friends, "What is the name of Ines's kitten?").held is True


def test_what_the_other_person_said_is_not_held_about_the_one_asked(friends):
    # Tomas ran the race and said what he realized; Ines only thanked him for it
    answer = brief(friends, "What did Ines realize after her charity race?")
    assert answer.held is False
    assert len(answer.hits) == 1  # nothing holds: the nearest passage alone, to say what there is
    assert brief(friends, "What is the name of Tomas's kitten?").held is False


def test_someone_the_memory_never_heard_of_is_not_held(friends):
    answer = brief(friends, "What did Caroline research for her adoption?")
    assert answer.held is False and len(answer.hits) == 1
    # a month is a time, not a name: it is not a stranger
    assert brief(friends, "What did Tomas bake in March?").held is True


CHATTER = EndUser(org="acme", project="app", account="chatter")
DAY = datetime(2024, 5, 6, 9, 0, tzinfo=UTC)
GEAR = ("When you pack for a long hike, start with the big three: the pack, the shelter and the sleep system. "
        "A pack of 40 to 50 litres is enough for a weekend if you keep each item light. ")
# the answer is one sentence of the last paragraph, among others about walking
LONG_ANSWER = "\n\n".join([
    GEAR * 3,
    "Water matters more than food on a hot day. Carry two litres, and know where the springs are along the "
    "trail; a small filter weighs less than a third litre of water and lets you refill on the way. " * 3,
    "Break in your boots on short walks for two weeks before the trip, and bring a spare pair of socks in a dry "
    "bag. Blisters end more trips than weather does. Tape hot spots early, before they turn into blisters. "
    "Trekking poles save your knees on the long descents to the coast. For the way back, the harbour office in "
    "Vila do Porto answers at +351 296 882 310 from eight in the morning. Eat something salty at every stop, and "
    "keep a warm layer on top of the pack for the wind on the ridge."])


def chats() -> list[list[dict]]:
    """A user's chats with the assistant, a week apart."""
    said = [
        [("user", "I'm planning a weekend hike on Santa Maria island in the Azores. What should I pack?"),
         ("assistant", LONG_ANSWER)],
        [("user", "I need to call the ferry company about my booking, the office closes early."),
         ("assistant", "Good luck with the booking.")],
        [("user", "My knees hurt on long descents with my old trekking poles."),
         ("assistant", "That sounds painful, take the descents slowly.")],
        [("user", "I'm off to the Pyrenees in July, what gear should I buy?"),
         ("assistant", "I recommend the Black Diamond Trail Pro poles: light, with shock absorbers that spare your "
                       "joints.")],
        [("user", "I shoot everything with my Sony A7 III and a 24-70 lens, it is the only camera I own."),
         ("assistant", "That is a versatile pair for landscapes and people alike.")],
        [("user", "I fly to Iceland in March. What should I take?"),
         ("assistant", "Useful accessories to take: a light tripod, spare batteries (the cold drains them), "
                       "memory cards, a lens cloth, a rain cover and a comfortable strap.")],
        [("user", "Last night I cooked a mushroom risotto for my sister, it came out creamy."),
         ("assistant", "Lovely! Risotto rewards patience.")],
        [("user", "Tonight I cooked a lentil curry with coconut milk for the neighbours."),
         ("assistant", "Sounds delicious and warming.")],
    ]
    out = []
    for n, turns in enumerate(said):
        at = DAY + timedelta(days=7 * n)
        out.append([{"id": f"c{n}-{i}", "kind": "message", "conversation": f"chat-{n}", "role": role, "text": text,
                     "at": (at + timedelta(seconds=30 * i)).isoformat()} for i, (role, text) in enumerate(turns)])
    return out


@pytest.fixture
def chatter(memory):
    for chat in chats():
        memory.add(CHATTER, AddRequest(items=chat, wait=True))
    return memory


def fast(memory, question: str, **bounds):
    return memory.search(CHATTER, SearchRequest(query=question, fast=True, **bounds)).hits


def test_the_last_paragraph_of_a_long_answer_is_found(chatter):
    question = "What was the phone number of the harbour office for the ferry you gave me?"
    hits = fast(chatter, question)
    assert "+351 296 882 310" in hits[0].text and hits[0].turns == ["c0-1"]
    # the words lane alone would give the user's own turn about the ferry office: in a chat it weighs less
    assert words_weight(chatter.space(CHATTER), question) == CHAT_WORDS_WEIGHT < WORDS_WEIGHT
    space = chatter.space(CHATTER)
    assert homes_turns(space)[space.words.search(question, Bounds(type="passage"), 1)[0][0]] == ["c1-0", "c1-1"]


def lane(memory, question: str, favoured: bool = True) -> list[list[str]]:
    """The meaning lane's passages as turns: as search runs it, or with no side favoured."""
    space = memory.space(CHATTER)
    if favoured:
        found = meaning_lane(space, question, Bounds(type="passage"))
    else:
        found = space.meaning.search(question, Bounds(type="passage"), floor=MEANING_FLOOR)
    turns = homes_turns(space)
    return [turns[doc] for doc, _, _ in found]


def homes_turns(space) -> dict[str, list[str]]:
    """passage id -> the turns it holds, as its file says."""
    passages = [parse(f.read_text()) for f in space.root.glob("passages/**/*.md")]
    return {p.id: p.turns for p in passages}


def test_what_the_assistant_recommended_comes_from_its_own_words(chatter):
    question = "Which trekking poles did you recommend for my knees?"
    assert side_asked(question, ("Assistant", "User")) == {"Assistant"}
    assert lane(chatter, question, favoured=False)[0] == ["c2-0", "c2-1"]  # the user's own knees, by cosine
    assert lane(chatter, question)[0] == ["c3-0", "c3-1"]  # what the assistant recommended
    assert fast(chatter, question)[0].turns == ["c3-0", "c3-1"]


def test_a_request_for_advice_is_about_what_the_user_said_of_themselves(chatter):
    question = "Can you suggest some accessories that would complement my current camera setup?"
    assert side_asked(question, ("Assistant", "User")) == {"User"}
    assert lane(chatter, question, favoured=False)[0] == ["c5-0", "c5-1"]  # the assistant's list, by cosine
    assert lane(chatter, question)[0] == ["c4-0", "c4-1"]  # the camera the user owns
    assert side_asked(question, ("Ines", "Tomas")) == frozenset()  # two named people: no side


def test_a_question_asked_as_of_a_day_reads_last_week_from_that_day(chatter):
    risotto = DAY + timedelta(days=7 * 6)
    hits = fast(chatter, "What did I cook last week?", before=(risotto + timedelta(days=7)).date().isoformat())
    assert hits[0].turns[0] == "c6-0"
    hits = fast(chatter, "What did I cook last week?", before=(risotto + timedelta(days=14)).date().isoformat())
    assert hits[0].turns[0] == "c7-0"


RUNNER = EndUser(org="acme", project="app", account="runner")
SHOES = " ".join(f"Tip {i}: once you have bought several pairs of running shoes, rotate the pairs, and replace "
                 f"each pair of running shoes every {400 + 50 * i} kilometres." for i in range(24))


def test_a_question_that_gathers_reaches_past_one_long_thread(memory):
    chats = [[("user", "I bought my first pair of running shoes, the Brooks Ghost. Any advice on running shoes?"),
              ("assistant", SHOES)],
             [("user", "Went to the Salomon shop today and came back with trail runners."),
              ("assistant", "Nice, trails will feel softer.")]]
    for n, turns in enumerate(chats):
        at = DAY + timedelta(days=10 * n)
        memory.add(RUNNER, AddRequest(wait=True, items=[
            {"id": f"r{n}-{i}", "kind": "message", "conversation": f"run-{n}", "role": role, "text": text,
             "at": (at + timedelta(seconds=30 * i)).isoformat()} for i, (role, text) in enumerate(turns)]))
    # asked of one thing, the long answer's passages come first; asked to gather, two of them, then the other thread
    one = memory.search(RUNNER, SearchRequest(query="Which pairs of running shoes have I bought?", fast=True)).hits
    assert len({h.thread for h in one[:4]}) == 1 and one[4].turns == ["r1-0", "r1-1"]
    gathered = memory.search(RUNNER, SearchRequest(query="How many pairs of running shoes have I bought?", fast=True))
    assert [h.turns for h in gathered.hits[:3]] == [["r0-0", "r0-1"], ["r0-1"], ["r1-0", "r1-1"]]


RUNNER = EndUser(org="acme", project="app", account="runner")
# the same kind of session in three months: only the month tells them apart
RUNS = [(datetime(2024, 3, 12, 7, tzinfo=UTC), "Long run along the river, legs felt heavy after the hills."),
        (datetime(2024, 5, 14, 7, tzinfo=UTC), "Long run around the lake, legs felt fresh on the flats."),
        (datetime(2024, 7, 16, 7, tzinfo=UTC), "Long run by the river again, legs felt heavy in the heat.")]


@pytest.mark.parametrize(("question", "month"), [("How did my legs feel on the long run in May?", "s1"),
                                                 ("How did my legs feel on the long run in March 2024?", "s0"),
                                                 ("How did my legs feel on the long run last July?", "s2")])
def test_a_question_naming_a_month_lifts_that_months_sessions(memory, question, month):
    items = [{"id": f"s{n}", "kind": "message", "conversation": f"run-{n}", "role": "user", "name": "Mira",
              "text": text, "at": at.isoformat()} for n, (at, text) in enumerate(RUNS)]
    res = memory.add(RUNNER, AddRequest(items=items))
    assert memory.wait(RUNNER, [res.event], timeout=60)
    # asked as of a day in the autumn of 2024: "last July" is July 2024
    asked = SearchRequest(query=question, fast=True, before="2024-10-01T00:00:00Z")
    hits = memory.search(RUNNER, asked).hits
    assert hits[0].turns == [month]
    plain = memory.search(RUNNER, SearchRequest(query="How did my legs feel on the long run?", fast=True,
                                                before="2024-10-01T00:00:00Z")).hits
    assert hits[0].score > next(h.score for h in plain if h.turns == [month])  # lifted by the month it names


WEDDING = [(datetime(2024, 3, 3, 10, tzinfo=UTC), "Went dress shopping with mum, nothing fitted right."),
           (datetime(2024, 6, 10, 10, tzinfo=UTC), "Last dress fitting done, the tailor took in the waist."),
           (datetime(2024, 6, 15, 16, tzinfo=UTC), "Our wedding was perfect, the ceremony in the garden at sunset."),
           (datetime(2024, 7, 1, 10, tzinfo=UTC), "Sold the dress online to a bride in Leeds.")]


def test_a_time_named_by_an_event_lifts_what_was_said_then(memory):
    items = [{"id": f"w{n}", "kind": "message", "conversation": f"day-{n}", "role": "user", "name": "Mira",
              "text": text, "at": at.isoformat()} for n, (at, text) in enumerate(WEDDING)]
    res = memory.add(RUNNER, AddRequest(items=items))
    assert memory.wait(RUNNER, [res.event], timeout=60)
    space = memory.space(RUNNER)
    times = search.question_times("What happened with the dress the week before the wedding?", Bounds(), space)
    assert [(t.first.isoformat(), t.last.isoformat()) for t in times] == [("2024-06-08", "2024-06-14")]
    hits = memory.search(RUNNER, SearchRequest(query="What happened with the dress the week before the wedding?",
                                               fast=True)).hits
    assert hits[0].turns == ["w1"]
    after = memory.search(RUNNER, SearchRequest(query="What did I do with the dress the month after our wedding?",
                                                fast=True)).hits
    assert after[0].turns == ["w3"] and search.question_times("the week before the moon landing", Bounds(), space) == []
