"""The languages a first-person sentence says the speaker speaks or is learning, for the rules reader.

    spoken("I get by in English and decent Spanish", {"english", "spanish", …})  -> ["English", "Spanish"]

Only words of `known` (lexicon.LANGUAGES and the sentence's own LANGUAGE/NORP names) are languages, and only in a
way of saying one speaks, writes, learns or works in them: "I speak …", "I get by in …", "my German is still B1",
"the three languages are …", "fluent Irish speakers", "Tamil and Kannada I speak both", "Danish at home", a
translator's "German and Swedish into Danish". Whose they are is the gate's (assertion.py): "my brother speaks
Dutch" names none of the speaker's. `text` is the sentence's tokens joined by single spaces ("I 'm").
"""
from __future__ import annotations

import re

# what a people's name may lead that is no language: "I'm learning French cooking"
THINGS = {"cooking", "cuisine", "food", "history", "literature", "music", "film", "films", "movie", "movies", "cinema",
          "wine", "wines", "culture", "recipe", "recipes", "dishes", "pastry", "pastries", "cheese", "cheeses",
          "breakfast", "style", "art", "dancing", "dance", "calligraphy", "poetry", "folk", "drama", "dramas",
          "television", "tv", "novels", "songs", "theatre", "theater"}
WORD = r"(?i:[a-z]+)\b(?! (?:" + "|".join(sorted(THINGS)) + r")\b)"
# how well: "fluent Spanish", "the B1 German", "a bit of Arabic"
SOME = (r"(?:(?:the )?(?:fluent|some|basic|decent|good|conversational|a little|a bit of|a little bit of|broken|"
        r"rusty|passable|enough|native|small|[ABC][12]|N[1-5]) )?")
# where or how each is spoken, after it: "Tamil at home, Kannada to auto drivers, English at work and Hindi badly"
WHERE = (r"(?: (?:at home|at work|on the job|with (?:my |the )?[a-z]+|to (?:my |the )?[a-z]+(?: [a-z]+)?|badly|"
         r"fluently|well|a bit|mostly|\([\w -]{1,20}\)))?")  # "Spanish (native) and Swedish (okay-ish)"
# a list of words, each perhaps with its "how well" and where: "English, decent Spanish and some Twi"
LIST = WORD + WHERE + r"(?:(?:,? and|,? or|,? an|,? &|,|;) " + SOME + WORD + WHERE + r")*"
SPLIT = r"(?:,? and|,? or|,? an|,? &|,|;) " + SOME
SPEAK = (r"\b(?:[Ii]|[Ww]e) (?:still |also |both |only |mostly |can |do )?(?:actually |really )?(?:speak|do speak|"
         r"also speak|'m fluent in|"
         r"am fluent in|'m learning|am learning|'m picking up|am picking up|'m studying|am studying|"
         r"(?:'ve |have )?started learning|(?:'ve|have) been learning|get by in|can get by in|manage in|"
         r"'m doing duolingo|am doing duolingo|(?:'ve|have) been doing duolingo|'m improving my|am improving my|"
         r"'m working on my|am working on my) " + SOME + "(" + LIST + ")")
# how many, then which: "I speak four languages (Malayalam, Tamil, Hindi, English)"
COUNTED = r"\b(?:[Ii]|[Ww]e) (?:can )?speak (?:\w+ )?languages\s*[(:—–-]\s*(" + LIST + ")"
# the same said without "I", by a line or a sentence that starts with the verb: "Speak Twi, English …"
BARE = (r"^(?:[Aa]nd |[Aa]lso |[Oo]h and )?(?:[Ss]peak|[Ll]earning|[Ff]luent in|[Dd]oing duolingo|"
        r"[Bb]een doing duolingo) " + SOME + "(" + LIST + ")")
# a language's word in another language's sentence: "En casa hablamos Spanish", "je parle anglais"
OTHER_TONGUE = r"\b(?:hablo|hablamos|falo|falamos|parlo|parliamo|je parle|on parle|spreche|sprechen|spreek|spreken)" \
               r" (?:" + SOME + ")?(" + LIST + ")"
FIRST = (r"\b(" + WORD + r") is my (?:first|native|mother|home|second|third|other|main) (?:language|tongue)"
         r"(?: after (" + WORD + r")(?: and (" + WORD + r"))?)?")
