"""Whether one short text rewords another: with other values (:func:`revises`: "the nightly
build takes 40 minutes" -> "after the cache fix the nightly build takes 12 minutes"), or with the
same ones (:func:`restates`: "Globex pays net 30" -> "Globex is still on net 30").

Search marks an older message ``possibly_superseded`` by a newer one that revises it
(:mod:`queries.probable`); a keyed message that restates the one holding its key confirms it
instead of replacing it (:func:`ingestion.pipeline.link_episode`).

The test works clause by clause; each clause is cut where its predicate begins
(the first verb, colon or arrow): what comes before says what it is *about*, what comes after
what it *says of it*. A clause of the newer message revises one of the older when

- it is about the same thing: every word of the older clause's subject (and every *anchor* of
  either: a name in subject position, a possessor as in "Marco's", an identifier as in "order
  4471", "#88" or "rack 4", a product with its version as in "Postgres 14", a period as in "Q2")
  is in the other clause. So "the production server has 128 GB" does not revise "the staging
  server has 32 GB", nor "Priya's rent is 1,100" "Marco's rent is 900";
- they share a word that is neither a verb nor a number, and the older clause's predicate lost at
  most one word besides its values;
- and a value changed: a number the older one gave is gone, or a word gave way to another in the
  same slot (beside a word both share, or after a word of place or state: "at", "to", "is", ":").

The newer clause must be a statement (not a question) and not negated where the older is not.
Measured before it was turned on, on pairs written for it (``tests/data/probable_pairs.tsv``) and
on the held-out histories of ``benchmarks/supersession.py``: the figures are in docs/recall.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

MAX_CLAUSE_WORDS = 40  # longer stretches (code, pasted text) are not compared
MAX_CLAUSES = 60  # clauses of one message compared at most
MAX_LOST = 1  # words of the older predicate (besides values) the newer clause may lack

# Sentences, lines, dashes, commas and asides in brackets ("... (oh and the service runs Python
# 3.12 now)") end a clause.
_CLAUSE = re.compile(r"(?<=[.!?;])\s+|\n+|\s[–—]\s|,\s+|\s\(|\)")
_TOKEN = re.compile(r"->|→|=>|[:=]|[#@$€£]?\w(?:[\w'’.,/-]*\w)?%?")
_NUMBER = re.compile(r"^[#$€£]?\d")
_RATE = re.compile(r"(?<=[a-z0-9])/[a-z]+$")  # what an amount is per, written after it: "/l", "/month"
# How one amount is written several ways: thousands separators, a unit written on ("340MB").
_SEPARATOR = re.compile(r"(?<=\d),(?=\d{3}(?:\D|$))")
_UNIT_ON = re.compile(r"(?<=\d)[a-z]+$")
# A size or time written on its number ("340MB", "12ms"): read as the number and its unit, as "340 MB" is.
_GLUED_UNIT = re.compile(r"^(\d[\d.,]*)(kb|mb|gb|tb|ms|km|kg|mg|min|mins|hrs)$", re.I)
_PERIOD = re.compile(r"^(?:q[1-4]|h[12]|fy\d{2,4}|v\d+(?:\.\d+)*)$")
_MARKS = frozenset({":", "->", "→", "=>", "="})  # a predicate begins after these, as after a verb
# Nouns whose following number names a thing rather than giving a value.
_ID_NOUNS = frozenset("""order ticket invoice case issue pr bug room flight account ref booking reservation
id no number item sku po rack cluster node server build release sprint version table seat gate platform
unit apartment apt suite floor line step phase week bus route bay lane""".split())
_STOP = frozenset("""a an the i me my mine we us our ours you your yours he him his she her hers it its
they them their theirs this that these those there here who whom whose what which when where why how of in
on at to for from by with about as into onto over under after before and or but so if then than too
very just really also still now again already yet even ever only not no nope yes yeah ok okay well oh
hey hi please thanks thank all any some each every both either neither more most less least much many
few lot lots bit back current currently anymore since until till btw fyi heads up this time
today tonight yesterday tomorrow week month year morning evening per last next ago everyone everybody someone
somebody something everything nothing anyone anything thing things stuff""".split())
STOP_WORDS = _STOP  # words that say nothing of what a clause is about
ID_NOUNS = _ID_NOUNS

# Words after which a changed word is a value: a place or target, or a state. A value given way
# to another must follow a word of the same kind ("is on Thursdays" -> "moved to Fridays", not
# "is at the Old Library" -> "was great").
_PLACE_WORDS = frozenset("at to in into from on onto".split())
_STATE_WORDS = frozenset("as is are was were be became becomes".split()) | _MARKS
_VALUE_BEFORE = _PLACE_WORDS | _STATE_WORDS
_CALENDAR = frozenset("""january february march april may june july august september october november
december jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday
saturday sunday""".split())
_DETERMINERS = frozenset("the a an my our your his her their its this that".split())
_NEGATION = frozenset("not no never isn't aren't wasn't weren't don't doesn't didn't won't can't".split())
_IRREGULAR = """be is are was were been am have has had do does did go goes went gone take takes took taken
get gets got make makes made run runs ran cost costs cut cuts put puts set sets leave leaves left buy buys
bought pay pays paid sell sells sold keep keeps kept grow grows grew hold holds held begin begins began
come comes came become becomes became give gives gave find finds found feel feels felt fall falls fell
rise rises rose drop drops dropped say says said read reads show shows showed shown
will would can could should shall may might must""".split()
_REGULAR = """use live work move relocate switch change raise lower bump increase decrease reduce upgrade
downgrade migrate hire fire add remove ship depart return open close start end last need want plan
prefer like love hate stay own rent earn charge book schedule push delay postpone extend shorten cross
reach hit pass double halve triple drive commute walk cycle fly deliver process cancel refund resolve
assign sit sits host base locate situate list price quote budget forecast estimate require weigh measure
count total average deploy""".split()


def _forms(verb: str) -> set[str]:
    stem = verb[:-1] if verb.endswith("e") else verb
    third = verb + ("es" if verb.endswith(("s", "sh", "ch", "x")) else "s")
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        third, stem = verb[:-1] + "ies", verb[:-1] + "i"
    return {verb, third, stem + "ed", stem + "ing"}


# "We're on Python 3.8": a contracted copula is the verb of its clause.
_CONTRACTED = frozenset("i'm we're you're they're he's she's it's that's there's i've we've they've".split())
_VERBS = frozenset(_IRREGULAR) | frozenset(f for v in _REGULAR for f in _forms(v)) | _CONTRACTED
_AUXILIARIES = frozenset("be is are was were been am have has had do does did will would can could".split())
_AUXILIARIES |= _CONTRACTED


@dataclass(frozen=True)
class _Clause:
    words: tuple[str, ...]  # lower-cased tokens, in order
    split: int  # where the predicate begins (len(words) when no verb or mark was found)
    anchors: frozenset[str]
    names: frozenset[str]  # the anchors that name someone or something, without a number or period
    numbers: frozenset[str]
    question: bool
    negated: bool

    @cached_property
    def subject(self) -> frozenset[str]:
        return frozenset(w for w in self.words[: self.split] if _content(w) or _NUMBER.match(w))

    @cached_property
    def said(self) -> frozenset[str]:
        """The content words of the predicate, without its verb (a participle such as "paid" or
        "closed" after it is a state, and counts)."""
        return frozenset(w for w in self.words[self.split + 1:] if _content(w) and w not in _AUXILIARIES)

    @cached_property
    def word_set(self) -> frozenset[str]:
        return frozenset(self.words)

    @cached_property
    def topics(self) -> frozenset[str]:
        """Its words that are neither verbs nor numbers: a revision shares one of them."""
        return frozenset(w for w in self.words if _content(w) and w not in _VERBS)


@dataclass(frozen=True)
class _Text:
    """A text's clauses, and which clauses hold each word (so a pair of long texts compares only
    the clauses that could be about the same thing, not every clause with every other)."""

    clauses: tuple[_Clause, ...]
    holding: dict[str, frozenset[int]]

    def candidates(self, old: _Clause) -> list[_Clause]:
        """Clauses holding every word of ``old``'s subject, and one of its topic words."""
        if old.subject:
            found = [self.holding.get(w, frozenset()) for w in old.subject]
            places = frozenset.intersection(*found)
        else:
            places = frozenset().union(*(self.holding.get(w, frozenset()) for w in old.topics))
        return [self.clauses[i] for i in sorted(places)]


