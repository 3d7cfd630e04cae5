"""The model's second reading pass: one short closed question a record (or a clause the rules left alone), its
answer held to a JSON schema, and code's verdict on it.

    checker = Checker(llama)                      # a llama_cpp.Llama; the fixed prefix is evaluated once
    answer = checker.ask(Question(turn, before, attribute="hobby", value="new job as a nurse"))
    verdict = decide(question, answer)            # keep / replace / add / drop, with why

The model labels meaning (keep or drop, the attribute from CONCEPTS, the value); code decides whose fact it is and
whether it is asserted (assertion.gate), and refuses a value that is not a span of the turn. Every question is
the same instruction prefix followed by the turn: llama.cpp keeps the longest common prefix of the tokens it last
evaluated, so the prefix is evaluated once and each question costs only its own tokens (never alternate two
prompts: the kept prefix would be lost).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .assertion import gate

CONCEPTS = ("home", "hometown", "job", "employer", "school", "diet", "allergy", "health", "family", "partner", "pet",
            "hobby", "likes", "dislikes", "language", "age", "plans", "other")
VALUE_CHARS = 60
SCHEMA = {"type": "object", "additionalProperties": False, "required": ["keep", "attribute", "value"],
          "properties": {"keep": {"type": "boolean"}, "attribute": {"type": "string", "enum": list(CONCEPTS)},
                         "value": {"type": "string"}}}
# ChatML, which both shipped models (SmolLM2, Qwen2.5) use: the system part and the user's opening never change
PREFIX = (
    "<|im_start|>system\nYou check facts a person states about themself in a chat. You get the turn before, the "
    "person's turn, and a proposed fact (attribute and value). Answer in JSON: keep (true if the person states it "
    "about themself, as true now), attribute (one of: " + ", ".join(CONCEPTS) + "; family means a relative, "
    "likes/dislikes a taste, plans something they intend), value (the exact words from the person's turn, short, "
    "nothing added).<|im_end|>\n<|im_start|>user\n")
SUFFIX = "<|im_end|>\n<|im_start|>assistant\n"


@dataclass(frozen=True)
class Question:
    turn: str  # the speaker's turn, as said
    before: str = ""  # the turn before it (the other side's), for what "it"/"that" means
    attribute: str | None = None  # what the first pass set (None: a clause it left alone)
    value: str | None = None
    record: str | None = None  # the first pass's record id, when there is one

    def prompt(self) -> str:
        proposed = f"{self.attribute}: {self.value}" if self.attribute else "(none: find the fact)"
        return f"Before: {self.before[:300]}\nTurn: {self.turn[:600]}\nProposed: {proposed}" + SUFFIX


@dataclass(frozen=True)
class ModelAnswer:
    keep: bool
    attribute: str
    value: str


@dataclass(frozen=True)
class CheckVerdict:
    action: str  # "keep" | "replace" (a new attribute or value) | "add" | "drop" | "none" (nothing to add)
    attribute: str | None = None
    value: str | None = None
    why: str = ""


def span(value: str, turn: str) -> str | None:
    """`value` as said in `turn` (case as the turn has it), or None when the turn does not say those words."""
    value = value.strip().strip(".,;:!?\"'")
    if not value:
        return None
    hit = re.search(rf"(?<!\w){re.escape(value)}(?!\w)", turn, re.I)
    return hit.group(0) if hit else None


def concept(attribute: str | None) -> str | None:
    """The folding concept an attribute of the rules means ("home_city" -> "home"), or the attribute itself."""
    from ..folding import concept_of

    return (concept_of(attribute) if attribute else None) or attribute


def decide(question: Question, answer: ModelAnswer) -> CheckVerdict:
    """Code's verdict on the model's answer: only a span of the turn that the gate finds the speaker's, asserted
    (or of the kind the concept is made of: a plan, a dislike), is ever set."""
    had = question.attribute is not None
    if not answer.keep:
        return CheckVerdict("drop", why="the model read no fact of the speaker's here") if had else CheckVerdict("none")
    said = span(answer.value, question.turn)
    if said is None:
        why = f"the model's value {answer.value!r} is not said in the turn"
        return CheckVerdict("keep" if had else "none", why=why)
    if answer.attribute == "other":
        return CheckVerdict("keep" if had else "none", why="no attribute of a known kind")
    verdict = gate(question.turn, said, concept=answer.attribute)
    if not verdict.holds(answer.attribute):
        whose = f"{verdict.holder or verdict.whose}'s" if verdict.whose != "speaker" else ""
        why = f"not the speaker's own, asserted {answer.attribute}: " + (whose or ", ".join(sorted(verdict.reasons)))
        return CheckVerdict("drop", why=why) if had else CheckVerdict("none", why=why)
    same_concept = had and concept(question.attribute) == answer.attribute
    if same_concept and said.lower() == (question.value or "").lower():
        return CheckVerdict("keep", answer.attribute, said)
    if same_concept and (question.value or "").lower() in said.lower():
        return CheckVerdict("keep", answer.attribute, question.value, why="the model's value only adds words")
    return CheckVerdict("replace" if had else "add", answer.attribute, said,
                   why=f"checked: {answer.attribute} is {said!r}")


def grammar() -> Any:
    """SCHEMA as a llama.cpp grammar, its value one flat `[^"\\\n]{0,N}` and no optional spaces: the converter's own
    bounded string nests a rule per character, which makes each sampled token slow."""
    from llama_cpp.llama_grammar import LlamaGrammar, json_schema_to_gbnf

    lines = []
    for line in json_schema_to_gbnf(json.dumps(SCHEMA)).splitlines():
        if line.startswith("string ::="):
            line = f'string ::= "\\"" [^"\\\\\\n]{{0,{VALUE_CHARS}}} "\\""'
        elif line.startswith("space ::="):
            line = 'space ::= ""'
        lines.append(line)
    return LlamaGrammar.from_string("\n".join(lines), verbose=False)


class Checker:
    """Asks one model (a llama_cpp.Llama) the closed questions, greedily, under the schema's grammar.

    `evaluated` counts the prompt tokens the model actually evaluated (the prefix once, then each question)."""

    def __init__(self, llm: Any, max_tokens: int = 48):
        self.llm = llm
        self.max_tokens = max_tokens
        self.grammar = grammar()
        self.evaluated = 0
        self.questions = 0
        eval_tokens = llm.eval

        def counted(tokens):
            self.evaluated += len(tokens)
            return eval_tokens(tokens)

        llm.eval = counted
        self.prefix_tokens = len(llm.tokenize(PREFIX.encode(), add_bos=False, special=True))

    def ask(self, question: Question) -> ModelAnswer | None:
        """The model's answer, or None when it gave none that parses (then the record stays as the rules made it)."""
        self.questions += 1
        out = self.llm.create_completion(PREFIX + question.prompt(), max_tokens=self.max_tokens, temperature=0.0,
                                         top_k=1, grammar=self.grammar)
        try:
            body = json.loads(out["choices"][0]["text"])
            return ModelAnswer(bool(body["keep"]), str(body["attribute"]), str(body["value"]))
        except (ValueError, KeyError, TypeError):
            return None

    def check(self, questions: list[Question]) -> list[tuple[Question, ModelAnswer | None, CheckVerdict]]:
        """One window's questions, in order (all share the prefix)."""
        done = []
        for q in questions:
            answer = self.ask(q)
            done.append((q, answer, decide(q, answer) if answer else CheckVerdict("keep", why="no answer")))
        return done


