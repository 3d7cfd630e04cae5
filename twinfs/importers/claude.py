"""Claude's data export: `conversations.json` (or the export's zip), a list of conversations (`uuid`, `name`,
`chat_messages`), each message with its `uuid`, `sender` (human or assistant), `created_at`, and its words in
`text` or in `content` blocks of type text. Blocks of other types (tool use, images) are left out."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .source import BadExport, Conversation, Message, array_items, moment, opened

SOURCE = "claude"
ROLES = {"human": "user", "user": "user", "assistant": "assistant"}


def conversations(path: Path) -> Iterator[Conversation]:
    with opened(path) as stream:
        for n, raw in enumerate(array_items(stream, path), 1):
            yield conversation(raw, f"{path}: conversation {n}")


def conversation(raw: dict[str, Any], where: str) -> Conversation:
    cid, messages = raw.get("uuid"), raw.get("chat_messages")
    if not isinstance(cid, str) or not cid or not isinstance(messages, list):
        raise BadExport(f"{where}: not a Claude conversation (no uuid or no chat_messages)")
    out = Conversation(id=cid, title=raw.get("name") or None)
    started = moment(raw.get("created_at"))
    for m in messages:
        if not isinstance(m, dict) or not isinstance(m.get("uuid"), str):
            out.skip("messages without an id")
            continue
        role = ROLES.get(str(m.get("sender")))
        if role is None:
            out.skip(f"{m.get('sender') or 'unknown'} messages")
            continue
        text = _text(m)
        if not text:
            out.skip("messages without text")
            continue
        at = moment(m.get("created_at")) or started
        if at is None:
            out.skip("messages without a time")
            continue
        out.messages.append(Message(id=m["uuid"], role=role, text=text, at=at))
    return out


def _text(message: dict[str, Any]) -> str:
    blocks = message.get("content")
    if isinstance(blocks, list):
        texts = [b.get("text", "") for b in blocks if isinstance(b, dict) and b.get("type") == "text"]
        joined = "\n\n".join(t for t in texts if isinstance(t, str) and t.strip()).strip()
        if joined:
            return joined
    text = message.get("text")
    return text.strip() if isinstance(text, str) else ""
