"""A turn that arrives out of time order into a long conversation costs about what a turn at its end costs
(issue #35): the passages around it are cut again, the rest keep their turns, numbers and files."""
from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

from twinfs.models import AddRequest, GrepRequest
from twinfs.passages import MAX_CHARS, parse, render
from twinfs.steps import land, tidy

T0 = datetime(2026, 10, 1, 9, 0, tzinfo=UTC)


def turn(ident: str, at: datetime, text: str) -> dict:
    return {"id": ident, "kind": "message", "conversation": "long", "role": "user", "text": text,
            "at": at.isoformat()}


def passages_on_disk(space) -> dict[int, object]:
    return {int(f.stem.split("_")[1]): parse(f.read_text(encoding="utf-8"))
            for f in space.root.glob("passages/**/*.md")}


def assert_a_sound_cut(space) -> None:
    """Every turn in exactly one passage, numbered 1..N without a gap, read in time order (by their times, not
    their numbers), none too long."""
    on_disk = passages_on_disk(space)
    assert sorted(on_disk) == list(range(1, len(on_disk) + 1))
    thread = space.threads()[0]
    items = {e["id"]: e for e in space.thread_items(thread)}
    seen: list[str] = []
    for n in sorted(on_disk, key=lambda n: (on_disk[n].start, items[on_disk[n].turns[0]]["at"])):
        seen += on_disk[n].turns
        assert len(on_disk[n].body) <= MAX_CHARS
    assert sorted(seen) == sorted(items)  # each once: no turn lost, none twice
    said = [(items[i]["at"], items[i]["id"]) for i in seen]
    assert [s[0] for s in said] == sorted(s[0] for s in said)  # the passages read in time order


def test_turns_said_earlier_than_the_end_rewrite_a_few_passages_not_the_tail(memory, alice, monkeypatch):
    rng = random.Random(3)
    lengths = [rng.choice([40, 90, 160, 300]) for _ in range(300)]
    memory.add(alice, AddRequest(items=[turn(f"m{n:03d}", T0 + timedelta(seconds=30 * n),
                                             f"turn {n} " + "x" * lengths[n]) for n in range(300)], wait=True))
    space = memory.space(alice)
    total = len(passages_on_disk(space))
    assert total > 40
    rendered: list[int] = []
    monkeypatch.setattr(land, "render", lambda p: rendered.append(p.number) or render(p))
    for k in range(12):  # each said between two turns of the first half of the thread
        at = T0 + timedelta(seconds=30 * rng.randrange(1, 150) + 7)
        rendered.clear()
        memory.add(alice, AddRequest(items=[turn(f"late{k}", at, f"said late {k}: " + "y" * rng.choice([40, 200]))],
                                     wait=True))
        assert len(rendered) <= 3, rendered  # not the ~100 passages after it
        assert_a_sound_cut(space)
        hits = memory.grep(alice, GrepRequest(pattern=f"said late {k}:"))
        assert hits.found == 1
    # said before everything: still local
    rendered.clear()
    memory.add(alice, AddRequest(items=[turn("first", T0 - timedelta(minutes=5), "said first")], wait=True))
    assert len(rendered) <= 3
    assert_a_sound_cut(space)
    assert "first" in passages_on_disk(space)[1].turns

    # an edit in the middle is local too
    rendered.clear()
    memory.add(alice, AddRequest(items=[turn("m010", T0 + timedelta(seconds=300), "edited words")], wait=True))
    assert len(rendered) <= 3
    assert_a_sound_cut(space)
    assert memory.grep(alice, GrepRequest(pattern="edited words")).found == 1

    # after a restart (nothing known of the last cut in memory) it is read back from the passage files
    space.heads.clear()
    rendered.clear()
    memory.add(alice, AddRequest(items=[turn("again", T0 + timedelta(seconds=30 * 77 + 3), "said late again")],
                                 wait=True))
    assert len(rendered) <= 3
    assert_a_sound_cut(space)
    # … unless a file is not as the cut left it (edited by hand): then the thread is cut whole
    thread = space.threads()[0]
    cuts = space.state.cuts(thread)
    assert land._heads_from_files(space, thread, cuts) is not None
    assert land._heads_from_files(space, thread, {**cuts, next(iter(cuts)): "not its hash"}) is None
    space.heads.clear()
    rendered.clear()
    space.state.set_cuts(thread, {**cuts, next(iter(cuts)): "not its hash"})
    memory.add(alice, AddRequest(items=[turn("end", T0 + timedelta(hours=5), "the last word")], wait=True))
    assert len(rendered) == len(space.state.cuts(thread))
    whole = {p.path: render(p) for p in land.cut_thread(thread, space.thread_items(thread))}
    assert {f.relative_to(space.root).as_posix(): f.read_text(encoding="utf-8")
            for f in space.root.glob("passages/**/*.md")} == whole
    assert_a_sound_cut(space)


