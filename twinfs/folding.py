"""Folding: records -> pages, the brief's `known` lines and history (worked-out lines: worked.py).

Pure functions: no disk, no git, no model beyond an optional embedder passed in. One end user's records go in;
what a person or thing is known to be, value by value, with the day each was said, comes out.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import yaml

from .forms import parse_day
from .models import Record
from .text import SPELLING, norm, stem

MAX_SLUG = 60
# Cosine of humanised attribute names: on 26 synonym and 24 non-synonym pairs measured with MiniLM, every
# non-synonym scored <= 0.751 ("home city" / "favorite city"); above 0.77 only true synonyms remain.
SAME_ATTRIBUTE = 0.77

# concept -> (attribute names that mean it, question words that ask for it)
CONCEPTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "home": (("home_city", "city", "city_of_residence", "lives_in", "living_in", "location", "residence", "home",
              "current_city", "current_location", "place_of_residence", "address", "home_address", "where_lives"),
             ("live", "lives", "living", "home", "moved", "move", "reside", "city", "based", "address")),
    "hometown": (("hometown", "home_town", "birthplace", "place_of_birth", "origin", "from", "grew_up_in",
                  "native_city", "born_in"),
                 ("hometown", "originally", "grew up", "grow up", "come from", "comes from", "is from", "are from")),
    "job": (("job", "occupation", "profession", "work", "role", "job_title", "career", "position", "employment",
             "current_job", "works_as"),
            ("job", "work", "occupation", "profession", "career", "for a living", "employed")),
    "employer": (("employer", "company", "workplace", "works_at", "works_for", "work_place", "organization"),
                 ("employer", "company", "work", "works for", "work for", "works at", "work at")),
    "pet": (("pet", "pet_name", "animal", "pet_type"),
            ("pet", "cat", "dog", "puppy", "kitten", "rabbit", "hamster", "parrot", "bird", "turtle")),
    "partner": (("partner", "spouse", "relationship_status", "relationship", "marital_status", "husband", "wife",
                 "boyfriend", "girlfriend", "significant_other", "dating"),
                ("partner", "spouse", "married", "marry", "wife", "husband", "boyfriend", "girlfriend", "dating",
                 "single", "relationship", "engaged", "divorced")),
    "diet": (("diet", "dietary_preference", "diet_preference", "dietary_restriction", "eating_habits",
              "food_preference", "diet_type"),
             ("diet", "eat", "eats", "vegetarian", "vegan", "meat", "pescatarian")),
    "birthday": (("birthday", "birth_date", "date_of_birth", "dob", "born_on", "birthdate"),
                 ("birthday", "born", "birth")),
    "age": (("age",), ("age", "how old")),
    "children": (("children", "kids", "number_of_children", "child", "kid"),
                 ("children", "kids", "child", "kid", "son", "daughter")),
    "hobby": (("hobby", "hobbies", "sport", "sports", "interest", "interests", "pastime", "activity", "activities"),
              ("hobby", "hobbies", "sport", "sports", "play", "plays", "for fun", "free time", "pastime")),
    "likes": (("likes", "like", "loves", "love", "favorite", "favourite", "preference", "preferences", "fan_of"),
              ("like", "likes", "love", "loves", "enjoy", "enjoys", "favorite", "favourite", "fan")),
    "dislikes": (("dislikes", "dislike", "hates", "hate"), ("dislike", "dislikes", "hate", "hates", "can't stand")),
    "allergy": (("allergy", "allergies", "allergic_to", "allergens"), ("allergy", "allergic", "allergies")),
    "health": (("health", "health_condition", "condition", "medical_condition", "illness"),
               ("health", "condition", "illness", "sick", "diagnosed")),
    "school": (("school", "university", "college", "education", "alma_mater"),
               ("school", "study", "studies", "studied", "university", "college", "graduate")),
    "language": (("language", "languages", "speaks"), ("language", "languages", "speak", "speaks")),
}
def human(attribute: str) -> str:
    return attribute.replace("_", " ").strip()


def slug(subject: str) -> str:
    """A safe file name for a subject: [a-z0-9-], at most 60 characters, never empty."""
    ascii_text = unicodedata.normalize("NFKD", subject).encode("ascii", "ignore").decode().casefold()
    base = re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")[:MAX_SLUG].strip("-")
    # a name with no Latin letters still needs a file of its own
    return base or "subject-" + hashlib.sha256(norm(subject).encode()).hexdigest()[:8]


def _sub_name(short: list[str], long: list[str]) -> bool:
    """"Alice" or "Chen" of "Alice Chen"; "Alice Chen" of "Alice Mei Chen"."""
    if len(short) >= len(long):
        return False
    if len(short) == 1:
        return short[0] in (long[0], long[-1])
    return short[0] == long[0] and short[-1] == long[-1]


def _spelling(names: Counter[str]) -> str:
    """The most used spelling of one name; ties go to the capitalised, then alphabetical."""
    return sorted(names.items(), key=lambda kv: (-kv[1], not kv[0][:1].isupper(), kv[0]))[0][0]


def _fold_names(keys: Iterable[str]) -> dict[str, str]:
    """Normalised name -> the normalised name it folds into (itself when it stands alone or is ambiguous)."""
    ordered = sorted(set(keys), key=lambda k: (-len(k.split()), k))
    root: dict[str, str] = {}
    for key in ordered:
        tokens = key.split()
        longer = {root[other] for other in root if _sub_name(tokens, other.split())}
        root[key] = longer.pop() if len(longer) == 1 else key
    return root


def resolve_subjects(records: list[Record]) -> dict[str, str]:
    """Every subject string -> its canonical name: "Alice" folds into "Alice Chen" unless another Alice exists."""
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    for record in records:
        spellings[norm(record.subject)][" ".join(record.subject.split())] += 1
    root = _fold_names(spellings)
    return {record.subject: _spelling(spellings[root[norm(record.subject)]]) for record in records}


def canonical_subject(name: str, canonicals: Iterable[str]) -> str | None:
    """A name someone asks about -> the canonical subject it means, or None when unknown or ambiguous."""
    by_key = {norm(c): c for c in canonicals}
    key = norm(name)
    if key in by_key:
        return by_key[key]
    found = {c for k, c in by_key.items() if _sub_name(key.split(), k.split())}
    return found.pop() if len(found) == 1 else None


def attribute_key(name: str) -> str:
    tokens = [SPELLING.get(t, t) for t in re.split(r"[^a-z0-9]+", name.casefold()) if t]
    kept = [t for t in tokens if t not in ("current", "present", "my", "the")] or tokens
    return "_".join(stem(t) for t in kept)


_CONCEPT_OF = {attribute_key(n): c for c, (names, _) in CONCEPTS.items() for n in names}


def concept_of(name: str) -> str | None:
    return _CONCEPT_OF.get(attribute_key(name))


def resolve_attributes(records: list[Record], embedder: Any = None) -> dict[str, str]:
    """Attribute names with one meaning -> one canonical, the most used of them."""
    counts = Counter(r.attribute for r in records if r.attribute)
    names = sorted(counts)
    group: dict[str, str] = {}
    concept_of_group: dict[str, str | None] = {}
    for name in names:
        concept = concept_of(name)
        gid = f"concept:{concept}" if concept else f"key:{attribute_key(name)}"
        group[name] = gid
        concept_of_group[gid] = concept
    if embedder is not None and len(names) > 1:
        _join_by_meaning(names, group, concept_of_group, embedder)
    members: dict[str, list[str]] = defaultdict(list)
    for name in names:
        members[group[name]].append(name)
    canonical = {gid: min(ms, key=lambda n: (-counts[n], len(n), n)) for gid, ms in members.items()}
    return {name: canonical[group[name]] for name in names}


def _join_by_meaning(names: list[str], group: dict[str, str], concept_of_group: dict[str, str | None],
                     embedder: Any) -> None:
    """Join groups whose humanised names are close in meaning, never two different known concepts."""
    vectors = embedder.encode([human(n) for n in names])
    pairs = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            cosine = float(vectors[i] @ vectors[j])
            if cosine >= SAME_ATTRIBUTE:
                pairs.append((-round(cosine, 6), names[i], names[j]))
    for _, a, b in sorted(pairs):
        ga, gb = group[a], group[b]
        ca, cb = concept_of_group[ga], concept_of_group[gb]
        if ga == gb or (ca and cb and ca != cb):
            continue
        keep, gone = (ga, gb) if ca or not cb else (gb, ga)
        for name, gid in group.items():
            if gid == gone:
                group[name] = keep
        concept_of_group[keep] = ca or cb


@dataclass
class Value:
    value: str
    said: str
    happened: str | None
    records: list[str]
    by: str = "user"  # "assistant" when only the assistant ever stated it


@dataclass
class Attribute:
    name: str
    values: list[Value]


@dataclass
class Page:
    subject: str
    slug: str
    attributes: list[Attribute]
    records: list[Record]

    @cached_property
    def other_subjects(self) -> tuple[str, ...]:
        """Kept: fold makes a page whole and nothing changes it after, and every search of the brief asks for
        them (~30 ms a search over 30,000 records, bench/README.md "The words lane scored with numpy")."""
        return tuple(sorted({r.subject for r in self.records if r.subject != self.subject},
                            key=lambda s: (s.casefold(), s)))


def _newest_first(records: Iterable[Record]) -> list[Record]:
    return sorted(records, key=lambda r: (r.said, r.happened or "", r.id), reverse=True)


def live_records(records: Iterable[Record], before: str | None = None) -> list[Record]:
    # records carry only the day they were said: one said on the day `before` falls in is left out
    at = parse_day(before, "before") if before else None
    cut = at.date().isoformat() if at else None
    return [r for r in records if not r.retracted and (cut is None or r.said < cut)]


def _values(records: list[Record]) -> list[Value]:
    """One Value per distinct value, named as last stated; records is newest first."""
    by_value: dict[str, Value] = {}
    for record in records:
        key = norm(record.value or "")
        value = by_value.get(key)
        if value is None:
            by_value[key] = Value(value=" ".join((record.value or "").split()), said=record.said,
                                  happened=record.happened, records=[record.id], by=record.by)
        else:
            value.records.append(record.id)
            if record.by == "user":
                value.by = "user"
    alphabetical = sorted(by_value.values(), key=lambda v: v.value.casefold())
    return sorted(alphabetical, key=lambda v: (v.said, v.happened or ""), reverse=True)


def fold(records: list[Record], embedder: Any = None, before: str | None = None) -> list[Page]:
    """Pages, one a subject: its attributes with every value as stated, newest said first, and all its records."""
    live = live_records(records, before)
    subjects = resolve_subjects(live)
    attributes = resolve_attributes(live, embedder)
    about: dict[str, list[Record]] = defaultdict(list)
    for record in live:
        about[subjects[record.subject]].append(record)
    pages: list[Page] = []
    taken: set[str] = set()
    for subject in sorted(about, key=lambda s: (s.casefold(), s)):
        ordered = _newest_first(about[subject])
        stated: dict[str, list[Record]] = defaultdict(list)
        for record in ordered:
            if record.attribute and record.value:
                stated[attributes[record.attribute]].append(record)
        pages.append(Page(subject=subject, slug=_unique(slug(subject), taken),
                          attributes=[Attribute(name, _values(stated[name])) for name in sorted(stated)],
                          records=ordered))
    return pages


def _unique(name: str, taken: set[str]) -> str:
    candidate, n = name, 2
    while candidate in taken:
        candidate, n = f"{name[:MAX_SLUG - len(str(n)) - 1]}-{n}", n + 1
    taken.add(candidate)
    return candidate


def aliases(page: Page) -> list[str]:
    """The other subject strings folded into this page."""
    return list(page.other_subjects)


def _inline(text: str) -> str:
    return " ".join(text.split()).replace("[", "\\[").replace("]", "\\]")


def _target(path: str) -> str:
    target = "../" + path
    return f"<{target}>" if re.search(r"[\s()<>]", target) else target


def _record_link(record_id: str, record_paths: dict[str, str]) -> str:
    path = record_paths.get(record_id) or f"records/{record_id.split('#')[0]}.json"
    return f"[{record_id}]({_target(path.split('#')[0])})"


def _passage_link(source: str) -> str:
    parts = source.split("/")
    if not source or source.startswith("/") or ".." in parts or "\\" in source:
        return ""
    name = "/".join(parts[-2:]).removesuffix(".md")
    return f" · [{name}]({_target(source)})"


def render_page(page: Page, record_paths: dict[str, str]) -> str:
    """The page as Markdown with YAML front matter; every link relative from pages/."""
    by_id = {r.id: r for r in page.records}
    front = {"subject": page.subject, "slug": page.slug, "aliases": aliases(page),
             "updated": page.records[0].said if page.records else None}
    lines = ["---", yaml.safe_dump(front, sort_keys=False, allow_unicode=True).rstrip("\n"), "---",
             f"# {_inline(page.subject)}"]
    for attribute in page.attributes:
        lines += ["", f"## {attribute.name}"]
        for value in attribute.values:
            when = f" (happened {value.happened})" if value.happened else ""
            links = " · ".join(_record_link(i, record_paths) for i in value.records)
            newest = by_id.get(value.records[0])
            passage = _passage_link(newest.source) if newest else ""
            who = " · by assistant" if value.by == "assistant" else ""
            lines.append(f"- {_inline(value.value)} — said {value.said}{when}{who} · {links}{passage}")
    others = [r for r in page.records if not (r.attribute and r.value)]
    if others:
        lines += ["", "## Other facts"]
        for record in others:
            when = f"(happened {record.happened})" if record.happened else f"(said {record.said})"
            who = " · by assistant" if record.by == "assistant" else ""
            lines.append(f"- {when} {_inline(record.text)} ({record.kind}){who} · "
                         f"{_record_link(record.id, record_paths)}{_passage_link(record.source)}")
    return "\n".join(lines) + "\n"


def newer_first(day: str) -> str:
    """Sort key that puts a newer YYYY-MM-DD first in an ascending sort."""
    return "".join(chr(0x7f - ord(c)) for c in day)


def _canonical_attribute(name: str, attributes: dict[str, str], embedder: Any) -> str:
    if name in attributes:
        return attributes[name]
    key, concept = attribute_key(name), concept_of(name)
    for known, canonical in sorted(attributes.items()):
        if attribute_key(known) == key or (concept and concept_of(known) == concept):
            return canonical
    if embedder is not None and attributes:
        canonicals = sorted(set(attributes.values()))
        vectors = embedder.encode([human(name)] + [human(c) for c in canonicals])
        scores = vectors[1:] @ vectors[0]
        best = int(scores.argmax())
        if float(scores[best]) >= SAME_ATTRIBUTE:
            return canonicals[best]
    return name


def history(records: list[Record], subject: str, attribute: str | None = None,
            embedder: Any = None) -> list[dict]:
    """Every value over time of a subject, or of one of its attributes, oldest said first."""
    live = live_records(records)
    subjects = resolve_subjects(live)
    canonical = canonical_subject(subject, set(subjects.values()))
    if canonical is None:
        return []
    attributes = resolve_attributes(live, embedder)
    wanted = _canonical_attribute(attribute, attributes, embedder) if attribute else None
    entries: dict[tuple[str, str, str], dict] = {}
    for record in sorted(live, key=lambda r: (r.said, r.happened or "", r.id)):
        if subjects[record.subject] != canonical or not (record.attribute and record.value):
            continue
        name = attributes[record.attribute]
        if wanted is not None and name != wanted:
            continue
        key = (name, norm(record.value), record.said)
        entry = entries.setdefault(key, {"subject": canonical, "attribute": name, "value": record.value,
                                         "said": record.said, "happened": record.happened, "records": [],
                                         "by": record.by})
        entry["records"].append(record.id)
        if record.by == "user":
            entry["by"] = "user"
    return sorted(entries.values(), key=lambda e: (e["said"], e["attribute"], e["happened"] or "", e["value"]))
