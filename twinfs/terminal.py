"""The CLI's answers for a person on a terminal: a brief as known/facts/hits, phases as a table, and so on.
Each function takes what the command answered (the HTTP API's models) and returns the text to print."""
from __future__ import annotations

import sys
import textwrap

from .models import (
    AddResult,
    CorrectResult,
    ForgetResult,
    GrepResult,
    HistoryResult,
    LineageResult,
    ReadResult,
    SearchResult,
    StatusResult,
)

HIT_LINES = 12  # a passage shown in a brief; the rest is a `twin read` away
INDENT = "  "


def items(n: int) -> str:
    return f"{n} item{'s' if n != 1 else ''}"


def table(headers: list[str], rows: list[list[str]]) -> str:
    """Columns padded to their widest cell; the last column is left unpadded."""
    cells = [headers, *rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers) - 1)]
    lines = []
    for row in cells:
        padded = [cell.ljust(widths[i]) for i, cell in enumerate(row[:-1])] + [row[-1]]
        lines.append("  ".join(padded).rstrip())
    return "\n".join(lines)


def section(title: str, lines: list[str]) -> str:
    return "\n".join([title, *(textwrap.indent(line, INDENT) for line in lines)])


def _passage(text: str, path: str) -> str:
    lines = text.strip("\n").split("\n")
    if len(lines) <= HIT_LINES:
        return "\n".join(lines)
    return "\n".join(lines[:HIT_LINES] + [f"… {len(lines) - HIT_LINES} more lines: twin read {path}"])


def search(answer: SearchResult) -> str:
    """The brief: known, facts, worked out, hits, notes and the verdict; a ranked answer: its hits."""
    parts = []
    if answer.known:
        parts.append(section("known", answer.known))
    if answer.facts:
        parts.append(section("facts", [f"{f.text}  [{f.path}]" for f in answer.facts]))
    if answer.worked_out:
        parts.append(section("worked out", answer.worked_out))
    hits = []
    for n, hit in enumerate(answer.hits, 1):
        said = f" · said {hit.said[:10]}" if hit.said else ""
        score = f" · score {hit.score:.2f}" if hit.score is not None else ""
        hits.append(f"{n}. {hit.path}{said}{score}\n{textwrap.indent(_passage(hit.text, hit.path), '   ')}")
    parts.append(section(f"hits ({len(answer.hits)} of {answer.found} found)", hits) if hits
                 else f"no hits ({answer.found} found)")
    if answer.notes:
        parts.append(section("notes", answer.notes))
    if answer.held is not None:
        verdict = "yes" if answer.held else "no: the memory may not answer this"
        parts.append(f"answers the question: {verdict}" + ("" if answer.filtered else " (unfiltered)"))
    return "\n\n".join(parts)


def status(answer: StatusResult) -> str:
    text = table(["id", "phase"], [[i, p.value] for i, p in answer.phases.items()])
    return text + "".join(f"\n{note}" for note in answer.notes or [])


def added(answers: list[AddResult]) -> str:
    ids = [i for a in answers for i in a.ids]
    counts: dict[str, int] = {}
    for a in answers:
        for phase in a.phases.values():
            counts[phase.value] = counts.get(phase.value, 0) + 1
    phases = ", ".join(f"{n} {phase}" for phase, n in counts.items())
    return f"added {items(len(ids))} ({phases})"


def grep(answer: GrepResult) -> str:
    if answer.truncated:
        print(f"(stopped at {answer.found} lines)", file=sys.stderr)
    return "\n".join(f"{line.path}:{line.line}: {line.text}" for line in answer.lines)


def read(answer: ReadResult) -> str:
    return answer.content


def history(answer: HistoryResult) -> str:
    if not answer.values:
        return f"nothing known of {answer.subject}" + (f" · {answer.attribute}" if answer.attribute else "")
    rows = [[v.said, v.happened or "", v.attribute or "", v.value or "", ", ".join(v.records)] for v in answer.values]
    return f"{answer.subject}\n" + table(["said", "happened", "attribute", "value", "records"], rows)


def corrected(answer: CorrectResult) -> str:
    then = f"; replaced by {answer.replaced_by}" if answer.replaced_by else ""
    return f"retracted {answer.id}{then} (commit {(answer.commit or '')[:12]})"


