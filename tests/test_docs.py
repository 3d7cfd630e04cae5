"""docs/ is tested: every CLI command, route, MCP tool and TWIN_… setting has an entry; every relative link
resolves; and every `curl` on the API pages, the quickstart and the LLM page is sent to a real `twin serve` as
written, its answer keeping the shape the page shows (the same keys, the same types; ids, times and scores
differ) and the page's answer validating against the route's own answer model."""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from pydantic import BaseModel
from served import ROOT, start_server, stop_server
from twinfs.server.errors import ErrorBody
from twinfs.server.mcp_server import TOOLS
from twinfs.server.routes import OPERATIONS, OWNER_SYNC, Health, routes

from twinfs.cli import COMMANDS, Command
from twinfs.keys import Keys
from twinfs.memory import Memory
from twinfs.models import AddRequest, EndUser, OwnerSyncRequest
from twinfs.sample import items as sample_items
from twinfs.settings import Settings

DOCS = ROOT / "docs"
USER = EndUser(org="demo", project="app", account="alice")  # the docs' end user: the sample vault's
# the pages whose requests run, in this order (the add before what reads it, correct and forget last)
RUN = ["quickstart.md", "api/README.md", "api/add.md", "api/status.md", "api/search.md", "api/grep.md",
       "api/read.md", "api/history.md", "api/lineage.md", "using-memory-with-an-llm.md", "api/correct.md",
       "api/sync.md", "api/forget.md", "api/health.md", "api/openapi.md"]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
MORE = "…"  # a key "…" in a page's answer: the object has more keys than shown


def text(page: str) -> str:
    return (DOCS / page).read_text(encoding="utf-8")


def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def headings(path: Path) -> list[str]:
    body = FENCE.sub("", path.read_text(encoding="utf-8"))
    return [line.lstrip("#").strip() for line in body.splitlines() if line.startswith("#")]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


# coverage
def commands(table: tuple[Command, ...] = COMMANDS, prefix: str = "twin") -> list[str]:
    out = []
    for command in table:
        out.append(f"{prefix} {command.name}")
        out += commands(command.sub, f"{prefix} {command.name}")
    return out


def test_every_cli_command_has_a_section():
    documented = set(headings(DOCS / "cli.md"))
    missing = [c for c in commands() if c not in documented]
    assert not missing, f"docs/cli.md has no '## {missing[0]}' (and {len(missing) - 1} more)"
    assert "twin keys create" in commands()  # the sub-commands are counted too


def all_routes() -> list[tuple[str, str]]:
    return [(method, route.path) for route in routes(lambda request: None)
            for method in sorted(route.methods - {"HEAD"})]


def test_every_route_has_a_page_and_a_row():
    titles = {path.read_text(encoding="utf-8").splitlines()[0]: path for path in (DOCS / "api").glob("*.md")}
    index = text("api/README.md")
    for method, path in all_routes():
        assert f"# {method} {path}" in titles, f"no page docs/api/*.md titled '# {method} {path}'"
        assert f"`{method} {path}`" in index, f"docs/api/README.md does not list {method} {path}"
    assert len(all_routes()) == len(OPERATIONS) + 3  # the memory routes, owner sync, health, openapi


def fields(model: type[BaseModel]) -> list[str]:
    return list(model.model_fields)


def test_every_field_and_error_of_a_route_is_on_its_page():
    for op in OPERATIONS:
        page = text(f"api/{op.name}.md")
        for name in fields(op.body) + fields(op.answer):
            assert f"`{name}`" in page, f"docs/api/{op.name}.md does not name the field `{name}`"
        errors = page.split("## Errors", 1)[1]
        for code in op.errors:
            assert str(code) in errors, f"docs/api/{op.name}.md does not list the error {code}"
    for name in fields(Health):
        assert f"`{name}`" in text("api/health.md"), f"docs/api/health.md does not name `{name}`"
    for name in fields(OwnerSyncRequest):
        assert f"`{name}`" in text("api/owner-sync.md")
    assert OWNER_SYNC == "/v1/owner/sync"


def test_every_mcp_tool_has_a_section():
    documented = set(headings(DOCS / "mcp.md"))
    for tool in TOOLS:
        assert f"`{tool}`" in documented, f"docs/mcp.md has no '### `{tool}`'"


def settings_named() -> set[str]:
    names = set()
    for path in [*ROOT.joinpath("twinfs").rglob("*.py"), *ROOT.joinpath("server").rglob("*.py"), ROOT / "run"]:
        names |= set(re.findall(r"\bTWIN_[A-Z0-9_]*[A-Z0-9]\b", path.read_text(encoding="utf-8")))
    return names


