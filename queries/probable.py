"""Probable revisions: a newer message that reads like an older one with other values.

"The nightly build takes 40 minutes" and, months later, "after the cache fix the nightly build
takes 12 minutes": no key, and often no fact the rules read, yet the second is plainly the first
revised (:func:`temporal_graph.core.rewording.revises` says how that is read). With a question,
a newer message of the same speaker that gives another value for what the question asks is one
too (:func:`temporal_graph.core.rewording.revises_about`: "How much RAM does the staging server
have?", "our staging server has 16 GB", then "we bumped staging to 48 GB" in passing). Such a pair makes
the older message ``possibly_superseded`` by the newer: a "now" read ranks it below the newer one
and labels it, never hides it on this evidence alone. The messages a read found are compared with
each other, and the first of them with the messages sharing their words in the store. A newer
message that says it in other words ("my resting heart rate is 72 bpm", then "I'm at 61 bpm since
I started running") is found by meaning among the first ten (:func:`_meant_again`).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

import numpy as np

from temporal_graph.core import Core
from temporal_graph.core.asked_changes import changed_for, what_is_asked
from temporal_graph.core.change_cues import (
    news_about,
    other_parties,
    reworded_as_news,
    same_subject,
    sentences,
    states_change,
)
from temporal_graph.core.embeddings import Embedder, item_text
from temporal_graph.core.meant_revisions import revised_in_other_words, value_sentences
from temporal_graph.core.model import Episode, Fact, RecordKind
from temporal_graph.core.rewording import asked_words, focus, pinned_words, revises_about, subject_words
from temporal_graph.core.value_revisions import revises_value

from .answer_text import QUOTED_WORDS
from .standing import MessageStanding

_WORD = re.compile(r"[a-z0-9][a-z0-9'’-]*")


COMPARED = 20  # messages a read found (best first) that are compared with the newer ones
LOOKED_AT = 10  # of those, the ones whose newer revisions are looked for beyond the read's hits
NEWER = 5  # candidates read per message looked at
LOOKUP_WORDS = 12  # words of their subjects the full-text read looks for at most (bounded at any size)


def marked(
    core: Core, group_id: str, messages: Sequence[Episode], found: dict[str, MessageStanding], *,
    known_at: datetime | None, told_by: datetime | None, query: str = "",
) -> dict[str, MessageStanding]:
    """``found`` with each current or unparsed message that a newer message revises marked
    ``possibly_superseded`` by the newest such message, for the first :data:`COMPARED` of
    ``messages`` (best first). The newer ones are looked for among ``messages`` and, for the first
    :data:`LOOKED_AT` of them, in the store by their words (one full-text read for all), among the
    messages a read as known at ``known_at`` and told by ``told_by`` may offer."""
    out = dict(found)
    open_ = [e for e in messages if found[e.id].standing in ("current", "unparsed")][:COMPARED]
    if not open_:
        return out
    pool = {e.id: e for e in messages}
    about = a.lookup if (a := what_is_asked(query)) else ()
    pool.update((e.id, e) for e in _looked_up(core, group_id, open_[:LOOKED_AT], known_at, told_by, pool,
                                              about))
    newest_first = sorted(pool.values(), key=lambda e: (e.reference_time, e.created_at), reverse=True)
    asked, pinned = asked_words(query), pinned_words(query)
    newest: dict[str, Episode] = {}
    for old in open_:
        newer = _revisions(old, newest_first) or _answers_again(old, newest_first, query, asked, pinned)
        if newer:
            newest[old.id] = newer[0]
    unread = [e for e in open_[:LOOKED_AT] if e.id not in newest]
    newest.update(_meant_again(core.embedder, unread, messages[:LOOKED_AT], query))
    for old_id, newer_one in newest.items():
        out[old_id] = found[old_id].model_copy(update={
            "standing": "possibly_superseded", "superseded_by": (newer_one.id,)})
    return out


def _looked_up(
    core: Core, group_id: str, olds: Sequence[Episode], known_at: datetime | None, told_by: datetime | None,
    held: Mapping[str, Episode], asked_about: Sequence[str] = (),
) -> list[Episode]:
    """Messages sharing the words ``olds`` are about, or those of what the question asks about
    (``asked_about``: "Which bank ...?" finds "Moved my salary account over to Revolut"), told
    after the earliest of them: where their newer revisions would be. Those in ``held`` (the read's
    own) are not read again."""
    said = dict.fromkeys(w for e in olds for w in subject_words(e.content) for w in _WORD.findall(w))
    words = " ".join([*asked_about, *list(said)[:LOOKUP_WORDS]])
    if not words:
        return []
    ids = [i for i, _ in core.store.text_search(group_id, RecordKind.EPISODE, words, NEWER * len(olds))]
    unread = [i for i in ids if i not in held]
    found = [held[i] for i in ids if i in held]
    found += core.store.episodes(group_id, ids=unread) if unread else []
    earliest = min(e.reference_time for e in olds)
    return [e for e in found if e.reference_time > earliest
            and e.recalled(known_at) and (told_by is None or e.reference_time <= told_by)]


def _answers_again(old: Episode, newest_first: Iterable[Episode], query: str, asked: frozenset[str],
                   pinned: frozenset[str]) -> list[Episode]:
    """Newer messages of the same speaker giving another value for what the question asks ("How
    much RAM does the staging server have?": "Our staging server has 16 GB" and, months later, "we
    bumped staging to 48 GB", in passing), or telling a change of it ("Where does Tomasz work?":
    "I work at the Gdansk shipyard", then "left the shipyard, now im a driving instructor"): the
    question says what both are about."""
    if not asked:
        return []
    year = old.reference_time.year
    return [e for e in newest_first if e.id != old.id and e.reference_time > old.reference_time
            and e.speaker == old.speaker and e.content != old.content
            and ((revises_about(old.content, e.content, asked, pinned)
                  and _same_parties(old.content, e.content, asked)
                  and news_about(old.content, e.content, asked, year))
                 or changed_for(old.content, e.content, query, year))]


def _same_parties(old: str, new: str, asked: frozenset[str]) -> bool:
    """The clauses answering the question name the same other parties: "my sister pays £950 a
    month" is no new value for "the product has 120 paying customers", nor for "I pay $2,100"."""
    o, n = focus(old, asked), focus(new, asked)
    return o is None or n is None or other_parties(o.sequence) == other_parties(n.sequence)


