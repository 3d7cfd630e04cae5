"""Settings, read once at an entry point (CLI, server, MCP) from TWIN_* variables and passed down."""
from __future__ import annotations

import os
import re
import socket
from dataclasses import dataclass, field, replace
from pathlib import Path

from .errors import Invalid


def _int(name: str, default: int | None) -> int | None:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise Invalid(f"{name}='{raw}' is not a whole number") from None
    if value < 0:
        raise Invalid(f"{name}={raw} must not be negative")
    return value


ON, OFF = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def _yes(name: str, default: bool) -> bool:
    """An on/off setting: 1/true/yes/on or 0/false/no/off, any case; anything else stops with the variable named."""
    raw = os.environ.get(name, "").strip().lower()
    if raw == "":
        return default
    if raw not in ON + OFF:
        raise Invalid(f"{name}='{os.environ[name]}' is neither on (1, true, yes, on) nor off (0, false, no, off)")
    return raw in ON


def machine_name(raw: str) -> str:
    """A machine's name as it may stand in a file name and a git address: [A-Za-z0-9._-], at most 40."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", raw).strip(".-")[:40] or "machine"


@dataclass(frozen=True)
class Settings:
    home: Path = Path("twin-home")
    quiet_seconds: int = 600  # the newest part of a conversation is read once it has been quiet this long
    fold_seconds: int = 1800  # pages are rebuilt at most this often per end user
    daily_read_tokens: int | None = None  # per organisation per UTC day; None: no limit
    # TWIN_READER_MODEL: a GGUF path or a shipped name ("qwen-coder-1.5b", "smollm2"), the served model's name with
    # reader_url, or "none" (the rules alone). By default read from the environment even where Settings is made by
    # hand (tests and embedders say TWIN_READER_MODEL=none once, for every Memory they make).
    reader_model: str | None = field(default_factory=lambda: os.environ.get("TWIN_READER_MODEL") or None)
    reader_url: str | None = None  # an OpenAI-compatible endpoint
    reader_windows: bool = False  # TWIN_READER_WINDOWS: the model reads whole windows instead of checking the rules
    reading: bool = True  # False: land only (benchmarks of the lanes, tests of the spine)
    max_pending: int = 2000  # add events queued per end user before add answers 503
    workers: int = 2  # end users worked on at once by the background pipeline
    watch: bool = False  # commit and index files edited by hand in the vaults (the server and MCP do)
    machine: str = "localhost"  # names this machine in commits and conflict copies (TWIN_MACHINE, the hostname)
    sync_seconds: int | None = None  # the server syncs every vault with a remote this often (TWIN_SYNC_SECONDS)
    sync_gpg_keys: tuple[str, ...] = ()  # the GnuPG keys an encrypted remote is sealed to (TWIN_SYNC_GPG_KEYS)
    open_users: int = 64  # end users kept open at once, the least recently used closed first (TWIN_OPEN_USERS)
    watch_limit: int | None = None  # inotify watches the watcher may take; None: half of the system's limit

    def __post_init__(self) -> None:
        object.__setattr__(self, "home", Path(self.home))

    @classmethod
    def from_env(cls, home: str | Path | None = None, **overrides) -> Settings:
        base = cls(
            home=Path(home or os.environ.get("TWIN_HOME") or "twin-home"),
            quiet_seconds=_int("TWIN_QUIET_SECONDS", 600) or 0,
            fold_seconds=_int("TWIN_FOLD_SECONDS", 1800) or 0,
            daily_read_tokens=_int("TWIN_DAILY_READ_TOKENS", None),
            reader_model=os.environ.get("TWIN_READER_MODEL") or None,
            reader_url=os.environ.get("TWIN_READER_URL") or None,
            reader_windows=_yes("TWIN_READER_WINDOWS", False),
            reading=_yes("TWIN_READING", True),
            max_pending=_int("TWIN_MAX_PENDING", 2000) or 0,
            workers=_int("TWIN_WORKERS", 2) or 1,
            watch=_yes("TWIN_WATCH", True),
            machine=machine_name(os.environ.get("TWIN_MACHINE") or socket.gethostname()),
            sync_seconds=_int("TWIN_SYNC_SECONDS", None) or None,
            sync_gpg_keys=tuple(k for k in os.environ.get("TWIN_SYNC_GPG_KEYS", "").replace(",", " ").split() if k),
            open_users=_int("TWIN_OPEN_USERS", 64) or 1,
            watch_limit=_int("TWIN_WATCH_LIMIT", None),
        )
        return replace(base, **overrides)

    @property
    def rules_only(self) -> bool:
        return (self.reader_model or "").strip().lower() == "none"

    @property
    def window_reader(self) -> tuple[str | None, str | None]:
        """(model, url) for make_reader: the rules read, unless the model is asked to read whole windows."""
        if self.reader_windows and not self.rules_only:
            return self.reader_model, self.reader_url
        return None, None

    @property
    def model_checks(self) -> bool:
        """Whether the model pass checks the rules' reading: with reader_model (at reader_url when set), else with
        the default (Qwen2.5-Coder-1.5B where installed)."""
        return not self.rules_only and not self.reader_windows
