"""Facts as English sentences, the one wording table of the memory: one wording per relation of the
default ontology, in the present ("Zhang Wei's sibling is Lin", "Sam has a dog, Rex") and for a fact
that has ended ("Sam used to like chess"), and a sensible guess for relations a user declares
("PLAYS_FOR" -> "plays for").

Pure functions of names and relation. :func:`fact_clause` words a fact (summaries add the dates:
``queries.summaries.fact_sentence``); :func:`statement_sentence` words what one message states, of
each kind an extractor gives (the offline extractor's fact texts).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal

from .names import relation_phrase
from .ontology import is_attribute
from .time import from_iso
from .time.words import period_words
from .verbs import PAST_FORMS, base_form, is_past, past, past_of_third, third_person

Tense = Literal["present", "past", "ended"]

# {s} subject, {o} object, {a_o} object with an article when it needs one ("a car", "cats").
# Each relation: (present, past, ended). The past says what held then ("Zhang Wei lived in Hangzhou
# from 2019 until 2023"); "ended" is said with no date ("Sam used to work at Acme": what a message
# telling of an ending states). Third person singular throughout: a subject is one entity.
_WORDING: dict[str, tuple[str, str, str]] = {
    "LIVES_IN": ("{s} lives in {o}", "{s} lived in {o}", "{s} used to live in {o}"),
    "LIVED_IN": ("{s} lived in {o}", "{s} lived in {o}", "{s} lived in {o}"),
    "WORKS_AT": ("{s} works at {o}", "{s} worked at {o}", "{s} used to work at {o}"),
    "WORKED_AT": ("{s} worked at {o}", "{s} worked at {o}", "{s} worked at {o}"),
    "WORKS_AS": ("{s} works as {a_o}", "{s} worked as {a_o}", "{s} used to work as {a_o}"),
    "JOB_TITLE": ("{s}'s job title is {o}", "{s}'s job title was {o}", "{s}'s job title was {o}"),
    "ROLE": ("{s}'s role is {o}", "{s}'s role was {o}", "{s}'s role was {o}"),
    "STUDIES_AT": ("{s} studies at {o}", "{s} studied at {o}", "{s} used to study at {o}"),
    "STUDIED_AT": ("{s} studied at {o}", "{s} studied at {o}", "{s} studied at {o}"),
    "MARRIED_TO": ("{s} is married to {o}", "{s} was married to {o}", "{s} was married to {o}"),
    "ENGAGED_TO": ("{s} is engaged to {o}", "{s} was engaged to {o}", "{s} was engaged to {o}"),
    "DATING": ("{s} is dating {o}", "{s} was dating {o}", "{s} used to date {o}"),
    "RELATIONSHIP_STATUS": ("{s}'s relationship status is {o}", "{s}'s relationship status was {o}",
                            "{s}'s relationship status was {o}"),
    "AGE": ("{s} is {o} years old", "{s} was {o} years old", "{s} was {o} years old"),
    "NATIONALITY": ("{s}'s nationality is {o}", "{s}'s nationality was {o}", "{s}'s nationality was {o}"),
    "HOMETOWN": ("{s} is from {o}", "{s} was from {o}", "{s}'s hometown was {o}"),
    "CURRENT_PROJECT": ("{s} is working on {o}", "{s} was working on {o}", "{s} used to work on {o}"),
    "MANAGED_BY": ("{s} is managed by {o}", "{s} was managed by {o}", "{s} was managed by {o}"),
    "REPORTS_TO": ("{s} reports to {o}", "{s} reported to {o}", "{s} used to report to {o}"),
    "BORN_IN": ("{s} was born in {o}", "{s} was born in {o}", "{s} was born in {o}"),
    "BORN_ON": ("{s} was born on {o}", "{s} was born on {o}", "{s} was born on {o}"),
    "DIED_IN": ("{s} died in {o}", "{s} died in {o}", "{s} died in {o}"),
    "DIED_ON": ("{s} died on {o}", "{s} died on {o}", "{s} died on {o}"),
    "LIKES": ("{s} likes {o}", "{s} liked {o}", "{s} used to like {o}"),
    "DISLIKES": ("{s} dislikes {o}", "{s} disliked {o}", "{s} used to dislike {o}"),
    "LOVES": ("{s} loves {o}", "{s} loved {o}", "{s} used to love {o}"),
    "HATES": ("{s} hates {o}", "{s} hated {o}", "{s} used to hate {o}"),
    "INTERESTED_IN": ("{s} is interested in {o}", "{s} was interested in {o}",
                      "{s} used to be interested in {o}"),
    "VISITED": ("{s} visited {o}", "{s} visited {o}", "{s} visited {o}"),
    "ATTENDED": ("{s} attended {o}", "{s} attended {o}", "{s} attended {o}"),
    "WATCHED": ("{s} watched {o}", "{s} watched {o}", "{s} watched {o}"),
    "READ": ("{s} read {o}", "{s} read {o}", "{s} read {o}"),
    "READS": ("{s} reads {o}", "{s} read {o}", "{s} used to read {o}"),
    "OWNS": ("{s} owns {a_o}", "{s} owned {a_o}", "{s} used to own {a_o}"),
    "HAS_PET": ("{s} has a pet, {o}", "{s} had a pet, {o}", "{s} used to have a pet, {o}"),
    "HAS_CHILD": ("{s}'s child is {o}", "{s}'s child was {o}", "{s}'s child was {o}"),
    "HAS_PARENT": ("{s}'s parent is {o}", "{s}'s parent was {o}", "{s}'s parent was {o}"),
    "HAS_SIBLING": ("{s}'s sibling is {o}", "{s}'s sibling was {o}", "{s}'s sibling was {o}"),
    "HAS_GRANDPARENT": ("{s}'s grandparent is {o}", "{s}'s grandparent was {o}", "{s}'s grandparent was {o}"),
    "HAS_GRANDCHILD": ("{s}'s grandchild is {o}", "{s}'s grandchild was {o}", "{s}'s grandchild was {o}"),
    "HAS_COUSIN": ("{s}'s cousin is {o}", "{s}'s cousin was {o}", "{s}'s cousin was {o}"),
    "HAS_RELATIVE": ("{s}'s relative is {o}", "{s}'s relative was {o}", "{s}'s relative was {o}"),
    "FRIEND_OF": ("{s} is friends with {o}", "{s} was friends with {o}", "{s} used to be friends with {o}"),
    "COFOUNDER": ("{s}'s cofounder is {o}", "{s}'s cofounder was {o}", "{s}'s cofounder was {o}"),
    "KNOWS": ("{s} knows {o}", "{s} knew {o}", "{s} used to know {o}"),
    "ALLERGIC_TO": ("{s} is allergic to {o}", "{s} was allergic to {o}", "{s} used to be allergic to {o}"),
    "HAS_CONDITION": ("{s} has {o}", "{s} had {o}", "{s} used to have {o}"),
    "HAS_HOBBY": ("{s}'s hobbies include {o}", "{s}'s hobbies included {o}",
                  "{s} used to have {o} as a hobby"),
    "PLAYS": ("{s} plays {o}", "{s} played {o}", "{s} used to play {o}"),
    "SPEAKS": ("{s} speaks {o}", "{s} spoke {o}", "{s} used to speak {o}"),
    "MEMBER_OF": ("{s} is a member of {o}", "{s} was a member of {o}", "{s} used to be a member of {o}"),
    "LEARNING": ("{s} is learning {o}", "{s} was learning {o}", "{s} was learning {o}"),
    "DRIVES": ("{s}'s car is the {o}", "{s}'s car was the {o}", "{s} used to drive the {o}"),
    "PHONE_MODEL": ("{s}'s phone is the {o}", "{s}'s phone was the {o}", "{s}'s phone used to be the {o}"),
    "DIET": ("{s} follows a {o} diet", "{s} followed a {o} diet", "{s} used to follow a {o} diet"),
    "DID": ("{s} did {o}", "{s} did {o}", "{s} did {o}"),
    "PREFERS": ("{s} prefers {o}", "{s} preferred {o}", "{s} used to prefer {o}"),
    "MANAGES": ("{s} manages {o}", "{s} managed {o}", "{s} used to manage {o}"),
    "EMPLOYS": ("{s} employs {o}", "{s} employed {o}", "{s} used to employ {o}"),
    "OFTEN_VISITS": ("{s} often visits {o}", "{s} often visited {o}", "{s} used to visit {o} often"),
    "RECOMMENDS": ("{s} recommends {o}", "{s} recommended {o}", "{s} used to recommend {o}"),
    "AVOIDS": ("{s} avoids {o}", "{s} avoided {o}", "{s} used to avoid {o}"),
    "LIVES_WITH": ("{s} lives with {o}", "{s} lived with {o}", "{s} used to live with {o}"),
    "DIETARY_RESTRICTION": ("{s} is {o}", "{s} was {o}", "{s} used to be {o}"),
    "PLANS": ("{s} is planning to {o}", "{s} planned to {o}", "{s} planned to {o}"),
    "PLANS_TO_VISIT": ("{s} is planning to visit {o}", "{s} planned to visit {o}",
                       "{s} planned to visit {o}"),
}
# Diets said as what one is ("Sam is vegetarian"), not as a diet one follows.
_DIET_ADJECTIVES = frozenset("""vegetarian vegan pescatarian gluten-free dairy-free sober plant-based
kosher halal teetotal""".split()) | {"lactose intolerant"}
# A past verb opening a DID object ("painted a sunrise"): said as it is, without "did".
_PAST_VERB = re.compile(r"^(?:\w+ed|went|ran|swam|took|made|wrote|read|won|began|drew|sang|built|ate|"
                        r"saw|met|flew|drove|rode|gave|got|bought|sold|taught|caught|found|held|left|"
                        r"spent|threw|wore|did|had|led|felt|kept|lost|paid|put|sent|told|thought)\b")
_MASS_OR_NAMED = re.compile(r"^(?:[A-Z]|a |an |the |some |\d)")


def _article(obj: str) -> str:
    """``a car``, ``an apartment``, ``cats``, ``Tesla`` (a name or a plural stays as it is)."""
    if _MASS_OR_NAMED.match(obj) or (obj.endswith("s") and not obj.endswith("ss")):
        return obj
    return f"{'an' if obj[:1].lower() in 'aeiou' else 'a'} {obj}"


_KIN = re.compile(r"[a-z][a-z -]*")


def _kin_word(subject: str, obj: str, text: str | None) -> str | None:
    """The kin word of a fact's own text ("Zhang Wei's sister is Lin.", or as older texts put it,
    "Lin is Zhang Wei's sister." -> "sister"). Plain string tests: a pattern built per name would be
    compiled again for every subject (ingestion words thousands)."""
    text = (text or "").strip()
    text = text[:-1] if text.endswith(".") else text
    head, tail = f"{subject}'s ", f" is {obj}"
    if text.startswith(head) and text.endswith(tail) and len(text) > len(head) + len(tail):
        kin = text[len(head):-len(tail)]
    elif text.startswith(f"{obj} is {subject}'s "):
        kin = text[len(f"{obj} is {subject}'s "):]
    else:
        return None
    return kin if _KIN.fullmatch(kin) else None


def _species(obj: str, text: str | None) -> str | None:
    """The pet's species in a fact's own text ("has a dog, Bao" or "has a dog named Bao")."""
    m = re.search(rf"\bhas an? ([a-z][a-z -]*?)(?: named| called|,) {re.escape(obj)}\b", text or "")
    return m.group(1) if m else None


def _determiner(obj: str, text: str | None) -> str | None:
    """The determiner an event's own text gives its object ("attended a poetry reading")."""
    m = re.search(rf"\b(a|an|the) {re.escape(obj)}\b", text or "")
    return m.group(1) if m else None


