"""One home under load and many kills (issue #35): recovery that keeps moving, git that stays clean, every
accepted item found.

    ./run bench crash_long [--items 15000] [--kills 20] [--writers 4] [--seed 11] [--greps 1000] [--keep DIR]

One `twin serve` (its own process group) on one home; `--writers` clients add to three end users (the first gets
half the adds), 1 to 10 items an add, every turn's time random within one hour (so turns arrive out of time order
into threads of thousands of turns), 15% of items re-sending an earlier id with new text. Each round adds
items/kills items, then SIGKILLs the server's process group while adds are still coming in, restarts it and,
with no more adds, watches the backlog (status of every accepted add, once a second) until it is empty: the time
from restart to an empty backlog, and the longest stretch in which no add landed while some waited. Then `git
fsck --strict` (reflogs included) on every vault. At the end every accepted item's latest text (or a sample of
`--greps`) is grepped for, and the passage grep names is read: misses are counted.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from bench.load import free_port, start_server
from twinfs.keys import Keys

USERS = ("busy", "calm", "quiet")
T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
SERVER_ENV = {"TWIN_QUIET_SECONDS": "0", "TWIN_FOLD_SECONDS": "0", "TWIN_WATCH": "1"}
WORDS = ("trains", "the garden", "Lisbon", "a recipe", "the boiler", "a concert", "the dentist", "the budget")


@dataclass
class Seen:
    lock: threading.Lock = field(default_factory=threading.Lock)
    accepted: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)  # (event, user, id -> text)
    unanswered: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    ids: dict[str, list[str]] = field(default_factory=lambda: {u: [] for u in USERS})
    items: int = 0


def writer(url: str, token: str, rng: random.Random, stop: threading.Event, seen: Seen) -> None:
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=60) as c:
        while not stop.is_set():
            user = USERS[0] if rng.random() < 0.5 else rng.choice(USERS[1:])
            items = {}
            for _ in range(rng.randint(1, 10)):
                with seen.lock:
                    known = seen.ids[user]
                    resent = known and rng.random() < 0.15
                    ident = rng.choice(known) if resent else f"i{len(known)}-{rng.getrandbits(32):08x}"
                    if ident not in known:
                        known.append(ident)
                items[ident] = {"id": ident, "kind": "message", "conversation": f"c{rng.randrange(3)}",
                                "role": rng.choice(["user", "assistant"]),
                                "text": f"{user} {ident} says v{rng.getrandbits(40):010x} about {rng.choice(WORDS)}.",
                                "at": (T0 + timedelta(seconds=rng.uniform(0, 3600))).isoformat()}
            with seen.lock:
                for item in items.values():
                    seen.unanswered.setdefault((user, item["id"]), set()).add(item["text"])
            try:
                r = c.post("/v1/memory/add", json={"items": list(items.values())}, headers={"X-Twin-Account": user})
            except httpx.TransportError:
                return
            if r.status_code == 202:
                with seen.lock:
                    for item in items.values():
                        seen.unanswered[(user, item["id"])].discard(item["text"])
                    seen.accepted.append((r.json()["event"], user, {i: v["text"] for i, v in items.items()}))
                    seen.items += len(items)
            elif r.status_code != 503:
                return


def backlog(c: httpx.Client, waiting: dict[str, set[str]]) -> int:
    """Asks status of the adds still waiting; keeps only those not landed. Returns how many wait."""
    for user, events in waiting.items():
        ordered = sorted(events)
        for i in range(0, len(ordered), 500):
            try:
                r = c.post("/v1/memory/status", json={"ids": ordered[i:i + 500]}, headers={"X-Twin-Account": user})
            except httpx.TransportError:
                continue
            if r.status_code == 200:
                events -= {e for e, p in r.json()["phases"].items() if p not in ("accepted", "unknown")}
    return sum(len(e) for e in waiting.values())


def recover(url: str, token: str, seen: Seen, timeout: float) -> dict:
    """Watch the backlog once a second until it is empty: figures of the recovery."""
    waiting: dict[str, set[str]] = {u: set() for u in USERS}
    for event, user, _ in seen.accepted:
        waiting[user].add(event)
    start = time.monotonic()
    last_change, longest, first = start, 0.0, None
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=60) as c:
        left = backlog(c, waiting)
        first = left
        while left and time.monotonic() - start < timeout:
            time.sleep(1.0)
            now_left = backlog(c, waiting)
            now = time.monotonic()
            if now_left < left:
                last_change = now
                left = now_left
            longest = max(longest, now - last_change)
    return {"backlog_at_restart": first, "left": left, "to_empty_s": round(time.monotonic() - start, 1),
            "longest_stall_s": round(longest, 1)}


def fsck(home: Path) -> tuple[list[str], list[str]]:
    """`git fsck --strict` (reflogs included) of every vault: (failures that stay, failures gone 10 s later).
    The server is running: its upkeep's gc may be repacking, and fsck racing a repack can miss objects."""
    lasting, passing = [], []
    for vault in sorted((home / "users").iterdir()):
        first = ""
        for attempt in range(2):
            done = subprocess.run(["git", "-C", str(vault), "fsck", "--strict", "--no-dangling"],
                                  capture_output=True, text=True)
            said = (done.stdout + done.stderr).strip()
            if not done.returncode and "error" not in said:
                if attempt:
                    passing.append(f"{vault.name}: {first[:300]}")
                break
            first = said
            time.sleep(10)
        else:
            lasting.append(f"{vault.name}: {said[:300]}")
    return lasting, passing


