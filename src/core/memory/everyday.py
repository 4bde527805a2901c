"""Memory extraction, everyday frames: the ways people state health, tastes and their own name that the rules'
textbook shapes miss, each a pattern anchored at the start of a clause (tried after rules.py, frames.py and
background.py).

- medicine and what it is for: "I take statins for my cholesterol", "I'm on insulin for my diabetes";
- what the body does not take: "dairy makes me ill", "red wine gives me migraines", "onions don't agree
  with me";
- a taste said as a verdict: "it's the oat flat white for me now", "I've gone off lager";
- who is writing: "Sam Reid here", "Dr. Adeyemi here";
- someone named without saying who they are, and their age: "Pickles is 12 now and a bit deaf".
"""

from __future__ import annotations

import re
from collections.abc import Callable

from avatar_service.core.memory.people import Made
from avatar_service.core.memory.vocabulary import CHAT_OBJECTS, CONDITIONS, NATIONALITIES, NOT_NAMES, at_most_words
from avatar_service.core.memory.wording import clean, predicate, third_person, word_set

# what "it's ... for me" says is not a taste: "it's too early for me", "it's a no for me", "it's fine for me"
_NOT_A_TASTE = re.compile(r"^(?:too|a bit|a little|a lot|bit|quite|so|very|really|pretty|not|no|a no|a yes|ok|okay|"
                          r"fine|perfect|great|good|bad|hard|easy|difficult|impossible|tricky|far|late|early|"
                          r"expensive|cheap|enough|the same|all the same|new|all new|worth it|much|that|this|it|"
                          r"what|nothing|something|anything|everything|\w+er\b|\w+ly\b)", re.I)
# what you take that is no medicine: "I take the bus", "I take notes", "I take it"
_NOT_MEDICINE = re.compile(r"^(?:it|that|this|them|the|a|an|my|our|part|turns|notes|care|photos|pictures|time|"
                           r"a look|ages|forever|a while|over|off|up|out)\b", re.I)
_NOT_BODY = word_set("it that this which everything something anything nothing the way work life he she they you")
_NOT_NAMES_HERE = word_set("everyone everybody nobody someone somebody anyone anybody it this that nothing "
                           "something here there lunch dinner parking food help staff service")


def _medicine(m: re.Match[str]) -> Made:
    what, why = clean(m.group("v")), clean(m.group("why"))
    if _NOT_MEDICINE.match(what) or not at_most_words(what, 4) or not at_most_words(why, 5):
        return None
    return f"User takes {what} for {third_person(why)}", "personal", 0.8


def _disagrees(m: re.Match[str]) -> Made:
    what = clean(m.group("v"))
    if what.lower() in _NOT_BODY or not at_most_words(what, 4) or CHAT_OBJECTS.match(what):
        return None
    first = what.split()[0]
    if first.istitle() and len(first) > 1:  # "Dairy makes me ill" opens a sentence; the thing is "dairy"
        what = what[:1].lower() + what[1:]
    if m.groupdict().get("how"):
        return f"User gets {clean(m.group('how')).lower()} from {what}", "personal", 0.8
    return f"User can't tolerate {what}", "personal", 0.8


# a doing that is a place or a course to go to, not the activity itself: "started going to a pottery class"
_GOING_TO = re.compile(r"^(?:going|learning|doing|attending|volunteering|taking|having)\b", re.I)


def _taken_up(m: re.Match[str]) -> Made:
    what = clean(m.group("v"))
    if not at_most_words(what, 10):
        return None
    verb = "has started" if _GOING_TO.match(what) else "has taken up"
    return f"User {verb} {third_person(what)}", "context", 0.75


def _for_me(m: re.Match[str]) -> Made:
    what = clean(m.group("v"))
    if _NOT_A_TASTE.match(what) or not at_most_words(what, 5):
        return None
    return f"User now prefers {third_person(what)}", "preference", 0.75


def _here(m: re.Match[str]) -> Made:
    name = m.group("name")
    if name.split()[0].lower() in NOT_NAMES | _NOT_NAMES_HERE:
        return None
    return f"User's name is {name}", "personal", 0.85


def _trade(m: re.Match[str]) -> Made:
    trade = m.group("v").upper() if m.group("v").lower() in ("it", "hr", "pr") else m.group("v")
    rest = clean(m.group("rest"))
    if rest and not at_most_words(rest, 8):
        return None
    joint = ", " if m.group("rest").lstrip().startswith(",") else " "
    return f"User works in {trade}{joint + third_person(rest) if rest else ''}", "personal", 0.8


