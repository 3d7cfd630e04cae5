"""TwinClient against the real server on a loopback socket."""
from __future__ import annotations

import pytest
from conftest import MOVE, PORTO, chat
from pydantic import ValidationError
from test_server import start_server, stop_server

from twinfs import Forbidden, Invalid, NotFound, Phase, Unauthorized
from twinfs.client import TwinClient


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = start_server(tmp_path_factory.mktemp("client-home"), TWIN_QUIET_SECONDS="0", TWIN_FOLD_SECONDS="0")
    yield srv
    stop_server(srv)


def test_the_whole_round_trip(server):
    with TwinClient(server.url, server.write, account="alice") as memory:
        added = memory.add(chat("c1", MOVE) + [PORTO], wait=True)
        assert added.phases["msg-001"] in (Phase.landed, Phase.read, Phase.folded)
        hits = memory.search("Where does Alice live?", fast=True).hits
        assert "Lisbon" in hits[0].text and hits[0].content == "stored"
        ranked = memory.search("Porto", scope="passages/memory", after="2026-10-02")
        assert ranked.hits[0].turns == ["doc-porto"] and ranked.known is None
        assert memory.grep("Douro").lines[0].path.startswith("passages/memory/documents/")
        assert "msg-001" in memory.read(hits[0].path).content
        assert memory.status(["msg-001", "nope"]).phases["nope"] == Phase.unknown
        assert memory.forget(["doc-porto"]).forgotten == ["doc-porto"]
        assert memory.grep("Douro").found == 0


def test_errors_come_back_as_the_librarys_errors(server):
    with TwinClient(server.url, server.read, account="alice") as reader:
        with pytest.raises(Forbidden):
            reader.add(chat("c1", MOVE))
        with pytest.raises(NotFound, match="no memory for end user 'nobody' yet"):
            reader.search("x", account="nobody")
        with pytest.raises(Invalid):
            reader.read("../../keys.json")
        with pytest.raises(ValidationError):
            reader.search("x", before="2026-02-30")  # refused before it is sent
    with TwinClient(server.url, "tm_not-a-key", account="alice") as stranger, pytest.raises(Unauthorized):
        stranger.status(["msg-001"])
