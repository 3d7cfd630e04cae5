"""Questions asked by number and answered by number, for the rules reader: each answer as a form's line, labelled by
what its question asks.

    by_number("1. 58\n5. Roskilde, near the fjord.", "1. How old are you?\n5. Where do you live?")
    # "Age: 58\nHome: Roskilde, near the fjord."

An assistant taking a person's details asks a numbered list ("please answer by number") and is answered "1. 58":
the answer alone says nothing of what it is. A line whose question asks for one of the speaker's lasting facts
(asked.ASKS: an age, where they live, where they are from, a diet, allergies, pets, languages), or whose item is a
form's field name labelled.py knows ("4. Occupation", "2. Date of birth / age"), is read as a form's line ("Age: 58",
labelled.py); any other answer is read without its number.
"""
from __future__ import annotations

import re

from .asked import ASKS, PICKING, chosen
from .labelled import attribute_of

NUMBERED = re.compile(r"^[ \t]*(\d{1,2})[.)][ \t]+(\S.*)$", re.M)  # "1. How old are you?", "2) Leeds"
# questions numbered in one line: "Quick picks: 1) mate or coffee? 2) mountains or sea?"
INLINE = re.compile(r"(?:^|(?<=\s))(\d{1,2})[.)][ \t]+([^?\n]+\?)")
# an answer's number may stand bare: "1 yes, 45", "4 yes, penicillin" to a chat's "1) Are you over 16?"
ANSWER = re.compile(r"^[ \t]*(\d{1,2})(?:[.)]|(?=[ \t]+[^\d\s]))[ \t]+(\S.*)$", re.M)
YES = re.compile(r"(?:yes|yeah|yep|yup)\b[,.!:;—–-]*\s*", re.I)  # "yes, penicillin": the answer after its yes
NO = re.compile(r"(?:no|none|nope|nah|not)\b", re.I)  # "no", "not anymore": no fact of the question's
ASKING = re.compile(r"(?:do|does|did|are|is|have|has|how|what|where|which|who|any|can|could|will|would|should)\b")
LABEL = {"age": "Age", "home_city": "Home", "hometown": "Hometown", "diet": "Diet", "allergy": "Allergies",
         "pet": "Pets", "language": "Languages"}  # the labels labelled.LABELS reads as these attributes


def by_number(text: str, asked: str | None) -> str:
    """`text` with each numbered answer to a numbered question of `asked` (the turn before) that asks for a fact of
    LABEL's as that fact's form line; `text` itself when it answers none."""
    if not asked or not ANSWER.search(text):
        return text
    questions = {m[1]: m[2] for m in NUMBERED.finditer(asked)} or {m[1]: m[2] for m in INLINE.finditer(asked)}

    def labelled(line: re.Match) -> str:
        question = questions.get(line[1])
        if question is None:
            return line[0]
        asks = [a for pattern, a in ASKS if pattern.search(question)] if "?" in question else []
        if len(asks) == 1 and asks[0] in LABEL:
            if NO.match(line[2]):
                return line[2]  # "2 no": nothing of what it asks
            answer = YES.sub("", line[2], count=1) if YES.match(line[2]) else line[2]
            said = re.split(r",\s+(?=(?:I|we|my|it)\b)", answer, maxsplit=1)  # "penicillin, I come out in a rash"
            return f"{LABEL[asks[0]]}: {said[0]}" + (f". {said[1][0].upper()}{said[1][1:]}" if len(said) > 1 else "")
        if PICKING.search(asked) and (picked := chosen(question, line[2])):
            return picked  # "1) mate or coffee?" - "1) mate. always." -> "Likes: mate. always."
        label = field(question)
        return f"{label}: {line[2]}" if label else line[2]  # "4. I like cycling": its number says nothing
        # without its question

    return ANSWER.sub(labelled, text) if questions else text


def field(item: str) -> str | None:
    """The form's label a numbered item names ("4. Occupation", "2. Date of birth / age", "3. Country + city of
    residence", "7. Pre-existing medical conditions?"), as labelled.LABELS knows it; None for an item naming none."""
    said = re.sub(r"\([^)]*\)|[?:.]", "", item).strip().lower()
    if ASKING.match(said):
        return None  # "Do you have pets?": a question, for asked.ASKS to read
    for part in reversed(re.split(r"\s*(?:/|\+|,|\bor\b|\band\b|&)\s*", said)):
        words = part.split()
        for n in range(min(len(words), 3), 0, -1):  # "city of residence" -> "residence"
            if attribute_of(" ".join(words[-n:])):
                return " ".join(words[-n:]).capitalize()
    return None
