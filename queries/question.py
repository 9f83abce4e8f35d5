"""Reading a question's shape from its words (pure rules, no store): possessive chains ("Kenji's
brother", "the husband of Rita"), the question kind (what / who / when / how long / ever / what
changed) and the relations it asks about.
"""

from __future__ import annotations

import re

from temporal_graph.core.model import QuestionKind

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
    if _WHO_INVERSE.search(question) and not has_hops:
        return "who"
    return "what"


# (pattern, tiers): the first tier that finds facts answers; later tiers are fallbacks.
_RELATION_RULES: list[tuple[re.Pattern[str], list[list[str]]]] = [
    (
        re.compile(
            r"\bwhat (?:does|did|do|is|was) (?:(?!\b(?:likes?|enjoys?|loves?|fun)\b).)+ (?:do|doing)\b"
            r"|\b(?:job|profession|occupation|for a living|career|work as|works as|worked as|title)\b"
        ),
        [["WORKS_AS", "JOB_TITLE", "ROLE"], ["WORKS_AT"]],
    ),
    (
        re.compile(r"\b(?:work|works|working|worked|employer|employed|company|leave|left|quit|join|joined)\b"),
        [["WORKS_AT"], ["WORKS_AS", "JOB_TITLE", "WORKED_AT"]],
    ),
    (
        re.compile(r"\b(?:live|lives|living|lived|reside|resides|resided|home|based|moved?|stay|stays)\b"),
        [["LIVES_IN"], ["LIVED_IN"]],
    ),
    (
        re.compile(r"\b(?:study|studies|studying|studied|school|university|college|student)\b"),
        [["STUDIES_AT"], ["STUDIED_AT"]],
    ),
    (re.compile(r"\b(?:married|marry|wife|husband|spouse|partner)\b"),
     [list(_SPOUSE), ["DATING", "ENGAGED_TO"]]),
    (re.compile(r"\b(?:dating|girlfriend|boyfriend)\b"), [["DATING"], ["ENGAGED_TO", "MARRIED_TO"]]),
    (re.compile(r"\b(?:dislike|dislikes|hate|hates)\b"), [["DISLIKES", "HATES"]]),
    (re.compile(r"\b(?:like|likes|love|loves|enjoy|enjoys|favou?rite|fan of|into)\b"), [["LIKES", "LOVES"]]),
    (re.compile(r"\b(?:pets?|dogs?|cats?)\b"), [["HAS_PET"]]),
    (
        re.compile(r"\b(?:visit|visited|been to|travel|travelled|traveled|trip)\b"),
        [["VISITED"], ["PLANS_TO_VISIT"]],
    ),
    (re.compile(r"\b(?:born)\b"), [["BORN_IN", "BORN_ON", "WAS_BORN_IN"]]),
    (re.compile(r"\bwhere (?:is|was|are|were|does|did) .+ (?:come )?from\b|\bhometown\b|\bgrew up\b"),
     [["HOMETOWN"], ["BORN_IN", "WAS_BORN_IN"]]),
    (re.compile(r"\b(?:manager|managed|manages|boss|reports? to)\b"), [["MANAGED_BY", "REPORTS_TO"]]),
    (re.compile(r"\b(?:friends?)\b"), [["FRIEND_OF"]]),
    (re.compile(r"\b(?:child|children|kids?|son|daughter)\b"), [["HAS_CHILD"]]),
    (re.compile(r"\b(?:brothers?|sisters?|siblings?)\b"), [["HAS_SIBLING"]]),
    (re.compile(r"\b(?:speak|speaks|language)\b"), [["SPEAKS"]]),
    (re.compile(r"\b(?:hobby|hobbies)\b"), [["HAS_HOBBY"]]),
    (re.compile(r"\b(?:own|owns|owned)\b"), [["OWNS"]]),
    (re.compile(r"\b(?:allergic|allergy|allergies)\b"), [["ALLERGIC_TO"]]),
    (re.compile(r"\b(?:plan|plans|planning)\b"), [["PLANS", "PLANS_TO_VISIT"]]),
    (re.compile(r"\b(?:old|age)\b"), [["AGE"]]),
]
_QUESTION_WORDS = frozenset(
    ["what", "where", "when", "which", "who", "whom", "whose", "how", "does", "did", "do", "is", "was",
     "were", "has", "have", "had", "the", "and", "for", "since", "ever", "now", "that", "this", "with",
     "from", "into", "about", "memory", "believe", "believed", "know", "knew", "long", "year", "years"]
)
_RELATION_FILLER = frozenset(
    ["IS", "HAS", "WAS", "HAD", "AT", "IN", "TO", "FOR", "OF", "FROM", "ON", "BY", "THE", "A"])


_IRREGULAR = {"win": "won", "wins": "won", "winning": "won", "bear": "born", "die": "died", "dying": "died",
              "lead": "led", "leads": "led", "make": "made", "makes": "made", "marry": "married"}


def stem(word: str) -> str:
    """A crude stem, enough to meet a relation name halfway ("worked" ~ WORKS_AT, "died" ~ DIED_IN)."""
    word = _IRREGULAR.get(word.lower(), word.lower())
    for suffix in ("ing", "ies", "ied", "ed", "es", "s", "d"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:5]


def relation_tiers(question: str, known: list[str]) -> list[list[str]]:
    """Relations the question asks about, in tiers (the first tier with facts answers), limited to
    ``known`` (the group's relations): the keyword table first, then relations whose name shares a
    word stem with the question ("Where did she die?" ~ DIED_IN, "play" ~ PLAYS_FOR)."""
    q = question.casefold()
    have = set(known)
    tiers: list[list[str]] = []
    asked: list[str] = []
    for pattern, rule_tiers in _RELATION_RULES:
        if pattern.search(q):
            tiers = [[r for r in tier if r in have] for tier in rule_tiers]
            asked = rule_tiers[0]
            break
    if asks_plan(q):  # "Is X planning to move to C?" asks about the plan, not where X lives
        return [[r for r in known if is_plan(r)] or ["PLANS"]]
    words = {stem(w) for w in re.findall(r"[a-z]{3,}", q) if w not in _QUESTION_WORDS}
    by_stem = [
        r for r in known
        if not is_plan(r) and any(stem(part) in words
               for part in r.split("_") if part not in _RELATION_FILLER and len(part) >= 3)
    ]
    taken = {r for tier in tiers for r in tier}
    tiers.append([r for r in by_stem if r not in taken])
    tiers = [tier for tier in tiers if tier]
    # Asked about a relation the group has never held: keep it, so the answer says what is missing.
    return tiers or ([list(asked)] if asked else [])


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


def unknown_names(question: str, known: list[str]) -> list[str]:
    """Capitalized words of the question (not its first word) that are none of the ``known`` names:
    what "Has Kenji ever lived in Paris?" asks about when the memory has never heard of Paris."""
    taken = [k.casefold() for k in known]
    found = []
    for m in _CAPITALIZED.finditer(question):
        name = m.group(0).removesuffix("'s").removesuffix("’s")
        if not any(name.casefold() in k or k in name.casefold() for k in taken):
            found.append(name)
    return found
