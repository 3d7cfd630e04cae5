"""What a first-person sentence says the speaker intends, for the rules reader: `plans`, each a short phrase in the
speaker's words ("visit Lisbon", "move to Melbourne", "fly to Recife", "run the Ruzafa night 10K"). An intention
said ("I'm planning to", "thinking of"), an arrangement made ("I'm booked to run …", "we've signed for a flat in …")
or a trip said in the present with a time ahead ("in three weeks I fly to Recife", "we fly out 18 December"): the
simple present of "fly", "leave" or "start" says a timetable only with a time ahead beside it."""
from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from .assertion import gate
from .dates import DAY, MONTH, resolve
from .lexicon import NAME, SEEN
from .values import as_spelled, cut_value

Pair = tuple[str, str]
# a time ahead beside a present tense: "in three weeks", "next Friday", "on the 3rd", "18 December", "this Saturday"
AHEAD = re.compile(r"\b(?:next|tomorrow|tonight|this (?:coming )?(?:week|weekend|month|year|summer|winter|spring|"
                   r"autumn|fall|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|the \d{1,2}(?:st|nd|rd|th)"
                   r"\b|in (?:a|an|one|two|three|four|five|six|a few|\d+) (?:days?|weeks?|months?|years?)|on the \w+|"
                   r"on \d|(?:the )?\d{1,2}(?:st|nd|rd|th)? (?:of )?" + MONTH + r"|" + MONTH + r" \d{1,2}\b|(?:the )?"
                   r"(?:first|second|third|\d{1,2}(?:st|nd|rd|th)) of)", re.I)
BASE = {"flying": "fly", "leaving": "leave", "heading": "head", "travelling": "travel", "traveling": "travel",
        "going": "go", "driving": "drive", "moving": "move", "off": "go"}  # "I'm off to Tromsø"
# a plan's verb that says it whole: "I plan to retire"; not "visit", "buy", "start" without what
WHOLE = {"retire", "move", "travel", "emigrate", "relocate", "graduate", "study", "run", "swim", "write", "volunteer"}
# what one has booked to see or sit at a time: "a dentist appointment at 4:30", "physio on Monday"
APPOINTMENTS = (r"(?:(?:" + "|".join(SEEN) + r"|therapist|hospital|dental|eye|smear|blood|driving|theory)"
                r"(?: appointment| check-up| checkup| test)?|haircut|physiotherapy|therapy|counselling|check-up|"
                r"checkup|scan|appointment|job interview|interview|exam)")
PLACE = r"(" + NAME + r"(?: " + NAME + r")*)"
# what one is booked on or signed up for: "a knee reconstruction", "my FA Level 1 course"
BOOKINGS = (r"(?:course|workshop|class|surgery|operation|reconstruction|replacement|procedure|exam|test|appointment|"
            r"retreat|tour|ride|race|marathon|session|training|assessment|induction|seminar|lesson|lessons)")


