"""A filled-in form's lines, said as "Label: value": "Occupation: Sous chef", "Allergies: none known except
penicillin", "Emergency contact: Luana Menezes (wife)", "Dependents: Theo (son, 9), Bia (daughter, 6)", and the
same said inline ("dislike: jazz. like: Bach, obviously."), and a renewal's "Address: was Half Way Tree, now Red Hills
Road" (the new value). The label says what the value is, so no sentence around it is needed. A line is the
speaker's own unless its label names someone else ("Dependents' allergies", "Partner's job") or a former thing ("Past
conditions", "Previous employer"), and the form is theirs unless its "Name:" line names someone else.

    facts(line, speaker, turn_text)   # "Languages: Portuguese, English, some Spanish" -> [("language",
                                      #  "Portuguese"), ("language", "English"), ("language", "some Spanish")]
"""
from __future__ import annotations

import re

from .ages import told_age
from .lexicon import KIN, PET_WORDS, PETS

# a label, as said (lower-cased, a trailing "s" and "(s)" taken off) -> the attribute its value is
LABELS = {
    "age": "age", "address": "home_city", "home": "home_city", "home address": "home_city", "location": "home_city",
    "city": "home_city", "current city": "home_city", "lives in": "home_city", "living in": "home_city",
    "based in": "home_city", "based": "home_city", "residence": "home_city", "place of residence": "home_city",
    "originally from": "hometown", "origin": "hometown", "grew up": "hometown",
    "place of birth": "hometown", "birthplace": "hometown", "born in": "hometown", "born": "hometown",
    "hometown": "hometown", "home town": "hometown", "grew up in": "hometown",
    "current address": "home_city", "occupation": "job", "job": "job", "employment": "job",
    "current employment": "job", "profession": "job", "current role": "job", "current position": "job",
    "current job": "job",  # not "Position:" or "Role:" (an application's), nor an e-mail's "From:"
    "current role and organisation": "job", "current role and organization": "job", "role and organisation": "job",
    "job and employer": "job", "job and company": "job",
    "employer": "employer", "current employer": "employer", "company": "employer", "workplace": "employer",
    "works at": "employer",
    "language": "language", "languages spoken": "language", "spoken language": "language", "lang": "language",
    "allergy": "allergy", "allergie": "allergy", "known allergie": "allergy", "drug allergie": "allergy",
    "food allergie": "allergy", "allergic to": "allergy", "allergic": "allergy",
    "condition": "health", "current condition": "health", "medical condition": "health", "health": "health",
    "health condition": "health", "diagnose": "health", "diagnosis": "health", "medical": "health",
    "diet": "diet", "dietary": "diet", "dietary requirement": "diet", "dietary need": "diet",
    "dietary restriction": "diet",
    "hobby": "hobby", "hobbie": "hobby", "interest": "hobby", "pastime": "hobby",
    "like": "likes", "love": "likes", "favourite": "likes", "favorite": "likes",
    "dislike": "dislikes", "hate": "dislikes",
    "pet": "pet", "school": "school", "university": "school", "college": "school", "studying": "school",
    "currently studying": "school", "course": "school",
    "partner": "partner", "spouse": "partner", "husband": "partner", "wife": "partner",
    "emergency contact": "kin", "next of kin": "kin", "ice": "kin", "in case of emergency": "kin",
    "dependent": "kin", "dependant": "kin", "children": "kin",
    "kid": "kin", "child": "kin", "family": "kin", "home base": "home_city", "grandchildren": "kin",
    "grandkid": "kin", "grandson": "kin", "granddaughter": "kin", "plus-one": "kin", "plus one": "kin",
    "travelling with": "kin", "traveling with": "kin", "accompanied by": "kin", "travel companion": "kin",
    # a dating profile's prompts: "My simple pleasures: …", "Dealbreaker: coriander", "Typical Sunday: sea swim"
    "simple pleasure": "likes", "i go crazy for": "likes", "i'm weirdly attracted to": "likes",
    "i geek out on": "likes", "green flag": "likes", "dealbreaker": "dislikes", "most irrational fear": "dislikes",
    "pet peeve": "dislikes", "typical sunday": "hobby", "perfect sunday": "hobby",
    "weekend": "hobby",  # a profile's "Weekends: basketball with the league"
    "things i love": "likes", "things i like": "likes", "things i hate": "dislikes", "things i can't stand": "dislikes",
    # a quiz team's player card: "Day job: vet pathologist", "Home ground: Tartu", "Specialist subjects: birds"
    "day job": "job", "home ground": "home_city", "specialist subject": "likes", "ask me about": "likes",
    "medication": "health", "current medication": "health",
}
TASTES = {"likes", "dislikes", "hobby"}
LISTS = {"language", "allergy", "hobby", "likes", "dislikes", "health", "pet", "kin"}  # a value may list several
LINE = re.compile(r"^\s*(?:[-•*·–]\s*|\d{1,2}[.)]\s+)?(?P<label>[A-Za-z][A-Za-z' /&-]{0,30}?"
                  r"(?: ?\((?:s|[a-z][^)\n]{1,50})\))?)\s*[:?]\s*"
                  r"(?P<value>\S.*?)\s*\.?\s*$")  # "- Job: nurse", "5. Languages: English, Urdu"
