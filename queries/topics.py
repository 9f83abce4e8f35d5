"""What a question asks about, by its words (pure rules, no store): a *topic* ("what does she do for a
living" is the job, "where does she live" the home), the relations that answer it, best first, and
the neighbouring relations an "I don't know" names instead of answering with them.

An answer rests only on a relation of the asked topic: "What does Priya do for a living?" is never
answered with where she lives, "When is Priya getting married?" never with the day she got engaged,
"What is the status of Marco's bike order?" never with his relationship status. A relation of the
memory that no topic holds (``RENT``, ``BIKE_ORDER_STATUS``, ``PLAYS_FOR``) answers when the question
says its words: an attribute (:func:`~temporal_graph.core.ontology.is_attribute`) when every word of
its name is said, or its own word and one more ("Marco's order status" ~ ``BIKE_ORDER_STATUS``; never
"Priya's rent" ~ ``SISTER_RENT``); any other relation when the question says one of its words ("Where
did she die?" ~ ``DIED_IN``).

A tier entry may name a value: ``RELATIONSHIP_STATUS=married`` answers "Is Kwame married?" only with
that value (:func:`entry`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from temporal_graph.core.model import Fact
from temporal_graph.core.ontology import is_attribute


def entry(text: str) -> tuple[str, str | None]:
    """``RELATIONSHIP_STATUS=married`` -> (relation, value); ``LIVES_IN`` -> (relation, None)."""
    relation, _, value = text.partition("=")
    return relation, value or None


@dataclass(frozen=True)
class Topic:
    """What a question asks about: the relations answering it (tiers, best first) and its neighbours."""

    name: str
    pattern: re.Pattern[str]
    tiers: tuple[tuple[str, ...], ...]
    related: tuple[str, ...] = ()
    # Loose words ("leave", "join") name no one relation: with a named value ("When did Priya leave
    # Dell?") any fact between the two answers.
    loose: bool = False

    @property
    def answering(self) -> frozenset[str]:
        return frozenset(entry(e)[0] for tier in self.tiers for e in tier)


def _topic(name: str, words: str, tiers: Sequence[Sequence[str]], related: Sequence[str] = (), *,
           loose: bool = False) -> Topic:
    return Topic(name, re.compile(words), tuple(tuple(t) for t in tiers), tuple(related), loose)


_SPOUSE = ("MARRIED_TO", "IS_MARRIED_TO")
_PARTNERS = ("DATING", "ENGAGED_TO", *_SPOUSE)
_JOB = ("WORKS_AS", "JOB_TITLE", "ROLE", "OCCUPATION", "PROFESSION")
_WORK = ("WORKS_AT", "WORKED_AT", "EMPLOYED_BY", "WORKS_FOR")
_STUDY = ("STUDIES_AT", "STUDIED_AT")
_HOME = ("LIVES_IN", "LIVED_IN")

# The first topic whose words the question holds is the one asked (so "for a living" is the job,
# never the home). Lower-case patterns, read on the case-folded question.
TOPICS: tuple[Topic, ...] = (
    _topic("relationship status", r"\brelationship(?: status)?\b|\b(?:single|taken)\b",
           [["RELATIONSHIP_STATUS"], _PARTNERS]),
    _topic("job",
           r"\bwhat (?:does|did|do|is|was) (?:(?!\b(?:likes?|enjoys?|loves?|fun)\b).)+ (?:do|doing)\b"
           r"|\b(?:job|jobs|profession|occupation|for a living|career|work as|works as|worked as|title)\b",
           [_JOB, _WORK[:2]], [*_WORK[2:], *_STUDY]),
    _topic("work", r"\b(?:work|works|working|worked|employer|employed|company)\b",
           [["WORKS_AT"], _WORK[1:]], [*_JOB, *_STUDY]),
    _topic("leaving", r"\b(?:leave|leaving|left|quit|quitting|join|joined|joining)\b",
           [["WORKS_AT"], _WORK[1:]], [*_JOB, *_STUDY, "MEMBER_OF"], loose=True),
    _topic("wedding", r"\b(?:getting married|get married|wedding|marrying|going to marry|will marry)\b",
           [_SPOUSE, ["RELATIONSHIP_STATUS=married"]], ["ENGAGED_TO", "RELATIONSHIP_STATUS", "DATING"]),
    _topic("married", r"\b(?:married|marry|wife|husband|spouse|divorced?)\b",
           [_SPOUSE, ["RELATIONSHIP_STATUS=married"]], ["ENGAGED_TO", "RELATIONSHIP_STATUS", "DATING"]),
    _topic("engaged", r"\b(?:engaged|engagement|fianc[eé]e?|propose|proposed)\b",
           [["ENGAGED_TO"], ["RELATIONSHIP_STATUS=engaged"]], ["DATING", *_SPOUSE, "RELATIONSHIP_STATUS"]),
    _topic("partner", r"\bpartners?\b", [_PARTNERS], ["RELATIONSHIP_STATUS"]),
    _topic("dating", r"\b(?:dating|dated|date(?! of)|girlfriend|boyfriend|seeing|together|break up|broke up|"
                     r"split up)\b|^\s*who\s+(?:is|was|are|were)\s+(?:\S+\s+){0,3}with\b",
           [["DATING"], ["ENGAGED_TO", *_SPOUSE]], ["RELATIONSHIP_STATUS"]),
    _topic("home", r"\b(?:live|lives|living|lived|reside|resides|resided|home|based|moved?|moving|stay|"
                   r"stays)\b",
           [["LIVES_IN"], ["LIVED_IN"]], ["HOMETOWN", "BORN_IN", "PLANS_TO_MOVE_TO"]),
    _topic("study", r"\b(?:study|studies|studying|studied|school|university|college|student|phd|degree)\b",
           [["STUDIES_AT"], ["STUDIED_AT"]], [*_WORK[:2], *_JOB]),
    _topic("dislikes", r"\b(?:dislike|dislikes|disliking|hate|hates|hating)\b", [["DISLIKES", "HATES"]],
           ["LIKES", "LOVES"]),
    _topic("likes", r"\b(?:like|likes|liking|love|loves|loving|enjoy|enjoys|enjoying|favou?rite|fan of"
                    r"|into)\b",
           [["LIKES", "LOVES"]], ["HAS_HOBBY", "DISLIKES"]),
    _topic("pets", r"\b(?:pets?|dogs?|cats?|pupp(?:y|ies)|kittens?|rabbits?)\b", [["HAS_PET"], ["OWNS"]]),
    _topic("visits", r"\b(?:visit|visits|visited|visiting|been to|travel|travels|travell?ed|travell?ing"
                     r"|trip)\b",
           [["VISITED"]], ["PLANS_TO_VISIT", "PLANS"]),
    _topic("birth", r"\b(?:born)\b", [["BORN_IN", "BORN_ON", "WAS_BORN_IN"]], ["HOMETOWN"]),
    _topic("origin", r"\bwhere (?:is|was|are|were|does|did) .+ (?:come )?from\b|\bhometown\b|\bgrew up\b",
           [["HOMETOWN"], ["BORN_IN", "WAS_BORN_IN"]], ["LIVES_IN"]),
    _topic("manager", r"\b(?:manager|managed|manages|managing|boss|reports? to|reporting to)\b",
           [["MANAGED_BY", "REPORTS_TO"]]),
    _topic("friends", r"\b(?:friends?)\b", [["FRIEND_OF"]]),
    _topic("children", r"\b(?:child|children|kids?|son|daughter)\b", [["HAS_CHILD"]]),
    _topic("siblings", r"\b(?:brothers?|sisters?|siblings?)\b", [["HAS_SIBLING"]]),
    _topic("languages", r"\b(?:speak|speaks|speaking|language|languages)\b", [["SPEAKS"]], ["LEARNING"]),
    _topic("hobbies", r"\b(?:hobby|hobbies)\b", [["HAS_HOBBY"]], ["LIKES", "MEMBER_OF"]),
    _topic("owns", r"\b(?:own|owns|owned|owning)\b", [["OWNS"]], ["HAS_PET"]),
    _topic("death", r"\b(?:die|died|dies|death|dead|pass away|passed away)\b",
           [["DIED_ON", "DIED_IN", "DIED", "PASSED_AWAY"], ["DID=passed away", "DID=died"]]),
    _topic("allergies", r"\b(?:allergic|allergy|allergies)\b", [["ALLERGIC_TO"]]),
    _topic("age", r"\b(?:old|age)\b", [["AGE"]], ["BORN_ON"]),
)
# Every relation some topic answers with: such a relation answers only its own topic.
TOPIC_RELATIONS = frozenset(r for t in TOPICS for r in t.answering)

# "Has it shipped?", "Was it delivered?": a state of a thing asked by its verb is its status.
STATUS_VERBS = re.compile(
    r"\b(?:ship|shipped|dispatched|sent|deliver|delivered|arrive|arrived|process|processed|processing|"
    r"cancell?ed|refunded|returned|resolved|closed|opened|approved|rejected|paid|completed|fixed)\b")

_QUESTION_WORDS = frozenset(
    ["what", "where", "when", "which", "who", "whom", "whose", "how", "does", "did", "do", "is", "was",
     "were", "has", "have", "had", "the", "and", "for", "since", "ever", "now", "that", "this", "with",
     "from", "into", "about", "memory", "believe", "believed", "know", "knew", "long", "year", "years",
     "much", "many", "still", "currently", "been", "being", "are", "any", "get", "got", "there"]
)
_FILLER = frozenset("IS HAS WAS HAD AT IN TO FOR OF FROM ON BY THE A".split())
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


def fact_fits(f: Fact, entries: Iterable[str]) -> bool:
    """Whether ``f`` is of one of ``entries`` (its value too, for an entry naming one)."""
    for e in entries:
        relation, value = entry(e)
        if f.relation == relation and (value is None or f.object.casefold() == value):
            return True
    return False


def topic_of(question: str) -> Topic | None:
    """The topic a question asks about (case-folded words), or None."""
    q = question.casefold()
    return next((t for t in TOPICS if t.pattern.search(q)), None)


def is_topic_word(name: str) -> bool:
    """Whether a name is itself the word of a topic ("engaged", "married"): a value of that word in
    a question asks about the topic, it names no other party."""
    folded = " ".join(name.casefold().split())
    return any((m := t.pattern.search(folded)) is not None and m.group(0) == folded for t in TOPICS)


def question_stems(question: str) -> set[str]:
    """Stems of the question's content words; a status verb ("shipped") also says "status"."""
    q = question.casefold()
    words = {stem(w) for w in re.findall(r"[a-z]{3,}", q) if w not in _QUESTION_WORDS}
    if STATUS_VERBS.search(q):
        words.add(stem("status"))
    return words


