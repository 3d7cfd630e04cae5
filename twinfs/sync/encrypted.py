"""Remotes that cannot read the memory: `gcrypt::<url>` syncs through git-remote-gcrypt, which keeps on the remote
only GnuPG-encrypted packs and a signed, encrypted manifest (no file names, no ids, no text). The cryptography is
gcrypt's and GnuPG's; this module only checks that they are there, says which keys a remote is encrypted to, and
turns their failures into one line.

The keys: TWIN_SYNC_GPG_KEYS names them (fingerprints, ids or e-mail addresses; every machine that shares the
remote holds them), set as the vault's `remote.origin.gcrypt-participants`; without it, gcrypt's own default,
the GnuPG home's default key.

After a forget rewrote history, the remote must keep no ciphertext of the old one. gcrypt never drops an object
once pushed: even its full repack (GCRYPT_FULL_REPACK) downloads every old pack and packs all their objects again.
So a remote that is a local folder (a path, a mounted NAS or cloud drive) is made anew: the new history is pushed to
a fresh folder beside it, whose files are then swapped into the old one's, the manifest last (a kill in between is
finished by the next sync). A
remote reached over ssh or https keeps its old packs, still sealed, until it is made anew by hand (docs/sync.md)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from ..durable import atomic_write, fsync_dir
from ..errors import Invalid, TwinError, Unavailable
from ..vault import Vault

PREFIX = "gcrypt::"
REMOTE = "origin"
# gpg never asks anyone anything: a server has no terminal
GPG_ARGS = "--batch --no-tty --pinentry-mode=error"


def encrypted(url: str | None) -> bool:
    return bool(url) and url.startswith(PREFIX)  # type: ignore[union-attr]


def inner(url: str) -> str:
    return url.removeprefix(PREFIX)


def tools() -> None:
    """git-remote-gcrypt and gpg on PATH, or one line saying which is missing."""
    for tool, package in (("git-remote-gcrypt", "git-remote-gcrypt"), ("gpg", "gnupg")):
        if shutil.which(tool) is None:
            raise Invalid(f"an encrypted remote (gcrypt::) needs {tool}, which is not installed here: install the "
                          f"'{package}' package (apt, Homebrew)", "remote")


def _gpg(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["gpg", "--batch", "--no-tty", "--with-colons", *args], capture_output=True, text=True,
                          env={**os.environ, "LC_ALL": "C"})


def _keys(listing: str) -> list[tuple[str, str, str]]:
    """(fingerprint, user id, capabilities) of each primary key in a --with-colons listing, usable ones only."""
    out, fpr, caps, uid, usable = [], "", "", "", False
    for line in listing.splitlines() + ["pub:end"]:
        f = line.split(":")
        if f[0] in ("pub", "sec"):
            if fpr and usable:
                out.append((fpr, uid, caps))
            fpr, uid, caps = "", "", f[11] if len(f) > 11 else ""
            usable = len(f) > 1 and f[1] not in ("r", "e", "d", "i")
        elif f[0] == "fpr" and not fpr:
            fpr = f[9]
        elif f[0] == "uid" and not uid:
            uid = f[9]
    return out


def recipients(participants: list[str]) -> list[str]:
    """The keys a push encrypts to, as `fingerprint (user id)`: each participant, or the default key. Invalid,
    naming it, where one is missing, cannot encrypt, or no secret key is here to sign the manifest."""
    secret = _keys(_gpg("--list-secret-keys").stdout)
    if not secret:
        raise Invalid("an encrypted remote needs a GnuPG key of this machine's to sign with, and there is none: "
                      "make one with `gpg --quick-gen-key \"Your Name <you@example.org>\" future-default default "
                      "never` (docs/sync.md)", "remote")
    if not participants:
        default = _default_key()
        chosen = [k for k in secret if default and (default.upper() in k[0] or default in k[1])] or secret[:1]
        return [f"{fpr} ({uid})" for fpr, uid, _ in chosen]
    named = []
    for who in participants:
        found = _keys(_gpg("--list-keys", who).stdout)
        if not found:
            raise Invalid(f"the GnuPG key '{who}' (TWIN_SYNC_GPG_KEYS) is not in this machine's keyring: import it "
                          "with `gpg --import` (docs/sync.md)", "remote")
        fpr, uid, caps = found[0]
        if "E" not in caps:
            raise Invalid(f"the GnuPG key '{who}' cannot encrypt (it has no usable encryption subkey)", "remote")
        named.append(f"{fpr} ({uid})")
    return named


def _default_key() -> str | None:
    """gpg.conf's default-key, where one is set."""
    home = os.environ.get("GNUPGHOME") or os.path.expanduser("~/.gnupg")
    try:
        with open(os.path.join(home, "gpg.conf"), encoding="utf-8") as conf:
            for line in conf:
                m = re.match(r"\s*default-key\s+(\S+)", line)
                if m:
                    return m.group(1)
    except OSError:
        pass
    return None


def prepare(vault: Vault, participants: list[str]) -> list[str]:
    """Before any fetch or push of an encrypted remote: the tools are there, the keys are, and the vault's git is
    set to use them without a prompt. Returns the keys it encrypts to."""
    tools()
    keys = recipients(participants)
    vault.git("config", "gcrypt.gpg-args", GPG_ARGS)
    fingerprints = " ".join(k.split(" ", 1)[0] for k in keys)
    for name in (f"remote.{REMOTE}.gcrypt-participants", "gcrypt.participants"):  # a fetch by URL reads the latter
        if participants:
            vault.git("config", name, fingerprints)
        elif vault.git("config", "--get-all", name, check=False).strip():
            vault.git("config", "--unset-all", name)
    return keys


