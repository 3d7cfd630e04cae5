"""A pasted markdown table about a household, for the rules reader: the speaker's row ("| me (Rahul) | 41 | pre-diabetic
|") written as a form's lines and a note, the others' rows as the family they are ("Family: Kavya (wife)"), so that
labelled.py and the list rules read them as they read a form.

    table_lines("| name | age | notes |\\n|---|---|---|\\n| me (Rahul) | 41 | cutting carbs |\\n| Kavya (wife) | 39 |")
    # "Age: 41\\n- cutting carbs\\nFamily: Kavya (wife)"

A turn without a table (a header row, then a row of dashes) is returned unchanged.
"""
from __future__ import annotations

import re

ROW = re.compile(r"^\s*\|(.+)\|\s*$")
RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$", re.M)
ME = re.compile(r"^(?:me|myself|i|me \([^)]*\)|[^()]+ \(me\))$", re.I)
NAME_COLUMNS = {"name", "who", "person", "member", "people"}
NOTE_COLUMNS = {"notes", "note", "comments", "details", "info", "about"}
OURS = re.compile(r"\b(?:I|my|our|we|me)\b", re.I)  # a note in another's row the writer says of themself


def table_lines(text: str, speaker: str | None = None) -> str:
    """`text` with each markdown table's rows as a form's lines; the same text when it has no table. The person of
    a row is in its "who" column, else its first; the speaker's rows are those of "me" or of their first name."""
    if "|" not in text or not RULE.search(text):
        return text
    first = (speaker or "").split(" ")[0].lower()
    lines, out, n = text.split("\n"), [], 0
    while n < len(lines):
        if n + 1 < len(lines) and ROW.match(lines[n]) and RULE.match(lines[n + 1]):
            header = _cells(lines[n])
            column = next((c for c in header if c.lower() in NAME_COLUMNS), header[0])
            n += 2
            family = []
            while n < len(lines) and ROW.match(lines[n]):
                row = dict(zip(header, _cells(lines[n]), strict=False))
                who = row.get(column, "")
                if ME.match(who) or (first and who.lower() == first):
                    out.extend(_speaker_lines(row, column))
                else:  # another's row: a relative ("Amma (my mother)"), a note the writer says of themself ("Bamse
                    # is our old Labrador")
                    family += [re.sub(r"\((?:my|our) ", "(", who)] if "(" in who else []
                    out += [f"- {cell}" for c, cell in row.items() if c.lower() in NOTE_COLUMNS and OURS.search(cell)]
                n += 1
            out += [f"Family: {', '.join(family)}"] if family else []
            continue
        out.append(lines[n])
        n += 1
    return "\n".join(out)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _speaker_lines(row: dict[str, str], first: str) -> list[str]:
    """The speaker's row: a known column as "Label: value", a note as a list line of its own."""
    said = []
    for column, cell in row.items():
        if column == first or not cell or column.lower() in NAME_COLUMNS:
            continue
        said.append(f"- {cell}" if column.lower() in NOTE_COLUMNS else f"{column.capitalize()}: {cell}")
    return said
