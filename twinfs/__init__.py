"""twinfs: local-first memory for LLM apps. One git vault of plain files per end user."""
from __future__ import annotations

from .errors import BadRequest, Forbidden, Invalid, NotFound, TooLarge, TwinError, Unauthorized, Unavailable
from .memory import Memory
from .models import (
                     AddRequest,
                     AddResult,
                     EndUser,
                     Fact,
                     GrepRequest,
                     Hit,
                     Item,
                     Phase,
                     Record,
                     SearchRequest,
                     SearchResult,
                     StatusRequest,
)
from .settings import Settings

__all__ = ["Memory", "Settings", "EndUser", "Item", "Record", "Phase", "Hit", "Fact", "AddRequest", "AddResult",
           "SearchRequest", "SearchResult", "StatusRequest", "GrepRequest", "TwinError", "BadRequest",
           "Unauthorized", "Forbidden", "NotFound", "TooLarge", "Invalid", "Unavailable"]
__version__ = "0.1.0"
