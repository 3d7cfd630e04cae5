"""What a first-person sentence states of work and study, for the rules reader: job, employer, a job or employer
left (`former_job`, `former_employer`), school. Values are the speaker's words, cut at the clause; a job is named
by its last word ("a welder", "head chef", "a copywriter"), so "I work as hard as a horse" names none."""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from .lexicon import BUSINESS, CAPITAL, DIETS, FIELDS, JOBS, KIN, PASTIME_DOERS
from .values import AT_PLACE, as_spelled, cut_value, proper_name, rejoined, without_the, workplace

if TYPE_CHECKING:
    from spacy.tokens import Token

Pair = tuple[str, str]
# the words that name a place of study ("going to the Apple store" names none)
SCHOOLING = re.compile(r"\b(?:school|college|uni|university|academy|institute|polytechnic|conservatoire)\b", re.I)
# what one goes to that makes its place a place of study: "I go to classes at Folkuniversitetet"
CLASSES = re.compile(r"\b(?:classes|class|courses?|lessons)\b")
# places of work that name a kind of job by themselves: "I've worked in a library for twenty years"
WORKPLACES = (r"(?:library|hospital|school|bank|bakery|shop|bookshop|bookstore|store|restaurant|café|cafe|pub|hotel|"
              r"factory|warehouse|garage|museum|pharmacy|clinic|lab|laboratory|nursery|care home|prison|supermarket|"
              r"call cent(?:re|er)|newsroom|kitchen|salon|gym)")
# capitalised words "work at/for" is followed by that name no employer: a time, oneself, someone met
NOT_EMPLOYERS = {"christmas", "easter", "weekends", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                 "sunday", "mum", "mom", "dad", "myself", "home", "night", "nights", "god", "free"}
NOT_TAUGHT = re.compile(r"(?:\w+ing|myself|them|him|her|us|it)\b")  # no subject: "taught myself", "taught them to swim"
# words ending as a doer's do without being one: "as a team", "together", "as a mother", "a bit older"; and a pastime's
# doer ("I'm an expert hiker now"), but not a university's reader or a cycle courier (an angler, a birdwatcher as were)
NOT_DOERS = {"other", "together", "mother", "father", "brother", "sister", "daughter", "number", "member", "water",
             "power", "order", "corner", "paper", "whatever", "either", "neither", "later", "ever", "never", "color",
             "colour", "favor", "favour", "honor", "honour", "floor", "door", "minor", "major", "error",
             "volunteer", "regular", "customer", "beginner", "believer", "lover", "supporter", "list", "playlist",
             "checklist", "wishlist", "shortlist", "waitlist", "tracklist", "wrist", "mist", "fist", "twist", "gist",
             "exist", "assist", "resist", "insist", "persist", "christian", "indian", "asian", "median", "butter",
             "burger", "ginger", "pepper", "cucumber", "flower", "tower", "summer", "winter", "letter", "weather",
             "leather", "feather", "finger", "counter", "computer", "printer", "sticker", "poster", "charger",
             "heater", "cooler", "blender", "freezer", "dinner", "supper", "river", "silver", "liquor", "mirror",
             "sucker", "older", "younger", "better", "bigger", "happier", "healthier", "fitter", "stronger", "slower",
             "faster", "wiser", "calmer", "busier", "richer", "poorer", "lighter", "heavier", "taller", "smaller",
             *(set(PASTIME_DOERS) - {"reader", "cyclist", "angler", "birdwatcher"})}


def is_job(value: str | None) -> bool:
    """A phrase that names a job by its last word: a known one ("nurse"), or a doer's ("copywriter", "sous-chef")."""
    last = value.lower().split()[-1].split("-")[-1] if value else ""
    return last in JOBS or (re.search(r"(?:er|or|ist|ian)$", last) is not None and last not in NOT_DOERS
                            and last not in DIETS)  # "pescatarian", "vegetarian": a diet


