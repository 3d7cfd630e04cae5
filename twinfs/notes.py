"""What status says of an end user's memory beyond phases: a vault that could not be repaired, work that keeps
failing, adds waiting for another process, the last sync, conflict copies, a spent budget, windows not read."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .space import Space
from .sync import remote as sync_remote

if TYPE_CHECKING:
    from .jobs import Pipeline
    from .reading.checkpass import CheckPass
    from .steps.read import Reading


def status_notes(space: Space, pipeline: Pipeline, reading: Reading | None, checking: CheckPass | None,
                 read_only: bool) -> list[str]:
    """What an app should know of this end user's memory beyond phases: work that waits or keeps failing."""
    notes = []
    if space.standing.broken:
        notes.append(f"This memory could not be repaired when it was opened ({space.standing.broken}): adds are "
                     "refused until an operator mends it; nothing it held is lost.")
    trouble = pipeline.troubles.get(space.user.dirname)
    if trouble:
        notes.append(trouble.note()[0].upper() + trouble.note()[1:] + ".")
    if read_only and space.pending_count():
        notes.append(f"{space.pending_count()} adds wait in the inbox: they land when the process that owns "
                     "this home gets to them.")
    noted = sync_remote.state(space.vault)
    if noted.get("error"):
        notes.append(f"The last sync, at {noted.get('error_at')}, failed: {noted['error']}")
    elif noted.get("synced_at"):
        notes.append(f"Last synced with its remote at {noted['synced_at']}.")
    copies = sync_remote.conflict_copies(space.vault) if noted else []
    if copies:
        notes.append(f"{len(copies)} file{'s were' if len(copies) != 1 else ' was'} edited by hand differently "
                     f"on two machines; the other version waits under conflicts/ until a person deletes it: "
                     f"{', '.join(copies[:5])}")
    org = space.user.org
    if reading and reading.waiting(org) and space.state.has_phase("landed"):
        until = reading.budget.resumes_at(org).strftime("%Y-%m-%d %H:%M UTC")
        notes.append(f"Reading is waiting on the daily budget until {until}: landed items are searchable, "
                     "and are read then.")
    if reading:
        notes += reading.notes(space)
    if checking:
        notes += checking.notes(space)
    return notes
