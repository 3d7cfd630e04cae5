"""Keys written by the model at reading time: for each passage of a thread the model pass checked, a few short
questions the passage answers and the people, places and things it is about, kept beside it (passage_keys.py) so
search finds it by them too (doc2query; LongMemEval's fact-augmented keys).

One fixed instruction prefix, then the passage, under a JSON-schema grammar (each question and name a short flat
string, a handful of each): the same way the model pass asks its closed questions (checking.py), with a prefix of
its own. The model pass asks its questions for a thread first and the keys after, so each prefix is evaluated
again only once a thread, not at every question.
"""
from __future__ import annotations

import json
import logging
from typing import Any

from ..passage_keys import PassageKeys, keys_path, write_keys
from . import checking

log = logging.getLogger("twinfs.reading")
QUESTIONS, NAMES, CHARS = 3, 4, 60  # at most so many questions and names, each at most CHARS characters
PASSAGE_CHARS = 1000  # of the passage's text the model reads (a passage holds at most ~1,400)
SCHEMA = {"type": "object", "additionalProperties": False, "required": ["questions", "about"],
          "properties": {"questions": {"type": "array", "items": {"type": "string"}, "maxItems": QUESTIONS},
                         "about": {"type": "array", "items": {"type": "string"}, "maxItems": NAMES}}}
PREFIX = (
    "<|im_start|>system\nYou index a passage of a chat for search. Answer in JSON: questions (up to "
    f"{QUESTIONS} short questions someone may ask later whose answer the passage holds: what a named person did, "
    f"has, plans, likes or felt, and when; never about the chat itself), about (up to {NAMES} people, places and "
    "things it is about, as named in it).<|im_end|>\n<|im_start|>user\n")
SUFFIX = "<|im_end|>\n<|im_start|>assistant\n"


def grammar() -> Any:
    """SCHEMA as a llama.cpp grammar, each string one flat `[^"\\\n]{1,CHARS}` (checking.grammar's, for the same
    reason: the converter's bounded strings make each token slow)."""
    return checking.grammar(SCHEMA, most=CHARS, least=1)


def body_of(passage_text: str) -> str:
    """The passage as the model reads it: its turns without the front matter and the block ids."""
    from ..passages import parse

    body = parse(passage_text).body
    lines = [line.rsplit(" ^", 1)[0] for line in body.splitlines() if line.strip()]
    return "\n".join(lines)[:PASSAGE_CHARS]


class KeyWriter:
    """Asks one model (a llama_cpp.Llama) for a passage's keys, greedily, under the schema's grammar."""

    def __init__(self, llm: Any, max_tokens: int = 120):
        self.llm = llm
        self.max_tokens = max_tokens
        self.grammar = grammar()

    def keys(self, passage_text: str) -> PassageKeys | None:
        """The model's keys for a passage, or None when it gave none that parses."""
        out = self.llm.create_completion(PREFIX + body_of(passage_text) + SUFFIX, max_tokens=self.max_tokens,
                                         temperature=0.0, top_k=1, grammar=self.grammar)
        try:
            body = json.loads(out["choices"][0]["text"])
            return PassageKeys(tuple(dict.fromkeys(q.strip() for q in body["questions"] if q.strip())),
                               tuple(dict.fromkeys(a.strip() for a in body["about"] if a.strip())))
        except (ValueError, KeyError, TypeError, AttributeError):
            return None


_WRITERS: dict[int, KeyWriter] = {}  # id of a loaded model -> its key writer (its grammar parsed once)


def writer_for(checker: Any) -> KeyWriter | None:
    """The key writer that shares the model pass's loaded model (None: no model, no keys)."""
    llm = getattr(checker, "llm", None)
    if llm is None:
        return None
    if id(llm) not in _WRITERS:
        _WRITERS[id(llm)] = KeyWriter(llm)
    return _WRITERS[id(llm)]


def key_thread(space: Any, thread: str, writer: KeyWriter | None, stop: Any = None) -> int:
    """Keys written for the passages of a thread that have no keys file yet (one kept or edited by hand is never
    written over), indexed and committed one passage at a time; returns how many. `stop()`: give way now."""
    from ..passage_keys import index_keys

    if writer is None:
        return 0
    state = f"keyed:{thread}"  # the passages asked (a model that gave no keys is not asked again each pass)
    done = set(json.loads(space.state.get(state) or "[]"))
    written = 0
    for path in sorted(set(space.state.cuts(thread)) - done):
        if (stop and stop()) or space.pending():
            break  # landing first; the rest next time
        try:
            text = space.vault.read(path)
        except FileNotFoundError:
            continue
        keys = None if space.vault.path(keys_path(path)).exists() else writer.keys(text)
        with space.writer:
            if keys:
                rel = write_keys(space, path, keys)
                index_keys(space, [path])
                space.vault.commit(f"keys: {path.rsplit('/', 1)[-1]} of {thread} (model)", [rel])
                written += 1
            done.add(path)
            space.state.put(state, json.dumps(sorted(done)))
    return written
