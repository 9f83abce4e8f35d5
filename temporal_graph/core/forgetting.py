"""Un-learning: withdraw a message (``retract_episode``), erase a message or a person for good
(``erase_episode``, ``erase_entity``) and drop old history (``prune``).

- A *retraction* is a belief revision: a ``withdraw`` assertion per key the message spoke about
  (:func:`rules.withdrawn` voids the message's statements), the keys derived again, rows never
  edited. ``audit`` and ``as_of(known_at=before)`` still show what was believed before.
- An *erasure* is physical removal for privacy law: the message, its statements, the fact versions
  only it supported, what was derived from them (the summary versions stating them; insights
  citing them go with the erasure in :meth:`FactWriter.erase`), and its id in the provenance of
  the versions that stay; then the keys are derived again from what remains, and the store scrubs
  its files (:meth:`Store.scrub`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from .bundle import DEFAULT_GROUP, Core
from .errors import NotFound, no_entity
from .limits import checked_text
from .message_links import LINK_RELATIONS, MESSAGE_RELATION, message_topic
from .model import (
    Assertion,
    AssertionKind,
    Entity,
    EntityRetraction,
    EpisodeRetraction,
    ErasureReport,
    Fact,
    PruneReport,
    RecordKind,
)
from .names import MAX_NAME_CHARS, check_group, clean_name
from .receipts import ErasureOperation, ErasureReceipt, ErasureRequest, Forgotten, checked_request_id
from .rules import arrival, withdrawn
from .stores.protocol import Erasure
from .time import TimeLike
from .writer import FactWriter

# How many messages a full-text look-up for an entity's names reads (then checked word by word).
NAMING_LOOKUP = 10_000


@dataclass
class Erased:
    """What one erasure removes, as the derived kinds need to know it."""

    erasure: Erasure
    fact_ids: set[str] = field(default_factory=set)  # facts with a version removed
    entity_ids: set[str] = field(default_factory=set)  # entities those versions were about


def _summaries_of(w: FactWriter, erased: Erased) -> None:
    """Summary versions stating a removed fact version, or of an erased entity."""
    gone = set(erased.erasure.entities)
    for entity_id in erased.entity_ids | gone:
        for version in w.summaries(entity_id, all_versions=True):
            if entity_id in gone or erased.fact_ids.intersection(version.fact_ids):
                erased.erasure.summaries.append(version.id)


# -- retract ----------------------------------------------------------------------------------------
def retract_episode(core: Core, episode_id: str, *, group_id: str = DEFAULT_GROUP) -> EpisodeRetraction:
    """Withdraw everything the message ``episode_id`` told, as of now (see the module doc)."""
    episode_id = checked_text(episode_id, "episode_id", MAX_NAME_CHARS)

    def run(w: FactWriter) -> EpisodeRetraction:
        episode = w.episode_record(episode_id)
        told = w.episode_statements(episode_id)
        if episode is None and not told:
            raise NotFound(f"episode_id: no episode {episode_id!r} in group {w.group_id!r}")
        pending = withdrawn(told)  # statements not withdrawn yet
        already = not pending and (episode is None or episode.retracted_at is not None)
        result = EpisodeRetraction(episode_id=episode_id, group_id=w.group_id, retracted_at=w.now,
                                   already=already)
        if result.already:
            return result
        expired: list[Fact] = []
        added: list[Fact] = []
        for subject, relation in _keys(w, pending):
            plan = w.withdraw(subject, relation, episode_id)
            expired += [r.model_copy(update={"expired_at": plan.at}) for r in plan.expire]
            added += plan.insert
        w.withdraw_links(episode_id, pending)  # the messages it superseded hold again
        if episode is not None and episode.retracted_at is None:
            w.mark_retracted(episode_id)
        return result.model_copy(update={"expired": expired, "added": added})

    return core.write(group_id, run)


def retract_entity(core: Core, name: str, *, group_id: str = DEFAULT_GROUP) -> EntityRetraction:
    """Withdraw, as of now, every fact naming the entity and every message about it (soft:
    ``audit`` and ``known_at`` before it still show them; :func:`restore_entity` undoes it)."""
    return _set_entity(core, name, group_id, "withdraw")


def restore_entity(core: Core, name: str, *, group_id: str = DEFAULT_GROUP) -> EntityRetraction:
    """Undo :func:`retract_entity` as of now: its facts and messages are believed again."""
    return _set_entity(core, name, group_id, "restore")


def _set_entity(core: Core, name: str, group_id: str, kind: AssertionKind) -> EntityRetraction:
    group_id = check_group(group_id)
    name = clean_name(name, "name")
    entity = core.find_entity(name, group_id)
    if entity is None:
        raise no_entity(name, group_id, "name")
    naming = _naming_episodes(core, entity)

    def run(w: FactWriter) -> EntityRetraction:
        statements = w.entity_statements(entity.id)
        result = EntityRetraction(entity=entity.name, group_id=w.group_id, at=w.now)
        marks = sorted((a for a in statements if a.kind in ("withdraw", "restore") and a.episode_id is None
                        and a.object_id == entity.id), key=arrival)
        if (marks[-1].kind if marks else "restore") == kind:
            return result.model_copy(update={"already": True})
        said = [a for a in statements
                if a.relation not in LINK_RELATIONS and a.kind not in ("withdraw", "restore")]
        cited = {a.episode_id for a in said if a.episode_id}
        cited |= {e for f in w.versions_of_entity(entity.id) for e in f.episode_ids}
        episodes = [e for e in sorted(cited | set(naming)) if w.episode_record(e) is not None]
        expired: list[Fact] = []
        added: list[Fact] = []
        for subject, relation in _keys(w, said):
            plan = w.withdraw_entity(subject, relation, entity.id, kind)
            expired += [r.model_copy(update={"expired_at": plan.at}) for r in plan.expire]
            added += plan.insert
        for episode_id in episodes:
            w.mark_message(episode_id, kind, entity.id)
        return result.model_copy(update={"expired": expired, "added": added, "episodes": episodes})

    return core.write(group_id, run)


def _keys(w: FactWriter, statements: Iterable[Assertion]) -> list[tuple[Entity, str]]:
    """The (subject, relation) keys ``statements`` are about, subjects that still exist."""
    keys = dict.fromkeys((a.subject_id, a.relation) for a in statements)
    subjects = {e.id: e for e in w.entities_by_id(list(dict.fromkeys(s for s, _ in keys)))}
    return [(subjects[s], r) for s, r in keys if s in subjects]


# -- erase ------------------------------------------------------------------------------------------
def erase_episode(
    core: Core, episode_id: str, *, group_id: str = DEFAULT_GROUP, request_id: str | None = None
) -> ErasureReport:
    """Remove the message ``episode_id`` and every trace of it for good (see the module doc), with
    a receipt in the erasure log under ``request_id`` (generated when None)."""
    episode_id = checked_text(episode_id, "episode_id", MAX_NAME_CHARS)
    reference = checked_request_id(request_id)

    def run(w: FactWriter) -> ErasureReport:
        if w.episode_record(episode_id) is None and not w.episode_statements(episode_id):
            raise NotFound(f"episode_id: no episode {episode_id!r} in group {w.group_id!r}")
        return _erase(w, [episode_id], entity=None, request=_request(w, reference, "erase_episode"))

    report = core.write(group_id, run)
    core.store.scrub()
    return report


def erase_entity(
    core: Core, name: str, *, group_id: str = DEFAULT_GROUP, include_episodes: bool = False,
    request_id: str | None = None,
) -> ErasureReport:
    """Remove the entity ``name`` (its node, facts as subject or object, summaries, mentions in
    other summaries) for good; report the messages that still name it, and erase those too with
    ``include_episodes``. The receipt goes into the erasure log under ``request_id``."""
    group_id = check_group(group_id)
    reference = checked_request_id(request_id)
    name = clean_name(name, "name")
    entity = core.find_entity(name, group_id)
    if entity is None:
        raise no_entity(name, group_id, "name")
    naming = _naming_episodes(core, entity)

    def run(w: FactWriter) -> ErasureReport:
        found = w.existing(name)
        if found is None or found.id != entity.id:
            raise no_entity(name, w.group_id, "name")
        cited = {a.episode_id for a in w.entity_statements(entity.id) if a.episode_id}
        cited |= {e for f in w.versions_of_entity(entity.id) for e in f.episode_ids}
        episodes = sorted((set(naming) | cited) - {None})
        present = [e for e in episodes if w.episode_record(e) is not None]
        return _erase(w, present if include_episodes else [], entity=entity, naming=present,
                      request=_request(w, reference, "erase_entity"))

    report = core.write(group_id, run)
    core.store.scrub()
    return report


def _naming_episodes(core: Core, entity: Entity) -> list[str]:
    """Messages of the group whose text names the entity (any of its names, as a whole word), and
    those it said (its name or an alias as the speaker id, such as a declared one)."""
    ids = dict.fromkeys(core.store.episodes_spoken_by(entity.group_id, [entity.name, *entity.aliases]))
    for spelling in (entity.name, *entity.aliases):
        pattern = re.compile(rf"(?<!\w){re.escape(spelling)}(?!\w)", re.IGNORECASE)
        found = core.store.text_search(entity.group_id, RecordKind.EPISODE, spelling, NAMING_LOOKUP)
        hits = [i for i, _ in found]
        for episode in core.store.episodes(entity.group_id, ids=hits) if hits else []:
            if pattern.search(episode.content) or (episode.speaker or "").casefold() == spelling.casefold():
                ids[episode.id] = None
    return list(ids)


def _request(w: FactWriter, reference: str, operation: ErasureOperation) -> ErasureRequest:
    return ErasureRequest(request_id=reference, at=w.now, group_id=w.group_id, operation=operation)


def _erase(
    w: FactWriter, episode_ids: list[str], *, entity: Entity | None, request: ErasureRequest,
    naming: list[str] | None = None,
) -> ErasureReport:
    """Remove ``episode_ids`` (and ``entity``) in ``w``'s transaction, then derive the keys they
    touched again from what remains."""
    erasure = Erasure(group_id=w.group_id)
    told: dict[str, Assertion] = {}
    for episode_id in episode_ids:
        told.update((a.id, a) for a in w.episode_statements(episode_id))
        # What others said of it (superseded it, withdrew it with a person) names it too.
        topic = message_topic(w.group_id, episode_id)
        told.update((a.id, a) for a in w.link_statements(topic, MESSAGE_RELATION))
        if w.episode_record(episode_id) is not None:
            erasure.episodes.append(episode_id)
    if entity is not None:
        told.update((a.id, a) for a in w.entity_statements(entity.id))
        erasure.entities.append(entity.id)
    erasure.assertions = list(told)
    gone = set(episode_ids)
    rows: dict[str, Fact] = {}
    for episode_id in episode_ids:
        for row in w.rows_citing(episode_id):
            if gone.issuperset(row.episode_ids):
                rows[row.id] = row
    if entity is not None:
        rows.update((r.id, r) for r in w.versions_of_entity(entity.id))
    erasure.rows = list(rows)
    erasure.uncited = list(episode_ids)
    erased = Erased(erasure, fact_ids={r.fact_id for r in rows.values()},
                    entity_ids={i for r in rows.values() for i in (r.subject_id, r.object_id)})
    mentioned = {i for a in told.values() if a.relation not in LINK_RELATIONS
                 for i in (a.subject_id, a.object_id) if i is not None}
    erasure.entities += _orphans(w, mentioned - set(erasure.entities), set(told))
    _summaries_of(w, erased)
    erasure.summaries = list(dict.fromkeys(erasure.summaries))
    receipt = request.receipt({
        "episodes": erasure.episodes, "entities": erasure.entities, "assertions": erasure.assertions,
        "fact_versions": erasure.rows, "summary_versions": erasure.summaries,
        "insight_versions": w.insights_citing([*erasure.rows, *erasure.episodes]),
    })
    w.erase(erasure, receipt)
    rederived: list[Fact] = []
    for subject, relation in _keys(w, told.values()):
        rederived += w.rederive(subject, relation).insert
    # The entities the removed versions were about get their summaries made again.
    w.touched.update(dict.fromkeys(erased.entity_ids - set(erasure.entities)))
    names = [e.name for e in [entity] if e is not None]
    return ErasureReport(
        group_id=w.group_id, episodes=erasure.episodes, entities=names, assertions=len(erasure.assertions),
        fact_versions=len(erasure.rows), summary_versions=len(erasure.summaries),
        naming_episodes=[e for e in naming or [] if e not in gone], rederived=rederived, receipt=receipt,
    )


def _orphans(w: FactWriter, candidates: set[str], removed: set[str]) -> list[str]:
    """The ``candidates`` no statement names once the assertions ``removed`` are gone: entities
    only the erased messages spoke of (their names must go too)."""
    return sorted(e for e in candidates if all(a.id in removed for a in w.entity_statements(e)))


# -- retention --------------------------------------------------------------------------------------
def prune(
    core: Core, *, group_id: str = DEFAULT_GROUP, history_before: TimeLike | None = None,
    episodes_before: TimeLike | None = None, request_id: str | None = None,
) -> PruneReport:
    """Drop transaction-time history older than ``history_before`` (versions no longer believed
    since before it) and erase the text of messages told before ``episodes_before`` (the facts
    they supported stay, citing a source marked erased). Each part is one transaction and writes
    its receipt into the erasure log, under the one ``request_id``."""
    group_id = check_group(group_id)
    history = core.optional_time(history_before, "history_before")
    episodes = core.optional_time(episodes_before, "episodes_before")
    reference = checked_request_id(request_id)
    report = PruneReport(group_id=group_id, history_before=history, episodes_before=episodes)
    requests: list[ErasureRequest] = []
    if history is not None:
        requests.append(ErasureRequest(reference, core.now(), group_id, "prune_history"))
        removed = core.store.prune_history(group_id, history, request=requests[-1])
        report = report.model_copy(update={"versions_removed": removed})
    if episodes is not None:
        requests.append(ErasureRequest(reference, core.now(), group_id, "prune_episode_texts"))
        erased = core.store.erase_episode_texts(group_id, episodes, requests[-1].at, request=requests[-1])
        report = report.model_copy(update={"episodes_erased": erased})
    return report.model_copy(update={"receipts": [r for q in requests for r in q.made]})


# -- a whole group, and the log ---------------------------------------------------------------------
def forget(core: Core, group_id: str, *, request_id: str | None = None) -> Forgotten:
    """Delete one group entirely (its erasure log stays, with this erasure's receipt in it);
    returns the number of records removed, carrying the receipt."""
    group_id = check_group(group_id)
    request = ErasureRequest(checked_request_id(request_id), core.now(), group_id, "forget")
    removed = core.store.forget(group_id, request=request)
    return Forgotten(removed, request.made[-1])


def erasures(
    core: Core, *, group_id: str = DEFAULT_GROUP, since: TimeLike | None = None
) -> list[ErasureReceipt]:
    """The erasure log of ``group_id``: every receipt (at or after ``since``), oldest first."""
    return core.store.erasures(check_group(group_id), core.optional_time(since, "since"))
