"""The offline extractor: deterministic English rules for the personal facts people state in chat.

No model, no network: regular expressions over sentences, kept in tables (pattern → relation).
It is built to be precise rather than broad — a wrong fact is worse than a missing one — so it
skips questions, greetings, wishes, conditionals, hedges ("maybe", "I think of ..."), negations it
does not understand, what others say or believe ("he told me ...", "apparently ..."), jokes and
sarcasm ("yeah right", "/s", "just kidding": the whole message), and people it cannot name.

Why rules and not a parser: the closed word lists keep precision high where a parse would still
need the same lists to tell "I play the cello" from "I play it by ear"; no model download, and the
only small English parser models on the package registry are unofficial re-uploads.

What it reads:
* first person (I, we, implied "Lost my job ...") → the episode's speaker (nothing when unknown);
* third person with a capitalized name ("Zhang Wei lives in Hangzhou", "My sister Anna works at
  Google" → also the speaker HAS_SIBLING Anna);
* he / she / they → the one person named in this message or the last few turns (a kin word's
  gender must fit; two candidates or none → nothing);
* states (LIVES_IN, WORKS_AT, WORKS_AS, STUDIES_AT, MARRIED_TO, DATING, HAS_CHILD, HAS_SIBLING,
  HAS_PARENT, FRIEND_OF, HAS_PET, OWNS, LIKES, DISLIKES, ALLERGIC_TO, HAS_CONDITION, HOMETOWN,
  BORN_IN, PLAYS, HAS_HOBBY, LEARNING, DIET, PLANS, PLANS_TO_VISIT) and events (VISITED, ATTENDED,
  DID), with the time phrase as written; a plan stays a plan ("we're going camping next month" →
  PLANS "go camping"), never a done event;
* endings ("I quit Acme", "we divorced in 2020", "I moved out of Berlin") with kind="ending"; an
  ending whose object is not said nor found in the context gets ``object=""`` ("whatever held");
* corrections ("actually it was Lyon, not Paris", "sorry, I meant Lyon"), using earlier
  sentences and the context episodes to find which relation is being corrected.

A past state told without any time ("I lived in Rome") becomes LIVED_IN / WORKED_AT /
STUDIED_AT rather than an open-ended LIVES_IN; with a time ("I lived in Rome in 2019", "from
2019 to 2021") it stays LIVES_IN with time_text / end_time_text.

Importance: the extractor rates nothing itself; each fact gets its relation's importance from the
memory's ontology (the documented table in ``temporal_graph.core.ontology``, ``Ontology.importance``).

Cost is linear in the message: rules run on clauses of at most MAX_CLAUSE_CHARS characters, and
the context episodes' facts are worked out once per extraction.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from temporal_graph.core.extraction import ExtractedEntity, ExtractedFact, Extraction, StatementKind
from temporal_graph.core.model import Episode
from temporal_graph.core.names import name_key, relation_phrase
from temporal_graph.core.time import Prefer, TimeMatch, find_time_expressions, resolve_time

from . import offline_vocab as vocab

__all__ = ["ANY_OBJECT", "OfflineExtractor"]

ANY_OBJECT = ""  # the object of an ending that names none ("we divorced"): whatever held

# --- word lists ----------------------------------------------------------------------------------

_NAME_STOP = frozenset(
    """I We You He She They It My Our Your His Her Their The A An This That These Those There Here
    What When Where Who Why How Which Yes Yeah Yep Yup No Nope Oh Ok Okay Well So And But Or Also
    Then Now Today Tonight Yesterday Tomorrow Last Next Just Actually Sorry Thanks Thank Hey Hi
    Hello Wow Woah Whoa Congrats Cool Great Awesome Sure Anyway Btw Lol Haha Omg Guess Maybe
    Everyone Someone Somebody Anyone Nobody Everybody Mom Mum Dad Mother Father Sis Bro Dear
    Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June
    July August September October November December Since After Before While Because If Once
    Still Not Never Did Do Does Is Are Was Were Have Has Had Can Could Would Should Speaking
    Good Nice Love Like Lately Recently Finally Really Sounds Looks Being Going Gonna Got""".split()
)
_JOBS = """engineer developer programmer architect designer manager director teacher professor
lecturer nurse doctor physician surgeon dentist lawyer attorney accountant banker analyst consultant
scientist researcher chef cook baker waiter waitress bartender barista cashier clerk driver pilot
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
principal dean paramedic""".split()
_PETS = """dog puppy pup cat kitten hamster rabbit bunny parrot bird fish turtle tortoise horse
snake lizard ferret goldfish guinea-pig""".split() + vocab.PET_BREEDS + vocab.PET_BREED_PHRASES
_CONDITIONS = """asthma diabetes adhd autism anxiety depression migraines epilepsy arthritis cancer
hypertension insomnia dyslexia ptsd ocd lupus eczema psoriasis scoliosis endometriosis
fibromyalgia celiac tinnitus""".split()
_EVENTS = """group class parade conference workshop meeting mtg concert festival fest show reading
event fair convention party wedding game match service ceremony seminar session lecture talk
meetup rally exhibition exhibit gala fundraiser race marathon tournament competition comp
recital screening premiere retreat camp course webinar hackathon protest march vigil funeral
reunion banquet auction expo summit symposium club""".split()
_KIN = {
    "sister": "HAS_SIBLING", "brother": "HAS_SIBLING", "sibling": "HAS_SIBLING",
    "son": "HAS_CHILD", "daughter": "HAS_CHILD", "kid": "HAS_CHILD", "child": "HAS_CHILD",
    "mom": "HAS_PARENT", "mum": "HAS_PARENT", "mother": "HAS_PARENT", "dad": "HAS_PARENT",
    "father": "HAS_PARENT",
    "husband": "MARRIED_TO", "wife": "MARRIED_TO", "spouse": "MARRIED_TO",
    "fiance": "ENGAGED_TO", "fiancé": "ENGAGED_TO", "fiancee": "ENGAGED_TO", "fiancée": "ENGAGED_TO",
    "boyfriend": "DATING", "girlfriend": "DATING", "partner": "DATING",
    "friend": "FRIEND_OF", "best friend": "FRIEND_OF", "buddy": "FRIEND_OF", "bestie": "FRIEND_OF",
    **{pet: "HAS_PET" for pet in _PETS},
    **vocab.EXTENDED_KIN,
}
_KIN_ADJ = (r"(?:little|big|older|younger|baby|twin|eldest|oldest|youngest|step-?|half-?|new|dear|sweet|"
            r"lovely)")
_PRONOUNS = frozenset(
    "i me my mine myself we us our ours you your yours he him his she her hers they them their it its "
    "this that these those something anything everything nothing someone everyone one".split()
)
_NOT_POSSESSIONS = frozenset(
    """job position role chance opportunity idea friend friends perspective sense feeling hobby look start
    goal life appreciation understanding routine habit problem problems baby news question lot bit time way
    feedback support inspiration motivation kid kids son daughter addition member place home""".split()
)
_INTRANSITIVE = frozenset(
    "went ran volunteered graduated competed danced hiked climbed swam biked camped raced performed played "
    "sang practiced practised celebrated".split()
)
_PREPOSITIONS = frozenset("for to with at in on from by of about into".split())
_REPORTING = re.compile(
    r"\b(?i:say|says|said|tell|tells|told|claim|claims|claimed|pretend|pretends|heard|hear|write|writes|wrote|"
    r"type|repeat|think|thinks|thought|believe|believes|believed|reckon|reckons|swear|swears|insist|insists)\s+"
    r"(?:(?i:me|us|him|her|them|everyone)\s+)?(?:that\s+)?$"
)
_CLAUSE_OPENERS = frozenset(
    "and so then also just but yeah yes oh well actually finally today recently anyway guess what btw why "
    "because since as when now really too".split()
)
_NOT_OBJECT_START = frozenset(
    """how what when where why who whom whose to being doing going a an the is are was were be been has have
    had do does did will would can could should may might must not so very especially also even all
    every""".split()
)
_SPECIFIC = ("the", "this", "that", "these", "those", "my", "our", "his", "her", "their", "your", "its",
             "all", "every")
# Base verb forms: after a third-person name they show the name is no subject ("Themes like ...").
_BASE_FORMS = frozenset(
    """like love enjoy adore hate dislike detest live work study move relocate go have own suffer plan
    visit attend quit leave marry date divorce need want feel seem look sound""".split()
)
_DETERMINERS = ("a", "an", "the", "this", "that", "these", "those", "my", "our", "some", "his", "her",
                "their")


def _alt(words) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


# --- regex building blocks -------------------------------------------------------------------------

_WORD_CAP = r"(?:(?!I\b)[A-Z][a-zA-Z]*(?:[-'’][A-Z][a-zA-Z]+)?)"
NAME = rf"{_WORD_CAP}(?:\s+{_WORD_CAP}){{0,2}}"
_KIN_RE = _alt(_KIN)
# A subject: I / we, "my sister Anna", or a capitalized name.
SUBJ = (rf"(?P<subj>\b(?:I|[Ww]e|[Hh]e|[Ss]he|[Tt]hey)\b"
        rf"|(?:\b(?:[Mm]y|[Oo]ur)\s+(?:{_KIN_ADJ}\s+)?(?:{_KIN_RE})\s+)?(?<![\w'])(?:{NAME}))")
# A proper-noun object: "Hangzhou", "New York City", "University of Toronto", "Johnson & Johnson".
PROPER = (r"(?:[Tt]he\s+)?[A-Z][\w.&'’-]*"
          r"(?:\s+(?:(?:of|de|du|la|le|del|for|on|am|upon|&)\s+)?[A-Z][\w.&'’-]*)*")
# A lowercase noun phrase: a few words, no punctuation.
NP = r"[\w+'’-]+(?:\s+[\w+'’-]+){0,7}"
LIST = r"[\w+'’-]+(?:(?:,\s+|\s+)[\w+'’-]+){0,11}"  # "hiking, painting and pottery"
ADV = (r"(?:(?:just|really|also|finally|recently|still|now|actually|officially|already|absolutely|totally|"
       r"truly|especially|currently|even|so)\s+)*")
_TITLE_WORD = (r"(?!(?i:of|the|a|an|and|or|to|in|at|for|with|my|your|his|her|their|our|who|that|is|was|"
               r"not)\b)"
               r"[\w+#.-]+")
ROLE = rf"(?:{_TITLE_WORD}\s+){{0,4}}?(?i:{_alt(_JOBS)})(?:\s+(?i:{_alt(_JOBS)}))*s?(?![\w-])"
DET = r"(?:(?P<det>a|an|the|this|that|my|our|some)\s+)"


def _o(name: str, body: str) -> str:
    return f"(?P<{name}>{body})"


@dataclass(frozen=True)
class Emit:
    """One fact a rule produces from a named group of its match."""

    group: str
    relation: str
    object_kind: str  # proper | np | role | pet | vp | activity
    object_type: str


@dataclass(frozen=True)
class Rule:
    pattern: re.Pattern[str]
    emits: tuple[Emit, ...]
    kind: StatementKind = "state"
    needs_time: bool = False  # only with a time phrase in the clause (generic "did" facts)
    past: bool = False  # a past state: LIVED_IN etc. unless a time phrase is given
    positive: bool = True  # skipped in clauses with a negation
    fallback: bool = False  # only when no other rule matched the clause
    opens_clause: bool = False  # the subject must open a clause ("a job I enjoy" is no taste)
    future: bool = False  # a plan: only with a time phrase after the message's time, or none at all


def _rule(pattern: str, *emits: tuple[str, str, str, str], implicit: bool = False, **options) -> list[Rule]:
    """Compile a rule; ``implicit`` adds the chat form without "I" ("Lost my job ...")."""
    bodies = [pattern.replace("<S>", SUBJ)]
    if implicit:
        bodies.append(pattern.replace("<S>\\s+", r"(?:^\s*|[,!]\s+)(?:[Jj]ust\s+|[Aa]lso\s+|[Ff]inally\s+)?"))
    compiled = []
    for body in bodies:
        body = (body.replace("<PROPER>", PROPER).replace("<NP>", NP).replace("<ROLE>", ROLE)
                .replace("<ADV>", ADV).replace("<DET>", DET).replace("<LIST>", LIST))
        compiled.append(Rule(re.compile(body), tuple(Emit(*e) for e in emits), **options))
    return compiled


# Short emit builders keep the rule tables readable: a proper-noun, noun-phrase or role object.
def P(g: str, rel: str, t: str) -> tuple[str, str, str, str]:
    return (g, rel, "proper", t)


def N(g: str, rel: str, t: str) -> tuple[str, str, str, str]:
    return (g, rel, "np", t)


def R(g: str, rel: str) -> tuple[str, str, str, str]:
    return (g, rel, "role", "Role")


_BE = r"(?i:am|is|are|was|were)"
_LIVE = (r"(?i:live|lives|am living|is living|are living|have lived|has lived|have been living|"
         r"has been living)")
_MOVE = (r"(?i:moved|move|moves|am moving|is moving|are moving|will move|will be moving|relocated|"
         r"relocate|am relocating|is relocating|will relocate|have moved|has moved|have relocated)")
_WORK = (r"(?i:work|works|am working|is working|are working|have been working|has been working|"
         r"have worked|has worked|will work|will be working)")

# The rule tables: order matters only for the "fallback" rules (generic DID), which run last.
ENDING_RULES: list[Rule] = [
    *_rule(r"<S>\s+<ADV>(?i:moved away from|moved out of|no longer live in|no longer lives in|do not live in|"
           r"does not live in|am not living in|is not living in)\s+" + _o("o", "<PROPER>"),
           P("o", "LIVES_IN", "Place"), kind="ending", positive=False, implicit=True),
    # "left X": a home or a job; the context decides, a job by default ("I left Google last year").
    *_rule(r"<S>\s+<ADV>(?i:left)\s+" + _o("o", "<PROPER>") + r"(?!\s+(?:for|to)\b)",
           P("o", "LEFT?", "Organization"), kind="ending", positive=False, implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:quit|resigned from|was fired from|got fired from|was laid off from|"
           r"got laid off from|was let go from|got let go from|"
           r"stopped working at|stopped working for|no longer work at|no longer work for|no longer works at|"
           r"do not work at|do not work for|does not work at|am not working at|"
           r"quit my job at|left my job at|lost my job at)\s+" + _o("o", "<PROPER>"),
           P("o", "WORKS_AT", "Organization"), kind="ending", positive=False, implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:quit|left|lost)\s+(?i:my|his|her|their)\s+(?i:job|position)\s+(?i:as)\s+"
           r"(?:an?\s+)?" + _o("role", "<ROLE>"), R("role", "WORKS_AS"), kind="ending", positive=False,
           implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:quit|left|lost)\s+(?i:my|his|her|their)\s+(?i:job|position)"
           r"(?!\s+(?i:as|at|with|for)\b)",
           ("none", "WORKS_AT", "any", "Organization"), kind="ending", positive=False, implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:graduated from|dropped out of|finished at)\s+" + _o("o", "<PROPER>"),
           P("o", "STUDIES_AT", "Organization"), kind="ending", positive=False),
    *_rule(r"<S>\s+<ADV>(?i:divorced|split up with|separated from|got divorced from|am divorced from)\s+"
           + _o("o", NAME), P("o", "MARRIED_TO", "Person"), kind="ending", positive=False),
    *_rule(r"(?P<o>" + NAME + r")\s+and\s+I\s+<ADV>(?i:got divorced|divorced|split up|separated)",
           P("o", "MARRIED_TO", "Person"), kind="ending", positive=False),
    *_rule(r"\b(?P<we>[Ww]e)\s+<ADV>(?i:got divorced|divorced|are divorced|split up|separated)\b",
           ("none", "MARRIED_TO", "any", "Person"), kind="ending", positive=False),
    *_rule(r"<S>\s+<ADV>(?i:broke up with|dumped)\s+" + _o("o", NAME), P("o", "DATING", "Person"),
           kind="ending", positive=False),
    *_rule(r"(?P<o>" + NAME + r")\s+and\s+I\s+<ADV>(?i:broke up|split)", P("o", "DATING", "Person"),
           kind="ending", positive=False),
    *_rule(r"\b(?P<we>[Ww]e)\s+<ADV>(?i:broke up)\b", ("none", "DATING", "any", "Person"), kind="ending",
           positive=False),
    *_rule(r"<S>\s+<ADV>(?i:recovered from|beat)\s+" + _o("o", "<NP>"),
           ("o", "HAS_CONDITION", "condition", "Condition"), kind="ending", positive=False),
    *_rule(r"<S>\s+<ADV>(?i:no longer have|no longer has|do not have|does not have)\s+"
           + _o("o", rf"(?:type [12] )?(?i:{_alt(_CONDITIONS)})(?:\s+disease)?")
           + r"\s+(?i:anymore|any more)?",
           ("o", "HAS_CONDITION", "condition", "Condition"), kind="ending", positive=False),
    *_rule(r"<S>\s+<ADV>(?i:sold|donated|gave away)\s+(?:(?i:my|our|his|her)\s+)" + _o("o", "<NP>"),
           N("o", "OWNS", "Thing"), kind="ending", positive=False, implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:do not|does not|no longer)\s+(?i:like|enjoy|love)\s+" + _o("o", "<NP>")
           + r"\s+(?i:anymore|any more)", N("o", "LIKES", "Thing"), kind="ending", positive=False),
    *_rule(r"<S>\s+<ADV>(?i:no longer)\s+(?i:like|enjoy|love)\s+" + _o("o", "<NP>")
           + r"(?!\s+(?i:anymore|any more))",
           N("o", "LIKES", "Thing"), kind="ending", positive=False),
    # "I quit badminton", "gave up chess", "stopped playing tennis": a pastime ends. Lowercase
    # only, so "quit Acme" stays a job, and never "my job" or "smoking"-like habits with an article.
    *_rule(r"<S>\s+<ADV>(?i:quit|gave up|stopped doing)\s+"
           r"(?![Mm]y\b|smoking\b|drinking\b|vaping\b|[Tt]he\b|[Aa]n?\b|[Hh]is\b|[Hh]er\b|[Tt]heir\b)"
           + _o("o", r"[a-z][a-z-]+") + r"(?=\s*(?:[,.!;]|$|\s+(?:and|now|last|this|in|since|because)\b))",
           N("o", "LIKES", "Activity"), kind="ending", positive=False),
    *_rule(r"(?!.*\b(?:anymore|any more)\b)<S>\s+<ADV>"
           r"(?:(?i:do not|does not)\s+(?i:really\s+)?(?i:like|enjoy|care for)|(?i:hate|hates|dislike|"
           r"dislikes|detest|cannot stand|can not stand|am not a fan of|is not a fan of|am not into))\s+"
           + _o("o", "<LIST>"), N("o", "DISLIKES", "Thing"), kind="state", positive=False),
]

STATE_RULES: list[Rule] = [
    # where they live
    *_rule(r"<S>\s+<ADV>" + _LIVE + r"\s+in\s+" + _o("o", "<PROPER>"), P("o", "LIVES_IN", "Place")),
    *_rule(r"<S>\s+<ADV>(?i:lived)\s+in\s+" + _o("o", "<PROPER>"), P("o", "LIVES_IN", "Place"), past=True),
    *_rule(r"<S>\s+<ADV>" + _MOVE + r"\s+(?:back\s+)?(?:to|into)\s+" + _o("o", "<PROPER>")
           + r"(?:(?:\s+\S+){0,3}?\s+as\s+(?:an?\s+)?" + _o("role", "<ROLE>") + ")?",
           P("o", "LIVES_IN", "Place"), R("role", "WORKS_AS"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:moved|relocated)\s+from\s+<PROPER>\s+to\s+" + _o("o", "<PROPER>"),
           P("o", "LIVES_IN", "Place"), implicit=True),
    *_rule(r"<S>\s+<ADV>" + _BE + r"\s+(?i:based|settled)\s+in\s+" + _o("o", "<PROPER>"),
           P("o", "LIVES_IN", "Place")),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?i:originally\s+)?from\s+" + _o("o", "<PROPER>"),
           P("o", "HOMETOWN", "Place")),
    # work
    *_rule(r"<S>\s+<ADV>" + _WORK + r"\s+as\s+(?:an?\s+)?" + _o("role", "<ROLE>")
           + r"(?:\s+(?:at|for|with)\s+" + _o("o", "<PROPER>") + ")?",
           R("role", "WORKS_AS"), P("o", "WORKS_AT", "Organization")),
    *_rule(r"<S>\s+<ADV>" + _WORK + r"\s+(?:at|for)\s+" + _o("o", "<PROPER>") + r"(?:\s+as\s+(?:an?\s+)?"
           + _o("role", "<ROLE>") + ")?", P("o", "WORKS_AT", "Organization"), R("role", "WORKS_AS")),
    *_rule(r"<S>\s+<ADV>(?i:worked)\s+(?:at|for)\s+" + _o("o", "<PROPER>") + r"(?:\s+as\s+(?:an?\s+)?"
           + _o("role", "<ROLE>") + ")?", P("o", "WORKS_AT", "Organization"), R("role", "WORKS_AS"),
           past=True),
    *_rule(r"<S>\s+<ADV>(?i:worked)\s+as\s+(?:an?\s+)?" + _o("role", "<ROLE>") + r"(?:\s+(?:at|for)\s+"
           + _o("o", "<PROPER>") + ")?", R("role", "WORKS_AS"), P("o", "WORKS_AT", "Organization"),
           past=True),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?:(?i:now)\s+)?(?:an?|the)\s+" + _o("role", "<ROLE>")
           + r"(?:\s+(?:at|for|of|with)\s+" + _o("o", "<PROPER>") + r")?(?![\w'’])",
           R("role", "WORKS_AS"), P("o", "WORKS_AT", "Organization")),
    *_rule(r"<S>\s+<ADV>(?i:became|become|will become|have become|was promoted to|got promoted to|"
           r"was hired as|got hired as|got a job as|got a new job as|landed a job as|took a job as|"
           r"started a job as|started a new job as|started working as|started as)\s+"
           r"(?:an?\s+|the\s+)?" + _o("role", "<ROLE>")
           + r"(?:\s+(?:at|for|with)\s+" + _o("o", "<PROPER>") + ")?",
           R("role", "WORKS_AS"), P("o", "WORKS_AT", "Organization"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:got|landed|accepted|took|started|start|am starting|will start)\s+"
           r"(?:an?\s+)?(?:(?i:new)\s+)?(?i:job|position|role|internship)\s+(?i:at|with)\s+"
           + _o("o", "<PROPER>") + r"(?:\s+as\s+(?:an?\s+)?" + _o("role", "<ROLE>") + ")?",
           P("o", "WORKS_AT", "Organization"), R("role", "WORKS_AS"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:joined|will join|am joining)\s+" + _o("o", "<PROPER>")
           + r"\s+as\s+(?:an?\s+)?" + _o("role", "<ROLE>"), P("o", "WORKS_AT", "Organization"),
           R("role", "WORKS_AS"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:started at|started working at|started working for|will start at|am starting at|"
           r"was hired by|got hired by|got hired at|was hired at)\s+" + _o("o", "<PROPER>")
           + r"(?:\s+as\s+(?:an?\s+)?" + _o("role", "<ROLE>") + ")?", P("o", "WORKS_AT", "Organization"),
           R("role", "WORKS_AS"), implicit=True),
    # study
    *_rule(r"<S>\s+<ADV>(?i:study|studies|am studying|is studying|are studying)\s+(?:[a-z]+\s+){0,3}?at\s+"
           + _o("o", "<PROPER>"), P("o", "STUDIES_AT", "Organization")),
    *_rule(r"<S>\s+<ADV>(?i:studied)\s+(?:[a-z]+\s+){0,3}?at\s+" + _o("o", "<PROPER>"),
           P("o", "STUDIES_AT", "Organization"), past=True),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+an?\s+(?:[a-z]+\s+){0,3}?student\s+at\s+" + _o("o", "<PROPER>"),
           P("o", "STUDIES_AT", "Organization")),
    *_rule(r"<S>\s+<ADV>(?i:go|goes|started|start|will start|am starting)\s+"
           r"(?:(?i:college|university|school)\s+)?(?:to|at)\s+"
           + _o("o", r"(?:[Tt]he\s+)?(?:[A-Z][\w.&'-]*\s+)*(?:University|College|School|Academy|Institute)"
                r"(?:\s+of(?:\s+[A-Z][\w.&'-]*)+)?|University(?:\s+of)?(?:\s+[A-Z][\w.&'-]*)+"),
           P("o", "STUDIES_AT", "Organization")),
    # partners and family
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|got|have been|has been)\s+(?i:married)\s+to\s+" + _o("o", NAME),
           P("o", "MARRIED_TO", "Person")),
    *_rule(r"<S>\s+<ADV>(?i:married)\s+" + _o("o", NAME), P("o", "MARRIED_TO", "Person")),
    *_rule(r"(?P<o>" + NAME + r")\s+and\s+I\s+<ADV>(?i:got married|married|are married|have been married)",
           P("o", "MARRIED_TO", "Person")),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|got)\s+(?i:engaged)\s+to\s+" + _o("o", NAME),
           P("o", "ENGAGED_TO", "Person")),
    *_rule(r"(?P<o>" + NAME + r")\s+and\s+I\s+<ADV>(?i:got engaged|are engaged)",
           P("o", "ENGAGED_TO", "Person")),
    *_rule(r"<S>\s+<ADV>(?i:am dating|is dating|are dating|have been dating|has been dating|started dating|"
           r"am seeing|is seeing|have been seeing|am in a relationship with|is in a relationship with)\s+"
           + _o("o", NAME), P("o", "DATING", "Person")),
    *_rule(r"(?P<o>" + NAME
           + r")\s+and\s+I\s+<ADV>(?i:are dating|have been dating|started dating|are together)",
           P("o", "DATING", "Person")),
    # pets (named or not) and possessions
    *_rule(r"<S>\s+<ADV>(?i:have|has|got|adopted|bought|rescued|have got|has got|just got|own|owns)\s+"
           r"(?:(?i:a|an|this|that|two|three|new|cute|little|sweet|adorable|beautiful|tiny|rescue|baby|black|white|brown|old|young)\s+)*"
           + _o("pet", f"(?i:{_alt(_PETS)})(?:s|es)?")
           + r"(?:\s+(?i:named|called)\s+" + _o("o", NAME) + r")?\b"
           + r"(?!.*\b(?i:for you|for him|for her|for them|for my)\b)",  # a gift is not a pet of one's own
           ("o", "HAS_PET", "petname", "Animal"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:own|owns|bought|purchased|got a new|have a new|has a new)\s+<DET>?"
           + _o("o", "<NP>"),
           N("o", "OWNS", "Thing"), implicit=True),
    # likes, health
    *_rule(r"<S>\s+<ADV>(?:(?i:love|loves|like|likes|enjoy|enjoys|adore|adores)|"
           r"(?i:am|is|are)\s+<ADV>(?i:into|a big fan of|a huge fan of|a fan of|passionate about|"
           r"obsessed with))\s+"
           + _o("o", "<LIST>"), N("o", "LIKES", "Thing"), opens_clause=True),
    *_rule(r"\b[Mm]y\s+(?:all-time\s+)?favou?rite\s+(?:[a-z]+\s+){1,2}is\s+" + _o("o", "<NP>"),
           N("o", "LIKES", "Thing")),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?:(?i:very|severely|deathly|mildly|super)\s+)?(?i:allergic)\s+to\s+"
           + _o("o", "<LIST>"), N("o", "ALLERGIC_TO", "Substance")),
    *_rule(r"<S>\s+<ADV>(?i:have|has)\s+(?:an?\s+)?" + _o("o", r"[\w-]+(?:\s+[\w-]+)?")
           + r"\s+(?i:allergy|allergies)",
           N("o", "ALLERGIC_TO", "Substance")),
    *_rule(r"<S>\s+<ADV>(?i:was|were|got|have been|has been|am being)\s+(?i:diagnosed)\s+with\s+"
           + _o("o", "<NP>"),
           ("o", "HAS_CONDITION", "condition", "Condition")),
    *_rule(r"<S>\s+<ADV>(?i:suffer|suffers|am suffering|have|has|live with|lives with)\s+(?:from\s+)?"
           + _o("o", rf"(?:type [12] )?(?i:{_alt(_CONDITIONS)})(?:\s+disease)?"),
           ("o", "HAS_CONDITION", "condition", "Condition")),
    # plans
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?i:planning|going|about)\s+to\s+"
           r"(?i:visit|see|go to|travel to|fly to|head to)\s+"
           + _o("o", "<PROPER>"), P("o", "PLANS_TO_VISIT", "Place"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:plan to|plans to|will|am planning to|is planning to|are planning to)\s+"
           r"(?i:visit|go to|travel to|fly to|head to)\s+" + _o("o", "<PROPER>"),
           P("o", "PLANS_TO_VISIT", "Place")),
    *_rule(r"<S>\s+<ADV>(?i:am planning a trip|is planning a trip|are planning a trip|booked a trip|"
           r"booked a flight|booked flights|booked tickets)\s+to\s+" + _o("o", "<PROPER>"),
           P("o", "PLANS_TO_VISIT", "Place")),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?i:going|flying|traveling|travelling|heading|driving)\s+to\s+"
           + _o("o", "<PROPER>"), P("o", "PLANS_TO_VISIT", "Place")),
    # "going to" + a verb is a plan only when dated ("I'm gonna keep going" is no plan)
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?i:going)\s+to\s+"
           + _o("o", r"(?!visit\s+[A-Z]|see\b|go to\b|be\b)[a-z]+(?:\s+[\w'’-]+){1,11}"),
           ("o", "PLANS", "vp", "Activity"), implicit=True, needs_time=True),
    *_rule(r"<S>\s+<ADV>(?i:plan|plans|am planning|is planning|are planning)\s+to\s+"
           + _o("o", r"(?!visit\b|be\b)[a-z]+(?:\s+[\w'’-]+){1,11}"), ("o", "PLANS", "vp", "Activity"),
           implicit=True),
    # trips and events
    *_rule(r"<S>\s+<ADV>(?i:visited|toured|explored)\s+" + _o("o", "<PROPER>"), P("o", "VISITED", "Place"),
           implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:visited|toured)\s+<DET>" + _o("o", "<NP>"), ("o", "VISITED", "place_np", "Place"),
           implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:went|traveled|travelled|flew|drove|went back|"
           r"took (?:a|an|our|my) (?:[a-z]+ ){0,2}trip|went on (?:a|an) (?:[a-z]+ ){0,2}trip|"
           r"got back from (?:a|my|our) (?:[a-z]+ ){0,2}trip)\s+to\s+"
           + _o("o", "<PROPER>"), P("o", "VISITED", "Place"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:got back from|came back from|returned from|have been to|has been to|was in|"
           r"were in)\s+" + _o("o", "<PROPER>"), P("o", "VISITED", "Place"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:went to|attended|go to|was at|were at)\s+<DET>?" + _o("o", "<NP>"),
           ("o", "ATTENDED", "event", "Event"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:attended)\s+" + _o("o", "<PROPER>"), P("o", "ATTENDED", "Event"), implicit=True),
    *_rule(r"<S>\s+<ADV>" + _o("o", r"(?i:painted|drew|made|baked|cooked|wrote|read|finished|won|started|"
           r"began|signed up for|joined|hosted|organized|organised|volunteered|donated|graduated|passed|"
           r"performed|played|built|launched|opened|published|completed|hiked|climbed|ran|swam|biked|camped|celebrated|"
           r"dyed|sang|composed|recorded|released|planted|knitted|designed|created|printed|taught|mentored|"
           r"tried|practiced|practised|competed|raced|danced|took|went)(?:\s+[\w+'’-]+){0,9}"),
           ("o", "DID", "activity", "Activity"), needs_time=True, fallback=True, implicit=True),
]

# --- pastimes, learning, diet, things, plans said in the present ----------------------------------

_GAME = _alt(vocab.GAME_PHRASES + vocab.GAMES + vocab.INSTRUMENTS)
_GAME_OBJ = (rf"(?:(?i:the|some|a\s+little|a\s+bit\s+of)\s+)?(?:(?i:{_alt(vocab.INSTRUMENT_ADJECTIVES)})\s+)?"
             rf"(?P<o>(?i:{_GAME}))(?![\w-])")
_HOBBY = _alt(vocab.HOBBY_PHRASES + vocab.HOBBY_GERUNDS)
_SKILL = rf"(?:{_alt(vocab.LANGUAGES)}|(?i:{_alt(vocab.SKILL_PHRASES + vocab.SKILLS)}))"
_HOBBY_VERB = _alt(vocab.HOBBY_VERBS)
_POSSESSION = _alt(vocab.POSSESSION_PHRASES + vocab.POSSESSIONS)
_DIET = _alt(vocab.DIETS)
_PLAY = (r"(?i:play|plays|am playing|is playing|are playing|have been playing|has been playing|have played|"
         r"has played|started playing|start playing|began playing|have started playing|has started playing|"
         r"took up playing|picked up playing|took up|picked up)")
_LEARN = (r"(?i:am learning|is learning|are learning|have been learning|been learning|has been learning|"
          r"started learning|began learning|have started learning|has started learning|am studying|"
          r"is studying|are studying|have been studying|has been studying|started studying|"
          r"am teaching myself|is teaching (?:himself|herself)|have been teaching myself)")
_NOT_AT_PLACE = r"(?![^,.;!?]*\bat\s+(?:[Tt]he\s+)?[A-Z])"  # "studying law at Harvard" is STUDIES_AT
_CLASS = r"(?i:class|classes|lessons|lesson|course|courses|workshop)"
_HABIT = (r"(?=\s+(?i:every|most|on|a lot|often|regularly|twice|once|several|whenever|each|at least|almost|"
          r"daily|weekly))")


def _plain(group: str, relation: str, object_type: str, kind: str = "plain") -> tuple[str, str, str, str]:
    return (group, relation, kind, object_type)


PASTIME_RULES: list[Rule] = [
    # playing sports, games and instruments
    *_rule(r"<S>\s+<ADV>(?i:quit|stopped|gave up|no longer)\s+(?i:playing|play|plays)\s+" + _GAME_OBJ,
           _plain("o", "PLAYS", "Activity"), kind="ending", positive=False, implicit=True),
    *_rule(r"<S>\s+<ADV>" + _PLAY + r"\s+" + _GAME_OBJ, _plain("o", "PLAYS", "Activity"), implicit=True,
           opens_clause=True),
    # hobbies taken up, practised, or named as such
    *_rule(r"<S>\s+<ADV>(?i:took up|take up|have taken up|has taken up|started|have started|has started|"
           r"got into|have gotten into|got back into|picked up)\s+" + _o("o", f"(?i:{_HOBBY})") + r"(?![\w-])"
           + r"(?=\s*(?:[,.!;]|$)|\s+(?i:again|recently|lately|too|as well|and|in|on|at|with|every|this|last|"
             r"a few|about|when|because|since|while|for)\b)",
           _plain("o", "HAS_HOBBY", "Activity"), implicit=True, opens_clause=True),
    *_rule(r"<S>\s+<ADV>(?i:go|goes)\s+" + _o("o", f"(?i:{_HOBBY})") + r"(?![\w-])" + _HABIT,
           _plain("o", "HAS_HOBBY", "Activity"), opens_clause=True),
    *_rule(r"<S>\s+<ADV>(?i:practice|practise|practices|practises|do|does|have been doing|has been doing|"
           r"have been practicing|have been practising|am doing|started doing)\s+"
           + _o("o", f"(?i:{_alt(vocab.PRACTICES)})") + r"(?![\w-])", _plain("o", "HAS_HOBBY", "Activity"),
           opens_clause=True),
    *_rule(r"\b(?:[Mm]y|[Oo]ur)\s+(?:(?i:main|favou?rite|new|biggest)\s+)?"
           r"(?i:hobby|hobbies|pastime|pastimes|passion)\s+"
           r"(?i:is|are|include|includes)\s+" + _o("o", "<LIST>"), N("o", "HAS_HOBBY", "Activity")),
    *_rule(r"<S>\s+<ADV>(?i:love|loves|like|likes|enjoy|enjoys|adore|adores)\s+to\s+"
           + _o("o", f"(?i:{_HOBBY_VERB})") + r"(?![\w-])(?!\s+(?i:it|that|this|them|you|with you|there)\b)",
           _plain("o", "LIKES", "Activity", "hobbyverb"), opens_clause=True),
    # learning and studying
    *_rule(r"<S>\s+<ADV>" + _LEARN + r"\s+(?:(?i:how)\s+)?to\s+(?i:play)\s+" + _GAME_OBJ,
           _plain("o", "LEARNING", "Skill"), implicit=True),
    *_rule(r"<S>\s+<ADV>" + _LEARN + r"\s+(?:(?i:how)\s+)?to\s+" + _o("o", f"(?i:{_HOBBY_VERB})")
           + r"(?![\w-])",
           _plain("o", "LEARNING", "Skill", "hobbyverb"), implicit=True),
    *_rule(r"<S>\s+<ADV>" + _LEARN + r"\s+(?:(?i:the|some|a\s+bit\s+of|basic|more)\s+)?" + _o("o", _SKILL)
           + r"(?![\w-])" + _NOT_AT_PLACE, _plain("o", "LEARNING", "Skill"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|have been|has been|started|start|began|have started)\s+(?i:taking)\s+"
           r"(?:(?i:an?|some|my|the)\s+)?"
           r"(?:(?i:online|private|evening|weekly|beginner|beginners|night|free|new)\s+)*"
           + _o("o", _SKILL) + r"\s+" + _CLASS + r"\b", _plain("o", "LEARNING", "Skill"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|have been|has been|started|start|began|have started)\s+(?i:taking)\s+"
           r"(?:(?i:an?|some|my)\s+)?(?:(?i:online|private|evening|weekly|night|free|new)\s+)*" + _CLASS
           + r"\s+(?i:in|on)\s+" + _o("o", _SKILL) + r"(?![\w-])", _plain("o", "LEARNING", "Skill"),
           implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:signed up for|enrolled in|registered for)\s+" + _o("o", _SKILL)
           + r"\s+(?i:lessons|classes)\b", _plain("o", "LEARNING", "Skill"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?i:studying|working)\s+(?i:for|toward|towards)\s+"
           r"(?i:a|an|my|his|her|their)\s+"
           + _o("o", _SKILL) + r"\s+(?i:degree|diploma|certificate|license|licence)\b",
           _plain("o", "LEARNING", "Skill"), implicit=True),
    # diet and intolerances
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|have been|has been|went|became|become|turned|have gone|has gone|eat|"
           r"eats)\s+(?:(?i:a|an|fully|strictly|strict|mostly|completely|totally)\s+)?"
           + _o("o", f"(?i:{_DIET})")
           + r"(?![\w-])(?!\s+(?i:food|options|restaurant|restaurants|recipe|recipes|place|meal|meals|dish|"
             r"dishes|cafe|bakery|menu|version|alternative|friendly|diet for)\b)",
           _plain("o", "DIET", "Diet", "diet")),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|have been|has been|went|started)\s+on\s+(?:an?\s+)?"
           + _o("o", r"(?i:keto|paleo|vegan|vegetarian|gluten-free|low-carb|low carb|mediterranean|"
                     r"plant-based)")
           + r"\s+(?i:diet)\b", _plain("o", "DIET", "Diet", "diet")),
    *_rule(r"<S>\s+<ADV>(?i:have|has)\s+(?:an?\s+)?" + _o("o", r"(?i:gluten|lactose|dairy)")
           + r"\s+(?i:intolerance|sensitivity)\b", _plain("o", "DIET", "Diet", "intolerance")),
    *_rule(r"<S>\s+<ADV>(?i:do not|does not|no longer|never)\s+eat\s+" + _o("o", r"(?i:meat)")
           + r"(?=\s*(?:[,.!;]|$|\s+(?i:anymore|any more|at all|or fish)\b))",
           _plain("o", "DIET", "Diet", "nomeat"), positive=False),
    # things owned, named from a closed list ("I have a car", never "I have a question")
    *_rule(r"<S>\s+<ADV>(?i:have|has|have got|has got)\s+(?:(?i:a|an|two|three|my own|our own)\s+)"
           + _o("o", rf"(?:[a-z][a-z-]*\s+){{0,2}}?(?i:{_POSSESSION})(?:s|es)?"
                     rf"|(?:[a-z]+\s+)?(?:{_alt(vocab.CAR_BRANDS)})")
           + r"(?=\s*(?:[,.!;]|$)|\s+(?i:at|in|on|with|that|which|and|but|from|now|too|back|so|there|"
             r"here)\b)",
           N("o", "OWNS", "Thing")),
    # where they are from
    *_rule(r"<S>\s+<ADV>(?i:grew up|was raised|were raised)\s+in\s+" + _o("o", "<PROPER>"),
           P("o", "HOMETOWN", "Place")),
    *_rule(r"<S>\s+<ADV>(?i:was|were)\s+(?i:born)\s+in\s+" + _o("o", "<PROPER>"), P("o", "BORN_IN", "Place")),
    # plans said in the present: "we're going camping", "I'm running a marathon next month"
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?i:going)\s+" + _o("o", f"(?i:{_HOBBY})") + r"(?![\w-])(?!\s+to\b)",
           _plain("o", "PLANS", "Activity", "go_ing"), future=True),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?i:going)\s+to\s+" + _o("o", r"(?i:an?|the|my|our)\s+" + NP),
           ("o", "PLANS", "go_to", "Activity"), needs_time=True, future=True),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?i:visiting)\s+" + _o("o", "<PROPER>"),
           P("o", "PLANS_TO_VISIT", "Place"), needs_time=True, future=True),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+"
           + _o("o", rf"(?i:{_alt(vocab.PLAN_VERBS)})(?!\s+[A-Z])(?:\s+[\w'’-]+){{1,7}}"),
           ("o", "PLANS", "plan_ing", "Activity"), needs_time=True, future=True),
]

# Corrections whose relation comes from an earlier statement.
_CORRECTION_RULES = [
    re.compile(r"(?i:it|that)\s+(?i:was|is)\s+(?:(?i:actually)\s+)?(?P<new>" + PROPER
               + r"),?\s+(?i:not)\s+(?P<old>" + PROPER + ")"),
    re.compile(r"\bI\s+(?i:meant|mean)\s+(?P<new>" + PROPER + r")(?:,?\s+(?i:not)\s+(?P<old>" + PROPER
               + "))?"),
    re.compile(r"(?i:not)\s+(?P<old>" + PROPER + r"),?\s+(?i:but\s+)?(?P<new>" + PROPER + r")\s*$"),
]
_CORRECTION_MARKER = re.compile(
    r"\b(?i:actually|sorry|oops|correction|i meant|my mistake|my bad|wait|rather)\b")
_NOT_OBJECT = re.compile(r",?\s+(?:(?i:and\s+)?not\s+(?:in\s+|at\s+|to\s+)?)" + PROPER)
_NOT_AFTER = re.compile(r"^,?\s+(?:(?i:and\s+)?not\s+(?:in\s+|at\s+|to\s+)?)(?P<old>" + PROPER + ")")

# Kinship mentions anywhere in a clause: "my sister Anna", "Anna is my sister", "a son named Leo".
_KIN_MENTION = re.compile(
    rf"\b(?:[Mm]y|[Oo]ur)\s+(?:{_KIN_ADJ}\s+)?(?P<kin>(?i:{_KIN_RE}))(?:\s+|,\s+)(?P<name>{NAME})(?![\w])")
_KIN_NAME_IS = re.compile(
    rf"\b(?:[Mm]y|[Oo]ur)\s+(?:{_KIN_ADJ}\s+)?(?P<kin>(?i:{_KIN_RE}))['’]s\s+name\s+is\s+"
    rf"(?P<name>{NAME})(?![\w])")
_KIN_COUNTED = re.compile(
    rf"\b(?:I|[Ww]e)\s+(?:have|have got|had)\s+(?:two|three|four|five|2|3|4|5)\s+"
    rf"(?P<kin>kids|children|sons|daughters|sisters|brothers|siblings|dogs|cats|puppies|kittens)[,:]?\s+(?:(?i:named|called)\s+)?"
    rf"(?P<names>{NAME}(?:,\s+{NAME})*,?\s+and\s+{NAME})(?![\w])")
_KIN_IS = re.compile(rf"(?<![\w'])(?P<name>{NAME})\s+is\s+my\s+(?:{_KIN_ADJ}\s+)?(?P<kin>{_KIN_RE})\b")
_KIN_NAMED = re.compile(
    rf"\bI\s+(?:have|had)\s+(?:an?|one)\s+(?:{_KIN_ADJ}\s+)?(?P<kin>{_KIN_RE})\s+(?:named|called)\s+"
    rf"(?P<name>{NAME})")
_PET_NAME = re.compile(
    rf"^(?:(?:Her|His|Its|Their)\s+name\s+is|(?:She|He|It)\s+is\s+called)\s+(?P<name>{NAME})")

_HYPOTHETICAL = re.compile(
    r"\b(?i:if|unless|wish|wished|would|could|should|might|may|maybe|perhaps|probably|possibly|hopefully|"
    r"hope|hoping|suppose|imagine|whether|thinking about|thinking of|considering|want to|wants to|wanted to|"
    r"would like|dream of|dreaming of|someday|some day|one day|pretend|supposed to|in case|as if|"
    r"i think|i guess|not sure|kind of want)\b"
)
_NEGATION = re.compile(r"\b(?i:not|never|no longer|nobody|neither|nor|cannot)\b")
_QUESTION_START = re.compile(
    r"^(?i:do|does|did|are|is|was|were|have|has|can|could|would|will|where|what|when|who|why|how|which)\b.*\byou\b"
)
_CONTRACTIONS = [
    (r"\b([Ii])['’]m\b", r"\1 am"), (r"\b(\w+)['’]ve\b", r"\1 have"), (r"\b(\w+)['’]re\b", r"\1 are"),
    (r"\b(\w+)['’]ll\b", r"\1 will"), (r"\b(\w+)['’]d\b", r"\1 would"),
    (r"\b([Cc])an['’]t\b", r"\1annot"), (r"\b([Ww])on['’]t\b", r"\1ill not"), (r"\b(\w+)n['’]t\b", r"\1 not"),
    (r"\b([Ii]t|[Tt]hat|[Tt]here|[Ww]hat|[Hh]ere|[Hh]e|[Ss]he|[Ww]ho|[Nn]ame)['’]s\b", r"\1 is"),
    (r"\b([Gg])onna\b", r"\1oing to"), (r"\b([Ww])anna\b", r"\1ant to"), (r"\b([Gg])otta\b", r"\1ot to"),
]
_SENTENCE_END = re.compile(r"(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bDr\.)(?<!\bSt\.)(?<=[.!?])\s+|\n+")
_CLAUSE_BREAK = re.compile(
    r"\s+[–—-]\s+|;\s*|:\s+|,?\s+\b(?:but|because|although|though|whereas)\b\s+|,\s+so\s+")
_ADVERB_TAIL = re.compile(
    r"\s+(?:too|again|anymore|any\s+more|a\s+lot|so\s+much|very\s+much|as\s+well|lately|together|"
    r"these\s+days|right\s+now|now|recently|nowadays)\s*[.!]*$"
)
_PREPOSITION_TAIL = re.compile(r"\s+(?:with|for|to|from|at|in|on|about|by|like|than|of)\s+\S")
_OBJECT_END = re.compile(
    r"\s+(?:and|but|because|since|when|while|so|which|who|where|that|as|with|to|for|from|after|before|"
    r"until|if|at|in|on|it|I|we|and\s+it|too|again|anymore|any\s+more|a\s+lot|so\s+much|very\s+much|"
    r"as\s+well|lately|together|these\s+days|right\s+now|now)\b.*$"
)


def _expand(text: str) -> str:
    text = text.replace("’", "'")
    for pattern, repl in _CONTRACTIONS:
        text = re.sub(pattern, repl, text)
    return text


# Rules run on bounded pieces: every pattern then costs a constant per piece, so extraction is linear
# in the message (a long run-on text without punctuation is cut at word boundaries).
MAX_CLAUSE_CHARS = 300


def _bounded_clauses(sentence: str) -> Iterator[str]:
    for clause in _CLAUSE_BREAK.split(sentence):
        clause = clause.strip()
        while len(clause) > MAX_CLAUSE_CHARS:
            cut = clause.rfind(",", 0, MAX_CLAUSE_CHARS)
            if cut < MAX_CLAUSE_CHARS // 3:
                cut = clause.rfind(" ", 0, MAX_CLAUSE_CHARS)
            if cut <= 0:
                cut = MAX_CLAUSE_CHARS
            yield clause[:cut].strip(" ,")
            clause = clause[cut:].strip(" ,")
        if clause:
            yield clause


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def _is_question(sentence: str) -> bool:
    return sentence.rstrip().endswith("?") or bool(_QUESTION_START.match(sentence.strip()))


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _clean_name(name: str) -> str | None:
    """A person's name from a subject match; None when it is a sentence word, not a name."""
    words = name.split()
    while words and words[0].strip("'’") in _NAME_STOP:
        words.pop(0)
    if not words or any(w in _NAME_STOP for w in words):
        return None
    return " ".join(words)


