"""The house's rules, read from the sources: imports flow one way (no circle), no private name crosses a module,
every class name is unique, and no module grows past ~400 lines (those still over it are listed with the size
they may not pass, so the list can only shrink)."""
from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"twinfs": ROOT / "twinfs", "twinfs.server": ROOT / "server"}
MOST_LINES = 400
# modules still over MOST_LINES, each at the size it may not pass: shrink them and take them off
STILL_OVER: dict[str, int] = {}


def modules() -> dict[str, Path]:
    found = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([package, *parts])] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> list[tuple[str, list[str]]]:
    """(module imported, names taken from it) for every import of `path` that lands in the project."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [alias.name for alias in node.names]
            submodules = [f"{target}.{n}" for n in names if f"{target}.{n}" in known]
            out += [(s, []) for s in submodules]
            out.append((target, [n for n in names if f"{target}.{n}" not in known]))
    resolved = []
    for target, names in out:
        while target and target not in known:  # `import a.b.c` of a function's module: the module itself
            target = target.rpartition(".")[0]
        if target and target != name:
            resolved.append((target, names))
    return resolved


def graph() -> dict[str, dict[str, list[str]]]:
    found = modules()
    known = set(found)
    edges: dict[str, dict[str, list[str]]] = defaultdict(dict)
    for name, path in found.items():
        for target, names in imports(name, path, known):
            edges[name].setdefault(target, []).extend(names)
    return edges


def circles(edges: dict[str, dict[str, list[str]]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module (a package's __init__ re-exporting its
    own modules is not a circle: those edges from a package to what it holds are left out)."""
    def holds(package: str, module: str) -> bool:
        return module.startswith(package + ".")

    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if holds(v, w):
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(modules()):
        if v not in index:
            visit(v)
    return found


def test_imports_flow_one_way():
    assert circles(graph()) == []


def test_no_private_name_is_imported_from_another_module():
    crossing = [f"{module} takes {name} from {target}" for module, targets in graph().items()
                for target, names in targets.items() for name in names
                if name.startswith("_") and not name.startswith("__")]
    assert crossing == []


# class names still shared by two modules, to be renamed: the list may only shrink
SHARED_NAMES_LEFT: set[str] = set()


def test_every_class_name_is_unique():
    where: dict[str, list[str]] = defaultdict(list)
    for name, path in modules().items():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                where[node.name].append(name)
    shared = {k for k, v in where.items() if len(v) > 1}
    assert shared <= SHARED_NAMES_LEFT, {k: where[k] for k in shared - SHARED_NAMES_LEFT}
    assert shared >= SHARED_NAMES_LEFT, f"{SHARED_NAMES_LEFT - shared} are unique now: take them off SHARED_NAMES_LEFT"


def test_no_module_grows_past_its_size():
    sizes = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in modules().items()}
    over = {name: n for name, n in sizes.items() if n > STILL_OVER.get(name, MOST_LINES)}
    assert over == {}
    shrunk = [name for name in STILL_OVER if sizes.get(name, 0) <= MOST_LINES]
    assert shrunk == [], f"{shrunk} are within {MOST_LINES} lines now: take them off STILL_OVER"


def test_the_library_never_imports_the_server_or_the_command_line():
    """Calls flow server/cli/mcp -> Memory -> stores: nothing below a front end imports one."""
    fronts = ("twinfs.server", "twinfs.cli", "twinfs.demo")
    upward = [f"{module} imports {target}" for module, targets in graph().items() for target in targets
              if target.startswith(fronts) and not module.startswith(fronts)]
    assert upward == []


def test_the_architecture_page_names_every_module_and_only_modules_that_exist():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"\b((?:twinfs|server)/[\w/]+\.py)\b", page))
    files = {p.relative_to(ROOT).as_posix() for folder in PACKAGES.values() for p in folder.rglob("*.py")
             if p.name != "__init__.py"}
    assert sorted(named - files) == [], "named in docs/architecture.md but not in the code"
    assert sorted(files - named) == [], "modules docs/architecture.md does not place"