MY_FIRST = r"\b[Mm]y (?:first|native|mother|home) (?:language|tongue) is (" + WORD + r")\b"
# a list's "Swedish native, fluent English", an answer's "Oui, English fluent — …"
NATIVE_LINE = (r"^(?:I 'm |[A-Z][a-z]+, )?(" + WORD + r") (?:native|mother tongue|fluent)(?:, (?:fluent|native|"
               r"conversational|good|basic|decent) (" + WORD + r"))?\s*(?:[.!]?\s*$|[—–-] )")
HOW_WELL = (r"\b[Mm]y (" + WORD + r") is (?:still |now |only )?(?:decent|good|ok|okay|fluent|rusty|basic|not bad|"
            r"pretty good|passable|conversational|solid|native|fine|[ABC][12]|N[1-5])\b")
TALK_IN = (r"\b(?:[Ii]|[Ww]e) (?:always |still |only |mostly |usually )?(?:talk|speak|chat|text|write) "
           r"(?:to|with) (?:[\w']+ ){1,2}in (" + WORD + r")\b")  # "i talk to her in swedish"
# "the three languages are Turkish, German and English", "my languages are …"
ARE = r"\b(?:[Tt]he|[Mm]y) (?:two |three |four |five |\d )?languages (?:I speak )?are " + SOME + "(" + LIST + ")"
# "Tamil and Kannada I speak both", "Arabic and English are both fine for me"
FRONTED = (r"(?:^|[,;:—-] |\b(?:[Bb]ut|[Aa]nd|[Ss]o) )(" + WORD + r"(?:(?:,|,? and) " + WORD + r")*) (?:I (?:both )?"
           r"speak\b|(?:are|is) (?:both |all )?fine for me\b)")
SPEAKER = r"\b(?:fluent|native) (" + WORD + r") speakers?\b"  # "one of the only fluent Irish speakers"
# "…, Danish at home of course", "Tongan at home, English at work"
AT_HOME = r"(?:^|[,;—-] )(" + WORD + r") at (?:home|work)\b(?:, (" + WORD + r") at (?:home|work)\b)?"
# lessons one takes: "that's my online Tamil lessons", "I'm taking Korean classes on Thursdays", "I started Finnish
# evening classes", "I start a night course in Italian"
LESSONS = (r"\b(?:[Ii]|[Ww]e) (?:'m |am )?(?:start|starting|started|take|taking|do|doing) an? (?:\w+ )?(?:course|"
           r"class) in (" + WORD + r")|\b(?:[Mm]y|(?:[Ii]|[Ww]e) (?:'m |am |'ve |have )?(?:been )?(?:take|taking|do|"
           r"doing|have|having|started|start|booked)) (?:\w+ )??(" + WORD + r") (?:evening |night |online |weekly |"
           r"private )?(?:lessons?|classes|class|course|tutoring)\b")
# a translator's languages: "freelance translator, German and Swedish into Danish", "translator, Irish and German"
TRANSLATOR = r"\btranslat(?:or|ing|e)\b,? (?:from )?(" + LIST + r")(?: (?:into|to) (" + WORD + r"))?"


def spoken(text: str, known: set[str]) -> list[str]:
    """The languages `text` says the speaker speaks or learns, as spelled there, each once, in the order said."""
    found: list[str] = []
    if not known.intersection(re.findall(r"[a-z]+", text.lower())):
        return found  # each pattern ends on a word of `known`: a sentence naming none (most) tries none

    def take(words: str | None, split: bool = True) -> None:
        for word in re.split(SPLIT, words) if words and split else [words] if words else []:
            word = word.strip()
            if word.lower() not in known and " " in word:
                word = word.split()[0]  # "Kannada to auto drivers": the language, not where it is spoken
            if word.lower() in known and word.lower() not in {w.lower() for w in found}:
                found.append(word)

    for pattern in (SPEAK, BARE, OTHER_TONGUE, ARE, FRONTED, TRANSLATOR, COUNTED):
        for m in re.finditer(pattern, text, re.M):
            for group in m.groups():
                take(group)
    for pattern in (FIRST, MY_FIRST, NATIVE_LINE, HOW_WELL, TALK_IN, SPEAKER, AT_HOME, LESSONS):
        for m in re.finditer(pattern, text, re.M):
            for group in m.groups():
                take(group, split=False)
    return found
