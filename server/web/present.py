"""What the pages show, shaped from what Memory answers: a page's Markdown, a passage's turns, an attribute's
timeline. Pure functions: no disk, no model, no HTML (the templates escape every text they are given)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml

from twinfs.folding import Attribute, Page, Value
from twinfs.models import HistoryValue, Record
from twinfs.text import norm
from twinfs.worked import conflicts

RECORD_ID = re.compile(r"th_[0-9a-f]+#r[0-9a-f]+")
LINK = re.compile(r"\[((?:\\.|[^\]\\])*)\]\((<[^>]*>|[^)\s]*)\)")
TURN = re.compile(r"^\*\*(?P<who>.+?)\*\* (?P<time>\d\d:\d\d) · (?P<text>.*)$")
TURN_END = re.compile(r"\s\^(?P<id>[A-Za-z0-9._:@-]+)$")


@dataclass
class Line:
    """One bullet of a page: its words, the records behind it and the passage it came from."""

    text: str
    records: list[str]
    passage: str | None = None


@dataclass
class PageView:
    subject: str
    aliases: list[str]
    updated: str | None
    sections: list[tuple[str, list[Line]]]  # attribute -> its values newest said first; "Other facts" last


def _unescape(text: str) -> str:
    return text.replace("\\[", "[").replace("\\]", "]")


def page_view(content: str, fallback: str) -> PageView:
    """pages/<slug>.md as folding.render_page writes it (or as a person edited it: what cannot be read is kept
    as plain lines)."""
    meta: dict = {}
    body = content
    if content.startswith("---\n"):
        end = content.find("\n---\n", 4)
        if end != -1:
            try:
                loaded = yaml.safe_load(content[4:end])
                meta = loaded if isinstance(loaded, dict) else {}
            except yaml.YAMLError:
                meta = {}
            body = content[end + 5:]
    sections: list[tuple[str, list[Line]]] = []
    for raw in body.splitlines():
        if raw.startswith("## "):
            sections.append((raw[3:].strip(), []))
        elif raw.startswith("- ") and sections:
            text = raw[2:]
            links = LINK.findall(text)
            words = LINK.sub("", text.split(" · [", 1)[0]).rstrip(" ·")
            records = [m for label, _ in links for m in RECORD_ID.findall(label)]
            passages = [target.strip("<>").removeprefix("../") for label, target in links
                        if target.strip("<>").removeprefix("../").startswith("passages/")]
            sections[-1][1].append(Line(_unescape(words.strip()), records, passages[0] if passages else None))
    listed = meta.get("aliases")
    aliases = listed if isinstance(listed, list) else []
    return PageView(str(meta.get("subject") or fallback), [str(a) for a in aliases],
                    str(meta["updated"]) if meta.get("updated") else None, sections)


@dataclass
class TurnView:
    id: str | None
    who: str | None
    time: str | None
    text: str


def turns_of(body: str) -> tuple[str | None, list[TurnView]]:
    """A passage's text -> its context line and its turns (a hit's text may end cut short with "…")."""
    context = None
    turns: list[TurnView] = []
    open_turn = False
    for raw in body.split("\n"):
        line = raw.rstrip()
        if line.startswith("---") or not line.strip():
            continue
        if line.startswith("Context:") and context is None and not turns:
            context = line.removeprefix("Context:").strip()
            continue
        end = TURN_END.search(line)
        item = end.group("id") if end else None
        line = line[:end.start()] if end else line
        spoken = TURN.match(line)
        if spoken:
            turns.append(TurnView(item, spoken.group("who"), spoken.group("time"), spoken.group("text")))
        elif turns and open_turn:
            turns[-1].text += "\n" + line
            turns[-1].id = turns[-1].id or item
        else:
            turns.append(TurnView(item, None, None, line))
        open_turn = item is None
    return context, turns


@dataclass
class TimelineEntry:
    """One value of an attribute at one time, with what happened to it."""

    value: str
    said: str
    happened: str | None
    records: list[str]
    by: str | None = None
    marks: list[str] = field(default_factory=list)  # conflict, changed, now, corrected, correction, assistant
    reason: str | None = None  # why it was corrected
    replaced_by: str | None = None

    @property
    def live(self) -> bool:
        return "corrected" not in self.marks


def timelines(subject: str, values: list[HistoryValue], retracted: list[Record],
              before: str | None = None) -> tuple[list[tuple[str, list[TimelineEntry]]], list[str]]:
    """Each attribute's values oldest said first (only those said before `before`, a day), marked: the conflicts
    and changes the brief's worked_out names (twinfs.worked), and the corrections. Also the worked_out lines."""
    kept = [v for v in values if v.attribute and v.value and (before is None or v.said < before)]
    corrected = [r for r in retracted if r.attribute and r.value and (before is None or r.said < before)]
    replacements = {r.retracted.get("replaced_by"): r for r in corrected if r.retracted}
    names = {norm(v.attribute or ""): v.attribute or "" for v in kept}
    by_attribute: dict[str, list[TimelineEntry]] = {}
    for v in kept:
        moment = TimelineEntry(v.value or "", v.said, v.happened, list(v.records), v.by)
        if any(r in replacements for r in v.records):
            moment.marks.append("correction")
        by_attribute.setdefault(v.attribute or "", []).append(moment)
    for r in corrected:
        name = names.get(norm(r.attribute or ""), r.attribute or "")
        by_attribute.setdefault(name, []).append(TimelineEntry(r.value or "", r.said, r.happened, [r.id], r.by,
                                                        ["corrected"], (r.retracted or {}).get("reason"),
                                                        (r.retracted or {}).get("replaced_by")))
    lines = conflicts([_page(subject, by_attribute)])
    marked: dict[str, str] = {}
    for line in lines:
        ids = RECORD_ID.findall(line)
        if line.startswith("Conflict:"):
            marked.update({i: "conflict" for i in ids})
        elif line.startswith("Changed:") and len(ids) == 2:
            marked.update({ids[0]: "changed", ids[1]: "now"})
    for moments in by_attribute.values():
        for m in moments:
            m.marks += sorted({marked[r] for r in m.records if r in marked})
            if m.by == "assistant":
                m.marks.append("assistant")
        moments.sort(key=lambda m: (m.said, m.happened or "", m.live, m.value))  # a correction after what it corrects
    return sorted(by_attribute.items(), key=lambda kv: kv[0].casefold()), lines


def _page(subject: str, by_attribute: dict[str, list[TimelineEntry]]) -> Page:
    """The live values as folding holds them (one Value per distinct value, newest said first), so that
    worked.conflicts judges them as it does for the brief."""
    attributes = []
    for name, moments in by_attribute.items():
        by_value: dict[str, Value] = {}
        for m in sorted((m for m in moments if "corrected" not in m.marks), key=lambda m: (m.said, m.happened or "")):
            value = by_value.get(norm(m.value))
            if value is None:
                by_value[norm(m.value)] = Value(m.value, m.said, m.happened, list(m.records), m.by or "user")
            else:
                value.said, value.happened = m.said, m.happened
                value.records = list(m.records) + value.records
                value.by = "user" if m.by == "user" else value.by
        ordered = sorted(sorted(by_value.values(), key=lambda v: v.value.casefold()),
                         key=lambda v: (v.said, v.happened or ""), reverse=True)
        attributes.append(Attribute(name, ordered))
    return Page(subject=subject, slug="", attributes=attributes, records=[])
