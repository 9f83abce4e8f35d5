"""The fact rules over one parsed sentence: who lives and works where and as what, kin, likes,
attributes (with whose they are), order and ticket statuses, each with the time phrase of its clause.

Each rule starts from a predicate the parse gives (a verb, or a copula with its complement) and reads
its subject, objects and prepositions by their dependency labels, so a possessive chain, a clause
boundary or a frame (``frames``) is a fact of the parse, not of a pattern. The closed word lists
(jobs, kin, what a taste or a hobby is) are the regex path's own (``ingestion.offline.tables``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from temporal_graph.core.extraction import StatementKind
from temporal_graph.core.names import InvalidName, normalize_relation
from temporal_graph.core.ontology import is_attribute
from temporal_graph.core.time import TimeMatch

from ..tables import HOBBY_VERBS, JOBS, KIN, NAME_STOP, PETS, SPECIFIC, VAGUE_TASTES
from .frames import framed, is_predicate, negated, reporter

Token = Any  # a spaCy token (the package is optional)

# -- word lists of the parse rules -----------------------------------------------------------------

LIKE_VERBS = {"love": "LIKES", "like": "LIKES", "enjoy": "LIKES", "adore": "LIKES", "hate": "DISLIKES",
              "dislike": "DISLIKES", "detest": "DISLIKES", "loathe": "DISLIKES"}
CHANGE_VERBS = frozenset("""go change move rise raise drop fall cut lower increase decrease jump climb
reduce double triple shift push bump hike slash up""".split())
# Things that have a status, and the verbs that tell it ("Order 4471 has shipped").
STATUS_THINGS = frozenset("""order package parcel ticket request refund claim case delivery shipment
application return booking reservation issue payment transfer""".split())
STATUS_VERBS = {"ship": "shipped", "deliver": "delivered", "cancel": "cancelled", "refund": "refunded",
                "resolve": "resolved", "close": "closed", "process": "processing", "dispatch": "dispatched",
                "approve": "approved", "reject": "rejected", "pack": "packed", "confirm": "confirmed",
                "reopen": "reopened", "escalate": "escalated", "arrive": "delivered"}
STATUS_WORDS = frozenset(set(STATUS_VERBS.values()) | {"pending", "open", "in transit", "on hold", "lost",
                                                      "out for delivery", "complete", "completed"})
# A thing's state that is no value of its attribute: "my rent is due", "the rent is paid".
NOT_VALUES = frozenset("""due paid late overdue unpaid pending outstanding cleared high low insane crazy
ridiculous fine ok okay steep expensive cheap affordable reasonable killing killer""".split())
HYPERBOLE = frozenset("literally basically practically virtually like".split())
HUGE = re.compile(r"^(?:like\s+)?(?:a|an|one)\s+(?:million|billion|trillion|gazillion|zillion|bajillion)\b",
                  re.I)
# Attributes that are the speaker's when told of "the": "the rent went up" in their own chat.
PERSONAL = frozenset("RENT SALARY PAY WAGE INCOME MORTGAGE".split())
PERSON_KIN = {k: v for k, v in KIN.items() if v != "HAS_PET" and " " not in k}
# Kin an attribute may be told of unnamed ("my sister's rent" → "Priya's sister"); a friend, a colleague
# or a neighbour unnamed is nobody in particular.
FAMILY = frozenset("""mum mom mother dad father sister brother son daughter husband wife partner boyfriend
girlfriend fiance fiancé fiancee fiancée grandma grandpa grandmother grandfather""".split())
ENDING_VERBS = frozenset("stop quit finish cease leave end".split())
PEOPLE = frozenset("""landlord landlady flatmate roommate housemate neighbour neighbor boss ex friend
colleague coworker classmate teammate client customer tenant partner doctor dentist""".split())
VAGUE_FAVORITES = frozenset("one thing part bit kind type sort".split())
PET_WORDS = frozenset(k for k, v in KIN.items() if v == "HAS_PET" and " " not in k) | frozenset(PETS)
NAME_ENTS = frozenset("ORG GPE LOC FAC PERSON NORP PRODUCT WORK_OF_ART EVENT".split())
VALUE_ENTS = frozenset("MONEY PERCENT DATE TIME CARDINAL QUANTITY ORDINAL".split()) | NAME_ENTS
NOT_PLACES = frozenset("""home town city country house flat apartment area place neighborhood neighbourhood
suburbs village world country middle""".split())
_CODE = re.compile(r"\b(?P<thing>order|ticket|package|parcel|case|request|claim|booking|reservation)\s*"
                   r"(?:no\.?\s*|number\s*)?#?\s*(?P<code>[A-Z]*\d[\w-]*)", re.I)


@dataclass
class Found:
    """One fact the parse states, before the extractor words it."""

    subject: str
    relation: str
    object: str
    object_type: str = "Entity"
    subject_type: str = "Person"
    kind: StatementKind = "state"
    time: TimeMatch | None = None
    future: bool = False
    start: int = 0  # where the clause is in the message (for merging with the regex path)
    end: int = 0
    extra: dict[str, str] = field(default_factory=dict)


@dataclass
class Scene:
    """What the rules of one sentence know beyond it: who speaks, the kin named so far (kin word →
    name), the coded things named so far ("Order 4471"), the time phrases of the sentence, and
    whether a time resolves ahead of the message (a callable, so the rules stay free of clocks)."""

    speaker: str | None
    kin_names: dict[str, str]
    things: list[str]
    times: list[TimeMatch]
    offset: int  # the sentence's start in the text the times were found in
    ahead: Callable[[TimeMatch], bool]


# -- phrases --------------------------------------------------------------------------------------


def text_of(tokens: list[Token]) -> str:
    if not tokens:
        return ""
    first, last = min(tokens, key=lambda t: t.i), max(tokens, key=lambda t: t.i)
    doc = first.doc
    return str(doc.text[first.idx:last.idx + len(last.text)]).strip()


def _collect(tok: Token, deps: frozenset[str]) -> list[Token]:
    out = [tok]
    for child in tok.children:
        if child.dep_ in deps or (child.text == "-" and child.dep_ == "punct"):  # "sci-fi", "dairy-free"
            out.extend(_collect(child, deps))
    return out


# Entities whose name is their whole span ("St. Mary's Hospital", "Home Alone").
SPANNED = frozenset("ORG GPE LOC FAC WORK_OF_ART PRODUCT EVENT".split())
_NAME_DEPS = frozenset("compound flat nummod nmod quantmod".split())
_PHRASE_DEPS = frozenset("compound flat nummod nmod quantmod amod".split())


def name_of(tok: Token) -> str:
    """A name as written: "Order 5512", "St. Mary's", "Project Falcon" (no determiner, no "'s" of an
    owner)."""
    if tok.ent_type_ in SPANNED and tok.dep_ != "poss":
        ent = next((e for e in tok.doc.ents if e.start <= tok.i < e.end), None)
        if ent is not None and ent.end - ent.start > 1 and ent.root.i == tok.i:
            words = [t for t in ent if not (t.i == ent.start and t.dep_ == "det")]
            return text_of(words)
    tokens = _collect(tok, _NAME_DEPS)
    if tok.dep_ != "poss":
        tokens.extend(c for c in tok.children if c.dep_ == "case" and c.i == tok.i + 1)
    return text_of(_contiguous(tokens, tok))


def phrase_of(tok: Token) -> str:
    """A noun's phrase without its determiner or owner: "data analyst", "Italian food"."""
    return text_of(_contiguous(_collect(tok, _PHRASE_DEPS), tok))


