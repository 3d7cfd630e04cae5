"""Start clean after any crash: what a dead process left in a vault is repaired when the home's owner opens it.

Once this process holds the home lock (home_lock.py), no other twin process writes the vault, so a lock or temp
file found in it is stale by construction: git's locks (left by a commit that was killed; a git child still
finishing is waited for; an upkeep's gc still running is stopped), temp files of atomic writes, a merge or
rebase left midway. Steps that stopped midway are finished by what runs next: an add still in the inbox lands
again (landing is idempotent), a step of the writer that left files uncommitted (its mark is still in .git) has
them committed as a repair and indexed, a forget, a reindex or a sync noted as begun is done again. A vault in
an older format is brought to this one. A vault that cannot be repaired is reported and left alone; the other
end users go on.
"""
from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

from .durable import atomic_write, fsync_dir
from .paths import MARKER, VAULT_TOPS, item_filename
from .space import WRITING, Space
from .vault import FORMAT

log = logging.getLogger("twinfs.repair")
GIT_LOCKS = ("index.lock", "HEAD.lock", "ORIG_HEAD.lock", "FETCH_HEAD.lock", "config.lock", "packed-refs.lock",
             "shallow.lock", "MERGE_HEAD.lock")
UPKEEP_MARKS = ("gc.pid", "objects/info/commit-graph.lock", "objects/info/commit-graphs/commit-graph-chain.lock")
FORGETTING = "twin-forget.json"  # in .git: the ids of a forget that began
REINDEXING = "reindexing"  # in .twin: a reindex began


class Broken(Exception):
    """The vault cannot be repaired here; the message says why."""


def stopped_midway(space: Space) -> bool:
    """Whether the writer's mark is in .git: a step stopped while it held (read before taking the writer)."""
    return (space.root / ".git" / WRITING).exists()


def repair(space: Space, midway: bool) -> list[str]:
    """Repair what a dead process left, as the writer; `midway`: the writer's mark was found (stopped_midway).
    Returns what was repaired, one line each (also logged)."""
    git = space.root / ".git"
    done: list[str] = _orphaned_upkeep(space)
    for path in _git_locks(git):
        _wait_unused(path)
        path.unlink(missing_ok=True)
        done.append(f"removed git's stale {path.relative_to(space.root)}")
    for path in _temp_files(space, deep=midway):
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
        done.append(f"removed the half-written {path.relative_to(space.root)}")
    for head, abort in (("MERGE_HEAD", ["merge", "--abort"]), ("CHERRY_PICK_HEAD", ["cherry-pick", "--abort"]),
                        ("REVERT_HEAD", ["revert", "--abort"])):
        if (git / head).exists():
            space.vault.git(*abort)
            done.append(f"ended a git {abort[0]} left midway")
    if (git / "rebase-merge").exists() or (git / "rebase-apply").exists():
        space.vault.git("rebase", "--abort")
        done.append("ended a git rebase left midway")
    try:
        space.vault.git("rev-parse", "--verify", "--quiet", "HEAD^{commit}")
    except subprocess.CalledProcessError:
        try:
            made = bool(space.vault.git("rev-list", "--all", "--max-count=1").strip())
        except subprocess.CalledProcessError:
            made = True  # refs git cannot read: not a vault stopped while being made
        if made:
            raise Broken("its git repository has no valid HEAD commit (run `git fsck` in it)") from None
        space.vault.first_commit(space.user.dirname)  # killed while it was being made: made now
        done.append("made the first commit of a vault that a kill stopped while it was being made")
    done += reflogs_mended(space)
    done += migrate(space)
    if midway:
        space.writer.stopped_midway = True  # mending commits what it left as a repair, not as a hand edit
        space.upkeep.edited()
        done.append("a step of the writer stopped midway: what it left is committed and indexed again")
    for line in done:
        log.warning("%s: %s", space.user.dirname, line)
    return done


