"""`twin`: the command line face of the same Memory. Errors print one line and exit non-zero."""
from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

from pydantic import ValidationError

from .errors import Invalid, TwinError
from .models import (AddRequest, CorrectRequest, EndUser, ForgetRequest, GrepRequest, HistoryRequest, Item,
                     LineageRequest, ReadRequest, SearchRequest, StatusRequest)
from .settings import Settings

BATCH = 500


def _out(model) -> None:
    data = model.model_dump(mode="json", exclude_none=True) if hasattr(model, "model_dump") else model
    print(json.dumps(data, indent=1, ensure_ascii=False))


def describe(exc: ValidationError, prefix: str = "") -> str:
    """A pydantic error as one line that names the field: `items[3].at: Input should be …`."""
    parts = []
    for err in exc.errors()[:3]:
        loc = ""
        for part in err["loc"]:
            loc += f"[{part}]" if isinstance(part, int) else (f".{part}" if loc else str(part))
        msg = err["msg"].removeprefix("Value error, ")
        parts.append(f"{prefix}{loc}: {msg}" if loc else f"{prefix}{msg}")
    more = len(exc.errors()) - 3
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def _memory(args, write: bool = True):
    """The Memory a command works with. A writing command owns the home for its run (refused, naming the owner,
    when another process owns it); a reading one opens the vaults read-only and never writes, beside an owner
    or not."""
    from .memory import Memory

    settings = Settings.from_env(home=args.home, watch=False)  # one command: nothing to watch
    if not write:
        return Memory(settings, read_only=True).start()
    return Memory(settings, owner=f"twin {args.command}").start()


def _user(args) -> EndUser:
    return EndUser.parse(args.org, args.project, args.account)


def _items_from(path: str) -> list[Item]:
    """Every line of a JSONL file as an item; the first bad line stops everything before anything is added."""
    source = sys.stdin if path == "-" else open(path, encoding="utf-8")
    items = []
    with source:
        for n, line in enumerate(source, 1):
            if not line.strip():
                continue
            try:
                items.append(Item.model_validate_json(line))
            except ValidationError as exc:
                raise Invalid(f"{path} line {n}: {describe(exc)}") from None
    seen: set[str] = set()
    for item in items:
        if item.id in seen:
            raise Invalid(f"{path}: item id '{item.id}' appears twice")
        seen.add(item.id)
    return items


def cmd_init(args) -> None:
    home = Path(args.home or Settings.from_env().home)
    (home / "users").mkdir(parents=True, exist_ok=True)
    print(f"twin home ready at {home.resolve()}")


def cmd_add(args) -> None:
    from tqdm import tqdm

    items = _items_from(args.file)
    if not items:
        raise Invalid(f"{args.file} holds no items")
    user = _user(args)
    with _memory(args) as memory:
        ids: list[str] = []
        with tqdm(total=len(items), desc="accepted", unit="item", disable=args.quiet) as bar:
            for i in range(0, len(items), BATCH):
                chunk = items[i:i + BATCH]
                memory.add(user, AddRequest(items=chunk))
                ids += [it.id for it in chunk]
                bar.update(len(chunk))
        if not args.no_wait:
            with tqdm(total=len(ids), desc="landed", unit="item", disable=args.quiet) as bar:
                import time

                while True:
                    phases = {}
                    for i in range(0, len(ids), 500):
                        phases.update(memory.status(user, StatusRequest(ids=ids[i:i + 500])).phases)
                    done = sum(1 for p in phases.values() if p.value != "accepted")
                    bar.update(done - bar.n)
                    if done == len(ids):
                        break
                    time.sleep(0.2)
        print(f"added {len(ids)} items for {user.account}")


def cmd_search(args) -> None:
    req = SearchRequest(query=args.query, fast=args.fast, scope=args.scope, before=args.before, after=args.after)
    with _memory(args, write=False) as memory:
        _out(memory.search(_user(args), req))


def cmd_status(args) -> None:
    with _memory(args, write=False) as memory:
        _out(memory.status(_user(args), StatusRequest(ids=args.ids)))


def cmd_grep(args) -> None:
    req = GrepRequest(pattern=args.pattern, regex=args.regex, scope=args.scope, before=args.before, after=args.after)
    with _memory(args, write=False) as memory:
        result = memory.grep(_user(args), req)
    for line in result.lines:
        print(f"{line.path}:{line.line}: {line.text}")
    if result.truncated:
        print(f"(stopped at {result.found} lines)", file=sys.stderr)


def cmd_read(args) -> None:
    with _memory(args, write=False) as memory:
        sys.stdout.write(memory.read(_user(args), ReadRequest(path=args.path, before=args.before)).content)


