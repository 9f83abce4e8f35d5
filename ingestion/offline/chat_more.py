"""More of the shapes long chats tell lasting facts and things done in (LoCoMo's, beyond
chat_events.py and chat_tastes.py): things done with a verb whose object follows a preposition ("I
just participated in a marching event", "I just signed with a new team"), things done told in a
relative clause that ends with their time ("It reminds me of a trip I took last summer", "this pride
parade I went to a few weeks ago"), pastimes kept up told without a subject ("Been busy volunteering
at the homeless shelter") or named as part of one's life ("Pottery is a huge part of my life"), tastes
told as being a fan ("I'm a huge fan of Lord of the Rings"), as a love or passion of one's own ("my
love of reading", "Writing has always been a passion of mine"), as what brings joy ("Art gives me so
much joy") or with an emphatic "do" ("I do love animals"), titles loved ("I loved "Becoming
Nicole""), good times had at an event ("We had a great time at the LGBT pride event last month":
attended), instruments being learnt ("I've also started learning how to play the piano") and works
being written ("I am writing another movie script").

Precision first: a thing done keeps the rules of chat_events.py (a time phrase, or told as just done,
or a past verb with a thing of its own); a relative clause counts only with its time right at its end
and never as the sentence's subject; a pastime is a word of the closed hobby list; a taste is a name or
a phrase without pronouns or a determiner pointing at the chat ("a fan of this genre", "my love for my
kids" name nothing), and only "my" or "I" make it the speaker's ("our love of nature", "animals bring
us peace" may be anyone's); an event must carry an event word ("parade", "festival"); the extractor's
guards (questions, hypotheticals, negations, hearsay, quotes) apply unchanged.
"""

from __future__ import annotations

import re
from typing import Literal

from .chat_events import _NOT_BREAK
from .chat_tastes import _QUOTED, _THING
from .grammar import _GAME_OBJ, _HOBBY, _SKILL, N, Rule, _alt, _plain, _rule
from .objects import _clean_phrase
from .tables import GAME_PHRASES, GAMES, INSTRUMENTS

# Verbs of things done whose object follows a preposition: the object is the whole phrase.
_PHRASAL = _alt(("participated in", "took part in", "competed in", "signed with", "teamed up with",
                 "skyped with", "partnered with", "collaborated with"))
_NOT_PRONOUN = r"(?!(?i:it|that|this|them|him|her|me|you|us|one|some|any)\b)"

PHRASAL_DONE_RULES: list[Rule] = [
    # "I just participated in a marching event for veterans' rights", "Last weekend, I participated
    # in a community event": dated, told as just done, or with a thing of its own (chat_events' rules)
    *_rule(r"<S>\s+<ADV>(?P<o>(?i:" + _PHRASAL + r")\s+" + _NOT_PRONOUN + _NOT_BREAK + r"[\w+'’-]+"
           r"(?:\s+" + _NOT_BREAK + r"[\w+'’-]+){0,11})",
           ("o", "DID", "done", "Activity"), needs_time=True, fallback=True, implicit=True,
           cue=("participated", "part in", "competed", "signed with", "teamed", "skyped", "partnered",
                "collaborated")),
]

# What may follow a pastime kept up: its frequency, its company or place, or the end of the clause.
_KEPT_UP_END = (r"(?=\s*(?:[,.!;]|$)|\s+(?i:a lot|lately|more|longer|hard|again|recently|every|regularly|"
                r"often|nonstop|non-stop|daily|weekly|since|and|at|with|in|for|to)\b)")
_LIFE_PART = (r"(?i:is|has been|has always been|have been|are)\s+(?:(?i:such|really|definitely|always)\s+)?"
              r"(?i:a|an)\s+(?:(?i:huge|big|important|significant|major|special|key|large|essential|"
              r"integral)\s+)?(?i:part)\s+(?i:of)\s+(?i:my)\s+(?i:life)\b")

