"""The watcher: a file edited by hand in a vault is committed, indexed again and folded again.

It watches, with one inotify instance read by one thread (watchdog's InotifyFD), every folder under the
passages/, records/ and pages/ of every vault, open or closed, plus $TWIN_HOME/users and each vault's own folder
(for new end users and new folders); never .git or .twin, which change on every add, nor items/, which every add
writes (watching it cost landing a third more: bench/README.md "Load"). A change marks that end user; once their
files have been quiet for QUIET seconds (an editor saves in bursts), the end user's writer runs `Memory.mend`,
which commits what changed as "edit: … (by hand)". A file that reads as the writer left it is the writer's own
change and wakes no one.

Each watched folder is one inotify watch, of the system's fs.inotify.max_user_watches for this user (a vault of
a few hundred turns takes ~8; bench/README.md "Scale"). Past `limit` watches, the vaults that did not fit are
polled instead: their files' sizes and times are compared every POLL seconds.
"""
from __future__ import annotations

import errno
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from watchdog.observers.inotify_c import CallbackId, InotifyEvent, InotifyFD, Mask
from watchdog.observers.inotify_c import InotifyConstants as IN

log = logging.getLogger("twinfs.watching")
QUIET = 1.0  # seconds without a change before the writer looks
POLL = 10.0  # seconds between two looks at a vault that is polled, not watched
WATCHED = ("passages", "records", "pages")
# a file written and closed, moved, deleted: what an edit does. Not opened, read or each write before the close
# (a search reads passages: those would be events too, on every search)
FILES = Mask(IN.IN_CLOSE_WRITE | IN.IN_MOVED_FROM | IN.IN_MOVED_TO | IN.IN_DELETE | IN.IN_CREATE | IN.IN_DELETE_SELF)
FOLDERS = Mask(IN.IN_CREATE | IN.IN_MOVED_TO | IN.IN_ONLYDIR)  # above the watched folders: only new folders matter


def system_limit() -> int:
    """fs.inotify.max_user_watches (8,192 where it cannot be read)."""
    try:
        return int(Path("/proc/sys/fs/inotify/max_user_watches").read_text())
    except (OSError, ValueError):
        return 8192


class _Folder:
    """The watch of one folder: its events, with the folder's path (inotify gives only the name)."""

    def __init__(self, watcher: Watcher, path: Path):
        self.watcher, self.path = watcher, path

    def on_event(self, event: InotifyEvent) -> None:
        try:
            self.watcher._event(self.path, event)
        except Exception:  # the inotify thread must go on whatever one event does
            log.exception("watcher: an event in %s", self.path)

    def on_watch_deleted(self, wd: int) -> None:
        self.watcher._unwatched(self.path)

    def on_queue_overflow(self) -> None:
        self.watcher._overflow()


