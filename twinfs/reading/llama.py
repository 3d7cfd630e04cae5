"""The reader on any GGUF model, run by llama-cpp-python in a child process, its answer held to the JSON schema.

The model runs in a process of its own so that a crash or a hang costs one window, never the server: each answer
has a deadline, and a child that misses it (or dies) is ended and started again for the next window.
"""
from __future__ import annotations

import atexit
import importlib.util
import json
import os
import re
import select
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from ..errors import Invalid, Unavailable
from .prompts import LENGTHS, MAX_RECORDS, ask
from .records import Outcome
from .shipped import model_path
from .windows import Window

RETRY_AFTER = 60  # seconds before a window whose reader died or hung is tried again (at least)
EXTRA = 'pip install "twinfs[llama]"'

_lock = threading.Lock()
_children: dict[tuple[str, int, int], Child] = {}


@atexit.register
def _close() -> None:
    with _lock:
        for child in _children.values():
            child.stop()
        _children.clear()


class TooLong(ValueError):
    """The window's prompt is longer than the model's context."""


def require_llama_cpp() -> None:
    """llama-cpp-python is an extra (it compiles llama.cpp): a GGUF reader configured without it is one clear line."""
    if importlib.util.find_spec("llama_cpp") is None:
        raise Invalid(f"a GGUF reader (TWIN_READER_MODEL) needs llama-cpp-python: {EXTRA}", field="model")


class Child:
    """One llama.cpp model in a child process; one call at a time (its lock), each with a deadline."""

    def __init__(self, path: Path, n_ctx: int, n_threads: int, load_seconds: float = 300.0):
        self.args = [sys.executable, "-m", "twinfs.reading.child", str(path), str(n_ctx), str(n_threads)]
        self.load_seconds = load_seconds
        self.lock = threading.Lock()
        self.proc: subprocess.Popen | None = None
        self._buffer = b""

    def _start(self) -> subprocess.Popen:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self.proc = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self._buffer = b""
        self._line(self.load_seconds, "load the model")
        return self.proc

    def _line(self, seconds: float, doing: str) -> dict:
        """The child's next line, or Unavailable when it dies or misses the deadline (then it is ended)."""
        assert self.proc is not None and self.proc.stdout is not None
        deadline = time.monotonic() + seconds
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.stop()
                raise Unavailable(f"the reader model did not {doing} within {seconds:g} s: its process was "
                                  "stopped, and the window is read again later", retry_after=RETRY_AFTER)
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                code = self.proc.wait()
                self.proc = None
                raise Unavailable(f"the reader model's process died (exit code {code}) while it was to {doing}; "
                                  "the window is read again later", retry_after=RETRY_AFTER)
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return json.loads(line)

    def _running(self) -> subprocess.Popen:
        return self.proc if self.proc is not None and self.proc.poll() is None else self._start()

    def load(self) -> None:
        """Start the child and load its model now, not on the first window."""
        with self.lock:
            self._running()

    def complete(self, request: dict, seconds: float) -> dict:
        with self.lock:
            proc = self._running()
            assert proc.stdin is not None
            try:
                proc.stdin.write(json.dumps(request).encode() + b"\n")
                proc.stdin.flush()
            except (BrokenPipeError, OSError):
                pass  # it died: reading its answer says so
            return self._line(seconds, "answer")

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout):
            if stream:
                stream.close()


def child(path: Path, n_ctx: int, n_threads: int) -> Child:
    """One child per (file, context, threads), started on its first call and shared by every reader of it."""
    key = (str(path.resolve()), n_ctx, n_threads)
    with _lock:
        if key not in _children:
            _children[key] = Child(Path(key[0]), n_ctx, n_threads)
        return _children[key]


def gbnf(schema: dict) -> str:
    """The schema as a llama.cpp grammar, each text field bounded by a flat `char{0,N}`: the converter's own
    bound nests a rule per character, which makes sampling cost grow with the string's length."""
    from llama_cpp.llama_grammar import json_schema_to_gbnf

    gbnf = json_schema_to_gbnf(json.dumps(schema))
    lines = gbnf.splitlines()
    extra = []
    for name, limit in LENGTHS.items():
        heads = (f"records-item-{name}-kv ::=", f"records-item-{name} ::=")
        hit = False
        for i, line in enumerate(lines):
            if line.startswith(heads) and re.search(r"\bstring\b", line):
                lines[i] = re.sub(r"\bstring\b", f"{name}-string", line)
                hit = True
        if hit:
            extra.append(f'{name}-string ::= "\\"" char{{0,{limit}}} "\\"" space')
    return "\n".join(lines + extra)


def grammar(schema: dict) -> Any:
    from llama_cpp.llama_grammar import LlamaGrammar

    return LlamaGrammar.from_string(gbnf(schema), verbose=False)


class LlamaReader:
    """Reads windows with a GGUF model (a path, or a shipped model's name) in a child process.

    `timeout`: seconds one answer may take before the child is ended (the window is then read again later)."""

    def __init__(self, model: str | os.PathLike = "smollm2", n_ctx: int = 4096, max_tokens: int = 1024,
                 temperature: float = 0.0, n_threads: int | None = None, max_records: int = MAX_RECORDS,
                 timeout: float = 600.0, cache: Path | None = None):
        require_llama_cpp()
        self.path = model_path(model, cache)
        self.name = f"llama:{self.path.stem}"
        self.n_ctx = n_ctx
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.n_threads = n_threads or max(1, min(4, os.cpu_count() or 1))
        self.max_records = max_records
        self.timeout = timeout

    @property
    def child(self) -> Child:
        return child(self.path, self.n_ctx, self.n_threads)

    def _complete(self, messages: list[dict], schema: dict) -> tuple[str, int]:
        reply = self.child.complete({"messages": messages, "schema": schema, "max_tokens": self.max_tokens,
                                     "temperature": self.temperature}, self.timeout)
        if reply.get("too_long"):
            raise TooLong(f"the window does not fit the reader's context ({self.n_ctx} tokens): {reply['error']}")
        return reply["text"], int(reply["tokens"])

    def read(self, window: Window) -> Outcome:
        try:
            return ask(window, self._complete, self.max_records)
        except TooLong as e:  # asking again cannot help: the window fails, and is tried again only much later
            return Outcome([], 0, failed=str(e))
