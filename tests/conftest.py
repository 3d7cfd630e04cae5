from __future__ import annotations

import os
from datetime import datetime, timedelta, timezone

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from twinfs import EndUser, Memory, Settings  # noqa: E402
from twinfs.index.meaning import shared_embedder  # noqa: E402


@pytest.fixture(scope="session")
def embedder():
    """The real MiniLM, loaded once for the whole run."""
    return shared_embedder()


@pytest.fixture
def tmp_home(tmp_path):
    return tmp_path / "home"


@pytest.fixture
def settings(tmp_home):
    return Settings(home=tmp_home, reading=False)


@pytest.fixture
def memory(settings, embedder):
    with Memory(settings, embedder=embedder) as m:
        yield m


@pytest.fixture
def alice():
    return EndUser(org="acme", project="app", account="alice")


T0 = datetime(2026, 10, 1, 9, 30, tzinfo=timezone.utc)


def chat(conversation: str, lines: list[tuple[str, str, str]], start: datetime = T0, step: int = 40) -> list[dict]:
    """[(id, role, text)] -> message items, `step` seconds apart."""
    names = {"user": "Alice Chen", "assistant": "Assistant"}
    return [{"id": i, "kind": "message", "conversation": conversation, "role": role, "name": names[role],
             "text": text, "at": (start + timedelta(seconds=n * step)).isoformat()}
            for n, (i, role, text) in enumerate(lines)]
