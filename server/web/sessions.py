"""The web view's sessions: kept in this process, named by a random cookie; the key never leaves the server.

itsdangerous (Starlette's signed-cookie sessions) is not in the environment, and a signed cookie would carry the
key to the browser besides: here the cookie holds only `secrets.token_urlsafe(32)`, and the session it names
holds the key and a CSRF token. A restart ends every session (the person signs in again)."""
from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import Response

COOKIE = "twin_session"
IDLE_SECONDS = 8 * 3600  # a session unused this long ends
MAX_SESSIONS = 10_000  # the oldest unused go first: a flood of sign-in forms cannot grow the store without end


@dataclass
class Session:
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    token: str | None = None  # the key signed in with; None until then
    seen: float = field(default_factory=time.monotonic)


class Sessions:
    def __init__(self, idle_seconds: float = IDLE_SECONDS, most: int = MAX_SESSIONS):
        self.idle_seconds = idle_seconds
        self.most = most
        self._by_id: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, request: Request) -> Session | None:
        sid = request.cookies.get(COOKIE)
        if not sid:
            return None
        with self._lock:
            session = self._by_id.get(sid)
            if session is None:
                return None
            if time.monotonic() - session.seen > self.idle_seconds:
                del self._by_id[sid]
                return None
            session.seen = time.monotonic()
            self._by_id.move_to_end(sid)
            return session

    def start(self, request: Request, token: str | None = None) -> tuple[str, Session]:
        """A new session (a new id: signing in never keeps the id the form was served under); `cookie` sends it."""
        self.end(request)
        sid = secrets.token_urlsafe(32)
        session = Session(token=token)
        with self._lock:
            self._by_id[sid] = session
            while len(self._by_id) > self.most:
                self._by_id.popitem(last=False)
        return sid, session

    @staticmethod
    def cookie(response: Response, request: Request, sid: str) -> None:
        response.set_cookie(COOKIE, sid, httponly=True, samesite="strict", path="/",
                            secure=request.url.scheme == "https")

    def end(self, request: Request, response: Response | None = None) -> None:
        sid = request.cookies.get(COOKIE)
        if sid:
            with self._lock:
                self._by_id.pop(sid, None)
        if response is not None:
            response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")


def csrf_ok(session: Session | None, sent: object) -> bool:
    """The form's token is the session's, compared in constant time."""
    return session is not None and isinstance(sent, str) and hmac.compare_digest(sent.encode(), session.csrf.encode())
