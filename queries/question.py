"""Reading a question's shape from its words (pure rules, no store): possessive chains ("Kenji's
brother", "the husband of Rita"), the question kind (what / who / when / how long / ever / what
changed), the asker's "I" and "my" (:func:`first_person`) and broad questions. The relations it asks
about are read by :mod:`queries.topics`.
"""

from __future__ import annotations

import re

from temporal_graph.core.model import QuestionKind
from temporal_graph.core.time import find_time_expressions

MAX_HOPS = 3

# A word naming a hop -> the relations that may hold it, best first.
_SPOUSE = ("MARRIED_TO", "IS_MARRIED_TO")
HOP_WORDS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("brother", "sister", "sibling", "brothers", "sisters", "siblings"), ("HAS_SIBLING",)),
    **dict.fromkeys(("husband", "wife", "spouse"), _SPOUSE),
    "partner": ("DATING", *_SPOUSE, "ENGAGED_TO"),
    **dict.fromkeys(("boyfriend", "girlfriend"), ("DATING",)),
    **dict.fromkeys(("fiance", "fiancé", "fiancee", "fiancée"), ("ENGAGED_TO",)),
    **dict.fromkeys(("son", "daughter", "child", "kid", "sons", "daughters", "children", "kids"),
                    ("HAS_CHILD",)),
    **dict.fromkeys(("mother", "father", "mom", "mum", "dad", "parent", "parents"), ("HAS_PARENT",)),
    **dict.fromkeys(("friend", "friends"), ("FRIEND_OF",)),
    **dict.fromkeys(("manager", "boss"), ("MANAGED_BY", "REPORTS_TO")),
    "employer": ("WORKS_AT",),
}
# Relations that hold both ways ("A married to B" says "B married to A"), and inverse pairs.
SYMMETRIC = frozenset({"HAS_SIBLING", "MARRIED_TO", "IS_MARRIED_TO", "FRIEND_OF", "DATING", "ENGAGED_TO"})
INVERSE = {"HAS_PARENT": "HAS_CHILD", "HAS_CHILD": "HAS_PARENT"}

_KIN_ADJ = r"(?:(?:older|younger|little|big|elder|eldest|oldest|youngest|twin|baby|step-?|half-?)\s+)?"
_HOP_WORD = r"(?P<word>[a-zé]+)"
_AFTER = re.compile(rf"^\s*(?:'s|’s|'|’)\s+{_KIN_ADJ}{_HOP_WORD}\b", re.IGNORECASE)
_BEFORE = re.compile(rf"\b(?:(?:the|a|an|my)\s+)?{_KIN_ADJ}{_HOP_WORD}\s+of\s+(?:the\s+)?$", re.IGNORECASE)


def hop_phrases(question: str, start: int, end: int) -> tuple[list[str], str]:
    """The hop words attached to the name at ``question[start:end]``, nearest the name first
    ("the wife of Kenji's brother" -> brother, wife), and the question with them taken out (so
    "Where does Kenji's brother live?" reads "Where does Kenji live?" for the relation)."""
    after: list[str] = []
    tail = question[end:]
    while len(after) < MAX_HOPS and (m := _AFTER.match(tail)) and m.group("word").lower() in HOP_WORDS:
        after.append(m.group("word").lower())
        tail = tail[m.end():]
    head = question[:start]
    before: list[str] = []
    while len(after) + len(before) < MAX_HOPS and (m := _BEFORE.search(head)) and m.group(
        "word"
    ).lower() in HOP_WORDS:
        before.append(m.group("word").lower())
        head = head[: m.start()]
    if not after and not before:
        return [], question
    return after + before, f"{head}{question[start:end]}{tail}"


