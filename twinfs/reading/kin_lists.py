"""Relatives named in a list after their relation, each perhaps with an age: "my grandchildren are Amelia (9),
Jack (7) and baby Rose", "my three are Oliver, who is fourteen, Ruby, 12, and little Finn", "we have two kids -
Leo is 5 and Maya is 3". Each name becomes the relation's value ("grandchild": "Amelia"), as "my sister Lena" does;
the ages are the children's, never the speaker's. `kin_lines`: the same said as a heading and a list,
"My grandchildren, with their ages:\n- Inês (16): surfs every weekend\n- Tiago (13): football" -> a form's line
"Grandchildren: Inês (16), Tiago (13)" (what each does is theirs, not the speaker's: out of the text)."""
from __future__ import annotations

import re

from .ages import SPELLED
from .lexicon import KIN, NAME, NUMBERS

# the relation, plural, and what opens its list; "my three are …" names children by their number alone
_COUNT = r"(?:two|three|four|five|six|seven|\d)"
_PLURALS = {"kids": "child", "children": "child", "sons": "son", "daughters": "daughter", "boys": "son",
            "girls": "daughter", "twins": "child", "grandchildren": "grandchild", "grandkids": "grandchild",
            "grandsons": "grandson", "granddaughters": "granddaughter", "brothers": "brother", "sisters": "sister",
            "siblings": "sibling", "nieces": "niece", "nephews": "nephew", "stepkids": "child",
            "stepchildren": "child", "cousins": "cousin"}
_LEAD = re.compile(r"\b(?:[Mm]y|[Oo]ur)(?: (?:" + _COUNT + r"|lovely|little|wonderful|beautiful|older|younger|own))*"
                   r" (" + "|".join(_PLURALS) + r"|" + _COUNT + r")(?: are| ?:| [-–—]|,)\s+"
                   r"|\b(?:[Ii]|[Ww]e) (?:have|'ve got|have got|got) " + _COUNT + r" (?:(?:young|little|grown-up) )?("
                   + "|".join(_PLURALS) + r")(?: ?:| [-–—]|,)\s+"
                   r"|\b(?:[Mm]y|[Oo]ur|[Tt]he) (twins) (?=[A-Z])")  # "… and the twins Wout and Fien are 2"
_YOUNG = (r"(?:\d{1,2}|" + SPELLED + r"|" + "|".join(NUMBERS) + r"|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
          r"seventeen|eighteen|nineteen)")
_AGE = (r"(?:\s*\(\s*\d{1,2}\s*\)|,? (?:who is|who 's|who's|is|aged?|turning) " + _YOUNG + r"\b(?: now)?"
        r"|,\s*\d{1,2}(?=,| and\b))?")
_ITEM = re.compile(r"(?:(?:little|baby|big|wee|young|the baby|our|my) )?(" + NAME + r")(?!')" + _AGE)
_JOIN = re.compile(r",? and |, |\s*&\s*")
_AFTER = re.compile(r"\s*(?:$|[.,;:!?()\-–—]|(?:who|and|both|all|is|are|'s|was|were)\b)")  # not "Liverpool fans"
# "My grandchildren, with their ages:", "Kids:", then a list of names
_BULLET = r"[ \t]*(?:[-•*]|\d{1,2}[.)])[ \t]+"
HEADING = re.compile(r"^(?P<lead>(?:[^\n]*?[.!?] )?)[ \t]*(?:(?:[Mm]y|[Oo]ur) (?:\w+ )?)?(?P<kin>(?i:kids|children|"
                     r"grandchildren|grandkids|sons|daughters|stepkids))\b[^\n:]{0,40}:[ \t]*\n"
                     r"(?P<list>(?:" + _BULLET + r".*(?:\n|$))+)", re.M)
LISTED = re.compile(r"^" + _BULLET + r"((?:(?:little|baby|big|wee|young) )?" + NAME + r"(?:\s*\(\d{1,2}\))?)", re.M)
NOT_NAMES = {"I", "We", "The", "They", "He", "She", "It", "And", "But", "Both", "All", "Sadly", "Well", "So"}


def listed_kin(text: str) -> list[tuple[str, str]]:
    """(relation, name) for each relative a list after "my <relatives> are / :" or "we have two kids -" names (the
    relation as the lexicon's KIN names it, a child "child", "son" or "daughter" as "my son Leo" is)."""
    found: list[tuple[str, str]] = []
    text = re.sub(r"\( ", "(", re.sub(r" (?=[,)])", "", text))  # the tokens' spaces: "Amelia ( 9 ) ,"
    for lead in _LEAD.finditer(text):
        word = (lead.group(1) or lead.group(2) or lead.group(3)).lower()
        if lead.group(0)[:3].lower() == "the" and not re.search(r"\b(?:my|our|(?:we|i) (?:have|'ve got|have got)) "
                                                                r"(?:\w+ )?(?:children|kids)\b", text[:lead.start()],
                                                                re.I):
            continue  # "the twins" are the speaker's after "we have three children: …", not the neighbours'
        relation = _PLURALS.get(word, "child")  # "my three are …": children
        at, names = lead.end(), list[str]()
        while True:
            item = _ITEM.match(text, at)
            if not item or item.group(1) in NOT_NAMES or item.group(1).lower() in KIN:
                break
            if not _AFTER.match(text, item.end()):
                names = []  # "my kids are Liverpool fans": no names
                break
            names.append(item.group(1))
            join = _JOIN.match(text, item.end())
            if not join:
                break
            at = join.end()
        if len(names) >= (1 if word in _PLURALS else 2):  # "my three are Oliver, Ruby and Finn": a list
            found.extend((relation, name) for name in names)
    return found


def kin_lines(text: str) -> str:
    """`text` with each list of relatives under a heading that names them written as one form's line."""
    if ":" not in text:
        return text

    def line(m: re.Match) -> str:
        names = LISTED.findall(m.group("list"))
        if not names or len(names) < m.group("list").count("\n"):
            return m.group(0)  # a list of more than names
        lead = m.group("lead").rstrip()
        return f"{lead and lead + chr(10)}{m.group('kin').capitalize()}: {', '.join(names)}\n"

    return HEADING.sub(line, text)
