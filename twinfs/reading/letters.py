"""A letter the speaker writes to themself, for the rules reader: its "you" is the speaker.

    to_oneself("Dear me in 2036,\\nRight now you are 31 and you live in Indiranagar.\\nLove, Priya")
    # "Dear me in 2036,\\nRight now I am 31 and I live in Indiranagar.\\nLove, Priya"

A time capsule's "Dear future me, right now you work at Swiggy" states the writer's facts in the second person; read
as written, every one of them is the listener's. From its "Dear me" line to its sign-off ("Love, …", "Yours, …") or
the turn's end, "you" is written "I" where it does (before its verb) and "me" where it is done to ("Appa keeps
offering to teach you"), "your" "my", and the verb agrees ("you are" - "I am").
"""
from __future__ import annotations

import re

GREETING = re.compile(r"^[ \t]*Dear (?:[\w-]+ ){0,2}(?:me|myself|self)\b[^\n]*$", re.M | re.I)
SIGN_OFF = re.compile(r"^[ \t]*(?:Love|Lots of love|All my love|Yours|Best|Cheers|Take care|xx?)\b[,!]?(?: |$)",
                      re.M | re.I)
# words after which "you" is done to, not doing: "teach you", "proud of you" (and verbs in -ing or -ed: "killing
# you slowly", "asked you")
GOVERNS = {"to", "for", "with", "at", "about", "of", "from", "by", "on", "than", "like", "without", "teach", "tell",
           "love", "thank", "call", "give", "ask", "see", "miss", "make", "let", "help", "remind", "meet", "hug",
           "bring", "take", "want", "need", "wish", "pay", "find", "keep", "know", "drive", "promise", "forgive"}
YOU = re.compile(r"\b(?:(you)(?:'re|'ve|'ll|'d)?|your|yours|yourself)\b", re.I)
AGREES = ((re.compile(r"\bI are\b"), "I am"), (re.compile(r"\bI were\b"), "I was"),
          (re.compile(r"\bI aren't\b"), "I'm not"), (re.compile(r"\bI weren't\b"), "I wasn't"),
          (re.compile(r"\bare I\b", re.I), "am I"))
OWN = {"you're": "I'm", "you've": "I've", "you'll": "I'll", "you'd": "I'd", "your": "my", "yours": "mine",
       "yourself": "myself"}


def to_oneself(text: str) -> str:
    """`text` with each letter to oneself it holds written in the first person; the same text when it holds none."""
    if "dear" not in text.lower() or not (greeting := GREETING.search(text)):
        return text
    end = SIGN_OFF.search(text, greeting.end())
    stop = end.start() if end else len(text)
    return text[:greeting.end()] + _first_person(text[greeting.end():stop]) + text[stop:]


def _first_person(letter: str) -> str:
    def said(m: re.Match) -> str:
        word = m.group(0).lower()
        if word in OWN:
            mine = OWN[word]
        else:
            before = re.findall(r"[\w']+", letter[max(0, m.start() - 30):m.start()])
            last = before[-1].lower() if before else ""
            mine = "me" if last.rstrip("s") in GOVERNS or re.search(r"..(?:ing|ed)$", last) else "I"
        starts = m.start() == 0 or re.search(r"[.!?\n]\s*$", letter[:m.start()]) is not None
        return mine[0].upper() + mine[1:] if starts or mine.startswith("I") else mine

    letter = YOU.sub(said, letter)
    for wrong, right in AGREES:
        letter = wrong.sub(right, letter)
    return letter
