"""Pydantic models of what crosses the edges: items, requests, hits, facts, records, phases.

They validate at the edge (HTTP, CLI, MCP, library calls) and are the single source of the OpenAPI schema; the
text forms their fields take (ids, days, vault paths) are forms.py's.
"""
from __future__ import annotations

import re
from datetime import datetime
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .errors import BadRequest, Invalid
from .forms import (
    ACCOUNT_ID,
    MOMENT_SAYS,
    NAME_PART,
    DayText,
    ItemId,
    Moment,
    NotBlank,
    OneLine,
    RecordId,
    Scope,
    SourceId,
    VaultPath,
    parse_day,
)

MAX_USER_DIR = 64
MAX_ITEMS = 1000
MAX_TEXT = 100_000
MAX_STATUS_IDS = 500
MAX_QUERY = 2000
MAX_SCOPE = 512


class Phase(str, Enum):  # noqa: UP042 -- a StrEnum would change str(Phase.x) from 'Phase.x' to 'x'
    accepted = "accepted"
    landed = "landed"
    read = "read"
    folded = "folded"
    unknown = "unknown"


PHASE_ORDER = [Phase.accepted, Phase.landed, Phase.read, Phase.folded]


class Strict(BaseModel):
    """A request: unknown fields are refused, so a typo is an error rather than silently ignored, and no value is
    coerced (`0` is not a boolean, `"3"` not a number), so what the schema refuses the validator refuses too."""

    model_config = ConfigDict(extra="forbid", strict=True, str_strip_whitespace=False)


class EndUser(BaseModel):
    """One end user: `<org>.<project>.<account>` names their vault folder."""

    model_config = ConfigDict(frozen=True)
    org: str
    project: str
    account: str

    @model_validator(mode="after")
    def _check(self) -> EndUser:
        for label, value in (("organisation", self.org), ("project", self.project)):
            if not NAME_PART.match(value):
                raise BadRequest(f"{label} '{value}' is not a usable id: letters, digits, '_' and '-', "
                                 "starting with a letter or digit, up to 31 characters")
        if not ACCOUNT_ID.fullmatch(self.account):
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
    def of_folder(cls, dirname: str) -> EndUser:
        """`<org>.<project>.<account>`, a vault's folder name, as the end user it belongs to."""
        org, project, account = dirname.split(".", 2)
        return cls(org=org, project=project, account=account)

    @classmethod
    def parse(cls, org: str, project: str, account: str | None) -> EndUser:
        if not account:
            raise BadRequest("X-Twin-Account is missing: name the end user whose memory this is")
        return cls(org=org, project=project, account=account)


class Item(Strict):
    """A message or a document as an app adds it."""

    id: ItemId = Field(description="1-128 letters, digits and . _ - : @; re-adding an id with new content is an edit")
    kind: Literal["message", "document"]
    conversation: str | None = Field(None, max_length=256, description="the conversation a message belongs to")
    role: Literal["user", "assistant"] | None = None
    name: OneLine | None = Field(None, max_length=200, description="who spoke, as shown in passages: one line")
    text: NotBlank = Field(min_length=1, max_length=MAX_TEXT)
    at: Annotated[datetime, Moment()] = Field(description=f"when it was said or written: {MOMENT_SAYS}")
    title: OneLine | None = Field(None, max_length=500, description="a document's title: one line")
    source: SourceId = Field("memory", description="where it came from; names the passages/<source>/ folder")


class AddRequest(Strict):
    items: list[Item] = Field(min_length=1, max_length=MAX_ITEMS,
                              description="an id given twice in one add is an edit: the later item is the one kept")
    wait: bool = Field(False, description="hold the answer until the items have landed, at most 10 seconds")

    @model_validator(mode="after")
    def _later_wins(self) -> AddRequest:
        last = {item.id: n for n, item in enumerate(self.items)}
        if len(last) < len(self.items):  # as if the later item were added after the earlier: it is the edit
            self.items = [item for n, item in enumerate(self.items) if last[item.id] == n]
        return self


class AddResult(BaseModel):
    event: str
    ids: list[str]
    phases: dict[str, Phase]


class StatusRequest(Strict):
    ids: list[Annotated[str, Field(min_length=1, max_length=128)]] = Field(
        min_length=1, max_length=MAX_STATUS_IDS, description="item ids or event ids (ev_…)")


class StatusResult(BaseModel):
    phases: dict[str, Phase]
    notes: list[str] | None = Field(None, description="e.g. that reading waits on the daily budget")


