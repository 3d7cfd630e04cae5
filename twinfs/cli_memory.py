"""The command line's commands on one end user's memory (init, add, import, search, status, grep, read, history,
correct, forget, lineage, reindex), and how every command finds its home, end user and Memory. Each returns its
answer (a model, a list of them, or a dict); cli.py's table names them."""
from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path

from pydantic import ValidationError

from . import terminal
from .errors import Invalid, describe
from .models import (
    PHASE_ORDER,
    AddRequest,
    AddResult,
    CorrectRequest,
    EndUser,
    ForgetRequest,
    GrepRequest,
    HistoryRequest,
    Item,
    LineageRequest,
    Phase,
    ReadRequest,
    SearchRequest,
    StatusRequest,
)
from .settings import Settings

BATCH = 500
DEFAULT_ORG, DEFAULT_PROJECT = "local", "default"


def home_of(args) -> Path:
    return Path(args.home or Settings.from_env().home)


def memory_of(args, write: bool = True):
    """The one place a command opens the Memory of its home. A writing command owns the home for its run
    (refused, naming the owner, when another process owns it); a reading one opens the vaults read-only and
    never writes, beside an owner or not."""
    from .memory import Memory

    settings = Settings.from_env(home=args.home, watch=False)  # one command: nothing to watch
    if getattr(args, "read", False):  # a bulk add read now: it is no conversation under way, nothing to wait out
        settings = replace(settings, quiet_seconds=0, fold_seconds=0)
    if not write:
        return Memory(settings, read_only=True).start()
    return Memory(settings, owner=f"twin {args.command.name}").start()


def user_of(args) -> EndUser:
    return EndUser.parse(args.org or DEFAULT_ORG, args.project or DEFAULT_PROJECT, args.account)


def items_from(path: str) -> list[Item]:
    """Every line of a JSONL file as an item; the first bad line stops everything before anything is added."""
    try:
        source = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115  # closed by the with below, stdin or not
    except OSError as exc:
        raise Invalid(f"{path}: {(exc.strerror or str(exc)).lower()}") from None
    items = []
    with source:
        for n, line in enumerate(source, 1):
            if not line.strip():
                continue
            try:
                items.append(Item.model_validate_json(line))
            except ValidationError as exc:
                raise Invalid(f"{path} line {n}: {describe(exc)}") from None
    return list({item.id: item for item in items}.values())  # an id on two lines is an edit: the later one stays


# the commands: each returns its answer (a model, a list of them, or a dict), or None when it printed itself
def cmd_init(args) -> dict:
    home = home_of(args)
    (home / "users").mkdir(parents=True, exist_ok=True)
    return {"home": str(home.resolve())}


def cmd_add(args) -> list[AddResult]:
    from tqdm import tqdm

    items = items_from(args.file)
    if not items:
        raise Invalid(f"{args.file} holds no items")
    user = user_of(args)
    answers: list[AddResult] = []
    with memory_of(args) as memory:
        with tqdm(total=len(items), desc="accepted", unit="item", disable=terminal.no_bar(args.quiet)) as bar:
            for i in range(0, len(items), BATCH):
                answers.append(memory.add(user, AddRequest(items=items[i:i + BATCH])))
                bar.update(len(answers[-1].ids))
        if args.no_wait:
            return answers
        _follow(memory, user, answers, Phase.landed, args.quiet)
        if args.read and memory.settings.reading:
            _follow(memory, user, answers, Phase.read, args.quiet)
            _follow(memory, user, answers, Phase.folded, args.quiet)
        return answers


