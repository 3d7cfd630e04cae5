"""What a first-person sentence states as lasting facts: (attribute, value) pairs for the rules reader.

Open rather than a closed list: the relation a person names is the attribute ("my sister Mei" -> sister: Mei),
what they say they love, play, practise, eat or are allergic to becomes a hobby, a like, a diet, an allergy.
A few word lists only tell kinds apart (a job from a hobby, a relative from a pet); the values are the
speaker's own words, cut at the clause. `text` is the sentence's tokens joined by single spaces ("I 'm").
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..text import STOP
from .ages import ages
from .health import ADJECTIVAL_HEALTH, health
from .kin_lists import listed_kin
from .languages import THINGS, spoken
from .lexicon import KIN, KIN_WORDS, LANGUAGES, NAME, NUMBERS, PET_NAME, PET_WORDS, PETS, POLITICS, RELIGIONS
from .places import homes
from .plans import is_occasion, plans
from .tastes import DOERS, GONE, PASTIMES, tastes
from .unpaid import unpaid
from .values import as_spelled, cut_value, entities, names_a_kind
from .work import after_name, for_a_living, introduced, is_job, work

if TYPE_CHECKING:
    from spacy.tokens import Token

Pair = tuple[str, str]


# words before a bracket that name no one ("the kitchen (the cat's spot)" aside)
NOT_NAMES = {"the", "and", "but", "with", "for", "from", "that", "this", "then", "them", "him", "her", "his", "our",
             "your", "their", "mine", "yours", "also", "too", "lol", "haha", "tbh", "now", "here", "there", "home"}
# what one does to a pet, said before "the <pet>": "Keep the dog", "Walk the dog" (no dog named Keep)
TENDING = {"keep", "feed", "walk", "take", "bring", "let", "leave", "wash", "brush", "find", "give", "put", "get",
           "pet", "adopt", "skip", "drop", "add", "lose", "cut", "love", "hate", "meet", "see"}
# a relation beside a name, either way round, in brackets or dashes; a pet by its kind after its name (named_aside)
ASIDE = re.compile(r"(?<![\w'])(" + NAME + r"|[a-zà-ÿ]{3,}) ?([(-]) ?(?:the |my |our |an? (?:[\w-]+ ){0,2})?("
                   + KIN_WORDS + "|" + PET_WORDS
                   + r") ?(?:\)|-(?!\w))|(?:\b(?:[Tt]he|[Mm]y|[Oo]ur) |^[-•*] ?)((?i:" + KIN_WORDS + "|" + PET_WORDS
                   + r")) ?\( ?(" + NAME + r")(?:, ?\d{1,3})? ?\)|(?<![\w'])(" + NAME + r") the (" + PET_WORDS
                   + r")\b|(?:^|\b[Mm]y |\b[Oo]ur )((?i:" + KIN_WORDS + r")) ?[—–] ?(" + NAME + r") ?[—–]")
# ("Dad — Mohan — is …", "- Mamá (Lupita, 63): …", "Chai (a three-legged cat)")
# a relative named before "my <relation>" between commas: "Priya, my sister, lived in Osaka", a pet before "our
# <kind>": "don't forget Tamal, our chihuahua, he …" (named_aside)
COMMA_ASIDE = re.compile(r"(?<![\w'])(" + NAME + r"), (?:my|our) (" + KIN_WORDS + r"),")
PET_ASIDE = re.compile(r"(?<![\w'])(" + NAME + r")(?:,| [—–]) (?:my|our) (" + PET_WORDS + r")\b ?[,.;!—–]")
# a value said as a sentence of its own, for a sentence that does not read alone but states it: "This necklace is
# from my grandma in my home country, Sweden" -> "Caroline is from Sweden"
ALONE = {"hometown": "{who} is from {value}", "likes": "{who} likes {value}", "dislikes": "{who} dislikes {value}",
         "allergy": "{who} is allergic to {value}", "relationship_status": "{who} is {value}",
         "partner": "{who}'s partner is {value}", "pet": "{who} has a {value}", "home_city": "{who} lives in {value}",
         "employer": "{who} works at {value}", "job": "{who}'s job: {value}", "health": "{who} has {value}",
         "former_job": "{who}'s former job: {value}", "former_employer": "{who} used to work at {value}",
         "former_partner": "{who}'s former partner: {value}", "former_home": "{who} used to live in {value}",
         "former_diet": "{who}'s former diet: {value}",
         "language": "{who} speaks {value}", "age": "{who} is {value}", "school": "{who}'s school: {value}",
         "diet": "{who}'s diet: {value}", "nationality": "{who} is {value}", "religion": "{who} is {value}"}


def alone(who: str, attribute: str, value: str) -> str | None:
    """The value as a statement that reads alone, for the attributes one can state without the sentence; a like
    only when it names a thing ("fantasy"), not a doing or a part of one ("making an impact", "all the leaves")."""
    form = ALONE.get(attribute)
    if attribute == "pet" and (re.match(r"\w+[^s]s\b", value) or re.match(r"(?:an?|one|two|three|four|five|\d+) ",
                                                                           value, re.I)):
        form = "{who} has {value}"  # "cats named Miso and Tofu", "two hens", not "a cats", "a two hens"
    if attribute == "children" and value in ("son", "daughter", "child"):
        form = "{who} has a {value}"  # "Yes, a daughter." to "Do you have kids?"; not "my kids" said in passing
    elif attribute == "children" and re.match(r"(?:\d+|" + "|".join(NUMBERS) + r") ", value):
        form = "{who} has {value}"  # "two boys"
    if attribute == "health" and re.fullmatch(ADJECTIVAL_HEALTH, value.lower()):
        form = "{who} is {value}"  # "hard of hearing", "coeliac": not "has hard of hearing"
    if attribute == "partner" and value.lower() in KIN:
        form = "{who} has a {value}"  # "Marrying my partner …": "has a partner", not "'s partner is partner"
    if form is None and attribute == "hobby" and re.fullmatch(DOERS, value):
        form = "{who} is a {value}"  # "I'm a hiker, not a shopper"
    if form is None and attribute == "hobby" and (re.fullmatch(PASTIMES, value) or value == "cook"):
        form = "{who} likes to {value}"  # "I sea-swim at Portmarnock most mornings", "I cook a LOT of Caribbean
        # food", read by its verb (tastes.py)
    if form is None and attribute == "hobby" and re.fullmatch(r"(?:[\w-]+ )?" + GONE, value):
        form = "{who} goes {value}"  # "Weekends I'm out sea fishing at Crosshaven, that's my therapy"
    if form is None and attribute == "hobby" and re.match(r"(?:collecting|volunteering) \w", value):
        form = "{who} enjoys {value}"  # "I collect vinyl, about 800 of them": "… enjoys collecting vinyl" (the
        # rules' own words; a pastime read from "started playing basketball" may be a job)
    if form is None and attribute == "hobby" and re.match(r"coach \w", value):
        form = "{who} likes to {value}"  # "Now I coach the under-13s here on Saturday mornings" (tastes.py)
    if form is None and attribute == "hobby" and re.match(r"(?:mentor|volunteer) with \w", value, re.I):
        form, value = "{who} is a {value}", value[0].lower() + value[1:]  # "Mentor with Code First Girls"
    if form is None and attribute == "plans":
        value = re.sub(r"^to ", "", value)  # "I want to see everything": "plans to see everything"
        form = "{who} plans to {value}" if not re.match(r"\w+ing\b", value) else "{who} is thinking about {value}"
        form = "{who}'s {value} is coming up" if is_occasion(value) else form  # "… knee reconstruction is coming up"
    if form is None and attribute in KIN.values() and value[:1].isupper():
        form = "{who}'s " + attribute.replace("_", " ") + " is {value}"  # "Tomás's brother is Diego"
    if form is None and attribute in ("child", "son", "daughter") and value[:1].isupper():
        form = "{who}'s " + attribute + " is {value}"
    thing = re.fullmatch(r"\w+ing (?!(?:a|an|the|my|our|your|his|her|their|it|them|out|up|on|off|to|with)\b)\w+s",
                         value)  # "swimming pools", "rolling hills": a thing, not a doing
    if form is None or (attribute in ("likes", "dislikes") and not thing
                        and re.match(r"(?:\w+ing|all|more|most|much)\b", value)
                        and not re.match(r"(?:any|every)thing (?:with|made|from|in)\b|being ", value)):  # "anything
        # with cilantro" is a thing; "being out on the land" a state one is in
        return None
    return form.format(who=who, value=value)


def stated(text: str, tokens: Iterable[Token], ents: dict[str, str]) -> list[Pair]:
    """Every (attribute, value) a first-person sentence states."""
    found: list[Pair] = []
    low = text.lower()

    languages = {e.lower() for e in (ents.get("LANGUAGE"), ents.get("NORP")) if e} | LANGUAGES
    named = entities(tokens)
    places = [e for e, label in named if label in ("GPE", "LOC", "FAC")]
    orgs = [e for e, label in named if label in ("ORG", "FAC", "GPE", "PERSON", "PRODUCT")]

    def add(attribute: str, value: str | None) -> None:
        said = re.sub(r"^(?:learning )?(?:to )?(?:read|speak|write|read and write) (?:the )?", "", value or "",
                      flags=re.I).split()  # "learning to read the English"
        said = said[1:] if said and said[0].lower() == "learning" else said
        if re.fullmatch(r"(?:\w+ )?(?:course|class|classes|lessons?) in \w+", value or ""):
            said = said[-1:]  # "an evening course in Italian": the language
        if attribute == "hobby" and said and said[0].lower() in languages and not (
                len(said) > 1 and said[1].lower() in THINGS):
            # "I'm learning German", "Portuguese for work", "I've started learning Italian"
            attribute, value = "language", as_spelled(said[0], text)
        if attribute == "job" and value:
            value = re.sub(r"^(?:[\w'-]+-born|born) ", "", value)  # "a Liverpool-born actor": the hometown's word
        if attribute in ("job", "employer") and value and unpaid(value, text):
            return  # "I'm the assistant scoutmaster for Troop 833 - that's volunteer obviously"
        if value and value.islower() and text.lower().find(value) > 0:
            value = as_spelled(value, text)  # "Korean dramas", "the Alps": as said, the lower-cased match undone
        if value and (attribute, value.lower()) not in {(a, v.lower()) for a, v in found}:
            found.append((attribute, value))

    for pair in homes(text, places):
        add(*pair)
    for pair in [*introduced(text, tokens), *after_name(text), *for_a_living(text)]:  # "I am Beatriz, 67, a nurse"
        add(*pair)

    # "I'm a 29-year-old nurse from Cork living in Dublin": who one is, said in one breath
    intro = re.search(r"\b[Ii](?: 'm| am) an? (?:(\d{1,3})[- ]year[- ]old )?([\w -]{1,30}?)(?: from ([A-Z][\w'-]+))?"
                      r"(?:,? (?:living|based) in ([A-Z][\w'-]+(?: [A-Z][\w'-]+)*))?\b", text)
    if intro and intro.group(1) and 0 < int(intro.group(1)) < 120:
        add("age", intro.group(1))
    if intro and intro.group(3) and is_job(intro.group(2)):
        add("hometown", intro.group(3))  # a nurse from Cork; not "a big fan from Brazil"
    if intro and intro.group(4):
        add("home_city", intro.group(4))
    m = re.search(r"\b[Ii](?: 'm| am) [A-Z][a-z]+, (\d{1,2})\b(?! (?:years?|months?|weeks?|days?|min|%))", text)
    if m:
        add("age", m.group(1))  # a profile's "Hi, I'm Kwabena, 36."
    m = re.search(r"\b[Ii](?: 'm| am) (?:half |proudly |originally )?([A-Z][a-z]+)\b(?! [A-Z])", text)
    if m and any(e == m.group(1) and label == "NORP" for e, label in named) and m.group(1).lower() not in POLITICS:
        add("religion" if m.group(1).lower() in RELIGIONS else "nationality", m.group(1))  # "I'm Irish"
    m = re.search(r"\b[Ii](?: 'm| am) an? (?:devout |practising |practicing |proud |lapsed )?(" +
                  "|".join(sorted(RELIGIONS)) + r")\b", text, re.I)
    if m:
        add("religion", m.group(1))  # "I'm a Muslim so I don't eat pork"
    for pair in work(text, low, named, orgs, ents):
        add(*pair)

    # relationship status, partners, family and pets
    m = re.search(r"\b(?:i|we) (?:'m |am |got |are |'re |just got |was )(?:now |finally |recently |still |happily )?"
                  r"(single|married|divorced|engaged|widowed|separated)\b", low) \
        or re.search(r"\b(?:as )?an? (single) (?:parent|mom|mum|mother|dad|father)\b", low)
    over = re.search(r"\b(?:i|we) (?:was|were) married (?:to \w+ )?for\b|\b(?:while|when|before|until|till) (?:i|we) "
                     r"(?:was|were) married\b", low)  # "I was married for five years", "while I was married"
    if m and not over:
        add("relationship_status", m.group(1))
    m = re.search(r"\bi(?: 'm| am) \d{1,3}, (married|single|divorced|engaged|widowed)\b", low)  # "I'm 42, married, …"
    if m:
        add("relationship_status", m.group(1))
    m = re.search(r"\b[Ii](?: 'm| am| got| was| 've been| have been)? (?:now |finally |recently |happily )?married to "
                  r"(" + NAME + r")\b", text)
    m = m or re.search(r"\b(" + NAME + r") and I (?:have been |'ve been |hit |celebrate |celebrated |are |were |"
                       r"just hit )?(?:\d{1,2}|" + "|".join(NUMBERS) + r"|twenty|thirty|forty|fifty) years married\b",
                       text)
    m = m or re.search(r"\b(" + NAME + r") and (?:I|me) (?:got married|were married|married|tied the knot)\b",
                       text)  # "Marilyn and me got married in 1987"
    if m and m.group(1) not in ("I", "My", "The") and not over:
        add("partner", m.group(1))  # "I'm married to Priya", "Losa and I hit 20 years married in August"
    parted = re.search(r"\b(?:we|i) (?:broke up|split up|separated)\b|\b(?:broke up|split up) with\b"
                       r"|\band i (?:broke up|split up|separated)\b", low)
    if parted:
        add("relationship_status", "single")
    # "Since my wife Margaret passed in 2015": a partner who died is no partner now
    parted = parted or re.search(r"\b(?:passed (?:away|on)|(?:wife|husband|partner)(?: [a-z]+)?,? (?:passed|died)\b|"
                                 r"late (?:wife|husband|partner)|lost (?:my|our) (?:wife|husband|partner)|"
                                 r"widow(?:ed|er)?)\b", low)
    for age in ages(low, tokens):
        add("age", age)
    m = re.search(r"\b(?:i|we) (?:have|'ve got|have got|got) (?:an? [a-z]+(?:, [a-z]+,)? and )?"
                  r"(\d+|" + "|".join(NUMBERS) + r") (kids|children|sons|daughters|boys|girls)\b",
                  low)  # "I have a wife, Leila, and two children"
    if m:
        add("children", f"{m.group(1)} {m.group(2)}")
        names = re.search(r"\b(?:kids|children|sons|daughters|twins|boys|girls)[,:]? (?:named |called )?(" + NAME + r")"
                          r"(?: is \d{1,2})?(?:,? and (" + NAME + r"))?", text)  # "children: Shirin is 7 and Arman"
        for name in (names.groups() if names else ()):
            if name:
                add("son" if m.group(2) in ("sons", "boys") else "daughter" if m.group(2) in ("daughters", "girls")
                    else "child", name)
    m = re.search(r"\bi(?: 'm| am)? (?:a |the )?(?:[a-z-]+ )?(?:mum|mom|mother|dad|father|parent) of "
                  r"(two|three|four|five|six|\d)(?: (kids|children|boys|girls|sons|daughters))?\b", low)
    if m:
        add("children", f"{m.group(1)} {m.group(2) or 'children'}")  # "I'm a proud mum of two"
    counted = False  # "I have two older brothers and a younger sister": the sister is the speaker's after a count
    for m in re.finditer(r"\b(?:i|we) (?:have|'ve got|have got|got) (?:two|three|four|five|\d) (?:older |younger |big |"
                         r"little |twin )?(brothers|sisters|siblings)\b|(?<=\band) an? (?:older |younger |big |little |"
                         r"twin )?(brother|sister)\b", low):
        counted = counted or m.group(1) is not None
        if counted:
            add("family", m.group(1) or m.group(2))
    m = re.search(r"\b(?:i|we) (?:have|'ve got|have got) (?:an?|one) (?:little |baby |older |younger |big )?"
                  r"(son|daughter|brother|sister|stepson|stepdaughter|wife|husband|partner|girlfriend|boyfriend|"
                  r"fianc[eé]e?)\b(?:,? (?:named |called )?(" + NAME + r")\b)?",
                  text, re.I)
    if m and m.group(2) and m.group(2).lower() not in ("and", "who", "i", "is", "but"):
        add(KIN[m.group(1).lower()], m.group(2))  # "I have a son, Leo, who is six"
    elif m:
        add({"son": "children", "daughter": "children", "partner": "partner"}.get(KIN[m.group(1).lower()], "family"),
            m.group(1).lower())
    for relation, name in listed_kin(text):  # "my grandchildren are Amelia (9), Jack (7) and baby Rose"
        add(relation, name)
    aside = named_aside(text)
    for m in re.finditer(r"\b(?:my|our)(?: (?:new|little|sweet|old|older|younger|big|baby|two|three|2|3|lovely|twin|"
                         r"elder|step))* "
                         r"(best friend|boy|girl|" + KIN_WORDS + r")\b"
                         r"(?:,? (?:(?:is |'s |was )?(?:named |called )|'s name is |(?P<is>is ))?(" + NAME + r")\b)?",
                         text, re.I):
        kin, name = m.group(1).lower(), m.group(3)
        if re.search(r"\b(?:(?:is|are|was|were|'s) (?:not|no longer|never)|isn't|aren't|wasn't|weren't) $",
                     text[:m.start()].lower()):
            continue  # "Gwen is not my wife now", "Sanne isn't my roommate": no relative of the speaker's
        if m.group("is") and name and not _named_by_is(tokens, name):
            name = None  # "my husband is Levan", not "my husband is French" nor "my sister is Head of Sales"
        if any(t.lower_ == kin.split()[-1] and names_a_kind(t) for t in tokens):
            continue  # "my mother tongue": a tongue, no mother ("my mum Sue": a mum, named)
        relation = KIN.get(kin) or ("son" if kin == "boy" else "daughter")  # "our boy Tevita", never "my girl"
        if kin in ("boy", "girl") and not (name and name[0].isupper()):
            continue
        if name and name[0].isupper() and name.lower() not in ("i", "and", "is", "was", "has", "who", "are") \
                and not (name.lower() in LANGUAGES and re.search(r"\b(?:speak|talk|chat|language)", low)):
            # not "I speak Urdu with my mum, English with everybody else"
            add(relation if relation != "children" else ("son" if "son" in kin else "daughter" if "daughter" in kin
                                                         else "child"), name)
        elif any(a == relation for a, _ in aside):
            continue  # "Priya, my sister, …": the sister is named beside it
        elif relation == "partner":
            add("partner", kin)
        elif relation == "children":
            add("children", kin)
        else:
            add("family", kin)
    for pair in aside:
        add(*pair)
    m = re.search(r"\b(?:my|our)(?: (?:new|little|sweet|old|two|three|2|3|rescue|rescued|adopted|senior|young|elderly|"
                  r"retired))? (" + PET_WORDS +
                  r")s?(?:,? (?:(?:is |'s |was )?(?:named |called )|'s name is )?((?-i:" + NAME + r"(?: " + NAME + r")?"
                  r"(?:,? and " + NAME + r"(?: " + NAME + r")?)?)))?", text, re.I)  # "our two cats, Pixel and Tofu"
    if m and any(t.lower_ == m.group(1).lower().split()[-1] and t.head.pos_ != "PROPN" and (
            t.dep_ == "compound" or t.dep_ == "amod" and t.head.i == t.i + 1 and t.head.pos_ == "NOUN")
                 for t in tokens):  # and "my maltese spelling": a language's
        m = None  # "my horse painting": a painting, no horse ("my cat Miso": a cat, named)
    if m and any(v.lower().startswith(m.group(1).lower() + " named ") for a, v in found if a == "pet"):
        m = None  # "Rufus (our collie)": named_aside read it, named
    if m and m.group(1).lower() in ("hen", "stag") and re.search(r"\b(?:the|my|our) (?:hen|stag)\b(?! (?:house|coop|"
                                                                  r"run|pen))", low) and re.search(
            r"\b(?:hen|stag) (?:do|party|night|weekend)\b|\bfor (?:the|my|our) (?:hen|stag)\b", low):
        m = None  # "off to Lisbon for the hen, my hen": a hen party
    if m:
        pet = text[m.start(1):m.end(1) + (text[m.end(1):m.end(1) + 1] == "s")].lower()  # "our two budgies"
        name = m.group(2) if m.group(2) and m.group(2)[0].isupper() \
            and m.group(2).lower() not in ("is", "and", "has", "was", "i") else None
        add("pet", f"{pet} named {name}" if name else pet)
    m = re.search(r"\b(?:i|we) (?:just |recently |finally |already |also |still )?(?:have|got|adopted|'ve got|rescued|"
                  r"'ve had|have had|do have)(?: also)? "
                  r"(?:an? |two |three |2 |3 )(?:new |little |rescue |rescued |old |young |golden |black |white |"
                  r"ginger |grey |gray |tabby |baby |giant |pet )*(" + PET_WORDS + r")s?\b(?: (?:cross|mix|x|puppy|"
                  r"pup|kitten))?(?: (?:named|called) ((?-i:" + PET_NAME + r")))?", text, re.I)  # "a golden retriever
    # named Max", "two guinea pigs", "a husky cross named Blue", "a tortoise called Mr Banda"
    if m:
        name = m.group(2) or pet_named(text[m.end():])  # "We got a puppy last week, a spaniel called Biscuit"
        both = re.match(r"(?: already| too| as well| at home)?,? (" + NAME + r")(?:,| and) (" + NAME + r")\b",
                        text[m.end():])  # "two cats, Mochi and Soba", "two cats already, Chile and Limón"
        if name is None and both and (m.group(1).lower().endswith("s") or text[m.end(1):m.end(1) + 1] == "s") \
                and "i" not in (both.group(1).lower(),
                                                                                      both.group(2).lower()):
            name = f"{both.group(1)} and {both.group(2)}"
        one = re.match(r"(?: now| too| as well| myself| ourselves)?, (" + NAME + r")(?=,| who\b| which\b| that\b|\W*$)",
                       text[m.end():])
        # "a cat, Miso, who …", "a cat now, Michi, rescued in October", "a dog myself, Tango, a mix"
        if name is None and not both and one and one.group(1)[0].isupper() and one.group(1).lower() not in NOT_NAMES:
            name = one.group(1)
        pet = text[m.start(1):m.end(1) + (text[m.end(1):m.end(1) + 1] == "s")].lower()  # "guinea pigs" as said
        add("pet", pet + (f" named {name}" if name else ""))
        more = re.match(r"[^.;!?]*? and (?:an? |two |three |2 |3 )(?:[a-z]+ ){0,2}(" + PET_WORDS + r")(s?)\b"
                        r"(?: (?:named|called) (" + NAME + r"))?", text[m.end():], re.I)  # "… and two guinea pigs"
        if more:
            add("pet", (more.group(1) + more.group(2)).lower() + (f" named {more.group(3)}" if more.group(3) else ""))
    m = re.match(r"(?:an? |one |two |three |2 |3 )?(?:[a-z]+ )?(" + PET_WORDS + r")(s?)(?: (?:cross|mix))?"
                 r"(?: (?:named|called) ((?-i:" + PET_NAME + r"))|, ((?-i:" + NAME + r")),? and ((?-i:" + NAME + r")))"
                 r"(?=\s*(?:$|[,.;(]))",
                 text, re.I)  # a list's "- ferret called Pierogi", a form's "Two budgies, Kiko and Lala."
    if m and not any(a == "pet" for a, _ in found) and (m.group(3) or m.group(2)):
        add("pet", f"{m.group(1).lower()}{m.group(2)} named " + (m.group(3) or f"{m.group(4)} and {m.group(5)}"))
    m = re.search(r"\b(?:[Tt]he|[Oo]ur|[Mm]y) (" + PET_WORDS + r")s? are (" + NAME + r"(?:, " + NAME + r")*(?:,? and "
                  + NAME + r"(?: " + NAME + r")?))\b", text) \
        or re.search(r"(?:^|[,.;] |\b[Pp]lus )(" + NAME + r"), (?:our|my) (?:\w+ )?(" + PET_WORDS + r")\b", text)
    pet, name = (m.group(1), m.group(2)) if m and m.group(1).lower() in PETS else (m.group(2), m.group(1)) if m \
        else ("", "")  # "The hens are Doris, Gudrun and Fru Hansen", "Plus Pepper, our beagle, who also needs …"
    if pet.lower() in PETS and name.lower() not in NOT_NAMES | KIN.keys():
        found[:] = [(a, v) for a, v in found if (a, v.lower()) != ("pet", pet.lower())]  # named now
        add("pet", f"{pet.lower()} named {name}")

    for pair in health(text, low):  # a diet, an allergy, a condition
        add(*pair)

    for pair in tastes(text, low):  # hobbies, sports, what one likes and does not
        add(*pair)

    for pair in plans(text, low):  # "I'm planning to visit Lisbon", "we fly out 18 December"
        add(*pair)

    for language in spoken(text, languages):  # "I speak fluent Spanish and a bit of Arabic", "my German is B1"
        add("language", language)
    m = re.search(r"\b[Ii] (?:drive|bought|got|have|own) (?:an? |my |the )?(?:new |used |old )?((?:[A-Z][\w-]+ ?)+)"
                  r"(?: car| truck| SUV)?\b", text) if re.search(r"\b(?:car|drive|truck|suv)\b", low) else None
    if m and ents.get("ORG", ents.get("PRODUCT")):
        add("car", m.group(1).strip())
    m = re.search(r"\bmy (?:new |old )?car is an? ([\w -]+)", low)
    if m:
        add("car", cut_value(m.group(1), 4))
    # not "My girlfriend and I split up"; no taste of a pronoun ("I hate them with a passion": the sentence before
    # says what "them" is)
    return [(a, v) for a, v in found if v and not (parted and a == "partner") and not (
        a in ("likes", "dislikes", "hobby") and re.match(r"(?:them|it|that|this|those|these|him|her)\b", v, re.I))]


def _named_by_is(tokens: Iterable[Token], name: str) -> bool:
    """Whether `name`, said after "my <relative> is", is one: a person's, or a capitalised word the parse takes for no
    nationality, language or organisation (nor ends as one: "Swedish", "Canadian"), standing alone (not "French",
    "Head of Sales", "Tom's", a form's "MY DADDY IS FROM: …")."""
    at = next((t for t in tokens if t.text == name and t.i > 0 and t.nbor(-1).lower_ == "is"), None)
    if at is None or at.lower_ in LANGUAGES | STOP:
        return False
    if at.ent_type_ != "PERSON" and (at.ent_type_ in ("NORP", "LANGUAGE", "ORG") or at.pos_ != "PROPN" and re.search(
            r"(?:ish|ian|ese|ean|an|i|ic|ch|ss)$", at.lower_)):
        return False
    after = at.nbor() if at.i + 1 < len(at.doc) else None
    return after is None or not (after.tag_ == "POS" or after.pos_ == "NOUN" or after.lower_ == "of"
                                 or after.pos_ == "PROPN" and after.ent_type_ != "PERSON")


def named_aside(text: str) -> list[Pair]:
    """A relative, partner or pet named with its relation to the speaker beside it, in brackets, dashes or commas,
    either way round: "Priya, my sister, …", "Ewa (the missus)", "arjun (husband)", "Jorge - husband -", "the
    husband (Cathal)", "my sister (Dana)"; and a pet by its kind after it: "Biscuit the tortoise"."""
    found: list[Pair] = [(KIN[m.group(2).lower()], m.group(1)) for m in COMMA_ASIDE.finditer(text) if m.group(
        1).lower() not in NOT_NAMES and KIN[m.group(2).lower()] not in ("friend", "children")]
    found += [("pet", f"{m.group(2)} named {m.group(1)}") for m in PET_ASIDE.finditer(text)
              if m.group(1).lower() not in NOT_NAMES]
    for m in ASIDE.finditer(text):
        name, word = (m.group(1), m.group(3)) if m.group(1) else (m.group(5), m.group(4).lower()) if m.group(4) \
            else (m.group(9), m.group(8).lower()) if m.group(8) else (m.group(6), m.group(7))
        if name.lower() in NOT_NAMES | TENDING or KIN.get(word) == "friend" or name.islower() and re.search(
                r"\b(?:the|a|an|my|our|your|his|her|their|this|that) $", text[:m.start()], re.I):
            continue  # a friend, "the kitchen (the cat's)": no one named
        if word in KIN:
            found.append((KIN[word] if KIN[word] != "children" else "child", name))
        else:
            found.append(("pet", f"{word} named {name}"))
    return found


def pet_named(text: str, leading: bool = False) -> str | None:
    """The name a pet is given in the words after it ("…, a spaniel called Biscuit") or, `leading`, in a sentence of
    its own right after the one that names it ("She's a little tabby called Pickle")."""
    lead = r"^(?:she|he|it)(?:'s| is) an? " if leading else r"^[^.!?]{0,30}?,\s*an? "
    kinds = PET_WORDS + "|tabby|moggy|mutt|pup|rescue|little one|boy|girl"
    m = re.search(lead + r"(?:[\w-]+ ){0,2}?(?:" + kinds + r") (?:named|called) ((?-i:" + PET_NAME + r"))\b",
                  text.strip(), re.I) \
        or (None if leading else re.search(r"^,? (?:an? )?(?:[\w-]+ ){0,2}?[\w-]+, (?:her|his|its) name is "
                                           r"((?-i:" + NAME + r"))\b", text.strip(), re.I))  # "a dog, Finnish
    # spitz, her name is Halla"
    return m.group(1) if m and m.group(1)[0].isupper() else None
