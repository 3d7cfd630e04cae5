"""The MCP face, through the official SDK's client: in process, and `twin mcp` as a real stdio subprocess."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
from conftest import MOVE, PORTO, chat
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from twinfs.server.mcp_server import TOOLS, make_server

ROOT = Path(__file__).resolve().parents[1]


async def call(client: Client, name: str, arguments: dict):
    result = await client.call_tool(name, arguments)
    text = result.content[0].text if result.content else ""
    return result.is_error, (text if result.is_error else json.loads(text))


def test_the_tools_answer_as_the_http_api_does_and_bad_calls_say_why(memory, alice):
    async def session():
        async with Client(make_server(memory, alice)) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert set(tools) == set(TOOLS)
            assert "query" in tools["search"].input_schema["properties"]
            assert "fast" not in tools["search"].input_schema["properties"]  # the tool always gives the brief

            failed, added = await call(client, "add", {"items": chat("c1", MOVE) + [PORTO], "wait": True})
            assert not failed and added["ids"] == ["msg-001", "msg-002", "msg-003", "doc-porto"]
            assert set(added["phases"].values()) == {"landed"}
            failed, brief = await call(client, "search", {"query": "Where does Alice live?"})
            assert not failed and brief["hits"][0]["turns"][0] == "msg-001" and brief["filtered"] is True
            failed, found = await call(client, "grep", {"pattern": "Douro"})
            assert not failed and found["lines"][0]["path"].startswith("passages/memory/documents/")
            failed, read = await call(client, "read", {"path": found["lines"][0]["path"]})
            assert not failed and "boat tour on the Douro" in read["content"]
            failed, status = await call(client, "status", {"ids": ["msg-001", "nope"]})
            assert not failed and status["phases"] == {"msg-001": "landed", "nope": "unknown"}

            for name, arguments, words in [
                ("add", {"items": [{"id": "x", "kind": "message", "text": "hi", "at": "yesterday"}]}, "items[0].at"),
                ("read", {"path": "../../keys.json"}, "leaves the vault"),
                ("search", {"query": "Lisbon", "fast": True}, "fast: not an argument of the search tool"),
                ("search", {}, "query"),
                ("erase", {}, "no tool named 'erase'"),
            ]:
                failed, text = await call(client, name, arguments)
                assert failed and words in text, (name, text)
            failed, _ = await call(client, "status", {"ids": ["msg-001"]})
            assert not failed  # the session goes on after bad calls

    anyio.run(session)


def test_twin_mcp_serves_over_stdio(tmp_path):
    env = {**os.environ, "TWIN_READING": "0", "PYTHONPATH": str(ROOT)}
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "twinfs.cli", "--home", str(tmp_path / "home"),
                                         "mcp", "--account", "alice"],
                                   env=env, cwd=str(ROOT))

    async def session():
        async with Client(params, read_timeout_seconds=120) as client:
            assert {t.name for t in (await client.list_tools()).tools} == set(TOOLS)
            failed, added = await call(client, "add", {"items": chat("c1", MOVE), "wait": True})
            assert not failed and set(added["phases"].values()) == {"landed"}
            failed, brief = await call(client, "search", {"query": "Which pet does Alice have?"})
            assert not failed and "Miso" in brief["hits"][0]["text"]

    anyio.run(session)
    assert (tmp_path / "home" / "users" / "local.default.alice" / ".git").is_dir()