def _contiguous(tokens: list[Token], head: Token) -> list[Token]:
    """The run of ``tokens`` around ``head`` without gaps (a determiner between two parts ends it)."""
    have = {t.i for t in tokens}
    lo = hi = head.i
    while lo - 1 in have:
        lo -= 1
    while hi + 1 in have:
        hi += 1
    return [t for t in tokens if lo <= t.i <= hi]


def _is_named(tok: Token) -> bool:
    return (tok.pos_ == "PROPN" or tok.ent_type_ in NAME_ENTS) and tok.text not in NAME_STOP \
        and tok.lower_ not in NOT_PLACES


def _child(tok: Token, *deps: str) -> Token | None:
    return next((c for c in tok.children if c.dep_ in deps), None)


def _children(tok: Token, *deps: str) -> list[Token]:
    return [c for c in tok.children if c.dep_ in deps]


def _prep_objects(tok: Token, *words: str) -> list[Token]:
    """The objects of ``tok``'s prepositions among ``words`` ("at" → Google), with their conjuncts."""
    out = []
    for prep in tok.children:
        if prep.dep_ in ("prep", "agent", "dative") and prep.lower_ in words:
            for obj in _children(prep, "pobj"):
                out.append(obj)
                out.extend(_children(obj, "conj"))
    return out