def _clean_proper(text: str) -> str | None:
    text = re.sub(r"^[Tt]he\s+", "", text.strip()).rstrip(".'’-")
    words = text.split()
    while words and (words[-1] in _NAME_STOP or words[-1].lower() in ("of", "de", "for", "on", "&")):
        words.pop()
    if not words or words[0] in _NAME_STOP:
        return None
    return " ".join(words)


def _split_det(text: str) -> tuple[str | None, str]:
    words = text.split()
    if words and words[0].lower() in _DETERMINERS:
        return words[0].lower(), " ".join(words[1:])
    return None, text


def _clean_np(text: str, *, max_words: int = 5, strict: bool = False) -> str | None:
    """A noun phrase object: cut at the next clause word, no pronouns, a few words.

    ``strict`` (likes, allergies): a phrase that goes on with a complement ("spending time with
    my family") is rejected rather than cut to something the speaker did not say.
    """
    text = _ADVERB_TAIL.sub("", " " + text.strip()).strip()
    if strict and (_PREPOSITION_TAIL.search(" " + text) or any(w.lower() in _PRONOUNS for w in text.split())):
        return None
    text = _OBJECT_END.sub("", " " + text).strip(" ,.!?\"'")
    _, text = _split_det(text)
    words = text.split()
    if not words or len(words) > max_words or any(w.lower() in _PRONOUNS for w in words):
        return None
    if words[0].lower() in _NOT_OBJECT_START:
        return None
    return " ".join(words)


