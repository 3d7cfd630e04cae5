"""The rules reader on the plain cases of #31 and on what must not become the speaker's (small conversations
written for these tests, not the bench's)."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from twinfs.passages import Turn
from twinfs.reading import Window
from twinfs.reading.rules import RulesReader

T0 = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)
THREAD = "th_plain"


def read(*said: tuple[str, str], who: str = "Noor") -> list:
    """`said`: (role, text) pairs; the user is `who`."""
    items = [Turn(f"t{i}", "message", text, T0 + timedelta(minutes=i), role, who if role == "user" else None)
             for i, (role, text) in enumerate(said)]
    return RulesReader().read(Window(THREAD, items, [t.id for t in items], {})).records


def values(records) -> set[tuple[str, str]]:
    return {(r.attribute, r.value) for r in records if r.attribute}


@pytest.mark.parametrize(("text", "expected"), [
    ("I started a new job as a sound engineer on Monday.", {("job", "sound engineer")}),
    ("I'm also doing a part-time MA at Birkbeck, because I clearly hate sleep.", {("school", "Birkbeck")}),
    ("I'm a dental hygienist, so I see a lot of teeth.", {("job", "dental hygienist")}),
    ("Quick one: I have a sesame allergy and the dinner is at a Lebanese place 😬 should I call ahead?",
     {("allergy", "sesame")}),
    ("We have a rabbit, Clover, who chews every cable.", {("pet", "rabbit named Clover")}),
    ("Mum — Rosa — is a retired midwife and still bakes every Sunday.", {("mother", "Rosa")}),
    ("Everyone eats meat, my uncle Bashir is vegan though, and I'm gluten-free myself.", {("uncle", "Bashir")}),
    ("I despise karaoke, I'd rather walk home.", {("dislikes", "karaoke")}),
    ("I'm doing an evening certificate in UX design at the City Lit now.", {("school", "City Lit")}),
    ("im in a poky 2 bed flat in Dundee rn, send help", {("home_city", "Dundee")}),
    ("I'm a Swedish native, born in Malmö.", {("hometown", "Malmö")}),
    ("Moved around a lot as a kid, grew up w/ my aunt in Kumasi mostly.", {("hometown", "Kumasi"), ("family", "aunt")}),
    ("I chat to my nan in Welsh every Sunday.", {("language", "Welsh")}),
    ("I am currently finishing a part-time MBA at the University of Leeds.", {("school", "University of Leeds")}),
    ("I'd love to take my daughter to Lapland one winter.", {("family", "daughter")}),  # a wish; she is
    ("I'm also doing a part time diploma in nursing through the Open University.", {("school", "Open University")}),
    ("I speak Urdu with my mum, English with everybody else.", {("language", "Urdu"), ("family", "mum")}),
    ("In three weeks I fly to Recife to say goodbye to everyone.", {("plans", "fly to Recife")}),
    ("I'm at Zalando now as a product designer, so evenings only.", {("employer", "Zalando"),
                                                                     ("job", "product designer")}),
    ("Hi, I'm Kwabena, 36. Civil engineer by day at the roads agency.", {("age", "36"), ("job", "civil engineer")}),
    ("My Swedish is decent too.", {("language", "Swedish")}),
    ("We're flying to Oslo next Friday, finally.", {("plans", "fly to Oslo")}),
    ("I'm booked to run the Lisbon half marathon on 3 March.", {("plans", "run the Lisbon half marathon")}),
    ("I really don't like mushrooms.", {("dislikes", "mushrooms")}),
    ("I can't stand reality TV, it makes me cringe.", {("dislikes", "reality TV")}),
    ("Honestly, I hate karaoke.", {("dislikes", "karaoke")}),
    ("I'm not a fan of horror films.", {("dislikes", "horror films")}),
    ("I teach history at a school in Bergen.", {("job", "teaches history"), ("employer", "school in Bergen")}),
    ("My tortoise is called Sheldon.", {("pet", "tortoise named Sheldon")}),
    ("Our puppy is named Biscuit and she chews everything.", {("pet", "puppy named Biscuit")}),
    ("I was born in Gdansk.", {("hometown", "Gdansk")}),
    ("I'm a paramedic at Royal Victoria Hospital.", {("job", "paramedic"), ("employer", "Royal Victoria Hospital")}),
    ("I work as a welder for Harland, and I love it.", {("job", "welder"), ("employer", "Harland")}),
    ("We live in a cottage in Keswick.", {("home_city", "Keswick")}),
    ("I started a new job as a pharmacist at Boots last week.", {("job", "pharmacist"), ("employer", "Boots")}),
    ("I got a job at Lidl, finally!", {("employer", "Lidl")}),
    ("I just joined Spotify as a data analyst.", {("job", "data analyst"), ("employer", "Spotify")}),
    ("I turned forty last week.", {("age", "forty")}),
    ("I have a son, Leo, who is six.", {("son", "Leo")}),
    ("I speak fluent Spanish and a bit of Arabic.", {("language", "Spanish"), ("language", "Arabic")}),
    ("I go rock climbing every weekend.", {("hobby", "rock climbing")}),
    ("I live with my parents in Cardiff.", {("home_city", "Cardiff")}),
    ("I grew up on a farm in Iowa.", {("hometown", "Iowa")}),
    ("I'm married to Priya.", {("partner", "Priya")}),
    ("My cat's name is Pixel.", {("pet", "cat named Pixel")}),
    ("I work in marketing.", {("job", "works in marketing")}),
    ("I'm retired.", {("job", "retired")}),
    ("I work night shifts at the hospital as a nurse.", {("job", "nurse")}),
    ("I work as a copywriter.", {("job", "copywriter")}),
    ("I'm a huge Arsenal fan.", {("likes", "Arsenal")}),
    ("I've been vegan since last May.", {("diet", "vegan")}),
    ("I've recently gone pescatarian.", {("diet", "pescatarian")}),
    ("We live in Bristol, if that matters for the recipes.", {("home_city", "Bristol")}),  # why it is said
    ("Moved to Glasgow last month.", {("home_city", "Glasgow")}),  # the "I" left out
    ("Started a new job as a barista!", {("job", "barista")}),
    ("Ursula Le Guin is my favourite author.", {("favorite_author", "Ursula Le Guin")}),
    ("And we just adopted a rescue greyhound called Pepper.", {("pet", "greyhound named Pepper")}),
    ("I do yoga every morning.", {("hobby", "yoga")}),  # how often is not the hobby
    ("I collect vinyl records.", {("hobby", "collecting vinyl records")}),
    ("I volunteer at an animal shelter on Saturdays.", {("hobby", "volunteering at an animal shelter")}),
    ("I'm a single mum of three.", {("relationship_status", "single")}),
    ("I'm Irish but I've lived in London for ten years.", {("nationality", "Irish"), ("home_city", "London")}),
    ("I'm Catholic, for what it's worth.", {("religion", "Catholic")}),
    ("I'm learning Japanese for a trip.", {("language", "Japanese")}),
    ("We have two daughters, Ada and Ines.", {("daughter", "Ada"), ("daughter", "Ines")}),
    ("I've worked in a bookshop for twelve years.", {("job", "works in a bookshop")}),
    ("I work at a pharmacy near the station.", {("job", "works in a pharmacy")}),
    ("I taught maths for twenty years.", {("former_job", "taught maths")}),
    ("I was a firefighter for a decade before my knee went.", {("former_job", "firefighter")}),
    ("I quit the agency. I'm a bike courier now.", {("job", "bike courier")}),
    ("I'm a lifeguard at the lido in summer.", {("job", "lifeguard")}),
    ("I turned 33 last week.", {("age", "33")}),  # spaCy's date "33 last week" holds the age
    ("Oh, and I'm finally learning to swim, at fifty-two.", {("age", "fifty-two")}),
    ("Big news, we got a kitten! She's a little tabby called Pickle.", {("pet", "kitten named Pickle")}),
    ("We got a puppy on Sunday, a spaniel called Biscuit.", {("pet", "puppy named Biscuit")}),
    ("My girlfriend is called Lou and she's a baker.", {("partner", "Lou")}),  # was `partner: girlfriend`
    ("My husband's name is Omar.", {("partner", "Omar")}),
    ("I found a new job at a care home near Derby.", {("job", "works in a care home")}),
    ("I work weekends at a garage.", {("job", "works in a garage")}),
    ("I've started learning Greek for my trip.", {("language", "Greek")}),
    ("I used to be a postman, years ago.", {("former_job", "postman")}),  # "used to": a job that was, not none
    ("I used to work as a sous chef.", {("former_job", "sous chef")}),
    ("I used to work at Lidl.", {("former_employer", "Lidl")}),
    ("I've been married to Kemal for six years.", {("partner", "Kemal")}),
    ("We've got two girls, Nia and Esme.", {("daughter", "Nia"), ("daughter", "Esme")}),
    ("I was diagnosed with ADHD in March.", {("health", "ADHD")}),  # as spelled
    ("I'm obsessed with Korean dramas.", {("likes", "Korean dramas")}),  # as spelled, not "korean dramas"
    ("I absolutely love hiking in the Dolomites.", {("hobby", "hiking in the Dolomites")}),
    ("I'm a 34-year-old midwife from Tralee living in Galway.",
     {("age", "34"), ("job", "midwife"), ("hometown", "Tralee"), ("home_city", "Galway")}),
    ("Flamenco is so raw and honest - it really speaks to me.", {("likes", "flamenco")}),
    ("Brutalist buildings are ugly to most people, but they speak to me.", {("likes", "brutalist buildings")}),
    ("I like to just sit and watch the boats in the harbour.", {("likes", "boats")}),
    ("I've got two cats, Pepper and Salt, and an old rabbit.", {("pet", "cats named Pepper and Salt")}),
    ("I just got promoted to head of product at Monzo.", {("job", "head of product"), ("employer", "Monzo")}),
    ("I was finally promoted to senior nurse at Leeds General Infirmary.", {("job", "senior nurse")}),
    ("I'm originally from Kraków but moved to Dublin in 2018.", {("hometown", "Kraków"), ("home_city", "Dublin")}),
    ("I'm studying for a PhD in marine biology at the University of Plymouth.",
     {("school", "University of Plymouth")}),
    ("We just bought a flat in Glasgow's West End.", {("home_city", "Glasgow")}),
    ("I used to live in Paris, now I'm in Lyon.", {("home_city", "Lyon")}),
    ("I'm on a keto diet at the moment.", {("diet", "keto")}),
    ("I'm a stay-at-home dad of three.", {("job", "stay-at-home dad"), ("children", "three children")}),
    ("I'm a lifelong fan of the Celtics even though I've never been to Boston.", {("likes", "Celtics")}),
    ("I'm studying law at King's College London.", {("school", "King's College London")}),
    ("I've got three older sisters and a little brother.", {("family", "sisters"), ("family", "brother")}),
    ("We have a black labrador called Juno.", {("pet", "labrador named Juno")}),
    ("We adopted two guinea pigs in May.", {("pet", "guinea pigs")}),
    ("I've got a tabby cat and a very old terrier called Bruno.", {("pet", "cat"), ("pet", "terrier named Bruno")}),
    ("I'm 38, divorced, with two teenage boys.", {("age", "38"), ("relationship_status", "divorced")}),
    ("I'm a practising Catholic, so Fridays are fish.", {("religion", "Catholic")}),
    ("I'm colourblind, so please avoid red and green in the charts.", {("health", "colourblind")}),
    ("I graduated from St Andrew's in 2019.", {("school", "St Andrew's")}),
    ("I'm in my final year studying nursing at Cardiff University.", {("school", "Cardiff University")}),
    ("I work at St Luke's Hospital as a midwife.", {("job", "midwife"), ("employer", "St Luke's Hospital")}),
    ("I work at the Western General Hospital as a porter.",
     {("job", "porter"), ("employer", "Western General Hospital")}),
    ("I love to listen to Nina Simone when I cook.", {("likes", "Nina Simone")}),
    ("I'm studying for a degree in law at King's College London.", {("school", "King's College London")}),
    ("I'm doing a master's at St Andrew's.", {("school", "St Andrew's")}),
    ("I'm a proud mum of two.", {("children", "two children")}),
    ("I'm a busy dad of three girls and I work nights.", {("children", "three girls")}),
    ("Olives I honestly can't stand.", {("dislikes", "Olives")}),
    ("I eat most things except aubergine, which I really can't stand.", {("dislikes", "aubergine")}),
    ("I hate crowded beaches because the noise gives me a headache.", {("dislikes", "crowded beaches")}),
    ("I'm totally hooked on Korean dramas.", {("likes", "Korean dramas")}),
    ("Honestly I could eat dumplings every day!", {("likes", "dumplings")}),
    ("I cook a lot of Ethiopian food - it's my favourite.", {("likes", "Ethiopian food")}),
    ("I do speak a little Swahili, but my writing is poor.", {("language", "Swahili")}),
    ("Tagalog is my first language.", {("language", "Tagalog")}),
    ("I teach chemistry at Colégio Rosa, a school in Porto.", {("job", "teaches chemistry"),
                                                                 ("employer", "Colégio Rosa")}),
    ("It scares me, even though I lecture in history at Queen's.", {("job", "lectures in history")}),
    ("I've just started as a trainee accountant at a small firm called Mosaic.",
     {("job", "trainee accountant"), ("employer", "Mosaic")}),
    ("I'm renting a room in Glasgow for now.", {("home_city", "Glasgow")}),
    ("The garden at my house in Valencia gets sun all day.", {("home_city", "Valencia")}),
    ("We're moving from Leeds to York in the spring.", {("home_city", "Leeds")}),
    ("I actually live in Gateshead, not Newcastle.", {("home_city", "Gateshead")}),
    ("I still live in Nairobi, ten minutes from my old school.", {("home_city", "Nairobi")}),
    ("We grew up in Kumasi, the four of us in two rooms.", {("hometown", "Kumasi")}),
    ("It's me, my husband Kofi, and our two dogs, Bisi and Tunde.",
     {("partner", "Kofi"), ("pet", "dogs named Bisi and Tunde")}),
    ("My partner Sam and our corgi, Biscuit.", {("pet", "corgi named Biscuit")}),
    ("Just me and my tortoise, Sir Shelly, these days.", {("pet", "tortoise named Sir Shelly")}),
    ("My daughter Anaïs might come along.", {("daughter", "Anaïs")}),
    ("I'm coeliac, so bread is out.", {("health", "coeliac")}),
    ("I sit all day and my lower back is always stiff.", {("health", "stiff lower back")}),
    ("I boulder twice a week at the wall in town.", {("hobby", "boulder")}),
    ("I run a book club for retired teachers.", {("hobby", "book club")}),
    ("I'm planning a week-long trip to Iceland with my sister.", {("plans", "a week-long trip to Iceland")}),
    ("Lena and I are getting married in June!", {("plans", "get married")}),
    ("I need to sell the car before we move to Oslo in March.", {("plans", "move to Oslo")}),
    ("I spent all weekend painting the hallway.", set()),
    ("We're flying out of Lima, which is where we live.", {("home_city", "Lima")}),
    ("I can't eat peanuts - I'm allergic to them, sadly.", {("allergy", "peanuts")}),
    ("I collect old maps, hundreds of them, so that's the heavy box.", {("hobby", "collecting old maps")}),
    ("I hate crowded trains, the noise gets to me.", {("dislikes", "crowded trains")}),
    ("We're moving from Lyon to Nice in May.", {("home_city", "Lyon"), ("plans", "move to Nice")}),
    ("My nonna taught me to make pasta.", {("family", "nonna")}),
    # a place's own clause says it: "…, where we live"; a sentence that leaves its "I" out
    ("We'll fly out of Porto, where we live, on Friday.", {("home_city", "Porto")}),
    ("The hills in Wellington where i live are steep.", {("home_city", "Wellington")}),
    ("My uncle is a baker in Tamale, where we both grew up.", {("hometown", "Tamale")}),
    ("Grew up in Kraków, we walked everywhere.", {("hometown", "Kraków")}),
    ("I rent a two-bedroom in Hackney with a friend.", {("home_city", "Hackney")}),
    ("Now we're relocating to Valencia in June, the flat is signed.", {("plans", "move to Valencia")}),  # no home yet
    # what one has, eats, keeps and does, said without the usual words
    ("I have an ulcer, so nothing spicy please.", {("health", "ulcer")}),
    ("We eat kosher at home.", {("diet", "kosher")}),
    ("I'm cutting down on sugar this month.", {("diet", "cutting down on sugar")}),
    ("We also have a rescue tortoise called Shelly.", {("pet", "tortoise named Shelly")}),
    ("It's me, my husband and our three hamsters, Nib and Pip.", {("pet", "hamsters named Nib and Pip")}),
    ("I do a lot of birdwatching, it calms me.", {("hobby", "birdwatching")}),
    ("I've been crocheting for years, mostly blankets.", {("hobby", "crocheting")}),
    ("I'm 31, huge Celtic fan, and I can't cook.", {("likes", "Celtic")}),
    # work and study said in passing
    ("I make decent money as a welder at Harland.", {("job", "welder")}),
    ("I drive a bus for the Stagecoach group, early shifts.", {("job", "drives a bus")}),
    ("I'm doing a part-time PhD at the University of Bergen.", {("school", "University of Bergen")}),
    ("I'm in second year law at the University of Ghana.", {("school", "University of Ghana")}),
    ("I'm a chemist at a paint supplier called Dulcolor, mostly lab work.", {("employer", "Dulcolor")}),
    # a statement before a question; a relative named with a word before the kin; a language "we" speak
    ("By the way, I'm 44; is that too old for a mortgage?", {("age", "44")}),
    ("I'm allergic to wasp stings so I carry a pen — is that fine on a plane?", {("allergy", "wasp stings")}),
    ("My twin brother Kofi did it in Accra — he's a vet there now.", {("brother", "Kofi")}),
    ("We still speak Gujarati at home, which confuses my husband.", {("language", "Gujarati")}),
    ("if i had the money i'd buy a van, the roads in Ōtāhuhu where i live are rough.", {("home_city", "Ōtāhuhu")}),
    # plans said as what one wants or starts
    ("What I really want is to open a bakery by next summer.", {("plans", "open a bakery")}),
    ("I'm planning a short break in the Lake District.", {("plans", "a short break in the Lake District")}),
    ("After my exams I'm starting an apprenticeship in Bristol in August.", {("plans", "start an apprenticeship")}),
])
def test_the_plain_cases(text, expected):
    got = values(read(("user", text)))
    assert expected <= got, got
    assert not any(a == "hobby" and "job" in v for a, v in got)  # a new job is not a hobby


@pytest.mark.parametrize(("said", "never"), [
    # an assistant's suggestion
    ([("user", "I'm so tired lately."), ("assistant", "You might enjoy tai chi in the mornings.")], "tai chi"),
    # a relative's or a friend's fact
    ([("user", "My cousin Bea is a dentist in Cork.")], "dentist"),
    ([("user", "My friend Omar lives in Rotterdam.")], "Rotterdam"),
    ([("user", "My sister got a job at Google.")], "Google"),
    ([("user", "My neighbour's dog is called Rex.")], "Rex"),
    ([("user", "My sister got a cat. She's a tabby called Juno.")], "Juno"),
    ([("user", "I got there, at 10 pm.")], "10"),
    ([("user", "My brother got a new job at the hospital.")], "hospital"),
    ([("user", "My dad used to be a postman.")], "postman"),
    ([("user", "I'm a huge fan from Porto.")], "Porto"),  # no job before "from": no hometown
    ([("user", "My wife and I separated last spring.")], "wife"),
    ([("user", "My sister is called Bea.")], "girlfriend"),
    ([("user", "If I had a cat, I'd call it Mochi.")], "Mochi"),
    ([("user", "If we get a dog, my dog will sleep in the kitchen.")], "dog"),  # "my dog" of no dog yet
    ([("user", "I was married to Ama for ten years, it ended in 2022.")], "married"),  # a marriage that was
    ([("user", "I was married to Ama for ten years, it ended in 2022.")], "Ama"),
    ([("user", "I fly to Paris every summer for work.")], "fly to Paris"),  # a habit, no plan
    ([("user", "I'm at Heathrow now, boarding soon.")], "Heathrow"),  # where one is, no employer
    ([("user", "We flew to Oslo last Friday.")], "fly to Oslo"),
    ([("user", "If I ever marry, my husband will have to love cats.")], "husband"),
    ([("user", "I hope to meet my future wife at uni.")], "wife"),
    ([("user", "I speak to my Spanish teacher every week.")], "Spanish"),
    ([("user", "If I got a job at Google, I'd move to Zurich.")], "Google"),
    ([("user", "I'd live in Bristol if the rent were lower.")], "Bristol"),
    ([("user", "Sam is my brother's favourite singer.")], "Sam"),
    ([("user", "We adopted a baby girl named Ava.")], "Ava"),
    ([("user", "My wife is French.")], "French"),
    ([("user", "I'm a Democrat.")], "Democrat"),  # a view, not kept as a fact of the person
    # a hypothetical
    ([("user", "If we ever moved, I'd open a bakery in Bruges.")], "Bruges"),
    # advice refused
    ([("user", "My neighbour wants me to try salsa dancing, but I hate dancing.")], "salsa"),
    # a question asked
    ([("user", "Should I take up archery?")], "archery"),
    # used to, a modal, a negation
    ([("user", "I used to live in Perth.")], "Perth"),
    ([("user", "I might try bouldering next month.")], "bouldering"),
    ([("user", "I'm not vegetarian, I just eat less meat.")], "vegetarian"),
    # a city is no employer, a sister's move no home
    ([("user", "I work remotely for a small design agency in Leipzig.")], "Leipzig"),
    ([("user", "My sister grew up here but moved to Rome last year.")], "Rome"),
    ([("user", "We bought a holiday cottage in Cornwall.")], "Cornwall"),
    ([("user", "I'm helping my daughter with her application to study law at Durham.")], "Durham"),
    ([("user", "I play a detective in our village panto this year.")], "detective"),  # a part, not a pastime
    ([("user", "Honestly I think I'm allergic to my boss.")], "boss"),
    ([("user", "My wife has two older brothers and a sister.")], "brothers"),
    # words given to translate, and a make-believe asked for
    ([("user", 'Translate into Spanish: "I live in Cork and I work as a plumber."')], "plumber"),
    ([("user", "Pretend I'm a barrister in Leeds and cross-examine me.")], "barrister"),
    ([("user", "Imagine I lived in Kyoto. What would my mornings look like?")], "Kyoto"),
    ([("user", "My neighbour has a golden retriever named Rufus.")], "Rufus"),
    ([("user", "I have a hamster and my brother has two ferrets.")], "ferret"),
    ([("user", "My brother just bought a house in Leeds.")], "Leeds"),
    # what speaks to someone else, or a story, not a taste
    ([("user", "My brother says opera really speaks to him.")], "opera"),
    ([("user", "Your story really speaks to me.")], "story"),
    ([("user", "I like to look at my old photos sometimes.")], "photos"),
    # a home that was, and a relative said only as someone's
    ([("user", "I kept chickens when I lived in Tamale.")], "Tamale"),
    ([("user", "I lived in Rome for a year after school.")], "Rome"),
    ([("user", "Fufu, mostly. My nan's recipe.")], "nan"),
    # a month, a someday, a city that names a firm, a workplace not named, work and studies that are no pastime
    ([("assistant", "Since when are you in sales?"), ("user", "Moved in March. Better pay, worse hours.")], "March"),
    ([("user", "Every day. But rent doesn't pay itself. Maybe when I'm 40, ha.")], "40"),
    ([("user", "I'm consulting remotely for the Paris office until summer.")], "Paris"),
    ([("user", "I teach Spanish at a college here, mostly evening classes.")], "college"),
    ([("user", "Money's tight, so I'm doing night shifts at a petrol station.")], "shifts"),
    ([("user", "My parents want me to study law but I'm doing astrophysics.")], "astrophysics"),
    ([("user", "But I like my supervisor, she's very patient.")], "supervisor"),
    # a school that was, a restaurant one would open
    ([("user", "I did study chemistry at Deusto, years ago, but no coding.")], "Deusto"),
    ([("user", "If we ever moved back to Chile I'd open a little café, but not now.")], "café"),
    # a relative's job told around their name; a taste of a pronoun
    ([("user", "Mum — Rosa — is a retired midwife and still bakes every Sunday.")], "midwife"),
    ([("user", "I could do without the rush hour crowds though, I hate them with a passion.")], "them"),
])
def test_nothing_from_others_or_unasserted_becomes_theirs(said, never):
    records = read(*said)
    assert not any(never.lower() in (r.value or "").lower() for r in records if r.subject == "Noor"), values(records)


def test_a_language_named_after_a_relative_names_no_relative():
    got = values(read(("user", "I speak Urdu with my mum, English with everybody else.")))
    assert ("language", "English") in got and not {v for v in got if v[0] != "language" and "English" in v[1]}, got


def test_a_record_is_a_whole_phrase_and_names_who_the_turn_named():
    records = read(("user", "I play five-a-side football every Wednesday."),
                   ("user", "My sister Lena is a vet. My sister lives in Graz."))
    texts = [r.text for r in records]
    assert "Noor plays five-a-side football every Wednesday" in texts
    assert not any(t.endswith((" every", " each", " on")) for t in texts)
    assert not any("their sister" in t for t in texts), texts
    assert "Noor's sister Lena lives in Graz" in texts


def test_a_job_lost_is_a_former_job_and_a_plan_stays_a_plan():
    records = read(("user", "Lost my job as a banker yesterday, so I'm gonna take a shot at starting my own business."))
    got = values(records)
    assert ("former_job", "banker") in got and not any(a == "job" for a, _ in got), got
    assert records[0].text.startswith("Noor lost their job as a banker")
    assert records[0].happened == "2026-03-03"  # "yesterday", said on 4 March


@pytest.mark.parametrize(("text", "wrong"), [
    ("I work as hard as a horse.", ("job", "hard as a horse")),
    ("I work with my brother as a team.", ("job", "team")),
    ("I work in Leeds.", ("job", "works in Leeds")),
    ("I'm doing a master's in physics.", ("hobby", "master")),
    ("I retired from the fire service last year.", ("job", "retired")),
    ("I'm 5 months pregnant.", ("age", "5")),
    ("I worked in a café when I was a student.", ("job", "student")),  # the time of something else
    ("I was a waiter when I met my wife.", ("job", "waiter")),  # a job that was
    ("I'm working at the hospital this week.", ("job", "works in the hospital")),  # a week's shifts
])
def test_words_that_look_like_a_value_and_are_not(text, wrong):
    assert wrong not in values(read(("user", text)))


def test_a_time_phrase_taken_out_takes_its_since_and_leaves_no_until():
    """A relative time phrase is replaced by the day it names; what leads it goes with it ("since last May") or,
    when the sentence says what held up to or after that time, there is no dated record of it."""
    texts = [r.text for r in read(("user", "I've been vegan since last May."),
                                  ("user", "I never liked sushi until last year."),
                                  ("user", "I finished the course before last week."))]
    assert "Noor has been vegan" in texts, texts
    assert not any(t.endswith((" since", " until", " before")) for t in texts), texts
    assert not any("sushi" in t or "course" in t for t in texts), texts


def test_a_wedding_said_in_the_present_progressive_is_a_plan_in_the_months_ahead():
    (wedding,) = [r for r in read(("user", "We're getting married in August, by the way!")) if "married" in r.text]
    assert wedding.kind == "plan" and wedding.happened == "2026-08-01", wedding  # said on 4 March 2026


def test_a_year_that_names_a_things_model_is_no_day():
    [car] = read(("user", "I drive a 2009 Volvo estate."))
    assert car.happened == "2026-03-04"  # as said, not 2009


def test_what_the_listener_is_asked_is_no_part_of_the_record():
    texts = [r.text for r in read(("user", "I'm colourblind, so please avoid red and green in the charts."),
                                  ("user", "Remember that I live in Tromsø."))]
    assert "Noor is colourblind" in texts and "Noor lives in Tromsø" in texts, texts
    assert not any("avoid" in t or t.startswith("Remember") for t in texts), texts


def test_words_given_to_translate_or_a_make_believe_make_no_record_and_the_rest_is_read():
    records = read(("user", 'Can you put this in French: "My husband is a chef and we have two dogs." I live in Hull, '
                            'by the way.'), ("user", "Pretend I'm a pilot. I actually work as a courier."))
    assert [r.text for r in records] == ["Noor lives in Hull", "Noor actually works as a courier"], \
        [r.text for r in records]


def test_a_move_ahead_is_a_plan_and_not_yet_a_home():
    got = values(read(("user", "I used to live in Perth, and now we're moving to Melbourne in March.")))
    assert ("plans", "move to Melbourne") in got and not any(a == "home_city" and v == "Melbourne" for a, v in got)
