"""The embedded default reader: spaCy's small English pipeline, no LLM.

Each informative first-person sentence a person says becomes a record in the third person with the speaker as
subject: "I went to a support group yesterday" said by Caroline -> "Caroline went to a support group" (event,
happened the day before). Questions, greetings, thanks, imperatives and what is said about the listener (a
clause with "you") are left out, and so are an assistant's own turns: they are suggestions, not facts about the
person. Kinds, attributes and time phrases come from spaCy's parse and entities and a few word lists.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..text import FIRST, SECOND
from .assertion import PAST_FORMS, gate
from .attributes import KIN, alone, stated
from .dates import phrases, resolve
from .pipeline import nlp
from .records import Draft, Outcome, finish
from .reference import POINTING, POINTS, Said, pointers
from .reference import resolve as referent
from .talk import back_then, chatter
from .windows import Window

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

POINTING_WORDS = set(POINTS) | set(POINTING)
# time words no preposition leads: "I volunteer at yesterday" is spaCy's misreading of "volunteer at"
BARE_TIMES = {"yesterday", "today", "tomorrow", "tonight", "last", "next", "this"}
MIN_CONTENT = 2  # content words a sentence needs beyond its pronouns to say something
MAX_WORDS = 40
RECURRING = re.compile(r"\b(?:every|each|most|some|other)\s+$", re.I)  # the words before a habit's day
RECURRING_AFTER = re.compile(r"\s*(?:mornings|afternoons|evenings|nights|nites)\b", re.I)
MAX_CHARS = 200  # a Draft's text
RECENT = 3  # sentences back where "this necklace" may find the necklace named before

# the talk's joints that lead a sentence: "By the way, …", "Speaking of which, …"
JOINTS = (("by", "the", "way"), ("in", "the", "meantime"), ("speaking", "of", "which"), ("on", "another", "note"),
          ("on", "a", "different", "note"), ("on", "a", "side", "note"), ("on", "that", "note"),
          ("that", "being", "said"), ("having", "said", "that"))
# what one bids the listener do after telling something: "…, take a look!", "… - come see!"
TO_LISTENER = {"take", "come", "check", "look", "see", "guess", "imagine", "wish", "tell", "let"}
YOU = SECOND | {"ya", "u"}  # chat's spellings of "you" too
OPENERS = {"yeah", "yes", "yep", "no", "nope", "wow", "woah", "whoa", "oh", "ooh", "hey", "hi", "hello", "thanks", "thank", "haha",
           "hahaha", "lol", "well", "so", "and", "but", "also", "btw", "anyway", "anyways", "ok", "okay", "sure",
           "totally", "absolutely", "definitely", "aww", "aw", "omg", "ugh", "um", "uh", "hmm", "gosh", "man", "dude",
           "honestly", "actually", "plus", "ah", "yay", "cool", "great", "awesome", "nice", "right", "true",
           "exactly", "indeed", "same", "agreed", "then", "now", "guess", "what", "meanwhile"}
SMALL_TALK = re.compile(
    r"^(?:i(?:'m| am)? (?:so |really |totally |just )*(?:glad|happy|sorry|thankful|grateful) (?:to hear|for you|that you)"
    r"|i (?:totally |really |completely )?(?:agree|understand|hear you|see|know what you mean|feel you|get it)"
    r"|i (?:can't|cannot) wait to (?:see|hear)|i appreciate|i hope (?:so|you|that you)|i bet|i wish you|let me know"
    r"|let'?s |let us |here(?:'s| is| are) (?:a |an |the |some |one )?(?:pic|photo|picture|snap|shot|video|link)"
    r"|(?:it'?s )?been (?:a (?:few|couple)|ages|a while|so long).* since (?:we|i) (?:last )?(?:chatted|talked|spoke)"
    r"|talk (?:to you )?(?:soon|later)|catch (?:you )?later|see (?:you|ya)|take care|bye|good ?night|good to see)",
    re.I)
SUGGESTION = re.compile(
    r"^(?:(?:maybe|perhaps|so|and|also|oh|then),? )*(?:you (?:might|could|may|should|would) (?:also |really )?"
    r"(?P<v1>enjoy|like|love|try|want to try|consider|check out|look into|think about)|(?P<v2>try|consider|how about|"
    r"why not try|i(?:'d| would) recommend|i recommend|i suggest))\b(?P<rest>.+)$", re.I)
PREFER_WORDS = {"love", "like", "enjoy", "prefer", "adore", "favorite", "favourite", "fan", "hate", "dislike",
                "passionate", "fond", "obsessed"}
OPINION_WORDS = {"think", "believe", "feel", "guess", "reckon", "suppose", "opinion", "find", "consider", "wonder"}

_IRREGULAR = {"be": "is", "am": "is", "are": "is", "have": "has", "do": "does", "go": "goes", "were": "was"}
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


class Sentence:
    """One sentence of a turn rewritten in the third person, with what the rules read from it."""

    def __init__(self, span: Span, speaker: str):
        self.span = span
        self.speaker = speaker
        self.tokens = self._trimmed()
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
        root = next((t for t in self.tokens if t.dep_ == "ROOT"), None)
        if root is None or root.pos_ not in ("VERB", "AUX") or root.i - self.tokens[0].i > 2:
            return None
        if any(t.ent_type_ in ("DATE", "TIME") for t in self.tokens if t.i < root.i):
            return None  # "Last week was wild": the time is what the verb is said of
        if root.lemma_ == "be" and any(c.dep_ == "attr" for c in root.children):
            return None  # "Been a busy week": "it has", not "I have"
        if any(c.dep_ in ("nsubj", "nsubjpass", "expl", "csubj") for c in root.children):
            return None
        if any(c.dep_ == "dobj" and c.lower_ in ("me", "us") for c in root.children):
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
        if root.tag_ == "VBN":
            return "has"
        return None

    def _trimmed(self) -> list[Token]:
        """The sentence without leading interjections, vocatives and trailing punctuation."""
        tokens = list(self.span)
        while tokens:
            t = tokens[0]
            nxt = tokens[1] if len(tokens) > 1 else None
            vocative = t.pos_ == "PROPN" and nxt is not None and nxt.text in (",", "!", "-", "–", ".")
            cleft = t.lower_ == "what" and nxt is not None and nxt.lower_ in ("i", "we")  # "What I love is …"
            if t.is_punct or t.is_space or t.pos_ == "INTJ" or (t.lower_ in OPENERS and not cleft) or vocative:
                tokens.pop(0)
            elif (joint := next((j for j in JOINTS if [x.lower_ for x in tokens[:len(j)]] == list(j)), None)):
                del tokens[:len(joint)]  # "By the way, …", "Speaking of which, …": the talk's joints, not the fact
            elif (colon := next((i for i, x in enumerate(tokens[:4]) if x.text in (":", "—", "-", "–")
                                 and (x.text == ":" or i == 0 or tokens[i - 1].whitespace_)),  # not "Money-wise"
                                None)) is not None \
                    and not any(x.lower_ in FIRST for x in tokens[:colon]):
                del tokens[:colon + 1]  # "Big news: I moved" -> "I moved"
            else:
                break
        while len(tokens) > 3 and tokens[-1].is_punct and tokens[-2].pos_ == "PROPN" and tokens[-3].text == "," \
                and tokens[-2].ent_type_ not in ("GPE", "LOC", "FAC", "ORG", "NORP"):  # "my home country, Sweden"
            del tokens[-3:]  # "I've had some tough times with my business, Jon." — the name is whom she tells
        while len(tokens) > 3 and [x.lower_ for x in tokens[-3:]] == ["by", "the", "way"] or \
                len(tokens) > 3 and [x.lower_ for x in tokens[-4:-1]] == ["by", "the", "way"] and tokens[-1].is_punct:
            del tokens[-4 if tokens[-1].is_punct else -3:]  # "…, by the way."
        # "I started kickboxing, you should try it": keep what the speaker says of themself
        listener = next((i for i, t in enumerate(tokens) if t.lower_ in YOU or (  # "…, so let's make it happen"
            t.lower_ == "let" and i + 1 < len(tokens) and tokens[i + 1].lower_ in ("'s", "us"))), None)
        lead = next((i for i, t in enumerate(tokens) if listener is not None and i > listener and t.text in (":", ";")
                     and any(x.lower_ in FIRST for x in tokens[i + 1:i + 3])), None)
        if lead is not None:  # "Quick intro so you can help me: I'm Priya, I work as …": what follows is theirs
            tokens = tokens[lead + 1:]
            listener = next((i for i, t in enumerate(tokens) if t.lower_ in YOU), None)
        if listener is not None:
            cut = max((i for i, t in enumerate(tokens[:listener]) if t.text in (",", "-", "–", ";", ":")
                       or t.lower_ in ("but", "so", "and", "because", "cause", "'cause")), default=0)
            tokens = tokens[:cut]
            kept = {t.i for t in tokens}
            if tokens and all(t.dep_ in ("npadvmod", "advmod", "prep", "mark", "punct", "intj") or (
                    t.dep_ == "advcl" and any(c.dep_ in ("mark", "npadvmod") for c in t.children))
                              for t in tokens if t.head.i not in kept or t.head.i == t.i):
                tokens = []  # "Last time we saw each other, I noticed your pin": what is left only leads the rest
        command = next((i for i in range(1, len(tokens)) if tokens[i].tag_ == "VB" and tokens[i - 1].text in (
            ",", "-", "–", "—", ";") and tokens[i].lemma_ in TO_LISTENER and not any(
            c.dep_ in ("nsubj", "nsubjpass", "aux") for c in tokens[i].children)), None)
        if command is not None:
            tokens = tokens[:command - 1]  # "I've done an abstract painting too, take a look!": said to the listener
        while tokens and (tokens[-1].is_punct or tokens[-1].is_space or tokens[-1].pos_ == "SYM"
                          or tokens[-1].lower_ in ("and", "but", "so", "because")):
            tokens.pop()
        return tokens

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
        if self.implicit is None and not self._about_speaker():
            return False  # "It takes me to another world", "Taking time for ourselves is crucial": no fact of theirs
        content = [t for t in self.tokens if not t.is_stop and not t.is_punct and t.pos_ in
                   ("NOUN", "PROPN", "VERB", "ADJ", "NUM", "ADV") and t.lower_ not in FIRST]
        has_verb = any(t.pos_ in ("VERB", "AUX") for t in self.tokens)
        return has_verb and len(content) >= MIN_CONTENT

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
                    text[ent.end_char - self.span.start_char:]) or re.search(r"days\b", ent.text, re.I):
                continue  # "every Wednesday", "on Sunday mornings", "on Fridays": a habit, not a day
            if ent.label_ in ("DATE", "TIME") and resolve(ent.text, base) is not None:
                return ent.text, (ent.start_char - self.span.start_char, ent.end_char - self.span.start_char)
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
                c.dep_ == "aux" and c.lemma_ == "be" for c in t.children) for t in self.tokens)  # not "started going to"
            or re.search(r"\b(gon na|gonna|plan(?:ning)? to|intend to|hoping to|hope to|want to|wanna|"
                         r"would love to|'d love to|thinking (?:about|of)(?! (?:how|what|why|whether|when|where)\b)|looking forward|can't wait|ca n't wait|"
                         r"about to|aim to|decided to|goal is|next (?:week|month|year|weekend)|planning (?:a|an|to|on|my|our|the)|"
                         r"plan on|hope (?:i|we|that)|hopes (?:to|that))\b", text)
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
        return root

    def attributes(self) -> list[tuple[str, str]]:
        """The lasting facts the sentence states, as (attribute, value) pairs."""
        # one space between tokens, so "I'm" reads "I 'm" and "I've" reads "I 've" in the patterns
        text = re.sub(r" ([,.!?;:])", r"\1", " ".join(t.text for t in self.tokens))
        for word in re.findall(r"\w+(?:-\w+)+", self.span.text):  # "sci-fi" stays one word, " - " stays a dash
            text = text.replace(" - ".join(word.split("-")), word)
        ents: dict[str, str] = {}
        for ent in self.span.ents:
            ents.setdefault(ent.label_, ent.text)
        return stated(text, self.tokens, ents)

    def rewrite(self, drop: tuple[int, int] | None) -> str:
        """The sentence in the third person, the speaker named once; a relative time phrase (`drop`) taken out."""
        out: list[str] = []
        named = False  # the speaker's name is in the text; later "I" is "they" and "my" is "their"
        self._subject_named = False
        if self.implicit is not None:
            out.append(f"{self.speaker} {self.implicit} ".replace("  ", " "))
            named = self._subject_named = True
        agree: str | None = None  # "name" after a first "I" became the name, "plural" after "they"/"and others"
        joined: set[int] = set()  # verbs that share a named subject ("I live … and work …")
        start = self.span.start_char
        tokens = self.tokens
        for i, t in enumerate(tokens):
            at = t.idx - start
            if drop and drop[0] <= at < drop[1]:
                continue
            if drop and i + 1 < len(tokens) and tokens[i + 1].idx - start == drop[0] and (
                    (t in (tokens[i + 1].head, tokens[i + 1].head.head) and t.pos_ == "ADP"
                     and tokens[i + 1].lower_ not in BARE_TIMES)  # "on Saturday", "on the 15th"
                    or t.lower_ in ("around", "about", "roughly", "just", "only")):
                continue  # what leads a dropped time phrase ("on Saturday"), not the verb's own preposition
            low = t.lower_
            if t.i in self.refs:
                if self.refs[t.i]:  # "" for a noun its pointing word's phrase already holds
                    out.append(self.refs[t.i] + t.whitespace_)
                agree = None
                continue
            if low in ("all", "both") and i and tokens[i - 1].lower_ == "us" and t.head.i == tokens[i - 1].i:
                continue  # "push us all": "push Tim and others", not "… and others all"
            if low in FIRST and not (t.whitespace_ == "" and i + 1 < len(tokens) and tokens[i + 1].text == "-"):
                word, agree, named = self._pronoun(t, named)
                out.append(word + t.whitespace_)
                continue
            word = t.text
            if t.i in joined and t.tag_ in ("VBP", "VB"):
                word = third_person_verb(t.text)  # "lives in Berlin and works as", not "and work as"
            elif agree and (t.pos_ in ("VERB", "AUX") or low in _CONTRACTED):
                word = self._agree(t, agree)
                if low in _CONTRACTED and out and not out[-1].endswith(" "):
                    word = " " + word
                if agree == "name" and t.tag_ == "VBP":  # "I live … and work" agree, "I wanted to … laugh" stays
                    verb = t.head if t.dep_ in ("aux", "auxpass") else t
                    if verb.tag_ not in ("VBP", "VBZ"):  # "I'm gonna chat …, get support": the bare verbs stay
                        verb = t
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
        if self.implicit is not None:
            cut = len(f"{self.speaker} {self.implicit} ".replace("  ", " "))
            text = text[:cut] + text[cut:cut + 1].lower() + text[cut + 1:]
        if text and text[0].islower():
            text = text[0].upper() + text[1:]
        return text

    def _pronoun(self, t: Token, named: bool) -> tuple[str, str | None, bool]:
        low = t.lower_
        name = self.speaker
        if low == "i":
            after_and = t.i >= 2 and t.nbor(-1).lower_ == "and" and t.nbor(-2).pos_ in ("NOUN", "PROPN") \
                and t.nbor(-1).head.pos_ not in ("VERB", "AUX")  # "… last month and I work": a clause of its own
            if t.dep_ == "conj" or after_and or any(c.dep_ == "conj" for c in t.children):  # "my husband and I have"
                return name, "plural", True
            self._subject_named = True
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

    @staticmethod
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
        if t.tag_ == "VBP" or low in ("am", "are", "were"):
            return third_person_verb(t.text)
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


RELATIONS = {*KIN.values(), "family", "child", "children"}  # the attributes the rules set only from "my <kin>"


def _asserted(span: Span, attribute: str, value: str) -> bool:
    """The value is the speaker's and said as true (assertion.gate): not a relative's, a hypothetical, a modal,
    "used to", a refusal or a question. A value the rules wrote in their own words ("single") passes."""
    verdict = gate(span, value, concept=attribute)
    if attribute in RELATIONS and verdict.whose in ("speaker", "other"):  # "a gift from my grandma": "my" said it
        return not verdict.reasons & {"conditional", "question", "modal"}
    return "not_a_span" in verdict.reasons or verdict.holds(attribute)


class RulesReader:
    """Reads windows with spaCy and rules: fast, offline, deterministic."""

    name = "rules:spacy-sm"

    def warm(self) -> None:
        """Load spaCy's pipeline (seconds, once a process): the reading step asks for it before it takes the
        writer, so the first read after a start does not hold a landing up that long."""
        nlp()

    def read(self, window: Window) -> Outcome:
        turns = window.reading
        if not turns:
            return Outcome([], 0)
        drafts: list[Draft] = []
        tokens = 0
        user = None  # whom the assistant speaks to: the person who spoke last before it
        earlier = None  # the turn before the first one read: where the first sentence's "it" may point
        for turn in window.turns:
            if turn.id == turns[0].id:
                break
            user = turn.speaker if turn.role != "assistant" else user
            earlier = turn
        docs = list(nlp().pipe([t.text for t in ([earlier] if earlier else []) + turns], batch_size=32))
        before: list[Said] = []  # the sentences said last, the newest first
        if earlier is not None:
            before = [Said(s, earlier.speaker or "") for s in reversed(list(docs.pop(0).sents))][:RECENT]
        names = {t.speaker for t in window.turns if t.speaker}
        for turn, doc in zip(turns, docs):
            tokens += len(doc)
            if turn.role == "assistant":  # its own words are suggestions, not facts about the person
                if user is not None:
                    for span in doc.sents:
                        drafts.extend(self._suggestion(span, turn, user))
                        before = [Said(span, turn.speaker or "assistant"), *before][:RECENT]
                continue
            user = turn.speaker
            told = None
            for span in doc.sents:
                made, said = self._sentence(span, turn, before, names, told)
                told = said or told
                drafts.extend(made)
                before = [Said(span, turn.speaker), *before][:RECENT]
        return Outcome(finish(window, drafts), tokens)

    def _sentence(self, span: Span, turn, before: list[Said], names: set[str],
                  told: str | None) -> tuple[list[Draft], str | None]:
        """The drafts of one sentence and the past time it names. `told`: the last past time the turn named so
        far, the time of a story's next events ("Last week I visited home. We had a great time")."""
        sentence = Sentence(span, turn.speaker)
        past = next((p for p in phrases(span.text) if (day := resolve(p, turn.at, "past")) is not None
                     and day <= turn.at.date()), None)  # a phrase the dates module knows, not any number spaCy dates
        return self._drafts(sentence, turn, before, names, told), past

    def _drafts(self, sentence: Sentence, turn, before: list[Said], names: set[str],
                told: str | None) -> list[Draft]:
        span = sentence.span
        pairs = sentence.attributes() if sentence.tokens and not span.text.rstrip().endswith("?") else []
        pairs = [(a, v) for a, v in pairs if _asserted(span, a, v)]
        if not (sentence.informative() or (pairs and {t.lower_ for t in sentence.tokens} & FIRST)):
            return []  # a short first-person sentence that states a fact is kept: "I'm doing kickboxing"
        if chatter(sentence.tokens, span, bool(pairs)):
            return self._alone(sentence, turn, pairs)  # "I'm 34, so changing careers felt scary": "T is 34"
        if not sentence.readable(before, names):  # "I loved it" with nothing before it names: no record of it,
            return self._alone(sentence, turn, pairs)  # but of a value it states that reads without it
        kind = sentence.kind()
        prefer = "future" if kind == "plan" else "past"
        phrase, where = sentence.time_phrase(turn.at)
        if phrase is not None and resolve(phrase, turn.at, prefer) is None:
            phrase, where = None, None
        finite = sentence._finite()
        if phrase is not None and kind in ("state", "relation") and finite is not None and finite.dep_ == "aux" \
                and finite.tag_ in ("VBP", "VBZ") and finite.head.tag_ == "VBG" \
                and (day := resolve(phrase, turn.at, "future")) is not None and day > turn.at.date():
            kind = "plan"  # "I'm seeing my brother on Tuesday": the present progressive of an arrangement
            phrase, where = sentence.time_phrase(turn.at)
        if kind != "plan" and phrase is None and (any(
                e.label_ == "DATE" and re.search(r"\b(?:last|ago|previous|past)\b", e.text, re.I) for e in span.ents)
                or (back_then(sentence.tokens) and not pairs)):
            return []  # "last season I hurt my ankle", "when I was younger, …": no day named, the day said is wrong
        when = phrase or (told if kind == "event" or (kind == "state" and finite is not None and finite.tag_ == "VBD")
                          else None)  # "Last Friday I had a milestone. I was able to jog": the same day
        # a relative phrase ("yesterday") is only true where it was said: the day it names replaces it
        relative = phrase is not None and not re.fullmatch(r"(?:in |since |back in )?(?:19|20)\d\d", phrase.lower())
        text = sentence.rewrite(where if relative else None)
        after = next((t for t in sentence.tokens if t.idx - span.start_char >= where[1]), None) if relative else None
        subject = relative and after is not None and after.pos_ in ("AUX", "VERB") and not any(
            t.idx - span.start_char < where[0] for t in sentence.tokens)  # "Yesterday was crazy cool": the day is told of
        if subject or (relative and re.search(r"\b(?:is|are|was|were|be)(?: -|,|$)", text)):
            text = sentence.rewrite(None)  # "our season opener is next week": the phrase is what is said
        text = named_kin(text, turn.speaker, kin_named(turn.text))
        if len(text.split()) < 3:
            return []
        pairs = [(a, sentence.resolved(v)) for a, v in pairs] or [(None, None)]
        return [Draft(kind=kind, text=text, subject=turn.speaker, attribute=attribute and attribute[:40],
                      value=value and value[:80], when=when, turns=[turn.id]) for attribute, value in pairs]

    @staticmethod
    def _alone(sentence: Sentence, turn, pairs: list[tuple[str, str]]) -> list[Draft]:
        """The values a sentence that does not read alone states, each as a statement of its own: "This necklace
        is from my home country, Sweden" -> "Caroline is from Sweden"; none whose words point outside it."""
        drafts = []
        for attribute, value in pairs:
            words = set(re.findall(r"[\w']+", value.lower()))
            text = alone(turn.speaker, attribute, value)
            at = sentence.span.text.lower().find(value.lower())
            rest = sentence.span.text[at + len(value):] if at >= 0 else ""
            listed = rest.startswith(",") and not re.match(  # "the energy, diversity, …", not "games, and I've …"
                r",\s*(?:(?:and|but|so|or)\s+)?(?:i|we|it|they|he|she|that|this|my)\b|,\s*(?:but|so|because|which)\b",
                rest, re.I)
            if text is None or listed or words & sentence.pointing or words & POINTING_WORDS:
                continue
            kind = "preference" if attribute in ("likes", "dislikes", "hobby") else "state"
            drafts.append(Draft(kind=kind, text=text, subject=turn.speaker, attribute=attribute, value=value[:80],
                                turns=[turn.id]))
        return drafts

    def _suggestion(self, span: Span, turn, user: str) -> list[Draft]:
        """An assistant's suggestion as it was made ("You might enjoy a lentil curry" -> "The assistant suggested
        Alice enjoy a lentil curry"): a record `by: assistant` that never states a value of the user."""
        m = SUGGESTION.match(span.text.strip())
        if m is None:
            return []
        verb = (m.group("v1") or m.group("v2")).lower()
        verb = verb if verb in ("enjoy", "like", "love", "try", "want to try", "consider", "check out", "look into",
                                "think about") else "try"
        rest = re.split(r"[;:!?]|\. ", m.group("rest"), maxsplit=1)[0]
        rest = re.sub(r"\byour\b", f"{user}'s", re.sub(r"\byou\b", user, rest.strip(), flags=re.I), flags=re.I)
        rest = rest.rstrip(" .,")
        if len(rest.split()) < 2:
            return []
        text = f"The assistant suggested {user} {verb} {rest}"[:MAX_CHARS]
        return [Draft(kind="opinion", text=text, subject=user, when=None, turns=[turn.id])]
