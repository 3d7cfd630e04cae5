"""The web view in a real browser: Debian's chromium, headless, driven by playwright, against a real `twin serve` on
a socket. A conversation is added through the API and read by the server's own reader; then a person signs in
with a read key, searches, opens a page and a lineage, and with a write key forgets a turn. Each page's
screenshot is written under the test's tmp dir and copied to /tmp/twinfs-web-shots/."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import httpx
import pytest
from served import start_server, stop_server

from twinfs.sample import items as sample_items

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path("/tmp/twinfs-web-shots")
HOSTILE = {"id": "msg-evil", "kind": "message", "conversation": "evil", "role": "user", "name": "Mallory",
           "text": "Remember this: <script>document.title='owned'</script><img src=x onerror=alert(1)>",
           "at": "2026-10-04T10:00:00Z"}

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
if not CHROMIUM.exists():
    pytest.skip(f"no chromium at {CHROMIUM}: the browser tests need Debian's chromium", allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = start_server(tmp_path_factory.mktemp("web-browser") / "home", TWIN_FOLD_SECONDS="0")
    try:
        with srv.client(srv.write, "alice") as api:
            added = [item.model_dump(mode="json", exclude_none=True) for item in sample_items()] + [HOSTILE]
            assert api.post("/v1/memory/add", json={"items": added}).status_code == 202
            ids = [i["id"] for i in added]
            deadline = time.monotonic() + 120
            while True:  # read by the server's own reader, and folded into pages
                phases = api.post("/v1/memory/status", json={"ids": ids}).json()["phases"]
                if set(phases.values()) == {"folded"}:
                    break
                assert time.monotonic() < deadline, f"not folded in 120 s: {phases}"
                time.sleep(0.3)
        yield srv
    finally:
        stop_server(srv)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield launched
        launched.close()


class Shots:
    def __init__(self, folder: Path, prefix: str):
        self.folder = folder
        self.prefix = prefix
        folder.mkdir(parents=True, exist_ok=True)
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.taken: list[Path] = []

    def __call__(self, page, name: str) -> None:
        path = self.folder / f"{self.prefix}-{len(self.taken) + 1:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        shutil.copy(path, SHOTS / path.name)
        self.taken.append(path)


def sign_in(page, server, token: str) -> None:
    page.goto(server.url + "/")
    page.fill("input[name=key]", token)
    page.click("button[type=submit]")
    page.wait_for_url(server.url + "/")


def test_read_key_signs_in_searches_and_opens_a_page_and_a_lineage(server, browser, tmp_path):
    shot = Shots(tmp_path / "shots", "read")
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(server.url + "/")
    assert page.locator("input[name=key]").is_visible()
    shot(page, "sign-in")
    sign_in(page, server, server.read)
    cookie = next(c for c in context.cookies() if c["name"] == "twin_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and server.read not in cookie["value"]
    assert server.read not in page.url
    assert page.locator("h1").inner_text() == "End users of acme.app"
    assert page.locator("td a", has_text="alice").count() == 1
    shot(page, "end-users")

    page.click("td a >> text=alice")
    assert page.locator("h1").inner_text() == "alice"
    assert page.locator(".subjects a").count() >= 1
    shot(page, "end-user")

    page.fill("input[name=q]", "Where does Alice live?")
    page.click(".search button[type=submit]")
    page.wait_for_selector("h2:has-text('Passages')")
    assert "Lisbon" in page.locator("main").inner_text()
    assert page.locator("a.danger").count() == 0  # a read key: no forget buttons
    shot(page, "search")
    page.check("input[name=fast]")
    page.click(".search button[type=submit]")
    page.wait_for_selector("text=unfiltered")
    assert "fast=1" in page.url

    page.goto(f"{server.url}/users/alice/search?q=Remember+this&fast=1")
    text = page.locator("main").inner_text()
    assert "<script>document.title='owned'</script>" in text and "<img src=x" in text  # shown as text
    assert page.title() != "owned" and not dialogs and page.locator("main script, main img").count() == 0
    shot(page, "escaped")

    page.goto(f"{server.url}/users/alice")
    page.click(".subjects a >> text=Alice Chen")
    assert page.locator("h1").inner_text() == "Alice Chen"
    home = page.locator(".timeline", has=page.locator("h3", has_text="home_city"))
    assert home.locator("li").first.inner_text().count("Berlin") == 1
    assert home.locator("li.now").inner_text().find("Lisbon") >= 0
    shot(page, "person")
    page.fill("input[name=before]", "2025-01-01")
    page.click(".asof button")
    known = page.locator("dl.known").inner_text()
    assert "Berlin" in known and "Lisbon" not in known
    shot(page, "person-as-of")

    page.goto(f"{server.url}/users/alice/pages/alice-chen")
    home.locator("a.rec").last.click()
    assert page.locator("h2", has_text="The turns it cites").is_visible()
    assert page.locator(".turn.cited").count() >= 2  # cited, and again in the conversation around them
    assert "made it" in page.locator(".commits").inner_text()
    shot(page, "lineage")
    context.close()


def test_write_key_forgets_a_turn_and_corrects_a_record_after_a_confirmation(server, browser, tmp_path):
    shot = Shots(tmp_path / "shots", "write")
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    sign_in(page, server, server.write)
    page.goto(f"{server.url}/users/alice/search?q=Remember+this&fast=1")
    page.locator(".turn", has_text="Remember this").locator("a.danger").click()
    assert "Forget the item msg-evil?" in page.locator("h1").inner_text()
    assert "Remember this" in page.locator(".turns").inner_text()
    shot(page, "forget-confirm")
    page.click("button.danger")
    assert page.locator("h1").inner_text() == "Forgotten"
    assert "msg-evil" in page.locator("main").inner_text()
    shot(page, "forgotten")
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {server.read}",
                                                    "X-Twin-Account": "alice"}) as api:
        status = api.post("/v1/memory/status", json={"ids": ["msg-evil"]}).json()
    assert status["phases"]["msg-evil"] == "unknown"

    page.goto(f"{server.url}/users/alice/pages/alice-chen")
    job = page.locator(".timeline", has=page.locator("h3", has_text="job"))
    job.locator("a.rec").first.click()
    page.click("text=Correct this record")
    assert "product designer" in page.locator("blockquote").inner_text()
    page.fill("input[name=reason]", "she changed jobs in 2025")
    page.fill("input[name=value]", "illustrator")
    shot(page, "correct-confirm")
    page.click("button.danger")
    assert page.locator("h1").inner_text() == "Corrected" and "takes its place" in page.locator("main").inner_text()
    shot(page, "corrected")
    page.goto(f"{server.url}/users/alice/pages/alice-chen")
    job = page.locator(".timeline", has=page.locator("h3", has_text="job"))
    assert "she changed jobs in 2025" in job.locator("li.corrected").inner_text()
    assert "illustrator" in job.locator("li.correction").inner_text()
    shot(page, "person-corrected")
    context.close()
