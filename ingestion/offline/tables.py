"""Closed word lists and word → relation tables of the offline extractor.

Closed lists on purpose: a rule that fires only on a known word ("I play the *cello*") cannot turn
"I play it by ear" or "I have a question" into a fact. Extend a list to widen a rule.
"""

from __future__ import annotations

INSTRUMENTS = """guitar piano violin viola cello drums drum ukulele bass saxophone sax flute trumpet
trombone harp clarinet banjo keyboard keyboards accordion harmonica mandolin oboe tuba organ synth""".split()
INSTRUMENT_ADJECTIVES = "acoustic electric classical bass jazz grand".split()

GAMES = """tennis soccer football basketball baseball volleyball golf chess cricket hockey rugby
badminton squash poker bridge pickleball lacrosse softball frisbee darts pool billiards handball
netball polo water-polo ping-pong""".split()
GAME_PHRASES = ["video games", "board games", "table tennis", "ping pong", "ultimate frisbee", "card games",
                "beach volleyball", "ice hockey", "water polo", "computer games"]

# Pastimes said as gerunds ("I love hiking in the mountains": hiking is the taste, the rest is detail).
HOBBY_GERUNDS = """hiking running jogging swimming cycling biking camping fishing hunting painting
drawing sketching cooking baking dancing singing reading writing knitting crocheting sewing
gardening surfing skiing snowboarding skating skateboarding climbing bouldering kayaking canoeing
sailing rowing traveling travelling photography woodworking pottery yoga pilates meditation
meditating journaling blogging gaming birdwatching horseback riding boxing karate judo taekwondo
fencing archery knitting quilting scrapbooking volunteering golfing bowling diving scuba snorkeling
backpacking stargazing""".split()
HOBBY_PHRASES = ["rock climbing", "bird watching", "horseback riding", "scuba diving", "trail running",
                 "ice skating", "roller skating", "mountain biking", "tai chi", "martial arts",
                 "salsa dancing", "wood carving", "calligraphy"]
# Practices one "does" or "practices" rather than plays.
PRACTICES = """yoga pilates karate judo taekwondo meditation crossfit boxing kickboxing jiu-jitsu
aikido kung-fu parkour calligraphy""".split()

# Verbs whose "-ing" form is a pastime ("I love to cook" = likes cooking), with that form.
HOBBY_VERBS = {
    "cook": "cooking", "bake": "baking", "paint": "painting", "draw": "drawing", "dance": "dancing",
    "sing": "singing", "swim": "swimming", "run": "running", "hike": "hiking", "read": "reading",
    "write": "writing", "knit": "knitting", "sew": "sewing", "garden": "gardening", "surf": "surfing",
    "ski": "skiing", "skate": "skating", "climb": "climbing", "travel": "traveling", "fish": "fishing",
    "camp": "camping", "cycle": "cycling", "bike": "biking", "code": "coding", "program": "programming",
    "drive": "driving", "sail": "sailing", "box": "boxing", "meditate": "meditating", "jog": "jogging",
    "crochet": "crocheting", "journal": "journaling",
}

LANGUAGES = """English Spanish French German Italian Portuguese Japanese Chinese Mandarin Cantonese
Korean Arabic Russian Hindi Urdu Bengali Punjabi Turkish Greek Latin Hebrew Dutch Swedish Norwegian
Danish Finnish Polish Czech Ukrainian Vietnamese Thai Indonesian Tagalog Swahili Persian Farsi Irish
Welsh ASL Basque Catalan Galician Romanian Hungarian Bulgarian Serbian Croatian Slovak Slovenian
Estonian Latvian Lithuanian Icelandic Malay Tamil Telugu Marathi Gujarati Amharic Yoruba Igbo Zulu
Xhosa Afrikaans Hausa Somali Pashto Kurdish Armenian Georgian Mongolian Nepali Sinhala Burmese Khmer
Lao Esperanto Yiddish Maori Hawaiian Quechua Twi""".split()
# Subjects and skills one learns (lowercase); languages are matched separately, capitalized.
SKILLS = """python javascript java programming coding calligraphy photography pottery ceramics piano
guitar violin cello drums singing dancing dance salsa tango ballet painting drawing sculpture sign-
language knitting cooking baking chess math mathematics physics chemistry biology statistics
economics philosophy history law medicine nursing accounting design architecture astronomy
psychology woodworking welding sewing sailing surfing swimming skiing snowboarding archery fencing
boxing karate judo yoga meditation""".split()
SKILL_PHRASES = ["sign language", "machine learning", "data science", "web development", "graphic design",
                 "computer science", "creative writing", "public speaking", "interior design", "music theory",
                 "film making", "digital art", "first aid", "martial arts", "ballroom dancing"]