def _content(word: str) -> bool:
    return word not in _STOP and word not in _MARKS and not _NUMBER.match(word) and len(word) > 1


# Words of a lead-in before a colon ("Some context:", "Quick update before I forget:", "FYI:"): it
# names no subject (with stop words between them).
_LEAD_IN = frozenset("""some context background update updates note fyi btw ps quick small side aside
reference heads up news info forget reminder record psa""".split())


def _without_lead_in(tokens: list[str]) -> list[str]:
    """The tokens after a lead-in: "Some context: the marketing budget is ..." is about the budget,
    and two messages that open alike are not one sentence with other values."""
    if ":" not in tokens:
        return tokens
    colon = tokens.index(":")
    lead = [t.lower() for t in tokens[:colon]]
    if colon and all(t in _LEAD_IN or t in _STOP for t in lead) and any(t in _LEAD_IN for t in lead):
        return tokens[colon + 1:]
    return tokens


def _clauses(text: str) -> list[_Clause]:
    out = []
    for part in _CLAUSE.split(text):
        part = part.strip()
        tokens = _without_lead_in([t for token in _TOKEN.findall(part) for t in _unglued(token)])
        if 2 <= len(tokens) <= MAX_CLAUSE_WORDS:
            out.append(_clause(part, tokens))
        if len(out) >= MAX_CLAUSES:
            break
    return out


