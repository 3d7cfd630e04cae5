"""Cutting a thread into passages of whole turns, and their Markdown form. Pure functions: no disk, no model."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

import yaml

from .forms import as_utc, iso

MAX_CHARS = 1400  # a passage's text, context line included, stays within this
PIECE_CHARS = 1100  # a turn longer than fits is cut into pieces of at most this
SEGMENT_CHARS = 200  # what the embedder sees at once: whole sentences, a long turn in groups (segments_of)
PAUSE = timedelta(minutes=30)  # a longer silence starts a new passage

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


@dataclass(frozen=True)
class Turn:
    """One item as a passage sees it."""

    id: str
    kind: str  # message | document
    text: str
    at: datetime
    role: str | None = None
    name: str | None = None
    title: str | None = None

    @property
    def speaker(self) -> str:
        if self.name:
            return self.name
        return (self.role or "someone").capitalize()


@dataclass
class Passage:
    thread: str
    number: int
    kind: str
    source: str
    turns: list[str]
    roles: list[str]
    start: datetime
    end: datetime
    body: str

    @property
    def id(self) -> str:
        return f"{self.thread}/p_{self.number:04d}"

    @property
    def path(self) -> str:
        return passage_path(self.source, self.kind, self.thread, self.number)

    @property
    def hash(self) -> str:
        return content_hash(render(self))


def passage_path(source: str, kind: str, thread: str, number: int) -> str:
    return f"passages/{source}/{kind}s/{thread}/p_{number:04d}.md"


def passage_id(path: str) -> str:
    """`passages/memory/messages/th_…/p_0001.md` -> `th_…/p_0001`."""
    parts = path.removesuffix(".md").split("/")
    return "/".join(parts[-2:])


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def day_label(at: datetime) -> str:
    return f"{at.day} {at:%b %Y}"


def split_text(text: str, limit: int) -> list[str]:
    """Cut text at paragraph, then sentence, then word bounds into pieces of at most `limit` characters."""
    text = text.strip()
    if len(text) <= limit:
        return [text]
    units: list[str] = []
    for para in re.split(r"\n\s*\n", text):
        if len(para) <= limit:
            units.append(para)
            continue
        for sentence in re.split(r"(?<=[.!?])\s+", para):
            while len(sentence) > limit:
                cut = sentence.rfind(" ", 0, limit)
                cut = cut if cut > limit // 2 else limit
                units.append(sentence[:cut])
                sentence = sentence[cut:].lstrip()
            if sentence:
                units.append(sentence)
    pieces: list[str] = []
    for unit in units:
        sep = "\n\n" if unit in text.split("\n\n") else " "
        if pieces and len(pieces[-1]) + len(sep) + len(unit) <= limit:
            pieces[-1] = pieces[-1] + sep + unit
        else:
            pieces.append(unit)
    return pieces


TURN_LINE = re.compile(r"^\*\*(.+?)\*\* \d\d:\d\d · (.*)$", re.M)  # what _turn_block writes: speaker, text


def _turn_block(turn: Turn, piece: str) -> str:
    if turn.kind == "document":
        return f"{piece} ^{turn.id}"
    return f"**{turn.speaker}** {turn.at:%H:%M} · {piece} ^{turn.id}"


def _context(kind: str, source: str, first: Turn) -> str:
    line = f"Context: {kind}s ({source}), {day_label(first.at)}."
    if first.title:
        line += f" {first.title.strip()}."
    return line


def cut(thread: str, kind: str, source: str, turns: list[Turn], first_number: int = 1) -> list[Passage]:
    """Whole turns in order, at most ~MAX_CHARS a passage; a long pause starts a new one; a long turn is cut.
    Each passage begins afresh, so the turns from where one began on cut into the same passages again
    (numbered from `first_number`): landing cuts only a thread's tail when turns are added at its end."""
    passages: list[Passage] = []
    blocks: list[tuple[Turn, str, str]] = []  # (turn, piece, its rendered line)

    def close() -> None:
        if not blocks:
            return
        first = blocks[0][0]
        ids: list[str] = []
        roles: list[str] = []
        for turn, _, _ in blocks:
            if turn.id not in ids:
                ids.append(turn.id)
            if turn.role and turn.role not in roles:
                roles.append(turn.role)
        body = _context(kind, source, first) + "\n\n" + "\n".join(line for _, _, line in blocks)
        passages.append(Passage(thread, first_number + len(passages), kind, source, ids, roles,
                                first.at, blocks[-1][0].at, body))
        blocks.clear()

    size = head = 0
    for turn in turns:
        for piece in split_text(turn.text, PIECE_CHARS):
            line = _turn_block(turn, piece)
            paused = blocks and turn.at - blocks[-1][0].at > PAUSE
            if blocks and (paused or head + size + len(line) > MAX_CHARS):
                close()
            if not blocks:
                size, head = 0, len(_context(kind, source, turn)) + 2
            blocks.append((turn, piece, line))
            size += len(line) + 1
    close()
    return passages


