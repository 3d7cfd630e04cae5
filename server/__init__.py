"""The Starlette server: routes, keys, errors and limits. Thin: every route calls twinfs.Memory."""
from __future__ import annotations
