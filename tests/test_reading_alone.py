"""The rules reader's records read alone: what a pronoun, a pointing word or a bare noun stands for is said in the
record, or there is no record; talk that tells nothing about the speaker makes none."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from twinfs.passages import Turn
from twinfs.reading import Window
from twinfs.reading.rules import RulesReader

T0 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
THREAD = "th_0123456789abcdef"


def read_said(*said: tuple[str, str]) -> list:
    items = [Turn(f"q{i}", "message", text, T0 + timedelta(minutes=i), "user", name)
             for i, (name, text) in enumerate(said)]
    return RulesReader().read(Window(THREAD, items, [t.id for t in items], {})).records


def test_a_pronoun_reads_as_the_one_thing_the_sentence_before_names():
    records = read_said(("Dana", "I bought a red bike last week. I ride it every morning before work."))
    ride = next(r for r in records if "ride" in r.text)
    assert ride.text == "Dana rides the red bike every morning before work"
    # "my" of the other person's sentence is theirs, "your" the speaker's
    records = read_said(("Omar", "I finally found my old guitar!"), ("Dana", "I tuned it for an hour yesterday."),
                        ("Omar", "I found your old camera too."), ("Dana", "I cleaned it this morning."))
    texts = [r.text for r in records]
    assert "Dana tuned Omar's old guitar for an hour" in texts and "Dana cleaned Dana's old camera" in texts


def test_a_pronoun_with_nothing_clear_to_point_to_makes_no_record():
    records = read_said(("Omar", "We went to the lake with the kids and the dog."),
                        ("Dana", "That sounds lovely! I find it really fulfilling."),
                        ("Dana", "I'll definitely check them out."),
                        ("Dana", "It made me realize how much I missed the mountains."))
    assert records == [] or all(r.subject == "Omar" for r in records)
    assert not any(w in r.text.lower() for r in records for w in (" it ", " them ", "fulfilling", "mountains"))


def test_talk_that_tells_nothing_about_the_speaker_makes_no_record():
    records = read_said(("Dana", "Check out this photo I took at the market!"),
                        ("Dana", "Glad I could help with the move."),
                        ("Dana", "I'm so sorry about your grandmother."),
                        ("Dana", "We should all join forces for the neighbourhood."),
                        ("Dana", "If I need anything, I'll reach out to the council."),
                        ("Dana", "We learn a lot from our own struggles."),
                        ("Dana", "I'm so excited!"))
    assert records == []
    # what the speaker says of themself around such talk is still read
    records = read_said(("Dana", "Glad I could help. I started a pottery class at the community centre."))
    assert [r.text for r in records] == ["Dana started a pottery class at the community centre"]


def test_weekday_phrases_are_dated_from_the_day_said():
    # said on Monday 8 May 2023
    records = read_said(("Dana", "I went to a poetry reading last Fri - it was really powerful."),
                        ("Dana", "I'm seeing my brother Tom on Tuesday."),
                        ("Dana", "Last week I visited my parents. We had a great time at the lake."))
    reading = next(r for r in records if "poetry" in r.text)
    assert (reading.kind, reading.happened) == ("event", "2023-05-05") and "Fri" not in reading.text
    brother = next(r for r in records if r.attribute == "brother")
    assert (brother.value, brother.kind, brother.happened) == ("Tom", "plan", "2023-05-09")
    lake = next(r for r in records if "lake" in r.text)  # a story's time carries to its next event
    assert lake.happened == "2023-05-01"


def test_a_story_answering_a_question_about_a_named_day_is_that_days():
    # said on Monday 8 May 2023
    records = read_said(("Elise", "Morning! How was the gallery opening last night? I saw your story."),
                        ("Tendai", "I sold four of my paintings and met a collector."),
                        ("Elise", "Did you have fun at the wedding on Saturday?"),
                        ("Tendai", "So much! I danced with my grandma."),
                        ("Elise", "Did you watch the final yesterday?"),
                        ("Tendai", "No, I was at work. I adopted a cat!"))
    day = {next(w for w in ("sold", "danced", "adopted") if w in r.text): r.happened for r in records
           if any(w in r.text for w in ("sold", "danced", "adopted"))}
    assert day == {"sold": "2023-05-07", "danced": "2023-05-06", "adopted": "2023-05-08"}  # "No, …": its own


def test_a_whole_weekend_spent_is_the_one_just_gone_and_a_start_from_a_month_is_a_plan():
    records = read_said(("Marcus", "Meanwhile I spent my whole weekend building a shed, ha."),
                        ("Elise", "I got promoted! I'm leading the analytics team from September."))
    shed = next(r for r in records if "shed" in r.text)
    assert shed.happened == "2023-05-06"
    team = next(r for r in records if "analytics" in r.text)
    assert (team.kind, team.happened) == ("plan", "2023-09-01")


# what the sentence before names: resolved when it says which, else no record

def test_a_bare_noun_named_before_reads_as_the_one_named():
    records = read_said(("Dana", "I joined a weekly pottery class."), ("Dana", "I go to the class every Tuesday."))
    goes = next(r for r in records if "goes" in r.text)  # "every Tuesday" is a habit, not a Tuesday
    assert (goes.text, goes.happened) == ("Dana goes to the weekly pottery class every Tuesday", goes.said)
    # named before, but not which: "the painting" is still only "a painting"
    records = read_said(("Omar", "I bought a painting at the fair."), ("Dana", "I love the painting."))
    assert all(r.subject == "Omar" for r in records)


def test_what_only_the_talk_before_knows_makes_no_record():
    records = read_said(("Omar", "I'm getting people together to talk about the flooding."),
                        ("Dana", "I'm down to join the meeting and help out."),
                        ("Dana", "The atmosphere was electric and my teammates and I were thrilled."),
                        ("Dana", "We even played chess afterward just for fun."),
                        ("Dana", "Seeing my characters come alive was my favorite part."))
    assert all(r.subject == "Omar" for r in records)
    # a time said in the sentence itself is enough: "afterward" follows the visit
    records = read_said(("Dana", "We went to the museum and played chess afterward."))
    assert records and "chess" in records[0].text


def test_a_pronoun_in_a_relative_clause_points_to_its_noun():
    records = read_said(("Dana", "We learn a lot from our own struggles. I just started helping at a food drive for "
                                 "folks who lost their jobs."))
    assert [r.text for r in records] == ["Dana just started helping at a food drive for folks who lost their jobs"]


def test_a_value_said_in_a_sentence_that_does_not_read_alone_is_kept_alone():
    records = read_said(("Omar", "Love the necklace!"),
                        ("Dana", "This necklace is special to me - a gift from my grandma in my home country, "
                                 "Sweden."))
    dana = [r for r in records if r.subject == "Dana"]
    assert [(r.text, r.attribute, r.value) for r in dana] == [("Dana is from Sweden", "hometown", "Sweden")]
    # a like cut from a list, or one that points outside the sentence, is not told alone
    records = read_said(("Omar", "Seattle is one of my favorite cities."),
                        ("Dana", "I love the energy, diversity, and food of this city."))
    assert all(r.subject == "Omar" for r in records)


def test_joints_bids_to_the_listener_and_days_of_the_month():
    records = read_said(("Dana", "Speaking of which, I adopted a kitten last week - come see!"),
                        ("Dana", "I met back up with my teammates on the 15th after my trip."),
                        ("Dana", "It's awesome having my team to push us all."))
    by_text = {r.text: r for r in records}
    assert by_text["Dana adopted a kitten"].happened == "2023-05-01"
    assert by_text["Dana met back up with their teammates after Dana's trip"].happened == "2023-04-15"
    assert "It's awesome having Dana's team to push Dana and others" in by_text


def test_exhortations_maybes_and_reactions_make_no_record():
    records = read_said(("Omar", "We camp by the river every summer and wake up to the birds."),
                        ("Dana", "I can picture waking up to the birds."),
                        ("Dana", "We gotta push ourselves out of our comfort zones."),
                        ("Dana", "Maybe I'll write a screenplay myself."),
                        ("Dana", "I just wanted to check in."),
                        ("Dana", "I wanna help make a difference."),
                        ("Dana", "Trying out flavors like mango and lime has been a blast!"),
                        ("Dana", "I loved reading Charlotte's Web as a kid."))
    assert all(r.subject == "Omar" for r in records)


def test_a_started_habit_is_an_event_and_a_fan_met_no_preference():
    records = read_said(("Dana", "I just started going to boot camps with my family last month."),
                        ("Dana", "Last week I had a nice chat with a Harry Potter fan in Ohio."),
                        ("Dana", "I'm a big fan of jazz."))
    kinds = {r.text: r.kind for r in records}
    assert kinds["Dana just started going to boot camps with their family"] == "event"
    assert kinds["Dana had a nice chat with a Harry Potter fan in Ohio"] == "event"
    assert kinds["Dana is a big fan of jazz"] == "preference"


def test_hyphens_gerund_subjects_places_and_possessions_are_read_for_what_they_are():
    records = read_said(("Dana", "Money-wise, I've gotten some cool endorsement deals."),
                        ("Dana", "Taking care of myself physically and mentally helps me."),
                        ("Dana", "I don't have big plans anyway."),
                        ("Omar", "Have you been to the Grand Canyon?"),
                        ("Dana", "Planning a trip there next month."))
    texts = [r.text for r in records]
    assert "Money-wise, Dana has gotten some cool endorsement deals" in texts
    assert not any("taking care" in t.lower() or "trip there" in t for t in texts)
    assert not any(r.attribute == "diet" for r in records)


def test_a_pronoun_that_carries_on_from_further_back_is_not_given_a_noun_of_the_sentence_before():
    records = read_said(("Dana", "I coach the younger players. I give them advice and support on and off the court."),
                        ("Dana", "Being a role model for them is something I enjoy."))
    assert not any("role model" in r.text for r in records)
    # "it" after the noun it stands for in its own sentence still carries that noun on
    records = read_said(("Dana", "I won a big chess tournament and it was awesome."),
                        ("Dana", "I donated the prize money from it to a shelter."))
    assert "Dana donated the prize money from the big chess tournament to a shelter" in [r.text for r in records]


def test_what_is_left_of_a_sentence_cut_before_the_listener_must_still_say_something():
    records = read_said(("Dana", "Last time we saw each other, I noticed a pin on your bag."),
                        ("Dana", "I went to a pride parade last Friday. Really made me proud."),
                        ("Dana", "I'm working on one with my writing group."),
                        ("Dana", "I'm always trying out new recipes, so let me know if you want some!"))
    assert [r.text for r in records] == ["Dana went to a pride parade",
                                         "Dana is always trying out new recipes"]


def test_a_day_told_of_a_question_s_any_and_thinking_about_how():
    records = read_said(("Dana", "Yesterday was crazy cool - I wrote a few bits for a play."),
                        ("Omar", "Got any paintings to show?"), ("Dana", "I'd love to check them out."),
                        ("Dana", "I've been thinking about how schools shape neighbourhoods."),
                        ("Dana", "I submitted a few more to the contest."))
    by_text = {r.text: r for r in records}
    assert by_text["Yesterday was crazy cool - Dana wrote a few bits for a play"].happened == "2023-05-07"
    assert by_text["Dana has been thinking about how schools shape neighbourhoods"].kind != "plan"
    assert not any("paintings" in t or "few more" in t for t in by_text)


def test_there_reads_as_the_place_said_just_before_or_makes_no_record():
    records = read_said(("Omar", "You're going back to Lisbon?"), ("Dana", "Yes! My grandparents are still there."),
                        ("Omar", "You lived in Madrid for years, right?"),
                        ("Dana", "My aunt runs a café an hour from there."))
    texts = [r.text for r in records]
    assert "Dana's grandparents are still in Lisbon" in texts and "Dana's aunt runs a café an hour from Madrid" in texts
    records = read_said(("Omar", "How was the trip?"), ("Dana", "Great. My brother is still there."),
                        ("Dana", "My sister was there for me all the way."))  # no place; "there for": no place meant
    texts = [r.text for r in records]
    assert not any("still there" in t for t in texts) and "Dana's sister was there for Dana all the way" in texts


def test_the_subject_of_a_relative_clause_is_not_the_noun_it_describes():
    records = read_said(("Dana", "Salsa can be exhausting, but it is totally worth it. I love the rush and freedom it "
                                 "gives."), ("Dana", "I love the little courtyard that it has."))
    assert not any(" it " in f" {r.text} " or "rush" in (r.value or "") or "courtyard" in (r.value or "")
                   for r in records), [(r.text, r.value) for r in records]
    records = read_said(("Dana", "I started helping at a food drive for families who lost their homes."))
    assert [r.text for r in records] == ["Dana started helping at a food drive for families who lost their homes"]


def test_time_words_that_name_no_day_date_nothing_and_a_month_ahead_is_a_plan():
    # said on Monday 8 May 2023
    records = read_said(("Tomasz", "I'm starting a one-year pastry course at the college."),
                        ("Kavya", "I was eating a sad sandwich at my desk at 11pm."),
                        ("Ruth", "I worked in a fish shop as a girl. Sixty years later and I still won't eat herring."),
                        ("Chloé", "We're closing the guesthouse for the winter and going to Morocco in November!"),
                        ("Nadia", "My defence is in July."),
                        ("Aoife", "I'm up in October for a conference."),
                        ("Nadia", "And I got a job offer at a museum in Hamburg, starting in September."))
    day = {w: r.happened for r in records for w in ("pastry", "sandwich", "herring", "Morocco", "defence",
                                                     "conference", "offer") if w in r.text}
    assert day == {"pastry": None, "sandwich": "2023-05-08", "herring": "2023-05-08",  # a plan, no day said
                   "Morocco": "2023-11-01", "defence": "2023-07-01", "conference": "2023-10-01",
                   "offer": "2023-05-08"}
    assert {w: r.kind for r in records for w in ("defence", "conference") if w in r.text} == {
        "defence": "plan", "conference": "plan"}


def test_a_time_added_after_a_story_in_a_sentence_of_its_own_dates_it():
    # said on Monday 8 May 2023
    records = read_said(("Kavya", "I adopted a cat. From the shelter, two weeks ago. Her name is Laddu."),
                        ("Tom", "We finally sold the van. Last Tuesday, actually."),
                        ("Sam", "I ran my first half marathon. On Sunday!"),
                        ("Jo", "I'm training for a triathlon. Since March."),
                        ("Mo", "I moved to Leeds. Great city. Back in 2019."),
                        ("Tom", "I've joined a walking group. Training for the Coast to Coast in May."))
    day = {w: r.happened for r in records for w in ("cat", "van", "marathon", "Leeds", "walking") if w in r.text}
    assert day == {"cat": "2023-04-24", "van": "2023-05-02", "marathon": "2023-05-07",
                   "Leeds": "2023-05-08",  # a sentence between: the time may be of it
                   "walking": "2023-05-08"}  # a sentence of its own that says more than a time


def test_a_going_told_without_where_makes_no_record_and_one_with_where_does():
    records = read_said(("Ama", "Are you going to the wedding? It's in Kumasi in June."),
                        ("Kofi", "I'll probably go for two days."), ("Ama", "When did you change teams?"),
                        ("Kofi", "Moved in January. Better people."), ("Ama", "We moved to Leeds in May."),
                        ("Kofi", "I went for a run this morning and came home soaked."),
                        ("Ama", "I'm moving out of Rathmines next month."))
    texts = [r.text for r in records]
    assert not any(t.startswith(("Kofi will probably go", "Kofi moved", "Kofi has moved")) for t in texts), texts
    assert any("moved to Leeds" in t for t in texts) and any("went for a run" in t for t in texts), texts
    assert any("moving out of Rathmines" in t for t in texts), texts
    # a knowing, hearing, learning or promising without what: only said before
    records = read_said(("Ama", "Is Kofi coming to the wedding?"), ("Kofi", "We'll know in September."),
                        ("Ama", "I applied for the nursing course. I'll hear in March."),
                        ("Kofi", "Next trip, I promise."), ("Ama", "My gran was from Genoa. I always meant to learn."),
                        ("Kofi", "I found out on Thursday."), ("Ama", "I learned to swim last year."),
                        ("Kofi", "I start at the depot on the 10th."))
    texts = [r.text for r in records]
    ends = ("will know", "will hear", "promises", "meant to learn", "found out")
    assert not any(t.endswith(ends) for t in texts), texts
    assert any("learned to swim" in t for t in texts) and any("starts at the depot" in t for t in texts), texts


def test_a_value_said_after_a_story_without_a_day_still_holds():
    records = read_said(("Sione", "nah i only started riding when we moved here from Tonga, i was 14. grew up in "
                                  "Nukuʻalofa, we walked everywhere."))
    assert [(r.attribute, r.value) for r in records if r.attribute] == [("hometown", "Nukuʻalofa")]
    assert not any("walked" in r.text for r in records)  # the story's event has no day


def test_a_start_or_a_settled_date_is_ahead_and_a_models_year_is_no_day():
    # said on Monday 8 May 2023
    records = read_said(("Sam", "I've got a research offer in Tromsø, starting September, working on seals."),
                        ("Ngozi", "I got the ward job. Starting November 4th, and no more nights."),
                        ("Rosa", "My passport appointment in Lyon is confirmed, June 3rd."),
                        ("Mateus", "I bought a car finally, a used Saab 900, 2009."),
                        ("Jess", "Term starts on the 24th and I've got a placement at the clinic."))
    got = {w: (r.kind, r.happened) for r in records for w in ("offer", "Ngozi is starting", "passport", "Saab",
                                                               "placement") if w in r.text}
    assert got == {"offer": ("state", "2023-05-08"), "Ngozi is starting": ("plan", "2023-11-04"),
                   "passport": ("plan", "2023-06-03"), "Saab": ("event", "2023-05-08"),
                   "placement": ("state", "2023-05-08")}, got


def test_health_said_as_what_one_is_reads_as_such():
    from twinfs.reading.attributes import alone

    records = read_said(("Ruth", "Well, I'm hard of hearing in my left ear, so she and I will get on fine."))
    assert any(r.attribute == "health" and r.value == "hard of hearing" for r in records)
    assert alone("Ruth", "health", "hard of hearing") == "Ruth is hard of hearing"  # not "has hard of hearing"
    assert alone("Ruth", "health", "asthma") == "Ruth has asthma"


def test_a_word_the_listener_is_called_by_and_a_noted_are_no_part_of_a_record():
    records = read_said(("Ruth", "How did the exam go?"), ("Kayla", "Grandma I passed with a distinction in maths!"),
                        ("Ruth", "No nuts in the cake, please."), ("Kayla", "Noted, no nuts. I'll bake the lemon one."))
    texts = [r.text for r in records]
    assert not any("Grandma" in t or "noted" in t.lower() for t in texts), texts
    assert any(t.startswith("Kayla passed with a distinction") for t in texts), texts
    records = read_said(("Lucas", "haha mamie I eat pasta AND rice."), ("Mia", "Guys I got the job at the museum!"))
    assert [r.text for r in records] == ["Lucas eats pasta and rice", "Mia got the job at the museum"]


def test_a_feeling_with_nothing_it_is_about_makes_no_record():
    records = read_said(("Jamal", "It fell through. I was kind of crushed for a day."),
                        ("Nadia", "I'm trying to be excited."),
                        ("Joanna", "I was super nervous when I showed my novel to the writers group."),
                        ("Priya", "I'm so excited to start the course in September."))
    texts = [r.text for r in records]
    assert not any("crushed" in t or "trying to be excited" in t for t in texts), texts
    assert any("excited to start the course" in t for t in texts), texts
