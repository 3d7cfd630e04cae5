"""The HTTP API fuzzed against its own OpenAPI document: schemathesis on `twin serve` over loopback.

    ./run bench fuzz [--examples 450] [--seed 1] [--workers 1]

Starts `twin serve` in a temporary home (its own process, as in production, reading off), makes a write key,
and runs `schemathesis run` on /v1/openapi.json fetched with that key, every check on (`--checks all`: no 5xx,
status codes, content types, headers and bodies as the document states them, schema-valid requests accepted
and schema-violating ones refused, missing headers and bad methods refused, auth enforced), in all four phases:
examples, coverage (boundaries of every bound), fuzzing (positive and negative data) and stateful (the
document's links: add -> status -> search -> read, add -> grep -> read, add -> forget -> status). Then every
item id that was answered 202 and not forgotten afterwards must reach `landed`, asked through /v1/memory/status.
`--examples` is schemathesis's --max-examples, per operation and phase; 450 gives about 10,000 test cases.
tests/test_fuzz.py runs the same at about 2,000.
"""
from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from bench.load import free_port, start_server
from twinfs.keys import Keys

ROOT = Path(__file__).resolve().parents[1]

LANDED = {"landed", "read", "folded"}
SLOWEST = 20  # seconds an answer may take: an add with wait holds up to 10 s, and the fuzzer loads 2 cores


@dataclass
class Figures:
    cases: int = 0  # test cases schemathesis generated and sent
    by_phase: Counter = field(default_factory=Counter)
    failures: Counter = field(default_factory=Counter)  # check name -> failed cases
    errors: list[str] = field(default_factory=list)  # schemathesis errors (network, schema), each a line
    server_errors: int = 0  # answers with a 5xx status
    slowest: tuple[float, str] = (0.0, "")  # the slowest answer: seconds, operation
    accepted: int = 0  # distinct (end user, item id) answered 202 and not forgotten after
    landed: int = 0  # of those, landed when asked at the end
    unlanded: list[tuple[str, str, str]] = field(default_factory=list)  # (account, id, phase)
    seconds: float = 0.0
    landing: float = 0.0  # seconds from the last case until every 202'd item had landed (or the wait ended)
    output: str = ""  # schemathesis's own report
    kept: Path | None = None  # where a run that was not clean left its home, log and events

    @property
    def clean(self) -> bool:
        return (not self.failures and not self.errors and not self.server_errors and not self.unlanded
                and self.landed == self.accepted)

    def summary(self) -> str:
        phases = ", ".join(f"{name} {n}" for name, n in sorted(self.by_phase.items()))
        return "\n".join([
            f"test cases: {self.cases} ({phases}) in {self.seconds:.0f} s",
            f"failed checks: {dict(self.failures) or 0}  errors: {len(self.errors)}  5xx answers: {self.server_errors}"
            f"  slowest answer: {self.slowest[0]:.2f} s ({self.slowest[1]})",
            f"items answered 202: {self.accepted}, landed: {self.landed} ({self.landing:.0f} s after the last case)"
            + (f"; not landed: {self.unlanded[:5]}" if self.unlanded else ""),
        ])


def fuzz(examples: int, seed: int = 1, workers: int = 1, land_seconds: float = 120, keep: Path | None = None
         ) -> Figures:
    """One run in a fresh home; the figures, whatever they show (the caller judges them). A run that is not
    clean leaves the server's log, schemathesis's events and the home in `keep` when given."""
    with tempfile.TemporaryDirectory(prefix="twin-fuzz-") as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        token, _ = Keys(home).create("acme", "app", "write")
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        report = Path(tmp) / "events.ndjson"
        server = start_server(home, port, env={"TWIN_READING": "0"})
        try:
            started = time.monotonic()
            # wait: true holds an add up to 10 s: the client's timeout and the slowest answer allowed are above that
            run = subprocess.run(
                [sys.executable, "-m", "schemathesis.cli", "run", f"{url}/v1/openapi.json",
                 "-H", f"Authorization: Bearer {token}", "--checks", "all", "--max-examples", str(examples),
                 "--seed", str(seed), "--workers", str(workers), "--request-timeout", "30",
                 "--max-response-time", str(SLOWEST),
                 "--report", "ndjson", "--report-ndjson-path", str(report), "--no-color"],
                capture_output=True, text=True, cwd=tmp, env={**os.environ, "NO_COLOR": "1"})
            figures = Figures(seconds=time.monotonic() - started, output=run.stdout + run.stderr)
            accepted = read_events(report, figures)
            check_landed(url, token, accepted, figures, land_seconds)
        finally:
            server.terminate()
            server.wait(30)
        if "Traceback" in (home / "server.log").read_text(errors="replace"):
            figures.errors.append("the server logged a traceback")
        if keep is not None and not figures.clean:
            shutil.rmtree(keep, ignore_errors=True)
            shutil.copytree(tmp, keep, symlinks=True)
            figures.kept = keep
    return figures


