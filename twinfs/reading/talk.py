"""Talk that tells nothing about the speaker, for the rules reader, read from the parse.

An imperative, a reaction or sympathy ("Glad I could help", "I'm sorry about Max"), an exhortation ("we should all
join forces"), a condition ("if I need anything"), a feeling with nothing it is about, a "we" that means people at
large ("we learn a lot from our struggles"), words that name nothing in particular ("we had a ton of fun"), a past
the sentence does not date ("when I was younger"), and what needs the turn before or is said to the listener ("We'll
rock it … Let's go!", "It's amazing how …", "I powered through", "we have each other's backs", "I wanted to capture
everyone's unity", "I'm glad we both understand …", "my son's ok", "I'm upset seeing …", a clause cut short "turtles
could be") make no record; the passages keep them searchable.
"""
from __future__ import annotations

import re
from itertools import takewhile
from typing import TYPE_CHECKING

from ..text import FIRST
from .dates import phrases, resolve
from .reference import PEOPLE, POINTS, TIME_NOUNS, Said

if TYPE_CHECKING:
    from datetime import datetime

    from spacy.tokens import Span, Token

# adjectives of a reaction to what the other person said: "Glad I could help", "I'm sorry about Max"
REACTIONS = {"glad", "happy", "sorry", "thankful", "grateful", "proud", "excited", "thrilled", "relieved", "sad",
             "congrats", "congratulations", "great", "awesome", "nice", "good", "cool", "amazing", "lucky"}
# nouns and verbs that name no particular thing or doing: "we had a ton of fun", "I'm looking forward to it"
GENERIC_NOUNS = {"thing", "things", "stuff", "fun", "time", "times", "lot", "lots", "ton", "tons", "bit", "way",
                 "ways", "progress", "attitude", "life", "day", "days", "moment", "moments", "feeling", "feelings",
                 "experience", "kind", "sort", "part", "one", "ones", "idea", "journey", "blast", "deal", "news",
                 "situation", "matter", "world", "people", "everyone", "everything", "anything", "nothing",
                 "something", "difference", "impact", "hand", "vibe", "vibes", "mood", "step", "steps", "chance",
                 "best", "thanks", "ok", "okay", "cheers", "work", "goal", "goals", "skill", "skills", "change",
                 "changes", "balance", "hang", "setback", "effort", "efforts", "success", "challenge", "challenges",
                 "dream", "dreams", "future", "motivation", "positivity", "support", "advice", "much", "laugh",
                 "laughs"}
LIGHT_VERBS = {"be", "have", "get", "do", "make", "feel", "go", "come", "seem", "look", "keep", "take", "give",
               "know", "think", "want", "need", "see", "let", "put", "say", "tell", "mean", "happen", "try", "wait",
               "hope", "wish", "guess", "find", "help", "start", "stop", "continue", "love", "like", "enjoy",
               "appreciate", "believe", "remember", "forget", "stay", "become", "turn", "hear", "sound", "talk", "chat",
               "speak", "push", "ask", "wan", "gon", "wanna", "gonna", "gotta"}  # talking verbs: "since we last talked"
WILL = {"will", "'ll", "shall"}
# feelings that are about something: with nothing said of what, it is what was said before
FELT_AT = {"jealous", "excited", "crushed", "nervous", "scared", "thrilled", "relieved", "gutted", "devastated",
            "worried", "stressed", "upset", "emotional", "overwhelmed", "terrified", "anxious", "heartbroken"}
# verbs of doing nothing in particular, unless something they are done to is named: "I'll keep plugging away"
VAGUE_VERBS = {"work", "grind", "plug", "accomplish", "achieve", "reach", "focus", "handle", "succeed", "manage",
               "improve", "grow", "move", "pay", "deal", "cope", "overcome", "struggle", "explore", "learn",
               "determine", "motivate", "inspire", "support", "celebrate", "raise",
               "reflect", "laugh", "end"}  # "we ended up laughing"


