"""Copying a memory from one store to another (an embedded file into Neo4j, and back).

Every record goes across as it is, through the store protocol: entities, episodes, assertions,
every fact version with its transaction time (ids, ``created_at``, ``expired_at``), every entity
summary version, and the vectors of what is copied. Nothing is derived again, so the target
answers every ``as_of(T, K)`` the source answers.

A copy is a sequence of batches, each one write transaction; a batch holds only what the target
lacks, so a copy stopped at any point (even by kill -9) completes when run again, and a second run
writes nothing. A run after the source changed brings the target level with it: what the source
erased or pruned since goes from the target too, a message withdrawn or whose text retention erased
is so on the target, provenance a fact gained is added. It ends by comparing both sides: counts per
kind, every message's standing and a sample of ``as_of(T, K)`` answers (:class:`CopyReport`).

A group the target already holds with a history of its own (none of its statements, fact versions
or messages came from the source) is refused: copying into it would merge two memories. Pass
``merge=True`` to add the source's records to it anyway (nothing of the target is removed then).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TypeVar

import numpy as np
from pydantic import BaseModel, ConfigDict

from .errors import InvalidInput
from .model import EntitySummary, Episode, Fact, RecordKind
from .names import check_group
from .stores.protocol import RECORD_COUNTS, ChangeSet, Erasure, FactQuery, Store, StoreTx

T = TypeVar("T")
# Records per write transaction: on Neo4j each commit has a fixed cost (batches of 500 made a
# 20,000-fact copy 100 transactions); 5,000 stays well under the server's transaction memory.
COPY_BATCH = 5_000
COPY_SAMPLES = 20  # as_of(T, K) questions asked of both sides at the end
_NO_LIMIT = 2**31 - 1
# What the final comparison counts, per group.
COUNTED = RECORD_COUNTS


class GroupCopy(BaseModel):
    """What copying one group did and found: records written per kind, the counts of both sides
    per kind (:data:`COUNTED`), and the ``as_of(T, K)`` questions whose answers differ."""

    model_config = ConfigDict(frozen=True)

    group_id: str
    written: dict[str, int]
    source: dict[str, int]
    target: dict[str, int]
    samples: int
    mismatches: list[str]

    @property
    def ok(self) -> bool:
        return self.source == self.target and not self.mismatches


class CopyReport(BaseModel):
    """One :class:`GroupCopy` per group copied; ``ok`` when both sides agree on every group."""

    model_config = ConfigDict(frozen=True)

    groups: list[GroupCopy]

    @property
    def ok(self) -> bool:
        return all(g.ok for g in self.groups)


def _chunks(items: Sequence[T], size: int) -> Iterable[Sequence[T]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def _same_vector(a: Sequence[float] | None, b: Sequence[float] | None) -> bool:
    """Vectors compared as the embedded store keeps them (float32)."""
    if a is None or b is None:
        return a is b
    return bool(np.array_equal(np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)))


def _missing_vectors(source: Store, target: Store, group_id: str, kind: str,
                     ids: Sequence[str]) -> dict[str, list[float]]:
    """The source's vectors of ``ids`` the target does not hold (or holds different)."""
    theirs = source.vectors(group_id, kind, ids)
    ours = target.vectors(group_id, kind, list(theirs)) if theirs else {}
    return {i: v for i, v in theirs.items() if not _same_vector(v, ours.get(i))}


def _write(
    target: Store, steps: Sequence[ChangeSet], before: Callable[[StoreTx], object] | None = None
) -> None:
    """``steps`` applied in order, in one transaction."""
    def run(tx: StoreTx) -> None:
        if before is not None:
            before(tx)
        for changes in steps:
            if changes or changes.fact_embeddings or changes.entity_embeddings or changes.episode_embeddings:
                tx.apply(changes)

    if steps:
        target.write(run)


