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


TOPICS = ("the garden", "the rain", "a trip to Porto", "the new job", "my sister's wedding", "the cat", "a recipe",
          "the tram", "the dentist", "a book I read", "the budget", "the river walk", "a concert", "the boiler")
VERBS = ("talked about", "planned", "worried about", "laughed at", "wrote down", "asked about", "remembered")


def varied(first: int, count: int, conversation: str, step: timedelta = timedelta(seconds=30),
           prefix: str = "m") -> list[dict]:
    """Like messages, with turns that say different things (topics, verbs and numbers vary by turn)."""
    return [{"id": f"{prefix}{i}", "kind": "message", "conversation": conversation,
             "role": "user" if i % 2 else "assistant",
             "text": f"On day {i // 40} we {VERBS[i % len(VERBS)]} {TOPICS[(i * 7) % len(TOPICS)]} and "
                     f"{TOPICS[(i * 3 + 1) % len(TOPICS)]}; item {i} costs {(i * 37) % 500} euros.",
             "at": (T0 + step * i).isoformat()} for i in range(first, first + count)]
