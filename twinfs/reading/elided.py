"""The "I" a note about oneself leaves out, written in before the rules reader parses a turn: a list's "- 38, live in
Valencia" reads "- I'm 38, I live in Valencia"; a terse "allergic to cats. vegetarian, 20 years." reads "I'm allergic
to cats. I'm vegetarian, 20 years."; a line of languages alone, "German, English, decent Danish.", reads "I speak
German, English, decent Danish." spaCy's small pipeline reads a list line's bare first verb as a noun ("- hate
football": "hate" a compound of "football"), so none of it was the speaker's.

Where a note starts: a list's line after its bullet, and its parts after a comma. A bare verb starting a sentence of
running text is an imperative as often ("Have a great day", "Speak soon"), so only a list's line gets an "I" before a
verb; the words that say what one is get theirs at any sentence's start when a preposition or a count follows them
("allergic to cats", "vegetarian, 20 years", "originally from"; "Vegan lasagne tonight" is a dish, a bare "Obsessed."
may answer a question about someone else), and in a list's line alone ("- lactose intolerant").

    with_subject("- 38, live in Valencia\\n- vegan")   # "- I'm 38, I live in Valencia\\n- I'm vegan"
"""
from __future__ import annotations

import re

from .labelled import labelled
from .lexicon import JOBS, KIN_WORDS, LANGUAGES, NAME, PET_WORDS, SEEN

# a list line's first verb, said of oneself: "- work as a pharmacist", "- speak Catalan"
# (not a to-do list's "- go to the bank", "- read chapter 3", "- fix the bike": no lasting fact of one's own)
VERBS = ("live", "work", "speak", "hate", "love", "like", "adore", "dislike", "teach", "study", "play", "own", "drive",
         "cycle", "run", "swim", "volunteer", "coach", "cook", "bake", "paint", "collect", "prefer", "enjoy", "rent",
         "commute", "grew up", "moved", "have", "can't stand", "don't eat", "don't drink", "support", "attend", "climb",
         "knit", "sing", "hike", "brew", "grow", "train", "ride", "dance", "draw", "surf", "ski", "fish", "sew")
# what one is, said without "I'm", and what may follow it: "allergic to cats", "vegetarian, 20 years", "retired."
STATES = ("allergic", "vegetarian", "vegan", "pescatarian", "fluent", "married", "single", "divorced", "engaged",
          "widowed", "retired", "originally", "based", "self-employed", "unemployed", "pregnant", "diabetic", "coeliac",
          "celiac", "asthmatic", "lactose intolerant", "gluten-free", "half", "obsessed", "not a fan", "not a big fan",
          "not a huge fan")
# "allergic to", "vegetarian, 20 years"; not a bare "Obsessed." (an answer, maybe of someone else) but in a list
FOLLOWS = r"(?=,\s*\d|\s+(?:to|in|from|since|for|with|out of|of|near|now|at)\b)"
BULLET = r"(?:^|\n)[ \t]*(?:[-•*–·]|\d{1,2}[.)])[ \t]+"
# emoji (with their skin tones, joiners and variation selectors) that lead a line, as a list's bullets
EMOJI = "\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\u2300-\u23FF"
EMOJI_LED = re.compile(r"^[ \t]*[" + EMOJI + r"][" + EMOJI + r"\u200d\ufe0f\u20e3]*[ \t]+(?=\w)", re.M)
START = r"(?:^|(?<=[.!?;:])[ \t]+|\n[ \t]*|" + BULLET + r")['\"“‘(]?"  # after a quote opened
AGE = re.compile(r"(" + BULLET + r")(\d{1,2})(?=\s*(?:,|$|\n|y/?o\b|yo\b|years? old\b))", re.I)
STATE = re.compile(START + r"(?=(?i:" + "|".join(STATES) + r")" + FOLLOWS + r")[A-Za-z]")
# an appointment said by its time alone: "Dentist at 4:30", "Physio on Thursday"
APPOINTMENT = (r"(?:" + "|".join((*SEEN, "haircut", "therapy")) + r")(?: appointment)? "
               r"(?=at \d|on |tomorrow|tonight|this |next )")
WORKPLACE = r"[A-Z][\w'-]*(?: (?:[A-Z][\w'-]*|de|del|of|the|and|&))*\s*(?:[,.;(\n]|$)"
# a profile's sentence that starts at its verb, with what follows it: "Live in East Legon; grew up in Kumasi" (no
# imperative says where one lives or what one speaks)
OPENERS = ((r"lives? in ", r"[A-Z]", "I "), (r"grew up in ", r"[A-Z]", "I "), (r"moved to ", r"[A-Z]", "I "),
           (r"work (?:as an?|at|for) ", r"\w", "I "), (r"speak ", r"[A-Z][a-z]+\b", "I "),
           (r"born in ", r"[A-Z]", "I was "), (r"born (?:and|&) (?:raised|bred) in ", r"[A-Z]", "I was "),
           (r"(?:still )?(?:can't|cannot) (?:stand|be doing with) ", "", "I "),
           (r"still living in ", r"[A-Z]", "I'm "), (r"(?:really |still )?(?:love|hate) (?:a good|my) ", r"\w", "I "),
           (r"hate ", r"[a-z]", "I "),  # "Hate surprise video calls with a passion"
           (APPOINTMENT, "", "I've got "),  # "Dentist at 4:30", a stand-up's "Today:" line
           (r"(?:[a-z-]+ )?(?:" + "|".join(sorted(JOBS, key=len, reverse=True)) + r") at ", WORKPLACE, "I'm a "))
