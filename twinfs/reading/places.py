"""Where a first-person sentence says the speaker lives and comes from, for the rules reader: `home_city`,
`hometown`, and a move said as a plan ("we're moving to Melbourne in March": not the home yet). Places are the
speaker's words: a place spaCy named, else the capitalised words the phrase starts with."""
from __future__ import annotations

import re

from .dates import DAY, MONTH
from .lexicon import CAPITAL, KIN, NAME
from .values import proper_name

Pair = tuple[str, str]
CAPITALISED = CAPITAL + r"[\w'-]+"  # a word with its capital, in any alphabet: "Ōtāhuhu", "Croix-Rousse"
PLACE_ON = CAPITAL + r"[\w .'-]+"  # a place's name and the words after it (_place_named takes the name)
NAMES = NAME + r"(?: (?:(?:do|da|de|del|dos|das|di|upon|on|am|an der|sur) )?" + NAME + r")*"  # a place's name
# of one or more words: "Fort William", "Viana do Castelo", "Stratford upon Avon"


def homes(text: str, places: list[str]) -> list[Pair]:
    """The (attribute, value) pairs of home and hometown `text` states (`places`: the places spaCy named in it)."""
    found: list[Pair] = []

    def add(attribute: str, value: str) -> None:
        found.append((attribute, value))

    m = re.search(r"\b(?:i|we)(?: just)?(?: '(?:ve|m|re)| have| am| are)?(?: been)?(?: just| recently| finally| now|"
                  r" still| actually| currently)?"
                  r" (?:live|lived|living|reside|residing|moved|moving|relocated|relocating|based|rent|renting)"
                  r"(?: (?:out of|away from) the (?:city|town|village|suburbs)| back| out| over| down| up| alone|"
                  r" together)?"
                  r"(?: with (?:my|our) [a-z]+(?: [a-z]+)?)? (?:in|to|(?:(?<=live )|(?<=lived )|(?<=living )|"
                  r"(?<=live up )|(?<=lived up ))at) (?:(?:an?|the) "
                  r"(?:[\w-]+ ){0,2}"
                  r"(?:flat|house|apartment|place|cottage|bungalow|studio|condo|town|village|dorms?|halls|residence)"
                  r"(?-i: (?:on|off|at) " + CAPITALISED + r"(?: " + CAPITALISED + r"){0,3})? "  # "a house on
                  r"in )?(" + PLACE_ON + r")",  # Gleneagles Avenue in Rushey Mead": the street's part of town
                  text, re.I) or re.search(r"\bbased (?:in|out of) (" + PLACE_ON + r")", text) \
        or re.search(r"(?:^|[,;] )(?i:been|lived|living) (?:living )?in (" + PLACE_ON + r")(?= since\b)", text)
    # "Born and raised in Twillingate, been living in Gander since '89": the "I" left out
    if m and re.match(r"[\w -]+'s (?:[a-z]+ ){0,2}(?:lab|office|branch|site|team|store|shop|clinic|department|plant|"
                      r"depot|warehouse|studio|location)\b", m.group(1)):
        m = None  # "I moved to Dentica's second lab in Krzyki": a workplace's branch, no home
    if m and re.search(r"\blived\b", m.group(0)) and not re.search(r"(?:'ve|have|has)(?: \w+)? lived\b", m.group(0)):
        m = None  # "when I lived in Monterrey", "I lived in Rome for a year": a home that was
    if m and (place := _place_named(places, m.group(1))):
        if re.search(r"\b(?:moving|relocating)\b", m.group(0), re.I) and not re.search(r"\bfrom\b", m.group(0)):
            add("plans", f"move to {place}")  # "now we're moving to Melbourne in March": not the home yet
        else:
            add("home_city", place)
            rest = text[m.start(1) + len(place):]
            part = re.match(r",? (?:in|on) (?:the )?(?=" + NAME + r")", rest)
            if part and (district := _place_named(places, rest[part.end():])):
                add("home_city", district)  # "I live in Lyon, in the Croix-Rousse": its part of town too
    m = re.search(r"\b(?:i|we) (?:'ve |have )?(?:just |recently |finally )?bought (?:a|our first|my first) "
                  r"(?!holiday |vacation |second |summer |rental |beach |ski |investment )(?:[\w-]+ )?"
                  r"(?:flat|house|home|apartment|cottage|place|condo) in (" + PLACE_ON + r")", text, re.I) \
        or re.search(r"\bi used to live in " + CAPITALISED + r"(?: " + CAPITALISED + r")*,? (?:but |and )?now "
                     r"(?:i 'm|i am|i live|we 're|we live|we are) in (" + PLACE_ON + r")", text,
                     re.I)  # "…, now in Lyon"
    if m and (place := _place_named(places, m.group(1))):
        add("home_city", re.sub(r"'s?$", "", place))  # "a flat in Glasgow's West End"
    m = re.search(r"\b(?:[Mm]y|[Oo]ur) (?:own |little |small |tiny |rented |new )?(?:house|flat|apartment|home|"
                  r"apartment building|building|terrace|terraced house|semi|bungalow|cottage|place|condo|townhouse|"
                  r"maisonette|bedsit|landlord|landlady|neighbou?rs?) (?:here |up |down |out )?in "
                  r"(" + PLACE_ON + r")", text) \
        or re.search(r"\b(?:i|we) (?:'m |am |are |'re |'ve been |have been )?(?:renting|rent|share|sharing) an? "
                     r"(?:[\w-]+ )?(?:flat|house|"
                     r"apartment|room|place|studio|bedsit|[a-z]+-bed(?:room)?) in (" + PLACE_ON + r")", text,
                     re.I) \
        or re.search(r"\b(?:i|we) (?:'m|am|are|'re) in an? (?:[\w-]+ ){0,3}(?:flat|house|apartment|studio|bedsit|"
                     r"condo|[a-z]+-bed(?:room)?) (?:here |up |down |out )?in (" + PLACE_ON + r")", text, re.I) \
        or re.search(r"\b(?:i|we) (?:'m |am |are |'re )(?:moving|relocating) from "
                     r"(" + CAPITALISED + r"(?: " + CAPITALISED + r")*) to " + CAPITAL, text,
                     re.I)  # "We're moving from Cardiff to Bristol": Cardiff until then
    m = m or _where(text, r"(?:live|'re based|are based)") or _staying(text)  # "out of Madrid, which is where we
    # live", "I'm in Toronto, Leslieville", "we're just outside Harrogate"
    if m and (place := _place_named(places, m.group(1))):
        add("home_city", place)  # "my house in Guadalajara", "renting a flat in Manchester"
    m = re.search(r"\b[Ii]\b[^.;!?]*?,? (?:but|and|then|so) (?:just |recently |finally |later )?(?:moved|relocated) to "
                  r"(" + PLACE_ON + r")", text) \
        or re.search(r"\b[Ii]\b[^.;!?]*?, (?:and |but )?(?:now )?live in (" + PLACE_ON + r")", text) \
        or re.search(r"\b[Ii](?: 've| have) been (?:living |based )?in (" + PLACE_ON + r") (?:for (?:\d+|[a-z]+) "
                     r"(?:years|yrs)|since (?:19|20)\d\d)\b", text)
    # "I'm originally from Lagos but moved to Toronto in 2019", "grew up in Gary, Indiana, live in Fitchburg now",
    # "I've been in Dubai for six years"
    if m and (place := _place_named(places, m.group(1))):
        add("home_city", place)
    m = re.search(r"\b[Ii](?: 'm| am| was)? (?:(?:" + CAPITAL + r"[a-z]+|\d{1,2}), )?"
                  r"(?:originally |born and (?=raised ))?"
                  r"(?:from|born (?:in|on)(?: an? (?:small |little |tiny )?(?:village|town|city|suburb) (?:just )?"
                  r"(?:outside|near|close to|north of|south of|east of|west of))?|"  # "a village outside Jalandhar"
                  r"(?:grew up|raised)(?: (?:on|in|near) an? [a-z]+(?: [a-z]+)?| with(?: [\w']+){1,3})? in) "
                  r"(" + PLACE_ON + r")",
                  text)  # "on a farm in Iowa", "I'm Egyptian, from Alexandria"
    if m and (place := _place_named(places, m.group(1))):
        add("hometown", place)
    m = re.search(r"\b[Ww]e (?:were )?(?:both |all )?(?:grew up (?:together )?|born )in (" + PLACE_ON + r")", text) \
        or re.search(r"(?:^(?:[A-Z][a-z]{1,7} [—–] )?|(?<=[.!?] )|(?<=, ))(?:[Aa]nd |[Bb]ut )?"
                     r"(?:[Gg]rew up(?: w(?:ith|/)(?: [\w']+){1,3})?|"
                     r"[Bb]orn and raised|[Bb]orn) in (" + NAMES
                     + r")", text) \
        or _where(text, r"(?:grew up|'m from|am from|come from|was born|were born)") \
        or re.match(r"(" + NAMES + r")(?: 's| is) where (?i:(?:i|we) (?:both )?(?:grew up|was born|"
                    r"were born|'m from|am from|come from))\b", text) \
        or re.search(r"\b[Ii] (?:(?!(?:who|whose|he|she|they|my|his|her|their)\b)[^.;!?,])*? and (?:then )?grew up "
                     r"in (" + PLACE_ON + r")", text)
    # "We grew up in Soweto", "We were both born in Turda",
    # "Grew up in Nukuʻalofa, we walked everywhere", "Neither — born and raised in Ísafjörður", "in Salvador, where I
    # grew up", "Tulsa's where I grew up", "Came to Canada at 12 and grew up in Mississauga"
    if m and (place := _place_named(places, m.group(1))):
        add("hometown", place)
    m = re.search(r"\b[Ii](?: ?'m| am) an? (" + NAMES + r") (?:boy|girl|lad|lass|native|(?:man|woman),? born and "
                  r"(?:bred|raised))\b", text) \
        or re.search(r"(?:^|\( |, |- )(" + NAMES + r") (?:lad|lass|born (?:and|&) (?:bred|raised))\b", text) \
        or re.search(r"\( ?(" + NAMES + r") (?:boy|girl|lad|lass)(?: forever| at heart| through and through)? ?\)",
                     text) \
        or re.search(r"\b[Ii](?: ?'m| am) (" + NAMES + r") born (?:and|&) (?:bred|raised)\b", text) \
        or re.search(r"\b[Ii](?: ?'m| am) an? (" + NAMES + r")-born\b", text)  # "I'm a Liverpool-born actor"
    # "I'm a Gdańsk boy", "I'm a Cork man born and bred",
    # "(Fort William lad, …)", "(Chennai girl forever)", "Peckham born and bred", "I'm Birmingham born and raised"; not
    # "I'm a Swedish native" (a nationality)
    if m and (place := _place_named(places, m.group(1))) and not re.search(r"(?:ish|ian|ese|ean)$", place):
        add("hometown", place)
    m = re.search(r"\b[Mm]y (?:home country|hometown|home town|homeland|native place|native town|native village)"
                  r"(?:,| of| is)? (" + CAPITALISED + r")", text)  # an Indian English "My native place is Guntur"
    if m:
        add("hometown", m.group(1))
    m = re.search(r"\b(?:[Ii]|[Ww]e)\b[^.;!?]*? here in (" + NAMES + r")", text)
    if m and not re.search(r"\b(?:visit|visiting|trip|holiday|vacation|conference|week|weekend|days|staying|stay|"
                           r"tour|touring|passing through|until|till|start|starting|will|'ll|going to|next)\b", text,
                           re.I) \
            and (place := _place_named(places, m.group(1))):
        add("home_city", place)  # "I teach physics at Nordahl Grieg upper secondary here in Bergen"
    return found


