"""Load on the HTTP server: N concurrent clients on loopback adding and searching across many end users.

    ./run bench load [--users 50] [--items 100] [--add-rate 0.5] [--search-rate 20] [--searchers 4] [--seconds 60]

Starts `twin serve` in a temporary home (its own process, as in production), seeds every end user with one
landed add, then for --seconds runs adds at a fixed rate (open loop, so a slow landing shows as latency
rather than as fewer adds) next to closed-loop `fast` searches, then the searches alone. Prints
add -> 202, add -> landed (polled on /v1/memory/status, as an app would) and search latencies and rates.
Every query is new text, so the embedder's query cache does not flatter the figures.
"""
from __future__ import annotations

import argparse
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from twinfs.client import nodelay_transport
from twinfs.keys import Keys

ROOT = Path(__file__).resolve().parents[1]

WORDS = ["Lisbon", "Porto", "Berlin", "river", "tram", "cat", "dog", "Miso", "train", "boat", "tour", "cellar", "flat",
         "light", "noise", "friend", "sister", "birthday", "dinner", "recipe", "garden", "bike", "office", "meeting",
         "doctor", "flight", "hotel", "museum", "concert", "book", "film", "song", "coffee", "market", "beach",
         "hiking", "rain", "winter", "summer", "school", "project", "deadline", "budget", "salary", "move", "rent"]
POLL = 0.05  # seconds between /status polls for an end user's outstanding adds


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    add_202: list[float] = field(default_factory=list)
    landed: list[float] = field(default_factory=list)
    search: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    unlanded: int = 0

    def note(self, series: list[float], value: float) -> None:
        with self.lock:
            series.append(value)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors[what] = self.errors.get(what, 0) + 1


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def items(user: int, batch: int, n: int, rng: random.Random) -> list[dict]:
    """n messages of one new conversation, a minute apart, ~150-250 characters each."""
    out = []
    for i in range(n):
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 35)))
        out.append({"id": f"u{user}-b{batch}-m{i}", "kind": "message", "conversation": f"chat-{batch}",
                    "role": "user" if i % 2 == 0 else "assistant", "name": "Alice" if i % 2 == 0 else None,
                    "text": f"Note {i} of batch {batch}: {words}.",
                    "at": f"2026-{1 + batch % 12:02d}-{1 + batch % 28:02d}T{i // 60 % 24:02d}:{i % 60:02d}:00Z"})
    return [{k: v for k, v in item.items() if v is not None} for item in out]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(home: Path, port: int, torch_threads: int | None = None, env: dict[str, str] | None = None,
                 group: bool = False, wait: float = 120) -> subprocess.Popen:
    """`twin serve` on this home and port, once it answers; `group`: in a process group of its own, so that
    killing the group kills its git children too."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", **(env or {})}
    if torch_threads:
        env["OMP_NUM_THREADS"] = str(torch_threads)  # torch reads it at import: its intra-op threads per call
    log = open(home / "server.log", "ab")  # noqa: SIM115 -- the server's stdout: it lives as long as the child
    proc = subprocess.Popen([sys.executable, "-m", "twinfs.cli", "--home", str(home), "serve", "--port", str(port)],
                            stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT, start_new_session=group)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"the server exited:\n{(home / 'server.log').read_text()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/v1/health", timeout=2).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.2)
    proc.kill()
    sys.exit(f"the server did not start in {wait:.0f} s")


class Landings:
    """Adds answered 202 but not yet landed, per end user; one poller asks /status for each user's ids."""

    def __init__(self, url: str, token: str, tally: Tally):
        self.url, self.token, self.tally = url, token, tally
        self.lock = threading.Lock()
        self.waiting: dict[int, dict[str, float]] = {}  # user -> event -> when the add was sent
        self.stop = threading.Event()
        self.give_up = float("inf")

    def expect(self, user: int, event: str, sent: float) -> None:
        with self.lock:
            self.waiting.setdefault(user, {})[event] = sent

    def run(self) -> None:
        with httpx.Client(base_url=self.url, transport=nodelay_transport(),
                          headers={"Authorization": f"Bearer {self.token}"}, timeout=30) as c:
            while not self.stop.is_set() or self.waiting:
                with self.lock:
                    todo = {u: list(evs) for u, evs in self.waiting.items() if evs}
                for user, events in todo.items():
                    r = c.post("/v1/memory/status", json={"ids": events}, headers={"X-Twin-Account": f"user_{user}"})
                    now = time.perf_counter()
                    if r.status_code != 200:
                        self.tally.error(f"status {r.status_code}")
                        continue
                    for event, phase in r.json()["phases"].items():
                        if phase != "accepted":
                            with self.lock:
                                sent = self.waiting[user].pop(event)
                            self.tally.note(self.tally.landed, now - sent)
                with self.lock:
                    self.waiting = {u: evs for u, evs in self.waiting.items() if evs}
                if self.stop.is_set() and time.monotonic() > self.give_up:
                    with self.lock:
                        self.tally.unlanded = sum(len(e) for e in self.waiting.values())
                        self.waiting = {}
                time.sleep(POLL)

    def finish(self, grace: float) -> None:
        self.give_up = time.monotonic() + grace
        self.stop.set()


