"""Whether a newer sentence gives another value for what an older one said, in other words: "For
context, my resting heart rate is 72 bpm." and, months later, "Side note: I'm at 61 bpm since I
started running." The words differ, so the word rules (:mod:`.asked_changes`,
:mod:`.value_revisions`) miss them; the caller measures that both sentences answer the same
question and mean the same thing (sentence vectors, :mod:`queries.probable`). What is read here,
from the texts, is what a meaning cannot tell. A clause of each sentence:

- holds a *value* (a number: "61 bpm", "18:30"; or a name written with a capital inside the
  sentence: "Degiro", "Thursday"), not one of the question's words, of a type (number, name) the
  other lacks: the same value again is no revision ("151p a litre", "151p/l"), nor is "16 units
  at night" of "Monday is book club night";
- is a statement (not a question, a plan, a wish, a negation), does not confirm ("still"), and for
  the newer one is not dated before the older was told;
- names the same other parties as the other ("my rent" is not "my wife's rent", "the office" not
  "their office");
- has a subject whose every word the other text or the question names: "the guest room heater is
  set to 18°C" is no news of "the thermostat is set to 21°C", nor "Team Kestrel has 9 analysts" of
  team Osprey's. What a headline puts before its colon is its subject ("Vantage renewal fee:
  €3,200"), a lead-in is not ("Side note: ...").

And the two sentences' measured values are of one kind (:func:`.value_revisions.mentions`: "I put
away €300 a month" is no revision of "I charge €85 an hour"), and no identifier stands on each side
that the other lacks ("order 5120" / "order 5121", "Q2" / "Q3"). Pure and cached.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from .change_cues import is_statement, other_parties, record_ids, sentences, stem
from .rewording import STOP_WORDS, Clause
from .value_revisions import mentions

_TOKEN = re.compile(r"[\w'’°%$€£:.,/-]+")
_PRONOUNS = frozenset("i i'm i've we we're we've it it's you".split())
_DISCOURSE = frozenset("so and oh but also fyi btw well ok okay anyway just yes yeah".split())
# Words of a lead-in before a colon ("Quick update before I forget:", "Some background:").
_LEAD_IN = frozenset("""small quick big update updates change changes note notes side context background
reference heads aside unrelated forget case matters helps info thing ps edit bit""".split())
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_AMOUNT = re.compile(r"^[$€£]?(\d[\d,]*(?:[.:]\d+)?)")


@lru_cache(maxsize=8192)
def _values(sentence: str) -> frozenset[str]:
    """The values ``sentence`` holds: tokens with a digit, and words with a capital after its
    first word (not "I")."""
    tokens = [t.strip(".,:'’") for t in _TOKEN.findall(sentence)]
    out = set()
    for n, t in enumerate(tokens):
        bare = re.sub(r"['’]s$", "", t)
        if number := _AMOUNT.match(bare):  # "84p" and "84p/l", "1,000" and "1000" are one value
            out.add(number[1].replace(",", ""))
        elif any(ch.isdigit() for ch in bare) or (n > 0 and bare[:1].isupper() and bare not in ("I", "I'm")):
            out.add(bare.lower())
    return frozenset(out)


@lru_cache(maxsize=8192)
def _kinds(sentence: str) -> frozenset[tuple[str, ...]]:
    """The kinds of the measured values ``sentence`` holds (:func:`.value_revisions.mentions`)."""
    return frozenset(m.kind for m in mentions(sentence))


def _types(values: Iterable[str]) -> set[bool]:
    """Whether each value is a number (True) or a name (False)."""
    return {any(ch.isdigit() for ch in v) for v in values}


def _clauses_of(text: str, sentence: str) -> tuple[Clause, ...]:
    return next((cs for s, cs in sentences(text) if s == sentence), ())


@lru_cache(maxsize=8192)
def value_sentences(text: str) -> tuple[str, ...]:
    """The sentences of ``text`` that state a value (a clause of them a statement): those a
    revision in other words can be read from."""
    return tuple(s for s, cs in sentences(text) if (values := _values(s))
                 and any(_holds_value(c, values) and is_statement(s, c) for c in cs))


def _stem(word: str) -> str:
    """A word as compared here: stemmed, without a possessive or a plural "s" ("episodes" is
    "episode")."""
    return stem(re.sub(r"(?<=[a-z]{3})s$", "", re.sub(r"['’]s$", "", word.lower())))


def _stems(words: Iterable[str]) -> frozenset[str]:
    return frozenset(map(_stem, words))


@lru_cache(maxsize=8192)
def _said(text: str) -> frozenset[str]:
    return _stems(w for _, cs in sentences(text) for c in cs for w in c.words)


def _holds_value(c: Clause, values: frozenset[str]) -> bool:
    return any(w in values or any(ch.isdigit() for ch in w) for w in c.words)


def _clause_values(c: Clause, sentence: str, asked: frozenset[str]) -> set[str]:
    """The values of ``sentence`` said in its clause ``c``, but the question's words."""
    joined = " ".join(c.words).replace(" : ", ":").split()  # the clause cutting splits "18:30"
    words = {m[1].replace(",", "") if (m := _AMOUNT.match(w)) else w for w in joined}
    return {v for v in _values(sentence) if v in words and _stem(v) not in asked}


