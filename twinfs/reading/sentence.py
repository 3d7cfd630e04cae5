"""One sentence of a person's turn as the rules reader reads it: what it says of the speaker, its kind, its day.

Whether a sentence says something of its speaker at all (not a question, small talk, an imperative, a sentence about
someone else), what kind of record it makes (a plan, an event, a state, a preference, an opinion, a relation), the
time phrase that names its day, and the lasting facts it states (`attributes.py`).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..text import FIRST
from .assertion import PAST_FORMS
from .attributes import stated
from .dates import DAY, phrases, resolve
from .lexicon import KIN
from .reference import POINTING, Said, pointers
from .reference import resolve as referent
from .third_person import PAST, rewrite
from .trimming import trimmed
from .values import joining, whole

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

GOING = {"go", "come", "move", "fly", "head", "travel", "return"}
NEEDING = {"know", "hear", "learn", "start", "begin", "promise", "decide", "watch", "tell", "find"}  # need a what
GOAL_DEPS = {"dobj", "xcomp", "advcl", "ccomp", "prt", "acomp", "attr", "oprd", "dative", "conj"}
PLACE_WORDS = {"home", "there", "here", "back", "away", "abroad", "out", "over", "up", "down", "in", "off", "along",
               "overseas", "upstairs", "downstairs", "inside", "outside", "north", "south", "east", "west",
               "somewhere", "anywhere", "everywhere", "together", "ahead", "through", "around"}
# verbs of a plan the patterns read (attributes.py) or that tell no deed: "I want to", "I can't wait", "I'll be there"
WISHES = {"want", "hope", "plan", "think", "love", "like", "wait", "look", "need", "wish", "be", "have", "try",
          "intend", "aim", "feel", "miss", "let", "keep", "see", "get"}
VAGUE = set(POINTING) | {"it", "them", "there", "one", "some", "more", "so"}  # what a plan's object may not be
TIMES = {"weekend", "week", "month", "year", "day", "today", "tonight", "tomorrow", "morning", "evening", "afternoon",
         "night"}  # left of a time phrase only partly taken out
EVENTS = {"interview", "appointment", "exam", "meeting", "gig", "match", "operation", "surgery", "scan", "viewing",
          "recital", "concert", "wedding", "party", "audition", "race", "flight", "shift", "lesson", "class",
          "presentation", "retreat", "checkup", "conference", "tournament", "competition", "hearing", "date"}
# what one has on a day ahead: "I have a panel interview on Monday" (planned)
CHATTER = {"btw", "lol", "haha", "tho", "though", "too", "anyway", "then", "now", "soon"}
BULLETS = {"-", "•", "*", "–", "·"}  # what starts a line of a list
MIN_CONTENT = 2  # content words a sentence needs beyond its pronouns to say something
RECURRING = re.compile(r"\b(?:every|each|most|some|other|on a|any)\s+$", re.I)  # the words before a habit's day
RECURRING_AFTER = re.compile(r"\s*(?:mornings|afternoons|evenings|nights|nites|of (?:the|each|every) (?:week|month|"
                             r"year)|a (?:week|month|year))\b", re.I)  # "the first Monday of the month"
# what leads a clause that is only a reason or a condition of another
SUBORDINATE = {"if", "because", "cause", "'cause", "unless", "although", "though", "whereas", "while", "whenever"}
SMALL_TALK = re.compile(
    r"^(?:i(?:'m| am)? (?:so |really |totally |just )*(?:glad|happy|sorry|thankful|grateful) "
    r"(?:to hear|for you|that you)"
    r"|i (?:totally |really |completely )?(?:agree|understand|hear you|see|know what you mean|feel you|get it)"
    r"|i (?:can't|cannot) wait to (?:see|hear)|i appreciate|i hope (?:so|you|that you)|i bet|i wish you|let me know"
    r"|let'?s |let us |here(?:'s| is| are) (?:a |an |the |some |one )?(?:pic|photo|picture|snap|shot|video|link)"
    r"|(?:it'?s )?been (?:a (?:few|couple)|ages|a while|so long).* since (?:we|i) (?:last )?(?:chatted|talked|spoke)"
    r"|talk (?:to you )?(?:soon|later)|catch (?:you )?later|see (?:you|ya)|take care|bye|good ?night|good to see)",
    re.I)
PREFER_WORDS = {"love", "like", "enjoy", "prefer", "adore", "favorite", "favourite", "fan", "hate", "dislike",
                "passionate", "fond", "obsessed"}
OPINION_WORDS = {"think", "believe", "feel", "guess", "reckon", "suppose", "opinion", "find", "consider", "wonder"}

# time words that name no day the sentence happened on: a length ("one-year", "two-week"), a clock time, a time
# after something told ("sixty years later")
NOT_WHEN = re.compile(r"\w-(?:year|month|week|day|night|hour)s?\b|^\d{1,2}(?::\d\d)?\s*(?:am|pm)$|^\d{1,2}:\d\d$"
                      r"|\blater$", re.I)


def _goalless(root: Token) -> bool:
    """A going told without where or what for, or a knowing, starting or telling without what, only said before:
    "I'll probably go for two days", "Moved in January", "We'll know in September", "I'll hear in March", "I always
    meant to learn" (not "I went home", "we moved to Leeds", "went for a run", "I start at St Bees")."""
    verb = root
    if root.lemma_ in ("mean", "want", "need", "hope", "plan", "try", "have") and not any(
            c.dep_ in ("dobj", "ccomp") for c in root.children):  # "I always meant to learn": the learning's
        verb = next((c for c in root.children if c.dep_ == "xcomp" and c.pos_ == "VERB"), root)
    going = verb.lemma_ in GOING
    if not (going or verb.lemma_ in NEEDING) or any(
            (c.dep_ in GOAL_DEPS and (going or c.dep_ != "prt")) or (going and c.dep_ == "advmod" and c.lower_ in
                                                                     PLACE_WORDS)
            for c in verb.children if c.i != root.i):  # "found out" says no what
        return False
    root = verb
    return not any(c.dep_ == "prep" and any(o.dep_ == "pobj" and o.ent_type_ not in ("DATE", "TIME")
                                            for o in c.subtree) for c in root.children)  # "out of Rathmines"