def _revisions(old: Episode, newest_first: Iterable[Episode]) -> list[Episode]:
    return [e for e in newest_first if e.id != old.id and e.reference_time > old.reference_time
            and e.content != old.content and _revises(old, e)]


def _revises(old: Episode, new: Episode) -> bool:
    """``new`` reads like ``old`` with other values, says that what ``old`` said changed ("The
    office relocated to ..."), or gives another value for a value ``old`` stated of the same holder
    ("the staging server has 64 GB now": :mod:`temporal_graph.core.value_revisions`; said by the
    same speaker, of their own: "I earn €52,000 a year" -> "I'm on €58,000 now"), as news of
    the same thing (not of someone else, not a plan, a question, a negation, the past or advice:
    :mod:`temporal_graph.core.change_cues`): only the one who said it, or someone naming the same
    subject, revises it that way."""
    year = old.reference_time.year
    said, says = old.content, new.content
    by_them = old.speaker is not None and new.speaker == old.speaker
    if not (reworded_as_news(said, says, year) or states_change(said, says, year)
            or revises_value(said, says, year, same_speaker=by_them)):
        return False
    return by_them or same_subject(old.content, new.content)


# Cosines (all-MiniLM-L6-v2) measured on the development sets of benchmarks/supersession_chats.py:
# a sentence answers the question from ANSWERS, two say the same thing from SAME.
ANSWERS = 0.3
SAME = 0.4
SENTENCES = 6  # sentences of a message compared at most: a pasted document states thousands of values