def _said_first(t: Token) -> bool:
    """A statement with its own subject before the word: "I can't stand jackfruit, sorry everyone"."""
    return any(c.dep_ == "ccomp" and c.i < t.i and any(s.dep_ == "nsubj" for s in c.children) for c in t.children)


def chatter(tokens: list[Token], span: Span, stated: bool) -> bool:
    """Talk that tells nothing about the speaker, read from the parse: an imperative, a reaction or sympathy
    ("Glad I could help", "I'm sorry about Max"), an exhortation ("we should all join forces"), a condition
    ("if I need anything"), a feeling with nothing it is about ("I felt like I was in a fairy tale") and,
    unless the sentence states an attribute, words that name nothing in particular ("we had a ton of fun")."""
    if not tokens:
        return True
    first = tokens[0]
    lead = next((t for t in span if not t.is_punct), None)
    if lead is not None and lead.lower_ == "so" and lead.dep_ == "mark":
        return True  # "… a dance studio. So I can teach others": the purpose of the sentence before, not a fact
    if not stated and first.tag_ == "VB" and first.lower_ == first.lemma_.lower() and not any(
            c.dep_ in ("nsubj", "nsubjpass", "aux") for c in first.children):
        return True  # "Check out this moment I snapped"
    if (first.pos_ == "ADJ" or first.lower_ in REACTIONS) and first.dep_ != "amod" \
            and [t.lower_ for t in tokens[:2]] != ["other", "than"] \
            and not any(t.dep_ in ("nsubj", "nsubjpass") and t.i < first.i for t in span):
        return True  # a sentence led by an adjective of its own: "Glad I could help", "So proud of you"
    if _cheer(tokens, span) or _seeing(tokens) or _stranded(tokens) or _each_other(tokens):
        return True
    if _depicting(tokens) or _both(tokens) or _only_ok(tokens) or _cut(tokens) or _upset_seeing(tokens) \
            or _bid(tokens) or _bare_feeling(tokens):
        return True  # even with a value: "Thankfully, my son's ok" sets no family that reads right
    if any(t.lower_ == "here" and t.head.lemma_ == "be" for t in tokens):
        return True  # "Here's a peek at the space I designed", "I'm here to lend an ear": to the listener
    if first.tag_ == "VBZ" and not any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in first.children):
        return True  # "Reminds me being kind matters": "it reminds", and what "it" is went unsaid
    for t in tokens:
        if (t.dep_ == "ROOT" and t.lemma_ == "agree") or (t.lemma_ == "check" and any(
                c.dep_ == "prt" and c.lower_ == "in" for c in t.children) and not any(
                c.dep_ in ("prep", "dobj") for c in t.children)):
            return True  # "I 100% agree", "I just wanted to check in": about the conversation
        if t.dep_ == "ROOT" and t.lemma_ in ("have", "got") and any(
                c.dep_ == "dobj" and c.lemma_ in ("question", "favour", "favor") for c in t.children):
            return True  # "Dolores, I have a question": about the talk, what is asked comes next
        if t.lemma_ == "mean" and t.dep_ == "ROOT" and not any(c.dep_ in ("dobj", "ccomp") for c in t.children):
            return True  # "From a distance, I mean": a word on the last sentence
        if t.lower_ in ("maybe", "perhaps") and any(c.dep_ == "aux" and c.lower_ in (
                "can", "could", "might", "may", "will", "'ll", "would", "'d") for c in t.head.children):
            return True  # "Maybe I can assist as well": a possibility, nothing that is so
        if t.lemma_.lower() == "sorry" and (not stated or t.dep_ == "ROOT" and not _said_first(t)
                                            or t.i == tokens[0].i or (
                t.dep_ == "acomp" and not any(c.dep_ in ("acomp", "attr", "dobj") and c.i < t.i
                                              for c in t.head.children))):
            return True  # "Sorry about that", "Belated, sorry"; not "I'm allergic to cats, sorry cat people", "I hate
            # durian, sorry Malaysia"
        if t.lower_ == "life" and t.dep_ == "nsubj" and not list(t.children) and any(
                c.dep_ == "aux" and c.lower_ in ("can", "could", "may", "might") for c in t.head.children):
            return True  # "Life can be tough, but …": a saying of life at large, not the speaker's
        if t.lemma_ in ("imagine", "picture", "relate") and any(
                c.dep_ == "aux" and c.lower_ in ("can", "could", "ca") for c in t.children):
            return True  # "I can picture waking up to nature": with the listener's story, not a fact of the speaker
        if t.lower_ in REACTIONS and t.dep_ == "acomp" and any(
                c.dep_ == "xcomp" and c.lemma_ in ("hear", "see", "know", "help", "read", "chat", "talk")
                for c in t.children):
            return True  # "I'm so happy to hear that"
        if t.lower_ in ("we", "us") and t.dep_ in ("nsubj", "nsubjpass") and (any(
                c.dep_ == "aux" and c.lower_ in ("should", "must", "ought", "could", "gotta", "got")
                for c in t.head.children) or t.head.lower_ == "gotta" or (t.head.lower_ == "got" and any(
                c.dep_ == "xcomp" and any(a.lower_ == "ta" for a in c.children) for c in t.head.children))):
            return True  # "we should all join forces": said to the listener, not a fact
        if t.dep_ == "advcl" and any(c.dep_ == "mark" and c.lower_ in ("if", "unless", "whenever")
                                     for c in t.children) and t.head.dep_ == "ROOT":
            return True  # "If I need anything, I'll reach out": a condition, nothing that is so
        if t.lemma_ == "feel" and t.pos_ == "VERB" and (any(c.dep_ == "acomp" for c in t.children) or any(
                c.dep_ == "advcl" and any(m.lower_ in ("like", "as") for m in c.children if m.dep_ == "mark")
                for c in t.children)):
            return True  # "I feel so alive", "I felt like I was in a fairy tale"
    if _saying(tokens):
        return True
    if stated:
        return False
    if _generic(tokens):
        return True
    def light(t: Token, words: set[str] = LIGHT_VERBS) -> bool:  # spaCy may tag a leading "Hoping" a name
        low = t.lower_
        return t.lemma_.lower() in words or (low.endswith("ing") and (low[:-3] in words or low[:-3] + "e" in words))

    def generic(t: Token) -> bool:
        return t.lower_ in GENERIC_NOUNS or t.lemma_.lower() in GENERIC_NOUNS or t.lemma_.lower() in TIME_NOUNS

    return not any(
        (t.lower_ in POINTS and t.dep_ in ("dobj", "pobj")) or  # "I'd love to explore them": what they stand for
        (t.pos_ in ("NOUN", "PROPN", "NUM") and not generic(t) and not light(t) and t.lower_ not in FIRST
         and not (t.pos_ == "PROPN" and t.i == span.start and not t.ent_type_)) or (  # "Crazy thing …"
            t.pos_ == "VERB" and not light(t) and not light(t, VAGUE_VERBS)
            and not any(c.dep_ == "dobj" and generic(c) for c in t.children))
        for t in tokens)  # "I'm so excited", "We made some great progress", "checking out some things"