# a value's first sentence ("Husband: Hafiz. He'll join sometimes."), past a word that only takes the floor
SAID = re.compile(r"(?<=\w)[.!?]+\s+(?=\S)")
ASIDE = re.compile(r"^(?:forgot|oops|update|right|oh|ok|okay|so|also|and)\W*$", re.I)
NONE = re.compile(r"^(?:none|no|n/?a|nil|nothing|-+|—|not applicable|unknown|no known \w+|nkda?|no (?:pets?|kids|"
                  r"children|allergies|conditions?|partner|issues|problems))\b\W*$|^none (?:coming|here|yet|now|at the "
                  r"moment|currently)\b", re.I)  # "Pets: none coming, our cat stays with the neighbour"
EXCEPT = re.compile(r"^(?:none|nothing|no known \w+)(?: known)?,? (?:except|apart from|other than|but)\s+", re.I)
ONWARD = re.compile(r"\s+(?:since|from|for the past|for|as of)\s+.*$|\s*\([^)]*\)", re.I)  # "low-carb since …"
# what a taste's thing is like, said after it: "least fav: anything with cilantro, tastes like soap"
SENSED = re.compile(r"(?:tastes?|smells?|looks?|sounds?|feels?|makes? me|gives? me)\b", re.I)
FORMER = re.compile(r"\b(?:past|previous|former|prior|old|ex)\b", re.I)
# how much, no item: "Allergies: shellfish, badly", "Conditions: asthma, mild"
FILLER = re.compile(r"^(?:obviously|honestly|mostly|really|too|also|etc|lol|haha|i guess|i think|though|badly|mildly|"
                    r"that's it|that is it|that's all|"
                    r"mild|severely|seriously|slightly|very badly|quite badly|(?:well[- ])?controlled|under control|"
                    r"(?:well[- ])?managed)\W*$", re.I)
CLAUSE = re.compile(r"\b(?:i|is|are|am|was|were|have|has|had|getting|will|would|can)\b|\w'(?:re|m|ve)\b|…|\.\.\.",
                    re.I)
# a renewal's line, the old value then the new: "was Half Way Tree, now Red Hills Road" (the new one holds)
WAS_NOW = re.compile(r"^(?:was|used to be|previously|formerly)\s+.+?[,;]?\s+(?:now|currently|these days)\s*:?\s+(?=\S)",
                     re.I)
SAME = re.compile(r"^(?:no change|unchanged|same(?: as before)?|as before)\s*[—–:-]\s*(?=\S)",
                  re.I)  # "no change — asthma"
ASIDE_AFTER = re.compile(r"\s+[—–]\s+.*$")  # "Red Hills Road, Constant Spring — moved in June"
TIME_ONLY = re.compile(r"^(?:every|each|on|most)?\s*(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|"
                       r"mornings?|evenings?|nights?|day|week|month)\b(?: (?:mornings?|evenings?|nights?))?$", re.I)
BORN_AND_AGE = re.compile(r"^\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}\s*(?:[—–-]|,)\s*(\d{1,3})$")  # a birth date, then the age
# a street of an address: "14 Florida Road", "Flat 2, 9 Elm St"
ADDRESS = re.compile(r"^\d+\w?\s|\b(?:road|rd|street|st|avenue|ave|lane|drive|close|crescent|court|place|terrace|"
                     r"flat|apt|apartment|unit)\b\.?(?:,|$)", re.I)
# a label's words around the one that says what it is: "Area of residence", "Children attending", "Allergy details",
# "Other conditions"
WORDING = re.compile(r"^(?:other|additional) |\s+for (?:club|team|office|work|company|group|the|our) [\w ]+$|"
                     r"^(?:area|place|town|region|county|district) of (?=residence)|"
                     r"\s+(?:attending|coming|details|notes|info|information|if any|\(if any\))$")
EMPLOYMENT = re.compile(r"\s*(?:(?:current )?employment|(?:current )?(?:occupation|job|role|profession)\s*"
                        r"(?:[/&]|and)\s*(?:employer|company|workplace|organi[sz]ation))\s*$", re.I)