HOBBY_MORE_RULES: list[Rule] = [
    # "Been busy volunteering at the homeless shelter", "Been running longer since our last chat": a
    # pastime kept up, told without "I have"
    *_rule(r"(?:^\s*|[,!]\s+)(?:(?i:just|also|still)\s+)?(?i:been)\s+(?:(?i:busy|really|super|so)\s+)?"
           r"(?P<o>(?i:" + _HOBBY + r"))(?![\w-])" + _KEPT_UP_END,
           _plain("o", "HAS_HOBBY", "Activity"), opens_clause=True, cue=("been",)),
    # "Pottery is a huge part of my life", "Basketball has been a part of my life ever since I was a kid"
    # (a game is played)
    *_rule(r"(?:^\s*|[,!]\s+)(?P<o>(?i:" + _HOBBY + r"|dance|music|art))\s+" + _LIFE_PART,
           ("o", "HAS_HOBBY", "lower", "Activity"), opens_clause=True, cue=("part of my",)),
    *_rule(r"(?:^\s*|[,!]\s+)(?P<o>(?i:" + _alt(GAMES + GAME_PHRASES + INSTRUMENTS) + r"))\s+" + _LIFE_PART,
           ("o", "PLAYS", "lower", "Activity"), opens_clause=True, cue=("part of my",)),
    # "Hiking has opened up a whole new world for me", "Painting has always been my escape"
    *_rule(r"(?:^\s*|[,!]\s+)(?P<o>(?i:" + _HOBBY + r"))\s+(?i:has|have)\s+"
           r"(?:(?i:really|truly|always|also)\s+)?"
           r"(?:(?i:opened up|opened|changed|given|taught|shaped)\s+(?:(?i:a|my|me)\b)"
           r"|(?i:been)\s+(?i:my|a|such a)\s+(?:(?i:big|huge|great|real|true|favorite|favourite)\s+)?"
           r"(?i:escape|outlet|passion|therapy|haven|refuge|lifeline|release|happy place|sanctuary|go-to)"
           r"(?!\s+(?i:of|for)\b))",  # "a passion of mine" is a taste (TASTE_MORE_RULES)
           ("o", "HAS_HOBBY", "lower", "Activity"), opens_clause=True,
           cue=("opened", "changed", "given", "taught", "shaped", "been my", "been a", "been such")),
    # "I'm volunteering as a mentor", "I'm carrying on volunteering at the youth center"
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+<ADV>(?:(?i:carrying on|continuing|keeping up)\s+)?"
           r"(?P<o>(?i:volunteering))\s+(?i:at|with|as|for|in)\b", _plain("o", "HAS_HOBBY", "Activity"),
           opens_clause=True, cue=("volunteering",)),
]

# A taste told as being a fan: a name, or a phrase with no pronoun and no determiner pointing at the
# chat ("a fan of this genre" names nothing).
_FAN_OBJECT = (r"(?!(?i:this|that|these|those|it|them|him|her|you|your|his|their|our|my|the way|what|how|"
               r"all|both|every|everything|anything)\b)"
               r"(?P<o>[\w'’-]+(?:\s+(?!(?i:and|but|so|because|since|when|too|as well|though)\b)"
               r"[\w'’-]+){0,5}?)(?=\s*(?:[,.!;]|$)|\s+(?i:and|but|so|because|since|when|too|as well|"
               r"though|now|ever since)\b)")

# What a love is for: a few words (a list of them is split later), up to the word that starts what
# follows ("my love of reading | even more", "my love for desserts | has been fun").
_LOVED = (r"(?!(?i:the|this|that|these|those|it|them|him|her|you|your|his|their|our|my|all|every)\b)"
          r"(?P<o>[\w'’-]+(?:(?:,\s+|\s+)(?!(?i:even|more|so|too|again|now|with|to|because|since|when|how|"
          r"that|which|who|is|are|was|were|has|have|had|keeps?|brings?|makes?|lets?|helps?|into|in|through|"
          r"as|by|at|on|from|ever|has|while|and the|and how|and it|and I)\b)[\w'’-]+){0,5})"
          r"(?=\s*(?:[,.!;]|$)|\s+[\w'’-]+)")

