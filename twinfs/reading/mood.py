"""The mood of a clause: the reasons a value said in it is not a plain statement of now, read on the verbs from
the value up to the clause whose subject holds it (assertion.gate walks that path; this reads it).

    reasons(path, sentence)  # e.g. {"conditional"}, {"plan"}, {"negated_liking"}; empty for a plain statement
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.tokens import Token

SUBJECTS = ("nsubj", "nsubjpass", "csubj", "expl")
MODALS = {"might", "may", "could", "should", "must", "ought"}
WOULD, WILL = {"would", "'d"}, {"will", "'ll", "shall", "gonna"}
PLAN_VERBS = {"plan", "want", "hope", "intend", "aim", "wish", "dream", "wanna", "consider", "think"}
LIKING = {"like", "love", "enjoy", "stand", "abide", "fan", "care", "mind"}
CONSUMING = {"eat", "drink", "have", "touch", "digest"}
FORMER = {"before", "previously", "formerly", "ago", "once", "back"}
STATES = {"be", "work", "live", "stay", "teach", "study", "reside", "own", "run"}  # what "before that …" ended
ENDING = {"retire", "quit", "resign", "leave"}  # "I retired from the fire service": a job, a home that was
PRETENDING = {"pretend", "imagine", "suppose", "roleplay", "role-play"}  # a make-believe, asked of the listener; then


def subjects(verb: Token) -> list[Token]:
    return [c for c in verb.children if c.dep_ in SUBJECTS]


# "…, if that matters", "…, if you must know", "…, if it helps": an if-clause after the statement that says why it is
# said, not on what it holds
RELEVANCE = {"matter", "help", "know", "care", "wonder", "ask", "interest", "count"}


def _relevance(clause: Token, verb: Token) -> bool:
    """ "…, if that matters", and an aside to whoever reads it: "based in Dubai - Al Barsha, if anyone's a
    neighbour"."""
    said_to = ("anyone", "anybody", "someone", "somebody")
    return clause.i > verb.i and any(
        c.dep_ in ("nsubj", "nsubjpass") and (c.lower_ in said_to or clause.lemma_.lower() in RELEVANCE
                                              and c.lower_ in ("that", "it", "you", "this")) for c in clause.children)


def _leads_on(clause: Token, verb: Token) -> bool:
    """An if-clause after the statement that heads a clause of the speaker's own: "I'm a huge cricket fan, if the
    project needs a sports part I'm the one to ask" (the condition is of being the one to ask)."""
    return clause.i > verb.i and any(
        t is not clause and t.dep_ in ("relcl", "ccomp", "conj", "advcl") and t.i > clause.i and any(
            s.dep_ == "nsubj" and s.lower_ in ("i", "we") for s in t.children) for t in clause.subtree)


def _all_day(verb: Token, auxes: list[str]) -> bool:
    """ "I could eat bread all day", "I could listen to her forever": a taste said as a could, not a maybe."""
    return auxes == ["could"] and verb.lemma_ in ("eat", "listen", "watch", "read", "drink") and any(
        t.lower_ in ("day", "forever") and t.i > verb.i for t in verb.subtree) and not any(
        t.lower_ == "if" for t in verb.subtree)


def reasons(path: list[Token], sentence: Any) -> set[str]:
    reasons: set[str] = set()
    if sentence.text.rstrip().endswith("?"):
        reasons.add("question")
    for verb in path:
        lemma = verb.lemma_.lower()
        children = list(verb.children)
        answer = next((c.i for c in children if c.dep_ == "punct" and c.text == "," and any(
            s.i > c.i for s in subjects(verb))), None)  # "Can't, I've got my sister's kids": an answer before it
        if answer is not None:
            children = [c for c in children if c.i > answer or c.dep_ not in ("aux", "neg")]
        auxes = [c.lower_ for c in children if c.dep_ in ("aux", "auxpass")] + [  # "I'd get used to": on "get"
            g.lower_ for c in children if c.dep_ == "auxpass" for g in c.children if g.dep_ == "aux"]
        if any(c.dep_ == "mark" and c.lower_ in ("if", "unless") for c in children) or any(
                c.dep_ == "advcl" and any(m.dep_ == "mark" and m.lower_ in ("if", "unless") for m in c.children)
                and not _relevance(c, verb) and not _leads_on(c, verb) and not any(  # "I'm vegan so if there's a
                    k.dep_ == "cc" and k.lower_ in ("so", "and", "but") and k.i < c.left_edge.i  # plant-based one, …":
                    for k in children) for c in children):  # the condition is of what follows "so"
            reasons.add("conditional")
        if any(a in WOULD for a in auxes):
            reasons.add("plan" if lemma in ("love", "like") else "conditional")
        if any(a in MODALS for a in auxes) and lemma not in ("stand", "abide") and not _all_day(verb, auxes) or any(
                c.dep_ == "advmod" and c.lower_ in ("maybe", "perhaps", "possibly") for c in children):
            reasons.add("modal")  # "I might", "move out by spring, maybe"
        if any(a in WILL for a in auxes) or (lemma == "go" and verb.tag_ == "VBG" and any(
                c.dep_ == "xcomp" for c in children)) or lemma in PLAN_VERBS and any(
                c.dep_ in ("xcomp", "prep") for c in children) and lemma != "think" or (
                lemma == "think" and any(c.lower_ in ("about", "of") for c in children)):
            reasons.add("plan")
        if lemma == "become" and any(c.dep_ == "aux" and c.lower_ == "to" for c in children):
            reasons.add("plan")  # "I'm doing a course to become a station officer": not one yet
        if lemma == "use" and verb.tag_ == "VBD" and any(c.dep_ == "xcomp" for c in children):
            reasons.add("past_habit")
        if verb is path[0] and lemma in ENDING and not any(
                c.dep_ == "prep" and c.lower_ in ("for", "to") for c in children):
            reasons.add("former")  # what the speaker left ("leaving for Paris" is where they go)
        if verb.tag_ == "VBD" and lemma in STATES and any(
                c.lower_ in FORMER and c.dep_ in ("advmod", "prep", "npadvmod") for c in children):
            reasons.add("former")
        negated = any((c.dep_ == "neg" and not (c.i > verb.i + 1 and c.doc[c.i - 1].text == ",")) or c.lower_ == "never"
                      for c in children)  # not a contrast after the value: "I'm a senior scientist now, not Band 6"
        if negated:
            attr = next((c for c in children if c.dep_ in ("attr", "acomp")), None)
            if lemma in LIKING or (attr is not None and attr.lower_ == "fan"):
                reasons.add("negated_liking")
            elif lemma in CONSUMING:
                reasons.add("negated_consumption")
            else:
                reasons.add("negated")
    for verb in path[-1:]:  # an if-clause above the clause: "If I moved, I'd …"
        for ancestor in verb.ancestors:
            if any(c.dep_ == "mark" and c.lower_ in ("if", "unless") for c in ancestor.children):
                reasons.add("conditional")
            if ancestor.lemma_.lower() in PRETENDING and not any(
                    c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in ancestor.children):
                reasons.add("conditional")  # "Pretend I'm a doctor in London", "Imagine we lived in Rome"
        if any(c.dep_ == "mark" and c.lower_ in ("if", "unless") for c in verb.children):
            reasons.add("conditional")
    return reasons
