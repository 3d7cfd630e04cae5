"""The web view's routes, one function each; `web_routes()` is what server/app.py mounts at `/`."""
from __future__ import annotations

import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from twinfs.errors import BadRequest, NotFound, Unavailable
from twinfs.memory import Memory
from twinfs.models import (
    CorrectRequest,
    EndUser,
    ForgetRequest,
    GrepRequest,
    HistoryRequest,
    LineageRequest,
    ReadRequest,
    Record,
    SearchRequest,
)
from twinfs.passages import parse

from ..routes import validated
from .people import end_users, subjects
from .present import page_view, timelines, turns_of
from .views import HERE, Signed, off_loop, page, render, sign_in, sign_out


def memory_of(request: Request) -> Memory:
    return request.state.memory


@page
async def home(request: Request, me: Signed) -> Response:
    rows = await off_loop(request, lambda: end_users(memory_of(request), me.key.org, me.key.project))
    return render(request, "users.html", {"rows": rows}, me=me)


@page
async def end_user(request: Request, me: Signed) -> Response:
    user = me.user(request.path_params["account"])
    memory = memory_of(request)
    found = await off_loop(request, lambda: subjects(memory, user))
    return render(request, "user.html", {"account": user.account, "subjects": found}, me=me)


def retracted_records(memory: Memory, user: EndUser, threads: set[str]) -> list[Record]:
    """The records of these threads and of every thread holding a correction, retracted ones only."""
    marked = memory.grep(user, GrepRequest(pattern='"retracted": {', scope="records/"))
    threads |= {line.path.removeprefix("records/").removesuffix(".json") for line in marked.lines}
    out = []
    for thread in sorted(threads):
        try:
            stored = json.loads(memory.read(user, ReadRequest(path=f"records/{thread}.json")).content)
        except (NotFound, ValueError):
            continue
        out += [Record.model_validate(r) for r in stored if isinstance(r, dict) and r.get("retracted")]
    return out


@page
async def person(request: Request, me: Signed) -> Response:
    user = me.user(request.path_params["account"])
    slug = request.path_params["slug"]
    before = request.query_params.get("before") or None
    if before is not None:  # the day as search's `before` takes it
        before_day = validated(SearchRequest, {"query": "-", "before": before}).before_at  # type: ignore[attr-defined]
        before = before_day.date().isoformat()
    memory = memory_of(request)

    def work() -> dict:
        view = page_view(memory.read(user, ReadRequest(path=f"pages/{slug}.md")).content, slug)
        history = memory.history(user, HistoryRequest(subject=view.subject)).values
        threads = {r.split("#")[0] for v in history for r in v.records}
        names = {n.casefold() for n in [view.subject, *view.aliases]}
        retracted = [r for r in retracted_records(memory, user, threads) if r.subject.casefold() in names]
        lines, worked = timelines(view.subject, history, retracted, before)
        return {"view": view, "timelines": lines, "worked": worked}

    found = await off_loop(request, work)
    return render(request, "person.html", {"account": user.account, "slug": slug, "before": before, **found}, me=me)


@page
async def search(request: Request, me: Signed) -> Response:
    user = me.user(request.path_params["account"])
    params = request.query_params
    q = params.get("q", "")
    fast = params.get("fast") == "1"
    before = params.get("before") or None
    answer = None
    if q.strip():
        body = {"query": q, "fast": fast, **({"before": before} if before else {})}
        req = validated(SearchRequest, body)
        answer = await off_loop(request, lambda: memory_of(request).search(user, req))  # type: ignore[arg-type]
    hits = [(hit, *turns_of(hit.text)) for hit in (answer.hits if answer else [])]
    return render(request, "search.html", {"account": user.account, "q": q, "fast": fast, "before": before or "",
                                           "answer": answer, "hits": hits}, me=me)


def record_id(request: Request, form: bool = False) -> str:
    value = (request.state.form if form else request.query_params).get("id", "")
    if not value:
        raise BadRequest("name a record: ?id=th_…#r…")
    return value