def work(text: str, low: str, named: list[tuple[str, str]], orgs: list[str], ents: dict[str, str]) -> list[Pair]:
    """The (attribute, value) pairs of work and school that `text` states (`low`: it lower-cased; `named`: its
    entities with their labels; `orgs`: the names that can be a workplace)."""
    found: list[Pair] = []

    def add(attribute: str, value: str | None) -> None:
        if value:
            found.append((attribute, value))

    def after(job: str) -> str | None:
        """The workplace said after a job's words: "a nurse at St Mary's Hospital"."""
        at = re.search(re.escape(job), text, re.I)
        return workplace(text[at.start():], orgs) if at else None

    m = re.search(r"\b[Ii](?: 'm| am)? (?:doing|taking|studying|enrolled on|enrolled in) (?:an? |the |my )?"
                  r"((?:[A-Z][\w'-]+ )+)(?:course|degree|diploma|module|programme|program)\b", text)
    if m and SCHOOLING.search(m.group(1)):
        add("school", m.group(1).strip())  # "I'm doing an Open University course in environmental science"
    # work
    m = re.search(r"\b[Ii] (?:'m|am) (?:now |currently )?at ([A-Z][\w&'-]+(?: [A-Z][\w&'-]+)*)(?: now| these days)?,? "
                  r"as an? ([\w -]+)", text)
    if m and is_job(job := cut_value(m.group(2), 4)):
        add("job", job)  # "I'm at Zalando now as a product designer"
        add("employer", m.group(1))
    m = re.match(r"(?:[Aa]n? )?((?:[\w-]+ ){0,2}[\w-]+) by day\b", text)  # a profile's "Civil engineer by day"
    if m and m.group(1).lower().split()[-1] in JOBS:
        add("job", m.group(1)[0].lower() + m.group(1)[1:])
    m = re.search(r"\b(?:i|we|and) (?:'m |am |was |used to |(?:'ve|have)(?: been)? )?(?:work|worked|working|"
                  r"employed)(?: part-time| full-time| part time| full time| freelance| remotely| now| weekends| "
                  r"evenings| nights| shifts)? (as|at|for) "
                  r"(?:an? |the )?([\w '&-]+)", text, re.I)
    past = m is not None and re.search(r"\b(?:was|used to)\b|(?<!'ve )(?<!have )\bworked\b", text[m.start():m.start(1)],
                                       re.I) is not None  # "when I worked at Halfords"; not "I've worked at"
    if m:
        if m.group(1).lower() == "as" and is_job(value := cut_value(AT_PLACE.split(m.group(2))[0], 4)):
            add("job", value)  # "as a welder", not "as hard as a horse" nor "as a team"
            add("employer", workplace(text[m.start(2):], orgs))  # "as a pharmacist at Boots"
        elif (org := next((o for o in orgs if rejoined(m.group(2)).startswith(without_the(o))), None)) and not re.match(
                r" (?:firm|company|office|branch|team|agency|startup|studio|headquarters|site|plant)\b",
                rejoined(m.group(2))[len(without_the(org)):]):
            name = proper_name(m.group(2))  # "Leeds General Infirmary" where the parse saw "Leeds General"
            add("former_employer" if past else "employer",  # "when I worked at Halfords": a workplace that was
                name if name and name.startswith(without_the(org)) else without_the(org))
            # "for Google"; not "for a fintech startup in Berlin", "the London firm"
        elif m.group(1).lower() in ("at", "for") and (name := proper_name(m.group(2))) and not past \
                and not m.group(0).lower().startswith("we") and name.lower() not in KIN \
                and name.lower() not in NOT_EMPLOYERS and (name, "GPE") not in named and (name, "DATE") not in named:
            add("employer", name)  # "I work at Boots", a name the parse did not take for an organisation
    m = re.search(r"\b[Ii](?: 'm| am)(?: now| currently)? (?:contracted|employed) (?:to|by|with) (?:the )?"
                  r"((?:[a-z]{1,2})?[A-Z][\w&'-]*(?: [A-Z][\w&'-]*)*)", text)
    if m:
        add("employer", m.group(1))  # "I'm contracted to eThekwini Municipality for callouts"
    m = re.search(r"\bmy (?:work|job|office|day job) (?:at|with) (?:the )?"
                  r"([A-Z][\w&'-]*(?: [A-Z][\w&'-]*)*)", text)
    if m and m.group(1) not in ("I", "Christmas") and not re.search(r"\b(?:lost|lose|losing|quit|quitting|left|leave|"
                                                                    r"leaving)\s+$", text[:m.start()], re.I):
        add("employer", m.group(1))  # "Priya & Omar (from my work at Radio-Canada)"; not "lost my job at …"
    m = re.search(r"\b(?:i (?:also )?|plus |and )((?:dj|do|make|sell|teach|tutor|write|design|build|fix|repair|bake|"
                  r"paint|photograph|shoot|edit|translate|cater|clean|coach|drive|deliver|freelance)\b[\w' -]{2,40}?) "
                  r"on the side\b", text, re.I)
    if m:
        add("job", m.group(1))  # "I DJ weddings on the side", "(plus freelance 3D renders on the side)"
    m = re.search(r"\b(?:i|we) (?:'m |am |still |now )*(?:work|working) (?:full[- ]time |part[- ]time )?in (" + FIELDS
                  + r")\b", low)
    if m:
        add("job", "works in " + (as_spelled(m.group(1), text) or m.group(1)))  # "I work in marketing"
        if re.match(r" (?:at|for) ", low[m.end():]):
            add("employer", workplace(text[m.end():], orgs))  # "I work full time in payroll at Sheffield City Council"
    m = re.search(r"\bi(?: 'm| am)(?: now| currently)? an? (stay-at-home|stay at home|full-time) (mum|mom|dad|parent|"
                  r"mother|father)\b", low)
    if m:
        add("job", f"{m.group(1).replace(' ', '-')} {m.group(2)}")  # "I'm a stay-at-home dad of three"
    if re.search(r"\bi(?: 'm| am)(?: now| fully| happily| semi-?)? retired\b(?! from)", low):
        add("job", "retired")  # "I'm retired" (what one retired from is `former`: assertion.gate)
    m = re.search(r"\bi (?:'m |am )?(?:work|working|do|doing)\b[\w ']{0,40}? as an? ([\w -]+)", low) \
        or re.search(r"\bi (?:'m |am )?(?:\w+ )?(?:earn|earning|make|making|get paid|am paid|'m paid)\b[^.;!?]{0,40}? "
                     r"as an? ([\w -]+)", low) \
        or re.search(r"\b(?:day|week|morning) in my life as an? ([\w -]+)", low)  # "I earn about ₦650,000 a
    # month as a QA engineer at Brightwave", "a day in my life as a chocolatier here in George Town"
    if m and (value := cut_value(AT_PLACE.split(m.group(1))[0], 3)) and is_job(value):
        add("job", as_spelled(value, text))  # "I work night shifts at the hospital as a nurse"
        add("employer", workplace(text[m.start(1) + low[m.start(1):].find(value.lower()):], orgs))
    m = re.search(r"\b[Ii] (?:'m |am )?(?:also |still |now )?(drive|deliver|ride|cook|clean|code|write|build|fix|"
                  r"repair) ((?:an? |the )?(?:[a-z0-9]+ ){0,2}[a-z]+) for (?:the )?([A-Z][\w .'&-]+)", text)
    org = next((o for o in orgs if m.group(3).startswith(without_the(o))), None) if m else None
    if m and org:  # "I drive a streetcar for the TTC", "i deliver food for Kai Dash"
        add("job", f"{m.group(1)}s {m.group(2)}")
        add("employer", without_the(org))
    m = re.search(r"\b[Ii] (?:'m |am )?(?:also |still |now )?(drive|operate) ((?:an? |the )(?!pickup)(?:[a-z-]+ ){0,2}?"
                  r"(?:bus|tram|streetcar|taxi|cab|lorry|truck|forklift|crane|ambulance|train|tractor|excavator|digger|"
                  r"bulldozer|minibus|ferry))\b(?! (?:to|into) )", text)
    if m:  # "I drive a tour bus in the summer", "I operate a gantry crane": a job, not "a Ford truck" to work
        add("job", f"{m.group(1)}s {m.group(2)}")
    m = re.search(r"\b(?:started|starting|start|got|landed|took|accepted|began|begin|beginning) (?:a |my |the )?"
                  r"(?:new |first )?(?:job|position|role|gig|post) as (?:an? |the )?([\w '-]+)", text, re.I)
    if m:
        add("job", cut_value(AT_PLACE.split(m.group(1))[0], 4))
        add("employer", workplace(text[m.start(1):], orgs))  # "a new job as a pharmacist at Boots"
    m = re.search(r"\b(?:i|we) (?:'ve |have |just )*(?:got|landed|started|start|found) (?:a |my )?(?:new |first )?"
                  r"(?:job|position) (?:at|in) (an? |the )((?:[a-z]+ )?" + WORKPLACES + r")\b", text, re.I)
    if m:
        add("job", f"works in {m.group(1).lower()}{m.group(2)}")  # "I got a new job at the hospital"
    m = re.search(r"\b(?:started|starting|got|landed|took|accepted|began) (?:a |my |the )?(?:new |first )?(?:job|"
                  r"position|role|post) (?:at|with) (?:the )?([A-Z][\w .'&-]+)", text)
    if m and (org := next((o for o in orgs if m.group(1).startswith(o)), None) or proper_name(m.group(1))):
        add("employer", org)  # "I got a job at Boots"
    m = re.search(r"\bi (?:'ve |have |just |finally |recently )*(?:got |been |was |am |'m )?(?:just |finally )?"
                  r"promoted to (?:an? |the )?([\w '-]+)", text, re.I)
    value = cut_value(re.split(r" (?:at|for|in|with) ", m.group(1))[0], 4) if m else None
    if m and value and (is_job(value) or re.match(r"(?:head|director|chief|vp) of ", value, re.I)):
        add("job", value)  # "I just got promoted to senior designer at Figma", "… to head of product"
        add("employer", workplace(text[m.start(1):], orgs))
    m = re.search(r"\b(?:i|we) (?:'ve |have |just |recently )*(?:joined|join) (?:the )?([A-Z][\w .'&-]+?) as "
                  r"(?:an? |the )?([\w '-]+)", text, re.I)
    if m and (org := next((o for o in orgs if m.group(1).startswith(o)), None) or proper_name(m.group(1))):
        add("job", cut_value(AT_PLACE.split(m.group(2))[0], 4))  # "I joined Acme Corp as a designer"
        add("employer", org)
    m = re.search(r"\b(?:i|we) (?:'m |am |'ve |have )?(?:teach|teaching|(?<=ve )taught) ([\w -]+?)(?: to [\w -]+?)? "
                  r"(?:at|in) (an? |the )?"
                  r"((?:[\w-]+ )?(?:school|college|university|academy|uni|institute)(?: in [A-Z][\w'-]+)?)",
                  text, re.I) \
        or re.search(r"\b(?:i|we) (?:'m |am )?(?:teach|teaching) ((?:[a-z]+ )?[a-z]+)(?:$|(?=[,;] (?:and|but|so) ))",
                     text, re.I)  # "I teach mathematics in a secondary school in Newcastle", "I teach maths, and …"
    if m and not NOT_TAUGHT.match(m.group(1)):
        add("job", "teaches " + (cut_value(m.group(1), 3) or m.group(1)))
        if m.lastindex and m.lastindex >= 3 and not text[m.end():].startswith(" of ") and not (
                (m.group(2) or "").lower().startswith("a") and " in " not in m.group(3)):
            # "a school in Leicester", "the University of Leeds" (the pattern below); not "a university here"
            add("employer", m.group(3))  # "at the University of Leeds", not "at a university here"
    m = re.search(r"\b[Ii] (?:'m |am )?(?:also |still |now )?(teach|teaching|lecture|lecturing) (in )?"
                  r"((?:\d(?:st|nd|rd|th) )?[a-z]+(?: [a-z]+)?) at (?:the )?(" + CAPITAL + r"[\w .'&-]+)", text)
    # "I teach biology at Escola Garrett", "I teach 4th class at Scoil Íde"
    if m and (m.group(2) or not NOT_TAUGHT.match(m.group(3))) \
            and not re.match(r"(?:my|our|a|an|the|kids|children|people|classes)\b", m.group(3)):
        # "lecture in boatbuilding": a gerund in a subject's name
        lectures = m.group(1).startswith("lectur")
        add("job", ("lectures in " if lectures else "teaches ") + m.group(3))
        org = next((o for o in orgs if rejoined(m.group(4)).startswith(without_the(o))), None)
        add("employer", without_the(org) if org else proper_name(m.group(4)))
    m = re.search(r"\b(?:i|we) (?:'ve |have |just |recently )*(?:started|starting|began|start) (?:work |out )?as "
                  r"(?:an? |the )?([\w '-]+)", text, re.I)  # "I've just started as a junior developer at …"
    if m and is_job(value := cut_value(AT_PLACE.split(m.group(1))[0], 4)) and not (value or "").endswith("volunteer"):
        add("job", value)
        add("employer", workplace(text[m.start(1):], orgs))
    m = re.search(r"\bi (?:also |still |now |privately )?(?:tutor|coach) ((?:[a-z]+ ){0,2}(?:students|kids|children|"
                  r"pupils|teenagers|adults|people))\b", low)
    if m:
        add("job", "tutor" if "tutor" in m.group(0) else "coach")  # "I also tutor high school students in maths"
    m = re.search(r"\b(?:i|we) taught ((?:[a-z]+ )?[a-z]+) (?:to [\w -]+? )?for (?:[\w-]+ )?(?:years|decades)\b", low)
    if m and not NOT_TAUGHT.match(m.group(1)):
        add("former_job", "taught " + m.group(1))  # "I taught history for thirty-five years": a job that was
    m = re.search(r"\b(?:i|we) (?:(?:'ve|have) been working|(?:'ve|have) worked|work)"
                  r"(?: nights| days| weekends| shifts)? (?:in|at) (an? |the )"
                  r"((?:[a-z]+ )?" + WORKPLACES + r")\b", low)
    if m:
        add("job", f"works in {m.group(1)}{m.group(2)}")  # "I've worked in a library for twenty years"
    m = re.search(r"\b(?:firm|company|studio|agency|shop|practice|startup|business|restaurant|cafe|café|bakery|"
                  r"charity|clinic|lab|school|exporter|importer|publisher|brewery|hotel|chain|supplier|consultancy|"
                  r"manufacturer|distributor|brand|fintech|start-up|nonprofit|non-profit|bank|app) (?:called|named) "
                  r"([A-Z][\w'&-]*(?: [A-Z][\w'&-]*)*)", text)
    if m and re.search(r"\b(?:i|we) (?:'m |am |now |still |'ve |have |just )*(?:work|working|worked|started (?:work )?"
                       r"as)\b", text, re.I) or m and any(is_job(j.group(1)) for j in re.finditer(
                           r"\b[Ii] (?:'m|am) (?:now |currently |still )?an? ([\w-]+(?: [\w-]+)?) at an? ",
                           text[:m.start()])):
        add("employer", m.group(1))
    m = re.search(r"\b(?:lost|quit|left) my (?:secure )?(?:job|position|9-5|gig) (as|at) (?:an? |the )?([\w '&-]+)",
                  text, re.I)
    if m:
        add("former_job" if m.group(1).lower() == "as" else "former_employer",  # a job lost is not held now
            cut_value(AT_PLACE.split(m.group(2))[0], 4))
    m = re.search(r"\bmy (?:secure )?(?:job|9-5|gig|work) as (?:an? |the )?([\w '-]+)", text, re.I)
    if m and not re.search(r"\b(?:lost|quit|left)\s+$", text[:m.start()], re.I):
        add("job", cut_value(AT_PLACE.split(m.group(1))[0], 4))
    m = re.search(r"\b(?i:i(?: 'm| am| 've been| have been)(?: now| still| also| just| currently)? "
                  r"(?:the |(?!an? |now |still |also |just |currently |\w+ing )))"
                  r"((?:[\w-]+ ){0,2}?[\w-]+) (?:at|for) (?:the )?[A-Z]", text)
    if m and is_job(m.group(1)) and m.group(1).split()[0].lower() not in ("only", "first", "last", "one"):
        add("job", m.group(1))  # "I've been the booking office supervisor at the CalMac terminal since 2009": a job
        add("employer", after(m.group(1)))  # with "the" (or none: "I am hospital porter at Bradford Royal Infirmary")
        # only at a named place (not "the cook at home")
    m = re.search(r"\bi( 'm| am| was| became| 've been| have been| used to be)(?: now| still| also| just| currently|"
                  r" only)? "
                  r"(?:an? )"
                  r"([\w -]+)", low)
    past = m is not None and m.group(1) in (" was", " used to be")  # "I was a nurse for ten years": a job that was
    if m and past and re.search(r"\b(?:when|while|as|since|before|after|if)\s*$", low[:m.start()]):
        m = None  # "… when I was a student": the time of something else
    if m and re.match(r"(?:keen|avid|amateur|hobby|weekend|hobbyist|enthusiastic) |(?:real |true |good )?team player\b",
                      m.group(2)):
        m = None  # "I'm a keen street photographer on Sunday afternoons": a pastime (tastes.py), not work; "I'm a
        # team player": a way of working
    if m:
        words = re.split(r" (?:and|but|so|or|who|which|because) ", re.sub(r"^\d{1,3} ?[- ] ?years? ?[- ] ?old ", "",
                                                                          m.group(2)))[0].split()  # "a 29-year-old
        # nurse": the age apart; "a nurse and I volunteer at …": the job before the clause after it
        said = words[:next((i for i, w in enumerate(words) if w in ("at", "for", "with", "in", "from")), len(words))]
        for n in (2, 1):  # the job's words before where it is done ("an audiologist at Leeds Teaching Hospitals")
            hits = [i for i in range(min(3, len(said) - n + 1)) if " ".join(said[i:i + n]) in JOBS
                    or said[i + n - 1].split("-")[-1] in JOBS]  # "a sous-chef"
            if hits:
                job = " ".join(said[:hits[0] + n])
                add("former_job" if past else "job", job)
                studies = said[hits[0] + n - 1] in ("student", "pupil", "undergrad", "undergraduate", "postgrad")
                add(("former_school" if past else "school") if studies else ("former_employer" if past else "employer"),
                    after(job))  # "a student at UBC": a school, no employer
                break
        else:  # a doer the lexicon does not list, said with where or as a living: "I'm a cataloguer at the university
            # library", "I'm a commercial beekeeper full time", "I'm a professional snake remover"
            at = re.match(r"((?:[\w-]+ ){0,2}?[\w-]+) (?:at|for) (?:the |an? )?\w", m.group(2)) \
                or re.match(r"((?:[\w-]+ ){0,2}?[\w-]+) (?:full[- ]time|part[- ]time|by trade|for a living|"
                            r"now\b(?! that)|(?:\w+ ){1,2}(?:days|nights|shifts) a week)\b",
                            m.group(2)) \
                or re.match(r"((?:professional|qualified|certified|licensed|registered|trainee|freelance) (?:[\w-]+ )?"
                            r"[\w-]+)(?=[,.;!]|$| (?:and|but|since|for|who)\b)", m.group(2)) \
                or re.match(r"((?:[\w-]+ )?[\w-]+(?:ist|ian|er|or)) in (?=[a-z])", " ".join(words) + " ")
            if at and " in " in at.group(0) and not re.search(rf"(?i:{re.escape(at.group(1))}) in [A-Z]", text):
                at = None  # "a 31-year-old ceramicist in Addis Ababa": a doer where they live; not "a believer in
                # karma"
            if at and re.search(r"(?:worr|overthink|procrastinat|napp|complain|snack|sleep|eat)\w*$", at.group(1)):
                at = None  # "I'm a professional worrier": a joke
            if at and not past and is_job(at.group(1)) \
                    and not re.match(r"(?:big|huge|great|firm|strong) ", at.group(1)):
                add("job", at.group(1))
                add("employer", after(at.group(1)))
    m = re.search(r"\b[Ii] (?:also |now |still )?manage (the|a|an) ((?:[a-z]+ ){0,2}?[a-z]+) (?:at|for) (?:the )?[A-Z]",
                  text)
    if m and m.group(2).split()[-1] not in ("time", "money", "budget", "diabetes", "condition", "pain", "symptoms"):
        add("job", f"manages {m.group(1)} {m.group(2)}")  # "I manage the cafeteria at Grissom High"
        add("employer", proper_name(text[m.end() - 1:]))
    m = re.search(r"\b[Ii](?: 'm| am) (?:now )?((?:[a-z-]+ ){0,2}[a-z-]*(?:visor|ator|ist|handler|leader|keeper|maker|"
                  r"worker|officer|director|assistant|technician|manager|engineer|driver|nurse)) now\b", text)
    if m and not re.match(r"(?:a|an|the|so|much|more|less|feeling|getting|my|your|his|her)\b", m.group(1)):
        add("job", m.group(1))  # a learner's "since October I am ramp supervisor now"
    m = re.search(rf"\bi(?: 'm| am)? (?:own|run|running|opened|started|launched) (?:my own |a |an |my )"
                  rf"((?:[\w-]+ ){{0,2}}{BUSINESS})\b", low) \
        or re.search(rf"\bmy (?:own )?((?:[\w-]+ )?{BUSINESS})\b(?! (?:membership|pass|card|class|classes|buddy|"
                     r"session|sessions|bag|kit|account|order|bill|loyalty|routine|schedule))", low)  # not "my gym
    # membership"
    if m and not re.search(r"\b(?:want|wanna|going to|gonna|gon na|hope|dream|plan|thinking|looking|find|search|ideal|"
                           r"start|starting|take a shot)",
                           low[:m.start()]):
        add("job", ("owner of an " if m.group(1)[0] in "aeiou" else "owner of a ") + m.group(1).strip())
    m = re.search(r"\b(?:i|we) (?:'m |am |just |recently )?(?:signed|signed up|joined|play|playing|played) "
                  r"(?:with|for) (?:the )?([A-Z][\w .'-]+)", text)
    if m and ents.get("ORG") and ents["ORG"] in m.group(0):
        add("employer", ents["ORG"])

    # school
    m = re.search(r"\b(?:study|studying|studied|go|going|went|graduated|did (?:my|a) [\w']+(?: degree)?|doing (?:my|a) "
                  r"[\w']+(?: degree)?)(?: [a-z']+){0,3}? (?:at|to|from) (?:the )?([A-Z][\w .'&-]+)", text)
    lead = re.search(r"\bi\b(?!.*\bi\b)(.*)$", low[:m.start()]) if m else None  # from the last "I" to the verb
    mine = lead and not re.search(r"\b(?:his|her|their|your|" + "|".join(KIN) + r")\b", lead.group(1))
    # "I'm in my second year studying … at", not "I'm helping my son with his application to study … at"
    said, place = (rejoined(m.group(0)), rejoined(m.group(1))) if m else ("", "")
    if m and re.match(r"go|went", said) and not SCHOOLING.search(place) and not CLASSES.search(said):
        m = None  # "going to the Apple store": a shop, no school; "I go to classes at Folkuniversitetet" one
    if m and mine and (  # "King 's College London" (the tokens joined) as said
            org := next((o for o, label in named if label in ("ORG", "FAC") and o in said), None) or (
                proper_name(place) if re.match(r"did|doing|stud|graduated", said) or CLASSES.search(said) else None)):
        add("school", without_the(org))
    m = re.search(r"\bi (?:'m |am |was )?(?:presently |currently |now |still )?stud(?:y|ying|ied)(?: part-time| "
                  r"full-time)? for an? [\w' -]{2,40}? at (?:the )?([A-Z][\w .'&-]+)", text, re.I) \
        or re.match(r"(?:an? |my )?(?:part-time |full-time )?(?:MBA|MSc|MA|BA|BSc|PhD|LLM|MFA|[Mm]aster ?'s|[Mm]asters|"
                    r"[Dd]egree|[Dd]iploma)\b[^,;]{0,40}? at (?:the )?([A-Z][\w .'&-]+)", text) \
        or re.search(r"\b(?i:i(?: 'm| am)\b[^.;!?]{0,20}? (?:doing|taking|in|completing|finishing|pursuing|"
                     r"enrolled on)\b[^.;!?]{0,50}?\b(?:mba|phd|degree|"
                     r"bachelor|bachelor ?'s|master ?'s|diploma|certificate|course|mfa|msc|ma|ba|bsc|llm|"
                     r"year(?: [a-z]+){0,2})"
                     r"(?: in [\w' -]{1,40}?)?(?:,? (?:at night|in the evenings?|at weekends|on weekends|online))?,?|i "
                     r"(?:already |also |currently |'ve |have |just )*(?:take|attend|started|begun|began|taking|doing|"
                     r"go to|going to) (?:an?|the) [\w -]{0,30}?course|i (?:have|take|do) (?:my )?(?:[\w-]+ ){0,2}"
                     r"(?:class|classes|lessons)) (?:at|through) (?:the )?([A-Z][\w .'&-]+)", text)
    # "I'm studying for a master's … at Johns Hopkins", "- MBA in the evenings at Stockholm School of Economics" (a
    # list's line), "doing a part-time MBA at the University of Lagos", "in first
    # year engineering at the University of Auckland", "I take an evening English course at the Colombo Americano", "I
    # have English class at Conestoga College", "a part-time diploma in food science at night, at USM"
    place = rejoined(m.group(1)) if m else ""
    if m and (org := next((o for o, label in named if label in ("ORG", "FAC") and place.startswith(
            without_the(o))), None) or proper_name(place)):
        add("school", without_the(org))
    return [(a, v) for a, v in found if not (a == "job" and re.search(
        rf"{re.escape(v)} by (?:training|qualification)\b", text, re.I))]  # "a librarian by training, but these days …"