# -- who a noun is ------------------------------------------------------------------------------


def person(tok: Token, scene: Scene, *, unnamed_kin: bool = False) -> str | None:
    """The name a subject or owner token stands for: the speaker for I / we / my, a name as written,
    "my sister Anna" → Anna, "my sister" → the sister named before, else (``unnamed_kin``)
    "Priya's sister"; "Marco's landlord" → "Marco's landlord". None for anyone else."""
    low = tok.lower_
    if low in ("i", "me", "we", "us", "my", "our", "myself", "mine"):
        return scene.speaker
    if tok.pos_ == "PRON":
        return None
    appos = next((c for c in tok.children if c.dep_ == "appos" and _is_named(c)
                  and not _children(c, "conj", "cc")), None)
    if appos is not None:
        return name_of(appos)
    if _is_named(tok) and tok.pos_ == "PROPN":
        return name_of(tok)
    owner_tok = _child(tok, "poss")
    if owner_tok is None:
        return None
    owner = person(owner_tok, scene, unnamed_kin=True)
    if owner is None:
        return None
    word = tok.lower_
    if owner == scene.speaker and word in scene.kin_names:
        return scene.kin_names[word]
    if not unnamed_kin or (word in PERSON_KIN and word not in FAMILY):
        return None  # "my laptop" does nothing; "my friend" unnamed is nobody in particular
    return f"{owner}'s {phrase_of(tok)}"


def thing(tok: Token, scene: Scene) -> str | None:
    """The name of a thing with a status: "Order 4471" as written, or, for "the order" / "it", the one
    thing of that kind named before in the chat."""
    name = name_of(tok)
    if any(ch.isdigit() for ch in name) and tok.lower_ in STATUS_THINGS | {"order"}:
        return name
    if tok.pos_ == "PROPN" and any(ch.isdigit() for ch in name):
        return name
    kind = tok.lower_ if tok.lower_ in STATUS_THINGS else None
    if tok.lower_ not in ("it", "this", "that") and kind is None:
        return None
    poss = _child(tok, "poss")
    if kind is not None and poss is not None and poss.lower_ in ("my", "our") and scene.speaker:
        return f"{scene.speaker}'s {phrase_of(tok)}"  # "my order has shipped": the speaker's order
    for named in reversed(scene.things):
        if kind is None or named.lower().startswith(kind):
            return named
    return None


# -- times ----------------------------------------------------------------------------------------


def _span(pred: Token) -> tuple[int, int]:
    return pred.left_edge.idx, pred.right_edge.idx + len(pred.right_edge.text)


def time_of(pred: Token, scene: Scene) -> TimeMatch | None:
    """The time phrase inside this clause and not inside a clause under it."""
    start, end = _span(pred)
    inner = [_span(c) for c in pred.children if c.dep_ in ("ccomp", "advcl", "relcl", "conj", "parataxis")
             and is_predicate(c)]
    for t in scene.times:
        s, e = t.start - scene.offset, t.end - scene.offset
        if start <= s and e <= end + 1 and not any(a <= s < b for a, b in inner):
            return t
    head = pred.head
    if pred.dep_ == "xcomp" and head.i != pred.i:  # "in 2019 I started working at Google"
        return time_of(head, scene)
    if pred.dep_ == "conj" and head.i != pred.i:  # "Last year I quit Umbrella and joined Stark"
        opening = time_of(head, scene)
        if opening is not None and opening.start - scene.offset < _span(head)[0] + 1 + len(head.text) \
                and opening.start - scene.offset < head.idx:
            return opening
    return None


