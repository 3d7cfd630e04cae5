"""Background threads: lower priority than requests, and one shared pool for work a landing does side by side."""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress

LAND_NICE, LATER_NICE = 10, 15  # requests run at 0
# the pipeline's two lanes (jobs.py): landing's own workers, first; and one worker for the later steps, below it
LAND, LATER = "land", "later"


def lower_priority(nice: int) -> None:
    """Background work yields the CPU to searches: on 2 cores this halved search p95 during landings. Not with
    TWIN_LOWER_BACKGROUND=0: a process alone in its own container, or a test suite whose workers run side by side
    (where a nice of 15 left one worker's reading 3% of a core beside the others' tests: 7 s of reading took 195 s)."""
    if os.environ.get("TWIN_LOWER_BACKGROUND", "1").strip().lower() in ("0", "false", "no", "off"):
        return
    with suppress(AttributeError, OSError):  # not Linux, or not allowed: the work still runs, only at the same priority
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)


# torch lets go of the GIL while it embeds, so a landing embeds here while it indexes words and commits
side = ThreadPoolExecutor(max_workers=2, thread_name_prefix="twin-side", initializer=lower_priority,
                          initargs=(LAND_NICE,))


def backoff(failures: int, first: float, last: float) -> float:
    """Seconds to wait after the n-th failure in a row: `first`, doubling each time, never more than `last`."""
    return min(last, first * 2 ** max(0, failures - 1))


def _libc_trim():
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None  # not glibc: nothing to give back this way


_trim = _libc_trim()


def give_back_memory() -> bool:
    """Hand the allocator's free pages back to the system (glibc's malloc_trim; ~40 ms over a 600 MB heap, the
    GIL let go): end users closed to make room leave their indexes' memory free but still resident, ~4 MB each
    (64 opened and closed: RSS 636 -> 337 MB after it). False where there is no such call."""
    if _trim is None:
        return False
    _trim(0)
    return True