def _unglued(token: str) -> tuple[str, ...]:
    glued = _GLUED_UNIT.match(token)
    return glued.groups() if glued else (token,)


def _clause(text: str, tokens: list[str]) -> _Clause:
    words = tuple(t.lower().rstrip(".,") for t in tokens)
    # The predicate begins at the first verb or mark; a word after a determiner is a noun ("my
    # commute takes", "the plan is").
    split = next((n for n, w in enumerate(words) if (n or w in _CONTRACTED) and (w in _VERBS or w in _MARKS)
                  and not (n and words[n - 1] in _DETERMINERS)), len(words))
    anchors: set[str] = set()
    names: set[str] = set()
    numbers: set[str] = set()
    for n, (token, word) in enumerate(zip(tokens, words, strict=True)):
        before = words[n - 1] if n else ""
        after = words[n + 1] if n + 1 < len(words) else ""
        if word.endswith(("'s", "’s")) and token[:1].isupper():
            anchors.add(word[:-2])  # a possessor: "Marco's rent"
            names.add(word[:-2])
        elif _PERIOD.match(word):
            anchors.add(word)
        elif _NUMBER.match(word):
            if before in _ID_NOUNS or word.startswith("#"):
                anchors.add(f"{before} {word}")
            else:
                numbers.add(_amount(word))
        elif token[:1].isupper() and _content(word) and word not in _CALENDAR and (
                0 < n < split or (n == 0 and split == 1) or _NUMBER.match(after)):
            # a name where the subject stands ("the Leeds office", "Noor uses ..."; a capital that
            # only starts the sentence is no name), or a product with its version ("Postgres 14")
            anchors.add(word)
            if not _NUMBER.match(after):
                names.add(word)
    negated = bool(_NEGATION.intersection(words)) or any(w.endswith("n't") for w in words)
    return _Clause(words, split, frozenset(anchors), frozenset(names), frozenset(numbers),
                   question=text.rstrip().endswith("?"), negated=negated)


def _amount(word: str) -> str:
    """A number as compared: "1,400" is 1400, "340mb" is 340 (as "340 MB" is), "84p/l" is 84 (as
    "84p a litre" is)."""
    return _UNIT_ON.sub("", _SEPARATOR.sub("", _RATE.sub("", word.lstrip("$€£"))))


