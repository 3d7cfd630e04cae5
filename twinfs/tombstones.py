"""Tombstones: what was forgotten, so that a forget travels with sync and a stale copy is told from a new add.

`forgotten.json` (committed) holds one entry a forget: a salt of its own, the salted hashes of the item ids and
thread ids it forgot (never their text, never the ids themselves), and the forget's stamp (clock.py). An item
matches an entry when its id (or its thread) hashes into it and its own stamp is older than the forget's: the
same id added again after the forget is a new item, and stays.
"""
from __future__ import annotations

import hashlib
import json
import secrets

from .clock import of_item, parse
from .paths import TOMBSTONES
from .vault import Vault


def _hash(salt: str, ident: str) -> str:
    return hashlib.sha256(f"{salt}\x00{ident}".encode()).hexdigest()[:32]


def entry(item_ids: list[str], threads: list[str], stamp: str, purge: bool = True) -> dict:
    salt = secrets.token_hex(8)
    return {"salt": salt, "at": stamp, "purge": purge,
            "items": sorted(_hash(salt, i) for i in item_ids), "threads": sorted(_hash(salt, t) for t in threads)}


def parse_file(text: str | None) -> list[dict]:
    if not text:
        return []
    try:
        data = json.loads(text)
    except ValueError:
        return []
    entries = data.get("forgotten", []) if isinstance(data, dict) else []
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get("salt"), str)]


def load(vault: Vault) -> list[dict]:
    try:
        return parse_file(vault.read(TOMBSTONES))
    except FileNotFoundError:
        return []


def render(entries: list[dict]) -> str:
    unique = {e["salt"]: e for e in entries}
    return json.dumps({"forgotten": sorted(unique.values(), key=lambda e: (e["at"], e["salt"]))}, indent=1) + "\n"


def add(vault: Vault, new: dict) -> None:
    vault.write(TOMBSTONES, render([*load(vault), new]))


def matching(entries: list[dict], items: list[dict]) -> list[dict]:
    """The stored items (as their files hold them) that a tombstone forgets."""
    found = []
    for item in items:
        stamp = of_item(item)
        for e in entries:
            if stamp < parse(e["at"]) and (_hash(e["salt"], item["id"]) in e["items"] or
                                           _hash(e["salt"], item.get("thread", "")) in e["threads"]):
                found.append(item)
                break
    return found