# Participles a declared relation's name may start with that describe a state ("EMPLOYED_BY",
# "BASED_IN": "is based in"), not a thing done ("PLAYED_FOR", "WORKED_WITH": "played for").
_STATE_PARTICIPLES = frozenset("""employed owned managed married engaged located based involved
interested related connected attached associated known named called allied affiliated devoted
dedicated committed opposed acquainted scheduled enrolled registered subscribed certified licensed
qualified listed ranked rated insured housed stationed""".split())


def _declared(subject: str, relation: str, obj: str, tense: Tense) -> str:
    """A user-declared relation: ``HAS_MENTOR`` -> "X's mentor is Y", ``FAN_OF`` -> "X is a fan of
    Y", ``EMPLOYED_BY`` -> "X is employed by Y", ``SUPPORT`` -> "X supports Y", ``PLAYS_FOR`` as is;
    in the past "X's mentor was Y", "X supported Y", "X played for Y"; ended "X used to play for Y"."""
    words = relation_phrase(relation).split()
    if not words:
        return f"{subject} {obj}"
    be = "is" if tense == "present" else "was"
    head, rest = words[0], " ".join(words[1:])
    if head in ("has", "have") and rest and is_past(words[1]):  # "HAS_WON_PRIZE": done, so said as done
        return f"{subject} has {rest} {obj}"
    if head in ("has", "have") and rest:
        return f"{subject}'s {rest} {be} {obj}"
    if head in ("was", "were"):  # named in the past ("WAS_BORN_IN"): past in every tense
        return f"{subject} was {rest} {obj}".replace("  ", " ")
    if head in ("is", "are"):
        return f"{subject} {be} {rest} {obj}".replace("  ", " ")
    if words[-1] == "of" and len(words) > 1 and not head.endswith("s"):
        return f"{subject} {be} {_article(' '.join(words[:-1]))} of {obj}"
    if head.endswith("ed") and len(words) > 1 and (head in _STATE_PARTICIPLES or words[1] == "by"):
        return f"{subject} {be} {' '.join(words)} {obj}"
    if head.endswith("ed") or head in PAST_FORMS:  # named in the past ("PLAYED_FOR", "MET"): a thing done
        return f"{subject} {' '.join(words)} {obj}"
    base = base_form(head)
    if tense == "ended":
        return f"{subject} used to {' '.join([base, *words[1:]])} {obj}"
    verb = third_person(base) if tense == "present" else past(base)
    return f"{subject} {' '.join([verb, *words[1:]])} {obj}"


