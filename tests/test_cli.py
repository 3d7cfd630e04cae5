"""`twin` as a person runs it: global options anywhere, an example in every --help, text for people and the HTTP
API's JSON with --json, exit codes 0/1/2, one clear line on error, nothing half-added."""
from __future__ import annotations

import io
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import MOVE, PORTO, chat
from test_server import start_server, stop_server

from twinfs import EndUser, Memory, Phase, Settings
from twinfs.cli import COMMANDS, main, parse, parser
from twinfs.models import AddRequest, StatusRequest

ROOT = Path(__file__).resolve().parents[1]
ALICE = EndUser(org="acme", project="app", account="alice")
WHERE = "Where does Alice live?"


def twin_process(*args: str, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess:
    environ = {**os.environ, "PYTHONPATH": str(ROOT), "TWIN_READING": "0", **env}
    return subprocess.run([sys.executable, "-m", "twinfs.cli", *args], input=stdin, capture_output=True, text=True,
                          env=environ, timeout=300)


@pytest.fixture
def twin(capsys, monkeypatch):
    """`twin ARGS…` in this process (the embedder is loaded once): (exit code, stdout, stderr)."""
    monkeypatch.setenv("TWIN_READING", "0")

    def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
        capsys.readouterr()
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse: --help (0) and usage errors (2)
            code = exc.code
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture(scope="module")
def home(tmp_path_factory, embedder):
    """alice of acme.app: the seed's move to Lisbon and the Porto plan, read by the rules reader and folded."""
    home = tmp_path_factory.mktemp("cli") / "home"
    items = chat("c1", MOVE) + [PORTO]
    settings = Settings(home=home, quiet_seconds=0, fold_seconds=0)
    with Memory(settings, embedder=embedder) as memory:
        memory.add(ALICE, AddRequest(items=items, wait=True))
        memory.idle(60)
        phases = memory.status(ALICE, StatusRequest(ids=[i["id"] for i in items])).phases
    assert set(phases.values()) == {Phase.folded}
    return home


def walk(commands=COMMANDS, words: tuple[str, ...] = ()):
    """(words naming the command, the command) for every command and subcommand."""
    for command in commands:
        yield (*words, command.name), command
        yield from walk(command.sub, (*words, command.name))


def without_globals(tokens: list[str]) -> list[str]:
    out, skip = [], False
    for token in tokens:
        if skip:
            skip = False
        elif token in ("--home", "--org", "--project"):
            skip = True
        elif token != "--json":
            out.append(token)
    return out


LEAVES = [(w, c) for w, c in walk() if not c.sub]


GLOBAL = ["--home", "/tmp/h", "--org", "acme", "--project", "app", "--json"]


@pytest.mark.parametrize("words,command", LEAVES, ids=[" ".join(w) for w, _ in LEAVES])
def test_global_options_go_before_after_or_between_the_words_of_every_command(words, command):
    rest = without_globals(shlex.split(command.example)[1:])[len(words):]
    for argv in ([*GLOBAL, *words, *rest], [*words, *rest, *GLOBAL], [words[0], *GLOBAL, *words[1:], *rest]):
        args = parse(argv)
        assert args.command is command, argv
        assert (args.home, args.org, args.project, args.json) == ("/tmp/h", "acme", "app", True), argv
    args = parse([*words, *rest])
    assert (args.home, args.org, args.project, args.json) == (None, None, None, False)


@pytest.mark.parametrize("words,command", list(walk()), ids=[" ".join(w) for w, _ in walk()])
def test_every_help_ends_with_a_one_line_example_that_parses(words, command, twin):
    code, out, _ = twin(*words, "--help")
    assert code == 0
    assert out.rstrip().splitlines()[-1] == f"example: {command.example}"
    tokens = shlex.split(command.example)
    assert tokens[0] == "twin" and tuple(without_globals(tokens[1:])[:len(words)]) == words
    if not command.sub:
        assert parse(tokens[1:]).command is command


def test_every_command_has_a_readme_entry():
    readme = (ROOT / "README.md").read_text()
    for words, _ in walk():
        assert f"twin {' '.join(words)}" in readme or f"twin --home ./twin-home {' '.join(words)}" in readme, words


def test_a_command_answers_for_people_and_with_json_as_the_http_api(home, twin):
    """The same questions through the CLI (text, then --json) and through `twin serve` on that home."""
    asks = [("search", ["search", "--account", "alice", WHERE], {"query": WHERE}),
            ("search", ["search", "--account", "alice", WHERE, "--fast"], {"query": WHERE, "fast": True}),
            ("search", ["search", "--account", "alice", "Porto", "--after", "2026-10-02"],
             {"query": "Porto", "after": "2026-10-02"}),
            ("status", ["status", "--account", "alice", "msg-001", "nope"], {"ids": ["msg-001", "nope"]}),
            ("grep", ["grep", "--account", "alice", "Lisbon"], {"pattern": "Lisbon"}),
            ("read", ["read", "--account", "alice", "pages/alice-chen.md"], {"path": "pages/alice-chen.md"}),
            ("history", ["history", "--account", "alice", "Alice Chen"], {"subject": "Alice Chen"})]
    texts, answers = [], []
    for _, argv, _ in asks:
        code, out, err = twin("--home", str(home), *argv, "--org", "acme", "--project", "app")
        assert code == 0, err
        texts.append(out)
        code, out, err = twin(*argv, "--json", "--home", str(home), "--org", "acme", "--project", "app")
        assert code == 0, err
        answers.append(json.loads(out))
    server = start_server(home, TWIN_READING="0")
    try:
        with server.client(server.read, account="alice") as client:
            for (route, _, body), answer in zip(asks, answers, strict=False):
                r = client.post(f"/v1/memory/{route}", json=body)
                assert r.status_code == 200, r.text
                assert r.json() == answer, route
    finally:
        stop_server(server)
    brief, fast, ranked, status, grep, page, history = texts
    assert brief.startswith("known\n  ") and "Alice Chen · home_city: Lisbon" in brief
    assert "\n\nfacts\n  " in brief and "[records/th_" in brief
    assert "\n\nhits (" in brief and "\n  1. passages/memory/messages/th_" in brief
    assert "**Alice Chen** 09:30 · I just moved to Lisbon" in brief
    verdict = "yes" if answers[0]["held"] else "no: the memory may not answer this"
    assert brief.rstrip().splitlines()[-1] == f"answers the question: {verdict}"
    assert "answers the question" not in fast and "\n\nhits (" in fast  # fast: no model filter, no verdict
    assert not ranked.startswith("known") and "passages/memory/documents/" in ranked and "Day 1: train" in ranked
    assert status.splitlines() == ["id       phase", "msg-001  folded", "nope     unknown"]
    assert grep and all(re.match(r"^passages/memory/\S+/p_\d{4}\.md:\d+: .*Lisbon", line) for line in grep.splitlines())
    assert page.startswith("---\nsubject: Alice Chen\n") and page == answers[5]["content"]
    assert history.splitlines()[0] == "Alice Chen" and history.splitlines()[1].split() == \
        ["said", "happened", "attribute", "value", "records"] and "Lisbon" in history


def test_lineage_correct_and_forget_read_as_text(home, tmp_path, twin):
    import shutil

    copy = tmp_path / "home"
    shutil.copytree(home, copy)
    at = ["--home", str(copy), "--org", "acme", "--project", "app"]
    code, out, _ = twin(*at, "history", "--account", "alice", "Alice Chen", "--attribute", "home_city", "--json")
    record = json.loads(out)["values"][0]["records"][0]
    code, out, err = twin(*at, "lineage", "--account", "alice", record)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith(f"{record}  [records/th_") and "turns" in lines and "commits" in lines
    assert any("read: " in line for line in lines) and any("msg-001" in line for line in lines)
    code, out, err = twin("correct", "--account", "alice", record, "--reason", "she moved again", "--value",
                          "Porto", *at)
    assert code == 0, err
    assert out.startswith(f"retracted {record}; replaced by ") and "(commit " in out
    code, out, err = twin(*at, "forget", "--account", "alice", "msg-003", "nope")
    assert code == 0, err
    assert out.splitlines() == [f"forgot 1 item: msg-003 (commit {out.split('commit ')[1][:12]}; history "
                                "rewritten)", "unknown: nope"]


def test_add_and_keys_as_processes(tmp_path):
    home = tmp_path / "home"
    made = twin_process("init", "--home", str(home))
    assert made.returncode == 0 and made.stdout == f"twin home ready at {home.resolve()}\n"
    lines = "\n".join(json.dumps(i) for i in chat("c1", MOVE[:2]))
    added = twin_process("--org", "acme", "add", "--account", "alice", "--quiet", "-", "--home", str(home),
                         stdin=lines)
    assert added.returncode == 0, added.stderr
    assert added.stdout == "added 2 items (2 landed)\n"
    assert (home / "users" / "acme.default.alice" / ".git").is_dir()
    key = twin_process("keys", "create", "--home", str(home), "--org", "acme", "--project", "app", "--role", "read")
    assert key.returncode == 0, key.stderr
    token = key.stdout.strip()
    assert token.startswith("tm_") and key.stdout == f"{token}\n" and "shown once" in key.stderr
    assert token not in (home / "keys.json").read_text()  # only the hash is kept


def test_add_json_is_the_http_answer_after_landing(tmp_path, twin):
    lines = "\n".join(json.dumps(i) for i in chat("c1", MOVE))
    code, out, err = twin("add", "--account", "bob", "--quiet", "-", "--json", "--home", str(tmp_path), stdin=lines)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["event"].startswith("ev_") and answer["ids"] == ["msg-001", "msg-002", "msg-003"]
    assert answer["phases"] == {"msg-001": "landed", "msg-002": "landed", "msg-003": "landed"}


def test_add_with_read_reads_and_folds_before_it_returns(tmp_path, twin, monkeypatch):
    """Without a server a one-shot add would leave its items landed for good: --read reads and folds them now."""
    monkeypatch.setenv("TWIN_READING", "1")
    lines = "\n".join(json.dumps(i) for i in chat("c1", MOVE))
    at = ["--home", str(tmp_path), "--org", "acme", "--project", "app"]
    code, out, err = twin("add", "--account", "alice", "--read", "--quiet", "--json", "-", *at, stdin=lines)
    assert code == 0, err
    assert set(json.loads(out)["phases"].values()) == {"folded"}
    code, out, err = twin("history", "--account", "alice", "Alice Chen", *at)
    assert code == 0 and "Lisbon" in out, (out, err)
    assert any((tmp_path / "users" / "acme.app.alice" / "pages").glob("*.md"))


def test_an_on_off_setting_that_is_neither_stops_with_one_line(tmp_path, twin, monkeypatch):
    monkeypatch.setenv("TWIN_READING", "maybe")
    code, out, err = twin("status", "--account", "alice", "m1", "--home", str(tmp_path))
    assert code == 1 and out == "" and err == "twin: TWIN_READING='maybe' is neither on (1, true, yes, on) nor off " \
        "(0, false, no, off)\n"


def test_output_into_a_pipe_closed_early_is_no_error(home):
    """`twin search … | head -c 10`: the reader goes away before twin writes; no traceback, exit 0."""
    environ = {**os.environ, "PYTHONPATH": str(ROOT), "TWIN_READING": "0"}
    p = subprocess.Popen([sys.executable, "-m", "twinfs.cli", "--home", str(home), "--org", "acme", "--project", "app",
                          "search", "--account", "alice", WHERE, "--json"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=environ)
    p.stdout.close()  # long before the answer is written
    _, err = p.communicate(timeout=300)
    assert p.returncode == 0 and b"Traceback" not in err and b"Broken pipe" not in err, err.decode()


def test_serve_on_a_port_in_use_exits_1_with_one_line(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = twin_process("--home", str(tmp_path / "home"), "serve", "--port", str(port))
    assert out.returncode == 1, out.stderr
    assert out.stderr.strip().splitlines()[-1] == f"twin: cannot serve on 127.0.0.1:{port}: address already in use"
    assert "startup complete" not in out.stderr  # refused before the app starts


def test_keys_list_filter_and_revoke(tmp_path, twin):
    at = ["--home", str(tmp_path)]
    made = {}
    for org in ("acme", "globex"):
        code, out, err = twin("keys", "create", "--json", "--org", org, "--project", "app", "--role", "write", *at)
        assert code == 0, err
        made[org] = json.loads(out)
    code, out, _ = twin("--org", "acme", "keys", "list", *at)
    assert code == 0 and made["acme"]["id"] in out and made["globex"]["id"] not in out
    assert out.splitlines()[0].split() == ["id", "org.project", "role", "created"]
    code, out, _ = twin("keys", "list", "--json", *at)
    assert [json.loads(line)["id"] for line in out.splitlines()] == [made["acme"]["id"], made["globex"]["id"]]
    assert twin("keys", "revoke", made["acme"]["id"], *at)[:2] == (0, f"revoked {made['acme']['id']}\n")
    code, _, err = twin("keys", "revoke", made["acme"]["id"], *at)
    assert code == 1 and err == f"twin: no key '{made['acme']['id']}'\n"


def test_reindex_every_end_user_or_those_of_one_org(home, tmp_path, twin):
    import shutil

    copy = tmp_path / "home"
    shutil.copytree(home, copy)
    shutil.copytree(copy / "users" / "acme.app.alice", copy / "users" / "globex.app.alice")
    code, out, err = twin("reindex", "--quiet", "--home", str(copy))
    assert code == 0, err
    assert [line.split(":")[0] for line in out.splitlines()] == ["acme.app.alice", "globex.app.alice"]
    code, out, err = twin("--org", "globex", "reindex", "--quiet", "--json", "--home", str(copy))
    assert code == 0, err
    answers = [json.loads(line) for line in out.splitlines()]
    assert [a["user"] for a in answers] == ["globex.app.alice"] and answers[0]["passages"] == 2


@pytest.mark.parametrize("args,words", [
    (("read", "--account", "alice", "../../keys.json"), "leaves the vault"),
    (("search", "--account", "nobody", "x"), "no memory for end user 'nobody' yet (org 'acme', project 'app', home "),
    (("search", "--account", "alice", "x", "--before", "2026-02-30"), "not a real day"),
    (("status", "--account", "../x", "m1"), "--account '../x' is not a usable id"),
    (("grep", "--account", "alice", "([", "--regex"), "not a valid regular expression"),
    (("add", "--account", "alice", "/nonexistent/items.jsonl"), "/nonexistent/items.jsonl: no such file"),
])
def test_an_error_of_the_input_or_the_service_exits_1_with_one_line(home, twin, args, words):
    code, out, err = twin("--home", str(home), "--org", "acme", "--project", "app", *args)
    assert code == 1 and out == "" and err.startswith("twin: ") and words in err and len(err.splitlines()) == 1, err
    code, out, err = twin("--home", str(home), "--org", "acme", "--project", "app", "--json", *args)
    body = json.loads(out)
    assert code == 1 and set(body) == {"error"} and words in body["error"]["message"]


def test_a_service_error_exits_1_not_2(tmp_path):
    """A full landing queue is the service's 503: an error (1), not a usage error."""
    lines = json.dumps(chat("c1", [("m1", "user", "hello")])[0])
    out = twin_process("--home", str(tmp_path), "add", "--account", "bob", "-", stdin=lines, TWIN_MAX_PENDING="0")
    assert out.returncode == 1, out.stderr
    assert out.stderr.strip().splitlines()[-1].startswith("twin: the landing queue of end user 'bob' is full")


@pytest.mark.parametrize("args,words", [
    (("search", "x"), "the following arguments are required: --account"),
    (("search", "--account", "alice", "x", "--frobnicate"), "unrecognized arguments: --frobnicate"),
    (("keys", "create", "--role", "write"), "--org is required"),
    (("keys", "create", "--org", "acme", "--project", "app", "--role", "admin"), "invalid choice: 'admin'"),
    (("nope",), "invalid choice: 'nope'"),
    ((), "the following arguments are required: COMMAND"),
])
def test_a_usage_error_exits_2(twin, tmp_path, args, words):
    code, _, err = twin("--home", str(tmp_path), *args)
    assert code == 2 and words in err and err.startswith("usage: twin"), err


def test_add_refuses_a_bad_line_naming_it_and_adds_nothing(tmp_path, twin):
    good = json.dumps(chat("c1", [("m1", "user", "hello")])[0])
    bad = json.dumps({**chat("c1", [("m2", "user", "x")])[0], "at": "not a time"})
    code, _, err = twin("--home", str(tmp_path), "add", "--account", "bob", "-", stdin=f"{good}\n{bad}\n")
    assert code == 1
    assert err.strip().startswith("twin: - line 2: at: ") and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "users" / "local.default.bob").exists()


def test_an_id_on_two_lines_is_an_edit_as_over_http(tmp_path, twin):
    first, later = (json.dumps(chat("c1", [("m1", "user", text)])[0])
                    for text in ("I live in Berlin", "I live in Rome"))
    code, _, err = twin("--home", str(tmp_path), "add", "--account", "bob", "--quiet", "-", stdin=f"{first}\n{later}\n")
    assert code == 0, err
    code, out, _ = twin("--home", str(tmp_path), "grep", "--account", "bob", "live in", "--json")
    assert "Rome" in out and "Berlin" not in out


def test_the_twin_script_is_the_same_main():
    """pyproject's `twin` entry point is this main."""
    import tomllib

    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]["twin"] == "twinfs.cli:main"
    assert parser().prog == "twin"
