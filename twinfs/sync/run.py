"""One sync of one end user's vault, step by step (the merge rule is merge.py's, the remote remote.py's): fetch
outside the writer; under it, land what waits, commit hand edits, forget what the remote forgot, merge and settle;
push outside it again; fetch and merge again when someone pushed meanwhile. A new machine joining clones the vault
and builds its indexes. Two syncs of one vault take turns."""
from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable

from .. import faults, tombstones
from ..clock import Clock
from ..errors import NotFound, TwinError, Unavailable
from ..models import SyncResult
from ..space import Space
from ..steps import land
from ..steps.tidy import settle
from . import encrypted, merge, remote
from .remote import Refused, SyncReport

ATTEMPTS = 4  # fetch -> merge -> push, again while the remote keeps moving


class Hooks:
    """What a sync needs of the Memory: land the inbox, forget ids (history included), fold the pages."""

    def __init__(self, land: Callable[[Space], None], mend: Callable[[Space], object],
                 forget: Callable[[Space, list[str], list[dict]], object], fold: Callable[[Space], None], clock: Clock,
                 gpg_keys: tuple[str, ...] = ()):
        self.land, self.mend, self.forget, self.fold, self.clock = land, mend, forget, fold, clock
        self.gpg_keys = list(gpg_keys)  # an encrypted remote's participants (TWIN_SYNC_GPG_KEYS); none: the default


def run(space: Space, url: str, hooks: Hooks) -> SyncReport:
    """Sync the vault with the remote at `url` (already checked); the vault must exist."""
    vault = space.vault
    out = SyncReport(remote=remote.shown(url))
    with space.syncing:
        try:
            if encrypted.encrypted(url):
                out.encrypted_to = encrypted.prepare(vault, hooks.gpg_keys)
            rewritten = False
            for _ in range(ATTEMPTS):
                theirs = remote.fetch(vault, url)
                with space.writer:
                    hooks.land(space)
                    hooks.mend(space)  # what a person edited and no one committed yet goes with this sync
                    again, force = _merge(space, theirs, hooks, out, rewritten)
                    rewritten = rewritten or again
                if again:
                    continue  # forgotten here as the remote did: its objects were pruned, fetch them again
                if theirs == vault.head():
                    break
                faults.point("pushing")
                if remote.push(vault, url, theirs, force):
                    out.sent = True
                    out.kind = "sent" if out.kind == "up to date" else out.kind
                    break
            else:
                raise Unavailable("the remote kept moving while this sync merged; try again", retry_after=10)
        except TwinError as exc:
            remote.note(vault, error=exc.message, error_at=remote.when())
            raise
        except subprocess.CalledProcessError as exc:
            message = f"git failed: {(exc.stderr or '').strip().splitlines()[-1:] or exc}"
            remote.note(vault, error=message, error_at=remote.when())
            raise Unavailable(f"sync stopped: {message}", retry_after=60) from None
    out.head = vault.head()
    out.conflicts = remote.conflict_copies(vault)
    remote.note(vault, remote_head=remote.rev(vault, remote.TRACKING), synced_at=remote.when(), error=None,
                error_at=None, conflicts=out.conflicts)
    return out


def _merge(space: Space, theirs: str | None, hooks: Hooks, out: SyncReport, rewritten: bool) -> tuple[bool, bool]:
    """Under the writer: bring theirs into ours. Returns (fetch again, push with force)."""
    vault = space.vault
    ours = vault.head()
    if theirs is None or theirs == ours or merge.ancestor(vault, theirs, ours):
        return False, False
    name = merge.marker_of(vault, theirs).get("vault")
    if name != space.user.dirname:
        raise Refused(f"the remote holds {'the vault ' + repr(name) if name else 'no twinfs vault'}, not "
                      f"{space.user.dirname!r}: nothing was merged, and this vault is as it was")
    mine, their_stones = merge.stones_of(vault, ours), merge.stones_of(vault, theirs)
    salts = {e["salt"] for e in mine}
    new = [e for e in their_stones if e["salt"] not in salts]
    if new:
        doomed = [e["id"] for e in tombstones.matching(new, _all_items(space))]
        hooks.forget(space, doomed, new)  # files, indexes, pages and this machine's history; tombstones kept
        out.forgotten += doomed
        if doomed:
            return True, False
        ours = vault.head()
        mine = merge.stones_of(vault, ours)
        salts = {e["salt"] for e in mine}
    clean = salts <= {e["salt"] for e in their_stones}  # theirs forgot all we forgot
    if clean and not rewritten and merge.ancestor(vault, ours, theirs):
        target, kind, merged = theirs, "received", None
    else:
        merged = merge.merge(vault, ours, theirs, mine + their_stones, clean, hooks.clock)
        if clean and not rewritten:
            parents, kind = [ours, theirs], "merged"
        elif clean:
            parents, kind = [theirs], "replayed"  # our history was rewritten by a forget: ours onto theirs
        else:
            parents, kind = [ours], "replayed"  # theirs still holds what we forgot: theirs onto ours
        target = merge.commit_tree(vault, merged.tree, parents, _message(kind, merged))
        out.kept += merged.kept
        out.conflicts += merged.conflicts
    changed = merge.move_to(space, target)
    items = sorted(i for i in {_id_of(space, p) for p in changed if p.startswith("items/")} if i is not None)
    out.received += merged.received if merged else items
    out.kind = kind
    _settle(space, changed, merged.gone if merged else [], hooks)
    return False, not clean


