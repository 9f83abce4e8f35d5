"""Rules for what people tell each other in long chats (the shapes LoCoMo's turns use most): dated
things done with the everyday verbs ("Last Friday I had a picnic with my girlfriend", "I spent some
time at the shelter yesterday"), pastimes kept up ("I've been painting a lot lately"), and lasting
tastes ("I've always liked turtles", "I've been into dancing since I was a kid").

Precision first, as everywhere in the offline rules: a thing done needs a time phrase (an undated
"I had a great time" says too little), the subject must open its clause, and the clause-level
guards of the extractor (questions, hypotheticals, negations, hearsay, quotes) apply unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from temporal_graph.core.time import TimeMatch

from .grammar import _HOBBY, N, Rule, _alt, _plain, _rule

# Everyday verbs of things done, beyond the fallback list of ``grammar``. Each is excluded where
# it starts an idiom that says nothing done ("had to", "got it", "found out that", "met up" is kept).
_DONE = _alt((
    "participated in", "took part in", "checked out", "dropped off", "picked up", "set up", "signed with",
    "teamed up with", "spent", "found", "met", "saw", "watched", "received",
    "gave a", "gave an", "gave my", "gave our", "gave the", "gave some", "threw", "learned", "learnt",
    "submitted", "pitched", "retook", "rehearsed",
    "caught", "entered", "earned", "grabbed", "held", "led", "ate", "shot",
    "filmed", "ordered", "crafted", "sewed", "fixed", "wrapped up", "kicked off", "stumbled upon",
    "went on", "got", "had", "contacted", "discovered", "revised", "upgraded", "reorganized", "reorganised",
    "skyped with", "tried out", "got accepted", "picked up", "made", "took", "helped", "scored", "worked on",
    "decided to", "snapped", "tackled", "renovated", "hosted", "performed", "organized", "organised",
    "went to", "celebrated", "tried", "attended", "finished", "started", "did a", "did an",
))
_NOT_DONE = (r"(?!\s+(?i:to|been|no|not|never|it|that|to be|sure|up my mind|time|a mistake|a point|"
             r"a difference|an impact|a decision|the opportunity|an opportunity|a bit|some trial|a while|"
             r"a surprise for|the chance|a chance|a feeling|a sense|"
             r"a lot of fun|"
             r"fun|used|rid|lost|stuck|out that|out|me|you|us|them|him|her|into|some sleep|a blast|"
             r"a great time|a good time|a nice time|a wonderful time|an amazing time|so much fun|lot|"
             r"good job|great job|feeling|thinking|wondering|worrying|wanting|hoping|being|"
             r"learning|(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty)\s+"
             r"years?|"  # "celebrated ten years": an anniversary, which the marriage rules read
             r"an awesome time)\b)")

# Words that end the thing done: what follows them is another event, with its own time.
_BREAK_WORDS = r"(?:after|before|when|while|until|since|because|where|which|who|and|but|so|then|as)"
_NOT_BREAK = r"(?!(?i:" + _BREAK_WORDS + r")\b)"
_BREAK = re.compile(r",|\b(?i:" + _BREAK_WORDS + r")\b")

_LIKE_END = r"(?:with|for|to|at|in|on|when|because|and|or|but|so|since|while|whenever|as|about|into|from)\b"

# "had a picnic", "spent some time at the shelter", "got a new puppy": with a time phrase (needs_time)
# or told as just done, as the fallback of the clause (no other rule matched it). Verbs another
# relation owns (bought: OWNS, adopted: HAS_PET, visited: VISITED) are left to their rules.
RECENT_DONE_RULES: list[Rule] = [
    *_rule(r"<S>\s+<ADV>" + r"(?P<o>(?i:" + _DONE + r")" + _NOT_DONE
           + r"(?:\s+" + _NOT_BREAK + r"[\w+'’-]+){1,9})",
           ("o", "DID", "activity", "Activity"), needs_time=True, fallback=True, implicit=True,
           cue=tuple(sorted({v.split()[0] for v in _DONE.replace("\\", "").split("|")}))),
]

# What is liked, up to the clause word that starts what follows ("turtles since I was a boy"); a
# gerund cut off from its object ("loved caring | for my pups") is not kept.
_LIKED = (r"(?![a-z]+ing\s+(?:with|for|to|at|in|on|about|into|from)\b)"
          r"(?P<o>[\w+'’-]+(?:(?:,\s+|\s+)(?!" + _LIKE_END + r")[\w+'’-]+){0,11})")

CHAT_STATE_RULES: list[Rule] = [
    *RECENT_DONE_RULES,
    # a pastime kept up: "I have been painting a lot lately", "been reading a lot in the past week"
    *_rule(r"<S>\s+<ADV>(?i:have been|has been|have also been|have really been|keep|kept|am still|"
           r"is still)\s+"
           r"(?:(?i:busy)\s+)?"
           + r"(?P<o>(?i:" + _HOBBY + r"))(?![\w-])"
           r"(?=\s*(?:[,.!;]|$)|\s+(?i:a lot|lately|more|again|recently|every|regularly|often|farther|"
           r"further|since|nonstop|non-stop|daily|weekly|at|with|in|for|to)\b)",
           _plain("o", "HAS_HOBBY", "Activity"), opens_clause=True, cue=("been", "keep", "kept", "still")),
    # a taste for doing something: "I love going on road trips with friends" (the doing, without
    # its company or place: "going on road trips")
    *_rule(r"<S>\s+<ADV>(?i:love|loves|enjoy|enjoys|like|likes|adore|adores)\s+"
           r"(?!(?i:being|having|getting|seeing|hearing|knowing|spending|doing|it|that|this|them|you|how|when|"
           r"what)\b)"
           # a gerund alone only when it closes the clause ("I love talking about ..." says too little)
           r"(?P<o>[a-z]+ing(?=\s*(?:[,.!;]|$))|[a-z]+ing(?:\s+(?!" + _LIKE_END + r")[a-z][\w'’-]*){1,4}"
           r"(?=\s*(?:[,.!;]|$)|\s+" + _LIKE_END + r"))",
           N("o", "LIKES", "Activity"), opens_clause=True, cue=("love", "enjoy", "like", "adore")),
    # ongoing work on something: "I have been working on my online store"
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|have been|has been)\s+(?:(?i:still|also|currently|busy|really)\s+)*"
           r"(?i:working)\s+(?:(?i:hard|really hard|a lot)\s+)?(?i:on)\s+(?P<det>a|an|my|our|the|some)\s+"
           r"(?!(?i:new\s+)?(?i:project|projects|thing|things|stuff)\b)(?P<o><NP>)",
           N("o", "WORKS_ON", "Project"), opens_clause=True, cue=("working",)),
    # a class taken: "I'm taking a dog training course", "I have been taking a poetry class"
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|have been|has been|started|just started)\s+(?i:taking|doing)\s+"
           r"(?i:a|an|some|my)\s+(?:(?i:online|new|weekly|local|free|beginner|beginners|creative)\s+)?"
           r"(?!(?i:online|new|weekly|local|free|beginner|beginners|creative|short)\s+(?i:class|classes|course|"
           r"courses|workshop|lessons)\b)"
           r"(?P<o>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+(?i:class|classes|course|courses|workshop|lessons)\b",
           N("o", "LEARNING", "Skill"), cue=("taking", "doing")),
    # lasting tastes told in the perfect ("I have always liked turtles") or as "been into"
    *_rule(r"<S>\s+<ADV>(?:(?i:have|has)\s+)?(?i:always)\s+"
           r"(?i:loved|liked|enjoyed|been into|been a fan of)\s+"
           r"(?!(?i:it|that|this|them|you|him|her|the way|how|when|what)\b)" + _LIKED,
           N("o", "LIKES", "Thing"), opens_clause=True, cue=("always",)),
    *_rule(r"<S>\s+<ADV>(?i:have|has)\s+(?i:been)\s+(?:(?i:really|so|super)\s+)?(?i:into)\s+"
           r"(?!(?i:it|that|this|them|you|him|her)\b)" + _LIKED,
           N("o", "LIKES", "Thing"), opens_clause=True, cue=("into",)),
]


def time_belongs_elsewhere(text: str, end: int, times: Sequence[TimeMatch], anchors: Sequence[int],
                           time: TimeMatch) -> bool:
    """Whether a time phrase found after a thing done dates a later clause instead: a comma or a
    clause word ("after", "when", "and") stands between the match and the phrase."""
    anchor = next((a for t, a in zip(times, anchors, strict=True) if t is time), None)
    return anchor is not None and anchor > end and bool(_BREAK.search(text, end, anchor))


# "I just joined a writers group", "I recently adopted a pup": a thing done told as just now needs no
# time phrase to be kept (it is dated by the message, as an undated fact).
_RECENT = re.compile(r"^(?:[\w'’-]+(?:\s+[\w'’-]+){0,5}?\s+|[\s,!-]*)(?i:just|recently|finally)\s", re.ASCII)


# "I had a picnic with the wife", "We saw the Perseid meteor shower": a past verb and a thing with its
# determiner tell an event even undated (an undated "I got better" or "had fun" does not).
_NARRATED = re.compile(
    r"^(?:had|got|made|saw|found|met|took|spent|watched|received|held|submitted|pitched|tried out|set up|"
    r"signed with|teamed up with|contacted|discovered|upgraded|reorganized|reorganised|revised|"
    r"participated in|took part in|checked out|dropped off|picked up|threw|entered|earned|filmed|crafted|"
    r"went to|did|finished|started|tried|celebrated|attended|wrapped up|completed|started on|decorated|"
    r"organized|organised|hosted|launched|published|released|won|ran)"
    r"\s+(?:a|an|the|their|some|another|two|three|four|five)\s+[\w'’-]+"
    r"|^(?:started|began)\s+(?!(?:feeling|thinking|wondering|getting|being|having|wanting|hoping)\b)"
    r"[a-z]+ing\s+[\w'’-]+")  # "started doing seminars", never "started feeling better"


def kept_undated(subject_to_verb: str, thing_done: str) -> bool:
    """Whether a thing done with no time phrase is still kept: told as just now ("I just joined a
    writers group"; the words from the subject to the verb say so), or a past verb with a thing of
    its own ("had a picnic with the wife")."""
    return bool(_RECENT.match(subject_to_verb) or _NARRATED.match(thing_done))


# Pets told of by "my": "my dogs love the park", "taking care of my four doggies" (a named one,
# "my dog Luna", is the kinship rules'). The species is kept in its plain form, so "my pups" and
# "my dog" are one pet kind.
_SPECIES = {
    **dict.fromkeys(("dog", "dogs", "doggy", "doggie", "doggies", "pup", "pups", "puppy", "puppies"), "dog"),
    **dict.fromkeys(("cat", "cats", "kitten", "kittens", "kitty", "kitties"), "cat"),
    **dict.fromkeys(("turtle", "turtles"), "turtle"), **dict.fromkeys(("hamster", "hamsters"), "hamster"),
    **dict.fromkeys(("rabbit", "rabbits", "bunny", "bunnies"), "rabbit"),
    **dict.fromkeys(("parrot", "parrots"), "parrot"), **dict.fromkeys(("horse", "horses"), "horse"),
    **dict.fromkeys(("tortoise", "tortoises"), "tortoise"), **dict.fromkeys(("snake", "snakes"), "snake"),
}


def _pet_pattern(possessive: str) -> re.Pattern[str]:
    """A pet kind after "my" (or "your"): "my two dogs", "your pups"; never "my dog Luna" (the named
    pet is the kinship rules') nor a pet word that names something else ("my dog park")."""
    return re.compile(
        r"\b(?i:" + possessive + r")\s+(?:(?:two|three|four|five|\d|new|old|little|sweet|cute|furry|beloved|"
        r"lovely|adorable)\s+){0,2}"
        r"(?P<pet>" + _alt(_SPECIES) + r")(?![\w-])(?!['’]s\s+name)"
        r"(?!,?\s+[A-Z][a-z])"  # "my dog Luna": the named pet
        r"(?!\s+(?i:park|food|walker|walking|sitter|toy|toys|bed|beds|grooming|training|trainer|treats|shelter|"
        r"show|friendly|years|days|owners?|people|lovers?|painting|paintings|drawing|picture|pictures|photo|"
        r"photos|pic|pics|sculpture|figurine|tattoo|costume|themed|print|mug|shirt|art|artwork|collection|book|"
        r"books|video|videos|calendar|plush|stuffed)\b)")


_PETS_OF = {"my": _pet_pattern("my"), "your": _pet_pattern("your")}

# Clauses that only look forward to a pet ("can't wait for the day I go on a trip with my dog").
_PET_HOPE = re.compile(
    r"\b(?i:cannot wait for|can not wait for|the day I|future|bucket list|looking forward)\b")


def species_told(text: str, possessive: str = "my") -> list[str]:
    """The kinds of pet a clause says someone has, by "my" or "your" ("my dogs" -> dog), each once."""
    if _PET_HOPE.search(text):
        return []
    return list(dict.fromkeys(_SPECIES[m.group("pet").lower()] for m in _PETS_OF[possessive].finditer(text)))


def pets_of_speaker(text: str) -> list[str]:
    """The kinds of pet a clause says the speaker has ("my dogs" -> dog), each once."""
    return species_told(text, "my")
