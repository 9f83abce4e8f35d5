"""Stated changes and terse profiles (issue 50): what a message says is now so, without repeating the
attribute it replaces.

* a new job announced ("Started my new job at Ferrero this week!") → WORKS_AT;
* a teacher's school ("Priya teaches chemistry at Hillside Academy") → WORKS_AT, only when the place
  is a school by its name (Academy, School, College, University, ...): "teaches a workshop at PyCon"
  is no employer;
* the car someone drives ("I drive a Tesla Model 3 now", "Kemal drives a grey Skoda Octavia", "My
  car is a 2015 Honda Civic", "Traded the Prius in for a Kia EV6", "Got a Skoda Octavia estate") →
  DRIVES (one at a time), only with a make from the closed list :data:`CAR_MAKES`; the colour, the
  year and the body style are left out of the value, so "a 2015 Honda Civic" and "the Honda Civic"
  are one car;
* the phone someone uses ("My phone is a Pixel 6", "I'm using a Pixel 6", "Just upgraded to an
  iPhone 15", "switched to a Galaxy S24") → PHONE_MODEL (one at a time), only with a phone line from
  :data:`PHONE_LINES`;
* terse profiles ("Priya: 34, teaches chemistry at Hillside Academy, married to Dev, two cats.",
  "Kofi - 41, accountant at Mensah & Co, lives in Kumasi, three kids", "Ana María, 29, Bogotá, UX
  researcher at Rappi"): :func:`profile_sentences` writes each part as the sentence it abbreviates
  ("Priya teaches chemistry at Hillside Academy.", "Priya is married to Dev.", "Priya has two cats.")
  for the ordinary rules to read; a part of no known shape ("Bogotá", "widower", "loves climbing"
  unless it reads as a sentence) gives nothing.

Precision first: closed lists of makes, phone lines and school words; a profile only after a name
that is not a label ("Update:", "Team:", "Budget:") and with at least one part of a person's shape;
the extractor's guards (questions, hypotheticals, negations, hearsay, plans) apply unchanged to the
sentences read. Someone else's car or phone is theirs ("My wife switched to an iPhone 15" is not the
speaker's), and a wish or a plan ("thinking about getting a Tesla") states nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .grammar import NAME, Rule, _o, _rule

CAR_MAKES = ("Toyota", "Honda", "Ford", "VW", "Volkswagen", "Skoda", "Škoda", "Tesla", "BMW", "Audi",
             "Mercedes", "Mercedes-Benz", "Kia", "Hyundai", "Nissan", "Renault", "Peugeot", "Fiat", "Volvo",
             "Mazda", "Subaru", "Lada", "Citroen", "Citroën", "Seat", "SEAT", "Cupra", "Opel", "Vauxhall",
             "Dacia", "Jeep", "Chevrolet", "Chevy", "Lexus", "Porsche", "Land Rover", "Range Rover", "Jaguar",
             "Polestar", "BYD", "Suzuki", "Mitsubishi", "Alfa Romeo", "MG", "Rivian", "Saab", "Dodge", "Ram",
             "GMC", "Cadillac", "Buick", "Infiniti", "Acura", "Genesis", "Lancia", "Smart", "Prius", "Mini")
PHONE_LINES = ("iPhone", "Pixel", "Galaxy", "OnePlus", "Xiaomi", "Redmi", "Moto", "Motorola", "Nokia",
               "Huawei", "Oppo", "Fairphone", "Nothing Phone", "Sony Xperia", "Xperia", "Honor", "Poco")

_ALT = "|".join
_MAKE = r"(?:" + _ALT(sorted((re.escape(m) for m in CAR_MAKES), key=len, reverse=True)) + r")"
_LINE = r"(?:" + _ALT(sorted((re.escape(m) for m in PHONE_LINES), key=len, reverse=True)) + r")"
# a model word: a capital or a digit ("Model 3", "Octavia", "EV6", "XC60", "S24", "Pro", "Max")
_MODEL = r"(?:\s+(?!(?:I|A|An|The|And|Now|Too)\b)(?:[A-Z0-9][\w+-]*|(?i:pro|max|plus|ultra|mini|lite|se)\b))"
# (all the model words or none: "a Toyota Yaris for my daughter" is not "a Toyota" and "Yaris for ...")
_CAR = _o("o", r"\b" + _MAKE + r"\b" + _MODEL + r"{0,3}") + r"(?![\w+-])(?!" + _MODEL + ")"
_PHONE = _o("o", r"\b" + _LINE + r"\b" + _MODEL + r"{0,3}") + r"(?![\w+-])(?!" + _MODEL + ")"
_COLOURS = (r"(?:(?i:white|black|grey|gray|silver|red|blue|green|yellow|orange|brown|beige|dark|light|navy|"
            r"metallic|old|new|second-hand|secondhand|used|little|electric|shiny|battered|trusty)\s+)")
_YEAR = r"(?:(?:19|20)\d\d\s+)"
_A_CAR = r"(?:an?|the|my|our|his|her|their)\s+" + r"(?:" + _COLOURS + "|" + _YEAR + r")*" + _CAR
_A_PHONE = r"(?:an?|the|my|our|his|her|their)\s+(?:(?i:new|brand new|refurbished|used)\s+)?" + _PHONE
# no one else's: "for my daughter", "for her" after the thing
_NOT_FOR = r"(?!\s+(?i:for|to)\s+(?i:my|his|her|their|our|him|them|the)\b)(?!\s+(?i:for)\s+[A-Z])"
_SCHOOL = (r"(?:(?:[Tt]he\s+)?[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){0,3}\s+(?:Academy|School|College|"
           r"University|Primary|Secondary|High|Lycée|Lycee|Gymnasium|Institute|Conservatory|Polytechnic)"
           r"|(?:University|College)\s+of\s+[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){0,2})")

ANNOUNCE_RULES: list[Rule] = [
    # "Started my new job at Ferrero this week!", "she began her new role with Arup"
    *_rule(r"<S>\s+<ADV>(?i:started|began|have started|has started)\s+(?i:my|his|her|their)\s+"
           r"(?:(?i:new)\s+)?(?i:job|position|role)\s+(?i:at|with)\s+" + _o("o", "<PROPER>"),
           ("o", "WORKS_AT", "proper", "Organization"), implicit=True, cue=("started", "began")),
    # "Priya teaches chemistry at Hillside Academy", "I teach at Oakfield School now"
    *_rule(r"<S>\s+<ADV>(?i:teach|teaches|am teaching|is teaching|are teaching)\s+"
           r"(?:(?!(?i:at|in)\b)[\w'’-]+\s+){0,3}(?i:at)\s+" + _o("o", _SCHOOL),
           ("o", "WORKS_AT", "proper", "Organization"), cue=("teach", "teaches", "teaching")),
    # "I drive a Tesla Model 3 now", "Kemal drives a grey Skoda Octavia"
    *_rule(r"<S>\s+<ADV>(?i:drive|drives|am driving|is driving|are driving)\s+" + _A_CAR + _NOT_FOR,
           ("o", "DRIVES", "proper", "Vehicle"), cue=("drive", "drives", "driving")),
    # "My car is a 2015 Honda Civic", "Our car's an old Lada Niva", "Kemal's car is a Skoda Octavia"
    *_rule(r"(?:\b(?:[Mm]y|[Oo]ur)|(?<![\w'’])(?P<subj>" + NAME + r")['’]s)\s+"
           r"(?:(?i:family|only|current)\s+)?"
           r"(?i:car)\s*(?:(?i:is|['’]s)\s+)(?:(?i:now|still)\s+)?" + _A_CAR,
           ("o", "DRIVES", "proper", "Vehicle"), cue=("car", "car's", "car’s")),
    # "Traded the Prius in for a Kia EV6", "Swapped the Panda for a Renault Zoe"; "got a Skoda Octavia
    # estate instead", "we bought a Toyota RAV4 now" (a car bought is driven only when it replaces one:
    # "I bought a Tesla last month" is owning it)
    *_rule(r"<S>\s+<ADV>(?i:traded|swapped|exchanged|replaced)\s+(?:(?i:the|my|our|his|her|their)\s+)?"
           r"[\w'’ -]{1,30}?\s+(?:(?i:in)\s+)?(?i:for|with)\s+" + _A_CAR + _NOT_FOR,
           ("o", "DRIVES", "proper", "Vehicle"), implicit=True,
           cue=("traded", "swapped", "exchanged", "replaced")),
    *_rule(r"<S>\s+<ADV>(?i:got|bought|have bought|has bought|picked up|leased)\s+"
           r"(?:(?i:ourselves|myself)\s+)?"
           + _A_CAR + r"(?:\s+[a-z]+)?\s+(?i:instead|now)\b", ("o", "DRIVES", "proper", "Vehicle"),
           implicit=True,
           cue=("got", "bought", "picked", "leased")),
    # "My phone is a Pixel 6", "Jakub's phone is an iPhone 12"
    *_rule(r"(?:\b(?:[Mm]y|[Oo]ur)|(?<![\w'’])(?P<subj>" + NAME + r")['’]s)\s+(?:(?i:only|current)\s+)?"
           r"(?i:phone)\s*(?:(?i:is|['’]s)\s+)(?:(?i:now|still)\s+)?" + _A_PHONE,
           ("o", "PHONE_MODEL", "proper", "Product"), cue=("phone", "phone's", "phone’s")),
    # "I'm using a Pixel 6 at the moment", "Just upgraded to an iPhone 15", "switched to a Galaxy S24",
    # "got a new iPhone 15"
    *_rule(r"<S>\s+<ADV>(?i:am using|is using|are using|use|uses|am on|is on|upgraded to|switched to|"
           r"have upgraded to|has upgraded to|have switched to|has switched to|moved to|went to|got|bought|"
           r"have got|has got|have bought|has bought)\s+" + _A_PHONE + _NOT_FOR,
           ("o", "PHONE_MODEL", "proper", "Product"), implicit=True,
           cue=("using", "use", "uses", "on", "upgraded", "switched", "moved", "went", "got", "bought")),
]

# --- terse profiles --------------------------------------------------------------------------------

# Labels that open notes but name no one: "Update: ...", "Team: ..."
_LABELS = frozenset("""update note notes reminder team budget meds medication devices bike car home office
event project client vendor order ticket status setup stack wifi wi-fi agenda todo fyi ps summary
profile schedule plan plans address contact contacts details info flat house festival line-up lineup
news""".split())
_TITLED = r"(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+|(?:Grandma|Grandpa|Granny|Aunt|Auntie|Uncle|Nana|Papa)\s+)?"
_PROFILE = re.compile(r"^\s*(?P<name>" + _TITLED + NAME + r")\s*(?P<sep>:|\s[-–—]\s|,)\s*"
                      r"(?P<rest>.+?)\s*[.!]?\s*$")
_AGE = re.compile(r"^\d{1,3}$")
_VERB_FIRST = re.compile(r"^(?i:lives|works|teaches|studies|plays|speaks|drives|owns|coaches|runs|manages|"
                         r"is|has|loves|likes|takes)\b")
_BE_FIRST = re.compile(r"^(?i:married|engaged|dating|divorced|retired|single|widowed|allergic)\b")
_HAS_FIRST = re.compile(r"^(?:\d{1,2}|(?i:one|two|three|four|five|six|seven|eight|nine|ten|a|an))\s+"
                        r"(?:(?i:little|young|grown-up|grown)\s+)?(?i:kids?|children|child|sons?|daughters?|"
                        r"cats?|dogs?|grandchildren|grandkids?|rabbits?|horses?)\b$")
_ROLE_AT = re.compile(r"^(?:an?\s+)?(?:[A-Z]{2,4}\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}"
                      r"\s+(?:at|with|for)\s+[A-Z]")
_PARTS = re.compile(r"\s*,\s*|\s*;\s*"
                    r"|\s+and\s+(?=(?:lives|works|teaches|married|has|\d|one|two|three|four)\b)")


def _part_sentence(name: str, part: str) -> str | None:
    part = part.strip().rstrip(".")
    if not part:
        return None
    if _VERB_FIRST.match(part):
        return f"{name} {part}."
    if _BE_FIRST.match(part):
        return f"{name} is {part}."
    if _HAS_FIRST.match(part):
        return f"{name} has {part}."
    if _ROLE_AT.match(part):
        article = "" if re.match(r"^an?\s", part) else ("an " if part[0] in "aeiou" else "a ")
        return f"{name} is {article}{part}."
    return None


def profile(sentence: str) -> list[str] | None:
    """The sentences a terse profile abbreviates, or None when ``sentence`` is not one."""
    m = _PROFILE.match(sentence)
    if not m or m.group("name").split()[0].casefold().rstrip(":") in _LABELS:
        return None
    parts = [p for p in _PARTS.split(m.group("rest")) if p.strip()]
    if len(parts) < 2:
        return None
    if m.group("sep") == "," and not _AGE.match(parts[0].strip()):
        return None  # "Kofi, can you ..." is an address; "Ana María, 29, ..." a profile
    name = m.group("name")
    said = [s for s in (_part_sentence(name, p) for p in parts) if s]
    if not said or (len(said) == 1 and not any(_AGE.match(p.strip()) for p in parts)):
        return None
    return said


def profile_sentences(told: Iterable[str]) -> list[str]:
    """``told`` with every terse profile written out as the sentences it abbreviates."""
    out: list[str] = []
    for sentence in told:
        out.extend(profile(sentence) or (sentence,))
    return out
