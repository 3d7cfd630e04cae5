"""Who is asking: the bearer names a key (org, project, role); X-Twin-Account names the end user within them."""
from __future__ import annotations

import hmac

from starlette.requests import Request

from twinfs.errors import Forbidden
from twinfs.keys import Keys
from twinfs.models import EndUser


def end_user(request: Request, keys: Keys, write: bool) -> EndUser:
    """401 for an unknown bearer, 403 for a read key writing, 400 for a missing or unusable account.

    The org and project come from the key, never from the request, so a key reaches only its own end users.
    The one exception is the owner's loopback token (owner.py), which only a process that can read the home's
    files holds: it names them in X-Twin-Org and X-Twin-Project (`twin mcp` beside a running server).
    """
    local = request.state.local_token
    scheme, _, token = (request.headers.get("authorization") or "").partition(" ")
    if local and scheme.lower() == "bearer" and hmac.compare_digest(token.strip().encode(), local.encode()):
        return EndUser.parse(request.headers.get("x-twin-org", "local"), request.headers.get("x-twin-project",
                                                                                              "default"),
                             request.headers.get("x-twin-account"))
    key = keys.check(request.headers.get("authorization"))
    if write and not key.can_write:
        raise Forbidden(f"{request.url.path} writes: this is a read key of {key.org}.{key.project}; "
                        "use a write key")
    return EndUser.parse(key.org, key.project, request.headers.get("x-twin-account"))
