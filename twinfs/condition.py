"""What is known of one end user's memory beyond its files, as three small parts its Space holds, each changed
through its own methods: its `Standing` (what opening it repaired, why it could not be, whether it moved to
another server), its `Upkeep` (hand edits to mend, a rebuild under way) and the pace of its `Adds` (the
background work that gives way to them)."""
from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass
class Standing:
    """`repaired`: what the owner's first opening of the vault repaired (None: not opened to write yet);
    `broken`: why it could not be repaired (adds are refused until an operator mends it); `left`: when this home
    handed the vault to another server (`twin sync --leave`: kept in .git, its requests answered 503)."""

    repaired: list[str] | None = None
    broken: str | None = None
    left: str | None = None

    @property
    def prepared(self) -> bool:
        """Opened by this owner already (repaired, or found broken): not to be prepared again."""
        return self.repaired is not None or self.broken is not None

    def opened(self, repaired: list[str] | None = None) -> None:
        """Prepared by this owner: made new or cloned (nothing repaired), or repaired as listed."""
        self.repaired = list(repaired or [])

    def known(self, broken: str | None) -> None:
        """Prepared earlier in this process (Spaces keeps what it found by name): not repaired again."""
        self.repaired, self.broken = [], broken

    def failed(self, exc: BaseException) -> str:
        """The vault cannot be repaired here: why, in one line."""
        text = str(exc).strip()
        self.broken = text.splitlines()[0] if text else type(exc).__name__
        return self.broken

    def moved(self, at: str | None) -> None:
        """Handed to another server at `at` (None: served here again)."""
        self.left = at


@dataclass
class Upkeep:
    """Work the vault owes that lives only in this object, so it is kept open until done (Space.idle):
    `hand_edited`: files changed that the writer did not write (the watcher saw them, a step stopped midway),
    mended by the pipeline's next pass; `rebuilding`: a reindex under way (searches answer 503)."""

    hand_edited: bool = False
    rebuilding: bool = False

    def edited(self) -> None:
        self.hand_edited = True

    @contextmanager
    def mending(self) -> Iterator[None]:
        """Take the hand edits to mend: looked at again by the next try when mending fails."""
        self.hand_edited = False
        try:
            yield
        except BaseException:
            self.hand_edited = True
            raise

    @contextmanager
    def rebuild(self) -> Iterator[None]:
        self.rebuilding = True
        try:
            yield
        finally:
            self.rebuilding = False


@dataclass
class Adds:
    """The pace of this end user's adds: `last`, the monotonic time of the last one accepted (sync and reading
    wait for a quiet spell); `gave_way`, since when background work has given way to them."""

    last: float = 0.0
    gave_way: float | None = None

    def accepted(self) -> None:
        self.last = time.monotonic()

    def quiet(self, seconds: float) -> bool:
        """No add for `seconds`."""
        return time.monotonic() - self.last >= seconds

    def give_way(self, quiet: float, most: float) -> float:
        """Seconds until the adds have paused `quiet` seconds, for background work that gives way to them (0: go
        on now) — but not once it has given way for `most` seconds in a row."""
        now = time.monotonic()
        wait = quiet - (now - self.last)
        if wait <= 0:
            self.gave_way = None
            return 0.0
        if self.gave_way is None:
            self.gave_way = now
        return 0.0 if now - self.gave_way >= most else wait
