"""The daily reading budget of each organisation, in tokens, counted per UTC day and kept in a small JSON file."""
from __future__ import annotations

import json
import os
import tempfile
import threading
from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path


def _utc_now() -> datetime:
    return datetime.now(UTC)


class Budget:
    """`limit` tokens per organisation per UTC day (None: unlimited). Spent: reading waits for the next UTC day."""

    def __init__(self, path: str | os.PathLike, limit: int | None, clock: Callable[[], datetime] = _utc_now):
        if limit is not None and limit < 0:
            raise ValueError("a daily reading budget is zero or more tokens")
        self.path = Path(path)
        self.limit = limit
        self.clock = clock
        self._lock = threading.Lock()
        self._spent: dict[str, dict[str, int]] = self._load()

    def _load(self) -> dict[str, dict[str, int]]:
        try:
            data = json.loads(self.path.read_text())
        except (FileNotFoundError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {org: {day: int(n) for day, n in days.items()} for org, days in data.items() if isinstance(days, dict)}

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".budget-", suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(self._spent, f, sort_keys=True)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    def _today(self) -> date:
        now = self.clock()
        now = now.replace(tzinfo=UTC) if now.tzinfo is None else now.astimezone(UTC)
        return now.date()

    def spent(self, org: str) -> int:
        with self._lock:
            return self._spent.get(org, {}).get(self._today().isoformat(), 0)

    def allows(self, org: str) -> bool:
        return self.limit is None or self.spent(org) < self.limit

    def waiting(self, org: str) -> bool:
        return not self.allows(org)

    def spend(self, org: str, tokens: int) -> None:
        if tokens <= 0:
            return
        with self._lock:
            today = self._today().isoformat()
            days = self._spent.setdefault(org, {})
            days[today] = days.get(today, 0) + int(tokens)
            for day in [d for d in days if d < today]:  # only today's count matters
                del days[day]
            self._save()

    def resumes_at(self, org: str) -> datetime:
        """When reading may go on: now if the budget allows, else the start of the next UTC day."""
        if self.allows(org):
            return self.clock()
        return datetime.combine(self._today() + timedelta(days=1), time(), tzinfo=UTC)