def tense(pred: Token, scene: Scene, time: TimeMatch | None) -> str:
    """"future" (will / going to / a present told with a time still ahead), "past", or "present"."""
    auxes = [c.lower_ for c in pred.children if c.dep_ in ("aux", "auxpass")]
    if any(a in ("will", "'ll", "shall") for a in auxes):
        return "future"
    head = pred.head
    if pred.dep_ == "xcomp" and head.lemma_ == "go" and head.tag_ == "VBG":  # "I'm going to start at X"
        return "future"
    if pred.dep_ == "xcomp" and head.lemma_ == "use" and head.tag_ == "VBD":  # "I used to live in X"
        return "used"
    if time is not None and pred.tag_ in ("VBP", "VBZ", "VBG") and scene.ahead(time):
        return "future"
    if pred.tag_ == "VBD" or "had" in auxes or (
            pred.tag_ == "VBN" and any(a in ("was", "were") for a in auxes)):
        return "past"
    return "present"


# -- the rules ------------------------------------------------------------------------------------


def statements(sentence: Any, scene: Scene) -> Iterator[Found]:
    """Every fact the sentence states as the speaker's own word."""
    for pred in sentence:
        if not is_predicate(pred) and not (pred.pos_ == "ADJ" and pred.lemma_ == "based"):
            continue
        if negated(pred) or framed(pred) or reporter(pred) is not None:
            continue
        if pred.dep_ == "xcomp" and pred.head.lemma_ in ENDING_VERBS:
            continue  # "I stopped working at Wipro": an ending, which the regex path reads
        time = time_of(pred, scene)
        when = tense(pred, scene, time)
        start, end = _span(pred)
        for found in _rules(pred, scene, time, when):
            found.start, found.end = scene.offset + start, scene.offset + end
            yield found


def _subject_token(pred: Token) -> Token | None:
    node = pred
    while node is not None:
        subj = _child(node, "nsubj", "nsubjpass")
        for aux in _children(node, "aux", "auxpass"):  # the parser sometimes hangs it on the auxiliary
            subj = subj or _child(aux, "nsubj", "nsubjpass")
        if subj is not None:
            return subj
        if node.dep_ in ("conj", "xcomp") and node.head.i != node.i:  # "I live in X and work at Y"
            node = node.head
            continue
        return None
    return None


def _rules(pred: Token, scene: Scene, time: TimeMatch | None, when: str) -> Iterator[Found]:
    subj = _subject_token(pred)
    lemma = pred.lemma_
    yield from _kin(pred, subj, scene)
    if subj is not None:
        yield from _attribute(pred, subj, scene, time, when)
        yield from _status(pred, subj, scene, time)
    who = person(subj, scene) if subj is not None else None
    if who is None:
        return
    future = when == "future"
    if when == "used":
        return  # "I used to live in Paris": when, and since when not? Too little to keep
    past = when == "past" and time is None
    if lemma in ("live", "reside") or (lemma == "based" and pred.pos_ == "ADJ"):
        for place in _prep_objects(pred, "in", "on"):
            if _is_named(place):
                rel = "LIVED_IN" if past else "LIVES_IN"
                yield Found(who, rel, name_of(place), "Place", time=time, future=future)
    elif lemma in ("move", "relocate") and when != "used":
        for place in _prep_objects(pred, "to"):
            if _is_named(place) and place.ent_type_ in ("GPE", "LOC", ""):
                yield Found(who, "LIVES_IN", name_of(place), "Place", time=time, future=future)
    elif lemma == "work":
        orgs = [o for o in _prep_objects(pred, "at", "for") if _is_named(o)]
        for org in orgs:
            rel = "WORKED_AT" if past else "WORKS_AT"
            yield Found(who, rel, name_of(org), "Organization", time=time, future=future)
        if not past:
            yield from _roles(pred, who, time, future)
    elif lemma in ("start", "begin", "join"):
        orgs = [o for o in _prep_objects(pred, "at", "with") if _is_named(o)]
        if lemma == "join":
            orgs += [o for o in _children(pred, "dobj") if _is_named(o)]
        for org in orgs:
            yield Found(who, "WORKS_AT", name_of(org), "Organization", time=time, future=future)
        if orgs or _prep_objects(pred, "as"):
            yield from _roles(pred, who, time, future)
    elif lemma == "be" and when in ("present", "future"):
        yield from _being(pred, who, time, future)
    elif lemma in LIKE_VERBS and when == "present" and subj is not None:
        yield from _likes(pred, who)