def _clean_phrase(text: str, *, max_words: int = 10) -> str | None:
    """An activity or plan ("painted a sunrise"): my/our → their, no other pronouns."""
    text = re.split(r"\s+(?:and|but|because|so|which|who|where|while|when|since|"
                    r"after|before|if|in\s+hopes|hoping|to\s+(?:clear|show|get|see|help|make|keep|take)|"
                    r"with\s+(?:my|our|some|a))\b",
                    " " + text.strip())[0].strip(" ,.!?\"'")
    words = text.split()
    out = []
    for w in words:
        low = w.lower()
        if low in ("my", "our"):
            out.append("their")
        elif low in ("this", "that", "these", "those"):
            out.append("the")
        elif low in _PRONOUNS or low in ("i", "me", "us", "you", "your", "there", "here"):
            return None
        else:
            out.append(w)
    while out and out[-1].lower() in _PREPOSITIONS | {"a", "an", "the", "their", "and", "new"}:
        out.pop()
    if not out or len(out) > max_words:
        return None
    out[0] = out[0].lower()
    return " ".join(out)


def _fact_text(
    subject: str, relation: str, obj: str, kind: str, det: str | None, extra: dict[str, str]
) -> str:
    s, o = subject, obj
    a = _article(o) if o else ""
    if kind == "ending":
        if not o:
            return {"MARRIED_TO": f"{s} got divorced.", "DATING": f"{s} broke up with their partner.",
                    "WORKS_AT": f"{s} left their job."}.get(
                relation, f"{s} no longer has {relation.lower()}.")
        return {
            "LIVES_IN": f"{s} no longer lives in {o}.", "WORKS_AT": f"{s} no longer works at {o}.",
            "WORKS_AS": f"{s} no longer works as {a} {o}.", "STUDIES_AT": f"{s} no longer studies at {o}.",
            "MARRIED_TO": f"{s} is no longer married to {o}.", "DATING": f"{s} is no longer dating {o}.",
            "HAS_CONDITION": f"{s} no longer has {o}.",
            "OWNS": f"{s} no longer owns {o}." if o.endswith("s") else f"{s} no longer owns {a} {o}.",
            "LIKES": f"{s} no longer likes {o}.",
        }.get(relation, f"{s} no longer {relation_phrase(relation)} {o}.")
    if "kin" in extra:
        return f"{o} is {s}'s {extra['kin']}."
    if relation == "HAS_PET":
        species = extra.get("species")
        if species and species.lower() != o.lower():
            return f"{s} has {_article(species)} {species} named {o}."
        return f"{s} has {a} {o}."
    plural = o.endswith("s") and not o.endswith("ss")
    the = f"{det} " if det in ("a", "an", "the") else "the " if det else ""
    templates = {
        "LIVES_IN": f"{s} lives in {o}.", "LIVED_IN": f"{s} lived in {o}.", "HOMETOWN": f"{s} is from {o}.",
        "WORKS_AT": f"{s} works at {o}.", "WORKED_AT": f"{s} worked at {o}.",
        "WORKS_AS": f"{s} works as {a} {o}.",
        "STUDIES_AT": f"{s} studies at {o}.", "STUDIED_AT": f"{s} studied at {o}.",
        "MARRIED_TO": f"{s} is married to {o}.", "ENGAGED_TO": f"{s} is engaged to {o}.",
        "DATING": f"{s} is dating {o}.", "LIKES": f"{s} likes {o}.", "DISLIKES": f"{s} dislikes {o}.",
        "ALLERGIC_TO": f"{s} is allergic to {o}.", "HAS_CONDITION": f"{s} has {o}.",
        "OWNS": f"{s} owns {o}." if plural else f"{s} owns {a} {o}.",
        "PLANS": f"{s} plans to {o}.", "PLANS_TO_VISIT": f"{s} plans to visit {o}.",
        "VISITED": f"{s} visited {the}{o}.", "ATTENDED": f"{s} attended {the}{o}.", "DID": f"{s} {o}.",
    }
    return templates.get(relation, f"{s} {relation_phrase(relation)} {o}.")


