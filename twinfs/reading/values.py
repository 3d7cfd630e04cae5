"""Where a value the rules find begins and ends: cut at the clause, without articles, as the sentence spells it.

"I work as a pharmacist at Boots, and I love it" -> job "pharmacist", employer "Boots"; "I love reading, watching
movies, and exploring nature" -> three hobbies; "pushing myself" or "a few new recipes" is no activity.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

import regex

from .dates import DAY
from .lexicon import BUSINESS, WEEKLY

if TYPE_CHECKING:
    from spacy.tokens import Token

# where a value ends: the clause goes on past these
_CUT = re.compile(r"\s*(?:[,.;!?:()–—]|\s-\s| - | and (?:i|we|it|they|he|she|that|this|my)\b| but | because | cause "
                  r"| 'cause | since | so | when | while | which | who | where | that | if | even (?:though|if|when) "
                  r"| though | although | (?:far |much |way |a lot |so much )?(?:more|better) than "
                  r"| as well| too\b| lately| recently| these days| now\b| again\b| anymore| though\b"
                  r"| i (?=\w)| we (?=\w)"
                  r"| (?:\w+ )?(?:days?|weeks?|months?|years?) ago| last (?:week|month|year|night)| yesterday| today"
                  r"| next (?:week|month|year|spring|summer|autumn|fall|winter|weekend)| someday| sometime| one day"
                  r"| this (?:week|month|year|morning|weekend|spring|summer|autumn|fall|winter)"
                  r"| (?:every|each) (?:day|morning|evening|night|week|weekend|month|year|monday|tuesday|wednesday"
                  r"|thursday|friday|saturday|sunday)| on (?:weekends|weekdays|mondays|tuesdays|wednesdays|thursdays"
                  r"|fridays|saturdays|sundays)| (?:once|twice|three times) a (?:day|week|month)| daily| weekly)",
                  re.I)
# "at" in the languages a job's workplace is said in mid-sentence: "a data analyst bei Northmere Energy"
FOREIGN_AT = ("bei", "bij", "chez", "presso")
AT_PLACE = re.compile(r" (?:at|for|in|with|from|on|of|" + "|".join(FOREIGN_AT) + ") ", re.I)  # a job ends where its
# place begins: "a nurse at St Mary's", "a data analyst bei Northmere Energy"
_LEAD = re.compile(r"^(?:a |an |the |some |my |our |really |also |just |so |very |to |of )+", re.I)
_TRAILING = {"the", "a", "an", "with", "of", "to", "and", "for", "at", "in", "my", "our", "on", "about", "or", "but",
             "their", "his", "her", "some", "this", "that", "from", "by", "as", "so", "really", "just", "is", "are",
             "myself", "themself", "themselves", "ourselves", "either", "though", "honestly", "btw", "fyi", "tbh",
             "lol", "haha"}  # "cyclists myself", "allergic to cats btw"
_NOT_VALUE = {"it", "that", "this", "them", "those", "these", "you", "him", "her", "one", "ones", "things", "stuff",
              "everything", "anything", "something", "lot", "a lot", "how", "what", "when", "being", "having", "too",
              "time", "life", "all", "people", "the idea", "the feeling", "this one", "each other"}
# not an activity: how one is ("doing OK"), a count of things ("a few new recipes"), oneself ("pushing myself")
_NOT_ACTIVITY = re.compile(r"^(?:ok|okay|well|good|great|fine|alright|better|best|few|several|many|lots|some|"
                           r"more|(?:a )?(?:ton|tons|lot|bit)|\d+)\b|\b(?:me|myself|i|us|ourselves)$", re.I)
# what one has to do, not does for its own sake: "learning to drive", "doing interviews every day"
_TASKS = re.compile(r"^(?:drive|driving lessons|interviews?|homework|paperwork|chores|laundry|housework|errands|admin|"
                    r"overtime|(?:night |extra )?shifts?|exams?|revision|taxes)\b", re.I)
# a verb or a time where a thing should be: "what I'm doing is making an impact", "a job I enjoy every day"
_NO_THING = re.compile(r"^(?:is|are|was|were|has|have|had|'s|'re|'m)\b|^(?:every|each|all) (?:day|week|night|morning|"
                       r"month|year|time)s?$", re.I)
# doings that are no pastime without what they are done with: "playing with my kids", "spending time with my mum"
# (VERB_STOP's "talking", "helping", "having" … already none)
_GENERAL_DOING = (r"(?:playing|spending|hanging|working|staying|sitting|living|taking|looking|coming|going|keeping|"
                  r"dealing|making|putting|messing|sharing|waking|falling)\b")
VERB_STOP = re.compile(r"^(?:to|be|been|being|have|get|got|go|do|make|see|feel|know|think|say|tell|hear|try|"
                        r"share|seeing|hearing|talking|chatting|catching|helping|getting|having|doing|love|like|enjoy|"
                        r"hate|prefer)\b", re.I)  # "I do love watching classics": the like, not a hobby "love …"



def joining(t: Token) -> bool:
    """A hyphen inside a word: "forty-four", "sea-swim", "part-time"; a dash inside a name ("Bałtyk–Bieszczady")."""
    return t.text in ("-", "–") and not t.whitespace_ and t.i > 0 and not t.nbor(-1).whitespace_


def names_a_kind(t: Token) -> bool:
    """The word names a kind of the noun after it, not a thing of its own: "mother" of "my mother tongue"."""
    return t.dep_ == "compound" and t.head.pos_ == "NOUN"


def entities(tokens: Iterable[Token]) -> list[tuple[str, str]]:
    """The named entities among the sentence's tokens, in order: [("St Mary's Hospital", "ORG"), …]."""
    found: list[tuple[list[str], str]] = []
    for t in tokens:
        if t.ent_iob_ == "B" or (t.ent_iob_ == "I" and not found):
            found.append(([t.text_with_ws], t.ent_type_))
        elif t.ent_iob_ == "I":
            found[-1][0].append(t.text_with_ws)
    return [(rejoined("".join(words).strip()), label) for words, label in found]


