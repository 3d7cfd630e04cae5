"""A vault's git remote: which URLs sync takes, fetch and push (with a lease, or gcrypt's way: encrypted.py), and
what the last sync noted in .git. The plan of a merge is merge.py's; the steps of one sync are run.py's."""
from __future__ import annotations

import json
import logging
import os
import re
import subprocess
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

from .. import faults, git_history
from ..durable import atomic_write
from ..errors import Invalid, TwinError, Unavailable
from ..paths import CONFLICTS
from ..vault import Vault
from . import encrypted

log = logging.getLogger("twinfs.sync")
REMOTE, BRANCH = "origin", "main"
TRACKING = f"refs/remotes/{REMOTE}/{BRANCH}"
STATE = "twin-sync.json"  # in .git: the remote's head as last seen, when it last synced, why it last failed
TRANSPORTS = "file:ssh:git:https:gcrypt"  # gcrypt: only as check_url lets it, around one of the others
HUMAN = ("edit:", "correct:")  # commits that hold what a person did
DERIVED = ("passages/", "records/", "pages/")
# git never prompts, runs no hook, converts no line ending, speaks no transport but these
GIT_ENV = {"GIT_TERMINAL_PROMPT": "0", "GIT_ALLOW_PROTOCOL": TRANSPORTS, "GCM_INTERACTIVE": "never",
           "GIT_SSH_COMMAND": "ssh -o BatchMode=yes", "GIT_ASKPASS": "", "SSH_ASKPASS": "", "LC_ALL": "C"}
GIT_CONFIG = ["-c", "core.hooksPath=/dev/null", "-c", "core.autocrlf=false", "-c", "protocol.ext.allow=never",
              "-c", "credential.interactive=never"]


class Refused(TwinError):
    """The remote holds something else than this end user's vault."""

    status = 409


@dataclass
class SyncReport:
    """What one sync did (result() in run.py shapes it into the API's SyncResult)."""

    remote: str
    kind: str = "up to date"  # "sent", "received", "merged", "replayed", "cloned"
    received: list[str] = field(default_factory=list)  # item ids that came in or changed here
    sent: bool = False
    forgotten: list[str] = field(default_factory=list)  # item ids forgotten here by a tombstone from the remote
    conflicts: list[str] = field(default_factory=list)  # conflicts/ copies in the vault now
    kept: list[str] = field(default_factory=list)  # "id: kept <machine>'s edit" for ids edited on both sides
    head: str = ""
    encrypted_to: list[str] = field(default_factory=list)  # the GnuPG keys an encrypted remote is sealed to


# remotes
def check_url(raw: str, vault: str) -> str:
    """A remote's URL as given (with `{vault}` as the vault's folder name), or Invalid saying why not. A local
    path is made absolute. Never a password in it, never a transport but file, ssh, git and https."""
    url = raw.strip().replace("{vault}", vault)
    if encrypted.encrypted(url):
        return encrypted.PREFIX + check_url(encrypted.inner(url), vault)
    if not url:
        raise Invalid("the remote is empty: give a path, or an ssh, git or https URL", "remote")
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*::", url):
        raise Invalid("the remote names a git transport helper (`<transport>::…`), which sync does not run: "
                      "use a path, or an ssh, git or https URL", "remote")
    scheme = urlsplit(url).scheme.lower() if "://" in url else ""
    if scheme:
        if scheme not in ("file", "ssh", "git", "https"):
            raise Invalid(f"the remote's transport '{scheme}' is not one sync uses: file, ssh, git or https",
                          "remote")
        if urlsplit(url).password is not None:
            raise Invalid("the remote's URL holds a password: sync never stores one; use a git credential helper "
                          "or an ssh key, and give the URL without it", "remote")
        return url
    if re.match(r"^[^/@]+@[^/:]+:", url) or re.match(r"^[A-Za-z0-9.-]+:(?!/)", url) and not os.path.exists(url):
        return url  # scp-like ssh: user@host:path
    return str(Path(url).expanduser().resolve())


