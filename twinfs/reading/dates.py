"""Time phrases -> days, resolved against the day the turn was said (never against today).

dateparser does the parsing; a few everyday phrases it leaves out ("last weekend", "a few days ago",
"last summer") are turned into phrases it knows, or resolved here.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Literal

Prefer = Literal["past", "future"]

_NUMBERS = {"a couple of": "2", "a couple": "2", "couple of": "2", "a few": "3", "few": "3", "several": "3"}
_NUMBER_RE = re.compile(r"\b(" + "|".join(sorted(_NUMBERS, key=len, reverse=True)) + r")\b", re.I)
_FILLER_RE = re.compile(r"^(?:on|at|during|around|about|by|since|just|only|back|over|like|from|starting"
                        r"|in(?!\s+(?:\d+|a|an)\s))\s+"
                        r"|\s+(?:or so)$", re.I)
_YEAR_RE = re.compile(r"^(?:the\s+year\s+)?((?:19|20)\d\d)$")
_AMOUNT = (r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|"
           r"forty-five|fifty|sixty|ninety|many|some)\s+"
           r"(?:days?|nights?|weeks?|months?|years?|decades?|hours?|minutes?|seconds?)")
_DURATION_RE = re.compile(rf"^(?:for\s+)?{_AMOUNT}(?:,?\s+and\s+{_AMOUNT})*$", re.I)  # "31 minutes and 15 seconds"
_TODAY_RE = re.compile(r"^(?:today|tonight|this (?:morning|afternoon|evening)|earlier today|right now|now)$", re.I)
_WEEKEND_RE = re.compile(r"^(this|last|next|the past|the|(?:my|our|the) (?:whole|entire)|all)\s+weekend$|^weekend$",
                         re.I)
_SEASON_RE = re.compile(r"^(this|last|next|the|past)\s+(spring|summer|fall|autumn|winter)$", re.I)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_OTHER_DAY_RE = re.compile(r"^the other (day|night)$", re.I)
_ORDINAL_RE = re.compile(r"^(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)$", re.I)  # "on the 15th": of this month or the last
# a day of the month said in words: "on the twenty-third"
_UNITS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
ORDINAL_WORDS = {word: n for n, word in enumerate(
    (*_UNITS, "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
     "eighteenth", "nineteenth", "twentieth", *(f"twenty-{u}" for u in _UNITS), "thirtieth", "thirty-first"), 1)}
_ORDINAL_WORD_RE = re.compile(r"^(?:the\s+)?(" + "|".join(ORDINAL_WORDS) + r")$", re.I)
_SEASON_START = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}
_RELATIVE_RE = re.compile(r"\b(ago|last|next|this|past|yesterday|tomorrow|coming|previous|later|earlier|in \d+|in a)\b",
                          re.I)
# Words that look like dates to a parser but are not a time the fact happened.
_NOT_A_TIME = re.compile(r"^(?:now and then|recently|lately|soon|always|never|sometimes|often|once|"
                         r"every\b.*|each\b.*|all day|these days|nowadays|the past|the future|one day|someday|"
                         r"the day|day|days|a day|a while|ages|years|months|weeks|forever|tonight's)$", re.I)

# Candidate phrases in free text: enough to find what a conversation says about when, cheap to scan.
_UNIT = r"(?:days?|nights?|weeks?|weekends?|months?|years?|decades?)"
_NUM = r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a couple(?: of)?|a few|few|several)"
DAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"  # a weekday's name
_SHORT_DAY = r"(?:mon|tues?|wed|thu|thurs?|fri|sat|sun)\.?"  # only after "last", "on" …: "sat" alone is a verb
MONTH = (r"(?:january|february|march|april|may|june|july|august|september|october|november|december|"
          r"jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)")
# "last May": dateparser reads no "last" before a month's name
_NAMED_MONTH_RE = re.compile(rf"^(this|last|next|past|coming|previous)\s+({MONTH})$", re.I)
_FIND_RE = re.compile(
    r"\b(?:"
    rf"{_NUM}\s+{_UNIT}\s+ago"
    rf"|(?:last|next|this|past|coming|previous)\s+(?:{_UNIT}|{DAY}|spring|summer|fall|autumn|winter|{MONTH})"
    rf"|in\s+{_NUM}\s+{_UNIT}"
    r"|yesterday|tomorrow|today|tonight|the other (?:day|night)|earlier today|this (?:morning|afternoon|evening)"
    r"|(?:(?:my|our|the)\s+(?:whole|entire)|all)\s+weekend"
    rf"|(?:on\s+)?{DAY}(?:,?\s+(?:the\s+\d{{1,2}}(?:st|nd|rd|th)?|\d{{1,2}}(?:st|nd|rd|th))(?:\s+(?:of\s+)?{MONTH})?"
    rf"|,?\s+\d{{1,2}}\s+{MONTH})?"  # "Saturday the 8th", "Sat 8th November", "Friday, 4 December"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s*[–-]\s*\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH}"  # "20–23 November"
    rf"|{MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?\s*[–-]\s*\d{{1,2}}(?:st|nd|rd|th)?"  # "November 20-23"
    rf"|(?:last|next|this|past|coming|previous|on)\s+{_SHORT_DAY}(?!\w)"
    rf"|{MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+(?:19|20)\d\d)?"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH}(?:,?\s+(?:19|20)\d\d)?"
    rf"|(?:in|from|starting)\s+{MONTH}(?:\s+(?:19|20)\d\d)?(?!\s+(?:last|next|this)\s+year)"
    rf"|{MONTH}\s+(?:19|20)\d\d"
    r"|(?:in|since|back in)\s+(?:19|20)\d\d"
    rf"|(?<=\bon )the\s+\d{{1,2}}(?:st|nd|rd|th)(?!\s+(?:of\b|{MONTH}|floor|century|grade|birthday|anniversary|time|"
    r"place|row|hole|minute|lap|day|week|month|year))"  # "on the 9th": of this month or the next
    # "on the twenty-third", only where the sentence goes on at once: not "on the third attempt"
    rf"|(?<=\bon )the\s+(?:{'|'.join(sorted(ORDINAL_WORDS, key=len, reverse=True))})(?=\s*(?:[,.;:!?)—–]|$)|\s+"
    r"(?:and|at|to|until|till|for|so|as|when|but|or|then|because|in|with|after|before|by)\b)"
    r")\b",
    re.I,
)

_WEEKDAY_LEAD = re.compile(rf"^(?:{DAY}|{_SHORT_DAY}),?\s+(?=(?:the\s+)?\d{{1,2}}(?!\d|:|\s*[ap]\.?m\b))", re.I)
_CLOCK = re.compile(r",?\s+(?:at\s+)?\d{1,2}(?:[:.]\d{2})?\s*(?:[ap]\.?m\.?|h)(?=\s|$)|,?\s+at\s+\d{1,2}[:.]\d{2}\b",
                    re.I)  # "Saturday 9am", "Friday at 15:30": the day, not its hour
_RANGE = re.compile(rf"^(?:(?P<month>{MONTH})\s+)?(?P<first>\d{{1,2}}(?:st|nd|rd|th)?)\s*[–-]\s*"
                    r"\d{1,2}(?:st|nd|rd|th)?\b", re.I)
_HABIT_RE = re.compile(r"\b(?:every|each|any|a)\s+$", re.I)  # "on a Thursday": any one
# a weekday's part of the day, plural: "Wednesday afternoons", "on Thursday evenings" are every week's
_PARTS_OF_DAYS = re.compile(r"\s+(?:mornings|afternoons|evenings|nights)\b", re.I)

_lock = threading.Lock()
_parser = None


def _dateparser():
    """dateparser takes a second to import; import it once, when a phrase first needs it."""
    global _parser
    with _lock:
        if _parser is None:
            import dateparser

            _parser = dateparser
        return _parser


def days_in(*values: str | None) -> list[date]:
    """The days of stored values that begin with one (`YYYY-MM-DD…`), in order; a missing value, or a hand edit that
    is no day, gives none."""
    out = []
    for value in values:
        try:
            out.append(date.fromisoformat((value or "")[:10]))
        except ValueError:
            continue
    return out


def as_day(value: date | datetime) -> date:
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(UTC)
        return value.date()
    return value


def _weekend(which: str, base: date) -> date:
    saturday = base + timedelta(days=(5 - base.weekday()) % 7)  # this coming (or current) Saturday
    if base.weekday() == 6:
        saturday = base - timedelta(days=1)
    if which in ("last", "the past"):
        return saturday - timedelta(days=7) if saturday >= base else saturday
    if which == "next":
        return saturday + timedelta(days=7) if base.weekday() >= 5 else saturday
    return saturday


def _season(which: str, season: str, base: date) -> date:
    month = _SEASON_START[season]
    start = date(base.year, month, 1)
    if which in ("last", "past"):
        # the last one that has begun and is over, or the one before it
        return start.replace(year=base.year - 1) if start > base - timedelta(days=60) else start
    if which == "next":
        return start if start > base else start.replace(year=base.year + 1)
    return start  # "this summer": the one in this year


def _named_month(which: str, month: int, base: date) -> date:
    """The first day of the month named: "last May" said in August is this May, said in May the one a year ago;
    "next May" the coming one; "this May" this year's."""
    start = date(base.year, month, 1)
    if which in ("last", "past", "previous"):
        return start if month < base.month else start.replace(year=base.year - 1)
    if which in ("next", "coming"):
        return start if month > base.month else start.replace(year=base.year + 1)
    return start