TASTE_MORE_RULES: list[Rule] = [
    # "I'm a huge fan of Lord of the Rings", "I have always been a big fan of jazz"
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|have been|has been|have always been|has always been)\s+(?i:a|an)\s+"
           r"(?:(?i:huge|big|massive|real|true|long-time|longtime|lifelong|total|great|die-hard|diehard)\s+)?"
           r"(?i:fan)\s+(?i:of)\s+" + _FAN_OBJECT,
           ("o", "LIKES", "taste", "Thing"), opens_clause=True, cue=("fan of",)),
    # "Spider-Man has always been a favorite of mine", "Writing has always been a passion of mine"
    *_rule(_THING + r"\s+(?i:has|have|is|are)\s+(?:(?i:always|long)\s+)?(?:(?i:been)\s+)?(?i:a|one)\s+"
           r"(?:(?i:big|real|personal|huge|longtime|long-time|true|great)\s+)?"
           r"(?i:favorite|favourite|fave|passion|love)\s+(?i:of)\s+(?i:mine|ours)\b",
           ("o", "LIKES", "taste", "Thing"), opens_clause=True,
           cue=("favorite of", "favourite of", "fave of", "passion of", "love of")),
    # a love told as one's own: "my love of reading", "my passion for dance and fashion", "I've
    # always had a love for horses", "we share a love for reading"
    *_rule(r"\b(?i:my)\s+(?:(?i:deep|strong|big|huge|real|true|lifelong|own|growing)\s+)?"
           r"(?i:love|passion)\s+(?i:for|of)\s+" + _LOVED,
           N("o", "LIKES", "Thing"), cue=("love for", "love of", "passion for", "passion of")),
    *_rule(r"<S>\s+<ADV>(?:(?i:have|has)\s+(?:(?i:always|long)\s+)?(?i:had)|(?i:have|has|had|share|shares|"
           r"shared))\s+(?i:a|such a)\s+(?:(?i:deep|strong|big|huge|real|true|lifelong|great)\s+)?"
           r"(?i:love|passion)\s+(?i:for|of)\s+" + _LOVED,
           N("o", "LIKES", "Thing"), opens_clause=True, cue=("love for", "love of", "passion for")),
    # "Art gives me so much joy", "Turtles really bring me joy and peace" (what "used to" give joy no
    # longer does)
    *_rule(_THING + r"(?<!used to)(?<!going to)\s+(?:(?i:really|always|truly|just|also|still)\s+)?"
           r"(?i:brings|bring|gives|give)\s+"
           r"(?i:me)\s+(?:(?i:so much|such|a lot of|great|real|pure)\s+)?"
           r"(?i:joy|happiness|peace|comfort)\b", ("o", "LIKES", "taste", "Thing"), opens_clause=True,
           cue=("joy", "happiness", "peace", "comfort")),
    # a title loved: "I loved "Becoming Nicole" by Amy Ellis Nutt", "I loved reading "Charlotte's Web" as
    # a kid" (read, too)
    *_rule(r"<S>\s+<ADV>(?i:loved|enjoyed|adored|really liked)\s+" + _QUOTED.format(g="tq"),
           ("tq", "LIKES", "title", "Work"), opens_clause=True, cue=("loved", "enjoyed", "adored", "liked")),
    *_rule(r"<S>\s+<ADV>(?i:loved|enjoyed|adored)\s+(?i:reading|rereading)\s+" + _QUOTED.format(g="tq"),
           ("tq", "LIKES", "title", "Work"), ("tq", "READ", "title", "Book"), opens_clause=True,
           cue=("loved", "enjoyed", "adored")),
    # an emphatic "do": "I do love animals", "I do enjoy watching birds in the nature"
    *_rule(r"<S>\s+<ADV>(?i:do|does)\s+(?:(?i:really|still|also|truly)\s+)?(?i:love|like|enjoy|adore)\s+"
           r"(?!(?i:being|having|getting|seeing|hearing|knowing|spending|doing|it|that|this|them|you|how|when|"
           r"what|the|a|an|my|your|his|her|their|our|to|some|all)\b)"
           r"(?P<o>[a-z]+ing(?:\s+(?!(?i:with|for|to|at|in|on|about|into|from|and|or|but|so|because|since|"
           r"while|when)\b)[a-z][\w'’-]*){0,3}|[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,2}?)"
           r"(?=\s*(?:[,.!;]|$)|\s+(?i:with|for|to|at|in|on|about|into|from|and|or|but|so|because|since|"
           r"while|when|too|as well|a lot|so much)\b)",
           N("o", "LIKES", "Thing"), opens_clause=True, cue=("do love", "do like", "do enjoy", "do adore",
                                                           "does love", "does like", "does enjoy")),
]

# Event words a good time was had at ("a great time at the pride event"); the object must hold one.
_GOOD_TIME = (r"(?i:had|have had|has had)\s+(?:(?i:a|an|such a|the)\s+)?(?:(?i:great|good|wonderful|"
              r"amazing|awesome|fantastic|fun|lovely|nice|brilliant|fabulous|incredible|blast|ball|"
              r"really|so|super)\s+){0,2}(?:(?i:time|blast|ball)\s+)?")

