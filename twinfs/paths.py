"""Names inside a vault: thread ids, item file names, and the one check every client path goes through."""
from __future__ import annotations

import hashlib
import posixpath
import re

from .errors import Invalid

SAFE_CHARS = re.compile(r"[A-Za-z0-9_-]")
VAULT_TOPS = ("items", "passages", "records", "pages")


def thread_id(user_dir: str, kind: str, conversation: str) -> str:
    """`th_` + 16 hex of sha256 over (end user, kind, conversation or document id)."""
    digest = hashlib.sha256(f"{user_dir}\x00{kind}\x00{conversation}".encode()).hexdigest()
    return f"th_{digest[:16]}"


def item_filename(item_id: str) -> str:
    """A reversible, safe file name for an item id: anything but [A-Za-z0-9_-] becomes %XX (so `D1:3` -> `D1%3A3`)."""
    return "".join(c if SAFE_CHARS.match(c) else f"%{ord(c):02X}" for c in item_id) + ".json"


def item_id_from_filename(name: str) -> str:
    from urllib.parse import unquote

    return unquote(name.removesuffix(".json"))


def clean_relpath(path: str, field: str, allow_empty: bool = False) -> str:
    """A client path relative to the vault, normalised; anything that could leave the vault is refused."""
    raw = path.strip()
    if not raw and allow_empty:
        return ""
    if not raw:
        raise Invalid(f"{field} is empty: name a path inside the vault, such as passages/memory", field)
    if "\x00" in raw or "\\" in raw:
        raise Invalid(f"{field} '{path}' has a character paths may not hold", field)
    if raw.startswith("/") or re.match(r"^[A-Za-z]:", raw):
        raise Invalid(f"{field} '{path}' is absolute: give a path inside the vault, such as passages/memory", field)
    parts = [p for p in raw.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise Invalid(f"{field} '{path}' leaves the vault ('..' is not allowed)", field)
    if parts and parts[0].startswith("."):
        raise Invalid(f"{field} '{path}' is not memory: only items/, passages/, records/ and pages/ are", field)
    cleaned = posixpath.join(*parts) if parts else ""
    if raw.endswith("/") and cleaned:
        cleaned += "/"
    return cleaned