def _value_word(c: _Clause, n: int) -> str | None:
    """The kind of word ("place" or "state") the word at ``n`` follows, across the rest of a name
    or amount ("at 221 Baker Street", "to 5 Market Square"); None when it follows neither."""
    k = n - 1
    while k >= 0 and c.words[k] not in _VALUE_BEFORE and c.words[k] not in _VERBS and (
            c.words[k] not in _STOP or c.words[k] in _DETERMINERS):
        k -= 1
    if k < 0 or c.words[k] not in _VALUE_BEFORE:
        return None
    return "place" if c.words[k] in _PLACE_WORDS else "state"


def _slots(c: _Clause, changed: set[str], shared: set[str]) -> set[tuple[str, int]]:
    """Where each changed word of ``c`` sits: next to which shared word, or after a value word."""
    out = set()
    for n, w in enumerate(c.words):
        if w not in changed:
            continue
        for side in (-1, 1):
            k = n - side
            word = c.words[k] if 0 <= k < len(c.words) else ""
            if word in shared and _content(word) and word not in _VERBS:
                out.add((word, side))
        kind = _value_word(c, n) if n >= c.split else None
        if kind is not None:
            out.add((kind, 0))
    return out


def _same_thing(old: _Clause, new: _Clause) -> bool:
    """Both statements, about the same thing (subject and anchors), sharing a word that is neither
    a verb nor a number; when that word is only a name, the subject of both ("Lena lives in Leeds",
    "Lena is in York now"): a person named in both ("Sara is allergic to cats", "birthday plan for
    Sara: bowling") is not yet one thing said twice."""
    if new.question or old.question or (new.negated and not old.negated):
        return False
    new_words, old_words = new.word_set, old.word_set
    if not old.subject <= new_words or not (old.anchors <= new_words | new.anchors
                                            and new.anchors <= old_words | old.anchors):
        return False
    shared = old.topics & new_words
    if shared and shared <= old.names:
        return bool(shared & old.subject & new.subject)
    return bool(shared)


def _clause_restates(old: _Clause, new: _Clause) -> bool:
    """The same thing with the same values: the same numbers, and nothing the older predicate said
    missing from the newer clause."""
    return (_same_thing(old, new) and old.numbers == new.numbers
            and all(w in new.words for w in old.said))


# Words of feeling, courtesy and intention: a clause holding one ("that painting is awesome", "I'd
# love to help") says how someone feels or what they mean to do, not the value of something.
_CHATTY = frozenset("""amazing amazingly awesome great nice cool fun blast lovely beautiful wonderful
fantastic incredible inspiring inspired exciting excited happy glad sad proud grateful thankful thanks
thank love loved loving hate dream dreams courage hope hoping wish hard tough bad best worst special sweet
cute wow hey yay i'd i'll we'll you'll let's gonna wanna""".split())


def _clause_revises(old: _Clause, new: _Clause) -> bool:
    # Without a question to say what it is about, a clause must name its subject and say a value,
    # not a feeling: "I went to a park" or "that painting is awesome" before a newer "I went to the
    # beach" or "I made this painting" is chat, not a revision.
    if not old.subject or (_CHATTY & old.word_set) or (_CHATTY & new.word_set) or not _same_thing(old, new):
        return False
    new_words, old_words = new.word_set, old.word_set
    shared = set(old_words & new_words)
    gone = set(old.said - new_words)
    came = set(new.said - old_words)
    old_slots, new_slots = _slots(old, gone, shared), _slots(new, came, shared)
    slot_change = bool(old_slots & new_slots)
    number_change = bool(old.numbers - new.numbers) and bool(new.numbers - old.numbers)
    if number_change and not slot_change:  # numbers of other things ("5 Market Square", "25 cups")
        old_units, new_units = _counted(old.words), _counted(new.words)
        number_change = not old_units or not new_units or bool(old_units & new_units)
    if not (slot_change or number_change):
        return False
    values = {w for w in gone if _slots(old, {w}, shared) & new_slots or _value_word(old, old.words.index(w))}
    lost = gone - values
    return len(lost) <= MAX_LOST and len(lost) * 2 <= len(old.said)


@lru_cache(maxsize=4096)
def _text(text: str) -> _Text:
    clauses = tuple(_clauses(text))
    holding: dict[str, set[int]] = {}
    for i, c in enumerate(clauses):
        for w in c.word_set:
            holding.setdefault(w, set()).add(i)
    return _Text(clauses, {w: frozenset(places) for w, places in holding.items()})


