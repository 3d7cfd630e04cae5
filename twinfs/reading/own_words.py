"""What a turn says in the speaker's own words and still stands, for the rules reader: quoted lines of someone else's
message dropped, words struck through dropped, a value taken back dropped for the one that replaces it.

    own_words("> I'm vegan these days\\nMe: I'm vegetarian")          # "\\nMe: I'm vegetarian"
    own_words("- ~~marathon training~~ stopped in March")             # "-  stopped in March"
    own_words("Job: nurse - no wait, old answer. Pharmacist now.")    # "Job: Pharmacist now."

A pasted email's "> " lines are the other writer's ("> I'm a freelance illustrator now, living in Lisbon"): read as
the speaker's they set a job, a home and a pet that are not theirs. The turn keeps its lines (a blank for each
quoted one), so what comes after reads as before. `as_read`: the turn as the rules reader parses it and as the
model pass's code gates and asks about it (the same words, so a record the rules made stands on the same sentence).
"""
from __future__ import annotations

import re

from .elided import with_subject
from .texting import plain

QUOTED = re.compile(r"^[ \t]*>.*$", re.M)
STRUCK = re.compile(r"~~[^~\n]+~~")
# "pescatarian - no wait, that's old. vegetarian since 2019": the words before the taking back, from where the line,
# label or sentence starts, up to where the taking back ends (its sentence, or its clause before a comma)
TAKEN_BACK = re.compile(r"(^[ \t]*[-•*][ \t]+|\n[ \t]*[-•*][ \t]+|^|\n|[:.!?][ \t]+)[^\n.!?:]*?[ \t]*[-—–,][ \t]*"
                        r"(?:no wait|wait no|wait,? no|scratch that|no sorry)\b,?[^\n.!?]{0,30}?\b(?:old|wrong|"
                        r"outdated|out of date|mistake|typo|ignore that|changed|not any ?more)\b[^\n.!?]{0,20}[.!?]"
                        r"[ \t]*", re.I)


def own_words(text: str) -> str:
    """`text` without what it quotes, strikes through or takes back; the same text when it has none of them."""
    if ">" in text:
        text = QUOTED.sub("", text)
    if "~~" in text:
        text = STRUCK.sub("", text)
    return TAKEN_BACK.sub(lambda m: m.group(1), text)


def as_read(text: str) -> str:
    """A speaker's turn as the rules reader and the model pass's code read it: their own words, chat shorthand
    written out, the "I" its notes leave out written in."""
    return with_subject(plain(own_words(text)))
