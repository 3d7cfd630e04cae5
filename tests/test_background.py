"""Background threads run below requests (twinfs/background.py): a thread that calls lower_priority gets the nice it
asks for, the other threads keep theirs; TWIN_LOWER_BACKGROUND=0 leaves every thread as it was (conftest.py sets it
for the suite, whose workers run side by side)."""
from __future__ import annotations

import os
import threading

import pytest

from twinfs.background import lower_priority


def _nice_in_a_thread(monkeypatch, lowered: str | None) -> tuple[int, int]:
    if lowered is None:
        monkeypatch.delenv("TWIN_LOWER_BACKGROUND", raising=False)
    else:
        monkeypatch.setenv("TWIN_LOWER_BACKGROUND", lowered)
    seen: list[int] = []

    def work() -> None:
        lower_priority(15)
        seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    return seen[0], os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="thread priorities are Linux's")
def test_a_background_thread_runs_below_the_requests():
    with pytest.MonkeyPatch.context() as monkeypatch:
        before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        background, caller = _nice_in_a_thread(monkeypatch, None)
    assert background == max(before, 15) and caller == before  # only the thread that asked


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="thread priorities are Linux's")
def test_turned_off_the_background_keeps_the_requests_priority():
    with pytest.MonkeyPatch.context() as monkeypatch:
        before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        background, caller = _nice_in_a_thread(monkeypatch, "0")
    assert background == before and caller == before
