"""``add_facts``: many structured facts at once, with the rows ``add_fact`` one by one would give.

Items are checked first, as :class:`FactInput` (a bad one is reported, or with ``strict`` stops
everything before a write); then each (subject, relation) key is reconciled once with
:meth:`FactWriter.start_many`, so only final rows are written, in transactions of whole keys.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from .bundle import DEFAULT_GROUP, Core
from .errors import InvalidInput
from .limits import BATCH, whole_number
from .model import BulkError, BulkReport, Entity, FactInput
from .names import check_group, fact_words, name_key
from .progress import progress_bar
from .rules import check_interval
from .writer import BulkStart, FactWriter
from .writes import fact_input

# Facts per transaction by default. Without embeddings, a 1M-fact load ran 1.25x faster in
# batches of 100,000 than of 20,000 (each commit rewrites most index pages), at the same peak
# memory. With them, encoding dominates (up to three texts a fact, ~170 a second here), so batches
# stay small enough that progress moves and a crash loses minutes, not half an hour.
BATCH_FACTS = 100_000
BATCH_EMBEDDED_FACTS = 20_000
# Items whose rows are handed to the store at a time within a batch: it may insert them while the
# next are derived (SQLite does, on a second thread), so the last hand-over of a batch is what
# waits; smaller ones cost a few statements each.
RELEASE_ROWS = 10_000


@dataclass(frozen=True)
class _Pending:
    """A checked item of ``add_facts``, its times read."""

    index: int
    fact: FactInput
    valid_at: datetime | None
    invalid_at: datetime | None


# Checked items by subject (name key), then relation.
_Keys = dict[str, dict[str, list[_Pending]]]


def add_facts(
    core: Core,
    facts: Iterable[FactInput | Mapping[str, Any] | Sequence[Any]],
    *,
    group_id: str = DEFAULT_GROUP,
    strict: bool = False,
    embed: bool | None = None,
    summaries: bool | None = None,
    progress: bool = False,
    batch_size: int | None = None,
) -> BulkReport:
    """Load ``facts`` into ``group_id`` (see :meth:`TemporalGraph.add_facts`). Each batch is one
    transaction with its vectors and entity summaries, so a load stopped at any point leaves every
    committed batch complete, and running it again adds the rest."""
    started = time.perf_counter()
    check_group(group_id)
    embedding = core.embed if embed is None else embed
    if batch_size is None:
        batch_size = BATCH_EMBEDDED_FACTS if embedding else BATCH_FACTS
        batch_size = min(batch_size, core.store.load_batch_limit or batch_size)
    whole_number(batch_size, "batch_size", BATCH)
    report = BulkReport()
    with _no_cycle_collection():
        keys, types = _keys_of(core, facts, report, strict)
        _load(core, keys, types, report, group_id=group_id, embed=embedding, summaries=summaries,
              progress=progress, batch_size=batch_size)
    report.errors.sort(key=lambda e: e.index)
    report.seconds = time.perf_counter() - started
    return report


def _keys_of(
    core: Core, facts: Iterable[Any], report: BulkReport, strict: bool
) -> tuple[_Keys, dict[str, str | None]]:
    """The items checked (a bad one reported in ``report``, or raised with ``strict``) and grouped
    by subject, then relation, both in order of first mention: a subject's keys go into one
    transaction (unless the subject alone outgrows a batch), so its summary is refreshed once, not
    in every batch that has one of its keys. With them, the type each new entity gets: as add_fact
    one by one gives it, from the first item naming it (keys are written in another order than the
    items, so it is chosen here, in item order)."""
    keys: _Keys = {}
    types: dict[str, str | None] = {}
    parse = _cached_times(core)
    for index, item in enumerate(facts):
        report.items += 1
        try:
            pending = _pending(index, item, parse)
        except (InvalidInput, TypeError, ValueError) as exc:
            reason = " ".join(str(exc).split())
            if strict:
                raise InvalidInput(f"item {index}: {reason}") from None
            report.errors.append(BulkError(index=index, reason=reason))
            continue
        fact = pending.fact
        subject = name_key(fact.subject)
        keys.setdefault(subject, {}).setdefault(fact.relation, []).append(pending)
        types.setdefault(subject, fact.subject_type)
        obj = name_key(fact.object)
        if obj not in types:
            types[obj] = fact.object_type or core.ontology.object_type(fact.relation)
    return keys, types


def _load(
    core: Core, keys: _Keys, types: dict[str, str | None], report: BulkReport, *, group_id: str,
    embed: bool, summaries: bool | None, progress: bool,
    batch_size: int,
) -> None:
    """Write the keys, in transactions of whole keys of about ``batch_size`` items."""
    created: set[str] = set()  # entities this load created: their keys need no reading

    def load(w: FactWriter, batch: list[list[_Pending]]) -> tuple[int, list[BulkError], int]:
        """Write ``batch`` and return what it did (rows, refusals, entities created), counted
        only once its transaction commits: a store may run this again (a retried transaction)."""
        # A load only adds entities, never renames one: a name resolved once in this transaction
        # stays resolved (cities and clubs recur across thousands of keys).
        resolved: dict[str, Entity] = {}
        rows_written, errors = 0, []

        def entity(name: str, what: str) -> Entity:
            found = resolved.get(name)
            if found is None:
                found = resolved[name] = w.entity(name, type=types[name_key(name)], what=what)
            return found

        w.read_ahead(names=list(dict.fromkeys(name for items in batch for p in items
                                              for name in (p.fact.subject, p.fact.object))))
        with w.rows_together():
            # Every name first: a lookup is a read, which would wait for the rows being inserted.
            for items in batch:
                entity(items[0].fact.subject, "subject")
                for p in items:
                    entity(p.fact.object, "object")
            fresh = created | {e.id for e in w.entities_created}
            w.read_ahead_keys([(resolved[items[0].fact.subject], items[0].fact.relation) for items in batch
                               if resolved[items[0].fact.subject].id not in fresh])
            held = 0
            for items in batch:
                first = items[0].fact
                subject = resolved[first.subject]
                starts = [_start(p, resolved[p.fact.object]) for p in items]
                rows, refused = w.start_many(subject, first.relation, starts, fresh=subject.id in fresh)
                rows_written += len(rows)
                errors += [BulkError(index=i, reason=reason) for i, reason in refused]
                held += len(items)
                if held >= RELEASE_ROWS:
                    w.release_rows()
                    held = 0
        created.update(e.id for e in w.entities_created)
        return rows_written, errors, len(w.entities_created)

    count = report.items - len(report.errors)
    with core.store.bulk_loading(group_id, count), progress_bar(progress, "loading facts", count) as advance:
        for batch in _key_batches((list(by_relation.values()) for by_relation in keys.values()), batch_size):
            texts = _texts(batch) if embed else ()
            rows_written, errors, entities = core.write(group_id, partial(load, batch=batch), embed=embed,
                                                        summaries=summaries, texts=texts)
            report.rows_written += rows_written
            report.errors += errors
            report.entities_created += entities
            advance(sum(len(items) for items in batch))


@contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector off while the load runs, reading its items included: it would walk
    the millions of objects held for the load again and again (a third of a 200k load's time, and
    an eighth of a 1M load's went on reading the items), and a load makes no cycles that must go
    before it ends."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _pending(index: int, item: Any, time_of: Callable[[Any, str], datetime | None]) -> _Pending:
    fact = fact_input(item)
    start, end = time_of(fact.valid_at, "valid_at"), time_of(fact.invalid_at, "invalid_at")
    check_interval(start, end)
    return _Pending(index, fact, start, end)


def _texts(batch: list[list[_Pending]]) -> Iterable[str]:
    """What a batch will embed: its facts' texts and the names it mentions (encoded before its
    transaction opens; names of entities already known are encoded for nothing, at little cost)."""
    for items in batch:
        for p in items:
            f = p.fact
            yield f.text or fact_words(f.subject, f.relation, f.object)
            yield f.subject
            yield f.object


def _start(item: _Pending, obj: Entity) -> BulkStart:
    f = item.fact
    return BulkStart(item.index, obj, item.valid_at, item.invalid_at, f.text, f.confidence, f.importance,
                     f.episode_id, f.attributes)


def _cached_times(core: Core) -> Callable[[Any, str], datetime | None]:
    """The memory's time parsing, remembering strings already read (bulk files repeat dates)."""
    seen: dict[tuple[str, str], datetime | None] = {}

    def parse(value: Any, name: str) -> datetime | None:
        if not isinstance(value, str):
            return core.optional_time(value, name)
        if (value, name) not in seen:
            seen[(value, name)] = core.optional_time(value, name)
        return seen[(value, name)]

    return parse


def _key_batches(subjects: Iterable[list[list[_Pending]]], size: int) -> Iterable[list[list[_Pending]]]:
    """Whole keys, about ``size`` items a batch. A key is never split across transactions, and a
    subject's keys only when the subject alone has more than ``size`` items: a transaction stays
    bounded (and a crash loses at most one) even when one person holds most of a load."""
    batch: list[list[_Pending]] = []
    count = 0
    for keys in subjects:
        large = sum(len(items) for items in keys) > size
        for items in keys:
            batch.append(items)
            count += len(items)
            if large and count >= size:
                yield batch
                batch, count = [], 0
        if count >= size:
            yield batch
            batch, count = [], 0
    if batch:
        yield batch