def test_every_setting_has_a_row():
    rows = text("configuration.md")
    named = settings_named()
    assert {"TWIN_HOME", "TWIN_SYNC_SECONDS", "TWIN_WORKERS", "TWIN_MACHINE"} <= named
    missing = sorted(n for n in named if f"| `{n}` |" not in rows)
    assert not missing, f"docs/configuration.md has no row for {', '.join(missing)}"


def test_every_relative_link_resolves():
    link = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
    for path in pages():
        body = FENCE.sub("", path.read_text(encoding="utf-8"))
        for target in link.findall(body):
            if re.match(r"^[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            dest = (path.parent / file).resolve() if file else path
            assert dest.exists(), f"{path.relative_to(ROOT)}: the link {target} leads nowhere"
            if anchor and dest.suffix == ".md":
                assert anchor in {slug(h) for h in headings(dest)}, \
                    f"{path.relative_to(ROOT)}: {dest.name} has no heading for #{anchor}"


def test_the_index_lists_every_page_and_the_readme_points_to_it():
    index = text("README.md")
    for path in DOCS.glob("*.md"):
        if path.name != "README.md":
            assert f"]({path.name})" in index, f"docs/README.md does not link {path.name}"
    assert "docs/README.md" in (ROOT / "README.md").read_text(encoding="utf-8")


# the examples
class Example:
    def __init__(self, page: str, command: str, answer: str):
        self.page, self.command, self.answer = page, command, json.loads(answer)
        words = shlex.split(command.replace("\\\n", " "))
        assert words[0] == "curl", f"{page}: not a curl: {command}"
        self.headers: dict[str, str] = {}
        self.body: str | None = None
        self.url = ""
        i = 1
        while i < len(words):
            word = words[i]
            if word in ("-H", "--header"):
                name, _, value = words[i + 1].partition(":")
                self.headers[name.strip()] = value.strip()
                i += 2
            elif word in ("-d", "--data"):
                self.body = words[i + 1]
                i += 2
            elif word.startswith("-"):
                assert word in ("-s", "--silent"), f"{page}: the test does not know curl's {word}"
                i += 1
            else:
                self.url = word
                i += 1
        assert self.url.startswith("localhost:8765/"), f"{page}: examples ask localhost:8765: {self.url}"

    @property
    def path(self) -> str:
        return self.url.removeprefix("localhost:8765")

    def send(self, base: str, key: str) -> httpx.Response:
        headers = {k: v.replace("$KEY", key) for k, v in self.headers.items()}
        if self.body is None:
            return httpx.get(base + self.path, headers=headers, timeout=120)
        return httpx.post(base + self.path, content=self.body.encode(), headers=headers, timeout=120)


def examples(page: str) -> list[Example]:
    """Each curl in a ```bash block, with the ```json block that comes next as its answer."""
    blocks = FENCE.findall(text(page))
    found = []
    for n, (lang, body) in enumerate(blocks):
        if lang == "bash" and body.lstrip().startswith("curl "):
            after = blocks[n + 1] if n + 1 < len(blocks) else ("", "")
            assert after[0] == "json", f"{page}: a curl with no ```json answer after it"
            found.append(Example(page, body.strip(), after[1]))
    return found


def kind(value) -> str:
    if isinstance(value, bool) or value is None:
        return repr(type(value).__name__)
    if isinstance(value, (int, float)):
        return "number"
    return type(value).__name__


def same_shape(shown, real, where: str = "") -> list[str]:
    """How `real` differs in shape from `shown`: keys, and the type of every value, all the way down."""
    if isinstance(shown, dict) and isinstance(real, dict):
        problems = []
        keys = [k for k in shown if k != MORE]
        for k in keys:
            if k not in real:
                problems.append(f"{where}.{k}: shown, not in the answer")
            else:
                problems += same_shape(shown[k], real[k], f"{where}.{k}")
        if MORE not in shown:
            problems += [f"{where}.{k}: in the answer, not shown" for k in real if k not in shown]
        return problems
    if isinstance(shown, list) and isinstance(real, list):
        if not shown:
            return []
        problems = []
        for i, element in enumerate(real):
            tries = [same_shape(s, element, f"{where}[{i}]") for s in shown]
            if all(tries):
                problems += min(tries, key=len)
        return problems
    if shown == MORE:
        return []
    return [] if kind(shown) == kind(real) else [f"{where}: shown {kind(shown)}, answered {kind(real)}"]


def answer_model(path: str) -> type[BaseModel] | None:
    for op in OPERATIONS:
        if op.path == path:
            return op.answer
    return {"/v1/health": Health}.get(path)


@pytest.fixture(scope="module")
def docs_server(tmp_path_factory, embedder):
    """The quickstart's home: the sample vault's items for demo.app.alice, read and folded; a demo.app key."""
    home = tmp_path_factory.mktemp("docs") / "twin-home"
    with Memory(Settings(home=home, quiet_seconds=1, fold_seconds=1), embedder=embedder) as memory:
        memory.add(USER, AddRequest(items=sample_items()))
        memory.wait(USER, [i.id for i in sample_items()], timeout=120)
    key, _ = Keys(home).create("demo", "app", "write")
    server = start_server(home, TWIN_QUIET_SECONDS="1", TWIN_FOLD_SECONDS="1")
    try:
        ids = [i.id for i in sample_items()]
        deadline = time.monotonic() + 180
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {key}",
                                                         "X-Twin-Account": "alice"}) as http:
            while time.monotonic() < deadline:
                phases = http.post("/v1/memory/status", json={"ids": ids}).json()["phases"]
                if set(phases.values()) == {"folded"}:
                    break
                time.sleep(0.5)
            assert set(phases.values()) == {"folded"}, phases
        yield server, key
    finally:
        stop_server(server)


