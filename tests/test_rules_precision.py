"""The rules reader makes no record of talk that needs the turn before or tells nothing of the speaker, of the
kinds the judged records of #31 still found on LoCoMo dev's tuning half: a "we" future beside a "let's" (a cheer),
a reaction to what is seen ("It's amazing how …"), a verb whose preposition lost its object ("I pushed through"),
"enough" of what, a clause whose "me" is what something unnamed did to ("Really made me proud"), a "we" of each
other that is the speaker and the listener, reflecting on nothing named, a laugh about nothing named, a solution
or turnout of what, and a saying of what life can be. What reads alone stays. Small conversations written for these
tests."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from twinfs.passages import Turn
from twinfs.reading import Window
from twinfs.reading.rules import RulesReader

T0 = datetime(2026, 5, 6, 9, 0, tzinfo=UTC)


def read(*said: tuple[str, str]) -> list[str]:
    """`said`: (speaker, text) pairs, every one a person's turn; the texts of the records the last speaker's
    turns make."""
    items = [Turn(f"t{i}", "message", text, T0 + timedelta(minutes=i), "user", who)
             for i, (who, text) in enumerate(said)]
    last = said[-1][0]
    records = RulesReader().read(Window("th_precision", items, [t.id for t in items], {})).records
    return [r.text for r in records if r.subject == last]


def test_a_we_future_beside_lets_is_a_cheer():
    texts = read(("Ines", "I'm so pumped to plan the bake sale with you."),
                 ("Omar", "Yes, Ines! We'll fill the whole hall and show the town what kindness can do. Let's do it!"))
    assert not any("fill the whole hall" in t for t in texts), texts
    texts = read(("Ines", "I'm so pumped to plan the bake sale with you."),
                 ("Omar", "Together, our bake sale will surely be remembered. Let's keep going!"))
    assert not any("remembered" in t for t in texts), texts
    # a "we" plan of the speaker's own, with no call to the listener, is a plan
    texts = read(("Ines", "Any plans for May?"), ("Omar", "My sister and I will drive to Lisbon in May."))
    assert any("drive to Lisbon" in t for t in texts), texts


def test_a_reaction_to_what_is_seen_is_no_fact():
    texts = read(("Ines", "Your new shop looks great!"),
                 ("Omar", "Thanks! It's wonderful seeing my plans come together. It was great to see how our work "
                          "can change the street. It's incredible how opening the shop has changed my weeks."))
    assert texts == [], texts
    # "it's fun" of a doing the sentence names reads alone
    texts = read(("Ines", "How are the kids?"), ("Omar", "It's always fun coming up with games for my kids to play."))
    assert any("coming up with games" in t for t in texts), texts


def test_a_preposition_left_without_its_object_needs_the_turn_before():
    texts = read(("Ines", "The marathon must have been brutal."),
                 ("Omar", "With my coach's help and my own stubbornness, I pushed through."))
    assert texts == [], texts
    texts = read(("Ines", "We're painting a mural at the school on Saturday."),
                 ("Omar", "Sounds cool! I'd love to join in and bring my brushes!"))
    assert not any("join in" in t for t in texts), texts
    texts = read(("Ines", "How was the marathon?"), ("Omar", "I pushed through the last mile of the marathon."))
    assert any("pushed through the last mile" in t for t in texts), texts


def test_enough_of_what_is_said_before():
    texts = read(("Ines", "How is the roof fundraiser going?"),
                 ("Omar", "Hopefully, I can collect enough to pay the roofer before winter."))
    assert texts == [], texts


def test_me_of_a_clause_that_leaves_out_what_did_it():
    texts = read(("Ines", "What's new?"),
                 ("Omar", "I went to a pottery fair last Friday and it was lovely. Really made me happy and reminded "
                          "me how much a community matters."))
    assert not any("made Omar happy" in t for t in texts), texts
    assert any("went to a pottery fair" in t for t in texts), texts
    # a "me" that the sentence says what acted on is the speaker's
    texts = read(("Ines", "How is therapy?"),
                 ("Omar", "The support group has made me feel accepted and given me the courage to speak up."))
    assert any("support group has made Omar feel accepted" in t for t in texts), texts


def test_a_we_of_each_other_is_the_speaker_and_the_listener():
    texts = read(("Ines", "You're a great friend to me, Omar."),
                 ("Omar", "Thanks, Ines. I'm glad we have each other's backs and can work towards a shared goal."))
    assert texts == [], texts
    texts = read(("Ines", "How's home?"), ("Omar", "My wife and I support each other through the long shifts."))
    assert any("support each other" in t for t in texts), texts


def test_reflecting_on_nothing_named_tells_nothing():
    texts = read(("Ines", "How have you been?"),
                 ("Omar", "Life's been a bit rough lately. I'm taking the time to reflect and find some balance."))
    assert not any("reflect" in t for t in texts), texts
    texts = read(("Ines", "How was the trip?"), ("Omar", "I reflected a lot on my trip to Peru with my brother."))
    assert any("trip to Peru" in t for t in texts), texts


def test_a_laugh_names_nothing_in_particular():
    texts = read(("Ines", "What did you all play at the picnic?"),
                 ("Omar", "Some silly ones like tag and a relay race. We all had a good laugh!"))
    assert not any("laugh" in t for t in texts), texts
    texts = read(("Ines", "How did the chat with the new neighbour go?"),
                 ("Omar", "She told me about her garden. We ended up laughing and having a good time."))
    assert not any("laughing" in t for t in texts), texts
    # a laugh at something the sentence names is a fact
    texts = read(("Ines", "How was Saturday?"), ("Omar", "I laughed at the clowns at the circus in Porto."))
    assert any("laughed at the clowns" in t for t in texts), texts


def test_a_solution_or_a_turnout_of_what_is_said_before():
    texts = read(("Ines", "How's the car?"),
                 ("Omar", "It broke down again on Monday. I'm staying positive and looking for a solution though."))
    assert not any("solution" in t for t in texts), texts
    texts = read(("Ines", "How did the charity run go?"),
                 ("Omar", "We got a great turnout and raised a lot of money."))
    assert not any("turnout" in t for t in texts), texts
    # a solution the sentence says the problem of reads alone
    texts = read(("Ines", "How's work?"), ("Omar", "I found a solution to the parking problem at my office."))
    assert any("solution to the parking problem" in t for t in texts), texts


def test_what_life_can_be_is_a_saying():
    texts = read(("Ines", "How are you holding up?"),
                 ("Omar", "Life can be hard, but small wins keep me going."))
    assert texts == [], texts
    # life of a place or of the speaker is theirs
    texts = read(("Ines", "How's Lisbon?"), ("Omar", "Life in Lisbon can be pricey, so I share a flat with my cousin."))
    assert any("shares a flat" in t for t in texts), texts
    texts = read(("Ines", "How's Porto?"), ("Omar", "My life has changed since I moved to Porto."))
    assert any("moved to Porto" in t for t in texts), texts