def _place_named(places: list[str], rest: str) -> str | None:
    """The place `rest` starts with: a place spaCy named, else its capitalised words ("Headingley with …")."""
    place = next((p for p in places if rest.startswith(p)), None) or proper_name(rest)
    return None if place and (re.fullmatch(rf"(?:{MONTH}|{DAY})", place.lower()) or place.lower() in KIN) \
        else place  # "Moved in January", "chez Maman & Papa (where I grew up)"


def _where(text: str, verbs: str) -> re.Match[str] | None:
    """The place a relative clause says the speaker lives in or comes from: "Manchester, where we live", "in
    Ōtāhuhu where i live", "Bradford, where we both grew up" (not a sentence's first word: "Anyway, where I live …")."""
    return re.search(r"(?<=\S )(" + NAMES + r"),? \(?(?i:(?:which|that)?(?: 's| is)? ?where (?:i|we) "
                     r"(?:both )?(?:still |now )?" + verbs + r")\b", text)


def _staying(text: str) -> re.Match[str] | None:
    """The place the speaker says they are in, said as where they are now and not as a stay ("I'm in Toronto,
    Leslieville"; not "I'm in Paris for work", "in Rome until Sunday", "in Lisbon this week")."""
    m = re.search(r"\b(?:(?:[Ii] 'm|[Ii] am|[Ww]e 're|[Ww]e are) (?:just |right |out \w+ |based )?(?:in|outside|near)|"
                  r"[Ww]e 're out \w+ in) (" + CAPITALISED + r"(?: " + CAPITALISED + r")*)", text)
    stay = m and re.match(r",?\s*(?:for|on|this|next|until|till|visiting|at the moment|right now|today|tonight|again|"
                          r"now for|over|during|at (?:my|our|a|an|the) [\w ]*?[\w-]+ ?'s?(?!\w))\b", text[m.end():],
                          re.I)
    # "I'm in Toronto at my brother's": a stay at someone's
    owned = m and re.match(r"\s?'s\b", text[m.end():])  # "we're in Kudzai's flat in Meanwood": a person's, no place
    return None if stay or owned else m
