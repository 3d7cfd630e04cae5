"""Whose fact a value is, and whether it is asserted: the structural gate every reader's values pass.

    from twinfs.reading.assertion import gate
    verdict = gate(doc, "surf shop")                 # doc: the turn parsed by spaCy (pipeline.nlp()), or its text
    verdict.whose      # "speaker" | "other" | "listener" | "assistant" | "none" (the value is not a span)
    verdict.holder     # the clause's subject as said: "I", "My brother Diego", "you"
    verdict.reasons    # why it is not a plain statement (empty when it is), e.g. {"conditional"}
    verdict.holds("home")  # True when the value may be set as the speaker's <concept>

`gate(doc, value, role="user", start=None)` finds `value` in the turn (case-insensitive; every occurrence when
`start`, its character offset, is not given, the first one that holds wins), walks from the value up the parse
to the first verb with a subject (an xcomp or conj verb takes its head's: "my friend wants me to join his club" is
the friend's; "I live in Leeds and work as a nurse" the speaker's) and reads that clause:
- whose: the subject "I"/"we" (or "my wife and I") is the speaker; "you" the listener; anyone else, a name or "my
  brother", is another (but a name inside a subject the speaker owns names it: "My brother Diego", "my rabbit is
  called Mochi" are the speaker's); an assistant's turn is the assistant's; no subject: the speaker, unless the
  clause is an imperative (the listener);
- reasons, read by mood.py on the verbs from the value to that clause (and any `if` above it): `conditional` (an
  if-clause, or "would"/"'d" that is not "would love to"), `modal` (might, may, could, should, must), `plan` (will,
  going to, want/plan/hope/intend to, thinking about, would love to), `past_habit` ("used to"), `former` (a past state
  said with before/previously/formerly/ago, or what the speaker retired from, quit, resigned from or left), `negated`
  (not, never, n't on the clause — `negated_liking` when the verb is like/love/enjoy/stand or "not a fan of",
  `negated_consumption` when it is eat/drink/have), `question` (the sentence asks), `advice` (another wants/tells/asks
  the speaker to do it), `not_a_span`.
`holds(concept)` allows only what the concept is made of: `plans` a plan, `dislikes` a negated liking, `diet` and
`allergy` a negated eating; everything else must be plain and the speaker's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..text import FIRST, line_at, quotations
from .ages import said_bare
from .labelled import whose
from .lexicon import KIN, PETS
from .mood import PRETENDING, reasons, subjects
from .values import names_a_kind

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

ADVISING = {"want", "tell", "ask", "suggest", "recommend", "urge", "push", "encourage", "nag", "try", "keep",
            "convince", "persuade", "beg"}
NAMING = {"name", "call"}
# past forms spaCy may read as a leading imperative: "Lost my job as a banker yesterday"
PAST_FORMS = {"lost", "got", "found", "made", "went", "took", "left", "quit", "moved", "started", "finished", "had",
              "bought", "met", "saw", "won", "did", "joined", "tried", "visited", "adopted", "landed", "sold", "put"}
# words given to be translated, written or said (another's, in single quotes after "wrote"): not a statement
QUOTED = re.compile(rf"{quotations(3).pattern}|\b(?:wrote|said|says|asked|texted|remove|delete|take out|cut):? "
                    rf"(?:{quotations(3, True).pattern})")  # "please remove 'my husband helps with the website'"
ALLOWED: dict[str, set[str]] = {"plans": {"plan"}, "dislikes": {"negated_liking"},
                                "diet": {"negated_consumption"}, "allergy": {"negated_consumption"},
                                "school": {"former"}, "hometown": {"former"}}
WE = {"i", "we", "me", "us", "myself", "ourselves"}
# the people a speaker's "my" names: "my roommate is vegan" is the roommate's, "my favourite book is Dune" theirs
PEOPLE = {*KIN, "friend", "friends", "roommate", "flatmate", "housemate", "neighbour", "neighbor", "boss",
          "colleague", "coworker", "co-worker", "doctor", "therapist", "mate", "buddy", "pal", "manager", "landlord",
          "classmate", "teammate", "ex", "family", "folks", "in-laws", "bf", "gf", "hubby", "teacher", "coach",
          "granddaughter", "grandson", "grandkids", "godson", "goddaughter", "stepmom", "stepdad", "stepmother",
          "stepfather", "niece", "nephew", "relatives", "relative", "crush", "date", "fiance", "fiancee"}

# where a statement ends and a question after it begins: "I'm 27; is that too late?", "…, so is that OK?", "I'm 31
# and Daniel's 34, does age matter …?", "I have a nut allergy 😬 do I flag it?" (an emoji of the pictographic blocks),
# "I speak Telugu, Hindi and English - officer will not interview in German na?" (a dash between spaces)
BREAK = re.compile(r"[;—–]|(?<=\s)-(?=\s)|(?:,(?: so)?|[\U0001F300-\U0001FAFF\u2600-\u27BF]+)(?=\s*(?:is|are|am|was|"
                   r"were|do|does|did|"
                   r"can|could|should|would|will|shall|may|might|must|what|how|why|when|where|which|who)\b)", re.I)


@dataclass(frozen=True)
class Assertion:
    whose: str
    holder: str = ""
    reasons: frozenset[str] = field(default_factory=frozenset)

    @property
    def asserted(self) -> bool:
        """The speaker states it plainly, as true now."""
        return self.whose == "speaker" and not self.reasons

    def holds(self, concept: str | None = None) -> bool:
        """The value may be set as the speaker's `concept` (a folding concept: home, job, plans, dislikes…)."""
        return self.whose == "speaker" and not (self.reasons - ALLOWED.get(concept or "", set()))

    def stands(self, concept: str | None = None) -> bool:
        """`holds`, or the value is not the turn's words at all (the rules' own: "single", "no alcohol"), which no
        clause of the turn can say is another's."""
        return "not_a_span" in self.reasons or self.holds(concept)