def _body(part: dict | None) -> bytes:
    return base64.b64decode(part["$base64"]) if part and part.get("$base64") else b""


def read_events(report: Path, figures: Figures) -> dict[tuple[str, str], str]:
    """Counts from schemathesis's event log; returns the (account, item id) answered 202 and not forgotten since."""
    exchanges = []  # (time, operation, account, request body, status, answer body)
    for line in report.read_text().splitlines():
        event = json.loads(line)
        if "NonFatalError" in event or "FatalError" in event:
            error = event.get("NonFatalError") or event.get("FatalError")
            figures.errors.append(str(error.get("info", {}).get("title") or error)[:300])
        scenario = event.get("ScenarioFinished")
        if not scenario:
            continue
        recorder = scenario["recorder"]
        cases = recorder.get("cases", {})
        figures.cases += len(cases)
        figures.by_phase[scenario["phase"]] += len(cases)
        for checks in recorder.get("checks", {}).values():
            for check in checks:
                if check["status"] == "failure":
                    figures.failures[check["name"]] += 1
        for exchange in (recorder.get("interactions") or {}).values():
            answer = (exchange or {}).get("response")
            if not answer:
                continue
            request = exchange["request"]
            status = answer["status_code"]
            figures.server_errors += status >= 500
            figures.slowest = max(figures.slowest, (answer["elapsed"], request["uri"].rsplit("/", 1)[-1]))
            account = (request["headers"].get("X-Twin-Account") or [""])[0]
            exchanges.append((exchange["timestamp"], request["uri"].rsplit("/", 1)[-1], account,
                              _body(request.get("body")), status, _body(answer.get("content"))))
    pending: dict[tuple[str, str], str] = {}
    for _, operation, account, _, status, answer in sorted(exchanges, key=lambda e: e[0]):
        if operation == "add" and status == 202:
            for item_id in json.loads(answer)["ids"]:
                pending[(account, item_id)] = "accepted"
        elif operation == "forget" and status == 200:
            for item_id in json.loads(answer)["forgotten"]:
                pending.pop((account, item_id), None)
    return pending


def check_landed(url: str, token: str, pending: dict[tuple[str, str], str], figures: Figures,
                 seconds: float) -> None:
    """Every id still pending lands within `seconds`, as /v1/memory/status tells."""
    figures.accepted = len(pending)
    by_account: dict[str, list[str]] = {}
    for account, item_id in pending:
        by_account.setdefault(account, []).append(item_id)
    started = time.monotonic()
    deadline = started + seconds
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=30) as http:
        while by_account and time.monotonic() < deadline:
            for account, ids in list(by_account.items()):
                for i in range(0, len(ids), 500):
                    r = http.post("/v1/memory/status", json={"ids": ids[i:i + 500]},
                                  headers={"X-Twin-Account": account})
                    r.raise_for_status()
                    for item_id, phase in r.json()["phases"].items():
                        pending[(account, item_id)] = phase
                left = [i for i in ids if pending[(account, i)] not in LANDED]
                if left:
                    by_account[account] = left
                else:
                    del by_account[account]
            if by_account:
                time.sleep(0.5)
    figures.landing = time.monotonic() - started
    figures.landed = sum(phase in LANDED for phase in pending.values())
    figures.unlanded = [(a, i, p) for (a, i), p in pending.items() if p not in LANDED]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--examples", type=int, default=450, help="schemathesis --max-examples (default 450: "
                                                              "~10,000 cases)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1, help="concurrent schemathesis workers (default 1)")
    p.add_argument("--land-seconds", type=float, default=900,
                   help="how long every 202'd item may take to land after the last case (default 900)")
    args = p.parse_args()
    if not (1 <= args.examples <= 5000 and 1 <= args.workers <= 8):
        p.error("out of bounds: examples 1-5000, workers 1-8")
    print(f"./run bench fuzz --examples {args.examples} --seed {args.seed} --workers {args.workers}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}  cores: {os.cpu_count()}",
          flush=True)
    figures = fuzz(args.examples, args.seed, args.workers, land_seconds=args.land_seconds,
                   keep=Path(tempfile.gettempdir()) / "twin-fuzz-last")
    report = figures.output.strip()
    for section in ("= ERRORS =", "= FAILURES ="):
        if not figures.clean and section in report:
            print(report[report.index(section):][:6000])
    print("\n".join(report.splitlines()[-12:]))
    print(figures.summary())
    if figures.kept:
        print(f"not clean: the home, server log and events are in {figures.kept}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    sys.exit(0 if figures.clean else 1)


if __name__ == "__main__":
    main()