EVENT_MORE_RULES: list[Rule] = [
    # "This was my Rocky Mountains trip last year": a trip taken (dated in the past), to the place named
    *_rule(r"\b(?i:my|our)\s+(?P<o>(?-i:[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,3}))\s+(?:(?i:road|family|camping|"
           r"hiking|ski|beach|girls|boys)\s+)?(?i:trip|vacation|holiday)\b",
           ("o", "VISITED", "proper", "Place"), needs_time=True, cue=("trip", "vacation", "holiday")),
    # "Adding NYC to my travel list", "Japan is on my bucket list": a place one means to visit
    *_rule(r"\b(?i:add|adding|added|put|putting)\s+(?P<o>(?-i:[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,3}))\s+"
           r"(?i:to|on)\s+(?i:my|our)\s+(?i:bucket|travel|to-do|wish)\s+(?i:list)\b",
           ("o", "PLANS_TO_VISIT", "proper", "Place"), cue=("list",)),
    *_rule(r"(?:^\s*|[,!]\s+)(?P<o>(?-i:[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,3}))\s+(?i:is|are)\s+"
           r"(?:(?i:definitely|still|high|also|top)\s+)?(?i:on)\s+(?i:my|our)\s+(?i:bucket|travel|to-do|wish)\s+"
           r"(?i:list)\b", ("o", "PLANS_TO_VISIT", "proper", "Place"), cue=("list",)),
    # "We had a great time at the LGBT pride event last month", "We had a blast last year at the Pride
    # fest": attended, dated by the clause's time phrase
    *_rule(r"<S>\s+<ADV>" + _GOOD_TIME + r"(?i:at)\s+(?P<det>the|a|an|this|that|our|my)\s+(?P<o><NP>)",
           ("o", "ATTENDED", "event", "Event"), needs_time=True, opens_clause=True,
           cue=("time at", "blast", "ball at")),
]

# "I've also started learning how to play the piano", "just learning the piano"
LEARNING_MORE_RULES: list[Rule] = [
    *_rule(r"<S>\s+<ADV>(?i:have|has|am|is|are)\s+(?:(?i:also|just|recently|finally|even|now)\s+)+"
           r"(?:(?i:started|begun)\s+)?(?i:learning)\s+(?:(?i:how)\s+)?(?:(?i:to)\s+(?i:play)\s+)?"
           + _GAME_OBJ, _plain("o", "LEARNING", "Skill"), opens_clause=True, cue=("learning",)),
    *_rule(r"(?:^\s*|[,!]\s+)(?:(?i:just|also|now|currently)\s+)(?i:learning)\s+(?:(?i:how)\s+(?i:to)\s+"
           r"(?i:play)\s+)?" + _GAME_OBJ + r"(?=\s*(?:[,.!;]|$))",
           _plain("o", "LEARNING", "Skill"), opens_clause=True, cue=("learning",)),
    *_rule(r"<S>\s+<ADV>(?i:have|has|am|is|are)\s+(?:(?i:also|just|recently|finally|even|now)\s+)+"
           r"(?:(?i:started|begun)\s+)?(?i:learning)\s+(?:(?i:the|some|a bit of|basic|more)\s+)?(?P<o>"
           + _SKILL + r")(?![\w-])(?![^,.;!?]*\bat\s+(?:[Tt]he\s+)?[A-Z])",
           _plain("o", "LEARNING", "Skill"), opens_clause=True, cue=("learning",)),
]

# A thing done told in a relative clause that ends with its time: "a trip I took last summer", "this
# pride parade I went to a few weeks ago". The time phrase is cut out of the text the rules read,
# leaving a space before the clause's end. The thing is an object ("reminds me of a trip I took ..."),
# never the sentence's subject ("This book I read last year reminds me ..." tells what the book does).
_TIME_GAP = r"(?=\s+[.!?,;]|\s+$)"
_NOT_SUBJECT = r"(?<=\w\s)"
_REL_DET = r"(?i:a|an|the|this|that|these|those|my|our)"
_NOT_HEAD = (r"(?!(?i:one|ones|pic|pics|photo|photos|picture|pictures|shot|shots|snap|snaps|selfie|video|"
             r"videos|thing|things|stuff|time|times|moment|moments|day|days|part|lot|way|place|people|person|"
             r"someone|something)\b)")
# A word of the thing's name: no verb, preposition or pronoun ("That picture was from a trip we took").
_REL_WORD = (r"(?!(?i:I|we|was|is|are|were|be|been|from|of|in|at|to|for|with|on|about|by|and|or|but|that|"
             r"which|who|me|you|it|reminds|remind)\b)[\w'’-]+")
_REL_NP = _REL_DET + r"\s+(?:" + _REL_WORD + r"\s+){0,4}?" + _NOT_HEAD + r"[a-z][\w'’-]*"
_REL_VERBS = ("took", "made", "bought", "read", "did", "painted", "drew", "wrote", "built", "baked",
              "cooked", "knitted", "designed", "created", "planted", "crafted", "sewed", "finished",
              "watched", "saw", "visited", "adopted", "won", "ran", "played", "hosted", "organized",
              "organised", "started", "joined", "went on", "got")