# Words that ask without saying what about ("When did she start?"), and the words of plans.
_GENERIC = frozenset(stem(w) for w in """plan plans planning planned going happen happened happening start
started stop stopped begin began end ended tell know say said""".split())


def content_stems(question: str) -> tuple[frozenset[str], str]:
    """The stems of what a question asks about, names and time phrase already taken out, and those
    words as asked ("When did Priya get engaged?" -> {"engag"}, "get engaged")."""
    words = [w for w in re.findall(r"[A-Za-z][a-z]{2,}", question)
             if w.casefold() not in _QUESTION_WORDS and stem(w) not in _GENERIC]
    return frozenset(stem(w) for w in words), " ".join(w.casefold() for w in words)


def _parts(relation: str) -> list[str]:
    return [p for p in relation.split("_") if p not in _FILLER and len(p) >= 3]


def said(relation: str, stems: set[str]) -> bool:
    """Whether the question's words name ``relation``: every word of an attribute's name (or its own
    word and one more); one word of any other relation."""
    parts = _parts(relation)
    if not parts:
        return False
    hit = [stem(p) in stems for p in parts]
    if not is_attribute(relation):
        return any(hit)
    return all(hit) or (hit[-1] and sum(hit) >= 2)


def near(relation: str, stems: set[str]) -> bool:
    """An attribute whose own word is said but not the rest of its name ("Priya's rent" ~
    ``SISTER_RENT``): named as a neighbour, never an answer."""
    parts = _parts(relation)
    return bool(parts) and is_attribute(relation) and stem(parts[-1]) in stems and not said(relation, stems)


