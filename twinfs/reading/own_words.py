"""What a turn says in the speaker's own words and still stands, for the rules reader: quoted lines of someone else's
message dropped, words struck through dropped, a value taken back dropped for the one that replaces it.

    own_words("> I'm vegan these days\\nMe: I'm vegetarian")          # "\\nMe: I'm vegetarian"
    own_words("- ~~marathon training~~ stopped in March")             # "-  stopped in March"
    own_words("Job: nurse - no wait, old answer. Pharmacist now.")    # "Job: Pharmacist now."
    own_words("hi, this is Tom, Ana's husband, typing for her. I'm a chef")  # ""

A pasted email's "> " lines are the other writer's ("> I'm a freelance illustrator now, living in Lisbon"): read as
the speaker's they set a job, a home and a pet that are not theirs. The turn keeps its lines (a blank for each
quoted one), so what comes after reads as before. `as_read`: the turn as the rules reader parses it and as the
model pass's code gates and asks about it (the same words, so a record the rules made stands on the same sentence).
"""
from __future__ import annotations

import re

from .elided import with_subject
from .resume import cv_lines
from .tables import table_lines
from .texting import plain

# "hi, this is Tom, Ana's husband, typing on her account": someone else at the speaker's keyboard; their "I" is not
# the speaker's (to "Ana here, I'm back" or the turn's end)
STAND_IN = re.compile(r"^\W*(?:(?:hi|hello|hey)\b[\s,!.]*)?(?:this is|it's|it is|i'm)\s+[A-Z][\w'-]+\b[^\n.!?]{0,80}?"
                      r"(?:\bon (?:her|his|their) (?:account|phone|laptop|computer|behalf)\b|\bon behalf of\b|"
                      r"\b(?:typing|writing|messaging) for (?:her|him|them)\b|"
                      r"'s (?:husband|wife|partner|son|daughter|mum|mom|dad|brother|sister|friend)\b[^\n.!?]{0,40}?"
                      r"\b(?:typing|writing|here)\b)", re.I)
BACK = re.compile(r"(?:^|[\n.!?]\s*)(?:(?-i:[A-Z][\w'-]+) here|(?:it's )?me again|I'm back)\b", re.I)
QUOTED = re.compile(r"^[ \t]*>.*$", re.M)
STRUCK = re.compile(r"~~[^~\n]+~~")
# "pescatarian - no wait, that's old. vegetarian since 2019": the words before the taking back, from where the line,
# label or sentence starts, up to where the taking back ends (its sentence, or its clause before a comma)
TAKEN_BACK = re.compile(r"(^[ \t]*[-•*][ \t]+|\n[ \t]*[-•*][ \t]+|^|\n|[:.!?][ \t]+)[^\n.!?:]*?[ \t]*[-—–,][ \t]*"
                        r"(?:no wait|wait no|wait,? no|scratch that|no sorry)\b,?[^\n.!?]{0,30}?\b(?:old|wrong|"
                        r"outdated|out of date|mistake|typo|ignore that|changed|not any ?more)\b[^\n.!?]{0,20}[.!?]"
                        r"[ \t]*", re.I)


def own_words(text: str) -> str:
    """`text` without what it quotes, strikes through or takes back, or what someone else typed for the speaker;
    the same text when it has none of them."""
    if STAND_IN.match(text):
        back = BACK.search(text, 1)
        text = text[back.start():] if back else ""
    if ">" in text:
        text = QUOTED.sub("", text)
    if "~~" in text:
        text = STRUCK.sub("", text)
    return TAKEN_BACK.sub(lambda m: m.group(1), text)


def as_read(text: str) -> str:
    """A speaker's turn as the rules reader and the model pass's code read it: their own words, chat shorthand
    written out, a CV's sections and a table's rows as a form's lines, the "I" its notes leave out written in."""
    return with_subject(plain(table_lines(cv_lines(own_words(text)))))
