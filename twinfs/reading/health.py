"""What a first-person sentence says of the speaker's body: the diet they keep, what they are allergic to, the
conditions they live with ("I've been veg since grade 9", "I have a shellfish allergy", "my knees are bad"). `text`
is the sentence's tokens joined by single spaces ("I 'm"), `low` it lower-cased."""
from __future__ import annotations

import re

from .lexicon import CONDITION, DIETS, HEALTH
from .values import VERB_STOP, as_spelled, cut_value

# health said as what one is: "I'm hard of hearing", "I'm coeliac"
ADJECTIVAL_HEALTH = (r"(?:colou?r-?blind|deaf|dyslexic|(?:type [12] |pre-?)?diabetic|coeliac|celiac|anaemic|anemic|"
                     r"(?:lactose|gluten|dairy) intolerant|"
                     r"immunocompromised|epileptic|asthmatic|autistic|hard of hearing|partially sighted|"
                     r"blind in one eye)")


def health(text: str, low: str) -> list[tuple[str, str]]:
    """The (attribute, value) pairs of diet, allergy and health the sentence states of its speaker."""
    found: list[tuple[str, str]] = []

    def add(attribute: str, value: str | None) -> None:
        if value:
            found.append((attribute, value))

    m = re.search(r"\b(?:i|we) (?:'m |am |'ve been |have been |went |became |'re |are |'ve (?:recently |just )?gone |"
                  r"have (?:recently |just )?gone |recently went |just went |turned )(?:a |now |mostly |strictly |"
                  r"fully |still )?(" + "|".join(sorted(DIETS, key=len, reverse=True)) + r"|veg)\b", low)
    if m:
        add("diet", m.group(1))  # "I've been veg since grade 9": said of oneself, "veg" is the diet
    m = re.search(r"\b(?:i|we)(?: 'm| am| 're| are|'ve been| have been)(?: now| still| currently| strictly)? on an? "
                  r"(?:strict |new )?(" + "|".join(sorted(DIETS, key=len, reverse=True)) + r"|low-carb|low-fodmap|"
                  r"mediterranean) diet\b", low)  # "I'm on a keto diet at the moment"
    if m:
        add("diet", m.group(1))
    m = re.search(r"\bi (?:just |simply |really )?(?:(?:ca n't|can't|cannot|no longer|never) (?:have|eat|drink|do)|"
                  r"(?:do n't|don't|do not) (?:eat|drink)) ([\w -]+)", low)  # "I can't have dairy", not "I don't have
    # plans"
    if m and (value := cut_value(m.group(1), 3)) and re.match(r"(?:at all|anymore|any more)\b", value):
        value = "alcohol" if m.group(0).endswith(" drink " + m.group(1)) else None  # "I don't drink at all"
    if m and value and not VERB_STOP.match(value) and not re.match(r"(?:much|a lot|really|either|too)\b", value):
        allergy = re.search(r"\ballergic to (?:them|it)\b", low[m.end():])  # "… tomatoes - I'm allergic to them"
        add("allergy" if allergy else "diet", value if allergy else f"no {value}")
    m = re.search(r"\bi (?:'ve |have )?(?:started|stopped|quit|gave up) (eating|drinking) ([\w -]+)", low)
    if m and (value := cut_value(m.group(2), 3)):
        add("diet", ("no " if re.search(r"stopped|quit|gave up", m.group(0)) else "eats " if m.group(1) == "eating"
                     else "drinks ") + value)
    m = re.search(r"\b(?:i|we) (?:[^.;!?]{0,40}? and )?(?:only |strictly |mostly |always |just )?(?:eats?|keeps?) "
                  r"(?:only |strictly |mostly |fully )?(" + "|".join(sorted(DIETS)) + r")\b", low)
    if m:
        add("diet", m.group(1))  # "We eat halal", "I'm coeliac and eat strictly gluten-free"
    m = re.search(r"\bi(?: 'm| am) (?:(?:trying to cut|cutting) (?:down|back) on|(off))(?: the)? (salt|sugar|"
                  r"red meat|meat|dairy|gluten|alcohol|booze|caffeine|coffee|carbs|fried food|sweets)\b", low)
    if m:  # "I am cutting down on salt now", "I'm off sugar for good"
        add("diet", f"off {m.group(2)}" if m.group(1) else f"cutting down on {m.group(2)}")
    m = re.search(r"\bi (?:have|'ve got|have got) (?:an? |a bad |a severe |a mild )?([a-z]+(?: [a-z]+)?) allergy\b",
                  low)
    if m and not re.match(r"(?:bad|severe|mild|food|an|the|my)$", m.group(1)):
        add("allergy", m.group(1))  # "I have a shellfish allergy"
    m = re.search(r"\bi(?: 'm| am)? (?:also |really |severely |very |actually )?allergic (?:to|for|of|on) ([\w ,'-]+)",
                  low) or re.search(r"(?:^|\bi have |, )no (?:known )?allergies,? (?:except|apart from|other than|but) "
                                    r"(?:for )?([\w ,'-]+)", low)  # "No allergies except hazelnuts"
    if m and not re.match(r"(?:(?:my|the) )?(?:mornings?|evenings?|mondays?|work|job|boss|exams?|homework|people|life|"
                          r"effort|exercise|chores)\b", m.group(1)):
        said = re.split(r" and (?=(?:i|also|always|so|carry|have|take|need|keep|use|must|can|get)\b)", m.group(1))[0]
        for allergen in re.split(r",? and to |, to ", cut_value(said, 5) or ""):  # "to shrimp and to aspirin"; not
            # "bee stings and carry an EpiPen": what follows "and" with a verb is another clause
            add("allergy", allergen)  # not "allergic to mornings without coffee": a joke
    conditions = "|".join(sorted(HEALTH, key=len, reverse=True))
    m = re.search(r"\bi (?:have|'ve got|'ve|get|got|(?:was|got|'ve been|have been) diagnosed with|suffer from|"
                  r"struggle with|live with) (?:an? )?((?:type [12] |chronic |mild |severe |bad )?(?:" + conditions
                  + r"|"
                  + CONDITION + r"))\b", low) \
        or re.search(r"\b(?:of|with|for|about|on|since) my ((?:type [12] |chronic )?(?:" + conditions + r"))\b", low) \
        or re.search(r"\bmy \w+ (?:is|are|get|gets) (?:\w+ )?(?:stiff|sore|swollen|bad) with ((?:" + conditions + r"|"
                     + CONDITION + r"))\b", low) \
        or re.search(r"\bmy (?:hands|skin|feet|face|scalp|eyes|lips) (?:gets?|break out in|breaks out in) ((?:"
                     + conditions + r"))\b", low)  # "my thumbs are stiff with osteoarthritis", "my hands get eczema"
    if m and (len(m.group(1)) > 3 or m.group(1) in HEALTH - {"ms"}):  # "I've got IBS"
        add("health", (as_spelled(m.group(1), text) or "").replace(" 's", "'s"))  # "ADHD", "Crohn's" as said;
        # "because of my high blood pressure"
        more = re.match(r"[^.;,]*? and (?:an? )?((?:type [12] )?(?:" + conditions + r"))\b", low[m.end():])
        if more:  # "I have arthritis in both knees and high cholesterol"
            add("health", as_spelled(more.group(1), text) or more.group(1))
    m = re.search(r"\bi(?: 'm| am) (?:also |partially |completely |severely |borderline |mildly |slightly |an? |"
                  r"red-green )?("
                  + ADJECTIVAL_HEALTH + r")\b", low)
    if m:
        add("health", m.group(1))  # "I'm colorblind, so please avoid red-green charts"
    m = re.search(r"\bmy ((?:left |right |lower |upper )?(?:knees?|back|hips?|shoulders?|ankles?|wrists?|neck|joints|"
                  r"eyesight|hearing)) (?:is|are|gets|get|'s|'re|has always been|have always been) (?:really |pretty |"
                  r"very |a bit |so |quite |always )?(bad|stiff|weak|dodgy|terrible|shot)\b", low)
    if m:  # "my knees are bad", "my lower back gets really stiff"
        add("health", f"{m.group(2)} {m.group(1)}")
    m = re.search(r"\bi(?: 've| have)(?: got)? an? ((?:bad|stiff|weak|dodgy|bum|gammy|sore|dicky|wonky) "
                  r"(?:left |right |lower |upper )?(?:knee|back|hip|shoulder|ankle|wrist|neck))\b", low)
    if m:  # "I've a dodgy left knee since an old hurling injury"
        add("health", m.group(1))
    m = re.search(r"\bi (?:have|'ve got|have got|get|suffer from|suffer with) (?:bad |terrible |awful |mild )?"
                  r"(hay ?fever)\b", low) \
        or re.search(r"\bmy (hay ?fever|" + conditions + r") (?:is|'s|has been) (?:really |so |absolutely )?(?:killing "
                     r"me|playing up|acting up|flaring up|flaring|bad|terrible|awful|horrendous)\b", low)
    if m:  # "plus my hay fever is killing me", "my eczema is flaring up"
        add("allergy" if m.group(1).startswith("hay") else "health", as_spelled(m.group(1), text))
    m = re.search(r"\bi(?: 'm| am| 've been| have been)(?: now| also| still)? on ((?:metformin|insulin|statins?|"
                  r"antidepressants|beta blockers|blood thinners|warfarin|levothyroxine|sertraline|[a-z]+(?:olol|pril|"
                  r"statin|prazole|sartan|formin))\b)", low)
    if m:
        add("health", f"on {m.group(1)}")  # "I'm on metformin since August"
    m = re.search(r"\bi (?:also |still |always )?fast (on (?:\w+days?)(?:,? (?:and )?\w+days?)*|(?:in|during|for) "
                  r"(?:ramadan|lent))\b", low)
    if m:
        add("diet", "fasts " + (as_spelled(m.group(1), text) or m.group(1)))  # "I fast on Wednesdays and Fridays"
    m = re.search(r"\bi (?:have|'ve got|have got) (?:a |some )?(?:bad |big |little |small )?problems? with my "
                  r"((?:left |right |lower |upper )?(?:back|knees?|hips?|shoulders?|neck|heart|stomach|eyes|hearing|"
                  r"joints))\b", low)
    if m:  # "I have problem with my back (disc hernia)": a learner's English
        add("health", f"problem with my {m.group(1)}")
    if re.search(r"(?:^|[.,;:!?] |\b(?:also|and|but|so) )i (?:also |still |do )?snore\b", low):
        add("health", "snores")  # "Also I snore, sorry in advance to other guests"; not "my husband says I snore"
    if re.search(r"\bi(?: 'm| am)(?: now)? an? non-?smoker\b", low):
        add("health", "non-smoker")  # "I am a non-smoker since 1999"
    m = re.search(r"\bi(?: 'm| am)(?: now)? ((?:\d{1,2} (?:wks|weeks|months) )?pregnant)\b", low)
    if m:
        add("health", m.group(1))  # "(I'm 21 wks pregnant)"
    m = re.search(r"\bi(?: 'm| am| 've been| have been)(?: now)? ((?:(?:\d+|a|one|two|three|four|five|six|seven|eight|"
                  r"nine|ten|\w+teen|twenty) (?:years?|months?|weeks?) )?sober)\b", low)
    if m:
        add("health", as_spelled(m.group(1), text))  # "I'm 4 years sober"
    return found
