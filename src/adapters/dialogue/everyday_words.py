"""Everyday English words that people use for one another when they ask a business something: the boat that the
text calls a ship, booking ahead that it calls in advance, a stormy day that it calls high winds. One group per
line, matched by stem; a group holds words that answer for each other, not a topic's vocabulary (kinds of one
thing that exclude each other go in terms.EXCLUSIVE)."""

from __future__ import annotations

EVERYDAY_GROUPS = """
boat boats ship ships ferry ferries vessel vessels
board aboard onboard deck
storm storms stormy wind winds windy gale gales
rain rainy raining rainfall
snow snowy snowing ice icy
ahead advance beforehand
keep borrow borrowing borrowed loan loans lend lending
pick collect collecting collection pickup
arrive arrives arriving arrival arrivals land lands landing
depart departs departure departures sail sails sailing
midnight night nights overnight
ache aches aching pain painful hurt hurts sore
toothache tooth teeth dental
rent rents renting rental rentals hire hires hiring lease
fix fixes fixing repair repairs repaired mend service servicing
change changes changing move reschedule rearrange amend
cancel cancels cancelled cancelling cancellation cancellations
refund refunds refunded reimburse
allow allowed permit permitted welcome
ban banned forbidden prohibited
toilet toilets restroom restrooms bathroom bathrooms loo washroom
luggage baggage bag bags suitcase suitcases
website online web internet
email emails e-mail mail
mobile cell cellphone
cash card cards contactless
free complimentary
senior seniors pensioner pensioners elderly retired
student students
group groups party parties
teacher teachers instructor instructors tutor tutors coach coaches trainer trainers
lesson lessons class classes course courses session sessions workshop workshops
shop shops store stores
big bigger large larger size sizes capacity
small smaller little tiny
quick quickly fast rapid
car cars vehicle vehicles
doctor doctors gp physician
vet vets veterinary veterinarian
medicine medicines medication prescription prescriptions pharmacy
smoke smoking cigarette cigarettes vape vaping
wait waiting queue queues
ticket tickets pass passes admission entry
start starts begin begins commence
finish finishes end ends
quiet noise noisy silent
dinner supper evening
lunch midday noon
breakfast morning
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
alcohol alcoholic booze
"""
