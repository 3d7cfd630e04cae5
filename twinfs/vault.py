"""One end user's vault: its files (written atomically, the writer's own edits told from hand edits) and its git
repository (configured, committed to, kept up). The caller serialises writes. Commits' trees are made by
git_trees.py, the history is read and rewritten by git_history.py."""
from __future__ import annotations

import itertools
import json
import os
import subprocess
import threading
from collections import OrderedDict
from pathlib import Path

import git

from . import faults, fsmonitor, git_trees
from .background import LATER_NICE, lower_priority
from .durable import atomic_write, file_stamp, read_exact
from .paths import COMMITTED, MARKER, TOMBSTONES

FORMAT = 2  # 2: item file names portable to every file system (paths.item_filename), vault.json

IGNORE = """# rebuildable indexes and the not-yet-filed inbox; never committed
.twin/
.inbox/
*.tmp
"""
AUTHOR = ("twinfs", "twinfs@localhost")
FILES = (MARKER, TOMBSTONES)  # the committed names at a vault's top that are files, not folders
GC_EVERY = 200  # commits between two upkeeps (Vault.upkeep)
# An index at least this large (~60,000 files), landing commits from trees and the index catches up once adds
# pause (Vault.commit_files): at 457,654 files git read and wrote the whole 33 MB index twice a commit, 0.4-0.6 s
# of each landing. A smaller one costs a few milliseconds and is kept up to date at once.
TREES_FROM = 4 << 20  # bytes of .git/index
BEHIND = "twin-index-behind"  # in .git: the index may lag HEAD (Vault.commit_files); caught up at the next open
_VERSIONS = itertools.count(1)  # Vault.records_version
# the upkeep running in each vault (its resolved root), whichever Vault started it: a vault closed and opened
# again (Memory keeps only so many open) is a new Vault, and its forget's `gc --prune=now` must still wait for the
# old one's `gc --auto` (two gc's at once, one pruning: git fsck found reflog entries naming pruned objects)
_UPKEEPS: dict[str, threading.Thread] = {}
_UPKEEPS_LOCK = threading.Lock()
COMMIT_GRAPH = ("commit-graph", "write", "--reachable", "--changed-paths")  # filters reused from the graph it replaces
# git set for vaults of hundreds of thousands of files: a compact index (v4) and a cache of untracked folders, so
# that git status does not walk all of it (Vault.configure). Not a split index: at 457,654 files (100,000
# passages) git read a split index in 0.9 s and a whole one in 0.04 s, so each of a commit's update-index and
# write-tree took 1.0 s instead of 0.05-0.2 (writing the whole index, 33 MB there, costs less than that).
# gc writes no commit graph: it wrote one without changed-path filters over the upkeep's, whose split write then
# found nothing new to add, so `git log -- <file>` walked every commit's trees (Vault.upkeep writes it whole).
MANY_FILES = {"index.version": "4", "core.splitIndex": "false", "core.untrackedCache": "true",
              "feature.manyFiles": "true", "core.commitGraph": "true", "gc.writeCommitGraph": "false",
              "fetch.writeCommitGraph": "true"}