def _copy_entities(source: Store, target: Store, group_id: str, batch: int) -> int:
    have = {e.id: e for e in target.entities(group_id)}
    written = 0
    for chunk in _chunks(source.entities(group_id), batch):
        vectors = _missing_vectors(source, target, group_id, RecordKind.ENTITY, [e.id for e in chunk])
        # An entity goes again when it differs or lacks its vector (an upsert changes nothing else).
        todo = [e for e in chunk if have.get(e.id) != e or e.id in vectors]
        if todo:
            _write(target, [ChangeSet(entities=todo, entity_embeddings=vectors)])
            written += len(todo)
    return written


def _copy_episodes(source: Store, target: Store, group_id: str, batch: int) -> int:
    have = {e.id for e in target.episodes(group_id)}
    todo = [e for e in source.episodes(group_id) if e.id not in have]
    for chunk in _chunks(todo, batch):
        vectors = source.vectors(group_id, RecordKind.EPISODE, [e.id for e in chunk])
        _write(target, [ChangeSet(episodes=list(chunk), episode_embeddings=vectors)])
    return len(todo)


def _copy_assertions(source: Store, target: Store, group_id: str, batch: int) -> int:
    have = {a.id for a in target.group_assertions(group_id)}
    todo = sorted((a for a in source.group_assertions(group_id) if a.id not in have),
                  key=lambda a: (a.created_at, a.seq, a.id))
    for chunk in _chunks(todo, batch):
        _write(target, [ChangeSet(assertions=list(chunk))])
    return len(todo)


def _copy_facts(source: Store, target: Store, group_id: str, batch: int) -> int:
    """Fact versions the target lacks, as they are (expired ones already expired), with their
    vectors; a version the target still holds current but the source has expired since is
    expired at the same moment."""
    have = {f.id: f for f in target.facts(FactQuery(group_id, all_versions=True))}
    versions = sorted(source.facts(FactQuery(group_id, all_versions=True)),
                      key=lambda f: (f.created_at, f.id))
    todo = [f for f in versions if f.id not in have]
    for chunk in _chunks(todo, batch):
        vectors = source.vectors(group_id, RecordKind.FACT, [f.id for f in chunk])
        _write(target, [ChangeSet(insert=list(chunk), fact_embeddings=vectors)])
    ended = [f for f in versions
             if f.expired_at is not None and f.id in have and have[f.id].expired_at is None]
    for chunk in _chunks(ended, batch):
        _write(target, [ChangeSet(expire=[(f.id, f.expired_at) for f in chunk if f.expired_at])],
               before=partial(_read_keys, group_id=group_id, rows=chunk))
    return len(todo) + len(ended)


def _read_keys(tx: StoreTx, group_id: str, rows: Sequence[Fact]) -> None:
    """Read the current rows of the keys about to change (a store locks and learns them so)."""
    for subject_id, relation in dict.fromkeys((f.subject_id, f.relation) for f in rows):
        tx.current_rows(group_id, subject_id, relation)


def summary_steps(versions: Sequence[EntitySummary], have: dict[str, EntitySummary]) -> list[ChangeSet]:
    """The writes that give the target one entity's summary versions (``versions``, any order)
    when it holds ``have`` of them: each missing version in order (it supersedes the one before,
    which expires at its ``created_at``); a version the source ended at another moment, or with
    no successor, is ended at that moment first."""
    steps: list[ChangeSet] = []
    previous: EntitySummary | None = None
    open_in_target = False
    for version in sorted(versions, key=lambda v: (v.created_at, v.id)):
        if version.id in have:
            previous, open_in_target = version, have[version.id].expired_at is None
            continue
        if previous is not None and open_in_target and previous.expired_at not in (None, version.created_at):
            steps.append(ChangeSet(summaries_ended=[_end(previous)]))
        steps.append(ChangeSet(summaries=[version]))
        previous, open_in_target = version, True
    if previous is not None and open_in_target and previous.expired_at is not None:
        steps.append(ChangeSet(summaries_ended=[_end(previous)]))
    return steps


def _end(version: EntitySummary) -> tuple[str, str, datetime]:
    assert version.expired_at is not None
    return (version.group_id, version.entity_id, version.expired_at)