def shown(url: str) -> str:
    """A URL as it may be printed and logged (never with a user's password, which check_url refuses anyway)."""
    parts = urlsplit(url)
    if parts.password is not None:
        return parts._replace(netloc=parts.hostname or "").geturl()
    return url


def configured(vault: Vault) -> str | None:
    try:
        return vault.git("config", "--get", f"remote.{REMOTE}.url").strip() or None
    except subprocess.CalledProcessError:
        return None


def configure(vault: Vault, url: str) -> None:
    """Keep `url` as the vault's remote; a local path that does not exist yet becomes a bare repository (gcrypt
    makes its own folder of encrypted files)."""
    plain = encrypted.plain_repository(url)
    if plain is not None:
        raise Invalid(f"{plain} holds a plain git repository with a vault's branch in clear, not an encrypted "
                      "remote: nothing was changed; give gcrypt:: a new folder", "remote")
    if not encrypted.encrypted(url) and "://" not in url and not re.match(r"^[^/@]+@[^/:]+:", url):
        target = Path(url)
        if not target.exists():
            target.mkdir(parents=True)
            _run(["git", "init", "--quiet", "--bare", "--initial-branch", BRANCH, str(target)], "create the remote")
    if configured(vault) is None:
        vault.git("remote", "add", REMOTE, url)
    else:
        vault.git("remote", "set-url", REMOTE, url)
    vault.git("config", f"remote.{REMOTE}.fetch", f"+refs/heads/{BRANCH}:{TRACKING}")
    vault.git("config", f"remote.{REMOTE}.tagOpt", "--no-tags")


def configure_back(vault: Vault, url: str | None) -> None:
    """The remote a vault had before (none: no remote at all)."""
    if url is None:
        if configured(vault) is not None:
            vault.git("remote", "remove", REMOTE)
    else:
        configure(vault, url)


def _run(args: list[str], what: str, input: bytes | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run(args, input=input, capture_output=True, env={**os.environ, **GIT_ENV})
    if done.returncode:
        stderr = done.stderr.decode(errors="replace")
        raise encrypted.failure(what, stderr) or _network_error(what, stderr)
    return done


def _network_error(what: str, stderr: str) -> TwinError:
    """git's failure as one line an operator can act on."""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip() and not ln.startswith("hint:")]
    text = " ".join(lines)
    detail = (lines[-1] if lines else "git failed").removeprefix("fatal: ").removeprefix("error: ")
    if re.search(r"Authentication failed|Permission denied|could not read Username|terminal prompts disabled|"
                 r"403|401", text):
        return Unavailable(f"could not {what}: the remote refused our credentials ({detail}); set up an ssh key or "
                           "a git credential helper", retry_after=300)
    if re.search(r"does not appear to be a git repository|not a git repository|repository .* not found", text):
        return Invalid(f"could not {what}: the remote is not a git repository ({detail})", "remote")
    if re.search(r"transport .* not allowed|Unable to find remote helper", text):
        return Invalid(f"could not {what}: {detail}", "remote")
    return Unavailable(f"could not {what}: the remote cannot be reached ({detail})", retry_after=60)


def fetch(vault: Vault, url: str) -> str | None:
    """The remote's main as fetched into the tracking ref, or None when the remote holds nothing yet."""
    folder = encrypted.local_folder(url)
    if folder is not None:
        encrypted.finish_replacing(folder)  # a folder made anew that a kill left beside the old one
    _run(["git", *GIT_CONFIG, "-C", str(vault.root), "fetch", "--quiet", "--no-tags", "--prune", url,
          f"+refs/heads/*:refs/remotes/{REMOTE}/*"], "fetch from the remote")
    faults.point("fetched")
    return rev(vault, TRACKING)


