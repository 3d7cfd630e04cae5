"""Claude's data export: `conversations.json` (or the export's zip), a list of conversations (`uuid`, `name`,
`chat_messages`), each message with its `uuid`, `sender` (human or assistant), `created_at`, and its words in
`text` or in `content` blocks of type text. Blocks of other types (tool use, images) are left out. A message
edited or an answer retried forks the conversation (`parent_message_uuid`): the branch kept is the one that ends at
the conversation's `current_leaf_message_uuid`."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .source import BadExport, Conversation, branch_to, conversations_in, moment

SOURCE = "claude"
ROLES = {"human": "user", "user": "user", "assistant": "assistant"}


def conversations(path: Path) -> Iterator[Conversation]:
    return conversations_in(path, conversation)


def conversation(raw: dict[str, Any], where: str) -> Conversation:
    cid, messages = raw.get("uuid"), raw.get("chat_messages")
    if not isinstance(cid, str) or not cid or not isinstance(messages, list):
        raise BadExport(f"{where}: not a Claude conversation (no uuid or no chat_messages)")
    out = Conversation(id=cid, title=raw.get("name") or None)
    started = moment(raw.get("created_at"))
    kept = kept_branch(raw, messages, where)
    for m in messages:
        if not isinstance(m, dict) or not isinstance(m.get("uuid"), str):
            out.skip("messages without an id")
        elif kept is not None and m["uuid"] not in kept:
            out.skip("messages on a branch not kept (edited or retried)")
        else:
            out.take(m["uuid"], m.get("sender"), ROLES, _text(m), moment(m.get("created_at")) or started)
    return out


def kept_branch(raw: dict[str, Any], messages: list[Any], where: str) -> set[str] | None:
    """The uuids from `current_leaf_message_uuid` back to the first message by `parent_message_uuid`: the branch
    the person kept when they edited a message or retried an answer. None (keep every message) for exports that
    say no branches."""
    parent = {m["uuid"]: m.get("parent_message_uuid") for m in messages
              if isinstance(m, dict) and isinstance(m.get("uuid"), str)}
    leaf = raw.get("current_leaf_message_uuid")
    if not isinstance(leaf, str) or leaf not in parent or not any(isinstance(p, str) for p in parent.values()):
        return None
    return set(branch_to(leaf, parent, where))


def _text(message: dict[str, Any]) -> str:
    blocks = message.get("content")
    if isinstance(blocks, list):
        texts = [b.get("text", "") for b in blocks if isinstance(b, dict) and b.get("type") == "text"]
        joined = "\n\n".join(t for t in texts if isinstance(t, str) and t.strip()).strip()
        if joined:
            return joined
    text = message.get("text")
    return text.strip() if isinstance(text, str) else ""