def _meant_again(embedder: Embedder, olds: Sequence[Episode], messages: Sequence[Episode],
                 query: str) -> dict[str, Episode]:
    """For each of ``olds``, the newest of ``messages`` by its speaker that gives another value for
    what it said in other words (:func:`temporal_graph.core.meant_revisions.revised_in_other_words`):
    a sentence of each answers the question, and the two say the same thing, as their vectors
    measure."""
    if not query.strip() or what_is_asked(query) is None:
        return {}
    later = {o.id: sorted((e for e in messages if e.speaker == o.speaker and e.content != o.content
                           and e.reference_time > o.reference_time and value_sentences(e.content)),
                          key=lambda e: (e.reference_time, e.created_at), reverse=True)
             for o in olds if value_sentences(o.content)}
    later = {k: v for k, v in later.items() if v}
    if not later:
        return {}
    texts = {o.content for o in olds if o.id in later} | {e.content for v in later.values() for e in v}
    compared = {t: _compared(t, query) for t in texts}
    vectors = _vectors(embedder, [query, *(s for t in texts for s in compared[t])])
    asked = vectors[query]

    def answering(text: str) -> str | None:
        """Its sentence that answers the question best, if close enough to answer it."""
        top = max(compared[text], key=lambda s: float(vectors[s] @ asked))
        return top if float(vectors[top] @ asked) >= ANSWERS else None

    out: dict[str, Episode] = {}
    for old in olds:
        if old.id not in later or (said := answering(old.content)) is None:
            continue
        for new in later[old.id]:
            says = answering(new.content)
            if says is not None and float(vectors[said] @ vectors[says]) >= SAME and revised_in_other_words(
                    old.content, new.content, said, says, query, old.reference_time.year):
                out[old.id] = new
                break
    return out


def _compared(text: str, query: str) -> tuple[str, ...]:
    """The sentences of ``text`` stating a value, :data:`SENTENCES` at most: those sharing the most
    words with ``query`` first, then in their order."""
    found = value_sentences(text)
    if len(found) <= SENTENCES:
        return found
    asked = set(_WORD.findall(query.lower()))
    return tuple(sorted(found, key=lambda s: -len(asked & set(_WORD.findall(s.lower()))))[:SENTENCES])


class _SentenceVectors:
    """Unit vectors of sentences, the :data:`KEPT` used last kept: a memory's reads compare the
    same messages again and again. One embedder's at a time; safe across threads."""

    KEPT = 4096

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._embedder: Embedder | None = None
        self._kept: OrderedDict[str, np.ndarray] = OrderedDict()

    def __call__(self, embedder: Embedder, texts: Sequence[str]) -> dict[str, np.ndarray]:
        with self._lock:
            if self._embedder is not embedder:
                self._embedder, self._kept = embedder, OrderedDict()
            out = {t: self._kept[t] for t in texts if t in self._kept}
        missing = list(dict.fromkeys(t for t in texts if t not in out))
        if missing:
            out.update((t, _unit(v)) for t, v in zip(missing, embedder.encode(missing), strict=True))
        self._keep(embedder, {t: out[t] for t in texts})
        return out

    def keep(self, embedder: Embedder, text: str, vector: Sequence[float]) -> None:
        """``vector``, already encoded for ``text``, kept as the newest."""
        self(embedder, [])  # another embedder's vectors are dropped first
        self._keep(embedder, {text: _unit(vector)})

    def _keep(self, embedder: Embedder, unit: Mapping[str, np.ndarray]) -> None:
        with self._lock:
            if self._embedder is embedder:
                for t, row in unit.items():
                    self._kept[t] = row
                    self._kept.move_to_end(t)
                while len(self._kept) > self.KEPT:
                    self._kept.popitem(last=False)


def _unit(vector: Sequence[float]) -> np.ndarray:
    row = np.asarray(vector, dtype=np.float64)
    return row / max(float(np.linalg.norm(row)), 1e-12)


