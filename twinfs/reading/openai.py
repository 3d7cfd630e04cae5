"""The reader on any OpenAI-compatible chat endpoint (llama.cpp server, vLLM, Ollama, hosted APIs) via httpx."""
from __future__ import annotations

import threading
import time

import httpx

from ..errors import Invalid, Unavailable
from .prompts import MAX_RECORDS, ask
from .records import Outcome
from .windows import Window


def chat_url(url: str) -> str:
    """`http://host:8080`, `…/v1` or `…/v1/chat/completions` -> the chat completions address."""
    url = url.strip().rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise Invalid(f"reader url '{url}' is not an http(s) address", field="url")
    if url.endswith("/chat/completions"):
        return url
    if not url.endswith("/v1"):
        url += "/v1"
    return url + "/chat/completions"


class OpenAIReader:
    """Reads windows by `POST /v1/chat/completions`; the answer is held to the schema when the server can.

    `timeout`: seconds a whole answer may take; past it the window is read again later (Unavailable)."""

    judges = True  # an endpoint answers a search's filter in a second or two: it judges the brief too

    def __init__(self, url: str, model: str | None = None, api_key: str | None = None, timeout: float = 300.0,
                 max_tokens: int = 1024, temperature: float = 0.0, max_records: int = MAX_RECORDS,
                 client: httpx.Client | None = None):
        self.url = chat_url(url)
        self.model = model
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.max_records = max_records
        self.timeout = timeout
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = client or httpx.Client(timeout=timeout, headers=headers)
        # OpenAI's own `json_schema` first; servers that refuse it (llama-cpp-python's) take `json_object`+schema
        self._mode = "json_schema"
        self._lock = threading.Lock()
        self.name = f"openai:{model or self.url}"

    def _model(self) -> str:
        """The model to name: the one configured, else the endpoint's first listed model."""
        with self._lock:
            if self.model is None:
                listing = self.url.rsplit("/chat/completions", 1)[0] + "/models"
                try:
                    data = self._client.get(listing).json().get("data") or []
                except (httpx.HTTPError, ValueError, AttributeError):
                    data = []
                self.model = str(data[0].get("id")) if data and isinstance(data[0], dict) else "default"
            return self.model

    def _format(self, schema: dict) -> dict:
        if self._mode == "json_schema":
            return {"type": "json_schema", "json_schema": {"name": "records", "schema": schema}}
        return {"type": "json_object", "schema": schema}

    def _post(self, body: dict) -> httpx.Response:
        """The answer, read whole within `timeout` seconds: httpx's own timeout bounds each wait for a byte, so an
        endpoint that trickles an answer forever is cut off here."""
        deadline = time.monotonic() + self.timeout
        try:
            with self._client.stream("POST", self.url, json=body) as response:
                chunks = []
                for chunk in response.iter_bytes():
                    chunks.append(chunk)
                    if time.monotonic() > deadline:
                        raise httpx.ReadTimeout(f"no whole answer within {self.timeout:g} s")
                return httpx.Response(response.status_code, content=b"".join(chunks),
                                      headers={"content-type": response.headers.get("content-type", "")})
        except httpx.HTTPError as e:
            raise Unavailable(f"reader endpoint {self.url} did not answer: {e or type(e).__name__}",
                              retry_after=30) from e

    def _complete(self, messages: list[dict], schema: dict) -> tuple[str, int]:
        while True:
            body = {"model": self._model(), "messages": messages, "temperature": self.temperature,
                    "max_tokens": self.max_tokens, "response_format": self._format(schema)}
            response = self._post(body)
            refused = response.status_code in (400, 422) or "response_format" in response.text[:2000]
            if response.status_code >= 400 and refused and self._mode == "json_schema":
                self._mode = "json_object"
                continue
            if response.status_code >= 400:
                raise Unavailable(f"reader endpoint {self.url} answered {response.status_code}: "
                                  f"{response.text[:200]}", retry_after=30)
            break
        try:
            data = response.json()
            text = data["choices"][0]["message"]["content"] or ""
        except (ValueError, KeyError, IndexError, TypeError):
            return response.text, 0  # not a chat completion: a bad answer, asked again once
        usage = data.get("usage") or {}
        tokens = usage.get("total_tokens") or (usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0))
        return text, int(tokens or 0)

    def read(self, window: Window) -> Outcome:
        return ask(window, self._complete, self.max_records)

    def close(self) -> None:
        self._client.close()
