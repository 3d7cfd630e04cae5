"""The text forms the API takes (ids, days and times, vault paths, text that is not blank), each stated once as a
regular expression that both pydantic's validators and the OpenAPI document use, and the days and times they
become (aware UTC datetimes)."""
from __future__ import annotations

import re
from datetime import UTC, date, datetime, time
from typing import Annotated, Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic_core import core_schema

ITEM_ID = re.compile(r"[A-Za-z0-9._:@-]{1,128}")
ACCOUNT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
NAME_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,30}\Z")
SOURCE_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
THREAD_ID = re.compile(r"^th_[0-9a-f]{16}\Z")
# The text forms below are regular expressions in the common ground of Python's `re` and ECMA-262: the OpenAPI
# document states each as a `pattern`, and the validators match the very same expression against the whole value.
SPACE = r"\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"  # str.isspace()
# Found anywhere: a character that is not white space of the Latin-1 range (str.isspace() below U+0100). Wider
# classes starve the fuzzer's coverage phase on a 100,000-character text; a text of only U+3000 is not blank.
NOT_BLANK = r"[^\t-\r\x1c-\x20\x85\xa0]"
ONE_LINE = r"[^\x00-\x1f\x7f\x85\u2028\u2029]*"  # no line break or control character
_LEAP_YEAR = r"[12][0-9](?:0[48]|[2468][048]|[13579][26])|(?:1[26]|2[048])00"
_MONTH_DAY = (r"(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)"
              r"|02-(?:0[1-9]|1[0-9]|2[0-8])")
DAY = rf"[12][0-9]{{3}}-(?:{_MONTH_DAY})|(?:{_LEAP_YEAR})-02-29"  # a real day of the years 1000-2999
CLOCK = r"(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\.[0-9]{1,6})?)?"
ZONE = r"Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9]"
MOMENT = rf"(?:{DAY})(?:T{CLOCK}(?:{ZONE})?)?"  # a day, or a time on it; no zone means UTC
MOMENT_SAYS = "a day as YYYY-MM-DD, or a full ISO time YYYY-MM-DDTHH:MM[:SS[.ffffff]] with Z, ±HH:MM or no zone (UTC)"
# A vault path: a top folder, then segments that are neither '.' nor '..' and hold no '/', '\', '#' or control
# character, ending on a character that is not a space (paths are stripped before they are checked).
_ANY = r"[^/\\#\x00-\x1f\x7f]"
_NOT_DOT = r"[^./\\#\x00-\x1f\x7f]"
_SOLID = rf"[^/\\#\x00-\x1f\x7f{SPACE}]"
_SOLID_NOT_DOT = rf"[^./\\#\x00-\x1f\x7f{SPACE}]"
_SEGMENT = rf"{_SOLID_NOT_DOT}|\.{_SOLID_NOT_DOT}|{_NOT_DOT}{_SOLID}|{_ANY}{{2,}}{_SOLID}"
_UNDER = rf"(?:/(?:{_SEGMENT}))*/?"
TOP = "items|passages|records|pages"
SCOPE = rf"(?:(?:{TOP}){_UNDER})?"
VAULT_PATH = rf"(?:items|passages|pages){_UNDER}|records{_UNDER}(?:#[0-9]+)?"  # `#N`: one record of a records file
RECORD_ID = r"th_[0-9a-f]{16}#r[\s\S]*"
MOMENT_RE = re.compile(MOMENT)


class Form:
    """A text form as pydantic metadata: `Annotated[str, Form(regex, says)]` states `pattern` in the JSON schema
    and refuses, naming what it must be, any value the same expression does not match whole (or, not `whole`,
    anywhere: JSON Schema's own reading of a pattern)."""

    def __init__(self, regex: str, says: str, whole: bool = True):
        self.regex = re.compile(regex)
        self.says = says
        self.whole = whole

    @property
    def pattern(self) -> str:
        return f"^(?:{self.regex.pattern})$" if self.whole else self.regex.pattern

    def check(self, value: str) -> str:
        if not (self.regex.fullmatch(value) if self.whole else self.regex.search(value)):
            raise ValueError(f"must be {self.says}")
        return value

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(self.check, handler(source))

    def __get_pydantic_json_schema__(self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler) -> dict:
        out = handler(schema)
        out["pattern"] = self.pattern
        return out


