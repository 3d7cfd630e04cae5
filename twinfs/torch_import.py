"""torch in this process only where something calls it (~250 MB resident once imported).

spaCy's thinc imports torch whenever it is installed, though the small English pipeline the rules reader runs
never calls it: a server whose embedder runs in ONNX Runtime held torch for spaCy alone (327 MB resident before
its first read, 638 MB after). `without_torch` runs an import (spaCy's) with torch hidden; `torch()` imports it
for the code that does use it (batches in bf16, the ONNX export). One lock, so neither sees the other's
import half done.
"""
from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
_lock = threading.RLock()


def without_torch(load: Callable[[], T]) -> T:
    """`load()` with `import torch` failing in it, unless torch is imported already (then it is used as is)."""
    with _lock:
        if "torch" in sys.modules:
            return load()
        sys.modules["torch"] = None  # type: ignore[assignment]  # an import of it raises ImportError
        try:
            return load()
        finally:
            if sys.modules.get("torch", False) is None:
                del sys.modules["torch"]


def torch() -> Any:
    with _lock:
        import torch

        return torch
