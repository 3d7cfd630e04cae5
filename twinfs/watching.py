"""The watcher (watchdog): a file edited by hand in a vault is committed, indexed again and folded again.

It watches the passages/, records/ and pages/ of every vault under $TWIN_HOME/users (and the folders above
them, for new end users and new folders; never .git or .twin, which change on every add). A change marks that
end user; once their files have been quiet for QUIET seconds (an editor saves in bursts), the end user's
writer runs `Memory.mend`, which commits what changed as "edit: … (by hand)". A file that reads as the writer
left it is the writer's own change and wakes no one.
"""
from __future__ import annotations

import logging
import threading
import time
import warnings
from collections.abc import Callable
from pathlib import Path

from watchdog.events import (DirCreatedEvent, DirDeletedEvent, DirMovedEvent, FileClosedEvent, FileDeletedEvent,
                             FileMovedEvent, FileSystemEvent, FileSystemEventHandler)
from watchdog.observers import Observer

log = logging.getLogger("twinfs.watching")
# watchdog's inotify observer warns each time it watches a directory it creates itself; nothing is wrong
warnings.filterwarnings("ignore", message="Callback with id", category=RuntimeWarning, module="watchdog")
QUIET = 1.0  # seconds without a change before the writer looks
# What a person reads and corrects. Not items/: every add writes a file an item there, and watching them cost
# landing a third more under load (bench/README.md "Load"); an item edited by hand is committed with the next
# edit the watcher sees in that vault, and at the next start.
WATCHED = ("passages", "records", "pages")
# a file written and closed, moved, deleted: what an edit does. Not opened, read or each write before the close
# (a search reads passages: those would be events too, on every search)
EVENTS = [FileClosedEvent, FileMovedEvent, FileDeletedEvent, DirMovedEvent, DirDeletedEvent]


class Watcher(FileSystemEventHandler):
    def __init__(self, users: Path, wrote: Callable[[str, str], bool], wake: Callable[[str], None],
                 quiet: float = QUIET):
        """`wrote(end user dir, path)`: whether the file is as the writer left it; `wake(end user dir)`: look."""
        self.users, self.wrote, self.wake, self.quiet = users, wrote, wake, quiet
        self._due: dict[str, float] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._observer = Observer()
        self._ticker = threading.Thread(target=self._tick, name="twin-watch", daemon=True)

    def start(self) -> "Watcher":
        self.users.mkdir(parents=True, exist_ok=True)
        self._observer.schedule(self, str(self.users), event_filter=[DirCreatedEvent])
        for vault in self.users.iterdir():
            if vault.is_dir():
                self._watch_vault(vault)
        self._observer.start()
        self._ticker.start()
        return self

    def _watch_vault(self, vault: Path) -> None:
        self._observer.schedule(self, str(vault), event_filter=[DirCreatedEvent])
        for top in WATCHED:
            if (vault / top).is_dir():
                self._observer.schedule(self, str(vault / top), recursive=True, event_filter=EVENTS)

    def stop(self) -> None:
        self._stop.set()
        self._observer.stop()
        self._observer.join(timeout=5)
        self._ticker.join(timeout=5)

    def on_any_event(self, event: FileSystemEvent) -> None:
        where = Path(event.src_path)
        if event.event_type == "created" and event.is_directory:
            if where.parent == self.users:
                self._watch_vault(where)  # a new end user
            elif where.parent.parent == self.users and where.name in WATCHED:
                self._observer.schedule(self, str(where), recursive=True, event_filter=EVENTS)
                with self._lock:  # what was written there before the watch began is looked at too
                    self._due[where.parent.name] = time.monotonic()
            if where.parent == self.users or where.parent.parent == self.users:
                return
        for path in (event.src_path, getattr(event, "dest_path", "")):
            if path:
                self._note(Path(path))

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
        with self._lock:
            self._due[user] = time.monotonic()

    def _tick(self) -> None:
        while not self._stop.wait(self.quiet / 4):
            now = time.monotonic()
            with self._lock:
                ready = [user for user, at in self._due.items() if now - at >= self.quiet]
                for user in ready:
                    del self._due[user]
            for user in ready:
                try:
                    self.wake(user)
                except Exception:  # one broken vault must not stop the watching of the others
                    log.exception("watcher: %s", user)
