"""The English word lists used across the service, in one place: function words, stop words, question words.

Written as text blocks rather than one word per line, so the lists read as what they are. Stdlib only: the
core (extraction, follow-ups) and the adapters (the offline answerer, the lexical embedder) share them.
"""

from __future__ import annotations


def words_of(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that carry no topic. The lexical embedder hashes everything else, so this exact list is part of its
# vector space: changing it moves every stored lexical vector (add words to STOPWORDS instead).
FUNCTION_WORDS = words_of(
    """a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have
    having he her here hers herself him himself his how i if in into is it its itself just me more most my
    myself no nor not now of off on once only or other our ours ourselves out over own same she should so
    some such than that the their theirs them themselves then there these they this those through to too
    under until up very was we were what when where which while who whom why will with would you your
    yours yourself yourselves"""
)

# The glue every stated fact is built with ("User is from Porto", "their cat is called Tom"): articles, forms of
# "be", the commonest prepositions and conjunctions, "they" and "it". Memory dedup compares facts without them.
# A subset of FUNCTION_WORDS that keeps what changes a fact: negation, quantity, other pronouns ("not", "more").
FACT_GLUE = words_of(
    """a am an and are as at be been by for from in is it its of on or that the their them they this to was
    were with"""
)

CONTRACTIONS = words_of(
    """aren't can't couldn't didn't doesn't don't hadn't hasn't haven't he'd he'll he's here's how's i'd
    i'll i'm i've isn't it's let's mustn't shan't she'd she'll she's shouldn't that's there's they'd
    they'll they're they've wasn't we'd we'll we're we've weren't what's when's where's who's why's won't
    wouldn't you'd you'll you're you've"""
)

# Words of asking and chatting that say nothing about what is asked for ("tell me about", "I want to know").
CONVERSATIONAL = words_of(
    """also anything everything something bit describe explain get give got hello hey hi kind know
    lot lots many maybe much ok okay one ought please really said say sort tell thank thanks thing things
    think us want well yeah yes"""
)

STOPWORDS = FUNCTION_WORDS | CONTRACTIONS | CONVERSATIONAL

WH_WORDS = words_of("what which who whom whose when where why how")

QUESTION_OPENERS = WH_WORDS | words_of(
    """is are am was were do does did can could would will should shall may might have has had tell explain
    describe name define"""
)

NUMBER_WORDS = words_of(
    """one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
    seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand
    million billion dozen half"""
)

DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")

# Titles and short forms after which a full stop does not end a sentence ("Dr. Vos", "e.g. rye").
ABBREVIATIONS = words_of(
    """mr mrs ms dr prof sr jr st vs etc e.g i.e cf fig no vol approx dept inc ltd co corp mt ft ave rd
    blvd sq nr tel"""
)

# Words a question uses for what the material says differently ("can I take pictures" / "photography";
# "how much for my son" / "children"). One group per line; the offline answerer matches them by stem. A day
# and the weekend share a line each, so Saturday meets the weekend but not Sunday.
RELATED_GROUPS = """
people resident residents population inhabitant citizen
build built construct constructed founded established
cost costs price prices fee fees charge pay paid payment expensive cheap rate dear dearer pricey pricier
instalment instalments installment installments monthly plan plans
child children kid kids son daughter baby toddler junior minor
pet pets dog dogs puppy cat cats kitten animal animals
photo photos photograph photographs photography picture pictures camera
open opens opening hours close closes closing closed
late later leave departure
book booking booked reserve reservation appointment
phone call number telephone reach contact
address located location
eat food meal dish dishes diet allergic allergy intolerant intolerance vegetarian vegan coeliac celiac
drink drinks beverage water wine beer coffee tea juice alcohol alcoholic
swim swimming pool
puncture flat tyre tire
electric ebike ebikes
surgery surgeries operation surgeon
work job living career profession nurse teacher
live lives home reside based
ride rides riding cycle cycling bike bicycle commute commutes
park parking garage
travel travelling traveling trip holiday vacation
wife husband partner spouse
uniform uniforms suit suits kit outfit
paint painting paintings painter painters artist art
sick ill illness emergency emergencies injured
night nights evening outside
wifi internet password
like likes love loves enjoy enjoys favourite favorite prefer prefers fan hobby hobbies passion
saturday saturdays weekend weekends
sunday sundays weekend weekends
monday mondays weekday weekdays
tuesday tuesdays weekday weekdays
wednesday wednesdays weekday weekdays
thursday thursdays weekday weekdays
friday fridays weekday weekdays
"""

# Words that questions use around what they ask for ("what *time* do you open", "who can *help* me with",
# "do you have gluten-free *options*"): they count little when ranking answers, and their absence from
# everything known never makes a question unanswerable.
GENERIC = words_of(
    """time times help make makes made bring take get go come use need put leave allow allowed possible
    option options extra whole normal usual usually always normally often thing things way place kind sort
    good best nice great old year years day days start starts begin begins happen happens available
    able sure idea like want wants wanted wanting"""
)