class Sentence:
    """One sentence of a turn rewritten in the third person, with what the rules read from it."""

    def __init__(self, span: Span, speaker: str):
        self.span = span
        self.speaker = speaker
        self.tokens = trimmed(span)
        self.implicit = self._implicit()
        self.refs: dict[int, str] = {}  # pointing words ("it") -> what they point to, from the sentence before
        self.pointing: set[str] = set()  # the words that point outside the sentence

    def resolved(self, value: str | None) -> str | None:
        """An attribute's value with its pointing words read as what they point to: "fan of them" -> videos."""
        for i, phrase in self.refs.items():
            if value and phrase != "the":
                value = re.sub(rf"\b{re.escape(self.span.doc[i].text)}\b", phrase, value)
        return value

    def readable(self, before: list[Said], names: set[str]) -> bool:
        """Every pointing word points to something this or the sentence before names (kept in `refs`)."""
        found = pointers(self.tokens, self.span)
        self.pointing = {t.lower_ for t, _ in found}
        refs = referent(found, before, self.speaker, names)
        if refs is None:
            return False
        self.refs = refs
        return True

    def _implicit(self) -> str | None:
        """What "I" a sentence leaves out says before its verb: "Gonna try it" -> "is", "Went home" -> ""."""
        if not self.tokens:
            return None
        if self.tokens[0].lower_ in ("gon", "gonna"):  # spaCy parses a leading "Gonna" as a noun
            return "is"
        first = self.tokens[0]
        if self.span[0].text in BULLETS and first.pos_ == "ADJ" and first.text.islower() \
                and first.i == self.span.start + 1:
            return "is"  # "- allergic to dogs": a list of one's own
        if first.dep_ in ("advcl", "conj") and (first.tag_ == "VBD" or (
                first.tag_ == "VB" and first.lower_ in PAST_FORMS)) and not any(
                c.dep_ in ("nsubj", "nsubjpass", "expl", "aux", "auxpass") for c in first.children):
            return ""  # "Lost my job as a banker, so I'm …": the first clause leaves its "I" out, not the second
        root = next((t for t in self.tokens if t.dep_ == "ROOT"), None)
        if root is None or root.pos_ not in ("VERB", "AUX") or root.i - self.tokens[0].i > 2:
            return None
        if any(t.ent_type_ in ("DATE", "TIME") for t in self.tokens if t.i < root.i):
            return None  # "Last week was wild": the time is what the verb is said of
        if root.lemma_ == "be" and any(c.dep_ == "attr" for c in root.children):
            return None  # "Been a busy week": "it has", not "I have"
        if any(c.dep_ in ("nsubj", "nsubjpass", "expl", "csubj") for c in root.children):
            return None
        if any(c.dep_ == "dobj" and c.lower_ in ("me", "us") for c in root.children) or any(
                g.dep_ == "nsubj" and g.lower_ in ("me", "us") for c in root.children if c.dep_ in ("ccomp", "xcomp")
                for g in c.children):
            return None  # "Really made me proud": what did is left out, not the speaker
        if any(c.dep_ in ("aux", "auxpass") for c in root.children):
            first = self.tokens[0]  # "Been tweaking a recipe": "has been"
            return "has" if first.lower_ == "been" and first.dep_ == "aux" and first.head.i == root.i else None
        if root.tag_ == "VBG":
            if any(t.i > root.i and ((t.lemma_ == "be" and t.dep_ != "aux" and any(
                    c.dep_ in ("acomp", "attr") for c in t.children)) or (t.dep_ == "conj" and t.head.i == root.i
                    and t.tag_ in ("VBZ", "VBD") and any(c.dep_ == "dobj" and c.lower_ in ("me", "us")
                                                         for c in t.children))) for t in self.tokens):
                return None  # "Trying out flavors … has been a blast": the doing is the subject, not the speaker
            return "is"
        if root.tag_ == "VBD" or (root.tag_ == "VB" and root.lower_ in PAST_FORMS and root.i == self.tokens[0].i):
            return ""  # "Lost my job as a banker yesterday": spaCy reads a past form as an imperative
        if root.tag_ in ("VB", "VBP") and root.i == self.tokens[0].i and self.span[0].text in BULLETS:
            return ""  # "- live in Uppsala, commute to Solna": a list of one's own, no imperative
        if root.tag_ == "VBN":
            return "was" if root.lower_ == "born" else "has"  # "born and raised in Ísafjörður"
        return None

    @property
    def lower(self) -> str:
        return "".join(t.text_with_ws for t in self.tokens).strip().lower()

    def informative(self) -> bool:
        if not self.tokens or self.span.text.rstrip().endswith("?"):
            return False
        if self.tokens[0].lower_ in ("which", "that's", "thats") or [t.lower_ for t in self.tokens[:2]] == [
                "that", "'s"]:
            return False  # "Which is why my meetings are so exciting": what it follows from was said before
        words = {t.lower_ for t in self.tokens}
        if not (words & FIRST or self.implicit is not None):
            return False
        if SMALL_TALK.match(self.lower):
            return False
        root = next((t for t in self.tokens if t.dep_ == "ROOT"), None)
        if root is not None and root.tag_ == "VB" and root.i == self.tokens[0].i and root.lower_ not in PAST_FORMS:
            return False  # an imperative: "Check out my new studio"
        if root is not None and (self.fragment(root) or _goalless(root)):
            return False
        if self.implicit is None and root is not None and root.tag_ in ("VBD", "VBZ", "VBN") \
                and root.i - self.tokens[0].i <= 2 \
                and not any(c.dep_ in ("nsubj", "nsubjpass", "expl", "csubj") for c in root.children):
            return False  # "Really made me proud": what made it is left out, and it is not the speaker
        if self.implicit is None and not self._about_speaker():
            return False  # "It takes me to another world", "Taking time for ourselves is crucial": no fact of theirs
        content = [t for t in self.tokens if not t.is_stop and not t.is_punct and t.pos_ in
                   ("NOUN", "PROPN", "VERB", "ADJ", "NUM", "ADV") and t.lower_ not in FIRST]
        has_verb = any(t.pos_ in ("VERB", "AUX") for t in self.tokens)
        became = root is not None and root.tag_ == "VBN" and root.lower_ != "used" and any(
            c.dep_ == "auxpass" and c.lemma_ == "get" for c in root.children)  # "I got promoted", "we got engaged"
        return has_verb and (len(content) >= MIN_CONTENT or became)

    def fragment(self, root: Token) -> bool:
        """Only a piece of what is said: a reason or a condition without its clause ("Maybe one day, if I ever have
        savings", "Because I love it"), or a lead without a verb of its own before one ("Dog-friendly, because I'm
        not leaving Scout behind", "Three, including my aunt")."""
        if any(c.dep_ == "mark" and c.lower_ in SUBORDINATE for c in root.children):
            return True
        subjects = ("nsubj", "nsubjpass", "expl", "csubj")
        if any(t.lower_ == "'s" for t in self.tokens):
            return False  # "Writing's a big part of my life": spaCy may read the "'s" as a possessive's
        return root.pos_ not in ("VERB", "AUX") and self.implicit is None and not any(
            c.dep_ in subjects for c in root.children) and not any(  # "Such a fun day, we built sandcastles"
            t.pos_ in ("VERB", "AUX") and any(c.dep_ in subjects for c in t.children) and not any(
                c.dep_ == "mark" for c in t.children) for t in self.tokens)

    def _about_speaker(self) -> bool:
        """A first-person word is a subject, or owns one ("my sister is visiting", "my kids and I")."""
        for t in self.tokens:
            if t.lower_ not in FIRST:
                continue
            if t.dep_ in ("nsubj", "nsubjpass") or (t.dep_ == "conj" and t.head.dep_ in ("nsubj", "nsubjpass")):
                return True
            if t.dep_ == "poss" and (t.head.dep_ in ("nsubj", "nsubjpass") or (
                    t.head.dep_ == "conj" and t.head.head.dep_ in ("nsubj", "nsubjpass"))):
                return True
        return False

    def time_phrase(self, base) -> tuple[str | None, tuple[int, int] | None]:
        """The sentence's first time phrase that names a day, and its character span in the sentence."""
        text = self.span.text
        for ent in self.span.ents:
            if re.fullmatch(r"(?:\d{1,2}|[a-z]+)", ent.text.lower()) and not phrases(ent.text):
                continue  # "when I turned ten": a number, not October
            if RECURRING.search(text[:ent.start_char - self.span.start_char]) or RECURRING_AFTER.match(
                    text[ent.end_char - self.span.start_char:]) or re.search(
                    r"days\b|\bof (?:the|each|every) (?:week|month|year)\b", ent.text, re.I):
                continue  # "every Wednesday", "on Sunday mornings", "on Fridays": a habit, not a day
            if re.fullmatch(r"(?:19|20)\d\d", ent.text) and ent.root.dep_ in ("nummod", "compound", "amod") \
                    and ent.root.head.pos_ in ("NOUN", "PROPN"):
                continue  # "I drive a 2015 Honda Civic": the car's year, not when
            if re.fullmatch(r"(?:19|20)\d\d", ent.text) and ent.start >= 2 and ent.doc[ent.start - 1].text == "," \
                    and ent.doc[ent.start - 2].pos_ in ("NOUN", "PROPN") and not phrases(ent.doc[ent.start - 2].text):
                continue  # "I bought a used Volvo V70, 2012": the model's year
            if re.match(r"\d+\s+(?:last|next|this|yesterday|today|tomorrow)\b", ent.text, re.I):
                continue  # "I turned 41 last week": spaCy's date holds the age; the phrases below find the week
            if ent.root.dep_ in ("nsubj", "nsubjpass") and any(c.lower_ == "of" for c in ent.root.children):
                continue  # "Eleven years of driving and …": what the sentence is about, not when
            if NOT_WHEN.search(ent.text) or (re.search(r"\bfor\s+$", text[:ent.start_char - self.span.start_char])
                                             and re.search(r"\b(?:winter|summer|spring|autumn|fall)$", ent.text, re.I)):
                continue  # "a one-year course", "at 11pm", "sixty years later", "for the winter": no day of it
            if ent.label_ in ("DATE", "TIME") and resolve(ent.text, base) is not None:
                start, end = ent.start_char - self.span.start_char, ent.end_char - self.span.start_char
                if part := re.match(r"\s+(?:morning|afternoon|evening|night)\b", text[end:], re.I):
                    end += part.end()  # "next Thursday evening": out of the text whole
                if then := re.match(rf"\s*(?:and|or|to|&|-|–)\s*(?:on )?{DAY}\b", text[end:], re.I):
                    end += then.end()  # "on Friday and Saturday": both days out of the text, the first its day
                if first := re.search(rf"\b({DAY})\s*(?:and|or|to|&|-|–)\s*$", text[:start], re.I):
                    return first[1], (first.start(1), end)  # "Saturday and Sunday" (spaCy's date the second)
                return ent.text, (start, end)
        for phrase in phrases(text):
            at = text.find(phrase)
            if RECURRING.search(text[:at]) or RECURRING_AFTER.match(text[at + len(phrase):]):
                continue
            if resolve(phrase, base) is not None:
                return phrase, (at, at + len(phrase))
        return None, None

    def kind(self) -> str:
        lemmas = [t.lemma_.lower() for t in self.tokens]
        lows = [t.lower_ for t in self.tokens]
        # the main clause only: "I'm proud of researching visas for countries I want to visit" plans nothing
        text = " ".join(t.lower_ for t in self.tokens if not any(
            x.dep_ in ("relcl", "acl") for x in (t, *t.ancestors)))
        finite = self._finite()
        main = {finite.i, finite.head.i} if finite is not None else set()
        future = (
            any(t.tag_ == "MD" and t.lower_ in ("will", "'ll", "shall") and t.head.i in main and not any(
                c.dep_ == "neg" or c.lower_ == "never" for c in t.head.children) for t in self.tokens)
            or any(t.lower_ == "going" and t.i + 1 < len(t.doc) and t.nbor().lower_ == "to" and any(
                c.dep_ == "aux" and c.lemma_ == "be" for c in t.children)
                for t in self.tokens)  # not "started going to"
            or re.search(r"\b(gon na|gonna|plan(?:ning)? to|intend to|hoping to|hope to|want to|wanna|"
                         r"would love to|'d love to|thinking (?:about|of)(?! (?:how|what|why|whether|when|where)\b)|"
                         r"looking forward|can't wait|ca n't wait|about to|aim to|decided to|goal is|"
                         r"next (?:week|month|year|weekend)|planning (?:a|an|to|on|my|our|the)|"
                         r"plan on|hope (?:i|we|that)|hopes (?:to|that)|booked [a-z ]{0,40}?for (?:the )?\d{1,2}"
                         r"(?:st|nd|rd|th)? [a-z]+)\b", text)  # "we booked a trip to Oaxaca for 20 December"
        )
        if future:
            return "plan"
        head = finite.lemma_.lower() if finite is not None else ""
        if head in OPINION_WORDS and finite is not None and finite.tag_ in ("VBP", "VBZ"):
            return "opinion"
        fan = any(t.lower_ == "fan" and (t.dep_ == "attr" or any(c.lower_ == "of" for c in t.children))
                  for t in self.tokens)  # "I'm a big fan of", not "I had a chat with a Harry Potter fan"
        favorite = any(t.lower_ in ("favorite", "favourite") and (t.dep_ != "amod" or t.head.dep_ in (
            "nsubj", "nsubjpass", "attr", "ROOT", "appos")) for t in self.tokens)  # not "writing my favorite memories"
        if (head in PREFER_WORDS and finite is not None and finite.tag_ in ("VBP", "VBZ")) or favorite or fan:
            return "preference"
        stative = finite is not None and (finite.lemma_ == "be" or any(
            c.dep_ == "auxpass" and c.lemma_ == "be" for c in finite.children))  # "I was busy", "have been married"
        owned = finite is not None and finite.lower_ == "got" and any(c.lemma_ == "have" for c in finite.children)
        past = finite is not None and not stative and not owned and (finite.tag_ == "VBD" or (
            finite.tag_ == "VBP" and finite.lower_ in PAST) or (
            finite.tag_ == "VBN" and any(c.lemma_ == "have" for c in finite.children)))  # "we've got a pup": a state
        if past or ("just" in lows and finite is not None and finite.tag_ == "VBN"):
            return "event"
        if any((t.lower_ in KIN or t.lemma_.lower() in KIN) and any(c.lower_ in ("my", "our") for c in t.children)
               for t in self.tokens):  # "my sister is visiting", not "my life … since I was a kid"
            return "relation"
        if head in ("feel", "find") or "opinion" in lemmas:
            return "opinion"
        return "state"

    def _finite(self) -> Token | None:
        """The verb that tells the tense of what the speaker says of themself (the verb of "I"/"we", else the
        root), or the auxiliary that carries it."""
        subject = next((t for t in self.tokens if t.lower_ in ("i", "we") and t.dep_ in ("nsubj", "nsubjpass")), None)
        root = subject.head if subject is not None else next((t for t in self.tokens if t.dep_ == "ROOT"), None)
        if root is None:
            return None
        for child in root.children:
            if child.dep_ in ("aux", "auxpass") and child.tag_ in ("VBD", "VBP", "VBZ", "MD"):
                if child.lemma_ == "have" and root.tag_ == "VBN":
                    return root
                return child
            if child.dep_ == "auxpass" and child.tag_ == "VBG":  # "Mateo and I are getting married": on "getting"
                return next((a for a in child.children if a.dep_ == "aux" and a.tag_ in ("VBP", "VBZ")), root)
        return root

    def planned(self, drop: tuple[int, int] | None, scheduled: bool = False) -> str | None:
        """What a dated plan says the speaker will do (said as ahead: "I'll", "I'm …ing", "going to"), in their
        words without its time phrase (`drop`, offsets in the sentence): the verb of "I"/"we" and what follows it in
        its clause ("I'll submit the application on Friday, before the deadline" -> "submit the application"). None
        for a wish or a feeling, a being somewhere, a negation, or a thing only said before ("I'll draft it tonight").
        `scheduled`: the sentence is an arrangement in the present ("We fly to Lisbon on Friday"): ahead too."""
        mine = [t for t in self.tokens if t.lower_ in ("i", "we") and t.dep_ == "nsubj"]
        timed = next((t for t in self.tokens if drop is not None and drop[0] <= t.idx - self.span.start_char), None)
        # the speaker of the time phrase's clause: "I'm on a day shift till 6, so I'll prep the filling Friday night"
        subject = next((s for a in (timed.ancestors if timed is not None else ()) for s in mine if s.head == a),
                       mine[0] if mine else None)
        verb = subject.head if subject is not None else None
        first = self.tokens[0]
        left_out = subject is None and self.implicit == "is" and first.tag_ == "VBG" and first.dep_ == "ROOT" and any(
            c.dep_ in ("dobj", "prt", "xcomp") or c.dep_ == "prep" and any(
                g.dep_ == "pobj" and not g.ent_type_ for g in c.children) for c in first.children)
        # "Meeting the landlord on Friday": the "I'm" left out ("Scaffolding from May until August": no deed)
        verb = first if left_out else verb
        led = None  # "going to paint", "decided to study": the verb the plan is of
        if verb is not None and verb.tag_ != "VBD" and (verb.lemma_ == "decide" or (
                verb.lemma_ == "go" and verb.i + 2 < len(verb.doc) and verb.nbor().lower_ in ("to", "na"))):
            led = next((c for c in verb.children if c.dep_ == "xcomp" and c.pos_ == "VERB"
                        and (verb.lemma_ == "decide" or c.i == verb.i + 2)), None)
        verb = led or verb
        if verb is None or verb.pos_ != "VERB" or verb.lemma_ in WISHES and not any(c.dep_ == "dobj" and (
                verb.lemma_ in ("see", "get") and c.pos_ in ("NOUN", "PROPN") or verb.lemma_ == "have"
                and c.lemma_ in EVENTS) or verb.lemma_ == "look" and c.dep_ == "prep" and c.lower_ in (
                "at", "into", "round", "around") or verb.lemma_ in ("have", "get") and c.dep_ in ("ccomp", "xcomp")
                and c.tag_ == "VBN" for c in verb.children) or any(  # "having my hip replaced"
                c.dep_ == "neg" for c in (*verb.children, *verb.head.children)):
            return None
        helpers = {c.lower_ for c in (*verb.children, *verb.head.children) if c.dep_ == "aux"}
        if not (led is not None or helpers & {"will", "'ll", "shall"} or (scheduled and verb.tag_ in ("VBP", "VBZ"))
                or (verb.tag_ == "VBG" and (left_out or helpers & {"'m", "am", "'re", "are"}))):
            return None  # not said as ahead: "we drive up every September", "I went fishing"
        start = self.span.start_char
        cut = {x.i for c in verb.children if (c.dep_ in ("nsubj", "aux", "advcl", "parataxis", "mark", "dep")
                                              or c.dep_ == "advmod" and c.lower_ == "so" and c.i > verb.i  # "so
                                              or c.dep_ == "ccomp" and not (verb.lemma_ in ("have", "get")  # carbs
                                                                            and c.tag_ == "VBN"))  # that week pls"
               or (c.dep_ == "conj" and any(x.dep_ == "nsubj" for x in c.children)) for x in c.subtree}
        words: list[Token] = []
        dropped = -2  # the last token of the time phrase taken out
        for t in verb.doc[verb.i:verb.right_edge.i + 1]:
            if t.i in cut or (words and t.is_punct and not joining(t)) or t.i >= self.span.end:  # "part-time"
                break
            if drop is not None and drop[0] <= t.idx - start < drop[1] or dropped == t.i - 1 and t.lower_ in TIMES:
                if words and words[-1].lower_ in ("the", "a", "this") and words[-1].i == t.i - 1:
                    return None  # "taking the Monday after off": the day is the deed's own word
                if words and words[-1].pos_ == "ADP" and words[-1].i == t.i - 1:
                    words.pop()  # "travel to Oslo on [Friday] for the conference": the time's "on" goes with it
                dropped = t.i  # "next Thursday evening": its part of the day goes with it
            else:
                words.append(t)
        while words and (words[-1].pos_ in ("ADP", "CCONJ", "DET", "PART", "INTJ") or words[-1].lower_ in CHATTER
                         or words[-1].lower_ == "coming" and len(words) > 2):  # "have a meeting coming up"
            words.pop()  # "submit the application on": the time phrase was what it led; "changing jobs btw"
        if len(words) < 2 or any(t.lower_ in VAGUE or t.lower_ in TIMES for t in words[1:]):
            return None  # "draft it", "come the weekend" (of "the weekend of the 14th"): no deed said whole
        return "".join(t.text_with_ws for t in words).strip()

    def attributes(self) -> list[tuple[str, str]]:
        """The lasting facts the sentence states, as (attribute, value) pairs."""
        # one space between tokens, so "I'm" reads "I 'm" and "I've" reads "I 've" in the patterns
        text = re.sub(r" ([,.!?;:])", r"\1", " ".join(t.text for t in self.tokens))
        if self.implicit is not None:  # "Moved to Glasgow last month": the "I" it leaves out, for the patterns
            text = "I " + {"is": "'m ", "has": "'ve "}.get(self.implicit, "") + text[:1].lower() + text[1:]
        for word in re.findall(r"\w+(?:-\w+)+", self.span.text):  # "sci-fi" stays one word, " - " stays a dash
            text = text.replace(" - ".join(word.split("-")), word)
        ents: dict[str, str] = {}
        for ent in self.span.ents:
            ents.setdefault(ent.label_, ent.text)
        return [(a, v) for a, v in stated(text, self.tokens, ents) if a == "age" or whole(v, self.tokens)]  # a number
        # is whole though spaCy hangs it on the noun after it ("Sixty-seven, bad shoulder")

    def rewrite(self, drop: tuple[int, int] | None) -> str:
        """The sentence in the third person, the speaker named once; a relative time phrase (`drop`) taken out."""
        return rewrite(self.speaker, self.tokens, self.span.start_char, self.implicit, self.refs, drop)
