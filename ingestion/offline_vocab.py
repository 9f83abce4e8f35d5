"""Word lists for the offline extractor's newer rule families (pastimes, learning, pets, diet, things).

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
Welsh ASL""".split()
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
}

# Kin words beyond the immediate family, with the relation they give.
EXTENDED_KIN = {
    "grandmother": "HAS_GRANDPARENT", "grandfather": "HAS_GRANDPARENT", "grandma": "HAS_GRANDPARENT",
    "grandpa": "HAS_GRANDPARENT", "granny": "HAS_GRANDPARENT", "nana": "HAS_GRANDPARENT",
    "grandson": "HAS_GRANDCHILD", "granddaughter": "HAS_GRANDCHILD", "grandchild": "HAS_GRANDCHILD",
    "cousin": "HAS_COUSIN", "aunt": "HAS_RELATIVE", "uncle": "HAS_RELATIVE", "niece": "HAS_RELATIVE",
    "nephew": "HAS_RELATIVE", "stepson": "HAS_CHILD", "stepdaughter": "HAS_CHILD", "stepmom": "HAS_PARENT",
    "stepdad": "HAS_PARENT", "roommate": "FRIEND_OF", "coworker": "KNOWS", "colleague": "KNOWS",
    "neighbor": "KNOWS", "neighbour": "KNOWS", "boss": "MANAGED_BY", "mentor": "KNOWS",
}

# Which pronoun a kin word allows ("my sister Anna ... she", never "he").
FEMININE_KIN = frozenset("""sister mom mum mother wife fiancee fiancée girlfriend daughter grandmother grandma
granny nana aunt niece granddaughter stepdaughter stepmom""".split())
MASCULINE_KIN = frozenset("""brother dad father husband fiance fiancé boyfriend son grandfather grandpa uncle
nephew grandson stepson stepdad""".split())

# Markers that a sentence is a joke or sarcasm: nothing in the message is taken at face value.
SARCASM = (r"(?:/s\b|\byeah,? right\b|\bjust kidding\b|\bi am kidding\b|\bkidding\b|\bjk\b|\bnot!|\blol jk\b"
           r"|\bsarcasm\b)")
# Markers that the speaker passes on what others say or believe, not what they know.
HEARSAY = r"\b(?:apparently|supposedly|allegedly|reportedly|rumou?r has it|according to)\b"
