"""Words for matching a question with records: case folded, possessives off, plain stems ("moved", "moving" and
"move" meet; "went" meets "go"). Shared by folding (which attribute a question is about) and worked (what a count
counts); the words of the first and second person by held (whom a sentence is about) and the rules reader; the line
a character of a text is on (`line_at`); words between quotation marks (`quotations`); a verb's -ing form
(`gerund`)."""
from __future__ import annotations

import re
from collections.abc import Iterable

STOP = frozenset(["a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "for", "with", "by", "from", "as",
                  "about", "into", "than", "then", "so", "if", "not", "no", "is", "are", "was", "were", "be", "been",
                  "being", "am", "do", "does", "did", "done", "have", "has", "had", "having", "will", "would", "shall",
                  "should", "can", "could", "may", "might", "must", "i", "me", "my", "we", "us", "our", "you", "your",
                  "he", "him", "his", "she", "her", "they", "them", "their", "it", "its", "this", "that", "these",
                  "those", "there", "here", "what", "when", "where", "who", "whom", "whose", "which", "why", "how",
                  "many", "much", "often", "times", "time", "ever", "still", "now", "currently", "already", "just",
                  "really", "also", "very", "s", "t", "ago", "since", "long", "until", "till", "before", "after",
                  "last", "first", "total", "far", "all", "any", "some", "each", "every", "one", "get", "got", "go",
                  "goes", "going", "went", "gone", "make", "made", "take", "took", "anyone", "someone", "everyone",
                  "anybody", "somebody"])
LIGHT_VERBS = frozenset({"go", "do", "have", "get", "make", "take", "be", "come", "use"})
FIRST = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves"})
SECOND = frozenset({"you", "your", "yours", "yourself", "yourselves"})

IRREGULAR = dict(pair.split(":") for pair in ["ran:run", "went:go", "gone:go", "ate:eat", "eaten:eat", "saw:see",
                                              "seen:see", "met:meet", "took:take", "taken:take", "bought:buy",
                                              "made:make", "wrote:write", "written:write", "gave:give", "given:give",
                                              "got:get", "had:have", "did:do", "done:do", "flew:fly", "flown:fly",
                                              "swam:swim", "drove:drive", "rode:ride", "came:come", "left:leave",
                                              "won:win", "lost:lose", "found:find", "taught:teach", "caught:catch",
                                              "thought:think", "brought:bring", "sold:sell", "told:tell", "spent:spend",
                                              "sent:send", "built:build", "kept:keep", "slept:sleep", "felt:feel",
                                              "held:hold", "sang:sing", "sung:sing", "drew:draw", "grew:grow",
                                              "knew:know", "wore:wear", "spoke:speak", "chose:choose", "broke:break",
                                              "fell:fall", "forgot:forget", "paid:pay", "sat:sit", "stood:stand",
                                              "began:begin", "drank:drink", "children:child", "people:person",
                                              "mice:mouse", "women:woman", "men:man"])
WORD = re.compile(r"[^\W_]+")
POSSESSIVE = re.compile(r"['’]s\b")
SPELLING = {"favourite": "favorite", "colour": "color", "neighbour": "neighbor", "organisation": "organization"}


def words_of(text: str) -> list[str]:
    return WORD.findall(POSSESSIVE.sub("", text.casefold()))


def stem(word: str) -> str:
    """Stemming-lite: enough that "moved", "moving" and "move" meet, and "went" meets "go"."""
    word = IRREGULAR.get(word, word)
    word = SPELLING.get(word, word)
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[:-len(suffix)]
            if suffix in ("ing", "ed") and len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]  # running -> run, shopped -> shop
            break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def stems_of(text: str, drop: Iterable[str] = STOP) -> set[str]:
    dropped = set(drop)
    return {stem(w) for w in words_of(text) if w not in dropped}


def norm(name: str) -> str:
    return " ".join(name.split()).casefold()


def line_at(text: str, at: int) -> str:
    """The line of `text` that its character `at` is on."""
    return text[text.rfind("\n", 0, at) + 1:].split("\n", 1)[0]


def quotations(least: int, single: bool = False) -> re.Pattern:
    """Words between a pair of quotation marks, at least `least` characters: "…" or “…”; `single`, also ‘…’ and '…'
    within a line and 100 characters (an apostrophe inside a word, "neighbour's", is no mark; nor is one after a word,
    "the kids' room", which may end a long draft's single quotes early). Each match is one mark, the words, one mark."""
    pattern = rf'"[^"]{{{least},}}"|“[^”]{{{least},}}”'
    marks = rf"|(?<!\w)[‘'](?:(?![’'\n]).|[’'](?=\w)){{{least},100}}?[’'](?!\w)"
    return re.compile(pattern + marks if single else pattern)


GERUNDS = {"go": "going", "run": "running", "swim": "swimming", "get": "getting", "shop": "shopping", "sit": "sitting",
           "see": "seeing", "be": "being", "have": "having"}


def gerund(verb: str) -> str:
    """A verb's -ing form: "restore" -> "restoring", "repair" -> "repairing", "swim" -> "swimming"."""
    if verb in GERUNDS:
        return GERUNDS[verb]
    return (verb[:-1] if verb.endswith("e") and not verb.endswith("ee") else verb) + "ing"
