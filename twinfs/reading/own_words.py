"""What a turn says in the speaker's own words and still stands, for the rules reader: quoted lines of someone else's
message dropped, words struck through dropped, a value taken back dropped for the one that replaces it.

    own_words("> I'm vegan these days\\nMe: I'm vegetarian")          # "\\nMe: I'm vegetarian"
    own_words("- ~~marathon training~~ stopped in March")             # "-  stopped in March"
    own_words("Job: nurse - no wait, old answer. Pharmacist now.")    # "Job: Pharmacist now."
    own_words("hi, this is Tom, Ana's husband, typing for her. I'm a chef")  # ""
    own_words("Don't write that I'm vegan, I'm not.")                  # ", I'm not."

A pasted email's "> " lines are the other writer's ("> I'm a freelance illustrator now, living in Lisbon"): read as
the speaker's they set a job, a home and a pet that are not theirs. The turn keeps its lines (a blank for each
quoted one), so what comes after reads as before. `as_read`: the turn as the rules reader parses it and as the
model pass's code gates and asks about it (the same words, so a record the rules made stands on the same sentence).
"""
from __future__ import annotations

import re

from ..text import quotations
from .ages import SPELLED
from .bio import in_first_person
from .dates import DAY
from .elided import with_subject
from .games import without_the_lie
from .kin_lists import kin_lines
from .letters import to_oneself
from .lexicon import KIN_WORDS
from .profile import profile_lines
from .questionnaire import by_number
from .resume import cv_lines
from .signature import signed
from .tables import table_lines
from .texting import plain
from .ticked import ticked

# "hi, this is Tom, Ana's husband, typing on her account": someone else at the speaker's keyboard; their "I" is not
# the speaker's (to "Ana here, I'm back" or the turn's end)
STAND_IN = re.compile(r"^\W*(?:(?:hi|hello|hey)\b[\s,!.]*)?(?:this is|it's|it is|i'm)\s+[A-Z][\w'-]+\b[^\n.!?]{0,80}?"
                      r"(?:\bon (?:her|his|their) (?:account|phone|laptop|computer|behalf)\b|\bon behalf of\b|"
                      r"\b(?:typing|writing|messaging) for (?:her|him|them)\b|"
                      r"'s (?:husband|wife|partner|son|daughter|mum|mom|dad|brother|sister|friend)\b[^\n.!?]{0,40}?"
                      r"\b(?:typing|writing|here)\b)", re.I)
BACK = re.compile(r"(?:^|[\n.!?]\s*)(?:(?-i:[A-Z][\w'-]+) here|(?:it's )?me again|I'm back)\b", re.I)
QUOTED = re.compile(r"^[ \t]*>.*$", re.M)
# a pasted chat's line, its time and who wrote it first: "[07/11/26, 19:05] Niamh: I'm vegan now" (WhatsApp's
# export), "07/11/2026, 19:05 - Niamh: …" (Android's), "[19:05] Niamh: …"
EXPORTED = re.compile(r"^[ \t]*(?:\[(?:\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4},?\s+)?\d{1,2}:\d{2}(?::\d{2})?"
                      r"(?:\s?[APap][Mm])?\]|\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4},?\s+\d{1,2}:\d{2}(?:\s?[APap][Mm])?\s+[-–])"
                      r"[ \t]*([^:\n]{1,40}):[ \t]?(.*)$", re.M)
STRUCK = re.compile(r"~~[^~\n]+~~")
# a pasted transcript's line, who spoke it first: "HOST: So how did you get into bees?", "RP: Honestly, by accident."
TRANSCRIPT = re.compile(r"^[ \t]*([A-Z][A-Za-z]{0,15})[ \t]*:[ \t]?(.*)$", re.M)
# a repair said as it is spoken: "we live in San Anto— well, technically Helotes now", "I'm thirty-six— no,
# thirty-seven": the words before the dash are taken back when the repair is of their kind (a name for a name, a
# number for a number)
NUMBER = r"(?:\d{1,4}|" + SPELLED + r"|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\w+teen)"
REPAIRED = re.compile(r"(?:(?P<name>\b[A-Z][\w'-]*(?: [A-Z][\w'-]*){0,2})|(?P<number>\b" + NUMBER + r"))"
                      r"[ \t]*[—–-][ \t]*(?:no wait|wait no|no sorry|no|well|sorry|I mean|wait|actually|or rather|er|"
                      r"um)"
                      r"[,.]?[ \t]+"
                      r"(?:(?:technically|actually|really|I mean|it's|it is)[ \t]+)?"
                      r"(?=(?P<fix>(?!(?:I|It|We|They|He|She|You|The|That|This|My|Our)\b)[A-Z]|" + NUMBER + r"\b))")
