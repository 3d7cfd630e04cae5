"""What a first-person sentence states of pastimes and tastes, for the rules reader (attributes.stated): hobbies and
sports ("I go rock climbing every weekend"), what one likes, loves or is a fan of, one's favourites, what one does
not like ("I can't stand reality TV"). `text` is the sentence's tokens joined by single spaces, `low` it lower-cased.
"""
from __future__ import annotations

import re

from ..text import gerund
from .lexicon import PASTIME_DOERS, WEEKLY
from .values import activity, as_spelled, cut_value, listed, rejoined
from .work import SCHOOLING

Pair = tuple[str, str]
# what "X is my favourite …" names a kind of: favorite_author, favorite_book …
KINDS_OF_FAVORITE = {"author", "writer", "book", "novel", "band", "singer", "artist", "album", "song", "movie",
                     "film", "show", "series", "game", "team", "food", "dish", "drink", "restaurant", "city", "place",
                     "sport", "color", "colour", "animal", "season", "actor", "actress", "director", "podcast", "poet",
                     "painter"}
# what one does for its own sake, said as a verb: "I swim every morning", "we usually hike"
_SPORTS = ("swim|run|cycle|bike|climb|hike|surf|ski|skate|dance|paint|knit|sing|bake|draw|garden|row|box|fish|sail|"
           "golf|jog|skateboard|crochet|sew|boulder|kayak|paddleboard|walk|cook")


# people of one's life: "I like my manager" says something of her, no taste of the speaker's
PEOPLE_OF = re.compile(r"(?:my|our|your|his|her|their) (?:new |old )?(?:manager|boss|teacher|colleagues?|coworkers?|"
                       r"neighbou?rs?|team|students|supervisor|landlord|doctor)\b")


# what one does for its own sake, said by its verb alone
PASTIMES = (r"(?:sea-swim|wild swim|swim|run|jog|cycle|climb|boulder|knit|crochet|bake|paint|sketch|hike|surf|sail|"
            r"dance|sing|garden|skate|ski|snowboard|fish|golf|box|kayak|paddle|skydive|scuba dive|quilt|sew|birdwatch|"
            r"weave)")

# the words that end a pastime's phrase: "I like to swim in the sea", "… to knit, and …"
CLAUSE_WORDS = ("at", "in", "on", "with", "every", "for", "to", "and", "but", "so", "when", "because", "all", "most",
                "early", "together", "alone", "outside", "whenever", "if", "while")

# "I (also) <pastime>": the speaker doing one, the pastime its group
I_PASTIME = r"\bi (?:also |still |usually |often |mostly |regularly )?(" + PASTIMES + r")"
WEEKLY_WORDS = "(?:" + "|".join(WEEKLY) + ")"
# a pastime one goes out for, said "goes …": "Weekends I'm out sea fishing" (attributes.alone says it so)
GONE = r"(?:fishing|surfing|hiking|climbing|sailing|kayaking|skiing|birdwatching|rowing)"
# one who does a pastime: "a keen tramper", "a sea swimmer"
DOERS = (r"(?:(?:sea|wild|open-water|trail|fell|long-distance|marathon|rock|ice|road|mountain) )?(?:"
         + "|".join(PASTIME_DOERS) + ")")


# the words before "guy" or "person" that say what one is, not what one likes: "a lucky guy", "a people person"
NOT_A_TASTE = {"lucky", "nice", "good", "bad", "big", "old", "young", "simple", "regular", "normal", "busy", "happy",
               "lazy", "private", "quiet", "grumpy", "tall", "short", "shy", "nervous", "lovely", "decent", "different",
               "single", "married", "new", "straight", "gay", "people", "real", "tough", "practical", "creative"}


# a like said in irony: "Oh yes, I just LOVE flaky tests", "truly the best part of my day", "my favourite thing to
# be told"
IRONY = re.compile(r"^\W*(?:[Oo]h,? )(?:yes|yeah|great|sure|joy|wonderful|fantastic|brilliant|goody|lovely)\b|"
                   r"\bjust LOVE\b|\b(?:truly|easily|literally) the (?:best|highlight)\b|\bmy favou?rite thing to be "
                   r"told\b|(?:^|\s)/s\b")


