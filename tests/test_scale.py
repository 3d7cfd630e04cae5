"""Many end users on one home: only so many kept open, closed without losing work, start-up that opens only what
has work to do, and a watcher that sees edits in vaults that are closed."""
from __future__ import annotations

import subprocess
import threading
import time
from datetime import UTC, datetime

import pytest
from conftest import MOVE, chat, until

from twinfs import EndUser, Memory, Settings
from twinfs.lifecycle import Lifecycle
from twinfs.models import AddRequest, Phase, SearchRequest, StatusRequest
from twinfs.pending import Marks
from twinfs.steps import land
from twinfs.watching import Watcher

BOB = EndUser(org="acme", project="app", account="bob")
CAROL = EndUser(org="acme", project="app", account="carol")


def log(root) -> list[str]:
    return subprocess.run(["git", "-C", str(root), "log", "--format=%s"], capture_output=True, text=True,
                          check=True).stdout.splitlines()


def phase(memory: Memory, user: EndUser, item: str) -> Phase:
    return memory.status(user, StatusRequest(ids=[item])).phases[item]


def is_open(memory: Memory, user: EndUser) -> bool:
    return memory.spaces.peek(user.dirname) is not None


def now_chat(conversation: str) -> list[dict]:
    """MOVE said just now: its newest window is read only after the quiet spell."""
    return chat(conversation, MOVE, start=datetime.now(UTC), step=1)


def test_an_end_user_closed_with_an_add_waiting_lands_it_when_reopened(tmp_home, embedder, alice, monkeypatch):
    """One end user open at a time: alice's add waits behind bob's landing, alice is closed to make room for
    carol, and her add lands all the same once the pipeline gets to her (her vault opened again)."""
    release = threading.Event()
    real = land.land_event

    def landing(space, event):  # bob's landing holds the only landing worker until the test lets it go
        if space.user == BOB:
            release.wait(30)
        return real(space, event)

    monkeypatch.setattr(land, "land_event", landing)
    with Memory(Settings(home=tmp_home, reading=False, open_users=1, workers=1), embedder=embedder) as m:
        m.add(BOB, AddRequest(items=chat("b", MOVE)))
        assert until(lambda: m.pipeline.busy(BOB.dirname))
        m.add(alice, AddRequest(items=chat("a", MOVE)))  # queued behind bob: no lease holds her open
        m.add(CAROL, AddRequest(items=chat("c", MOVE)))
        assert not is_open(m, alice), "alice was not closed to make room"
        inbox = tmp_home / "users" / alice.dirname / ".inbox"
        assert list(inbox.glob("ev_*.json")) and (tmp_home / "pending" / alice.dirname).exists()
        closed = m.spaces.closed
        release.set()
        assert until(lambda: phase(m, alice, "msg-001") == Phase.landed)
        assert m.idle(30)
        assert phase(m, CAROL, "msg-003") == phase(m, BOB, "msg-003") == Phase.landed
        assert not list(inbox.glob("ev_*.json")) and closed >= 1
        assert len(m.spaces) <= 1 + 1  # the one kept open, and at most one held by a request or the pipeline
        hits = m.search(alice, SearchRequest(query="Where did Alice move?", fast=True)).hits
        assert hits and hits[0].turns[0] == "msg-001"
    assert not list((tmp_home / "pending").iterdir())  # nothing left to do anywhere


@pytest.mark.slow
def test_an_end_user_closed_with_turns_to_read_is_read_by_the_ticker(tmp_home, embedder, alice):
    """The newest window waits for quiet; alice is closed meanwhile; the ticker finds her in the pending index,
    opens her again and reads it."""
    settings = Settings(home=tmp_home, reading=True, quiet_seconds=3, fold_seconds=0, open_users=1)
    with Memory(settings, embedder=embedder) as m:
        m.reading.reader.warm()  # spaCy loaded now: loading it in alice's turn (~2-3 s at load 3) outlasted the quiet
        m.add(alice, AddRequest(items=now_chat("a"), wait=True))
        assert phase(m, alice, "msg-001") == Phase.landed
        m.add(BOB, AddRequest(items=chat("b", MOVE), wait=True))
        assert until(lambda: not is_open(m, alice)), "alice was not closed to make room for bob"
        assert (tmp_home / "pending" / alice.dirname).exists()
        assert until(lambda: phase(m, alice, "msg-001") == Phase.folded, 30)
        assert any(line.startswith("read: ") for line in log(tmp_home / "users" / alice.dirname))
        assert m.idle(30)
    assert not (tmp_home / "pending" / alice.dirname).exists()


