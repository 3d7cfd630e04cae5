"""A card's lines the speaker asks to have added ("add 'hates early calls'"), a relative named by "my <relative> is
<name>" and none by "<name> is not my <relative>", a pet named in the next sentence, work said by the vehicle one
drives or with no article, pastimes of keeping and restoring, a player card's labels, a line taken back as past, and
the model pass's code turning down a joke, a thing one is too old for, a pet that died and a value after "not"
(each sentence written for these tests)."""
from __future__ import annotations

import pytest
from test_reading_plain import read, values

from twinfs.reading.kinds import misfit
from twinfs.reading.labelled import facts
from twinfs.reading.own_words import drafted


@pytest.mark.parametrize(("text", "expected"), [
    ("My partner is Oona, we share a flat in Cork.", {("partner", "Oona")}),
    ("My brother is Tadhg and he fixes boats.", {("brother", "Tadhg")}),
    ("Don't tell my mum I said that, she's Dolores to everyone.", {("family", "mum")}),
    ("We have one daughter, Saoirse. She studies law.", {("daughter", "Saoirse")}),
    ("We have a dog. His name is Bruno. He snores.", {("pet", "dog named Bruno")}),
    ("I drive a school bus in the mornings, then nap.", {("job", "drives a school bus")}),
    ("Most days I operate a forklift at the depot.", {("job", "operates a forklift")}),
    ("I am night porter at Hotel Miramar since 2019.", {("job", "night porter"), ("employer", "Hotel Miramar")}),
    ("I keep bees at the bottom of the garden.", {("hobby", "keeping bees")}),
    ("Weekends I restore vintage radios.", {("hobby", "restoring vintage radios")}),
    ("I rebuild old motorbikes in the garage.", {("hobby", "rebuilding old motorbikes in the garage")}),
])
def test_plain_sentences_name_the_person_the_work_and_the_pastime(text, expected):
    got = values(read(("user", text), who="Dana Reyes"))
    assert expected <= got, got


@pytest.mark.parametrize(("text", "wrong"), [
    ("My husband is Portuguese, so we eat late.", "Portuguese"),  # a nationality, no name
    ("My sister is Head of Finance at Dunnes.", "Head"),  # a title
    ("My cousin is Niamh's godmother.", "Niamh"),  # someone else's
    ("Ciara is not my wife any more, we split in 2019.", "wife"),  # a relation denied
    ("Ruairí isn't my flatmate, he lives upstairs.", "flatmate"),
    ("I drive a Toyota truck to work.", "job"),  # a car of one's own
    ("Keep the dog in the scene, it's funny.", "dog named Keep"),  # what one does to a pet, no name
    ("I'm seeing the physio at Cork University Hospital on Friday.", "job"),  # an appointment, no work
])
def test_no_name_or_job_from_a_nationality_a_title_a_denial_or_ones_own_car(text, wrong):
    got = values(read(("user", text), who="Dana Reyes"))
    assert not {v for v in got if wrong in v}, got


@pytest.mark.parametrize(("text", "kept"), [
    ("Add to my bio 'hates early calls'.", "Add to my bio:\nI hate early calls\n."),
    ("On the card put 'speaks Irish and Polish'", "On the card put:\nI speak Irish and Polish\n"),
    ("One more line: 'Pet: Bonbon, a grumpy tortoise.'", "One more line:\nPet: Bonbon, a grumpy tortoise.\n"),
    ("Write 'loves the neighbour's hens' too.", "Write:\nI love the neighbour's hens\n too."),
    ("Add 'inner tubes x20' to the order.", "Add 'inner tubes x20' to the order."),  # nothing said of the speaker
    ("Not 'dog mum to Rolo' any more, he went to my sister.", "Not 'dog mum to Rolo' any more, he went to my sister."),
    ("My son wrote 'I love football' on his card.", "My son wrote 'I love football' on his card."),
])
def test_a_line_asked_to_be_added_is_read_as_the_speakers_own(text, kept):
    assert drafted(text) == kept


def test_lines_added_to_a_card_set_values_and_another_s_words_do_not():
    got = values(read(("user", "Add to my profile 'hates early calls' and put 'speaks Irish and Polish'. "
                               "Also Liam wrote 'I like rugby' on his, ignore that."), who="Dana Reyes"))
    assert {("dislikes", "early calls"), ("language", "Irish"), ("language", "Polish")} <= got, got
    assert not {v for v in got if "rugby" in v[1]}, got


@pytest.mark.parametrize(("line", "expected"), [
    ("Day job: harbour pilot, Port of Cork", [("job", "harbour pilot")]),
    ("Home ground: Cobh, by the cathedral", [("home_city", "Cobh, by the cathedral")]),
    ("Specialist subjects: lighthouses, 90s Britpop", [("likes", "lighthouses"), ("likes", "90s Britpop")]),
    ("Medication: inhaler in winter, that's it", [("health", "inhaler in winter")]),
])
def test_a_player_cards_labels(line, expected):
    assert facts(line, "Dana Reyes") == expected


def test_a_line_taken_back_as_past_sets_nothing_and_what_follows_stands():
    got = values(read(("user", "Fun fact: I play the bagpipes... no wait, that was until 2015. Now: I keep hens in "
                               "the yard."), who="Dana Reyes"))
    assert ("hobby", "keeping hens") in got, got
    assert not {v for v in got if "bagpipes" in v[1]}, got


@pytest.mark.parametrize(("concept", "value", "sentence"), [
    ("language", "Klingon", "The Klingon is a joke, obviously, I only know two words."),
    ("pet", "kitten", "I'm far too busy for a kitten, whatever my niece says."),
    ("pet", "Pip", "No pets now, the last one was Pip, a budgie, he died in March."),
    ("job", "night owl", "And not 'night owl' please, I'm in bed by ten."),
    ("language", "Spanish", "Drop Spanish from the list, I gave up after a month."),
])
def test_the_model_pass_turns_down_a_joke_a_thing_one_is_too_old_for_a_pet_that_was_and_a_denied_value(
        concept, value, sentence):
    assert misfit(concept, value, sentence) is not None


def test_the_model_pass_keeps_a_pet_held_now():
    assert misfit("pet", "Biscuit", "We adopted Biscuit last week, a very loud beagle.") is None