# --- the extractor -------------------------------------------------------------------------------


@dataclass
class _Draft:
    """A fact being assembled, before it becomes an immutable ExtractedFact."""

    subject: str
    relation: str
    object: str
    object_type: str
    kind: StatementKind = "state"
    time: TimeMatch | None = None
    replaces: str | None = None
    det: str | None = None
    extra: dict[str, str] = field(default_factory=dict)
    confidence: float = 0.9


class _Context:
    """The context episodes of one extraction, with their facts worked out once (not per clause)."""

    def __init__(self, extractor: OfflineExtractor, episodes: Sequence[Episode]) -> None:
        self.extractor = extractor
        self.episodes = sorted(episodes, key=lambda e: e.reference_time)
        self._drafts: list[_Draft] | None = None
        self._by_episode: dict[str, list[_Draft]] = {}

    def drafts_of(self, episode: Episode) -> list[_Draft]:
        if episode.id not in self._by_episode:
            self._by_episode[episode.id] = self.extractor._drafts(
                episode, _Context(self.extractor, ()), corrections=False)
        return self._by_episode[episode.id]

    def drafts(self) -> list[_Draft]:
        """Facts the context states, latest episode first."""
        if self._drafts is None:
            self._drafts = [d for ep in reversed(self.episodes) for d in reversed(self.drafts_of(ep))]
        return self._drafts


