"""A role held for nothing: a club's, a committee's, a cause's, or one the words beside it call unpaid ("treasurer of
the church committee", "club sec, unpaid", "volunteer crew on the lifeboat", "a Sunday school teacher"). Said as the
speaker's job or employer, it is neither; the rules reader (attributes.py) and the model pass's code (kinds.py) both
ask here."""
from __future__ import annotations

import re

# a role held for a club or a cause, not for pay: "treasurer of the church committee", "club sec", "captain this
# season which is unpaid", "volunteer crew on the lifeboat", "the assistant scoutmaster … - that's volunteer"
_UNPAID = re.compile(r"\b(?:volunteer(?:s|ing|ed)?|voluntary|unpaid|pro bono|not a (?:real |paid )?job|for free|no pay|"
                     r"not paid)\b", re.I)
_CLUB_ROLE = re.compile(r"\b(?:secretary|sec|treasurer|chair(?:man|woman|person)?|captain|vice-captain|president|"
                        r"trustee|governor|scoutmaster|(?:scout|cub|guide|brownie|youth) leader|run director|steward|"
                        r"warden|committee member)\b", re.I)
_CLUBS = re.compile(r"\b(?:club|committee|society|association|troop|pack|league|choir|pta|pto|parish|church|mosque|"
                    r"temple|board|residents|rota|guild|lodge|brigade|lifeboat|parkrun)\b", re.I)


def unpaid(value: str, sentence: str) -> bool:
    """`value`, said as the speaker's job or employer in `sentence`, is a role held for nothing: a club's or a
    committee's, or one the words beside it call unpaid ("I'm a nurse and I volunteer at the food bank" keeps the
    nurse: the volunteering is a clause of its own)."""
    sentence = sentence.replace(" 's", "'s")  # the tokens joined ("St Peter 's") as the value is said
    at = sentence.lower().find(value.lower())
    if at < 0:
        return False
    before = sentence[max(0, at - 20):at]
    after = re.split(r"[.;!?]|\b(?:and|but|so) (?:i|we)\b|, (?:i|we)\b", sentence[at + len(value):], maxsplit=1,
                     flags=re.I)[0]
    if re.search(r"\bvolunteer\s*$", before, re.I) or _UNPAID.search(after) or re.search(
            r"\b(?:sunday school|school governor|churchwarden)\b",
            sentence[max(0, at - 40):at] + value, re.I):
        return True  # "I am also a Sunday school teacher", "a school governor at Hawksmoor Primary"
    return bool(_CLUB_ROLE.search(value) and _CLUBS.search(before + value + after))
