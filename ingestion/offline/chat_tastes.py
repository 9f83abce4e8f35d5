"""Rules for the tastes and pastimes long chats tell in passing (more of LoCoMo's shapes): titles being
read, played or watched ("I'm reading "Dune" by Frank Herbert", "a fantasy RPG called "Xenoblade
Chronicles""), favourites told the other way round ("The Hobbit is one of my favorites", "Harry Potter
is my favorite book"), pastimes named as such ("Playing video games and watching movies are my main
hobbies", "Dance is my passion", "I started making jewelry as a hobby", "Painting helps me explore my
identity"), clubs joined ("I joined a travel club": a membership beside the thing done), and pets
of the person spoken to ("your pups", said to the other speaker of a two-person chat).

Precision first: a title must be quoted, named by "called", or a capitalised name after "reading";
a favourite or a pastime is a phrase without pronouns that opens its clause ("this series is one of
my favorites" names nothing); the extractor's guards (questions, hypotheticals, negations, hearsay,
quotes) apply unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from temporal_graph.core.model import Episode
from temporal_graph.core.names import name_key, normalize_relation

from .chat_events import species_told
from .grammar import _HOBBY, PROPER, Rule, _rule
from .possessors import UNIQUE_KIN_RE
from .tables import PRONOUNS

# A title in double quotes, straight or curly.
_QUOTED = r"[\"“”](?P<{g}>[A-Z0-9][^\"“”\n]{{0,60}}?)[\"“”]"
# "a fantasy RPG called "Xenoblade Chronicles"": a kind of work, then its name
_WORK = (r"(?i:book|books|novel|novels|series|saga|trilogy|game|games|rpg|movie|movies|film|films|show|shows|"
         r"documentary|album|podcast|memoir|biography|comic|comics|manga)")
_CALLED = (r"(?i:a|an|this|the|that)\s+(?:[\w'’-]+\s+){0,3}?" + _WORK + r"\b(?:\s+[\w'’-]+){0,8}?\s+"
           r"(?i:called|named|titled)\s+(?:" + _QUOTED.format(g="c") + r"|(?P<cp>" + PROPER + r"))")


def _title(quoted: str, proper: str | None = "tp") -> str:
    """A title as the rules take it: quoted, named by "called", or (``proper``) a capitalised name
    that is no one's ("reading Joanna's script" names a script, not a title)."""
    alternatives = [_QUOTED.format(g=quoted), _CALLED]
    if proper:
        alternatives.append(r"(?P<" + proper + r">" + PROPER + r")(?![\w'’]*['’]s\b)")
    return "(?:" + "|".join(alternatives) + ")"


def _titled(relation: str, object_type: str) -> tuple[tuple[str, str, str, str], ...]:
    return tuple((g, relation, "title", object_type) for g in ("tq", "c", "cp", "tp"))


_NOW = r"(?:(?i:am|is|are)|(?i:have|has)\s+<ADV>(?i:been))\s+<ADV>"
_DONE_PREFIX = r"(?:(?i:just|recently|finally|also)\s+)*"

MEDIA_RULES: list[Rule] = [
    # "I'm (currently) reading "The Lean Startup"", "I'm reading Dune": READS, what one reads now
    *_rule(r"<S>\s+<ADV>" + _NOW + r"(?i:reading|rereading|re-reading)\s+" + _title("tq"),
           *_titled("READS", "Book"), opens_clause=True, cue=("reading",)),
    # "I'm currently playing this awesome fantasy RPG called "Xenoblade Chronicles"": never a bare name
    # ("playing Toby" may be a dog's game)
    *_rule(r"<S>\s+<ADV>" + _NOW + r"(?i:playing)\s+" + _title("tq", proper=None),
           *_titled("PLAYS", "Game"), opens_clause=True, cue=("playing",)),
    # done: "I just watched "Little Women"", "I recently finished rereading "The Alchemist""
    *_rule(r"<S>\s+<ADV>" + _DONE_PREFIX + r"(?i:watched|rewatched|re-watched|saw|finished watching)\s+"
           + _title("tq", proper=None), *_titled("WATCHED", "Work"), opens_clause=True,
           cue=("watch", "saw")),
    *_rule(r"<S>\s+<ADV>" + _DONE_PREFIX + r"(?i:finished reading|finished rereading|reread|re-read|read)\s+"
           + _title("tq", proper=None), *_titled("READ", "Book"), opens_clause=True, cue=("read",)),
    # a taste for a title: "We love "Home Alone""
    *_rule(r"<S>\s+<ADV>(?i:love|loves|like|likes|adore|adores|enjoy|enjoys)\s+" + _QUOTED.format(g="tq"),
           ("tq", "LIKES", "title", "Work"), opens_clause=True, cue=("love", "like", "adore", "enjoy")),
]

