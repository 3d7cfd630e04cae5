from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# the suite reads by rules alone: only the tests about the model pass load a model (they say which)
os.environ.setdefault("TWIN_READER_MODEL", "none")
# the suite's workers run side by side on 2 cores: background work at a nice of 15 below another worker's tests got
# ~3% of a core (a model pass of 7 s took 195 s beside two busy processes), so here it runs at the tests' priority
# (tests/test_background.py checks the lowering itself)
os.environ.setdefault("TWIN_LOWER_BACKGROUND", "0")

from twinfs import AddRequest, EndUser, Memory, Settings  # noqa: E402
from twinfs.index.embedder import shared_embedder  # noqa: E402

WORKERS = 3  # most tests wait on git, subprocesses and sockets: 3 workers beat 2 on 2 cores


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto` (pyproject's addopts): $TWIN_TEST_WORKERS, else WORKERS for the suite or a folder of it, and
    none (no worker processes started) for a run of one or two test files or tests, the inner loop."""
    if os.environ.get("TWIN_TEST_WORKERS"):
        return int(os.environ["TWIN_TEST_WORKERS"])
    named = [a for a in config.args if "::" in a or os.path.isfile(a)]
    return 0 if named and len(named) == len(config.args) and len(named) <= 2 else WORKERS


def pytest_collection_modifyitems(config, items) -> None:
    """With workers: the tests of a module that share what a module-scoped fixture of theirs started (a server,
    a browser, a model) run on one worker (`--dist loadgroup`), so it is started once; the others spread."""
    for item in items:
        module = item.nodeid.split("::")[0]
        defs = [d for ds in item._fixtureinfo.name2fixturedefs.values() for d in ds]
        if any(d.scope != "function" and d.baseid == module for d in defs):
            item.add_marker(pytest.mark.xdist_group(module))


@pytest.fixture(autouse=True)
def adds_wait_until_landed(monkeypatch):
    """An add with `wait` waits up to 10 s for landing, then answers with the phases it has; on the suite's
    loaded machine (three workers on 2 cores, a bench beside it) landing can take longer, and a test that then
    looks at what landing did would see it not done yet: in process, an add waits up to two minutes."""
    import twinfs.memory

    monkeypatch.setattr(twinfs.memory, "WAIT_SECONDS", 120.0)


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
def machines(tmp_path, embedder):
    """Two machines (each its own twin home, its own name) and a remote that does not exist yet."""
    opened = []

    def machine(name: str, reading: bool = True, watch: bool = False) -> Memory:
        settings = Settings(home=tmp_path / name, reading=reading, quiet_seconds=0, fold_seconds=0, machine=name,
                            watch=watch)
        memory = Memory(settings, embedder=embedder).start()
        opened.append(memory)
        return memory

    yield machine, str(tmp_path / "remote" / "{vault}.git")
    for memory in opened:
        memory.close()


@pytest.fixture
def alice():
    return EndUser(org="acme", project="app", account="alice")


T0 = datetime(2026, 10, 1, 9, 30, tzinfo=UTC)
# the seeds' running example: Alice moves to Lisbon; a Porto trip plan two days later
MOVE = [
    ("msg-001", "user", "I just moved to Lisbon from Berlin, the flat is near the river."),
    ("msg-002", "assistant", "Congratulations! How are you finding the city so far?"),
    ("msg-003", "user", "I love the light here. My cat Miso hates the tram noise though."),
]
PORTO = {"id": "doc-porto", "kind": "document", "title": "Porto trip plan", "at": "2026-10-03T08:00:00Z",
         "text": "Day 1: train from Lisbon to Porto at 08:00.\n\nDay 2: a boat tour on the Douro and port cellars."}


def chat(conversation: str, lines: list[tuple[str, str, str]], start: datetime = T0, step: int = 40) -> list[dict]:
    """[(id, role, text)] -> message items, `step` seconds apart."""
    names = {"user": "Alice Chen", "assistant": "Assistant"}
    return [{"id": i, "kind": "message", "conversation": conversation, "role": role, "name": names[role],
             "text": text, "at": (start + timedelta(seconds=n * step)).isoformat()}
            for n, (i, role, text) in enumerate(lines)]


@contextmanager
def read_by_rules(tmp_path, embedder, user: EndUser, lines: list[tuple[str, str, str]]) -> Iterator[Memory]:
    """A Memory (under tmp_path/home, no model) whose rules pass has read `lines` as `user`'s chat c1, left open."""
    settings = Settings(home=tmp_path / "home", quiet_seconds=0, reader_model="none")
    with Memory(settings, embedder=embedder) as memory:
        memory.add(user, AddRequest(items=chat("c1", lines), wait=True))
        assert memory.idle(60)
        yield memory


def until(check, seconds: float = 20.0) -> bool:
    """Whether `check()` comes true within `seconds` (background work is waited for, never assumed done)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.05)
    return False
