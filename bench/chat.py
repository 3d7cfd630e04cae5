"""Synthetic chat turns for the benchmarks that need many of them (not LoCoMo's)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def messages(first: int, count: int, conversation: str, step: timedelta = timedelta(seconds=30)) -> list[dict]:
    """Turns `first` .. `first + count - 1` of a conversation, `step` apart, user and assistant in turn."""
    return [{"id": f"m{i}", "kind": "message", "conversation": conversation,
             "role": "user" if i % 2 else "assistant",
             "text": f"Turn {i}: a few words about the garden, the rain and the next trip to Porto.",
             "at": (T0 + step * i).isoformat()} for i in range(first, first + count)]
