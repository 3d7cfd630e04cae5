"""ChatGPT's data export: `conversations.json` (or the export's zip), a list of conversations, each a tree of
message nodes (`mapping`: id -> {message, parent, children}). A message edited or regenerated forks the tree;
the branch the person kept is the path from `current_node` back to the root. System and tool messages, hidden
ones, and parts that are not text (images, files, code runs) are left out."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .source import BadExport, Conversation, branch_to, conversations_in, moment

SOURCE = "chatgpt"
ROLES = {"user": "user", "assistant": "assistant"}


def conversations(path: Path) -> Iterator[Conversation]:
    return conversations_in(path, conversation)


def conversation(raw: dict[str, Any], where: str) -> Conversation:
    mapping = raw.get("mapping")
    cid = raw.get("conversation_id") or raw.get("id")
    if not isinstance(mapping, dict) or not isinstance(cid, str) or not cid:
        raise BadExport(f"{where}: not a ChatGPT conversation (no id or no mapping of messages)")
    out = Conversation(id=cid, title=raw.get("title") or None)
    started = moment(raw.get("create_time"))
    for node in kept_branch(mapping, raw.get("current_node"), where):
        message = node.get("message")
        if not isinstance(message, dict):
            continue  # the root holds no message
        role = (message.get("author") or {}).get("role")
        if role in ROLES and (message.get("metadata") or {}).get("is_visually_hidden_from_conversation"):
            out.skip("hidden messages")
            continue
        out.take(str(message.get("id") or node.get("id")), role, ROLES, _text(message.get("content") or {}),
                 moment(message.get("create_time")) or started)
    return out


def kept_branch(mapping: dict[str, Any], current: Any, where: str) -> list[dict[str, Any]]:
    """The nodes from the root to `current_node`, in order. Without one (older exports), the newest leaf's path."""
    if not isinstance(current, str) or current not in mapping:
        leaves = [k for k, v in mapping.items() if isinstance(v, dict) and not v.get("children")]
        if not leaves:
            return []
        current = max(leaves, key=lambda k: _created(mapping[k]))
    parent = {k: v.get("parent") if isinstance(v, dict) else None for k, v in mapping.items()}
    path = [mapping[k] for k in reversed(branch_to(current, parent, where))]
    for node in path:
        if not isinstance(node, dict):
            raise BadExport(f"{where}: a node of its message tree is not an object")
    return path


def _created(node: dict[str, Any]) -> float:
    created = (node.get("message") or {}).get("create_time")
    return float(created) if isinstance(created, int | float) else 0.0


def _text(content: dict[str, Any]) -> str:
    """The text of a message's content: its string parts joined; other kinds of part (images, files) left out."""
    if content.get("content_type") not in (None, "text", "multimodal_text"):
        return ""
    parts = content.get("parts")
    if not isinstance(parts, list):
        return str(content.get("text") or "").strip()
    return "\n\n".join(p for p in parts if isinstance(p, str) and p.strip()).strip()