def fact_clause(
    subject: str, relation: str, obj: str, *, ended: bool = False, tense: Tense | None = None,
    text: str | None = None, attributes: Mapping[str, Any] | None = None, kin: str | None = None,
    species: str | None = None, det: str | None = None,
) -> str:
    """The fact as a clause without dates or a full stop: ``Zhang Wei's sibling is Lin``.

    ``tense``: "present" (the default), "past" for what held at a time gone by ("Zhang Wei lived in
    Hangzhou", to be dated by the caller), or "ended" for a fact told as over without a date ("Sam
    used to like chess"); ``ended=True`` is short for ``tense="ended"``. The kin word (``sister``)
    and the pet's species come from ``kin`` / ``species``, else from ``text`` (the fact's own
    sentence); a plan's target comes from ``attributes``; ``det`` is the determiner an event was
    told with ("visited the Louvre", "attended a concert")."""
    tense = tense or ("ended" if ended else "present")
    then = tense != "present"
    be, have = ("was", "had") if then else ("is", "has")
    if tense == "ended":
        have = "used to have"
    attributes = attributes or {}
    relation = relation.upper()
    if kin is None and (relation.startswith("HAS_") or relation in ("MARRIED_TO", "DATING", "ENGAGED_TO")):
        kin = _kin_word(subject, obj, text)
    if kin and relation != "FRIEND_OF":
        return f"{subject}'s {kin} {be} {obj}"
    species = species or (_species(obj, text) if relation == "HAS_PET" else None)
    if relation == "HAS_PET" and species and species.lower() != obj.lower():
        return f"{subject} {have} {_article(species)}, {obj}"
    if relation in ("VISITED", "ATTENDED") and (det := det or _determiner(obj, text)):
        obj = f"{det if det in ('a', 'an', 'the') else 'the'} {obj}"
    if relation == "HAS_PET" and obj[:1].islower():
        return f"{subject} {have} {_article(obj)}"
    if relation == "DIET" and obj.lower() in _DIET_ADJECTIVES:
        return f"{subject} {'used to be' if tense == 'ended' else be} {obj}"
    if relation == "DID" and _PAST_VERB.match(obj):
        return f"{subject} {obj}"
    if relation == "PLANS" and _MASS_OR_NAMED.match(obj):  # "a trip to Peru": planned, not "to a trip"
        return f"{subject} {'planned' if then else 'is planning'} {obj}{_target(attributes)}"
    wording = _WORDING.get(relation)
    if wording is None and is_attribute(relation):  # "Order 5512's status is shipped"
        words = _attribute_words(relation)
        plural = words.split()[-1].lower() in _PLURAL_ATTRIBUTES
        verb = ("were" if then else "are") if plural else be
        return f"{subject}'s {words} {verb} {obj}"
    if wording is None:
        return _declared(subject, relation, obj, tense)
    clause = wording[_TENSES.index(tense)].format(s=subject, o=obj, a_o=_article(obj))
    return clause + _target(attributes) if relation in ("PLANS", "PLANS_TO_VISIT") else clause


