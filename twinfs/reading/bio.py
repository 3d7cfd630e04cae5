"""A speaker's own bio written in the third person, read as the first person, for the rules reader.

    in_first_person("Ananya Krishnan is a data engineer at Swiggy. She lives with her partner Meera.",
                    "Ananya Krishnan")
    # "I am a data engineer at Swiggy. I live with my partner Meera."

A speaker asking for help with a bio, a profile or a game's list about themself writes of themself by name ("Ananya
runs half-marathons badly"). Only a sentence that begins with the speaker's own name (their whole name, or the first
word of it) and a verb is rewritten, and "she"/"he" only in the sentences that follow it in the same paragraph, until
a sentence begins with someone else's name ("Lucía teaches maths and she runs"): a friend's bio stays theirs.
"""
from __future__ import annotations

import re

OWN = {"is": "am", "isn't": "am not", "was": "was", "has": "have", "hasn't": "haven't", "does": "do",
       "doesn't": "don't", "goes": "go"}
# words between the subject and its verb ("Ananya always runs"), none a verb
ADVERBS = ("always", "also", "still", "never", "often", "usually", "really", "just", "now", "recently", "currently")
HER = {"her": "my", "his": "my", "herself": "myself", "himself": "myself", "him": "me"}
SENTENCE = re.compile(r"((?<=[.!?])\s+|\n)")  # a sentence's end, or a line's


def _verb(word: str) -> str:
    """A third person's present verb as the first person's: "runs" -> "run", "studies" -> "study", "is" -> "am"."""
    low = word.lower()
    if low in OWN:
        return OWN[low]
    if low.endswith("ies") and len(low) > 4:
        return word[:-3] + "y"
    if re.search(r"(?:ch|sh|ss|x|z|o)es$", low):
        return word[:-2]
    if low.endswith("s") and not low.endswith("ss") and low not in ADVERBS:
        return word[:-1]
    return word


def _led(sentence: str, who: str) -> str:
    """`sentence` with its subject `who` (or "she"/"he") and the verb after it in the first person, "her"/"his" as
    "my"."""
    said = re.sub(rf"(^|[,;:]\s+|\b(?i:where|when|while|and|but|as|so)\s+|['\"‘“(]){who}(\s+)"
                  rf"(?:({'|'.join(ADVERBS)})\s+)?([\w']+)",
                  lambda m: f"{m[1]}I{m[2]}{m[3] + ' ' if m[3] else ''}{_verb(m[4])}", sentence)
    said = re.sub(r"\b(?:[Hh]er|[Hh]is|[Hh]erself|[Hh]imself|him)\b", lambda m: HER[m[0].lower()], said)
    return re.sub(rf"\b{who}'s\b", "my", said)


def in_first_person(text: str, speaker: str | None) -> str:
    """`text` with the sentences that speak of the speaker by name, and the "she"/"he" after them, in the first
    person; the same text when it has none."""
    if not speaker or not speaker.strip():
        return text
    names = [re.escape(speaker.strip())] + ([re.escape(speaker.split()[0])] if " " in speaker.strip() else [])
    who = "(?:" + "|".join(names) + ")"
    if not re.search(rf"(?:^|[.!?]\s+|\n\s*(?:\d{{1,2}}[.)]\s+|[-•*]\s+)?|['\"‘“]){who}\s+(?:is|was|has|\w+s)\b", text):
        return text
    out = []
    for paragraph in re.split(r"(\n[ \t]*\n)", text):  # a blank line between paragraphs
        parts = SENTENCE.split(paragraph)  # sentences, and the spaces between them
        spoken_of = False  # a sentence of this paragraph began with the speaker's name
        for n in range(0, len(parts), 2):
            bare = re.sub(r"^\s*(?:\d{1,2}[.)]|[-•*])\s+|^['\"‘“]", "", parts[n])
            if re.match(rf"(?:[A-Z][\w ]{{0,30}},\s+)?{who}\s+(?:is|was|has|\w+s)\b", bare):
                spoken_of = True  # "Ananya Krishnan is …", "Originally from Kochi, Ananya studied …"
            elif re.match(r"(?!(?:She|He|Her|His|When|Where|While|In|At|On|Originally|Outside)\b)[A-Z][^\W\d_]+ "
                          r"(?:[A-Z][^\W\d_]+ )?(?:is|was|has|\w+s)\b", bare):
                spoken_of = False  # "Meera works …": someone else is spoken of now
            if spoken_of:
                parts[n] = _led(parts[n], f"(?:{who}|[Ss]he|[Hh]e)")
        out.append("".join(parts))
    return "".join(out)  # the blank lines between paragraphs are among them
