"""The app: lifespan (one Memory, the keys, two thread pools), request ids, error translation; and `serve`."""
from __future__ import annotations

import logging
import re
import secrets
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TypedDict

import anyio
from anyio import to_thread
from starlette.applications import Starlette
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from twinfs.errors import Invalid, TwinError
from twinfs.keys import Keys
from twinfs.memory import Memory
from twinfs.settings import Settings

from .errors import http_error, internal_error, twin_error
from .openapi import openapi_json
from .routes import routes
from .web import WebHeaders, web_routes

log = logging.getLogger("twinfs.server")
REQUEST_ID = re.compile(r"^[A-Za-z0-9._:@/+=-]{1,128}$")
READ_THREADS = 32
# adds with wait hold a thread up to 10 s: they get their own threads so they never starve reads
WRITE_THREADS = 64


class AppState(TypedDict):
    memory: Memory
    keys: Keys
    local_token: str | None
    readers: anyio.CapacityLimiter
    writers: anyio.CapacityLimiter


class RequestIds:
    """Echo X-Request-Id (or mint `req_<hex>`) on every answer; turn an unexpected exception into a JSON 500."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = Headers(scope=scope).get("x-request-id", "")
        request_id = given if REQUEST_ID.match(given) else f"req_{secrets.token_hex(8)}"
        started = False

        async def send_with_id(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                MutableHeaders(scope=message)["X-Request-Id"] = request_id
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except ClientDisconnect:
            log.info("client left during %s %s (request %s)", scope.get("method"), scope.get("path"), request_id)
        except Exception:
            log.exception("unexpected error on %s %s (request %s)", scope.get("method"), scope.get("path"),
                          request_id)
            if started:
                raise  # half an answer is out: only dropping the connection tells the client
            await internal_error()(scope, receive, send_with_id)


def create_app(settings: Settings, memory: Memory | None = None, owns: bool = False) -> Starlette:
    """The app for one twin home. A Memory passed in (tests) is used and left open unless `owns`; otherwise one
    is made. The app closes what it owns at shutdown: uvicorn raises SIGTERM again once it has stopped, which
    ends the process before any code after `uvicorn.run` (a landing cut short, the writer's mark left)."""
    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[AppState]:
        own = memory is None or owns
        mem = memory if memory is not None else await to_thread.run_sync(
            lambda: Memory(settings, owner="twin serve").start())
        try:
            # load the embedder now, so the first search does not pay for it
            await to_thread.run_sync(mem.warm)
            yield AppState(memory=mem, keys=Keys(settings.home), local_token=mem.lock.info.get("token"),
                        readers=anyio.CapacityLimiter(READ_THREADS), writers=anyio.CapacityLimiter(WRITE_THREADS))
        finally:
            if own:
                await to_thread.run_sync(mem.close)

    return Starlette(
        routes=[*routes(openapi_json), *web_routes()],
        middleware=[Middleware(RequestIds), Middleware(WebHeaders)],
        exception_handlers={TwinError: twin_error, HTTPException: http_error},
        lifespan=lifespan,
    )


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8765) -> None:
    import sys

    import uvicorn

    # Landing runs in this process's threads: a request waits for the GIL at every hop between the event loop
    # and its worker thread, by default up to 5 ms each time. 1 ms keeps a request's wait short.
    sys.setswitchinterval(0.001)
    # the home is owned before the port is bound: a second server on the same home stops here, naming the first
    memory = Memory(settings, owner="twin serve").start()
    try:
        sock = _bound(host, port)  # before the app starts: a port in use is one line, not a started-then-dead server
        memory.lock.serving(host, port)
        config = uvicorn.Config(create_app(settings, memory, owns=True), host=host, port=port, log_level="info",
                                server_header=False, timeout_graceful_shutdown=15)
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        memory.close()  # when uvicorn stopped without its lifespan's shutdown; else done already


def _bound(host: str, port: int) -> socket.socket:
    """A socket bound to host:port, or Invalid saying why it cannot be (in use, no such address)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
    except OSError as exc:
        raise Invalid(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise Invalid(f"cannot serve on {host}:{port}: {(exc.strerror or str(exc)).lower()}") from None
    return sock