def tastes(text: str, low: str) -> list[Pair]:
    """The (attribute, value) pairs of pastimes and tastes `text` states (a job done for others too: "graphic design
    for other people's deadlines")."""
    found: list[Pair] = []

    def add(attribute: str, value: str | None) -> None:
        if value:
            found.append((attribute, value))

    m = re.search(I_PASTIME + r"(?= (?:at|in|on|with) "
                  r"(?!the moment|the minute|all\b)[\w-]| (?:every|most|twice|three times|once a|a lot|regularly|"
                  r"daily|weekly|(?:\w+ )?(?:nights|days|times|mornings|evenings) a week|" + WEEKLY_WORDS
                  + r"|all year|year-round)\b)", low) \
        or re.search(r"\bi (?:also |still |usually |often |mostly )?(?:do|run) (?:the |a )?(parkrun)\b", low)
    if m:
        add("hobby", m.group(1))  # "I sea-swim at Salthill most mornings", "I sing in a choir"; not "I run a bakery",
        # "I cycle to work" (a verb with its object or its way), "when I climb", "the shelter I volunteer at"
    m = re.search(r"\bi (?:also |still |now |even )?(coach (?:the |my |our |a )?(?:[\w'-]+ ){0,3}?(?:team|squad|kids|"
                  r"juniors|under-\d+s|u\d+s))\b(?= (?:(?:here|there) )?(?:on|at|every|in|most)\b)", low)
    if m:
        add("hobby", m.group(1))  # "Now I coach the under-13s here on Saturday mornings": a volunteer's
    m = re.search(r"\bi (?:also |still |now |even )?(crochet|knit|bake|sew|quilt|brew|carve|whittle|forage for) "
                  r"([a-z]+(?: [a-z]+)?)\b", low)
    if m and m.group(2).split()[0] not in ("it", "them", "this", "that", "for", "with", "a", "an", "the", "my", "our",
                                           "at", "in", "on", "every", "most", "when", "because", "and", "but", "so"):
        thing = re.split(r" (?:for|at|in|on|with|every|most|to|and|but|so|when|because)\b", m.group(2))[0]
        add("hobby", f"{m.group(1)} {thing}")  # "I crochet blankets for the unit", "I bake sourdough at weekends"
    m = re.search(r"\bi (?:really |also |still |just )?(?:like|love|enjoy) to (" + PASTIMES + r")\b(?! (?:the|my|our|a|"
                  r"an|it|them|this|that|his|her|their)\b)( [a-z]+\b)?", low)
    thing = (m.group(2) or "").strip() if m else ""
    if m and thing not in ("errands", "away", "late", "out", "off", "things", "stuff", "over", "around"):
        # "I like to knit", "i like to bake kueh"; not "I like to paint the kitchen", "like to run errands"
        add("hobby", m.group(1) + ("" if thing in ("", *CLAUSE_WORDS) else f" {thing}"))
    m = re.search(r"\bi (?:already |also |still |now |only )?do ((?:[a-z]+(?:-[a-z]+)* )?[a-z]+ing)\b", low)
    if m and m.group(1).split()[0] not in ("love", "like", "enjoy", "hate", "miss", "mind", "prefer", "need", "want",
                                           "remember", "keep", "stop", "start", "try", "feel", "get") \
            and m.group(1).split()[-1] not in ("nothing", "something", "anything", "everything", "shopping", "cleaning",
                                            "cooking", "washing", "ironing", "thing", "wedding", "morning", "evening",
                                            "booking", "marketing", "accounting", "consulting", "nursing", "billing"):
        add("hobby", m.group(1))  # "I already do trail running on Saturdays", "I only do cross-country skiing"
    m = re.search(r"\b(?:i|we) (?:'ve |have )?(?:just |recently |finally )?joined (?:a|the|an|my local|a local) "
                  r"((?:[\w-]+ ){0,2}(?:class|club|choir|league|orchestra|band|walking group|running group|book "
                  r"club)|(?!whatsapp|facebook|chat|support|group)(?:[\w-]+ ){1,2}(?:group|society|crew))\b", low)
    if m:
        add("hobby", m.group(1))  # "I just joined a pottery class on Thursdays", "I've joined a wild swimming group"
    if m := re.search(r"\bi (?:also |still |usually |often |always )?do (?:the |a )?(crossword|cryptic|sudoku|"
                      r"wordle)s?\b(?! (?:for|with) (?:you|him|her|them)\b)", low):
        add("hobby", m.group(1))  # "Donna and I do the crossword every morning"
    if m := re.search(r"\bi (?:also |still |usually |often )?(?:go to|hit) the gym\b", low):
        add("hobby", "gym")  # "I go to the gym at 7am after the shift"
    m = re.search(r"\bi(?: 'm| am) an? (?:[\w-]+ ,? (?:but |and )?|[\w-]+ ){0,3}?([a-z]+) player\b", low)
    if m and not re.search(r"\b(?:professional|pro|semi-pro|session)\b", m.group(0)) and m.group(1) not in (
            "team", "key", "big", "major", "record", "cd", "dvd", "media", "video", "market", "industry", "role",
            "good", "bad", "great", "real", "fair", "music", "mp3"):
        add("hobby", m.group(1))  # "I'm a terrible but enthusiastic oud player", "I'm a keen chess player"
    m = re.search(r"\bi(?: 'm| am| 've been| have been)(?: also| still)? on (?:the|a|my) ((?:[\w-]+ ){0,2}?"
                  r"(?:swim|swimming|football|soccer|rugby|netball|basketball|hockey|rowing|cricket|volleyball|running|"
                  r"cycling|debate|debating|chess|tennis|track|cross-country|dance|cheer|baseball|softball|lacrosse|"
                  r"badminton|climbing|quiz|darts|pool) (?:team|squad))\b", low)
    if m:  # "im on the swim team", not "I'm on the infra team" (work)
        add("hobby", "on the " + m.group(1))
    m = re.search(r"\bi (?:also |still )?(?:play|sing|have sung|'ve sung|sang for years|play(?: the)? [a-z]+) (?:in|"
                  r"with) (?:a|the|my|our) (?:[\w'-]+ ){0,4}?(?:band|choir|orchestra|ensemble|quartet|chorus|league)\b"
                  r"(?=\s*(?:[,.;:!?)—–-]|$|(?:for|since|called|named|with|and|on|at|but)\b))", text, re.I)
    m = m or re.search(r"\bi (?:also |still )?sing (?:alto|soprano|tenor|bass|baritone|mezzo)\b", text, re.I)
    if m:  # "i play bass in a band called …", "I have sung in the Kumasi Male Voice Choir for 40 years", "I sing alto"
        played = re.sub(r"^(?:have|'ve) sung\b", "sing", text[m.start() + 2:m.end()].removeprefix("also ")
                        .removeprefix("still "))
        found = [(a, v) for a, v in found if not (a == "hobby" and played.startswith(v))]  # not "sing" beside it
        add("hobby", played)
    for m in re.finditer(r"(?<!when )(?<!if )(?<!because )(?<!while )(?<!where )(?<!how )(?<!that )(?<!what )"
                         + I_PASTIME + r"(?: \( \w+(?: \w+)? \))?(?= [.,;!]| and\b|$)", low):
        add("hobby", m.group(1))  # "In my free time I sing in a choir and I garden (badly)": the verb ends its clause

    m = re.search(r"\b(?:i|we)(?: 'm| am| 've| have)?(?: been| really| also| just| recently| finally| off to| going to"
                  r"| gon na| gonna)* (started|start|took up|picked up|learning|doing|practicing|practising|into|do|"
                  r"practice) "
                  r"(?:some |a bit of |a lot of |lots of |loads of |(the ))?([\w -]+)", low)
    paid = re.search(r"^([\w -]+?) for (?:other people|others|clients|customers|a living)\b", m.group(3)) if m else None
    if m and paid and not m.group(2) and not re.match(r"\w+ing\b", paid.group(1)):
        add("job", paid.group(1))  # "I've been doing graphic design for other people's deadlines for nine years"
    if m and (value := activity(m.group(3))) and not re.match(r"(?:my|our)\b", m.group(3)) and not re.match(
            r"(?:my|it|that|this|what|work|job|research|eating|drinking|opening|closing|actually|really|indeed|not|"
            r"(?:a )?new (?:job|role|"
            r"position|gig)|(?:an? )?(?:[\w-]+ ){0,2}?(?:master|masters|bachelor|phd|doctorate|degree|mba|"
            r"mfa|msc|ma|ba|bsc|llm|certificate)|(?:an? )?(?:(?:part|full)[- ]time )?(?:"
            r"diploma|course|internship|"
            r"residency|placement|apprenticeship|overtime|shifts?)|\w+ing (?:my|a|the|to|on|for|with)\b|speak|know|"
            r"have|like|love|want|need|think|feel|live|work|understand|miss|as|(?:[\w-]+ )?shifts?|"
            r"(?:\w+|a|an) (?:days?|hours?|nights?|mornings?|evenings?|shifts?|times?)|[\w ]*(?:ology|"
            r"ics|law|medicine|engineering|architecture|nursing|history|chemistry|physics|economics|accounting))\b",
            value) \
            and not (m.group(2) and m.group(1) in ("do", "doing")) and not paid and not SCHOOLING.search(value) \
            and not re.match(r"\s*'(?!\w)", low[m.end(3):]):  # not "a beginners' improv course" cut at its "'"
        add("hobby", value)  # not "doing the mornings", "doing graphic design for other people's deadlines"
    m = re.search(r"\bi(?: 've| have) been ([a-z]+ing) (?:for (?:years|ages|decades|months|a while|(?:about |over |"
                  r"nearly |almost )?(?:[a-z]+|\d+) (?:years|months))|since "
                  r"(?:i was|school|uni|college))\b", low)  # "I've been knitting for years", not "working for years"
    if m and not re.match(r"(?:work|liv|study|teach|try|wait|think|look|plan|us|do|go|sav|deal|struggl|tak|gett|mak|"
                          r"hav|pay|rent|see|feel|suffer|learn|nurs|driv|sleep|eat|drink|tell|say|ask|help)ing$",
                          m.group(1)):
        add("hobby", m.group(1))
    m = re.search(r"\b(?:i|we) ((?:make|knit|bake|paint|draw|write|build|brew|sew|grow|collect|shoot|film|carve|fix|"
                  r"restore|play|do|run|sing|compose|design|code|edit)s? [\w '-]{3,40}?) (?:as|for) (?:a|my) (?:hobby|"
                  r"side thing|pastime)\b", low) \
        or re.search(r"\bi(?: 'm| am) (?:more of )?an? ([a-z]+ing) (?:guy|person|girl|gal|man|woman|type|nut|"
                     r"fanatic)\b", low) \
        or re.search(r"\bi(?: 'm| am) (?:also )?an? (?:keen |avid |big |casual |serious |amateur |lifelong |mad |"
                     r"obsessive )?(" + DOERS + r")(?: too| as well)?\b(?! (?:at|for|with)\b)", low)
    m = m or re.search(r"\bi(?: 'm| am) (?:also )?an? (?:keen|avid|amateur|hobby|weekend) ((?:[\w-]+ )?(?:photographer|"
                       r"painter|baker|gardener|cook|musician|guitarist|pianist|singer|dancer|writer|potter))\b", low)
    # "I make short travel videos as a hobby", "I'm more of a fishing guy", "I'm a keen tramper", "i'm a runner too",
    # "I'm a keen street photographer" (work.py leaves it)
    if m:
        add("hobby", m.group(1))
    m = re.search(r"\b[Ii](?: 'm| am) (?:more of |such |a total |a big |very much )?an? ([a-z]+) (?:guy|person|girl|"
                  r"gal|man|woman|type)\b", text)  # lower-case: "I'm a Porto girl" says where one is from
    if m and not m.group(1).endswith("ing") and m.group(1) not in NOT_A_TASTE:
        add("likes", m.group(1))  # "I'm a cat guy", "I'm a numbers guy"; not "I'm a lucky guy"
    m = re.search(r"(?:^|, |\bjust |\balso |\bnow )(?:learning|practicing|practising) (?:to play |how to )?(?:the )?"
                  r"([\w -]+)", low)
    if m and (value := activity(m.group(1))):
        add("hobby", value)
    m = re.search(r"\bi (?:also |still )?(?:run|organi[sz]e|host) (?:a|the|our local|a local) ((?:[\w-]+ ){1,2}club)\b",
                  low)
    if m:
        add("hobby", m.group(1))  # "I run a chess club for kids on Saturdays"
    m = re.search(r"\bi (?:also |still )?((?:coach|referee|umpire) (?:my (?:son|daughter|kid|kids|boy|girl|"
                  r"child|children) ?'s |the |our |a |an )?(?:[\w'-]+ ){0,2}(?:team|squad|side|under-\d+s?|u\d+s?))\b",
                  low)
    if m:
        add("hobby", rejoined(m.group(1)))  # "I coach my son's football team on Sundays"
    m = re.search(r"\bi(?: 'm| am) (?:usually |always |often )?(?:out|off) ((?:[\w-]+ )?(?:" + GONE + r"|walking|"
                  r"running|cycling|swimming|hunting|golfing))\b", low)
    if m and re.search(r"\b(?:weekends|every|most|usually|always|often|mondays|tuesdays|wednesdays|thursdays|fridays|"
                       r"saturdays|sundays|evenings|mornings)\b", low):
        add("hobby", m.group(1))  # "Weekends I'm out sea fishing at Crosshaven": a pastime said by its time
    m = re.search(r"\bmy ([\w-]+(?: [\w-]+)?) collection\b", low)
    if m:
        add("hobby", f"{m.group(1)} collection")
    m = re.search(r"\b(?:i|we) (?:also |still |now )?(collect|volunteer) ([\w -]+)", low)
    if m and (value := cut_value(m.group(2), 5)) and not re.match(r"(?:it|them|that|this|my|our|some|for)\b", value):
        add("hobby", ("collecting " if m.group(1) == "collect" else "volunteering ") + value)  # "I collect vinyl"
    m = re.search(r"\b(?:i|we) (?:also |still |now )?(?:(keep) ((?:racing |homing |a few |some )?(?:bees|chickens|"
                  r"hens|ducks|goats|pigeons|quails?))|(restore|fix|repair|rebuild) ((?:old|vintage|antique|classic) "
                  r"[\w -]+))", low)
    if m and (value := cut_value(m.group(2) or m.group(4), 5)):  # "I keep racing pigeons on the roof", "I restore old
        verb = m.group(1) or m.group(3)  # kick-sleds in the shed", "I fix old film cameras in my garage"
        add("hobby", f"{gerund(verb)} {value}")
    m = re.search(r"\bi(?: 'm| am)? (?:now )?(?:writing|write|wrote) ([\w -]+?) for (an? (?:online |local |big )?"
                  r"(?:mag|magazine|newspaper|paper|blog|website|site|publication|journal))\b", low)
    if m:
        add("job", f"writes {cut_value(m.group(1), 3) or 'pieces'} for {m.group(2)}")
    for m in re.finditer(r"\bi(?: 'm| am)? (?:play|playing|played(?! [\w -]+ until i was)) (?:the |some |a lot of |"
                         r"a bit of )?([\w -]+)", low):  # not "I played barefoot … until I was 16"
        played = re.split(r" (?:at|in|on|with|every|each|most|twice|once|when|while|" + WEEKLY_WORDS + r")\b",
                          m.group(1))[0]  # what is
        # played, not where or with whom: "I play bass at our church on sundays"
        if (value := activity(played)) and not re.match(r"(?:with|for|it|a role|games with)\b", m.group(1)) \
                and not re.match(r"an? ", m.group(1)):  # "I play a doctor in a local production": a part
            add("hobby", value)
    m = re.search(r"\b(?:i|we) (?:'m |am )?(?:often |usually |sometimes |still )?(?:off to |going to )?go(?:ing)? "
                  r"((?:rock |scuba |mountain |trail |ice |roller |wild |sea |cross-country |bird |whale |line |salsa |"
                  r"ballroom |swing |fly |deep-sea |open-water |ten-pin )?"
                  r"[a-z]+ing)\b", low)
    if m and m.group(1) not in ("thing", "nothing", "something", "going"):
        add("hobby", m.group(1))  # "I go rock climbing every weekend"
    m = re.search(r"\b([\w ,-]+?) (?:is|are) my (?:main |favorite |favourite |new )?(?:hobby|hobbies|passion|"
                  r"go-to)\b", low)
    if m:
        for value in listed(re.sub(r"^.*\b(?:and|but|so|,)\s+(?=\w+ing\b)", "", m.group(1))):
            add("hobby", value)
    m = re.search(r"\bmy (?:main |favorite |favourite )?(?:hobby|hobbies|passion) (?:is|are) ([\w ,-]+)", low)
    if m:
        for value in listed(m.group(1)):
            add("hobby", value)
    for m in re.finditer(r"\b(?:i|we|they) (?:really |also |just |totally |absolutely |still |do |genuinely |honestly |"
                         r"seriously |truly |simply |literally )*"
                         r"(love|like|enjoy|adore|prefer|hate|dislike|ca n't stand|can't stand|can not stand|detest|"
                         r"despise|loathe|ca n't abide|can't abide|can not abide|avoid) ([\w'-][\w '-]*)", low):
        liking = m.group(1) in ("love", "like", "enjoy", "adore", "prefer")
        rest = m.group(2)
        if re.match(r"\w+ing\b", rest) and liking and not rest.startswith("being "):
            for value in listed(low[m.start(2):]):
                add("hobby", value)
        elif not re.match(r"(?:to|it|that|this|how|when|what|having|you|seeing|hearing|the way|is|are|was|"
                          r"were|'s)\b", rest) and not PEOPLE_OF.match(rest) and not re.match(
                              r"being (?:an?|the|my|our|your|his|her|their|so|such|with|around|told|asked)\b", rest):
            # "I like my manager": no taste; "I love being out on the land" one, "I love being a mum" none
            add("likes" if liking else "dislikes", as_spelled(cut_value(rest, 5), text))
    m = re.search(r"\bi(?: 'm| am)? (?:a )?(?:big |huge |massive |lifelong |die-hard |longtime |long-time |total )?fan "
                  r"of ([\w '-]+)", low) \
        or re.search(r"\b[Ii](?: 'm| am) [^.;!?]{0,30}?, (?:an? )?(?:big |huge |massive |lifelong |die-hard )"
                     r"((?:[A-Z][\w'-]+ ?)+) (?:fan|supporter)\b", text) \
        or re.search(r"\bi(?: 'm| am) all about ([\w '-]+)", low) \
        or re.search(r"\b[Ii](?: 'm| am) (?:an? )(?:big |huge |massive |lifelong |die-hard )?((?:[A-Z][\w'-]+ ?)+) "
                     r"(?:fan|supporter)\b", text) \
        or re.search(r"\bi(?: 'm| am| 've been| have been| 've become| have become| became| got)? (?:really |so |"
                     r"super |a bit |kind of |kinda |weirdly |totally |completely |slightly |genuinely )?(?:passionate "
                     r"about|obsessed with|drawn to) ([\w '-]+)", low) \
        or re.search(r"\b(?:i|we)(?: 'm| am| 're| are) (?:both |all |absolutely |totally |just )?(?:mad|crazy|nuts|"
                     r"bonkers) (?:about|for) ([\w '-]+)", low) \
        or re.search(r"\bi(?: 'm| am) (?:such |a )(?:total |huge |real |complete )?sucker for ([\w '-]+)", low)
    # "We're both mad about football", "I'm a sucker for anything with rhubarb"
    if m:
        add("likes", as_spelled(cut_value(m.group(1), 5), text))
    m = re.search(r"\bi (?:really |just |also )?(?:like|love|enjoy) to (?:just |sit and |go and )*"
                  r"(?:take a look at|look at|watch|gaze at|stare at|listen to) ([\w '-]+)", low)  # "… at the sunset"
    value = cut_value(re.split(r"-| (?:from|in|at|on|with|when|while|because|as|and|it|every)\b", m.group(1))[0], 4) \
        if m else None
    if value and m and not re.match(r"(?:(?:the|a|an) )?(?:my|our|his|her|their|your|it|them|people|you)\b",
                                    m.group(1)):
        add("likes", value)
    m = re.match(r"(?:(?:yeah|yes|oh|honestly|and),? )?([a-z][\w -]*?) (?:is|are) [^.?!]*\b(?:it|they) "
                 r"(?:really |just |truly )?(?:speaks?|resonates?) (?:to|with) me\b", low)  # "Contemporary dance is
    if m and not re.match(r"(?:it|this|that|what|your|his|her|their|its|the way)\b", m.group(1)):  # … speaks to me"
        add("likes", cut_value(m.group(1), 4))
    m = re.search(r"\bmy (?:all-time |top |absolute )?favou?rite ([a-z ]{3,30}?) (?:is|was|are) (.+)$", text, re.I)
    if m:
        add("favorite_" + "_".join(m.group(1).lower().split()), cut_value(m.group(2), 6))
    m = re.search(r"\b([\w -]+?) (?:is|are) (?:still |always |definitely )?my (?:all-time )?(?:top pick|"
                  r"favou?rite)\b(?: ([a-z]+)\b)?", low) \
        or re.search(r"\b([\w -]+?) (?:is|are) (?:basically |literally |honestly )?my (?:whole |entire )?"
                     r"(?:personality|obsession|jam|happy place)()\b", low)  # "Amapiano is my whole personality"
    if m and (value := cut_value(re.sub(r"^.*\b(?:but|so)\s+", "", m.group(1)), 6)):  # "landscapes and still life"
        if m.group(2) in KINDS_OF_FAVORITE:  # "Ursula Le Guin is my favourite author"
            add("favorite_" + m.group(2), as_spelled(value, text))
        else:
            add("hobby" if re.match(r"\w+ing\b", value) else "likes", as_spelled(value, text))
    m = re.search(r"(?:^|[-–:] )((?:[a-z]+ing\b[\w ]*?, ){2,}(?:or |and )?[a-z]+ing\b[\w ]*?)(?: [-–]|[.;!]|$)", low)
    if m:  # "me-time each day - running, reading, or playing my violin -"
        for value in listed(m.group(1)):
            add("hobby", value)
    m = re.match(r"([a-z]+ing(?: [a-z]+)?) (?:'s|is|helps|has helped|lets|gives) (?:a |such a |my |me |the |so )", low)
    if m and (value := activity(m.group(1))):
        add("hobby", value)  # "Painting's a fun way to express my feelings"

    # what one does not like: "I don't really like crowds", "not a fan of the cold", "I find cricket boring"
    m = re.search(r"\bi (?:do n't|don't|do not|really do n't|really don't|never|ca n't say i|can't say i) (?:really |"
                  r"much |particularly |especially |even )?(?:like|love|enjoy|care for) ([\w'-][\w '-]*)", low) \
        or re.search(r"\bi(?: 'm| am) (?:not|never) (?:a |really a |much of a )?(?:big |huge )?fan of ([\w '-]+)",
                     low) \
        or re.search(r"\bi (?:find|found) ([\w -]+?) (?:so |really |pretty |quite |a bit |rather )?(?:boring|dull|"
                     r"tedious|annoying|unbearable|awful|overrated|exhausting)\b", low)
    m = m or re.search(r"\bi(?: 'm| am)? (?:really |absolutely |properly |so )?(?:terrified|scared|afraid|petrified|"
                       r"frightened) of ([\w '-]+)", low)  # "I'm terrified of spiders", "I scared of heights"
    if m and not re.match(r"(?:to|it|that|this|how|when|what|you|the way|is|are|was|were|'s)\b", m.group(1)):
        add("dislikes", as_spelled(cut_value(m.group(1), 5), text))
    m = re.search(r"\bi (?:really |just |absolutely |honestly )*(?:hate|ca n't stand|can't stand|can not stand|detest|"
                  r"loathe) (?:it )?(when (?:people|someone|anyone|others|strangers) (?:[\w'-]+ ){0,5}?[\w'-]+)"
                  r"(?= ?[,.;:!?)]| (?:and|but|so|because|or)\b|$)", low)
    if m:  # "I hate when people call me Jonny": what one minds is a thing done, said by its clause
        add("dislikes", as_spelled(m.group(1), text))
    m = re.search(r"\b(?:one|the only|the) thing i (?:really |just )?(?:ca n't|can't|cannot) stand is ([\w '-]+)", low)
    if m and (value := cut_value(m.group(1), 6)):
        add("dislikes", as_spelled(value, text))  # "One thing I can't stand is small talk about the weather"
    m = re.match(r"([a-z][\w'-]*(?: [a-z][\w'-]*)?),? i (?:honestly |really |just |absolutely |simply )*"
                 r"(?:ca n't|can't|cannot) stand\W*$", low) \
        or re.search(r"\b(?:except|apart from|but not|other than) ([a-z][\w'-]*(?: [a-z][\w'-]*)?),? which i "
                     r"(?:honestly |really |just |absolutely )*(?:ca n't stand|can't stand|hate|detest|loathe)\b", low)
    if m and m.group(1) not in ("that", "this", "it", "which", "what", "them"):
        add("dislikes", as_spelled(m.group(1), text))  # "Tofu I honestly can't stand", "except mushrooms, which I …"
    m = re.search(r"\bi(?: 'm| am) (?:totally |completely |really |so )?hooked on ([\w' -]+?)(?: ones)?\W*$", low) \
        or re.search(r"\bi could (?:happily |honestly |literally )?eat ([\w' -]+?) (?:all day|every (?:single )?day|"
                     r"forever|for every meal)\b", low) \
        or re.search(r"\bi (?:cook|eat|make|listen to|read|watch) (?:a lot of |lots of |loads of )?([\w' -]+?) "
                     r"(?:—|-|,) it 's (?:my|our) (?:absolute |all-time )?favou?rite\b", low)
    if m and not re.match(r"(?:it|that|this|them|you)\b", m.group(1)):
        add("likes", as_spelled(cut_value(m.group(1), 4), text))  # "hooked on true crime", "could eat bread all day"
    m = re.search(r"\bwhat (?:i|we) (?:really |actually |truly |most )*(?:love|like|enjoy)(?: most| doing)? (?:is|are) "
                  r"([\w -]+)", low)
    if m and (value := activity(m.group(1))):
        add("hobby" if re.match(r"\w+ing\b", value) else "likes", value)
    m = re.search(r"\bi (" + _SPORTS + r") (?:every|twice|once|three times|\d+ times|most|"
                  r"regularly|a lot|daily|weekly|on (?:weekends|sundays|saturdays))\b", low)
    if m:
        add("hobby", m.group(1))
    m = re.search(r"\b(?:i|we) (?:usually|often|normally|regularly) ((?:watch|play|" + _SPORTS + r")\b[\w ,'-]*)", low)
    for part in re.split(r"\s*,\s*(?:and |or )?|\s+and\s+|\s+or\s+", m.group(1)) if m else []:
        if not re.match(r"(?:watch|play|" + _SPORTS + r")\b", part):
            break  # "we usually watch movies, hike, and have game nights": the habits, up to what is not one
        if (value := cut_value(part, 4)) and len(value.split()) <= 3:
            add("hobby", value)
    if IRONY.search(text):  # "Oh yes, I just LOVE flaky tests": said to mean the opposite
        return [("dislikes", v) if a in ("likes", "hobby") else (a, v) for a, v in found]
    return found