@page
async def lineage(request: Request, me: Signed) -> Response:
    user = me.user(request.path_params["account"])
    req = validated(LineageRequest, {"id": record_id(request)})
    found = await off_loop(request, lambda: memory_of(request).lineage(user, req))  # type: ignore[arg-type]
    passage = parse(found.source.content) if found.source.content else None
    context, conversation = turns_of(passage.body) if passage else (None, [])
    return render(request, "lineage.html", {"account": user.account, "found": found, "context": context,
                                            "conversation": conversation,
                                            "cited": set(found.record.turns)}, me=me)


LISTINGS = 5  # listings of a thread's passages taken while cuts keep changing them, before giving up


def what_goes(memory: Memory, user: EndUser, target: str) -> tuple[list, list[str]]:
    """The turns an id names (an item, or a whole thread th_…), as the passages hold them, and their passages."""
    if target.startswith("th_"):
        for _ in range(LISTINGS):
            found = memory.grep(user, GrepRequest(pattern=f"thread: {target}", scope="passages/"))
            paths = sorted({line.path for line in found.lines if line.text.strip() == f"thread: {target}"})
            try:
                turns = [t for p in paths for t in turns_of(parse(memory.read(user, p).content).body)[1]]
            except NotFound:
                continue  # a cut took a passage away since the listing (its turns are in others): list them again
            return turns, paths
        raise Unavailable(f"the passages of {target} keep changing (turns landing in it): try again in a moment")
    found = memory.grep(user, GrepRequest(pattern=f" ^{target}", scope="passages/"))
    lines = [line for line in found.lines if line.text.endswith(f" ^{target}")]
    turns = [t for line in lines for t in turns_of(line.text)[1]]
    return turns, sorted({line.path for line in lines})


@page
async def forget(request: Request, me: Signed) -> Response:
    account = request.path_params["account"]
    memory = memory_of(request)
    if request.method == "GET":
        user = me.user(account, write=True, what="forget")
        target = request.query_params.get("id", "")
        validated(ForgetRequest, {"ids": [target]})
        turns, paths = await off_loop(request, lambda: what_goes(memory, user, target))
        return render(request, "forget.html", {"account": account, "target": target, "turns": turns,
                                               "paths": paths}, me=me)
    user = me.user(account, write=True, what="forget")
    req = validated(ForgetRequest, {"ids": [request.state.form.get("id", "")]})
    result = await off_loop(request, lambda: memory.forget(user, req), write=True)  # type: ignore[arg-type]
    return render(request, "forgotten.html", {"account": account, "result": result}, me=me)


@page
async def correct(request: Request, me: Signed) -> Response:
    account = request.path_params["account"]
    memory = memory_of(request)
    user = me.user(account, write=True, what="correct")
    if request.method == "GET":
        req = validated(LineageRequest, {"id": record_id(request)})
        found = await off_loop(request, lambda: memory.lineage(user, req))  # type: ignore[arg-type]
        return render(request, "correct.html", {"account": account, "found": found}, me=me)
    form = request.state.form
    body = {"id": record_id(request, form=True), "reason": form.get("reason", "")}
    if form.get("value", "").strip():
        body["value"] = form["value"].strip()
    req = validated(CorrectRequest, body)
    result = await off_loop(request, lambda: memory.correct(user, req), write=True)  # type: ignore[arg-type]
    return render(request, "corrected.html", {"account": account, "result": result}, me=me)


async def no_favicon(request: Request) -> Response:
    return Response(status_code=204)


def web_routes() -> list[BaseRoute]:
    static = StaticFiles(directory=Path(HERE / "static"))
    return [Route("/", home, methods=["GET"], name="web_home"),
            Route("/login", sign_in, methods=["POST"], name="web_login"),
            Route("/logout", sign_out, methods=["POST"], name="web_logout"),
            Route("/login", lambda request: RedirectResponse("/", 303), methods=["GET"]),
            Route("/favicon.ico", no_favicon, methods=["GET"]),
            Route("/users/{account}", end_user, methods=["GET"], name="web_user"),
            Route("/users/{account}/pages/{slug}", person, methods=["GET"], name="web_page"),
            Route("/users/{account}/search", search, methods=["GET"], name="web_search"),
            Route("/users/{account}/lineage", lineage, methods=["GET"], name="web_lineage"),
            Route("/users/{account}/forget", forget, methods=["GET", "POST"], name="web_forget"),
            Route("/users/{account}/correct", correct, methods=["GET", "POST"], name="web_correct"),
            Mount("/static", static, name="web_static")]
