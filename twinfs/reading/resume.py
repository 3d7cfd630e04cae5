"""A pasted CV's sections, for the rules reader: the lines under a heading ("LANGUAGES", "Education", "Work
experience") written as a form's lines, whose label says what each value is (labelled.py reads them), and a job held
over a closed span of years ("Chemistry teacher, IES Lluís Vives (1999–2021)") left out, as it is no job now.

    cv_lines("LANGUAGES\\nSpanish & Valencian (native), English (C1)")
    # "LANGUAGES\\nLanguages: Spanish, Valencian (native), English (C1)"
    cv_lines("EXPERIENCE\\n- Owner, Mel de l'Horta (2022–present): 30 hives\\n- Teacher, IES Sorolla (1999–2021)")
    # "EXPERIENCE\\nJob: Owner\\nEmployer: Mel de l'Horta\\n"

A line under no heading the module knows stays as it was; a turn with no heading is returned unchanged.
"""
from __future__ import annotations

import re

# a heading alone on its line, in capitals or as a word or two, the section it opens
HEADING = re.compile(r"^\s*(?:#+\s*)?(?P<name>[A-Za-z][A-Za-z &/]{2,30}?)\s*:?\s*$", re.M)
SECTIONS = {"languages": "language", "language skills": "language", "education": "school",
            "education and training": "school", "qualifications": "school", "experience": "job",
            "work experience": "job", "employment": "job", "employment history": "job", "career": "job",
            "professional experience": "job", "work history": "job", "interests": "hobby", "hobbies": "hobby",
            "hobbies and interests": "hobby", "interests and hobbies": "hobby", "hobbies & interests": "hobby",
            "interests & hobbies": "hobby"}
BULLET = re.compile(r"^\s*[-•*·–]\s*")
# a span of years: "(2022–present)", "2019-2020", "(Jul 2019 – Jan 2022)", "since 2022"
SPAN = re.compile(r"\(?\b(?:19|20)\d\d\s*[–—-]\s*(?P<end>(?:[A-Za-z]{3,9}\.? )?(?:19|20)\d\d|present|now|today|current|"
                  r"date)?\b\)?|"
                  r"\bsince (?:19|20)\d\d\b", re.I)
SCHOOL = re.compile(r"\b(?:universit\w*|universidad|université|college|school|institut\w*|academy|polytechnic|"
                    r"hochschule|conservato\w+)\b", re.I)


def cv_lines(text: str) -> str:
    """`text` with each line under a CV's heading written as a form's line ("Job: Owner"), a job that ended left
    out; the same text when it has no such heading."""
    if not HEADING.search(text):
        return text
    out, section = [], None
    for line in text.split("\n"):
        m = HEADING.match(line)
        if m and (m.group("name").isupper() or m.group("name").lower() in SECTIONS) \
                and len(m.group("name").split()) <= 4:
            section = SECTIONS.get(m.group("name").strip().lower())
            out.append(line)
            continue
        if not line.strip():
            section = None  # a blank line ends the section
        if section is None:
            out.append(line)
            continue
        out.extend(_as_form(BULLET.sub("", line).strip(), section))
    return "\n".join(out)


def _as_form(item: str, section: str) -> list[str]:
    """One line of a section as a form's lines: none for a job held over a span that ended."""
    if section == "language":
        return ["Languages: " + re.sub(r"\s+&\s+", ", ", item)]
    span = SPAN.search(item)
    parts = [p.strip() for p in re.split(r",|\s[–—-]\s|\s+at\s+", SPAN.sub("", item).split(":")[0].split(";")[0])
             if p.strip()]
    if section == "school":
        school = next((p for p in parts if SCHOOL.search(p)), None)
        return [f"School: {school}"] if school else [item]
    if section == "hobby":
        return ["Hobbies: " + item]
    if not parts or span is None or (span.group("end") and span.group("end")[-1].isdigit()):
        return []  # "Chemistry teacher, IES Lluís Vives (1999–2021)": a job that was; an undated line no job told
    job = re.sub(r"\s*\([^)]*\)", "", parts[0]).strip()
    return [f"Job: {job}"] + ([f"Employer: {parts[1]}"] if len(parts) > 1 else [])
