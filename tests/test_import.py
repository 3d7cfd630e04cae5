"""`twin import`: ChatGPT's and Claude's data exports and JSONL, on small exports written for these tests in each
shape (a ChatGPT tree with an edited branch, system and tool nodes, a hidden message and an image; a Claude export
with content blocks; the export's zip), through the real CLI, Memory, git and indexes."""
from __future__ import annotations

import json
import zipfile

import pytest

from twinfs import EndUser, Memory, Settings, git_history
from twinfs.cli import main
from twinfs.importers import chatgpt, claude
from twinfs.importers.source import BadExport
from twinfs.models import GrepRequest, ReadRequest, StatusRequest

ALICE = EndUser(org="local", project="default", account="alice")


def node(nid, parent, children, role=None, text=None, at=None, **extra):
    message = None
    if role:
        content = extra.pop("content", {"content_type": "text", "parts": [text]})
        message = {"id": nid, "author": {"role": role}, "create_time": at, "content": content,
                   "metadata": extra.pop("metadata", {})}
    return {"id": nid, "message": message, "parent": parent, "children": children}


def chatgpt_export() -> list[dict]:
    """Conversation 1: the person edited their first question, so the tree forks at the root's system node;
    current_node is the end of the edited branch."""
    t = 1_780_000_000.0
    mapping = {
        "root": node("root", None, ["sys"]),
        "sys": node("sys", "root", ["u1", "u1b"], "system", "You are ChatGPT.", t),
        "u1": node("u1", "sys", ["a1"], "user", "I live in Leeds and keep bees.", t + 10),  # the branch left
        "a1": node("a1", "u1", [], "assistant", "Bees in Leeds, lovely.", t + 20),
        "u1b": node("u1b", "sys", ["tool1"], "user", "I moved to Galway last spring and I keep bees.", t + 30),
        "tool1": node("tool1", "u1b", ["a1b"], "tool", "search results", t + 35),
        "a1b": node("a1b", "tool1", ["hid"], "assistant", "Galway has a beekeepers' club.", t + 40),
        "hid": node("hid", "a1b", ["img"], "user", "context", t + 45,
                    metadata={"is_visually_hidden_from_conversation": True}),
        "img": node("img", "hid", ["u2"], "user", None, t + 50,
                    content={"content_type": "multimodal_text", "parts": [{"asset_pointer": "file-1"}]}),
        "u2": node("u2", "img", [], "user", "My dog is called Biscuit.", t + 60),
    }
    second = {"r": node("r", None, ["x"]), "x": node("x", "r", [], "user", "Remind me to call the vet.", t + 900)}
    return [{"id": "conv-1", "title": "Bees", "create_time": t, "mapping": mapping, "current_node": "u2"},
            {"conversation_id": "conv-2", "title": "Vet", "create_time": t + 900, "mapping": second,
             "current_node": "x"}]


def claude_export() -> list[dict]:
    return [{"uuid": "c-1", "name": "Running", "created_at": "2026-05-01T10:00:00Z", "chat_messages": [
        {"uuid": "m-1", "sender": "human", "text": "", "created_at": "2026-05-01T10:00:00Z",
         "content": [{"type": "text", "text": "I run with the Hackney harriers on Tuesdays."}]},
        {"uuid": "m-2", "sender": "assistant", "text": "That sounds fun!", "created_at": "2026-05-01T10:00:05Z",
         "content": [{"type": "tool_use", "name": "x"}]},
        {"uuid": "m-3", "sender": "human", "text": "   ", "created_at": "2026-05-01T10:01:00Z", "content": []},
    ]}]


def run(tmp_path, *args: str) -> int:
    return main(["--home", str(tmp_path / "home"), "import", *args, "--account", "alice", "--quiet"])


def memory_of(tmp_path) -> Memory:
    return Memory(Settings(home=tmp_path / "home", reading=False, watch=False), read_only=True)


