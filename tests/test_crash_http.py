"""Crash trials over HTTP (bench/crash.py runs 20): the server killed with its git children at a random moment and
inside a commit, a Whoosh commit and a forget's history rewrite, restarted, and checked."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import crash  # noqa: E402


@pytest.mark.parametrize("seed,point", [(11, None), (12, "commit"), (13, "words"), (14, "rewrite")])
def test_a_killed_server_loses_nothing_accepted_and_starts_clean(tmp_path, seed, point):
    result = crash.trial(tmp_path, seed, point)
    assert result["adds"] > 0, result
    failed = {k: v for k, v in result.items() if k not in ("repaired",) and v is not True
              and k not in ("seed", "point", "crash", "ran", "adds", "forgets", "restart_to_landed", "ok")}
    assert not failed, result
    assert result["ok"], result
