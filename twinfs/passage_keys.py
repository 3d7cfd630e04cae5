"""A passage's keys: what else finds it besides its own words. The short questions it answers and the people,
places and things it is about, kept beside it in the vault (`passages/…/p_0001.keys.yaml`, plain YAML a person
can read and edit, committed like every file), and the facts read from it (the text of its live records, whose
`source` it is). Both lanes index them as extra keys of the passage: the words lane's `keys` field
(index/words.py) and extra segments of the passage in the meaning lane (index/meaning.py), so a passage scores
as the best of its keys and its own text. A record's key is embedded as the record itself is
(fact_segment): its vector is the one the records' lane already holds, nothing is embedded again.

A keys file goes with its passage: when a cut drops the passage (forget, a thread cut again), its keys go too;
an edit of it by hand is indexed again by the tidy step once the watcher sees it.
"""
from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, replace

import yaml

from .index import Doc
from .ledger import kept_records
from .models import Record
from .passages import content_hash, parse, passage_id, spoken_segments
from .space import Space

log = logging.getLogger("twinfs.keys")
SUFFIX = ".keys.yaml"
KEY_SPEAKER = "(keys)"  # the speaker the meaning lane notes for a key's segment: no one said it
# whether a passage's key questions are segments of it in the meaning lane too (False: the words lane's keys field
# alone). Off: on LoCoMo's tuning half the model's questions as vectors lowered multi-hop R@5 (0.725 -> 0.575),
# in the words lane alone they lowered nothing (bench/results/model_keys.md, 2026-12-04 15:13). Records stay both.
QUESTION_SEGMENTS = False
HEADER = ("# What else finds {name} in search: questions it answers, who and what it is about.\n"
          "# Edit freely (one line each); search reads the file again once it is saved.\n")


@dataclass(frozen=True)
class PassageKeys:
    questions: tuple[str, ...] = ()
    about: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.questions or self.about)


def keys_path(passage_path: str) -> str:
    """`passages/…/p_0001.md` -> `passages/…/p_0001.keys.yaml`."""
    return passage_path.removesuffix(".md") + SUFFIX


def is_keys_path(rel: str) -> bool:
    return rel.startswith("passages/") and rel.endswith(SUFFIX)


def passage_of(path: str) -> str:
    """`passages/…/p_0001.keys.yaml` -> `passages/…/p_0001.md`."""
    return path.removesuffix(SUFFIX) + ".md"


def _lines(value: object, field: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str | int | float) for v in value):
        raise ValueError(f"{field} is not a list of lines")
    return tuple(dict.fromkeys(" ".join(str(v).split()) for v in value if str(v).strip()))


def parse_keys(text: str) -> PassageKeys:
    """A keys file's keys; ValueError when it is not a mapping of `questions` and `about` lists."""
    try:
        loaded = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ValueError(f"not YAML ({str(exc).splitlines()[0]})") from exc
    if loaded is None:
        return PassageKeys()
    if not isinstance(loaded, dict):
        raise ValueError("not a mapping of questions and about")
    return PassageKeys(_lines(loaded.get("questions"), "questions"), _lines(loaded.get("about"), "about"))


def render_keys(passage_path: str, keys: PassageKeys) -> str:
    body = yaml.safe_dump({"questions": list(keys.questions), "about": list(keys.about)}, sort_keys=False,
                          allow_unicode=True, width=10_000)
    return HEADER.format(name=passage_path.rsplit("/", 1)[-1]) + body


def read_keys(space: Space, passage_path: str) -> PassageKeys:
    """The keys kept beside a passage (none when there is no file, or it is broken by hand: one log line)."""
    path = keys_path(passage_path)
    try:
        return parse_keys(space.vault.read(path))
    except (FileNotFoundError, IsADirectoryError):
        return PassageKeys()
    except (ValueError, UnicodeDecodeError) as exc:
        log.warning("%s: %s %s; its keys stay out of search until mended", space.user.dirname, path, exc)
        return PassageKeys()


def write_keys(space: Space, passage_path: str, keys: PassageKeys) -> str:
    """Keep these keys beside the passage (none: the file goes); returns the path, for the caller to commit."""
    path = keys_path(passage_path)
    if keys:
        space.vault.write(path, render_keys(passage_path, keys), durable=False)
    elif space.vault.path(path).exists():
        space.vault.delete(path)
    return path


