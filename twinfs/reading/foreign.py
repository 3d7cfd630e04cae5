"""First-person statements in the languages people switch into mid-chat (Spanish, Portuguese, French, Italian,
German, Dutch), for the rules reader: "Vivo en Chicago desde 2015, en Pilsen", "trabajo como higienista dental en
Sonrisa Dental Group", "Tengo 33 años", "ich wohne seit fünf Jahren in Manchester, ursprünglich aus Graz", "ik werk
als verpleegkundige", "j'habite à Lyon", "ich bin laktoseintolerant", "mi esposo Andrés". The English parser reads
these words as names, so each phrase is matched as written; the value is the turn's own words, the attribute what
the phrase says. A clause that denies or supposes ("no vivo en", "ich wohne nicht", "si viviera", "wenn ich …")
states nothing.

    stated("Soy Tomás, trabajo como higienista dental en Sonrisa Dental Group")
    # [("job", "higienista dental"), ("employer", "Sonrisa Dental Group")]
"""
from __future__ import annotations

import re

from .lexicon import NAME

PLACE = r"(" + NAME + r"(?:[ -](?:(?:de|del|do|da|am|an der|sur|aan de|op) )?" + NAME + r"){0,3})"
# a place after a verb of living, then perhaps its part of town: "en Chicago desde 2015, en Pilsen"
_HOME = re.compile(r"\b(?i:vivo|vivimos|moro|moramos|habito|abito|j'habite|j’habite|nous habitons|je vis|on vit|"
                   r"(?:ich|wir) (?:wohne|wohnen|lebe|leben)|(?:ik|wij|we) (?:woon|wonen)|ik leef)"
                   r"(?: (?:seit|sinds|desde|depuis|da|há|hace)(?: \w+){1,3}?)? (?i:en|em|no|na|à|a|au|in|en el) "
                   + PLACE + r"(?:(?: (?:desde|seit|sinds|depuis|da) \d{4})?,? (?:en|em|in|à) " + PLACE + r")?")
_HOMETOWN = re.compile(r"\b(?i:soy de|sou de|sono di|je viens de|ich komme aus|ik kom uit|ursprünglich aus|"
                       r"originalmente de|originario de|originaria de|nací en|nasci em|je suis née? à|sono nato a|"
                       r"sono nata a|ich bin in|geboren in|geboren te|born in) " + PLACE)
_BORN_IN = re.compile(r"\b(?i:ich bin in) " + PLACE + r" geboren\b")
_JOB = re.compile(r"\b(?i:trabajo (?:como|de)|trabalho como|je travaille comme|lavoro come|(?:ich )?arbeite als|"
                  r"ik werk als)(?: (?:un|una|um|uma|un|une|ein|eine|een))? ([\w -]{3,40}?)"
                  r"(?: (?:en|em|na|no|chez|presso|bei|bij|at|for|für|voor) (" + NAME + r"(?: " + NAME + r"){0,3}))?"
                  r"(?=[,.;!?\n]| and\b| y\b| e\b| et\b| und\b| en\b| but\b|$)")
_AGE = re.compile(r"\b(?i:tengo|tenho|j'ai|j’ai|ho|ich bin|ik ben) (\d{1,2})(?: (?:años|anos|ans|anni|Jahre|jaar)"
                  r"\b|(?= (?:and|y|e|et|und|en)\b|[,.;!?]|$))")
_DIET = re.compile(r"\b(?:soy|sou|je suis|sono|ich bin|ik ben) ((?:laktoseintolerant|lactose-intolerant|"
                   r"lactoseintolerant|vegetarian[oa]|vegan[oa]|vegetariano|végétarienne?|végane?|vegetarisch|vegan|veganist|"
                   r"Vegetarier(?:in)?|Veganer(?:in)?|celíac[oa]|cœliaque|glutenfrei|intolerante a la lactosa))\b",
                   re.I)
_ALLERGY = re.compile(r"\b(?:soy alérgic[oa] a(?: l[oa]s?)?|sou alérgic[oa] a(?: [oa]s?)?|je suis allergique (?:à|aux?)"
                      r"(?: la| l')?|sono allergic[oa] a(?:l|lla|gli|i)?|ich bin allergisch gegen|ik ben allergisch "
                      r"voor) ([\w -]{3,30}?)(?=[,.;!?\n]| and\b| y\b| e\b| et\b| und\b| en\b|$)", re.I)
_LIKES = re.compile(r"\b(?:me encantan?|me gustan?|adoro|j'adore|j’adore|j'aime|mi piace|ich liebe|ich mag|ik hou van|"
                    r"ik houd van|eu amo)(?: (?:mucho|muchísimo|bastante|beaucoup|molto|sehr|muito))? ([\w -]{3,40}?)"
                    r"(?=[,.;!?\n]| and\b| y\b| e\b| et\b| und\b|$)", re.I)
_DISLIKES = re.compile(r"\b(?:odio|no soporto|detesto|je déteste|je hais|ich hasse|ich mag kein(?:e|en)?|ik haat|"
                       r"non sopporto) ([\w -]{3,40}?)(?=[,.;!?\n]| and\b| y\b| e\b| et\b| und\b| über\b|$)",
                       re.I)
