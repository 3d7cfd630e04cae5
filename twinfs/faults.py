"""Crash points for the crash tests: `TWIN_CRASH_AT=<point>[:<n>][,…]` kills this process the n-th time it reaches
that point, with SIGKILL and no clean-up, together with the git children it is running when it leads its process
group (as a machine that loses power, or a container stopped hard, would). Read once at import; unset, a point
costs one dict lookup.

Points: `commit` (changes staged, the commit not made), `words` (a Whoosh commit written but not committed),
`land` (an add committed, its phases not moved nor its inbox file removed), `read` (records written, not
committed), `rewrite` (a forget's new history imported, refs and objects not yet cleaned); in a sync `fetched`
(the remote fetched, nothing merged), `merging` (half the merge's files written, the branch not moved),
`pushing` (merged and settled here, not pushed).
"""
from __future__ import annotations

import os
import signal

_AT: dict[str, int] = {}
for _part in filter(None, os.environ.get("TWIN_CRASH_AT", "").split(",")):
    _name, _, _n = _part.partition(":")
    _AT[_name.strip()] = int(_n or 1)


def point(name: str) -> None:
    if name not in _AT:
        return
    _AT[name] -= 1
    if _AT[name] > 0:
        return
    if os.getpgid(0) == os.getpid():
        os.killpg(os.getpid(), signal.SIGKILL)
    os.kill(os.getpid(), signal.SIGKILL)