PET_BREEDS = """retriever labrador shepherd beagle greyhound corgi husky poodle bulldog terrier
dachshund chihuahua pug spaniel collie rottweiler doberman schnauzer pitbull sheepdog maltese shih-
tzu cockatiel budgie parakeet gecko iguana chinchilla hedgehog tabby siamese""".split()
PET_BREED_PHRASES = ["golden retriever", "labrador retriever", "german shepherd", "border collie",
                     "cocker spaniel", "pit bull", "guinea pig", "bearded dragon", "maine coon",
                     "french bulldog", "jack russell"]

# Things people own that a plain "I have a ..." can name without being a meeting, an idea or a question.
POSSESSIONS = """car bike bicycle motorcycle motorbike scooter truck van boat yacht kayak canoe
sailboat house apartment flat condo cabin cottage farm ranch garden pool piano guitar violin camera
telescope laptop computer tablet phone smartphone drone tent rv caravan convertible jeep sofa couch
treehouse bakery cafe restaurant shop store""".split()
POSSESSION_PHRASES = ["record player", "vacation home", "summer house", "beach house", "food truck",
                      "sports car", "pickup truck", "electric car", "3d printer", "gaming pc"]
CAR_BRANDS = """Tesla Toyota Honda BMW Audi Ford Jeep Subaru Mercedes Porsche Prius Volvo Volkswagen
Mazda Nissan Kia Hyundai Lexus Mini Ferrari Chevy Chevrolet Harley Vespa""".split()

DIETS = {
    "vegetarian": "vegetarian", "vegan": "vegan", "pescatarian": "pescatarian", "pescetarian": "pescatarian",
    "gluten-free": "gluten-free", "gluten free": "gluten-free", "dairy-free": "dairy-free",
    "dairy free": "dairy-free", "lactose intolerant": "lactose intolerant",
    "lactose-intolerant": "lactose intolerant",
    "keto": "keto", "paleo": "paleo", "kosher": "kosher", "halal": "halal", "plant-based": "plant-based",
    "plant based": "plant-based", "gluten intolerant": "gluten-free", "sober": "sober", "teetotal": "sober",
}
INTOLERANCES = {"gluten": "gluten-free", "lactose": "lactose intolerant", "dairy": "dairy-free"}

# "-ing" forms of verbs whose plan ("I'm running a marathon next month") is kept in base form.
PLAN_VERBS = {
    "starting": "start", "running": "run", "taking": "take", "visiting": "visit", "flying": "fly",
    "leaving": "leave", "attending": "attend", "hosting": "host", "throwing": "throw", "buying": "buy",
    "adopting": "adopt", "launching": "launch", "opening": "open", "joining": "join", "beginning": "begin",
    "celebrating": "celebrate", "meeting": "meet", "seeing": "see", "trying": "try", "playing": "play",
    "driving": "drive", "hiking": "hike", "volunteering": "volunteer", "performing": "perform",
    "competing": "compete", "teaching": "teach", "presenting": "present", "getting": "get",
    "doing": "do", "making": "make", "having": "have", "traveling": "travel",
    "travelling": "travel", "speaking": "speak", "organizing": "organize", "organising": "organise",
    "entering": "enter", "signing": "sign", "walking": "walk", "riding": "ride", "camping": "camp",
    "putting": "put", "planning": "plan",
}
# Plan verbs that need no object: what follows may be their company or place ("hiking with some buddies").
# (Travel verbs are not among them: "flying to Tokyo" is a visit planned, which its own rule takes.)
GOING_ALONG = frozenset({"hiking", "camping", "walking", "riding", "volunteering", "competing", "performing"})

