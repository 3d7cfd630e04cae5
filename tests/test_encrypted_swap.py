"""An encrypted remote on a local folder made anew after a forget (twinfs/sync/encrypted.py): the swap keeps the
remote whole at every moment, and what a kill leaves is finished (or dropped) by the next sync. The files stand in
for gcrypt's: packs named by their content, one manifest under a fixed name."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from twinfs.sync import encrypted

MANIFEST = "91bd0c09manifest"


def old_remote(root: Path) -> Path:
    folder = root / "remote"
    folder.mkdir()
    (folder / MANIFEST).write_text("old history: packs a, b")
    (folder / "pack-a").write_text("a")
    (folder / "pack-b").write_text("b (holds the forgotten text)")
    return folder


def push_new(fresh: Path) -> None:
    fresh.mkdir()
    (fresh / "pack-a").write_text("a")
    (fresh / "pack-c").write_text("c")
    (fresh / MANIFEST).write_text("new history: packs a, c")


def listing(folder: Path) -> dict[str, str]:
    return {f.name: f.read_text() for f in folder.iterdir()}


NEW = {MANIFEST: "new history: packs a, c", "pack-a": "a", "pack-c": "c"}


def test_the_new_history_replaces_the_old_and_nothing_of_the_old_is_left(tmp_path):
    folder = old_remote(tmp_path)
    encrypted.replace_folder(folder, push_new)
    assert listing(folder) == NEW
    assert not encrypted.fresh_beside(folder).exists()


def test_at_every_step_of_the_swap_the_remote_holds_a_manifest_and_every_pack_it_names(tmp_path, monkeypatch):
    folder = old_remote(tmp_path)
    seen: list[dict[str, str]] = []
    real = os.replace

    def watched(src, dst):
        real(src, dst)
        seen.append(listing(folder))

    monkeypatch.setattr(encrypted.os, "replace", watched)
    encrypted.replace_folder(folder, push_new)
    assert seen, "the swap moved no file"
    for state in seen:
        named = state[MANIFEST].split(": packs ")[1].split(", ")
        assert all(f"pack-{p}" in state for p in named), state


def test_a_kill_after_the_push_is_finished_by_the_next_sync(tmp_path, monkeypatch):
    folder = old_remote(tmp_path)
    real, moves = os.replace, []

    def killed_after_one(src, dst):
        if moves and Path(dst).parent == folder:
            raise KeyboardInterrupt  # stands in for kill -9 between two renames
        moves.append(dst)
        real(src, dst)

    monkeypatch.setattr(encrypted.os, "replace", killed_after_one)
    with pytest.raises(KeyboardInterrupt):
        encrypted.replace_folder(folder, push_new)
    monkeypatch.setattr(encrypted.os, "replace", real)
    assert MANIFEST in listing(folder) and listing(folder)[MANIFEST].startswith("old")  # still whole, still old
    encrypted.finish_replacing(folder)
    assert listing(folder) == NEW


def test_a_kill_during_the_push_leaves_the_old_remote_as_it_was(tmp_path):
    folder = old_remote(tmp_path)
    before = listing(folder)

    def dies_midway(fresh: Path) -> None:
        fresh.mkdir()
        (fresh / "pack-c").write_text("c")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        encrypted.replace_folder(folder, dies_midway)
    encrypted.finish_replacing(folder)
    assert listing(folder) == before
    assert not encrypted.fresh_beside(folder).exists()
