"""`./run demo`: sample_vault/ adopted into a fresh home (a git repository, its indexes built), the server on a
loopback port, and real searches over HTTP.

python -m twinfs.demo [--home DIR] [--serve]
"""
from __future__ import annotations

import argparse
import json
import socket
import threading
import time
from contextlib import suppress

import httpx

from .client import nodelay_transport
from .keys import Keys
from .memory import Memory
from .models import EndUser, StatusRequest
from .sample import FOLDER, USER, adopt, items
from .settings import Settings

QUESTIONS = [
    ({"query": "Where does Alice live?"}, "the brief"),
    ({"query": "What is the plan for the Porto trip?", "fast": True}, "fast: the ranking, no model"),
    ({"query": "Porto", "scope": "passages/memory", "after": "2026-10-02"}, "scoped to passages/memory after 2 Oct"),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def until_folded(memory: Memory, user: EndUser, ids: list[str], timeout: float = 180) -> dict[str, int]:
    """Reading and folding run in the background; the demo waits for them so its brief shows facts."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        phases = memory.status(user, StatusRequest(ids=ids)).phases
        if all(p.value == "folded" for p in phases.values()):
            break
        time.sleep(0.2)
    counts: dict[str, int] = {}
    for p in memory.status(user, StatusRequest(ids=ids)).phases.values():
        counts[p.value] = counts.get(p.value, 0) + 1
    return counts


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", default="twin-demo", help="where the demo vault goes (default ./twin-demo)")
    ap.add_argument("--serve", action="store_true", help="keep serving after the searches, until Ctrl-C")
    ap.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    args = ap.parse_args(argv)

    import uvicorn

    from twinfs.server.app import create_app

    settings = Settings.from_env(home=args.home)
    user = USER
    root = settings.home / "users" / user.dirname
    t0 = time.perf_counter()
    if (root / ".git").exists():
        print(f"demo vault: {root.resolve()} (adopted before; kept as it is)")
    else:
        adopt(settings.home)
        print(f"demo vault: {root.resolve()}, adopted {FOLDER.name}/ (git init, one commit)")
    token, _ = Keys(settings.home).create(user.org, user.project, "write")
    memory = Memory(settings).start()
    stats = memory.reindex(user)
    print(f"indexes built from the files in {time.perf_counter() - t0:.1f} s: {stats['passages']} passages, "
          f"{stats['records']} records ({stats['embedded']} segments embedded)")
    ids = [i.id for i in items()]
    phases = until_folded(memory, user, ids)
    records = sum(len(json.loads(f.read_text())) for f in root.glob("records/*.json"))
    reader = memory.reading.reader.name if memory.reading else "off"
    print(f"read into {records} records, folded into {len(list(root.glob('pages/*.md')))} pages "
          f"after {time.perf_counter() - t0:.1f} s (phases: {phases}; reader: {reader})")

    port = args.port or free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(settings, memory), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    headers = {"Authorization": f"Bearer {token}", "X-Twin-Account": user.account}
    with httpx.Client(base_url=base, headers=headers, timeout=60, transport=nodelay_transport()) as client:
        for _ in range(200):
            try:
                if client.get("/v1/health").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.05)
        for body, label in QUESTIONS:
            t0 = time.perf_counter()
            response = client.post("/v1/memory/search", json=body)
            ms = (time.perf_counter() - t0) * 1000
            print(f"\nPOST /v1/memory/search {json.dumps(body)}  ({label}; {response.status_code}, {ms:.0f} ms)")
            answer = response.json()
            for hit in answer.get("hits", []):
                hit["text"] = hit["text"][:140].replace("\n", " ") + ("…" if len(hit["text"]) > 140 else "")
                for noisy in ("roles", "said", "score", "content", "path"):
                    hit.pop(noisy, None)
            answer["facts"] = [f["text"] for f in answer.get("facts", [])[:4]]
            print(json.dumps(answer, indent=1, ensure_ascii=False))
    if args.serve:
        print(f"\nserving {base} — try:\n  curl -s {base}/v1/memory/search -H 'Authorization: Bearer {token}' "
              f"-H 'X-Twin-Account: alice' -H 'Content-Type: application/json' -d '{{\"query\": \"Where does Alice "
              "live?\"}'\nCtrl-C stops.")
        with suppress(KeyboardInterrupt):
            thread.join()
    server.should_exit = True
    thread.join(timeout=10)
    memory.close()


if __name__ == "__main__":
    main()