def forgot(answer: ForgetResult) -> str:
    lines = [f"forgot {items(len(answer.forgotten))}: {', '.join(answer.forgotten) or '-'}"
             + (f" (commit {answer.commit[:12]}; history rewritten)" if answer.commit else "")]
    if answer.unknown:
        lines.append(f"unknown: {', '.join(answer.unknown)}")
    return "\n".join(lines)


def lineage(answer: LineageResult) -> str:
    r = answer.record
    value = f"{r.subject} · {r.attribute}: {r.value}" if r.attribute else r.subject
    lines = [f"{r.id}  [{answer.path}]", f"{r.text}  ({r.kind}; {value}; said {r.said}"
             + (f", happened {r.happened}" if r.happened else "") + ")"]
    if r.retracted:
        lines.append(f"retracted: {r.retracted}")
    lines += ["", section("turns", [f"{t.id} {t.name or t.role or ''} {t.at or ''}: {t.text}" for t in answer.turns])]
    lines += ["", f"source {answer.source.path}"]
    lines += ["", section("commits", [table(["sha", "at", "message"],
                                            [[c.sha[:12], c.at, c.message] for c in answer.commits])])]
    return "\n".join(lines)


def reindexed(answers: list[dict]) -> str:
    if not answers:
        return "no end users to reindex"
    return "\n".join(f"{a['user']}: {a['passages']} passages, {a['changed']} reindexed, {a['embedded']} segments "
                     f"embedded, {a['removed']} removed" for a in answers)


def key_made(answer: dict) -> str:
    """The token alone on stdout (for `KEY=$(twin keys create …)`); what it is on stderr."""
    print(f"({answer['role']} key {answer['id']} for {answer['org']}.{answer['project']}; shown once, stored only "
          "as a hash)", file=sys.stderr)
    return answer["token"]


def keys(answers: list[dict]) -> str:
    if not answers:
        return "no keys"
    return table(["id", "org.project", "role", "created"],
                 [[k["id"], f"{k['org']}.{k['project']}", k["role"], k["created"]] for k in answers])


SYNC_KINDS = {"up to date": "up to date", "sent": "sent", "received": "received", "merged": "merged",
              "replayed": "replayed onto the history that forgot", "cloned": "cloned"}


def synced(answers: list[dict]) -> str:
    """One line a vault; below it, ids edited on both machines, conflict copies waiting, and notes."""
    if not answers:
        return "no vault has a remote yet: give --remote"
    lines = []
    for a in answers:
        if "error" in a:
            lines.append(f"{a['user']}: did not sync: {a['error']}")
            continue
        parts = [f"{a['user']}: {SYNC_KINDS[a['kind']]} with {a['remote']}", f"{a['received']} items in"]
        if a.get("forgotten"):
            parts.append(f"{a['forgotten']} forgotten as the remote forgot them")
        parts.append("pushed" if a["sent"] else "nothing to push")
        lines.append(", ".join(parts))
        lines += [f"  {k}" for k in a.get("kept", [])]
        lines += [f"  conflict: {c} (the other version; delete it once resolved)" for c in a.get("conflicts", [])]
        if a.get("note"):
            lines.append(f"  {a['note']}")
    return "\n".join(lines)


def imported(answer: dict) -> str:
    """The closing summary of an import: conversations, turns, what was new, and what was left out and why."""
    conversations = f"{answer['conversations']:,} conversation{'s' if answer['conversations'] != 1 else ''}, " \
        if answer["format"] != "jsonl" else ""
    lines = [f"imported {answer['file']}: {conversations}{answer['turns']:,} turns "
             f"({answer['added']:,} new, {answer['turns'] - answer['added']:,} already there)"]
    if answer.get("landed") is not None:
        lines.append(f"{answer['landed']:,} searchable now")
    for why, n in sorted(answer["skipped"].items(), key=lambda kv: -kv[1]):
        lines.append(f"left out: {n:,} {why}")
    return "\n".join(lines)


def no_bar(quiet: bool) -> bool:
    """Progress bars only on a terminal: a log or a pipe gets the result, not a bar redrawn line by line."""
    return quiet or not sys.stderr.isatty()
