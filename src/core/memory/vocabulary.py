"""Memory extraction's vocabulary: names, relations, occupations, times, places and the pattern pieces the
rules are written with."""

from __future__ import annotations

import re

from avatar_service.core.memory.wording import word_set

# A name is one word, then up to two more only when capitalised ("ana" and "Ana Maria Silva", not "ana but").
NAME = r"(?P<name>[^\W\d_][\w'’-]*(?:\s+(?-i:[A-Z])[\w'’-]*){0,2})"
NOT_NAMES = word_set(
    """not a an the secret private unknown none nothing irrelevant too so very here there back fine
good ok okay sorry tired just going trying really also still sure glad happy new from in at on
with called named what whatever anything something nobody when if later tomorrow anytime maybe
whenever now soon again please someone somebody anyone anybody everyone everybody"""
)
# a pet called by its breed or kind: "our beagle, Biscuit", "my ragdoll is 14" (not "lab" or "boxer": they are
# more often something else)
PETS = (
    r"golden retriever|labrador retriever|cocker spaniel|springer spaniel|border collie|jack russell|"
    r"german shepherd|french bulldog|great dane|shih tzu|sausage dog|maine coon|guinea pig|"
    r"beagle|labrador|spaniel|terrier|poodle|cockapoo|cavapoo|labradoodle|goldendoodle|collie|retriever|husky|"
    r"dachshund|pug|greyhound|whippet|lurcher|corgi|schnauzer|chihuahua|westie|bulldog|frenchie|rottweiler|"
    r"doberman|alsatian|staffie|staffy|yorkie|pomeranian|dalmatian|tabby|siamese|ragdoll|sphynx|tortie|"
    r"moggy|tortoise|budgie|gecko|ferret|pony|cockatiel|canary|goldfish"
)
# what "my wife's Brazilian" says is where she is from, not her name
NATIONALITIES = word_set(
    """american british english scottish welsh irish french german dutch belgian spanish portuguese italian greek
    polish czech slovak hungarian romanian bulgarian ukrainian russian swedish norwegian danish finnish icelandic
    swiss austrian turkish brazilian argentinian argentine mexican colombian chilean peruvian venezuelan cuban
    canadian australian kiwi chinese japanese korean vietnamese thai filipino indonesian malaysian indian pakistani
    bangladeshi nepali iranian persian iraqi syrian lebanese israeli egyptian moroccan nigerian ghanaian kenyan
    ethiopian somali jamaican welsh latvian lithuanian estonian croatian serbian slovenian bosnian albanian"""
)
RELATIONS = PETS + "|" + (
    r"(?:mother|father|sister|brother|son|daughter)-in-law|in-laws|stepson|stepdaughter|godson|goddaughter|"
    r"wife|husband|partner|spouse|boyfriend|girlfriend|fianc[eé]e?|son|daughter|kids?|children|child|baby|newborn|"
    r"toddler|teenager|stepdad|stepmum|stepmom|stepfather|stepmother|grandchildren|grandchild|"
    r"mom|mum|mother|dad|father|parents|brother|sister|siblings?|twin|grandma|grandmother|grandpa|nan|nana|granny|"
    r"gran|grandad|granddad|boy|girl|"
    r"grandfather|grandparents|grandson|granddaughter|grandkids|aunt|uncle|cousin|niece|nephew|best friend|"
    # the British words for a friend: "my best mate Hamish", "my mate Jonno" ("mate" after "flatmate" and the rest)
    r"best mate|bestie|"
    r"friend|roommate|flatmate|housemate|boss|manager|colleague|coworker|co-worker|neighbou?r|dog|cat|puppy|"
    r"PA|carer|nanny|childminder|cleaner|tutor|mentor|godmother|godfather|ex|ex-wife|ex-husband|ex-partner|"
    r"kitten|pet|parrot|hamster|rabbit|bunny|horse|turtle|fish|gp|GP|doctor|dentist|physio|therapist|landlord|landlady|"
    r"mate"
)
# "old" as in "my old collie", "my old boss": the one the user has had long, or had before
REL_MOD = (r"(?P<mod>(?:older|younger|little|big|baby|twin|eldest|youngest|oldest|old|step|step-|new|late|"
           r"\d{1,3}-(?:year|month|week)-old)\s?)?")