def render(p: Passage) -> str:
    meta = {"id": p.id, "thread": p.thread, "turns": p.turns, "roles": p.roles,
            "from": iso(p.start), "to": iso(p.end)}
    head = yaml.dump(meta, Dumper=Dumper, sort_keys=False, default_flow_style=None, allow_unicode=True, width=10_000)
    return f"---\n{head}---\n{p.body}\n"


@dataclass
class PassageFile:
    """A passage as read back from its file, which a person may have edited by hand."""

    id: str
    thread: str
    turns: list[str]
    roles: list[str]
    start: datetime | None
    end: datetime | None
    body: str


def _time(value) -> datetime | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return as_utc(value)
    try:
        return as_utc(datetime.fromisoformat(str(value).replace("Z", "+00:00")))
    except ValueError:
        return None


def parse(text: str, fallback_id: str = "") -> PassageFile:
    """Front matter and body; a file without usable front matter is still a passage, with what can be known."""
    meta: dict = {}
    body = text
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end != -1:
            try:
                loaded = yaml.load(text[4:end], Loader=Loader)
                meta = loaded if isinstance(loaded, dict) else {}
            except yaml.YAMLError:
                meta = {}
            body = text[end + 5:]
    pid = str(meta.get("id") or fallback_id)
    thread = str(meta.get("thread") or pid.split("/")[0])
    return PassageFile(pid, thread, [str(t) for t in meta.get("turns") or []],
                       [str(r) for r in meta.get("roles") or []], _time(meta.get("from")),
                       _time(meta.get("to")), body.strip("\n"))


def segments_of(body: str) -> list[str]:
    """What the embedder sees of a passage: each turn as `Name: text`, a long one in groups of whole sentences
    of at most SEGMENT_CHARS (a document's lines likewise). Read from the body, so a passage edited by hand is
    embedded as it now reads. Why groups (bench/README.md, LongMemEval): MiniLM's vector of a text is the mean
    of its word pieces, so the one sentence of a turn that answers ("I switched to a Ford F-150") is drowned by
    the request around it and by the paragraphs of a long answer; pairs of turns and whole passages measured
    worse on LoCoMo."""
    return [text for _, text in spoken_segments(body)]


def spoken_segments(body: str) -> list[tuple[str | None, str]]:
    """segments_of, each with who said it (None for a document's lines). Every segment of a turn, its
    continued lines too, names the speaker, so the lane can favour whom a question asks about."""
    units: list[list] = []  # [who, text, a turn's own line]
    for raw in body.split("\n"):
        line = re.sub(r"\s\^[A-Za-z0-9._:@-]+$", "", raw.strip())
        if not line or line.startswith("Context:"):
            continue
        turn = TURN_LINE.match(line)
        if turn:
            units.append([turn.group(1), turn.group(2), True])
        elif units and (units[-1][2] or len(units[-1][1]) + 1 + len(line) <= SEGMENT_CHARS):
            units[-1][1] += " " + line  # a turn's next line, or a document's
        else:
            units.append([None, line, False])
    out = [(who, f"{who}: {piece}" if who else piece)
           for who, text, _ in units for piece in split_text(text, SEGMENT_CHARS)]
    return out or [(None, body[:SEGMENT_CHARS])]
