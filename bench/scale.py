"""Scale on one machine: a home of many end users, and one end user with a very large memory.

    ./run bench scale build [--passages 1000,10000,100000] [--users 100,1000,10000]
    ./run bench scale run   [--passages 1000,10000,100000] [--users 100,1000,10000] [--skip-build]

`build` makes, once, in $TWIN_BENCH_CACHE (default ~/.cache/twinfs/bench/scale), outside the checkout:
- `big/`: one end user (`bench.scale.big`) whose conversations come from `chat.life` (varied turns, sessions
  hours apart), added 500 turns at a time, landed, read and folded, until it holds the largest --passages;
  a copy `big-<P>/` is kept as it passes each smaller size. Embedding ~400,000 turns takes hours on 2 cores, so
  it is resumable: `progress.json` says how many conversations were added (an add is durable once accepted, and
  re-adding an item unchanged does nothing), so a killed build goes on where it stopped.
- `template/`: one end user of a few hundred turns, landed, read and folded; `home-<N>/`: N end users cloned
  from it (files hard-linked where nothing writes them in place; `.twin/` and `.git/index` copied), since
  embedding a home of 10,000 end users would take days.

`run` measures, at each size (see bench/README.md, "Scale"):
- a home of N end users: `twin serve` from start to its first answer on a cold end user, and its threads, open
  files and RSS idle and after searching every end user once (the LRU of open end users at its default);
- one end user of P passages (a copy, so the cache stays as built): add -> landed p50/p95 of adds of 10 turns to
  its conversations, search `fast` and the brief (with and without `before`) p50/p95, `git status` and
  `git log -- <file>`, reindex time (the meaning lane dropped, so every passage is embedded again).
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from pathlib import Path

from bench.chat import life
from bench.scale_homes import (
    BIG,
    ROOT,
    build,
    cache_root,
    clone_vault,
    ready,
    sizes,
)
from twinfs import EndUser, Memory, Settings, fsmonitor
from twinfs.models import AddRequest

# -- measuring ------------------------------------------------------------------------------------------------

QUESTIONS = ("Where did Alice go with {name}?", "What did I say about {thing}?", "When is my {relation} moving?",
             "How much did dinner in {place} cost?", "What job did I start in {place}?",
             "What do you remember about {name}?", "Did I finish {thing}?", "What was I {feeling} about?")


def questions(n: int, seed: int = 1) -> list[str]:
    from bench.chat import _fill

    rng = random.Random(seed)
    return [rng.choice(QUESTIONS).format(**_fill(rng)) for _ in range(n)]


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")


def ms(values: list[float]) -> str:
    return f"p50 {pct(values, 50) * 1000:.1f} ms / p95 {pct(values, 95) * 1000:.1f} ms (n={len(values)})"


def process(pid: int) -> dict[str, int]:
    """Threads, open files, RSS (MB) and inotify watches of a live process."""
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    fds = os.listdir(f"/proc/{pid}/fd")
    watches = 0
    for fd in fds:
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == "anon_inode:inotify":
                watches += Path(f"/proc/{pid}/fdinfo/{fd}").read_text().count("inotify wd:")
        except OSError:
            continue
    return {"threads": int(status["Threads"]), "fds": len(fds), "rss_mb": int(status["VmRSS"].split()[0]) // 1024,
            "watches": watches}


def measure_home(cache: Path, n: int, report: list[str]) -> None:
    """`twin serve` on a home of n end users: start to first answer, then every end user searched once."""
    import httpx

    from bench.load import free_port
    from twinfs.client import nodelay_transport

    home = cache / f"home-{n}"
    token = ready(home)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    probe_user = f"probe{time.time_ns()}"
    log_file = open(home / "server.log", "ab")  # noqa: SIM115 -- the server's stdout: it lives as long as the child
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "twinfs.cli", "--home", str(home), "serve", "--port", str(port)],
                            stdout=log_file, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    headers = {"Authorization": f"Bearer {token}"}
    try:
        with httpx.Client(base_url=url, transport=nodelay_transport(), headers=headers, timeout=120) as c:
            cold = f"u{n - 1:05d}"
            while True:
                try:
                    r = c.post("/v1/memory/search", json={"query": "Where did Alice go?", "fast": True},
                               headers={"X-Twin-Account": cold})
                    if r.status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if proc.poll() is not None or time.perf_counter() - t0 > 300:
                    sys.exit(f"the server did not answer: {(home / 'server.log').read_text()[-2000:]}")
                time.sleep(0.05)
            first = time.perf_counter() - t0
            assert r.json()["hits"], r.text
            # the reader loads with the first reading: an add to an end user new to this run (a home measured
            # again already holds an earlier run's, whose add changes nothing, so nothing would be read), read
            # before it is measured; its folder goes with the run
            probe = {"items": life(10**6, "probe")[:12], "wait": True}
            c.post("/v1/memory/add", json=probe, headers={"X-Twin-Account": probe_user})
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                r = c.post("/v1/memory/status", json={"ids": [probe["items"][0]["id"]]},
                           headers={"X-Twin-Account": probe_user})
                if r.json()["phases"][probe["items"][0]["id"]] in ("read", "folded"):
                    break
                time.sleep(0.2)
            time.sleep(2)
            idle = process(proc.pid)
            asked = questions(n)
            local = threading.local()

            def touch(i: int) -> float:  # four clients at once, each end user once
                if not hasattr(local, "client"):
                    local.client = httpx.Client(base_url=url, transport=nodelay_transport(), headers=headers,
                                                timeout=120)
                t = time.perf_counter()
                r = local.client.post("/v1/memory/search", json={"query": asked[i], "fast": True},
                                      headers={"X-Twin-Account": f"u{i:05d}"})
                assert r.status_code == 200, r.text
                return time.perf_counter() - t

            t = time.perf_counter()
            with ThreadPoolExecutor(4) as pool:
                times = list(pool.map(touch, range(n)))
            touching = time.perf_counter() - t
            touched = process(proc.pid)
            again = []
            for i in random.Random(2).sample(range(n), min(n, 200)):  # closed again since (LRU), reopened
                t = time.perf_counter()
                c.post("/v1/memory/search", json={"query": asked[i], "fast": True},
                       headers={"X-Twin-Account": f"u{i:05d}"})
                again.append(time.perf_counter() - t)
            hot = []
            for _ in range(50):  # one end user kept open
                t = time.perf_counter()
                c.post("/v1/memory/search", json={"query": asked[0], "fast": True},
                       headers={"X-Twin-Account": "u00000"})
                hot.append(time.perf_counter() - t)
    finally:
        proc.terminate()
        proc.wait(60)
        for folder in (home / "users").glob(f"*.{probe_user}"):
            shutil.rmtree(folder)
    report.append(f"home of {n} end users: start to first answer on a cold end user {first:.2f} s; idle "
                  f"{idle['threads']} threads, {idle['fds']} files, {idle['rss_mb']} MB, {idle['watches']} watches; "
                  f"after searching every end user once: {touched['threads']} threads, {touched['fds']} files, "
                  f"{touched['rss_mb']} MB, {touched['watches']} watches; "
                  f"first search of each (4 clients, {touching:.0f} s in all) {ms(times)}; again after being closed "
                  f"{ms(again)}; one kept open {ms(hot)}")
    print(report[-1], flush=True)


def measure_reopen(cache: Path, n: int, report: list[str]) -> None:
    """In process: an end user closed to make room, opened again (its state and both lanes) and searched."""
    from twinfs.models import SearchRequest, StatusRequest

    home = cache / f"home-{n}"
    ready(home)
    users = [EndUser(org="bench", project="scale", account=f"u{i:05d}") for i in range(min(n, 300))]
    with Memory(Settings(home=home, watch=False, open_users=8)) as memory:
        memory.warm()
        for user in users:  # prepared once (what the owner does at a vault's first open), then closed
            memory.search(user, SearchRequest(query="warm", fast=True))
        memory.idle()
        opens, searches = [], []
        for user in users[:200]:
            t = time.perf_counter()
            memory.status(user, StatusRequest(ids=["x"]))
            opens.append(time.perf_counter() - t)
            memory.spaces.peek(user.dirname).close()  # only the state was opened: both lanes too, below
            t = time.perf_counter()
            memory.search(user, SearchRequest(query="Where did Alice go with Mei?", fast=True))
            searches.append(time.perf_counter() - t)
    report.append(f"reopen in process (home of {n}, 8 kept open): status of a closed end user {ms(opens)}; "
                  f"a fast search that opens both lanes {ms(searches)}")
    print(report[-1], flush=True)


def overlap(memory: Memory, user: EndUser, asked: list[str]) -> str:
    """Top-10 docs of the meaning lane with its index against a flat scan of the same vectors; the lane is made
    IVF for this if it is not yet (at the size it has), so the overlap shows at every size."""
    import faiss

    from twinfs.index import Bounds, vectors

    meaning = memory.space(user).meaning
    own = meaning._index["passage"]  # each kind of doc has its own: the passages' is the big one
    flat = vectors.Vectors.__new__(vectors.Vectors)
    flat.__dict__.update(own.__dict__)
    flat.index = faiss.IndexIDMap2(faiss.IndexFlatIP(own.dim))
    flat._add_from()
    ivf = own
    if not own.ivf:
        ivf = vectors.Vectors.__new__(vectors.Vectors)
        ivf.__dict__.update(flat.__dict__)
        ivf.index, ivf.read_only = faiss.IndexIDMap2(faiss.IndexFlatIP(own.dim)), True
        ivf._add_from()
        ivf._to_ivf()
    shared, took = [], {"flat": [], "ivf": []}
    try:
        for q in asked:
            tops = {}
            for name, index in (("flat", flat), ("ivf", ivf)):
                meaning._index["passage"] = index
                t = time.perf_counter()
                tops[name] = [d for d, _, _ in meaning.search(q, Bounds(type="passage"), limit=10)]
                took[name].append(time.perf_counter() - t)
            shared.append(len(set(tops["flat"]) & set(tops["ivf"])) / max(1, len(tops["flat"])))
    finally:
        meaning._index["passage"] = own
    return (f"meaning lane top-10 overlap IVF{ivf.index.nlist} nprobe {ivf.index.nprobe} vs flat over "
            f"{flat.ntotal} segments: {sum(shared) / len(shared):.3f} ({len(asked)} questions); lane search flat "
            f"{ms(took['flat'])}, IVF {ms(took['ivf'])}; the lane here is {'IVF' if own.ivf else 'flat'}")


def git_ms(vault: Path, *args: str) -> float:
    times = []
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run(["git", "-C", str(vault), *args], capture_output=True, check=True)
        times.append(time.perf_counter() - t)
    return sorted(times)[1] * 1000


def measure_big(cache: Path, size: int, report: list[str], reading: bool = True) -> None:
    """One end user of `size` passages, in process, on a copy of the built vault (reading off: a copy whose
    backlog was not read yet, measured without reading it meanwhile)."""
    from twinfs.models import SearchRequest

    built = cache / f"big-{size}"
    work = cache / f"work-{size}"
    shutil.rmtree(work, ignore_errors=True)
    (work / "users").mkdir(parents=True)
    clone_vault(built / "users" / BIG.dirname, work / "users" / BIG.dirname)
    ready(work)
    vault = work / "users" / BIG.dirname
    # packed, as a vault's upkeep keeps it: the build's adds of 500 turns leave up to 200 commits of loose objects
    subprocess.run(["git", "-C", str(vault), "gc", "--quiet"], capture_output=True, check=True)
    try:
        with Memory(Settings(home=work, watch=True, reading=reading)) as memory:
            memory.warm()
            rss = process(os.getpid())["rss_mb"]
            t = time.perf_counter()
            memory.search(BIG, SearchRequest(query="warm", fast=True))
            opened = time.perf_counter() - t
            grown = process(os.getpid())["rss_mb"] - rss
            space = memory.space(BIG)
            phases, records = space.state.phase_counts(), space.words.ix("record").doc_count()
            read = f"{phases.get('read', 0) + phases.get('folded', 0)} of {sum(phases.values())} items read, " \
                   f"{records} records" + ("" if reading else ", reading off")
            memory.idle()  # the first open's look for hand edits (git status)
            t = time.perf_counter()
            while space.words.untidy() and time.perf_counter() - t < 1800:  # merges a stopped build left undone
                time.sleep(1)  # run by the later lane, which waits for adds to pause: measured once they are done
            memory.idle()
            fast = []
            for q in questions(60, 3):
                t = time.perf_counter()
                memory.search(BIG, SearchRequest(query=q, fast=True))
                fast.append(time.perf_counter() - t)
            brief, before = [], []
            for n, q in enumerate(questions(40, 4)):
                t = time.perf_counter()
                memory.search(BIG, SearchRequest(query=q, **({"before": "2023-06-01"} if n % 2 else {})))
                (before if n % 2 else brief).append(time.perf_counter() - t)
            landed = []
            rng = random.Random(5)
            for k in range(30):
                conv = rng.randrange(100)
                turns = life(conv, "b")
                last = turns[-1]
                at = datetime.fromisoformat(last["at"]) + timedelta(days=1)
                items = [{**turn, "id": f"more-{k}-{i}", "at": (at + timedelta(seconds=30 * i)).isoformat()}
                         for i, turn in enumerate(turns[:10])]
                t = time.perf_counter()
                memory.add(BIG, AddRequest(items=items, wait=True))
                landed.append(time.perf_counter() - t)
            memory.idle()
            rel = next(vault.glob("passages/memory/messages/*/p_0001.md")).relative_to(vault).as_posix()
            git_ms(vault, "status", "--short")  # a first status after the adds: the monitor's token catches up
            status_ms, log_ms = git_ms(vault, "status", "--short"), git_ms(vault, "log", "--oneline", "--", rel)
            scan_ms = git_ms(vault, "-c", "core.fsmonitor=false", "status", "--short")
            monitor = f"git status {status_ms:.0f} ms with watchman (without: {scan_ms:.0f} ms)" \
                if fsmonitor.enabled(vault) else f"git status {status_ms:.0f} ms (no monitor)"
            t = time.perf_counter()
            stats = memory.reindex(BIG)
            reindexed = time.perf_counter() - t
            near = overlap(memory, BIG, questions(200, 6))
        report.append(f"one end user of {size} passages ({read}): first search (opens it) {opened:.2f} s, RSS +{grown} "
                      f"MB ({grown * 1024 / size:.1f} KB a passage); "
                      f"search fast {ms(fast)}; brief {ms(brief)}; brief with before {ms(before)}; add of 10 turns "
                      f"-> landed {ms(landed)}; {monitor}, git log -- <passage> {log_ms:.0f} ms; "
                      f"reindex with nothing changed {reindexed:.1f} s ({stats}); {near}")
        print(report[-1], flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(args: argparse.Namespace, cache: Path) -> None:
    report: list[str] = [f"{time.strftime('%Y-%m-%d %H:%M')}, load average {os.getloadavg()[0]:.1f} at start, "
                         f"{os.cpu_count()} cores"]
    print(report[0], flush=True)
    for size in sizes(args.passages):
        if (cache / f"big-{size}").exists():
            measure_big(cache, size, report, reading=not args.no_reading)
    for n in sizes(args.users):
        if (cache / f"home-{n}" / "done").exists():
            measure_home(cache, n, report)
    if sizes(args.users) and (cache / f"home-{sizes(args.users)[0]}" / "done").exists():
        measure_reopen(cache, sizes(args.users)[-1] if (cache / f"home-{sizes(args.users)[-1]}" / "done").exists()
                       else sizes(args.users)[0], report)
    report.append(f"load average at the end {os.getloadavg()[0]:.1f}; command: ./run bench scale run "
                  f"--passages {args.passages} --users {args.users}" + (" --skip-build" if args.skip_build else "")
                  + (" --no-reading" if args.no_reading else ""))
    print(report[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("build", "run"))
    ap.add_argument("--passages", default="1000,10000,100000", help="sizes of the big end user, in passages")
    ap.add_argument("--users", default="100,1000,10000", help="sizes of the home, in end users")
    ap.add_argument("--skip-build", action="store_true", help="measure only what is built already")
    ap.add_argument("--no-reading", action="store_true",
                    help="measure the big end user with reading off (a copy whose backlog is not read yet)")
    ap.add_argument("--unsettled", action="store_true",
                    help="build: copy the big end user at each size as it stands, its reading behind (reading a "
                         "100,000-passage backlog takes hours); measure such copies with --no-reading")
    args = ap.parse_args()
    # the model pass off unless asked for: checking every turn of a 100,000-passage build with Qwen would take
    # days on 2 cores, and its speed is reading_checked's to measure
    os.environ.setdefault("TWIN_READER_MODEL", "none")
    if args.what == "build" or not args.skip_build:
        build(args)
    if args.what == "run":
        measure(args, cache_root())


if __name__ == "__main__":
    main()