def _roles(pred: Token, who: str, time: TimeMatch | None, future: bool) -> Iterator[Found]:
    for role in _prep_objects(pred, "as"):
        if role.lower_ in JOBS or role.lemma_ in JOBS:
            yield Found(who, "WORKS_AS", phrase_of(role), "Role", time=time, future=future)


def _being(pred: Token, who: str, time: TimeMatch | None, future: bool) -> Iterator[Found]:
    """"I'm a nurse at St. Mary's", "I'm still at Deloitte as a data analyst", "I'm into climbing"."""
    attrs = [a for a in _children(pred, "attr") if (a.lemma_ in JOBS or a.lower_ in JOBS) and _a_job(a)]
    for role in attrs:
        yield Found(who, "WORKS_AS", phrase_of(role), "Role", time=time, future=future)
    roles = [r for r in _prep_objects(pred, "as") if r.lemma_ in JOBS or r.lower_ in JOBS]
    for role in roles:
        yield Found(who, "WORKS_AS", phrase_of(role), "Role", time=time, future=future)
    still = any(c.lower_ in ("still", "now", "currently") for c in pred.children)
    orgs = [o for a in attrs for o in _prep_objects(a, "at", "with")]
    if roles or attrs:
        orgs += _prep_objects(pred, "at", "with")
    elif still:  # "I'm still at Deloitte": a place only when it is an organisation's name
        orgs += [o for o in _prep_objects(pred, "at", "with") if o.ent_type_ in ("ORG", "")]
    for org in orgs:
        if _is_named(org) and org.ent_type_ not in ("DATE", "TIME"):
            yield Found(who, "WORKS_AT", name_of(org), "Organization", time=time, future=future)
    for taste in _prep_objects(pred, "into"):  # "I'm really into rock climbing"
        if taste.pos_ in ("NOUN", "PROPN", "VERB"):
            yield Found(who, "LIKES", phrase_of(taste), "Thing")


JOB_ADJECTIVES = frozenset("""senior junior head lead chief principal staff full-time part-time freelance
registered certified professional assistant associate deputy executive general managing""".split())


def _a_job(noun: Token) -> bool:
    """"a data engineer", "a senior nurse"; not "Leo's manager" (a relation between two people), "no
    writer" or "such an inspiring writer" (a judgement)."""
    for c in noun.children:
        if c.dep_ in ("poss", "predet") or (c.dep_ == "det" and c.lower_ == "no"):
            return False
        if c.dep_ == "amod" and c.lower_ not in JOB_ADJECTIVES:
            return False
    return True


def _likes(pred: Token, who: str) -> Iterator[Found]:
    relation = LIKE_VERBS[pred.lemma_]
    for obj in _children(pred, "dobj", "xcomp"):
        items = [obj, *_children(obj, "conj")]
        for item in items:
            value = _taste(item)
            if value:
                yield Found(who, relation, value, "Thing")


def _taste(tok: Token) -> str | None:
    if tok.lower_ in VAGUE_TASTES or any(c.dep_ in ("det", "poss") and c.lower_ in SPECIFIC
                                         for c in tok.children):
        return None  # "I love being outdoors", "I love the color": no taste of the speaker's own
    if tok.pos_ == "PRON" or any(c.dep_ in ("relcl", "ccomp", "advcl", "acl") for c in tok.children):
        return None
    if tok.tag_ == "VB" and any(c.dep_ == "aux" and c.lower_ == "to" for c in tok.children):
        return HOBBY_VERBS.get(tok.lemma_)  # "I love to cook": cooking; "I like to think ...": nothing
    if any(c.pos_ == "PRON" for c in tok.children):
        return None  # "I love you guys"
    if tok.tag_ == "VBG":  # "reading mystery novels", "bird watching", "hiking in the mountains" → hiking
        objs = _children(tok, "dobj")
        words = _collect(tok, frozenset({"compound"}))
        if objs and objs[0].pos_ != "PRON":
            return text_of([*words, *_collect(objs[0], _PHRASE_DEPS)])
        return text_of(_contiguous(words, tok))
    if tok.pos_ == "PROPN":
        return name_of(tok)  # "Home Alone", as the entity spans it
    if tok.pos_ == "NOUN" and tok.lower_ not in ("it", "one", "thing", "things", "stuff"):
        return phrase_of(tok)
    return None