def reflogs_mended(space: Space) -> list[str]:
    """Reflog entries that name an object git no longer has (`git fsck --strict`: "invalid reflog entry") are
    dropped, the others kept: a process killed between a history rewrite's prune and its reflog's rewrite, or two
    gc's pruning at once, left them. One read of the logs and one `cat-file --batch-check`: milliseconds."""
    logs = space.root / ".git" / "logs"
    files = [logs / "HEAD"] if (logs / "HEAD").is_file() else []
    files += sorted(p for p in (logs / "refs").rglob("*") if p.is_file()) if (logs / "refs").is_dir() else []
    named: set[str] = set()
    for f in files:
        for line in f.read_bytes().decode("utf-8", "replace").splitlines():
            named.update(sha for sha in line.split(" ", 2)[:2] if len(sha) >= 40 and sha.strip("0"))
    if not named:
        return []
    checked = space.vault.git("cat-file", "--batch-check=%(objectname)", input="".join(f"{s}\n" for s in named),
                              caught_up=False)
    missing = sum(1 for line in checked.splitlines() if line.endswith(" missing"))
    if not missing:
        return []
    space.vault.git("reflog", "expire", "--stale-fix", "--expire=never", "--expire-unreachable=never", "--all",
                    caught_up=False)
    return [f"dropped the reflog entries naming {missing} object{'s' if missing != 1 else ''} git no longer has"]


def pending_forget(space: Space) -> tuple[list[str], list[dict] | None] | None:
    """The ids (and the tombstones a remote sent, if it came from sync) of a forget that began and did not
    finish (a crash), to be forgotten again."""
    try:
        noted = json.loads((space.root / ".git" / FORGETTING).read_text(encoding="utf-8"))
        return noted["ids"], noted.get("stones")
    except (FileNotFoundError, ValueError, KeyError, TypeError):
        return None


def begin_forget(space: Space, ids: list[str], stones: list[dict] | None = None) -> None:
    atomic_write(space.root / ".git" / FORGETTING, json.dumps({"ids": ids, "stones": stones}))


def end_forget(space: Space) -> None:
    (space.root / ".git" / FORGETTING).unlink(missing_ok=True)


def reindex_pending(space: Space) -> bool:
    return (space.root / ".twin" / REINDEXING).exists()


def begin_reindex(space: Space) -> None:
    atomic_write(space.root / ".twin" / REINDEXING, "")


def end_reindex(space: Space) -> None:
    (space.root / ".twin" / REINDEXING).unlink(missing_ok=True)


def migrate(space: Space) -> list[str]:
    """Bring the vault to this format, its history kept: item files renamed to their portable names (format 2:
    paths.item_filename), vault.json written; one commit."""
    marker = space.vault.marker()
    if marker.get("format", 1) >= FORMAT:
        return []
    renamed = 0
    for thread in space.threads():
        folder = space.root / "items" / thread
        for f in sorted(folder.glob("*.json")):
            try:
                item_id = json.loads(f.read_text(encoding="utf-8"))["id"]
            except (OSError, ValueError, KeyError, TypeError):
                continue  # broken by hand: left where it is, as it is
            name = item_filename(item_id)
            if f.name != name:
                os.replace(f, folder / name)
                renamed += 1
        if renamed:
            fsync_dir(folder)
    space.vault.write_marker(marker.get("vault") or space.user.dirname)
    space.forget_cache()
    space.vault.commit(f"migrate: vault format {FORMAT} ({renamed} item files renamed to names every file system "
                       "can hold)", ["items", MARKER])
    return [f"brought the vault to format {FORMAT}: {renamed} item files renamed"]