OCCUPATIONS = (
    r"teacher|nurse|doctor|GP|physician|surgeon|dentist|vet|veterinarian|engineer|developer|programmer|"
    r"designer|lawyer|attorney|accountant|chef|cook|baker|barista|waiter|waitress|bartender|student|"
    r"farmer|architect|pilot|firefighter|police officer|cop|soldier|journalist|writer|author|artist|"
    r"musician|photographer|electrician|plumber|carpenter|mechanic|driver|scientist|researcher|professor|"
    r"lecturer|pharmacist|therapist|psychologist|paramedic|librarian|cashier|consultant|analyst|"
    r"manager|entrepreneur|freelancer|translator|data scientist|product manager|project manager|"
    r"salesperson|realtor|real estate agent|social worker|hairdresser|tailor|economist|biologist|chemist|"
    r"physicist|mathematician|historian|editor|actor|actress|dancer|singer|coach|trainer|personal trainer|"
    r"caregiver|nanny|secretary|receptionist|clerk|banker|investor|miner|fisherman|retiree|intern|"
    r"stay-at-home (?:mom|dad|parent)|homemaker|veteran"
)
# the places people live in, as they say they got one
# (not a villa, a lodge or a boat: rented or bought, those are as often for holidays)
HOMES = (r"house|flat|apartment|home|place|condo|cottage|bungalow|studio|maisonette|terrace|semi|townhouse|farmhouse|"
         r"farm|barn conversion|smallholding|croft|new[- ]build")
DAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
WHEN = (
    rf"(?:every (?:single )?(?:day|morning|afternoon|evening|night|weekend|week|month|year|summer|winter|"
    rf"(?:other )?(?:{DAYS})(?: (?:morning|afternoon|evening|night))?|weekday)|"
    rf"each (?:day|morning|week|(?:{DAYS}))|(?:on )?(?:{DAYS})s(?:(?:,| and| &| or) (?:{DAYS})s)*|"
    rf"on (?:weekends|weekdays|(?:{DAYS}) (?:mornings|afternoons|evenings|nights))|on (?:the )?weekends?|"
    rf"(?:once|twice|three times) a (?:day|week|month|year)|daily|weekly|at \d{{1,2}}(?::\d\d)?\s?(?:am|pm)?"
    rf"(?: every \w+)?)"
)
# and what else says a habit, said of what the user does: "in the mornings", "most days", "on night shifts"
HABIT_WHEN = (
    rf"(?:{WHEN}|in the (?:mornings|afternoons|evenings)|at (?:nights|weekends)|"
    rf"most (?:days|mornings|afternoons|evenings|nights|weekends|weeks)|(?:all day )?on (?:{DAYS})s|"
    rf"(?:on )?(?:night|day|early|late|evening|weekend) shifts|all (?:week|day|weekend)|"
    rf"(?:\d|one|two|three|four|five|six) days a week|"
    rf"(?:before|after) (?:work|school|the school run)|at lunchtimes?|on my lunch(?: break)?|"
    rf"(?:from )?\d{{1,2}}(?::\d\d)?\s?(?:am|pm)? ?(?:till|til|until|to|-|–) ?\d{{1,2}}(?::\d\d)?\s?(?:am|pm)?)"
)
EVENTS = (
    r"(?:[\w'’-]+ )?(?:appointment|interview|meeting|exam|test|flight|class|"
    r"lesson|practice|training|shift|deadline|presentation|date|wedding|trip|surgery|operation|recital|"
    r"concert|match|game|checkup|check-up)"
)
TIME_WORDS = re.compile(
    rf"\b(?:today|tonight|tomorrow|next|this (?:week|weekend|month|year|\w+day)|on (?:{DAYS})|"
    r"on the \d+(?:st|nd|rd|th)?|"
    r"in (?:january|february|march|april|may|june|july|august|september|october|november|december)|"
    r"at \d|every|in \d+ (?:days|weeks|months))\b",
    re.I,
)
MONTH_OR_DATE = re.compile(
    r"\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|\d{1,2}(?:st|nd|rd|th)?)\b",
    re.I,
)
NOT_PLACES = word_set(
    """fear|hope|denial|the moment|the past|the present|a bubble|my head|peace|sin|luxury|poverty|
misery|the now|my dreams|a dream|nights|days|lates|earlies|shifts|part-time|part time|full-time|full time""",
    "|",
)
CHAT_OBJECTS = re.compile(
    r"^(?:it|this|that|these|those|you|your|yours|him|her|them|how|what|when|where|why|which|who|not|"
    r"the idea|"
    r"the way|about|talking|chatting|our (?:conversation|chat|chats|talk|talks|discussion)|here|there|so|too|very|"
    r"a lot|one|both|neither|either|more|less|"
    r"to think|to say|to know|to ask|to see|to hear|the answer|the question|the sound of that|that one)\b",
    re.I,
)
LANGUAGES = (
    r"english|spanish|portuguese|french|german|italian|dutch|russian|polish|ukrainian|chinese|mandarin|"
    r"cantonese|japanese|korean|arabic|hindi|urdu|bengali|turkish|greek|swedish|norwegian|danish|finnish|"
    r"hebrew|persian|farsi|vietnamese|thai|indonesian|malay|tagalog|swahili|czech|romanian|hungarian|catalan"
)
DIETS = (r"(?:a )?(?:vegetarian|vegan|pescatarian|veggie|plant[- ]based|dairy[- ]free)|gluten[- ]free|"
         r"(?:gluten|lactose|\w+) intolerant|coeliac|celiac|"
         r"diabetic|teetotal|kosher|halal")