def _follow(memory, user: EndUser, answers: list[AddResult], phase: Phase, quiet: bool) -> None:
    """A bar of the items that reached a phase, until all have or (past landing, which always comes) the memory
    has nothing left it can do for them now (reading waits on the budget, or a window keeps failing: the status
    notes say which)."""
    from tqdm import tqdm

    reached = PHASE_ORDER[PHASE_ORDER.index(phase):]
    total = sum(len(a.ids) for a in answers)
    with tqdm(total=total, desc=phase.value, unit="item", disable=terminal.no_bar(quiet)) as bar:
        while True:
            for answer in answers:
                answer.phases = memory.status(user, StatusRequest(ids=answer.ids)).phases
            done = sum(p in reached for a in answers for p in a.phases.values())
            bar.update(done - bar.n)
            if done == total:
                return
            if phase is not Phase.landed and memory.idle(0.5) and memory.idle(0.5):
                for answer in answers:  # idle twice over: nothing is due; what is not there yet waits
                    answer.phases = memory.status(user, StatusRequest(ids=answer.ids)).phases
                bar.update(sum(p in reached for a in answers for p in a.phases.values()) - bar.n)
                return
            time.sleep(0.2)


def cmd_import(args) -> dict:
    from tqdm import tqdm

    from .importers.run import Summary, import_file

    user = user_of(args)
    summary = Summary()
    with memory_of(args) as memory:
        try:
            with tqdm(desc="accepted", unit="turn", disable=terminal.no_bar(args.quiet)) as bar:
                import_file(memory, user, args.format, Path(args.file), lambda _, turns: bar.update(turns - bar.n),
                            summary, name=args.name)
        finally:  # what was accepted before a bad export stops it lands before the one line says why
            if summary.answers and not args.no_wait:
                _follow(memory, user, summary.answers, Phase.landed, args.quiet)
        landed = sum(p != Phase.accepted for a in summary.answers for p in a.phases.values()) \
            if summary.answers and not args.no_wait else None
    return {"format": args.format, "file": args.file, "conversations": summary.conversations, "turns": summary.turns,
            "added": summary.added, "landed": landed, "skipped": summary.skipped}


def cmd_search(args):
    req = SearchRequest(query=args.query, fast=args.fast, scope=args.scope, before=args.before, after=args.after)
    with memory_of(args, write=False) as memory:
        return memory.search(user_of(args), req)


def cmd_status(args):
    with memory_of(args, write=False) as memory:
        return memory.status(user_of(args), StatusRequest(ids=args.ids))


def cmd_grep(args):
    req = GrepRequest(pattern=args.pattern, regex=args.regex, scope=args.scope, before=args.before, after=args.after)
    with memory_of(args, write=False) as memory:
        return memory.grep(user_of(args), req)


def cmd_read(args):
    with memory_of(args, write=False) as memory:
        return memory.read(user_of(args), ReadRequest(path=args.path, before=args.before))


def cmd_history(args):
    with memory_of(args, write=False) as memory:
        return memory.history(user_of(args), HistoryRequest(subject=args.subject, attribute=args.attribute))


def cmd_correct(args):
    with memory_of(args) as memory:
        return memory.correct(user_of(args), CorrectRequest(id=args.id, reason=args.reason, value=args.value))


def cmd_forget(args):
    with memory_of(args) as memory:
        return memory.forget(user_of(args), ForgetRequest(ids=args.ids))


def cmd_lineage(args):
    with memory_of(args, write=False) as memory:
        return memory.lineage(user_of(args), LineageRequest(id=args.id))


def cmd_reindex(args) -> list[dict]:
    """One end user with --account; else every end user, of --org and --project when given."""
    from tqdm import tqdm


    answers = []
    with memory_of(args) as memory:
        users = [user_of(args)] if args.account else [
            u for u in map(EndUser.of_folder, memory.users())
            if (args.org is None or u.org == args.org) and (args.project is None or u.project == args.project)]
        for user in users:
            with tqdm(desc=f"reindex {user.dirname}", unit="passage", disable=terminal.no_bar(args.quiet)) as bar:
                def progress(done: int, total: int) -> None:
                    bar.total = total
                    bar.update(done - bar.n)

                answers.append({"user": user.dirname, **memory.reindex(user, progress)})
    return answers