def _orphaned_upkeep(space: Space) -> list[str]:
    """The upkeep's git (gc, the commit graph: Vault.upkeep) runs in children that a kill of their owner does
    not reach; one still running would race this owner's own gc (a forget's purge: `git fsck` then found a commit
    it could not parse). Where the upkeep's marks are left, git processes still working in the vault that are
    not this process's are stopped, and the marks removed. Looked for only where a mark is: one stat each."""
    git = space.root / ".git"
    marks = [git / mark for mark in UPKEEP_MARKS if (git / mark).exists()]
    if not marks:
        return []
    stopped, ours = _stop_gits_in(space.root)
    if ours:
        return []  # this process's own upkeep (a vault closed and opened again): its marks are live
    done: list[str] = []
    if stopped:
        done.append(f"stopped {stopped} git process{'es' if stopped != 1 else ''} of a dead owner's upkeep still "
                    "running in the vault")
    for mark in marks:
        mark.unlink(missing_ok=True)
        done.append(f"removed git's stale {mark.relative_to(space.root)}")
    return done


def _stop_gits_in(root: Path, seconds: float = 10.0) -> tuple[int, int]:
    """Kill the git processes whose working folder is in `root`, but this process's own (as far as /proc tells:
    on other systems, none); returns how many were killed, once they are gone, and how many are this process's."""
    inside = str(root.resolve())
    found, ours = [], 0
    for pid in _pids():
        try:
            if not Path(f"/proc/{pid}/comm").read_text().startswith("git"):
                continue
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if cwd == inside or cwd.startswith(inside + os.sep):
            if _descends_from_us(pid):
                ours += 1
            else:
                found.append(pid)
    for pid in found:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(_running(pid) for pid in found):
        time.sleep(0.02)
    return len(found), ours


def _pids() -> list[int]:
    try:
        return [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return []  # not Linux: nothing to ask


def _stat(pid: int) -> list[str]:
    """/proc/<pid>/stat's fields after the command's name (state first, then the parent's pid)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _running(pid: int) -> bool:
    try:
        return _stat(pid)[0] not in ("Z", "X")  # a zombie has stopped: only its parent's wait is missing
    except OSError:
        return False


def _descends_from_us(pid: int) -> bool:
    me = os.getpid()
    while pid > 1:
        if pid == me:
            return True
        try:
            pid = int(_stat(pid)[1])
        except (OSError, IndexError, ValueError):
            return False
    return False


def _git_locks(git: Path) -> list[Path]:
    found = [git / name for name in GIT_LOCKS if (git / name).exists()]
    for top in ("refs", "logs"):
        if (git / top).is_dir():
            found += sorted((git / top).rglob("*.lock"))
    return found


def _temp_files(space: Space, deep: bool) -> list[Path]:
    """Temp files of atomic writes (`.<name>.<random>.tmp`) and git's half-written objects. The inbox is always
    looked at (adds write there without the writer); the rest only after the writer stopped midway."""
    found = sorted(space.inbox.glob(".*.tmp")) if space.inbox.is_dir() else []
    found += sorted((space.root / ".twin" / "whoosh").glob("*/*.tmp"))  # a Whoosh writer's folder, at any kill
    found += sorted(p for p in space.root.glob(".*.tmp") if p.is_file())  # vault.json's, of a vault being made
    if not deep:
        return found
    for top in VAULT_TOPS:
        if (space.root / top).is_dir():
            found += sorted(p for p in (space.root / top).rglob("*.tmp") if p.is_file())
    if (space.root / ".twin").is_dir():
        found += sorted(p for p in (space.root / ".twin").rglob("*.tmp") if p.is_file() and p not in found)
    objects = space.root / ".git" / "objects"
    found += sorted(objects.glob("*/tmp_obj_*")) + sorted(objects.glob("pack/tmp_*")) + \
        sorted(objects.glob("pack/.tmp-*"))
    return found


def _wait_unused(path: Path, seconds: float = 5.0) -> None:
    """A git child of the dead owner may still be finishing (a kill does not reach its children): wait until no
    process has the lock open, as far as /proc tells."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and _open_anywhere(path):
        time.sleep(0.05)


def _open_anywhere(path: Path) -> bool:
    target = str(path.resolve())
    for pid in _pids():
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                    return True
        except OSError:
            continue
    return False
