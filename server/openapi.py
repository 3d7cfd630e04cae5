"""The OpenAPI document, built from the route table and the very pydantic models the routes validate with.

Requests are described as the validators check them (pydantic's validation schemas: every bound and text form);
answers as they leave (`model_dump_json(exclude_none=True)`: a field that is None is absent, never null). The
X-Twin-Account bound depends on the key's `<org>.<project>.` prefix, so a request for the document that carries
a key gets that key's exact bound; without one, the widest any key allows.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, models_json_schema
from pydantic_core import core_schema
from starlette.requests import Request
from starlette.responses import Response

from twinfs import __version__
from twinfs.errors import TwinError
from twinfs.forms import ACCOUNT_ID
from twinfs.models import MAX_USER_DIR

from .body import MAX_BODY
from .errors import ErrorBody
from .routes import OPERATIONS, Health

REF = "#/components/schemas/{model}"
ERRORS = {
    400: "X-Twin-Account is missing or not a usable id, or the body is not a JSON object.",
    401: "The bearer is not a key this service issued.",
    403: "A read key cannot write.",
    404: "Nothing was ever written for this end user, or no such file. Treat it as an empty memory.",
    413: f"Body over {MAX_BODY} bytes: refused from its Content-Length, or once that much of it has arrived.",
    422: "A field is out of bounds, such as an empty query or a date that is not a real day.",
    503: "At capacity, or this end user is being rebuilt. Retry after Retry-After seconds.",
}
# headers every answer, or every answer with that status, carries
REQUEST_ID = {"X-Request-Id": {"required": True, "schema": {"type": "string", "minLength": 1},
                               "description": "The request's X-Request-Id when it was usable, else a minted req_…"}}
ERROR_HEADERS = {
    401: {"WWW-Authenticate": {"required": True, "schema": {"const": "Bearer"}}},
    413: {"Connection": {"required": True, "schema": {"const": "close"},
                         "description": "The rest of the body is never read, so the connection closes."}},
    503: {"Retry-After": {"required": True, "schema": {"type": "integer", "minimum": 1},
                          "description": "Seconds to wait before trying again."}},
}
SHORTEST_PREFIX = len("o.p.")  # organisation and project ids are at least one character each
SAME_ACCOUNT = {"header.X-Twin-Account": "$request.header.X-Twin-Account"}
# Follow-up calls for stateful clients and fuzzers (add -> status -> search …). A requestBody object holding
# expressions is schemathesis's extension of OpenAPI links; other tools take it as a literal.
LINKS: dict[str, dict[str, dict[str, Any]]] = {
    "add": {
        "ItemStatus": {"operationId": "status", "requestBody": {"ids": "$response.body#/ids"}},
        "EventStatus": {"operationId": "status", "requestBody": {"ids": ["$response.body#/event"]}},
        "GrepItem": {"operationId": "grep", "requestBody": {"pattern": "$response.body#/ids/0"}},
        "ForgetItems": {"operationId": "forget", "requestBody": {"ids": "$response.body#/ids"}},
    },
    "status": {
        "SearchItem": {"operationId": "search", "requestBody": {"query": "$request.body#/ids/0"}},
    },
    "search": {
        "ReadHit": {"operationId": "read", "requestBody": {"path": "$response.body#/hits/0/path"}},
        "FactLineage": {"operationId": "lineage", "requestBody": {"id": "$response.body#/facts/0/id"}},
    },
    "grep": {
        "ReadLine": {"operationId": "read", "requestBody": {"path": "$response.body#/lines/0/path"}},
    },
    "forget": {
        "ForgottenStatus": {"operationId": "status", "requestBody": {"ids": "$request.body#/ids"}},
    },
}


class AnswerSchema(GenerateJsonSchema):
    """Pydantic's generator, but an answer's None field is optional and non-null: it is left out, never sent."""

    def nullable_schema(self, schema: core_schema.NullableSchema) -> dict[str, Any]:
        if self.mode == "serialization":
            return self.generate_inner(schema["schema"])
        return super().nullable_schema(schema)

    def default_schema(self, schema: core_schema.WithDefaultSchema) -> dict[str, Any]:
        out = super().default_schema(schema)
        if self.mode == "serialization" and out.get("default", ...) is None:
            out.pop("default")
        return out

    def model_schema(self, schema: core_schema.ModelSchema) -> dict[str, Any]:
        out = super().model_schema(schema)
        if self.mode == "serialization" and "properties" in out and schema["cls"].model_config.get("extra") != "allow":
            out["additionalProperties"] = False  # an answer holds its model's fields and no others
        return out

    def field_is_required(self, field: Any, total: bool) -> bool:
        if self.mode == "serialization" and _nullable(field["schema"]):
            return False
        return super().field_is_required(field, total)


def _nullable(schema: Any) -> bool:
    while schema["type"] == "default":
        schema = schema["schema"]
    return schema["type"] == "nullable"


def parameters(longest: int) -> list[dict[str, Any]]:
    return [
        {"name": "X-Twin-Account", "in": "header", "required": True,
         "schema": {"type": "string", "minLength": 1, "maxLength": longest, "pattern": f"^{ACCOUNT_ID.pattern}$"},
         "description": "The end user: letters, digits, '.', '_' and '-', starting with a letter or digit; with "
                        f"the key's '<org>.<project>.' prefix at most {MAX_USER_DIR} characters (this document, "
                        "fetched with your key, states your bound)."},
        {"name": "X-Request-Id", "in": "header", "required": False, "schema": {"type": "string"},
         "description": "Your id for this request, echoed on the response when it is 1-128 of letters, digits "
                        "and . _ : @ / + = -; one is minted otherwise."},
    ]


def _json(ref: dict[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": ref}}


def document(longest: int = MAX_USER_DIR - SHORTEST_PREFIX) -> dict[str, Any]:
    """`{"openapi": "3.1.0", …}` for keys whose accounts may be up to `longest` characters; pydantic writes
    every schema, this only places them."""
    models: list[tuple[type[BaseModel], Any]] = [(ErrorBody, "serialization"), (Health, "serialization")]
    for op in OPERATIONS:
        models += [(op.body, "validation"), (op.answer, "serialization")]
    refs, defs = models_json_schema(models, ref_template=REF, schema_generator=AnswerSchema)
    names = {op.name for op in OPERATIONS}

    def answer(description: str, model: type[BaseModel], headers: dict[str, Any] | None = None) -> dict[str, Any]:
        return {"description": description, "headers": {**REQUEST_ID, **(headers or {})},
                "content": _json(refs[(model, "serialization")])}

    paths: dict[str, Any] = {}
    for op in OPERATIONS:
        ok = answer("OK", op.answer)
        links = LINKS.get(op.name, {})
        if links:
            assert all(link["operationId"] in names for link in links.values()), links
            ok["links"] = {name: {**link, "parameters": SAME_ACCOUNT} for name, link in links.items()}
        responses = {str(op.status): ok}
        for code in op.errors:
            responses[str(code)] = answer(ERRORS[code], ErrorBody, ERROR_HEADERS.get(code))
        paths[op.path] = {"post": {
            "operationId": op.name,
            "summary": op.summary,
            "security": [{"bearer": []}],
            "parameters": parameters(longest),
            "requestBody": {"required": True, "content": _json(refs[(op.body, "validation")])},
            "responses": responses,
        }}
    paths["/v1/health"] = {"get": {"operationId": "health", "summary": "Whether the server is up.",
                                   "responses": {"200": answer("OK", Health)}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "twin memory (local-first)", "version": __version__},
        "paths": paths,
        "components": {"schemas": defs.get("$defs", {}),
                       "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer",
                                                      "description": "tm_… key; a read key reads, writing needs "
                                                                     "a write key"}}},
    }


@lru_cache(maxsize=64)
def document_bytes(longest: int) -> bytes:
    return json.dumps(document(longest), ensure_ascii=False).encode()


async def openapi_json(request: Request) -> Response:
    """The document; with a known key in Authorization, stating that key's exact X-Twin-Account bound."""
    longest = MAX_USER_DIR - SHORTEST_PREFIX
    if request.headers.get("authorization"):
        try:
            key = request.state.keys.check(request.headers["authorization"])
            longest = MAX_USER_DIR - len(f"{key.org}.{key.project}.")
        except TwinError:
            pass  # the document is public: an unknown bearer gets the general one
    return Response(document_bytes(longest), media_type="application/json")
