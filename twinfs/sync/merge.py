"""The merge rule: a merged tree from ours and theirs, written as a commit, then moved to under the writer.

fetch (outside the writer) -> plan and apply under the writer -> push (outside it again). Items are the truth and
merge as a union by id; an id changed on two machines keeps the later edit by its stamp (clock.py), ties by
content hash, and the merge commit names the version it left in history. Passages, records and pages are
derived: taken from whichever side changed them, records merged record by record (a retraction always wins),
then cut, indexed and read again here. What a person edited by hand survives; a file edited differently on both
sides keeps one version (the later edit) and puts the other under conflicts/, which nothing reads. A forget
travels as tombstones (tombstones.py): received, the same items are forgotten here, history included, and a
history that still holds what one side forgot is never merged in: the other side's changes are replayed onto
the clean one instead. A merge is written as a commit first and noted in .git, so a kill at any point leaves
either the old vault or a merge the next start finishes.
"""
from __future__ import annotations

import json
import logging
import os
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .. import faults, tombstones
from ..clock import Clock, of_item
from ..paths import CONFLICTS, MARKER, TOMBSTONES
from ..space import Space
from ..vault import Vault
from .remote import BRANCH, DERIVED, HUMAN, note, state

log = logging.getLogger("twinfs.sync")


# git objects


def ancestor(vault: Vault, a: str, b: str) -> bool:
    return subprocess.run(["git", "-C", str(vault.root), "merge-base", "--is-ancestor", a, b]).returncode == 0


def _base(vault: Vault, a: str, b: str) -> str | None:
    try:
        return vault.git("merge-base", a, b).strip() or None
    except subprocess.CalledProcessError:
        return None  # unrelated histories


def tree(vault: Vault, commit: str) -> dict[str, tuple[str, str]]:
    """path -> (mode, blob) of every file of a commit."""
    out = {}
    for entry in vault.git("ls-tree", "-r", "-z", commit).split("\0"):
        if entry:
            meta, path = entry.split("\t", 1)
            mode, _, sha = meta.split()
            out[path] = (mode, sha)
    return out


def changes(vault: Vault, start: str, target: str) -> dict[str, str | None]:
    """path -> its blob at `target` (None: gone there) for every file that differs between two commits: git's
    own diff, so a merge into a big vault costs what changed, not the vault's size."""
    out: dict[str, str | None] = {}
    fields = vault.git("diff-tree", "-r", "-z", "--no-renames", start, target).split("\0")
    for meta, path in zip(fields[0::2], fields[1::2], strict=False):  # the list ends with an empty field
        if meta.startswith(":"):
            new_sha, status = meta.split()[3], meta.split()[4]
            out[path] = None if status == "D" else new_sha
    return out


def blobs(vault: Vault, shas: list[str]) -> dict[str, bytes]:
    """The contents of these blobs, in one git process."""
    if not shas:
        return {}
    done = subprocess.run(["git", "-C", str(vault.root), "cat-file", "--batch"], input="\n".join(shas).encode() + b"\n",
                          capture_output=True, check=True).stdout
    out, pos = {}, 0
    for sha in shas:
        end = done.index(b"\n", pos)
        header = done[pos:end].split()
        size = int(header[2])
        out[sha] = done[end + 1:end + 1 + size]
        pos = end + 1 + size + 1
    return out


def _write_blob(vault: Vault, data: bytes) -> str:
    return subprocess.run(["git", "-C", str(vault.root), "hash-object", "-w", "--stdin"], input=data,
                          capture_output=True, check=True).stdout.decode().strip()


def humans(vault: Vault, since: str | None, upto: str) -> dict[str, tuple[int, str]]:
    """Derived paths a person edited (or corrected) in the commits after `since` up to `upto`: path -> (time of
    the newest such edit, the machine it was made on). Deletions of conflict copies count as edits too."""
    span = f"{since}..{upto}" if since else upto
    out: dict[str, tuple[int, str]] = {}
    raw = vault.git("log", "--format=%x00%ct %ae %s", "--name-only", span, "--", *DERIVED, CONFLICTS)
    for block in raw.split("\0")[1:]:
        head, _, files = block.partition("\n")
        when, who, subject = head.split(" ", 2)
        if not subject.startswith(HUMAN):
            continue
        machine = who.partition("@")[2] or "unknown"
        for path in filter(None, files.splitlines()):
            out.setdefault(path, (int(when), machine))  # newest first in git log
    return out


# the plan: a merged tree from ours and theirs
@dataclass
class Merge:
    tree: dict[str, tuple[str, str]]  # the merged commit's files
    received: list[str]
    kept: list[str]
    conflicts: list[str]
    gone: list[str]  # item ids whose files the merge removes here


