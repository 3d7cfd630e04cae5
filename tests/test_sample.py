"""sample_vault/: the files `./run sample` makes (compared file by file), plain files with no .git, every relative
link in them resolving, and adopted into a home (as `./run demo` does) a memory that answers."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from markdown_it import MarkdownIt

from twinfs import Memory, Phase, Settings
from twinfs.models import SearchRequest, StatusRequest
from twinfs.sample import FOLDER, USER, adopt, differences, files, items, make

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def made(tmp_path_factory, embedder) -> Path:
    folder = tmp_path_factory.mktemp("sample")
    make(folder, embedder)
    return folder


def test_the_committed_sample_vault_is_what_run_sample_makes(made):
    diff = differences(made)
    assert not diff, ("sample_vault/ is not what `./run sample` makes (the reader or the folding changed?): run "
                      "./run sample and commit sample_vault/.\n" + "\n".join(diff))


def test_it_holds_items_passages_records_and_pages_as_plain_files():
    names = files(FOLDER)
    for top in ("items/", "passages/memory/messages/", "passages/memory/documents/", "records/", "pages/"):
        assert any(n.startswith(top) for n in names), top
    assert len([n for n in names if n.startswith("items/")]) == len(items())
    assert not any(p.name == ".git" for p in FOLDER.rglob("*")), "a nested .git would make it a submodule"
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "sample_vault"], capture_output=True, text=True)
    if tracked.returncode == 0 and tracked.stdout:  # in a checkout: every file is committed as a plain file
        assert sorted(line.removeprefix("sample_vault/") for line in tracked.stdout.splitlines()) == names


def links(markdown: str) -> list[str]:
    """Every link target of a Markdown text, as markdown-it parses it."""
    found = []
    for token in MarkdownIt().parse(markdown):
        for child in token.children or []:
            if child.type == "link_open":
                found.append(str(child.attrs["href"]))
    return found


def test_every_relative_link_resolves():
    checked = 0
    for page in sorted(FOLDER.rglob("*.md")):
        for href in links(page.read_text(encoding="utf-8")):
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or not parts.path:
                continue  # a web address or an anchor in the same file
            target = (page.parent / unquote(parts.path)).resolve()
            assert target.is_file(), f"{page.relative_to(FOLDER)}: {href} names no file"
            assert FOLDER.resolve() in target.parents, f"{page.relative_to(FOLDER)}: {href} leaves the vault"
            checked += 1
    assert checked >= 10  # the pages link every value to its record and passage


def test_adopted_into_a_home_it_answers_and_reads_to_the_same_files(tmp_path, embedder):
    home = tmp_path / "home"
    root = adopt(home)
    assert (root / ".git").is_dir() and files(root)[0].startswith("items/")
    with Memory(Settings(home=home, fold_seconds=0), embedder=embedder) as memory:
        stats = memory.reindex(USER)
        assert stats["passages"] == 3 and stats["records"] >= 1
        brief = memory.search(USER, SearchRequest(query="Where does Alice live?", fast=True))
        assert "Lisbon" in brief.hits[0].text or any("Lisbon" in k for k in brief.known or [])
        ids = [i.id for i in items()]
        memory.idle(60)  # the pipeline reads the adopted threads again, and folds
        assert set(memory.status(USER, StatusRequest(ids=ids)).phases.values()) == {Phase.folded}
    for rel in files(FOLDER):
        if rel.startswith(("records/", "pages/")):
            assert (root / rel).read_text() == (FOLDER / rel).read_text(), f"reading again changed {rel}"


@pytest.mark.slow
def test_run_demo_adopts_the_sample_serves_it_and_searches(tmp_path):
    # as a user runs it: the model pass on by default (its model loads in the background while the demo prints)
    env = {**{k: v for k, v in os.environ.items() if k != "TWIN_READER_MODEL"}, "PYTHONPATH": str(ROOT),
           "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-m", "twinfs.demo", "--home", str(tmp_path / "demo")], env=env,
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert "adopted sample_vault/" in out and "3 passages" in out
    answers = [json.loads(block.split("\n", 1)[1]) for block in out.split("\nPOST /v1/memory/search ")[1:]]
    assert len(answers) == 3 and "(the brief; 200," in out
    assert any("Lisbon" in line for line in answers[0]["known"])
    assert answers[2]["hits"] and all("Porto" in h["text"] for h in answers[2]["hits"])  # after 2 Oct: the plan
