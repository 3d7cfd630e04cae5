"""Shared by the LoCoMo benchmarks: load the dev split, turn a conversation into twinfs items."""
from __future__ import annotations

import json
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import dateparser

DEV = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo" / "dev.json"


def load(path: Path = DEV) -> list[dict]:
    if not path.exists():
        print(f"LoCoMo dev split not found at {path}: nothing to measure (it is not part of a user's clone).")
        sys.exit(0)
    return json.loads(path.read_text())


def session_date(text: str) -> datetime:
    """'1:56 pm on 8 May, 2023' -> an aware UTC datetime."""
    parsed = dateparser.parse(text, settings={"TIMEZONE": "UTC", "RETURN_AS_TIMEZONE_AWARE": True})
    if parsed is None:
        raise ValueError(f"unreadable LoCoMo session date {text!r}")
    return parsed.astimezone(UTC)


def sessions(sample: dict) -> list[tuple[int, datetime, list[dict]]]:
    conv = sample["conversation"]
    out = []
    n = 1
    while f"session_{n}" in conv:
        out.append((n, session_date(conv[f"session_{n}_date_time"]), conv[f"session_{n}"]))
        n += 1
    return out


def turn_text(turn: dict) -> str:
    text = turn["text"]
    if turn.get("blip_caption"):
        text += f" [shares a photo: {turn['blip_caption']}]"
    return text


def items(sample: dict) -> list[list[dict]]:
    """One list of message items a session: one conversation per session, the turn's dia_id as item id,
    `at` the session's date plus 30 s a turn (LoCoMo dates sessions, not turns)."""
    out = []
    for n, at, turns in sessions(sample):
        out.append([{"id": t["dia_id"], "kind": "message", "conversation": f"session_{n}", "role": "user",
                     "name": t["speaker"], "text": turn_text(t), "at": (at + timedelta(seconds=30 * i)).isoformat()}
                    for i, t in enumerate(turns)])
    return out


def evidence(qa: dict) -> set[str]:
    """Evidence turn ids, cleaned of LoCoMo's stray spaces and separators ('D1:3; D1:5')."""
    out = set()
    for e in qa.get("evidence", []):
        for part in str(e).replace(";", ",").split(","):
            part = part.strip().replace(" ", "")
            if part:
                out.add(part)
    return out