# times of one's life: "as a kid", "through high school", "after college"
LIFE = {"kid", "child", "teen", "teenager", "youngster", "school", "college", "university", "childhood", "youth"}


def back_then(tokens: list[Token]) -> bool:
    """The sentence places itself in a past it does not date: "When I was younger, …", "Growing up, I saw …",
    "I loved that book as a kid", "I played through high school"."""
    past = any(t.tag_ == "VBD" for t in tokens)
    for t in tokens:
        if past and t.dep_ == "pobj" and t.lemma_.lower() in LIFE and t.head.lower_ in (
                "as", "in", "through", "after", "during", "since", "throughout"):
            return True
        if t.dep_ == "advcl" and t.tag_ in ("VBD", "VBG") and (any(
                c.dep_ in ("mark", "advmod") and c.lower_ in ("when", "while", "before", "after", "since")
                for c in t.children)
                or (t.lower_ == "growing" and any(c.lower_ == "up" for c in t.children))):
            return True
    return False


def _asked(before: list[Said], speaker: str) -> list[Said]:
    """The questions among the listener's sentences just before the speaker's turn (`before`: newest first)."""
    lead = next((i for i, s in enumerate(before) if s.speaker != speaker), None)
    if lead is None:
        return []
    told = takewhile(lambda s: s.speaker == before[lead].speaker, before[lead:])
    return [s for s in told if s.span.text.rstrip().endswith("?")]