def merge(vault: Vault, ours: str, theirs: str, entries: list[dict], clean_theirs: bool, clock: Clock) -> Merge:
    """Ours and theirs merged by the rules above; `entries`: every tombstone of both sides; `clean_theirs`:
    whether theirs has forgotten all we have (if not, nothing derived of theirs is taken where it could hold
    what we forgot)."""
    mine, other = tree(vault, ours), tree(vault, theirs)
    base = _base(vault, ours, theirs)
    differ = sorted(p for p in set(mine) | set(other) if mine.get(p) != other.get(p))
    items = [p for p in differ if p.startswith("items/")]
    contents = blobs(vault, sorted({side[p][1] for p in items for side in (mine, other) if p in side}))
    by_id: dict[str, dict[str, tuple[str, dict]]] = {"ours": {}, "theirs": {}}
    for name, side in (("ours", mine), ("theirs", other)):
        for p in items:
            if p in side:
                try:
                    entry = json.loads(contents[side[p][1]])
                    by_id[name][entry["id"]] = (p, entry)
                except (ValueError, KeyError, TypeError):
                    continue  # an item file broken by hand: it stays where it is, on its own side
    result = dict(mine)
    received, kept, gone = [], [], []
    doomed = {e["id"] for e in tombstones.matching(entries, [e for _, e in by_id["theirs"].values()])}
    doomed_threads = {e.get("thread") for _, e in by_id["theirs"].values() if e["id"] in doomed}
    for ident in sorted(set(by_id["ours"]) | set(by_id["theirs"])):
        o, t = by_id["ours"].get(ident), by_id["theirs"].get(ident)
        if t and ident in doomed:
            if o:
                result.pop(o[0], None)
                gone.append(ident)
            continue
        if t is None:
            continue  # ours only: kept
        clock.observe(of_item(t[1]))
        if o is not None:
            if _content(o[1]) == _content(t[1]):
                continue
            winner = max((o, "ours"), (t, "theirs"), key=lambda v: (of_item(v[0][1]), _content(v[0][1])))
            loser = t if winner[1] == "ours" else o
            kept.append(f"{ident}: kept {of_item(winner[0][1])[2] or 'the older'} edit; "
                        f"{of_item(loser[1])[2] or 'the other'}'s is in history")
            if winner[1] == "ours":
                continue
            result.pop(o[0], None)
        result[t[0]] = other[t[0]]
        received.append(ident)

    ours_human = humans(vault, base, ours)
    theirs_human = humans(vault, base, theirs)
    conflicts: list[str] = []
    records: dict[str, bytes] = {}
    for p in differ:
        if not p.startswith((*DERIVED, CONFLICTS + "/")):
            continue
        ours_file, theirs_file = mine.get(p), other.get(p)
        thread = _thread_of(p)
        if not clean_theirs and (p.startswith("pages/") or thread in doomed_threads):
            continue  # theirs may still hold what we forgot: ours, and the cut and read again here, decide
        if p.startswith(CONFLICTS + "/"):
            if theirs_file and not ours_file and p not in ours_human:
                result[p] = theirs_file  # a copy made over there; a copy resolved here (deleted) stays resolved
            elif ours_file and not theirs_file and p in theirs_human:
                result.pop(p, None)
            continue
        if ours_file is None or theirs_file is None:
            if theirs_file is not None and (p.startswith("records/") or p in theirs_human or p not in ours_human):
                result[p] = theirs_file
            continue
        ho, ht = p in ours_human, p in theirs_human
        if p.startswith("records/"):
            records[p] = _merge_records(vault, ours_file[1], theirs_file[1], ht and not ho,
                                        _turn_order(vault, result, thread))
        elif ht and not ho:
            result[p] = theirs_file
        if ho and ht:  # both edited by hand, differently: one stays, the other is put aside, both visible
            newer_theirs = theirs_human[p] > ours_human[p]
            keep, aside, machine = (theirs_file, ours_file, ours_human[p][1]) if newer_theirs else \
                (ours_file, theirs_file, theirs_human[p][1])
            if not p.startswith("records/"):
                result[p] = keep
            copy = _conflict_path(p, machine)
            result[copy] = aside
            conflicts.append(copy)
    for p, data in records.items():
        result[p] = ("100644", _write_blob(vault, data))
    merged_stones = tombstones.render(entries).encode()
    if entries or TOMBSTONES in mine or TOMBSTONES in other:
        result[TOMBSTONES] = ("100644", _write_blob(vault, merged_stones))
    return Merge(result, received, kept, conflicts, gone)


def _content(entry: dict) -> str:
    from ..space import stored_hash

    try:
        return stored_hash(entry)
    except Exception:  # a broken item compares by its whole text
        return json.dumps(entry, sort_keys=True)


def _thread_of(path: str) -> str | None:
    for part in PurePosixPath(path).parts:
        if part.startswith("th_"):
            return part.removesuffix(".json")
    return None


def _conflict_path(path: str, machine: str) -> str:
    p = PurePosixPath(path)
    return f"{CONFLICTS}/{p.parent.as_posix()}/{p.stem}.{machine}{p.suffix}"