def _copy_summaries(source: Store, target: Store, group_id: str, batch: int, at: datetime) -> int:
    have = {s.id: s for s in target.summaries(group_id, all_versions=True)}
    by_entity: dict[str, list[EntitySummary]] = defaultdict(list)
    for version in source.summaries(group_id, all_versions=True):
        by_entity[version.entity_id].append(version)
    steps = [step for entity_id in sorted(by_entity) for step in summary_steps(by_entity[entity_id], have)]
    for chunk in _chunks(steps, batch):
        _write(target, chunk)
    # Entities whose summary waits for a refresh wait on the target too.
    due = _stale(source, group_id, at)
    todo = sorted(due - _stale(target, group_id, at))
    for part in _chunks(todo, batch):
        _write(target, [ChangeSet(summary_due=[(group_id, entity_id, True) for entity_id in part])])
    return sum(len(s.summaries) for s in steps)


def _copy_insights(source: Store, target: Store, group_id: str, batch: int) -> int:
    """Insight versions as stored (expired ones too); one the source has expired since an earlier
    copy is expired on the target at the same moment."""
    have = {i.id: i for i in target.insights(group_id, all_versions=True)}
    versions = source.insights(group_id, all_versions=True)
    todo = [i for i in versions if i.id not in have]
    ended = [(group_id, i.id, i.expired_at) for i in versions
             if i.expired_at is not None and i.id in have and have[i.id].expired_at is None]
    for chunk in _chunks(todo, batch):
        _write(target, [ChangeSet(insights=list(chunk))])
    for part in _chunks(ended, batch):
        _write(target, [ChangeSet(insights_expired=list(part))])
    return len(todo) + len(ended)


def _history(store: Store, group_id: str) -> set[str]:
    """The ids of the group's statements, fact versions and messages: what a copy carries over
    unchanged, so a target sharing none of them with the source holds a memory of its own."""
    return ({a.id for a in store.group_assertions(group_id)} | {e.id for e in store.episodes(group_id)}
            | {f.id for f in store.facts(FactQuery(group_id, all_versions=True))})


def _removed_since(source: Store, target: Store, group_id: str) -> int:
    """Remove from the target what the source no longer holds (erased or pruned since an earlier
    copy): one erasure, before anything is added. Returns how many records it removed."""
    def missing(ours: Iterable[str], theirs: Iterable[str]) -> list[str]:
        have = set(theirs)
        return sorted(i for i in ours if i not in have)

    erasure = Erasure(
        group_id=group_id,
        episodes=missing((e.id for e in target.episodes(group_id)),
                         (e.id for e in source.episodes(group_id))),
        assertions=missing((a.id for a in target.group_assertions(group_id)),
                           (a.id for a in source.group_assertions(group_id))),
        rows=missing((f.id for f in target.facts(FactQuery(group_id, all_versions=True))),
                     (f.id for f in source.facts(FactQuery(group_id, all_versions=True)))),
        summaries=missing((v.id for v in target.summaries(group_id, all_versions=True)),
                          (v.id for v in source.summaries(group_id, all_versions=True))),
        entities=missing((e.id for e in target.entities(group_id)),
                         (e.id for e in source.entities(group_id))),
    )
    erasure.uncited = list(erasure.episodes)  # the versions that stay stop citing them, as on the source
    insights = missing((i.id for i in target.insights(group_id, all_versions=True)),
                       (i.id for i in source.insights(group_id, all_versions=True)))
    changes = ChangeSet(erasures=[erasure] if erasure else [],
                        insights_deleted=[(group_id, i) for i in insights])
    if not changes:
        return 0
    _write(target, [changes])
    return (len(erasure.episodes) + len(erasure.assertions) + len(erasure.rows) + len(erasure.summaries)
            + len(erasure.entities) + len(insights))


def _copy_erasure_log(source: Store, target: Store, group_id: str) -> int:
    """The source's erasure receipts the target lacks (a receipt holds no erased content, and
    records what the source erased before the copy): appended, in the source's order."""
    have = target.erasures(group_id)
    todo = [r for r in source.erasures(group_id) if r not in have]
    if todo:
        _write(target, [ChangeSet(erasure_receipts=todo)])
    return len(todo)


