"""Code's verdict on the keys the model wrote for a passage (keys.py): a key is kept only when it names something
the passage says, of whom it says it.

    kept = check_keys(keys, passage_text)      # PassageKeys, each key the passage bears out

A key is dropped when
- it names nothing of the passage but its people: no noun, proper noun, number or verb of it (lemmatised) is
  said in the passage, besides the speakers' names and words that fit any passage ("What did Nate do?", "What
  happened with it?");
- it asks about one speaker (or names one's thing) only things another speaker said ("What did Nate do after
  finishing his screenplay?", "Nate's screenplay" where only Joanna speaks of her screenplay);
- a question is not one whole question (cut short at the bound, or run on into a second), or asks "you" (a line
  of the chat copied, not a question of what was said);
- it holds a character outside ASCII that the passage does not (a small model's garbled token: "ice-텐").
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..passage_keys import PassageKeys
from ..passages import TURN_LINE, parse

CONTENT = {"NOUN", "PROPN", "NUM", "VERB"}  # a verb counts unless it fits any passage (DOING)
# nouns that fit any passage: a key that names only these (and people) finds every passage alike
GENERIC = {"thing", "something", "anything", "everything", "nothing", "stuff", "time", "day", "today", "chat",
           "conversation", "passage", "message", "person", "people", "life", "way", "lot", "kind", "event",
           "experience", "news", "feeling", "idea", "what", "who", "when", "where", "one", "friend", "detail",
           "topic", "speaker", "moment", "situation", "activity", "plan", "update", "story", "others", "other",
           "yesterday", "tomorrow", "tonight", "week", "weekend", "month", "year", "morning", "evening", "night"}
DOING = {"be", "do", "have", "go", "get", "make", "say", "tell", "talk", "think", "feel", "happen", "like", "want",
         "know", "see", "share", "come", "take", "give", "use", "try", "start", "find", "decide", "enjoy", "love",
         "mention", "ask", "need", "let", "keep", "mean", "look", "plan", "help", "work", "call", "name", "show"}


@dataclass(frozen=True)
class PassageWords:
    """A passage as its keys are checked against: each speaker's words (lemmas and forms, lower case), all of
    them together, and its characters outside ASCII."""

    speakers: dict[str, set[str]]  # a speaker's name (lower case) -> the words of their own turns
    words: set[str]
    wide: set[str]

    @property
    def names(self) -> set[str]:
        """The speakers' names and each one's first name, lower case."""
        return {part for name in self.speakers for part in (name, name.split()[0])}


def _nlp():
    from .pipeline import nlp

    return nlp()


def _forms(text: str) -> set[str]:
    return {form for t in _nlp()(text) for form in (t.lower_, t.lemma_.lower())}


def said(passage_text: str) -> PassageWords:
    """What a passage says, and who says what (its turns as passages.py writes them)."""
    body = parse(passage_text).body
    speakers: dict[str, set[str]] = {}
    for who, text in TURN_LINE.findall(body):
        speakers.setdefault(who.strip().lower(), set()).update(_forms(re.sub(r"\s\^\S+$", "", text)))
    words = set().union(*speakers.values()) if speakers else _forms(body)
    return PassageWords(speakers, words, {c for c in body if ord(c) > 127})


def content(key: str, names: set[str], question: bool = True) -> set[str]:
    """A key's content words (lemma, lower case), not the people's names nor the words that fit any passage: of a
    question its nouns, proper nouns, numbers and verbs (not DOING); of a name ("hiking", "Camden") every word but
    the small ones (a word or two alone is tagged at random)."""
    out = set()
    for t in _nlp()(key):
        lemma = t.lemma_.lower()
        if (t.pos_ in CONTENT if question else t.is_alpha or t.like_num) and not t.is_stop and \
                lemma not in names and t.lower_ not in names and lemma not in GENERIC | DOING:
            out.add(lemma if lemma.isalnum() else t.lower_)
    return out


def why_not(key: str, passage: PassageWords, question: bool) -> str | None:
    """Why a key is dropped (None: it stands)."""
    if any(ord(c) > 127 and c not in passage.wide for c in key):
        return "a character the passage does not hold"
    if question and not re.fullmatch(r"[^?]+\?", key.strip()):
        return "not one whole question (cut short, or run on)"
    if question and re.search(r"\b(?:you|your|yours)\b", key, re.I):
        return "asked of someone in the chat, not of what they said"
    names = passage.names
    found = {w for w in content(key, names, question) if w in passage.words}
    if not found:
        return "names nothing the passage says but its people"
    lowered = key.lower()
    named = [who for who in passage.speakers
             if re.search(rf"\b{re.escape(who.split()[0])}\b", lowered)]
    if len(named) == 1 and len(passage.speakers) > 1:
        own = passage.speakers[named[0]]
        if not found & own:
            return f"asks of {named[0].title()} what another speaker said ({', '.join(sorted(found))})"
    return None


def check_keys(keys: PassageKeys, passage_text: str) -> PassageKeys:
    """The keys the passage bears out (code's verdict, why_not, on each)."""
    passage = said(passage_text)
    return PassageKeys(tuple(q for q in keys.questions if why_not(q, passage, question=True) is None),
                       tuple(a for a in keys.about if why_not(a, passage, question=False) is None))
