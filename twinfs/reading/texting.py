"""Chat shorthand written out before the rules reader parses a turn: "im a nurse on nights rn tho" reads "I'm a
nurse on nights right now though". spaCy's small pipeline was trained on edited text: a lower-case "i", "im" (split
"i" + "m"), "dont" and "w/" parse as nouns and fragments, and a record told in the third person came out as
"Sam Leems a nurse". Only forms that mean one thing in a chat are written out ("its", "were", "ill" and "id" are
words of their own and stay, and so do "def" and "prob": a definition, a problem); a language's name gets its
capital ("i talk to her in swedish").

    plain("ok so im 27 and my gf Jess is vegan tbh")   # "ok so I'm 27 and my girlfriend Jess is vegan to be honest"
"""
from __future__ import annotations

import re

from .lexicon import LANGUAGES

# a word as texted -> as written (matched whole, any case, its case kept where it has one)
SHORT = {
    "im": "I'm", "ive": "I've", "dont": "don't", "doesnt": "doesn't", "didnt": "didn't", "cant": "can't",
    "couldnt": "couldn't", "wouldnt": "wouldn't", "shouldnt": "shouldn't", "isnt": "isn't", "arent": "aren't",
    "wasnt": "wasn't", "werent": "weren't", "havent": "haven't", "hasnt": "hasn't", "wont": "won't",
    "shes": "she's", "hes": "he's", "thats": "that's", "theres": "there's", "whats": "what's", "youre": "you're",
    "theyre": "they're", "rn": "right now", "tho": "though", "bc": "because", "cuz": "because", "coz": "because",
    "abt": "about", "pls": "please", "plz": "please", "thru": "through", "tbh": "to be honest", "gf": "girlfriend",
    "bf": "boyfriend", "bday": "birthday", "u": "you", "ur": "your", "atm": "at the moment", "ppl": "people",
    "w/o": "without",
    "w/": "with",
}
WORD = re.compile(r"(?<![\w'’/.-])(?:w/o|w/|[a-z]+)(?![\w'’/-])", re.I)
LONE_I = re.compile(r"(?<![\w'’.-])i(?=(?:['’](?:m|ve|ll|d))?(?![\w.-]))")


def plain(text: str) -> str:
    """`text` with chat shorthand written out; the same text when it has none."""
    def written(m: re.Match) -> str:
        word = m.group(0)
        low = word.lower()
        if low in LANGUAGES and word.islower():
            return word.capitalize()
        full = SHORT.get(low)
        if full is None or ("'" not in full and not word.islower()):
            return word  # "BC" and "U" are names; "Dont", "im" are not
        return full[0].upper() + full[1:] if word[:1].isupper() and not full.startswith("I") else full

    return WORD.sub(written, LONE_I.sub("I", text))