def test_chatgpt_follows_the_kept_branch_and_skips_what_is_not_the_persons_words(tmp_path, capsys):
    raw = chatgpt_export()
    conv = chatgpt.conversation(raw[0], "test")
    assert [m.id for m in conv.messages] == ["u1b", "a1b", "u2"]  # the edited branch, root to current_node
    assert conv.skipped == {"system messages": 1, "tool messages": 1, "hidden messages": 1,
                            "messages without text": 1}
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps(raw), encoding="utf-8")
    assert run(tmp_path, "chatgpt", str(export)) == 0
    out = capsys.readouterr().out
    assert "2 conversations, 4 turns (4 new, 0 already there)" in out and "left out: 1 system messages" in out
    with memory_of(tmp_path).start() as m:
        assert m.grep(ALICE, GrepRequest(pattern="moved to Galway")).found == 1
        assert m.grep(ALICE, GrepRequest(pattern="Leeds")).found == 0  # the branch the person left
        lines = m.grep(ALICE, GrepRequest(pattern="Biscuit")).lines
        assert lines[0].path.startswith("passages/chatgpt/messages/")
        phases = m.status(ALICE, StatusRequest(ids=["chatgpt:u1b", "chatgpt:x", "chatgpt:u1"])).phases
        # landed at least: the import's own reader may have read it before the command ended (a slow machine)
        assert phases["chatgpt:u1b"].value in ("landed", "read", "folded") and phases["chatgpt:u1"].value == "unknown"


def test_a_second_import_adds_nothing_and_a_zip_is_read_like_its_file(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TWIN_READING", "0")  # the reader's commits land when they will; the import's own are counted
    export = tmp_path / "export.zip"
    with zipfile.ZipFile(export, "w") as z:
        z.writestr("chatgpt-2026/conversations.json", json.dumps(chatgpt_export()))
        z.writestr("chatgpt-2026/user.json", "{}")
    assert run(tmp_path, "chatgpt", str(export)) == 0
    assert "(4 new, 0 already there)" in capsys.readouterr().out
    with memory_of(tmp_path).start() as m:
        log = git_history.log(m.space(ALICE).vault, limit=1000)
        commits = len(log)
        assert not [c for c in log if c.message.startswith("read:")]
    assert run(tmp_path, "chatgpt", str(export)) == 0
    assert "(0 new, 4 already there)" in capsys.readouterr().out
    with memory_of(tmp_path).start() as m:
        assert len(git_history.log(m.space(ALICE).vault, limit=1000)) == commits  # nothing written the second time


def test_claude_content_blocks_and_senders(tmp_path, capsys):
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps(claude_export()), encoding="utf-8")
    assert run(tmp_path, "claude", str(export)) == 0
    out = capsys.readouterr().out
    assert "1 conversation, 2 turns" in out and "left out: 1 messages without text" in out
    with memory_of(tmp_path).start() as m:
        [line] = m.grep(ALICE, GrepRequest(pattern="Hackney")).lines
        assert line.path.startswith("passages/claude/messages/")
        assert m.grep(ALICE, GrepRequest(pattern="That sounds fun")).found == 1  # `text` when no text block


def claude_branched() -> list[dict]:
    """The person edited their second message: m-2 and its answer are the branch left, m-2b and a-2b the kept one
    (current_leaf_message_uuid)."""
    root = "00000000-0000-4000-8000-000000000000"

    def said(uuid, parent, sender, text, minute):
        return {"uuid": uuid, "parent_message_uuid": parent, "sender": sender, "text": text,
                "created_at": f"2026-05-02T09:{minute:02d}:00Z"}

    return [{"uuid": "c-2", "name": "Moving", "created_at": "2026-05-02T09:00:00Z",
             "current_leaf_message_uuid": "a-2b", "chat_messages": [
                 said("m-1", root, "human", "I am planning a move this summer.", 0),
                 said("a-1", "m-1", "assistant", "Where to?", 1),
                 said("m-2", "a-1", "human", "Probably Lisbon.", 2),
                 said("a-2", "m-2", "assistant", "Lisbon is sunny.", 3),
                 said("m-2b", "a-1", "human", "To Porto, near my sister.", 4),
                 said("a-2b", "m-2b", "assistant", "Porto is lovely.", 5)]}]