_CHANGED = re.compile(r"\bwhat(?:'s| has| have| is)? (?:changed|new)\b|\bchanges?\b", re.IGNORECASE)
_BELIEVED = re.compile(r"\b(?:memory|you)\s+(?:believe|believed|think|thought|know|knew)\b", re.IGNORECASE)
_HOW_LONG = re.compile(r"\bhow long\b|\bfor how many (?:years|months|days)\b", re.IGNORECASE)
_WHEN = re.compile(r"^\s*(?:since when|until when|when|what year|in what year|in which year|what date)\b",
                   re.IGNORECASE)
_ENDING = re.compile(
    r"\buntil when\b|\b(?:leave|left|quit|stop|stopped|end|ended|finish|finished|divorce|divorced|retire|"
    r"retired|break up|broke up|split up|move out of|moved out of|give up|gave up|cease|ceased)\b",
    re.IGNORECASE,
)
_EVER = re.compile(r"^\s*(?:has|have|had|did|was|were|is|does)\b.*\bever\b", re.IGNORECASE)
# "Who lives in Kyoto?" asks for subjects; "Who does Kenji work for?" asks for an object.
_WHO_INVERSE = re.compile(r"^\s*(?:who|which (?:people|person|persons))\s+(?!(?:does|did|do)\b)",
                          re.IGNORECASE)
# "Who is Dana's cofounder?": a role of the named one, asked as a value (no hop word names it).
_WHO_ROLE = re.compile(r"^\s*who\s+(?:is|was|are|were)\s+.+?['’]s?\s+[a-z][\w-]*\s*\??\s*$", re.IGNORECASE)


def question_kind(question: str, *, has_hops: bool, has_object: bool) -> QuestionKind:
    """What is asked; ``question`` with its hop phrases already taken out."""
    if _BELIEVED.search(question):
        return "believed"
    if _CHANGED.search(question) and not _WHEN.search(question):
        return "changed"
    if _HOW_LONG.search(question):
        return "how_long"
    if _WHEN.search(question):
        return "when_end" if _ENDING.search(question) else "when_start"
    if _EVER.search(question) and has_object:
        return "ever"
    if _WHO_INVERSE.search(question) and not has_hops and not _WHO_ROLE.search(question):
        return "who"
    return "what"


_PLAN_WORDS = re.compile(r"\b(?:plan|plans|planning|planned)\b", re.IGNORECASE)
_POLAR = re.compile(r"^\s*(?:is|are|was|were|does|do|did|has|have|had)\b", re.IGNORECASE)


def is_plan(relation: str) -> bool:
    """A plan relation (PLANS, PLANS_TO_VISIT, PLANS_TO_MOVE_TO, …): never a fact of what it plans."""
    return relation.startswith("PLAN")


def asks_plan(question: str) -> bool:
    return _PLAN_WORDS.search(question) is not None


def is_polar(question: str) -> bool:
    """A yes/no question: "Is X still…", "Did X ever…", "Has X…"."""
    return _POLAR.match(question) is not None


def order_asked(question: str, names: list[str]) -> str | None:
    """"before" / "after" when the question places itself before or after one of ``names``
    ("Where did X live before Porto?", "… after moving to Porto"), else None."""
    for name in names:
        m = re.search(rf"(?i)\b(before|after)\s+(?:[a-z]+ing\s+(?:to|in|at|for|from)\s+)?(?:the\s+)?"
                      rf"{re.escape(name)}\b", question)
        if m:
            return m.group(1).lower()
    return None


_CAPITALIZED = re.compile(r"(?<!^)(?<![.?!]\s)\b[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*")
# Capitalized words that name a degree or a title, not someone ("When did Yuki finish her PhD?").
_NOT_NAMES = frozenset("phd mba msc bsc ma ba mphil dphil md ceo cto cfo coo".split())