# "Current employment: job, employer, city", "Current role and organisation: …": a job, then its employer
# a pet said by its kind, with its name after: "1 cat (Biscuit, sterilised)", "a dog"
KIND = re.compile(r"(?:an?|one|1|my|our)?\s*(?P<kind>" + PET_WORDS + r")\b\s*(?P<after>.*)$", re.I)
ITEM = re.compile(r"^(?P<name>[^()]+?)\s*\((?P<inside>[^)]*)\)$")  # "Theo (son, 9)"
# a relative with their age, and what they do after it: "little Maja (7) mostly does chaos", "Inês (16): surfs"
AGED = re.compile(r"^(?:and |or )?(?:(?:little|baby|big|wee|young|the) )?(?P<name>[A-ZÀ-Þ][\w'-]+)"
                  r"\s*\((?P<inside>\d{1,2})\)")


def facts(line: str, speaker: str, turn_text: str = "") -> list[tuple[str, str]]:
    """The (attribute, value) pairs a labelled line gives its speaker; none when it is not one, names someone else,
    or the form it is part of is someone else's."""
    m = LINE.match(line)
    aged = re.search(r",\s*age[d:]?\s+(\d{1,3})\s*$", m.group("value")) if m and m.group("label").strip().lower() in (
        "name", "full name") else None  # "Name: Suresh Babu Kandukuri, age 46"
    if aged and told_age(aged.group(1)) and _theirs(turn_text, speaker):
        return [("age", aged.group(1))]
    attribute = attribute_of(m.group("label")) if m else None
    if m is None or attribute is None or NONE.match(value := _first_said(m.group("value"))) \
            or not _theirs(turn_text, speaker):  # the whole turn searched only for a form's line
        return []
    value = EXCEPT.sub("", value)
    if WAS_NOW.match(value) or SAME.match(value):
        value = ASIDE_AFTER.sub("", SAME.sub("", WAS_NOW.sub("", value)))
    value = re.sub(r"^(?:yes|yep|yeah|\d{1,2})\s*[-–—:]\s*(?=\S)", "", value, flags=re.I)  # "Yes - Callum Reid
    # (husband)", "2 - Ayo (7) and Zara (4)": the answer, then who
    if attribute == "kin":  # "Dependents: Theo (son, 9)"; "kids: Inês (9), Rafael (6)" their relation in the label
        kind = KIN.get(_core(m.group("label").strip().lower()))  # "Children attending", "Two kids"
        named = re.fullmatch(r"(?:my )?([a-z-]+),? ([A-ZÀ-Þ][\w'-]+(?: [A-ZÀ-Þ][\w'-]+){0,3})", value.strip())
        if named and named.group(1) in KIN:  # "Emergency contact: husband, Lim Jun Hao"
            return [(KIN[named.group(1)], named.group(2))]
        return [pair for item in _items(value) for pair in _relative(item, kind)]
    if attribute in KIN.values() and attribute != "partner":  # "my mum: Graça, 71, comes with us"
        name = value.split(",")[0].strip()
        return [(attribute, name)] if re.fullmatch(r"[A-ZÀ-Ý][\w'-]+(?: [A-ZÀ-Ý][\w'-]+)?", name) else []
    if attribute in ("partner", "age"):
        value = ONWARD.sub("", value.split(",")[0] if attribute == "partner" else value).strip()
        if attribute == "age" and (born := BORN_AND_AGE.match(value)):
            value = born.group(1)  # "Date of birth / age: 14/03/1988 — 38"
        return [(attribute, value)] if value and (attribute != "age" or told_age(value)) else []  # not "Age: ask me"
    if attribute == "pet":  # "Pets: Mochi (cat), Rex (dog)", "Cat: Mochi", "1 cat (Biscuit, 11 yrs)", "a cat, Biscuit"
        kind = m.group("label").strip().lower()
        return [(attribute, _pet(item, kind if kind in PETS else None)) for item in _pets(_items(value))
                if not NONE.match(item) and re.search(r"[^\W\d_]", item)]
    if attribute == "home_city" and ADDRESS.search(value):  # "14 Florida Road, Morningside, Durban (moving out …)"
        return [(attribute, part) for part in _places(value)]
    if attribute in ("job", "employer"):  # "Pharmacist now, switched last year"
        parts = _parts(value)
        if len(parts) > 1 and re.fullmatch(r"(?:my|our) own (?:firm|company|business|practice|studio|shop|agency)",
                                           parts[0], re.I):
            parts = parts[1:]  # "Employer: my own firm, Campbell-Whyte Clearing Ltd"
        value = re.sub(r"\s+(?:now|currently|these days|at the moment)$", "", parts[0])  # "Estúdio Vértice (mine, …)"
        if EMPLOYMENT.match(m.group("label")) and len(parts) > 1 and re.match(r"[A-ZÀ-Þ]", parts[1]):
            return [("job", value), ("employer", parts[1])]  # "Employment: Architectural technologist, Studio Mkhize"
    items = _items(value) if attribute in LISTS or ";" in value else [value]
    if any(re.match(r"me\b", item, re.I) for item in items):  # "diet: me vegetarian; Rafael no nuts"
        items = [re.sub(r"^me\b\W*", "", item, flags=re.I) for item in items if re.match(r"me\b", item, re.I)]
    if items and CLAUSE.search(items[0]):
        return []  # "Languages: Norwegian is my native language, …": sentences, read as said
    items = [item for item in items if not CLAUSE.search(item)]  # "Conditions: asthma, I carry an inhaler"
    if attribute == "language":  # "Pahari with my nan": the language, not whom it is spoken with
        items = [re.sub(r"\s+with (?:my|our|the)\b[^()]*$", "", item) for item in items]
    return [(attribute, cut) for item in items if (cut := ONWARD.sub("", item).strip(" .")) and not FILLER.match(cut)
            and not NONE.match(cut) and not TIME_ONLY.match(cut)
            and not (attribute in TASTES and (re.search(r"\b(?:my|our|me|I)\b", cut) or SENSED.match(cut)))]
    # a taste in the speaker's own words ("roast at my ma's") would read wrongly as the speaker's page says it


