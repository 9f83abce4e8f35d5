"""A fourth held-out set for ``supersession_chats.py --holdout holdout3`` (issue 50, values revised in
passing).

Written on 2026-12-07, after the rules of that day's first change (a spaced dash ends a sentence,
"an hour" is a duration, an identifier in a subject sets it apart) and before any later one, and
never tuned to them: attributes, holders, values and phrasings used by none of the other sets,
styles of their own and a seed of their own (:data:`SEED`). Half the values are names, not numbers
(a vet, an internet provider, a bank, a choir's rehearsal day); revisions often leave out the
attribute's word ("Dr Ferreira retired, we take the cat to Dr Lindgren now"), some keep it.

Siblings are the same attribute of another holder, stated early; decoys are said late about a value
that is never revised (a plan, a wish, a question, the past, someone else's). Run only, never edit
to improve a score (plain mistakes may be fixed, and the commit says so).
"""

from __future__ import annotations

from benchmarks.supersession_chats import Slot

# ruff: noqa: E501 (one slot's values and phrasings a line each: easier to read as data)

SEED = 9137

SLOTS: tuple[Slot, ...] = (
    Slot("vet", (("Dr Ferreira", "Dr Lindgren"), ("Dr Abbott", "Dr Okonkwo"), ("Dr Sato", "Dr Brennan")),
         ("our cat's vet is {v}", "we take the cat to {v} at the clinic on Mill Lane", "{v} looks after our cat"),
         ("we switched the cat to {v}", "the cat sees {v} since the old clinic closed", "our vet is {v} these days"),
         "Who is {name}'s vet?",
         "{v} can tell you whether the booster is due before the trip.",
         ("my mother's dog goes to {v}", ("Dr Halvorsen", "Dr Mensah", "Dr Quiroga")),
         ("a friend swears by {v}", "maybe we should try {v} next time", "is {v} any good with cats?")),
    Slot("internet_speed", (("100 Mbps", "500 Mbps"), ("50 Mbps", "300 Mbps"), ("1 Gbps", "250 Mbps")),
         ("our home internet is {v}", "we have a {v} line at home", "the broadband at home does {v}"),
         ("the line was upgraded to {v}", "we're on {v} since the fibre went in", "home internet does {v} now"),
         "How fast is {name}'s home internet?",
         "On {v}, a wired connection to the desk will still beat the Wi-Fi for calls.",
         ("the office connection is {v}", ("2 Gbps", "80 Mbps", "10 Gbps")),
         ("we could get {v} if we paid more", "my neighbour has {v}", "would {v} be enough for streaming?")),
    Slot("bank", (("Monzo", "Starling"), ("ING", "Revolut"), ("Chase", "Ally")),
         ("I bank with {v}", "my current account is at {v}", "my salary goes into {v}"),
         ("I moved my current account to {v}", "I'm with {v} for everyday banking now", "everything runs through {v} since the switch"),
         "Which bank does {name} use for everyday banking?",
         "{v} lets you set up the savings pots straight from the app.",
         ("the business account is at {v}", ("Barclays", "Bunq", "Wells Fargo")),
         ("I keep thinking about moving to {v}", "my sister banks with {v}", "does {v} charge for transfers abroad?")),
    Slot("choir_day", (("Tuesday", "Thursday"), ("Monday", "Wednesday"), ("Wednesday", "Sunday")),
         ("choir rehearses on {v} evenings", "I have choir every {v}", "{v} is choir night for me"),
         ("choir moved to {v}", "rehearsals are on {v} now", "we sing on {v} since the new director came"),
         "Which day does {name}'s choir rehearse?",
         "With choir on {v}, an early dinner makes the evening less of a rush.",
         ("the kids' swimming is on {v}", ("Friday", "Saturday", "Tuesday")),
         ("the choir might move to {v}", "a friend's choir meets on {v}", "would {v} work better for rehearsals?")),
    Slot("mileage", (("42,000 km", "51,000 km"), ("88,000 km", "97,500 km"), ("15,000 km", "26,000 km")),
         ("the car has {v} on the clock", "our Golf has done {v}", "the odometer says {v}"),
         ("the clock's at {v} after the summer trips", "we've passed {v}", "it's done {v} by now"),
         "How many kilometres has {name}'s car done?",
         "At {v}, check when the timing belt was last changed.",
         ("my partner's van has done {v}", ("140,000 km", "63,000 km", "210,000 km")),
         ("the dealer wants cars under {v}", "the one we test drove had {v}", "is {v} a lot for a petrol car?")),
    Slot("api_limit", (("100 requests per minute", "300 requests per minute"), ("60 requests per minute", "120 requests per minute"),
                       ("1,000 requests per minute", "600 requests per minute")),
         ("the partner API lets us make {v}", "our quota on the partner API is {v}", "the partner API caps us at {v}"),
         ("they raised our quota to {v}", "the cap is {v} on the new plan", "we get {v} since the contract renewal"),
         "What is {name}'s rate limit on the partner API?",
         "At {v}, a token bucket in the client keeps bursts under the cap.",
         ("the maps API allows {v}", ("50 requests per minute", "30 requests per minute", "500 requests per minute")),
         ("we asked for {v}", "their enterprise tier gives {v}", "could we get {v} if we cached more?")),
    Slot("landlord", (("Mr Kowalczyk", "Hartley Lettings"), ("Mrs Duarte", "Greystone Homes"), ("Mr Eriksen", "Oakline Property")),
         ("our landlord is {v}", "we rent the flat from {v}", "{v} owns our flat"),
         ("the flat was sold, {v} is the landlord now", "we pay rent to {v} since the sale", "{v} took over the flat"),
         "Who is {name}'s landlord?",
         "Put repair requests to {v} in writing and keep copies.",
         ("my brother rents from {v}", ("Mr Papadakis", "Northgate Estates", "Mrs Lindqvist")),
         ("a friend rents from {v}", "we might rent from {v} if we move", "has anyone had trouble with {v}?")),
    Slot("standup_time", (("9:15", "10:00"), ("9:30", "8:45"), ("10:30", "9:00")),
         ("our standup is at {v}", "the team meets at {v} every morning", "daily standup starts at {v}"),
         ("standup is at {v} now", "we do standup at {v} since the time change", "the morning sync moved to {v}"),
         "What time is {name}'s daily standup?",
         "With standup at {v}, blocking the hour before it for focus work is easy.",
         ("the design team meets at {v}", ("11:00", "14:00", "8:30")),
         ("I'd prefer standup at {v}", "another team does theirs at {v}", "could we move standup to {v}?")),
    Slot("plant_watering", (("every 3 days", "every 7 days"), ("twice a week", "once a week"), ("every 5 days", "every 10 days")),
         ("I water the fiddle leaf fig {v}", "the fig gets watered {v}", "I give the fiddle leaf fig water {v}"),
         ("I only water the fig {v} now", "the fig is on {v} since I repotted it", "watering the fig {v} these days"),
         "How often does {name} water the fiddle leaf fig?",
         "Watering {v}, let the top few centimetres dry out between waterings.",
         ("the monstera gets water {v}", ("every 4 days", "every 2 weeks", "twice a week")),
         ("the shop said to water it {v}", "my aunt waters hers {v}", "should I water it {v} in winter?")),
    Slot("insulin", (("18 units", "22 units"), ("30 units", "26 units"), ("12 units", "16 units")),
         ("my evening insulin is {v}", "I inject {v} of basal insulin at night", "my basal dose is {v}"),
         ("the nurse put my basal up to {v}", "I'm taking {v} at night now", "my evening dose is {v} since the review"),
         "What is {name}'s evening insulin dose?",
         "On {v} at night, keep a log of fasting readings for the next appointment.",
         ("my dad takes {v} in the morning", ("10 units", "40 units", "24 units")),
         ("the nurse mentioned maybe {v} later on", "a friend of mine takes {v}", "is {v} a normal basal dose?")),
    Slot("gym_fee", (("€35 a month", "€42 a month"), ("£28 a month", "£19 a month"), ("$45 a month", "$60 a month")),
         ("my gym membership is {v}", "I pay {v} for the gym", "the gym costs me {v}"),
         ("the gym put prices up, I pay {v} now", "I'm on the {v} plan since I dropped the classes", "the membership is {v} these days"),
         "How much does {name} pay for the gym?",
         "At {v}, three visits a week makes each session cheap.",
         ("the climbing wall is {v}", ("€50 a month", "£40 a month", "$75 a month")),
         ("the gym near work is {v}", "I might pay {v} for a pool", "is {v} too much for a gym?")),
    Slot("podcast_downloads", (("2,000 downloads", "3,500 downloads"), ("800 downloads", "1,400 downloads"),
                               ("12,000 downloads", "9,000 downloads")),
         ("the podcast gets about {v} an episode", "we average {v} per episode on the show", "our show pulls {v} an episode"),
         ("the show is at {v} an episode lately", "we're seeing {v} per episode since the guest series", "episodes get {v} now"),
         "How many downloads does {name}'s podcast get per episode?",
         "At {v} an episode, a sponsor will usually ask for the last three months of numbers.",
         ("my co-host's other show gets {v} an episode", ("500 downloads", "20,000 downloads", "4,000 downloads")),
         ("we hope to reach {v} an episode next year", "a similar show gets {v} an episode", "what would {v} an episode be worth to a sponsor?")),
    Slot("school", (("Riverside Primary", "St Anne's Primary"), ("Hillcrest Elementary", "Maple Grove Elementary"), ("Oak Park School", "Linden School")),
         ("our son goes to {v}", "the boy is at {v}", "our son is in year 3 at {v}"),
         ("our son started at {v} after the move", "he's at {v} since September", "we moved him to {v}"),
         "Which school does {name}'s son go to?",
         "{v} will have a term calendar on its website for the holiday dates.",
         ("our daughter goes to {v}", ("Westfield Academy", "Brookside High", "Elmwood Secondary")),
         ("we looked round {v} last year", "my colleague's kids go to {v}", "is {v} any good for music?")),
)

# How the revision is slipped in: ``{p}`` the revised phrase, ``{r}`` the request.
REVISED_STYLES: tuple[str, ...] = (
    "{R} Oh, and {p}.",
    "Quick update before I forget: {p}. {R}",
    "{P}! Anyway, different topic: {r}",
    "{R} (Small change on my side: {p}.)",
    "So {p}, just so you know. {R}",
)
STATED_STYLES: tuple[str, ...] = (
    "{R} FYI {p}.",
    "A bit of context: {p}. {R}",
    "{P}, and I was wondering: {r}",
)
