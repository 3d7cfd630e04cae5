"""ChatGPT's data export: `conversations.json` (or the export's zip), a list of conversations, each a tree of
message nodes (`mapping`: id -> {message, parent, children}). A message edited or regenerated forks the tree;
the branch the person kept is the path from `current_node` back to the root. System and tool messages, hidden
ones, and parts that are not text (images, files, code runs) are left out."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .source import BadExport, Conversation, array_items, moment, opened

SOURCE = "chatgpt"
ROLES = {"user": "user", "assistant": "assistant"}


def conversations(path: Path) -> Iterator[Conversation]:
    with opened(path) as stream:
        for n, raw in enumerate(array_items(stream, path), 1):
            yield conversation(raw, f"{path}: conversation {n}")


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
    path, seen = [], set()
    node_id: Any = current
    while isinstance(node_id, str) and node_id in mapping:
        if node_id in seen:
            raise BadExport(f"{where}: its message tree loops at node {node_id}")
        seen.add(node_id)
        node = mapping[node_id]
        if not isinstance(node, dict):
            raise BadExport(f"{where}: node {node_id} is not an object")
        path.append(node)
        node_id = node.get("parent")
    return path[::-1]


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
