"""A game's lie, for the rules reader: of "two truths and a lie" about the speaker, the item the speaker says is the
lie is taken out of what is read ("… 3. I have a pet tortoise called Dosa … The lie is 3" -> no tortoise).

    without_the_lie("1. I've been on TV\n2. I speak 4 languages\n(the lie is 2 lol)")  # "1. I've been on TV\n(…)"

The lie is said by its number ("the lie is 3", "lie's #2") or by a word of it ("the lie is Kilimanjaro"): the numbered
line, or the item of a list (between commas, semicolons or a colon) before it that holds the word, goes.
"""
from __future__ import annotations

import re

TOLD = re.compile(r"\b(?:the |my )?lie(?:'s| is| was)\s+(?:#|no\.?\s*|number\s+)?(?:(?P<number>\d)\b|(?:the\s+)?"
                  r"(?P<word>[A-Za-z][\w'-]{2,}))", re.I)
NOT_WORDS = {"that", "this", "obvious", "obviously", "easy", "clear", "one", "which", "what", "about", "in", "a", "an"}


def without_the_lie(text: str) -> str:
    """`text` without the item of a "two truths and a lie" it says is the lie; the same text when it says none."""
    if "lie" not in text.lower() or not re.search(r"\btruths?\b|\blie\b", text, re.I):
        return text
    m = TOLD.search(text)
    if m is None:
        return text
    if m["number"]:
        return re.sub(rf"^[ \t]*{m['number']}[.)][ \t]+.*(?:\n|$)", "", text[:m.start()], count=1, flags=re.M) \
            + text[m.start():]
    word = m["word"]
    if word.lower() in NOT_WORDS:
        return text
    before = text[:m.start()]
    at = before.rfind(word)
    if at < 0:
        return text
    start = max(before.rfind(c, 0, at) for c in ",;:\n") + 1
    ends = [e for e in (before.find(c, at) for c in ",;.\n") if e >= 0]
    end = min(ends) + 1 if ends else len(before)
    return before[:start] + before[end:] + text[m.start():]