def unknown_names(question: str, known: list[str]) -> list[str]:
    """Capitalized words of the question (not its first word) that are none of the ``known`` names:
    what "Has Kenji ever lived in Paris?" asks about when the memory has never heard of Paris."""
    taken = [k.casefold() for k in known]
    for t in reversed(find_time_expressions(question)):  # "in March 2024" names no one
        question = question[: t.start] + " " * (t.end - t.start) + question[t.end:]
    found = []
    for m in _CAPITALIZED.finditer(question):
        name = m.group(0).removesuffix("'s").removesuffix("’s")
        if name.casefold() in _NOT_NAMES:
            continue
        if not any(name.casefold() in k or k in name.casefold() for k in taken):
            found.append(name)
    return found


# The asker's words. "me" after "tell", "show", ... is whom the answer is for, not what it is about.
_FIRST_PERSON: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\b([Aa]m|AM)\s+I\b"), "{is} {name}"),
    (re.compile(r"\bI(?:'|’)m\b|\bI\s+am\b"), "{name} is"),
    (re.compile(r"\bI(?:'|’)ve\b"), "{name} has"),
    (re.compile(r"\b([Hh]ave|HAVE)\s+I\b"), "{has} {name}"),
    (re.compile(r"\b([Dd]o|DO)\s+I\b"), "{does} {name}"),
    (re.compile(r"\bI(?:'|’)(?:d|ll)\b"), "{name} would"),
    (re.compile(r"\bI\s+have\b"), "{name} has"),
    (re.compile(r"\bI\b"), "{name}"),
    (re.compile(r"\b(?:my|mine|My|MY|Mine)\b"), "{name}'s"),
    (re.compile(r"(?i)(?<!\btell )(?<!\bshow )(?<!\bgive )(?<!\bremind )(?<!\blet )(?<!\bfor )"
                r"\b(?:me|myself)\b"), "{name}"),
]


_WHO_SAID = re.compile(r"^\s*who\s+(?:said|says|claimed|claims|reported|heard|told\s+\w+)\s+(?:that\s+)?",
                       re.IGNORECASE)


def who_said(question: str) -> str | None:
    """"Who said Marta works at the Ritz?" -> "Marta works at the Ritz?" (the statement asked
    about), else None."""
    m = _WHO_SAID.match(question)
    return question[m.end():] if m and question[m.end():].strip(" ?") else None


def says_first_person(question: str) -> bool:
    """Whether the question speaks of its asker ("Where do I live?", "What is my rent?")."""
    return any(p.search(question) for p, _ in _FIRST_PERSON)


def first_person(question: str, name: str) -> str:
    """The question with the asker's words in the third person: "Where do I live?" -> "Where does
    Dana live?", "Have I ever…" -> "Has Dana ever…", "my rent" -> "Dana's rent"."""
    for pattern, words in _FIRST_PERSON:
        def put(m: re.Match[str], words: str = words) -> str:
            verb = m.group(1) if m.groups() else ""
            upper = verb[:1].isupper()
            return words.format(name=name, has="Has" if upper else "has", does="Does" if upper else "does",
                                **{"is": "Is" if upper else "is"})
        question = pattern.sub(put, question)
    return question


BROAD = re.compile(
    r"(?i)\b(?:what\s+(?:do|does)\s+(?:you|the\s+memory)\s+(?:know|remember)|tell\s+me\s+(?:about|everything)"
    r"|everything\s+(?:you\s+know|about)|what\s+about|anything\s+about)\b")
_GROUP_WORDS = re.compile(r"(?i)\b(?:people|everyone|everybody|anyone|folks|the group|us|this memory)\b")


def is_broad(question: str) -> bool:
    """A question about everything of someone (or of the group): "Tell me about Priya", "What do
    you know?" ("Who is Pepper?" is one too: nothing but the name is asked, see ``Plan.broad``)."""
    return BROAD.search(question) is not None


def about_the_group(question: str) -> bool:
    """A broad question naming the group rather than someone: "Tell me about people", "What do you
    know?" (checked after no name was found in it)."""
    return is_broad(question) and (_GROUP_WORDS.search(question) is not None or re.search(
        r"(?i)\b(?:know|remember)\s*\??\s*$", question) is not None)