class Bounded(Strict):
    """The date and path bounds shared by search and grep."""

    before: DayText | None = Field(None, description=f"only memory said before this day: {MOMENT_SAYS}")
    after: DayText | None = Field(None, description=f"only memory from this day on: {MOMENT_SAYS}")
    scope: Scope | None = Field(None, max_length=MAX_SCOPE,
                                description="a path prefix under items/, passages/, records/ or pages/, "
                                            "e.g. passages/memory/messages")

    @property
    def before_at(self) -> datetime | None:
        return parse_day(self.before, "before")

    @property
    def after_at(self) -> datetime | None:
        return parse_day(self.after, "after")


class SearchRequest(Bounded):
    query: NotBlank = Field(min_length=1, max_length=MAX_QUERY)
    fast: bool = Field(False, description="skip the model filter")
    k: Any = Field(None, description="ignored, whatever it holds: the filter decides how many passages the question "
                                     "needs")

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
    query: str
    found: int
    known: list[str] | None = None
    facts: list[Fact] | None = None
    hits: list[Hit]
    worked_out: list[str] | None = None
    notes: list[str] | None = None
    held: bool | None = None
    filtered: bool | None = None


class GrepRequest(Bounded):
    """With `regex`, the pattern is a regular expression (Python's syntax, matched case-insensitively)."""

    model_config = ConfigDict(json_schema_extra={
        # a pattern is a regular expression only when regex is true: then it must compile
        "anyOf": [{"properties": {"regex": {"const": False}}}, {"properties": {"pattern": {"format": "regex"}}}]})
    pattern: str = Field(min_length=1, max_length=MAX_QUERY, description="the text to find in a line, or with regex "
                                                                          "a regular expression")
    regex: bool = False

    @model_validator(mode="after")
    def _compiles(self) -> GrepRequest:
        if self.regex:
            try:
                re.compile(self.pattern)
            except (re.error, OverflowError, RecursionError) as exc:  # Invalid, as grep itself would say
                raise Invalid(f"pattern is not a valid regular expression: {exc}", "pattern") from None
        return self


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
    path: VaultPath = Field(min_length=1, max_length=MAX_SCOPE)
    before: DayText | None = Field(None, description="the file as the memory held it before this day (from git "
                                                 f"history): {MOMENT_SAYS}")


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
    by: Literal["user", "assistant", "model"] = "user"  # model: the user's words, as the model pass read them
    turns: list[str]
    source: str
    retracted: dict | None = None
    # {"reason", "at"}: the fold question found this value holds beside another of a one-at-a-time attribute
    held: dict | None = Field(None, exclude_if=lambda held: held is None)

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
    id: RecordId = Field(min_length=1, max_length=200, description="a record id, th_…#r…")
    reason: NotBlank = Field(min_length=1, max_length=2000)
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


class OwnerSyncRequest(Strict):
    """`twin sync` sent through the server that owns the home (POST /v1/owner/sync, the owner's loopback token
    only): the operator may name the remote, and hand the vault to another server or keep it here."""

    remote: str | None = Field(None, max_length=2000, description="kept as the vault's remote; {vault} stands "
                               "for the vault's folder name")
    leave: bool = Field(False, description="hand the vault to another server: 503 for this end user here from now")
    stay: bool = Field(False, description="serve it here again (cancel a leave), after the sync")

    @model_validator(mode="after")
    def _one_way(self) -> OwnerSyncRequest:
        if self.leave and self.stay:
            raise ValueError("leave and stay: give one of them")
        return self


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
    encrypted_to: list[str] | None = Field(None, description="an encrypted remote (gcrypt::): the GnuPG keys it is "
                                           "encrypted to, as fingerprint (user id)")


class LineageRequest(Strict):
    id: RecordId = Field(min_length=1, max_length=200, description="a record id, th_…#r…")


class LineageTurn(BaseModel):
    """A turn a record cites, as the item holds it; an item since forgotten keeps only its id."""

    id: str
    role: str | None = None
    name: str | None = None
    at: str | None = None
    text: str | None = None


class LineageSource(BaseModel):
    path: str
    content: str | None = Field(None, description="the passage as stored; absent when it is no longer there")


class LineageCommit(BaseModel):
    sha: str
    message: str
    at: str


class LineageResult(BaseModel):
    record: Record
    path: str
    turns: list[LineageTurn]
    source: LineageSource
    commits: list[LineageCommit]
