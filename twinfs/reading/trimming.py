"""What of a sentence is the speaker's own statement, for the rules reader: the talk around it trimmed.

"Oh wow, Jon - by the way, I started kickboxing, you should try it!" -> "I started kickboxing": interjections,
vocatives, the talk's joints ("By the way", "Speaking of which"), a lead before a colon, what is said to the listener
and a bid to them at the end ("…, take a look!") are not part of the fact.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..text import FIRST, SECOND
from .lexicon import KIN, PETS

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

# the talk's joints that lead a sentence: "By the way, …", "Speaking of which, …"
JOINTS = (("by", "the", "way"), ("in", "the", "meantime"), ("speaking", "of", "which"), ("on", "another", "note"),
          ("on", "a", "different", "note"), ("on", "a", "side", "note"), ("on", "that", "note"),
          ("that", "being", "said"), ("having", "said", "that"), ("so", "far", ",", "so", "good"),
          ("no", "worries"), ("no", "problem"))
# what announces the news before a comma: "I have news too, I got promoted", "Big news, I adopted a cat", "Speaking
# of trips, I started learning to sail"
ANNOUNCED = re.compile(r"(?:(?:i|we) ?(?:have|'ve got|got|'ve) (?:some |a bit of |big |great |good |exciting )?news"
                       r"(?: too| as well)?|(?:big|great|good|exciting|some|other) news|guess what|"
                       r"speaking of [\w' ]{1,30}|as (?:some of |many of |most of )?you (?:all |may |might |probably |"
                       r"already )?(?:know|remember|recall|can see|can tell|saw))")  # "As some of you know, I'm …"
# "No way, …", "No idea, …": an exclamation, not a thing one does without
NO_WHAT = {"way", "idea", "clue", "joke", "kidding", "doubt", "thanks", "wonder", "offence", "offense", "pressure",
           "rush", "stress", "biggie", "chance", "comment", "shame", "judgement", "judgment", "lie", "regrets", "sir"}
# what asks the listener to take a fact down, before the fact: "Remember I'm vegan", "Note: …", "Add that I'm …",
# "Please mention that I …", "Just so you know, I'm …", "For context, …"
TOLD = re.compile(r"(?:remember|note|fyi|reminder)(?: (?:that|:|,)(?= |$)|(?= (?:i|we)(?: |$)))"
                  r"|(?:(?:please|also|and) )*(?:(?:you can|can you|could you|you could) )?(?:(?:add|mention|include|"
                  r"say|put down|put in|write down|note down|jot down|"
                  r"keep in mind|bear in mind|make a note) that|(?:just )?so you know ,|for (?:context|the record|"
                  r"reference|background) ,|in case it (?:matters|helps) ,)(?= )")
# what ends a sentence after its last comma and tells nothing: a laugh, a reassurance, a gasp
TAILS = {("ha",), ("haha",), ("hahaha",), ("lol",), ("lmao",), ("hehe",), ("but", "wow"), ("so", "do", "n't", "worry"),
         ("do", "n't", "worry"), ("no", "joke"), ("honestly",), ("though",)}
# what one bids the listener do after telling something: "…, take a look!", "… - come see!"
TO_LISTENER = {"take", "come", "check", "look", "see", "guess", "imagine", "wish", "tell", "let"}
# nouns a name after a comma is given to, not said to: "our shiba, Mochi" (a relative's may be the listener's)
NAMED_ONES = PETS | set(KIN) | {"tabby", "pup", "rescue"}  # "our shiba, Mochi", "my partner, Brian": named
YOU = SECOND | {"ya", "u"}  # chat's spellings of "you" too
# a clause that leaves out what it is about, said before: "I could never, …", "…, so maybe not", "…, so I'm trying"
HOLLOW_WORDS = {"i", "we", "never", "not", "n't", "maybe", "probably", "definitely", "really", "too", "either",
                "obviously", "so", "but", "and", "or", "still", "just", "totally", "already"}
HOLLOW_VERBS = {"know", "try", "guess", "think", "bet", "agree", "hope", "promise", "suppose"}
OPENERS = {"yeah", "yes", "yep", "no", "nope", "wow", "woah", "whoa", "oh", "ooh", "hey", "hi", "hello", "thanks",
           "thank", "haha", "hahaha", "lol", "well", "so", "and", "but", "also", "btw", "anyway", "anyways", "ok",
           "okay", "sure",
           "totally", "absolutely", "definitely", "aww", "aw", "omg", "ugh", "um", "uh", "hmm", "gosh", "man", "dude",
           "honestly", "actually", "plus", "ah", "yay", "cool", "great", "awesome", "nice", "right", "true",
           "exactly", "indeed", "same", "agreed", "then", "now", "guess", "what", "meanwhile", "noted"}
# words one calls the listener by: "Grandma I got second!!", "Mum, I passed!"
ADDRESS = {"grandma", "granny", "nan", "nana", "gran", "mum", "mom", "mama", "dad", "papa", "grandpa", "auntie",
           "bro", "sis", "mate", "babe", "dear", "darling", "honey", "mummy", "daddy", "grandad", "granddad", "ma",
           "mamie", "papi", "mami", "nonna", "nonno", "abuela", "abuelo", "oma", "opa", "babcia", "lola", "lolo",
           "guys", "sweetie", "kiddo", "buddy"}


def trimmed(span: Span) -> list[Token]:
    """A sentence's tokens without leading interjections, vocatives, the talk's joints, what is said to the
    listener and trailing punctuation."""
    tokens = list(span)
    while tokens:
        t = tokens[0]
        nxt = tokens[1] if len(tokens) > 1 else None
        vocative = (t.pos_ == "PROPN" and nxt is not None and nxt.text in (",", "!", "-", "–", ".") and not (
            [x.lower_ for x in tokens[2:3]] in (["my"], ["our"]) and len(tokens) > 4 and (
                tokens[3].lower_ in KIN or tokens[3].lower_ in PETS) and tokens[4].text == ",")) or (
            t.lower_ in ADDRESS and nxt is not None and (nxt.text in (",", "!") or nxt.lower_ in ("i", "we")))
        cleft = t.lower_ == "what" and nxt is not None and nxt.lower_ in ("i", "we")  # "What I love is …"
        degree = (t.lower_ == "so" and nxt is not None and nxt.lower_ == "far") or (  # "So far I've saved …"
            t.lower_ == "no" and nxt is not None and (nxt.lower_ in ("more", "longer") or (
                nxt.pos_ in ("NOUN", "PROPN", "ADJ") and nxt.lower_ not in OPENERS | NO_WHAT)))
        # "No more fizzy drinks", "no alcohol, I'm …": what is not had, no answer's "No"
        joint: tuple[str, ...] | None = next((j for j in JOINTS if [x.lower_ for x in tokens[:len(j)]] == list(j)),
                                             None) or (("no", nxt.lower_) if t.lower_ == "no" and nxt is not None
                                                       and nxt.lower_ in NO_WHAT else None)  # "No way, …"
        comma = next((i for i, x in enumerate(tokens[:3]) if x.text == ","), None)
        if joint is None and (said := next((i for i, x in enumerate(tokens[:9]) if x.text in (",", "!")), None)) \
                and ANNOUNCED.fullmatch(" ".join(x.lower_ for x in tokens[:said])):
            joint = tuple(x.lower_ for x in tokens[:said + 1])
        if joint is None and (told := TOLD.match(" ".join(x.lower_ for x in tokens[:6]))):
            joint = tuple(told.group(0).split())  # "Remember I'm vegan", "Also add that I'm sitting my exam …": the
            # fact is what is told
        if joint is None and comma and all(x.tag_ == "MD" or x.dep_ in ("aux", "neg") for x in tokens[:comma]):
            joint = tuple(x.lower_ for x in tokens[:comma + 1])  # "Can't, I've got my sister's kids": an answer
        early = next((i for i, x in enumerate(tokens[:6]) if x.text == ","), None)  # a comma among the first words
        if joint is None and early and hollow(tokens[:early]) and any(
                x.dep_ in ("nsubj", "nsubjpass", "expl") for x in tokens[early + 1:early + 4]):
            joint = tuple(x.lower_ for x in tokens[:early + 1])  # "I could never, I get out of breath …"
        named = t.text[:1].isupper() and nxt is not None and nxt.text in ("—", "–", ",") and [
            x.lower_ for x in tokens[2:3]] in (["my"], ["our"]) and len(tokens) > 3 and tokens[3].lower_ in NAMED_ONES
        if joint is None and not named and (t.is_punct or t.is_space or t.pos_ == "INTJ" or (
                t.lower_ in OPENERS and not cleft and not degree) or vocative):
            tokens.pop(0)
        elif joint is not None:
            del tokens[:len(joint)]  # "By the way, …", "Speaking of which, …": the talk's joints, not the fact
        elif (colon := next((i for i, x in enumerate(tokens[:4]) if x.text in (":", "—", "-", "–")
                             and (x.text == ":" or i == 0 or tokens[i - 1].whitespace_)),  # not "Money-wise"
                            None)) is not None \
                and not any(x.lower_ in FIRST or x.lower_ in KIN for x in tokens[:colon]) and not named:
            del tokens[:colon + 1]  # "Big news: I moved" -> "I moved"; not "Dad — Mohan — is …", of whom it speaks,
            # nor "Pelusa — my cat — needs feeding", whom the aside names
        else:
            break
    while len(tokens) > 3 and tokens[-1].is_punct and tokens[-2].pos_ == "PROPN" and tokens[-3].text == "," \
            and tokens[-2].ent_type_ not in ("GPE", "LOC", "FAC", "ORG", "NORP") \
            and tokens[-4].lower_ not in NAMED_ONES:  # "my home country, Sweden", "our shiba, Mochi"
        del tokens[-3:]  # "I've had some tough times with my business, Jon." — the name is whom she tells
    while len(tokens) > 3 and [x.lower_ for x in tokens[-3:]] == ["by", "the", "way"] or \
            len(tokens) > 3 and [x.lower_ for x in tokens[-4:-1]] == ["by", "the", "way"] and tokens[-1].is_punct:
        del tokens[-4 if tokens[-1].is_punct else -3:]  # "…, by the way."
    comma = max((i for i, t in enumerate(tokens) if t.text == ","), default=None)
    if comma is not None and comma > 2 and (tuple(t.lower_ for t in tokens[comma + 1:] if not t.is_punct) in TAILS
                                            or hollow(tokens[comma + 1:])):
        del tokens[comma:]  # "I spent the weekend building a shed, ha": a laugh, no part of the fact; "…, so maybe
        # not": of what was said before
    # "I started kickboxing, you should try it": keep what the speaker says of themself
    listener = next((i for i, t in enumerate(tokens) if (t.lower_ in YOU and not _named_u(t)) or t.lower_ == "please"
                     or (t.lower_ == "let" and i + 1 < len(tokens) and tokens[i + 1].lower_ in ("'s", "us"))),
                    None)  # "…, so let's make it happen",
    # "…, so please avoid red-green charts": what the listener is asked
    asking = listener is not None and not any(x.lower_ in FIRST for x in tokens[:listener]) and (
        tokens[listener].dep_ in ("nsubj", "nsubjpass") or tokens[listener - 1].lower_ == "of")  # "loads of you ask"
    lead = next((i for i, t in enumerate(tokens) if listener is not None and i > listener and (
        t.text in (":", ";") or t.text in ("—", "–", "-") and asking and bool(t.whitespace_))
        and any(x.lower_ in FIRST for x in tokens[i + 1:i + 3])),
                None)
    if lead is None and asking and listener is not None and not any(
            x.lower_ in ("if", "when", "once", "unless") for x in tokens[:listener]):
        lead = next((i for i, t in enumerate(tokens) if i > listener + 1 and t.text == "," and any(
            x.lower_ in ("i", "we") and x.dep_ in ("nsubj", "nsubjpass") for x in tokens[i + 1:i + 3])), None)
        # "ha funny u ask about allergies, i'm actually allergic to lilies": the answer after what was asked
    if lead is not None:  # "Quick intro so you can help me: I'm Priya, I work as …", "loads of you asking whose
        # kitchen this is — we actually moved …": what follows is theirs, and what the speaker said of themself
        # before the listener's clause ("(I'm coeliac - please don't bin it); my EpiPen, because I'm allergic …")
        before = tokens[:_clause_start(tokens, listener)]  # type: ignore[arg-type]
        tokens = before + tokens[lead + (0 if before else 1):]
        listener = next((i for i, t in enumerate(tokens) if t.lower_ in YOU), None)
    if listener is not None:
        cut = _clause_start(tokens, listener)
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
    while tokens and ((tokens[-1].is_punct and not _closing(tokens)) or tokens[-1].is_space
                      or tokens[-1].pos_ == "SYM" or tokens[-1].lower_ in ("and", "but", "so", "because")):
        tokens.pop()
    return tokens


def _clause_start(tokens: list[Token], at: int) -> int:
    """Where the clause holding token `at` starts: after the last comma, dash, colon or joining word before it."""
    return max((i for i, t in enumerate(tokens[:at]) if t.text in (",", "-", "–", ";", ":")
                or t.lower_ in ("but", "so", "and", "because", "cause", "'cause")), default=0)


def _closing(tokens: list[Token]) -> bool:
    """The last token closes a bracket the sentence opened: "… (Oban lad, the bay was my back garden)" keeps it."""
    return tokens[-1].text == ")" and sum(t.text == "(" for t in tokens) > sum(t.text == ")" for t in tokens[:-1])


def hollow(clause: list[Token]) -> bool:
    """A clause that leaves out what it is about: "I could never", "so maybe not", "so I'm trying", "I know"."""
    words = [t for t in clause if not t.is_punct]
    verbs = [t for t in words if t.lemma_.lower() in HOLLOW_VERBS and t.pos_ == "VERB"]
    return bool(words) and len(verbs) <= 1 and all(
        t.lower_ in HOLLOW_WORDS or t.tag_ == "MD" or t.dep_ in ("aux", "neg") or t in verbs for t in words) \
        and any(t.lower_ in ("not", "n't", "never") or t.tag_ == "MD" or t in verbs for t in words)


def _named_u(t: Token) -> bool:
    """A capital "U" that ends a name ("OCAD U", "Concordia U"): no chat spelling of "you"."""
    return t.text == "U" and t.i > 0 and t.nbor(-1).text[:1].isupper() and t.nbor(-1).pos_ == "PROPN"