def push(vault: Vault, url: str, expected: str | None, force: bool) -> bool:
    """Push HEAD to the remote's main; `force` (after a forget rewrote history) only while the remote is where
    we last saw it. False when the remote moved meanwhile (fetch and merge again)."""
    sent = _send_sealed(vault, url, expected, force) if encrypted.encrypted(url) else \
        _send(vault, url, f"HEAD:refs/heads/{BRANCH}",
              [f"--force-with-lease=refs/heads/{BRANCH}:{expected or ''}"] if force else [])
    if not sent:
        return False
    head = vault.head()
    if force:  # what was fetched of a history that still held a forgotten text goes from this disk
        git_history.drop_old_refs(vault)
        vault.git("update-ref", TRACKING, head)
        vault.upkeep_done()  # its gc's own reflog expire would race this one
        vault.git("reflog", "expire", "--expire=now", "--all")
        git_history.prune_now(vault)
        if _is_local(url):  # … and from the remote's, where we can reach it
            for args in (["reflog", "expire", "--expire=now", "--all"], ["gc", "--prune=now", "--quiet"]):
                _run(["git", "-C", url.removeprefix("file://"), *args], "clean the remote")
    vault.git("update-ref", TRACKING, head)
    return True


def _send(vault: Vault, url: str, refspec: str, lease: list[str]) -> bool:
    done = subprocess.run(["git", *GIT_CONFIG, "-C", str(vault.root), "push", "--quiet", "--porcelain", *lease,
                           url, refspec], capture_output=True, env={**os.environ, **GIT_ENV})
    out = done.stdout.decode(errors="replace") + done.stderr.decode(errors="replace")
    if done.returncode and re.search(r"\[rejected\]|\(fetch first\)|non-fast-forward|stale info|"
                                     r"\[remote rejected\].*(cannot lock|failed to update)", out):
        return False
    if done.returncode:
        raise encrypted.failure("push to the remote", out) or _network_error("push to the remote", out)
    return True


def _send_sealed(vault: Vault, url: str, expected: str | None, force: bool) -> bool:
    """gcrypt takes no lease, so a forced push first checks the remote is where it was fetched; and it keeps every
    pack it was ever sent, so a local folder is made anew with the new history alone (encrypted.py)."""
    if not force:
        return _send(vault, url, f"HEAD:refs/heads/{BRANCH}", [])
    if _remote_head(vault, url) != expected:
        return False
    folder = encrypted.local_folder(url)
    if folder is None:
        return _send(vault, url, f"+HEAD:refs/heads/{BRANCH}", [])
    encrypted.replace_folder(folder, lambda fresh: _run(
        ["git", *GIT_CONFIG, "-C", str(vault.root), "push", "--quiet", f"{encrypted.PREFIX}{fresh}",
         f"+HEAD:refs/heads/{BRANCH}"], "push to the remote"))
    return True


def _remote_head(vault: Vault, url: str) -> str | None:
    listed = _run(["git", *GIT_CONFIG, "-C", str(vault.root), "ls-remote", url, f"refs/heads/{BRANCH}"],
                  "read the remote's head").stdout.decode().split()
    return listed[0] if listed else None


def _is_local(url: str) -> bool:
    return url.startswith("/") or url.startswith("file://")


# state kept in .git
def state(vault: Vault) -> dict:
    try:
        return json.loads((vault.root / ".git" / STATE).read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return {}


def note(vault: Vault, **changes) -> None:
    atomic_write(vault.root / ".git" / STATE, json.dumps({**state(vault), **changes}))


def conflict_copies(vault: Vault) -> list[str]:
    folder = vault.root / CONFLICTS
    return sorted(p.relative_to(vault.root).as_posix() for p in folder.rglob("*") if p.is_file()) \
        if folder.is_dir() else []


def rev(vault: Vault, ref: str) -> str | None:
    try:
        return vault.git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").strip() or None
    except subprocess.CalledProcessError:
        return None


def when() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