def _parsed(text: str) -> tuple[_Clause, ...]:
    return _text(text).clauses


Clause = _Clause  # read-only, for rules built on the same clause cutting (core.change_cues)


def clauses(text: str) -> tuple[Clause, ...]:
    """The clauses of ``text`` as this module cuts them (cached)."""
    return _parsed(text)


def is_verb(word: str) -> bool:
    """A lower-cased word this module takes for a verb (or a contracted copula)."""
    return word in _VERBS


def subject_words(text: str) -> list[str]:
    """The words its clauses are about (their subjects and anchors), first clause first: what a
    revision of ``text`` would repeat."""
    out: dict[str, None] = {}
    for c in _parsed(text):
        out.update(dict.fromkeys(w for w in (*c.subject, *c.anchors) if _content(w)))
    return list(out)


@lru_cache(maxsize=8192)
def _spelled(text: str) -> frozenset[str]:
    """Every word of ``text`` as its clauses spell them (no token spans a clause cut, so no clause
    holds a word outside this set), without cutting or parsing it."""
    return frozenset(t.lower().rstrip(".,") for t in _TOKEN.findall(text))


def _comparable_clauses(old: str, new: str) -> list[_Clause]:
    """The clauses of ``old`` that :meth:`_Text.candidates` finds something for in ``new``, on the
    words of ``new`` alone: every word of the clause's subject, or one of its topic words when it
    has no subject. A search compares each message with every newer one, most of them about
    something else, and long messages have dozens of clauses: this spares them the clause-by-clause
    reading, with the same answers."""
    words = _spelled(new)
    return [o for o in _parsed(old) if (o.subject <= words if o.subject else not o.topics.isdisjoint(words))]


def revises(old: str, new: str) -> bool:
    """Whether the text ``new`` reads like ``old`` with other values (see the module doc)."""
    olds = _comparable_clauses(old, new)
    if not olds:
        return False
    newer = _text(new)
    return any(_clause_revises(o, n) for o in olds for n in newer.candidates(o))


def revising_clauses(old: str, new: str) -> frozenset[Clause]:
    """The clauses of ``new`` that read like a clause of ``old`` with other values: what a caller
    checks further (whose news it is, whether it is news at all)."""
    olds = _comparable_clauses(old, new)
    if not olds:
        return frozenset()
    newer = _text(new)
    return frozenset(n for o in olds for n in newer.candidates(o) if _clause_revises(o, n))


def restates(old: str, new: str) -> bool:
    """Whether ``new`` says again what ``old`` says, values included: each clause of ``old`` is
    restated by one of ``new``, and ``new`` revises none of them."""
    olds, news = _parsed(old), _parsed(new)
    restated = all(any(_clause_restates(o, n) for n in news) for o in olds)
    return bool(olds) and restated and not revises(old, new)


MAX_ANSWER_WORDS = 3  # "Who is on call? Priya." answers in a word or a few; more is a statement


@dataclass(frozen=True)
class _Answer:
    words: frozenset[str]  # its words that are not numbers
    numbers: frozenset[str]


def _answer(text: str) -> _Answer | None:
    """The short answer after a question ("What is the gate code? 4471."): a clause of its own
    too short to be cut as one, and the value the message gives."""
    question, mark, rest = text.rpartition("?")
    tokens = _TOKEN.findall(rest)
    if not mark or not question.strip() or not 1 <= len(tokens) <= MAX_ANSWER_WORDS:
        return None
    words = [t.lower().rstrip(".,") for t in tokens]
    numbers = frozenset(_RATE.sub("", w.lstrip("$€£")) for w in words if _NUMBER.match(w))
    return _Answer(frozenset(w for w in words if not _NUMBER.match(w) and _content(w)), numbers)