def drop_keys(space: Space, passage_path: str) -> None:
    """A passage dropped from its thread takes its keys with it."""
    if space.vault.path(keys_path(passage_path)).exists():
        space.vault.delete(keys_path(passage_path))


def passage_doc(path: str, text: str) -> Doc:
    """A passage file as both lanes index it, from its text on disk (hand edits included), without its keys
    (with_keys adds them)."""
    p = parse(text, fallback_id=passage_id(path))
    spoken = spoken_segments(p.body)
    return Doc(id=p.id, path=path, thread=p.thread, type="passage", text=p.body, start=p.start, end=p.end,
               hash=content_hash(text), segments=tuple(text for _, text in spoken),
               speakers=tuple(who for who, _ in spoken))


def fact_segment(r: Record) -> str:
    """What the meaning lane embeds of a record, as a record and as a key of its passage (one vector for both;
    the filter asks of it from the same stored vector)."""
    return f"{r.subject}: {r.text}"


def fact_key(record: Record) -> str:
    """What the words lane reads of a record kept as a key of its passage."""
    return f"{record.subject} {record.text} {record.value or ''}".strip()


def _facts(records: Iterable[Record]) -> dict[str, list[Record]]:
    """source passage -> its live records."""
    out: dict[str, list[Record]] = {}
    for r in records:
        if r.source and not r.retracted:
            out.setdefault(r.source, []).append(r)
    return out


def keyed(doc: Doc, keys: PassageKeys, facts: list[Record]) -> Doc:
    """A passage's doc with its keys: the words lane's keys field, the meaning lane's extra segments (its
    questions, its facts as the records' lane embeds them), and a hash that changes when they do."""
    words = "\n".join([*keys.questions, *keys.about, *map(fact_key, facts)])
    if not words:
        return doc
    extra = (*(keys.questions if QUESTION_SEGMENTS else ()), *dict.fromkeys(fact_segment(r) for r in facts))
    n = len(doc.segments)
    speakers = doc.speakers[:n] + (None,) * (n - len(doc.speakers[:n])) + (KEY_SPEAKER,) * len(extra)
    return replace(doc, keys=words, segments=doc.segments + extra, speakers=speakers,
                   hash=content_hash("\x00".join((doc.hash, words, *extra))))


def with_keys(space: Space, docs: list[Doc], records: dict[str, list[Record]] | None = None) -> list[Doc]:
    """Passages' docs with their keys (from their keys files and their threads' records: `records`, thread ->
    records, where the caller holds them newer than the files)."""
    facts: dict[str, dict[str, list[Record]]] = {}
    out = []
    for d in docs:
        if d.type != "passage":
            out.append(d)
            continue
        if d.thread not in facts:
            rows = (records or {}).get(d.thread)
            facts[d.thread] = _facts(kept_records(space, d.thread) if rows is None else rows)
        out.append(keyed(d, read_keys(space, d.path), facts[d.thread].get(d.path, [])))
    return out


def index_keys(space: Space, paths: Iterable[str], records: dict[str, list[Record]] | None = None) -> int:
    """Index these passages again where their keys changed (a keys file edited, their records read or
    corrected); returns how many were. The caller is the end user's one writer."""
    docs = []
    for path in sorted(set(paths)):
        try:
            docs.append(passage_doc(path, space.vault.read(path)))
        except (FileNotFoundError, IsADirectoryError, UnicodeDecodeError):
            continue  # gone: the cut that dropped it dropped its docs
    known: dict[str, str] = {}
    for thread in {d.thread for d in docs}:
        known.update(space.meaning.hashes(thread))
    changed = [d for d in with_keys(space, docs, records) if known.get(d.id) != d.hash]
    if changed:
        space.words.apply(changed, [])
        space.meaning.apply(changed, [])
    return len(changed)


def index_record_keys(space: Space, thread: str, records: list[Record]) -> int:
    """A thread's records changed: the passages they were read from are indexed again with them as keys (every
    passage of the thread when it has none left: forget, a thread read again from scratch)."""
    paths = {r.source for r in records if r.source} if records else set(space.state.cuts(thread))
    return index_keys(space, paths, {thread: records})
