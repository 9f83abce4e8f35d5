"""What a read does with messages that are out of date: label every one, rank each below what
replaced it, and leave out the superseded ones from a question about now.

Each message hit gets its standing (:mod:`queries.standing`), and a current message that a newer
hit reads like the revision of is ``possibly_superseded`` (:mod:`queries.probable`): never hidden
on that evidence alone. Then, by the read's ``stale`` mode:

- "show": every hit where it ranks, labelled (a question about the past: old messages are its
  evidence);
- "label" and "hide": what replaced a stale message (the messages of ``superseded_by``, the facts
  of ``replaced_by``) goes just above it, read from the store when the search did not find it, so a
  matching old message brings its revision with it; then "label" keeps the superseded ones last,
  "hide" leaves them out and counts them (``SearchResults.stale_left_out``). Partly and possibly
  superseded messages stay, labelled, below their replacements.
- A fact learned only from messages the read found possibly superseded is labelled so too.
- A message ``retract_entity`` withdrew is left out of every read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from temporal_graph.core import Core
from temporal_graph.core.model import Fact, SearchHit, SearchResults
from temporal_graph.core.stores.protocol import FactQuery

from . import probable
from .standing import MessageStanding, standings

ROUNDS = 3  # replacements of replacements followed at most this deep


def label(
    core: Core, group_id: str, hits: Sequence[SearchHit], *, valid_time: datetime | None,
    known_at: datetime | None, told_by: datetime | None = None, query: str = "",
) -> list[SearchHit]:
    """``hits`` with each message's standing, those withdrawn with an entity left out; ``query``:
    the read's question, which tells what a newer message may give another value for."""
    found = standings(core, group_id, (h.episode for h in hits if h.episode is not None),
                      valid_time=valid_time, known_at=known_at)
    if valid_time is not None:
        found = probable.marked(core, group_id, [h.episode for h in hits if h.episode is not None], found,
                                known_at=known_at, told_by=told_by, query=query)
    spoken_of = probable.SpokenOf(core, group_id, query, (h.episode for h in hits if h.episode is not None),
                                  (i for s in found.values() for i in s.superseded_by))
    return [_labelled(h, found, spoken_of) for h in hits
            if h.episode is None or not found[h.episode.id].withdrawn]


def _labelled(hit: SearchHit, found: dict[str, MessageStanding], spoken_of: probable.SpokenOf) -> SearchHit:
    if hit.fact is not None:
        return doubted(hit, found, spoken_of)
    if hit.episode is None:
        return hit
    s = found[hit.episode.id]
    return hit.model_copy(update={"standing": s.standing, "replaced_by": s.replaced_by,
                                  "superseded_by": s.superseded_by, "stale_statements": s.stale})


def doubted(hit: SearchHit, found: Mapping[str, MessageStanding | SearchHit],
            spoken_of: Callable[[Fact, str], bool]) -> SearchHit:
    """A fact hit learned only from messages a read found possibly superseded (``found``, by
    message id), by newer messages that speak of it (``spoken_of``), labelled so too: it still
    holds in the graph, yet "my resting heart rate is 72 bpm" is in doubt once "I'm at 61 bpm" was
    said in other words."""
    fact = hit.fact
    told = [found.get(i) for i in fact.episode_ids] if fact is not None else []
    if fact is None or not told or any(s is None or s.standing != "possibly_superseded" for s in told):
        return hit
    newer = tuple(i for i in dict.fromkeys(i for s in told if s is not None for i in s.superseded_by)
                  if spoken_of(fact, i))
    if not newer:
        return hit
    return hit.model_copy(update={"standing": "possibly_superseded", "superseded_by": newer})


def ordered(
    core: Core, group_id: str, hits: list[SearchHit], *, stale: str, limit: int,
    valid_time: datetime | None, known_at: datetime | None, told_by: datetime | None,
) -> SearchResults:
    """``hits`` (labelled) in the order the ``stale`` mode gives, ``limit`` of them."""
    if stale == "show":
        return SearchResults(hits[:limit], stale=stale)
    hits = _replacements_first(core, group_id, hits, valid_time, known_at, told_by)
    superseded = [h for h in hits if h.standing == "superseded"]
    rest = [h for h in hits if h.standing != "superseded"]
    if stale == "label":
        return SearchResults([*rest, *superseded][:limit], stale=stale)
    shown = rest[:limit]
    near = hits[: len(shown) + len(superseded)]
    left_out = sum(len(h.message_ids) for h in near if h.standing == "superseded")
    return SearchResults(shown, stale_left_out=min(left_out, sum(len(h.message_ids) for h in superseded)),
                         stale=stale)