def _of_month(number: int, base: date, prefer: Prefer) -> date | None:
    """The day of the month nearest `base` on the side preferred: "the 15th" said on 17 August is 15 August,
    said on 10 August it is 15 July (or 15 August, for a plan)."""
    year, month = base.year, base.month
    for _ in range(3):  # a month without that day (31 June) is passed over
        try:
            day = date(year, month, number)
        except ValueError:
            day = None
        if day is not None and (day <= base if prefer == "past" else day >= base):
            return day
        month += -1 if prefer == "past" else 1
        year, month = (year - 1, 12) if month == 0 else (year + 1, 1) if month == 13 else (year, month)
    return None


def resolve(phrase: str | None, base: date | datetime, prefer: Prefer = "past") -> date | None:
    """The day a time phrase means when said on `base`: "yesterday" said on 2023-05-08 -> 2023-05-07.

    A `YYYY-MM-DD` date passes through. A bare year or month means its first day. None when the phrase
    names no day ("recently", "every week").
    """
    if not phrase:
        return None
    day = as_day(base)
    text = " ".join(phrase.strip().strip(".,!?;:").split())
    if not text:
        return None
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        try:
            return date.fromisoformat(text)
        except ValueError:
            return None
    text = _NUMBER_RE.sub(lambda m: _NUMBERS[m.group(1).lower()], text)
    while (stripped := _FILLER_RE.sub("", text).strip()) != text:
        text = stripped
    if not text or _NOT_A_TIME.match(text):
        return None
    if not (text := _CLOCK.sub("", " " + text).strip()):
        return day  # "at 3pm": a time of the day it is said
    text = _WEEKDAY_LEAD.sub("", text)  # "Saturday the 8th": the day of the month says which Saturday
    text = _RANGE.sub(lambda m: " ".join(filter(None, (m["month"], m["first"]))), text)  # "20–23 November": the 20th
    if _DURATION_RE.match(text):
        return None  # "for five years" is how long, not when
    if m := _YEAR_RE.match(text):
        return date(int(m.group(1)), 1, 1)
    if _TODAY_RE.match(text):
        return day
    if m := _WEEKEND_RE.match(text):
        which = (m.group(1) or "this").lower()
        which = "the" if which.endswith(("whole", "entire", "all")) else which  # "I spent my whole weekend …"
        weekend = _weekend(which, day)
        if prefer == "past" and which in ("this", "the") and weekend > day:
            weekend -= timedelta(days=7)  # "I built a shed this weekend", said on a Wednesday: the one just gone
        return weekend
    if m := _SEASON_RE.match(text):
        return _season(m.group(1).lower(), m.group(2).lower(), day)
    if _OTHER_DAY_RE.match(text):
        return day - timedelta(days=2)
    if m := _NAMED_MONTH_RE.match(text):
        return _named_month(m.group(1).lower(), _MONTHS.index(m.group(2).lower()[:3]) + 1, day)
    if m := _ORDINAL_RE.match(text):
        return _of_month(int(m.group(1)), day, prefer)
    if m := _ORDINAL_WORD_RE.match(text):
        return _of_month(ORDINAL_WORDS[m.group(1).lower()], day, prefer)
    relative = bool(_RELATIVE_RE.search(text))
    settings = {
        "RELATIVE_BASE": datetime.combine(day, time(12)),
        "PREFER_DATES_FROM": prefer,
        # "last month" keeps the day of the month; "in June" means its first day
        "PREFER_DAY_OF_MONTH": "current" if relative else "first",
        "PREFER_MONTH_OF_YEAR": "current" if relative else "first",
        "RETURN_AS_TIMEZONE_AWARE": False,
    }
    try:
        found = _dateparser().parse(text, languages=["en"], settings=settings)
    except Exception:  # dateparser raises assorted errors on odd input; an unreadable phrase names no day
        return None
    return found.date() if found else None