def asked_past(before: list[Said], speaker: str) -> bool:
    """The turn before asks about a past of the listener's told before ("How was it?", "Did you try anything new
    on your vacation?", "What was your favorite part of it?"): a past the answer tells without a day of its own is
    that one's, not the day said."""
    for said in _asked(before, speaker):
        if any(t.lower_ == "it" and t.dep_ == "nsubj" and t.head.tag_ == "VBD" for t in said.span) or (any(
                t.lower_ == "it" and t.dep_ == "pobj" and t.head.lower_ in ("of", "about")
                for t in said.span)  # "your favorite part of it"
                and any(t.tag_ == "VBD" for t in said.span)) or (any(
                t.lower_ == "your" and t.head.dep_ == "pobj" and t.head.head.lower_ in ("on", "during", "at")
                for t in said.span) and any(t.tag_ == "VBD" for t in said.span)):
            return True
    return False


def asked_when(before: list[Said], answer: str, speaker: str, at: datetime) -> str | None:
    """The past day (YYYY-MM-DD) the listener's question just before names ("How was the gallery opening last
    night?", "Did you have fun at the wedding on Saturday?"): a story the answer tells without a day of its own is
    that day's; not when the answer says no ("No, I was at work")."""
    if re.match(r"\W*(?:no|nope|nah|not really|not yet|sadly not)\b", answer, re.I):
        return None
    for said in _asked(before, speaker):
        if not any(t.tag_ == "VBD" for t in said.span):
            continue
        for phrase in phrases(said.span.text):
            if (day := resolve(phrase, at, "past")) is not None and day <= at.date():
                return day.isoformat()  # the cited turn does not say it: the day, not the phrase
    return None


def remembered(span: Span, at: int) -> bool:
    """The time phrase at character `at` of the sentence is what a verb of memory has as its object ("I was
    remembering yesterday, spending …"): no time of the sentence's doing."""
    return any(t.idx - span.start_char == at and t.dep_ in ("dobj", "npadvmod")
               and t.head.lemma_ in ("remember", "recall", "miss") for t in span)


def _generic(tokens: list[Token]) -> bool:
    """A "we" that means people at large: "we learn a lot from our struggles", "together, we can make a
    difference": only "we" forms, a present or "can" verb, no time said. "We went camping" is kept."""
    words = {t.lower_ for t in tokens}
    if words & {"i", "me", "my", "mine", "myself"} or not words & {"we", "us", "our"} or any(
            t.ent_type_ in ("DATE", "TIME") for t in tokens):
        return False
    verb = next((t.head for t in tokens if t.lower_ == "we" and t.dep_ in ("nsubj", "nsubjpass")), None)
    if verb is None:
        verb = next((t for t in tokens if t.dep_ == "ROOT"), None)
    if verb is None:
        return False
    auxes = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
    tense = auxes[0] if auxes else verb
    return tense.tag_ in ("VBP", "VBZ") or tense.lower_ in ("can", "could") or (
        tense.tag_ == "VB" and any(c.dep_ == "nsubj" for c in verb.children))  # spaCy tags "challenges help" VB


def _cheer(tokens: list[Token], span: Span) -> bool:
    """"We'll rock the dance floor … Let's go for it!": a "we" future in a turn that urges the listener ("let's")
    is a cheer said to them, not a plan of the speaker's."""
    if any(t.lower_ in ("i", "me", "my", "mine", "myself") for t in tokens):
        return False
    urged = any(t.lower_ == "let" and t.i + 1 < len(t.doc) and t.nbor().lower_ in ("'s", "us") for t in span.doc)
    if not urged:
        return False
    for t in tokens:
        verb = t.head if t.lower_ == "we" and t.dep_ in ("nsubj", "nsubjpass") else (
            t.head.head if t.lower_ == "our" and t.dep_ == "poss" and t.head.dep_ in ("nsubj", "nsubjpass") else None)
        if verb is not None and any(c.dep_ == "aux" and c.lower_ in WILL for c in verb.children):
            return True
    return False