def test_claude_keeps_the_branch_that_ends_at_the_current_leaf_and_names_the_person(tmp_path, capsys):
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps(claude_branched()), encoding="utf-8")
    assert main(["--home", str(tmp_path / "home"), "import", "claude", str(export), "--account", "alice",
                 "--name", "Alice Chen", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "1 conversation, 4 turns" in out and "2 messages on a branch not kept" in out
    with memory_of(tmp_path).start() as m:
        assert m.grep(ALICE, GrepRequest(pattern="Lisbon")).found == 0
        [line] = m.grep(ALICE, GrepRequest(pattern="Porto, near my sister")).lines
        passage = m.read(ALICE, ReadRequest(path=line.path)).content
        assert "Alice Chen" in passage  # the person's turns carry the name given


def test_a_name_no_turn_can_carry_stops_before_anything_is_added(tmp_path, capsys):
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps(claude_export()), encoding="utf-8")
    assert main(["--home", str(tmp_path / "home"), "import", "claude", str(export), "--account", "alice",
                 "--name", "Alice\nChen", "--quiet"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--name" in err[0] and "Traceback" not in err[0]


def test_a_claude_branch_that_loops_is_a_bad_export():
    looped = claude_branched()[0]
    looped["chat_messages"][0]["parent_message_uuid"] = "a-2b"
    with pytest.raises(BadExport, match="loop"):
        claude.conversation(looped, "conversations.json: conversation 1")


def test_a_truncated_export_keeps_what_was_read_whole_and_a_rerun_of_the_whole_file_finishes(tmp_path, capsys):
    whole = json.dumps(chatgpt_export())
    cut = tmp_path / "cut.json"
    cut.write_text(whole[:whole.index('"conversation_id"') + 30], encoding="utf-8")  # inside conversation 2
    assert run(tmp_path, "chatgpt", str(cut)) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"twin: {cut}: not valid JSON, or cut short, at byte")
    with memory_of(tmp_path).start() as m:
        assert m.grep(ALICE, GrepRequest(pattern="moved to Galway")).found == 1  # conversation 1 stays
        assert m.grep(ALICE, GrepRequest(pattern="vet")).found == 0
    full = tmp_path / "conversations.json"
    full.write_text(whole, encoding="utf-8")
    assert run(tmp_path, "chatgpt", str(full)) == 0
    assert "(1 new, 3 already there)" in capsys.readouterr().out


@pytest.mark.parametrize("content, says", [
    ("this is not json", "not valid JSON"),
    ('{"conversations": []}', "does not begin with a list"),
    ('[{"title": "no mapping"}]', "conversation 1: not a ChatGPT conversation"),
    ("", "the file is empty"),
])
def test_bad_input_is_one_line_naming_the_file(tmp_path, capsys, content, says):
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    assert run(tmp_path, "chatgpt", str(bad)) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err and says in err and "Traceback" not in err


def test_a_zip_without_the_conversations_and_a_missing_file(tmp_path, capsys):
    empty = tmp_path / "other.zip"
    with zipfile.ZipFile(empty, "w") as z:
        z.writestr("notes.txt", "hi")
    assert run(tmp_path, "claude", str(empty)) == 1
    assert "the zip holds no conversations.json" in capsys.readouterr().err
    assert run(tmp_path, "claude", str(tmp_path / "nope.json")) == 1
    assert "no such file" in capsys.readouterr().err


def test_jsonl_lines_are_items_and_a_bad_line_stops_there_keeping_those_before(tmp_path, capsys):
    good = [{"id": f"j{i}", "kind": "message", "role": "user", "text": f"jsonl line {i} about sourdough",
             "at": "2026-10-01T09:00:00Z"} for i in range(3)]
    path = tmp_path / "items.jsonl"
    path.write_text("\n".join(json.dumps(g) for g in good) + '\n{"id": "j9", "kind": "message"}\n', encoding="utf-8")
    assert run(tmp_path, "jsonl", str(path)) == 1
    err = capsys.readouterr().err
    assert f"{path} line 4:" in err
    with memory_of(tmp_path).start() as m:
        assert m.grep(ALICE, GrepRequest(pattern="sourdough")).found == 3


def test_a_message_past_the_longest_text_is_kept_whole_in_parts():
    from twinfs.importers.run import split

    text = "\n\n".join(f"paragraph {i} " + "x" * 30_000 for i in range(7))
    parts = split(text)
    assert len(parts) == 3 and all(len(p) <= 100_000 for p in parts)
    assert "\n\n".join(parts) == text


def test_bad_export_is_a_domain_error():
    assert issubclass(BadExport, Exception) and BadExport("x").status == 422