def load(path: str, n_threads: int = 2, n_ctx: int = 1024) -> Any:
    """A Llama for checking: a small context (one question at a time), one model loaded once."""
    from llama_cpp import Llama

    return Llama(model_path=path, n_ctx=n_ctx, n_threads=n_threads, n_batch=256, seed=0, verbose=False)


def questions(records: list[Any], turns: list[Any]) -> list[Question]:
    """One question for each live record with an attribute the first pass made from a user's turn: the turn it
    cites and the turn before. `turns`: the thread's turns in order (each with .id, .text, .role)."""
    order = {t.id: n for n, t in enumerate(turns)}
    asked = []
    for r in records:
        if r.retracted or not r.attribute or not r.turns or r.turns[0] not in order:
            continue
        n = order[r.turns[0]]
        if getattr(turns[n], "role", "user") != "user":
            continue
        before = turns[n - 1].text if n > 0 else ""
        asked.append(Question(turns[n].text, before, r.attribute, r.value, r.id))
    return asked


def amend(correct: Any, user: Any, checked: list[tuple[Question, ModelAnswer | None, CheckVerdict]]) -> list[str]:
    """What the model changed, through `correct(user, request)` (Memory.correct, as a person's: a commit each;
    the old record retracted with the reason, never deleted; a new value a corrected copy). Returns the ids
    retracted."""
    from ..models import CorrectRequest

    done = []
    for question, _, verdict in checked:
        if not question.record or verdict.action not in ("drop", "replace"):
            continue
        if verdict.action == "replace" and verdict.attribute != concept(question.attribute):
            reason = f"model check: {verdict.why}; read as {verdict.attribute}, not {question.attribute}"
            value = None  # the attribute is wrong: the record goes; a new one is the reader's to make
        else:
            reason, value = f"model check: {verdict.why}", verdict.value
        correct(user, CorrectRequest(id=question.record, reason=reason[:2000], value=value))
        done.append(question.record)
    return done
