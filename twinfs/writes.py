"""What Memory does to an end user's vault as its one writer, beside the pipeline's steps: mend hand edits,
correct a record, forget (and finish a forget a remote sent), reindex, land the inbox and fold the pages now,
and sync with the hooks a sync calls back (sync/run.py). Each wakes the pipeline for what it leaves to do."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from . import forgetting, ledger, repair, tombstones
from .brief import Briefs
from .clock import Clock
from .index import TextEmbedder
from .models import CorrectRequest, CorrectResult, ForgetResult, SyncResult
from .space import Space
from .steps import land, tidy
from .steps.fold import Folding
from .steps.read import index_records
from .sync import run as sync_run

Progress = Callable[[int, int], None]


class Writes:
    """`folding`: the fold step when reading is on (None: pages are folded only where they exist); `wake`: the
    pipeline's, told of an end user (by folder name) with work left."""

    def __init__(self, embedder: TextEmbedder, stamps: Clock, clock: Callable[[], datetime], briefs: Briefs,
                 folding: Folding | None, wake: Callable[[str], None], gpg_keys: tuple[str, ...]):
        self.embedder = embedder
        self.stamps = stamps  # which edit of an item came later, across machines
        self.clock = clock
        self.briefs = briefs
        self.folding = folding
        self.wake = wake
        self.hooks = sync_run.Hooks(land=self.land_now, mend=self.mend, fold=self.fold, clock=stamps,
                                    gpg_keys=gpg_keys, forget=self.forget_held)

    def mend(self, space: Space) -> list[str]:
        """As the writer: commit and index again what was edited by hand; the paths edited."""
        changed = tidy.mend(space)
        if self.folding and any(rel.startswith(("items/", "records/")) for rel in changed):
            self.folding.fold(space, force=True)
        return changed

    def correct(self, space: Space, request: CorrectRequest) -> CorrectResult:
        """Retract a record or replace its value: a commit, the lanes updated, the pages folded again."""
        with space.writer:
            old, new, records = ledger.correct(space, request.id, request.reason, request.value, self.clock())
            thread = ledger.thread_of_record(request.id)
            space.vault.write(ledger.records_path(thread), ledger.dump_records(records), durable=True)
            what = f"replace {old.attribute} {old.value!r} -> {new.value!r} in" if new else "retract"
            sha = space.vault.commit(f"correct: {what} {request.id} ({request.reason[:80]})",
                                     [ledger.records_path(thread)])
            index_records(space, thread, records)
            if self.folding:
                self.folding.fold(space, force=True)
        self.wake(space.user.dirname)  # which settles it in the pending index
        return CorrectResult(id=old.id, retracted=True, replaced_by=new.id if new else None, commit=sha)

    def forget(self, space: Space, ids: list[str], stones: list[dict] | None = None) -> ForgetResult:
        with space.writer:
            result = self.forget_held(space, ids, stones)
        self.wake(space.user.dirname)  # the rest of those threads is read again
        return result

    def forget_held(self, space: Space, ids: list[str], stones: list[dict] | None = None) -> ForgetResult:
        """As the writer. What is forgotten is noted in .git first: a forget a crash stopped is done again at the
        next start. A tombstone (tombstones.py) is committed with it, so that sync forgets it everywhere; `stones`:
        the tombstones a remote sent, kept as they are instead of a new one."""
        repair.begin_forget(space, ids, stones)
        forgotten, unknown, threads = forgetting.forget(space, ids)
        whole = [i for i in ids if forgetting.THREAD.match(i) and i in threads]
        if stones is not None:
            for stone in stones:
                tombstones.add(space.vault, stone)
        elif forgotten:
            tombstones.add(space.vault, tombstones.entry(forgotten, whole, self.stamps.now()))
        if forgotten:
            self.fold(space)
        space.vault.commit(f"forget: {len(forgotten)} item{'s' if len(forgotten) != 1 else ''} "
                           f"from {len(threads)} thread{'s' if len(threads) != 1 else ''}"
                           + (" (tombstones from the remote)" if stones is not None else ""))
        if forgotten:
            space.vault.purge_later(forgetting.history_paths(space, threads), threads)
        forgetting.purge(space)  # also what an earlier forget noted and did not finish
        repair.end_forget(space)
        self.briefs.forget(space.user.dirname)
        self.embedder.forget()
        return ForgetResult(forgotten=forgotten, unknown=unknown, commit=space.vault.head() if forgotten else None)

    def land_now(self, space: Space) -> None:
        """As the writer: the inbox lands now, in order (before a merge takes the vault further)."""
        for event in space.pending():
            land.land_event(space, event)
        with space.landed:
            space.landed.notify_all()

    def fold(self, space: Space) -> None:
        """Fold the pages now: with the reading's folding, or once where pages exist although reading is off."""
        folding = self.folding or (Folding(0, self.briefs.folded) if (space.root / "pages").is_dir() else None)
        if folding:
            folding.fold(space, force=True)

    def reindex(self, space: Space, progress: Progress | None = None) -> dict[str, int]:
        """Rebuild .twin/ from the files. A reindex is noted in .twin/ while it runs: one a crash stopped is run
        again at the next start."""
        with space.writer, space.upkeep.rebuild():
            repair.begin_reindex(space)
            stats = land.reindex(space, progress)
            repair.end_reindex(space)
        self.wake(space.user.dirname)
        return stats

    def sync(self, space: Space, url: str) -> SyncResult:
        out = sync_run.run(space, url, self.hooks)
        self.briefs.forget(space.user.dirname)
        self.wake(space.user.dirname)  # what came in is read, and the pages folded
        return sync_run.result(out)
