"""The HTTP API fuzzed against its own OpenAPI document (schemathesis, every check, every phase) on a real
`twin serve` over loopback: about 1,200 cases here (every operation's coverage cases, a few dozen of fuzzing and
stateful runs), 10,000 in bench/fuzz.py."""
from __future__ import annotations

import pytest
from test_server import start_server, stop_server

from bench.fuzz import fuzz


@pytest.mark.slow
def test_1000_fuzzed_requests_break_nothing_and_every_202_lands():
    figures = fuzz(examples=30, seed=1)
    print(figures.summary())  # shown with -s or on failure
    assert figures.cases >= 1000, figures.summary()
    assert figures.by_phase["coverage"] and figures.by_phase["fuzzing"] and figures.by_phase["stateful"]
    assert not figures.server_errors, figures.output[-4000:]
    assert not figures.failures, figures.output[-4000:]  # no schema violation either way, no status undocumented
    assert not figures.errors, (figures.errors, figures.output[-4000:])
    assert figures.accepted >= 50  # the links and positive cases did add items
    assert figures.landed == figures.accepted, figures.unlanded


def test_the_longest_ids_of_any_characters_land(tmp_path):
    """128 dots encode to a 389-byte file name: item file names are shortened (paths.item_filename), so it lands."""
    server = start_server(tmp_path / "home")
    try:
        items = [{"id": c * 128, "kind": "message", "conversation": "long", "role": "user",
                  "text": f"an id of 128 {c!r}", "at": "2026-10-01T09:30:00Z"} for c in ".:@-_a"]
        with server.client(server.write) as c:
            r = c.post("/v1/memory/add", json={"items": items, "wait": True})
            assert r.status_code == 202, r.text
            phases = c.post("/v1/memory/status", json={"ids": [i["id"] for i in items]}).json()["phases"]
    finally:
        stop_server(server)
    assert set(phases.values()) == {"landed"}, phases
