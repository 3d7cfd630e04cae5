"""The model's pass as a pipeline step: after the rules reader, each record it made from a user's turn is asked
about once (checking.py), in the background, giving way to adds; what the model changes goes through `correct`.

Where it stands is kept in the end user's state (meta `checked:<thread>`: the record ids asked about), so after a
restart the pass goes on where it stopped. Which model: TWIN_READER_MODEL (a GGUF path or a shipped name; unset:
Qwen2.5-Coder-1.5B where its parts are installed; `none`: no model pass).
"""
from __future__ import annotations

import json
import logging
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

from .checking import Checker, amend, questions
from .keys import key_thread, writer_for

log = logging.getLogger("twinfs.reading")
DEFAULT = "qwen-coder-1.5b"
ADDS_QUIET, YIELD_MAX = 2.0, 30.0  # as the read step: give way while adds keep coming


def checker_for(model: str | None, url: str | None = None, n_threads: int = 2) -> Checker | None:
    """The checker the settings ask for, or None (rules only; one log line says why)."""
    if model and model.strip().lower() == "none":
        return None
    if url:
        log.warning("the model pass needs a GGUF run here (TWIN_READER_MODEL): an endpoint reads, it does not "
                    "check yet; pages are rules-only")
        return None
    from ..errors import Invalid
    from .checking import load
    from .shipped import model_path

    try:
        path = model_path(model or DEFAULT)
        return Checker(load(str(path), n_threads=n_threads))
    except (Invalid, ImportError, ValueError) as e:
        log.warning("no model to check the reading (%s): pages are rules-only", str(e).splitlines()[0])
        return None


class CheckPass:
    """Callable on a Space by the pipeline, after the read step."""

    def __init__(self, make: Callable[[], Checker | None], correct: Callable[[Any, Any], Any]):
        self._make = make
        self._checker: Checker | None = None
        self._made = False
        self._lock = threading.Lock()
        self.correct = correct  # Memory._correct(space, CorrectRequest)
        self.seconds: list[float] = []  # per question asked, for the status note's estimate
        self.behind: dict[str, tuple[str, int]] = {}  # end user -> (turn checked to, questions left)
        self.stopping = threading.Event()

    @property
    def checker(self) -> Checker | None:
        with self._lock:
            if not self._made:
                self._checker, self._made = self._make(), True
            return self._checker

    def __call__(self, space: Any) -> float | None:
        from ..ledger import all_records
        from ..space import turns_of

        records = all_records(space)
        threads = sorted({r.id.split("#")[0] for r in records if r.attribute and not r.retracted})
        if not threads or self.checker is None:
            return None
        for thread in threads:
            key = f"checked:{thread}"
            done = set(json.loads(space.state.get(key) or "[]"))
            turns = turns_of(space.thread_items(thread))
            mine = [r for r in records if r.id.startswith(thread + "#") and r.id not in done]
            for q in questions(mine, turns):
                wait = space.adds.give_way(ADDS_QUIET, YIELD_MAX)
                if wait or self.stopping.is_set() or space.pending():
                    return wait or None  # landing first; the rest after (where it stopped: the state says)
                start = time.monotonic()
                asked = self.checker.check([q])
                self.seconds.append(time.monotonic() - start)
                amended = amend(lambda _user, request: self.correct(space, request), space.user, asked)
                done.add(q.record)
                done.update(amended)
                with space.writer:
                    space.state.put(key, json.dumps(sorted(done)))
                left = sum(1 for r in mine if r.id not in done and r.attribute and not r.retracted)
                self.behind[space.user.dirname] = (q.record.split("#")[0] if q.record else thread, left)
            key_thread(space, thread, writer_for(self.checker), self.stopping.is_set)  # #33: its passages' keys
        self.behind.pop(space.user.dirname, None)
        return None

    def notes(self, space: Any) -> list[str]:
        """What status says while the model pass is behind."""
        where = self.behind.get(space.user.dirname)
        if not where or not where[1]:
            return []
        each = statistics.median(self.seconds) if self.seconds else 3.0
        return [f"the model is checking the reading: checked to {where[0]}, {where[1]} records left, "
                f"about {max(1, round(where[1] * each / 60))} minutes"]
