"""The web view's pages: sign in, end users, an end user, a person's page, search, lineage, correct and forget.

Every page calls the Memory functions the API's routes call, with the end user the signed-in key reaches
(server.auth.keyed_user: the key's own organisation and project, as for the API)."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jinja2
from anyio import to_thread
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.templating import Jinja2Templates

from twinfs.errors import BadRequest, Forbidden, TwinError, Unauthorized
from twinfs.forms import as_utc
from twinfs.keys import Key
from twinfs.models import EndUser

from ..auth import keyed_user
from .sessions import Session, Sessions, csrf_ok

HERE = Path(__file__).parent
MAX_FORM = 20_000  # bytes: a sign-in, a reason, a value
templates = Jinja2Templates(env=jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"),
                                                   autoescape=True, undefined=jinja2.StrictUndefined))
sessions = Sessions()


def when(value: str | None) -> str:
    """An ISO time as a person reads it, in UTC to the minute: `2026-10-01 09:30 UTC`."""
    if not value:
        return ""
    try:
        return as_utc(datetime.fromisoformat(value.replace("Z", "+00:00"))).strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        return value


templates.env.filters["when"] = when


# why the sign-in form is shown again, named in its address by a code (never by text an address could carry)
WHY = {"revoked": "That key is no longer valid: sign in again.", "first": "Sign in first."}


class SignIn(Exception):
    """No session with a usable key: back to the sign-in form, saying why (a code of WHY)."""

    def __init__(self, why: str = "first"):
        self.why = why


class Signed:
    """The signed-in session and its key, checked again at each request (a revoked key ends the session)."""

    def __init__(self, request: Request, session: Session, key: Key):
        self.request = request
        self.session = session
        self.key = key

    def user(self, account: str, write: bool = False, what: str = "this page") -> EndUser:
        return keyed_user(self.request.state.keys, f"Bearer {self.session.token}", account, write, what)


def signed(request: Request) -> Signed:
    session = sessions.get(request)
    if session is None or not session.token:
        raise SignIn()
    try:
        key = request.state.keys.check(f"Bearer {session.token}")
    except Unauthorized:
        sessions.end(request)
        raise SignIn("revoked") from None
    return Signed(request, session, key)


def render(request: Request, name: str, context: dict[str, Any], status: int = 200,
           me: Signed | None = None) -> Response:
    context = {"me": me, "csrf": me.session.csrf if me else None, "query": urlencode, **context}
    return templates.TemplateResponse(request, name, context, status_code=status,
                                      headers={"Cache-Control": "no-store"})


def sign_in_form(request: Request, why: str = "", status: int = 200) -> Response:
    sid, session = sessions.start(request)
    response = templates.TemplateResponse(request, "login.html", {"me": None, "csrf": session.csrf, "why": why},
                                          status_code=status, headers={"Cache-Control": "no-store"})
    sessions.cookie(response, request, sid)
    return response


Handler = Callable[[Request, Signed], Awaitable[Response]]


def page(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """A page that needs a signed-in key: a TwinError is shown as a page with its status, not as JSON."""
    async def endpoint(request: Request) -> Response:
        try:
            me = signed(request)
        except SignIn as exc:
            if request.method == "GET" and request.url.path == "/":
                return sign_in_form(request, WHY.get(request.query_params.get("why", "")) or
                                    ("" if exc.why == "first" else WHY[exc.why]))
            if request.method == "GET":
                return RedirectResponse("/?" + urlencode({"why": exc.why}), 303)
            return sign_in_form(request, WHY[exc.why], 401)
        try:
            if request.method == "POST":
                form = await read_form(request)
                if not csrf_ok(me.session, form.get("csrf")):
                    raise Forbidden("this form's token is not this session's (an old page, or another site's "
                                    "form): open the page again and resend it")
                request.state.form = form
            return await handler(request, me)
        except TwinError as exc:
            return render(request, "error.html", {"status": exc.status, "message": exc.message}, exc.status, me)

    endpoint.__name__ = handler.__name__
    return endpoint


async def read_form(request: Request) -> dict[str, str]:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_FORM:
        raise BadRequest(f"the form is over {MAX_FORM} bytes")
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/x-www-form-urlencoded":
        raise BadRequest("send the form as application/x-www-form-urlencoded")
    form = await request.form(max_files=0, max_fields=20)
    return {name: value for name, value in form.items() if isinstance(value, str)}


async def off_loop(request: Request, work: Callable[[], Any], write: bool = False) -> Any:
    """Memory's calls block: run on the API's own thread pools."""
    state = request.state
    return await to_thread.run_sync(work, limiter=state.writers if write else state.readers)


async def sign_in(request: Request) -> Response:
    session = sessions.get(request)
    try:
        form = await read_form(request)
    except TwinError as exc:
        return sign_in_form(request, exc.message, exc.status)
    if not csrf_ok(session, form.get("csrf")):
        return sign_in_form(request, "The form had expired: sign in again.", 403)
    token = form.get("key", "").strip()
    try:
        request.state.keys.check(f"Bearer {token}")
    except Unauthorized:
        return sign_in_form(request, "That is not a key this service issued.", 401)
    sid, _ = sessions.start(request, token)
    response = RedirectResponse("/", 303)
    sessions.cookie(response, request, sid)
    return response


async def sign_out(request: Request) -> Response:
    session = sessions.get(request)
    try:
        form = await read_form(request)
    except TwinError:
        form = {}
    if not csrf_ok(session, form.get("csrf")):
        return sign_in_form(request, "The form had expired.", 403)
    response = RedirectResponse("/", 303)
    sessions.end(request, response)
    return response