# Kin words beyond the immediate family, with the relation they give.
EXTENDED_KIN = {
    "grandmother": "HAS_GRANDPARENT", "grandfather": "HAS_GRANDPARENT", "grandma": "HAS_GRANDPARENT",
    "grandpa": "HAS_GRANDPARENT", "granny": "HAS_GRANDPARENT", "nana": "HAS_GRANDPARENT",
    "grandson": "HAS_GRANDCHILD", "granddaughter": "HAS_GRANDCHILD", "grandchild": "HAS_GRANDCHILD",
    "cousin": "HAS_COUSIN", "aunt": "HAS_RELATIVE", "uncle": "HAS_RELATIVE", "niece": "HAS_RELATIVE",
    "nephew": "HAS_RELATIVE", "stepson": "HAS_CHILD", "stepdaughter": "HAS_CHILD", "stepmom": "HAS_PARENT",
    "stepdad": "HAS_PARENT", "roommate": "FRIEND_OF", "coworker": "KNOWS", "colleague": "KNOWS",
    "neighbor": "KNOWS", "neighbour": "KNOWS", "boss": "MANAGED_BY", "mentor": "KNOWS",
    "cofounder": "COFOUNDER", "co-founder": "COFOUNDER",
}
# Words for where someone is from or what they believe, which a capital does not make a name ("My boss
# is Irish"), and the languages (LANGUAGES), which are such words too.
NOT_NAMES = frozenset("""American British Canadian Australian Brazilian Mexican Argentinian Chilean Colombian
Peruvian Indian Pakistani Nigerian Ghanaian Kenyan Egyptian Moroccan Algerian Tunisian Israeli Iranian Iraqi
Syrian Lebanese Saudi Belgian Swiss Austrian Scottish Scots Cuban Jamaican Filipino Chinese Japanese Korean
Catholic Protestant Jewish Muslim Christian Hindu Buddhist Sikh Mormon Atheist European African Asian
Latino Latina Black White Asian Kiwi Aussie Canadian Yankee""".split()) | frozenset(LANGUAGES)

# Which pronoun a kin word allows ("my sister Anna ... she", never "he").
FEMININE_KIN = frozenset("""sister mom mum mother wife fiancee fiancée girlfriend daughter grandmother grandma
granny nana aunt niece granddaughter stepdaughter stepmom""".split())
MASCULINE_KIN = frozenset("""brother dad father husband fiance fiancé boyfriend son grandfather grandpa uncle
nephew grandson stepson stepdad""".split())


# --- the word lists of the first rule families ---------------------------------------------------