def plans(text: str, low: str) -> list[Pair]:
    """The (\"plans\", value) pairs `text` states (`low`: it lower-cased)."""
    found: list[Pair] = []

    def add(attribute: str, value: str | None) -> None:
        if value:
            found.append((attribute, value))

    # "I'm planning to visit Lisbon", "thinking about running a marathon"
    m = re.search(r"\b(?:i|we)(?: 'm| am| 're| are)? (?:planning|plan|hoping|hope|intend|intending|aiming|going|"
                  r"gon na|gonna|want|wanna)(?: to| on)? ((?:visit|move|go|start|learn|travel|open|buy|adopt|run|"
                  r"get|take|try|join|study|apply|launch|build|write|become|retire|do|host|throw|give)\b[\w '-]+)",
                  low) \
        or re.search(r"\b(?:i|we)(?: 'm| am| 're| are)? thinking (?:about|of) ((?:visiting|moving|going|starting|"
                     r"learning|travelling|traveling|opening|buying|adopting|running|getting|taking|trying|joining|"
                     r"studying|applying|launching|building|writing|becoming|retiring)\b[\w '-]+)", low)
    if m and re.match(r"(?:do|host|throw|give) (?:it|this|that|them|something|anything|more|my|the same|so|some|a lot"
                      r"|what|up|in)\b", m.group(1)):
        m = None  # "I want to do something nice": no deed said
    if m and re.match(r"write (?:[\w'-]+ ){0,6}?(?:post|letter|e-?mail|message|bio|speech|note|statement|profile|"
                      r"review|report|intro|introduction|caption|toast)\b", m.group(1)):
        m = None  # "I want to write introduce post on english radio amateur forum": the text the chat is about
    if m and re.match(r"try (?:to|and)\b", m.group(1)):
        m = None  # "I'm going to try to come back more often": an attempt, no plan made
    if m and re.search(r"\b(?:one day|some ?day|eventually|only maybe|maybe not|if at all|(?:his|her|their) dream)\b",
                       low):
        m = None  # "I want to run the Lisbon half one day", "thinking of getting a second rabbit, but only maybe"
    if m and (value := cut_value(re.split(r" (?:for|with|because|after|before|in order) ", _undated(m.group(1)))[0],
                                 8)) and (" " in value or value in WHOLE):
        add("plans", as_spelled(value, text))  # not a bare "visit" of "I want to visit her": whom, not said
    m = re.search(r"\b(?:i|we)(?: 'm| am| 're| are)? (?:planning|booking|organi[sz]ing|saving for) "
                  r"(an? [\w-]+(?: [\w-]+)? (?:trip|holiday|vacation|honeymoon|visit|move|reunion|road trip|weekend|"
                  r"break|getaway)(?: (?:to|in) (?:the )?(?-i:[A-Z][\w'-]+(?: [A-Z][\w'-]+)*))?)", text, re.I)
    if m:
        add("plans", m.group(1))  # "planning a two-week trip to Japan", "a long weekend in the Scottish Highlands"
    m = re.search(r"\bwhat (?:i|we) (?:really |most )?want(?: to do)? is to ((?:visit|move|go|start|learn|travel|open|"
                  r"buy|adopt|run|get|take|try|join|study|apply|launch|build|write|become|retire)\b[\w '-]+)", low)
    if m:  # "What I really want is to buy a small car by December"
        add("plans", cut_value(re.split(r" (?:for|with|because|before|in order|so) ", m.group(1))[0], 8))
    m = re.search(r"\b(?:i|we)(?: 'm| am| 're| are) (?:starting|beginning) (an? (?:[\w'-]+ ){0,2}?(?:master ?'s|"
                  r"masters|phd|mba|degree|apprenticeship|bachelor ?'s|course|diploma))\b", low)
    if m:
        add("plans", "start " + m.group(1).replace(" 's", "'s"))  # "I'm starting a master's here in September"
    m = re.search(r"\b(?:i|we)(?: 'm| am| 're| are) applying (?:for|to) ((?:an? |the )?(?:[\w'-]+ ){0,3}?(?:post|job|"
                  r"position|role|place|vacancy|visa|residency|scholarship|fellowship|programme|program|"
                  r"apprenticeship|master ?'s|phd|mba|course|mortgage))\b", low)
    if m:
        add("plans", "apply for " + (as_spelled(m.group(1), text) or m.group(1)))  # "I'm applying for a … post"
    m = re.search(r"\b(?:i|we|and i) (?:'re|are|'m|am) getting married\b", low)
    if m:
        add("plans", "get married")  # "Shirin and I are getting married next August"
    m = re.search(r"\b(?:before|when|once) (?:i|we) (?:move|relocate) to ([A-Z][\w'-]+(?: [A-Z][\w'-]+)*)", text) \
        or re.search(r"\b(?:[Ii] 'm|[Ii] am|[Ww]e 're|[Ww]e are) (?:moving|relocating) from "
                     r"[A-Z][\w'-]+(?: [A-Z][\w'-]+)* to ([A-Z][\w'-]+(?: [A-Z][\w'-]+)*)", text)
    if m:
        add("plans", f"move to {m.group(1)}")  # "I want to learn Portuguese before we relocate to Lisbon"
    m = re.search(r"\b(?:[Ii]|[Ww]e)(?: 'm| am| 're| are| 've| have)? (?:finally |just |already |now |also )?(?:"
                  r"booked|signed up|signed (?:myself|ourselves) up|registered|entered|enrolled) (?:just now |today |"
                  r"this morning )?(?:myself |ourselves |us |me )?(?:in )?(?:to|for|into|onto|on) "
                  r"((?:run|do|climb|walk|swim|ride|cycle|see|visit|attend|take|go)\b[\w '-]+|the [\w '-]+|"
                  r"(?:an? |my )(?:[\w'-]+ ){0,4}?" + BOOKINGS + r"\b(?=[^,;.!?]*? (?:on|in|at) (?:the )?(?:\d|"
                  r"(?i:" + MONTH + r")\b)))", text)
    if m and not (m.group(1).startswith(("a ", "an ", "my ")) and not AHEAD.search(text[m.end():])):
        booked = cut_value(re.split(r" (?:for|with|because|before|on|in|at|this|next) ", m.group(1))[0], 8) or ""
        booked = re.sub(r" (?='s?\b)", "", booked)  # the tokens' space before an apostrophe: "beginners ' pottery"
        add("plans", re.sub(r"^(?:an?|my) ", "", booked))
        # "I'm booked to run the Ruzafa night 10K on 14 December", "I'm booked in for a knee reconstruction (ACL) at
        # RPA on 3 March": an arrangement made; a thing booked ("a", "my") only with its day ahead said
    m = re.search(r"\b(?:[Ii]|[Ww]e)(?: 'm| am| 're| are)? (?:fly|flying|leave|leaving|head|heading|travel|"
                  r"travelling|traveling|go|going|drive|driving|move|moving|off(?= to))\b"
                  r"(?: out| off| back| home| over| up| down)?(?: to " + PLACE + r")?", text)
    if m and m.group(1) and AHEAD.search(text):  # where to: not "we fly out 18 December" (a record of no place)
        said = re.sub(r"^(?:[Ii]|[Ww]e)(?: 'm| am| 're| are)? ", "", m.group(0)).split(" ", 1)
        add("plans", " ".join([BASE.get(said[0], said[0]), *said[1:]]))  # "we fly out 18 December", "in three
        # weeks I fly to Recife", "we're flying to Oslo next Friday"
    m = re.search(r"\b(?:i|we)(?: 've got| have got| 've| have| got| 'm having| am having| 're having) (?:an? |my |"
                  r"the |our )?((?:[\w-]+ ){0,2}?" + APPOINTMENTS + r")(?= (?:at \d|tomorrow|tonight|in the (?:morning|"
                  r"afternoon|evening)|(?:on |this |next )?(?:\w+day|the \d+\w*|\d+ \w+)(?: at [\d:.]+ ?(?:am|pm)?)?"
                  r"\s*(?:$|[.!,;])))", low)  # a day that ends the clause: "an interview on Thursday for a lead
    # role at Zalando" is dated_plan's, the deed said whole
    if m and not re.match(r"(?:last|first|old|previous) ", m.group(1)):
        add("plans", as_spelled(m.group(1), text))  # "I've got a dentist appointment at 4:30", "I have physio on
        # Monday": the present of "have" with a time ahead is an appointment kept
    m = re.search(r"\b(?:[Ii]|[Ww]e)(?: 've| have)? (?:already |just |finally )?booked (?:a|an|our|my|the) "
                  r"((?:[\w-]+ ){0,2}?(?:trip|holiday|vacation|cruise|getaway|weekend|week|fortnight|break|tour|"
                  r"flights?) (?:to|in) " + PLACE + r")", text)
    if m and re.search(r"\b(?:for|in|on|from) (?:the )?(?:\d{1,2}(?:st|nd|rd|th)? )?(?:" + MONTH + r")\b", low) \
            and not re.search(r"\b(?:last|ago)\b", low):
        add("plans", m.group(1))  # "we booked a trip to Oaxaca for 20 December": a trip booked for a month ahead
    m = re.search(r"(?:\b(?:at|for|before|to) (?:my|our) ((?:[\w-]+ ){0,2}?" + OCCASIONS + r")|\b(?:my|our) "
                  r"((?:[\w-]+ ){0,2}?" + OCCASIONS + r") (?:is|'s)) (?:(?:booked|set|scheduled|fixed) (?:for )?)?"
                  r"(?:on |this |next |in )?(?:the )?"
                  r"(?:\d{1,2}(?:st|nd|rd|th)?\b|" + DAY + r"|" + MONTH + r"|tomorrow|tonight)", low)
    occasion = m.group(1) or m.group(2) if m else None
    if occasion and not re.match(r"(?:last|first|old|previous|annual) ", occasion):
        add("plans", as_spelled(occasion, text))  # "My leaving do is on Friday 27 November", "at our silver wedding
        # anniversary on 19 December": one's own occasion, dated ahead (the day: dated_plan's); not "I passed my
        # driving test on Tuesday"
    return found


