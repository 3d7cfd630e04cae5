"""The model's pass as a pipeline step: after the rules reader, each record it made from a user's turn, and each
sentence of a user's turn about the speaker that it left alone, is asked about once (checking.py), in the
background, a read window's questions at a time, giving way to adds; what the model changes is written in one
commit a window (checked.py), the rules' record retracted with the reason, never deleted.

Each passage's questions and its keys are asked in one running sequence (onepass.py; ONEPASS), a passage at a
time in the thread's order; the questions of turns no passage holds yet, by read window, as before.

Where it stands is kept in the end user's state (meta `checked:<thread>`: what was asked, and a stamp of the thread
once all of it was), so after a restart the pass goes on where it stopped. Which model: Settings.check_model
(TWIN_READER_MODEL: a GGUF path or a shipped name, or the served model with TWIN_READER_URL; unset:
Qwen2.5-Coder-1.5B where its parts are installed; `none`: no model pass).
"""
from __future__ import annotations

import hashlib
import json
import logging
import statistics
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from .checked import apply
from .checking import Checker, EndpointChecker, Question, questions
from .cores import FreeCores
from .keys import key_thread, writer_for

log = logging.getLogger("twinfs.reading")
DEFAULT = "qwen-coder-1.5b"
ADDS_QUIET, YIELD_MAX = 2.0, 30.0  # as the read step: give way while adds keep coming
WINDOW = 12  # turns a batch of questions covers: the read step's window (windows.plan_windows' size)
# #33: each passage's check questions and keys asked in one running sequence (onepass.py), each turn evaluated
# once; the model loaded with onepass.CONTEXT tokens of context for it. On: the keys 25% of the check (50% asked
# apart), the pass a passage 21% faster, the second set 72/72 with 0 set wrongly, tune R@5 as the keys asked apart
# (bench/results/model_keys.md, 4 Dec 2026 21:20-22:24). Off: the questions by read window, then the keys.
ONEPASS = True
BUSY_SECONDS = 5.0  # a search this recent (or a landing under way) leaves the model one thread


def checker_for(model: str | None, url: str | None = None, n_threads: int = 2) -> Checker | None:
    """The checker the settings ask for (`model`: a GGUF path or a shipped name; with `url`, the served model's
    name at that OpenAI-compatible endpoint), or None (rules only; one log line says why)."""
    if model and model.strip().lower() == "none":
        return None
    if url:
        try:
            return EndpointChecker(url, model=model)
        except ValueError as e:
            log.warning("no model to check the reading (%s): pages are rules-only", str(e).splitlines()[0])
            return None
    from ..errors import Invalid
    from .checking import load
    from .shipped import model_path

    try:
        path = model_path(model or DEFAULT)
        from .onepass import CONTEXT

        return Checker(load(str(path), n_threads=n_threads, n_ctx=CONTEXT if ONEPASS else 1024), name=model or DEFAULT)
    except (Invalid, ImportError, ValueError) as e:
        log.warning("no model to check the reading (%s): pages are rules-only", str(e).splitlines()[0])
        return None


def check_pass(settings: Any, fold: Callable[[Any], Any] | None = None,
               landing: Callable[[], bool] | None = None) -> CheckPass | None:
    """The model pass the settings ask for (Settings.model_checks), its model loaded on first use; None: rules
    only. A model configured by name that cannot run here stops at once with one line (errors.Invalid); the
    default one, missing, logs one line when the pass first runs."""
    if not settings.model_checks:
        return None
    model, url = settings.reader_model, settings.reader_url
    if model and not url:
        from .llama import require_llama_cpp
        from .shipped import model_path

        require_llama_cpp()
        model_path(model)  # Invalid: no such file, or a shipped model not installed
    return CheckPass(lambda: checker_for(model, url), fold, landing)


def thread_stamp(records: list[Any], turns: list[Any]) -> str:
    """Changes when the thread's live records or its turns change: a thread whose stamp is noted is all asked."""
    body = json.dumps([sorted(r.id for r in records if not r.retracted), [t.id for t in turns]])
    return hashlib.sha256(body.encode()).hexdigest()[:16]