def searcher(url: str, token: str, users: int, until: float, tally: Tally, seed: int, every: float = 0.0) -> int:
    """Searches as fast as answers come back, or one each `every` seconds (a paced client)."""
    rng = random.Random(seed)
    done = 0
    due = time.monotonic() + rng.random() * every
    with httpx.Client(base_url=url, transport=nodelay_transport(), headers={"Authorization": f"Bearer {token}"},
                      timeout=30) as c:
        while time.monotonic() < until:
            if every:
                time.sleep(max(0.0, due - time.monotonic()))
                due += every
            query = f"{' '.join(rng.choice(WORDS) for _ in range(rng.randint(2, 6)))} {rng.randint(0, 10**6)}"
            t = time.perf_counter()
            r = c.post("/v1/memory/search", json={"query": query, "fast": True},
                       headers={"X-Twin-Account": f"user_{rng.randrange(users)}"})
            elapsed = time.perf_counter() - t
            if r.status_code == 200:
                tally.note(tally.search, elapsed)
                done += 1
            else:
                tally.error(f"search {r.status_code}")
    return done


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--users", type=int, default=50, help="end users (default 50)")
    p.add_argument("--items", type=int, default=100, help="items per add (default 100)")
    p.add_argument("--add-rate", type=float, default=0.5,
                   help="adds per second, all end users together (default 0.5: 50 items/s)")
    p.add_argument("--adders", type=int, default=4, help="most adds in flight at once (default 4)")
    p.add_argument("--searchers", type=int, default=4, help="concurrent search clients (default 4)")
    p.add_argument("--search-rate", type=float, default=20.0,
                   help="searches per second, all searchers together (default 20; 0: each searches back to back, "
                        "a stress run that saturates the cores)")
    p.add_argument("--torch-threads", type=int, default=None,
                   help="OMP_NUM_THREADS for the server (default: unset, torch uses every core per call)")
    p.add_argument("--seconds", type=float, default=60, help="length of the mixed phase; the search-only phase "
                                                             "takes half of it (default 60)")
    args = p.parse_args()
    if not (1 <= args.users <= 1000 and 1 <= args.items <= 1000 and 0 < args.add_rate <= 50
            and 0 <= args.search_rate <= 500
            and 1 <= args.adders <= 64 and 0 <= args.searchers <= 64 and 1 <= args.seconds <= 600):
        p.error("out of bounds: users 1-1000, items 1-1000, add-rate 0-50, adders 1-64, searchers 0-64, "
                "seconds 1-600")

    with tempfile.TemporaryDirectory(prefix="twin-load-") as tmp:
        home = Path(tmp)
        token, _ = Keys(home).create("bench", "load", "write")
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}  torch threads: "
              f"{args.torch_threads or 'default'}")
        print(f"cores: {os.cpu_count()}  users: {args.users}  items/add: {args.items}  add rate: {args.add_rate}/s  "
              f"adders: {args.adders}  searchers: {args.searchers}  search rate: {args.search_rate or 'unpaced'}  "
              f"seconds: {args.seconds:g}", flush=True)
        server = start_server(home, port, args.torch_threads)
        try:
            run(url, token, args)
        finally:
            server.terminate()
            server.wait(30)