_TENSES: tuple[Tense, ...] = ("present", "past", "ended")
# Attribute names said in the plural ("the opening hours are 9 to 5").
_PLURAL_ATTRIBUTES = frozenset({"hours", "prices", "fees", "ratings", "headquarters"})


# Words an attribute's name keeps as written: raters and abbreviations ("Fitch rating", "CEO").
_ATTRIBUTE_CASE = {"fitch": "Fitch", "moodys": "Moody's", "sp": "S&P", "dbrs": "DBRS", "ceo": "CEO",
                   "cto": "CTO", "cfo": "CFO", "hq": "HQ", "eta": "ETA", "wi fi": "Wi-Fi"}


def _attribute_words(relation: str) -> str:
    words = relation_phrase(relation)
    for lower, written in _ATTRIBUTE_CASE.items():
        words = re.sub(rf"\b{lower}\b", written, words)
    return words


def _target(attributes: Mapping[str, Any]) -> str:
    """`` in January 2024``: when a plan is for (its ``planned_for`` attributes), or nothing."""
    when = attributes.get("planned_for")
    try:
        start: datetime | None = from_iso(when) if isinstance(when, str) else None
    except ValueError:  # a hand-written attribute that is no time: the plan without its target
        start = None
    return "" if start is None else " " + period_words(start, attributes.get("planned_for_granularity"))