def _named_age(m: re.Match[str]) -> Made:
    name = m.group("name")
    if name.lower() in NOT_NAMES | _NOT_NAMES_HERE:
        return None
    rest = clean(m.group("v") or "")
    if rest and not at_most_words(rest, 6):
        return None
    return (f"User's {name} is {m.group('age')} years old{' and ' + third_person(rest) if rest else ''}",
            "relationship", 0.7)


_ILL = (r"(?:really |so |very |quite |a bit |super |properly )?(?P<how>sick|ill|poorly|nauseous|queasy|bloated|"
        r"itchy|wheezy|dizzy|a rash|rashes|hives|migraines?|a migraine|headaches?|a headache|heartburn|"
        r"stomach ache|a stomach ache|the runs|a reaction|reactions)")

EVERYDAY_TEXTS: list[tuple[str, Callable[[re.Match[str]], Made]]] = [
    (r"^i (?:also |still |now |have to |need to )?take (?P<v>[^,;!?]{2,40}?) (?:daily |every day |each day )?"
     r"for (?P<why>[^,;!?]+)$", _medicine),
    (r"^i(?:'m|’m| am) (?:now |still )?on (?P<v>(?!(?:a|an|the|my|our|it|holiday|leave|call|calls|shift|shifts|"
     r"nights|days|my way|the way|board|time)\b)[\w-]+(?: [\w-]+)?) for (?P<why>[^,;!?]+)$",
     _medicine),
    # a condition and how it goes: "I get hay fever really bad every June", "I suffer with IBS"
    (rf"^i(?P<verb> get| have| suffer (?:from|with)| live with|'ve had|’ve had| have had) (?P<v>(?:bad |mild |severe |"
     rf"chronic )?(?:{CONDITIONS})\b[^,;!?]*)$",
     lambda m: (f"User {predicate(m.group('verb').strip().replace('’', chr(39)).replace(chr(39) + 've', 'have'))} "
                f"{third_person(clean(m.group('v')))}", "personal", 0.8)
     if at_most_words(clean(m.group("v")), 10) else None),
    # "it's the amlodipine for my blood pressure": a medicine named by what it treats
    (rf"^it(?:'s|’s| is) (?:the |my )?(?P<v>[\w-]+(?: [\w-]+)?) for (?P<why>(?:my |the )?(?:{CONDITIONS}))$",
     _medicine),
    (rf"^(?P<v>[\w'’ -]{{2,30}}?) (?:always |really |just )?(?:makes|make|made|gives|give|gave) me {_ILL}\b",
     _disagrees),
    (r"^(?P<v>[\w'’ -]{2,30}?) (?:doesn't|does not|don't|do not|never) (?:really )?(?:agree|sit well) with me\b",
     _disagrees),
    (r"^it(?:'s|’s| is) (?P<v>[^,;!?]{2,40}?) for me(?: now| these days| from now on| nowadays)?"
     r"(?:, [\w'’ ]{1,30})?$", _for_me),
    # "I'm not a morning person", "I'm more of a tea person", "I'm a dog person"
    (r"^i(?:'m|’m| am) (?P<neg>not |never )?(?:really |much of |more of |more |very much |definitely |such |"
     r"totally |a bit of )?(?P<art>an? )?(?P<v>[\w-]+(?: [\w-]+)?) (?:person|people person|guy|girl|gal)$",
     lambda m: (f"User is {'not ' if m.group('neg') else ''}{(m.group('art') or 'a ').lower()}"
                f"{m.group('v').lower()} person", "preference", 0.75)),
    (r"^i(?:'ve|’ve| have)? (?:really |totally |kind of )?(?:gone|went|gone right) off (?P<v>[^,;!?]+)$",
     lambda m: (f"User has gone off {third_person(clean(m.group('v')))}", "preference", 0.75)
     if at_most_words(clean(m.group("v")), 5) and not CHAT_OBJECTS.match(clean(m.group("v"))) else None),
    (r"^(?P<name>(?-i:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?(?-i:[A-Z])[a-z][\w'’-]*(?: (?-i:[A-Z])[\w'’-]+)?) here$", _here),
    (r"^i(?:'m|’m| am) (?P<name>(?-i:[A-Z])[a-z][\w'’-]*(?: (?-i:[A-Z])[\w'’-]+)?),? (?:by the way|btw|fyi)$",
     lambda m: None if m.group("name").lower() in NATIONALITIES else _here(m)),
    # what the user is not: "I'm not married" (what they have not, "no pets", stays unsaid: tests/data)
    (r"^i(?:'m|’m| am) not (?P<v>married|single|engaged|divorced|religious|working|retired|a smoker|a student)$",
     lambda m: (f"User is not {m.group('v').lower()}",
                "relationship" if m.group("v").lower() in ("married", "single", "engaged", "divorced") else "personal",
                0.8)),
    # where they live, said by what it is near: "I'm just outside Kendal", "we're close to Hove"
    (r"^i(?:'m|’m| am) (?:just |right )?(?P<prep>outside|near|close to|round the corner from|down the road from)"
     r" (?P<place>(?-i:[A-Z])[\w'’-]+(?: (?-i:[A-Z])[\w'’-]+)*)$",
     lambda m: (f"User lives {m.group('prep').lower()} {m.group('place')}", "location", 0.75)),
    (r"^i(?:'m|’m| am) (?:just |right )?outside it in (?P<place>(?-i:[A-Z])[\w'’-]+(?: (?-i:[A-Z])[\w'’-]+)*)$",
     lambda m: (f"User lives in {m.group('place')}", "location", 0.75)),
    # where they are now, after a move: "I'm in Margate now", "we're up in Aberdeen these days"
    (r"^i(?:'m|’m| am) (?:(?:down|up|over|out) )?(?:in|based in|living in) "
     r"(?P<place>(?-i:[A-Z])[\w'’-]+(?: (?-i:[A-Z])[\w'’-]+)*) (?:now|these days|nowadays)$",
     lambda m: (f"User lives in {m.group('place')}", "location", 0.8)),
    (r"^(?P<name>(?-i:[A-Z])[a-z][\w'’-]+)(?: is|'s|’s) (?:now )?(?P<age>\d{1,2})(?: years old)?(?: now)?"
     r"(?: and (?P<v>(?:has|is|can't|can|loves|hates|needs|not|very|really|quite|so|a bit) [^,;!?]+))?$", _named_age),
]
EVERYDAY_TEXTS += [
    # what the user is going through or waiting for: "I'm going through a divorce", "on the waiting list for a
    # new knee", "I'm in year 12 at Kingsway"
    (r"^i(?:'m|’m| am) (?:currently |still )?(?:going through|in the middle of) (?P<v>(?:a |an |my |the )?[^,;!?]+)$",
     lambda m: (f"User is going through {third_person(clean(m.group('v')))}",
                "relationship" if re.search(r"divorce|separation|break-?up", m.group("v"), re.I) else "personal", 0.75)
     if at_most_words(clean(m.group("v")), 5) and not CHAT_OBJECTS.match(clean(m.group("v"))) else None),
    (r"^i(?:'m|’m| am) (?:currently |still )?on (?:the|a) waiting list for (?P<v>[^,;!?]+)$",
     lambda m: (f"User is on the waiting list for {third_person(clean(m.group('v')))}", "personal", 0.75)
     if at_most_words(clean(m.group("v")), 6) else None),
    (r"^i(?:'m|’m| am) in (?P<v>(?:year \d{1,2}|sixth form|(?:my )?(?:first|second|third|final|last) year)"
     r"(?: (?:at|of) [^,;!?]+)?)$",
     lambda m: (f"User is in {third_person(clean(m.group('v')))}", "personal", 0.8)),
    # off work: "I've been off work with long covid since March", "I'm off sick with my back"
    (r"^i(?:'ve|’ve| have) been off (?P<how>work|sick)(?P<v> (?:with|because of|after) [^,;!?]+)?$|"
     r"^i(?:'m|’m| am) off (?P<how2>work|sick)(?P<v2> (?:with|because of|after) [^,;!?]+)$",
     lambda m: (" ".join(f"User has been off {m.group('how') or m.group('how2')} "
                         f"{third_person(clean(m.group('v') or m.group('v2') or ''))}".split()), "personal", 0.75)),
    # something they are doing for a while: "I'm doing the couch to 5k", "I'm doing an Open University course"
    (r"^i(?:'m|’m| am) (?:currently |now |still )?doing (?P<v>(?:a|an|the|my) (?!(?:shopping|dishes|washing|cleaning|"
     r"laundry|ironing|cooking|school run|best|same|right|wrong|rounds|honours|booking|order)\b)[^,;!?]+)$",
     lambda m: (f"User is doing {third_person(clean(m.group('v')))}", "context", 0.7)
     if at_most_words(clean(m.group("v")), 8) else None),
    # how many they are: "we're a family of five"
    (r"^(?:we(?:'re|’re| are)|i(?:'m|’m| am) (?:in|part of)) a (?P<what>family|household) of (?P<n>\w+)$",
     lambda m: (f"User's {m.group('what').lower()} is {m.group('n').lower()} people", "relationship", 0.75)),
    # how long a couple has been together: "we've been together 12 years", "my wife and I have been married 30 years"
    (r"^(?:we|my (?P<who>[\w ]{2,20}?) and i)(?:'ve|’ve| have) been (?P<how>together|married) "
     r"(?:for )?(?P<v>[^,;!?]+)$",
     lambda m: (f"User and their {(m.group('who') or 'partner').lower()} have been {m.group('how').lower()} for "
                f"{clean(re.sub(r'^for ', '', m.group('v')))}", "relationship", 0.8)
     if re.search(r"\b(?:years?|months?|decades?)\b", m.group("v")) else None),
    # what their body has been through: "I've had two hip replacements", "I had a stroke in 2019"
    (r"^i(?:'ve|’ve| have)? had (?P<v>(?:a|an|two|three|four|\d|several|a few) (?:[\w-]+ ){0,2}?(?:replacements?|"
     r"pacemaker|stents?|implants?|hearing aids?|"
     r"operations?|ops|surgery|surgeries|transplants?|strokes?|heart attacks?|miscarriages?|c-sections?|"
     r"caesareans?|breakdowns?|concussions?|fractures?|seizures?|bypass)\b[^,;!?]*)$",
     lambda m: (f"User has had {third_person(clean(m.group('v')))}", "personal", 0.8)
     if at_most_words(clean(m.group("v")), 8) else None),
    # the trade they are in: "I'm in IT", "I work in finance"
    (r"^i(?:'m|’m| am| work| have worked|'ve worked|’ve worked) in (?P<v>it|finance|sales|marketing|hr|retail|"
     r"hospitality|construction|insurance|banking|education|healthcare|the nhs|recruitment|logistics|tech|law|"
     r"accounts|accountancy|admin|pr|advertising|publishing|media|engineering|social care|property|"
     r"real estate|the civil service|local government|consulting|pharma|telecoms|catering|the police|"
     r"the army|the navy|the forces)\b(?P<rest>[^;!?]*)$",
     _trade),
    (r"^i (?:just )?retired from (?P<v>[^,;!?]+?)(?P<when> (?:a|two|three|four|five|\d+|in|last) [^,;!?]*)?$",
     lambda m: (f"User retired from {third_person(clean(m.group('v')))}{third_person(m.group('when') or '')}",
                "personal", 0.8)),
    # how far into something: "I'm 5 months into a new job at the council"
    (r"^i(?:'m|’m| am) (?P<n>(?:\d+|a few|two|three|six) (?:days|weeks|months|years)) into (?P<v>[^,;!?]+)$",
     lambda m: (f"User is {m.group('n')} into {third_person(clean(m.group('v')))}",
                "personal" if re.search(r"\bjob|work|role|career", m.group("v"), re.I) else "context", 0.75)),
    # a taste said as never tiring of it: "I could eat sushi every day"
    (r"^i could (?:eat|drink|watch|listen to|live on|read) (?P<v>[^,;!?]+?) (?:every day|all day|forever|"
     r"every single day|for days|on repeat)$",
     lambda m: (f"User loves {third_person(clean(m.group('v')))}", "preference", 0.75)),
    # a day off: "Tuesdays are my day off"
    (r"^(?P<days>(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)(?: and \w+days)?) "
     r"(?:is|are) my (?:day|days) off$",
     lambda m: (f"User has {m.group('days').title().replace(' And ', ' and ')} off", "schedule", 0.8)),
    # where they study and where home is: "I'm at uni in Leeds", "home is Cornwall"
    (r"^i(?:'m|’m| am) (?:at|studying at) (?P<v>uni|university|college|sixth form)(?: in (?P<place>(?-i:[A-Z])[\w'’-]+"
     r"(?: (?-i:[A-Z])[\w'’-]+)*))?$",
     lambda m: (f"User is at {m.group('v').lower()}{' in ' + m.group('place') if m.group('place') else ''}",
                "personal", 0.8)),
    (r"^(?:my )?home(?:'s|’s| is) (?:in )?(?P<place>(?-i:[A-Z])[\w'’-]+(?: (?-i:[A-Z])[\w'’-]+)*)$",
     lambda m: (f"User's home is in {m.group('place')}", "location", 0.8)),
    # a relative's day, said without when: "it's my parents' ruby anniversary", "it's for my son's 18th"
    (r"^it(?:'s|’s| is) (?:for )?(?:my|our) (?P<who>(?:[\w-]+ )?(?:parents|grandparents|in-laws|mum|mom|dad|wife|"
     r"husband|partner|son|daughter|brother|sister|nan|gran|grandma|grandad|friend|boss|auntie|aunt|uncle|niece|"
     r"nephew|kids|twins))(?:'s|’s|'|’) (?P<what>(?:[\w-]+ )?(?:birthday|anniversary|wedding|retirement|graduation|"
     r"christening|party|leaving do|\d+(?:st|nd|rd|th)))$",
     lambda m: (f"User is celebrating their {m.group('who').lower()}'s {m.group('what').lower()}"
                .replace("s's ", "s' "), "relationship", 0.75)),
    # a move hoped for: "we're hoping to move to the coast next year"
    (r"^(?:i|we)(?:'m|’m|'re|’re| am| are) (?:hoping|planning|aiming|looking|thinking of|going) (?:to )?"
     r"(?:move|moving|relocate|relocating) (?:to|out to|up to|down to) (?P<v>[^,;!?]+)$",
     lambda m: (f"User is hoping to move to {third_person(clean(m.group('v')))}", "location", 0.7)
     if at_most_words(clean(m.group("v")), 8) else None),
    # "we're empty nesters", "we're both retired teachers": the couple, said as one
    (r"^we(?:'re|’re| are) (?:now |both )?(?P<v>(?:[\w-]+ )?(?:empty nesters|newlyweds|foster parents|grandparents|"
     r"parents|carers|landlords|homeowners|first-time buyers))\b(?P<rest>[^,;!?]*)$",
     lambda m: (" ".join(f"User and their partner are {m.group('v').lower()} {third_person(m.group('rest'))}".split()),
                "relationship", 0.7)),
    # a faith: "we're Muslim", "I'm a practising Catholic"
    (r"^(?:i(?:'m|’m| am)|we(?:'re|’re| are)) (?:an? )?(?:practising |practicing |devout |lapsed )?"
     r"(?P<v>muslim|jewish|christian|catholic|hindu|sikh|buddhist|atheist|agnostic|quaker|methodist|"
     r"anglican|orthodox|mormon|jain)\b",
     lambda m: (f"User is {m.group('v').capitalize()}", "personal", 0.8)),
    # a plan for their working life: "I'm hoping to retire next spring", "I'm training to be a plumber"
    (r"^i(?:'m|’m| am) (?:hoping|planning|going|due|about) to (?P<v>retire\b[^,;!?]*)$",
     lambda m: (f"User is planning to {third_person(clean(m.group('v')))}", "personal", 0.75)),
    (r"^i(?:'m|’m| am) (?:currently )?(?:training|studying|retraining|qualifying) (?P<how>to be|as) "
     r"(?P<v>an? [^,;!?]+)$",
     lambda m: (f"User is training {m.group('how').lower()} {third_person(clean(m.group('v')))}", "context", 0.75)),
    # a new activity: "I've just started running", "I took up pottery last year", "started going to a life drawing
    # class on tuesday evenings" (when it happens is kept: extraction files it under the schedule)
    (r"^i (?:(?:only|just|recently|finally) )*(?:started|took up|taken up|began|got into) "
     r"(?P<v>(?!work\b|my job\b|a job\b|eating\b|drinking\b|smoking\b|vaping\b)"
     r"(?:(?:[\w-]+ )?\w+ing|pottery|yoga|pilates|golf|tennis|chess|climbing|boxing|karate|judo|ballet|the \w+)"
     r"(?: [^,;!?]+)?)$",
     _taken_up),
    # signed up for something: "I've just signed up for my first half"
    (r"^i(?:'ve|’ve| have)? (?:just |finally )?(?:signed up|entered|registered|enrolled) (?:for|on|onto|in) "
     r"(?P<v>(?:a|an|my|the) [^,;!?]+)$",
     lambda m: (f"User has signed up for {third_person(clean(m.group('v')))}", "context", 0.75)
     if at_most_words(clean(m.group("v")), 8) else None),
    # off something for a while: "I'm off dairy at the moment for my skin"
    (r"^i(?:'m|’m| am) (?:currently )?off (?P<v>dairy|gluten|wheat|meat|red meat|sugar|alcohol|booze|the booze|"
     r"the drink|caffeine|coffee|carbs|bread|meat|chocolate|crisps)\b(?P<rest>[^,;!?]*)$",
     lambda m: (" ".join(f"User is off {m.group('v').lower()} {third_person(clean(m.group('rest')))}".split()),
                "preference", 0.75)),
    # what the body no longer lets them do: "I can't do stairs since my stroke"
    (r"^i (?:can't|cannot|can no longer) (?:do|manage|climb|walk up|use) (?P<v>stairs|steps|heights|ladders|"
     r"long walks|hills|kneeling)(?P<rest> (?:since|because of|after|with) [^,;!?]+)?$",
     lambda m: (" ".join(f"User can't do {m.group('v').lower()} {third_person(clean(m.group('rest') or ''))}".split()),
                "personal", 0.8)),
    # a home being looked for: "I'm looking for a 1 bed in Hackney"
    (r"^(?:i(?:'m|’m| am)|we(?:'re|’re| are)) (?:currently |now )?(?:looking|searching|hunting) (?:for|at) "
     r"(?P<v>(?:an? |somewhere |something )?(?:[\w-]+ ){0,3}?(?:bed|bedroom|flat|house|home|place|room|apartment|"
     r"property|studio|bungalow|cottage)s?(?: [\w-]+){0,3}? (?:in|near|around) (?-i:[A-Z])[^,;!?]*)$",
     lambda m: (f"User is looking for {third_person(clean(m.group('v')))}", "context", 0.75)),
    # what the user can only do: "I can only do nap time, 1 till 3", "I can only come after 4"
    (r"^i (?:can|could) only (?:do|make|come|manage|get in|get here|be here) (?P<v>[^;!?]+)$",
     lambda m: (f"User can only do {third_person(clean(m.group('v')))}", "schedule", 0.75)
     if at_most_words(clean(m.group("v")), 8) else None),
    # what they live on: "I'm on universal credit", "I'm on maternity leave"
    (r"^i(?:'m|’m| am) (?:currently |now |still )?on (?P<v>universal credit|benefits|(?:a |the )?(?:state )?pension|"
     r"pension credit|disability benefits?|pip|esa|jobseekers?(?: allowance)?|(?:maternity|paternity|sick|"
     r"parental|long[- ]term sick) leave|furlough|a zero[- ]hours? contract|a student loan|the pill|hrt|"
     r"antidepressants|medication|meds|insulin|statins|dialysis|chemo(?:therapy)?)\b(?P<rest>[^,;!?]*)$",
     lambda m: (" ".join(f"User is on {m.group('v')}{third_person(m.group('rest'))}".split()), "personal", 0.75)),
    # an age to come: "I'll be 50 in June"
    (r"^i(?:'ll|’ll| will) be (?P<v>\d{1,3}(?: years old)?(?: (?:in|on|next|this) [^,;!?]+)?)(?:,[^;!?]*)?$",
     lambda m: (f"User turns {clean(m.group('v'))}", "personal", 0.8)),
    # a qualification: "I got my degree in physics from Leeds", "I have a masters in law"
    (r"^i (?:got|did|have|earned|completed|finished|hold) (?:my|a|an) (?P<v>(?:(?:first |second |undergrad |"
     r"undergraduate |postgrad )?(?:degree|masters|master's|phd|doctorate|diploma|ba|bsc|ma|msc|mba|"
     r"apprenticeship|nvq|law degree))\b[^,;!?]*)$",
     lambda m: (f"User has a {third_person(clean(m.group('v')))}", "personal", 0.8)
     if at_most_words(clean(m.group("v")), 8) else None),
    # what they are working on in their habits: "I'm trying to cut down on sugar"
    (r"^i(?:'m|’m| am) (?:really )?(?:trying|aiming|hoping|working) (?:hard )?to (?P<v>(?:cut (?:down|back) on|quit|"
     r"give up|lose|eat (?:less|more)|drink (?:less|more)|get fit|stop|sleep more|save (?:up )?for|learn|"
     r"improve|get back into)\b[^,;!?]*)$",
     lambda m: (f"User is trying to {third_person(clean(m.group('v')))}", "context", 0.75)
     if at_most_words(clean(m.group("v")), 8) else None),
]
EVERYDAY = [(re.compile(pattern, re.I), make) for pattern, make in EVERYDAY_TEXTS]
