"""The third reading set (bench/reading_set3.json): chats between two friends, every record judged by hand.

    ./run bench reading_set3 [--verbose] [--unjudged]

Nine conversations of our own in the chatty style of conversations between people (not LoCoMo), three dated
sessions each, written before any reader read them. Each session is one thread; both friends speak as users.
The rules reader reads every window, and every record it makes is judged by the strict rule of
bench/reading_judged.json against the turn it cites and the turn before: right when it states something its
subject said of themself, readable alone (no unresolved "it"/"this"/"they", nothing only said before), with the
right kind, day and attribute, the value whole. The judgments are kept in the set's "judged" map by record id; a
record whose id is not there (a new reader's new record) is counted as not judged yet and listed by --unjudged.

Figures: records made, judged right of judged, not judged yet; wrong records by why; conversation tokens/s.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from bench.reading_set2 import read_set
from twinfs.models import Record
from twinfs.passages import Turn
from twinfs.reading import Reader, Window, make_reader, plan_windows

SET3 = Path(__file__).resolve().parent / "reading_set3.json"
GAP = timedelta(seconds=30)  # between two turns of a session


@dataclass
class Session:
    conversation: str
    number: int
    turns: list[Turn]
    windows: list[Window]

    @property
    def id(self) -> str:
        return f"{self.conversation}/s{self.number}"


def load_set(path: Path = SET3) -> list[Session]:
    """Every session of every conversation as a thread of its own, planned into windows as the product plans them."""
    body = json.loads(path.read_text())
    sessions = []
    for conv in body["conversations"]:
        for n, session in enumerate(conv["sessions"], 1):
            start = datetime.fromisoformat(session["started"].replace("Z", "+00:00"))
            thread = f"{conv['id']}/s{n}"
            turns = [Turn(f"{conv['id']}:{n}:{i}", "message", text, start + GAP * i, "user", speaker)
                     for i, (speaker, text) in enumerate(session["turns"])]
            sources = {t.id: f"passages/memory/messages/{thread}" for t in turns}
            windows = plan_windows(thread, turns, sources, set(), turns[-1].at + timedelta(days=1), 600)
            sessions.append(Session(conv["id"], n, turns, windows))
    return sessions


def read_all(reader: Reader, sessions: list[Session]) -> tuple[list[Record], float, int]:
    """The records of every window, the seconds reading took and the words read (reading_set2.read_set's loop)."""
    records, seconds, words = read_set(reader, sessions)  # type: ignore[arg-type]  # a session has id and windows
    return [r for s in sessions for r in records.get(s.id, [])], seconds, words


def judgments(path: Path = SET3) -> dict[str, dict]:
    return json.loads(path.read_text()).get("judged", {})


def show(record: Record, turns: dict[str, Turn]) -> str:
    """A record with the turn it cites first and the turn before it, to judge it by."""
    cited = turns[record.turns[0]]
    conv, n, i = cited.id.split(":")
    before = turns.get(f"{conv}:{n}:{int(i) - 1}")
    value = f" [{record.attribute}: {record.value}]" if record.attribute else ""
    lines = [f"{record.id}  {record.kind} of {record.subject}, happened {record.happened}, said {record.said}{value}",
             f"    {record.text}"]
    if before is not None:
        lines.append(f"    before  {before.speaker}: {before.text}")
    lines.append(f"    cited   {cited.speaker}: {cited.text}")
    return "\n".join(lines)


def checked(records: list[Record], sessions: list[Session], model: str, notes: bool,
            verbose: bool) -> tuple[list[Record], list[float], Counter]:
    """The records as the model pass leaves them (bench/reading_checked.py's way: every question asked, in one
    running sequence a passage, its verdict applied), the model's seconds per turn asked about, its verdicts."""
    from bench.reading_checked import check_records
    from twinfs.reading.checking import Checker, load
    from twinfs.reading.checkpass import ONEPASS
    from twinfs.reading.onepass import CONTEXT
    from twinfs.reading.shipped import model_path

    checker = Checker(load(str(model_path(model)), n_threads=2, n_ctx=CONTEXT if ONEPASS else 1024), name=model)
    kept: list[Record] = []
    per_turn: dict[str, float] = {}
    changes: Counter = Counter()
    for session in sessions:
        mine = [r for r in records if r.id.startswith(session.id + "#")]
        kept += check_records(checker, session.id, mine, session.turns, changes, per_turn, verbose, notes=notes,
                              onepass=ONEPASS)
    return kept, sorted(per_turn.values()), changes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", type=Path, default=SET3, help="a set of this shape (bench/reading_set4.json …)")
    parser.add_argument("--model", help="also the model pass's check (qwen-coder-1.5b), rules + model beside")
    parser.add_argument("--notes", action="store_true", help="the model asked about records without a value too")
    parser.add_argument("--verbose", action="store_true", help="list every wrong record with why")
    parser.add_argument("--unjudged", action="store_true", help="list the records not judged yet, with their turns")
    args = parser.parse_args(argv)
    from bench.reading import machine

    print("./run bench reading_set3 " + " ".join(sys.argv[1:] if argv is None else argv))
    print(machine())
    sessions = load_set(args.set)
    reader = make_reader()
    reader.read(sessions[0].windows[0])  # the parser and date models loaded outside the timing
    records, seconds, words = read_all(reader, sessions)
    judged = judgments(args.set)
    turns = {t.id: t for s in sessions for t in s.turns}
    print(f"\n{args.set.name}: {len({s.conversation for s in sessions})} conversations, {len(sessions)} sessions, "
          f"{sum(len(s.turns) for s in sessions)} turns")
    passes = {reader.name: records}
    if args.model:
        kept, times, changes = checked(records, sessions, args.model, args.notes, args.verbose)
        passes[f"rules + {args.model}"] = kept
    for name, made in passes.items():
        verdicts = [judged[r.id] for r in made if r.id in judged]
        right = sum(v["right"] for v in verdicts)
        if name != reader.name:  # a record the check dropped (not replaced: that is judged itself) is judged gone
            ids, read = {r.id for r in made}, {r.id for r in records}
            new_turns = {t for r in made if r.id not in read for t in r.turns}
            gone = [judged[r.id] for r in records if r.id in judged and r.id not in ids and r.turns[0] not in new_turns]
            right += sum(not v["right"] for v in gone)
            verdicts += gone
        print(f"\n{name}")
        print(f"  records            {len(made)} ({sum(bool(r.attribute) for r in made)} with an attribute)")
        print(f"  judged right       {right} of {len(verdicts)} ({right / max(1, len(verdicts)):.3f}); "
              f"{sum(r.id not in judged for r in made)} not judged yet")
        if name == reader.name:
            whys = Counter(v.get("why") or "?" for v in verdicts if not v["right"])
            for why, n in whys.most_common():
                print(f"    wrong: {n:3}  {why}")
            print(f"  speed              {words / max(seconds, 1e-9):,.0f} words/s ({words:,} words in "
                  f"{seconds:.2f} s)")
        else:
            p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))] if times else 0.0
            print(f"  model pass         {dict(sorted(changes.items()))}; {len(times)} turns asked about, "
                  f"{statistics.median(times) if times else 0:.2f} s a turn median, {p95:.2f} s p95")
            print(f"  at the end: {machine()}")
        if args.verbose:
            for r in made:
                if r.id in judged and not judged[r.id]["right"]:
                    print(f"  WRONG ({judged[r.id].get('why')}) " + show(r, turns))
        if args.unjudged:
            for r in made:
                if r.id not in judged:
                    print(show(r, turns))
    return 0


if __name__ == "__main__":
    sys.exit(main())
