"""The OpenAPI document, built from the route table and the very pydantic models the routes validate with."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from twinfs import __version__

from .errors import ErrorBody
from .routes import OPERATIONS, Health

REF = "#/components/schemas/{model}"
ERRORS = {
    400: "X-Twin-Account is missing or not a usable id, or the body is not a JSON object.",
    401: "The bearer is not a key this service issued.",
    403: "A read key cannot write.",
    404: "Nothing was ever written for this end user, or no such file. Treat it as an empty memory.",
    413: "Body over 1000000 bytes.",
    422: "A field is out of bounds, such as an empty query or a date that is not a real day.",
    503: "At capacity, or this end user is being rebuilt. Retry after Retry-After seconds.",
}
HEADERS = [
    {"name": "X-Twin-Account", "in": "header", "required": True, "schema": {"type": "string", "maxLength": 64},
     "description": "The end user: letters, digits, '.', '_' and '-', starting with a letter or digit; "
                    "with the key's '<org>.<project>.' prefix at most 64 characters."},
    {"name": "X-Request-Id", "in": "header", "required": False, "schema": {"type": "string"},
     "description": "Your id for this request, echoed on the response. One is minted when absent."},
]


def _json(ref: dict[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": ref}}


def document() -> dict[str, Any]:
    """`{"openapi": "3.1.0", …}`; pydantic writes every schema, this only places them."""
    models: list[tuple[type[BaseModel], Any]] = [(ErrorBody, "serialization"), (Health, "serialization")]
    for op in OPERATIONS:
        models += [(op.body, "validation"), (op.answer, "serialization")]
    refs, defs = models_json_schema(models, ref_template=REF)

    def ref(model: type[BaseModel], mode: str) -> dict[str, Any]:
        return refs[(model, mode)]

    error = {"content": _json(ref(ErrorBody, "serialization"))}
    paths: dict[str, Any] = {}
    for op in OPERATIONS:
        responses: dict[str, Any] = {str(op.status): {"description": "OK",
                                                      "content": _json(ref(op.answer, "serialization"))}}
        for code in op.errors:
            responses[str(code)] = {"description": ERRORS[code], **error}
        if 503 in op.errors:
            responses["503"]["headers"] = {"Retry-After": {"schema": {"type": "integer"}}}
        paths[op.path] = {"post": {
            "operationId": op.name,
            "summary": op.summary,
            "security": [{"bearer": []}],
            "parameters": HEADERS,
            "requestBody": {"required": True, "content": _json(ref(op.body, "validation"))},
            "responses": responses,
        }}
    paths["/v1/health"] = {"get": {"operationId": "health", "summary": "Whether the server is up.",
                                   "responses": {"200": {"description": "OK",
                                                         "content": _json(ref(Health, "serialization"))}}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "twin memory (local-first)", "version": __version__},
        "paths": paths,
        "components": {"schemas": defs.get("$defs", {}),
                       "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer",
                                                      "description": "tm_… key; a read key reads, writing needs "
                                                                     "a write key"}}},
    }
