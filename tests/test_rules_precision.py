"""The rules reader makes no record of talk that needs the turn before or tells nothing of the speaker, of the
kinds the judged records of #31 still found on LoCoMo dev's tuning half: a "we" future beside a "let's" (a cheer),
a reaction to what is seen ("It's amazing how …"), a verb whose preposition lost its object ("I pushed through"),
"enough" of what, a clause whose "me" is what something unnamed did to ("Really made me proud"), a "we" of each
other that is the speaker and the listener, reflecting on nothing named, a laugh about nothing named, a solution
or turnout of what, a saying of what life can be; what a work was meant to show, a "we both" of knowing, "ok" after
what, a clause cut short, a feeling at what is seen, a past answering a question about an earlier one, a day
remembered, "them" as a doer of bare nouns, "worth it", an idea from somewhere, and "the dancers" of what was told
before. What reads alone stays. Small conversations written for these tests."""
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


def test_what_a_work_was_meant_to_show_answers_for_the_work():
    texts = read(("Ines", "That quilt is gorgeous! What were you going for?"),
                 ("Omar", "Thanks! I wanted to capture the calm of the harbour at dawn. My aim was to show peace."))
    assert not any("capture" in t or "show peace" in t for t in texts), texts
    texts = read(("Ines", "Love the greens in it. What did you hope people would feel?"),
                 ("Omar", "I wanted soft green waves to show how still the lake was."))
    assert not any("green waves" in t for t in texts), texts
    # a want beside a doing of its own reads alone
    texts = read(("Ines", "How was the parade?"),
                 ("Omar", "I have always respected the firefighters and wanted to show my thanks at the parade."))
    assert any("show" in t for t in texts), texts


def test_we_both_knowing_is_the_speaker_and_the_listener():
    texts = read(("Ines", "Friends make everything better, don't they?"),
                 ("Omar", "Totally, Ines! I'm glad we both understand the value of old friendships."))
    assert not any("understand" in t for t in texts), texts
    texts = read(("Ines", "How did the shed turn out?"), ("Omar", "We both helped with the roof of my uncle's shed."))
    assert any("helped with the roof" in t for t in texts), texts


def test_ok_after_what_was_told_before_is_no_record():
    texts = read(("Ines", "Oh no, the crash! Is everyone alright?"), ("Omar", "Luckily, my daughter's ok."))
    assert texts == [], texts


def test_a_clause_cut_short_is_no_record():
    texts = read(("Ines", "Look at these frogs in my pond!"), ("Omar", "Wow! I never knew frogs could be."))
    assert texts == [], texts
    texts = read(("Ines", "Look at these frogs in my pond!"), ("Omar", "I never knew frogs could be so loud."))
    assert any("so loud" in t for t in texts), texts


def test_a_feeling_at_what_is_seen_is_no_fact():
    texts = read(("Ines", "How was the town hall?"),
                 ("Omar", "I'm really upset seeing the state of our library after the floods."))
    assert texts == [], texts


def test_a_past_told_in_answer_to_a_question_about_an_earlier_one_is_not_dated_the_day_said():
    texts = read(("Omar", "Last month I went on a trip to Crete with my brother."),
                 ("Ines", "Amazing! Did you try anything new on your trip?"),
                 ("Omar", "I tried scuba diving in a bay near Chania."))
    assert not any("scuba" in t for t in texts), texts
    texts = read(("Ines", "Your garden party looked lovely. How was it?"),
                 ("Omar", "We grilled corn, played croquet and danced until midnight."))
    assert not any("croquet" in t for t in texts), texts
    # a question of what the listener does now dates nothing before
    texts = read(("Ines", "What are you up to these days?"), ("Omar", "I tried scuba diving in a bay near Chania."))
    assert any("scuba" in t for t in texts), texts


def test_a_day_remembered_is_no_day_of_the_doing():
    texts = read(("Ines", "Art brings people together."),
                 ("Omar", "I was just remembering yesterday, cooking with my cousins at the community kitchen."))
    assert texts == [], texts
    texts = read(("Ines", "What's new?"), ("Omar", "I cooked with my cousins at the community kitchen yesterday."))
    assert any("cooked with" in t for t in texts), texts


def test_them_as_a_doer_is_no_bare_noun_of_the_sentence():
    texts = read(("Ines", "Taking in the twins is a big step."),
                 ("Omar", "Kindness and patience should be everyone's right, and I want them to feel it."))
    assert not any("them to feel" in t for t in texts), texts
    # a bare noun the speaker does something with may be "them"
    texts = read(("Ines", "What do you love?"),
                 ("Omar", "I'm passionate about cooking and gardening so combining them lets me relax."))
    assert any("combining" in t for t in texts), texts


def test_worth_it_of_it_is_the_effort_told_before():
    texts = read(("Ines", "How is the bakery going?"),
                 ("Omar", "I keep hitting new snags, but I'm sure it'll be worth it in the end."))
    assert texts == [], texts


def test_an_idea_from_somewhere_is_still_an_idea_of_what():
    texts = read(("Ines", "How did you come up with those mugs?"),
                 ("Omar", "I got the idea from a travel blog and ordered the clay."))
    assert texts == [], texts
    texts = read(("Ines", "What's new?"), ("Omar", "I got the idea for my mugs from a travel blog."))
    assert any("idea for" in t for t in texts), texts


