"""`twin` as a person runs it: real processes, one clear line on error, a non-zero exit, nothing half-added."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import chat

ROOT = Path(__file__).resolve().parents[1]


def twin(home: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TWIN_READING": "0"}
    return subprocess.run([sys.executable, "-m", "twinfs.cli", "--home", str(home), *args], input=stdin,
                          capture_output=True, text=True, env=env, timeout=300)


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    home = tmp_path_factory.mktemp("cli") / "home"
    assert twin(home, "init").returncode == 0
    items = chat("c1", [("msg-001", "user", "I just moved to Lisbon, near the river."),
                        ("msg-002", "assistant", "Congratulations on the move!")])
    lines = "\n".join(json.dumps(i) for i in items)
    done = twin(home, "add", "--account", "alice", "--quiet", "-", stdin=lines)
    assert done.returncode == 0, done.stderr
    assert "added 2 items for alice" in done.stdout
    return home


def test_add_refuses_a_bad_line_naming_it_and_adds_nothing(tmp_path):
    good = json.dumps(chat("c1", [("m1", "user", "hello")])[0])
    bad = json.dumps({**chat("c1", [("m2", "user", "x")])[0], "at": "not a time"})
    out = twin(tmp_path, "add", "--account", "bob", "-", stdin=f"{good}\n{bad}\n")
    assert out.returncode == 1
    assert out.stderr.strip().startswith("twin: - line 2: at: ") and len(out.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "users" / "local.default.bob").exists()


def test_search_status_grep_read(home):
    found = twin(home, "search", "--account", "alice", "Where does she live?", "--fast")
    assert found.returncode == 0, found.stderr
    brief = json.loads(found.stdout)
    assert brief["hits"][0]["turns"] == ["msg-001", "msg-002"] and brief["filtered"] is False
    status = json.loads(twin(home, "status", "--account", "alice", "msg-001", "nope").stdout)
    assert status == {"phases": {"msg-001": "landed", "nope": "unknown"}}
    grep = twin(home, "grep", "--account", "alice", "lisbon")
    path, line, text = grep.stdout.splitlines()[0].split(":", 2)
    assert path.startswith("passages/memory/messages/") and "Lisbon" in text
    read = twin(home, "read", "--account", "alice", path)
    assert read.stdout.splitlines()[int(line) - 1] == text.lstrip()


def test_reindex_keys_and_clear_errors(home):
    re = twin(home, "reindex", "--quiet")
    assert re.returncode == 0 and "local.default.alice: 1 passages, 0 reindexed" in re.stdout
    key = twin(home, "keys", "create", "--org", "acme", "--project", "app", "--role", "read")
    assert key.returncode == 0 and key.stdout.startswith("tm_")
    stored = (home / "keys.json").read_text()
    assert key.stdout.strip() not in stored  # only the hash is kept
    assert "acme.app" in twin(home, "keys", "list").stdout
    for args, words in [(("read", "--account", "alice", "../../keys.json"), "leaves the vault"),
                        (("search", "--account", "nobody", "x"), "no memory for end user 'nobody' yet"),
                        (("search", "--account", "alice", "x", "--before", "2026-02-30"), "not a real day"),
                        (("status", "--account", "../x", "m1"), "not a usable id"),
                        (("grep", "--account", "alice", "([", "--regex"), "not a valid regular expression")]:
        out = twin(home, *args)
        assert out.returncode == 1 and words in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_every_command_has_help_and_a_readme_entry():
    from twinfs.cli import parser

    readme = (ROOT / "README.md").read_text()
    commands = parser()._subparsers._group_actions[0].choices
    for name, sub in commands.items():
        assert sub.description, f"twin {name} has no help"
        assert f"twin --home ./twin-home {name}" in readme or f"twin {name}" in readme, f"README lacks twin {name}"
