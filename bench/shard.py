"""The front door's price: `fast` searches of many end users sent to three `twin serve` directly, then through the
shipped nginx configuration (deploy/nginx/twinfs.conf) in front of them, on loopback.

    ./run bench shard [--users 30] [--clients 4] [--seconds 20]

Starts three servers on their own homes with one keys.json (reading off: the spine), seeds every end user with
one landed add of 20 messages through the front door, then runs closed-loop searches from --clients threads
for --seconds straight to the server that holds each end user (found from the X-Twin-Server header) and for as
long through the front door, in four turns each after a warm-up of both. Every query is new text. Prints both
latencies, the rates, and what the front door adds. All processes share this machine's cores, so this measures
nginx's overhead, not scale-out.
"""
from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from front import NGINX, start_front, stop_front
from served import start_server, stop_server

from bench.load import WORDS, pct
from twinfs.client import nodelay_transport
from twinfs.keys import Keys

ROOT = Path(__file__).resolve().parents[1]

ROUNDS = 4


def searches(urls: dict[str, str], token: str, clients: int, seconds: float) -> tuple[list[float], int]:
    """Closed-loop fast searches for `seconds`, each end user asked at the URL given for it; (latencies ms, errors)."""
    accounts = list(urls)
    times: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client(seed: int) -> None:
        rng = random.Random(seed)
        with httpx.Client(transport=nodelay_transport(), timeout=30,
                          headers={"Authorization": f"Bearer {token}"}) as http:
            while time.monotonic() < stop:
                account = rng.choice(accounts)
                query = " ".join(rng.sample(WORDS, 4)) + f" {rng.random():.6f}"
                start = time.perf_counter()
                r = http.post(f"{urls[account]}/v1/memory/search", json={"query": query, "fast": True},
                              headers={"X-Twin-Account": account})
                took = (time.perf_counter() - start) * 1000
                with lock:
                    if r.status_code == 200:
                        times.append(took)
                    else:
                        errors[0] += 1

    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(client, range(clients)))
    return times, errors[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--users", type=int, default=30)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=20)
    args = ap.parse_args()
    if NGINX is None:
        sys.exit("nginx is not installed: apt-get install nginx")
    root = Path(tempfile.mkdtemp(prefix="twin-shard-"))
    homes = [root / f"home{n}" for n in (1, 2, 3)]
    for home in homes:
        home.mkdir()
    token, _ = Keys(homes[0]).create("acme", "app", "write")
    for home in homes[1:]:
        shutil.copy(homes[0] / "keys.json", home / "keys.json")
    with ThreadPoolExecutor(3) as pool:
        servers = list(pool.map(lambda h: start_server(h, TWIN_READING="0", TWIN_WATCH="0"), homes))
    front = start_front(root / "nginx", servers)
    try:
        direct: dict[str, str] = {}
        rng = random.Random(0)
        for n in range(args.users):
            account = f"user-{n:03d}"
            items = [{"id": f"{account}-{i}", "kind": "message", "conversation": "chat", "role": "user",
                      "text": " ".join(rng.sample(WORDS, 8)), "at": "2026-10-01T09:30:00Z"} for i in range(20)]
            r = httpx.post(f"{front.url}/v1/memory/add", json={"items": items, "wait": True}, timeout=60,
                           headers={"Authorization": f"Bearer {token}", "X-Twin-Account": account})
            r.raise_for_status()
            direct[account] = "http://" + r.headers["X-Twin-Server"]
        spread = {u.rsplit(":", 1)[1]: list(direct.values()).count(u) for u in sorted(set(direct.values()))}
        through = {a: front.url for a in direct}
        searches(direct, token, args.clients, 3)  # warm-up: every server's first searches are slow
        searches(through, token, args.clients, 3)
        straight, door, straight_errors, door_errors = [], [], 0, 0
        for _ in range(ROUNDS):  # taken in turns, so that a change in the machine's load hits both alike
            times, errors = searches(direct, token, args.clients, args.seconds / ROUNDS)
            straight, straight_errors = straight + times, straight_errors + errors
            times, errors = searches(through, token, args.clients, args.seconds / ROUNDS)
            door, door_errors = door + times, door_errors + errors
    finally:
        stop_front(front)
        for server in servers:
            stop_server(server)
        shutil.rmtree(root, ignore_errors=True)
    print(f"./run bench shard --users {args.users} --clients {args.clients} --seconds {args.seconds:g}")
    print("end users per server (by port):", ", ".join(f"{port}: {count}" for port, count in spread.items()))
    for name, times, errors in (("direct", straight, straight_errors), ("front door", door, door_errors)):
        print(f"{name:>10}: {len(times) / args.seconds:6.1f} searches/s, p50 {pct(times, 50):6.1f} ms, "
              f"p95 {pct(times, 95):6.1f} ms, errors {errors}")
    print(f"the front door adds p50 {pct(door, 50) - pct(straight, 50):+.1f} ms, "
          f"p95 {pct(door, 95) - pct(straight, 95):+.1f} ms")


if __name__ == "__main__":
    main()