class Watcher:
    def __init__(self, users: Path, wrote: Callable[[str, str], bool], wake: Callable[[str], None],
                 quiet: float = QUIET, limit: int | None = None, poll: float = POLL):
        """`wrote(end user dir, path)`: whether the file is as the writer left it; `wake(end user dir)`: look.
        `limit`: inotify watches to take at most (None: half of the system's limit, the rest for editors)."""
        self.users, self.wrote, self.wake, self.quiet, self.poll = users, wrote, wake, quiet, poll
        self.limit = system_limit() // 2 if limit is None else limit
        self._due: dict[str, float] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._inotify = InotifyFD()  # one inotify instance and one thread for every watch
        self._folders: dict[Path, int] = {}  # watched folder -> its watch
        self._polled: dict[str, dict[str, tuple] | None] = {}  # vault -> its files as last seen (None: not yet)
        self.overflows = 0  # times inotify's queue overflowed: events lost, in any vault
        self._ticker = threading.Thread(target=self._tick, name="twin-watch", daemon=True)

    @property
    def watches(self) -> int:
        with self._lock:
            return len(self._folders)

    def sees(self, vault: str, top: str) -> bool:
        """Whether an edit of a file right under `top` of this vault is told as it happens (inotify), not found
        by a poll later or not at all."""
        with self._lock:
            return self.users / vault / top in self._folders and vault not in self._polled

    @property
    def polled(self) -> list[str]:
        with self._lock:
            return sorted(self._polled)

    def start(self, wait: bool = False) -> Watcher:
        """Watch $TWIN_HOME/users now, and every vault's folders from the watcher's own thread (a home of
        10,000 end users has ~100,000 to walk: start-up does not wait for them, unless `wait`). An edit made
        before its folder is watched is found when the vault is first opened (Memory._prepare)."""
        self.users.mkdir(parents=True, exist_ok=True)
        self._watch(self.users, FOLDERS)
        self._inotify.start()
        self._walked = threading.Event()
        self._ticker.start()
        if wait:
            self._walked.wait()
        return self

    def _walk(self) -> None:
        with os.scandir(self.users) as entries:
            vaults = sorted(e.name for e in entries if e.is_dir() and not e.name.startswith("."))
        for name in vaults:
            if self._stop.is_set():
                return
            self._watch_vault(self.users / name)

    def stop(self) -> None:
        self._stop.set()
        self._inotify.stop()
        self._inotify.join(timeout=5)
        self._ticker.join(timeout=5)

    # watches
    def _watch(self, folder: Path, mask: Mask) -> bool:
        """One watch on one folder; False when the limit is reached (or the folder went meanwhile)."""
        with self._lock:
            if folder in self._folders:
                return True
            if len(self._folders) >= self.limit:
                return False
        try:
            wd = self._inotify.add_callback(os.fsencode(folder), mask, _Folder(self, folder), CallbackId(0))
        except OSError as exc:
            if exc.errno == errno.ENOSPC:
                log.warning("the system's inotify watches are spent (fs.inotify.max_user_watches): polling")
                with self._lock:
                    self.limit = len(self._folders)
            return False  # ENOENT: it went before the watch began
        with self._lock:
            self._folders[folder] = wd
        return True

    def _watch_vault(self, vault: Path) -> None:
        if not self._watch(vault, FOLDERS):
            self._poll_instead(vault.name)
            return
        for top in WATCHED:
            if (vault / top).is_dir() and not self._watch_tree(vault / top):
                return

    def _watch_tree(self, top: Path) -> bool:
        """Every folder from `top` down; a vault whose folders do not all fit is polled instead. A folder is
        watched before it is listed: a subfolder made in between is then listed, or seen as an event, or both
        (os.walk lists first, so a subfolder made between its listing and the watch went unwatched for good)."""
        folders = [top]
        while folders:
            folder = folders.pop()
            if not self._watch(folder, FILES):
                if folder.is_dir():
                    self._poll_instead(top.relative_to(self.users).parts[0])
                    return False
                continue  # it went before its watch began
            try:
                with os.scandir(folder) as entries:
                    folders += [Path(e.path) for e in entries if e.is_dir(follow_symlinks=False)
                                and not e.name.startswith(".")]
            except OSError:
                continue  # it went meanwhile
        return True

    def _unwatched(self, folder: Path) -> None:
        with self._lock:
            self._folders.pop(folder, None)

    def _poll_instead(self, vault: str) -> None:
        with self._lock:
            if vault not in self._polled:
                first = not self._polled
                self._polled[vault] = None
                if first:  # said once, not once a vault: a home of 10,000 end users printed 3,700 lines
                    log.warning("watching %s and every vault after it by polling every %.0f s: the watcher's %d "
                                "inotify watches are taken (TWIN_WATCH_LIMIT, fs.inotify.max_user_watches)",
                                vault, self.poll, self.limit)
                else:
                    log.debug("watching %s by polling every %.0f s", vault, self.poll)

    def _overflow(self) -> None:
        """Events were lost: every watched vault is looked at once."""
        log.warning("inotify's queue overflowed: every watched vault is looked at")
        with self._lock:
            self.overflows += 1
            vaults = {f.relative_to(self.users).parts[0] for f in self._folders if f != self.users}
            now = time.monotonic()
            for vault in vaults:
                self._due[vault] = now

    # events
    def _event(self, folder: Path, event: InotifyEvent) -> None:
        if event.is_ignored or not event.name:
            return
        path = folder / os.fsdecode(event.name)
        depth = len(path.relative_to(self.users).parts)
        if event.is_directory and (event.is_create or event.is_moved_to):
            if depth == 1:
                self._watch_vault(path)  # a new end user
                return
            if depth == 2 and path.name not in WATCHED:
                return
            if not path.name.startswith("."):
                self._watch_tree(path)
                for under, subfolders, files in os.walk(path):  # what was written before the watch began:
                    subfolders[:] = [s for s in subfolders if not s.startswith(".")]  # the writer's own files
                    for name in files:  # wake no one (a new thread's folder woke the vault on every first add)
                        self._note(Path(under) / name)
            return
        if depth >= 3 and not event.is_create:
            self._note(path)

    def _note(self, path: Path) -> None:
        try:
            parts = path.relative_to(self.users).parts
        except ValueError:
            return
        if len(parts) < 3 or parts[1] not in WATCHED or any(p.startswith(".") for p in parts) \
                or path.name.endswith((".tmp", "~")):
            return  # git, indexes, the inbox, an editor's swap and temp files
        user, rel = parts[0], "/".join(parts[1:])
        if self.wrote(user, rel):
            return
        self._touch(user)

    def _touch(self, user: str) -> None:
        with self._lock:
            self._due[user] = time.monotonic()

    def _tick(self) -> None:
        try:
            self._walk()
        except Exception:  # a vault that vanished meanwhile; the others are watched all the same
            log.exception("watcher: walking the vaults")
        finally:
            self._walked.set()
        last_poll = time.monotonic()
        while not self._stop.wait(self.quiet / 4):
            now = time.monotonic()
            if now - last_poll >= self.poll:
                last_poll = now
                self._poll_all()
            with self._lock:
                ready = [user for user, at in self._due.items() if now - at >= self.quiet]
                for user in ready:
                    del self._due[user]
            for user in ready:
                try:
                    self.wake(user)
                except Exception:  # one broken vault must not stop the watching of the others
                    log.exception("watcher: %s", user)

    # polling, past the limit
    def _poll_all(self) -> None:
        for vault in self.polled:
            if self._stop.is_set():
                return
            seen = self._files(vault)
            with self._lock:
                before = self._polled.get(vault)
                self._polled[vault] = seen
            if before is None:
                continue
            for rel in {r for r in seen.keys() | before.keys() if seen.get(r) != before.get(r)}:
                self._note(self.users / vault / rel)

    def _files(self, vault: str) -> dict[str, tuple]:
        """rel path -> (size, mtime, inode) of every file under the watched folders of a polled vault."""
        out: dict[str, tuple] = {}
        root = self.users / vault
        for top in WATCHED:
            for folder, subfolders, files in os.walk(root / top):
                subfolders[:] = [s for s in subfolders if not s.startswith(".")]
                for name in files:
                    path = Path(folder) / name
                    try:
                        st = path.stat()
                    except OSError:
                        continue
                    out[path.relative_to(root).as_posix()] = (st.st_size, st.st_mtime_ns, st.st_ino)
        return out