def cmd_reindex(args) -> None:
    from tqdm import tqdm

    with _memory(args) as memory:
        users = [_user(args)] if args.account else [EndUser(**dict(zip(("org", "project", "account"),
                                                                         d.split(".", 2))))
                                                     for d in memory.users()]
        for user in users:
            with tqdm(desc=f"reindex {user.dirname}", unit="passage", disable=args.quiet) as bar:
                def progress(done: int, total: int) -> None:
                    bar.total = total
                    bar.update(done - bar.n)

                stats = memory.reindex(user, progress)
            print(f"{user.dirname}: {stats['passages']} passages, {stats['changed']} reindexed, "
                  f"{stats['embedded']} segments embedded, {stats['removed']} removed")


def cmd_history(args) -> None:
    with _memory(args, write=False) as memory:
        _out(memory.history(_user(args), HistoryRequest(subject=args.subject, attribute=args.attribute)))


def cmd_correct(args) -> None:
    with _memory(args) as memory:
        _out(memory.correct(_user(args), CorrectRequest(id=args.id, reason=args.reason, value=args.value)))


def cmd_forget(args) -> None:
    with _memory(args) as memory:
        _out(memory.forget(_user(args), ForgetRequest(ids=args.ids)))


def cmd_lineage(args) -> None:
    with _memory(args, write=False) as memory:
        _out(memory.lineage(_user(args), LineageRequest(id=args.id)))


def cmd_keys(args) -> None:
    from .keys import Keys

    keys = Keys(Path(args.home or Settings.from_env().home))
    if args.keys_cmd == "create":
        token, key = keys.create(args.org, args.project, args.role)
        print(token)
        print(f"({key.role} key {key.id} for {key.org}.{key.project}; shown once, stored only as a hash)",
              file=sys.stderr)
    elif args.keys_cmd == "list":
        for key in keys.all():
            print(f"{key.id}\t{key.org}.{key.project}\t{key.role}\t{key.created}")
    elif args.keys_cmd == "revoke":
        if not keys.revoke(args.id):
            raise Invalid(f"no key '{args.id}'")
        print(f"revoked {args.id}")


def cmd_serve(args) -> None:
    from server.app import serve

    serve(Settings.from_env(home=args.home), host=args.host, port=args.port)


def cmd_sync(args) -> None:
    from tqdm import tqdm

    if args.all == bool(args.account):
        raise Invalid("name one end user with --account, or give --all for every vault with a remote")
    with _memory(args) as memory:
        if args.all:
            names = memory.users() if args.remote else memory.synced()
            users = [EndUser(**dict(zip(("org", "project", "account"), d.split(".", 2)))) for d in names]
        else:
            users = [_user(args)]
        failed = 0
        with tqdm(total=len(users), desc="sync", unit="vault", disable=args.quiet or len(users) < 2) as bar:
            for user in users:
                try:
                    with tqdm(desc=f"index {user.account}", unit="passage", disable=args.quiet, leave=False) as inner:
                        def progress(done: int, total: int) -> None:
                            inner.total = total
                            inner.update(done - inner.n)

                        result = memory.sync_with(user, args.remote, progress)
                except TwinError as exc:
                    if not args.all:
                        raise
                    failed += 1
                    tqdm.write(f"{user.dirname}: {exc.message}", file=sys.stderr)
                    continue
                finally:
                    bar.update(1)
                tqdm.write(_synced_line(user, result))
                for line in result.kept + [f"conflict: {c} (delete it once resolved)" for c in result.conflicts]:
                    tqdm.write(f"  {line}")
                if result.note:
                    tqdm.write(f"  {result.note}")
        if failed:
            raise TwinError(f"{failed} of {len(users)} vaults did not sync (see above)")


def _synced_line(user: EndUser, result) -> str:
    what = {"up to date": "up to date", "sent": "sent", "received": "received", "merged": "merged",
            "replayed": "replayed onto the history that forgot", "cloned": "cloned"}[result.kind]
    parts = [f"{user.dirname}: {what} with {result.remote}", f"{result.received} items in"]
    if result.forgotten:
        parts.append(f"{result.forgotten} forgotten as the remote forgot them")
    parts.append("pushed" if result.sent else "nothing to push")
    return ", ".join(parts)


