"""Sync between machines (twin homes on this disk, a bare remote beside them), through the library.

    ./run bench sync [--each 5000] [--big 50000] [--new 10]

1. Two machines add `--each` turns apart (reading on), then sync in turn until both hold everything: the time
   of each sync and the time until both are folded.
2. A vault of `--big` turns (reading off; built once and cached in ~/.cache/twinfs/bench/sync-<big>): `--new`
   items added on one machine, synced to the other: the time of the receiving sync and what it embedded.
3. A new machine joining that vault: clone and build its indexes.
4. Plain and encrypted (`gcrypt::`, a throwaway GnuPG key) remotes side by side, for vaults of `--sealed` items
   (reading off): the first push, a sync of `--new` new items, a clone on a new machine, and the remote's size.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from datetime import date
from pathlib import Path

from bench.chat import varied
from twinfs import EndUser, Memory, Settings
from twinfs.models import AddRequest, SearchRequest, StatusRequest

USER = EndUser(org="bench", project="sync", account="alice")


def add(memory: Memory, items: list[dict], batch: int = 500) -> None:
    for i in range(0, len(items), batch):
        memory.add(USER, AddRequest(items=items[i:i + batch], wait=True))
    memory.wait(USER, [it["id"] for it in items[-10:]], timeout=3600)


def folded(memory: Memory, ids: list[str]) -> bool:
    phases = {}
    for i in range(0, len(ids), 500):
        phases.update(memory.status(USER, StatusRequest(ids=ids[i:i + 500])).phases)
    return all(p.value == "folded" for p in phases.values())


def two_machines(work: Path, each: int) -> None:
    remote = str(work / "remote" / "{vault}.git")
    mk = lambda name: Memory(Settings(home=work / name, quiet_seconds=0, fold_seconds=0, machine=name)).start()  # noqa: E731
    a, b = mk("laptop-a"), mk("laptop-b")
    try:
        t = time.perf_counter()
        add(a, varied(0, each, "c-a", prefix="a"))
        add(b, varied(0, each, "c-b", prefix="b"))
        print(f"added {each} turns on each machine in {time.perf_counter() - t:.1f} s")
        for m in (a, b):
            m.idle(3600)
        ids = [f"a{i}" for i in range(each)] + [f"b{i}" for i in range(each)]
        start = time.perf_counter()
        for name, memory in (("a", a), ("b", b), ("a", a)):
            t = time.perf_counter()
            out = memory.sync_with(USER, remote)
            print(f"sync on {name}: {out.kind}, {out.received} items in, {time.perf_counter() - t:.2f} s")
        while not (folded(a, ids) and folded(b, ids)):
            for m in (a, b):
                m.idle(3600)
            for m in (a, b):
                m.sync_with(USER)
        print(f"two machines of {each} turns each: both hold and have folded all {2 * each} after "
              f"{time.perf_counter() - start:.1f} s")
    finally:
        a.close()
        b.close()


def big_vault(cache: Path, big: int) -> Path:
    """A home holding one end user of `big` turns, synced to a remote beside it; built once."""
    done = cache / ".complete"
    if done.exists():
        return cache
    shutil.rmtree(cache, ignore_errors=True)
    t = time.perf_counter()
    with Memory(Settings(home=cache / "origin", reading=False, machine="origin")) as m:
        for n in range(0, big, 5000):
            add(m, varied(n, min(5000, big - n), f"c{n // 5000}"))
            print(f"  built {n + 5000} turns ({time.perf_counter() - t:.0f} s)", flush=True)
        m.sync_with(USER, str(cache / "remote" / "{vault}.git"))
    done.touch()
    return cache


def new_items(cache: Path, work: Path, big: int, new: int) -> None:
    home = work / "receiver"
    shutil.copytree(cache / "origin", home)  # a second machine that holds the vault as it was
    with Memory(Settings(home=cache / "origin", reading=False, machine="origin")) as sender, \
            Memory(Settings(home=home, reading=False, machine="receiver")) as receiver:
        receiver.sync_with(USER)
        receiver.search(USER, SearchRequest(query="the river walk", fast=True))  # its lanes open, as a server's
        first = big + 1000 + new * (int(time.time()) % 10**6)  # new ids and texts on every run: the cache keeps them
        add(sender, varied(first, new, "c0", prefix="n"))
        sender.sync_with(USER)
        embedded = receiver.space(USER).meaning
        before = embedded._db.execute("SELECT count(*) FROM vectors").fetchone()[0]
        t = time.perf_counter()
        out = receiver.sync_with(USER)
        took = time.perf_counter() - t
        after = embedded._db.execute("SELECT count(*) FROM vectors").fetchone()[0]
        print(f"{new} new items into a vault of {big} turns: sync {took:.2f} s ({out.kind}, {out.received} in), "
              f"{after - before} segments embedded")
    shutil.rmtree(home)


def joining(cache: Path, work: Path, big: int) -> None:
    remote = str(cache / "remote" / "{vault}.git")
    with Memory(Settings(home=work / "joiner", reading=False, machine="joiner")) as joiner:
        t = time.perf_counter()
        out = joiner.sync_with(USER, remote)
        print(f"a new machine joining a vault of {big} turns: {out.kind} {out.received} items, indexes built, "
              f"in {time.perf_counter() - t:.1f} s")


def du(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6


def sealed_rows(work: Path, sizes: list[int], new: int) -> None:
    """Plain against encrypted remotes: first push, a sync of `new` items, a clone; the remote's size."""
    gnupg = work / "gnupg"
    gnupg.mkdir(mode=0o700)
    os.environ["GNUPGHOME"] = str(gnupg)
    subprocess.run(["gpg", "--batch", "--passphrase", "", "--quick-gen-key", "bench <bench@example.invalid>",
                    "future-default", "default", "never"], check=True, capture_output=True)
    print(f"{'items':>7}  {'remote':>9}  {'first push':>10}  {f'sync +{new}':>9}  {'clone':>7}  {'remote size':>11}")
    for n in sizes:
        source = work / f"source-{n}"
        with Memory(Settings(home=source, reading=False, machine="origin")) as m:
            add(m, varied(0, n, "c0"))
        for kind in ("plain", "encrypted"):
            home = work / f"{kind}-{n}"
            shutil.copytree(source, home)
            remote = work / f"remote-{kind}-{n}"
            url = f"gcrypt::{remote}" if kind == "encrypted" else str(remote)
            with Memory(Settings(home=home, reading=False, machine="origin")) as m:
                t = time.perf_counter()
                m.sync_with(USER, url)
                first = time.perf_counter() - t
                add(m, varied(n + 1, new, "c0", prefix="n"))
                t = time.perf_counter()
                m.sync_with(USER)
                again = time.perf_counter() - t
            with Memory(Settings(home=work / f"joiner-{kind}-{n}", reading=False, machine="joiner")) as j:
                t = time.perf_counter()
                j.sync_with(USER, url)
                clone = time.perf_counter() - t
            print(f"{n:>7,}  {kind:>9}  {first:>9.1f}s  {again:>8.1f}s  {clone:>6.1f}s  {du(remote):>9.1f} MB",
                  flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--each", type=int, default=5000)
    ap.add_argument("--big", type=int, default=50000)
    ap.add_argument("--new", type=int, default=10)
    ap.add_argument("--sealed", type=int, nargs="*", default=[1000, 10000])
    ap.add_argument("--skip", nargs="*", default=[], choices=["two", "new", "join", "sealed"])
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="twin-sync-bench-"))
    try:
        if "sealed" not in args.skip:
            sealed_rows(work, args.sealed, args.new)
        if "two" not in args.skip:
            two_machines(work, args.each)
        if "new" not in args.skip or "join" not in args.skip:
            cache = big_vault(Path.home() / ".cache" / "twinfs" / "bench" / f"sync-{args.big}", args.big)
            if "new" not in args.skip:
                new_items(cache, work, args.big, args.new)
            if "join" not in args.skip:
                joining(cache, work, args.big)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"command: ./run bench sync --each {args.each} --big {args.big} --new {args.new} --sealed "
          f"{' '.join(map(str, args.sealed))} --skip {' '.join(args.skip)}  ({date.today()}, load "
          f"{os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
