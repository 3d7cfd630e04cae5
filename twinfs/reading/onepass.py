"""One running sequence a passage (#33): the model pass's check questions and the
passage's keys asked in one chat whose tokens only grow, so llama.cpp evaluates each turn of the passage once.

    run = PassageRun(checker)                     # checking.Checker over a llama_cpp.Llama (n_ctx >= CONTEXT)
    checked, keys = run.passage(passage_text, asked)   # asked: the check questions of the passage's turns

The sequence: a fixed system part (the check's instructions and the keys', evaluated once: every passage starts
with it), then the passage's lines in order (`Speaker: words`), each check question asked right after the last
line of the turn it is about (the turn before is already in the context), its answer kept; after the last line,
the keys question (its only new tokens: one short line and the answer). llama-cpp-python keeps the longest common
prefix of the tokens it last evaluated (Llama.generate), so each completion evaluates only what was appended since
the last one. Two costs of the separate prompts go: the turn before evaluated again with each user turn, and the
whole passage evaluated again for its keys (~350 tokens, most of a key's cost).

The model pass asks this way by default (checkpass.ONEPASS), measured against the separate prompts on 4 Dec 2026
(bench/results/model_keys.md, reading_checked.md): the keys 25% of the check (50%), the check no slower, the second
set's gold all found with nothing set wrongly, the tuning half's recall with the keys unchanged. The risk stays in
view: the check's answers are made with more in the context, and the small model copies an earlier answer at
times (code's span check makes no record of a copy that the turn does not say).
"""
from __future__ import annotations

import time
from typing import Any

from .checking import CONCEPTS, CheckVerdict, Question, parse_model_answer, schema_of, verdict_of
from .keys import CHARS, MAX_TOKENS, NAMES, QUESTIONS, lines_of, parse_answer
from .keys import SCHEMA as KEYS_SCHEMA

CONTEXT = 2048  # tokens the model's context must hold: the system part (~330), a passage (~350 at most ~450),
# its questions and answers (~6 x 35) and the keys' answer (<= 80); a passage past it asks the rest afresh
# The check's instructions (checking.INSTRUCTIONS) said of a passage read line by line, and the keys' (keys.PREFIX)
# with their worked example inline: one system part, so every passage's sequence begins with the same tokens.
SYSTEM = (
    "<|im_start|>system\nYou read a chat passage line by line; each line is one speaker's turn, their name first. "
    "After a turn you may get some words or a sentence of that turn (the last line): answer in JSON: attribute "
    "(what those words tell about that speaker, one of: " + ", ".join(CONCEPTS) + "; family means a relative, "
    "partner a spouse or partner, likes/dislikes a taste, plans something they intend, other anything else), value "
    "(the exact words of the turn that name it, short: a place, a job, a name, a food; nothing added), keep (true "
    "when the speaker says it of themself; false when it is someone else's, a wish, an if or a question). "
    "Each question is about its own turn only. At the end you are asked to index the passage for search: answer "
    f"in JSON: questions (up to {QUESTIONS} questions someone may later ask, each answered by what one speaker says "
    "of themself in the passage, naming that speaker and the specific thing in the passage's words: an object, "
    f"place, activity, person or date), about (up to {NAMES} specific things, places, activities or people it "
    "tells of, not the speakers). For example, the passage \"Amy: We drove to Lisbon last week, my first time "
    "seeing the ocean!\nBen: Wow! I only know the lake by my farm.\" is indexed as "
    '{"questions":["When did Amy drive to Lisbon?","Where did Amy first see the ocean?"],'
    '"about":["Lisbon","the ocean","Ben\'s farm"]}.<|im_end|>\n<|im_start|>user\n')
ASK = "<|im_end|>\n<|im_start|>assistant\n"
AFTER = "<|im_end|>\n<|im_start|>user\n"
# the keys' request restated where it is asked (the system part is a passage away): without it the model copied
# the chat's own questions ("How did it make you feel?"), which code's check drops (bench/results/model_keys.md)
INDEX = ("Index the passage: questions naming the speaker who says it of themself and the specific thing, never "
         "\"you\"; about: things, places, activities or people.")