def _settle(space: Space, changed: list[str], gone: list[str], hooks: Hooks) -> None:
    written = settle(space, changed, gone)
    threads = len({p.split("/")[1] for p in changed if p.startswith("items/")})
    if written:  # only the folders the cut wrote: git looks at nothing else of a big vault
        folders = sorted({p.rsplit("/", 1)[0] if p.startswith("passages/") else p for p in written})
        space.vault.commit(f"sync: {threads} thread{'s' if threads != 1 else ''} cut again after the merge", folders)
    if any(p.startswith("records/") for p in changed):
        hooks.fold(space)
    merge.finish(space.vault)


def resume(space: Space, hooks: Hooks) -> bool:
    """Finish a merge that a kill stopped (at the next start): applied again, settled. Whether one waited."""
    changed = merge.resume(space)
    if changed is None:
        return False
    _settle(space, changed, [], hooks)
    return True


def clone(space: Space, url: str, progress: merge.Progress | None = None, gpg_keys: tuple[str, ...] = ()) -> SyncReport:
    """A new machine joining: the vault fetched whole from the remote, its indexes built here."""
    root = space.root
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "--quiet", "--initial-branch", remote.BRANCH, str(root)], check=True,
                   capture_output=True)
    vault = space.vault
    vault.configure()
    try:
        keys = encrypted.prepare(vault, list(gpg_keys)) if encrypted.encrypted(url) else []
        remote.configure(vault, url)
        theirs = remote.fetch(vault, url)
        if theirs is None:
            raise NotFound(f"the remote holds no vault yet: sync {space.user.account} from the machine that has "
                           "it first")
        name = merge.marker_of(vault, theirs).get("vault")
        if name != space.user.dirname:
            raise Refused(f"the remote holds {'the vault ' + repr(name) if name else 'no twinfs vault'}, not "
                          f"{space.user.dirname!r}")
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)  # nothing half-made is left behind
        raise
    vault.git("reset", "--quiet", "--hard", theirs)
    vault.forget_repo()
    space.inbox.mkdir(exist_ok=True)
    with space.writer:
        land.reindex(space, progress)
    out = SyncReport(remote=remote.shown(url), kind="cloned", head=vault.head(),
                  received=[e["id"] for e in _all_items(space)], conflicts=remote.conflict_copies(vault),
                  encrypted_to=keys)
    remote.note(vault, remote_head=theirs, synced_at=remote.when(), error=None, conflicts=out.conflicts)
    return out


def _all_items(space: Space) -> list[dict]:
    return [e for thread in space.threads() for e in space.thread_items(thread)]


def _id_of(space: Space, path: str) -> str | None:
    try:
        return json.loads(space.vault.read(path))["id"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _message(kind: str, merged: merge.Merge) -> str:
    head = {"merged": "sync: merge with the remote",
            "replayed": "sync: changes replayed onto the history that forgot"}[kind]
    lines = [f"{head} ({len(merged.received)} item{'s' if len(merged.received) != 1 else ''} in)"]
    if merged.kept:
        lines += ["", "Edited on both machines (the other version is in this commit's history):",
                  *(f"- {k}" for k in merged.kept)]
    if merged.conflicts:
        lines += ["", "Edited by hand on both machines; the other version is kept under conflicts/:",
                  *(f"- {c}" for c in merged.conflicts)]
    return "\n".join(lines)


def result(out: SyncReport) -> SyncResult:
    """What a sync did, as the API answers it; after a forget, what a remote may still keep of the old history."""
    note = None
    if out.forgotten and encrypted.encrypted(out.remote):
        if encrypted.local_folder(out.remote) is None:
            note = ("The encrypted remote is not a folder on this machine: it keeps the old history's packs, still "
                    "sealed, until it is made anew (docs/sync.md).")
    elif out.forgotten and not (out.remote.startswith("/") or out.remote.startswith("file://")):
        note = ("The remote is a hosted git service: a forget rewrote the history pushed there, but the host keeps "
                "the unreachable objects until its own garbage collection.")
    return SyncResult(remote=out.remote, kind=out.kind, received=len(out.received), sent=out.sent,
                      forgotten=len(out.forgotten), kept=out.kept, conflicts=out.conflicts, head=out.head,
                      note=note, encrypted_to=out.encrypted_to or None)