def cmd_mcp(args) -> None:
    from server.mcp_server import serve

    serve(Settings.from_env(home=args.home), _user(args))


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="twin", description="Local-first memory for LLM apps.")
    p.add_argument("--home", help="the twin home (default $TWIN_HOME or ./twin-home)")
    sub = p.add_subparsers(dest="command", required=True)

    def user_cmd(name: str, help: str, fn, account_required: bool = True):
        c = sub.add_parser(name, help=help, description=help)
        c.add_argument("--home", default=argparse.SUPPRESS, help="the twin home")
        c.add_argument("--org", default="local", help="organisation (default: local)")
        c.add_argument("--project", default="default", help="project (default: default)")
        c.add_argument("--account", required=account_required, help="the end user (X-Twin-Account)")
        c.set_defaults(fn=fn)
        return c

    def window(c):
        c.add_argument("--scope", help="a path prefix such as passages/memory/messages")
        c.add_argument("--before", help="only memory said before this day (YYYY-MM-DD)")
        c.add_argument("--after", help="only memory from this day on (YYYY-MM-DD)")

    c = sub.add_parser("init", help="create a twin home", description="Create a twin home.")
    c.add_argument("--home", default=argparse.SUPPRESS)
    c.set_defaults(fn=cmd_init)

    c = user_cmd("add", "add items from a JSONL file (one item a line; - for stdin) and wait until they land", cmd_add)
    c.add_argument("file")
    c.add_argument("--no-wait", action="store_true", help="return once accepted, without waiting to land")
    c.add_argument("--quiet", action="store_true", help="no progress bars")

    c = user_cmd("search", "ask one end user's memory a question", cmd_search)
    c.add_argument("query")
    c.add_argument("--fast", action="store_true", help="skip the model filter")
    window(c)

    c = user_cmd("status", "the phase of items or events", cmd_status)
    c.add_argument("ids", nargs="+")

    c = user_cmd("grep", "lines of passages that match a pattern", cmd_grep)
    c.add_argument("pattern")
    c.add_argument("--regex", action="store_true", help="the pattern is a regular expression")
    window(c)

    c = user_cmd("read", "a file of the vault: a passage, records/<thread>.json[#N], a page", cmd_read)
    c.add_argument("path")
    c.add_argument("--before", help="the file as the vault held it before this day (git history)")

    c = user_cmd("history", "every value of a subject (or one attribute) over time", cmd_history)
    c.add_argument("subject")
    c.add_argument("--attribute")

    c = user_cmd("correct", "retract a record, or replace its value (--value), with a reason", cmd_correct)
    c.add_argument("id", help="the record id, th_…#r…")
    c.add_argument("--reason", required=True)
    c.add_argument("--value", help="the right value")

    c = user_cmd("forget", "remove items (or threads, th_…) and all derived from them, from files, indexes, pages "
                 "and git history", cmd_forget)
    c.add_argument("ids", nargs="+", help="item ids, or thread ids for whole conversations")

    c = user_cmd("lineage", "a record, its turns, its source passage and the commits that touched it", cmd_lineage)
    c.add_argument("id", help="the record id, th_…#r…")

    c = user_cmd("reindex", "rebuild .twin/ from the files (all end users when --account is left out)",
                 cmd_reindex, account_required=False)
    c.add_argument("--quiet", action="store_true", help="no progress bars")

    k = sub.add_parser("keys", help="API keys for the server", description="Create, list and revoke API keys.")
    k.add_argument("--home", default=argparse.SUPPRESS)
    ks = k.add_subparsers(dest="keys_cmd", required=True)
    kc = ks.add_parser("create", help="create a key; prints it once")
    kc.add_argument("--org", required=True)
    kc.add_argument("--project", required=True)
    kc.add_argument("--role", choices=["read", "write"], required=True)
    ks.add_parser("list", help="list keys (never the tokens)")
    kr = ks.add_parser("revoke", help="revoke a key by its id")
    kr.add_argument("id")
    k.set_defaults(fn=cmd_keys)

    c = sub.add_parser("serve", help="serve the HTTP API", description="Serve the HTTP API (uvicorn).")
    c.add_argument("--home", default=argparse.SUPPRESS)
    c.add_argument("--host", default="127.0.0.1")
    c.add_argument("--port", type=int, default=8765)
    c.set_defaults(fn=cmd_serve)

    c = user_cmd("sync", "sync an end user's vault with a git remote (fetch, merge, push); --all for every vault "
                 "with one. A new machine joining clones the vault", cmd_sync, account_required=False)
    c.add_argument("--remote", help="a path, or an ssh, git or https URL, kept as the vault's remote; {vault} "
                                    "stands for the vault's folder name (with --all)")
    c.add_argument("--all", action="store_true", help="every vault with a remote (with --remote: every vault)")
    c.add_argument("--quiet", action="store_true", help="no progress bars")

    user_cmd("mcp", "serve one end user's memory to an MCP client over stdio (search, add, grep, read, status, "
             "history)", cmd_mcp)
    return p


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    args = parser().parse_args(argv)
    if not hasattr(args, "home"):
        args.home = None
    try:
        args.fn(args)
    except TwinError as exc:
        print(f"twin: {exc.message}", file=sys.stderr)
        return 1 if exc.status < 500 else 2
    except ValidationError as exc:
        print(f"twin: {describe(exc)}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as exc:
        print(f"twin: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
