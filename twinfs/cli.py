"""`twin`: the command line face of the same Memory.

Every command is one entry of COMMANDS (its arguments, its help and a one-line example) and one small function
that returns its answer (cli_memory.py: one end user's memory; cli_home.py: keys, sync and the servers); `main`
prints the answer for a person, or with `--json` as the HTTP API answers it. The global options (--home, --org,
--project, --json) go before or after the command. Exit codes: 0 ok, 1 an error (the service's or the input's: one
line on stderr), 2 a usage error.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from . import terminal
from .cli_home import cmd_keys_create, cmd_keys_list, cmd_keys_revoke, cmd_mcp, cmd_serve, cmd_sync
from .cli_memory import (
    DEFAULT_ORG,
    DEFAULT_PROJECT,
    cmd_add,
    cmd_correct,
    cmd_forget,
    cmd_grep,
    cmd_history,
    cmd_import,
    cmd_init,
    cmd_lineage,
    cmd_read,
    cmd_reindex,
    cmd_search,
    cmd_status,
    home_of,
    user_of,
)
from .errors import TwinError, describe

# the global options, each command's own defaults: what was not given anywhere
GLOBALS = {"home": None, "org": None, "project": None, "json": False}


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
    assert command.run is not None  # argparse requires a subcommand: the one picked is a leaf, and leaves run
    try:
        answer = command.run(args)
    except TwinError as exc:
        message = exc.message.replace("X-Twin-Account", "--account")  # the header's name is the HTTP API's
        if exc.status == 404 and message.startswith("no memory for end user") and getattr(args, "account", None):
            # who it looked for and where: a CLI user names neither org nor project nor home on every line
            user = user_of(args)
            message += f" (org '{user.org}', project '{user.project}', home {home_of(args).resolve()})"
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