# "my mum's favourite book", "my husband's new hobby": a relative's (the extractor settles whom).
_KIN_OF = rf"(?:(?P<kin>{UNIQUE_KIN_RE})['’]s\s+)?"
# What a favourite or a pastime told first may be: a title, or a few words of a phrase with no
# pronoun, no determiner that points at the chat ("this series") and no conjunction (one thing).
_THING = (r"(?P<o>[\"“][A-Z0-9][^\"“”\n]{0,60}[\"”]|(?!(?i:this|that|these|those|it|which|what|there|here|"
          r"mine|yours|he|she|they|we|you|i|seeing|being|having|getting)\b)[A-Za-z][\w'’-]*"
          r"(?:\s+(?!(?i:and|or|but|is|are)\b)[\w'’-]+){0,4}?)")
# Favourite kinds that name a moment of the chat, not a lasting taste ("my favorite part").
_NOT_FAVORITE_KIND = (r"(?!(?i:part|parts|thing|things|moment|moments|memory|memories|time|times|day|days|"
                      r"kind|way|one|ones|bit|place|spot|person|people|quote|line|scene|scenes|"
                      r"ever)\b)")
_FAVORITE_END = r"(?=\s*(?:[,.!;:-]|$)|\s+(?i:too|now|as well|of all time|ever|and|but|so|because|since)\b)"

FAVORITE_RULES: list[Rule] = [
    # "Harry Potter is my favorite book": that favourite (one at a time), and a taste
    *_rule(_THING + r"\s+(?i:is)\s+(?:(?i:definitely|probably|totally|really|still|easily)\s+)?"
           r"(?i:my|our)\s+" + _KIN_OF + r"(?:(?i:all-time|absolute|personal)\s+)?"
           r"(?i:favorite|favourite|fave)\s+"
           + _NOT_FAVORITE_KIND + r"(?P<fav>[a-z][\w-]*)" + _FAVORITE_END,
           ("o", "FAVORITE?", "taste", "Thing"), ("o", "LIKES", "taste", "Thing"), opens_clause=True,
           cue=("favorite", "favourite", "fave")),
    # "The Hobbit is one of my favorites", "Garlic is my go-to ingredient": a taste
    *_rule(_THING + r"\s+(?i:is|are)\s+(?:(?i:definitely|probably|totally|really|still|easily|also)\s+)?"
           r"(?:(?i:one of\s+(?:my|our)\s+(?:(?i:all-time|absolute|personal)\s+)?"
           r"(?:favorites|favourites|faves)"
           r"|(?i:my|our)\s+(?:favorite|favourite|fave)(?=\s*[!.]|$)"
           r"|(?i:my|our)\s+go-to\s+" + _NOT_FAVORITE_KIND + r"[a-z][\w-]*))" + _FAVORITE_END,
           ("o", "LIKES", "taste", "Thing"), opens_clause=True,
           cue=("favorite", "favourite", "fave", "go-to")),
]