def rejoined(text: str) -> str:
    """A possessive as written: the sentence's tokens joined by spaces read "King 's College" for "King's College",
    "Warriors ' defence" for "Warriors' defence"."""
    return re.sub(r"(?<=\ws) '(?= \w|$)", "'", re.sub(r"\s+'s\b", "'s", text))


def without_the(name: str) -> str:
    """A name without its leading article: "the Royal Free Hospital" -> "Royal Free Hospital"."""
    return re.sub(r"^the ", "", name, flags=re.I)


def workplace(rest: str, orgs: list[str]) -> str | None:
    """The named place a job is done at: "pharmacist at Boots, and …" -> Boots (a named entity or capitals)."""
    at = re.match(r"[\w -]*? (?:at|for|with|" + "|".join(FOREIGN_AT) + r") (?:the )?([A-Z][\w'&.-]*(?: (?:'s|"
                  r"[A-Z][\w'&.-]*))*)", rest)
    at = at or re.match(r"[\w -]*? in (?:the )?([A-Z][\w'&.-]*(?: [A-Z][\w'&.-]*)* (?:Home|Hospital|Clinic|Centre|"
                        r"Center|School|College|Hotel|Surgery|Practice|Infirmary|Ltd|Limited|Inc))\b", rest)  # "care
    # assistant in Ard Aoibhinn Nursing Home": "in" a place that is an employer by its name's last word
    if at is None:
        return None
    name = rejoined(at.group(1))
    return next((o for o in orgs if name.startswith(o) or o.startswith(name)), None) or proper_name(name)


def proper_name(rest: str) -> str | None:
    """The capitalised words a phrase starts with: "Headingley with our cat" -> Headingley, "Ōtāhuhu where …" ->
    Ōtāhuhu (any alphabet's capital); a weekday after "on" is no part of it ("Folkuniversitetet on Wednesdays")."""
    m = regex.match(r"((?:St\.? \p{Lu}[\w'-]+|\p{Lu}[\w'-]+)(?: (?:\p{Lu}[\w'-]+|of|de|upon|on|am)(?= (?!(?i:" + DAY
                    + r")s?\b)\p{Lu}| ?$))*"
                    r"(?: \p{Lu}[\w'-]+)?)",
                    rest.strip())
    value = m.group(1) if m else None
    return value if value and value.lower() not in ("i", "the", "my", "our", "a") else None


def as_spelled(value: str | None, text: str) -> str | None:
    """A lower-cased value as the sentence spells it ("visit lisbon" -> "visit Lisbon")."""
    if value is None:
        return None
    for said in (text, rejoined(text)):  # "portland's food carts" of "Portland 's food carts"
        at = said.lower().find(value.lower())
        if at >= 0:
            return said[at:at + len(value)]
    return value


def cut_value(rest: str, words: int = 6) -> str | None:
    """The value a pattern's tail names: cut at the clause, without articles, at most `words` words."""
    head = _CUT.split(" " + rest, maxsplit=1)[0].strip()
    head = _LEAD.sub("", head).strip(" '\"")
    head = re.sub(r"\s+(?:here|there|so much|a lot|right now)$", "", head)
    head = rejoined(head)
    head = re.sub(r"\s+n't\b", "n't", head)
    tokens = head.split()
    if not tokens or len(tokens) > words:
        tokens = tokens[:words]
    while tokens and tokens[-1].lower() in _TRAILING:
        tokens.pop()
    value = " ".join(tokens).strip(" ,.'\"")
    if not value or value.lower() in _NOT_VALUE or len(value) < 2 or _NO_THING.match(value):
        return None
    return value


