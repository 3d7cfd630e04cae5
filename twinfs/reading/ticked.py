"""A form filled in by ticking, rating and filling blanks, for the rules reader: the boxes ticked as the lines they
say, those left empty dropped, a blank's answer as plain words, a rating as what one likes or does not.

    ticked("Languages spoken:\\n  [x] English  [ ] French  [x] Other: Kikuyu")
    # "Languages spoken: English, Kikuyu"
    ticked("B4 ✅ Has a pet with a human name - our cat Gunnar\\nB2 ❌ Is vegetarian - no way")
    # "I have a pet with a human name. our cat Gunnar"
    ticked("My name is __Ignacio__ and I work as a __process engineer__.")
    # "My name is Ignacio and I work as a process engineer."
    ticked("Coffee: 5/5\\nFootball on TV: 1/5 (can't stand it)")
    # "Likes: Coffee\\nDislikes: Football on TV\\ncan't stand it"

A box left empty ("[ ] French", "B2 ❌ Is vegetarian") says the speaker is not that; read as written, its words were
the speaker's. A line a bingo card or a checklist ticks leaves its "I" out ("✅ Speaks more than two languages"),
and a blank's underscores hide the words from the patterns.
"""
from __future__ import annotations

import re

# a box: "[x]", "[X]", "[✓]", "☑", "✅", "✔" ticked; "[ ]", "☐", "❌", "✗" not
TICK = r"(?:\[[xX✓✔]\]|☑️?|✅|✔️?)"
EMPTY = r"(?:\[ ?\]|☐|❌|✗|✘)"
BOX = re.compile(rf"({TICK}|{EMPTY})\s*")
# a card's square ahead of its box: "B4 ✅", "3. [x]"; not a to-do list's "- [ ] book the vet" (a box left empty
# there is a thing still to do, not one that is not so: read as written)
SQUARE = re.compile(rf"^\s*(?:[A-Z]?\d{{1,2}}[.)]?\s+)?(?={TICK}|{EMPTY})")
HEADER = re.compile(r"^\s*(?P<label>[A-Za-z][\w' /&()-]{0,40}?)\s*:\s*$")
BLANK = re.compile(r"_{2,}([^_\n]+?)_{2,}")
# what a ticked line that leaves its "I" out begins with, and how it reads with it: "Has lived" -> "I have lived"
BARE = {"has": "have", "is": "am", "was": "was", "had": "had", "speaks": "speak", "plays": "play", "owns": "own",
        "lives": "live", "works": "work", "loves": "love", "likes": "like", "can": "can", "knows": "know",
        "hates": "hate", "does": "do", "own": "own", "goes": "go", "drives": "drive", "studies": "study", "runs": "run"}
# a rating: "Coffee: 5/5", "Board games: 4/5 (…)", "Dishes left overnight: 5/5 dealbreaker, I hate that"
RATED = re.compile(r"^[ \t]*(?:[-•*][ \t]*)?(?P<thing>[A-Za-z][\w' -]{1,40}?)[ \t]*:[ \t]*(?P<score>[0-5])"
                   r"[ \t]*/[ \t]*5\b(?P<rest>.*)$", re.M)
HATED = re.compile(r"\b(?:hate|hated|can'?t stand|cannot stand|can not stand|dealbreaker|deal-breaker|loathe|"
                   r"detest)\b", re.I)
# a rating's label that names no thing one likes: how much one minds, allows or wants ("Noise tolerance",
# "Pets welcome", "Cleanliness matters to me")
NOT_A_THING = re.compile(r"\b(?:tolerance|welcome|allowed|ok|okay|matters?|level|importance|i|me|my|someone|"
                         r"anyone|people|using|you|your)\b", re.I)


def ticked(text: str) -> str:
    """The turn with its boxes, blanks and ratings read (see the module's docstring); the same text without any."""
    if not (BOX.search(text) or BLANK.search(text) or RATED.search(text)):
        return text
    text = BLANK.sub(r"\1", text)
    lines = text.split("\n")
    out: list[str] = []
    header: int | None = None  # the index in `out` of a "Languages spoken:" line a row of boxes below it answers
    for line in lines:
        if HEADER.match(line) and not BOX.search(line):
            header = len(out)
            out.append(line.rstrip())
            continue
        if not SQUARE.match(line):  # no box, or one said in passing ("B7 stays ❌, I haven't touched a guitar")
            header = None if line.strip() and not line.startswith((" ", "\t")) else header
            out.append(_rated(line))
            continue
        several = len(BOX.findall(line)) > 1
        items = _boxes(line, several)
        asides = [i for i in items if re.match(r"I\b", i)]  # an empty box's own aside: a line of its own
        items = [i for i in items if i not in asides]
        if header is not None and several and not any(":" in i for i in items):
            if items:
                out[header] = out[header].rstrip() + (" " if out[header].rstrip().endswith(":") else ", ") + \
                    ", ".join(items)
            out.extend(asides)
            continue
        out.extend([*(_bare(item) for item in items), *asides])
    return "\n".join(out)


def _boxes(line: str, several: bool) -> list[str]:
    """The items of a line of boxes that are ticked, each without its box ("[x] Other: Kikuyu" -> "Kikuyu" when
    it is one of `several` boxes, as "Other:" says only that it was not listed)."""
    parts = BOX.split(SQUARE.sub("", line))
    items = []
    for mark, item in zip(parts[1::2], parts[2::2], strict=True):
        item = item.strip().rstrip(",;")
        if re.fullmatch(TICK, mark) and item:
            items.append(re.sub(r"^other\s*:\s*", "", item, flags=re.I) if several else item)
        elif item:  # "[ ] Weekday evenings (I'm doing an MBA at Strathmore)": not that, but the aside is said
            items += [m.group(1) for m in re.finditer(r"\((I\b[^)]*)\)", item)]
    return items


def _bare(item: str) -> str:
    """A ticked line with the "I" it leaves out written in: "Has lived on 3 continents" -> "I have lived on 3
    continents"; a line with a subject or a label of its own as it is."""
    first = item.split(" ", 1)
    verb = BARE.get(first[0].lower())
    if not (verb and len(first) > 1 and first[0][:1].isupper()):
        return item
    said = f"I {verb} {first[1]}"
    # what the square asks, then the speaker's answer: "Is allergic to something - penicillin" is "allergic to
    # penicillin"; "Has a pet with a human name - our cat Gunnar" two sentences
    said = re.sub(r"\b(?:something|anything) [-–—:] (?=\w)", "", said)
    return re.sub(r" [-–—] (?=\w)", ". ", said, count=1)


def _rated(line: str) -> str:
    """A rating as a form's line of what one likes ("Coffee: 5/5" -> "Likes: Coffee"), or does not ("Football on
    TV: 1/5 (can't stand it)", "Dishes left overnight: 5/5 dealbreaker"); a middling one, or one whose label
    names no thing, as written."""
    m = RATED.match(line)
    if m is None or NOT_A_THING.search(m.group("thing")):
        return line
    rest = m.group("rest").strip(" -–—,;:()")
    said = f"\n{rest}" if rest else ""  # "Cooking together: 5/5 - I'm vegan": what it goes on to say, said
    if HATED.search(rest):
        return f"Dislikes: {m.group('thing').strip()}{said}"
    return f"Likes: {m.group('thing').strip()}{said}" if int(m.group("score")) >= 4 else line