def introduced(text: str, tokens: Iterable[Token]) -> list[Pair]:
    """A job said as a verbless fragment, the speaker describing themself: "Junior analyst at Bord Gáis, 3 yrs now.",
    "Context: pharmacist at Boots for me", "(ICU nurse at the LRI)", "freelance translator, mostly manuals"; or
    with its article left out: "Now I am software tester at TD Bank"."""
    job = r"((?:(?!(?:at|for|with)\b)[\w-]+ ){0,2}[\w-]+)"
    org = r"((?:the )?[A-Z][\w&'-]+(?: [A-Z][\w&'-]+)*)"
    lead = r"(?:\( )?(?:(?i:context|background|so|well|also|oh|and|but) [:,]? ?)?(?:(?i:now|currently),? )?"
    m = re.match(lead + r"(?:I (?:'m|am) (?:now |currently |still )?)?" + job + r"(?: (at|for|with) " + org
                 + r"| ?,| ?\))", text) \
        or re.search(r"\( " + job + r" (at|for) " + org + r"(?: \)|$)", text) \
        or re.search(r", (?i:currently|now) " + job + r" (at|for|with) " + org, text)  # "12 years in logistics,
    # currently senior business analyst at PostNord"; "Now I am software tester at TD Bank", the article left out
    if m is None or not is_job(m.group(1)) or m.group(1).split()[0].lower() in ("my", "our", "his", "her", "their",
                                                                                "the", "a", "an", "your", "as"):
        return []  # "my brother, a nurse": someone else
    before = text[:m.start()].split()[-1:] if m.start() else []
    if before and (before[0].lower() in KIN or before[0][:1].isupper() or before[0].lower() in ("he", "she", "they")):
        return []  # "my brother (nurse at the Royal)": his
    said = {t.text.lower(): (t.pos_, t.ent_type_) for t in tokens}
    words = [said.get(w.lower().split("-")[-1], ("", "")) for w in m.group(1).split()]  # "sous-chef": "chef"
    if any(pos not in ("NOUN", "PROPN", "ADJ") for pos, _ in words) or words[-1][0] != "NOUN" or words[-1][1] in (
            "DATE", "TIME"):
        return []  # a noun phrase of its own: not "Dad works at Arup", "However, …", "From the shelter, two weeks
        # ago", "Next summer, probably"
    if m.group(3) and re.fullmatch(r"(?:the )?(?:\d.*|[A-Z][a-z]+day|noon|midnight)", m.group(3)):
        return [("job", m.group(1))]
    if m.group(3) and m.group(1).lower().split()[-1] in ("mentor", "volunteer"):
        return [("hobby", f"{m.group(1)} {m.group(2)} {m.group(3)}")]  # "Mentor with Code First Girls": unpaid
    return [("job", m.group(1))] + ([("employer", m.group(3))] if m.group(3) else [])


