"""Probable revisions: a newer message that reads like an older one with other values.

"The nightly build takes 40 minutes" and, months later, "after the cache fix the nightly build
takes 12 minutes": no key, and often no fact the rules read, yet the second is plainly the first
revised. Such a pair makes the older message ``possibly_superseded`` by the newer: a "now" read
ranks it below the newer one and labels it, never hides it on this evidence alone.

The test works clause by clause (:func:`revises`). A clause of the newer message revises one of
the older when

- they are about the same thing: every *anchor* of each (a name in subject position, a possessor
  as in "Marco's", an identifier as in "order 4471" or "#88", a period as in "Q2") appears in the
  other, and at least half of the older clause's other content words are in the newer one;
- and a *value* changed: a number or amount differs, or one word gave way to another in the same
  slot (before or after a word both share: "compact layout" -> "classic layout", "at Fiat" -> "at
  Ferrari"), or what follows a word of place or change ("at", "to", "now") differs;
- and the newer clause is a statement (not a question), not negated where the older is not.

So "Marco's rent is 900" does not revise "Priya's rent is 1,100" (another possessor), nor "order
4472 is processing" "order 4471 shipped" (another identifier). Precision was measured before it
was turned on: see ``benchmarks/supersession.py`` and docs/recall.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from temporal_graph.core.model import Episode

from .standing import MessageStanding

MAX_CLAUSE_WORDS = 40  # longer stretches (code, pasted text) are not compared
MAX_CLAUSES = 60  # clauses of one message compared at most

_CLAUSE = re.compile(r"(?<=[.!?;])\s+|\n+|\s[-–—]\s|,\s+(?=(?:and|but|so|now|though)\b)")
_TOKEN = re.compile(r"[#@$€£]?\w(?:[\w'’.,:/-]*\w)?%?")
_NUMBER = re.compile(r"^[#$€£]?\d[\d.,:/]*[a-z%]*$|^\d")
_PERIOD = re.compile(r"^(?:q[1-4]|h[12]|fy\d{2,4}|\d{4})$")
# Nouns whose following number names a thing rather than giving a value.
_ID_NOUNS = frozenset("""order ticket invoice case issue pr bug room flight account ref reference
booking reservation id no number item sku po cluster node server build release sprint version
table seat gate platform unit apartment apt suite floor line step phase week""".split())
_STOP = frozenset("""a an the i me my mine we us our ours you your yours he him his she her hers it its they
them their theirs this that these those there here who whom whose what which when where why how
is are was were be been being am do does did doing have has had having will would shall should can
could may might must of in on at to for from by with about as into onto over under after before
and or but so if then than too very just really also still now again already yet even ever only
not no nope yes yeah ok okay well oh hey hi please thanks thank 's ’s up down out off all any some
each every both either neither more most less least much many few lot lots bit get got gets getting
go goes went going gone use uses used using make makes made back new old current currently
anymore since until till""".split())
# Words after which a changed word is a value (a place, a target, a new state).
_VALUE_BEFORE = frozenset("at to in into from now is are was were became becomes on onto as".split())
_NEGATION = frozenset("not no never n't isn't aren't wasn't weren't don't doesn't didn't".split())


@dataclass(frozen=True)
class _Clause:
    words: tuple[str, ...]  # lower-cased tokens, in order
    anchors: frozenset[str]
    numbers: frozenset[str]
    content: frozenset[str]  # words that are neither stop words, numbers nor anchors
    question: bool
    negated: bool


def _clauses(text: str) -> list[_Clause]:
    out = []
    for part in _CLAUSE.split(text):
        part = part.strip()
        tokens = _TOKEN.findall(part)
        if 2 <= len(tokens) <= MAX_CLAUSE_WORDS:
            out.append(_clause(part, tokens))
        if len(out) >= MAX_CLAUSES:
            break
    return out


def _clause(text: str, tokens: list[str]) -> _Clause:
    words = tuple(t.lower().rstrip(".,:") for t in tokens)
    anchors: set[str] = set()
    numbers: set[str] = set()
    for n, (token, word) in enumerate(zip(tokens, words, strict=True)):
        before = words[n - 1] if n else ""
        if word.endswith(("'s", "’s")) and token[:1].isupper():
            anchors.add(word[:-2])  # a possessor: "Marco's rent"
        elif _PERIOD.match(word) and not word.isdigit():
            anchors.add(word)
        elif _NUMBER.match(word):
            if before in _ID_NOUNS or word.startswith("#"):
                anchors.add(f"{before} {word}".strip())
            else:
                numbers.add(word.lstrip("$€£"))
        elif token[:1].isupper() and word not in _STOP and before not in _VALUE_BEFORE and (
                n == 0 or not _value_run(words, n)):
            anchors.add(word)  # a name where a subject stands
    content = {w for w in words if w not in _STOP and not _NUMBER.match(w) and w not in anchors
               and w.removesuffix("'s").removesuffix("’s") not in anchors and len(w) > 1}
    return _Clause(words, frozenset(anchors), frozenset(numbers), frozenset(content),
                   question=text.rstrip().endswith("?"), negated=bool(_NEGATION.intersection(words)))


def _value_run(words: tuple[str, ...], n: int) -> bool:
    """The capitalised word at ``n`` continues a run begun after a word of place or change
    ("at Baker Street", "to 5 Market Square"): part of a value, not a subject."""
    k = n - 1
    while k >= 0 and words[k] not in _STOP and words[k] not in _VALUE_BEFORE:
        k -= 1
    return k >= 0 and words[k] in _VALUE_BEFORE


def _slot_changed(old: _Clause, new: _Clause) -> bool:
    """A word of the old clause gave way to another in the same place: next to a word both
    share, or right after a word of place or change."""
    shared = set(old.words) & set(new.words)
    gone = {w for w in old.content if w not in new.words}
    came = {w for w in new.content if w not in old.words}
    if not gone or not came:
        return False

    def slots(c: _Clause, changed: set[str]) -> set[tuple[str, int]]:
        out = set()
        for n, w in enumerate(c.words):
            if w in changed:
                if n + 1 < len(c.words) and c.words[n + 1] in shared and c.words[n + 1] not in _STOP:
                    out.add((c.words[n + 1], -1))
                if n and c.words[n - 1] in shared and (c.words[n - 1] not in _STOP
                                                       or c.words[n - 1] in _VALUE_BEFORE):
                    out.add((c.words[n - 1], 1))
        return out

    return bool(slots(old, gone) & slots(new, came))


def _clause_revises(old: _Clause, new: _Clause) -> bool:
    if new.question or old.question or (new.negated and not old.negated):
        return False
    if not old.anchors <= set(new.words) | new.anchors or not new.anchors <= set(old.words) | old.anchors:
        return False
    if not old.content:
        return False
    shared = old.content & new.content
    numbers_changed = bool(old.numbers and new.numbers and old.numbers != new.numbers)
    if not numbers_changed and not _slot_changed(old, new):
        return False
    gone = {w for w in old.content - shared if not _is_slot_word(w, old, new)}
    return bool(shared) and len(shared) >= len(gone)


def _is_slot_word(word: str, old: _Clause, new: _Clause) -> bool:
    """An old word that gave way in a changed slot (the old value itself)."""
    return word not in new.words and _slot_changed(
        _Clause(old.words, old.anchors, old.numbers, frozenset({word}), False, False), new)


@lru_cache(maxsize=4096)
def _parsed(text: str) -> tuple[_Clause, ...]:
    return tuple(_clauses(text))


def revises(old: str, new: str) -> bool:
    """Whether the text ``new`` reads like ``old`` with other values (see the module doc)."""
    return any(_clause_revises(o, n) for o in _parsed(old) for n in _parsed(new))


def marked(messages: Sequence[Episode], found: dict[str, MessageStanding]) -> dict[str, MessageStanding]:
    """``found`` with each current or unparsed message that a newer one of ``messages`` revises
    marked ``possibly_superseded`` by the newest such message."""
    out = dict(found)
    newest_first = sorted(messages, key=lambda e: (e.reference_time, e.created_at), reverse=True)
    for old in messages:
        if found[old.id].standing not in ("current", "unparsed"):
            continue
        newer = _revisions(old, newest_first)
        if newer:
            out[old.id] = found[old.id].model_copy(update={
                "standing": "possibly_superseded", "by": "probable", "superseded_by": (newer[0].id,)})
    return out


def _revisions(old: Episode, newest_first: Iterable[Episode]) -> list[Episode]:
    return [e for e in newest_first if e.id != old.id and e.reference_time > old.reference_time
            and e.content != old.content and revises(old.content, e.content)]