@pytest.mark.slow
def test_start_up_opens_no_vault_with_nothing_to_do(tmp_home, embedder, alice, monkeypatch):
    settings = Settings(home=tmp_home, reading=True, quiet_seconds=4, fold_seconds=0)
    with Memory(settings, embedder=embedder) as m:
        for user in (alice, BOB):
            m.add(user, AddRequest(items=chat(user.account, MOVE), wait=True))  # said long ago: read at once
        m.add(CAROL, AddRequest(items=now_chat("c"), wait=True))  # its newest window waits for quiet
        assert m.idle(60)
    assert sorted(p.name for p in (tmp_home / "pending").iterdir()) == [CAROL.dirname]

    opened: list[str] = []
    real = Lifecycle._make
    monkeypatch.setattr(Lifecycle, "_make", lambda self, user: opened.append(user.dirname) or real(self, user))
    with Memory(settings, embedder=embedder) as m:
        assert until(lambda: (tmp_home / "users" / CAROL.dirname / "pages").is_dir() and m.idle(1), 30)
        assert opened == [CAROL.dirname]  # alice's and bob's vaults were not even looked at
        assert phase(m, CAROL, "msg-003") == Phase.folded
        assert m.health()["users"] == 3
        assert phase(m, alice, "msg-001") == Phase.folded  # opened when asked
        assert m.idle(30)  # its first open's look for hand edits, done before the vault is settled
    assert not list((tmp_home / "pending").iterdir())


def test_a_vault_stopped_midway_is_in_the_pending_index(tmp_home, embedder, alice):
    """The writer marks its vault pending before it begins: a crash inside any step leaves the mark."""
    with Memory(Settings(home=tmp_home, reading=False), embedder=embedder) as m:
        m.add(alice, AddRequest(items=chat("a", MOVE), wait=True))
        assert m.idle(30)
        assert not (tmp_home / "pending" / alice.dirname).exists()
        space = m.space(alice)
        space.writer.__enter__()  # a step begins …
        assert (tmp_home / "pending" / alice.dirname).exists()
        space.writer.give_turn()  # … and the process dies inside it: the turn goes, the marks stay
    with Memory(Settings(home=tmp_home, reading=False), embedder=embedder) as m:
        assert m.idle(30)
        repaired = m.spaces.peek(alice.dirname).standing.repaired
        assert any("stopped midway" in line for line in repaired), repaired
    assert not (tmp_home / "pending" / alice.dirname).exists()


def test_a_vault_being_closed_is_settled_but_one_a_step_holds_is_left_due(memory, alice, tmp_home):
    """Closing a vault waits for the writer's turn without a step of its own: a settle meanwhile clears the mark
    (nothing was left to do), where a step holding the writer leaves it due (the step may fail or crash)."""
    memory.add(alice, AddRequest(items=chat("a", MOVE), wait=True))
    assert memory.idle(30)
    space = memory.space(alice)
    mark = tmp_home / "pending" / alice.dirname
    space.writer.take_turn()  # as Spaces' close waits for a step under way
    try:
        memory.life.settle(space)
    finally:
        space.writer.give_turn()
    assert not mark.exists()
    with space.writer:  # a step
        memory.life.settle(space)
        assert mark.exists()
    memory.life.settle(space)
    assert not mark.exists()


def test_a_settle_never_falls_between_the_tickers_listing_and_its_wakes(tmp_path):
    """The ticker lists what is due and wakes it as one step: a settle clearing a mark meanwhile waits until the
    wake is queued (the pipeline is busy with it), so no wake from a stale listing starts once idle() said done."""
    marks = Marks(tmp_path / "pending")
    marks.mark("a.b.c", due=time.time() - 1)
    cleared = threading.Thread(target=marks.clear, args=("a.b.c",))
    woken: list[tuple[str, bool]] = []

    def wake(name: str) -> None:
        cleared.start()  # a settle, from another thread, while this wake is being made
        cleared.join(0.2)
        woken.append((name, cleared.is_alive()))

    marks.wake_due(wake)
    cleared.join(5)
    assert woken == [("a.b.c", True)]  # the clear waited for the wake
    assert "a.b.c" not in marks and not (tmp_path / "pending" / "a.b.c").exists()
    marks.wake_due(lambda name: woken.append((name, False)))
    assert len(woken) == 1  # cleared: not woken again