# conditions people live with or treat: "for my blood pressure", "anything for hay fever?"
CONDITIONS = (
    r"blood pressure|high blood pressure|heart|cholesterol|diabetes|type [12](?: diabetes)?|thyroid|asthma|eczema|"
    r"psoriasis|epilepsy|depression|anxiety|adhd|autism|migraines?|arthritis|hay ?fever|allergies|acid reflux|"
    r"reflux|ibs|crohn'?s|colitis|back pain|chronic pain|insomnia|gout|angina|copd|menopause|endometriosis|"
    r"pcos|sciatica|tinnitus|vertigo|acne|rosacea|psoriatic arthritis|fibromyalgia|ms|parkinson'?s|dementia"
)


def at_most_words(value: str, most: int) -> bool:
    return 0 < len(value.split()) <= most

S = r"(?:'m|’m| am)"  # "I'm" and "I am"
ADV = (
    r"(?:(?:really|absolutely|totally|just|also|do|truly|kind of|kinda|genuinely|honestly|actually|so|still|much|"
    r"far|definitely|generally|usually|always|mostly|much rather)"
    r"\s+)*"
)
V = r"(?P<v>[^,;!?]+)"  # up to the end of the clause: a full stop inside is an abbreviation ("St. Mary's")
# "hiking, cycling and wild swimming": a list, commas and all, when it ends with "and" or "or"
LIST = r"(?P<v>[^,;!?]+(?:, [^,;!?]+)*,? (?:and|or|&) [^,;!?]+|[^,;!?]+)"
CAPITALISED = r"(?P<name>(?-i:[A-Z])[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]+)?)"
# a person named after a relation, titles allowed: "Sarah", "Mrs. Jansen", "Dr. Ines Vos"
TITLED_NAME = r"(?P<name>(?:(?-i:Mr|Mrs|Ms|Dr|Prof)\.? )?(?-i:[A-Z])[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]+)?)"
# when a plan happens: "in August", "on June 3rd", "next weekend", "tomorrow"
PLAN_WHEN = (
    r"(?:in (?:january|february|march|april|may|june|july|august|september|october|november|december|\d{4}|"
    r"the (?:spring|summer|autumn|fall|winter)|\d+ (?:days|weeks|months))|next \w+|this \w+|"
    r"on (?:the )?(?:\w+ )?\d{1,2}(?:st|nd|rd|th)?|on \w+days?|tomorrow|tonight|soon|later this \w+|"
    r"in the new year|after (?:christmas|easter|the summer)|at (?:christmas|easter)|over the summer)"
)
# a time said after a fact that is not part of it: "I moved to Rotterdam *last month*"
TRAILING_TIME = re.compile(
    r"\s+(?:(?:last|this|next) (?:week|weekend|month|year|spring|summer|autumn|fall|winter)|"
    r"(?:a|one|two|three|a few|some) (?:days|weeks|months|years) ago|recently|yesterday|today|"
    r"in (?:the )?(?:spring|summer|autumn|fall|winter))$", re.I)

# how the user says they like something, in the third person, and how sure that is
PREFERENCE_VERBS = {
    "love": ("loves", 0.85),
    "like": ("likes", 0.8),
    "enjoy": ("enjoys", 0.85),
    "adore": ("adores", 0.85),
    "hate": ("hates", 0.85),
    "dislike": ("dislikes", 0.85),
    "detest": ("detests", 0.85),
    "can't stand": ("can't stand", 0.85),
    "cannot stand": ("can't stand", 0.85),
    "don't like": ("does not like", 0.8),
    "do not like": ("does not like", 0.8),
    "don't enjoy": ("does not enjoy", 0.8),
    "prefer": ("prefers", 0.85),
    "really like": ("likes", 0.8),
}

# verbs after which "every Monday" ends a taste or a thought, not a habit
NOT_HABITS = word_set(
    """think guess hope wish was were will would could should might did said told asked want need feel
felt forgot remember am love like hate get got mean know see wonder enjoy adore prefer dislike
can't cannot don't"""
)
