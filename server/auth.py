"""Who is asking: the bearer names a key (org, project, role); X-Twin-Account names the end user within them."""
from __future__ import annotations

import hmac

from starlette.requests import Request

from twinfs.errors import Forbidden
from twinfs.keys import Keys
from twinfs.models import EndUser


def account(request: Request) -> str | None:
    """X-Twin-Account as sent: HTTP hands header bytes over as Latin-1, and a client sends UTF-8, so an error names
    "bób" as typed, not "bÃ³b" (the id is refused all the same: it is ASCII)."""
    value = request.headers.get("x-twin-account")
    try:
        return value.encode("latin-1").decode("utf-8") if value else value
    except UnicodeError:
        return value


def _owner(request: Request) -> EndUser | None:
    """The end user named beside the owner's loopback token, or None when the bearer is not that token."""
    local = request.state.local_token
    scheme, _, token = (request.headers.get("authorization") or "").partition(" ")
    if local and scheme.lower() == "bearer" and hmac.compare_digest(token.strip().encode(), local.encode()):
        return EndUser.parse(request.headers.get("x-twin-org", "local"), request.headers.get("x-twin-project",
                                                                                              "default"),
                             account(request))
    return None


def owner(request: Request, keys: Keys) -> EndUser:
    """Only the owner's loopback token: 401 for an unknown bearer, 403 for any key this service issued."""
    user = _owner(request)
    if user is None:
        keys.check(request.headers.get("authorization"))
        raise Forbidden(f"{request.url.path} answers only the token in this home's owner.lock: run `twin sync` "
                        "on the server's machine")
    return user


def end_user(request: Request, keys: Keys, write: bool) -> EndUser:
    """401 for an unknown bearer, 403 for a read key writing, 400 for a missing or unusable account.

    The org and project come from the key, never from the request, so a key reaches only its own end users.
    The one exception is the owner's loopback token (home_lock.py), which only a process that can read the home's
    files holds: it names them in X-Twin-Org and X-Twin-Project (`twin mcp` beside a running server).
    """
    user = _owner(request)
    if user is not None:
        return user
    return keyed_user(keys, request.headers.get("authorization"), account(request), write, request.url.path)


def keyed_user(keys: Keys, authorization: str | None, account: str | None, write: bool, what: str) -> EndUser:
    """The end user a key reaches (the API's bearer, the web view's session): 401, 403 for a read key writing,
    400 for a missing or unusable account."""
    key = keys.check(authorization)
    if write and not key.can_write:
        raise Forbidden(f"{what} writes: this is a read key of {key.org}.{key.project}; use a write key")
    return EndUser.parse(key.org, key.project, account)
