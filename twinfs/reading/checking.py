"""The model's second reading pass: one short closed question a record (or a clause the rules left alone), its
answer held to a JSON schema, and code's verdict on it.

    checker = Checker(llama)                      # a llama_cpp.Llama; the fixed prefix is evaluated once
    answer = checker.ask(Question(turn, before, attribute="hobby", value="new job as a nurse"))
    verdict = decide(question, answer)            # keep / replace / add / drop, with why
    asked = questions(records, turns)             # a thread's: its records, and the sentences the rules left alone

The model labels meaning (keep or drop, the attribute from CONCEPTS, the value); code decides whose fact it is and
whether it is asserted (assertion.gate, on the turn as the rules read it), and refuses a value that is not a span
of the turn. Every question is the same instruction prefix followed by the turn: llama.cpp keeps the longest common
prefix of the tokens it last evaluated, so the prefix is evaluated once (never alternate two prompts).
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
from dataclasses import dataclass
from typing import Any

from .assertion import gate, stated_before
from .clauses import held_to, left_alone
from .fields import FieldDecoder, fits
from .kinds import NAMED_PLACES, RELABELLED, SIBLINGS, WORK_SAID, misfit, stands_as_read
from .own_words import as_read

CONCEPTS = ("home", "hometown", "job", "employer", "school", "diet", "allergy", "health", "family", "partner", "pet",
            "hobby", "likes", "dislikes", "language", "age", "plans", "other")
VALUE_CHARS = 60
# the kind first (what a small model labels well), then the words, then whether the person says it of themself
SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["attribute", "value", "keep"],
    "properties": {"attribute": {"type": "string", "enum": list(CONCEPTS)}, "value": {"type": "string"},
                   "keep": {"type": "boolean"}}}


def schema_of(question: Question) -> dict:
    """The answer's schema: a clause question's value one of the sentence's `spans`; a record's as SCHEMA (free:
    the rules' words are what is checked)."""
    return held_to(SCHEMA, question.clause) if question.clause and question.note is None else SCHEMA


# ChatML, which both shipped models (SmolLM2, Qwen2.5) use: the system part and the user's opening never change.
# The rules' label is never shown: a small model echoes a label it is given, so it names the kind of fact itself.
INSTRUCTIONS = (
    "<|im_start|>system\nYou read what a person says in a chat. You get the turn before, the person's turn, and "
    "some words or a sentence of that turn. Answer in JSON: attribute (what those words tell about the person, one "
    "of: " + ", ".join(CONCEPTS) + "; family means a relative, partner a spouse or partner, likes/dislikes a "
    "taste, plans something they intend, other anything else), value (the exact words of the turn that name it, "
    "short: a place, a job, a name, a food; nothing added), keep (true when the person says it of themself; false "
    "when it is someone else's, a wish, an if or a question).")
PREFIX = INSTRUCTIONS + "<|im_end|>\n<|im_start|>user\n"
# A record without a value (an event, a feeling) is asked one thing: whether it reads alone. Its prefix is the same
# instructions and then its own (llama.cpp keeps the instructions' KV state when the questions switch); a window's
# note questions come after its others, with worked examples (invented: nothing to copy) in the prefix. Not asked by
# default (`questions(notes=True)`): Qwen2.5-Coder-1.5B drops more right records than wrong ones
# (bench/results/reading_checked.md, 4 Dec 2026), so the pass leaves them as the rules made them.
def _shown(before: str, turn: str, note: str, keep: bool) -> str:
    """One worked example of a note question, as a turn of the chat the prefix is (not a prompt's own values)."""
    return (f"Before: {before}\nTurn: {turn}\nNote: {note}<|im_end|>\n<|im_start|>assistant\n"
            f'{{"keep":{str(keep).lower()}}}<|im_end|>\n<|im_start|>user\n')


NOTE_PREFIX = INSTRUCTIONS + (
    " Or you get a note written of the turn. For a note, answer in JSON: keep (true when the note, read alone by a "
    "stranger, tells a fact about the person: what they did, have, are, like or plan; false when it is a saying, "
    "cheering, small talk, or speaks of something only the turn before names).<|im_end|>\n<|im_start|>user\n") + (
    _shown("What did you cook?", "A big pot of soup! I put in extra garlic, so good.", "Sam put in extra garlic",
           False)
    + _shown("How was your week?", "I adopted a puppy named Rex on Monday!", "Sam adopted a puppy named Rex", True)
    + _shown("I finally finished my thesis!", "That's amazing, all that hard work pays off in the end.",
             "Hard work pays off in the end", False)
    + _shown("Any news?", "I started learning the violin, it's hard but fun.", "Sam started learning the violin", True)
    + _shown("Opening the bakery is so hard.", "Hang in there! You got this, it'll be worth it in the end.",
             "Sam is sure it'll be worth it in the end", False)
    + _shown("What did you do at the weekend?", "We went to the beach and swam in the sea.",
             "Sam and others went to the beach and swam in the sea", True))
NOTE_SCHEMA = {"type": "object", "additionalProperties": False, "required": ["keep"],
               "properties": {"keep": {"type": "boolean"}}}
SUFFIX = "<|im_end|>\n<|im_start|>assistant\n"


@dataclass(frozen=True)
class Question:
    turn: str  # the speaker's turn, as said
    before: str = ""  # the turn before it (the other side's), for what "it"/"that" means
    attribute: str | None = None  # what the first pass set (None: a clause it left alone)
    value: str | None = None
    record: str | None = None  # the first pass's record id, when there is one
    clause: str | None = None  # the sentence of the turn the first pass left alone (a question without a record)
    turn_id: str | None = None  # the turn's id (what a record added from the answer cites)
    note: str | None = None  # a record without a value: its text (the question is whether it reads alone)

    @property
    def key(self) -> str:
        """What the pass notes as asked: the record's id, or the turn and its sentence."""
        if self.record:
            return self.record
        digest = hashlib.sha256((self.clause or self.turn).encode()).hexdigest()[:12]
        return f"clause:{self.turn_id}:{digest}"

    def focus(self) -> str:
        """What is asked about the turn: the record's words, its note, or the sentence the rules left alone."""
        if self.note:
            return f"Note: {self.note[:300]}"
        return f"Words: {self.value}" if self.value else f"Sentence: {(self.clause or self.turn)[:400]}"

    def prompt(self) -> str:
        return f"Before: {self.before[:300]}\nTurn: {self.turn[:600]}\n{self.focus()}" + SUFFIX


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
    hit = re.search(rf"(?<![\w-]){re.escape(value)}(?!\w|-\w)", turn, re.I)  # no part of "forty-four"
    return hit.group(0) if hit else None


def concept(attribute: str | None) -> str | None:
    """The closed list's concept an attribute of the rules means ("home_city" -> "home", "brother" -> "family",
    "plan" -> "plans"), or the attribute itself."""
    if not attribute:
        return None
    from ..folding import concept_of
    from .attributes import KIN

    found, key = concept_of(attribute), attribute.lower()
    if found == "children" or (found is None and (key in KIN or key in ("relative", "relatives", "family"))):
        return "family"
    if key in ("plan", "plans"):
        return "plans"
    return found or attribute


def _overlaps(a: str, b: str | None) -> bool:
    a, b = a.lower(), (b or "").lower()
    return bool(b) and (a in b or b in a)


def decide(question: Question, answer: ModelAnswer) -> CheckVerdict:
    """Code's verdict on the model's answer: only a span of the turn (of the sentence asked about, for a clause)
    that the gate finds the speaker's, asserted (or of the kind the concept is made of: a plan, a dislike), is ever
    set; a new label replaces only a catch-all label of the rules (RELABELLED), for the same words; the rules' value
    is never narrowed ("teaches chemistry" stays, not "chemistry"); a drop needs the model to read the same kind of
    fact as the rules did."""
    if question.note is not None:
        if answer.keep:
            return CheckVerdict("keep")
        return CheckVerdict("drop", why="the model read the note as no fact of the speaker's that reads alone "
                                         "(a saying, small talk, or what only the turn before names)")
    had = question.attribute is not None
    rules = concept(question.attribute)
    if had and (why := stands_as_read(question.attribute or "", rules, question.value, question.turn)):
        return CheckVerdict("keep", why=why)
    if not answer.keep and had and answer.attribute != rules:
        # "no fact" about a fact of another kind than the rules read ("crowds" as a hobby): not a reading of it
        return CheckVerdict("keep", why=f"the model read {answer.attribute}, not {rules}, and no fact of it")
    if not answer.keep:
        return CheckVerdict("drop", why="the model read no fact of the speaker's here") if had else CheckVerdict("none")
    said = span(answer.value, question.clause or question.turn)
    if said is None:
        why = f"the model's value {answer.value!r} is not said in the {'sentence' if question.clause else 'turn'}"
        return CheckVerdict("keep" if had else "none", why=why)
    if answer.attribute == "other":
        return CheckVerdict("keep" if had else "none", why="no attribute of a known kind")
    if answer.attribute in NAMED_PLACES and rules != answer.attribute and not any(
            w[:1].isupper() for w in said.split()):
        return CheckVerdict("keep" if had else "none", why=f"{said!r} names no place for a {answer.attribute}")
    same = had and rules == answer.attribute  # then the rules' words are what is checked, not the model's
    verdict = gate(question.turn, (question.value or said) if same else said, concept=answer.attribute)
    if same:
        verdict = stated_before(verdict, question.value or said, question.turn)
    if not verdict.holds(answer.attribute):
        ruled = stated_before(gate(question.turn, question.value or said, concept=rules), question.value or said,
                               question.turn) if had and not same else None
        if ruled is not None and ruled.holds(rules):
            return CheckVerdict("keep", why=f"the model's {answer.attribute} does not hold; the rules' {rules} does")
        whose = f"{verdict.holder or verdict.whose}'s" if verdict.whose != "speaker" else ""
        why = f"not the speaker's own, asserted {answer.attribute}: " + (whose or ", ".join(sorted(verdict.reasons)))
        return CheckVerdict("drop", why=why) if had else CheckVerdict("none", why=why)
    if same:
        why = "" if said.lower() == (question.value or "").lower() else f"the rules' words stand (the model: {said!r})"
        return CheckVerdict("keep", answer.attribute, question.value, why=why)  # the rules' whole phrase
    if had and (rules not in RELABELLED or {rules, answer.attribute} <= SIBLINGS):
        return CheckVerdict("keep", why=f"the rules' {question.attribute} stands (the model: {answer.attribute})")
    if had and rules == "hobby" and answer.attribute in ("job", "employer") and not WORK_SAID.search(
            question.clause or question.turn):  # "I'm a keen tramper": a pastime's doer, no job said
        return CheckVerdict("keep", why=f"the rules' hobby stands, no work said (the model: {answer.attribute})")
    if had and not _overlaps(said, question.value):
        return CheckVerdict("keep", why=f"the model named other words ({said!r}) as {answer.attribute}")
    if wrong := misfit(answer.attribute, said, question.clause or question.turn):
        return CheckVerdict("keep" if had else "none", why=wrong)
    return CheckVerdict("replace" if had else "add", answer.attribute, said,
                        why=f"checked: {answer.attribute} is {said!r}")


def verdict_of(question: Question, answer: ModelAnswer | None) -> CheckVerdict:
    """What code decides of the model's answer; an answer that did not parse keeps the record as the rules made it."""
    return decide(question, answer) if answer else CheckVerdict("keep", why="no answer")


def grammar(schema: dict | None = None, most: int = VALUE_CHARS, least: int = 0) -> Any:
    """SCHEMA (or `schema`) as a llama.cpp grammar, each string one flat `[^"\\\n]{least,most}` and no optional
    spaces: the converter's own bounded string nests a rule per character, which makes each sampled token slow."""
    from llama_cpp.llama_grammar import LlamaGrammar, json_schema_to_gbnf

    lines = []
    for line in json_schema_to_gbnf(json.dumps(schema or SCHEMA)).splitlines():
        if line.startswith("string ::="):
            line = f'string ::= "\\"" [^"\\\\\\n]{{{least},{most}}} "\\""'
        elif line.startswith("space ::="):
            line = 'space ::= ""'
        lines.append(line)
    return LlamaGrammar.from_string("\n".join(lines), verbose=False)


def parse_model_answer(text: str, note: bool = False) -> ModelAnswer | None:
    try:
        body = json.loads(text)
        if note:
            return ModelAnswer(bool(body["keep"]), "other", "")
        return ModelAnswer(bool(body["keep"]), str(body["attribute"]), str(body["value"]))
    except (ValueError, KeyError, TypeError):
        return None


class Checker:
    """Asks one model (a llama_cpp.Llama) the closed questions, greedily, under the schema's grammar.

    `evaluated` counts the prompt tokens the model actually evaluated (the prefix once, then each question)."""

    name = "gguf"

    def __init__(self, llm: Any, max_tokens: int = 48, name: str | None = None):
        self.llm = llm
        self.name = name or self.name
        self.max_tokens = max_tokens
        self.grammars = {json.dumps(SCHEMA, sort_keys=True): grammar()}  # a schema's grammar, parsed once
        self.fields = FieldDecoder(llm) if hasattr(llm, "n_vocab") else None  # None: a model that only completes
        self.evaluated = 0
        self.questions = 0
        self.threads = getattr(getattr(llm, "context_params", None), "n_threads", 0)
        eval_tokens = llm.eval

        def counted(tokens):
            self.evaluated += len(tokens)
            return eval_tokens(tokens)

        llm.eval = counted
        self.prefix_tokens = len(llm.tokenize(PREFIX.encode(), add_bos=False, special=True))

    def use_threads(self, threads: int) -> None:
        """Fewer threads while the server is busy, more when it is idle (llama.cpp changes them in place)."""
        if threads != self.threads and getattr(self.llm, "_ctx", None) is not None:
            self.llm._ctx.set_n_threads(threads, threads)
            self.threads = threads

    def complete(self, prefix: str, prompt: str, schema: dict, most: int = VALUE_CHARS, least: int = 0,
                 max_tokens: int | None = None) -> str:
        """The model's greedy answer to `prefix + prompt` under `schema`'s grammar (made once a schema and string
        bounds: each string `least` to `most` characters), at most `max_tokens` (else the checker's)."""
        return self.answer_to(prefix + prompt, schema, most, least, max_tokens)

    def answer_to(self, prompt: str | list[int], schema: dict, most: int = VALUE_CHARS, least: int = 0,
                  max_tokens: int | None = None) -> str:
        """As `complete`, a prompt as text or tokens; a flat schema field by field (fields.py) where it can."""
        if self.fields is not None and fits(schema):
            tokens = prompt if isinstance(prompt, list) else self.llm.tokenize(prompt.encode(), special=True)
            return self.fields.answer(list(tokens), schema, most, least, max_tokens or self.max_tokens)
        out = self.llm.create_completion(prompt, max_tokens=max_tokens or self.max_tokens, temperature=0.0,
                                         top_k=1, grammar=self._grammar(schema, most, least))
        return out["choices"][0]["text"]

    def _grammar(self, schema: dict, most: int = VALUE_CHARS, least: int = 0) -> Any:
        """`schema`'s grammar with these string bounds, made once."""
        key = json.dumps(schema, sort_keys=True)
        if (most, least) != (VALUE_CHARS, 0):
            key = f"{least}-{most}:{key}"
        if key not in self.grammars:
            if len(self.grammars) > 64:  # a clause question's spans make a grammar of their own: not kept all
                self.grammars = dict(list(self.grammars.items())[:8])
            self.grammars[key] = grammar(schema, most=most, least=least)
        return self.grammars[key]

    def ask(self, question: Question) -> ModelAnswer | None:
        """The model's answer, or None when it gave none that parses (then the record stays as the rules made it)."""
        self.questions += 1
        if question.note is not None:
            return parse_model_answer(self.complete(NOTE_PREFIX, question.prompt(), NOTE_SCHEMA), note=True)
        return parse_model_answer(self.complete(PREFIX, question.prompt(), schema_of(question)))

    def check(self, questions: list[Question]) -> list[tuple[Question, ModelAnswer | None, CheckVerdict]]:
        """One window's questions, the questions about words first and then the notes (one switch of prefix)."""
        done = []
        for q in sorted(questions, key=lambda q: q.note is not None):
            answer = self.ask(q)
            done.append((q, answer, verdict_of(q, answer)))
        return done


class EndpointChecker(Checker):
    """The same questions to an OpenAI-compatible endpoint (a bigger model served elsewhere), the answer held to
    SCHEMA by the server; the fixed system message is the prefix the server may keep."""

    name = "endpoint"

    def __init__(self, url: str, model: str | None = None, timeout: float = 300.0, max_tokens: int = 48):
        from .openai import OpenAIReader

        self.endpoint = OpenAIReader(url, model=model, timeout=timeout, max_tokens=max_tokens)
        self.name = f"{model or 'served model'} at {self.endpoint.url}"
        self.max_tokens, self.evaluated, self.questions, self.threads, self.prefix_tokens = max_tokens, 0, 0, 0, 0

    def use_threads(self, threads: int) -> None:
        return None  # the endpoint's machine decides

    def complete(self, prefix: str, prompt: str, schema: dict, most: int = VALUE_CHARS, least: int = 0,
                 max_tokens: int | None = None) -> str:
        """The served model's answer, held to `schema` by the server (the string bounds are the grammar's here: not
        sent; the endpoint's max_tokens stands)."""
        system = prefix.removeprefix("<|im_start|>system\n").split("<|im_end|>")[0]
        text, tokens = self.endpoint._complete([{"role": "system", "content": system},
                                                {"role": "user", "content": prompt.removesuffix(SUFFIX)}], schema)
        self.evaluated += tokens
        return text


def load(path: str, n_threads: int = 2, n_ctx: int = 1024) -> Any:
    """A Llama for checking: a small context, one model loaded once. Loaded verbose (its talk kept in `sys.stderr`'s
    stead), then made quiet: with `verbose=False` llama-cpp-python points the process's file descriptors 1 and 2 at
    /dev/null while it loads, and what every other thread printed meanwhile was lost (the demo's answers, the
    server's log lines: the model pass loads in the background)."""
    from llama_cpp import Llama, _logger

    with contextlib.redirect_stderr(io.StringIO()):
        llama = Llama(model_path=path, n_ctx=n_ctx, n_threads=n_threads, n_batch=256, seed=0, verbose=True)
    llama.verbose = False
    _logger.set_verbose(False)  # llama.cpp's own log, from now on: errors only
    return llama


def _user_turn(turn: Any) -> bool:
    return (getattr(turn, "role", None) or "user") == "user" and getattr(turn, "kind", "message") == "message"


def questions(records: list[Any], turns: list[Any], clauses: bool = True, notes: bool = False) -> list[Question]:
    """The questions a thread owes, in the order its turns were said: one for each live record the first pass made
    from a user's turn (of its attribute's value; of its text, whether it reads alone, when it sets none: `notes`)
    but one code keeps by its structure (kinds.stands_as_read: a relative read from "my …", a form's line), and
    (`clauses`) one for each sentence of a user's turn whose subject is the speaker and that no record's value falls
    in. `turns`: the thread's turns in order (each with .id, .text, .role)."""
    order = {t.id: n for n, t in enumerate(turns)}
    read = [as_read(t.text, getattr(t, "speaker", None), turns[n - 1].text if n else None) if _user_turn(t)
            else t.text for n, t in enumerate(turns)]
    asked: list[tuple[int, int, Question]] = []
    covered: dict[str, list[str]] = {}
    for r in records:
        if not r.turns or r.turns[0] not in order or r.retracted and "ended_by" not in r.retracted:
            continue  # a value a later turn ended (withdrawn.py) still covers its sentence: not asked back in
        n = order[r.turns[0]]
        covered.setdefault(turns[n].id, []).append(r.value or "")
        if r.retracted or not _user_turn(turns[n]) or getattr(r, "by", "user") != "user" or (
                not notes and not r.value) or (
                r.attribute and stands_as_read(r.attribute, concept(r.attribute), r.value, read[n])):
            continue  # kept whatever the model answers (decide): not asked
        before = turns[n - 1].text if n > 0 else ""
        if r.attribute and r.value:
            asked.append((n, 0, Question(read[n], before, r.attribute, r.value, r.id, turn_id=turns[n].id)))
        else:  # no value: whether the record reads alone
            asked.append((n, 0, Question(read[n], before, record=r.id, turn_id=turns[n].id, note=r.text)))
    if clauses:
        for n, turn in enumerate(turns):
            if not _user_turn(turn):
                continue
            before = turns[n - 1].text if n > 0 else ""
            for k, sentence in enumerate(left_alone(read[n], covered.get(turn.id, []))):
                asked.append((n, k + 1, Question(read[n], before, clause=sentence, turn_id=turn.id)))
    return [q for _, _, q in sorted(asked, key=lambda x: (x[0], x[1]))]
