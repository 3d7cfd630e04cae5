"""The sample vault: sample_vault/ is made from sample_vault.jsonl by the project's own add -> land -> read ->
fold, with the clock and the stamps pinned so the same files come out every time; `adopt` puts it in a home.

    ./run sample            # sample_vault/ made again (commit what changed)
    ./run sample --check    # whether sample_vault/ is what the command makes; exit 1 and the files if not
"""
from __future__ import annotations

import argparse
import filecmp
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

from . import space as space_module
from .clock import Clock
from .index.embedder import Embedder
from .memory import Memory
from .models import AddRequest, EndUser, Item, Phase, StatusRequest
from .paths import VAULT_TOPS
from .settings import Settings
from .vault import Vault

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "sample_vault.jsonl"
FOLDER = ROOT / "sample_vault"
USER = EndUser(org="demo", project="app", account="alice")  # thread ids hash the vault's folder name: keep it
NOW = datetime(2026, 10, 5, 12, 0, tzinfo=UTC)  # two days after the last item: every window is quiet
README = """# A sample twinfs vault

The memory of one end user, Alice, as twinfs keeps it: plain files, made by `./run sample` from
`sample_vault.jsonl` beside this folder (ten messages and a document) with the project's own add, land,
read (the embedded rules reader) and fold. Open this folder in a Markdown editor or in Obsidian.

- `items/<thread>/<item>.json`: the items as added, the source of truth.
- `passages/memory/<kind>s/<thread>/p_0001.md`: Markdown with YAML front matter, whole turns (`^msg-001` marks
  a turn), as search finds them.
- `records/<thread>.json`: dated, typed facts read from the passages, each citing its turns.
- `pages/<subject>.md`: what is known now about one person or thing, every line linked to its record and passage.

Pages: {pages}

`./run demo` copies these files into a fresh twin home, makes it a git repository, builds its indexes
(`twin reindex`) and asks it real questions over HTTP.
"""


def items() -> list[Item]:
    return [Item.model_validate_json(line) for line in SOURCE.read_text(encoding="utf-8").splitlines()
            if line.strip()]


@contextmanager
def pinned_stamps(start: datetime) -> Iterator[None]:
    """The stamps landing keeps in each item (`added`, and the inbox's event ids) count up by one nanosecond from
    `start` instead of following the wall clock, so the items' files come out the same on every run."""
    ticks = iter(range(int(start.timestamp() * 1e9), 2 ** 63))
    pinned = SimpleNamespace(time_ns=lambda: next(ticks), monotonic=time.monotonic)
    with mock.patch.object(space_module, "time", pinned), mock.patch.object(space_module, "_last_added", 0):
        yield


def make(target: Path, embedder: Embedder | None = None, timeout: float = 120) -> list[str]:
    """The sample vault's files, made anew in `target` (its memory folders and README.md are replaced; a
    `.git` is never made there). Returns the files written, relative to `target`."""
    with tempfile.TemporaryDirectory(prefix="twin-sample-") as tmp:
        # rules only: a model's answers may differ from one CPU to another, the sample must not
        settings = Settings(home=Path(tmp), fold_seconds=0, watch=False, reader_model="none")
        sample = items()
        stamps = Clock(settings.machine, wall=NOW.timestamp)  # the items' stamps count up from NOW
        with pinned_stamps(NOW), Memory(settings, embedder=embedder, clock=lambda: NOW, stamps=stamps) as memory:
            memory.add(USER, AddRequest(items=sample))
            deadline = time.monotonic() + timeout
            ids = [i.id for i in sample]
            while set(memory.status(USER, StatusRequest(ids=ids)).phases.values()) != {Phase.folded}:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the sample was not folded in {timeout:.0f} s")
                time.sleep(0.1)
            memory.idle(timeout)
        vault = Path(tmp) / "users" / USER.dirname
        for top in VAULT_TOPS:
            shutil.rmtree(target / top, ignore_errors=True)
            if (vault / top).is_dir():
                shutil.copytree(vault / top, target / top)
    pages = ", ".join(f"[{p.stem}](pages/{p.name})" for p in sorted((target / "pages").glob("*.md")))
    (target / "README.md").write_text(README.format(pages=pages or "none"), encoding="utf-8")
    return files(target)


def files(folder: Path) -> list[str]:
    """The sample's files under `folder`: README.md and the memory folders (an editor's own files are not)."""
    found = [p for top in VAULT_TOPS for p in (folder / top).rglob("*") if p.is_file()]
    found += [folder / "README.md"] if (folder / "README.md").is_file() else []
    return sorted(p.relative_to(folder).as_posix() for p in found)


def differences(made: Path, kept: Path = FOLDER) -> list[str]:
    """How `kept` differs from the files in `made`: `+ path` only made, `- path` only kept, `~ path` changed."""
    new, old = set(files(made)), set(files(kept))
    changed = [p for p in sorted(new & old) if not filecmp.cmp(made / p, kept / p, shallow=False)]
    return [f"+ {p}" for p in sorted(new - old)] + [f"- {p}" for p in sorted(old - new)] + [f"~ {p}" for p in changed]


def adopt(home: Path, folder: Path = FOLDER) -> Path:
    """The sample's memory folders copied into `home` as its end user's vault, made a git repository with one
    commit; `Memory.reindex` then builds its indexes. Returns the vault's folder."""
    root = home / "users" / USER.dirname
    if (root / ".git").exists():
        raise FileExistsError(f"{root} is a vault already")
    for top in VAULT_TOPS:
        if (folder / top).is_dir():
            shutil.copytree(folder / top, root / top)
    vault = Vault(root)
    vault.init(USER.dirname)
    vault.commit(f"adopt: the sample vault ({len(files(folder))} files)")
    return root


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="compare sample_vault/ with what the command makes")
    args = ap.parse_args(argv)
    if not args.check:
        written = make(FOLDER)
        print(f"sample_vault/: {len(written)} files from {SOURCE.name} (commit what changed)")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        make(Path(tmp))
        diff = differences(Path(tmp))
    print("\n".join(diff) or "sample_vault/ is what ./run sample makes")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