def activity(rest: str) -> str | None:
    """A hobby named by a gerund phrase or a noun ("painting", "playing video games", "aerial yoga")."""
    rest = re.sub(r"^(?:learning )?(?:how )?to play (?:the )?", "", rest.strip(), flags=re.I)  # "… the piano"
    rest = re.sub(r"^playing (?:my|our) ", "playing ", rest, flags=re.I)  # "playing my violin" is playing the violin
    value = cut_value(rest, 6)
    if value is None or VERB_STOP.match(value) or _NOT_ACTIVITY.match(value) or _TASKS.match(value) or re.match(
            r"(?:for|with|at|on|in|to|about|from)\b", value, re.I):  # "practicing for my next tournament"
        return None
    if re.match(rf"\w+ing (?:(?:my|our|a|the) )?(?:own )?(?:[\w-]+ )?{BUSINESS}\b", value, re.I):
        return None  # "running my own studio" is work, not a hobby
    done = re.match(r"(\w+ing(?: [\w-]+){0,2}?) (?:with|in|on|at|for|from|using) (?:my|our)\b", value, re.I)
    if done and not re.match(_GENERAL_DOING, done.group(1), re.I) and not re.search(r"\b(?:my|our)\b", done.group(1)) \
            and not re.search(rf"\b(?:{BUSINESS}|work|job|clients?|customers?|boss|team)\b", value[done.end(1):], re.I):
        return done.group(1)  # "cooking with my own methi": cooking; not "finding new trends for my store"
    if re.match(r"\w+ing (?:up |out |down )?(?:my|our)\b", value, re.I) or re.search(r"\b(?:my|our)\b", value, re.I):
        return None  # "breaking up my studying": a way of doing one's own things
    return value


def listed(rest: str) -> list[str]:
    """"reading, watching movies, and exploring nature" -> the three; stops where the list ends."""
    out: list[str] = []
    for part in re.split(r"\s*,\s*(?:and |or )?|\s+and\s+|\s+or\s+", rest):
        value = activity(part)
        if value is None or (out and not re.match(r"\w+ing\b", value)):
            break
        out.append(value)
        if re.search(r"[.;!?]", part):
            break
    return out


# what modifies a word after it: a value that ends on one was cut inside its phrase ("a safe, inviting place")
_LEADS = ("amod", "compound", "det", "nummod", "predet", "nmod")
# what a verb needs after it: a value that ends on the verb and leaves it out was cut ("boost" of "boost my brand")
_NEEDED = ("dobj", "xcomp", "ccomp", "attr", "acomp", "dative")


def whole(value: str, tokens: list[Token]) -> bool:
    """A value is a whole phrase of the sentence: it neither ends on a word that modifies one left out ("creating a
    safe" of "a safe, inviting place"), nor on a verb whose object it leaves out ("market myself and boost" of "…
    boost my brand"), nor begins with a question word ("how to market"). A value the sentence does not spell
    (the rules' own words: "single", "owner of a store") passes."""
    if value.lower().endswith(" of hearing"):
        return True  # "hard of hearing - two hearing aids": a condition's fixed phrase, the parse's verb no verb
    words = "".join(value.lower().split())
    for start, first in enumerate(tokens):
        if not words.startswith(first.lower_):
            continue
        run, end = "", start
        while end < len(tokens) and len(run) < len(words):
            run += tokens[end].lower_
            end += 1
        if run != words:
            continue
        if end - start < 2 or " " not in value.strip():
            return True  # one word: "German" of "German now - tough but fun language" is the language; "low-FODMAP"
        last = tokens[end - 1]
        if first.tag_ in ("WRB", "WP") and not (first.lower_ == "when" and tokens[start + 1].dep_ == "nsubj"):
            return False  # "how to market"; not "when people call me Jonny", a thing done that one minds
        inside = {t.i for t in tokens[start:end]}
        foreign = end < len(tokens) and tokens[end].lower_ in FOREIGN_AT  # the English parse reads "analyst bei
        # Northmere" as one noun
        weekly = last.head.lower_ in WEEKLY  # "rec hockey tuesdays": hockey, on tuesdays
        if last.dep_ in _LEADS and last.head.i > last.i and last.head.i not in inside and not foreign and not weekly \
                and not (last.pos_ == "PROPN" and last.head.pos_ != "PROPN" and last.ent_type_ not in ("DATE", "TIME")):
            return False  # not "on Thursday" of "on Thursday evenings"; "Open University" of "an Open University
            # course" is a whole name before the noun it names a kind of
        return not (last.pos_ == "VERB" and any(c.dep_ in _NEEDED and c.i > last.i and c.i not in inside
                                                  for c in last.children))
    return True