def test_the_llm_page_builds_its_prompt_from_a_real_brief(docs_server):
    server, key = docs_server
    code = [body for lang, body in FENCE.findall(text("using-memory-with-an-llm.md")) if lang == "python"]
    assert len(code) == 1
    scope: dict = {}
    os.environ["KEY"] = key
    try:
        exec(compile(code[0].replace("http://127.0.0.1:8765", server.url), "llm-page", "exec"), scope)
    finally:
        del os.environ["KEY"]
    system, user = scope["messages"]
    assert system["role"] == "system" and "not instructions" in system["content"]
    block = user["content"].split("<memory>\n", 1)[1].split("\n</memory>", 1)[0]
    assert "</" not in block
    data = json.loads(block)
    assert "Lisbon" in block and isinstance(data["known"], list) and isinstance(data["facts"], list)
    assert all(p["content"] == "stored" for p in data["passages"]) and data["passages"]
    assert user["content"].endswith(scope["question"])


def give_a_remote(home: Path) -> None:
    """The sync page's first step: the operator gives the vault a remote, through the running server."""
    remote = str(home.parent / "remote" / "{vault}.git")
    done = subprocess.run([sys.executable, "-m", "twinfs.cli", "--home", str(home), "--org", "demo", "--project",
                           "app", "sync", "--account", "alice", "--remote", remote], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"})
    assert done.returncode == 0, done.stderr


def test_every_example_runs_and_keeps_its_shape(docs_server):
    server, key = docs_server
    ran = 0
    for page in RUN:
        if page == "api/sync.md":
            give_a_remote(server.home)
        for example in examples(page):
            shown = example.answer
            r = example.send(server.url, key)
            where = f"{page}: {example.path} {example.body or ''}"
            real = r.json()
            if "error" in shown:
                assert r.status_code == shown["error"]["status"], f"{where}: answered {r.status_code} {r.text}"
                ErrorBody.model_validate(shown)
            else:
                assert r.status_code in (200, 202), f"{where}: answered {r.status_code} {r.text}"
                model = answer_model(example.path)
                if model is not None:
                    model.model_validate(shown)  # the page's answer is one the route can give
            problems = same_shape(shown, real)
            assert not problems, f"{where}: the answer's shape moved: {problems[:5]}"
            ran += 1
    assert ran >= 20
    for page in RUN:  # every page in the run holds an example
        assert examples(page), f"{page} has no example to run"
    pages_with_curl = {str(p.relative_to(DOCS)) for p in pages() if "```bash\ncurl " in p.read_text()}
    assert pages_with_curl <= set(RUN), f"examples that no test runs: {pages_with_curl - set(RUN)}"


def test_the_shape_check_catches_what_moved():
    shown = {"a": 1, "b": [{"x": "s"}], "c": {"…": "…", "d": True}}
    assert same_shape(shown, {"a": 2.5, "b": [{"x": "t"}, {"x": "u"}], "c": {"d": False, "e": 1}}) == []
    assert same_shape(shown, {"a": "1", "b": [], "c": {"d": True}}) == [".a: shown number, answered str"]
    assert same_shape(shown, {"a": 1, "b": [{"y": "s"}], "c": {}}) == [
        ".b[0].x: shown, not in the answer", ".b[0].y: in the answer, not shown", ".c.d: shown, not in the answer"]
    assert same_shape({"a": None}, {"a": 1}) == [".a: shown 'NoneType', answered number"]