# "Vet tech at Veterinaria San Roque (…), 8 to 4": a job at a named place, the clause ending with the name (not "Nurse
# at St Mary's said …")
OPENER = re.compile(START + r"(?=(?i:" + "|".join(lead for lead, _, _ in OPENERS) + r"))[A-Za-z]")
# "As a nurse, I see …", "as a type 1 diabetic what should I pack?": what one is, said as the lead of a sentence
AS_ONE = re.compile(r"(^|[.!?;:]\s+|^[A-Z][a-z]{1,8}, )[Aa]s (an? (?:(?:type [12] )?diabetic|coeliac|"
                    r"celiac|asthmatic|epileptic|vegetarian|vegan|pescatarian|(?:[a-z-]+ )?(?:"
                    + "|".join(sorted(JOBS, key=len, reverse=True)) + r")))(?:,\s*|\s+(?=(?:what|how|should|can|do|is|"
                    r"are|I|i)\b))([a-zA-Z])")
# "As someone who's coeliac and eats strictly gluten-free, I always ring ahead": what one is, said as the sentence's
# lead, a sentence of its own
AS_SOMEONE = re.compile(r"(^|[.!?]\s+)[Aa]s (?:someone|somebody|a person|one) who(?:'s| is) ([^,.!?]{3,60}), (?=I\b)")
SOME = r"(?:(?:some|decent|basic|fluent|good|conversational|a bit of|a little|native|broken|rusty) )?"
LANGUAGE_LIST = re.compile(START + r"(?=" + SOME + r"([A-Za-z]+)(?:, " + SOME + r"[A-Za-z]+)+(?:,? and " + SOME
                           + r"[A-Za-z]+)?\s*(?:[.!]|$|\n))")


# a thing named first, then what one feels of "it": "coriander: i hate it", "liquorice, can't stand it, sorry Iceland"
TOPIC_FIRST = re.compile(r"(^|\n|[.!?]\s+|[-•*]\s+)((?!(?i:my|our|his|her|their|the|this|that|it|you|yes|yeah|yep|"
                         r"no|nope|oh|ay|aw|wow|ok|okay|honestly|well|so|and|but|god|man|lol|haha|ugh|omg)\b)"
                         r"[A-Za-z][\w'-]*(?: [a-z][\w'-]*)?)(?: ?[:—–] ?(?:[Ii] )?|, )"
                         r"((?:really |honestly |absolutely )?(?:hate|can't stand|cannot stand|love|adore)) "
                         r"(?:it|them)\b")
BORN_HERE = re.compile(START + r"(?=(?!I\b|I')[A-Z][\w'-]+(?: [A-Z][\w'-]+)? born (?:and|&) (?:raised|bred)\b)")
# "We have a cat. Her name is Bara.": the name said in the sentence after the pet's, as one sentence
PET_THEN_NAME = re.compile(r"\b((?:I|[Ww]e) (?:have|'ve got|have got) (?:an?|one) (?:[a-z]+ )?(?i:" + PET_WORDS
                           + r"))\. (?:Her|His|Its) name is (" + NAME + r")\b")

# a relative named first on a list's line or a line of its own, "my" left out: "- girlfriend Niamh is a physio", "Son
# Karthik is doing B.Tech"; not a priest's or a nun's "Father Brian", "Sister Agnes"
KIN_WORD = r"(?!Father|Mother|Sister|Brother)(?i:" + KIN_WORDS + r")"
KIN_FIRST = re.compile(r"^(?=" + KIN_WORD + r" [A-Z][a-z]+\b)")
KIN_LED = re.compile(r"^(" + KIN_WORD + r")(?= [A-Z][a-z]+ (?:is|was|has|works|lives|does|studies)\b)")


def with_subject(text: str) -> str:
    """`text` with the "I" its notes leave out written in; the same text when it has none."""
    text = EMOJI_LED.sub("", text)  # "🐝 allergic to bee stings": an emoji that leads a line is its bullet
    text = PET_THEN_NAME.sub(r"\1 named \2", text)
    text = TOPIC_FIRST.sub(lambda m: f"{m[1]}I {m[3]} {m[2]}", text)
    text = BORN_HERE.sub(lambda m: m.group(0) + "I'm ", text)  # "- Soweto born & raised" - "- I'm Soweto born …"
    text = AGE.sub(lambda m: f"{m.group(1)}I'm {m.group(2)}", text)
    text = _in_lines(text)
    text = STATE.sub(lambda m: m.group(0) if _labelled(m) or _a_label(m) or _goes_on(m) else m.group(0)[:-1] + "I'm "
                     + m.group(0)[-1].lower(), text)  # "Married, two kids" - "I'm married, two kids"
    text = re.sub(r"\b(fan of):", r"\1", OPENER.sub(_opened, text))  # "Not a fan of: clubbing, …"
    text = AS_ONE.sub(lambda m: f"{m.group(1)}I'm {m.group(2)}. {m.group(3).upper()}", text)
    text = AS_SOMEONE.sub(lambda m: f"{m.group(1)}I'm {m.group(2)}. ", text)
    return LANGUAGE_LIST.sub(_languages, text)