def _first_said(value: str) -> str:
    """A value's first sentence that says more than "forgot." or "oh."."""
    said = [v for v in SAID.split(value.strip()) if v.strip()]
    return next((v.strip() for v in said if not ASIDE.match(v.strip())), value.strip())


def attribute_of(label: str) -> str | None:
    """What a label's value is ("Languages" -> "language"); None for no label of a fact, for one naming someone
    else ("Dependents' allergies", "Partner's job") and for a former thing ("Past conditions")."""
    label = re.sub(r"\(s\)$", "", label.strip().lower())
    label = re.sub(r"\s*\((?!s\))[^)]*\)", "", label).strip()  # "Place of birth (for our map of guests!)"
    if "'" in label or FORMER.search(label) or label.startswith(("their ", "his ", "her ")):
        return None
    label = re.sub(r"^my ", "", label)
    if re.search(r"\s/\s", label):  # "Occupation / employer", "Allergies / dietary notes": its first part's
        return next((a for part in re.split(r"\s/\s", label) if (a := attribute_of(part))), None)
    if fav := re.match(r"(least )?(?:fave?|favou?rite)\b", label):  # "fav post-ride food", "least fav"
        return "dislikes" if fav.group(1) else "likes"
    label = _core(label)
    relation = KIN.get(label) if label in KIN and KIN[label] not in ("children", "friend") else None
    return LABELS.get(label) or LABELS.get(label.removesuffix("s")) or relation or ("pet" if label in PETS else None)


def _core(label: str) -> str:
    """A lower-cased label's word without the words around it and the count of what it lists: "area of residence"
    -> "residence", "children attending" -> "children", "two kids" -> "kids", "dad of two" -> "kids"."""
    label = re.sub(r"^(?:one|two|three|four|five|\d) (?=\w)", "", label)
    label = re.sub(r"^(?:mum|mom|mother|dad|father|parent) of (?:one|two|three|four|five|\d)$", "kids", label)
    return WORDING.sub("", label) or label


OWNER = re.compile(r"^(?:[\w ]+?'s?|their|his|her) ")  # "Partner's ", "Dependents' ", "their "


def whose(line: str) -> tuple[str, str] | None:
    """Whose fact a form's line gives, and its label as the holder: ("speaker", "") for "Job: Pharmacist now",
    ("other", "Partner's job") when the label is a fact's label of someone else; None for no form's line of a fact."""
    m = LINE.match(line)
    if m is None:
        return None
    label = m.group("label")
    if OWNER.match(label.lower()) and attribute_of(OWNER.sub("", label.lower())):
        return "other", label
    return ("speaker", "") if facts(line, "", "") else None


def labelled(line: str) -> bool:
    """The line is a form's line: a label of a fact, a colon, a value."""
    m = LINE.match(line)
    return bool(m and attribute_of(m.group("label")))