def _key(hit: SearchHit) -> tuple[str, str]:
    record = hit.fact or hit.episode or hit.entity or hit.insight
    assert record is not None
    return hit.kind, record.id


def _replacements_first(
    core: Core, group_id: str, hits: list[SearchHit], valid_time: datetime | None,
    known_at: datetime | None, told_by: datetime | None,
) -> list[SearchHit]:
    """Each stale message with what replaced it just above it: moved up from below, or read from
    the store (labelled in turn, a few rounds deep) when the search did not find it."""
    by_key = {_key(h): h for h in hits}
    for h in hits:  # a repeat left out is found as the hit that stands for it
        for i in h.repeats:
            by_key.setdefault(("episode", i), h)
    for _ in range(ROUNDS):
        wanted = [(kind, i) for h in by_key.values() if h.stale for kind, i in _replacing(h)
                  if (kind, i) not in by_key]
        if not wanted:
            break
        fetched = _fetch(core, group_id, wanted, valid_time, known_at, told_by)
        by_key.update((_key(h), h) for h in label(core, group_id, fetched, valid_time=valid_time,
                                                   known_at=known_at, told_by=told_by))
    out: list[SearchHit] = []
    placed: set[tuple[str, str]] = set()

    def emit(hit: SearchHit, depth: int = 0) -> None:
        key = _key(hit)
        if key in placed:
            return
        placed.add(key)  # before its replacements: a cycle of supersedes ends here
        if hit.stale and depth < ROUNDS:
            for replacing in _replacing(hit, by_key):
                if replacing in by_key and replacing not in placed:
                    found = by_key[replacing]
                    emit(found.model_copy(update={"score": max(found.score, hit.score)}), depth + 1)
        out.append(hit)

    for hit in hits:
        emit(hit)
    return out


def _replacing(
    hit: SearchHit, found: dict[tuple[str, str], SearchHit] | None = None
) -> list[tuple[str, str]]:
    """What replaced a stale message: the messages superseding it, the facts replacing its own,
    and of ``found`` the messages that told those facts ("Kwame relocated to London" goes above
    "Kwame: lives in Accra, accountant at KPMG", as the fact it told does)."""
    by_key = found or {}
    facts = [("fact", i) for i in hit.replaced_by]
    told = [("episode", e) for key in facts if key in by_key and (f := by_key[key].fact) is not None
            for e in f.episode_ids if hit.episode is None or e != hit.episode.id]
    return list(dict.fromkeys([*(("episode", i) for i in hit.superseded_by), *facts, *told]))


def _fetch(
    core: Core, group_id: str, wanted: list[tuple[str, str]], valid_time: datetime | None,
    known_at: datetime | None, told_by: datetime | None,
) -> list[SearchHit]:
    """The records ``wanted`` as hits of their own, those the read's time lets it see."""
    episode_ids = [i for kind, i in wanted if kind == "episode"]
    fact_ids = tuple(dict.fromkeys(i for kind, i in wanted if kind == "fact"))
    query = FactQuery(group_id, ids=fact_ids, valid_time=valid_time, known_at=known_at)
    episodes, facts = core.store.at_once([  # a server store overlaps the two reads
        lambda: core.store.episodes(group_id, ids=episode_ids) if episode_ids else [],
        lambda: core.store.facts(query) if fact_ids else [],
    ])
    out = [SearchHit(kind="episode", score=0.0, reasons=["replaces a matching message"], episode=e)
           for e in episodes if e.recalled(known_at) and (told_by is None or e.reference_time <= told_by)]
    return out + [SearchHit(kind="fact", score=0.0, reasons=["holds in place of a matching message"], fact=f)
                  for f in facts]
