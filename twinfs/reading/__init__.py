"""Reading: windows of a conversation -> records, by the embedded rules reader, a GGUF model or an endpoint.

    reader = make_reader(model=settings.reader_model, url=settings.reader_url)
    for window in plan_windows(thread, turns, sources, read_hashes, now, quiet_seconds):
        if budget.allows(org):
            outcome = reader.read(window)
            budget.spend(org, outcome.tokens)
"""
from __future__ import annotations

from typing import Any, Protocol

from .budget import Budget
from .records import Draft, Outcome, finish, record_id
from .windows import Window, plan_windows


class Reader(Protocol):
    name: str

    def read(self, window: Window) -> Outcome: ...


def make_reader(model: str | None = None, url: str | None = None, **opts: Any) -> Reader:
    """`url` (TWIN_READER_URL): an OpenAI-compatible endpoint; `model` (TWIN_READER_MODEL): a GGUF path or a
    shipped model's name ("smollm2", "qwen-coder-1.5b"), run by llama.cpp in a child process; neither: the
    embedded default. `opts` go to the backend (for an endpoint `model` names the served model). `model="none"`
    (TWIN_READER_MODEL=none) is the rules reader alone: no model reads or checks."""
    if model and model.strip().lower() == "none":
        model = None
    if url:
        from .openai import OpenAIReader

        return OpenAIReader(url, model=model, **opts)
    if model:
        from .llama import LlamaReader

        return LlamaReader(model, **opts)
    from .rules import RulesReader

    return RulesReader()


__all__ = ["Budget", "Draft", "Outcome", "Reader", "Window", "finish", "make_reader", "plan_windows", "record_id"]