def _bare_feeling(tokens: list[Token]) -> bool:
    """ "I'm so jealous", "I was kind of crushed for a day", "I'm trying to be excited": a feeling at what was said
    before, said in a clause of its own with nothing it is about (not "excited to meet them", "nervous about the
    exam")."""
    subjects = [t for t in tokens if t.dep_ in ("nsubj", "nsubjpass")]
    if len(subjects) != 1 or subjects[0].lower_ not in ("i", "we") or len([t for t in tokens if not t.is_punct]) > 9 \
            or any(t.dep_ in ("advcl", "conj", "ccomp", "relcl", "parataxis", "appos") for t in tokens):
        return False  # a clause more says what it is about: "I was nervous when I shared my book"
    feeling = next((t for t in tokens if t.lower_ in FELT_AT and t.dep_ in ("acomp", "ROOT")), None)
    return feeling is not None and not any(
        c.dep_ in ("xcomp", "ccomp", "advcl", "dobj") or (c.dep_ == "prep" and not (
            c.lower_ == "for" and any(g.lemma_ in TIME_NOUNS for g in c.children))) for c in feeling.children)


def _seeing(tokens: list[Token]) -> bool:
    """"It's awesome seeing my vision happen", "It was cool to see how our actions …", "It's amazing how …": a
    reaction to what is seen, whose fact, if there is one, was told before."""
    for t in tokens:
        if t.lower_ != "it" or t.dep_ != "nsubj" or t.head.lemma_ != "be":
            continue
        head = t.head
        if not any(c.dep_ == "acomp" for c in head.children):
            continue
        if any(c.dep_ in ("xcomp", "ccomp", "advcl") and c.i > t.i and (
                c.lemma_ in ("see", "watch") or c.left_edge.lower_ == "how") for c in head.children):
            return True
    return False


def _stranded(tokens: list[Token]) -> bool:
    """A verb whose preposition is left without its object ("I powered through", "I'd love to join in"): through
    or in what was told before."""
    for t in tokens:
        if t.head.pos_ != "VERB" or any(a.dep_ in ("relcl", "acl") for a in (t.head, *t.head.ancestors)):
            continue
        last = t.i + 1 == t.sent.end or t.nbor().is_punct
        preposition = t.tag_ == "IN" or t.lower_ == "through"  # spaCy tags a last "through" an adverb
        if preposition and t.dep_ in ("prep", "advmod") and last and not list(t.children) and not any(
                c.dep_ == "dobj" for c in t.head.children):
            return True
        if t.dep_ == "prt" and t.lower_ == "in" and t.head.lemma_ == "join" and not any(
                c.dep_ in ("dobj", "prep") for c in t.head.children):
            return True
    return False


def _each_other(tokens: list[Token]) -> bool:
    """"I'm glad we have each other's backs": a "we" of each other that names no one else is the speaker and the
    listener, said to them."""
    if not any(t.lower_ == "each" and t.i + 1 < len(t.doc) and t.nbor().lower_ == "other" for t in tokens):
        return False
    named = any(t.pos_ == "PROPN" or t.lemma_.lower() in PEOPLE for t in tokens)
    return not named and any(t.lower_ == "we" for t in tokens)


DEPICT = {"capture", "show", "portray", "convey", "depict", "express", "represent", "evoke", "symbolize"}


def _depicting(tokens: list[Token]) -> bool:
    """"I wanted to capture everyone's unity", "I wanted blue streaks to show tranquility": what a work was meant to
    show, said alone (the want is the whole sentence), answers a question about a work told before."""
    for t in tokens:
        if t.lemma_ in DEPICT and t.dep_ in ("xcomp", "advcl") and t.head.lemma_ in ("want", "try", "hope", "aim") \
                and t.head.tag_ == "VBD" and t.head.dep_ == "ROOT":
            return True
        if t.lemma_ in DEPICT and t.dep_ == "xcomp" and t.head.lemma_ == "be" and t.head.tag_ == "VBD" and any(
                c.dep_ == "nsubj" and c.lemma_ in ("aim", "goal", "intention", "idea", "hope", "point")
                for c in t.head.children):
            return True  # "My aim was to show warmth, love and self-acceptance"
    return False


