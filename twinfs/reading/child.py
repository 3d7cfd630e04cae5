"""A GGUF model served by llama-cpp-python in a process of its own, so a crash or a hang ends only that process.

    python -m twinfs.reading.child MODEL.gguf N_CTX N_THREADS

One JSON line in ({"messages", "schema", "max_tokens", "temperature"}), one JSON line out ({"text", "tokens"},
or {"error", "too_long"}); the first line out is {"ready": true} once the model is loaded. The protocol has
stdout to itself: whatever the library prints goes to stderr.
"""
from __future__ import annotations

import json
import os
import sys


def serve(path: str, n_ctx: int, n_threads: int) -> None:
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # llama.cpp's own prints must not reach the protocol
    from llama_cpp import Llama

    from .llama import grammar

    llm = Llama(model_path=path, n_ctx=n_ctx, n_threads=n_threads, n_batch=min(512, n_ctx), seed=0, verbose=False)
    out.write(json.dumps({"ready": True}) + "\n")
    for line in sys.stdin:
        ask = json.loads(line)
        try:
            answer = llm.create_chat_completion(messages=ask["messages"], temperature=ask["temperature"],
                                                max_tokens=ask["max_tokens"], grammar=grammar(ask["schema"]))
            assert isinstance(answer, dict)  # not streamed: one answer, not an iterator of chunks
            usage = answer.get("usage") or {}
            reply = {"text": answer["choices"][0]["message"]["content"] or "",
                     "tokens": int(usage.get("prompt_tokens", 0)) + int(usage.get("completion_tokens", 0))}
        except ValueError as e:  # llama-cpp-python raises ValueError when the prompt exceeds the context
            reply = {"error": str(e), "too_long": True}
        finally:
            llm.reset()
        out.write(json.dumps(reply) + "\n")


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