def _kin(pred: Token, subj: Token | None, scene: Scene) -> Iterator[Found]:
    """"My sister Anna ...", "Anna is my sister", "my dog Rex": the speaker's kin by name."""
    if scene.speaker is None:
        return
    for tok in clause_tokens(pred):
        if tok.dep_ == "poss":
            continue
        word = tok.lower_
        owner = _child(tok, "poss")
        if word in KIN and owner is not None and owner.lower_ in ("my", "our"):
            for appos in (c for c in tok.children if c.dep_ in ("appos", "npadvmod") and c.pos_ == "PROPN"
                      and not _children(c, "conj", "cc")):
                yield _kin_fact(scene, word, name_of(appos))
            if tok.dep_ == "attr" and subj is not None and subj.pos_ == "PROPN" and pred.lemma_ == "be":
                yield _kin_fact(scene, word, name_of(subj))  # "Anna is my sister"
        if tok.pos_ == "PROPN" and tok.dep_ != "compound":  # "my sister Anna" parsed as compound + name
            kin = next((c for c in tok.children if c.dep_ == "compound" and c.lower_ in KIN), None)
            if kin is not None and any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in tok.children):
                yield _kin_fact(scene, kin.lower_, name_of(tok).split(" ", 1)[-1])


def clause_tokens(pred: Token) -> list[Token]:
    """The tokens of ``pred``'s own clause: its subtree without the clauses under it."""
    out = []
    stack = [pred]
    while stack:
        tok = stack.pop()
        out.append(tok)
        stack.extend(c for c in tok.children if not (is_predicate(c) and c.dep_ in CLAUSES))
    return out


CLAUSES = frozenset("ccomp xcomp advcl conj relcl acl parataxis csubj".split())


def _kin_fact(scene: Scene, word: str, name: str) -> Found:
    assert scene.speaker is not None
    if word in PET_WORDS:
        return Found(scene.speaker, "HAS_PET", name, "Animal", extra={"species": word})
    scene.kin_names.setdefault(word, name)
    return Found(scene.speaker, KIN[word], name, "Person", extra={"kin": word})


# -- attributes and statuses --------------------------------------------------------------------


def _relation(words: str) -> str | None:
    words = re.sub(r"(?i)\bfavourite\b", "favorite", words)
    try:
        relation = normalize_relation(words)
    except InvalidName:
        return None
    return relation if is_attribute(relation) else None


def _attribute_noun(tok: Token) -> tuple[str, str] | None:
    """("RENT", "rent"), ("OPENING_HOURS", ...), ("FAVORITE_BOOK", ...) for an attribute's noun."""
    if tok.pos_ not in ("NOUN", "PROPN"):
        return None
    favorite = any(c.dep_ == "amod" and c.lower_ in ("favorite", "favourite") for c in tok.children)
    if favorite:
        if tok.lower_ in VAGUE_FAVORITES:
            return None
        words = "favorite " + tok.lower_
        relation = _relation(words)
        return (relation, words) if relation else None
    # the modifiers before the noun, longest first: "Wi-Fi speed", "opening hours", then "speed"
    left = [t for t in tok.subtree if t.i < tok.i and t.dep_ in ("compound", "amod", "nmod", "punct")
            and t.head.i <= tok.i]
    start = tok.i
    while start - 1 in {t.i for t in left}:
        start -= 1
    for first in range(start, tok.i + 1):
        words = re.sub(r"\s*-\s*", " ", str(tok.doc[first:tok.i + 1].text)).lower()
        relation = _relation(words)
        if relation:
            return relation, words
    return None


