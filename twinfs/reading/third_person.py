"""A first-person sentence rewritten in the third person, for the rules reader.

"I went to a support group yesterday" said by Caroline -> "Caroline went to a support group": the speaker named
once, later "my" as "their" (the name again after others: "my teammates … my love"), "we" as "Caroline and
others", verbs agreeing with the name, a relative time phrase taken out (its day is the record's), a relative the
turn named called by name.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..text import FIRST
from .assertion import PAST_FORMS
from .lexicon import KIN, PETS

if TYPE_CHECKING:
    from spacy.tokens import Token

# time words no preposition leads: "I volunteer at yesterday" is spaCy's misreading of "volunteer at"
BARE_TIMES = {"yesterday", "today", "tomorrow", "tonight", "last", "next", "this"}
MAX_WORDS = 40
MAX_CHARS = 200  # a Draft's text
_IRREGULAR = {"be": "is", "am": "is", "are": "is", "have": "has", "do": "does", "go": "goes", "were": "was"}
# past forms spaCy may tag as a present ("books I forgot I owned"): no "-s" for them
PAST = PAST_FORMS | {"forgot", "thought", "knew", "felt", "told", "said", "came", "became", "wrote", "began", "brought",
                     "taught", "caught", "kept", "spent", "sent", "built", "heard", "held", "understood", "gave",
                     "ate", "drank", "grew", "drew", "threw", "flew", "wore", "chose", "spoke", "broke", "woke",
                     "drove", "fell", "swam", "ran", "sang", "rang", "sat", "stood", "rode", "shook", "hid", "slept",
                     "paid", "fought", "dug", "hung", "stuck", "swung", "sank", "froze", "stole", "tore", "swore"}
# others a possessive after them could belong to: "my teammates … my love" is the speaker's love, not "their love"
OWNERS = {"people", "friends", "teammates", "colleagues", "coworkers", "co-workers", "students", "guys", "folks",
          "others", "players", "members", "neighbours", "neighbors", "classmates", "mates", "buddies", "clients",
          "customers", "followers", "fans", "mentors", "pets", "animals", "men", "women", "girls", "boys"}
_CONTRACTED = {"'m": "am", "'ve": "have", "'d": "would", "'ll": "will", "'re": "are", "n't": "not"}


def third_person_verb(word: str) -> str:
    """The verb as it agrees with a named person: go -> goes, try -> tries, have -> has."""
    low = word.lower()
    if low in ("wanna", "gotta"):
        return {"wanna": "wants to", "gotta": "has to"}[low]
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low in ("can", "could", "will", "would", "should", "shall", "may", "might", "must", "did", "had"):
        return word
    if re.search(r"(s|sh|ch|x|z|o)$", low):
        return word + "es"
    if re.search(r"[^aeiou]y$", low):
        return word[:-1] + "ies"
    return word + "s"


def rewrite(speaker: str, tokens: list[Token], start: int, implicit: str | None, refs: dict[int, str],
            drop: tuple[int, int] | None) -> str:
    """A sentence's tokens in the third person, the speaker named once; a relative time phrase (`drop`, characters
    from the sentence's `start`) taken out. `implicit`: what a sentence that leaves out "I" says before its verb;
    `refs`: its pointing words as what they point to."""
    out: list[str] = []
    named = False  # the speaker's name is in the text; later "I" is "they" and "my" is "their"
    crowded = False  # others (a plural noun, "they") said before: "my" is the name's again, not "their"
    if implicit is not None:
        out.append(f"{speaker} {implicit} ".replace("  ", " "))
        named = True
    agree: str | None = None  # "name" after a first "I" became the name, "plural" after "they"/"and others"
    joined: set[int] = set()  # verbs that share a named subject ("I live … and work …")
    for i, t in enumerate(tokens):
        at = t.idx - start
        if drop and drop[0] <= at < drop[1]:
            continue
        if drop and i + 1 < len(tokens) and tokens[i + 1].idx - start == drop[0] and (
                (t.i == _phrase_head(tokens[i + 1], start, drop).head.i and t.pos_ == "ADP"
                 and tokens[i + 1].lower_ not in BARE_TIMES)  # "on Saturday", "on the 15th", "for thirty-five years"
                or t.lower_ in ("around", "about", "roughly", "just", "only", "since")):
            continue  # what leads a dropped time phrase ("on Saturday"), not the verb's own preposition
        low = t.lower_
        if t.i in refs:
            if refs[t.i]:  # "" for a noun its pointing word's phrase already holds
                out.append(refs[t.i] + t.whitespace_)
            agree = None
            continue
        if low in ("all", "both") and i and tokens[i - 1].lower_ == "us" and t.head.i == tokens[i - 1].i:
            continue  # "push us all": "push Tim and others", not "… and others all"
        if low in FIRST and not (t.whitespace_ == "" and i + 1 < len(tokens) and tokens[i + 1].text == "-"):
            word, agree, named = _pronoun(t, named and not (crowded and low in ("my", "our")), speaker)
            out.append(word + t.whitespace_)
            continue
        if t.tag_ in ("NNS", "NNPS") and (low in OWNERS or low in KIN or low in PETS) or \
                low in ("they", "them", "their", "theirs", "themselves"):
            crowded = True  # "My teammates believing in me and my love": the love is the speaker's, not theirs
        word = t.text
        if t.i in joined and t.tag_ in ("VBP", "VB"):
            word = third_person_verb(t.text)  # "lives in Berlin and works as", not "and work as"
        elif agree and (t.pos_ in ("VERB", "AUX") or low in _CONTRACTED):
            word = _agree(t, agree)
            if low in _CONTRACTED and out and not out[-1].endswith(" "):
                word = " " + word
            if agree == "name" and t.tag_ == "VBP":  # "I live … and work" agree, "I wanted to … laugh" stays
                verb = t.head if t.dep_ in ("aux", "auxpass") else t
                if verb.tag_ not in ("VBP", "VBZ"):  # "I'm gonna chat …, get support": the bare verbs stay
                    verb = t
                # in a relative clause a bare verb joined to it is the one above's: "to make the most of the
                # chances I get and leave a legacy", "what I believe in and reach out" (not "leaves", "reaches")
                if not any(a.dep_ == "relcl" for a in (verb, *verb.ancestors)):
                    joined.update(c.i for c in verb.conjuncts if c.pos_ in ("VERB", "AUX") and not any(
                        x.dep_ in ("nsubj", "nsubjpass") for x in c.children))
            agree = None
        elif agree and t.pos_ not in ("ADV", "PART") and t.dep_ != "neg":
            agree = None
        ws = t.whitespace_
        out.append(word + ws)
    text = "".join(out).strip()
    text = re.sub(r"\s+([,.;:!?])", r"\1", text)
    text = re.sub(r"\s{2,}", " ", text)
    text = re.sub(r"(?:\s*[,;:–-])+$", "", text).strip()
    text = re.sub(r"^[,;:–-]\s*", "", text)
    words = text.split()
    while len(words) > MAX_WORDS or len(" ".join(words)) > MAX_CHARS - 2:
        words.pop()
        text = " ".join(words).rstrip(",;:–-") + " …"
    if implicit is not None:
        cut = len(f"{speaker} {implicit} ".replace("  ", " "))
        text = text[:cut] + text[cut:cut + 1].lower() + text[cut + 1:]
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    return text


def _phrase_head(first: Token, start: int, drop: tuple[int, int]) -> Token:
    """The word of a dropped phrase that the rest of the sentence holds it by: "years" of "thirty-five years"."""
    head = first
    while head.head.i != head.i and drop[0] <= head.head.idx - start < drop[1]:
        head = head.head
    return head


def _pronoun(t: Token, named: bool, name: str) -> tuple[str, str | None, bool]:
    low = t.lower_
    if low == "i":
        after_and = t.i >= 2 and t.nbor(-1).lower_ == "and" and t.nbor(-2).pos_ in ("NOUN", "PROPN") \
            and t.nbor(-1).head.pos_ not in ("VERB", "AUX")  # "… last month and I work": a clause of its own
        if t.dep_ == "conj" or after_and or any(c.dep_ == "conj" for c in t.children):  # "my husband and I have"
            return name, "plural", True
        return name, "name", True  # a second "I" too: "they" would read as someone else
    if low in ("we",):
        return f"{name} and others", "plural", True
    if low == "me":
        return name, None, True
    if low == "myself":
        return (name if not named else "themself"), None, True
    if low in ("us", "ourselves"):
        if low == "us" or not named:
            return f"{name} and others", None, True
        return "themselves", None, True
    if low == "our":  # shared with others: "our house" is not the speaker's alone
        return (f"{name} and others'", None, True) if not named else ("their", None, True)
    if low == "my":
        return (f"{name}'s", None, True) if not named else ("their", None, True)
    return ("theirs", None, named)  # mine, ours


def _agree(t: Token, agree: str) -> str:
    """The verb after the rewritten subject: "I am" -> "Caroline is", a second "I'm" -> "they are"."""
    low = t.lower_
    if low == "'d" and (t.head.tag_ == "VBN" or any(c.lower_ == "been" for c in t.head.children)):
        return "had"  # "I'd been wanting to": had, not would
    if low in ("'d", "'ll"):
        return _CONTRACTED[low]
    if agree == "plural":
        return {"am": "are", "'m": "are", "was": "were", "'ve": "have", "'re": "are"}.get(low, t.text)
    if low in ("'m", "'re"):
        return "is"
    if low == "'ve":
        return "has"
    if (t.tag_ == "VBP" and low not in PAST and not (low.endswith("ed") and t.lemma_.lower() != low)) \
            or low in ("am", "are", "were"):
        return third_person_verb(t.text)  # a past spaCy tags VBP ("books I forgot I owned") stays as it is
    return t.text


_KIN_WORDS = "|".join(sorted((k for k in KIN if " " not in k), key=len, reverse=True))
_KIN_NAMED = re.compile(rf"\b(?:[Mm]y|[Oo]ur) ({_KIN_WORDS}),? ([A-Z][a-z]+)\b")


def kin_named(text: str) -> dict[str, str]:
    """The relatives a turn names: "My sister Lena is a vet" -> {"sister": "Lena"}."""
    return {m.group(1).lower(): m.group(2) for m in _KIN_NAMED.finditer(text)
            if m.group(2).lower() not in ("is", "and", "was", "has", "who", "are", "i")}


def named_kin(text: str, speaker: str, named: dict[str, str]) -> str:
    """A relative as the turn named them, never "their sister": "Noor's sister lives in Graz" -> "Noor's sister
    Lena lives in Graz" when the turn named her."""
    def one(m: re.Match) -> str:
        kin = m.group(2).lower()
        name = named.get(kin)
        return f"{speaker}'s {m.group(2)}" + (f" {name}" if name and not m.group(3) else "")
    return re.sub(rf"\b({re.escape(speaker)}'s|their) ({_KIN_WORDS})\b(,? [A-Z][a-z]+)?",
                  lambda m: one(m) + (m.group(3) or ""), text)