def run(url: str, token: str, args: argparse.Namespace) -> None:
    rng = random.Random(7)
    t = time.perf_counter()

    def seed(user: int) -> None:
        with httpx.Client(base_url=url, transport=nodelay_transport(), headers={"Authorization": f"Bearer {token}"},
                          timeout=60) as c:
            r = c.post("/v1/memory/add", json={"items": items(user, 0, args.items, random.Random(user)), "wait": True},
                       headers={"X-Twin-Account": f"user_{user}"})
            assert r.status_code == 202, r.text

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(seed, range(args.users)))
    seeded = time.perf_counter() - t
    print(f"seeded {args.users} end users x {args.items} items in {seeded:.1f} s "
          f"({args.users * args.items / seeded:.0f} items/s landed)", flush=True)

    # the mixed phase: adds at a fixed rate, searches as fast as the clients go
    tally = Tally()
    landings = Landings(url, token, tally)
    poller = threading.Thread(target=landings.run)
    poller.start()
    local = threading.local()
    clients: list[httpx.Client] = []

    def add(user: int, batch: int) -> None:
        if not hasattr(local, "client"):
            local.client = httpx.Client(base_url=url, transport=nodelay_transport(),
                                        headers={"Authorization": f"Bearer {token}"}, timeout=60)
            clients.append(local.client)
        body = {"items": items(user, batch, args.items, random.Random(batch))}
        sent = time.perf_counter()
        r = local.client.post("/v1/memory/add", json=body, headers={"X-Twin-Account": f"user_{user}"})
        if r.status_code != 202:
            tally.error(f"add {r.status_code}")
            return
        tally.note(tally.add_202, time.perf_counter() - sent)
        landings.expect(user, r.json()["event"], sent)

    start = time.monotonic()
    until = start + args.seconds
    with ThreadPoolExecutor(args.searchers or 1) as searchers, ThreadPoolExecutor(args.adders) as adders:
        every = args.searchers / args.search_rate if args.search_rate else 0.0
        found = [searchers.submit(searcher, url, token, args.users, until, tally, n, every)
                 for n in range(args.searchers)]
        batch = 0
        while time.monotonic() < until:
            batch += 1
            adders.submit(add, rng.randrange(args.users), batch)
            time.sleep(max(0.0, start + batch / args.add_rate - time.monotonic()))
        mixed_searches = sum(f.result() for f in found)
    landings.finish(grace=30)
    poller.join()
    for client in clients:
        client.close()
    mixed = Tally(search=list(tally.search))

    # the searches alone
    alone = Tally()
    seconds = args.seconds / 2
    t = time.perf_counter()
    with ThreadPoolExecutor(args.searchers or 1) as searchers:
        until = time.monotonic() + seconds
        alone_searches = sum(f.result() for f in [searchers.submit(searcher, url, token, args.users, until, alone,
                                                                   100 + n, every) for n in range(args.searchers)])
    alone_seconds = time.perf_counter() - t

    ms = 1000.0
    print()
    print(f"add of {args.items} items -> 202   n={len(tally.add_202)}  p50 {pct(tally.add_202, 50) * ms:.1f} ms  "
          f"p95 {pct(tally.add_202, 95) * ms:.1f} ms  max {max(tally.add_202, default=0) * ms:.1f} ms")
    print(f"add -> landed (polled)     n={len(tally.landed)}  p50 {pct(tally.landed, 50) * ms:.0f} ms  "
          f"p95 {pct(tally.landed, 95) * ms:.0f} ms  max {max(tally.landed, default=0) * ms:.0f} ms"
          + (f"  ({tally.unlanded} not landed 30 s after the phase)" if tally.unlanded else ""))
    print(f"search fast, with adds    n={len(mixed.search)}  p50 {pct(mixed.search, 50) * ms:.1f} ms  "
          f"p95 {pct(mixed.search, 95) * ms:.1f} ms  {mixed_searches / args.seconds:.0f} req/s")
    print(f"search fast, alone        n={len(alone.search)}  p50 {pct(alone.search, 50) * ms:.1f} ms  "
          f"p95 {pct(alone.search, 95) * ms:.1f} ms  {alone_searches / alone_seconds:.0f} req/s")
    print(f"mixed phase: {(len(tally.add_202) + mixed_searches) / args.seconds:.0f} adds+searches/s "
          f"(besides /status polls), {len(tally.add_202) * args.items / args.seconds:.0f} items accepted/s")
    if tally.errors or alone.errors:
        print(f"errors: {tally.errors} {alone.errors}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (other processes on the machine "
          "count too)")
    print("command: ./run bench load " + " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