def _owner(noun: Token, relation: str, scene: Scene) -> tuple[str, str, str] | None:
    """Whose attribute: (name, entity type, the owner's thing that prefixes the attribute or "").
    "my" → the speaker; "my sister's" → the sister (by name if the chat named her, else "Priya's
    sister"); "Marco's landlord's" → "Marco's landlord"; "our policy's deductible" → the speaker's
    POLICY_DEDUCTIBLE; "Order 5512's" → the order; "of the Aero 3" → it."""
    poss = _child(noun, "poss")
    if poss is not None:
        if poss.lower_ in ("my", "our"):
            return (scene.speaker, "Person", "") if scene.speaker else None
        if poss.pos_ == "PRON":
            return None
        if poss.pos_ == "NOUN" and not _people_word(poss):  # a thing of someone's: "our policy's"
            inner = _child(poss, "poss")
            if inner is not None and inner.lower_ in ("my", "our") and scene.speaker:
                return scene.speaker, "Person", phrase_of(poss)
            return None
        who = person(poss, scene, unnamed_kin=True)
        if who is not None:
            kind = "Person" if poss.lower_ in PERSON_KIN or poss.ent_type_ == "PERSON" else "Entity"
            return who, kind, ""
        if _is_named(poss) or any(ch.isdigit() for ch in name_of(poss)):
            return name_of(poss), "Entity", ""
        return None
    for obj in _prep_objects(noun, "of"):
        if _is_named(obj) or any(ch.isdigit() for ch in name_of(obj)):
            return name_of(obj), "Entity", ""
    named = [c for c in noun.children if c.dep_ == "compound" and _is_named(c)]
    if named and named[0].i < noun.i and noun.i - named[-1].i == 1 and relation != "FAVORITE":
        return None  # "Order 5512 status" is read by the regex path's colon and plain forms
    if relation in PERSONAL and any(c.dep_ == "det" and c.lower_ == "the" for c in noun.children):
        return (scene.speaker, "Person", "") if scene.speaker else None
    return None


def _people_word(tok: Token) -> bool:
    """Whether a noun names a person (kin, a job, a role such as landlord), not a thing."""
    return tok.lower_ in PERSON_KIN or tok.lemma_ in JOBS or tok.lower_ in PEOPLE


def _value(tok: Token, relation: str, scene: Scene) -> tuple[str, TimeMatch | None] | None:
    """The value as said, without a trailing time phrase (which dates it), or None when it is no value:
    a state ("due", "paid"), hyperbole ("literally a million"), a pronoun or a vague word."""
    tokens = list(tok.subtree)
    ent = next((e for e in tok.doc.ents if e.start <= tok.i < e.end), None)
    if ent is not None and ent.label_ in VALUE_ENTS:  # "$1.9M": "$", "1.9" and "M" are one amount
        amount = list(ent)
        while amount and amount[0].pos_ in ("ADP", "ADV", "PART", "DET"):  # "up to $40B" is $40B
            amount.pop(0)
        tokens = sorted({*tokens, *amount}, key=lambda t: t.i)
    while tokens and tokens[-1].text in (".", ",", ";", ":", "!", "?", "...", "-", "—"):
        tokens.pop()
    if any(t.lower_ in HYPERBOLE and t.dep_ == "advmod" for t in tokens):
        return None
    text = text_of(tokens)
    final = tokens and tokens[-1].i == tok.sent.end - 1
    if final and text.endswith(".") and not re.search(r"(?:^|\s|\.)\w\.$", text):  # not "a.m."
        text = text[:-1]  # "$2.4M." at the end of the sentence: the full stop is the sentence's
    if not text or HUGE.match(text) or tok.pos_ == "PRON":
        return None
    start = tokens[0].idx
    cut: TimeMatch | None = None
    for t in scene.times:
        s = t.start - scene.offset
        if start < s <= start + len(text) and text[s - start:].strip().lower() == t.text.strip().lower():
            cut = t
            text = text[:s - start].strip().rstrip(",")
    words = text.lower().split()
    if not words:
        return None
    if relation.endswith("STATUS"):
        return (text, cut) if text.lower() in STATUS_WORDS else None
    if words[0] in NOT_VALUES or (len(words) == 1 and words[0] in NOT_VALUES):
        return None
    valued = any(ch.isdigit() for ch in text) or "@" in text or any(
        t.ent_type_ in VALUE_ENTS or t.pos_ == "PROPN" for t in tokens)
    if not valued and not relation.startswith("FAVORITE"):
        return None
    return text, cut


