"""Everyday English words that people use for one another when they ask a business something: the boat that the
text calls a ship, booking ahead that it calls in advance, a stormy day that it calls high winds. One group per
line, matched by stem; a group holds words that answer for each other, not a topic's vocabulary (kinds of one
thing that exclude each other go in terms.EXCLUSIVE)."""

from __future__ import annotations

EVERYDAY_GROUPS = """
boat boats ship ships ferry ferries vessel vessels dinghy dinghies yacht yachts
boat boats sea seasick seasickness
board aboard onboard deck
storm storms stormy wind winds windy gale gales
rain rainy raining rainfall weather
snow snowy snowing ice icy
ahead advance beforehand upfront deposit deposits
keep borrow borrowing borrowed loan loans lend lending
borrow borrowing hire hiring rent renting
pick collect collecting collection pickup fetch fetching grab
arrive arrives arriving arrival arrivals land lands landing
depart departs departure departures sail sails sailing
midnight night nights overnight
ache aches aching pain painful hurt hurts sore
toothache tooth teeth dental
rent rents renting rental rentals hire hires hiring lease
fix fixes fixing repair repairs repaired mend service servicing patch
change changes changing move reschedule rearrange amend
swap swaps swapped swapping exchange exchanges exchanged exchanging
cancel cancels cancelled cancelling cancellation cancellations
refund refunds refunded reimburse
allow allowed permit permitted welcome
assistance guide
someone somebody anyone anybody
enter enters entering entry entries
ban banned forbidden prohibited
toilet toilets restroom restrooms bathroom bathrooms loo washroom
luggage baggage bag bags suitcase suitcases
website online web internet
email emails e-mail mail
mobile cell cellphone
cash card cards contactless
free complimentary funded
senior seniors pensioner pensioners elderly retired
student students
group groups party parties
teacher teachers instructor instructors tutor tutors coach coaches trainer trainers teach teaches teaching taught
teach pro pros professionals
lesson lessons class classes course courses session sessions workshop workshops learn learning
shop shops store stores
big bigger large larger size sizes capacity
tall taller high higher height heights
discount discounts reduction reductions concession concessions deal deals
hobby hobbies pastime pastimes keen fan enthusiast
enjoy enjoys keen like likes love loves prefer prefers preferred obsessed
condition conditions health medical allergy allergic intolerant intolerance coeliac celiac diabetic diabetes asthma
cafe cafes café restaurant restaurants canteen snack snacks food
sandwich sandwiches picnic picnics snack snacks food
talk speak contact ask
small smaller little tiny
quick quickly quicker fast faster rapid express rush urgent speedy
car cars vehicle vehicles
car cars drive drives
doctor doctors gp physician
vet vets veterinary veterinarian
medicine medicines medication prescription prescriptions pharmacy
smoke smoking cigarette cigarettes vape vaping
wait waiting queue queues
ticket tickets pass passes admission entry
start starts begin begins commence
finish finishes end ends
quiet noise noisy silent
dinner dinners supper lunch lunches breakfast breakfasts food meal meals fed feed
winter november december january february
summer june july august
spring march april may
autumn fall september october november
bush bushes shrub shrubs
stay stays staying overnight
seat seats seating chair chairs
cake cakes pastry pastries
gluten coeliac celiac
nut nuts peanut peanuts
dairy lactose milk
vegan vegans plant-based dairy-free oat soya soy
pause pauses paused pausing suspend suspends suspended stop stops stopping
spend spending spent order orders
alcohol alcoholic booze wine wines beer beers spirits
wrong bad problem problems issue issues trouble
watch watching spectator spectators audience
flip flips somersault somersaults backflip backflips
latecomer latecomers late lateness punctual early
sun sunlight sunshine sunny uv daylight
length lengths lane lanes
install installs installing installed installation fit fits fitting fitted
stop stops block blocks prevent prevents protect protects
club clubs society societies association associations
pregnant pregnancy pregnancies prenatal antenatal expecting maternity
accompany accompanied supervise supervised supervision
form forms waiver waivers paperwork
busy crowded full packed
whole full entire complete
normal usual usually regular regularly
hairdresser hairdressers stylist stylists barber barbers
easy easier gentle gentler beginner beginners
collect meet meets met meeting
specialise specialises specialist specialize specializes specialty speciality
buggy buggies pushchair pushchairs pram prams stroller strollers
dark darkness floodlit floodlight floodlights
friend friends mate mates pal pals guest guests
season annual yearly
shoot shoots photoshoot photoshoots session sessions
scared frightened afraid fear fears nervous anxious
ill unwell sick poorly
jab jabs vaccination vaccinations vaccinate vaccinated vaccine vaccines booster boosters immunisation
site premises grounds
house home flat address
dog dogs pet pets labrador spaniel collie terrier poodle cockapoo cavapoo labradoodle beagle retriever dachshund
dog dogs husky pug
dog dogs bulldog whippet greyhound schnauzer chihuahua alsatian lurcher pointer setter corgi dalmatian
cat cats pet pets siamese persian ragdoll tabby moggy
lock locks locker lockers
stuff things belongings valuables possessions
loan courtesy replacement
suggest suggestion recommend recommended advise
instalment instalments installment installments spread
fiance fiancee fiancé fiancée marry marrying
wedding weddings wed marry marrying married marriage
instrument instruments piano pianos guitar guitars violin violins drum drums cello cellos flute flutes saxophone
own owns owned
late lateness latecomer latecomers
hour hours minute minutes
weekday weekdays week
handle handles handled handling
id identification proof passport passports licence license
burn burning bonfire bonfires fire fires
urgent urgently rush hurry express asap quicker faster sooner
bill bills billing billed invoice invoices invoiced
consultation consultations assessment assessments
gym gyms fitness
guarantee guarantees guaranteed warranty warranties
first initial introductory
paint paints painting painted respray resprays resprayed
streetdance breakdance breakdancing breakdancer breakdancers hiphop
compulsory mandatory obligatory required optional
poison poisons bait baits pesticide pesticides insecticide insecticides
guest guests visitor visitors attendee attendees people
mobility wheelchair wheelchairs crutches walker
wheelchair wheelchairs accessible accessibility ramp ramps step-free
crockery plate plates cup cups mug mugs cutlery
console consoles playstation playstations xbox xboxes nintendo
hat hats helmet helmets
hold holds fit accommodate accommodates capacity
calm calming sedate sedates sedated sedative sedatives sedation tranquilliser tranquillisers
check checks checked check-up checkup test tests examination
loose tighten tightens tightened adjust adjusts adjusted adjustment
stuck hint hints clue clues
novice novices newbie newbies beginner beginners learn learner learners
boss bosses owner owners manager managers head heads
detergent detergents powder soap softener
saltwater marine seawater
vegetarian vegetarians veggie veggies vegan vegans
legal law laws lawyer lawyers solicitor solicitors
visa visas immigration
earn earns earning earnings income salary wage wages
breastfeed breastfeeding feeding
drip dripping leak leaks leaking repair repairs
photo photos photograph photographs picture pictures portrait portraits image images
news update updates
teach teaches teaching taught learn learns learning
join joins joined joining membership memberships
club clubs team teams squad squads
dry drying dryer dryers tumble
clothes clothing laundry washing
amp amps amplifier amplifiers
food catering caterer caterers cater
part parts saddle saddles pedal pedals handlebar handlebars grips mudguard mudguards rack racks
balance remainder remaining outstanding
temperature temperatures degrees heated
pudding puddings dessert desserts afters
sea seas ocean shore harbour coast
"""
