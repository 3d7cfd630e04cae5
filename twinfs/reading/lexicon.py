"""The words that tell kinds of lasting facts apart, for the rules reader: a relative from a pet, a job from a
hobby, a language, a diet, a health condition. Only kinds: every value is the speaker's own words."""
from __future__ import annotations

KIN = {"husband": "partner", "wife": "partner", "partner": "partner", "spouse": "partner",
       "boyfriend": "partner", "girlfriend": "partner", "fiance": "partner", "fiancé": "partner",
       "fiancee": "partner", "fiancée": "partner", "missus": "partner", "missis": "partner", "hubby": "partner",
       "bf": "partner", "other half": "partner",
       "kid": "children", "kids": "children", "child": "children", "children": "children", "son": "son",
       "sons": "son", "daughter": "daughter", "daughters": "daughter", "baby": "children",
       "mom": "mother", "mother": "mother", "mum": "mother", "dad": "father", "father": "father",
       "parents": "parents", "sister": "sister", "sisters": "sister", "brother": "brother", "brothers": "brother",
       "sibling": "sibling", "siblings": "sibling", "grandma": "grandmother", "grandmother": "grandmother",
       "grandpa": "grandfather", "grandfather": "grandfather", "grandparents": "grandparents", "aunt": "aunt",
       "uncle": "uncle", "cousin": "cousin", "niece": "niece", "nephew": "nephew", "stepson": "son",
       "stepdaughter": "daughter", "twins": "children", "bestie": "friend", "best friend": "friend",
       "granddaughter": "granddaughter", "grandson": "grandson", "grandkids": "grandchildren",
       "grandchildren": "grandchildren",
       "grandchild": "grandchild", "granny": "grandmother", "nan": "grandmother", "nana": "grandmother",
       "gran": "grandmother", "grandad": "grandfather", "granddad": "grandfather", "mam": "mother", "ma": "mother",
       "da": "father", "mammy": "mother",
       "auntie": "aunt", "aunty": "aunt", "eldest": "children", "youngest": "children", "oldest": "children",
       "mother-in-law": "mother-in-law", "father-in-law": "father-in-law", "sister-in-law": "sister-in-law",
       "brother-in-law": "brother-in-law", "in-laws": "parents-in-law", "stepmum": "stepmother",
       "stepmom": "stepmother", "stepdad": "stepfather", "half-brother": "brother", "half-sister": "sister",
       # the words for grandparents many English speakers keep from home
       "abuela": "grandmother", "abuelita": "grandmother", "abuelo": "grandfather", "nonna": "grandmother",
       "nonno": "grandfather", "oma": "grandmother", "opa": "grandfather", "babcia": "grandmother",
       "lola": "grandmother", "lolo": "grandfather", "bubbe": "grandmother", "zayde": "grandfather",
       "yiayia": "grandmother", "papou": "grandfather", "kokum": "grandmother", "mosom": "grandfather",
       "nani": "grandmother", "dadi": "grandmother", "halmeoni": "grandmother",
       "mommy": "mother", "mummy": "mother", "mama": "mother", "daddy": "father", "papa": "father",
       "maman": "mother", "mamá": "mother", "papá": "father", "suegra": "mother-in-law", "suegro": "father-in-law",
       "mãe": "mother", "avó": "grandmother", "avô": "grandfather", "esposa": "partner", "esposo": "partner"}