def _level_episodes_and_provenance(source: Store, target: Store, group_id: str, batch: int,
                                   held: set[str]) -> int:
    """Messages withdrawn or whose text was erased on the source since, and episodes a fact
    version gained as provenance since: the same on the target. ``held``: the ids the target held
    before this copy (a fact version written by it went across with its provenance as it is)."""
    theirs = {e.id: e for e in target.episodes(group_id)}
    steps: list[ChangeSet] = []
    for e in source.episodes(group_id):
        mine = theirs.get(e.id)
        if mine is None:
            continue
        if e.retracted_at is not None and mine.retracted_at is None:
            steps.append(ChangeSet(episodes_retracted=[(group_id, e.id, e.retracted_at)]))
        if e.erased_at is not None and mine.erased_at is None:
            steps.append(ChangeSet(episode_texts_erased=[(group_id, e.id, e.erased_at)]))
    versions = [f for f in source.facts(FactQuery(group_id, all_versions=True)) if f.id in held]
    rows = {f.id: f for f in target.facts(FactQuery(group_id, all_versions=True))} if versions else {}
    for f in versions:
        have = rows.get(f.id)
        added = tuple(e for e in f.episode_ids if have is not None and e not in have.episode_ids)
        if added:
            steps.append(ChangeSet(provenance={f.id: added}))
    for chunk in _chunks(steps, batch):
        _write(target, chunk, before=partial(_read_rows, group_id=group_id,
                                             ids=[i for c in chunk for i in c.provenance]))
    return len(steps)


def _read_rows(tx: StoreTx, group_id: str, ids: Sequence[str]) -> None:
    """Read the rows about to gain provenance (a store locks and learns them so)."""
    if ids:
        tx.facts(FactQuery(group_id, ids=tuple(ids), all_versions=True))


def episode_standing(store: Store, group_id: str) -> dict[str, tuple]:
    """Each message's id with what a copy must carry over of it: text, withdrawal, erasure."""
    return {e.id: _standing(e) for e in store.episodes(group_id)}


def _standing(e: Episode) -> tuple:
    return (e.content, e.speaker, e.reference_time, e.retracted_at, e.erased_at)


def _stale(store: Store, group_id: str, at: datetime) -> set[str]:
    return set(store.stale_summaries(group_id, at=at, limit=_NO_LIMIT))


def sample_questions(
    facts: Sequence[Fact], count: int, seed: int
) -> list[tuple[str, datetime, datetime | None]]:
    """``count`` as_of questions (subject, T, K), each about one subject drawn among the facts':
    T among its timeline's valid-time ends, K among its transaction-time ends (None: now), so the
    sample lands where that subject's answers change."""
    timelines: dict[str, list[Fact]] = defaultdict(list)
    for f in facts:
        timelines[f.subject_id].append(f)
    rng = random.Random(seed)
    subjects = sorted(s for s, rows in timelines.items()
                      if any(t is not None for f in rows for t in (f.valid_at, f.invalid_at)))
    questions: list[tuple[str, datetime, datetime | None]] = []
    for _ in range(count if subjects else 0):
        subject = rng.choice(subjects)
        rows = timelines[subject]
        valid = sorted({t for f in rows for t in (f.valid_at, f.invalid_at) if t is not None})
        known = sorted({t for f in rows for t in (f.created_at, f.expired_at) if t is not None})
        questions.append((subject, rng.choice(valid), rng.choice([None, *known])))
    return questions


def _answer(store: Store, group_id: str, subject_id: str, t: datetime, k: datetime) -> list[dict]:
    rows = store.facts(FactQuery(group_id, subject_id=subject_id, valid_time=t, known_at=k))
    return sorted((f.model_dump(mode="json") for f in rows), key=lambda d: d["id"])


def _dumped(facts: Sequence[Fact]) -> dict[str, dict]:
    return {f.id: f.model_dump(mode="json") for f in facts}


