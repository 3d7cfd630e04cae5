"""An assistant's suggestion, for the rules reader: a record of what it suggested, as it was made, never a value of the
user's ("You might enjoy a lentil curry" -> "The assistant suggested Alice enjoy a lentil curry", by: assistant)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .records import Draft
from .third_person import MAX_CHARS

if TYPE_CHECKING:
    from spacy.tokens import Span

SUGGESTION = re.compile(
    r"^(?:(?:maybe|perhaps|so|and|also|oh|then),? )*(?:you (?:might|could|may|should|would) (?:also |really )?"
    r"(?P<v1>enjoy|like|love|try|want to try|consider|check out|look into|think about)|(?P<v2>try|consider|how about|"
    r"why not try|i(?:'d| would) recommend|i recommend|i suggest))\b(?P<rest>.+)$", re.I)


def suggestion(span: Span, turn: Any, user: str) -> list[Draft]:
    """An assistant's suggestion as it was made ("You might enjoy a lentil curry" -> "The assistant suggested
    Alice enjoy a lentil curry"): a record `by: assistant` that never states a value of the user."""
    m = SUGGESTION.match(span.text.strip())
    if m is None:
        return []
    verb = (m.group("v1") or m.group("v2")).lower()
    verb = verb if verb in ("enjoy", "like", "love", "try", "want to try", "consider", "check out", "look into",
                            "think about") else "try"
    rest = re.split(r"[;:!?]|\. ", m.group("rest"), maxsplit=1)[0]
    rest = re.sub(r"\byour\b", f"{user}'s", re.sub(r"\byou\b", user, rest.strip(), flags=re.I), flags=re.I)
    rest = rest.rstrip(" .,")
    if len(rest.split()) < 2:
        return []
    text = f"The assistant suggested {user} {verb} {rest}"[:MAX_CHARS]
    return [Draft(kind="opinion", text=text, subject=user, when=None, turns=[turn.id])]