def find_all(url: str, token: str, seen: Seen, sample: int, rng: random.Random) -> dict:
    latest: dict[tuple[str, str], tuple[str, str]] = {}
    for event, user, texts in seen.accepted:
        for ident, text in texts.items():
            if (user, ident) not in latest or latest[(user, ident)][0] < event:
                latest[(user, ident)] = (event, text)
    keys = sorted(latest)
    chosen = keys if sample <= 0 or sample >= len(keys) else rng.sample(keys, sample)
    misses, read_misses, took = [], [], []
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=120) as c:
        for user, ident in chosen:
            texts = {latest[(user, ident)][1], *seen.unanswered.get((user, ident), set())}
            start = time.monotonic()
            r = c.post("/v1/memory/grep", json={"pattern": ident},
                       headers={"X-Twin-Account": user})
            took.append(time.monotonic() - start)
            lines = r.json().get("lines", []) if r.status_code == 200 else []
            hit = [ln for ln in lines if any(t in ln["text"] for t in texts)]
            if not hit:
                misses.append(f"{user}:{ident}")
                continue
            r = c.post("/v1/memory/read", json={"path": hit[0]["path"]}, headers={"X-Twin-Account": user})
            if r.status_code != 200 or f"^{ident}" not in r.json()["content"]:
                read_misses.append(f"{user}:{ident}")
    took.sort()
    return {"greps": len(chosen), "grep_misses": len(misses), "read_misses": len(read_misses),
            "miss_examples": (misses + read_misses)[:5],
            "grep_p50_ms": round(1000 * took[len(took) // 2], 1) if took else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--items", type=int, default=15000)
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--writers", type=int, default=4)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--greps", type=int, default=1000, help="0: every accepted item")
    ap.add_argument("--recovery-timeout", type=float, default=900)
    ap.add_argument("--keep", help="the home's folder (kept)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    home = Path(args.keep or tempfile.mkdtemp(prefix="twin-crash-long-"))
    home.mkdir(parents=True, exist_ok=True)
    token, _ = Keys(home).create("acme", "app", "write")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    seen = Seen()
    server = start_server(home, port, env=SERVER_ENV, group=True, wait=900)
    rounds = []
    for kill in range(1, args.kills + 1):
        target = args.items * kill // args.kills
        stop = threading.Event()
        writers = [threading.Thread(target=writer, args=(url, token, random.Random(rng.getrandbits(32)), stop, seen))
                   for _ in range(args.writers)]
        for w in writers:
            w.start()
        while seen.items < target and all(w.is_alive() for w in writers):
            time.sleep(0.05)
        os.killpg(server.pid, signal.SIGKILL)  # adds still coming in, landing under way
        server.wait(30)
        stop.set()
        for w in writers:
            w.join(60)
        restarted = time.monotonic()
        server = start_server(home, port, env=SERVER_ENV, group=True, wait=900)
        listening = time.monotonic() - restarted
        figures = recover(url, token, seen, args.recovery_timeout)
        bad, passing = fsck(home)
        row = {"kill": kill, "items": seen.items, "adds": len(seen.accepted), "restart_to_listening_s":
               round(listening, 1), **figures, "fsck_failures": len(bad), "fsck": bad[:2],
               "fsck_passed_10s_later": passing[:2]}
        rounds.append(row)
        print(json.dumps(row), flush=True)
    found = find_all(url, token, seen, args.greps, rng)
    print(json.dumps(found), flush=True)
    server.send_signal(signal.SIGTERM)
    server.wait(120)
    print(f"\n{len(rounds)} kills, {seen.items} items accepted in {len(seen.accepted)} adds; restart -> empty backlog: "
          f"median {sorted(r['to_empty_s'] for r in rounds)[len(rounds) // 2]} s, slowest "
          f"{max(r['to_empty_s'] for r in rounds)} s; longest stall {max(r['longest_stall_s'] for r in rounds)} s; "
          f"vaults failing fsck: {sum(r['fsck_failures'] for r in rounds)}; never landed: "
          f"{sum(r['left'] for r in rounds)}; grep misses {found['grep_misses']} of {found['greps']}, read misses "
          f"{found['read_misses']}")
    print(f"load {os.getloadavg()[0]:.1f}; home {home}; command: ./run bench crash_long --items {args.items} "
          f"--kills {args.kills} --writers {args.writers} --seed {args.seed} --greps {args.greps}")


if __name__ == "__main__":
    main()
