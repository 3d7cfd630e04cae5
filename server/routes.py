"""The routes: one small function and one table entry each. The table also writes the OpenAPI document."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from anyio import to_thread
from pydantic import BaseModel, Field, ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from twinfs import __version__
from twinfs.errors import Invalid, describe
from twinfs.memory import Memory
from twinfs.models import (
    AddRequest,
    AddResult,
    CorrectRequest,
    CorrectResult,
    EndUser,
    ForgetRequest,
    ForgetResult,
    GrepRequest,
    GrepResult,
    HistoryRequest,
    HistoryResult,
    LineageRequest,
    LineageResult,
    OwnerSyncRequest,
    ReadRequest,
    ReadResult,
    SearchRequest,
    SearchResult,
    StatusRequest,
    StatusResult,
    SyncRequest,
    SyncResult,
)

from .auth import end_user, owner
from .body import parse_object, read_body


@dataclass(frozen=True)
class Operation:
    """One `POST /v1/memory/<name>`: the body it validates with, the answer it gives; `Memory.<name>` answers it."""

    name: str
    body: type[BaseModel]
    answer: type[BaseModel]
    summary: str
    write: bool = False  # needs a write key; runs on the writers' threads
    status: int = 200
    errors: tuple[int, ...] = (400, 401, 413, 422)

    @property
    def path(self) -> str:
        return f"/v1/memory/{self.name}"


OPERATIONS: list[Operation] = [
    Operation("add", AddRequest, AddResult, write=True, status=202, errors=(400, 401, 403, 413, 422, 503),
              summary="Add items (messages, documents); 202 once they are durable. `wait` holds it until they land."),
    Operation("status", StatusRequest, StatusResult,
              summary="The phase of up to 500 item or event ids. No model call."),
    Operation("search", SearchRequest, SearchResult, errors=(400, 401, 404, 413, 422, 503),
              summary="Ask one end user's memory a question: the brief, or a ranked list with scope or after."),
    Operation("grep", GrepRequest, GrepResult, errors=(400, 401, 404, 413, 422),
              summary="Lines of the vault's files that match a pattern: path, line number, text."),
    Operation("read", ReadRequest, ReadResult, errors=(400, 401, 404, 413, 422),
              summary="A file of the vault as stored: a passage, records/<thread>.json or #N, a page."),
    Operation("history", HistoryRequest, HistoryResult, errors=(400, 401, 404, 413, 422),
              summary="Every value of a subject (or of one attribute) over time, with said/happened days and records."),
    Operation("correct", CorrectRequest, CorrectResult, write=True, errors=(400, 401, 403, 404, 413, 422),
              summary="Retract a record, or replace its value, with a reason: a commit; search stops returning it."),
    Operation("forget", ForgetRequest, ForgetResult, write=True, errors=(400, 401, 403, 404, 413, 422),
              summary="Remove items (or whole threads, th_…) and all derived from them: files, indexes, pages and git "
                      "history. The rest of their threads is read again."),
    Operation("sync", SyncRequest, SyncResult, write=True, errors=(400, 401, 403, 404, 413, 422, 503),
              summary="Sync this end user's vault with the git remote the operator configured (a client cannot "
                      "name one): what came in, whether this machine's commits went out, files kept both ways."),
    Operation("lineage", LineageRequest, LineageResult, errors=(400, 401, 404, 413, 422),
              summary="A record, the text of its turns, its source passage and every commit that touched it."),
]


def validate(model: type[BaseModel], raw: bytes) -> BaseModel:
    return validated(model, parse_object(raw))


def validated(model: type[BaseModel], data: dict) -> BaseModel:
    """The request model, or Invalid naming the field (the HTTP API's 422, the MCP tools' error)."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise Invalid(describe(exc)) from None


def endpoint(name: str, who: Callable[[Request], EndUser], answer: Callable[[Memory, EndUser, bytes], BaseModel],
             write: bool, status: int = 200) -> Callable[[Request], Any]:
    async def handle(request: Request) -> Response:
        state = request.state
        user = who(request)
        raw = await read_body(request)

        def work() -> bytes:
            # parsing, validating and answering all happen off the event loop, next to the Memory call
            return answer(state.memory, user, raw).model_dump_json(exclude_none=True).encode()

        limiter = state.writers if write else state.readers
        content = await to_thread.run_sync(work, limiter=limiter)
        return Response(content, status_code=status, media_type="application/json")

    handle.__name__ = name
    return handle


def handler(op: Operation) -> Callable[[Request], Any]:
    return endpoint(op.name, lambda request: end_user(request, request.state.keys, op.write),
                    lambda memory, user, raw: getattr(memory, op.name)(user, validate(op.body, raw)),
                    op.write, op.status)


OWNER_SYNC = "/v1/owner/sync"


def owner_sync(memory: Memory, user: EndUser, raw: bytes) -> SyncResult:
    """`twin sync` beside a running server, sent through it: the operator names the remote, and may hand the
    vault to another server (leave) or keep it here (stay). Not in the OpenAPI document: no key reaches it."""
    body: OwnerSyncRequest = validate(OwnerSyncRequest, raw)  # type: ignore[assignment]
    return memory.sync_with(user, body.remote, leave=body.leave, stay=body.stay)


class Health(BaseModel):
    """Counts only: who the end users are, and why one is in trouble, are theirs (status notes)."""

    ok: bool
    version: str
    users: int
    embedder: str
    reading: bool
    broken: int = Field(description="vaults that could not be repaired when opened")
    failing: int = Field(description="end users whose landing or reading keeps failing (retried with back-off)")
    synced: int = Field(description="vaults with a git remote")
    sync_failed: int = Field(description="vaults whose last sync failed")


async def health(request: Request) -> Response:
    memory: Memory = request.state.memory
    counts = await to_thread.run_sync(memory.health, limiter=request.state.readers)
    body = Health(ok=True, version=__version__, embedder=memory.embedder.name, reading=memory.settings.reading,
                  **counts)
    return Response(body.model_dump_json(), media_type="application/json")


def routes(openapi: Callable[[Request], Any]) -> list[Route]:
    return [*(Route(op.path, handler(op), methods=["POST"], name=op.name) for op in OPERATIONS),
            Route(OWNER_SYNC, endpoint("owner_sync", lambda request: owner(request, request.state.keys), owner_sync,
                                       write=True), methods=["POST"], name="owner_sync"),
            Route("/v1/health", health, methods=["GET"], name="health"),
            Route("/v1/openapi.json", openapi, methods=["GET"], name="openapi")]
