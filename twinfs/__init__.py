"""twinfs: local-first memory for LLM apps. One git vault of plain files per end user."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

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


def _map_checkout_server() -> None:
    """In a checkout, server/ sits beside twinfs/: import it as twinfs.server, the name a wheel installs it as."""
    server = Path(__file__).resolve().parent.parent / "server"
    if "twinfs.server" in sys.modules or (Path(__file__).parent / "server").is_dir() or not server.is_dir():
        return
    spec = importlib.util.spec_from_file_location("twinfs.server", server / "__init__.py",
                                                  submodule_search_locations=[str(server)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["twinfs.server"] = module
    spec.loader.exec_module(module)


_map_checkout_server()
