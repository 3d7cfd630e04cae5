"""What the LLM readers send and how their answers are checked: one prompt, one schema, one retry rule.

Both LLM backends (llama.cpp in process, an OpenAI-compatible endpoint) use these, so a more capable model
reads better with no code change.
"""
from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable

from pydantic import BaseModel, Field, ValidationError

from .records import Draft, Outcome, finish
from .windows import Window

MAX_RECORDS = 12

SYSTEM = """You take notes for a long-term memory of the people in a conversation.
Write down what is worth remembering about them: what they did, plan, like, think, who they are close to,
and facts about their lives (where they live, their job, pets, family, relationship status).
Write records only from the turns marked READ; the CONTEXT turns are there to help you understand them.
Each record:
- kind: event (something done or that happened), plan (something intended or coming), preference (a like or
  dislike), opinion (a view or feeling), relation (family, partner, friend), state (anything else true of them)
- text: one short statement in the third person that names the person, e.g. "Alice moved to Lisbon"
- subject: the person it is about, by name (the speaker of the turn when they speak of themselves)
- attribute and value: for a lasting fact the turn states, in its words: home_city, hometown, job, employer,
  school, diet, allergy, health, a relative or partner by relation (sister, husband …) with their name as
  value, pet (its kind and name), hobby, sport, likes, dislikes, language, car; otherwise null
- when: the time phrase exactly as said ("yesterday", "last week", "next month", "in 2020"), or null
- turns: the ids of the READ turns it comes from
Skip greetings, thanks, questions and small talk. Do not repeat these instructions. Answer with JSON only."""


# How render_window marks a turn; a record holding this is the prompt copied back (small models do this)
ECHO = re.compile(r"\b(?:READ|CONTEXT) · |· (?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{2} \w{3} \d{4} ·")


class Answer(BaseModel):
    records: list[Draft] = Field(max_length=MAX_RECORDS)


def _inline(schema: dict) -> dict:
    """The schema with `$defs` inlined (simpler for small servers' grammar converters) and no string lengths:
    llama.cpp's converter nests one optional rule per character, which slows sampling to seconds a token deep
    inside a long string. Lengths are still checked on parsing (`Draft`); `max_tokens` bounds the answer."""
    defs = schema.pop("$defs", {})

    def walk(node):
        if isinstance(node, dict):
            if "$ref" in node:
                return walk(copy.deepcopy(defs[node["$ref"].split("/")[-1]]))
            return {k: walk(v) for k, v in node.items() if k not in ("title", "default", "maxLength", "minLength")}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(schema)


def _lengths() -> dict[str, int]:
    props = Draft.model_json_schema()["properties"]
    found = {}
    for name, prop in props.items():
        for option in [prop, *prop.get("anyOf", [])]:
            if "maxLength" in option:
                found[name] = option["maxLength"]
    return found


LENGTHS = _lengths()  # the longest each text field of a draft may be, for backends that can bound it cheaply


def schema(window: Window, max_records: int = MAX_RECORDS) -> dict:
    """The JSON schema of an answer for this window: every field required, turns limited to the ones it reads."""
    result = _inline(Answer.model_json_schema())
    result["properties"]["records"]["maxItems"] = max_records
    draft = result["properties"]["records"]["items"]
    draft["required"] = list(draft["properties"])
    draft["additionalProperties"] = False
    draft["properties"]["turns"]["items"] = {"type": "string", "enum": list(window.new)}
    draft["properties"]["turns"]["maxItems"] = 3
    result["required"] = ["records"]
    result["additionalProperties"] = False
    return result


def render_window(window: Window) -> str:
    reading = set(window.new)
    lines = []
    for turn in window.turns:
        mark = "READ" if turn.id in reading else "CONTEXT"
        who = turn.speaker if turn.kind == "message" else f"document {turn.title or ''}".strip()
        role = f" ({turn.role})" if turn.role and turn.name else ""
        lines.append(f"[{turn.id}] {mark} · {turn.at:%a %d %b %Y} · {who}{role}: {turn.text.strip()}")
    return "\n".join(lines)


def messages(window: Window) -> list[dict]:
    user = (f"Conversation:\n{render_window(window)}\n\n"
            f"Write the records for the READ turns ({', '.join(window.new)}) as JSON: {{\"records\": [...]}}.")
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def complete_records(text: str) -> list | None:
    """The records an answer cut off by its token limit had finished, if any: `{"records": [{…}, {…}, {…` -> 2."""
    start = re.match(r'\s*\{\s*"records"\s*:\s*\[\s*', text)
    if not start:
        return None
    decoder = json.JSONDecoder(strict=False)
    items: list = []
    at = start.end()
    while True:
        try:
            item, at = decoder.raw_decode(text, at)
        except json.JSONDecodeError:
            return items or None
        items.append(item)
        sep = re.match(r"\s*,\s*", text[at:])
        if not sep:
            return items
        at += sep.end()


def parse(text: str) -> list[Draft]:
    """The drafts in an answer. Raises ValueError when the answer is not the JSON asked for."""
    try:
        data = json.loads(text, strict=False)  # a raw newline inside a string is still meant
    except json.JSONDecodeError as e:
        finished = complete_records(text)
        if finished is None:
            raise ValueError(f"not JSON ({e.msg} at {e.pos})") from None
        data = {"records": finished}
    if not isinstance(data, dict) or not isinstance(data.get("records"), list):
        raise ValueError("no 'records' list in the answer")
    drafts: list[Draft] = []
    problems: list[str] = []
    for raw in data["records"]:
        if isinstance(raw, dict) and ECHO.search(str(raw.get("text", ""))):
            problems.append("a copy of the prompt, not a record")
            continue
        try:
            drafts.append(Draft.model_validate(raw))
        except ValidationError as e:
            problems.append(str(e.errors()[0]["msg"]))
    if data["records"] and not drafts:
        raise ValueError(f"no valid record in the answer: {problems[0]}")
    return drafts


# Sends the messages with the answer's schema; returns the answer's text and the tokens the backend counted.
Complete = Callable[[list[dict], dict], tuple[str, int]]


def ask(window: Window, complete: Complete, max_records: int = MAX_RECORDS) -> Outcome:
    """One window through an LLM: a bad answer is asked again once, then the window fails with no records."""
    sent = messages(window)
    wanted = schema(window, max_records)
    tokens = 0
    problem = ""
    for _ in range(2):
        text, used = complete(sent, wanted)
        tokens += used
        try:
            drafts = parse(text)
        except ValueError as e:
            problem = str(e)
            continue
        return Outcome(finish(window, drafts, from_model=True), tokens)
    return Outcome([], tokens, failed=f"bad answer twice: {problem}")