PETS = {"dog", "dogs", "cat", "cats", "puppy", "pup", "mutt", "kitten", "kitty", "rabbit", "bunny", "hamster", "parrot",
        "bird", "fish", "turtle", "turtles", "tortoise", "horse", "pony", "snake", "lizard", "ferret", "gecko",
        "guinea pig", "puppies", "kittens", "greyhound", "labrador", "poodle", "beagle", "terrier", "spaniel",
        "collie", "retriever", "husky", "dachshund", "pug", "bulldog", "corgi", "chihuahua", "whippet", "lurcher",
        "schnauzer", "shiba", "shih tzu", "cockapoo", "labradoodle", "budgie", "canary", "cockatiel", "chinchilla",
        "hedgehog", "goldfish", "axolotl", "jack russell", "elkhound", "staffie", "springer spaniel",
        "cavapoo", "maltese", "greyhounds", "westie", "weimaraner", "vizsla", "dalmatian", "rottweiler", "hen", "hens",
        "staffy", "aspin", "coonhound", "kelpie", "sheepdog", "mastiff", "malamute", "samoyed", "akita", "pomeranian",
        "doberman", "ridgeback", "cockatoo", "lovebird", "macaw", "iguana", "bearded dragon", "tarantula"}
# the words as a pattern's alternatives, the longest first: "best friend" before "friend", "guinea pig" before "pig"
KIN_WORDS = "|".join(sorted(KIN, key=len, reverse=True))
PET_WORDS = "|".join(sorted(PETS, key=len, reverse=True))
JOBS = {"hygienist", "inspector", "dietician", "podcaster", "recruiter", "coordinator", "actuary", "barrister",
        "notary", "orthodontist", "anaesthetist", "anesthetist", "videographer", "stylist", "beautician", "steward",
        "stewardess",
        "nurse", "doctor", "teacher", "engineer", "artist", "counselor", "counsellor", "banker", "student",
        "lawyer", "chef", "cook", "writer", "designer", "developer", "programmer", "manager", "accountant",
        "scientist", "therapist", "painter", "musician", "photographer", "journalist", "pilot", "firefighter",
        "police", "officer", "cop", "soldier", "veteran", "dentist", "pharmacist", "architect", "consultant",
        "entrepreneur", "freelancer", "baker", "barista", "waiter", "waitress", "cashier", "driver", "mechanic",
        "electrician", "plumber", "carpenter", "farmer", "librarian", "professor", "researcher", "analyst",
        "athlete", "player", "coach", "trainer", "instructor", "volunteer", "intern", "secretary", "clerk",
        "actor", "actress", "dancer", "singer", "filmmaker", "screenwriter", "author", "editor", "streamer",
        "gamer", "vet", "tech", "veterinarian", "surgeon", "paramedic", "owner", "founder", "ceo", "tutor",
        "guard", "model", "blogger", "youtuber", "influencer", "producer", "director", "worker", "assistant",
        "specialist", "technician", "administrator", "agent", "broker", "realtor", "caregiver", "illustrator",
        "animator", "translator", "interpreter", "economist", "welder", "miner", "midwife", "pharmacologist",
        "optician", "physiotherapist", "physio", "psychologist", "sociologist", "statistician", "surveyor",
        "solicitor", "attorney", "paralegal", "receptionist", "hairdresser", "barber", "butcher", "florist",
        "gardener", "landscaper", "builder", "roofer", "tailor", "jeweller", "jeweler", "lecturer", "teaching",
        "headteacher", "principal", "coder", "sysadmin", "bartender", "sommelier", "zookeeper", "ranger",
        "courier", "postman", "postwoman", "foreman", "forewoman", "cleaner", "nanny", "childminder", "carer",
        "porter", "dispatcher",
        "trucker", "chauffeur", "housekeeper", "janitor", "caretaker", "fisherman", "sailor", "shopkeeper",
        "salesman", "saleswoman", "bookkeeper", "auditor", "biologist", "chemist", "physicist", "mathematician",
        "geologist", "labourer", "laborer", "bricklayer", "plasterer", "decorator", "locksmith", "joiner",
        "seamstress", "lifeguard", "comedian", "curator", "archivist", "archaeologist", "historian", "sculptor",
        "novelist", "copywriter", "dietitian", "nutritionist", "optometrist", "radiographer", "psychiatrist",
        "chiropractor", "osteopath", "paediatrician", "pediatrician", "doula", "dev", "sparky", "guide",
        "operator"}
