"""`twin`: the command line face of the same Memory.

Every command is one entry of COMMANDS (its arguments, its help and a one-line example) and one small function
that returns its answer; `main` prints the answer for a person, or with `--json` as the HTTP API answers it.
The global options (--home, --org, --project, --json) go before or after the command. Exit codes: 0 ok, 1 an
error (the service's or the input's: one line on stderr), 2 a usage error.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from . import terminal
from .errors import Invalid, TwinError, describe
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
# the global options, each command's own defaults: what was not given anywhere
GLOBALS = {"home": None, "org": None, "project": None, "json": False}


def _home(args) -> Path:
    return Path(args.home or Settings.from_env().home)


def _memory(args, write: bool = True):
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


def _user(args) -> EndUser:
    return EndUser.parse(args.org or DEFAULT_ORG, args.project or DEFAULT_PROJECT, args.account)


def _items_from(path: str) -> list[Item]:
    """Every line of a JSONL file as an item; the first bad line stops everything before anything is added."""
    try:
        source = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115  # closed by the with below, stdin or not
    except OSError as exc:
        raise Invalid(f"{path}: {exc.strerror.lower()}") from None
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
    home = _home(args)
    (home / "users").mkdir(parents=True, exist_ok=True)
    return {"home": str(home.resolve())}


def cmd_add(args) -> list[AddResult]:
    from tqdm import tqdm

    items = _items_from(args.file)
    if not items:
        raise Invalid(f"{args.file} holds no items")
    user = _user(args)
    answers: list[AddResult] = []
    with _memory(args) as memory:
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

    user = _user(args)
    summary = Summary()
    with _memory(args) as memory:
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
    with _memory(args, write=False) as memory:
        return memory.search(_user(args), req)


def cmd_status(args):
    with _memory(args, write=False) as memory:
        return memory.status(_user(args), StatusRequest(ids=args.ids))


def cmd_grep(args):
    req = GrepRequest(pattern=args.pattern, regex=args.regex, scope=args.scope, before=args.before, after=args.after)
    with _memory(args, write=False) as memory:
        return memory.grep(_user(args), req)


def cmd_read(args):
    with _memory(args, write=False) as memory:
        return memory.read(_user(args), ReadRequest(path=args.path, before=args.before))


def cmd_history(args):
    with _memory(args, write=False) as memory:
        return memory.history(_user(args), HistoryRequest(subject=args.subject, attribute=args.attribute))


def cmd_correct(args):
    with _memory(args) as memory:
        return memory.correct(_user(args), CorrectRequest(id=args.id, reason=args.reason, value=args.value))


def cmd_forget(args):
    with _memory(args) as memory:
        return memory.forget(_user(args), ForgetRequest(ids=args.ids))


def cmd_lineage(args):
    with _memory(args, write=False) as memory:
        return memory.lineage(_user(args), LineageRequest(id=args.id))


def cmd_reindex(args) -> list[dict]:
    """One end user with --account; else every end user, of --org and --project when given."""
    from tqdm import tqdm


    answers = []
    with _memory(args) as memory:
        users = [_user(args)] if args.account else [
            u for u in map(EndUser.of_folder, memory.users())
            if (args.org is None or u.org == args.org) and (args.project is None or u.project == args.project)]
        for user in users:
            with tqdm(desc=f"reindex {user.dirname}", unit="passage", disable=terminal.no_bar(args.quiet)) as bar:
                def progress(done: int, total: int) -> None:
                    bar.total = total
                    bar.update(done - bar.n)

                answers.append({"user": user.dirname, **memory.reindex(user, progress)})
    return answers


def _keys(args):
    from .keys import Keys

    return Keys(_home(args))


def cmd_keys_create(args) -> dict:
    for name in ("org", "project"):
        if not getattr(args, name):
            args.usage(f"--{name} is required: the key is for one organisation's project")
    token, key = _keys(args).create(args.org, args.project, args.role)
    return {"token": token, "id": key.id, "org": key.org, "project": key.project, "role": key.role,
            "created": key.created}


def cmd_keys_list(args) -> list[dict]:
    return [{"id": k.id, "org": k.org, "project": k.project, "role": k.role, "created": k.created}
            for k in _keys(args).all()
            if (args.org is None or k.org == args.org) and (args.project is None or k.project == args.project)]


def cmd_keys_revoke(args) -> dict:
    if not _keys(args).revoke(args.id):
        raise Invalid(f"no key '{args.id}'")
    return {"revoked": args.id}


def cmd_serve(args) -> None:
    from twinfs.server.app import serve

    serve(Settings.from_env(home=args.home), host=args.host, port=args.port)


def cmd_sync(args) -> list[dict]:
    """One end user (--account) or every vault with a remote (--all; with --remote, every vault). Beside a
    running `twin serve` (it owns the home), each sync is sent through it."""
    from .home_lock import holder
    from .lifecycle import synced_vaults, vaults

    if args.all == bool(args.account):
        args.usage("name one end user with --account, or give --all for every vault with a remote")
    if args.all and (args.leave or args.stay):
        args.usage("--leave and --stay move one end user: name it with --account")
    if args.leave and args.stay:
        args.usage("give --leave or --stay, not both")
    owner = holder(_home(args))
    if owner and owner.get("port") and owner.get("token"):
        home = _home(args)
        names = (vaults(home) if args.remote else synced_vaults(home)) if args.all else [_user(args).dirname]
        return _sync_each(args, names, lambda user, progress: _sync_through(owner, user, args))
    with _memory(args) as memory:
        names = (memory.users() if args.remote else memory.synced()) if args.all else [_user(args).dirname]
        return _sync_each(args, names, lambda user, progress: memory.sync_with(
            user, args.remote, progress, leave=args.leave, stay=args.stay))


def _sync_through(owner: dict, user: EndUser, args):
    from .client import owner_client
    from .models import OwnerSyncRequest

    request = OwnerSyncRequest(remote=args.remote, leave=args.leave, stay=args.stay)
    with owner_client(owner, user, timeout=3600) as client:  # a clone reindexes the whole vault
        return client.owner_sync(request)


def _sync_each(args, names: list[str], one: Callable[[EndUser, Callable[[int, int], None]], BaseModel]
               ) -> list[dict]:
    """Each vault synced by `one`, with progress bars; with --all a vault that fails does not stop the others."""
    from tqdm import tqdm

    answers: list[dict] = []
    failed, off = 0, terminal.no_bar(args.quiet)
    with tqdm(total=len(names), desc="sync", unit="vault", disable=off or len(names) < 2) as bar:
        for user in map(EndUser.of_folder, names):
            with tqdm(desc=f"index {user.account}", unit="passage", disable=off, leave=False) as inner:
                def progress(done: int, total: int) -> None:
                    inner.total = total
                    inner.update(done - inner.n)

                try:
                    answers.append({"user": user.dirname,
                                    **one(user, progress).model_dump(mode="json", exclude_none=True)})
                except TwinError as exc:
                    if not args.all:
                        raise
                    failed += 1
                    answers.append({"user": user.dirname, "error": exc.message})
            bar.update(1)
    if failed:
        print(terminal.synced(answers), file=sys.stderr)
        raise TwinError(f"{failed} of {len(names)} vaults did not sync")
    return answers


def cmd_mcp(args) -> None:
    from twinfs.server.mcp_server import serve

    serve(Settings.from_env(home=args.home), _user(args))


# the table the parser is built from
Arg = tuple[tuple[str, ...], dict[str, Any]]


def arg(*flags: str, **options: Any) -> Arg:
    return flags, options


WINDOW = (arg("--scope", help="a path prefix such as passages/memory/messages"),
          arg("--before", help="only memory said before this day (YYYY-MM-DD)"),
          arg("--after", help="only memory from this day on (YYYY-MM-DD)"))
QUIET = arg("--quiet", action="store_true", help="no progress bars")
NO_WAIT = arg("--no-wait", action="store_true", help="return once accepted, without waiting to land")
RECORD_ID = arg("id", help="the record id, th_…#r…")


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    example: str  # one line, the last of its --help; the tests parse it
    run: Callable[[argparse.Namespace], Any] | None = None
    args: tuple[Arg, ...] = ()
    account: bool | None = True  # --account: required, optional (False) or not taken (None)
    show: Callable[[Any], str] | None = None  # the answer for a person; None: printed as JSON
    sub: tuple[Command, ...] = ()


COMMANDS: tuple[Command, ...] = (
    Command("init", "create a twin home", "twin --home ./twin-home init", cmd_init, account=None,
            show=lambda a: f"twin home ready at {a['home']}"),
    Command("add", "add items from a JSONL file (one item a line; - for stdin) and wait until they land",
            "twin add --account alice items.jsonl", cmd_add,
            (arg("file"), NO_WAIT,
             arg("--read", action="store_true", help="also read and fold what was added before returning (the "
                 "newest turns too; without it a running `twin serve` or `twin mcp` reads them)"),
             QUIET), show=terminal.added),
    Command("import", "bring past chats into one end user's memory: a ChatGPT or Claude data export "
            "(conversations.json, or the export's zip) or a JSONL file of add items; a second import adds nothing",
            "twin import chatgpt --account alice ~/Downloads/chatgpt-export.zip", cmd_import,
            (arg("format", choices=["chatgpt", "claude", "jsonl"], help="whose export the file is"), arg("file"),
             arg("--name", help="how the person is called (their turns' name)"), NO_WAIT, QUIET),
            show=terminal.imported),
    Command("search", "ask one end user's memory a question: the brief (known, facts, hits), or ranked hits with "
            "--scope or --after", 'twin search --account alice "Where does Alice live?"', cmd_search,
            (arg("query"), arg("--fast", action="store_true", help="skip the model filter"), *WINDOW),
            show=terminal.search),
    Command("status", "the phase of items or events", "twin status --account alice msg-001 msg-002", cmd_status,
            (arg("ids", nargs="+"),), show=terminal.status),
    Command("grep", "lines of the vault's files that match a pattern", "twin grep --account alice Lisbon",
            cmd_grep, (arg("pattern"), arg("--regex", action="store_true", help="the pattern is a regular expression"),
                       *WINDOW), show=terminal.grep),
    Command("read", "a file of the vault: a passage, records/<thread>.json[#N], a page",
            "twin read --account alice pages/alice-chen.md", cmd_read,
            (arg("path"), arg("--before", help="the file as the vault held it before this day (git history)")),
            show=terminal.read),
    Command("history", "every value of a subject (or one attribute) over time",
            'twin history --account alice "Alice Chen" --attribute home_city', cmd_history,
            (arg("subject"), arg("--attribute")), show=terminal.history),
    Command("correct", "retract a record, or replace its value (--value), with a reason",
            "twin correct --account alice 'th_3c673913c32bf3b2#ra8c283c3985e06a1' --reason 'she moved' --value Porto",
            cmd_correct, (RECORD_ID, arg("--reason", required=True), arg("--value", help="the right value")),
            show=terminal.corrected),
    Command("forget", "remove items (or threads, th_…) and all derived from them, from files, indexes, pages and "
            "git history", "twin forget --account alice msg-004 th_6bbab6d256ffb05c", cmd_forget,
            (arg("ids", nargs="+", help="item ids, or thread ids for whole conversations"),), show=terminal.forgot),
    Command("lineage", "a record, its turns, its source passage and the commits that touched it",
            "twin lineage --account alice 'th_3c673913c32bf3b2#ra8c283c3985e06a1'", cmd_lineage, (RECORD_ID,),
            show=terminal.lineage),
    Command("reindex", "rebuild .twin/ from the files (all end users, or of --org/--project, when --account is "
            "left out)", "twin --home ./twin-home reindex", cmd_reindex, (QUIET,), account=False,
            show=terminal.reindexed),
    Command("keys", "create, list and revoke API keys for the server", "twin keys list", account=None, sub=(
        Command("create", "create a key for one organisation's project; prints it once",
                "twin keys create --org acme --project app --role write", cmd_keys_create,
                (arg("--role", choices=["read", "write"], required=True),), account=None, show=terminal.key_made),
        Command("list", "list keys (never the tokens), of --org/--project when given", "twin keys list --org acme",
                cmd_keys_list, account=None, show=terminal.keys),
        Command("revoke", "revoke a key by its id", "twin keys revoke key_0123456789ab", cmd_keys_revoke,
                (arg("id"),), account=None, show=lambda a: f"revoked {a['revoked']}"),
    )),
    Command("sync", "sync an end user's vault with a git remote (fetch, merge, push), or every vault with one; on "
            "a machine that does not hold the end user yet, clone it", "twin sync --account alice --remote "
            "/mnt/nas/memory/{vault}.git", cmd_sync,
            (arg("--remote", help="a path, or an ssh, git or https URL, kept as the vault's remote; {vault} stands "
                                  "for the vault's folder name"),
             arg("--all", action="store_true", help="every vault with a remote (with --remote: every vault)"),
             arg("--leave", action="store_true", help="hand the end user to another server: everything goes to the "
                                                      "remote, and this home answers 503 for them from then on"),
             arg("--stay", action="store_true", help="serve a vault handed off with --leave here again (after the "
                                                     "sync)"), QUIET),
            account=False, show=terminal.synced),
    Command("serve", "serve the HTTP API (uvicorn); organisation and project come from each request's key",
            "twin --home ./twin-home serve --port 8765", cmd_serve,
            (arg("--host", default="127.0.0.1"), arg("--port", type=int, default=8765)), account=None),
    Command("mcp", "serve one end user's memory to an MCP client over stdio (search, add, grep, read, status, "
            "history)", "twin --home ./twin-home mcp --account alice", cmd_mcp),
)


def _global_options() -> argparse.ArgumentParser:
    """Taken by the top parser and every command's: SUPPRESS leaves a value given elsewhere in place."""
    g = argparse.ArgumentParser(add_help=False)
    g.add_argument("--home", default=argparse.SUPPRESS, help="the twin home (default $TWIN_HOME or ./twin-home)")
    g.add_argument("--org", default=argparse.SUPPRESS, help=f"organisation (default: {DEFAULT_ORG})")
    g.add_argument("--project", default=argparse.SUPPRESS, help=f"project (default: {DEFAULT_PROJECT})")
    g.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                   help="print the answer as the HTTP API's JSON")
    return g