def _attribute(pred: Token, subj: Token, scene: Scene, time: TimeMatch | None, when: str) -> Iterator[Found]:
    """"My sister's rent went up to 3,000 pounds", "Marco's landlord's email is ...", "Harry Potter is my
    sister's favorite book", "it's 1,050 euros a month now" (after "raised the rent")."""
    lemma = pred.lemma_
    if lemma != "be" and lemma not in CHANGE_VERBS:
        return
    if lemma == "be" and when == "past" and time is None:
        return  # "the price was $499": when, and is it still? Unknown
    value_tok: Token | None = None
    noun = subj
    if lemma == "be":
        value_tok = _child(pred, "attr", "acomp")
        told = _attribute_noun(value_tok) if value_tok is not None and value_tok.dep_ == "attr" else None
        if told is not None and told[0].startswith("FAVORITE") and not _attribute_noun(subj):
            noun, value_tok = value_tok, subj  # "Harry Potter is my sister's favorite book"
    else:
        targets = _prep_objects(pred, "to") or [o for p in pred.children if p.dep_ in ("advmod", "prt")
                                                for o in _prep_objects(p, "to")]
        value_tok = targets[0] if targets else None
    if value_tok is None:
        return
    if noun.lower_ == "it":  # "my landlord raised the rent, it's 1,050 euros a month now"
        noun = _earlier_attribute(subj)
        if noun is None:
            return
    named = _attribute_noun(noun)
    if named is None:
        return
    relation, words = named
    owner = _owner(noun, relation, scene)
    if owner is None:
        return
    if owner[2]:
        relation = _relation(f"{owner[2]} {words}") or relation
    owned_by = _child(noun, "poss")
    if relation == "NAME" and owned_by is not None and owned_by.lower_ in KIN:
        mine = _child(owned_by, "poss")
        if mine is not None and mine.lower_ in ("my", "our") and value_tok.pos_ == "PROPN":
            yield _kin_fact(scene, owned_by.lower_, name_of(value_tok))  # "my husband's name is David"
        return
    value = _value(value_tok, relation, scene)
    if value is None:
        return
    text, cut = value
    found = Found(owner[0], relation, text, "Value", subject_type=owner[1], time=cut or time,
                  future=when == "future")
    yield found
    poss = _child(noun, "poss")
    if poss is not None and poss.lower_ in PERSON_KIN and scene.speaker and owner[0].startswith(
            f"{scene.speaker}'s "):
        yield Found(scene.speaker, PERSON_KIN[poss.lower_], owner[0], "Person", extra={"kin": poss.lower_})


def _earlier_attribute(it: Token) -> Token | None:
    """The attribute noun said before "it" in the sentence, for "it"."""
    for tok in reversed(list(it.doc[it.sent.start:it.i])):
        if _attribute_noun(tok) is not None:
            return tok
    return None


def _status(pred: Token, subj: Token, scene: Scene, time: TimeMatch | None) -> Iterator[Found]:
    """"Order 4471 has shipped", "the order is processing", "it was delivered yesterday"."""
    value = STATUS_VERBS.get(pred.lemma_)
    if value is None or pred.tag_ not in ("VBN", "VBG", "VBD"):
        return
    if pred.tag_ == "VBG" and value != "processing":
        return  # "it is shipping next week": not yet
    if pred.tag_ == "VBD" and pred.lemma_ not in ("ship", "arrive"):
        return  # "they cancelled it": someone did something; the thing must be the subject
    if subj.lower_ not in STATUS_THINGS and subj.lower_ not in ("it",) and not any(
            ch.isdigit() for ch in name_of(subj)):
        return
    name = thing(subj, scene)
    if name is None:
        return
    yield Found(name, "STATUS", value, "Value", subject_type="Entity", time=time)


def things_named(text: str) -> list[str]:
    """The coded things a text names, in order: "Order 4471", "ticket #88"."""
    return [f"{m.group('thing')} {m.group('code')}" for m in _CODE.finditer(text)]