def _differing(what: str, mine: dict[str, T], theirs: dict[str, T]) -> list[str]:
    """``["<n> <what> (first: <id>)"]`` for the ids whose records differ between the sides."""
    ids = sorted(i for i in mine.keys() | theirs.keys() if mine.get(i) != theirs.get(i))
    return [f"{len(ids)} {what} (first: {ids[0]})"] if ids else []


def compare(source: Store, target: Store, group_id: str, *, samples: int, seed: int,
            now: datetime) -> tuple[dict[str, int], dict[str, int], int, list[str]]:
    """Counts of both sides, how many as_of questions were asked, and what differs: fact versions
    (every field of every one), messages, and the answers to the questions. Every version is read
    once per side; a question is about one subject, so it reads only that subject's rows (on Neo4j,
    twenty whole-group reads were most of a copy's time)."""
    versions = source.facts(FactQuery(group_id, all_versions=True))
    mismatches = _differing("fact versions differ", _dumped(versions),
                            _dumped(target.facts(FactQuery(group_id, all_versions=True))))
    questions = sample_questions(versions, samples, seed)
    mismatches += [
        f"as_of({t.isoformat()}, known_at={(k or now).isoformat()}) about {subject}"
        for subject, t, k in questions
        if _answer(source, group_id, subject, t, k or now) != _answer(target, group_id, subject, t, k or now)
    ]
    mismatches += _differing("messages differ in text, withdrawal or erasure",
                             episode_standing(source, group_id), episode_standing(target, group_id))
    return source.record_counts(group_id), target.record_counts(group_id), len(questions), mismatches


def copy_store(
    source: Store,
    target: Store | str | Path,
    group_id: str | None = None,
    *,
    at: datetime,
    batch_size: int = COPY_BATCH,
    samples: int = COPY_SAMPLES,
    seed: int = 0,
    merge: bool = False,
) -> CopyReport:
    """Copy one group (``None``: every group of the source) into ``target``, then compare both
    sides. ``at`` is now (the moment the comparison's "now" questions and stale summaries use).
    Raises :class:`InvalidInput`, before writing anything, for a group the target holds with a
    history of its own, unless ``merge`` (see the module docstring). A ``target`` given as a path
    is an embedded file (created when missing)."""
    if isinstance(target, (str, Path)):
        from .stores.sqlite import SQLiteStore

        opened = SQLiteStore(target)
        try:
            return copy_store(source, opened, group_id, at=at, batch_size=batch_size, samples=samples,
                              seed=seed, merge=merge)
        finally:
            opened.close()
    if group_id is not None:
        check_group(group_id)
    groups = [group_id] if group_id is not None else source.groups()
    level: dict[str, bool] = {}
    before: dict[str, set[str]] = {}
    for group in groups:
        held = before[group] = _history(target, group)
        if held and not merge and not held & _history(source, group):
            raise InvalidInput(
                f"group {group!r}: the target already holds a memory of its own in this group (none of its "
                "records came from this source); copying would merge the two. Copy into another group, "
                "forget it on the target first, or merge=True (tgraph copy --merge) to add this one to it")
        level[group] = bool(held) and not merge
    done: list[GroupCopy] = []
    for group in groups:
        written: dict[str, int] = {}
        if level[group]:
            written["removed (gone from the source)"] = _removed_since(source, target, group)
        for kind, step in (
            ("entities", _copy_entities), ("episodes", _copy_episodes), ("assertions", _copy_assertions),
            ("fact versions", _copy_facts),
        ):
            written[kind] = step(source, target, group, batch_size)
        written["summary versions"] = _copy_summaries(source, target, group, batch_size, at)
        written["insight versions"] = _copy_insights(source, target, group, batch_size)
        written["messages and provenance levelled"] = _level_episodes_and_provenance(
            source, target, group, batch_size, before[group])
        written["erasure receipts"] = _copy_erasure_log(source, target, group)
        if level[group] and written["removed (gone from the source)"]:
            target.scrub()
        mine, theirs, asked, mismatches = compare(source, target, group, samples=samples, seed=seed, now=at)
        done.append(GroupCopy(group_id=group, written=written, source=mine, target=theirs, samples=asked,
                              mismatches=mismatches))
    return CopyReport(groups=done)
