"""An e-mail's signature block in a speaker's turn, for the rules reader: the speaker's own name alone on a line, then
their title and their organisation, written as a form's lines (labelled.py reads them as the speaker's).

    signed("Thanks,\\nAnna\\n\\nAnna Kowalski\\nSenior Analyst\\nNordlys Energi AS\\n+47 22 00 00 00", "Anna Kowalski")
    # "Thanks,\\nAnna\\n\\nAnna Kowalski\\nJob: Senior Analyst\\nEmployer: Nordlys Energi AS\\n+47 22 00 00 00"

Only a block under the speaker's whole name is read: a pasted e-mail signed by someone else says nothing of the
speaker. A title is a line that names a job (work.is_job) or a title's word ("Head of Field Operations"); the
organisation is the line right after it, unless it is a phone number, an address of e-mail or web, or a place
("Esbjerg, Denmark"). "Title | Organisation" and "Title, Organisation" on one line are read too.
"""
from __future__ import annotations

import re

from .work import is_job

TITLE = re.compile(r"\b(?:head|lead|manager|director|officer|chief|ceo|cto|cfo|coo|founder|co-founder|owner|partner|"
                   r"president|vp|engineer|analyst|consultant|specialist|coordinator|administrator|assistant|associate|"
                   r"adviser|advisor|supervisor|executive|designer|developer|architect|editor|producer|lecturer|"
                   r"professor|principal|headteacher|dean|secretary|technician|scientist|researcher|"
                   r"representative)\b", re.I)
NOT_NAMED = re.compile(r"\d{3}|@|www\.|https?:|^\s*[-–—_=*]+\s*$")  # a phone, an e-mail or web address, a rule
PLACE = re.compile(r"^[A-ZÀ-Ý][\w'. -]+, [A-ZÀ-Ý][\w'. -]+$")  # "Esbjerg, Denmark": no organisation
SPLIT = re.compile(r"\s+\|\s+|\s+[–—]\s+|,\s+(?=[A-Z])")  # "Senior Analyst | Nordlys Energi AS"


def signed(text: str, speaker: str | None) -> str:
    """`text` with the lines of a signature block under the speaker's whole name as form's lines; the same text when
    it has none."""
    if not speaker or " " not in speaker.strip() or speaker.strip().lower() not in text.lower():
        return text
    lines = text.split("\n")
    for n, line in enumerate(lines[:-1]):
        if line.strip().strip(",.").lower() != speaker.strip().lower():
            continue
        title = lines[n + 1].strip()
        if not title or NOT_NAMED.search(title) or not (is_job(SPLIT.split(title)[0]) or TITLE.search(title)):
            continue
        parts = [p.strip() for p in SPLIT.split(title, maxsplit=1)]
        lines[n + 1] = f"Job: {parts[0]}"
        employer = parts[1] if len(parts) > 1 else (lines[n + 2].strip() if n + 2 < len(lines) else "")
        if employer and not NOT_NAMED.search(employer) and not PLACE.match(employer):
            if len(parts) > 1:
                lines[n + 1] += f"\nEmployer: {employer}"
            else:
                lines[n + 2] = f"Employer: {employer}"
    return "\n".join(lines)