def _turn_order(vault: Vault, files: dict[str, tuple[str, str]], thread: str | None) -> dict[str, int]:
    """turn id -> its place in the thread, as reading orders a thread's records (filing.Reading)."""
    from ..space import said_order

    prefix = f"items/{thread}/"
    shas = [sha for p, (_, sha) in files.items() if p.startswith(prefix)]
    entries = []
    for raw in blobs(vault, shas).values():
        try:
            entries.append(json.loads(raw))
        except ValueError:
            continue
    return {e["id"]: n for n, e in enumerate(sorted(entries, key=said_order))}


def _merge_records(vault: Vault, ours: str, theirs: str, prefer_theirs: bool, order: dict[str, int]) -> bytes:
    """Two versions of a record file, record by record: every record of either; a retraction (a person's
    correction) wins over a live copy of the same record; otherwise the side a person edited, else ours."""
    raw = blobs(vault, [ours, theirs])
    try:
        mine, other = json.loads(raw[ours]), json.loads(raw[theirs])
    except ValueError:
        return raw[theirs] if prefer_theirs else raw[ours]
    first, second = (other, mine) if prefer_theirs else (mine, other)
    merged = {r["id"]: r for r in first}
    for r in second:
        kept = merged.get(r["id"])
        if kept is None or (r.get("retracted") and not kept.get("retracted")):
            merged[r["id"]] = r
    ordered = sorted(merged.values(), key=lambda r: (r.get("said", ""), min((order.get(t, len(order)) for t in
                                                                            r.get("turns", [])),
                                                                           default=len(order)), r["id"]))
    return (json.dumps(ordered, indent=1, ensure_ascii=False) + "\n").encode()


def commit_tree(vault: Vault, files: dict[str, tuple[str, str]], parents: list[str], message: str) -> str:
    """A commit of exactly these files, made in a temporary index (the vault's own index is not touched)."""
    with tempfile.NamedTemporaryFile(dir=vault.root / ".git", prefix="twin-sync-index.", delete=False) as f:
        index = f.name
    try:
        env = {"GIT_INDEX_FILE": index}
        os.unlink(index)
        listing = "".join(f"{mode} {sha}\t{path}\n" for path, (mode, sha) in sorted(files.items()))
        subprocess.run(["git", "-C", str(vault.root), "update-index", "--add", "--index-info"],
                       input=listing.encode(), env={**os.environ, **env}, check=True, capture_output=True)
        new_tree = vault.git("write-tree", env=env).strip()
    finally:
        Path(index).unlink(missing_ok=True)
    args = [a for p in parents for a in ("-p", p)]
    return vault.git("commit-tree", new_tree, *args, "-m", message, env=vault.author).strip()


def move_to(space: Space, target: str) -> list[str]:
    """Bring the files and the branch from HEAD to `target` (a commit whose tree the merge made); the paths that
    changed. Noted in .git first, so a kill midway is finished at the next start (resume)."""
    vault = space.vault
    head = vault.head()
    note(vault, applying={"from": head, "to": target})
    return _apply(space, head, target)


def _apply(space: Space, start: str, target: str) -> list[str]:
    vault = space.vault
    after = changes(vault, start, target)
    changed = sorted(after)
    contents = blobs(vault, sorted({sha for sha in after.values() if sha}))
    with space.passages_lock.exclusive():  # readers see the merge whole: before it or after it
        for n, p in enumerate(changed):
            sha = after[p]
            if sha:
                vault.write(p, contents[sha].decode("utf-8"), durable=False)
            else:
                vault.delete(p)
            if n == len(changed) // 2:
                faults.point("merging")
    vault.git("update-ref", "-m", "sync", f"refs/heads/{BRANCH}", target)
    vault.git("read-tree", target)
    vault.forget_repo()
    return changed


def resume(space: Space) -> list[str] | None:
    """A merge that a kill stopped while it was being applied: applied again (it is idempotent). The paths it
    changed, for the caller to settle; None when nothing waited."""
    applying = state(space.vault).get("applying")
    if not applying:
        return None
    head = space.vault.head()
    if head not in (applying["from"], applying["to"]):
        finish(space.vault)
        return None  # it was applied and settled; only the note was left
    return _apply(space, applying["from"], applying["to"])


def finish(vault: Vault) -> None:
    note(vault, applying=None)


def marker_of(vault: Vault, commit: str) -> dict:
    try:
        return json.loads(vault.git("show", f"{commit}:{MARKER}"))
    except (subprocess.CalledProcessError, ValueError):
        return {}


def stones_of(vault: Vault, commit: str | None) -> list[dict]:
    if commit is None:
        return []
    try:
        return tombstones.parse_file(vault.git("show", f"{commit}:{TOMBSTONES}"))
    except subprocess.CalledProcessError:
        return []


Progress = Callable[[int, int], None]
