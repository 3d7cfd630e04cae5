"""What the sync tests share (test_sync.py, test_sync_edits.py; their `machines` fixture is conftest.py's)."""
from __future__ import annotations

import subprocess
from datetime import UTC, datetime, timedelta

from twinfs import EndUser, Memory
from twinfs.models import AddRequest

T0 = datetime(2026, 10, 1, 9, 0, tzinfo=UTC)
USER = EndUser(org="acme", project="app", account="alice")


def say(ident: str, text: str, conversation: str = "c1", minutes: int = 0, role: str = "user") -> dict:
    return {"id": ident, "kind": "message", "conversation": conversation, "role": role,
            "name": "Alice Chen" if role == "user" else "Assistant", "text": text,
            "at": (T0 + timedelta(minutes=minutes)).isoformat()}


def vault_files(memory: Memory, *tops: str) -> dict[str, str]:
    root = memory.home / "users" / USER.dirname
    return {p.relative_to(root).as_posix(): p.read_text() for top in tops for p in sorted((root / top).rglob("*"))
            if p.is_file()}


def settled(*memories: Memory) -> None:
    for memory in memories:
        assert memory.idle(120)


def git(memory: Memory, *args: str) -> str:
    return subprocess.run(["git", "-C", str(memory.home / "users" / USER.dirname), *args], capture_output=True,
                          text=True, check=True).stdout


def both_holding(machine, remote: str, item: dict) -> tuple[Memory, Memory]:
    """Two machines (reading off) that both hold a vault of one item, synced through the remote."""
    a, b = machine("laptop-a", reading=False), machine("laptop-b", reading=False)
    a.add(USER, AddRequest(items=[item], wait=True))
    a.sync_with(USER, remote)
    b.sync_with(USER, remote)
    return a, b