KNOWING = {"understand", "know", "agree", "get", "see", "feel", "think", "believe", "love", "like", "appreciate",
           "value", "share", "need", "want", "enjoy"}


def _both(tokens: list[Token]) -> bool:
    """"I'm glad we both understand …": a "we both" that knows or feels, inside what the speaker says of it, is the
    speaker and the listener ("We both helped with the painting" is kept: a doing, said alone)."""
    for t in tokens:
        if t.lower_ == "we" and t.dep_ == "nsubj" and any(c.lower_ == "both" for c in (*t.children, *t.head.children)) \
                and t.head.lemma_ in KNOWING and t.head.tag_ in ("VBP", "VB") and t.head.dep_ == "ccomp":
            return True
    return False


OK = {"ok", "okay", "fine", "alright", "safe", "well"}


def _only_ok(tokens: list[Token]) -> bool:
    """"Thankfully, my son's ok": ok after what was told before (the accident), nothing else said of it."""
    for t in tokens:
        if t.lower_ in OK and t.dep_ in ("ROOT", "acomp") and not any(
                c.dep_ in ("prep", "xcomp", "ccomp", "advcl", "conj") for c in t.children):
            return True
    return False


def _cut(tokens: list[Token]) -> bool:
    """"I never knew turtles could be": a "be" with its subject and nothing it says of it, a clause cut short; not
    one whose complement a wh-word put before it ("how determined I can be", "who I am")."""
    if any(t.tag_ in ("WRB", "WP", "WDT") for t in tokens):
        return False
    for t in tokens:
        if t.lemma_ == "be" and t.pos_ == "AUX" and t.dep_ not in ("aux", "auxpass") and all(
                c.dep_ in ("nsubj", "aux", "neg", "punct") for c in t.children) and any(
                c.dep_ == "nsubj" for c in t.children):
            return True
    return False


FEELINGS = {"upset", "sad", "angry", "mad", "heartbroken", "frustrated", "worried", "scared", "shocked"}


def _upset_seeing(tokens: list[Token]) -> bool:
    """"I'm really upset seeing the state of our education": a feeling at what is seen or heard, whose fact, if
    there is one, was told before."""
    for t in tokens:
        if t.lower_ in FEELINGS and t.dep_ == "acomp" and any(
                c.dep_ in ("xcomp", "advcl") and c.lemma_ in ("see", "watch", "hear") for c in t.children):
            return True
    return False


def _bid(tokens: list[Token]) -> bool:
    """"I've sunk time into the studio, and look at my students": a bid to the listener ("look", "check"), joined to
    what is told as if it were the speaker's doing; "… and looked at three flats" is kept."""
    for t in tokens:
        if t.dep_ == "conj" and t.lower_ in ("look", "check") and t.head.tag_ in (
                "VBD", "VBN", "VBZ", "VBP", "VBG") and not any(
                c.dep_ in ("nsubj", "nsubjpass", "aux", "auxpass") for c in t.children):
            return True
    return False


def _saying(tokens: list[Token]) -> bool:
    """"Our kids are our future": "our" X are "our" Y, a saying of people at large (no "I", "me", "my" beside it),
    whose "our kids" are no children of the speaker's."""
    if any(t.lower_ in ("i", "me", "my", "mine", "myself") for t in tokens):
        return False
    for t in tokens:
        if t.lemma_ == "be" and t.tag_ in ("VBP", "VBZ") and any(
                c.dep_ == "nsubj" and any(p.lower_ == "our" for p in c.children) for c in t.children) and any(
                c.dep_ == "attr" and any(p.lower_ == "our" for p in c.children) for c in t.children):
            return True
    return False