def stated_before(verdict: Assertion, value: str, turn: str) -> Assertion:
    """`verdict` without its "question" when `value` is said before the question begins ("I'm 27; is that too
    late?", "I can't stand horror movies, would that work?"): the rules read the statement before it (BREAK), which
    the gate reads as the question's sentence."""
    if "question" in verdict.reasons and verdict.whose == "speaker" and re.search(
            rf"{re.escape(value)}[^?]*?(?:{BREAK.pattern})[^?]*\?", turn, re.I):
        return replace(verdict, reasons=verdict.reasons - {"question"})
    return verdict


def gate(doc: Doc | Span | str, value: str, role: str = "user", start: int | None = None,
         concept: str | None = None) -> Assertion:
    """Whose `value` is in this turn and whether it is asserted (see the module's docstring). `concept`: with no
    `start`, prefer an occurrence that holds for it."""
    parsed: Any = doc
    if isinstance(doc, str):
        from .pipeline import nlp

        parsed = nlp()(doc)
    if role == "assistant":
        return Assertion("assistant", "assistant", frozenset({"suggestion"}))
    text = parsed.text
    offset = parsed.start_char if hasattr(parsed, "start_char") else 0
    starts = [start] if start is not None else [m.start() + offset for m in locate(value, text)]
    whole = parsed.doc.text if hasattr(parsed, "doc") else text
    if starts and all(_quoted(whole, at, at) for at in starts):
        return Assertion("speaker", "", frozenset({"quoted"}))  # 'Translate: "I live in Paris"' 
    verdicts = []
    for at in starts:
        tokens = [t for t in (parsed if not hasattr(parsed, "doc") else parsed.doc)
                  if at <= t.idx < at + max(1, len(value))]
        if not tokens:
            continue
        if concept == "age" and said_bare(tokens[0], tokens[-1]):
            return Assertion("speaker", "", frozenset())  # "Fifty-two, dodgy hip", "44 now and it takes longer"
        if concept in ("health", "language") and re.search(r"\b(?i:my|our)\s+(?:\w+\s+)?$", whole[:at]) and (
                concept == "health" or re.match(r"\s+(?:lessons?|classes|class|course|tutoring)\b",
                                                whole[at + len(value):])):
            return Assertion("speaker", "", frozenset())  # "they don't need a lecture on my arthritis", "that's my
            # online Tamil lessons": "my" says whose, whatever the clause does
        if owner := whose(line_at(whole, at)):  # a form's line, "Job: Pharmacist now", "Partner's job: …": its label
            # says whose
            return Assertion(*owner, frozenset())
        verdict = _clause(tokens)
        if verdict.holds(concept):
            return verdict
        verdicts.append(verdict)
    return verdicts[0] if verdicts else Assertion("none", "", frozenset({"not_a_span"}))