HOBBY_NAMED_RULES: list[Rule] = [
    # "Playing video games and watching movies are my main hobbies", "Dance is my passion"
    *_rule(r"(?P<o>(?!(?i:this|that|these|those|it|which|what|there|here|he|she|they|we|you|i|family|"
           r"friends|work|school|life)\b)[A-Za-z][\w'’-]*(?:\s+[\w'’-]+){0,7}?)\s+(?i:is|are)\s+"
           r"(?:(?i:one of)\s+)?(?i:my|our)\s+" + _KIN_OF + r"(?:(?i:main|biggest|big|true|real|first|new|"
           r"favou?rite)\s+)?"
           r"(?i:hobby|hobbies|pastime|pastimes|passion|passions)"
           r"(?=\s*(?:[,.!;-]|$)|\s+(?i:and|but|so|too|now)\b)",
           ("o", "HAS_HOBBY", "taste", "Activity"), opens_clause=True, cue=("hobb", "pastime", "passion")),
    # "I started making jewelry as a hobby"
    *_rule(r"<S>\s+<ADV>(?i:started|took up|picked up|got into|do|does|have been|has been)\s+"
           r"(?P<o>[a-z]+ing(?:\s+[a-z][\w'’-]*){0,3}?)\s+(?i:as a hobby)\b",
           ("o", "HAS_HOBBY", "taste", "Activity"), opens_clause=True, cue=("hobby",)),
    # "Painting helps me explore my identity", "Cooking has been helping me de-stress"
    *_rule(r"(?P<o>(?i:" + _HOBBY + r")(?:\s+(?i:and)\s+(?i:" + _HOBBY + r"))?)\s+"
           r"(?:(?i:really|definitely|always|also|just|truly)\s+)?"
           r"(?i:helps|has helped|have helped|has been helping|have been helping|helped|calms|relaxes)\s+"
           r"(?i:me)\b", ("o", "HAS_HOBBY", "taste", "Activity"), opens_clause=True,
           cue=("help", "calms", "relaxes")),
]

TASTE_RULES: list[Rule] = [*MEDIA_RULES, *FAVORITE_RULES, *HOBBY_NAMED_RULES]


def favorite_relation(kind: str) -> str:
    """"book" -> FAVORITE_BOOK, as "my favorite book is ..." names it."""
    return normalize_relation(f"FAVORITE_{kind}")


def clean_title(raw: str | None) -> str | None:
    """A title as written, without its quotes and trailing stops; none when it is a pronoun."""
    if raw is None:
        return None
    title = " ".join(raw.strip(" \"“”'.,!?:;").split())
    if (not title or title.lower() in PRONOUNS or title.lower() in ("that", "this", "it", "i")
            or re.search(r"['’]s$", title)):  # "reading Joanna's script": whose, not what
        return None
    return title


def clean_taste(raw: str | None) -> str | None:
    """A favourite or a pastime told first: a title kept as written, a phrase in lower case where only
    the sentence gave it its capital ("Drawing flowers" -> "drawing flowers"); none with a pronoun."""
    if raw is None:
        return None
    text = raw.strip(" ,.!?:;")
    if text[:1] in "\"“”":
        return clean_title(text)
    words = text.split()
    if not words or any(w.lower().strip("'’") in PRONOUNS or w.lower() in ("i", "me", "you", "my", "your")
                        for w in words):
        return None
    if len(words) > 5:
        return None
    rest_lower = all(w.islower() for w in words[1:])
    if words[0][:1].isupper() and words[0][1:].islower() and (
            (len(words) > 1 and rest_lower) or words[0].lower().endswith("ing")):
        words[0] = words[0].lower()
    return " ".join(words)


# Clubs and groups one joins: "joined a travel club" is also a membership.
_JOINED = re.compile(
    r"^joined\s+(?:a|an|the|their)\s+(?:(?i:new|local|nearby)\s+)?"
    r"(?P<o>(?:[\w'’+-]+\s+){0,3}?(?:club|group|team|gym|church|choir|band|league|forum|society|association|"
    r"brigade|circle|crew|community|guild|orchestra|troupe|chapter)(?:\s+of\s+[a-z][\w-]*)?)(?![\w-])")


def joined_group(thing_done: str) -> str | None:
    """The club or group a thing done joined ("joined a new LGBTQ activist group" -> "LGBTQ activist
    group"), or None."""
    m = _JOINED.match(thing_done)
    return m.group("o") if m else None


def addressee(episode: Episode, context: Sequence[Episode]) -> str | None:
    """Whom "you" means: the one other speaker of the last few turns (a two-person chat), else
    nobody."""
    others = {name_key(e.speaker): e.speaker for e in context[-4:]
              if e.speaker and name_key(e.speaker) != name_key(episode.speaker or "")}
    return next(iter(others.values())) if len(others) == 1 else None


# "you" of anyone ("parks where you can take your pup") or a pet still to come ("a pic of your dog soon")
_GENERIC_OR_COMING = re.compile(
    r"\b(?i:you\s+(?:can|could|should|might|may|would|need)|if\s+you|whenever\s+you|soon|someday|one day)\b")


def pets_of_addressee(text: str) -> list[str]:
    """The kinds of pet a clause says the person spoken to has ("your pups" -> dog), each once."""
    if _GENERIC_OR_COMING.search(text):
        return []
    return species_told(text, "your")
