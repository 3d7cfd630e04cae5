"""Names inside a vault: thread ids, item file names, and the one check every client path goes through."""
from __future__ import annotations

import hashlib
import posixpath
import re

from .errors import Invalid

SAFE_CHARS = re.compile(r"[A-Za-z0-9_-]")
VAULT_TOPS = ("items", "passages", "records", "pages")  # the memory a client may read
MARKER = "vault.json"  # names the vault and its format; committed, so a remote can be told to hold the same one
TOMBSTONES = "forgotten.json"  # salted hashes of what was forgotten, so a forget travels with sync
CONFLICTS = "conflicts"  # the other version of a file edited differently on two machines; nothing reads it
COMMITTED = (*VAULT_TOPS, CONFLICTS, MARKER, TOMBSTONES)  # everything of a vault that git keeps


def thread_id(user_dir: str, kind: str, conversation: str) -> str:
    """`th_` + 16 hex of sha256 over (end user, kind, conversation or document id)."""
    digest = hashlib.sha256(f"{user_dir}\x00{kind}\x00{conversation}".encode()).hexdigest()
    return f"th_{digest[:16]}"


# names Windows keeps for devices, with any extension (`con.json` cannot be created there)
RESERVED = frozenset({"con", "prn", "aux", "nul", *(f"com{n}" for n in range(10)), *(f"lpt{n}" for n in range(10))})
READABLE = 80  # bytes of an item file name kept readable; the rest is told apart by the hash


def item_filename(item_id: str) -> str:
    """A file name for an item id that every file system a vault may be synced to can hold, and that no other
    id's name equals even where case does not count: anything but [A-Za-z0-9_-] becomes %XX (`d1:3` ->
    `d1%3A3.json`); an id with a capital letter, a name Windows reserves, or a long one keeps a readable
    prefix and gains `~` and 12 hex of its sha256 (`D1:3` -> `D1%3A3~…json`). The id itself is in the file."""
    encoded = "".join(c if SAFE_CHARS.match(c) else f"%{ord(c):02X}" for c in item_id)
    if item_id == item_id.lower() and encoded not in RESERVED and len(encoded) <= READABLE:
        return f"{encoded}.json"
    prefix = encoded[:READABLE]
    if "%" in prefix[-2:]:
        prefix = prefix[:prefix.rindex("%")]  # never half of a %XX
    return f"{prefix}~{hashlib.sha256(item_id.encode()).hexdigest()[:12]}.json"


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