_KIN = {"esposo": "husband", "esposa": "wife", "marido": "husband", "mujer": "wife", "novio": "boyfriend",
        "novia": "girlfriend", "mari": "husband", "femme": "wife", "copain": "boyfriend", "copine": "girlfriend",
        "Mann": "husband", "Frau": "wife", "Freund": "boyfriend", "Freundin": "girlfriend", "man": "husband",
        "vrouw": "wife", "vriend": "boyfriend", "vriendin": "girlfriend", "namorado": "boyfriend",
        "namorada": "girlfriend", "marito": "husband", "moglie": "wife", "ragazzo": "boyfriend",
        "ragazza": "girlfriend",
        "hermano": "brother", "hermana": "sister", "hijo": "son", "hija": "daughter", "madre": "mother",
        "padre": "father", "frère": "brother", "sœur": "sister", "fils": "son", "fille": "daughter",
        "Bruder": "brother", "Schwester": "sister", "Sohn": "son", "Tochter": "daughter", "Mutter": "mother",
        "Vater": "father",
        "broer": "brother", "zus": "sister", "zoon": "son", "dochter": "daughter", "irmão": "brother",
        "irmã": "sister", "filho": "son", "filha": "daughter", "fratello": "brother", "sorella": "sister"}
_PARTNERS = {"husband", "wife", "boyfriend", "girlfriend"}
_RELATIVE = re.compile(r"\b(?i:mi|mis|mon|ma|mein|meine|mijn|meu|minha|mio|mia|il mio|la mia) (" + "|".join(_KIN)
                       + r")(?:,)? (" + NAME + r")\b")
# a pet by its kind, then its name: "tengo una gata, Frida", "wir haben einen Hund namens Bruno"
_PET = re.compile(r"\b(?i:tengo|tenemos|ich habe|wir haben|ik heb|we hebben|j'ai|nous avons|tenho|temos|ho)"
                  r" (?i:un |una |um |uma |einen |eine |ein |een |une )?((?i:perro|perra|gato|gata|hund|katze|kater|"
                  r"hond|kat|chien|chienne|chat|chatte|cachorro|cachorra|gatto|gatta|cane))(?:,| (?i:llamad[oa]|"
                  r"namens|genaamd|chamad[oa]|di nome|qui s'appelle))? (" + NAME + r")\b")
# a clause that denies, supposes or wishes: nothing in it is stated
_NOT = re.compile(r"\b(?:no|nunca|jamás|nicht|nie|niet|nooit|non|não|pas|si|wenn|falls|als ik|if|would|quiero|"
                  r"quisiera|möchte|würde|zou|voudrais|vorrei|gostaria|ojalá|hoffentlich|maybe|quizás|vielleicht|"
                  r"misschien|peut-être|forse|talvez)\b", re.I)
# the words these patterns look for: a sentence without one is not tried
_CUE = re.compile(r"\b(?:vivo|vivimos|moro|moramos|habito|abito|habite|vis|vit|wohne|wohnen|lebe|leben|woon|wonen|leef|"
                  r"soy|sou|sono|viens|komme|kom|ursprünglich|originalmente|originari[oa]|nací|nasci|née?|nat[oa]|"
                  r"geboren|trabajo|trabalho|travaille|lavoro|arbeite|werk|tengo|tenho|ai|ho|bin|ben|suis|encantan?|"
                  r"gustan?|adoro|adore|aime|piace|liebe|mag|hou|houd|amo|odio|soporto|detesto|déteste|hais|hasse|haat|"
                  r"sopporto|mi|mon|ma|mein|meine|mijn|meu|minha|mio|mia|tenemos|habe|haben|heb|hebben|avons|temos)\b",
                  re.I)


def stated(sentence: str) -> list[tuple[str, str]]:
    """The (attribute, value) pairs a sentence's phrases in another language state of its speaker."""
    if not _CUE.search(sentence):
        return []
    found: list[tuple[str, str]] = []

    def add(m: re.Match, attribute: str, group: int = 1) -> None:
        start = max(sentence.rfind(c, 0, m.start()) for c in ",;:.!?\n")  # the clause the phrase is in
        if m.group(group) and not _NOT.search(sentence[start + 1:m.start()] + " " + m.group(0)[:m.group(0).find(
                m.group(group))]) and (attribute, m.group(group)) not in found:
            found.append((attribute, m.group(group).strip()))

    for m in _HOME.finditer(sentence):
        add(m, "home_city")
        add(m, "home_city", 2)
    for m in (*_HOMETOWN.finditer(sentence), *_BORN_IN.finditer(sentence)):
        add(m, "hometown")
    for m in _JOB.finditer(sentence):
        add(m, "job")
        add(m, "employer", 2)
    for pattern, attribute in ((_AGE, "age"), (_DIET, "diet"), (_ALLERGY, "allergy"), (_LIKES, "likes"),
                               (_DISLIKES, "dislikes")):
        for m in pattern.finditer(sentence):
            add(m, attribute)
    for m in _PET.finditer(sentence):
        if not _NOT.search(sentence[max(sentence.rfind(c, 0, m.start()) for c in ",;:.!?\n") + 1:m.start()]):
            found.append(("pet", f"{m.group(1).lower()} named {m.group(2)}"))
    for m in _RELATIVE.finditer(sentence):
        relation = _KIN[m.group(1)]
        add(m, "partner" if relation in _PARTNERS else relation, 2)
    return found
