"""Pydantic models of what crosses the edges: items, requests, hits, facts, records, phases.

They validate at the edge (HTTP, CLI, MCP, library calls) and are the single source of the OpenAPI schema.
"""
from __future__ import annotations

import re
from datetime import date, datetime, time, timezone
from enum import Enum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .errors import BadRequest

ITEM_ID = re.compile(r"^[A-Za-z0-9._:@-]{1,128}$")
ACCOUNT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
NAME_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,30}$")
SOURCE_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
THREAD_ID = re.compile(r"^th_[0-9a-f]{16}$")
MAX_USER_DIR = 64
MAX_ITEMS = 1000
MAX_TEXT = 100_000
MAX_STATUS_IDS = 500
MAX_QUERY = 2000
MAX_SCOPE = 512


class Phase(str, Enum):
    accepted = "accepted"
    landed = "landed"
    read = "read"
    folded = "folded"
    unknown = "unknown"


PHASE_ORDER = [Phase.accepted, Phase.landed, Phase.read, Phase.folded]


class Strict(BaseModel):
    """Unknown fields are refused, so a typo is an error rather than silently ignored."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False)


class EndUser(BaseModel):
    """One end user: `<org>.<project>.<account>` names their vault folder."""

    model_config = ConfigDict(frozen=True)
    org: str
    project: str
    account: str

    @model_validator(mode="after")
    def _check(self) -> "EndUser":
        for label, value in (("organisation", self.org), ("project", self.project)):
            if not NAME_PART.match(value):
                raise BadRequest(f"{label} '{value}' is not a usable id: letters, digits, '_' and '-', "
                                 "starting with a letter or digit, up to 31 characters")
        if not ACCOUNT_ID.match(self.account):
            raise BadRequest(f"X-Twin-Account '{self.account}' is not a usable id: letters, digits, '.', '_' "
                             "and '-', starting with a letter or digit")
        if len(self.dirname) > MAX_USER_DIR:
            raise BadRequest(f"X-Twin-Account '{self.account}' is too long: with the prefix "
                             f"'{self.org}.{self.project}.' it must be at most {MAX_USER_DIR} characters")
        return self

    @property
    def dirname(self) -> str:
        return f"{self.org}.{self.project}.{self.account}"

    @classmethod
    def parse(cls, org: str, project: str, account: str | None) -> "EndUser":
        if not account:
            raise BadRequest("X-Twin-Account is missing: name the end user whose memory this is")
        return cls(org=org, project=project, account=account)


def as_utc(value: datetime) -> datetime:
    """A naive time is taken as UTC; every stored time is UTC."""
    if value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


def iso(value: datetime) -> str:
    return as_utc(value).isoformat().replace("+00:00", "Z")


class Item(Strict):
    """A message or a document as an app adds it."""

    id: str = Field(description="1-128 letters, digits and . _ - : @; re-adding an id with new content is an edit")
    kind: Literal["message", "document"]
    conversation: str | None = Field(None, max_length=256, description="the conversation a message belongs to")
    role: Literal["user", "assistant"] | None = None
    name: str | None = Field(None, max_length=200, description="who spoke, as shown in passages")
    text: str = Field(min_length=1, max_length=MAX_TEXT)
    at: datetime = Field(description="when it was said or written, ISO 8601")
    title: str | None = Field(None, max_length=500)
    source: str = Field("memory", description="where it came from; names the passages/<source>/ folder")

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        if not ITEM_ID.match(v):
            raise ValueError("must be 1-128 characters of letters, digits and . _ - : @")
        return v

    @field_validator("source")
    @classmethod
    def _source(cls, v: str) -> str:
        if not SOURCE_ID.match(v):
            raise ValueError("must be 1-32 lowercase letters, digits, '_' or '-', starting with a letter or digit")
        return v

    @field_validator("text")
    @classmethod
    def _text(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must not be blank")
        return v

    @field_validator("at")
    @classmethod
    def _at(cls, v: datetime) -> datetime:
        return as_utc(v)


class AddRequest(Strict):
    items: list[Item] = Field(min_length=1, max_length=MAX_ITEMS)
    wait: bool = Field(False, description="hold the answer until the items have landed, at most 10 seconds")

    @model_validator(mode="after")
    def _unique(self) -> "AddRequest":
        seen: set[str] = set()
        for i, item in enumerate(self.items):
            if item.id in seen:
                raise ValueError(f"items[{i}].id '{item.id}' appears twice in one add")
            seen.add(item.id)
        return self


class AddResult(BaseModel):
    event: str
    ids: list[str]
    phases: dict[str, Phase]


class StatusRequest(Strict):
    ids: list[Annotated[str, Field(min_length=1, max_length=128)]] = Field(min_length=1, max_length=MAX_STATUS_IDS)


class StatusResult(BaseModel):
    phases: dict[str, Phase]
    notes: list[str] | None = Field(None, description="e.g. that reading waits on the daily budget")


def parse_day(value: str | date | datetime | None, field: str) -> datetime | None:
    """`YYYY-MM-DD` or a full ISO time -> an aware UTC datetime. A day means its start (00:00 UTC)."""
    if value is None or isinstance(value, datetime):
        return None if value is None else as_utc(value)
    if isinstance(value, date):
        return datetime.combine(value, time(), tzinfo=timezone.utc)
    text = value.strip()
    try:
        if len(text) == 10:
            return datetime.combine(date.fromisoformat(text), time(), tzinfo=timezone.utc)
        return as_utc(datetime.fromisoformat(text.replace("Z", "+00:00")))
    except ValueError:
        raise ValueError(f"{field} '{value}' is not a real day: use YYYY-MM-DD or a full ISO time") from None


class Window(Strict):
    """The date and path bounds shared by search and grep."""

    before: str | None = Field(None, description="only memory said before this day (YYYY-MM-DD or ISO time)")
    after: str | None = Field(None, description="only memory from this day on (YYYY-MM-DD or ISO time)")
    scope: str | None = Field(None, max_length=MAX_SCOPE, description="a path prefix, e.g. passages/memory/messages")

    @field_validator("before", "after")
    @classmethod
    def _day(cls, v: str | None, info) -> str | None:
        parse_day(v, info.field_name)
        return v

    @field_validator("scope")
    @classmethod
    def _scope(cls, v: str | None) -> str | None:
        if v is None:
            return v
        from .paths import clean_relpath  # one checker of client paths

        return clean_relpath(v, "scope", allow_empty=True)

    @property
    def before_at(self) -> datetime | None:
        return parse_day(self.before, "before")

    @property
    def after_at(self) -> datetime | None:
        return parse_day(self.after, "after")


class SearchRequest(Window):
    query: str = Field(min_length=1, max_length=MAX_QUERY)
    fast: bool = Field(False, description="skip the model filter")
    k: int | None = Field(None, description="ignored: the filter decides how many passages the question needs")

    @field_validator("query")
    @classmethod
    def _query(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must not be blank")
        return v

    @property
    def ranked(self) -> bool:
        """With scope or after the answer is a ranked list rather than the brief."""
        return self.scope is not None or self.after is not None


class Hit(BaseModel):
    id: str
    path: str
    thread: str
    text: str
    content: Literal["stored"] = "stored"
    roles: list[str] = []
    turns: list[str] = []
    said: str | None = Field(None, description="when the passage's last turn was said")
    score: float | None = None


class Fact(BaseModel):
    id: str
    path: str
    thread: str
    source: str
    text: str


class SearchResult(BaseModel):
    model_config = ConfigDict(extra="allow")
    query: str
    found: int
    known: list[str] | None = None
    facts: list[Fact] | None = None
    hits: list[Hit]
    worked_out: list[str] | None = None
    notes: list[str] | None = None
    held: bool | None = None
    filtered: bool | None = None


class GrepRequest(Window):
    pattern: str = Field(min_length=1, max_length=MAX_QUERY)
    regex: bool = False


class GrepLine(BaseModel):
    path: str
    line: int
    text: str


class GrepResult(BaseModel):
    pattern: str
    found: int
    lines: list[GrepLine]
    truncated: bool = False


class ReadRequest(Strict):
    path: str = Field(min_length=1, max_length=MAX_SCOPE)
    before: str | None = Field(None, description="the file as the memory held it before this day (from git history)")

    @field_validator("before")
    @classmethod
    def _day(cls, v: str | None) -> str | None:
        parse_day(v, "before")
        return v


class ReadResult(BaseModel):
    path: str
    content: str


RecordKind = Literal["state", "preference", "event", "plan", "relation", "opinion"]


class Record(BaseModel):
    """One dated statement a reader took out of a window of a conversation."""

    id: str
    kind: RecordKind
    text: str
    subject: str
    attribute: str | None = None
    value: str | None = None
    happened: str | None = None
    said: str
    by: Literal["user", "assistant"] = "user"
    turns: list[str]
    source: str
    retracted: dict | None = None

    def render(self) -> str:
        """`(happened 2026-10-01) Alice lives in Lisbon (Alice · home_city: Lisbon) (state)`"""
        when = f"(happened {self.happened}) " if self.happened else f"(said {self.said}) "
        tail = ""
        if self.attribute:
            tail = f" ({self.subject} · {self.attribute}: {self.value})"
        return f"{when}{self.text}{tail} ({self.kind})"


class HistoryRequest(Strict):
    subject: str = Field(min_length=1, max_length=200)
    attribute: str | None = Field(None, max_length=100)


class HistoryValue(BaseModel):
    subject: str
    attribute: str | None
    value: str | None
    said: str
    happened: str | None
    records: list[str]
    by: str | None = None


class HistoryResult(BaseModel):
    subject: str
    attribute: str | None = None
    values: list[HistoryValue]


class CorrectRequest(Strict):
    id: str = Field(min_length=1, max_length=200, description="a record id, th_…#r…")
    reason: str = Field(min_length=1, max_length=2000)
    value: str | None = Field(None, min_length=1, max_length=200, description="the right value, to replace it")


class CorrectResult(BaseModel):
    id: str
    retracted: bool
    replaced_by: str | None = None
    commit: str | None = None


class ForgetRequest(Strict):
    ids: list[Annotated[str, Field(min_length=1, max_length=128)]] = Field(
        min_length=1, max_length=MAX_STATUS_IDS, description="item ids, or thread ids (th_…) for whole conversations")


class ForgetResult(BaseModel):
    forgotten: list[str] = Field(description="the item ids removed, with everything derived from them")
    unknown: list[str] = Field(default_factory=list, description="ids that name no item or thread")
    commit: str | None = Field(None, description="the commit that removed them; history was rewritten without them")


class SyncRequest(Strict):
    """Empty: the end user's vault syncs with the remote the operator configured (`twin sync --remote`)."""

    @model_validator(mode="before")
    @classmethod
    def _no_remote(cls, data):
        if isinstance(data, dict) and "remote" in data:
            raise ValueError("remote: a client cannot name a remote; the operator sets it with "
                             "`twin sync --account <account> --remote URL`")
        return data


class SyncResult(BaseModel):
    remote: str = Field(description="the remote synced with")
    kind: Literal["up to date", "sent", "received", "merged", "replayed", "cloned"]
    received: int = Field(description="items that came in from the remote or changed here")
    sent: bool = Field(description="whether this machine's commits went to the remote")
    forgotten: int = Field(0, description="items forgotten here because the remote had forgotten them")
    kept: list[str] = Field(default_factory=list, description="ids edited on both machines: whose edit was kept")
    conflicts: list[str] = Field(default_factory=list, description="conflicts/ copies of files edited by hand on "
                                 "both machines, until a person deletes them")
    head: str = Field(description="the commit the vault is at now")
    note: str | None = Field(None, description="for a hosted remote after a forget: what it may still keep")


class LineageRequest(Strict):
    id: str = Field(min_length=1, max_length=200, description="a record id, th_…#r…")


class LineageResult(BaseModel):
    record: Record
    path: str
    turns: list[dict]
    source: dict
    commits: list[dict]