def test_a_hand_edit_cuts_again_only_the_passages_around_the_turns_it_touched(memory, alice, monkeypatch):
    rng = random.Random(5)
    memory.add(alice, AddRequest(items=[turn(f"m{n:03d}", T0 + timedelta(seconds=30 * n),
                                             f"turn {n} " + "x" * rng.choice([40, 90, 160, 300])) for n in range(300)],
                                 wait=True))
    space = memory.space(alice)
    thread = space.threads()[0]
    rendered: list[int] = []
    monkeypatch.setattr(land, "render", lambda p: rendered.append(p.number) or render(p))

    def by_hand(ident: str, **change) -> str:
        rel = space.item_path(thread, ident)
        entry = json.loads((space.root / rel).read_text(encoding="utf-8"))
        (space.root / rel).write_text(json.dumps({**entry, **change}), encoding="utf-8")
        return rel

    def passages_committed() -> list[str]:
        named = space.vault.git("show", "--name-only", "--format=", "HEAD").split()
        return [p for p in named if p.startswith("passages/")]

    # its words edited in a turn in the middle of the thread: the passage or two around it, not the ~100 after it
    rel = by_hand("m100", text="words edited by hand")
    assert memory.mend(alice) == [rel]
    assert len(rendered) <= 3, rendered
    assert_a_sound_cut(space)
    assert memory.grep(alice, GrepRequest(pattern="words edited by hand")).found == 1
    assert 1 <= len(passages_committed()) <= 3  # only what the cut wrote goes into the commit
    # moved a little in time: the passages from its old place to its new one
    rendered.clear()
    rel = by_hand("m200", at=(T0 + timedelta(seconds=30 * 196 + 5)).isoformat())
    assert memory.mend(alice) == [rel]
    assert len(rendered) <= 5, rendered
    assert_a_sound_cut(space)
    # taken out by hand: its passage cut again without it, the others keep their files
    rendered.clear()
    on_disk = passages_on_disk(space)
    (space.root / space.item_path(thread, "m150")).unlink()
    memory.mend(alice)
    assert len(rendered) <= 3, rendered
    assert memory.grep(alice, GrepRequest(pattern="turn 150 ")).found == 0
    after = passages_on_disk(space)
    assert sum(after.get(n) != p for n, p in on_disk.items()) <= 3
    assert sorted(t for p in after.values() for t in p.turns) == sorted(e["id"] for e in space.thread_items(thread))
    # caught half-saved (an editor writing it in place): the thread stays as cut, its turn found, until it reads
    rendered.clear()
    rel = space.item_path(thread, "m120")
    whole = (space.root / rel).read_text(encoding="utf-8")
    (space.root / rel).write_text(whole[:len(whole) // 2], encoding="utf-8")
    assert memory.mend(alice) == [rel]
    assert rendered == [] and memory.grep(alice, GrepRequest(pattern="turn 120 ")).found == 1
    (space.root / rel).write_text(whole.replace("turn 120 ", "turn 120 saved whole "), encoding="utf-8")
    assert memory.mend(alice) == [rel]
    assert len(rendered) <= 3 and memory.grep(alice, GrepRequest(pattern="turn 120 saved whole")).found == 1


def test_an_item_saved_in_place_while_it_is_mended_keeps_its_turn_and_is_cut_as_saved(memory, alice, monkeypatch):
    """An editor writing a file in place while the writer mends it: caught half-saved between the writer's look
    and its read, the thread stays as cut (its turn is not dropped from the passages); saved whole before the
    commit (which stages the file as it then is), it is cut again as saved, or git would show nothing left to mend
    while the passages held the older text."""
    memory.add(alice, AddRequest(items=[turn(f"m{n:03d}", T0 + timedelta(seconds=30 * n), f"turn {n} " + "x" * 90)
                                        for n in range(40)], wait=True))
    space = memory.space(alice)
    thread = space.threads()[0]
    path = space.root / space.item_path(thread, "m020")
    whole = path.read_text(encoding="utf-8")
    saved = whole.replace("turn 20 ", "turn 20 saved in place ")
    path.write_text(whole.replace("turn 20 ", "turn 20 edited "), encoding="utf-8")  # the first save
    looked, cut = tidy._unreadable, tidy.settle
    steps: list[str] = []

    def look_then_begin_a_save(*args):
        unreadable = looked(*args)
        if not steps:
            path.write_text(whole[: len(whole) // 2], encoding="utf-8")  # the editor's next save has begun
        steps.append("looked")
        return unreadable

    def cut_then_finish_the_save(*args, **kwargs):
        written = cut(*args, **kwargs)
        if steps == ["looked"]:
            path.write_text(saved, encoding="utf-8")  # … and ends before the writer commits
        return written

    monkeypatch.setattr(tidy, "_unreadable", look_then_begin_a_save)
    monkeypatch.setattr(tidy, "settle", cut_then_finish_the_save)
    assert memory.mend(alice) == [space.item_path(thread, "m020")]
    assert steps == ["looked", "looked"]  # looked at again: it changed while it was mended
    assert_a_sound_cut(space)
    assert "m020" in {t for p in passages_on_disk(space).values() for t in p.turns}
    assert memory.grep(alice, GrepRequest(pattern="turn 20 saved in place")).found == 1
    assert space.vault.changes() == []


def test_hand_edits_among_turns_out_of_time_order_leave_every_turn_in_one_passage(memory, alice):
    rng = random.Random(17)
    memory.add(alice, AddRequest(items=[turn(f"m{n:03d}", T0 + timedelta(seconds=rng.randint(0, 7200)),
                                             f"turn {n} " + "x" * rng.choice([40, 160, 300])) for n in range(90)],
                                 wait=True))
    space = memory.space(alice)
    thread = space.threads()[0]
    added = 90
    for k in range(40):
        if k % 3 == 0:  # turns arriving out of time order, as landing cuts them
            memory.add(alice, AddRequest(items=[turn(f"m{added + j:03d}", T0 + timedelta(seconds=rng.randint(0, 7200)),
                                                     f"turn {added + j} " + "z" * rng.choice([40, 300]))
                                                for j in range(2)], wait=True))
            added += 2
            continue
        ident = rng.choice(sorted(e["id"] for e in space.thread_items(thread)))
        path = space.root / space.item_path(thread, ident)
        entry = json.loads(path.read_text(encoding="utf-8"))
        if k % 3 == 1:
            entry["text"] += " (edited by hand)" * rng.randint(1, 12)
        else:
            entry["at"] = (T0 + timedelta(seconds=rng.randint(0, 7200))).isoformat()
        path.write_text(json.dumps(entry), encoding="utf-8")
        memory.mend(alice)
        cut = [t for p in passages_on_disk(space).values() for t in p.turns]
        ids = sorted(e["id"] for e in space.thread_items(thread))
        assert sorted(set(cut)) == ids, (k, set(ids) - set(cut))  # no turn lost by a local cut, none kept when gone


def test_an_edit_landed_again_after_its_first_try_failed_leaves_its_turn_in_one_passage(memory, alice, monkeypatch):
    # the first try wrote the moved item's file, then failed before cutting (a crash, a full disk): the second
    # try finds the file already as the edit says, so where the turn was before is no longer in it
    memory.add(alice, AddRequest(items=[turn(f"m{n:03d}", T0 + timedelta(minutes=n), f"turn {n} " + "x" * 300)
                                        for n in range(40)], wait=True))
    space = memory.space(alice)
    assert len(passages_on_disk(space)) > 4
    recut_all, failed = land.recut_all, []

    def fail_once(*args, **kwargs):
        if not failed:
            failed.append(True)
            raise OSError(28, "No space left on device")
        return recut_all(*args, **kwargs)

    monkeypatch.setattr(land, "recut_all", fail_once)
    memory.add(alice, AddRequest(items=[turn("m001", T0 + timedelta(minutes=39, seconds=30), "turn 1, said again")]))
    memory.idle(120)
    assert failed
    assert_a_sound_cut(space)
    assert memory.grep(alice, GrepRequest(pattern="turn 1, said again")).found == 1