def _opened(m: re.Match) -> str:
    """A profile's sentence begun at its verb, given its "I" when what follows is what OPENERS expects."""
    rest = m.string[m.end() - 1:]
    said = next((i for lead, needs, i in OPENERS if re.match(lead + needs, rest[:1].lower() + rest[1:])), None)
    if said is None or _labelled(m) or _a_label(m) or _goes_on(m):
        return m.group(0)
    if said == "I'm a " and rest[:1].lower() in "aeiou":
        said = "I'm an "  # "Engineer at Arup." - "I'm an engineer at Arup."
    return m.group(0)[:-1] + said + m.group(0)[-1].lower()


def _labelled(m: re.Match) -> bool:
    """The match follows a form's label ("Diet: vegan", "Languages: Portuguese, English"): labelled.py reads it;
    or a label that names someone else ("- my sister Renata: vegan since last year", "Iván's: into cycling")."""
    line = m.string[:m.start()].rsplit("\n", 1)[-1]
    if "\n" in m.group(0) or not line.rstrip().endswith(":"):
        return False
    label = re.split(r"[.!?]\s", line)[-1]  # "… other things, since you asked:": the label, not the line's talk
    return len(line.split()) <= 3 or bool(OTHERS.search(label))  # not a list's heading ("fun facts:\n- allergic …")


# a label naming someone else: "my sister Renata:", "Papá (Ernesto, 66):", "Noor's:"
OTHERS = re.compile(r"(?i:\b(?:my|our|his|her|their)\s+(?:[\w-]+\s+)?(?:" + KIN_WORDS + r")\b|^[\s•*–·-]*(?:"
                    + KIN_WORDS + r")\b)|\b[A-Z][\w-]*'s\b")


def _goes_on(m: re.Match) -> bool:
    """The match starts a sentence that goes on about the "she" or "he" of the one before it, on the same line:
    "She swam every Sunday. Diabetic for the last 20 years" (assertion.gate reads it so too)."""
    line = m.string[:m.start()].rsplit("\n", 1)[-1].strip()
    return bool(line) and bool(re.match(r"(?:She|He)\b", re.split(r"(?<=[.!?])\s+", line)[-1]))


def _a_label(m: re.Match) -> bool:
    """The match starts a form's label: "Originally from: Tainan" (labelled.py reads it)."""
    label = re.match(r"([A-Za-z' ]{1,30}):", m.string[m.end() - 1:])
    return label is not None and not label.group(1).lower().endswith("fan of")  # "Not a fan of: clubbing" is said


def _in_lines(text: str) -> str:
    """A list line's verbs, at its start and after its commas, given their "I"."""
    lines = text.split("\n")
    for n, line in enumerate(lines):
        bullet = re.match(BULLET.removeprefix(r"(?:^|\n)"), line)
        if bullet is None:
            lines[n] = KIN_LED.sub(lambda m: "My " + m[1].lower(), line)  # a line of its own: "Son Karthik is …"
            continue
        if labelled(line):
            continue  # "- Grew up: Tacloban" is a form's line (labelled.py reads it)
        rest = re.sub(r"(^|, )((?i:" + "|".join(VERBS) + r"))\b", lambda v: f"{v.group(1)}I {v.group(2).lower()}",
                      line[bullet.end():])
        rest = re.sub(r"^(?=(?i:an?|one|two|three|four|five|\d) (?:kids?|child|children|sons?|daughters?|boys?|girls?|"
                      r"dogs?|cats?)\b)", "I have ", rest)  # "- two kids, Pau and Nil"
        rest = KIN_FIRST.sub("my ", rest)  # "- girlfriend Niamh is a physio"; not a priest's "- Father Brian"
        rest = re.sub(r"^(?=(?i:" + "|".join(STATES) + r")\s*(?:[,.;]|$))[A-Za-z]",
                      lambda v: "I'm " + v.group(0).lower(), rest)  # "- lactose intolerant"
        lines[n] = line[:bullet.end()] + rest
    return "\n".join(lines)


def _languages(m: re.Match) -> str:
    """ "German, English, decent Danish." said alone: "I speak …", when every item is a language."""
    said, after = re.match(r"([^.!\n]*)[.!]?([^.!?\n]*\??)", m.string[m.end():]).groups()  # type: ignore[union-attr]
    if after.endswith("?") or _labelled(m):
        return m.group(0)  # "French, Spanish, Italian. Which one?": asked about, not spoken
    items = re.split(r",? and |, ", said.strip())
    named = [re.sub(r"^" + SOME, "", i.strip()).lower() for i in items]
    return m.group(0) + "I speak " if named and all(i in LANGUAGES for i in named) else m.group(0)