# an age put right in the sentence after: "I'm 52, I don't need … . Actually 53, had the birthday Tuesday"
AGE_FIXED = re.compile(r"\b(I'?m|I am) (" + NUMBER + r")\b(?P<between>[^.!?\n]{0,120}[.!?][ \t]+)"
                       r"(?P<lead>(?:[Aa]ctually|[Ss]orry|[Ww]ait|[Nn]o|[Cc]orrection),? )(?P<fix>" + NUMBER + r")\b")
# a voice note's "um", "uh"; not a name's "Umm Kulthum"
FILLERS = re.compile(r",? \b(?:um+|uh+|erm+|er)\b(?:,(?= )|(?= (?!(?-i:[A-Z][a-z]))))", re.I)
# "pescatarian - no wait, that's old. vegetarian since 2019", "Also I'm vegan — no wait, that's Mere, sorry.", "I sing
# in the choir... no wait, that was until 2019.": the words before the taking back (what is old or wrong, or
# another's), from where the line, label or sentence starts, up to where the taking back ends (its sentence, or its
# clause before a comma); not "… no wait, that's a Saturday" (a day put right)
TAKEN_BACK = re.compile(r"(^[ \t]*[-•*][ \t]+|\n[ \t]*[-•*][ \t]+|^|\n|[:.!?][ \t]+)[^\n.!?:]*?[ \t]*"
                        r"(?:[-—–,]|\.\.\.|…)[ \t]*(?:no wait|wait no|wait,? no|scratch that|no sorry)\b,?"
                        r"(?:[^\n.!?]{0,30}?\b(?:old|wrong|outdated|out of date|mistake|typo|ignore that|changed|"
                        r"not any ?more|until|till|years ago)\b[^\n.!?]{0,20}|"
                        r" (?:that's|that is|it's|it is) (?:my |our )?(?:[a-z]+ )?(?!(?i:" + DAY
                        + r"))(?-i:[A-Z])[^\n.!?]{0,60}|"
                        r" (?:that's|that is|that was|it's|it is) (?:my|our) (?:ex-?)?(?:" + KIN_WORDS
                        + r")\b[^\n.!?]{0,60})[.!?][ \t]*",
                        re.I)

# a sentence the next one takes back as a joke: "I'm moving to Spain next year. I'm not, but Gary follows me on
# Facebook", "I'm a morning person. Kidding."; not "I'm vegetarian. I'm not strict about it"
JOKED = re.compile(r"(^|\n|[.!?][ \t]+)[^\n.!?]+[.!?][ \t]+(?=(?:I'm not|I am not|I'm not really)(?:[.!]|, but\b)|"
                   r"(?:Just )?(?:[Kk]idding|[Jj]oking)\b|JK\b)")

# what the speaker asks be left unsaid of them: "don't let her write that I'm diabetic — that's my dad", "please
# don't write that I hate the beach" (the words after it, to the clause's end, are no statement of theirs)
UNSAID = re.compile(r"\b(?:don't|do not|doesn't|does not|mustn't|never) (?:let (?:her|him|them|anyone|[A-Z][\w'-]+) )?"
                    r"(?:write|put|say|mention|add|list|tell (?:them|people|anyone)) (?:down )?(?:that )?"
                    r"(?=I\b|I'm\b|I've\b)[^\n.!?;,—–]*",
                    re.I)

# a draft of the speaker's own pasted in quotation marks after words that say it is theirs: 'here's my draft for the
# free-text box: "I'm originally from Nyeri …"', 'Fix my ad?\n\n"FOR SALE - …"', 'the About box, here's mine: "…"';
# not "my mum's message: …" (another's words) nor 'Translate: "I live in Paris"'
OWN_DRAFT = re.compile(r"(?:\bmy (?:(?![\w-]+'s\b)[\w'-]+ ){0,3}?(?:draft|bio|profile|ad|advert|listing|post|blurb|"
                       r"caption|intro|introduction|answer|paragraph|description|version|toast|speech|statement|"
                       r"summary|about me)s?\b|\bhere(?:'s| is) mine\b|\bwhat i (?:wrote|put|typed|have so far)\b)"
                       r"[^\"“\n]{0,60}?[:?.!]?\s*$", re.I)
DRAFT = quotations(20, single=True)
# a line the speaker asks to have added to their own text: "add to about me 'hates 8am meetings'", "on my card add
# 'speaks Estonian …'", "put 'hates: phones at the table'"; not "not 'cat mom to Kozha' anymore" nor "Haruto wrote 'I
# like baseball'" (another's words)
ADDED = re.compile(r"\b(?:add|put|write|make it|change it to|(?:one )?more line)(?: (?:also|too))?(?: (?:to|on|in|"
                   r"at|under|for) (?:my |the |our )?[\w -]{1,30}?)?(?: (?:also|too))?[:,]?\s*(?P<line>"
                   + quotations(3, single=True).pattern + ")", re.I)