class OfflineExtractor:
    """Deterministic rule-based extraction of personal facts from English chat (no model, no network)."""

    def extract(self, episode: Episode, context: Sequence[Episode] = ()) -> Extraction:
        drafts = self._drafts(episode, _Context(self, context), corrections=True)
        facts: list[ExtractedFact] = []
        entities: dict[tuple[str, str], ExtractedEntity] = {}
        seen: set[tuple[str, str, str, str]] = set()
        for d in drafts:
            key = (name_key(d.subject), d.relation, name_key(d.object), d.kind)
            if key in seen or (d.object and name_key(d.object) == name_key(d.subject)):
                continue
            seen.add(key)
            facts.append(
                ExtractedFact(
                    subject=d.subject, relation=d.relation, object=d.object,
                    text=_fact_text(d.subject, d.relation, d.object, d.kind, d.det, d.extra),
                    kind=d.kind, time_text=d.time.time_text if d.time else None,
                    end_time_text=d.time.end_time_text if d.time else None, replaces=d.replaces,
                    subject_type="Person", object_type=d.object_type, confidence=d.confidence,
                )
            )
            for name, type_ in ((d.subject, "Person"), (d.object, d.object_type)):
                if name:
                    entities.setdefault((name_key(name), type_), ExtractedEntity(name=name, type=type_))
        return Extraction(entities=list(entities.values()), facts=facts)

    # -- per episode -----------------------------------------------------------------------------

    def _drafts(self, episode: Episode, context: _Context, *, corrections: bool) -> list[_Draft]:
        out: list[_Draft] = []
        pending_pet: _Draft | None = None
        if _SARCASM.search(episode.content):
            return out  # a joke or sarcasm anywhere: nothing in the message is taken at face value
        for sentence in _sentences(_expand(episode.content)):
            if _is_question(sentence) or _HEARSAY.search(sentence):
                pending_pet = None
                continue
            pet_name = _PET_NAME.match(sentence)
            if pet_name and pending_pet is not None:  # "I got a puppy! Her name is Coco."
                name = _clean_name(pet_name.group("name"))
                if name:
                    pending_pet.extra["species"] = pending_pet.object
                    pending_pet.object = name
                pending_pet = None
                continue
            pending_pet = None
            for clause in _bounded_clauses(sentence):
                found = self._clause(clause, episode, context, out, corrections)
                out.extend(found)
                pets = [d for d in found
                        if d.relation == "HAS_PET" and "kin" not in d.extra and d.object.lower() in _PETS]
                pending_pet = pets[-1] if pets else pending_pet
        return out

    def _clause(
        self, clause: str, episode: Episode, context: _Context, earlier: list[_Draft], corrections: bool
    ) -> list[_Draft]:
        times = find_time_expressions(clause)
        text, anchors = _strip_times(clause, times)
        if _HYPOTHETICAL.search(text):
            return []
        speaker = episode.speaker
        if corrections and _CORRECTION_MARKER.search(text):
            fixed = self._correction(text, episode, context, earlier)
            if fixed is not None:
                return fixed
        drafts = self._kinship(text, speaker)
        negated = bool(_NEGATION.search(_NOT_OBJECT.sub("", text)))  # "Lyon, not Paris" is no negation
        matched_spans: list[tuple[int, int]] = []
        for rule in (*ENDING_RULES, *PASTIME_RULES, *STATE_RULES):
            if rule.positive and negated:
                continue
            if rule.fallback and matched_spans:
                continue
            for m in rule.pattern.finditer(text):
                new = self._apply(rule, m, text, times, anchors, episode, context, earlier)
                if new:
                    drafts.extend(new)
                    matched_spans.append(m.span())
        return drafts

    def _apply(
        self, rule: Rule, m: re.Match[str], text: str, times: list[TimeMatch], anchors: list[int],
        episode: Episode, context: _Context, earlier: list[_Draft],
    ) -> list[_Draft]:
        groups = m.groupdict()
        raw_subject = groups.get("subj")
        if raw_subject and raw_subject.lower() in _THIRD_PERSON:
            subject = _resolve_pronoun(raw_subject.lower(), episode, context, earlier)
        else:
            subject = self._subject(raw_subject, episode.speaker)
        if subject is None:
            return []
        if raw_subject and _REPORTING.search(text[:m.start("subj")]):
            return []  # "... say I live in Atlantis": reported or requested, not stated
        if raw_subject and raw_subject not in ("I", "we", "We") and raw_subject.lower() not in _THIRD_PERSON:
            following = text[m.end("subj"):].split()
            if following and following[0].lower() in _BASE_FORMS:
                return []  # "Themes like sisterhood": a name needs "likes", so this is no subject
        time = _nearest_time(m.span(), times, anchors)
        if time is not None and time.is_duration and not re.search(r"\b(?:have|has)\b", m.group(0)):
            time = None  # "for two weeks" only dates a present-perfect state
        undated = rule.fallback and time is None  # kept only for the clear events of _UNDATED_DID
        if rule.needs_time and (time is None or time.is_duration) and not undated:
            return []
        if rule.future and time is not None and not _is_future(time, episode, "future"):
            return []  # "I'm running a marathon" dated in the past is no plan
        pronoun = raw_subject is not None and raw_subject.lower() in _THIRD_PERSON
        if pronoun and not _starts_clause(text[:m.start("subj")]):
            return []  # "the book she wrote": a pronoun inside a relative clause
        if (rule.fallback or rule.opens_clause) and not _starts_clause(text[:m.start()]):
            return []  # "the book I read last year ...": a relative clause, not a report
        drafts: list[_Draft] = []
        for emit, raw in _emissions(rule, groups):
            obj, det = self._object(emit, raw, groups)
            if obj is None or (undated and not _UNDATED_DID.match(obj)):
                continue
            relation, kind, object_type = emit.relation, rule.kind, emit.object_type
            if relation == "LEFT?":  # a home or a job: the context decides
                relation = self._disambiguate(relation, subject, obj, context, earlier)
                object_type = "Place" if relation == "LIVES_IN" else "Organization"
            if rule.past and time is None:
                relation = {"LIVES_IN": "LIVED_IN", "WORKS_AT": "WORKED_AT", "STUDIES_AT": "STUDIED_AT"}.get(
                    relation, relation)
                if relation == "WORKS_AS":
                    continue
            if emit.object_kind == "any":
                obj = self._ended_object(subject, relation, context, earlier, episode)
            if kind == "state" and relation in ("VISITED", "ATTENDED", "DID") and _is_future(time, episode):
                continue  # told as done but dated in the future: too unclear to keep
            if (kind == "state" and relation == "VISITED" and time is None
                    and re.search(r"\b(?:was|were) in\b", m.group(0))):
                continue  # "I was in Paris" needs a time to be a visit
            draft = _Draft(subject, relation, obj, object_type, kind, time, det=det,
                           confidence=0.7 if undated else 0.8 if rule.fallback else 0.9)
            if emit.object_kind == "petname":
                draft.extra["species"] = groups["pet"].lower()
                if raw is None:
                    draft.object = groups["pet"].lower()
            old = _NOT_AFTER.match(text[m.end():])
            if old and kind == "state" and emit.object_kind == "proper":
                draft.kind, draft.replaces = "correction", _clean_proper(old.group("old"))
            drafts.append(draft)
        return drafts

    # -- pieces ----------------------------------------------------------------------------------

    @staticmethod
    def _subject(raw: str | None, speaker: str | None) -> str | None:
        if raw is None or raw in ("I", "we", "We"):
            return speaker
        kin = re.match(rf"(?:[Mm]y|[Oo]ur)\s+(?:{_KIN_ADJ}\s+)?(?:{_KIN_RE})\s+(?P<name>.+)$", raw)
        return _clean_name(kin.group("name") if kin else raw)

    @staticmethod
    def _object(emit: Emit, raw: str | None, groups: dict[str, str | None]) -> tuple[str | None, str | None]:
        kind = emit.object_kind
        if kind == "any":
            return ANY_OBJECT, None
        special = _vocab_object(kind, raw)
        if special is not False:
            return special, None
        if kind == "petname":
            if raw is None:
                return groups.get("pet"), None
            return _clean_name(raw), None
        if raw is None:
            return None, None
        if kind == "proper":
            return _clean_proper(raw), None
        if kind == "role":
            role = " ".join(raw.split()).strip(" .,")
            _, role = _split_det(role)
            return (role if role and role.split()[0].lower() not in _PRONOUNS else None), None
        if kind == "condition":
            value = _clean_np(raw, max_words=4)
            return value, None
        if kind in ("np", "place_np"):
            det, _ = _split_det(raw)
            det = det or groups.get("det")
            strict = emit.relation in _LIST_RELATIONS
            value = _clean_np(raw, max_words=4 if kind == "np" else 5, strict=strict)
            if strict and value is not None and value.lower() in _VAGUE_TASTES:
                return None, None  # "I enjoy playing": playing what?
            if strict and det in _SPECIFIC:
                return None, None  # "I love the colors": about a thing in the chat, not a taste
            if emit.relation == "OWNS" and value is not None:
                words = [w for w in value.split() if w.lower() not in _COUNTS]
                if not words or words[-1].lower() in _NOT_POSSESSIONS or any(
                        w.lower() in _PETS or w.lower().rstrip("s") in _PETS
                        or w.lower() in ("named", "called")
                        for w in words):
                    return None, None
                value = " ".join(words)
            return value, det
        if kind == "event":
            det = groups.get("det")
            value = _clean_np(raw, max_words=6)
            if value is None or not any(w.lower().rstrip("s") in _EVENTS or w.lower() in _EVENTS
                                        for w in value.split()[:5]):
                return None, None
            if value[:1].isupper() and len(value.split()) == 1:  # "went to Paris" is a visit
                return None, None
            return value, det
        if kind in ("vp", "activity"):
            value = _clean_phrase(raw)
            if kind == "activity" and value is not None:
                words = value.split()
                if words[0].lower() not in _INTRANSITIVE and (
                        len(words) == 1 or words[1].lower() in _PREPOSITIONS):
                    return None, None  # "we took for ...": the object was elsewhere
            if value is None or (
                    kind == "vp" and value.split()[0].lower() in _DETERMINERS + ("be", "get", "have")):
                return None, None
            return value, None
        return None, None

    def _disambiguate(
        self, relation: str, subject: str, obj: str, context: _Context, earlier: list[_Draft]
    ) -> str:
        """"left Berlin" ends LIVES_IN when Berlin is known as the subject's home; otherwise a job."""
        for d in self._history(context, earlier):
            if name_key(d.subject) == name_key(subject) and name_key(d.object) == name_key(obj):
                if d.relation in ("LIVES_IN", "LIVED_IN", "HOMETOWN"):
                    return "LIVES_IN"
                if d.relation in ("WORKS_AT", "WORKED_AT", "STUDIES_AT"):
                    return "STUDIES_AT" if d.relation == "STUDIES_AT" else "WORKS_AT"
        return "WORKS_AT"

    def _history(self, context: _Context, earlier: list[_Draft]) -> list[_Draft]:
        """Facts stated before this clause: this episode's earlier ones first, then the context, latest
        first."""
        return [*reversed(earlier), *context.drafts()]

    def _ended_object(
        self, subject: str, relation: str, context: _Context, earlier: list[_Draft], episode: Episode
    ) -> str:
        for d in self._history(context, earlier):
            if (name_key(d.subject) == name_key(subject) and d.relation == relation and d.kind == "state"
                    and d.object):
                return d.object
        return ANY_OBJECT

    def _kinship(self, text: str, speaker: str | None) -> list[_Draft]:
        if speaker is None:
            return []
        drafts = []
        found = [(m.group("name"), m.group("kin").lower())
                 for pattern in (_KIN_MENTION, _KIN_IS, _KIN_NAMED, _KIN_NAME_IS)
                 for m in pattern.finditer(text)]
        for m in _KIN_COUNTED.finditer(text):
            kin = m.group("kin").lower()
            kin = {"children": "child", "puppies": "puppy"}.get(kin, kin.removesuffix("s"))
            found.extend((name, kin) for name in re.split(r",\s+(?:and\s+)?|\s+and\s+", m.group("names")))
        for raw_name, kin in found:
            name = _clean_name(raw_name)
            if name is None or name_key(name) == name_key(speaker):
                continue
            relation = _KIN[kin]
            if relation == "HAS_PET":
                drafts.append(_Draft(speaker, relation, name, "Animal", extra={"species": kin}))
            else:
                drafts.append(_Draft(speaker, relation, name, "Person", extra={"kin": kin}))
        return drafts

    def _correction(
        self, text: str, episode: Episode, context: _Context, earlier: list[_Draft]
    ) -> list[_Draft] | None:
        """ "actually it was Lyon, not Paris" / "sorry, I meant Lyon": same relation, right object."""
        for pattern in _CORRECTION_RULES:
            m = pattern.search(text)
            if m is None:
                continue
            new = _clean_proper(m.group("new"))
            old = _clean_proper(m.group("old")) if m.group("old") else None
            if new is None:
                continue
            for d in self._history(context, earlier):
                if d.kind == "ending" or not d.object or not d.object[:1].isupper():
                    continue
                if old is not None and name_key(d.object) != name_key(old):
                    continue
                if old is None and episode.speaker and name_key(d.subject) != name_key(episode.speaker):
                    continue
                return [_Draft(d.subject, d.relation, new, d.object_type, "correction", d.time,
                               replaces=d.object, extra={k: v for k, v in d.extra.items() if k != "kin"})]
            return []
        return None


