"""Every error leaves as `{"error": {"status": N, "message": "…"}}`: domain errors, HTTP ones, and the unexpected."""
from __future__ import annotations

import logging

from pydantic import BaseModel
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from twinfs.errors import TwinError, Unavailable

log = logging.getLogger("twinfs.server")


class ErrorDetail(BaseModel):
    status: int
    message: str


class ErrorBody(BaseModel):
    """The body of every answer that is not a success."""

    error: ErrorDetail


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    body = ErrorBody(error=ErrorDetail(status=status, message=message)).model_dump_json()
    return Response(body, status_code=status, headers=headers, media_type="application/json")


def twin_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, TwinError)
    headers: dict[str, str] = {}
    if isinstance(exc, Unavailable):
        headers["Retry-After"] = str(exc.retry_after)
    if exc.status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    if exc.status == 413:
        headers["Connection"] = "close"  # the rest of the body is never read, so this connection cannot go on
    if exc.status >= 500 and exc.status != 503:
        log.error("%s %s answered %d: %s", request.method, request.url.path, exc.status, exc.message)
    return error_response(exc.status, exc.message, headers)


def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own 404 (no route) and 405 (wrong method), as JSON."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        message = f"no route {request.method} {request.url.path}: the routes are listed at /v1/openapi.json"
    elif exc.status_code == 405:
        allowed = (exc.headers or {}).get("Allow", "")
        message = f"{request.method} is not allowed on {request.url.path}: use {allowed or 'another method'}"
    else:
        message = exc.detail
    return error_response(exc.status_code, message, dict(exc.headers or {}))


def internal_error() -> Response:
    return error_response(500, "internal error: the server logged it; the request may be retried")