class Vault:
    """One end user's git repository of plain files."""

    def __init__(self, root: Path, machine: str = "localhost"):
        self.root = root
        self.machine = machine
        # who made a commit: the machine is in the author's address, so a merge can say whose version it kept
        self.author = {"GIT_AUTHOR_NAME": AUTHOR[0], "GIT_AUTHOR_EMAIL": f"{AUTHOR[0]}@{machine}",
                        "GIT_COMMITTER_NAME": AUTHOR[0], "GIT_COMMITTER_EMAIL": f"{AUTHOR[0]}@{machine}"}
        self._repo: git.Repo | None = None
        self._mine: OrderedDict[str, tuple | None] = OrderedDict()  # path -> how the writer last left it
        self._touched: set[str] = set()  # paths the writer wrote or deleted since its last commit
        # changes to records/ seen: this process's writes, and hand edits the watcher saw; numbered across every
        # Vault, so a vault opened again never takes a number its last opening gave
        self.records_version = next(_VERSIONS)
        self._commits = 0
        self._behind: set[str] = set()  # paths committed from trees that the index does not hold yet
        self._maybe_behind: bool | None = None  # whether BEHIND may exist (None: not looked yet)

    @property
    def exists(self) -> bool:
        return (self.root / ".git").is_dir()

    @property
    def repo(self) -> git.Repo:
        if self._repo is None:
            self._repo = git.Repo(self.root)
        return self._repo

    def init(self, name: str) -> None:
        """Create the repository with its ignore file, its marker and a first commit; harmless when it exists."""
        if self.exists:
            return
        self.root.mkdir(parents=True, exist_ok=True)
        self._repo = git.Repo.init(self.root, initial_branch="main")
        self.first_commit(name)

    def first_commit(self, name: str) -> None:
        """The ignore file, the marker and the first commit (again, when a kill stopped a vault being made)."""
        self.configure()
        atomic_write(self.root / ".gitignore", IGNORE)
        self.write_marker(name)
        self.repo.git.add(".gitignore", MARKER)
        self.repo.git.commit("-m", "init: a new memory", "--no-verify", env=self.author)

    def configure(self) -> None:
        """What every vault's git is set to: no line endings converted, paths as they are, no hooks."""
        with self.repo.config_writer() as cfg:
            cfg.set_value("user", "name", AUTHOR[0])
            cfg.set_value("user", "email", AUTHOR[1])
            cfg.set_value("core", "quotepath", "false")
            cfg.set_value("core", "autocrlf", "false")
            cfg.set_value("core", "hooksPath", "/dev/null")
            for key, value in MANY_FILES.items():
                section, name = key.split(".")
                cfg.set_value(section, name, value)
        if (self.root / ".git" / "index").exists():  # a vault set before: its index written whole, once
            self.git("update-index", "--no-split-index")
        for shared in (self.root / ".git").glob("sharedindex.*"):
            shared.unlink()

    def tuned(self) -> bool:
        """Whether this vault's git is set as MANY_FILES says (a vault made before was not: Vault.configure)."""
        try:
            config = self.repo.config_reader()
            return config.get_value("core", "splitIndex", None) is False and \
                config.get_value("gc", "writeCommitGraph", None) is False
        except OSError:
            return False

    @property
    def large(self) -> bool:
        """A vault whose git index is past TREES_FROM: landing commits from trees, git asks watchman what changed."""
        try:
            return os.stat(self.root / ".git" / "index").st_size >= TREES_FROM
        except FileNotFoundError:
            return False

    def monitored(self) -> None:
        """git's file-system monitor (twinfs/fsmonitor.py) for a large vault where watchman is here, so that
        git status (a hand-edit check here, or a person's own) does not lstat every file; taken out again where
        TWIN_GIT_FSMONITOR is "off". Costs a stat or two for a vault that has none and wants none."""
        if fsmonitor.wanted():
            if self.large:
                fsmonitor.enable(self.root)
        elif fsmonitor.enabled(self.root):
            fsmonitor.disable(self.root)

    def marker(self) -> dict:
        """vault.json: {"vault": <org.project.account>, "format": N}; {} in a vault made before it existed."""
        try:
            data = json.loads((self.root / MARKER).read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def write_marker(self, name: str) -> None:
        atomic_write(self.root / MARKER, json.dumps({"vault": name, "format": FORMAT}, indent=1) + "\n")

    def path(self, rel: str) -> Path:
        return self.root / rel

    def write(self, rel: str, text: str, durable: bool = True) -> None:
        # noted before the rename: the watcher, told of the file as soon as it is there, knows it for an echo
        # (noted after it, a landing now and then looked like a hand edit, and cost a git status: 1.6 s at
        # 100,000 passages)
        atomic_write(self.root / rel, text, durable, written=lambda stamp: self._note(rel, stamp))
        if rel.startswith("records/"):
            self.records_changed()  # after the rename: a brief that saw the old version folds again

    def records_changed(self) -> None:
        """A file under records/ changed (counted once the change can be seen: see Briefing.folded)."""
        self.records_version = next(_VERSIONS)  # next() of a count is atomic: the watcher's thread too

    def _note(self, rel: str, stamp: tuple | None) -> None:
        self._touched.add(rel)
        self._mine[rel] = stamp
        self._mine.move_to_end(rel)
        if len(self._mine) > 4096:  # the newest matter: an older file looks edited, and git status says it is not
            self._mine.popitem(last=False)

    def wrote(self, rel: str) -> bool:
        """Whether the file is as the writer last left it (written, or deleted): the watcher's own echo."""
        return rel in self._mine and self._mine.get(rel, ()) == file_stamp(self.root / rel)

    def read(self, rel: str) -> str:
        return read_exact(self.root / rel)

    def delete(self, rel: str) -> None:
        target = self.root / rel
        target.unlink(missing_ok=True)
        self._note(rel, None)
        if rel.startswith("records/"):
            self.records_changed()
        parent = target.parent
        while parent != self.root and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent

    def commit(self, message: str, paths: list[str] | None = None) -> str | None:
        """Stage what changed under `paths` (default: every memory folder) and commit; None when nothing did.
        A path that names a file (or a file that went) is staged as it is, without git walking the vault; a
        folder is walked. The commit is made from the index (write-tree, commit-tree) without `git commit`,
        which stats every file of the vault first (5 s at 500,000 files here)."""
        wanted = list(dict.fromkeys(paths or COMMITTED))
        folders = [p for p in wanted if p in COMMITTED and p not in FILES or (self.root / p).is_dir()]
        files = [p for p in wanted if p not in folders]
        if folders:
            there = [p for p in folders if (self.root / p).exists()]
            gone = [p for p in folders if p not in there]  # a folder that went: staged if git knew it
            if gone:
                tracked = self.git("ls-files", "--", *gone).splitlines()
                there += [p for p in gone if any(t == p or t.startswith(f"{p}/") for t in tracked)]
            if there:
                self.git("add", "-A", "--", *there)
        self.index_caught_up(files)  # the paths commits from trees left behind, staged with these files
        under = tuple(f"{p}/" for p in folders)
        self._touched = {p for p in self._touched if p not in files and p not in folders and not p.startswith(under)}
        return self._commit_index(message)

    def commit_written(self, message: str) -> str | None:
        """Commit exactly the files the writer wrote or deleted since its last commit: landing's commit, whose
        cost must not grow with the vault (git add -A over a vault's folders stats all of its files, and the
        index of a vault of 457,654 files is 33 MB, which update-index writes and write-tree reads whole)."""
        if not self._touched:
            return None
        paths = sorted(self._touched)
        if not self.large:
            return self.commit(message, paths)
        sha = self.commit_files(message, paths)
        self._touched -= set(paths)
        return sha

    def commit_files(self, message: str, paths: list[str]) -> str | None:
        """Commit these files as they are now (or their absence) on top of HEAD, the commit's tree made from
        HEAD's with git's plumbing: only the folders on the way to them are listed (ls-tree, at once) and written
        again (mktree --batch), so its cost grows with those folders, not with the vault: at 457,654 files 35-40 ms
        (gitpython's tree functions took 180, the index 400-600). The index is left as it was; it catches up later
        (index_caught_up), before anything that reads it. None when nothing changed."""
        head = self._head()
        if head is None:
            return self.commit(message, paths)  # the first commit: from the index, as git commit would
        parent, head_tree = head
        tree = git_trees.tree_with(self.root, head_tree, paths)
        if tree == head_tree:
            return None
        self._mark_behind(paths)
        return self._commit_tree(tree, parent, message)

    def _head(self) -> tuple[str, str] | None:
        """(HEAD's commit, its tree), or None before the first commit."""
        try:
            parent, tree = self.git("rev-parse", "HEAD^{commit}", "HEAD^{tree}", caught_up=False).split()
        except (subprocess.CalledProcessError, ValueError):
            return None
        return parent, tree

    def _mark_behind(self, paths: list[str]) -> None:
        """The index lags HEAD for these paths: noted in .git (once, while it lags) so an open after a crash
        catches it up, and kept here for the next catch-up."""
        if not self._behind and not self._maybe_behind:
            atomic_write(self.root / ".git" / BEHIND, "the index lags HEAD: the next open catches it up\n")
            self._maybe_behind = True
        self._behind.update(paths)

    @property
    def behind(self) -> bool:
        """Whether the index may lag HEAD (landing's commits are made from trees)."""
        if self._maybe_behind is None:
            self._maybe_behind = (self.root / ".git" / BEHIND).exists()
        return bool(self._behind) or self._maybe_behind

    def index_caught_up(self, also: list[str] | None = None) -> None:
        """The index brought up to HEAD where commits made from trees left it behind (and `also` staged with
        them, in the one write of the index): from the files, which under the writer are as HEAD has them. After
        a crash the paths are not known here: the index and HEAD are compared (git diff-index) to find them."""
        behind = self.behind
        if not behind and not also:
            return
        paths = set(self._behind) | set(also or ())
        if behind and not self._behind:
            out = self.git("diff-index", "--cached", "--name-only", "-z", "--no-renames", "HEAD", caught_up=False)
            paths |= {p for p in out.split("\0") if p}
        if paths:
            self.git("update-index", "--add", "--remove", "-z", "--stdin", input="\0".join(sorted(paths)) + "\0",
                     caught_up=False)
        if behind:
            (self.root / ".git" / BEHIND).unlink(missing_ok=True)
        self._behind.clear()
        self._maybe_behind = False

    def _commit_index(self, message: str) -> str | None:
        tree = self.git("write-tree", caught_up=False).strip()
        head = self._head()
        parent, head_tree = head if head else (None, None)
        if head_tree == tree:
            return None  # nothing staged
        return self._commit_tree(tree, parent, message)

    def _commit_tree(self, tree: str, parent: str | None, message: str) -> str:
        faults.point("commit")
        sha = self.git("commit-tree", tree, *(["-p", parent] if parent else []), "-m", message,
                       env=self.author, caught_up=False).strip()
        self.git("update-ref", "-m", f"commit: {message.splitlines()[0][:200]}", "HEAD", sha, parent or "",
                 caught_up=False)
        self._commits += 1
        if self._commits % GC_EVERY == 0:
            with _UPKEEPS_LOCK:
                running = _UPKEEPS.get(self._key)
                if not (running and running.is_alive()):
                    upkeep = _UPKEEPS[self._key] = threading.Thread(target=self.upkeep, name="twin-git-upkeep",
                                                                    daemon=True)
                    upkeep.start()
        return sha

    @property
    def _key(self) -> str:
        return str(self.root.resolve())

    def upkeep_done(self) -> None:
        """Wait for the upkeep running in this vault, if any (started by this Vault or an earlier one)."""
        with _UPKEEPS_LOCK:
            running = _UPKEEPS.get(self._key)
        if running is not None and running is not threading.current_thread():
            running.join()

    def upkeep(self) -> None:
        """What `git commit` would have done now and then: pack loose objects once there are many (in the
        background, as git's own auto gc does), and keep the commit graph with changed-path filters, so that
        `git log -- <file>` stays fast in a vault of many thousands of commits (each commit's filter computed
        once: the filters of the graph it replaces are reused)."""
        lower_priority(LATER_NICE)
        for args in (["gc", "--auto", "--quiet"], COMMIT_GRAPH):
            subprocess.run(["git", "-C", str(self.root), "-c", "gc.autoDetach=false", *args], capture_output=True)
        self.monitored()  # a vault that grew past TREES_FROM while open

    def changes(self) -> list[str]:
        """Files of the memory folders that differ from the last commit (added, changed, deleted, renamed):
        under the one writer, whose steps each commit what they write, these are edits made by hand."""
        out = self.git("status", "--porcelain", "-z", "--untracked-files=all", "--", *COMMITTED)  # index caught up
        paths: list[str] = []
        fields = iter(out.split("\0"))
        for field in fields:
            if len(field) < 4:
                continue
            paths.append(field[3:])
            if field[0] in "RC":
                paths.append(next(fields, ""))  # a rename names its source next
        return sorted(p for p in set(paths) if p)

    def git(self, *args: str, input: str | None = None, env: dict | None = None, caught_up: bool = True,
            check: bool = True) -> str:
        """Run git in the vault; first (`caught_up`) the index is brought up to HEAD where landing left it behind,
        so that any git command here (status, add, merge, reset…) sees the index git would have kept. `check`:
        a failure raises CalledProcessError (else its output, empty, is returned)."""
        if caught_up and self.behind:
            self.index_caught_up()
        done = subprocess.run(["git", "-C", str(self.root), *args], input=input, capture_output=True, text=True,
                              env={**os.environ, **(env or {})}, check=check)
        return done.stdout

    def close(self) -> None:
        """The git processes gitpython keeps for this repository end (they hold pipes open)."""
        if self._repo is not None:
            self._repo.close()
            self._repo = None

    def forget_repo(self) -> None:
        """Refs and the index were changed with plumbing: gitpython's view of the repository is stale."""
        self._repo = None

    def head(self) -> str:
        return self.git("rev-parse", "HEAD").strip()

    @property
    def _purge_file(self) -> Path:
        return self.root / ".git" / "twin-purge.json"

    def purge_later(self, prefixes: list[str], threads: list[str]) -> None:
        """Note, in .git (which a crash or a deleted .twin/ leaves alone), history still to be rewritten."""
        pending = self.purge_pending() or {"prefixes": [], "threads": []}
        atomic_write(self._purge_file, json.dumps({"prefixes": sorted({*pending["prefixes"], *prefixes}),
                                                   "threads": sorted({*pending["threads"], *threads})}))

    def purge_pending(self) -> dict | None:
        try:
            return json.loads(self._purge_file.read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            return None

    def purge_done(self) -> None:
        self._purge_file.unlink(missing_ok=True)