def _found(text: str) -> list[re.Match]:
    """The candidate time phrases of `text`, but a habit's ("every Tuesday", "each summer": no one day)."""
    return [m for m in _FIND_RE.finditer(text) if not _HABIT_RE.search(text[:m.start()])
            and not _PARTS_OF_DAYS.match(text, m.end())]


def find(text: str, base: date | datetime, prefer: Prefer = "past") -> tuple[str, date] | None:
    """The first time phrase in `text` that names a day, and that day."""
    for m in _found(text):
        day = resolve(m.group(0), base, prefer)
        if day is not None:
            return m.group(0), day
    return None


def phrases(text: str) -> list[str]:
    """Every candidate time phrase in `text`, in order."""
    return [m.group(0) for m in _found(text)]


@dataclass(frozen=True)
class TimeSpan:
    """The days a time phrase in a question covers: "on 3 June 2023" (that day, a day either side for time
    zones), "in June 2023" (the month), "last week", "in 2023". A phrase without a year that names no
    relative time ("in June", "on 3 June") holds in every year."""

    phrase: str
    first: date
    last: date
    every_year: bool = False

    def holds(self, day: date) -> bool:
        if self.every_year:
            return (self.first.month, self.first.day) <= (day.month, day.day) <= (self.last.month, self.last.day)
        return self.first <= day <= self.last

    def meets(self, start: date, end: date) -> bool:
        """Whether something said from `start` to `end` was said inside this window."""
        if self.holds(start) or self.holds(end):
            return True
        return not self.every_year and start <= self.first <= end


