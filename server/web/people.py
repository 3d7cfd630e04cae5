"""The end users one key reaches (its organisation's project, never another's), with counts and last activity,
and what the pages of one of them hold: read from the vaults' files and git, without opening their indexes."""
from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

import yaml

from twinfs.memory import Memory
from twinfs.models import EndUser, GrepRequest


@dataclass
class EndUserRow:
    account: str
    conversations: int  # threads: conversations and documents
    items: int
    pages: int
    last: str | None  # when the vault last changed (its newest commit), ISO


def _last_commit(root: Path) -> str | None:
    done = subprocess.run(["git", "-C", str(root), "log", "-1", "--format=%cI"], capture_output=True, text=True)
    return done.stdout.strip() or None if done.returncode == 0 else None


def end_users(memory: Memory, org: str, project: str) -> list[EndUserRow]:
    """Newest activity first."""
    prefix = f"{org}.{project}."
    rows = []
    for name in memory.users():
        if not name.startswith(prefix):
            continue
        root = memory.home / "users" / name
        threads = [d for d in (root / "items").iterdir() if d.is_dir()] if (root / "items").is_dir() else []
        rows.append(EndUserRow(account=name[len(prefix):], conversations=len(threads),
                               items=sum(1 for t in threads for f in t.iterdir() if f.suffix == ".json"),
                               pages=len(list((root / "pages").glob("*.md"))), last=_last_commit(root)))
    return sorted(rows, key=lambda r: (r.last or "", r.account), reverse=True)


@dataclass
class Subject:
    name: str
    slug: str


def subjects(memory: Memory, user: EndUser) -> list[Subject]:
    """The pages of an end user, by the subject each names (the `grep` route's own search of pages/)."""
    found = memory.grep(user, GrepRequest(pattern="^subject: ", regex=True, scope="pages/"))
    out = []
    for line in found.lines:
        try:
            name = yaml.safe_load(line.text).get("subject")
        except (yaml.YAMLError, AttributeError):
            continue
        if line.line == 2 and name:
            out.append(Subject(str(name), line.path.removeprefix("pages/").removesuffix(".md")))
    return sorted(out, key=lambda s: s.name.casefold())