def after_name(text: str) -> list[Pair]:
    """What follows the speaker's name when they introduce themself: "I am Beatriz, 67 years old, a retired nurse,
    38 years at …" -> age 67, job "retired nurse" (each item between commas, up to one that is not either)."""
    m = re.search(r"\b(?:I (?:'m|am)|[Mm]y name is|[Mm]y name 's) [A-ZÀ-Þ][\w'-]+(?: [A-ZÀ-Þ][\w'-]+)?((?: ?, [^,]+)+)",
                  text)
    found: list[Pair] = []
    for item in re.split(r"\s*,\s*", m.group(1).strip(" ,")) if m else []:
        if age := re.fullmatch(r"(\d{1,2})(?: years old| years| yo|yo)?", item):
            found.append(("age", age.group(1)))
        elif (job := re.fullmatch(r"an? ((?:[\w-]+ ){0,3}?[\w-]+)(?: (?:from|in|at|with|for|and) .+)?", item)) \
                and is_job(job.group(1)):
            found.append(("job", job.group(1)))
        else:
            break
    return found


def for_a_living(text: str) -> list[Pair]:
    """A job said as what one does for a living: "I test payment apps for a living" -> "test payment apps"."""
    m = re.search(r"\b[Ii] ((?:[a-z]+)(?: [\w-]+){0,5}?) for a living\b", text)
    return [("job", m.group(1))] if m and not m.group(1).startswith(("do ", "did ", "used ")) else []