def _subject(c: Clause, asked: frozenset[str]) -> tuple[str, ...]:
    """The clause's subject without its lead-in ("Small update: ...", "So, ..."): none when a
    pronoun opens it ("we sing on Thursday": a verb the clause cutting may not know). What goes
    before a colon is a lead-in only in the words of one ("Small change on my side:"); else it is
    the subject ("Globex payment terms: net 30", "MSFT position: 45 shares")."""
    colons = [n for n, w in enumerate(c.words) if w == ":" and not c.words[n - 1].isdigit()]
    if colons and not set(head := c.words[: colons[0]]) <= _LEAD_IN | STOP_WORDS | _DISCOURSE:
        return tuple(dict.fromkeys(_stem(w) for w in head if w not in STOP_WORDS and w not in _DISCOURSE))
    words = list(c.words[colons[0] + 1:] if colons else c.words)
    while words and words[0] in _DISCOURSE:
        words.pop(0)
    if not words or words[0] in _PRONOUNS:
        return ()
    return tuple(dict.fromkeys(_stem(w) for w in words[: len(words) - (len(c.words) - c.split)]
                               if w in c.subject))


def _within(c: Clause, asked: frozenset[str], said: frozenset[str]) -> bool:
    """Each word of the clause's subject is one the question or the other text (``said``) names: "Team
    *Hawk*", "Marta's *dog*" are other holders. A value is no subject ("the *Team* plan costs $79" is
    not the Pro plan), and a word said otherwise sets it apart ("my gym *membership*" is missed)."""
    return set(_subject(c, asked)) <= asked | said


@lru_cache(maxsize=16384)
def revised_in_other_words(old: str, new: str, old_sentence: str, new_sentence: str, question: str,
                           old_year: int | None = None) -> bool:
    """Whether ``new_sentence`` of ``new`` gives another value for what ``old_sentence`` of ``old``
    stated, both meaning the same thing as the caller measured (module doc)."""
    asked = _stems(_TOKEN.findall(question))
    old_kinds, new_kinds = _kinds(old_sentence), _kinds(new_sentence)
    if old_kinds and new_kinds and not old_kinds & new_kinds:
        return False  # "€85 an hour" is no revision of "€300 a month"
    old_ids = {i for c in _clauses_of(old, old_sentence) for i in record_ids(c)}
    new_ids = {i for c in _clauses_of(new, new_sentence) for i in record_ids(c)}
    if old_ids - new_ids and new_ids - old_ids:
        return False  # two records: "ticket 880" and "ticket 881", "Q2" and "Q3"
    stated = [(c, _clause_values(c, old_sentence, asked)) for c in _clauses_of(old, old_sentence)
              if is_statement(old_sentence, c) and "still" not in c.words and _within(c, asked, _said(new))]
    news = [(c, _clause_values(c, new_sentence, asked)) for c in _clauses_of(new, new_sentence)
            if is_statement(new_sentence, c) and "still" not in c.words and _within(c, asked, _said(old))
            and not any(_YEAR.match(w) and old_year and int(w) < old_year for w in c.words)]
    # Of one holder (the same other parties named: "my rent" is not "my wife's rent"), each side
    # holding a value of a type the other lacks: the same value again confirms.
    return any(_types(ov - nv) & _types(nv - ov) and other_parties(o.words) == other_parties(n.words)
               for o, ov in stated for n, nv in news)