def test_the_people_of_a_role_not_named_are_of_what_was_told_before():
    texts = read(("Ines", "What's going on at your studio?"),
                 ("Omar", "I'm adding evening classes and the dancers are so excited."))
    assert texts == [], texts
    texts = read(("Ines", "What's going on?"),
                 ("Omar", "I hired two dancers for my studio. I think the dancers are ready for my recital."))
    assert any("ready for" in t for t in texts), texts


def test_here_names_no_place():
    texts = read(("Ines", "What got you started at that place?"),
                 ("Omar", "I started volunteering here about a year ago after seeing a family sleeping in a park."))
    assert not any("volunteering here" in t for t in texts), texts
    texts = read(("Ines", "Where do you volunteer?"), ("Omar", "I started volunteering here in Leeds two years ago."))
    assert any("here in Leeds" in t for t in texts), texts


def test_a_leading_gonna_is_no_referent():
    texts = read(("Ines", "Your bake sale brightened the whole street. Keep it up!"),
                 ("Omar", "Thanks, Ines! Gonna continue doing it - it's my way of giving back."))
    assert not any("doing it" in t for t in texts), texts


def test_a_bid_to_look_joined_to_a_statement_is_said_to_the_listener():
    texts = read(("Ines", "How's the garden?"),
                 ("Omar", "I've put hours into my garden lately, and look at my tomatoes - they're huge!"))
    assert texts == [], texts
    texts = read(("Ines", "How's the flat hunt?"), ("Omar", "I drove to Bath on Friday and looked at three flats."))
    assert any("looked at three flats" in t for t in texts), texts


def test_so_far_is_no_opener_to_trim():
    texts = read(("Ines", "How's the shop going?"),
                 ("Omar", "So far, so good - my regulars love the loyalty cards, which means I'm selling more bread."))
    assert not any(t.startswith("Far") for t in texts) and any("selling more bread" in t for t in texts), texts
    texts = read(("Ines", "How's the saving going?"), ("Omar", "So far I've saved 500 euros for my trip to Oslo."))
    assert any(t.startswith("So far") for t in texts), texts


def test_some_of_a_kind_that_says_nothing_of_which_needs_the_turn_before():
    texts = read(("Ines", "Tell me about the fun run for the shelter!"),
                 ("Omar", "We were able to raise some funds. I'll do my best to find some resources too."))
    assert texts == [], texts
    texts = read(("Ines", "How did the pitch day go?"), ("Omar", "I met some investors and baked some cakes."))
    assert any("met some investors" in t for t in texts), texts


def test_our_x_are_our_y_is_a_saying():
    texts = read(("Ines", "Schools need more money for books."),
                 ("Omar", "Yeah, Ines. Our kids are our future; they should have the best."))
    assert texts == [], texts
    texts = read(("Ines", "How are the twins?"), ("Omar", "My kids are my whole world; they just started school."))
    assert any("kids" in t for t in texts), texts


def test_a_sentence_without_a_verb_gives_its_value_alone():
    texts = read(("Ines", "Do you have any pets?"), ("Omar", "Yup, I do! Pip, my hamster. He's great."))
    assert "Omar has a hamster" in texts and "Omar's hamster" not in texts, texts


def test_a_pet_word_that_names_what_a_thing_shows_is_no_pet():
    texts = read(("Ines", "I've always loved horses!"),
                 ("Omar", "Same! Here's a photo of my horse painting I did recently."))
    assert not any("has a horse" in t for t in texts), texts
    # a pet word before the pet's name is the pet: "my cat Miso" (spaCy makes "cat" a compound of the name)
    items = [Turn("t0", "message", "How is the new flat?", T0, "assistant", "Assistant"),
             Turn("t1", "message", "I love the light here. My cat Miso hates the tram noise though.",
                  T0 + timedelta(minutes=1), "user", "Omar")]
    records = RulesReader().read(Window("th_precision", items, ["t0", "t1"], {})).records
    assert ("pet", "cat named Miso") in {(r.attribute, r.value) for r in records}, records
    assert not any(r.attribute == "dislikes" for r in records), records  # the noise is Miso's dislike


def test_a_partner_named_by_the_word_partner_reads_alone():
    texts = read(("Ines", "What a wedding! What was your favorite part?"),
                 ("Omar", "Marrying my partner and promising to be together forever was the best part."))
    assert "Omar's partner is partner" not in texts, texts


def test_a_bare_verb_joined_inside_a_relative_clause_stays_bare():
    texts = read(("Ines", "What matters to you?"),
                 ("Omar", "It's important to me to make the most of the days I get and leave a mark on my town."))
    assert any("and leave a mark" in t for t in texts), texts
    texts = read(("Ines", "What do you do?"), ("Omar", "I live in Leeds and work as a nurse."))
    assert any("and works as a nurse" in t for t in texts), texts


def test_no_worries_is_no_opener_to_cut_and_a_ton_is_no_hobby():
    texts = read(("Ines", "Thanks for the tips on the garden!"),
                 ("Omar", "No worries, Ines! Sounds like what I said was helpful. I'm learning a ton."))
    assert not any(t.startswith("Worries") or "a ton" in t for t in texts), texts


def test_a_be_whose_complement_a_wh_word_fronted_is_no_clause_cut_short():
    texts = read(("Ines", "How did the exam go?"),
                 ("Omar", "Instead of giving up, I turned it into a learning experience. I studied hard and it "
                          "showed me how patient and determined I can be."))
    assert any("determined" in t for t in texts), texts
    texts = read(("Ines", "How's the novel?"), ("Omar", "Writing's such a huge part of me now."))
    assert texts, texts