_LIST_RELATIONS = ("LIKES", "DISLIKES", "ALLERGIC_TO", "HAS_HOBBY")
_LIST_SPLIT = re.compile(r",\s+(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+")
_WORD_SPLIT = re.compile(r"\s+and\s+|\s+or\s+")


def _emissions(rule: Rule, groups: dict[str, str | None]) -> list[tuple[Emit, str | None]]:
    """Each (emit, raw object); a list object ("hiking, painting and pottery") gives one per item,
    up to the first item that is not a clean object ("hiking and it is great" → hiking)."""
    out: list[tuple[Emit, str | None]] = []
    for emit in rule.emits:
        raw = groups.get(emit.group)
        if raw is not None and emit.relation in ("LIKES", "DISLIKES", "HAS_HOBBY"):
            raw = _PASTIME_DETAIL.sub(r"\g<p>", raw)  # "hiking in the mountains": the taste is hiking
        if raw is None or emit.relation not in _LIST_RELATIONS or raw.split()[0].lower() in _SPECIFIC:
            out.append((emit, raw))
            continue
        # commas separate items only in a real list ("a, b and c"), not "a safe, inviting place"
        splitter = _LIST_SPLIT if re.search(r"\s(?:and|or)\s", raw) else _WORD_SPLIT
        items: list[str] = []
        for i, item in enumerate(splitter.split(raw.split(",")[0] if splitter is _WORD_SPLIT else raw)):
            if _clean_np(item, max_words=4, strict=True) is None:
                if i == 0:
                    items.append(item)  # let the cleaner reject it as a whole
                break
            items.append(item)
        out.extend((emit, item) for item in _share_head(items))
    return out


