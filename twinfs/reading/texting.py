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
    "evry": "every", "tmrw": "tomorrow", "tmr": "tomorrow", "wknd": "weekend", "wkend": "weekend", "thx": "thanks",
    "w/o": "without",
    "w/": "with",
}
WORD = re.compile(r"(?<![\w'’/.-])(?:w/o|w/|[a-z]+)(?![\w'’/-])", re.I)
# hashtags inside a sentence, not a line of them: "I grew up in #Ocongate", "Things I love: #ChichaMorada #huayno"
TAGGED = re.compile(r"(?<=[a-z,:] )#[^\W\d_]\w*(?: #[^\W\d_]\w*)*")
LONE_I = re.compile(r"(?<![\w'’.-])i(?=(?:['’](?:m|ve|ll|d))?(?![\w.-]))")


# Scots as written in a chat, written out only in a turn that has at least three of its words (SCOTS_SEEN): alone,
# "an", "ma", "am" and "fur" are English words too
SCOTS = {"ah": "I", "ah'm": "I'm", "ah've": "I've", "ah'd": "I'd", "ma": "my", "wi": "with", "tae": "to",
         "cannae": "can't", "canna": "can't", "dinnae": "don't", "didnae": "didn't", "wisnae": "wasn't",
         "isnae": "isn't", "wouldnae": "wouldn't", "oot": "out", "aboot": "about", "dae": "do", "fur": "for",
         "an": "and", "ain": "own", "wean": "child", "weans": "children", "maw": "mum", "nivver": "never",
         "whit": "what", "gid": "good", "jist": "just", "aye": "yes", "naw": "no", "nae": "no", "yer": "your",
         "masel": "myself", "bides": "lives", "glesga": "Glasgow", "plannin": "planning", "comin": "coming",
         "wantin": "wanting", "walkin": "walking", "squealin": "squealing", "fixin": "fixing", "buyin": "buying",
         "anythin": "anything", "somethin": "something", "nothin": "nothing", "maist": "most"}
SCOTS_SEEN = {"ah'm", "cannae", "dinnae", "didnae", "wisnae", "isnae", "tae", "wi", "oot", "dae", "aye", "wean", "maw",
              "nae", "whit", "jist", "gid", "masel", "nivver", "bides", "glesga", "aboot"}
# a hedge before a taste, which spaCy parses as the verb: "i kinda like the alliances part" says "like"
HEDGE = re.compile(r"\b(?:kinda|sorta|kind of|sort of) (?=(?:like|love|hate|enjoy|miss|prefer)\b)", re.I)
SCOTS_WORD = re.compile(r"(?<![\w'’])[a-z]+(?:'[a-z]+)?(?![\w'’])", re.I)


# a laugh that ends a sentence, no part of it: "I still can't stand their defence lol." (spaCy hangs the noun before
# it on "lol", so the value is no whole phrase)
LAUGH = re.compile(r",? (?:lol|lmao|rofl|haha(?:ha)*|hehe)(?=[ .!?]*(?:$|\n|[.!?]))", re.I)
# a small word shouted for stress, which the parse reads as a name: "I'm coeliac AND allergic to peanuts", "NO cashew
# cheese" (not "I just LOVE flaky tests": a shouted taste may be irony, tastes.py reads it)
SHOUTED = re.compile(r"\b(?:AND|OR|BUT|NOT|NO|NEVER|ALWAYS|ALSO|REALLY|VERY|SO|TOO|ALL|ONLY|JUST|STILL|DO|DON'T|CAN'T|"
                     r"WON'T|AM|IS|ARE|WAS|MY|ME|EVERY|MUST|HUGE|SUPER|AGAIN)\b(?![\w'’])")
BOLD = re.compile(r"\*\*([^*\n]+)\*\*")
# a message sent in bursts, a few words a line: "I drive regional trains\nfor Deutsche Bahn" - one sentence; the break
# kept where the next line starts anew ("I'm 27 btw\nfrom Chemnitz originally\nlive in Plagwitz now")
BURST = re.compile(r"(?<=\n)((?![ \t]*(?:\d{1,2}[.)]|[-•*>]))[^\n:=#{}]{1,100}[\w)'’])\n(?=(?:for|at|in|on|with|from|"
                   r"to|of|and|but|or|well|my|our|the|a|an|since|near|by)\b[^\n=(){}#:;]{0,60}(?:\n|$))")  # not code