# Endings that name no object ("we divorced"): whatever held stopped.
_ENDED_UNNAMED = {"MARRIED_TO": "{s} got divorced", "DATING": "{s} broke up with their partner",
                  "WORKS_AT": "{s} left their job", "PLANS": "{s}'s plan was called off"}


def statement_sentence(
    subject: str, relation: str, obj: str, kind: str = "state", *, det: str | None = None,
    kin: str | None = None, species: str | None = None,
) -> str:
    """What one message states, as a sentence: a fact that holds (``state``, ``correction``), one
    that stopped (``ending``: "Sam used to work at Acme.", "Sam got divorced."), or one the subject
    says never held (``denial``: "Maya says it is not so: Maya works at Globex.")."""
    relation = relation.upper()
    if kind == "ending" and not obj:
        unnamed = _ENDED_UNNAMED.get(relation, "{s} no longer " + relation_phrase(relation))
        return unnamed.format(s=subject) + "."
    if kind == "ending" and relation == "PLANS":
        return f"{subject} called off the plan ({obj})."
    clause = fact_clause(subject, relation, obj, ended=kind == "ending", kin=kin, species=species, det=det)
    return f"{subject} says it is not so: {clause}." if kind == "denial" else f"{clause}."


# Words that may stand between a subject and its verb ("Sam often visits Porto").
_ADVERBS = frozenset({"often", "also", "usually", "always", "sometimes", "regularly"})


def _verb_at(subject: str, text: str) -> tuple[str, str, str, str] | None:
    """``text`` (a fact's own sentence) split around its main verb: (before, adverb, verb, after),
    when it opens with ``subject``, maybe an adverb, then its verb, or ``subject``'s noun and
    "is"/"are" ("Ana's rent is ..."); None when it reads otherwise."""
    text = text.strip().rstrip(".").rstrip()
    if text.startswith(subject + "'s "):
        m = re.match(rf"^({re.escape(subject)}'s [a-z][\w -]*?) (is|are) (.+)$", text)
        return (m.group(1), "", m.group(2), m.group(3)) if m else None
    if not text.startswith(subject + " "):
        return None
    words = text[len(subject) + 1:].split(" ")
    adverb = words.pop(0) if len(words) > 1 and words[0] in _ADVERBS else ""
    verb, after = words[0], " ".join(words[1:])
    if not re.fullmatch(r"[a-z]+", verb):
        return None
    return subject, adverb, verb, after


def _join(*words: str) -> str:
    return " ".join(w for w in words if w)


def past_text(subject: str, text: str) -> str | None:
    """A fact's own sentence told in the past: "Zhang Wei lives in Hangzhou with Li Na." -> "Zhang
    Wei lived in Hangzhou with Li Na", "Ana's rent is 1,300 euros a month" -> "Ana's rent was 1,300
    euros a month"; as it is when it is told in the past already; None when its verb is not found
    (the caller words the fact from its relation instead)."""
    found = _verb_at(subject, text)
    if found is None:
        return None
    before, adverb, verb, after = found
    if is_past(verb) or verb == "had":
        then = verb
    elif verb in ("is", "are"):
        then = "was" if verb == "is" else "were"
    elif verb == "has" or (verb.endswith("s") and not verb.endswith("ss")):
        then = past_of_third(verb)
    else:
        return None  # a base form or a noun: no present verb to turn
    return _join(before, adverb, then, after)


def still_text(subject: str, text: str) -> str | None:
    """A fact's own sentence saying it still holds: "Zhang Wei still lives in Hangzhou", "Ana's rent
    is still 1,300 euros a month", "Sam is still married to Li"; None when its verb is not a
    present one found where expected (a thing done, "was born in", is never "still")."""
    found = _verb_at(subject, text)
    if found is None:
        return None
    before, adverb, verb, after = found
    if is_past(verb) or verb == "had" or verb == "still":
        return None
    if verb in ("is", "are"):
        return _join(before, adverb, verb, "still", after)
    if verb == "has" or (verb.endswith("s") and not verb.endswith("ss")):
        return _join(before, "still", adverb, verb, after)
    return None
