"""The command line's commands on the home and its servers: API keys, sync (through a running server when one
owns the home), serve and mcp."""
from __future__ import annotations

import sys
from collections.abc import Callable

from pydantic import BaseModel

from . import terminal
from .cli_memory import home_of, memory_of, user_of
from .errors import Invalid, TwinError
from .models import EndUser
from .settings import Settings


def _keys(args):
    from .keys import Keys

    return Keys(home_of(args))


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
    owner = holder(home_of(args))
    if owner and owner.get("port") and owner.get("token"):
        home = home_of(args)
        names = (vaults(home) if args.remote else synced_vaults(home)) if args.all else [user_of(args).dirname]
        return _sync_each(args, names, lambda user, progress: _sync_through(owner, user, args))
    with memory_of(args) as memory:
        names = (memory.users() if args.remote else memory.synced()) if args.all else [user_of(args).dirname]
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

    serve(Settings.from_env(home=args.home), user_of(args))