NAME_STOP = frozenset(
    """I We You He She They It My Our Your His Her Their The A An This That These Those There Here
    What When Where Who Why How Which Yes Yeah Yep Yup No Nope Oh Ok Okay Well So And But Or Also
    Then Now Today Tonight Yesterday Tomorrow Last Next Just Actually Sorry Thanks Thank Hey Hi
    Hello Wow Woah Whoa Congrats Cool Great Awesome Sure Anyway Btw Lol Haha Omg Guess Maybe
    Everyone Someone Somebody Anyone Nobody Everybody Mom Mum Dad Mother Father Sis Bro Dear
    Heard Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June
    July August September October November December Since After Before While Because If Once
    Still Not Never Did Do Does Is Are Was Were Have Has Had Can Could Would Should Speaking
    Good Nice Love Like Lately Recently Finally Really Sounds Looks Being Going Gonna Got""".split()
)
# Verbs that open a sentence without its subject ("Left Google last year, ..."): a capitalised word
# sequence starting with one is no name at all.
VERB_OPENERS = frozenset(
    """Left Joined Moved Started Quit Went Lost Took Made Found Switched Changed Finished Bought Sold Became
    Retired Graduated Working Living Still""".split()
)
JOBS = """engineer developer programmer architect designer manager director teacher professor
lecturer nurse doctor physician surgeon dentist lawyer attorney accountant banker analyst consultant
scientist researcher postdoc chef cook baker waiter waitress bartender barista cashier clerk driver pilot
mechanic electrician plumber carpenter writer journalist editor author artist painter photographer
musician actor actress dancer singer producer marketer recruiter intern assistant secretary
receptionist librarian pharmacist therapist counselor counsellor psychologist veterinarian vet
firefighter officer soldier coach trainer instructor tutor ceo cto cfo coo founder co-founder
cofounder entrepreneur administrator technician specialist coordinator supervisor lead vp president
executive agent broker realtor farmer tailor stylist hairdresser janitor paramedic caregiver
worker strategist planner economist statistician mathematician physicist chemist biologist
translator interpreter policeman policewoman detective judge politician senator mayor
choreographer animator illustrator copywriter programmer tester admin sysadmin attendant hygienist
paralegal nanny babysitter housekeeper surveyor welder machinist optometrist midwife dietitian nutritionist
principal dean paramedic auditor buyer courier dev pm sre swe sde apprentice trainee underwriter actuary
merchandiser""".split()
PETS = """dog puppy pup cat kitten hamster rabbit bunny parrot bird fish turtle tortoise horse
snake lizard ferret goldfish guinea-pig""".split() + PET_BREEDS + PET_BREED_PHRASES
CONDITIONS = """asthma diabetes adhd autism anxiety depression migraines epilepsy arthritis cancer
hypertension insomnia dyslexia ptsd ocd lupus eczema psoriasis scoliosis endometriosis
fibromyalgia celiac tinnitus""".split()
EVENTS = """group class parade conference workshop meeting mtg concert festival fest show reading
event fair convention party wedding game match service ceremony seminar session lecture talk
meetup rally exhibition exhibit gala fundraiser race marathon tournament competition comp
recital screening premiere retreat camp course webinar hackathon protest march vigil funeral
reunion banquet auction expo summit symposium club""".split()
KIN = {
    "sister": "HAS_SIBLING", "brother": "HAS_SIBLING", "sibling": "HAS_SIBLING",
    "son": "HAS_CHILD", "daughter": "HAS_CHILD", "kid": "HAS_CHILD", "child": "HAS_CHILD",
    "mom": "HAS_PARENT", "mum": "HAS_PARENT", "mother": "HAS_PARENT", "dad": "HAS_PARENT",
    "father": "HAS_PARENT",
    "husband": "MARRIED_TO", "wife": "MARRIED_TO", "spouse": "MARRIED_TO",
    "fiance": "ENGAGED_TO", "fiancé": "ENGAGED_TO", "fiancee": "ENGAGED_TO", "fiancée": "ENGAGED_TO",
    "boyfriend": "DATING", "girlfriend": "DATING", "partner": "DATING",
    "friend": "FRIEND_OF", "best friend": "FRIEND_OF", "buddy": "FRIEND_OF", "bestie": "FRIEND_OF",
    **{pet: "HAS_PET" for pet in PETS},
    **EXTENDED_KIN,
}
PRONOUNS = frozenset(
    "i me my mine myself we us our ours you your yours he him his she her hers they them their it its "
    "this that these those something anything everything nothing someone everyone one".split()
)
NOT_POSSESSIONS = frozenset(
    """job position role chance opportunity idea friend friends perspective sense feeling hobby look start
    goal life appreciation understanding routine habit problem problems baby news question lot bit time way
    feedback support inspiration motivation kid kids son daughter addition member place home""".split()
)
INTRANSITIVE = frozenset(
    "went ran volunteered graduated competed danced hiked climbed swam biked camped raced performed played "
    "sang practiced practised celebrated".split()
)
PREPOSITIONS = frozenset("for to with at in on from by of about into".split())
PARTICLES = frozenset("out up off back down over away".split())
# More words a thing done must not end on ("a big game against"), and adjectives that cannot end it
# either ("had an amazing": its noun was cut off).
TRAILING_PREPOSITIONS = frozenset(
    "against near around over through after before during without like thanks too".split())
