"""bench/ is documented: bench/README.md has a section for every bench module saying how to run it, and links one
results file a bench; each results file's entries are headed by their date and come newest first; the table of
current figures points at each bench's newest entry; every relative link in these pages resolves, anchors included."""
from __future__ import annotations

import re
from datetime import date
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
README = BENCH / "README.md"
RESULTS = BENCH / "results"
FENCE = re.compile(r"^```.*?^```$", re.S | re.M)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
DATED = re.compile(r"^(\d{4}-\d{2}-\d{2})(?: (\d{2}:\d{2}))?(?:[ ,(·]|$)")
HELPERS = "Helpers, not benches"


def modules() -> list[str]:
    return sorted(p.stem for p in BENCH.glob("*.py") if p.stem != "__init__")


def prose(path: Path) -> str:
    """A page without its fenced code blocks (a `#` there is a comment, not a heading)."""
    return FENCE.sub("", path.read_text(encoding="utf-8"))


def headings(text: str, level: int) -> list[str]:
    mark = "#" * level + " "
    return [line[len(mark):].strip() for line in text.splitlines() if line.startswith(mark)]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading (as tests/test_docs.py takes it)."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def sections(text: str) -> dict[str, str]:
    """The README's `### \\`name\\`` sections by module name (a heading may name several), each with its text."""
    parts = re.split(r"^### (.+)$", text, flags=re.M)
    found: dict[str, str] = {}
    for heading, body in zip(parts[1::2], parts[2::2], strict=True):
        for name in re.findall(r"`(\w+)`", heading):
            found[name] = body
    return found


def entries(text: str) -> list[tuple[date, str | None, str]]:
    """A results page's dated `## ` headings in page order: (date, start time or None, heading)."""
    out = []
    for heading in headings(text, 2):
        match = DATED.match(heading)
        if match:
            out.append((date.fromisoformat(match[1]), match[2], heading))
    return out


def order_faults(found: list[tuple[date, str | None, str]]) -> list[str]:
    """Pairs of neighbouring entries where the later one on the page is newer (by date, then by time when both
    give one)."""
    faults = []
    for (day, time, heading), (next_day, next_time, next_heading) in pairwise(found):
        if next_day > day or (next_day == day and time and next_time and next_time > time):
            faults.append(f"{next_heading!r} is newer than {heading!r} above it")
    return faults


def results_links(text: str) -> set[str]:
    return {target.split("#")[0] for target in LINK.findall(text)
            if target.startswith("results/") and target.split("#")[0].endswith(".md")}


def test_every_bench_module_has_a_section():
    found = sections(prose(README))
    missing = [name for name in modules() if name not in found]
    assert not missing, f"bench/README.md has no '### `{missing[0]}`' section (and {len(missing) - 1} more)"
    stale = sorted(set(found) - set(modules()))
    assert not stale, f"bench/README.md has a section for {stale}, which is no module of bench/"


def test_every_section_says_how_to_run_its_bench():
    for name, body in sections(README.read_text(encoding="utf-8")).items():
        if HELPERS in body:
            continue
        assert f"./run bench {name}" in body, f"the '{name}' section of bench/README.md gives no `./run bench {name}`"
        assert "Results:" in body or "results/" in body, f"the '{name}' section says nothing of its results"


def test_results_files_are_linked_and_dated_newest_first():
    linked = results_links(prose(README))
    on_disk = {f"results/{p.name}" for p in RESULTS.glob("*.md")}
    assert linked, "bench/README.md links no results file"
    assert not linked - on_disk, f"bench/README.md links results files that do not exist: {sorted(linked - on_disk)}"
    assert not on_disk - linked, f"results files bench/README.md does not link: {sorted(on_disk - linked)}"
    for name in sorted(on_disk):
        text = prose(BENCH / name)
        found = entries(text)
        assert found, f"bench/{name} has no entry headed '## YYYY-MM-DD …'"
        level2 = headings(text, 2)
        undated = [h for h in level2[level2.index(found[0][2]):] if not DATED.match(h)]
        assert not undated, f"bench/{name}: an undated heading among the entries: {undated[0]!r}"
        faults = order_faults(found)
        assert not faults, f"bench/{name} is not newest first: {faults[0]}"


def test_the_order_check_finds_an_older_entry_above_a_newer_one():
    page = "## 2026-12-01 10:00 · a\n\n## 2026-12-03 · b\n\n## 2026-12-01 09:00 · c\n## 2026-12-01 · d\n"
    assert order_faults(entries(page)) == ["'2026-12-03 · b' is newer than '2026-12-01 10:00 · a' above it"]
    assert order_faults(entries("## 2026-12-01 12:00 · a\n## 2026-12-01 13:00 · b\n")) != []
    assert order_faults(entries("## 2026-12-02 · a\n## 2026-12-01 23:00 · b\n## 2026-12-01 · c\n")) == []


def test_current_figures_point_at_each_benchs_newest_entry():
    text = prose(README)
    table = text.split("## Current figures", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "](results/" in line]
    linked = {}
    for row in rows:
        target = LINK.search(row)[1]
        page, _, anchor = target.partition("#")
        day = re.search(r"\| (\d{4}-\d{2}-\d{2}) \|", row)
        assert day, f"a row of the current figures gives no date: {row[:80]}"
        found = entries(prose(BENCH / page))
        newest = max(d for d, _, _ in found)
        assert date.fromisoformat(day[1]) == newest, (
            f"the current figures give {day[1]} for {page}, whose newest entry is of {newest}")
        assert anchor in {slug(h) for d, _, h in found if d == newest}, (
            f"the current figures' link to {page} is not to one of its newest entries: #{anchor}")
        linked[page] = row
    missing = sorted(results_links(text) - set(linked))
    assert not missing, f"the current figures have no row for {missing}"


def test_relative_links_resolve():
    pages = [README, *sorted(RESULTS.glob("*.md"))]
    for page in pages:
        for target in LINK.findall(prose(page)):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            assert file.exists(), f"{page.relative_to(ROOT)} links {target}, which does not exist"
            if anchor and file.suffix == ".md":
                anchors = {slug(h) for level in range(1, 5) for h in headings(prose(file), level)}
                assert anchor in anchors, f"{page.relative_to(ROOT)} links {target}: no such heading"
