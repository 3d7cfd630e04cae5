"""`pip install twinfs`: a wheel that holds every module `twin` runs, declares every package they import, and
needs llama-cpp-python (which compiles llama.cpp) only for the `llama` extra. The install itself, into a fresh
virtualenv with no compiler, is measured by bench/install.py."""
from __future__ import annotations

import ast
import email.parser
import importlib.metadata
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from twinfs.cli import main

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("twinfs", "server")
INSTALLED = {"server": "twinfs/server"}  # where a folder of the checkout lands in the wheel


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel, built from a copy of the sources so the checkout gets no build/ or egg-info."""
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for package in PACKAGES:
        shutil.copytree(ROOT / package, src / package, ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                           "-w", str(out), str(src)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    [built] = out.glob("twinfs-*.whl")
    return built


def metadata(wheel: Path) -> tuple[list[str], email.message.Message]:
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        [meta] = [n for n in names if n.endswith(".dist-info/METADATA")]
        return names, email.parser.Parser().parsestr(z.read(meta).decode())


def test_the_wheel_holds_every_module_and_the_twin_script(wheel):
    names, _ = metadata(wheel)
    sources = {INSTALLED.get(package, package) + "/" + p.relative_to(ROOT / package).as_posix()
               for package in PACKAGES for p in (ROOT / package).rglob("*.py")}
    assert sources and sources <= set(names), sorted(sources - set(names))
    with zipfile.ZipFile(wheel) as z:
        [entry] = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
        assert "twin = twinfs.cli:main" in z.read(entry).decode()


def imported_packages() -> dict[str, str]:
    """Top-level third-party module -> a file that imports it, over every module of the wheel."""
    found: dict[str, str] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    tops = [alias.name.split(".")[0] for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    tops = [node.module.split(".")[0]]
                else:
                    continue
                for top in tops:
                    if top not in sys.stdlib_module_names and top not in PACKAGES:
                        found.setdefault(top, path.relative_to(ROOT).as_posix())
    return found


def test_every_imported_package_is_declared_and_llama_cpp_only_as_the_llama_extra(wheel):
    _, meta = metadata(wheel)
    requires = [Requirement(r) for r in meta.get_all("Requires-Dist")]
    plain = {canonicalize_name(r.name) for r in requires if r.marker is None}
    extras = {canonicalize_name(r.name): str(r.marker) for r in requires if r.marker is not None}
    assert "llama-cpp-python" not in plain and extras["llama-cpp-python"] == 'extra == "llama"'
    assert "llama" in meta.get_all("Provides-Extra")
    providers = importlib.metadata.packages_distributions()
    for module, where in imported_packages().items():
        dists = {canonicalize_name(d) for d in providers.get(module, [])}
        assert dists, f"{where} imports {module}, which no installed distribution provides"
        if module == "llama_cpp":
            assert dists & set(extras), f"{where}: llama_cpp should come with the llama extra"
        else:
            assert dists & plain, f"{where} imports {module} ({', '.join(dists)}), which pyproject does not declare"


def test_no_module_imports_llama_cpp_until_a_gguf_reader_is_made():
    code = ("import sys, twinfs, twinfs.cli, twinfs.demo, twinfs.server.app, twinfs.server.mcp_server, "
            "twinfs.reading.llama; "
            "from twinfs.reading import make_reader; make_reader(); print(sorted(m for m in sys.modules "
            "if m.split('.')[0] == 'llama_cpp'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_gguf_reader_without_llama_cpp_is_one_line_naming_the_extra(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # as if llama-cpp-python were not installed
    monkeypatch.setenv("TWIN_READER_MODEL", "smollm2")
    monkeypatch.setenv("TWIN_READING", "1")
    assert main(["--home", str(tmp_path), "search", "--account", "alice", "anything"]) == 1
    err = capsys.readouterr().err
    assert err == 'twin: a GGUF reader (TWIN_READER_MODEL) needs llama-cpp-python: pip install "twinfs[llama]"\n'
    monkeypatch.delenv("TWIN_READER_MODEL")  # the default reader needs no llama.cpp
    assert main(["--home", str(tmp_path), "init"]) == 0
    assert main(["--home", str(tmp_path), "search", "--account", "alice", "anything"]) == 1
    assert "no memory for end user 'alice' yet" in capsys.readouterr().err