# a number put right as it is said, the parse hanging "not" on the verb: "i'm 22 not 16" - "i'm 22, not 16"
NOT_THAT = re.compile(r"\b(\d{1,3}) (not \d{1,3})\b")
# a verb said with -s after "I", as Newfoundland, West Country or Yorkshire speech has it: "I plays the accordion", "I
# only speaks English", "I loves a Jiggs dinner"
DIALECT_S = re.compile(r"(?<!War )(?<!Part )\bI ((?:only |also |still |just |really )?)(plays|loves|likes|hates|"
                       r"speaks|keeps|works|lives|talks|writes|eats|drinks|reckons|knows|wants|goes|does|has|teaches|"
                       r"drives|fishes|sings|paints|runs|swims|makes|builds|fixes|misses|needs|thinks|says|gets)\b")
AS_I_SAY = {"goes": "go", "does": "do", "has": "have", "fishes": "fish", "teaches": "teach", "fixes": "fix",
            "misses": "miss"}

# a parents' forum's family, in capitals: "DH Paul is an electrician", "DS1 Alfie (9)", "MIL has offered" - a son's or
# daughter's only before their name or age ("DD" is a direct debit too)
FORUM = {"DH": "husband", "DW": "wife", "DP": "partner", "MIL": "mother-in-law", "FIL": "father-in-law",
         "SIL": "sister-in-law", "BIL": "brother-in-law", "DS": "son", "DD": "daughter"}
FORUM_KIN = re.compile(r"(?<![\w'’/-])(?:([Mm]y|[Oo]ur) )?(DH|DW|DP|MIL|FIL|SIL|BIL|(?:DS|DD)\d?(?= [A-Z][a-z]| ?\(\d))"
                       r"(?![\w'’/-])")


def plain(text: str) -> str:
    """`text` with chat shorthand (and a Scots chat's words) written out; the same text when it has none."""
    if len({w.lower() for w in SCOTS_WORD.findall(text)} & SCOTS_SEEN) >= 3:
        text = _scots(text)
    def written(m: re.Match) -> str:
        word = m.group(0)
        low = word.lower()
        if low in LANGUAGES and word.islower():
            return word.capitalize()
        full = SHORT.get(low)
        if full is None or ("'" not in full and not word.islower()):
            return word  # "BC" and "U" are names; "Dont", "im" are not
        return full[0].upper() + full[1:] if word[:1].isupper() and not full.startswith("I") else full

    text = BOLD.sub(r"\1", text) if "**" in text else text  # "**My simple pleasures:** tea": markdown's bold
    text = TAGGED.sub(lambda m: ", ".join(tag[1:] for tag in m[0].split()), text) if "#" in text else text
    if re.search(r"[a-z]", text):  # not a turn in capitals throughout, whose every word is shouted
        text = SHOUTED.sub(lambda m: m.group(0).lower(), text)
    text = NOT_THAT.sub(r"\1, \2", text) if " not " in text else text
    text = DIALECT_S.sub(lambda m: f"I {m[1]}{AS_I_SAY.get(m[2], m[2][:-1])}", text)
    text = FORUM_KIN.sub(lambda m: f"{m[1] or 'my'} {FORUM[m[2].rstrip('0123456789')]}", text)
    if text.count("\n") >= 4:
        text = _joined(text)
    return WORD.sub(written, LONE_I.sub("I", HEDGE.sub("", LAUGH.sub("", text))))


def _scots(text: str) -> str:
    """A Scots chat's words in English: "Ah stay in Paisley", "Am 44 an diabetic" -> "I live in Paisley", "I'm 44 and
    diabetic" ("stay" is where one lives; a sentence's "Am" is "I'm")."""
    text = re.sub(r"(^|[.!?]\s+|\n)Am\b(?! I\b)", r"\1I'm", text)
    text = re.sub(r"\b([Aa]h|I) stay in\b", r"\1 live in", text)
    return SCOTS_WORD.sub(lambda m: _cased(m.group(0), SCOTS.get(m.group(0).lower())), text)


def _cased(word: str, full: str | None) -> str:
    if full is None:
        return word
    return full[0].upper() + full[1:] if word[:1].isupper() else full


def _joined(text: str) -> str:
    """`text` with the lines of a message sent in bursts joined where a line goes on with the one before (BURST);
    the same text when no line is that short."""
    lines = text.split("\n")
    if sum(1 for line in lines if 0 < len(line.split()) <= 6) < 4:
        return text
    while (joined := BURST.sub(r"\1 ", "\n" + text)[1:]) != text:
        text = joined
    return text
