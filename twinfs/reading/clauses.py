"""What of a user's turn the model pass asks about and may answer with: the sentences the rules left alone (a
statement about the speaker where no value of the first pass is said), and the runs of a sentence's words a value may
be (a clause question's answer is held to them by its grammar)."""
from __future__ import annotations

import copy
import re

from .values import joining

SPAN_WORDS = 6  # the longest value a clause question may answer, in words
# words a value neither starts nor ends with (a value starts with "the": "the university dorms in Istanbul")
EDGE = {"PUNCT", "CCONJ", "SCONJ", "ADP", "PART", "AUX", "PRON", "SPACE", "INTJ"}
LEADING = {"the", "a", "an"}  # the only words of their kind a value starts with: not "both", "no", "every"
ENDING = {"NOUN", "PROPN", "VERB", "ADJ", "NUM", "X"}  # a value ends on what names something


def spans(sentence: str, most: int = SPAN_WORDS) -> list[str]:
    """The words of `sentence` a value may be: each run of up to `most` words within a clause (no comma, dash or
    bracket inside) that starts with a content word (or "the", "a") and ends with a noun, verb, adjective or number,
    as said. A clause question's answer is held to them by its grammar: the model cannot name words the sentence does
    not say (a paraphrase, "teaching chemistry" for "teach chemistry") or copy an earlier answer ("bouldering" of a
    turn about football)."""
    from .pipeline import nlp

    found: list[str] = []
    tokens = list(nlp()(sentence))
    for i, first in enumerate(tokens):
        if first.pos_ in EDGE or first.is_punct or (first.pos_ == "DET" and first.lower_ not in LEADING) \
                or (i and tokens[i - 1].text == "-" and not tokens[i - 1].whitespace_):
            continue  # "four" of "forty-four" is no word of its own
        for last in tokens[i + (first.pos_ == "DET"):i + most]:
            if last.is_punct and last.text not in ("'", "’") and not joining(last):
                break
            if last.pos_ not in ENDING or (not last.whitespace_ and last.i + 1 < len(tokens)
                                           and tokens[last.i + 1].text == "-"):
                continue  # nor "forty" of it, "sea" of "sea-swim"
            said = sentence[first.idx:last.idx + len(last.text)]
            if said not in found and not re.search(r'["\\\n]', said):
                found.append(said)
    return found


def held_to(schema: dict, sentence: str) -> dict:
    """`schema` with its `value` one of `sentence`'s spans (as it is when the sentence has none)."""
    said = spans(sentence)
    if not said:
        return schema
    held = copy.deepcopy(schema)
    held["properties"]["value"] = {"type": "string", "enum": said}
    return held


def left_alone(text: str, values: list[str]) -> list[str]:
    """The sentences of a user's turn worth a question: a statement (not a question) of four words or more whose
    clause has the speaker as its subject ("I", "we", "my …" but not "my brother"), where none of `values` (the
    first pass's) is said."""
    from .assertion import PEOPLE, WE, locate
    from .mood import SUBJECTS
    from .pipeline import nlp

    found = []
    for sentence in nlp()(text).sents:
        said = sentence.text.strip()
        if said.endswith("?") or sum(t.is_alpha for t in sentence) < 4:
            continue
        if not any(t.dep_ in SUBJECTS and (t.lower_ in WE or t.lemma_.lower() not in PEOPLE and any(
                x.lower_ in ("my", "our") and x.dep_ == "poss" for x in t.subtree)) for t in sentence):
            continue
        if any(v and locate(v, said) for v in values):
            continue
        found.append(said)
    return found
