"""git's file-system monitor for vaults of hundreds of thousands of files, answered by watchman.

Without one, `git status` lstats every file git tracks: 518 ms at 457,654 files (100,000 passages), and every
hand-edit check of the vault (Vault.changes) pays it too. git 2.39 has no monitor of its own on Linux; it asks a
hook (core.fsmonitor, protocol 2) for the paths changed since a token it keeps in the index, and watchman, the
watcher git's own sample hook is written for, answers. A vault as large as Vault.commit_files writes trees for
gets the hook at its first open, when watchman is on PATH and TWIN_GIT_FSMONITOR is not "off"; the hook is a
file in the vault's .git, named by a relative path, so the vault can move. When watchman is gone or fails, the
hook exits non-zero and git scans as it would without it: slower, never wrong.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

HOOK_NAME = "twin-fsmonitor"
SETTING = "TWIN_GIT_FSMONITOR"  # "off": never; anything else: where watchman is on PATH and the vault is large

# The hook git runs at the top of the work tree, as `.git/twin-fsmonitor 2 <token>`: it prints a new token, a NUL,
# then the paths changed since <token>, each ended by a NUL; "/" for "everything may have changed" (a first call,
# or a watchman that restarted and lost its history). Standard library only, run by this Python's own interpreter
# (isolated, no site: 30 ms, where `env python3` through a version manager's shim took 140), written again at a
# vault's open when that interpreter moved.
HOOK = r'''#!{python} -IS
"""git's fsmonitor hook (protocol 2), answered by watchman; written by twinfs (twinfs/fsmonitor.py)."""
import json
import os
import subprocess
import sys


def ask(query):
    done = subprocess.run(["watchman", "-j", "--no-pretty"], input=json.dumps(query).encode(),
                          capture_output=True, timeout=30)
    answer = json.loads(done.stdout or b"{}")
    if done.returncode or "error" in answer:
        raise RuntimeError(answer.get("error") or done.stderr.decode(errors="replace").strip() or "no answer")
    return answer


def main(argv):
    if len(argv) < 2 or argv[1] != "2":
        sys.exit("twin-fsmonitor: only hook protocol 2 is spoken; git scans instead")
    token = argv[2] if len(argv) > 2 else ""
    root = os.getcwd()
    try:
        if not token.startswith("c:"):  # git has no watchman clock yet: start watching, all may have changed
            ask(["watch", root])
            changed, clock = ["/"], ask(["clock", root])["clock"]
        else:
            answer = ask(["query", root, {"since": token, "fields": ["name"],
                                           "expression": ["not", ["dirname", ".git"]]}])
            clock = answer["clock"]
            changed = ["/"] if answer.get("is_fresh_instance") else answer.get("files", [])
    except (OSError, ValueError, KeyError, RuntimeError, subprocess.SubprocessError) as exc:
        sys.exit(f"twin-fsmonitor: watchman did not answer ({exc}); git scans instead")
    sys.stdout.buffer.write((clock + "\0" + "".join(p + "\0" for p in changed)).encode())


if __name__ == "__main__":
    main(sys.argv)
'''


def wanted() -> bool:
    """Whether large vaults get the hook here: watchman on PATH, and not turned off."""
    return os.environ.get(SETTING, "auto").strip().lower() != "off" and shutil.which("watchman") is not None


def enabled(root: Path) -> bool:
    """Whether the vault has the hook (a stat: every vault's open asks)."""
    return (root / ".git" / HOOK_NAME).is_file()


def enable(root: Path) -> None:
    """Write the hook into the vault's .git and point git at it (again, when either changed)."""
    hook, text = root / ".git" / HOOK_NAME, HOOK.replace("{python}", os.path.realpath(sys.executable), 1)
    if not hook.is_file() or hook.read_text(encoding="utf-8") != text:
        tmp = hook.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.chmod(0o755)
        os.replace(tmp, hook)
    if _config(root, "--get", "core.fsmonitor") != f".git/{HOOK_NAME}":
        _config(root, "core.fsmonitorHookVersion", "2")
        _config(root, "core.fsmonitor", f".git/{HOOK_NAME}")


def disable(root: Path) -> None:
    """Unset the hook and stop watchman watching the vault (when it was)."""
    _config(root, "--unset", "core.fsmonitor")
    _config(root, "--unset", "core.fsmonitorHookVersion")
    (root / ".git" / HOOK_NAME).unlink(missing_ok=True)
    if shutil.which("watchman"):
        subprocess.run(["watchman", "watch-del", str(root)], capture_output=True, timeout=30)


def _config(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(root), "config", "--local", *args], capture_output=True, text=True)
    return done.stdout.strip()