# one's own occasions a day is set for
OCCASIONS = (r"(?:wedding|party|leaving do|hen do|stag do|do|anniversary|exam|exams|finals?|interview|surgery|"
             r"operation|graduation|concert|recital|gig|race|marathon|viva|presentation|audition|housewarming|christening|"
             r"baptism|launch|exhibition|opening|driving test|citizenship test|citizenship interview|citizenship "
             r"ceremony|(?:language|entrance|final|theory|practical) (?:test|exam))")


def _undated(value: str) -> str:
    """A plan's words without the time ahead said after them: "do the prep this Saturday after" -> "do the prep"."""
    ahead = AHEAD.search(value)
    return value[:ahead.start()].strip() if ahead and ahead.start() > 0 else value


def dated_plan(sentence: Any, at: datetime, scheduled: bool) -> tuple[str, str] | None:
    """What the speaker will do on a day ahead the sentence names, in their words, with that day's phrase ("I'll
    submit the application on Friday" -> ("submit the application", "Friday")); None when the sentence names no day
    ahead or says no deed whole of the speaker's (`sentence`: a sentence.Sentence, whose `planned` reads the deed),
    or says it as a wish, an if or someone else's.
    `scheduled`: the sentence is an arrangement in the present ("We fly to Lisbon on Friday")."""
    phrase, where = sentence.time_phrase(at)
    if phrase is None or (planned := sentence.planned(where, scheduled)) is None:
        return None
    # the plan's clause, not one after a dash or a comma's "and": "I'm doing the wellington on Saturday, and her dad
    # can bring a ham if he wants"
    clause = re.split(r"\s[—–-]\s|;|,\s+(?:and|but|so|or)\s", sentence.span.text)
    said = next((c for c in clause if re.search(rf"\b{re.escape(planned.split()[0])}\b", c)), sentence.span.text)
    later = sentence.span.text[sentence.span.text.find(said) + len(said):]
    if re.search(r"\b(?:if|unless|provided|assuming|depending)\b", said, re.I) or (
            phrase.lower() not in said.lower() and phrase.lower() in later.lower()):
        return None  # "I'll come and cheer in June if exams are over"; "I'm doing a law degree in the evenings, so
        # no more Tuesday nets": the day is a later clause's (not "the deadline is the 15th, so I'm submitting by then")
    day = resolve(phrase, at, "future")
    if day is None or (day < at.date() and not phrase.lower().startswith("this ")):
        return None
    return (planned, phrase) if gate(sentence.span, planned, concept="plans").stands("plans") else None


def is_occasion(value: str) -> bool:
    """A plan said as the thing one has ahead ("knee reconstruction", "chem 30 final"), not as a deed ("visit
    Lisbon")."""
    return re.search(r"(?:^|\s)(?:" + OCCASIONS + "|" + BOOKINGS + "|" + APPOINTMENTS + r")$", value, re.I) \
        is not None