def make_believe(tokens: list[Token]) -> bool:
    """Words the speaker gives to be translated or written ('Translate: "I live in Paris"'), or a make-believe they
    ask for ("Pretend I'm a doctor in London"): no statement of theirs. `tokens`: a sentence's, trimmed."""
    words = [t for t in tokens if t.is_alpha]
    if not words:
        return False
    if _quoted(words[0].doc.text, words[0].idx, words[-1].idx):
        return True
    if re.match(r"in my (?:head|dreams?|mind|fantasy|fantasies|imagination)\b", " ".join(w.lower_ for w in words[:4])):
        return True  # "In my head I'm a 25-year-old rally driver"
    first = words[0]
    return (first.lower_ in PRETENDING or first.lemma_.lower() in PRETENDING) and first.i == first.sent.start + (
        first.sent[0].is_punct) and not any(c.dep_ in ("nsubj", "nsubjpass") for c in first.children)


def _quoted(text: str, start: int, end: int) -> bool:
    """The characters `start` … `end` of `text` lie inside one pair of quotation marks."""
    return any(a < start and end < b for a, b in (q.span() for q in QUOTED.finditer(text)))


def locate(value: str, text: str) -> list[re.Match]:
    """Where `value` is said in `text`: the whole value, else its longest word (a reader's value may add words:
    "no pork", "dog named Mango", "owner of a bakery")."""
    hits = list(re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", text, re.I))
    if hits:
        return hits
    words = sorted((w for w in re.findall(r"[\w'-]+", value) if len(w) > 2 and w.lower() not in (
        "named", "called", "owner", "the", "and", "eats", "drinks", "writes", "for", "new")), key=len, reverse=True)
    for word in words:
        hits = list(re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.I))
        if hits:
            return hits
    return []


def _owned(t: Token) -> bool:
    return any(x.lower_ in ("my", "our") and x.dep_ == "poss" for x in t.subtree)


def _is_verb(t: Token) -> bool:
    return t.pos_ in ("VERB", "AUX") or t.dep_ == "ROOT" or bool(subjects(t))  # spaCy's "like" may read ADP


def finite(t: Token) -> bool:
    """A word that makes a statement of its own: an auxiliary or a verb with tense ("Climbing, baking bread and
    chess" has none: a gerund is no verb of one)."""
    return t.pos_ == "AUX" or t.tag_ in ("VBD", "VBP", "VBZ", "MD")