_SHARED_HEADS = frozenset(
    "movies films books novels shows series games songs music food dishes cuisine".split())


def _share_head(items: list[str]) -> list[str]:
    """"action and sci-fi movies": the kind word belongs to every item, not only the last."""
    words = _clean_np(items[-1], max_words=4, strict=True) if len(items) > 1 else None
    if (words is None or len(words.split()) != 2 or words.split()[-1].lower() not in _SHARED_HEADS
            or words.split()[0].lower().endswith("ing")
            or any(i.strip().endswith("ing") for i in items[:-1])):
        return items  # "climbing, sliding and playing games": pastimes, not kinds of games
    head = words.split()[-1]
    return [f"{item.strip()} {head}" if len(item.split()) == 1 else item for item in items[:-1]] + items[-1:]


def _starts_clause(before: str) -> bool:
    """Whether a subject at this point opens a clause (and is not inside "the book I read")."""
    before = before.rstrip()
    if not before or before[-1] in ",.!;:-–—":
        return True
    return before.split()[-1].lower() in _CLAUSE_OPENERS


def _strip_times(clause: str, times: list[TimeMatch]) -> tuple[str, list[int]]:
    """The clause without its time phrases, and where each phrase was (offsets in the new text)."""
    parts, anchors, pos = [], [], 0
    for t in times:
        parts.append(clause[pos:t.start])
        anchors.append(len("".join(parts)))
        pos = t.end
    parts.append(clause[pos:])
    # Offsets stay exact: the spaces and commas left behind are harmless for the rules.
    return "".join(parts), anchors