def _add_commands(p: argparse.ArgumentParser, commands: tuple[Command, ...], common: argparse.ArgumentParser,
                  dest: str) -> None:
    sub = p.add_subparsers(dest=dest, required=True, metavar="COMMAND")
    for command in commands:
        description = textwrap.fill(command.help[0].upper() + command.help[1:] + ".", 78)
        c = sub.add_parser(command.name, help=command.help, description=description, parents=[common],
                           epilog=f"example: {command.example}", formatter_class=argparse.RawDescriptionHelpFormatter)
        for flags, options in command.args:
            c.add_argument(*flags, **options)
        if command.account is not None:
            c.add_argument("--account", required=command.account, default=None,
                           help="the end user (X-Twin-Account)")
        c.set_defaults(command=command, usage=c.error)
        if command.sub:
            _add_commands(c, command.sub, common, f"{command.name}_command")


def parser() -> argparse.ArgumentParser:
    common = _global_options()
    p = argparse.ArgumentParser(prog="twin", description="Local-first memory for LLM apps.", parents=[common],
                                epilog='example: twin --home ./twin-home search --account alice "Where does '
                                       'Alice live?"', formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_commands(p, COMMANDS, common, "command_name")
    return p


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    args = parser().parse_args(argv)
    for name, value in GLOBALS.items():
        if not hasattr(args, name):
            setattr(args, name, value)
    return args


def _as_json(answer: Any) -> str:
    """The answer as the HTTP API writes it; a list (an add in batches, reindex) is one JSON line each."""
    if isinstance(answer, list):
        return "\n".join(_as_json(a) for a in answer)
    if isinstance(answer, BaseModel):
        return answer.model_dump_json(exclude_none=True)
    return json.dumps(answer, ensure_ascii=False)


def _fail(args, status: int, message: str) -> int:
    print(f"twin: {message}", file=sys.stderr)
    if args.json:
        print(json.dumps({"error": {"status": status, "message": message}}, ensure_ascii=False))
    return 1


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # the embedder's loading bar says nothing to a person
    args = parse(argv)
    command: Command = args.command
    try:
        answer = command.run(args)
    except TwinError as exc:
        message = exc.message.replace("X-Twin-Account", "--account")  # the header's name is the HTTP API's
        if exc.status == 404 and message.startswith("no memory for end user") and getattr(args, "account", None):
            # who it looked for and where: a CLI user names neither org nor project nor home on every line
            user = _user(args)
            message += f" (org '{user.org}', project '{user.project}', home {_home(args).resolve()})"
        return _fail(args, exc.status, message)
    except ValidationError as exc:
        return _fail(args, 422, describe(exc))
    except ValueError as exc:
        return _fail(args, 422, str(exc))
    except OSError as exc:
        return _fail(args, 500, str(exc))
    except KeyboardInterrupt:
        return 130
    if answer is not None:
        text = _as_json(answer) if args.json or command.show is None else command.show(answer)
        if text:
            try:
                print(text, end="" if text.endswith("\n") else "\n", flush=True)
            except BrokenPipeError:  # `| head` read what it wanted: nothing is wrong, and nothing more is said
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit's flush
    return 0


if __name__ == "__main__":
    sys.exit(main())