def _clause(tokens: list[Token]) -> Assertion:
    near = tokens + [t.head.head for t in tokens if t.dep_ == "pobj"]  # "the hills in Ōtāhuhu where i live"
    clauses = [r for t in near for r in t.children if r.dep_ == "relcl"] + [  # "Manchester, where we live"
        r for t in tokens if t.dep_ == "nsubj" and t.head.lemma_ == "be" for r in t.head.children
        if r.dep_ in ("advcl", "ccomp")]  # "Leeds is where I grew up"
    clauses += [c for r in clauses if r.lemma_ == "be" and r.dep_ == "relcl" for c in r.children
                if c.dep_ in ("advcl", "ccomp")]  # "Shymkent, that's where I grew up"
    where = next((c for r in clauses for c in r.children if c.lower_ == "where"
                  and any(s.dep_ == "nsubj" and s.lower_ in ("i", "we") for s in r.children)), None)
    if where is not None:  # "We'll drive up from Manchester, where we live", "Leeds is where I grew up": whose
        tokens = [where]
    sent = tokens[0].sent
    if not any(finite(t) or t.lower_ in ("no", "not", "never", "none") for t in sent) \
            and not sent.text.rstrip().endswith("?"):
        if (other := _goes_on(sent)) is not None:
            return Assertion("other", other, frozenset())
        return Assertion("speaker", "", frozenset())  # a verbless answer ("Bouldering, making pasta and chess."):
        # no clause of anyone else's, no mood; the turn before says what it answers (rules: asked.answered)
    span = {t.i for t in tokens}
    top = next((t for t in tokens if t.head.i not in span or t.head.i == t.i), tokens[0])
    path: list[Token] = []  # the verbs from the value up to the one whose subject holds it
    scope = 0  # how many of them are the value's own clause (a conj or advcl above has its own mood)
    crossed = False
    node = top
    subject = None
    inside = False  # the value is (in) that subject: "My brother Diego is …"
    while True:
        if _is_verb(node) and (node.i not in span or (  # "I weave on a loom, my gran taught me": weave's own
                node is top and subjects(node) and (len(span) > 1 or node.dep_ != "ROOT"))):  # subject says whose
            path.append(node)
            scope += not crossed
            crossed = crossed or node.dep_ in ("conj", "advcl", "parataxis")
            heads = subjects(node)
            if heads:  # two subjects when spaCy splits "My granddaughter Ella": the one holding the value
                found = next((s for s in heads if any(t.i in span for t in s.subtree)), None) or next(
                    (s for s in heads if s.lower_ in ("i", "we")), heads[0])  # "my boyfriend and I speak …"
                held = any(t.i in span for t in found.subtree)
                if held and len(heads) > 1:
                    found = heads[0]
                if node.head.i != node.i and (found.lower_ in ("me", "us") or (
                        found.pos_ == "NOUN" and not _owned(found) and node.dep_ in ("ccomp", "xcomp"))):
                    subject, inside = subject or found, inside or held
                    node = node.head  # "wants me to join", "I find cricket boring": the clause above says whose
                    continue
                subject, inside = found, held
                break
        if node.head.i == node.i:
            break
        node = node.head
    if subject is None and path and path[-1].dep_ == "ROOT" and path[-1].pos_ in ("NOUN", "PROPN") \
            and path[-1].i not in span:
        root = path[-1]  # a fragment about someone: "My late wife, Margaret, loved dancing" (no verb above)
        named = top.dep_ in ("appos", "compound") and top.pos_ == "PROPN" and top.head.i == root.i
        if any(c.lower_ in ("my", "our") and c.dep_ == "poss" for c in root.children) or root.pos_ == "PROPN":
            subject, inside, path = root, named, path[:-1]
    sentence = top.sent
    why = reasons(path[:max(1, scope)], sentence)
    if not path and _is_verb(top):  # a value that holds its own verb has its mood there: "If we ever moved back I'd
        why |= reasons([top], sentence) & {"conditional", "modal"}  # open a little restaurant"
    whose, holder = _whose(subject, inside, path, tokens)
    if whose == "other" and path and any(
            v.lemma_.lower() in ADVISING and any(c.lower_ in WE for c in v.children if c.dep_ in ("dobj", "dative"))
            or v.lemma_.lower() in ADVISING and any(s.lower_ in WE for c in v.children if c.dep_ in ("ccomp", "xcomp")
                                                    for s in subjects(c))
            for v in path):
        why.add("advice")
    return Assertion(whose, holder, frozenset(why))


