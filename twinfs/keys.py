"""API keys: `tm_…` bearer tokens, stored only as sha256 in $TWIN_HOME/keys.json, compared in constant time."""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from .durable import atomic_write
from .errors import Invalid, Unauthorized
from .forms import NAME_PART

Role = Literal["read", "write"]


@dataclass(frozen=True)
class Key:
    id: str
    org: str
    project: str
    role: Role
    sha256: str
    created: str

    @property
    def can_write(self) -> bool:
        return self.role == "write"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Keys:
    def __init__(self, home: Path):
        self.path = home / "keys.json"
        self._lock = threading.Lock()
        self._cache: tuple[float, list[Key]] | None = None

    def all(self) -> list[Key]:
        try:
            mtime = self.path.stat().st_mtime
        except FileNotFoundError:
            return []
        if self._cache and self._cache[0] == mtime:
            return self._cache[1]
        data = json.loads(self.path.read_text(encoding="utf-8"))
        keys = [Key(**k) for k in data.get("keys", [])]
        self._cache = (mtime, keys)
        return keys

    def create(self, org: str, project: str, role: str) -> tuple[str, Key]:
        """A new key; the token is returned once and never stored."""
        for label, value in (("org", org), ("project", project)):
            if not NAME_PART.match(value or ""):
                raise Invalid(f"--{label} '{value}' must be letters, digits, '_' or '-', starting with a letter "
                              "or digit, up to 31 characters", label)
        if role not in ("read", "write"):
            raise Invalid(f"--role '{role}' must be read or write", "role")
        token = f"tm_{secrets.token_urlsafe(32)}"
        key = Key(id=f"key_{secrets.token_hex(6)}", org=org, project=project, role=role,  # type: ignore[arg-type]
                  sha256=_digest(token), created=datetime.now(UTC).isoformat(timespec="seconds"))
        with self._lock:
            keys = [*self.all(), key]
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.path, json.dumps({"keys": [asdict(k) for k in keys]}, indent=1) + "\n")
            self._cache = None
        return token, key

    def revoke(self, key_id: str) -> bool:
        with self._lock:
            keys = self.all()
            kept = [k for k in keys if k.id != key_id]
            if len(kept) == len(keys):
                return False
            atomic_write(self.path, json.dumps({"keys": [asdict(k) for k in kept]}, indent=1) + "\n")
            self._cache = None
            return True

    def check(self, authorization: str | None) -> Key:
        """`Bearer tm_…` -> its key, or Unauthorized."""
        scheme, _, token = (authorization or "").strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthorized("missing bearer: send 'Authorization: Bearer tm_…'")
        token = token.strip()
        digest = _digest(token)
        found = None
        for key in self.all():
            if hmac.compare_digest(key.sha256, digest):
                found = key
        if found is None:
            raise Unauthorized("the bearer is not a key this service issued")
        return found
