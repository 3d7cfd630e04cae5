"""Keys written by the model at reading time: for each passage of a thread the model pass checked, a few short
questions the passage answers and the people, places and things it is about, kept beside it (passage_keys.py) so
search finds it by them too (doc2query; LongMemEval's fact-augmented keys).

One fixed instruction prefix, then the passage, under a JSON-schema grammar (each question and name a short flat
string, a handful of each), asked through the model pass's own Checker.complete (checking.py): the same loaded
model, the same kept prefix, the same token count, and an endpoint checker asks its served model the same way. The
model pass asks a passage's keys at the end of the running sequence of its check questions (onepass.py, SCHEMA and
bounds from here); this way (key_thread) serves a passage that one left without keys, and a served model.
"""
from __future__ import annotations

import json
import logging
import time
from typing import Any

from ..passage_keys import PassageKeys, keys_path, write_keys
from .keycheck import check_keys

log = logging.getLogger("twinfs.reading")
QUESTIONS, NAMES, CHARS = 2, 3, 60  # at most so many questions and names, each at most CHARS characters
PASSAGE_CHARS = 1400  # of the passage's text the model reads: all of it (LoCoMo's: median 1,224, at most 1,356)
SCHEMA = {"type": "object", "additionalProperties": False, "required": ["questions", "about"],
          "properties": {"questions": {"type": "array", "items": {"type": "string"}, "maxItems": QUESTIONS},
                         "about": {"type": "array", "items": {"type": "string"}, "maxItems": NAMES}}}
# One fixed prefix, a worked example (invented) in it: the passage comes after, so the kept prefix serves every one.
PREFIX = (
    "<|im_start|>system\nYou index a chat passage for search. Each line is one speaker's turn, their name first. "
    f"Answer in JSON: questions (up to {QUESTIONS} questions someone may later ask, each answered by what one "
    "speaker says of themself here, naming that speaker and the specific thing in the passage's words: an object, "
    f"place, activity, person or date), about (up to {NAMES} specific things, places, activities or people it "
    "tells of, not the speakers).<|im_end|>\n<|im_start|>user\n"
    "Amy: We drove to Lisbon last week, my first time seeing the ocean!\nBen: Wow! I only know the lake by my "
    "farm.<|im_end|>\n<|im_start|>assistant\n"
    '{"questions":["When did Amy drive to Lisbon?","Where did Amy first see the ocean?"],'
    '"about":["Lisbon","the ocean","Ben\'s farm"]}<|im_end|>\n<|im_start|>user\n')
SUFFIX = "<|im_end|>\n<|im_start|>assistant\n"
MAX_TOKENS = 80  # the answer's tokens at most (the example's: 36)


def lines_of(passage_text: str) -> list[tuple[str, str | None]]:
    """The passage as the model reads it, a line each: its context line and each turn as `Speaker: words`, without
    the times and the block ids; each with the id of the turn it is part of (None: the context line)."""
    from ..passages import TURN_LINE, parse

    out: list[tuple[str, str | None]] = []
    for line in parse(passage_text).body.splitlines():
        text, _, turn_id = line.rpartition(" ^") if " ^" in line else (line, "", "")
        text = text.strip()
        if text:
            turn = TURN_LINE.match(text)
            out.append((f"{turn.group(1)}: {turn.group(2)}" if turn else text, turn_id.strip() or None))
    return out


def body_of(passage_text: str) -> str:
    """The passage as the model reads it for its keys asked alone (lines_of's lines, at most PASSAGE_CHARS)."""
    return "\n".join(line for line, _ in lines_of(passage_text))[:PASSAGE_CHARS]


def parse_answer(text: str) -> PassageKeys | None:
    """The model's JSON answer as keys (each kept once, blanks dropped), or None when it does not parse."""
    try:
        body = json.loads(text)
        return PassageKeys(tuple(dict.fromkeys(q.strip() for q in body["questions"] if q.strip())),
                           tuple(dict.fromkeys(a.strip() for a in body["about"] if a.strip())))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


class KeyWriter:
    """Asks the model pass's checker (checking.Checker: its loaded model, greedily, under the schema's grammar made
    once) for a passage's keys: each string 1 to CHARS characters, at most `max_tokens`."""

    def __init__(self, checker: Any, max_tokens: int = MAX_TOKENS):
        self.checker = checker
        self.max_tokens = max_tokens
        self.asked = 0
        self.seconds = 0.0  # spent asking, for the keys' share of the pass

    def answer(self, passage_text: str) -> PassageKeys | None:
        """The model's keys for a passage as it wrote them, or None when it gave none that parses."""
        started = time.perf_counter()
        try:
            return parse_answer(self.checker.complete(PREFIX, body_of(passage_text) + SUFFIX, SCHEMA, most=CHARS,
                                                      least=1, max_tokens=self.max_tokens))
        finally:
            self.asked += 1
            self.seconds += time.perf_counter() - started

    def keys(self, passage_text: str) -> PassageKeys | None:
        """The model's keys that the passage bears out (keycheck.py), or None when none parse or stand."""
        answer = self.answer(passage_text)
        return (check_keys(answer, passage_text) or None) if answer else None


_WRITERS: dict[int, KeyWriter] = {}  # id of a checker -> its key writer


def writer_for(checker: Any) -> KeyWriter | None:
    """The key writer that asks through the model pass's checker (None: no model, no keys)."""
    if checker is None:
        return None
    if id(checker) not in _WRITERS:
        _WRITERS[id(checker)] = KeyWriter(checker)
    return _WRITERS[id(checker)]


def key_thread(space: Any, thread: str, writer: KeyWriter | None, stop: Any = None) -> int:
    """Keys written for the passages of a thread that have no keys file yet (one kept or edited by hand is never
    written over), indexed and committed one passage at a time; returns how many. `stop()`: give way now."""

    if writer is None:
        return 0
    done = keyed_passages(space, thread)
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
            written += keep_keys(space, thread, path, keys, done)
    return written


def keyed_passages(space: Any, thread: str) -> set[str]:
    """The passages of a thread whose keys were asked (a model that gave none is not asked again each pass)."""
    return set(json.loads(space.state.get(f"keyed:{thread}") or "[]"))


def keep_keys(space: Any, thread: str, path: str, keys: PassageKeys | None, done: set[str]) -> bool:
    """Under the writer: the passage's keys (if any) written beside it, indexed and committed, and the passage
    noted among `done`, the thread's passages asked (keyed). Returns whether keys were written."""
    from ..passage_keys import index_keys

    if keys:
        rel = write_keys(space, path, keys)
        index_keys(space, [path])
        space.vault.commit(f"keys: {path.rsplit('/', 1)[-1]} of {thread} (model)", [rel])
    done.add(path)
    space.state.put(f"keyed:{thread}", json.dumps(sorted(done)))
    return bool(keys)