class Day(Form):
    """A day or a time as text in MOMENT's form (the value stays text); `'2026-02-30' is not a real day`."""

    def __init__(self) -> None:
        super().__init__(MOMENT, MOMENT_SAYS)

    def check(self, value: str) -> str:
        if parse_moment(value) is None:
            raise ValueError(f"'{value}' is not a real day: use {self.says}")
        return value


class Moment(Day):
    """The same text validated into an aware UTC datetime (a day means its 00:00 UTC); a datetime passes as is."""

    def check(self, value: Any) -> datetime:  # type: ignore[override]
        if isinstance(value, datetime):  # a library caller's own datetime
            return as_utc(value)
        if not isinstance(value, str):
            raise ValueError(f"must be text: {self.says}")
        moment = parse_moment(value)
        if moment is None:
            raise ValueError(f"'{value}' is not a real day: use {self.says}")
        return moment

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_before_validator_function(self.check, handler(source))

    def __get_pydantic_json_schema__(self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler) -> dict:
        return {"type": "string", "pattern": self.pattern}


class PathForm(Form):
    """A vault path: first clean_relpath's refusals, which say what is wrong (`'..' is not allowed`, absolute, not
    memory) as Invalid, then the form, which every path clean_relpath keeps as it is matches."""

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        from .paths import clean_relpath  # one checker of client paths

        def check(value: str, info: core_schema.ValidationInfo) -> str:
            clean_relpath(value, info.field_name or "path", allow_empty=self.regex.fullmatch("") is not None)
            return self.check(value)

        return core_schema.with_info_after_validator_function(check, handler(source))


NotBlank = Annotated[str, Form(NOT_BLANK, "more than white space", whole=False)]
OneLine = Annotated[str, Form(ONE_LINE, "one line: no line break or control character")]
DayText = Annotated[str, Day()]
RecordId = Annotated[str, Form(RECORD_ID, "a record id: th_<16 hex>#r<name>")]
Scope = Annotated[str, PathForm(SCOPE, "a path inside the vault under items/, passages/, records/ or pages/, "
                                   "with no '.' or '..' segment, '\\', '#' or control character")]
VaultPath = Annotated[str, PathForm(VAULT_PATH, "a file of the vault under items/, passages/, records/ or pages/ "
                                            "(records/<thread>.json#N for one record), with no '.' or '..' segment, "
                                            "'\\', '#' or control character")]


ItemId = Annotated[str, Form(ITEM_ID.pattern, "1-128 characters of letters, digits and . _ - : @")]
SourceId = Annotated[str, Form(SOURCE_ID.pattern, "1-32 lowercase letters, digits, '_' or '-', starting with a "
                                                  "letter or digit")]


def as_utc(value: datetime) -> datetime:
    """A naive time is taken as UTC; every stored time is UTC."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def iso(value: datetime) -> str:
    return as_utc(value).isoformat().replace("+00:00", "Z")


def to_second(value: datetime) -> str:
    """A moment to the second in UTC, as a retraction's `at` says it: "2026-11-04T10:00:00Z"."""
    return as_utc(value).isoformat(timespec="seconds").replace("+00:00", "Z")


def parse_moment(text: str) -> datetime | None:
    """Text in MOMENT's form -> an aware UTC datetime (a day means its 00:00 UTC); None for any other text."""
    if not MOMENT_RE.fullmatch(text):
        return None
    if len(text) == 10:
        return datetime.combine(date.fromisoformat(text), time(), tzinfo=UTC)
    return as_utc(datetime.fromisoformat(text.replace("Z", "+00:00")))


def parse_day(value: str | date | datetime | None, field: str) -> datetime | None:
    """A day (`YYYY-MM-DD`), a full ISO time, a date or a datetime -> an aware UTC datetime, or ValueError."""
    if value is None or isinstance(value, datetime):
        return None if value is None else as_utc(value)
    if isinstance(value, date):
        return datetime.combine(value, time(), tzinfo=UTC)
    moment = parse_moment(value)
    if moment is None:
        raise ValueError(f"{field} '{value}' is not a real day: use {MOMENT_SAYS}")
    return moment