# languages one speaks or learns: "I'm learning Portuguese for work" is a language, not a hobby
LANGUAGES = {"english", "spanish", "french", "german", "italian", "portuguese", "dutch", "swedish", "norwegian",
             "danish", "finnish", "polish", "czech", "russian", "ukrainian", "greek", "turkish", "arabic", "hebrew",
             "persian", "farsi", "hindi", "urdu", "bengali", "punjabi", "tamil", "mandarin", "cantonese", "chinese",
             "japanese", "korean", "vietnamese", "thai", "indonesian", "malay", "tagalog", "swahili", "yoruba",
             "igbo", "hausa", "amharic", "zulu", "afrikaans", "irish", "welsh", "gaelic", "catalan", "basque",
             "romanian", "hungarian", "serbian", "croatian", "bulgarian", "latin", "asl", "esperanto", "icelandic",
             "tongan", "samoan", "maori", "fijian", "gujarati", "marathi", "telugu", "kannada", "malayalam", "nepali",
             "sinhala", "khmer", "lao", "burmese", "somali", "tigrinya", "twi", "wolof", "lingala", "quechua",
             "guarani", "kurdish", "pashto", "dari", "armenian", "georgian", "azerbaijani", "kazakh", "uzbek",
             "estonian", "latvian", "lithuanian", "slovak", "slovenian", "albanian", "macedonian", "bosnian",
             "maltese", "luxembourgish", "breton", "cornish", "scots", "yiddish", "creole", "patois", "hokkien",
             "hakka", "taiwanese", "shanghainese", "bsl", "sylheti", "sindhi", "odia", "assamese", "konkani",
             "tulu", "kashmiri", "maithili", "bhojpuri", "chittagonian", "flemish", "frisian", "galician", "sardinian",
             "corsican", "occitan", "romansh", "tibetan", "mongolian", "uyghur", "kyrgyz", "tajik", "turkmen", "tatar",
             "chechen", "belarusian", "faroese", "sami", "inuktitut", "cree", "navajo", "hawaiian", "malagasy",
             "kinyarwanda", "kirundi", "luganda", "shona", "xhosa", "sesotho", "setswana", "oromo", "tamazight",
             "papiamento", "javanese", "sundanese", "cebuano", "ilocano", "hmong", "dzongkha", "dhivehi", "teochew",
             "isizulu", "isixhosa", "sepedi", "tshivenda", "xitsonga", "siswati", "ndebele", "chichewa", "bemba",
             "kikuyu", "ewe", "fante", "fanti", "pidgin", "bisaya", "visayan", "hiligaynon", "kapampangan",
             "filipino"}
# fields one works in: "I work in marketing" is a job; "I work in Leeds" is not
FIELDS = (r"(?:marketing|finance|sales|tech|it|hr|human resources|education|healthcare|health care|retail|construction|"
          r"hospitality|publishing|insurance|accounting|advertising|banking|law|real estate|engineering|research|"
          r"software|journalism|fashion|design|logistics|consulting|government|politics|the nonprofit sector|"
          r"pharma|biotech|manufacturing|film|tv|television|radio|music|theatre|theater|social work|social care|"
          r"customer service|recruitment|pr|public relations|architecture|aviation|nursing|medicine|admin|"
          r"administration|academia|gaming|cybersecurity|data science|payroll|procurement|compliance|catering|"
          r"facilities management|property)")
BUSINESS = (r"(?:store|shop|studio|business|company|restaurant|bakery|cafe|café|salon|gym|startup|agency|bar|firm|"
            r"farm|guesthouse|b&b|vineyard|nursery)")
DIETS = {"vegetarian", "vegan", "pescatarian", "keto", "paleo", "gluten-free", "dairy-free", "kosher", "halal",
         "flexitarian", "plant-based", "pure veg", "eggetarian", "teetotal", "veggie"}