def batches(owed: list[Question], turns: list[Any]) -> list[list[Question]]:
    """The questions a read window's turns owe, window by window (each batch is written in one commit)."""
    order = {t.id: n for n, t in enumerate(turns)}
    grouped: dict[int, list[Question]] = {}
    for q in owed:
        grouped.setdefault(order.get(q.turn_id or "", 0) // WINDOW, []).append(q)
    return [grouped[k] for k in sorted(grouped)]


class CheckPass:
    """Callable on a Space by the pipeline, after the read step.

    `fold(space)`: the pages folded again after a change; `landing()`: whether the server is landing adds (then,
    as for a search in the last BUSY_SECONDS, the model runs on one thread; when idle, on `threads` or as many
    cores as other programs leave free, if fewer: `free_cores`, cores.py)."""

    def __init__(self, make: Callable[[], Checker | None], fold: Callable[[Any], Any] | None = None,
                 landing: Callable[[], bool] | None = None, threads: int = 2, notes: bool = False,
                 onepass: bool | None = None, free_cores: Callable[[], int] | None = None):
        self._make = make
        self.onepass = ONEPASS if onepass is None else onepass  # a passage's questions and keys in one sequence
        self._run: Any = None  # the checker's onepass.PassageRun, made with its first passage
        self.notes_asked = notes  # the records without a value asked too (checking.NOTE_PREFIX; off: see there)
        self._checker: Checker | None = None
        self._made = False
        self._lock = threading.Lock()
        self.fold = fold
        self.landing = landing or (lambda: False)
        self.threads = threads
        self.free_cores = free_cores or FreeCores()
        self.searched = 0.0  # monotonic time of the last search (Memory.search calls used())
        self.seconds: list[float] = []  # per question asked, for the status note's estimate
        self.behind: dict[str, tuple[int, int]] = {}  # end user -> (turn checked to, questions left)
        self.stopping = threading.Event()

    @property
    def checker(self) -> Checker | None:
        with self._lock:
            if not self._made:
                self._checker, self._made = self._make(), True
            return self._checker

    def used(self) -> None:
        """A search was answered: the model gives way to the next for a few seconds."""
        self.searched = time.monotonic()

    def busy(self) -> bool:
        return self.landing() or time.monotonic() - self.searched < BUSY_SECONDS

    def threads_now(self) -> int:
        """The model's threads for the next passage: one while the server is busy, else what the machine has free."""
        return 1 if self.busy() else max(1, min(self.threads, self.free_cores()))

    def __call__(self, space: Any) -> float | None:
        from ..ledger import all_records
        from ..space import turns_of

        records = all_records(space)
        threads = sorted({r.id.split("#")[0] for r in records})
        if not threads or self.checker is None:
            return None
        checker = self.checker
        for thread in threads:
            key = f"checked:{thread}"
            noted = json.loads(space.state.get(key) or "{}")
            noted = noted if isinstance(noted, dict) else {"asked": noted}  # the first pass kept a bare list
            mine = [r for r in records if r.id.startswith(thread + "#")]
            turns = turns_of(space.thread_items(thread))
            stamp = thread_stamp(mine, turns)
            if noted.get("stamp") == stamp:  # all of it asked, and nothing changed since
                key_thread(space, thread, writer_for(checker), self.stopping.is_set)  # #33: its passages' keys
                continue
            done = set(noted.get("asked", []))
            owed = [q for q in questions(mine, turns, notes=self.notes_asked) if q.key not in done]
            order = {t.id: n for n, t in enumerate(turns)}
            # a served model (EndpointChecker) or one scripted in tests holds no llama.cpp model: its own prompts
            if self.onepass and getattr(checker, "llm", None) is not None:
                owed, wait = self._by_passage(space, thread, owed, done, key, turns, order)
                if wait is not None:
                    return wait or None
            left = len(owed)
            for batch in batches(owed, turns):
                wait = space.adds.give_way(ADDS_QUIET, YIELD_MAX)
                if wait or self.stopping.is_set() or space.pending():
                    return wait or None  # landing first; the rest after (where it stopped: the state says)
                checker.use_threads(self.threads_now())
                start = time.monotonic()
                checked = checker.check(batch)
                self.seconds += [(time.monotonic() - start) / len(batch)] * len(batch)
                with space.writer:
                    changed = self._settle(space, thread, checked, batch, turns, done, key)
                    if changed and self.fold:
                        self.fold(space)
                left -= len(batch)
                self.behind[space.user.dirname] = (max(order.get(q.turn_id or "", 0) for q in batch) + 1, left)
            if self.stopping.is_set():
                continue
            wait = self._fold_question(space, thread, done, key)
            if wait is not None:
                return wait or None
            key_thread(space, thread, writer_for(checker), self.stopping.is_set)  # #33: its passages' keys
            if not self.stopping.is_set():
                now = [r for r in all_records(space) if r.id.startswith(thread + "#")]
                with space.writer:
                    space.state.put(key, json.dumps({"asked": sorted(done),
                                                     "stamp": thread_stamp(now, turns_of(space.thread_items(thread)))}))
        self.behind.pop(space.user.dirname, None)
        return None

    def _settle(self, space: Any, thread: str, checked: list, asked: list[Question], turns: list[Any],
                done: set[str], key: str) -> int:
        """Under the writer: what the model changed written (checked.py), the questions `asked` noted as asked in
        the thread's state (meta `key`). Returns how many records changed."""
        from ..steps.read import sources_of

        assert self.checker is not None
        changed = apply(space, thread, checked, turns, sources_of(space, thread), datetime.now(UTC),
                        self.checker.name) if checked else 0
        done.update(q.key for q in asked)
        space.state.put(key, json.dumps({"asked": sorted(done)}))
        return changed

    def _by_passage(self, space: Any, thread: str, owed: list[Question], done: set[str], key: str,
                    turns: list[Any], order: dict[str, int]) -> tuple[list[Question], float | None]:
        """The thread's passages in order, each asked in one running sequence (onepass.py): the questions it owes
        and, while it has none, its keys; each passage written in its commits (the verdicts, then the keys).
        Returns the questions of no passage (asked the separate way) and how long to give way (None: go on)."""
        from ..passage_keys import keys_path
        from ..passages import parse
        from .keycheck import check_keys
        from .keys import keep_keys, keyed_passages
        from .onepass import PassageRun

        checker = self.checker
        assert checker is not None
        self._run = run = self._run or PassageRun(checker)
        keyed = keyed_passages(space, thread)
        for path in sorted(space.state.cuts(thread)):
            if path in keyed and not owed:
                continue  # keyed, and nothing of the thread left to ask: not read again
            try:
                text = space.vault.read(path)
            except FileNotFoundError:
                continue
            ids = set(parse(text).turns)
            mine = [q for q in owed if q.turn_id in ids]
            wants_keys = path not in keyed and not space.vault.path(keys_path(path)).exists()
            if not mine and not wants_keys:
                continue
            wait = space.adds.give_way(ADDS_QUIET, YIELD_MAX)
            if wait or self.stopping.is_set() or space.pending():
                return owed, wait or 0.0  # landing first; the rest after (where it stopped: the state says)
            checker.use_threads(self.threads_now())
            spent = run.seconds["check"]
            checked, keys = run.passage(text, mine, keys=wants_keys)
            self.seconds += [(run.seconds["check"] - spent) / max(1, len(mine))] * len(mine)
            keys = check_keys(keys, text) if keys else None
            with space.writer:
                changed = self._settle(space, thread, checked, mine, turns, done, key)
                if wants_keys:
                    keep_keys(space, thread, path, keys, keyed)
                if changed and self.fold:
                    self.fold(space)
            owed = [q for q in owed if q.turn_id not in ids]
            if mine:
                self.behind[space.user.dirname] = (max(order.get(q.turn_id or "", 0) for q in mine) + 1, len(owed))
        return owed, None

    def _fold_question(self, space: Any, thread: str, done: set[str], key: str) -> float | None:
        """The values of a one-at-a-time attribute code cannot order, asked once each (foldcheck.py) after the
        thread's questions; None when all are asked, else how long to give way (0: stopped)."""
        from ..ledger import load_records
        from ..space import turns_of
        from .foldcheck import ask, retract_folded, rivals

        turns = turns_of(space.thread_items(thread))
        owed = [q for q in rivals(load_records(space, thread), turns) if q.key not in done]
        if not owed:
            return None
        wait = space.adds.give_way(ADDS_QUIET, YIELD_MAX)
        if wait or self.stopping.is_set() or space.pending():
            return wait
        checker = self.checker
        assert checker is not None
        answered = [(q, ask(checker, q)) for q in owed]
        with space.writer:
            changed = retract_folded(space, thread, answered, datetime.now(UTC), checker.name)
            done.update(q.key for q in owed)
            space.state.put(key, json.dumps({"asked": sorted(done)}))
            if changed and self.fold:
                self.fold(space)
        return None

    def notes(self, space: Any) -> list[str]:
        """What status says while the model pass is behind."""
        where = self.behind.get(space.user.dirname)
        if not where or not where[1]:
            return []
        each = statistics.median(self.seconds[-200:]) if self.seconds else 3.0
        return [f"the model is checking the reading: checked to turn {where[0]}, about "
                f"{max(1, round(where[1] * each / 60))} minutes left ({where[1]} questions)"]