_SPAN_DAYS = {"day": 1, "week": 3}  # either side of the day the phrase resolves to
_date_data = None
_MONTH_RE = re.compile(rf"\b{MONTH}\b", re.I)


def _period(text: str) -> str | None:
    """How long a time phrase spans, as dateparser reads it: day, week, month or year."""
    global _date_data
    if _YEAR_RE.match(text):
        return "year"
    if _WEEKEND_RE.match(text) or _TODAY_RE.match(text) or _OTHER_DAY_RE.match(text):
        return "day"
    if _SEASON_RE.match(text):
        return "season"
    if _NAMED_MONTH_RE.match(text):
        return "month"
    with _lock:
        if _date_data is None:
            from dateparser.date import DateDataParser

            _date_data = DateDataParser(languages=["en"])
        parser = _date_data
    try:
        return parser.get_date_data(text).period
    except Exception:  # as in resolve(): an unreadable phrase names no time
        return None


def time_spans(text: str, now: date | datetime) -> list[TimeSpan]:
    """The time windows a question names. Relative phrases resolve against the first day the question names
    outright ("last weekend, as said on 10 April 2023"), or else against `now`."""
    found = phrases(text)
    base = next((day for phrase in found if not _RELATIVE_RE.search(phrase)
                 and (day := resolve(phrase, now)) is not None and re.search(r"\b(?:19|20)\d\d\b", phrase)), now)
    out = []
    for phrase in found:
        day = resolve(phrase, base if _RELATIVE_RE.search(phrase) else now)
        if day is None:
            continue
        core = " ".join(phrase.strip().split())
        while (stripped := _FILLER_RE.sub("", core).strip()) != core:
            core = stripped
        period = _period(core)
        every_year = period in ("day", "month") and bool(_MONTH_RE.search(core)) \
            and not re.search(r"\b(?:19|20)\d\d\b", core) and not _RELATIVE_RE.search(core)
        if period in _SPAN_DAYS:
            days = _SPAN_DAYS[period] + (1 if _WEEKEND_RE.match(core) else 0)
            first, last = day - timedelta(days=_SPAN_DAYS[period]), day + timedelta(days=days)
        elif period == "month":
            first = day.replace(day=1)
            last = (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)
        elif period == "season":
            first = day.replace(day=1)
            last = (first + timedelta(days=95)).replace(day=1) - timedelta(days=1)
        elif period == "year":
            first, last = date(day.year, 1, 1), date(day.year, 12, 31)
        else:
            continue
        out.append(TimeSpan(phrase, first, last, every_year))
    return out
