"""Request bodies: at most MAX_BODY bytes, never read whole before the limit is checked, and a JSON object."""
from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

from twinfs.errors import BadRequest, TooLarge

MAX_BODY = 1_000_000
JSON_KINDS = {list: "an array", str: "a string", int: "a number", float: "a number", bool: "a boolean",
              type(None): "null"}


def too_large(limit: int) -> TooLarge:
    return TooLarge(f"body over {limit} bytes: send fewer or smaller items per request")


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The raw body; refused from its Content-Length, or as soon as a streamed body passes the limit."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise too_large(limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large(limit)
        chunks.append(chunk)
    return b"".join(chunks)


def parse_object(raw: bytes) -> dict[str, Any]:
    """JSON text -> a dict, or BadRequest saying what is wrong with it."""
    if not raw.strip():
        raise BadRequest("the body is empty: send a JSON object")
    try:
        data = json.loads(raw)
    except UnicodeDecodeError:
        raise BadRequest("the body is not UTF-8 text: send a JSON object") from None
    except json.JSONDecodeError as exc:
        raise BadRequest(f"the body is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise BadRequest("the body is not usable JSON: it is nested too deeply") from None
    if not isinstance(data, dict):
        raise BadRequest(f"the body must be a JSON object, not {JSON_KINDS.get(type(data), 'that')}")
    if b"\\ud" in raw.lower():  # JSON may escape half of a surrogate pair, which no file can hold as UTF-8
        try:
            json.dumps(data, ensure_ascii=False).encode()
        except UnicodeEncodeError:
            raise BadRequest("the body holds a lone UTF-16 surrogate (\\ud800-\\udfff): it is not Unicode text") \
                from None
    return data