# an intolerance is health (health.ADJECTIVAL_HEALTH)
HEALTH = {"asthma", "diabetes", "anxiety", "depression", "adhd", "migraines", "arthritis", "celiac", "epilepsy",
          "insomnia", "ptsd", "cancer", "high blood pressure", "a bad back", "back pain", "eczema", "autism",
          "coeliac disease", "celiac disease", "crohn's", "crohn's disease", "ibs", "lupus", "ms", "copd",
          "fibromyalgia", "hypertension", "chronic fatigue", "long covid", "dyslexia", "psoriasis", "tinnitus",
          "high cholesterol", "heart disease", "endometriosis", "pcos", "bipolar disorder", "ocd", "stomach ulcer",
          "ulcer", "gout", "sleep apnea", "sleep apnoea", "glaucoma", "osteoporosis", "heart condition",
          "kidney disease", "anaemia", "anemia", "hypothyroidism", "vertigo", "scoliosis", "sciatica"}
# a condition named by its last word, where the lexicon above does not list it: "carpal tunnel", "a herniated disc",
# "lactose intolerance", "tendinitis", "Raynaud's syndrome"
CONDITION = (r"(?:[a-z'-]+ ){0,2}(?:[a-z]+itis|[a-z]+osis|syndrome|disease|disorder|tunnel|disc|hernia|intolerance|"
             r"deficiency|condition|apnoea|apnea)")
STATUS = {"single", "married", "divorced", "engaged", "widowed", "separated"}
NUMBERS = {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}
# what "I'm <NORP>" names besides a nationality: a faith, or a party (not kept: a view, not a fact of the person)
RELIGIONS = {"catholic", "christian", "muslim", "jewish", "hindu", "buddhist", "sikh", "atheist", "agnostic",
             "protestant", "mormon", "orthodox", "quaker", "pagan", "anglican", "baptist", "methodist", "lutheran"}
POLITICS = {"democrat", "republican", "liberal", "conservative", "socialist", "libertarian", "communist", "labour",
            "tory", "green"}
# an age said in words, by its tens: "forty", "thirty-one"
TENS = r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
# the days a thing is done on, said plural: "rec hockey tuesdays"
WEEKLY = ("mondays", "tuesdays", "wednesdays", "thursdays", "fridays", "saturdays", "sundays", "weekends")
# one who does a pastime for its own sake: "a keen tramper", "a sea swimmer" (tastes.DOERS; no job: work.NOT_DOERS)
PASTIME_DOERS = ("runner", "tramper", "hiker", "climber", "cyclist", "swimmer", "reader", "gamer", "surfer", "skier",
                 "golfer", "birder", "birdwatcher", "knitter", "angler", "walker", "rambler", "skater")
# whom one books to see: "a dentist appointment at 4:30", "Physio on Thursday" (plans.APPOINTMENTS, elided.APPOINTMENT)
SEEN = ("dentist", "doctor", "gp", "physio", "optician", "vet", "hairdresser", "barber")
# the words that make an age one of someday: "maybe when I'm 35", "by the time I'm forty"
SOMEDAY = r"\b(?:when|if|until|till|by the time|once|before)\s+"
# a name as written: a capital, then letters, accented ones too ("Inés", "Łukasz", "Émile"), two joined by a hyphen
# ("Jean-Luc", "Bat-Erdene")
CAPITAL = r"[A-ZÀ-ÖØ-ÞĀ-Ž]"  # a capital letter of the Latin alphabets
NAME = CAPITAL + r"[^\W\d_]+(?:-" + CAPITAL + r"[^\W\d_]+)?"
# a pet's name after "named" or "called", with its title: "Mr Banda", "Dr Paws"
PET_NAME = r"(?:(?:Mr|Mrs|Ms|Miss|Dr|Sir|Lady|Lord|Captain|Professor|Prince|Princess)\.? )?" + NAME