@dataclass(frozen=True)
class Asked:
    """The relations a question asks about: ``tiers`` answer it, ``related`` are named instead."""

    tiers: list[list[str]]
    related: list[str]
    topic: str | None = None
    loose: bool = False
    wanted: tuple[str, ...] = ()  # the topic's first relations, held by the group or not (for wording)


def asked_relations(question: str, known: Sequence[str], *, plans: bool = False) -> Asked:
    """Relations ``question`` asks about, limited to ``known`` (the group's relations): its topic's
    tiers, then relations of no topic whose words it says. ``plans``: the question asks about a plan
    (its plan relations answer; see :func:`queries.question.is_plan`)."""
    have = set(known)
    topic = topic_of(question)
    stems = question_stems(question)
    tiers: list[list[str]] = []
    related: list[str] = []
    if topic is not None:
        tiers = [[e for e in tier if entry(e)[0] in have] for tier in topic.tiers]
        related = [r for r in topic.related if r in have]
    if plans:
        return Asked([[r for r in known if r.startswith("PLAN")] or ["PLANS"]], related, "plans")
    # With a topic, a relation of another topic never answers ("for a living" is no LIVES_IN);
    # with none, any relation whose words the question says may.
    own = topic.answering if topic is not None else TOPIC_RELATIONS
    free = [r for r in known if not r.startswith("PLAN") and (r not in TOPIC_RELATIONS or r in own)]
    taken = {entry(e)[0] for tier in tiers for e in tier}
    tiers.append([r for r in free if r not in taken and said(r, stems)])
    related += [r for r in known if near(r, stems) and r not in related]
    tiers = [tier for tier in tiers if tier]
    if not tiers and topic is not None:
        # Asked about a relation the group has never held: keep it, so the answer says what is missing.
        tiers = [[entry(e)[0] for e in topic.tiers[0]]]
    if topic is None:
        return Asked(tiers, related)
    return Asked(tiers, related, topic.name, topic.loose, tuple(entry(e)[0] for e in topic.tiers[0]))
