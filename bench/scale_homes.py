"""The homes `./run bench scale` measures, built once and kept in $TWIN_BENCH_CACHE (default
~/.cache/twinfs/bench/scale), outside the checkout: the big end user (`big/`, a copy `big-<P>/` at each size it
passes) and homes of N end users cloned from one template (`home-<N>/`). See bench/scale.py's docstring for how."""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bench.chat import life
from twinfs import EndUser, Memory, Settings
from twinfs.keys import Keys
from twinfs.models import AddRequest

ROOT = Path(__file__).resolve().parents[1]

BIG = EndUser(org="bench", project="scale", account="big")
TEMPLATE = EndUser(org="bench", project="scale", account="template")
BATCH = 500  # turns an add while building
TEMPLATE_TURNS = 300


def cache_root() -> Path:
    if os.environ.get("TWIN_BENCH_CACHE"):
        return Path(os.environ["TWIN_BENCH_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "twinfs" / "bench" / "scale"


def sizes(raw: str) -> list[int]:
    if raw in ("", "0"):
        return []
    try:
        out = sorted({int(x.replace("_", "")) for x in raw.split(",") if x.strip()})
    except ValueError:
        sys.exit(f"sizes are whole numbers separated by commas, not {raw!r}")
    if not out or out[0] < 1:
        sys.exit("sizes must be at least 1")
    return out


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", flush=True)


def passages_of(memory: Memory, user: EndUser) -> int:
    return memory.space(user).words.ix("passage").doc_count()


def settled(memory: Memory, user: EndUser) -> None:
    """Landed, read and folded: what a copy of the vault is taken of."""
    memory.idle()
    space = memory.space(user)
    if memory.folding:
        with space.writer:
            memory.folding.fold(space, force=True)
    memory.idle()


def build_big(cache: Path, targets: list[int], settle: bool = True) -> None:
    """The big end user, up to the largest target; a copy at each smaller one (read and folded first, or with
    `settle` False taken as it stands: landed, its reading behind; measured with --no-reading)."""
    home = cache / "big"
    done_file = home / "progress.json"
    done = json.loads(done_file.read_text()) if done_file.exists() else {"conversations": 0, "turns": 0}
    wanted = [t for t in targets if not (cache / f"big-{t}").exists()]
    if not wanted:
        return
    home.mkdir(parents=True, exist_ok=True)
    with Memory(Settings(home=home, watch=False)) as memory:
        memory.warm()
        t0, turns0 = time.monotonic(), done["turns"]
        while True:
            count = passages_of(memory, BIG) if memory.space(BIG).exists else 0
            for target in [t for t in wanted if t <= count]:
                if settle:
                    log(f"{count} passages: settling (reading and folding all), then a copy as big-{target}")
                    settled(memory, BIG)
                    copy_home(home, cache / f"big-{target}")
                else:  # reading goes on meanwhile, but writes only under the writer
                    log(f"{count} passages: a copy as big-{target}, as it stands (reading behind)")
                    writer = memory.space(BIG).writer
                    writer.take_turn()
                    try:
                        copy_home(home, cache / f"big-{target}")
                    finally:
                        writer.give_turn()
                wanted.remove(target)
            if not wanted:
                break
            items = []
            while len(items) < BATCH:
                items += life(done["conversations"], "b")
                done["conversations"] += 1
            memory.add(BIG, AddRequest(items=items))
            done["turns"] += len(items)
            done_file.write_text(json.dumps(done))  # the add is durable: a build killed now lands it at start
            memory.wait(BIG, [i["id"] for i in items], timeout=3600)
            rate = (done["turns"] - turns0) / max(1e-9, time.monotonic() - t0)
            log(f"{done['turns']} turns in {done['conversations']} conversations, {count} passages "
                f"({rate:.0f} turns/s landed; load {os.getloadavg()[0]:.1f})")


def copy_home(src: Path, dst: Path) -> None:
    """A copy of a home taken while nothing writes it; made beside and renamed, so a copy is whole or absent."""
    partial = dst.with_name(dst.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    shutil.copytree(src, partial, symlinks=True)
    partial.rename(dst)


def build_template(cache: Path) -> Path:
    """One end user of a few hundred turns, settled, its git packed: what every end user of home-N is."""
    home = cache / "template"
    vault = home / "users" / TEMPLATE.dirname
    if (home / "done").exists():
        return vault
    shutil.rmtree(home, ignore_errors=True)
    with Memory(Settings(home=home, watch=False)) as memory:
        items, n = [], 0
        while len(items) < TEMPLATE_TURNS:
            items += life(n, "t")
            n += 1
        memory.add(TEMPLATE, AddRequest(items=items))
        memory.wait(TEMPLATE, [i["id"] for i in items], timeout=600)
        settled(memory, TEMPLATE)
    subprocess.run(["git", "-C", str(vault), "gc", "--quiet", "--prune=now"], check=True)
    (home / "done").write_text("")
    return vault


def clone_vault(template: Path, dst: Path) -> None:
    """Hard links for what is only ever replaced whole (git objects, the files of the memory); a copy of what
    SQLite, Whoosh and git's index write in place."""
    partial = dst.with_name(dst.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    subprocess.run(["cp", "-al", str(template), str(partial)], check=True)
    for rel in (".twin", ".git/index", ".git/config"):
        target = partial / rel
        if target.is_dir():
            shutil.rmtree(target)
            shutil.copytree(template / rel, target)
        elif target.exists():
            target.unlink()
            shutil.copy2(template / rel, target)
    for shared in partial.glob(".git/sharedindex.*"):
        shared.unlink()
        shutil.copy2(template / ".git" / shared.name, shared)
    partial.rename(dst)


def build_home(cache: Path, n: int) -> Path:
    """A home of n end users, each a clone of the template; grown from a smaller home when there is one."""
    home = cache / f"home-{n}"
    if (home / "done").exists():
        return home
    template = build_template(cache)
    users = home / "users"
    users.mkdir(parents=True, exist_ok=True)
    have = {p.name for p in users.iterdir() if not p.name.endswith(".partial")}
    t0 = time.monotonic()
    for i in range(n):
        name = f"bench.scale.u{i:05d}"
        if name not in have:
            clone_vault(template, users / name)
        if i and i % 1000 == 0:
            log(f"home-{n}: {i} end users cloned ({time.monotonic() - t0:.0f} s)")
    (home / "done").write_text("")
    return home


def ready(home: Path) -> str:
    """A built home as this version keeps one (its pending and remotes indexes, empty: nothing waits), and a
    write key for it."""
    for index in ("pending", "synced"):
        (home / index).mkdir(exist_ok=True)
    token, _ = Keys(home).create("bench", "scale", "write")
    return token



def build(args: argparse.Namespace) -> None:
    cache = cache_root()
    cache.mkdir(parents=True, exist_ok=True)
    log(f"cache: {cache}")
    for n in sizes(args.users):
        build_home(cache, n)
        log(f"home-{n} ready")
    build_big(cache, sizes(args.passages), settle=not args.unsettled)
    log("built")