# a card's line starts at its verb in the third person: "hates 8am meetings", "speaks Estonian, Finnish …"
AS_MINE = {"hates": "I hate", "loves": "I love", "likes": "I like", "speaks": "I speak", "lives": "I live",
           "works": "I work", "plays": "I play", "teaches": "I teach", "studies": "I study", "is": "I'm"}
BY_VERB = re.compile(r"^(?:" + "|".join(AS_MINE) + r")\b(?!:)", re.I)


def _added(m: re.Match) -> str:
    """A line asked to be added, on a line of its own and in the first person, when it says something of the speaker
    (starts at a verb, a label or "I"): not "add 'inner tubes x20' to the order"."""
    line = m["line"][1:-1]
    if not (BY_VERB.match(line) or re.match(r"(?:[A-Za-z][\w ]{0,30}:\s|I\b|I['’]m\b)", line)):
        return m[0]
    mine = BY_VERB.sub(lambda verb: AS_MINE[verb[0].lower()], line)
    return m.string[m.start():m.start("line")].rstrip(" :,") + ":\n" + mine + "\n"


def drafted(text: str) -> str:
    """`text` with the quotation marks around a draft of the speaker's own taken off (see OWN_DRAFT): its words are
    the speaker's statements, not words given to be translated or said by someone else."""
    text = ADDED.sub(_added, text)
    return DRAFT.sub(lambda m: m[0][1:-1] if OWN_DRAFT.search(text[max(0, m.start() - 120):m.start()]) else m[0],
                     text)


def own_words(text: str, speaker: str | None = None) -> str:
    """`text` without what it quotes, strikes through, takes back or repairs, or what someone else typed for the
    speaker, or another's lines of a chat it pastes (the speaker's own lines kept, their time and name taken off:
    `speaker`, the speaker's name, its first word the name the chat gives them); the same text when it has none of
    them."""
    if ":" in text and EXPORTED.search(text):
        first = (speaker or "").split(" ")[0].lower()
        text = EXPORTED.sub(lambda m: m[2] if m[1].strip().lower() in (first, "me", "you") else "", text)
    if ":" in text and speaker and TRANSCRIPT.search(text):
        text = _transcript(text, speaker)
    if STAND_IN.match(text):
        back = BACK.search(text, 1)
        text = text[back.start():] if back else ""
    if ">" in text:
        text = QUOTED.sub("", text)
    if "~~" in text:
        text = STRUCK.sub("", text)
    text = UNSAID.sub("", FILLERS.sub("", text))  # "I work at, um, Alamo Smiles"
    text = AGE_FIXED.sub(lambda m: f"{m[1]} {m['fix']}{m['between']}{m['lead']}{m['fix']}", text)
    text = REPAIRED.sub(lambda m: "" if bool(m["name"]) == m["fix"][:1].isupper() else m[0], text)
    return JOKED.sub(lambda m: m.group(1), TAKEN_BACK.sub(lambda m: m.group(1), text))


def as_read(text: str, speaker: str | None = None, before: str | None = None) -> str:
    """A speaker's turn as the rules reader and the model pass's code read it: their own words, chat shorthand
    written out, a CV's sections, an e-mail's signature, a table's rows, a pasted YAML or JSON profile, a list of
    one's children and the answers by number to the turn `before`'s numbered questions as a form's lines, a letter to
    oneself in the first person, a game's lie out, a bio of the speaker by name in the first person, the "I" its
    notes leave out written in, the boxes a form ticks, its blanks and its ratings read, a draft of their own
    pasted in quotation marks read as said."""
    said = in_first_person(without_the_lie(own_words(to_oneself(by_number(ticked(drafted(text)), before)), speaker)),
                           speaker)
    return with_subject(plain(table_lines(cv_lines(signed(kin_lines(profile_lines(said)), speaker)), speaker)))


def _transcript(text: str, speaker: str) -> str:
    """A pasted transcript's lines spoken by the speaker (labelled by their initials, "RP", or first name), the label
    taken off, and none of the lines another speaker in capitals spoke ("HOST: …"); the same text when the speaker
    speaks in none of its lines twice (a form's "Job: nurse" lines are no transcript)."""
    names = speaker.split()
    own = {names[0].lower(), "".join(n[0] for n in names).lower(), "me"}
    lines = list(TRANSCRIPT.finditer(text))
    if sum(1 for m in lines if m[1].lower() in own) < 2 or not any(m[1].isupper() and m[1].lower() not in own
                                                                   for m in lines):
        return text
    return TRANSCRIPT.sub(lambda m: m[2] if m[1].lower() in own else "" if m[1].isupper() else m[0], text)