def refuse_switch(configured: str | None, url: str) -> None:
    """A vault that synced with an encrypted remote never sends its memory to a plain one, nor the reverse,
    without the explicit step docs/sync.md gives (removing the vault's remote first)."""
    if configured is None or encrypted(configured) == encrypted(url):
        return
    if encrypted(configured):
        raise Invalid(f"this vault syncs with an encrypted remote ({configured}); a plain remote would receive its "
                      "memory in clear, so it is refused. To move it, see docs/sync.md", "remote")
    raise Invalid(f"this vault syncs with a plain remote ({configured}); moving it to an encrypted one is an "
                  "explicit step (docs/sync.md): nothing was changed", "remote")


def failure(what: str, stderr: str) -> TwinError | None:
    """gcrypt's and gpg's failures as one line, or None when they are none of these."""
    if "gcrypt" not in stderr and "gpg" not in stderr:
        return None
    if re.search(r"decryption failed: No secret key|Failed to decrypt manifest|no valid OpenPGP data", stderr):
        return Invalid(f"could not {what}: the remote is encrypted to a key this machine does not hold (import "
                       "that key, or ask who shares the remote to add this machine's key: docs/sync.md)", "remote")
    if re.search(r"Manifest signature|bad signature|not signed by|BAD signature|no signature", stderr, re.I):
        return Invalid(f"could not {what}: the remote's manifest is not signed by a key of the participants "
                       "(TWIN_SYNC_GPG_KEYS)", "remote")
    if re.search(r"Unusable public key|No public key|unknown default recipient|skipped: No public key", stderr):
        return Invalid(f"could not {what}: a key to encrypt to is missing or cannot encrypt "
                       "(TWIN_SYNC_GPG_KEYS; docs/sync.md)", "remote")
    if re.search(r"No pinentry|Inappropriate ioctl|cannot open '/dev/tty'|Bad passphrase|No secret key", stderr):
        return Unavailable(f"could not {what}: the GnuPG key is locked by a passphrase and no one can type it "
                           "here: unlock it in gpg-agent (or use a key without one for a server)", retry_after=300)
    return None


def local_folder(url: str) -> Path | None:
    """An encrypted remote that is a folder on this machine (gcrypt's local backend), or None."""
    if not encrypted(url):
        return None
    rest = inner(url)
    if not rest.startswith("/") or (Path(rest) / "HEAD").exists():
        return None  # gcrypt keeps a file:// URL or a git repository as a git backend, a folder of files it is not
    return Path(rest)


def plain_repository(url: str) -> Path | None:
    """A local git repository given as gcrypt:: that holds a plain vault's branch (gcrypt would write its own
    branch beside it, and the memory would stay on the remote in clear), or None."""
    rest = inner(url).removeprefix("file://")
    if not encrypted(url) or not rest.startswith("/") or not (Path(rest) / "HEAD").exists():
        return None
    held = subprocess.run(["git", "--git-dir", rest, "rev-parse", "--verify", "--quiet", "refs/heads/main"],
                          capture_output=True)
    return Path(rest) if held.returncode == 0 else None


def fresh_beside(folder: Path) -> Path:
    """Where the new history is pushed before it is swapped in."""
    return folder.with_name(folder.name + ".twin-new")


PUSHED = ".twin-pushed"  # in the fresh folder once the push into it finished: the names it made, one a line


def replace_folder(folder: Path, push: Callable[[Path], object]) -> None:
    """Push the whole history to a fresh folder beside the remote, then swap its files into the remote's folder
    one by one: the remote is whole at every moment (never a missing folder another machine would take for an
    empty remote)."""
    fresh = fresh_beside(folder)
    shutil.rmtree(fresh, ignore_errors=True)
    push(fresh)
    made = sorted(f.name for f in fresh.iterdir())
    atomic_write(fresh / PUSHED, "".join(f"{name}\n" for name in made))
    _swap_in(folder, fresh)


def _swap_in(folder: Path, fresh: Path) -> None:
    """gcrypt names its packs by their content and keeps one manifest under a fixed name: the new packs go in
    first (names the old folder has not), then the manifest over the old one (a single rename: readers see the old
    history or the new, each with its packs present), then every file the new manifest does not list goes."""
    made = (fresh / PUSHED).read_text().split()
    folder.mkdir(parents=True, exist_ok=True)
    for name in sorted(made, key=lambda n: (folder / n).exists()):  # new names first, the manifest last
        if (fresh / name).exists():
            os.replace(fresh / name, folder / name)
    fsync_dir(folder)
    for old in folder.iterdir():
        if old.is_file() and old.name not in made:
            old.unlink()
    shutil.rmtree(fresh, ignore_errors=True)


def finish_replacing(folder: Path) -> None:
    """What a kill left of replace_folder: a finished push is swapped in; an unfinished one is dropped (the
    remote still holds the old history, whole, and the forced push is made again)."""
    fresh = fresh_beside(folder)
    if (fresh / PUSHED).is_file():
        _swap_in(folder, fresh)
    elif fresh.exists():
        shutil.rmtree(fresh, ignore_errors=True)
