"""A vault's git history: read (a file's commits, the file as it stood at one) and rewritten, with what could
still reach the old commits dropped: forget's purge (every commit again without what is gone now, forgetting.py),
the refs and objects a sync's replay leaves behind."""
from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import git

from . import faults
from .vault import COMMIT_GRAPH, Vault


@dataclass(frozen=True)
class Commit:
    sha: str
    message: str
    at: str
    author: str


def log(vault: Vault, rel: str | None = None, limit: int = 100) -> list[Commit]:
    """Commits newest first, of the whole vault or of one file."""
    return [Commit(c.hexsha, _text(c.message).strip(), c.committed_datetime.isoformat(), c.author.name or "")
            for c in vault.repo.iter_commits("HEAD", rel or "", max_count=limit)]


def rev_before(vault: Vault, when: datetime) -> str | None:
    """The last commit made before `when` (None when the vault is younger)."""
    out = vault.repo.git.rev_list("-1", f"--before={when.isoformat()}", "HEAD")
    return out.strip() or None


def show(vault: Vault, rel: str, rev: str) -> str | None:
    """The file as it stood at a commit (None when it did not exist there)."""
    try:
        return vault.repo.git.show(f"{rev}:{rel}")
    except git.GitCommandError:
        return None


def paths_ever(vault: Vault, top: str) -> set[str]:
    """Every path under `top` that any commit ever held."""
    return {p for p in vault.git("log", "--format=", "--name-only", "--", top).splitlines() if p}


def rewrite_history(vault: Vault, prefixes: list[str], message: Callable[[str], str]) -> int:
    """Every commit again, with the files under `prefixes` as they are now (or gone, where they are gone now)
    and each message through `message`; then nothing of the old commits is kept (reflog expired, objects
    pruned). For forget: what is no longer in the files is no longer in the history. One pass of git
    fast-export (without file contents) and fast-import. Returns the commits rewritten."""
    now = {}
    for entry in vault.git("ls-tree", "-r", "-z", "HEAD", "--", *prefixes).split("\0"):
        if entry:
            meta, path = entry.split("\t", 1)
            now[path] = meta.split()[2]
    under = tuple(p.rstrip("/") + "/" for p in prefixes)
    branch = vault.git("symbolic-ref", "--short", "HEAD").strip()
    stream = subprocess.run(["git", "-C", str(vault.root), "fast-export", "--no-data", "--reencode=yes",
                             f"refs/heads/{branch}"], capture_output=True, check=True).stdout
    out, commits, pos = [], 0, 0
    while pos < len(stream):
        end = stream.index(b"\n", pos)
        line = stream[pos:end]
        pos = end + 1
        if line.startswith(b"data "):
            size = int(line[5:])
            text = message(stream[pos:pos + size].decode().strip()).encode() + b"\n"
            pos += size
            out.append(b"data %d\n" % len(text) + text)
            continue
        if line.startswith(b"commit "):
            commits += 1
        elif line.startswith(b"M "):
            mode, _, quoted = line[2:].decode().split(" ", 2)
            path = _unquote(quoted)
            if path in now:
                line = f"M {mode} {now[path]} {quoted}".encode()
            elif path in prefixes or path.startswith(under):
                continue  # a file that is gone now never was
        out.append(line + b"\n")
    subprocess.run(["git", "-C", str(vault.root), "fast-import", "--force", "--quiet"], input=b"".join(out),
                   capture_output=True, check=True)
    faults.point("rewrite")
    # the index to the new HEAD (whose tree is the same), written whole: a split index keeps the old entries
    # in its shared part, and gc keeps what an index names
    vault.git("-c", "core.splitIndex=false", "reset", "--quiet")
    for shared in (vault.root / ".git").glob("sharedindex.*"):
        shared.unlink()  # the old entries' paths (item names are their ids) and blob ids
    drop_old_refs(vault)
    vault.upkeep_done()  # its gc's own reflog expire would race this one
    vault.git("reflog", "expire", "--expire=now", "--all")
    prune_now(vault)
    vault.close()  # gitpython's view of the repository is stale
    return commits


def prune_now(vault: Vault) -> None:
    """`git gc --prune=now`, as the writer: after the background upkeep's `gc --auto` is done (git refuses a
    second gc while one runs — a forget's purge failed so, and its vault could not be repaired), and with
    --force, since a gc.pid a killed process left stops it too while its pid lives on in another process.
    The home's owner lock keeps every other process's gc out of this vault."""
    vault.upkeep_done()
    vault.git("gc", "--prune=now", "--quiet", "--force")
    # gc writes no commit graph (MANY_FILES): the one the upkeep wrote still lists the commits just pruned
    vault.git(*COMMIT_GRAPH)


def drop_old_refs(vault: Vault) -> None:
    """Every ref but the branch that could still reach old commits: remote-tracking refs (sync fetches
    again), FETCH_HEAD, ORIG_HEAD, stashes."""
    refs = vault.git("for-each-ref", "--format=%(refname)", "refs/remotes", "refs/stash").split()
    for ref in refs:
        vault.git("update-ref", "-d", ref)
    for name in ("FETCH_HEAD", "ORIG_HEAD", "MERGE_HEAD"):
        (vault.root / ".git" / name).unlink(missing_ok=True)
    # an encrypted remote's (gcrypt's) list of the packs already fetched: what they held is pruned next, so
    # the next fetch must download them again rather than trust the list
    shutil.rmtree(vault.root / ".git" / "remote-gcrypt", ignore_errors=True)


def _unquote(path: str) -> str:
    """A path as git writes it in a stream: as is, or C-quoted ("a\\"b", octal bytes) when it needs to be."""
    if not path.startswith('"'):
        return path
    raw = path[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape").encode("latin-1")
    return raw.decode("utf-8", "replace")


def _text(message: str | bytes) -> str:
    """A commit's message as text (gitpython gives bytes only when it cannot decode it)."""
    return message if isinstance(message, str) else message.decode(errors="replace")
