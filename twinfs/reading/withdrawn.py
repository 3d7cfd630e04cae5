"""What the speaker says has ended: a value that held and holds no more, and the earlier record it ends.

    ended("Gwen is not my wife now.")        # [("former_partner", "Gwen")]
    ended("I don't work at Halfords anymore.")  # [("former_employer", "Halfords")]
    ended("I don't do yoga anymore.")           # [("former_hobby", "yoga")]
    withdraw(records, order, at)             # earlier live records those values end, retracted with why

Only what is said to have ended, with a word that says so ("now", "anymore", "no longer", "broke up"): "Sanne isn't
my roommate" denies and ends nothing, "I'm not a doctor" says no job was. The `former_` record is a dated fact of its
own ("Gwen is not Dafydd's wife now"); an earlier record of the speaker (a strictly earlier turn of the thread) whose
attribute means the same and whose value is the ended value, or holds it word for word, is retracted with the later
words as its reason — as a person's correction is, so a window read again keeps it retracted (steps/read.py).
"""

from __future__ import annotations

import re

import regex

from ..folding import concept_of
from ..models import Record
from .kinds import PARTNERS as PARTNER_WORDS
from .work import is_job

PARTNERS = "|".join(re.escape(w) for w in sorted((w for w in PARTNER_WORDS if " " not in w),
                                                  key=lambda w: (-len(w), w)))  # the longest first
NAME = r"(?P<value>[A-Z][\w'-]+(?: [A-Z][\w'-]+)?)"
THING = r"(?P<value>[A-Z][\w&'.-]*(?: (?:[A-Z][\w&'.-]*|of|and|&))*)"  # "St Mary's", "Marks & Spencer"
VALUE = r"(?P<value>[a-z][\w-]*(?: [a-z][\w-]*){0,3}?)"
JOB = rf"an? {VALUE}"
ANYMORE = r"(?:any ?more|no more)"
NOW = rf"(?:{ANYMORE}|now|these days)"
WROTE = r"(?:wrote|said|put|typed|put down)"  # a correction of what the speaker wrote before
OLD = r"(?:that|it|this)(?:'s| is| was) (?:old|wrong|out of date|outdated|not right any ?more|not true any ?more)\b"
_ENDED: list[tuple[str, regex.Pattern]] = [  # the `regex` module: one group name in each alternative
    ("former_partner", regex.compile(rf"\b{NAME} (?:is|'s) no longer my (?:{PARTNERS})\b|"
                                  rf"\b{NAME} (?:is not|isn't|'s not) my (?:{PARTNERS}) {NOW}\b")),
    ("former_partner", regex.compile(rf"\b(?:{NAME} and (?i:I)|(?i:I) and {NAME}) (?:broke up|split up|separated|"
                                  rf"got divorced|are divorced|are separated)\b")),
    ("former_employer", regex.compile(rf"\b(?i:I) (?:no longer work|(?:don't|do not) work) (?:at|for) {THING}")),
    ("former_employer", regex.compile(rf"\b(?i:I) (?:quit|left) my (?:job|position|role) (?:at|with) {THING}")),
    ("former_employer", regex.compile(rf"\b(?i:I)(?:'m| am) not at {THING} {ANYMORE}\b")),  # "I'm not
    # at Kittiwake no more" (not "… now": where one is at the moment)
    ("former_job", regex.compile(rf"\b(?i:I)(?:'m| am) no longer {JOB}(?=[,.;!?]| now\b| any ?more\b|$)|"
                              rf"\b(?i:I)(?:'m| am) not (?:an? )?{VALUE} {NOW}\b")),  # "I am not foreman now"
    ("former_job", regex.compile(rf"\b(?i:I) {WROTE} (?:an? )?{VALUE},? but {OLD}")),  # "I wrote baggage handler but
    # that is old"
    ("former_employer", regex.compile(rf"\b(?i:I) {WROTE} {THING},? but {OLD}")),
    ("former_home", regex.compile(rf"\b(?i:I|we) (?:no longer live|(?:don't|do not) live) in {THING}|"
                               rf"\b(?i:I|we)(?:'m|'re| am| are) not in {THING} {ANYMORE}")),  # "we are not
    # in Knocknacarra anymore"
    ("former_hobby", regex.compile(rf"\b(?i:I) (?:(?:don't|do not) (?:do|play|practi[cs]e) {VALUE} {ANYMORE}|no longer "
                                rf"(?:do|play|practi[cs]e) {VALUE}(?=[,.;!?]| now\b|$))")),  # "I don't do yoga
    # anymore, the studio closed"
    ("former_diet", regex.compile(r"\b(?i:I)(?:'m| am) (?:no longer (?P<value>vegan|vegetarian|pescatarian|"
                               r"plant-based|kosher|halal)\b|not (?P<value>vegan|vegetarian|pescatarian|plant-based) "
                               rf"{NOW})")),
]
# "don't work at" / "don't live in" end a value only with a word that says it held ("anymore", "now")
DENIAL = regex.compile(r"\b(?:don't|do not) (?:work|live)\b", regex.I)


