"""The model's answer decoded field by field (reading/fields.py): which schemas it takes, and on a real GGUF
(SmolLM2-135M) that it gives the answer the grammar gives, with only the values decoded a token at a time."""
from __future__ import annotations

import json

import pytest

from twinfs.reading import checking
from twinfs.reading.checking import NOTE_SCHEMA, PREFIX, SCHEMA, Question, parse_model_answer, schema_of
from twinfs.reading.fields import FieldDecoder, fits
from twinfs.reading.foldcheck import FOLD_SCHEMA
from twinfs.reading.keys import CHARS, MAX_TOKENS, NAMES, QUESTIONS, parse_answer
from twinfs.reading.keys import SCHEMA as KEYS_SCHEMA

ASKED = [Question("I live in Leeds with my wife.", "Where are you based these days?", "home", "Leeds"),
         Question("My dog is called Mango, he's a beagle.", "Any pets?", "pet", "Mango"),
         Question("I teach chemistry at a school in Harrogate.", "What do you do?",
                  clause="I teach chemistry at a school in Harrogate."),
         Question("Honestly I can't stand coriander.", "Anything you don't eat?", "dislikes", "coriander")]


def test_it_takes_flat_objects_of_required_strings_booleans_and_lists_of_strings():
    assert fits(SCHEMA) and fits(NOTE_SCHEMA) and fits(FOLD_SCHEMA) and fits(schema_of(ASKED[2])) and fits(KEYS_SCHEMA)
    assert not fits({"type": "object", "properties": {"v": {"type": "array", "items": {"type": "integer"}}},
                     "required": ["v"]})
    optional = {**SCHEMA, "required": ["attribute", "keep"]}
    assert not fits(optional)
    assert not fits({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]})
    assert not fits({"type": "object", "properties": {"v": {"type": "string", "maxLength": 3}}, "required": ["v"]})


@pytest.fixture(scope="module")
def smollm2():
    from twinfs.reading.checking import load
    from twinfs.reading.shipped import model_path

    return load(str(model_path("smollm2")), n_threads=1)


def _grammar_answer(llm, prompt: list[int], schema: dict) -> str:
    out = llm.create_completion(prompt, max_tokens=48, temperature=0.0, top_k=1, grammar=checking.grammar(schema))
    return out["choices"][0]["text"]


def test_it_decodes_only_the_values_a_token_at_a_time(smollm2):
    decoder = FieldDecoder(smollm2)
    steps: list[int] = []
    evaluate = smollm2.eval
    smollm2.eval = lambda tokens: (steps.append(len(tokens)), evaluate(tokens))[1]
    try:
        for q in ASKED:
            prompt = list(smollm2.tokenize((PREFIX + q.prompt()).encode(), special=True))
            schema = schema_of(q)
            steps.clear()
            text = decoder.answer(prompt, schema, most=checking.VALUE_CHARS)
            answer = parse_model_answer(text)
            assert answer is not None and answer.attribute in checking.CONCEPTS, text
            if q.clause:  # held to the sentence's spans
                assert answer.value in schema["properties"]["value"]["enum"]
            whole = len(smollm2.tokenize(text.encode(), add_bos=False, special=True))
            # the braces, names and quotes came in a batch with what came before them, not a step each
            assert steps.count(1) <= whole - 8, (text, steps)
    finally:
        smollm2.eval = evaluate


@pytest.mark.slow
def test_qwen_answers_clear_questions_as_under_the_grammar():
    from test_reading_checking import _qwen_or_skip

    from twinfs.reading.checking import load

    llm = load(_qwen_or_skip(), n_threads=1)
    decoder = FieldDecoder(llm)
    # a free value and one held to the clause's spans (SmolLM2 above answers all four)
    for q, (attribute, value) in zip(ASKED[0::2], [("home", "Leeds"), ("job", "chemistry")], strict=True):
        prompt = list(llm.tokenize((PREFIX + q.prompt()).encode(), special=True))
        mine = decoder.answer(prompt, schema_of(q), most=checking.VALUE_CHARS)
        assert json.loads(mine) == json.loads(_grammar_answer(llm, prompt, schema_of(q)))
        assert parse_model_answer(mine) == checking.ModelAnswer(True, attribute, value)


def test_a_free_value_stays_one_line_within_its_bound_and_an_answer_past_max_tokens_is_cut(smollm2):
    decoder = FieldDecoder(smollm2)
    q = Question("Long story: I moved to Leeds in May.\nThen I started at the hospital there.", "News?", "home",
                 "Leeds")
    prompt = list(smollm2.tokenize((PREFIX + q.prompt()).encode(), special=True))
    answer = parse_model_answer(decoder.answer(prompt, SCHEMA, most=5))
    assert answer is not None and len(answer.value) <= 5 and "\n" not in answer.value and "\\" not in answer.value
    assert parse_model_answer(decoder.answer(prompt, SCHEMA, most=60, steps=3)) is None  # cut, as max_tokens cuts
    note = json.loads(decoder.answer(prompt, NOTE_SCHEMA, most=60))
    assert set(note) == {"keep"} and isinstance(note["keep"], bool)


def test_a_passages_keys_come_as_lists_within_their_bounds(smollm2):
    from twinfs.reading.onepass import ASK, INDEX, SYSTEM

    passage = ("Mira: Finally picked up the sunburst Stratocaster from the shop in Camden.\n"
               "Jon: Nice! Are you bringing it to band practice on Friday?\n")
    prompt = list(smollm2.tokenize((SYSTEM + passage + INDEX + ASK).encode(), add_bos=True, special=True))
    text = FieldDecoder(smollm2).answer(prompt, KEYS_SCHEMA, most=CHARS, least=1, steps=MAX_TOKENS)
    if len(smollm2.tokenize(text.encode(), add_bos=False)) < MAX_TOKENS - 4:  # whole, not cut at MAX_TOKENS
        body = json.loads(text)
        assert len(body["questions"]) <= QUESTIONS and len(body["about"]) <= NAMES
        assert all(0 < len(k) <= CHARS and "\n" not in k for k in [*body["questions"], *body["about"]])
        assert parse_answer(text) is not None or not any(body.values())


def test_the_checker_decodes_field_by_field_only_a_model_that_gives_its_scores(smollm2):
    assert checking.Checker(smollm2).fields is not None

    class Completing:  # a served model's surface: it completes, it gives no scores
        def tokenize(self, text: bytes, add_bos: bool = False, special: bool = True) -> list[int]:
            return list(text)

        def eval(self, tokens: list) -> None:
            return None

        def create_completion(self, prompt, **kwargs) -> dict:
            return {"choices": [{"text": json.dumps({"attribute": "home", "value": "Leeds", "keep": True})}]}

    checker = checking.Checker(Completing())
    assert checker.fields is None and checker.ask(ASKED[0]) == checking.ModelAnswer(True, "home", "Leeds")