def says_again(old: str, new: str) -> bool:
    """Whether ``new`` gives the values ``old`` gives, when something else (a message key) already
    says both are about the same thing: the same numbers, every word ``old`` said of its subject
    (all its words, when it has no verb; its answer, when it answers its own question) in a
    predicate or an answer of ``new``, no negation added, and no revision."""
    olds, news = _parsed(old), _parsed(new)
    old_answer, new_answer = _answer(old), _answer(new)
    if not olds or not news or revises(old, new):
        return False
    # An answered question's numbers are what it asks about ("game 3"); its answer's are values.
    numbers = [{n for c in clauses if not (a and c.question) for n in c.numbers} | (a.numbers if a else set())
               for clauses, a in ((olds, old_answer), (news, new_answer))]
    if numbers[0] != numbers[1]:
        return False
    if any(c.negated for c in news) and not any(c.negated for c in olds):
        return False
    # The values must be given again as values ("sienna is captain" names Amaru only as the one
    # who broke his wrist): words of the predicates, or of a clause without a verb, or an answer.
    words = {w for c in news for w in c.words[c.split if c.split < len(c.words) else 0:]}
    words |= new_answer.words if new_answer else set()
    if old_answer is not None:  # what the question asked is no value; the answer is
        return old_answer.words <= words
    said = {w for c in olds for w in (c.said if c.split < len(c.words) else
                                      {x for x in c.words if _content(x) and x not in _AUXILIARIES})}
    return said <= words


# -- values about what a question asks -----------------------------------------------------------------
# Stop words of a clause that a question asks about all the same ("per week").
_UNITS = frozenset("week month year morning evening".split())
# Qualifiers naming the one a speaker means by default: "our main DB" is "the database".
DEFAULT_QUALIFIERS = frozenset("main primary whole entire overall".split())


