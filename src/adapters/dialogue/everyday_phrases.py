"""Everyday phrases said for one word, on both sides of a match (the question and the text): "turn up" is arriving,
"sign up" joining, "20% off" a discount, "Boxing Day" 26 December; and how people ask what something costs ("what's
the damage?"). Replaced before the words are stemmed (terms.py); the words that answer for each other are
everyday_words.py's groups."""

from __future__ import annotations

import re

# a thing free of what someone cannot have, said without its hyphen ("gluten free"): no price
FREE_OF = re.compile(r"\b(gluten|dairy|nut|sugar|alcohol|egg|wheat|lactose|fragrance|smoke|caffeine|meat) free\b", re.I)

# what an amount costs, said the everyday way (a price asked, answer_types.wanted, and the word "cost")
COST_IDIOMS = r"\bset(?:s|ting)? (?:me|us|you|him|her|them) back\b|\bwhat'?s the damage\b"

# Phrasal verbs and set phrases said for one word, on both sides (the question and the text): "turn up" is
# "arrive", "sign up" is "join", "20% off" is a discount. Replaced before the words are stemmed.
PHRASES = [
    # not coming is missing it ("what if I just don't show up?" / "if you miss an appointment...")
    (r"\b(?:do not|don't|does not|doesn't|did not|didn't|never) (?:show|turn) up\b|\bno[ -]shows?\b", "miss"),
    (r"\brun(?:s|ning)? (?:a (?:bit|little) |slightly )?late\b", "late"),  # (not "run" as what is asked about)
    (r"\b(?:come|comes|coming|tag|tags|tagging) (?:along|too|as well)\b", "come"),  # ("can Bramble come along?")
    (r"\b(?:complete|total|absolute|real) (beginners?|novices?)\b", r"\1"),  # (what is asked for: beginners)
    (r"\bhang(?:s|ing)? (?:about|around)\b", "wait"),  # "how long would the driver hang about?"
    # getting about with a frame or a stick is mobility ("User's mum walks with a frame" / "step-free")
    (r"\bwalk(?:s|ing)? with (?:a|an) (?:frame|stick|walker|cane)\b|\bwalking (?:frame|stick)s?\b|\bzimmer\b|"
     r"\bcrutches\b", "mobility"),
    (r"\bmiss(?:es|ed|ing)? the (?:start|beginning)\b|\b(?:running|be|being|get|getting|arrive|arriving) late\b",
     r"\g<0> late"),
    (r"\bpop(?:s|ped|ping)? (?:in|into|by|round|over)\b|\bdrop(?:s|ped|ping)?[ -](?:in|by)\b", "visit"),
    # bringing a thing round to someone's is delivering it ("could you drop alfie's cake round to mine?")
    (r"\bdrop(?:s|ped|ping)? ((?:\w+'s |the |my |our |it |them )?(?:\w+ )?)(?:round|over) (?:to|at)\b",
     r"deliver \1 to"),
    # a thing free of what someone cannot have is no price ("do you do gluten free?" / "gluten-free sponges")
    (FREE_OF.pattern, r"\1-free"),
    # (and what needs no booking is for those who pop in: "a nail clip ... needs no appointment")
    (r"\b(?:needs?|need) no (?:appointment|booking)\b|\bwithout (?:an appointment|a booking|booking)\b|"
     r"\bwalk[- ](?:ins?|ons?)\b", r"\g<0> visit arrive"),
    # "during the week" is the weekdays a text names as a range ("Monday to Friday", "Tuesday to Thursday")
    (r"\b(?:during|in) the week\b|\b(?:mon|tues|wednes|thurs|fri)day (?:to|till|until|through) "
     r"(?:tues|wednes|thurs|fri)day\b", r"\g<0> weekday"),
    (r"\bhang(?:s|ing)? on to\b|\bhold(?:s|ing)? on to\b|\bhang(?:s|ing)? onto\b", "keep"),
    (r"\bput(?:ting)? down\b", "deposit"),
    (r"\bhold(?:s|ing)? (?:the|a|my|our|your) (date|place|spot|slot|space|room|table|day)\b", r"secure \1"),
    (r"\bcover(?:s|ed)? by\b", r"\g<0> insured"),  # "your physio is covered by Bupa": insurance
    (r"\bseeing (?:as|that)\b", "as"),  # "seeing as we're members": because, not looking
    (r"\bwork(?:s|ing|ed)? towards?\b", "preparing for"),  # "which grade am I working towards?"
    (r"\bsuits? (?:me|you|us|them|him|her)\b(?: best)?", "prefer"),  # "what time of day suits me?"
    # the fixed holidays are dates, on both sides ("open on Boxing Day?" / "closed on 25 and 26 December")
    (r"\bchristmas eve\b", "24 december"), (r"\bchristmas(?: day)?\b", "25 december"),
    (r"\bboxing day\b", "26 december"), (r"\bnew year'?s eve\b", "31 december"),
    (r"\bnew year'?s(?: day)?\b", "1 january"), (r"\bvalentine'?s day\b", "14 february"),
    (r"\bhalloween\b", "31 october"),
    # the English bank holidays that fall on a set Monday
    (r"\baugust bank holiday\b", "last monday in august"), (r"\bspring bank holiday\b", "last monday in may"),
    (r"\b(?:early )?may bank holiday\b", "first monday in may"),
    # the latest one can get in is the last admission ("with last admission at 4pm")
    (r"\b(?:latest|last) (?:time )?(?:we|i|you|they) can (?:(?:get|go|come) in|arrive|(?:turn|rock|show) up|"
     r"get there)\b|\blast (?:entry|entries)\b", "last admission"),
    (r"\bthe (?:lads|boys|girls)\b", "the friends"),  # ("the lads want to bring a few cans")
    (r"\bhols\b", "holidays"),  # "the school hols"
    (r"\bmid-?week\b", "tuesday wednesday thursday"),
    # beer said the everyday way ("the lads want to bring a few cans": no alcohol is allowed)
    (r"\b(?:cans|tinnies|bevvies|lagers?)\b", "alcohol"),
    (r"\brun(?:s|ning)? out of\b", "extra"),  # "what if we run out of paint?" / "extra paintballs are £8"
    (r"\b(?:till|til|'til)\b", "until"),
    (r"\bkick(?:s|ed|ing)? off\b", "start"),
    (r"\bshut(?:s|ting)?\b", "close"),
    (r"\bwhereabouts\b", "where"),
    (r"\bfooty\b", "football"),
    (r"\bstreet[- ]danc(?:e|es|ing)\b|\bhip[- ]hop\b", "streetdance"),
    (r"\b(?:made|forced|obliged) to\b", "compulsory"),  # "is she made to do exams?" / "exams are optional"
    # coming when one likes, not by the term ("if I just turn up now and again" / "£9 a class as a drop-in")
    (r"\b(?:(?:turn|show)(?:s|ed|ing)? up )?(?:now and (?:again|then)|every so often|occasionally)\b|"
     r"\bpay as you go\b", "visit"),
    # coming often is what a pass or a membership is for ("a cheaper way if I come a lot?")
    (r"\b(?:come|coming|go|going|visit|visiting|train|training)(?: here| in)? (?:a lot|loads|often|regularly|"
     r"every week|most weeks|(?:twice|three times|a few times) a week)\b", r"\g<0> pass membership"),
    (r"\bsame[- ]day\b", "sameday"),  # "back the same day" is the "same-day service" ("same" alone says nothing)
    # rain said the British way ("if it's chucking it down" / "we still clean in the rain")
    (r"\b(?:chucking|tipping|bucketing|pissing|belting|pelting|hammering) (?:it )?down\b|\bpouring(?: down)?\b|"
     r"\braining cats and dogs\b|\bpour(?:s|ed)? (?:it )?down\b", "rain"),
    (r"\bwithout los(?:e|es|ing)\b", "keep"),  # "without losing my date" / "and still keep the same date"
    # what would make a warranty or a booking no longer count ("mess up my warranty" / "your warranty stays valid")
    (r"\bmess(?:es|ed|ing)? up\b|\binvalidat(?:e|es|ed|ing)\b|\bvoid(?:s|ed)?\b", "valid"),
    (r"\bget (?:a|an|the|someone|somebody|one of you|you) (?:\w+ )?out\b", "call out"),  # "get a plumber out"
    (r"\bring(?:ing)? (?:you|us|them|him|her)\b|\bnumber to ring\b|\bgive (?:you|us) a ring\b", "call"),
    (r"\bend(?:s|ed|ing)? up(?: being)?\b", "be"),  # "what if it ends up being just me?"
    (COST_IDIOMS, "cost"),
    (r"\bbecom(?:e|es|ing) an? member\b", "membership"),
    (r"\bfirst (?:meeting|appointment|session|chat)\b", "first consultation"),
    (r"\blook(?:s|ed|ing)? after\b|\bdeal(?:s|t|ing)? with\b|\btake(?:s)? care of\b|\bget(?:s|ting)? rid of\b",
     "handle"),
    (r"\bwho (?:am i|are we|is he|is she) (?:seeing|meeting)\b", "who appointment"),
    (r"\bwhere (?:am i|are we|is he|is she) moving(?: to)?\b", "where new home"),
    (r"\bwhere (?:am i|are we|is he|is she) (?:driving|coming|travel+ing|flying|cycling|setting off) from\b",
     "where live"),  # (from home)
    (r"\b(?:usually|always|normally|tend to|like to) go(?:es)? for\b", "prefer"),  # "what frames do I usually go for?"
    (r"\bwho (?:should|do|can|could|would|shall) (?:i|we) (?:see|ask|speak to|talk to|book with)\b", "who"),
    (r"\b(?:turn|turns|turned|turning|show|shows|showed|showing|rock|rocks|rocked|rocking) up\b|"
     r"\bget (?:there|here)\b", "arrive"),
    (r"\bcheck(?:ing)?[ -]in\b", r"\g<0> arrive"),
    (r"\bset(?:ting)? off\b|\bhead(?:ing)? (?:off|home)\b", "leave"),
    # the business's own round: "do you pick up and drop off?" is "we collect and deliver"
    (r"\bpick(?:ing|s)? up and drop(?:ping|s)? off\b|\bdrop(?:ping|s)? off and pick(?:ing|s)? up\b",
     "collect deliver"),
    (r"\bpick(?:ing|ed|s)?[ -]up\b|\bpick(?:ing|ed|s)? (?:me|us|him|her|them|you|it|(?:the|my|our|your) \w+) up\b",
     "collect"),
    (r"\b(?:good|best|great|expert|experienced) (?:at|in|with)\b", "specialises in"),
    (r"\bdrop(?:s|ping|ped)?((?: \w+){0,2}?)[ -]off\b", r"leave\1"),  # "drop them off", "drop my dog off"
    (r"\bbring(?:s|ing)? (?:it|them) in\b", r"\g<0> leave"),  # "bringing it in" is dropping it off
    # trying before committing is what a trial is for ("can I try a lesson before signing up?" / "a first trial
    # lesson is free"): what comes after "before" is no topic of its own
    (r"\bbefore (?:i |we |you |he |she |they )?(?:sign(?:ing)?[ -]up|join(?:ing)?|commit(?:ting)?|enrol+(?:ing)?)\b",
     "trial"),
    (r"\bsign(?:ing|ed)?[ -]up\b|\benrol+(?:ing|ed)?\b", "join"),
    (r"\bfind(?:ing)? out\b|\bhear(?:ing)? about\b", "know"),
    (r"\bcall(?:ing|ed)? off\b|\b(?:rain|snow)(?:ed|s)? off\b|\bcan(?:'|no)?t make it\b|"
     r"\bcan(?:'|no)?t (?:come|attend|go|make it)\b|\bcan(?:'|no)?t make(?= (?:the|our|my|his|her|\w+'s) )|"
     r"\b(?:pull|pulls|pulling|pulled|drop|drops|dropping|"
     r"dropped) out\b", "cancel"),
    (r"\b(?:get|getting|have|having) (?:my|our|the|your) money back\b|\bmoney back\b|"
     r"\b(?:get|getting) (?:that|it|this|them) back if\b", "refund"),  # ("do we get that back if we change our minds?")
    (r"\b(?:get|getting|have|having) (?:my|our|the|your) deposit back\b|\bdeposit back\b", "deposit refund"),
    # one's own lunch is a picnic ("can we bring our own lunch?" / "you're welcome to bring a picnic")
    (r"\b(?:bring|take|carry) (?:in )?(?:my|our|your|their) own (?:packed )?(?:lunch|lunches|sandwiches|food)\b",
     "bring picnic"),
    # "will I manage with a buggy?" asks whether the thing goes there, not about managing
    (r"\b(?:will|would|could|can) (?:i|we|she|he|they) manage\b", "can i go"),
    (r"\b(?:bring|take|carry) (?:in )?(?:my|our|your|their) own\b", "bring outside"),
    (r"\bup[ -]?front\b|\bin advance\b", "advance"),
    (r"\bgrown[- ]?ups?\b", "adult"),
    (r"\btry(?:ing)? (?:it |us |things )?out\b|\bhave a go\b|\bgive it a (?:go|try)\b", "trial"),
    (r"\bstay(?:ing)? with\b", "supervise"),
    (r"\b(?:stay|stays|staying|remain|remains) on (?:site|the premises|(?:the )?poolside|the side|the touchline)\b",
     r"\g<0> supervise"),
    # "must be with an adult", "must have a skating adult with them"
    (r"\b(?:be|come) with an? (?:adult|parent|grown-up)\b|\bwith an? (?:paying|responsible) (?:adult|parent)\b|"
     r"\bhave an? (?:\w+ )?(?:adult|parent|grown-up) with (?:them|him|her|you)\b", r"\g<0> supervise"),
    # "can he come on his own?" asks whether he must be supervised
    (r"\bon (?:my|his|her|their|our|your) own\b|\bunaccompanied\b|\bunsupervised\b|"
     r"\bwithout (?:me|us|an adult|a parent|(?:his|her|their) (?:mum|dad|parents?))\b", "supervise"),
    # leaving a child somewhere and going is leaving them unsupervised ("could i drop leo at his taster and head
    # off?", "can i leave poppy painting while i nip to the shops?")
    # (where they go meanwhile is not asked)
    (r"\bdrop(?:ping)? (\w+) (?:off )?(?:at ([\w' ]{0,30}?) )?and (?:then )?(?:go|head|leave|nip|pop|come back)\b"
     r"(?: (?:off|out|back|away))?(?: (?:to|into) (?:work|the \w+))?", r"\1 \2 supervise"),
    (r"\bleave (\w+) (?:\w+ing )?(?:there |here )?while (?:i|we) \w+(?: (?:off|out|back|away))?"
     r"(?: (?:to|into|round|over) (?:work|the \w+))?", r"leave \1 supervise"),
    (r"\bsells? out\b|\bsold out\b|\bselling out\b", "full"),
    (r"\bat the moment\b|\b(?:straight|right) away\b", ""),  # ("... at the moment?", "... straight away?": now)
    # a child's condition is what a place calls additional needs ("is the club ok with arjun's condition?" / "User's
    # son Arjun has dyspraxia" / "children with additional needs are very welcome")
    (r"\b(his|her|their|my|\w+'s) condition\b", r"\1 additional needs"),
    (r"\b(?:dyspraxia|dyslexia|autism|autistic|adhd|asd|cerebral palsy|down'?s syndrome|learning difficult(?:y|ies)|"
     r"special (?:educational )?needs)\b", r"\g<0> additional needs"),
    (r"\b(?:damage|damages|breakage|breakages) deposit\b", "security deposit"),  # (the deposit against damage)
    (r"\btak(?:e|es|ing) (?:it|them|the \w+) (?:away|down)\b", "collect"),  # ("when do you take it away?")
    (r"\bspare time\b|\bfree time\b|\bfor fun\b", "hobby"),
    (r"\b(?:do|does|did|doing) for (?:a|her|his|their|my|your) living\b", "job"),  # "what do I do for a living?"
    # a duration said in words is its minutes ("for half an hour?" / "a 30-minute lesson")
    (r"\bhalf an hour\b|(?<!and a )\bhalf[- ]hour\b", "30 minutes"),
    (r"\b(?:an|one) hour and a half\b|\bone and a half hours\b", "90 minutes"),
    (r"\b(?:a )?quarter of an hour\b", "15 minutes"), (r"\bthree quarters of an hour\b", "45 minutes"),
    # whether a firm's area takes in a place ("do you come out that far?", "would you go out there?" / "we cover
    # Shrewsbury and Wem")
    # (not "do you still come out if it rains?", "would you charge to travel out to me?")
    (r"\b(?:come|go|travel)(?:s|ing)? out (?:that far|this far|there|as far as)\b|\b(?:that|this|so) far out\b|"
     r"\bgo(?:ing)? over there\b|"
     r"\b(?:come|go|travel)(?:s|ing)? (?:out )?to (?:my|our) (?:area|way|neck of the woods)\b",
     "cover area"),
    # (and whether it delivers to someone is whether it covers where they live: "could you deliver to her?" / "we don't
    # go out to Painswick")
    (r"\bdeliver(?:s|ing)? (?:out |round )?to (?:her|him|them|me|us|mine)\b(?! (?:on|by|at|before)\b)",
     r"\g<0> cover area"),
    (r"\b(?:log|wood)[- ]?burners?\b", "wood-burning stove"),
    (r"\bsafety (?:specs|glasses|spectacles|goggles)\b", "eye protection"),
    (r"\blife ?(?:jackets?|vests?)\b", "buoyancy aid"),
    (r"\blittle ones\b|\blittle (?:kids|children|'uns)\b|\btots\b", "toddlers"),
    # a place friendly to a thing lets it in ("is it wheelchair friendly?" / "step-free access"; "dog-friendly")
    (r"\bwheelchair[- ]friendly\b", "wheelchair accessible"), (r"\b(?:dog|pet)[- ]friendly\b", "dogs allowed"),
    (r"\b(?:child|kid|family|baby)[- ]friendly\b", "children welcome"),
    # being in when someone comes ("do i need to be home when you come?" / "you don't have to be in")
    (r"\b(?:(?:need|needs|have|has|got) to|must|should) be (?:in|home|at home|around|present)"
     r"(?=\s*(?:[,.;:?!]|$|when|while|for (?:it|that|the \w+|an? \w+)|as long|to (?!the\b)\w+))", "need present"),
    # eating in is the restaurant's ("is it dearer if we eat in?" / "restaurant meals cost £2 more")
    (r"\beat(?:s|ing)? in\b(?! (?:the|a|an|your|our|my)\b)|\bsit[- ]in\b", "eat restaurant"),
    # the owner is who runs it, where a text says no more ("Sparkwell is run by Dean Fairweather"), and the one it says
    # owns it runs it too ("owned by Craig Mercer, ... and Nadia Okafor runs the office": not Nadia alone)
    (r"\bwho (?:actually |really )?owns\b", "who runs"),
    (r"\b(?:is|are|was) owned by\b", "is owned and run by"),
    # the small hours are the night ("is it dearer at night?" / "between 11pm and 6am, fares are time and a half")
    (r"\bbetween (?:(?:9|10|11|12)(?:[.:]\d\d)? ?pm|midnight) and [3-7](?:[.:]\d\d)? ?am\b", r"\g<0> night"),
    (r"\bcom(?:e|es|ing) out\b(?! (?:if|when|in|on)\b)", "call out"),  # a tradesman's visit
    (r"\bamex\b", "american express"),
    (r"\bget(?:ting)? in touch\b", "contact"),
    (r"\bover[- ]?(?:60|65|70)s\b", r"\g<0> senior"),  # ("is it cheaper for pensioners?" / "over-65s pay £8")
    (r"\bin charge\b", "manager"),
    (r"\bput (?:me|you|him|her|them|us)? ?to sleep\b|\bknock(?:ed)? (?:me |him |her )?out\b", "sedation"),
    # buying several at once is a block ("any deal if I book a few?" / "a block of six lessons costs £96")
    (r"\b(buy|book|pay for|get)(?:ing)? (?:a load|loads|a few|several|a bunch|lots|in bulk)\b", r"\1 a block"),
    # "which day works?" asks which day, as "which day suits?" does
    (r"\b(which|what) (days?|times?|dates?|nights?|evenings?) (?:works?|would work|suits?|would suit|is best)\b",
     r"\1 \2"),
    # an hour from 7pm is in the evening ("are you open late any evening?" / "until 8pm on Thursdays")
    (r"\b(?:[7-9]|1[01])(?:[.:][0-5]\d)? ?pm\b", r"\g<0> evening"),
    # after work is the evening ("can I ride after my shift finishes?")
    (r"\bafter (?:work|my (?:shift|work|job)|i (?:finish|leave|get off) work)(?: (?:finishes|ends|is over))?\b|"
     r"\bafter (?:six|seven|eight|[678])(?: ?pm| ?p\.m\.| o'clock)?(?![.:]?\d| ?am\b)", "in the evening"),
    # how long a business has been going is how long it has traded ("trading since 1962")
    (r"\bbeen (?:going|around|in business|open|running)\b(?! (?:on|for a|late|at)\b)", "been trading"),
    (r"\bon top\b(?! of the (?:hill|building|roof|wall|cliff)\b)", "extra"),  # ("do the kids cost extra on top?")
    (r"\b(?:with|for) (?:the )?(?:two|both|2) of (?:them|us)\b", "for a second"),  # ("10% off the second child")
    # a visit to the customer's home ("could someone come round to my house?" / "we don't do home visits")
    (r"\b(?:come|pop|call) (?:round|over|out) to (?:my|our|his|her|their) (?:house|home|place|flat)\b", "home visit"),
    (r"\b(?:a )?(?:certain|set|minimum) number(?: of)?\b|\bat least how many\b", "minimum"),
    (r"\b(?:newbies?|first[- ]timers?|new starters?|newcomers?)\b", "first class"),  # ("your first class is free")
    (r"\bmoney off\b", "discount"),  # ("money" alone would be a main word nothing holds)
    (r"\b(\d+(?:\.\d\d)?) quid\b", r"£\1"), (r"\ba quid\b", "£1"),  # ("if i only spend about 25 quid?")
    (r"\b(?:the|your|a) cut[- ]?off(?: date| point)?\b", "the deadline"),  # ("whens the cut off?")
    # not paying is a deal ("any deals for little ones?" / "under-5s pay no studio fee")
    (r"\bpays? no (?:\w+ )?(?:fee|charge)\b|\b(?:go|goes|get in|gets in) free\b", r"\g<0> discount"),
    (r"\bhalf[- ]price for\b", r"\g<0> discount"),  # "any deals for teenagers?" / "half price for under 18s"
    (r"(?:[£$€] ?\d+(?:[.,]\d\d)?|\b\d+%|\b\d+(?:[.,]\d\d)? (?:pounds?|euros?|dollars?)|\bhalf|\banything|"
     r"\bsomething) off\b",
     r"\g<0> discount"),
    # "me and my mate", "just the two of us": a party of two
    (r"\b(?:me|myself) and (?:my|a|one) (?:\w+ )?(?:mate|friend|partner|wife|husband|boyfriend|girlfriend|son|"
     r"daughter|mum|dad|mother|father|brother|sister|colleague|pal|buddy|other half)\b|\bjust the two of us\b", "2"),
    (r"\bone[ -]to[ -]one\b|\b1[ -]to[ -]1\b|\b(?:to|for) (?:ourselves|themselves|yourselves)\b", "private"),
    (r"\b(?:stuck in traffic|held up|running behind)\b", "late"),  # ("what happens if i'm stuck in traffic?")
    (r"\bchange (?:my|our|your|their|his|her) minds?\b", "cancel"),  # ("do we get that back if we change our minds?")
    (r"\b(?:sat|sitting) down\b", "seated"),  # ("sat" alone is Saturday)
    # seeing a place before booking it ("can I come and look round first?" / "Sue shows people round")
    (r"\b(?:look|looks|looking|have a look|show|shows|showed|showing)(?: \w+)? (?:round|around)(?! (?:my|our|your)\b)",
     "viewing"),
    (r"\bget(?:s|ting)? (?:around|about)\b", "mobility"),  # "what I told you about getting around" / "a wheelchair"
    (r"\blet(?:s|ting)? (?:you|us|them|me) know\b", "tell"),  # "the deadline for letting you know" / "tell us by 6pm"
    # when something told happened is no topic ("oscar was sick last night, can he still come today?")
    (r"\b(?:last|the other) (?:night|evening)\b|\byesterday\b|\bthis morning\b|\bearlier today\b", "recently"),
    # standing in the water is touching the bottom ("will he be able to stand up in it?" / "most children under 8
    # can't touch the bottom")
    (r"\bstand(?:ing)? (?:up )?in (?:it|the water|the pool|the shallow end)\b|\bout of (?:his|her|their|my|your) "
     r"depth\b", "touch the bottom"),
    # not loud is quiet ("anything that isn't so loud?" / "a quiet session with the music off")
    (r"\b(?:isn't|is not|aren't|are not|not|less|never) (?:so |too |as |very |that )?(?:loud|noisy)\b", "quiet"),
    # how warm a pool or a room is, is its temperature ("how warm is the pool?" / "kept at 31 degrees")
    (r"\bhow (?:warm|hot|cold|chilly)\b", "how temperature"),
    # what is left to pay after a deposit is the balance ("when do we pay the rest?" / "the balance is due ...")
    (r"\b(?:pay|paying|settle|settling|owe) (?:off )?the rest\b|\bthe rest of the (?:money|payment|cost|bill|fee)\b",
     "pay balance"),
    (r"\bthe rest(?= (?:is |was |will be |would be )?(?:due|paid|payable)\b)", "pay balance"),  # ("the rest is due")
    (r"\b([a-z]+)[- ]wise\b", r"\1"),  # ("anything health wise?": of health)
    # brothers and sisters are siblings ("anything off with both kids coming?" / "brothers and sisters get 10% off")
    (r"\bbrothers? and sisters?\b|\bsisters? and brothers?\b|\bboth (?:my |of my |the )?(?:kids|children|boys|girls)\b|"
     r"\b(?:two|three|2|3) (?:kids|children)\b", r"\g<0> siblings"),
    # how a pupil is getting on is their progress ("how will i know how they're getting on?" / "a progress report")
    (r"\b(?:getting on|coming along|doing)\b(?= (?:with|at|in)\b|\W*$)", "progress"),
    # wanting to stop coming is cancelling ("how much notice if we want to stop?" / "to stop lessons we need...")
    (r"\b(?:want|wants|wanted|decide|decides|like) to (?:stop|quit|leave|give up)\b", r"\g<0> cancel"),
    # coming to see the customer's site or home is a visit ("do you come and look at the site first?" / "a free site
    # visit")
    (r"\b(?:come|comes|coming|pop|call) (?:out |round |over )?(?:and|to) (?:look|see|check)(?: at| over)?\b", "visit"),
]
