"""The plain temporal reads: what holds now, at a time, as known then; a subject's timeline; a
fact's versions; what changed between two times; the graph at a time; a group's export.

Plain functions of a :class:`~temporal_graph.core.Core`, so the facade's ``now``/``as_of``/
``history``/``audit``/``diff``/``snapshot``/``export`` and the query layer (``queries.answering``)
share one implementation (the writes are in :mod:`~temporal_graph.core.writes`). Names are resolved
to entity ids here; a name the memory does not know reads as "no facts".
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from datetime import datetime
from typing import Any

import networkx as nx

from .bundle import DEFAULT_GROUP, Core, fact_order
from .claims import apply_claims, check_claims
from .errors import InvalidInput, NotFound
from .intervals import covers
from .message_links import withdrawn_messages
from .model import DEFAULT_CLAIMS, Diff, Entity, Episode, Fact
from .names import check_group, clean_name, name_key, normalize_relation
from .stores.protocol import FactQuery
from .time import TimeLike


def query_facts(
    core: Core,
    group_id: str,
    *,
    subject: str | None = None,
    relation: str | None = None,
    object: str | None = None,
    fact_id: str | None = None,
    valid_time: datetime | None = None,
    known_at: datetime | None = None,
    all_versions: bool = False,
) -> list[Fact] | None:
    """A :class:`FactQuery` with entity names resolved; ``None`` when a named entity does not exist."""
    check_group(group_id)
    ids: list[str | None] = []
    for name in (subject, object):
        entity = core.find_entity(name, group_id) if name is not None else None
        if name is not None and entity is None:
            return None
        ids.append(entity.id if entity is not None else None)
    rel = normalize_relation(relation) if relation is not None else None
    return core.store.facts(FactQuery(
        group_id, subject_id=ids[0], relation=rel, object_id=ids[1], fact_id=fact_id, valid_time=valid_time,
        known_at=known_at, all_versions=all_versions,
    ))


def as_of(
    core: Core,
    valid_time: TimeLike,
    *,
    known_at: TimeLike | None = None,
    subject: str | None = None,
    relation: str | None = None,
    object: str | None = None,
    group_id: str = DEFAULT_GROUP,
    claims: str = DEFAULT_CLAIMS,
) -> list[Fact]:
    """What was true at ``valid_time`` as believed at ``known_at`` (default now); ``claims``: which
    statements to show (see :mod:`~temporal_graph.core.claims`)."""
    check_claims(claims)
    t = core.time(valid_time, "valid_time")
    k = core.time_or_now(known_at, "known_at")
    rows = query_facts(core, group_id, subject=subject, relation=relation, object=object,
                       valid_time=t, known_at=k)
    return apply_claims(core, group_id, sorted(rows or [], key=fact_order), claims, at=t, known_at=k)


_as_of = as_of  # for snapshot(), whose argument of that name hides it


def now(
    core: Core,
    subject: str | None = None,
    relation: str | None = None,
    object: str | None = None,
    *,
    group_id: str = DEFAULT_GROUP,
    claims: str = DEFAULT_CLAIMS,
) -> list[Fact]:
    """What is true now, as believed now (one reading of the clock for both)."""
    moment = core.now()
    return as_of(core, moment, known_at=moment, subject=subject, relation=relation, object=object,
                 group_id=group_id, claims=claims)


def history(
    core: Core, subject: str, relation: str | None = None, *, known_at: TimeLike | None = None,
    group_id: str = DEFAULT_GROUP,
) -> list[Fact]:
    """The valid-time timeline of a subject (optionally one relation), as believed at ``known_at``
    (default: as currently believed)."""
    known = core.optional_time(known_at, "known_at")
    rows = query_facts(core, group_id, subject=subject, relation=relation, known_at=known)
    return sorted(rows or [], key=fact_order)


def audit(core: Core, fact_id: str, *, group_id: str = DEFAULT_GROUP) -> list[Fact]:
    """Every version of a fact across transaction time, oldest first; ``fact_id`` may be a prefix
    that names one fact of the group. Raises NotFound when no fact of the group has that id."""
    check_group(group_id)
    if not isinstance(fact_id, str) or not fact_id.strip():
        raise InvalidInput(f"fact_id: expected a fact id (text such as 'a1b2c3d4'), got {fact_id!r}"[:200])
    typed = fact_id.strip()
    fact_id = typed.lower()  # ids are lower-case hex; the message quotes what was typed
    rows = query_facts(core, group_id, fact_id=fact_id, all_versions=True) or []
    if not rows and len(fact_id) < 32:
        rows = _by_prefix(core, group_id, fact_id)
    if not rows:
        raise NotFound(f"fact_id: no fact {typed!r} in group {group_id!r}")
    return sorted(rows, key=_version_order)


def _version_order(f: Fact) -> tuple:
    """Transaction-time order: when written, then still-believed versions after expired ones."""
    return (f.created_at, f.expired_at is None, f.expired_at or f.created_at, f.id)


def _by_prefix(core: Core, group_id: str, prefix: str) -> list[Fact]:
    """Every version of the one fact whose id starts with ``prefix`` (ambiguous: InvalidInput)."""
    every = core.store.facts(FactQuery(group_id, all_versions=True))
    rows = [f for f in every if f.fact_id.startswith(prefix)]
    ids = sorted({f.fact_id for f in rows})
    if len(ids) > 1:
        shown = ", ".join(ids[:5])
        raise InvalidInput(
            f"fact_id: {prefix!r} is the start of {len(ids)} fact ids ({shown}); give more characters"
        )
    return rows


def diff(
    core: Core, start: TimeLike, end: TimeLike, *, subject: str | None = None, group_id: str = DEFAULT_GROUP
) -> Diff:
    """Facts that started, ended (valid time) or were revised (transaction time) in [start, end)."""
    t0, t1 = core.time(start, "start"), core.time(end, "end")
    if t1 <= t0:
        raise InvalidInput(f"end {t1.isoformat()} must be after start {t0.isoformat()}")
    current = query_facts(core, group_id, subject=subject) or []
    every = query_facts(core, group_id, subject=subject, all_versions=True) or []
    first_version: dict[str, datetime] = {}
    for f in every:
        first_version[f.fact_id] = min(first_version.get(f.fact_id, f.created_at), f.created_at)

    def inside(moment: datetime | None) -> bool:
        return moment is not None and covers((t0, t1), moment)

    return Diff(
        start=t0,
        end=t1,
        started=sorted((f for f in current if inside(f.valid_at)), key=fact_order),
        ended=sorted((f for f in current if inside(f.invalid_at)), key=fact_order),
        revised=sorted(
            (f for f in every if inside(f.created_at) and f.created_at > first_version[f.fact_id]),
            key=fact_order,
        ),
    )


def snapshot(
    core: Core, as_of: TimeLike | None = None, known_at: TimeLike | None = None, *,
    group_id: str = DEFAULT_GROUP,
) -> nx.MultiDiGraph:
    """What the memory held at ``as_of`` as known at ``known_at`` (both default now): the graph of
    the facts valid then, and as graph attributes the messages told and recorded by then (those
    giving no fact too; not those withdrawn or erased by ``known_at``), the insights believed
    then, and ``counts`` by kind."""
    at = core.time_or_now(as_of, "as_of")
    known = core.optional_time(known_at, "known_at")
    facts = _as_of(core, at, known_at=known, group_id=group_id)
    ids = list(dict.fromkeys(i for f in facts for i in (f.subject_id, f.object_id)))
    graph = facts_to_graph(facts, core.store.entities(group_id, ids=ids))
    k = known or core.now()
    held = [e for e in core.store.episodes(group_id) if _held(e, at, k)]
    gone = withdrawn_messages(core.store, group_id, (e.id for e in held), known)  # retract_entity
    episodes = sorted((e for e in held if e.id not in gone),
                      key=lambda e: (e.reference_time, e.created_at, e.id))
    insights = core.store.insights(group_id, known_at=known)
    graph.graph.update(as_of=at, known_at=k, episodes=episodes, insights=insights,
                       counts={"facts": len(facts), "entities": graph.number_of_nodes(),
                               "episodes": len(episodes), "insights": len(insights)})
    return graph


def _held(e: Episode, at: datetime, known: datetime) -> bool:
    """Told by ``at``, recorded by ``known``, and neither withdrawn nor erased by then."""
    gone = [t for t in (e.retracted_at, e.erased_at) if t is not None and t <= known]
    return e.reference_time <= at and e.created_at <= known and not gone


def facts_to_graph(facts: Iterable[Fact], entities: Iterable[Entity]) -> nx.MultiDiGraph:
    """Entities as nodes (by id), facts as edges keyed by row id, attributes as plain values."""
    graph: nx.MultiDiGraph = nx.MultiDiGraph()
    for e in entities:
        graph.add_node(e.id, name=e.name, type=e.type)
    for f in facts:
        graph.add_edge(
            f.subject_id, f.object_id, key=f.id, relation=f.relation, fact=f, fact_id=f.fact_id,
            valid_at=f.valid_at, invalid_at=f.invalid_at, text=f.text,
        )
    return graph


def export(core: Core, group_id: str = DEFAULT_GROUP) -> dict[str, Any]:
    """Everything of one group (entities, episodes, assertions, every fact version, summary and
    insight version), as JSON data."""
    store = core.store
    check_group(group_id)
    assertions = sorted(store.group_assertions(group_id), key=lambda a: (a.created_at, a.seq, a.id))
    facts = sorted(store.facts(FactQuery(group_id, all_versions=True)), key=lambda f: (f.created_at, f.id))
    summaries = sorted(store.summaries(group_id, all_versions=True),
                       key=lambda s: (s.created_at, s.entity_id))
    insights = sorted(store.insights(group_id, all_versions=True), key=lambda i: (i.created_at, i.id))
    return {
        "group_id": group_id,
        "entities": [e.model_dump(mode="json") for e in store.entities(group_id)],
        "episodes": [e.model_dump(mode="json") for e in store.episodes(group_id)],
        "assertions": [a.model_dump(mode="json") for a in assertions],
        "facts": [f.model_dump(mode="json") for f in facts],
        "summaries": [s.model_dump(mode="json") for s in summaries],
        "insights": [i.model_dump(mode="json") for i in insights],
    }


def groups(core: Core) -> list[str]:
    """Every group that holds anything, sorted."""
    return sorted(core.store.groups())


def similar_names(core: Core, name: str, group_id: str = DEFAULT_GROUP, *, limit: int = 3) -> list[str]:
    """Names of the group's entities that look like ``name`` (a typo, another spelling), closest
    first; names and aliases are compared as the memory keys them (case and spacing ignored)."""
    check_group(group_id)
    names: dict[str, str] = {}
    for entity in core.store.entities(group_id):
        for known in (entity.name, *entity.aliases):
            names.setdefault(name_key(known), entity.name)
    close = difflib.get_close_matches(name_key(clean_name(name)), list(names), n=limit * 3, cutoff=0.6)
    return list(dict.fromkeys(names[key] for key in close))[:limit]
