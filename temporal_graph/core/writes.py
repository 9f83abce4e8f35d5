"""The write verbs: add a fact, end it, retract it, repair derived data (vectors, summaries),
forget a group.

Plain functions of a :class:`~temporal_graph.core.Core`, as :mod:`~temporal_graph.core.reads` holds
the reads: the facade's ``add_fact``/``end_fact``/``retract_fact``/``reindex``/``forget`` forward
here, and every statement goes through :class:`~temporal_graph.core.writer.FactWriter` in one
transaction of :meth:`Core.write`. A fact to write is a :class:`FactInput` (the model
:func:`~temporal_graph.core.bulk.add_facts` checks its items with too).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from pydantic import ValidationError

from .bundle import DEFAULT_GROUP, Core
from .embeddings import passages
from .errors import InvalidInput, no_entity
from .identity import speaker_entity
from .limits import BATCH, switch, whole_number
from .model import Entity, Episode, Fact, FactInput, RecordKind
from .names import check_group, clean_name, fact_words, normalize_relation
from .progress import progress_bar
from .stores.protocol import FactQuery, Store
from .time import TimeLike
from .writer import FactWriter

FACT_FIELDS = ("subject", "relation", "object", "valid_at", "invalid_at")


def fact_input(item: FactInput | Mapping[str, Any] | Sequence[Any]) -> FactInput:
    """``item`` as a checked :class:`FactInput`: one already, a mapping of its fields, or a tuple
    ``(subject, relation, object[, valid_at[, invalid_at]])``. A bad field raises the error its
    check raises (:class:`InvalidName`, :class:`InvalidTime`, ...; :class:`InvalidInput` for the rest)."""
    if isinstance(item, FactInput):
        return item
    if isinstance(item, Mapping):
        fields = dict(item)
    elif isinstance(item, (tuple, list)):
        if not 3 <= len(item) <= 5:
            raise InvalidInput(
                f"expected (subject, relation, object[, valid_at[, invalid_at]]), got {item!r}"
            )
        fields = dict(zip(FACT_FIELDS, item, strict=False))  # the times are optional
    else:
        raise InvalidInput(f"expected a FactInput, a mapping or a tuple, got {type(item).__name__}")
    try:
        return FactInput.model_validate(fields)
    except ValidationError as exc:
        raise input_error(exc) from None


def input_error(exc: ValidationError) -> InvalidInput:
    """The first problem pydantic found, as the domain error a check raised (kept as it is) or as
    :class:`InvalidInput` ``"field: what is wrong"``."""
    first = exc.errors()[0]
    raised = first.get("ctx", {}).get("error")
    if isinstance(raised, InvalidInput):
        return raised
    return InvalidInput(f"{'.'.join(map(str, first['loc'])) or 'item'}: {first['msg']}"[:300])


def add_fact(core: Core, fact: FactInput | Mapping[str, Any], *, group_id: str = DEFAULT_GROUP) -> Fact:
    """Write one fact (see :meth:`TemporalGraph.add_fact`); returns the row written or merged into."""
    fact = fact_input(fact)
    start = core.optional_time(fact.valid_at, "valid_at")
    end = core.optional_time(fact.invalid_at, "invalid_at")

    def run(w: FactWriter) -> Fact:
        w.read_ahead(names=(fact.subject, fact.object), pairs=[(fact.subject, fact.relation, fact.object)])
        s = w.entity(fact.subject, type=fact.subject_type, what="subject")
        o = w.entity(fact.object, type=fact.object_type or core.ontology.object_type(fact.relation),
                     what="object")
        outcome = w.start(
            s, fact.relation, o, valid_at=start, invalid_at=end, default_start=w.now, text=fact.text,
            episode_id=fact.episode_id, confidence=fact.confidence, importance=fact.importance,
            attributes=fact.attributes,
        )
        if outcome.fact is None:  # lost a same-instant tie to a later statement
            raise InvalidInput(f"{fact.subject} {fact.relation} {fact.object}: another fact starts at the "
                               "same instant")
        return outcome.fact

    return core.write(group_id, run, texts=_expected_texts(core, group_id, fact))


def _expected_texts(core: Core, group_id: str, fact: FactInput) -> Iterator[str]:
    """What ``add_fact`` will embed: its text and the names it adds, spelled as the group already
    spells them (read only when the write embeds)."""
    found = core.find_entities((fact.subject, fact.object), group_id)  # one read for both names
    subject, obj = (name if (e := found[name]) is None else e.name for name in (fact.subject, fact.object))
    yield fact.text or fact_words(subject, fact.relation, obj)
    yield from (name for name, e in found.items() if e is None)


def end_fact(
    core: Core, subject: str, relation: str, object: str | None = None, *, at: TimeLike,
    group_id: str = DEFAULT_GROUP, create_names: bool = False,
) -> list[Fact]:
    """Close the fact(s) holding at ``at`` (every object when ``object`` is None). Unknown names
    raise :class:`NotFound` unless ``create_names`` (see :meth:`TemporalGraph.end_fact`)."""
    relation = normalize_relation(relation)
    moment = core.time(at, "at")
    subject = clean_name(subject, "subject")
    if object is not None:
        object = clean_name(object, "object")

    def run(w: FactWriter) -> list[Fact]:
        # The ending is recorded even when nothing is known yet about the fact: a start
        # learned later must still end here, or the belief would depend on arrival order.
        if create_names:
            s = w.entity(subject, what="subject")
            o = None if object is None else w.entity(object, type=core.ontology.object_type(relation),
                                                     what="object")
        else:
            s = _known(w, subject, "subject")
            o = None if object is None else _known(w, object, "object")
        return w.end(s, relation, o, at=moment).ended

    return core.write(group_id, run)


def retract_fact(
    core: Core, subject: str, relation: str, object: str, *, group_id: str = DEFAULT_GROUP
) -> list[Fact]:
    """Everything believed about ``subject relation object`` was wrong: expire it, no successor.
    Unknown names raise :class:`NotFound` (there is nothing to retract about them)."""
    relation = normalize_relation(relation)
    subject, object = clean_name(subject, "subject"), clean_name(object, "object")

    def run(w: FactWriter) -> list[Fact]:
        return w.retract(_known(w, subject, "subject"), relation, _known(w, object, "object")).retracted

    return core.write(group_id, run)


def _known(w: FactWriter, name: str, what: str) -> Entity:
    """The entity ``name`` names, or :class:`NotFound`: a typo must never become a new entity."""
    found = w.existing(name)
    if found is None:
        raise no_entity(name, w.group_id, what)
    w.matched(found)
    return found


def alias_speakers(core: Core, aliases: Mapping[str, str], *, group_id: str = DEFAULT_GROUP) -> list[Entity]:
    """Declare each speaker id ``alias`` to be the person ``aliases[alias]`` (a speaker id too), in
    one write: the alias becomes a name of that person's entity (created if new), so the alias's
    messages speak as that person from then on. Returns the entities. Raises InvalidInput, writing
    nothing, when an alias already has an entity of its own (declare aliases before importing
    the alias's messages)."""
    pairs = [(clean_name(alias, "alias"), clean_name(person, "speaker")) for alias, person in aliases.items()]
    check_group(group_id)
    for alias, person in pairs:  # checked before the write, so a refusal writes nothing
        check_speaker_alias(partial(speaker_entity, core.store, group_id), alias, person)

    def run(w: FactWriter) -> list[Entity]:
        out = []
        for alias, person in pairs:
            check_speaker_alias(w.speaker_entity, alias, person)
            out.append(w.add_alias(w.speaker(person, type="Person"), alias))
        return out

    return core.write(group_id, run) if pairs else []


def check_speaker_alias(speaker_of: Callable[[str], Entity | None], alias: str, person: str) -> None:
    """Raise InvalidInput when speaker id ``alias`` cannot become ``person`` (``speaker_of`` finds
    a speaker id's entity): it has an entity of its own already, and an alias never merges the
    histories of two entities."""
    own, target = speaker_of(alias), speaker_of(person)
    if own is not None and (target is None or own.id != target.id):
        raise InvalidInput(
            f"alias {alias!r}: that speaker id already has an entity of its own ({own.name!r}), so it "
            f"cannot become {person!r}; declare aliases before the alias's messages are stored"
        )



def reindex(core: Core, group_id: str | None = None, *, progress: bool = False, batch_size: int = 256,
            messages: bool = False) -> int:
    """Repair derived data: embed every record that has no vector yet, then bring stale or missing
    entity summaries up to date (:func:`refresh_summaries`), in batches; returns how many records
    it embedded or summarized. ``group_id=None`` covers every group. ``messages``: also embed
    again every message of several sentences (see :mod:`..embeddings`), whose vector a version
    before 2026-12-07 made of its whole text only."""
    store = core.store
    whole_number(batch_size, "batch_size", BATCH)
    switch(messages, "messages")
    groups = _groups(core, group_id)
    loaders: dict[str, Callable[[str, list[str]], Sequence[Fact | Entity | Episode]]] = {
        RecordKind.ENTITY: lambda g, ids: store.entities(g, ids=ids),
        RecordKind.EPISODE: lambda g, ids: store.episodes(g, ids=ids),
        RecordKind.FACT: lambda g, ids: store.facts(FactQuery(g, ids=tuple(ids))),
    }
    done = 0
    with progress_bar(progress, "embedding", total=None) as advance:
        for group in groups:
            for kind, load in loaders.items():
                while ids := store.missing_embeddings(group, kind, batch_size):
                    records = load(group, ids)
                    if not records:  # listed but unreadable: never loop forever
                        break
                    done += core.embed_records(records)
                    advance(len(records))
            told = _told_in_sentences(store, group) if messages else []
            for start in range(0, len(told), batch_size):
                done += core.embed_records(told[start : start + batch_size])
                advance(len(told[start : start + batch_size]))
    return done + refresh_summaries(core, group_id, progress=progress, batch_size=batch_size)


def _told_in_sentences(store: Store, group_id: str) -> list[Episode]:
    """The messages of a group search may offer whose vector stands for their sentences."""
    return [e for e in store.episodes(group_id) if e.in_recall and passages(e)]


def refresh_summaries(
    core: Core, group_id: str | None = None, *, progress: bool = False, batch_size: int = 256
) -> int:
    """Rewrite the summaries of the entities whose facts changed since their summary was made, or
    that have none (after a load with ``summaries=False``, or in a file an older version wrote),
    ``batch_size`` entities a transaction; returns how many summaries it wrote or ended.
    ``group_id=None`` covers every group."""
    if core.summarizer is None:
        return 0
    done = 0
    with progress_bar(progress, "summarizing", total=None) as advance:
        for group in _groups(core, group_id):
            after = ""
            while ids := core.store.stale_summaries(group, at=core.now(), after=after, limit=batch_size):
                after = ids[-1]
                writers: list[FactWriter] = []
                core.write(group, partial(_summarize, ids=ids, writers=writers), embed=False, summaries=True)
                done += writers[-1].summaries_written
                advance(len(ids))
    return done


def _summarize(w: FactWriter, ids: Sequence[str], writers: list[FactWriter]) -> None:
    """Mark ``ids`` as changed, so the write's summary refresh covers them (``writers``: to read
    how many it wrote once it has)."""
    w.touched.update(dict.fromkeys(ids))
    writers.append(w)


def _groups(core: Core, group_id: str | None) -> list[str]:
    return [check_group(group_id)] if group_id is not None else core.store.groups()


def forget(core: Core, group_id: str) -> int:
    """Delete one group entirely; returns the number of records removed."""
    return core.store.forget(check_group(group_id))