def _nearest_time(span: tuple[int, int], times: list[TimeMatch], anchors: list[int]) -> TimeMatch | None:
    """The time phrase inside the match, else the next one after it, else the last one before it."""
    if not times:
        return None
    start, end = span
    inside = [t for t, a in zip(times, anchors, strict=True) if start <= a <= end]
    after = [t for t, a in zip(times, anchors, strict=True) if a > end]
    before = [t for t, a in zip(times, anchors, strict=True) if a < start]
    chosen = inside or after or before[-1:]
    return chosen[0] if chosen else None


def _is_future(time: TimeMatch | None, episode: Episode, prefer: Prefer = "past") -> bool:
    if time is None or time.time_text is None:
        return False
    span = resolve_time(time.time_text, episode.reference_time, prefer=prefer)
    return span is not None and span.start > episode.reference_time


_THIRD_PERSON = ("he", "she", "they")
_VAGUE_TASTES = frozenset(
    "playing doing making trying working going being getting having helping things stuff".split())
# Things done that are worth keeping even without a time phrase: a clear, finished event with an
# object ("joined a travel club", "went on a road trip"), never "took a bit" or "went out".
_UNDATED_DID = re.compile(
    r"^(?:joined|adopted|volunteered\b|graduated\b|won|launched|opened|organized|organised|hosted|"
    r"competed in|signed up for|enrolled in|started (?:a|an|their)|finished (?:a|an|the|their)|painted|"
    r"went (?:camping|hiking|fishing|skiing|surfing|kayaking|volunteering|snorkeling|backpacking)\b|"
    r"went on (?:a|an) (?:[\w-]+ ){0,2}(?:trip|hike|tour|ride|vacation|retreat|cruise|road trip)\b|"
    r"took (?:a|an) (?:[\w-]+ ){0,2}(?:class|course|trip|lesson|lessons|workshop)\b|"
    r"ran (?:a|the) (?:[\w-]+ ){0,2}(?:marathon|race|5k|10k)\b)"
    r"(?!.*\b(?:in hopes|hoping|the)$)"
)
_COUNTS = frozenset("two three four five six 2 3 4 5 6 some".split())
_SARCASM = re.compile(vocab.SARCASM, re.IGNORECASE)
_HEARSAY = re.compile(vocab.HEARSAY, re.IGNORECASE)
_PASTIME_DETAIL = re.compile(
    rf"^(?P<p>(?i:{_HOBBY}))\s+(?:in|on|at|with|around|along|through|by|near|every|during)\s+.*$")
# How many earlier turns a pronoun may reach back to find its person.
PRONOUN_TURNS = 3


def _vocab_object(kind: str, raw: str | None) -> str | None | Literal[False]:
    """Objects of the closed-list rules; ``False`` when ``kind`` is not one of them."""
    if kind not in ("plain", "hobbyverb", "diet", "intolerance", "nomeat", "go_ing", "go_to", "plan_ing"):
        return False
    if raw is None:
        return None
    value = " ".join(raw.split())
    if kind == "plain":
        return value if value[:1].isupper() and value.lower() not in vocab.SKILLS else value.lower()
    if kind == "hobbyverb":
        return vocab.HOBBY_VERBS[value.lower()]
    if kind == "diet":
        return vocab.DIETS.get(value.lower(), value.lower())
    if kind == "intolerance":
        return vocab.INTOLERANCES[value.lower()]
    if kind == "nomeat":
        return "vegetarian"
    if kind == "go_ing":
        return f"go {value.lower()}"
    if kind == "go_to":
        det, rest = _split_det(value)
        noun = _clean_np(rest, max_words=4)
        if noun is None:
            return None
        article = "a" if det in ("a", "an") else "the" if det == "the" else "their"
        return f"go to {_article(noun) if article == 'a' else article} {noun}"
    verb, _, rest = value.partition(" ")
    phrase = _clean_phrase(rest)
    if phrase is None or phrase.split()[0].lower() in _PREPOSITIONS:
        return None
    return f"{vocab.PLAN_VERBS[verb.lower()]} {phrase}"


def _resolve_pronoun(pronoun: str, episode: Episode, context: _Context, earlier: list[_Draft]) -> str | None:
    """He / she / they → the one person named in this message or the last few turns, else None.

    Candidates are people the conversation named as kin or as subjects of facts, never its speakers
    (who are "I" and "you"). A kin word's gender rules out the other pronoun; two fitting people
    (or "they" for someone gendered) means no guess.
    """
    speakers = {name_key(e.speaker) for e in (episode, *context.episodes) if e.speaker}
    recent = list(reversed(earlier))
    for ep in context.episodes[::-1][:PRONOUN_TURNS]:
        recent.extend(reversed(context.drafts_of(ep)))
    people: dict[str, tuple[str, str | None]] = {}
    for d in recent:
        kin = d.extra.get("kin")
        pairs: list[tuple[str, str | None]] = [(d.object, kin)] if kin else []
        if d.subject and name_key(d.subject) not in speakers:
            pairs.append((d.subject, None))
        for name, kin_word in pairs:
            key = name_key(name)
            if key in speakers or not name[:1].isupper():
                continue
            gender = ("she" if kin_word in vocab.FEMININE_KIN
                      else "he" if kin_word in vocab.MASCULINE_KIN else None)
            if key not in people or people[key][1] is None:
                people[key] = (name, gender)
    fitting = [name for name, gender in people.values()
               if gender is None or (gender == pronoun and pronoun != "they")]
    if pronoun == "they":  # "they" only for someone the conversation gave no gender
        fitting = [name for name, gender in people.values() if gender is None]
    return fitting[0] if len(fitting) == 1 else None