def _goes_on(sent: Span) -> str | None:
    """A sentence that leaves its subject out goes on about the "she" or "he" of the sentence before it: "She swam
    every Sunday. Diabetic for the last 20 years and still sneaking jalebis." -> "She"."""
    if sent.start == 0 or any(t.dep_ in ("nsubj", "nsubjpass", "expl") for t in sent):
        return None
    before = sent.doc[sent.start - 1].sent
    subject = next((c for c in before.root.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    return subject.text if subject is not None and subject.lower_ in ("she", "he") else None


STORY_ROLES = {"character", "protagonist", "heroine", "hero", "narrator", "villain", "avatar", "persona"}


def _whose(subject: Token | None, inside: bool, path: list[Token], tokens: list[Token]) -> tuple[str, str]:
    if subject is None:
        verb = path[-1] if path else None
        if verb is not None and verb.tag_ == "VB" and verb.i == verb.sent.start and verb.lower_ == verb.lemma_.lower() \
                and verb.lower_ not in PAST_FORMS:
            return "listener", ""  # an imperative
        if (other := _goes_on(tokens[0].sent)) is not None:
            return "other", other
        return "speaker", ""
    holder = " ".join(t.text for t in subject.subtree)
    low = subject.lower_
    if subject.lemma_.lower() in STORY_ROLES:
        return "other", holder  # "My main character is Lorna, a seamstress": a story's, not the speaker's
    if low in ("i", "we") or any(c.lower_ in ("i", "we") for c in subject.conjuncts):
        return "speaker", holder
    if low in ("you", "ya", "u"):
        return "listener", holder
    owned = any(t.lower_ in ("my", "our") and t.dep_ == "poss" for t in subject.subtree) or any(
        t.lower_ in ("my", "our") and t.dep_ == "poss" for s in subjects(subject.head) for t in s.subtree)
    if inside and owned:
        return "speaker", holder  # "My brother Diego …", "our cat, Mango, …": the speaker's own
    if inside and path and path[-1].lemma_ == "be" and any(c.dep_ == "attr" and any(
            g.lower_ in ("my", "our") and g.dep_ == "poss" for g in c.children) for c in path[-1].children):
        return "speaker", holder  # "Ursula Le Guin is my favourite author": the speaker's favourite
    if inside and path and path[-1].lemma_ == "be" and any(c.dep_ == "acomp" for c in path[-1].children):
        return "speaker", holder  # "Harry Potter and Game of Thrones are amazing": the speaker's view of it
    verb = path[-1] if path else None
    if low in ("it", "they") and verb is not None and verb.lemma_.lower() in ("speak", "resonate", "appeal") and any(
            t.lower_ == "me" and t.head.head.i == verb.i for t in verb.subtree):
        return "speaker", holder  # "Contemporary dance is so graceful - it really speaks to me": the speaker's taste
    if owned and verb is not None and verb.lemma_.lower() in NAMING:
        return "speaker", holder  # "My rabbit is named Mochi"
    people = subject.lower_ in PEOPLE or subject.lemma_.lower() in PEOPLE or any(
        s.lower_ in PEOPLE for s in subjects(subject.head)) or bool(path) and any(
        (t.lower_ in PEOPLE or t.lower_ in PETS) and not names_a_kind(t)
        for t in subject.subtree)  # "My cat Miso hates the noise": Miso's; "my mother tongue is …": the speaker's
    if owned and not people:
        return "speaker", holder  # "My favourite book is Dune", "my job is tiring": what the speaker has
    person = subject.pos_ == "PRON" or subject.ent_type_ in ("PERSON", "NORP", "ORG") or owned or \
        subject.pos_ == "PROPN"
    if not person and verb is not None and any(t.lower_ in FIRST for t in verb.subtree):
        return "speaker", holder  # "Painting is my passion", "calligraphy was never for me"
    return "other", holder