def _stem(word: str) -> str:
    """A crude stem, enough to match "run" with "running" and "runs": a question's words and a
    message's words are compared by it."""
    for suffix in ("ning", "ing", "ies", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


@dataclass(frozen=True)
class Focus:
    """The clause of a text that says most about a question's words: which of them it holds, and
    the values it gives (numbers), with its names and identifiers."""

    matched: frozenset[str]
    numbers: frozenset[str]
    anchors: frozenset[str]
    words: frozenset[str]  # every word of the clause, stemmed
    subject: frozenset[str]  # the content words before its verb, stemmed
    sequence: tuple[str, ...] = ()  # its words in order, stemmed


def asked_words(question: str) -> frozenset[str]:
    """The words of a question a message about the same thing would say (stemmed): no stop words,
    no question words."""
    tokens = [t.lower().rstrip(".,?!") for t in _TOKEN.findall(question)]
    return frozenset(_stem(t) for t in tokens if len(t) > 1 and not _NUMBER.match(t) and t not in _MARKS
                     and (t not in _STOP or t in _UNITS) and t not in _AUXILIARIES)


def focus(text: str, asked: frozenset[str]) -> Focus | None:
    """The clause of ``text`` holding most of ``asked`` (and giving a value), or None."""
    best: Focus | None = None
    for c in _parsed(text):
        if not c.numbers:
            continue
        matched = frozenset(_stem(w) for w in c.words) & asked
        if matched and (best is None or len(matched) > len(best.matched)):
            owners = frozenset(w[:-2] for w in c.words if w.endswith(("'s", "’s")))  # "my sister's rent"
            stemmed = tuple(_stem(w) for w in c.words)
            best = Focus(matched, c.numbers, c.anchors | owners, frozenset(stemmed),
                         frozenset(_stem(w) for w in c.subject if not _NUMBER.match(w)), stemmed)
    return best


def revises_about(old: str, new: str, asked: frozenset[str], pinned: frozenset[str] = frozenset()) -> bool:
    """Whether ``new`` gives another value for what a question asks (``asked``, its words) than
    ``old`` does: the clauses of each holding most of the question's words share at least one of
    them besides a period, hold the same ``pinned`` words (the question's names and identifiers:
    "Marco", "4471"), have the same names and identifiers, the same holder (no qualifier of the
    older's left out, no holder on each side that the other lacks), units and currency, and each
    number ``old`` gave there is gone in ``new``. Whether ``new`` says it as news is the caller's
    (:func:`.change_cues.news_about`)."""
    o, n = focus(old, asked), focus(new, asked)
    # A period both say ("a month") is no shared topic: "I save $1,000 a month" / "the bill is £160 a month".
    if o is None or n is None or not (o.matched & n.matched) - _UNITS:
        return False
    if (o.words & pinned) != (n.words & pinned):
        return False
    # Each names a holder the other does not, and the words they share of the question's are in
    # neither subject: "the worker pool is 8 connections" gives no value of "the app holds 50
    # connections" (but "first paint on the homepage" is "after the image work the homepage").
    if o.subject - asked - n.words and n.subject - asked - o.words \
            and not o.matched & n.matched & (o.subject | n.subject):
        return False
    # Names and identifiers the question does not name must agree ("Marco's" is not "Priya's"), and
    # one subject may not stand in for another ("the production server" for "the staging server").
    o_anchors, n_anchors = (frozenset(_stem(a) for a in f.anchors) - asked for f in (o, n))
    if not (o_anchors <= n.words | n_anchors and n_anchors <= o.words | o_anchors):
        return False
    if _substituted(o, n) or _qualified_away(o, n, asked) or not _same_units(o, n):
        return False
    return not (o.numbers & n.numbers) and bool(o.numbers) and bool(n.numbers)


def _counted(words: Sequence[str]) -> set[str]:
    """What the numbers of a clause count: the word after each ("16 GB", "3 rooms"), stemmed."""
    after = ((w, words[k + 1]) for k, w in enumerate(words[:-1]))
    return {_stem(unit) for w, unit in after if _NUMBER.match(w) and (_content(unit) or unit in _UNITS)}


def _units(f: Focus) -> set[str]:
    """What the focus's numbers count, or for a number that counts nothing, the name it is a
    version of ("Postgres 16"): a size ("3.5 TB") is no new version of Postgres."""
    names, said = {_stem(a.lower()) for a in f.anchors}, f.sequence
    versions = {said[k] for k in range(len(said) - 1)
                if said[k] in names and _NUMBER.match(said[k + 1]) and not _counted(said[k + 1:k + 3])}
    return _counted(said) | versions


def _same_units(o: Focus, n: Focus) -> bool:
    """Both count the same thing, when both say what ("60 square metres" is no revision of "3 rooms"),
    in the same currency, when both give one."""
    a, b = _units(o), _units(n)
    x, y = _currencies(o), _currencies(n)
    return (not a or not b or bool(a & b)) and (not x or not y or bool(x & y))


def _currencies(f: Focus) -> set[str]:
    return {w[0] for w in f.sequence if w[:1] in "$€£" and w[1:2].isdigit()}


def _qualified_away(o: Focus, n: Focus, asked: frozenset[str]) -> bool:
    """The older's subject qualifies a word the question asks with one neither the question nor the
    newer says: "the *worker* pool is 8 connections" is not the connection pool asked of, nor "my
    *work* laptop" the laptop."""
    said = o.sequence
    return any(w in o.subject and w not in asked and w not in n.words and w not in DEFAULT_QUALIFIERS
               and head in asked and head in o.subject for w, head in zip(said, said[1:], strict=False))


def _substituted(o: Focus, n: Focus) -> bool:
    """One subject word gave way to another beside a word both subjects hold ("the staging server"
    -> "the production server"): another thing, not a new value."""
    def beside(f: Focus, other: Focus, word: str) -> set[int]:
        at = [k for k, w in enumerate(f.sequence) if w == word]
        return {side for k in at for side in (-1, 1) if 0 <= k + side < len(f.sequence)
                and f.sequence[k + side] in f.subject and f.sequence[k + side] not in other.words}
    return any(beside(o, n, w) & beside(n, o, w) for w in o.subject & n.subject)


def pinned_words(question: str) -> frozenset[str]:
    """The words of a question that pin down which thing it asks about: owners ("Marco's rent")
    and identifiers ("order 4471", "p95")."""
    tokens = [t.lower() for t in _TOKEN.findall(question)]
    owners = (t.removesuffix("'s").removesuffix("’s") for t in tokens if t.endswith(("'s", "’s")))
    return frozenset(_stem(t) for t in (*owners, *(t for t in tokens if any(ch.isdigit() for ch in t))))