HANGING_ADJECTIVES = frozenset(
    """amazing awesome great good nice wonderful fun big little crazy wild real emotional special huge
    cool lovely beautiful fantastic incredible exciting meaningful quiet tough hard busy""".split())
CLAUSE_OPENERS = frozenset(
    "and & so then also just but yeah yes oh well actually finally today recently anyway guess what btw why "
    "because since as when now really too".split()
)
NOT_OBJECT_START = frozenset(
    """how what when where why who whom whose to being doing going a an the is are was were be been has have
    had do does did will would can could should may might must not so very especially also even all
    every""".split()
)
SPECIFIC = ("the", "this", "that", "these", "those", "my", "our", "his", "her", "their", "your", "its",
            "all", "every")
# Base verb forms: after a third-person name they show the name is no subject ("Themes like ...").
BASE_FORMS = frozenset(
    """like love enjoy adore hate dislike detest live work study move relocate go have own suffer plan
    visit attend quit leave marry date divorce need want feel seem look sound""".split()
)
DETERMINERS = ("a", "an", "the", "this", "that", "these", "those", "my", "our", "some", "his", "her",
               "their")
# Relations whose object may be a list ("hiking, painting and pottery"): one fact per item, each
# cleaned strictly.
LIST_RELATIONS = ("LIKES", "DISLIKES", "ALLERGIC_TO", "HAS_HOBBY", "SPEAKS", "PREFERS", "AVOIDS")
# Kind words that belong to every item of a list ("action and sci-fi movies").
SHARED_HEADS = frozenset(
    "movies films books novels shows series games songs music food dishes cuisine".split())
THIRD_PERSON = ("he", "she", "they")
VAGUE_TASTES = frozenset(
    "playing doing making trying working going being getting having helping things stuff".split())
COUNTS = frozenset("two three four five six 2 3 4 5 6 some".split())

# Well-known organisations: "moved to Microsoft" is a new employer, never a home. A name with an
# organisation's word ("Zeta Labs", "Northwind Bank") or one the chat gave as a workplace counts too.
COMPANIES = frozenset("""Microsoft Google Alphabet Apple Amazon Meta Facebook Instagram WhatsApp Netflix
Stripe Shopify Salesforce Oracle IBM Intel AMD Nvidia Qualcomm Tesla SpaceX Uber Lyft Airbnb Spotify Twitter
LinkedIn Adobe Cisco Dell HP Lenovo Samsung Sony Nintendo Nike Adidas Puma Starbucks Walmart Target Costco
IKEA Deloitte KPMG PwC EY Accenture McKinsey BCG Bain Capgemini JPMorgan Citi Citibank Barclays HSBC
Santander Pfizer Moderna Novartis Roche AstraZeneca Siemens Bosch Infosys Wipro TCS Alibaba Tencent Baidu
ByteDance TikTok Huawei Xiaomi OpenAI Anthropic DeepMind Dropbox Slack Zoom Atlassian GitHub GitLab Reddit
Pinterest Snap Snapchat Yahoo eBay PayPal Visa Mastercard Unilever Nestle Disney Pixar NASA Boeing Airbus
Lockheed Ford Volkswagen Toyota Honda BMW Audi Porsche Ferrari Mercedes Volvo Nokia Ericsson Philips
SAP Spotify Revolut Monzo Klarna Canva Figma Notion Asana Twilio Cloudflare Datadog Snowflake Databricks
Palantir Coinbase Robinhood DoorDash Instacart Zillow Expedia Booking Etsy Wayfair Peloton Intuit
Deliveroo Zalando Rakuten Sony Panasonic Toshiba Hitachi Fujitsu Canon Nikon Unity Epic Valve Ubisoft
EA Activision Blizzard Riot Bloomberg Reuters BBC CNN Vogue Goldman""".split())