_REL_VERB = _alt(_REL_VERBS)
_REL_CUES = tuple(sorted({verb.split()[0] for verb in _REL_VERBS}))

RELATIVE_DONE_RULES: list[Rule] = [
    # "this pride parade I went to a few weeks ago": attended (an event word is needed)
    *_rule(_NOT_SUBJECT + r"(?P<det>" + _REL_DET + r")\s+(?P<o>(?:" + _REL_WORD + r"\s+){0,4}?" + _NOT_HEAD
           + r"[a-z][\w'’-]*)\s+(?P<subj>I|[Ww]e)\s+(?:(?i:just|recently|finally|first|all)\s+)?"
           r"(?i:went to|attended)" + _TIME_GAP,
           ("o", "ATTENDED", "event", "Event"), needs_time=True, cue=("went to", "attended")),
    # "a road trip we took last year", "a recent self-portrait I made last week": the thing done
    *_rule(_NOT_SUBJECT + r"(?P<o>" + _REL_NP + r"\s+(?P<subj>I|[Ww]e)\s+"
           r"(?:(?i:just|recently|finally|first|all)\s+)?(?i:" + _REL_VERB + r"))" + _TIME_GAP,
           ("o", "DID", "reldone", "Activity"), needs_time=True, cue=_REL_CUES),
]

# Works being written: "I am writing another movie script", "I'm writing articles about fantasy novels"
_WRITTEN = (r"(?i:script|scripts|screenplay|screenplays|book|books|novel|novels|memoir|article|articles|song|"
            r"songs|album|poem|poems|story|stories|play|blog|essay|essays|thesis|dissertation)")

WORK_MORE_RULES: list[Rule] = [
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|have been|has been)\s+(?:(?i:currently|also|still|now|busy)\s+)?"
           r"(?i:writing)\s+(?:(?P<det>a|an|another|my|some)\s+)?(?:(?i:new|second|third|next|more)\s+)?"
           r"(?P<o>(?:[a-z][\w'’-]*\s+){0,2}?" + _WRITTEN + r"(?:\s+(?i:about|on)\s+[a-z][\w'’-]*"
           r"(?:\s+[a-z][\w'’-]*)?)?)(?![\w'’-])",
           N("o", "WORKS_ON", "Project"), opens_clause=True, cue=("writing",)),
]

MORE_RULES: list[Rule] = [*PHRASAL_DONE_RULES, *RELATIVE_DONE_RULES, *HOBBY_MORE_RULES, *TASTE_MORE_RULES,
                          *EVENT_MORE_RULES, *LEARNING_MORE_RULES, *WORK_MORE_RULES]


_RELATIVE = re.compile(r"(?P<det>\S+)\s+(?P<np>.+?)\s+(?:I|[Ww]e)\s+"
                       r"(?:(?:just|recently|finally|first|all)\s+)?(?P<verb>" + _REL_VERB + r")$",
                       re.IGNORECASE)
_PHRASAL_VERB = re.compile(r"(?i:" + _PHRASAL + r")\s+")


def more_object(kind: str, raw: str | None) -> str | None | Literal[False]:
    """The object of this module's own object kinds ("done": a thing done with a phrasal verb, kept
    whole, "signed with a new team"; "lower": a pastime in lower case); ``False`` for any other kind."""
    if kind not in ("done", "lower", "reldone"):
        return False
    if raw is None:
        return None
    if kind == "lower":
        return " ".join(raw.lower().split())
    if kind == "reldone":  # "a trip we took" -> "took a trip"
        told = _RELATIVE.match(" ".join(raw.split()))
        if told is None:
            return None
        det = told.group("det").lower()
        det = {"this": "the", "that": "the", "these": "the", "those": "the", "my": "their",
               "our": "their"}.get(det, det)
        thing = _clean_phrase(f"{told.group('verb')} {det} {told.group('np')}")
        return thing if thing is not None and len(thing.split()) > 2 else None
    verb = _PHRASAL_VERB.match(raw)
    if verb is None:
        return None
    rest = raw[verb.end():]
    thing = _clean_phrase(rest)
    if thing is None:
        return None
    if rest[:1].isupper():  # "signed with Nike": a name keeps its capital
        thing = rest[:1] + thing[1:]
    return f"{' '.join(verb.group(0).lower().split())} {thing}"
