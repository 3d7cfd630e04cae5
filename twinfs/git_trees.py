"""A commit's tree made from HEAD's with git's plumbing (Vault.commit_files): only the folders on the way to the
files changed are listed (ls-tree, at once) and written again (mktree --batch), so its cost grows with those
folders, not with the vault."""
from __future__ import annotations

import subprocess
from pathlib import Path

FILE, FOLDER = 0o100644, 0o040000  # the modes of a file and of a folder in a git tree


def tree_with(root: Path, head_tree: str, paths: list[str]) -> str:
    """HEAD's tree (`head_tree`) with these files of the vault at `root` as they are now, or gone where they are
    gone: the new root tree's id (the same as head_tree when nothing changed)."""
    present = [p for p in paths if (root / p).is_file()]
    blobs: list[str] = []
    if present:
        blobs = subprocess.run(["git", "-C", str(root), "hash-object", "-w", "--stdin-paths"], capture_output=True,
                               text=True, check=True, input="".join(f"{p}\n" for p in present)).stdout.split()
    changed: dict[str, dict[str, str | None]] = {}  # folder -> name -> its ls-tree line's head | None: gone
    for rel in paths:
        folder, _, name = rel.rpartition("/")
        changed.setdefault(folder, {})[name] = None
    for rel, blob in zip(present, blobs, strict=True):
        folder, _, name = rel.rpartition("/")
        changed[folder][name] = f"{FILE:06o} blob {blob}"
    folders: set[str] = set()
    for folder in changed:
        while folder not in folders:
            folders.add(folder)
            folder = folder.rpartition("/")[0]
    listed = _ls_trees(root, head_tree, folders)
    made: dict[str, str | None] = {}
    maker = subprocess.Popen(["git", "-C", str(root), "mktree", "-z", "--batch", "--missing"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    feed, trees = maker.stdin, maker.stdout
    assert feed is not None and trees is not None  # both asked for as pipes
    try:
        for folder in sorted(folders, key=lambda f: -1 if not f else -f.count("/") - 2):  # deepest first
            entries = listed[folder]
            for name, now in changed.get(folder, {}).items():
                entries[name] = now
            for sub in [f for f in made if f and f.rpartition("/")[0] == folder]:
                tree = made.pop(sub)
                entries[sub.rpartition("/")[2]] = f"{FOLDER:06o} tree {tree}" if tree else None
            lines = [f"{head}\t{name}\0" for name, head in entries.items() if head]
            if not lines and folder:
                made[folder] = None  # a folder left empty is no folder in git
                continue
            feed.write(("".join(lines) + "\0").encode())  # an empty record ends a tree
            feed.flush()
            made[folder] = trees.readline().decode().strip()
    finally:
        feed.close()
        maker.wait()
    if maker.returncode:
        raise subprocess.CalledProcessError(maker.returncode, "git mktree")
    if maker.returncode:
        raise subprocess.CalledProcessError(maker.returncode, "git mktree")
    tree = made[""]
    assert tree is not None  # the root is always written (the empty tree when nothing is left)
    return tree


def _ls_trees(root: Path, head_tree: str, folders: set[str]) -> dict[str, dict[str, str | None]]:
    """Each folder's entries in HEAD's tree, name -> "mode type object" ({} for a folder HEAD has not): one
    git ls-tree a folder, all started at once."""
    running = {f: subprocess.Popen(["git", "-C", str(root), "ls-tree", "-z", f"{head_tree}:{f}" if f
                                    else head_tree], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
               for f in folders}
    listed: dict[str, dict[str, str | None]] = {}
    for folder, proc in running.items():
        out, _ = proc.communicate()
        listed[folder] = {}
        if proc.returncode == 0:
            for entry in out.decode().split("\0"):
                if entry:
                    head, name = entry.split("\t", 1)
                    listed[folder][name] = head
    return listed