def test_the_watcher_sees_a_hand_edit_in_a_vault_that_was_closed(tmp_home, embedder, alice):
    settings = Settings(home=tmp_home, reading=False, watch=True, open_users=1)
    with Memory(settings, embedder=embedder) as m:
        m.add(alice, AddRequest(items=chat("a", MOVE), wait=True))
        m.add(BOB, AddRequest(items=chat("b", MOVE), wait=True))
        assert until(lambda: not is_open(m, alice) and m.idle(1))
        root = tmp_home / "users" / alice.dirname
        passage = next(root.glob("passages/memory/messages/*/p_0001.md"))
        passage.write_text(passage.read_text().replace("My cat Miso", "My parrot Kiwi"))
        rel = passage.relative_to(root).as_posix()
        assert until(lambda: log(root)[0] == f"edit: {rel} (by hand)"), log(root)[:3]
        hit = m.search(alice, SearchRequest(query="parrot Kiwi", fast=True)).hits[0]
        assert "Kiwi" in hit.text
        assert m.life.watcher.watches <= 1 + 2 * 6  # users/, and per vault its folder and its few memory folders


def test_past_its_watch_limit_the_watcher_polls(tmp_path):
    users = tmp_path / "users"
    (users / "a.b.c" / "passages" / "memory").mkdir(parents=True)
    (users / "a.b.d" / "records").mkdir(parents=True)
    woken: list[str] = []
    watcher = Watcher(users, wrote=lambda user, rel: False, wake=woken.append, quiet=0.2, limit=4, poll=0.3)
    watcher.start(wait=True)
    try:
        assert watcher.watches == 4 and watcher.polled == ["a.b.d"]  # users/, a.b.c and its two folders … full
        time.sleep(0.5)  # the first poll notes the files as they are
        (users / "a.b.d" / "records" / "th_1.json").write_text("[]")
        (users / "a.b.c" / "passages" / "memory" / "p.md").write_text("edited")
        assert until(lambda: sorted(set(woken)) == ["a.b.c", "a.b.d"], 5), woken
        assert watcher.watches == 4
    finally:
        watcher.stop()


def test_a_reindex_stopped_midway_goes_on_where_it_stopped_and_shows_progress(memory, alice, monkeypatch):
    from twinfs.index.meaning import MeaningIndex
    from twinfs.steps import land

    for n in range(6):
        memory.add(alice, AddRequest(items=chat(f"c{n}", [(f"m{n}-{i}", r, t) for i, r, t in MOVE]), wait=True))
    space = memory.space(alice)
    space.meaning.apply([], list(space.meaning.hashes()))  # the meaning lane as if .twin/meaning were new
    monkeypatch.setattr(land, "CHUNK", 2)
    real, indexed = MeaningIndex.apply, []

    def apply(self, upserts, deletes):
        if len(indexed) == 2:
            raise OSError("killed")  # the third chunk never comes
        indexed.append(len(upserts))
        return real(self, upserts, deletes)

    monkeypatch.setattr(MeaningIndex, "apply", apply)
    with pytest.raises(OSError):
        memory.reindex(alice)
    assert indexed == [2, 2] and space.meaning.count() == 4
    monkeypatch.setattr(MeaningIndex, "apply", lambda self, upserts, deletes: indexed.append(len(upserts))
                        or real(self, upserts, deletes))
    shown: list[tuple[int, int]] = []
    memory.reindex(alice, lambda done, total: shown.append((done, total)))
    assert indexed[2:] == [2] and space.meaning.count() == 6  # only what the first did not get to
    assert shown[-1][0] == shown[-1][1] and len(shown) >= 2


@pytest.mark.slow
def test_the_ticker_gives_memory_back_after_end_users_were_closed(tmp_home, embedder, alice, monkeypatch):
    """Closing an end user frees its indexes' memory but the allocator keeps it resident; the ticker hands it
    back once after closes (never on a request's time), and not while nothing was closed."""
    from twinfs import lifecycle

    calls: list[int] = []
    monkeypatch.setattr(lifecycle, "give_back_memory", lambda: calls.append(1) or True)
    settings = Settings(home=tmp_home, reading=False, quiet_seconds=4, open_users=1)  # a tick a second
    with Memory(settings, embedder=embedder) as m:
        m.add(alice, AddRequest(items=chat("a", MOVE), wait=True))
        time.sleep(2.5)
        assert calls == [] and m.life.trims == 0  # nothing closed yet
        m.add(BOB, AddRequest(items=chat("b", MOVE), wait=True))
        assert until(lambda: not is_open(m, alice)), "alice was not closed to make room for bob"
        assert until(lambda: m.life.trims == 1, 10)
        time.sleep(2.5)
        assert m.life.trims == 1 and calls == [1]  # once for that close


def test_giving_memory_back_runs_where_glibc_is():
    import platform

    from twinfs.background import give_back_memory

    assert give_back_memory() is (platform.libc_ver()[0] == "glibc")
