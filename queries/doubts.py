"""An answer resting on a value a newer message may have revised says so.

"My resting heart rate is 72 bpm", then months later "I'm at 61 bpm since I started running": the
offline rules read a fact from the first message only, so the graph still holds 72 bpm and
``ask`` would answer it plainly. A search labels that fact ``possibly_superseded``
(:mod:`queries.probable`); the answer carries the same doubt, in its text and in
``Answer.possibly_superseded_by``. Like the search, it never changes the answer on this evidence
alone: the newer message is quoted so that the reader can tell.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from temporal_graph.core import Core
from temporal_graph.core.model import Fact, RecordKind, SearchHit

from . import probable, staleness
from .answer_text import fact_line, said_later


def possibly_superseded(
    core: Core, group_id: str, question: str, facts: Sequence[Fact], *, at: datetime,
) -> dict[str, tuple[str, ...]]:
    """The facts of ``facts`` whose every message a search for ``question`` as of ``at`` would
    label possibly superseded, with the newer messages (ids), by fact id. The messages compared:
    those the facts were learned from, then those nearest to the question by meaning, told by
    ``at`` (where a revision in other words is found; the rules look up the others by their words)."""
    cited = list(dict.fromkeys(i for f in facts for i in f.episode_ids))
    if not cited:
        return {}
    asked = probable.sentence_vectors(core.embedder, [question])[question]
    near = [i for i, _ in core.store.vector_search(group_id, RecordKind.EPISODE, asked.tolist(),
                                                    probable.LOOKED_AT)]
    read = {e.id: e for e in core.store.episodes(group_id, ids=list(dict.fromkeys([*cited, *near])))}
    found = [read[i] for i in near if i in read and read[i].reference_time <= at and read[i].recalled(None)]
    messages = list({e.id: e for e in [*(read[i] for i in cited if i in read), *found]}.values())
    hits = [SearchHit(kind=RecordKind.EPISODE, score=0.0, reasons=[], episode=e) for e in messages]
    labelled = staleness.label(core, group_id, hits, valid_time=at, known_at=None, told_by=at,
                               query=question)
    standing = {h.episode.id: h for h in labelled if h.episode is not None}
    spoken_of = probable.SpokenOf(core, group_id, question, messages,
                                  (i for h in labelled for i in h.superseded_by))
    out = {}
    for f in facts:
        hit = staleness.doubted(SearchHit(kind=RecordKind.FACT, score=0.0, reasons=[], fact=f), standing,
                                spoken_of)
        if hit.standing == "possibly_superseded":
            out[f.id] = hit.superseded_by
    return out


def newer_messages(doubted: dict[str, tuple[str, ...]]) -> list[str]:
    return list(dict.fromkeys(i for ids in doubted.values() for i in ids))


def bracket(
    core: Core, group_id: str, question: str, facts: Sequence[Fact], doubted: dict[str, tuple[str, ...]],
) -> str:
    """`` [possibly superseded: by the message of …]`` after an answer, quoting each newer message
    where it gives its value (:func:`queries.probable.excerpt`); naming the facts in doubt when
    the answer gives others too."""
    if not doubted:
        return ""
    quoted = [said_later(e, probable.excerpt(e.content, question))
              for e in core.store.episodes(group_id, ids=newer_messages(doubted))]
    which = [] if len(doubted) == len(facts) else [
        "; ".join(fact_line(f)[2:] for f in facts if f.id in doubted)]
    return f" [possibly superseded: {', '.join([*which, *quoted])}]"