def ended(sentence: str) -> list[tuple[str, str]]:
    """(former_<attribute>, value) for each value the sentence says the speaker no longer has."""
    found: list[tuple[str, str]] = []
    sentence = sentence.replace("\u2019", "'")
    for attribute, pattern in _ENDED:
        for m in pattern.finditer(sentence):
            value = (m.group("value") or "").strip().rstrip(".")
            if not value or attribute == "former_job" and not is_job(value):
                continue  # "I'm not a fan of cyclists myself now": no job
            if DENIAL.search(m.group(0)) and not re.match(rf"[\s,]*{NOW}\b", sentence[m.end():], re.I):
                continue  # "I don't work at Google, I'm a contractor": a denial, not an end
            if (attribute, value) not in found:
                found.append((attribute, value))
    return found


def _words(value: str) -> set[str]:
    return {w for w in re.findall(r"\w+", value.lower()) if w not in ("a", "an", "the", "my", "our")}


def _same(attribute: str, other: str) -> bool:
    concept = concept_of(attribute)
    return concept == concept_of(other) if concept else attribute == other


def withdraw(records: list[Record], order: dict[str, int], at: str, read: set[str] | None = None) -> list[str]:
    """Retract, in `records` (in place), each live record of a speaker that a later `former_` record of theirs ends:
    the same meaning, said in a strictly earlier turn, its value the ended value or holding it word for word. `order`:
    turn id -> its place in the thread; `read`: the ids of the records just read (only they end anything, so a
    record a person brought back by hand stays back until the turn that ended it is read again). Returns the ids
    retracted."""
    retracted: list[str] = []
    for ender in [r for r in records if not r.retracted and (r.attribute or "").startswith("former_") and r.value
                  and (read is None or r.id in read)]:
        attribute = ender.attribute.removeprefix("former_")  # type: ignore[union-attr]
        when = min(order.get(t, len(order)) for t in ender.turns) if ender.turns else len(order)
        words = _words(ender.value or "")
        for n, record in enumerate(records):
            if record.retracted or record.subject != ender.subject or record.by == "assistant" or not record.value \
                    or not record.attribute or not _same(record.attribute, attribute) or not words \
                    or not words <= _words(record.value):
                continue
            if max((order.get(t, len(order)) for t in record.turns), default=len(order)) >= when:
                continue  # said with it or after it: not what it ends
            records[n] = record.model_copy(update={"retracted": {
                "reason": f"said later that it no longer holds: {ender.text!r} ({', '.join(ender.turns)})"[:2000],
                "at": at, "ended_by": ender.id}})
            retracted.append(record.id)
    return retracted + _aged(records, order, at, read)


def _aged(records: list[Record], order: dict[str, int], at: str, read: set[str] | None) -> list[str]:
    """Retract each live age of a speaker that an age they give in a later turn puts right ("I said 58 earlier but
    I turned 59 on the 2nd"): one age holds at a time, the newest said."""
    retracted: list[str] = []
    for newer in [r for r in records if not r.retracted and r.attribute == "age" and r.value and r.by != "assistant"
                  and (read is None or r.id in read)]:
        when = min((order.get(t, len(order)) for t in newer.turns), default=len(order))
        for n, record in enumerate(records):
            if record.retracted or record.attribute != "age" or record.subject != newer.subject \
                    or record.value == newer.value or record.by == "assistant" \
                    or max((order.get(t, len(order)) for t in record.turns), default=len(order)) >= when:
                continue
            records[n] = record.model_copy(update={"retracted": {
                "reason": f"an age said later puts it right: {newer.text!r} ({', '.join(newer.turns)})"[:2000],
                "at": at, "ended_by": newer.id}})
            retracted.append(record.id)
    return retracted