def _theirs(turn_text: str, speaker: str) -> bool:
    """The form is the speaker's: its "Name:" line (if it has one) holds the speaker's first name (a parent's form
    shares their surname)."""
    m = re.search(r"^\s*(?:full )?name\s*:\s*(.+)$", turn_text, re.I | re.M)
    given = re.findall(r"\w+", speaker.lower())[:1]
    return m is None or not given or given[0] in re.findall(r"\w+", m.group(1).lower()) \
        or not re.search(r"[A-ZÀ-Þ][a-zà-ÿ]", m.group(1))  # "NAME: [hidden]", "Name: me": no one else's


def _items(value: str) -> list[str]:
    """A listed value's items: split at commas, semicolons, "and", "&" and "+", never inside brackets."""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(value):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and ch in ",;":
            items.append(value[start:i])
            start = i + 1
    items.append(value[start:])
    out = []
    for item in items:
        out += re.split(r"\s+(?:and|&|\+)\s+(?![^(]*\))", item.strip())  # "bouldering + film photography"
    return [re.sub(r"^(?:and then|then|plus|also|and)\s+", "", i.strip()) for i in out if i.strip()]  # "then the
    # quiz", "English, Urdu, and Pahari"


def _pets(items: list[str]) -> list[str]:
    """A form's pets, each named once: "1 cat (Biscuit, 11 yrs)" -> "Biscuit (cat)"; "a cat", "Biscuit" -> "Biscuit
    (cat)"."""
    out: list[str] = []
    for item in items:
        m = KIND.match(item)
        named = re.match(r"\(?([A-ZÀ-Þ][\w'-]+)", m.group("after")) if m else None
        if m and named:
            out.append(f"{named.group(1)} ({m.group('kind').lower()})")
        elif out and (kind := KIND.fullmatch(out[-1])) and not kind.group("after") and re.fullmatch(
                r"[A-ZÀ-Þ][\w'-]+", item):
            out[-1] = f"{item} ({kind.group('kind').lower()})"
        else:
            out.append(re.sub(r"^(?:an?|one|1)\s+", "", item) if KIND.fullmatch(item) else item)
    return out


def _places(value: str) -> list[str]:
    """The places of an address, not its street or postcode: "14 Florida Road, Morningside, Durban" -> Morningside,
    Durban."""
    return [re.sub(r"\s+[A-Z]{1,2}\d[\dA-Z]?\s*\d[A-Z]{2}$", "", p) for p in _parts(value)
            if p and not re.match(r"\d", p) and not ADDRESS.search(p) and re.match(r"[A-ZÀ-Þ]", p)]


def _parts(value: str) -> list[str]:
    """A value's parts between commas, without what it says in brackets: "Architectural technologist, Studio
    Mkhize, Durban (until 18 December)" -> the three."""
    return [p.strip() for p in re.sub(r"\s*\([^)]*\)", "", value).split(",")]


def _pet(item: str, kind: str | None) -> str:
    """ "Mochi (cat)", or "Mochi" under a "Cat:" label -> "cat named Mochi"; "two hens" as said."""
    m = ITEM.match(item)
    name, inside = (m.group("name").strip(), m.group("inside").strip().lower()) if m else (item.strip(), "")
    kind = inside if inside in PETS else kind
    return f"{kind} named {name}" if kind and name[:1].isupper() else ONWARD.sub("", item).strip()


def _relative(item: str, kind: str | None = None) -> list[tuple[str, str]]:
    """ "Luana Menezes (wife)" -> ("partner", "Luana Menezes"); "Theo (son, 9)" -> ("son", "Theo"); "Inês (9)"
    under a "kids" label (`kind`) -> ("child", "Inês"); a relative named by no relation word tells nothing."""
    m = ITEM.match(item) or AGED.match(item)
    if not m:
        return []
    words = [w.strip().lower() for w in m.group("inside").split(",")]
    relation = next((w for w in words if w in KIN), None)
    if relation is not None:
        kind = KIN[relation]
    said = re.match(r"(?:my |our )?(?P<kin>[a-z]+) (?=[A-ZÀ-Þ])", m.group("name").strip())  # "daughter Mika (6)"
    if relation is None and said and said.group("kin") in KIN and KIN[said.group("kin")] != "friend":
        relation, kind = said.group("kin"), KIN[said.group("kin")]
    name = re.sub(r"^(?:[a-z]+ )+", "", m.group("name").strip())  # "little Duarte (4)"
    if kind is None or (relation is None and not name[:1].isupper()) \
            or len(m.group("name").split()) - len(name.split()) > 2:  # "another due in May (…)": no one named
        return []
    return [({"children": "child", "grandchildren": "grandchild"}.get(kind, kind) if relation is None else kind, name)]