class PassageRun:
    """Asks a passage's check questions and its keys through one checking.Checker's loaded model, in one running
    sequence. `seconds`: spent on the check questions and on the keys, for the keys' share of the pass."""

    def __init__(self, checker: Any):
        self.checker = checker
        self.llm = checker.llm
        self.seconds = {"check": 0.0, "keys": 0.0}
        self.fresh = 0  # sequences begun again past CONTEXT (their passage's keys asked the separate way)

    def _tokens(self, text: str, first: bool = False) -> list[int]:
        return list(self.llm.tokenize(text.encode(), add_bos=first, special=True))

    def passage(self, passage_text: str, asked: list[Question], keys: bool = True,
                timed: dict[str, float] | None = None) -> tuple[list[tuple[Question, Any, CheckVerdict]], Any]:
        """The check questions of `asked` (those about a turn of the passage; a note or another turn's question is
        asked the separate way, after) and, with `keys`, the passage's keys as the model wrote them (None: none
        parse). `timed`: each question's key -> its seconds (the lines appended before it counted with it)."""
        lines = lines_of(passage_text)
        last = {turn_id: n for n, (_, turn_id) in enumerate(lines) if turn_id}
        here = [q for q in asked if q.note is None and q.turn_id in last]
        # a turn asked about is given as code reads it (own_words.as_read: another's lines of a pasted chat out), on
        # its first line; its other lines are left empty, so each question still follows the turn's last line
        said = {q.turn_id: q.turn for q in here}
        first: dict[str, int] = {}
        for n, (_, turn_id) in enumerate(lines):
            if turn_id:
                first.setdefault(turn_id, n)
        lines = [(line, turn_id) if turn_id not in said else
                 (f"{line.split(': ', 1)[0]}: {said[turn_id]}" if n == first[turn_id or ""] else "", turn_id)
                 for n, (line, turn_id) in enumerate(lines)]
        by_line: dict[int, list[Question]] = {}
        for q in here:
            by_line.setdefault(last[q.turn_id or ""], []).append(q)
        tokens, pending, whole = self._tokens(SYSTEM, first=True), "", True
        n_ctx = self.llm.n_ctx() if hasattr(self.llm, "n_ctx") else CONTEXT
        answered: dict[int, tuple[Question, Any, CheckVerdict]] = {}
        for n, (line, _) in enumerate(lines):
            pending += line + "\n" if line else ""
            for q in by_line.get(n, []):
                started = time.perf_counter()
                self.checker.questions += 1
                prompt = self._tokens(pending + q.focus() + ASK)
                if len(tokens) + len(prompt) + self.checker.max_tokens > n_ctx:  # begun again: the turn before, this
                    self.fresh, whole = self.fresh + 1, False
                    at = first.get(q.turn_id or "", n)  # the turn's own line, and the line said before it
                    before = next((lines[k][0] + "\n" for k in range(at - 1, -1, -1) if lines[k][0]), "")
                    tokens = self._tokens(SYSTEM, first=True)
                    prompt = self._tokens(before + lines[at][0] + "\n" + q.focus() + ASK)
                tokens += prompt
                text = self.checker.answer_to(tokens, schema_of(q), 60, 0, self.checker.max_tokens)
                tokens += self._tokens(text + AFTER)
                pending = ""
                answer = parse_model_answer(text)
                answered[id(q)] = (q, answer, verdict_of(q, answer))
                spent = time.perf_counter() - started
                self.seconds["check"] += spent
                if timed is not None:
                    timed[q.key] = timed.get(q.key, 0.0) + spent
        keyed = None
        if keys:  # before any question asked the separate way, which would leave the running sequence
            started = time.perf_counter()
            ask = self._tokens(pending + INDEX + ASK)
            if whole and len(tokens) + len(ask) + MAX_TOKENS <= n_ctx:
                keyed = parse_answer(self.checker.answer_to(tokens + ask, KEYS_SCHEMA, CHARS, 1, MAX_TOKENS))
            else:
                from .keys import KeyWriter

                self.fresh += whole
                keyed = KeyWriter(self.checker).answer(passage_text)
            self.seconds["keys"] += time.perf_counter() - started
        done = [answered[id(q)] for q in asked if id(q) in answered]
        rest = [q for q in asked if id(q) not in answered]
        if rest:
            started = time.perf_counter()
            done += self.checker.check(rest)
            self.seconds["check"] += time.perf_counter() - started
        return done, keyed