_vectors = _SentenceVectors()


def sentence_vectors(embedder: Embedder, texts: Sequence[str]) -> dict[str, np.ndarray]:
    """Unit vectors of ``texts``, those encoded lately kept (a search's question among them)."""
    return _vectors(embedder, texts)


def excerpt(text: str, question: str) -> str:
    """:data:`QUOTED_WORDS` words of ``text`` around its first value in the sentence that says
    most of what ``question`` asks (a sentence stating a value first), "…" where it is cut: a
    revision is often said in passing, inside a request ("How do I fit training around a newborn
    (oh and my rent went up to £1,350 a month)?")."""
    asked = set(_WORD.findall(question.lower()))
    said = [s for s, _ in sentences(text)] or [text]
    stating = set(value_sentences(text))
    best = max(said, key=lambda s: (s in stating, any(c.isdigit() for c in s),
                                    len(asked & set(_WORD.findall(s.lower())))))
    words = best.split()
    first = next((i for i, w in enumerate(words) if any(c.isdigit() for c in w)), 0)
    start = max(0, min(first - QUOTED_WORDS // 2, len(words) - QUOTED_WORDS))
    # "…" where a sentence is cut, "… " / " …" where whole sentences are left out around it
    before = "…" if start > 0 else "… " if said.index(best) > 0 else ""
    after = "…" if start + QUOTED_WORDS < len(words) else " …" if best != said[-1] else ""
    return before + " ".join(words[start:start + QUOTED_WORDS]) + after


class SpokenOf:
    """Whether a newer message that makes a fact's message possibly superseded speaks of what the
    fact says or the question asks: its words where it gives its value (:func:`excerpt`) are close
    to the fact's sentence (cosine :data:`SAME`) or answer the question (:data:`ANSWERS`). A
    message may be revised in a part other than the fact's ("My phone is the iPhone 15, and a CI
    run takes 45 minutes", then "a CI run is 31 minutes these days"): its phone fact stays
    current. ``messages``: those already read; the others of ``newer`` are read once, when needed."""

    def __init__(self, core: Core, group_id: str, query: str, messages: Iterable[Episode],
                 newer: Iterable[str]) -> None:
        self._core, self._group_id, self._query = core, group_id, query
        self._messages = {e.id: e for e in messages}
        self._unread = [i for i in dict.fromkeys(newer) if i not in self._messages]
        self._facts: dict[str, np.ndarray] = {}

    def __call__(self, fact: Fact, newer_id: str) -> bool:
        if self._unread:
            read = self._core.store.episodes(self._group_id, ids=self._unread)
            self._messages.update((e.id, e) for e in read)
            self._unread = []
        e = self._messages.get(newer_id)
        if e is None:
            return False
        quoted = excerpt(e.content, self._query).strip("…")
        vectors = _vectors(self._core.embedder, [quoted, self._query])
        return (float(vectors[quoted] @ self._vector(fact)) >= SAME
                or (bool(self._query.strip()) and float(vectors[quoted] @ vectors[self._query]) >= ANSWERS))

    def _vector(self, fact: Fact) -> np.ndarray:
        """The fact's stored vector (that of its sentence), encoded only when it has none."""
        if fact.id in self._facts:
            return self._facts[fact.id]
        self._facts[fact.id] = self._fact_vector(fact)
        return self._facts[fact.id]

    def _fact_vector(self, fact: Fact) -> np.ndarray:
        stored = self._core.store.vectors(self._group_id, RecordKind.FACT, [fact.id]).get(fact.id)
        if stored is not None:
            return _unit(stored)
        said = item_text(fact)
        return _vectors(self._core.embedder, [said])[said]


def remember_query(embedder: Embedder, query: str, vector: Sequence[float]) -> None:
    """The vector a search encoded for ``query``: the revisions read by meaning compare with it
    instead of encoding the question again."""
    _vectors.keep(embedder, query, vector)
