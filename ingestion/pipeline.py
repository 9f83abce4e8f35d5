"""Episode → extraction → entity resolution → time resolution → contradiction rules → writes.

Extraction (the slow part, possibly an LLM call) runs outside any transaction; everything after it
for one episode is applied in one transaction through the same :class:`FactWriter` that
``add_fact`` uses, so there is one implementation of the contradiction rules.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any

from temporal_graph.core import Core
from temporal_graph.core.embeddings import item_texts
from temporal_graph.core.errors import InvalidInput, LLMOutputError
from temporal_graph.core.extraction import LLM_FAILED, ExtractedFact, Extraction, Extractor, NotingExtractor
from temporal_graph.core.identity import (
    EntityKeysReader,
    KeysReadOnce,
    entity_named,
    keys_of,
    lookalike_speakers,
    read_keys,
    speaker_entity,
    speaker_keys,
)
from temporal_graph.core.limits import MAX_SOURCE_CHARS, checked_text, lone_surrogate
from temporal_graph.core.model import Entity, Episode, Fact, IngestResult
from temporal_graph.core.names import check_group, clean_name, fact_words, normalize_relation
from temporal_graph.core.rewording import says_again
from temporal_graph.core.rules import claimant
from temporal_graph.core.sentences import statement_sentence
from temporal_graph.core.stores.protocol import Store
from temporal_graph.core.time import Prefer, TimeLike, TimeSpan, resolve_time
from temporal_graph.core.writer import FactWriter, episode_id_for, speakerless_episode_id

from .denials import deny
from .implied import Told, after_facts, before_facts, may_imply
from .masking import mask_text, without_masked_names
from .plans import (
    PLAN_RELATIONS,
    end_plans,
    fulfil_plans,
    plan_text,
    planned_for,
    plans_read_by,
    start_plan,
)
from .resolution import EntityResolver
from .restated import restated

log = logging.getLogger(__name__)
CONTEXT_EPISODES = 4


def make_episode(
    core: Core,
    content: str,
    *,
    reference_time: TimeLike,
    speaker: str | None,
    group_id: str,
    source: str,
    source_id: str | None,
    created_at: datetime,
) -> tuple[Episode, dict[str, int]]:
    """The episode of one message as the memory keeps it, and what was masked in it by kind: the
    text checked (text, size, valid Unicode), NFC, then masked by ``core.mask`` before anything
    stores, embeds or sends it (the size limit applies to the text as given)."""
    check_group(group_id)
    content = checked_content(content, core.max_message_chars)
    ref = core.time(reference_time, "reference_time")
    for what, value in (("speaker", speaker), ("source_id", source_id)):
        if value is not None and not isinstance(value, str):
            raise InvalidInput(f"{what}: expected text, got {type(value).__name__} {value!r}"[:200])
    checked_text(source, "source", MAX_SOURCE_CHARS)
    if speaker is not None:
        speaker = clean_name(speaker, "speaker") if speaker.strip() else None
    masked = mask_text(content, core.mask)
    episode = Episode(
        id=episode_id_for(group_id, source_id, masked.text, ref, speaker),
        group_id=group_id,
        content=masked.text,
        reference_time=ref,
        created_at=created_at,
        speaker=speaker,
        source=source,
        source_id=source_id,
    )
    return episode, masked.counts


def held_episodes(store: Store, group_id: str, episodes: Sequence[Episode]) -> dict[str, Episode]:
    """The stored message each of ``episodes`` already is, by the new one's id: a message of its id,
    or one a memory stored before a speaker counted in a message's id, told by the same speaker
    (so a memory of an earlier version does not take a re-imported message for a new one)."""
    if not episodes:
        return {}
    earlier: dict[str, list[Episode]] = {}  # two speakers' copies share the earlier id
    for e in episodes:
        if (old := speakerless_episode_id(e)) is not None:
            earlier.setdefault(old, []).append(e)
    wanted = {e.id for e in episodes}
    held: dict[str, Episode] = {}
    for stored in store.episodes(group_id, ids=[*wanted, *earlier]):
        if stored.id in wanted:
            held[stored.id] = stored
        for e in earlier.get(stored.id, ()):
            if e.speaker == stored.speaker:
                held.setdefault(e.id, stored)
    return held


def checked_content(content: object, limit: int) -> str:
    """Message text as stored: NFC, within the size limit (refused, never cut), valid Unicode."""
    if not isinstance(content, str):
        raise InvalidInput(f"content: expected a string, got {type(content).__name__}")
    if not content.strip():
        raise InvalidInput(f"content: {content!r} is empty")
    if len(content) > limit:
        raise InvalidInput(
            f"content: a message of {len(content):,} characters is over the limit of {limit:,} "
            "(max_message_chars); split it into smaller messages or raise the limit"
        )
    if (surrogate := lone_surrogate(content)) is not None:
        raise InvalidInput(f"content: contains the lone surrogate {surrogate!r}, which is not valid Unicode")
    return unicodedata.normalize("NFC", content)


def extract(
    extractor: Extractor, episode: Episode, context: Sequence[Episode] = ()
) -> tuple[Extraction, list[str]]:
    """Run the extractor; an answer that does not validate keeps the episode with no facts and says
    why, and so does an extractor that fell back to another (its notes). An unreachable endpoint is
    not caught: the import stops and a re-run resumes there."""
    try:
        if isinstance(extractor, NotingExtractor):  # it says what went wrong (an LLM answer it could not use)
            extraction, notes = extractor.extract_with_notes(episode, context)
        else:
            extraction, notes = extractor.extract(episode, context), []
    except LLMOutputError as exc:
        log.warning("extraction failed for episode %s: %s", episode.id, exc)
        return Extraction(), [f"{LLM_FAILED} ({exc}); the message is kept without facts"]
    kept, dropped = without_masked_names(extraction)
    return kept, [*notes, *dropped]


def lookalike_warnings(reader: EntityKeysReader, group_id: str, speaker: str | None) -> list[str]:
    """A note for each id of the group the speaker id looks like: they are kept two people."""
    if speaker is None:
        return []
    return [f"speakers {a!r} and {b!r} look alike but are two people (alias_speaker declares them one)"
            for a, b in lookalike_speakers(reader, group_id, [speaker])]


def speakers_read(core: Core, group_id: str, speaker: str | None) -> KeysReadOnce:
    """A reader holding the keys :func:`lookalike_warnings` looks up for a message of ``speaker``,
    read in one batch (a write that does not embed needs no more before it opens)."""
    keys = KeysReadOnce(core.store)
    keys.read_ahead(group_id, speaker_keys([] if speaker is None else [speaker]))
    return keys


def names_and_speakers_read(core: Core, group_id: str, extraction: Extraction,
                            speaker: str | None) -> KeysReadOnce:
    """A reader holding the keys :func:`lookalike_warnings` and :func:`new_names` look up for one
    message, read in one batch."""
    keys = KeysReadOnce(core.store)
    speakers = [] if speaker is None else [speaker]
    keys.read_ahead(group_id, [*keys_of(_names(extraction)), *speaker_keys(speakers)])
    return keys


def _names(*extractions: Extraction) -> list[str]:
    names = {n for x in extractions for f in x.facts for n in (f.subject, f.object, f.replaces) if n}
    return sorted(n for n in names if n.strip())


def new_names(
    reader: EntityKeysReader, group_id: str, extractions: Sequence[Extraction],
    speakers: Iterable[str | None] = (),
) -> list[str]:
    """Names in these extractions that no entity of the group has yet (those need embedding): a
    speaker id of ``speakers`` is new without an entity of exactly that id, even beside a lookalike."""
    names = _names(*extractions)
    own = {s for s in speakers if s}
    held = read_keys(reader, group_id, names)  # one read for all

    def known(name: str) -> bool:
        if name in own:
            return speaker_entity(held, group_id, name) is not None
        return entity_named(held, group_id, name) is not None

    return [n for n in names if n.strip() and not known(n)]


def expected_texts(episodes: Sequence[Episode], extractions: Sequence[Extraction]) -> Iterator[str]:
    """What writing these episodes will embed besides new names (the resolver has those): the
    episodes (their texts and sentences) and their facts' texts, encoded before the write's
    transaction opens."""
    yield from (t for e in episodes for t in item_texts(e))
    for x in extractions:
        for f in x.facts:
            if f.kind not in ("ending", "denial") and f.object:
                yield f.text or fact_words(f.subject, normalize_relation(f.relation), f.object)


def apply_episode(
    core: Core,
    w: FactWriter,
    episode: Episode,
    extraction: Extraction,
    resolver: EntityResolver,
    warnings: Sequence[str] = (),
    *,
    keys: Sequence[str] = (),
    supersedes: Sequence[Episode] = (),
) -> IngestResult:
    """Write one episode and its facts with the writer of an open transaction; then place it on
    the timelines of its ``keys`` and make it replace ``supersedes`` (:func:`link_episode`)."""
    # One round trip for what the write reads first, on a store behind a network.
    names = [n for f in extraction.facts for n in (f.subject, f.object)] + [episode.speaker or ""]
    speaker = episode.speaker or ""
    subjects = [(s, f) for f in extraction.facts for s in dict.fromkeys((f.subject, speaker)) if s]
    timelines = [(s, f.relation) for s, f in subjects if not f.object]
    timelines += [(s, plan) for s, f in subjects for plan in plans_read_by(f.relation)]  # plans it may fulfil
    w.read_ahead(names=[n for n in names if n], keys=timelines,
                 pairs=[(s, f.relation, f.object) for s, f in subjects if f.object], episodes=[episode.id])
    if w.has_episode(episode.id):
        return IngestResult(episode=episode, skipped=True)
    episode = episode.model_copy(update={"created_at": w.now})
    w.episode(episode)
    result = _Collector()
    notes = list(warnings)
    created_before = len(w.entities_created)
    matched_before = len(w.entities_matched)
    told = [t for t in (_told(core, w, episode, f, resolver) for f in extraction.facts if may_imply(f))
            if t is not None]
    implied = before_facts(core, w, episode, told, resolver)  # what its endings say held until then
    result.added += implied.added
    result.ended += implied.ended
    for fact in extraction.facts:
        try:
            _apply_fact(core, w, episode, fact, resolver, result)
        except (InvalidInput, OverflowError) as exc:  # one bad fact never loses the episode or its others
            notes.append(f"skipped {fact.subject} {fact.relation} {fact.object}: {exc}")
    implied = after_facts(core, w, episode, told)  # what its statuses and deaths say of partners and pets
    result.added += implied.added
    result.ended += implied.ended
    superseded = link_episode(w, episode, keys, supersedes, result)
    return IngestResult(
        episode=episode,
        added=result.added,
        merged=result.merged,
        ended=result.ended,
        retracted=result.retracted,
        entities_created=w.entities_created[created_before:],
        entities_matched=w.entities_matched[matched_before:],
        warnings=notes,
        superseded=superseded,
    )


def _restated_mark(w: FactWriter, episode: Episode, key: str) -> str | None:
    """The content mark of the message holding ``key`` where ``episode`` lands, when ``episode``
    gives its values again in other words ("Globex payment terms: net 30" -> "Reminder: Globex is
    still on net 30"): then it confirms that message instead of replacing it."""
    holder = w.key_holder(key, episode.reference_time)
    if holder is None:
        return None
    told = w.episode_record(holder.episode_ids[-1]) if holder.episode_ids else None
    if told is None or told.content == episode.content or not says_again(told.content, episode.content):
        return None
    return holder.object_id


def link_episode(
    w: FactWriter, episode: Episode, keys: Sequence[str], supersedes: Sequence[Episode], out: _Collector
) -> list[str]:
    """Supersession the caller stated (:mod:`temporal_graph.core.message_links`), after the
    message's own facts are written: it takes its place on each key's timeline, superseding the
    message before it there (unless it says the same), and replaces ``supersedes``. What the
    replaced messages alone told ends where they were replaced; a message arriving late about the
    past ends where the next message of its key begins. Returns the ids of the messages it replaced."""
    replaced: list[str] = []
    for key in keys:
        placed = w.key_message(episode, key, mark=_restated_mark(w, episode, key))
        mine = placed.segment
        if mine is None:
            continue
        opens = mine.first_start.episode_id == episode.id  # not a confirmation of the stretch before
        if placed.before is not None and opens and mine.valid_at is not None:
            replaced += placed.before.episode_ids
            _replace_told_only_by(w, placed.before.episode_ids, at=mine.valid_at, by=episode.id, out=out)
        if placed.after is not None and mine.invalid_at is not None:
            _replace_told_only_by(w, mine.episode_ids, at=mine.invalid_at,
                                  by=placed.after.first_start.episode_id or episode.id, out=out)
    for old in supersedes:
        w.supersede_message(old, episode)
        replaced.append(old.id)
    if supersedes:
        at = max(episode.reference_time, *(old.reference_time for old in supersedes))
        _replace_told_only_by(w, [old.id for old in supersedes], at=at, by=episode.id, out=out)
    return list(dict.fromkeys(replaced))


def _replace_told_only_by(w: FactWriter, episode_ids: Sequence[str], *, at: datetime, by: str,
                          out: _Collector) -> None:
    """What only ``episode_ids`` told stops at ``at``: ended when it held then, retracted when it
    was to begin later."""
    out.ended += w.end_told_only_by(episode_ids, at=at, by=by)
    out.retracted += w.retract_later_told_only_by(episode_ids, at=at, by=by)


class _Collector:
    def __init__(self) -> None:
        self.added: list[Fact] = []
        self.merged: list[Fact] = []
        self.ended: list[Fact] = []
        self.retracted: list[Fact] = []


def _told(core: Core, w: FactWriter, episode: Episode, fact: ExtractedFact, resolver: EntityResolver
          ) -> Told | None:
    """A fact as the memory reads it (relation, subject, voice, time), for what it implies; None when
    it cannot be read (its own write then says why)."""
    relation = normalize_relation(fact.relation)
    try:
        span = _span(fact, relation, episode.reference_time)
        subject = resolver.resolve(w, fact.subject, fact.subject_type or "Entity", speaker=episode.speaker)
    except (InvalidInput, OverflowError):
        return None
    speaker = w.speaker_entity(episode.speaker) if episode.speaker else None
    return Told(fact, relation, subject, claimant_of(core.trust, episode, subject, speaker),
                span.start if span else episode.reference_time)


def _span(fact: ExtractedFact, relation: str, ref: datetime) -> TimeSpan | None:
    # What is still to come is dated forward: "in January" said in December is next January.
    ahead = fact.future or (relation in PLAN_RELATIONS and fact.kind == "state")
    prefer: Prefer = "future" if ahead else "past"
    return resolve_time(fact.time_text, ref, prefer=prefer) if fact.time_text else None


def _apply_fact(
    core: Core, w: FactWriter, episode: Episode, fact: ExtractedFact, resolver: EntityResolver,
    out: _Collector,
) -> None:
    relation = normalize_relation(fact.relation)
    ref = episode.reference_time
    ahead = fact.future or (relation in PLAN_RELATIONS and fact.kind == "state")
    prefer: Prefer = "future" if ahead else "past"
    span = _span(fact, relation, ref)
    end_span = resolve_time(fact.end_time_text, ref, prefer=prefer) if fact.end_time_text else None
    speaker = episode.speaker
    subject = resolver.resolve(w, fact.subject, fact.subject_type or "Entity", speaker=speaker)
    object_type = fact.object_type or core.ontology.object_type(relation)
    claimed_by = claimant_of(core.trust, episode, subject, w.speaker_entity(speaker) if speaker else None)

    if fact.kind == "ending" and relation in PLAN_RELATIONS:  # called off: the plans it names end
        called_off = end_plans(w, subject, fact.object, at=span.start if span else ref, text=fact.text,
                               episode_id=episode.id, claimed_by=claimed_by)
        out.ended += called_off.ended
        out.retracted += called_off.retracted
        return
    if fact.kind == "denial":
        denied = deny(w, subject, relation, fact.object, at=ref, text=fact.text, episode_id=episode.id,
                      claimed_by=claimed_by)
        out.ended += denied.ended
        out.retracted += denied.retracted
        return
    if fact.kind == "ending":
        obj = resolver.resolve(w, fact.object, object_type, speaker=speaker) if fact.object else None
        at = span.start if span else ref
        out.ended += w.end(subject, relation, obj, at=at, text=fact.text, episode_id=episode.id,
                           claimed_by=claimed_by).ended
        return

    if relation == "LIVES_IN" and fact.kind == "state" and _is_organization(w, fact.object):
        # the memory knows the name as an organisation's: a move there is a new employer, never a home
        relation, object_type = "WORKS_AT", "Organization"
        fact = fact.model_copy(update={"relation": relation,
                                       "text": statement_sentence(fact.subject, relation, fact.object)})
    until: datetime | None = end_span.end if end_span else None
    attributes: dict[str, Any] = {}
    text = fact.text
    if core.ontology.is_event(relation):
        # An event covers the period its phrase names; told without a time, it happened before now.
        start = span.start if span else None
        if span is not None and until is None:
            until = span.end
        elif span is None:
            until = ref
    elif relation in PLAN_RELATIONS:  # a plan holds from when it is told; its target is an attribute
        attributes, text = planned_for(span), plan_text(text, span)
        start, until = ref, None
    else:
        # A state told in the present tense holds from the message's time: we know no earlier
        # start, and a fixed start keeps the final belief independent of arrival order.
        start = span.start if span else ref
    if fact.kind == "correction":
        start = _correct(w, subject, relation, fact, resolver, object_type, episode, out, claimed_by) or start
    if fact.kind == "state" and core.ontology.cardinality(relation) == "one":
        # "about 40 minutes" after "40 minutes": the held value said again confirms it
        # (the values holding when it starts, read through the key's index: not its whole history)
        at = ref if start is None else start
        held = restated(fact.object, ((r.object, r.valid_at, r.invalid_at)
                                      for r in w.rows_holding(subject, relation, at)), at)
        if held is not None:
            fact = fact.model_copy(update={"object": held,
                                           "text": statement_sentence(fact.subject, relation, held)})
            text = fact.text
    obj = resolver.resolve(w, fact.object, object_type, speaker=speaker)
    if start is not None and until is not None and until <= start:
        until = None if not core.ontology.is_event(relation) else start + timedelta(days=1)
    outcome = w.start(
        subject, relation, obj, valid_at=start, invalid_at=until, default_start=ref, text=text,
        episode_id=episode.id, confidence=fact.confidence, claimed_by=claimed_by,
        importance=fact.importance or core.ontology.importance(relation), attributes=attributes,
    )
    out.added += outcome.added
    out.merged += outcome.merged
    out.ended += outcome.ended
    plan = start_plan(relation, obj.name) if fact.future and start is not None and start > ref else None
    if fact.kind == "state" and plan is not None:  # "I start at Monzo next week": a plan until then
        plan_entity = resolver.resolve(w, plan, "Activity", speaker=speaker)
        planned = w.start(subject, "PLANS", plan_entity, valid_at=ref, invalid_at=start, default_start=ref,
                          text=plan_text(f"{subject.name} plans to {plan}.", span),
                          episode_id=episode.id, confidence=fact.confidence, claimed_by=claimed_by,
                          importance=core.ontology.importance("PLANS"), attributes=planned_for(span))
        out.added += planned.added
        out.merged += planned.merged
    if fact.kind == "state" and relation not in PLAN_RELATIONS:  # the plan it fulfils ends as it starts
        fulfilled = fulfil_plans(w, subject, relation, obj, at=start or ref, episode_id=episode.id,
                                 claimed_by=claimed_by)
        out.ended += fulfilled.ended
        out.retracted += fulfilled.retracted


def _is_organization(w: FactWriter, name: str) -> bool:
    known = w.existing(name) if name.strip() else None
    return known is not None and known.type == "Organization"


def claimant_of(trust: str, episode: Episode, subject: Entity, speaker: Entity | None) -> str | None:
    """Speaker authority: what a speaker says about someone else is their claim, attributed to them
    (``trust="speaker"``, the default); the subject's own words (``subject`` is the entity of
    exactly the speaker id, ``speaker``), unattributed messages and ``trust="all"`` speak for the
    memory. A lookalike id ("Bob." for "Bob") is someone else: its words about Bob are a claim."""
    if trust == "all" or episode.speaker is None:
        return None
    if speaker is not None and subject.id == speaker.id:
        return None
    return episode.speaker


def _correct(
    w: FactWriter, subject: Entity, relation: str, fact: ExtractedFact, resolver: EntityResolver,
    object_type: str | None, episode: Episode, out: _Collector, claimed_by: str | None,
) -> datetime | None:
    """Retract the wrong object; the right one takes over the start the wrong one had. A claimant
    corrects only their own claims."""
    current = [r for r in w.current_rows(subject, relation) if claimant(r) == claimed_by]
    if fact.replaces:
        wrong = resolver.resolve(w, fact.replaces, object_type, speaker=episode.speaker)
    else:  # "sorry, I meant X": the object that held at the reference time was the wrong one
        holding = [r for r in current if r.valid_at_time(episode.reference_time)]
        if len(holding) != 1:
            return None
        wrong = w.entities_by_id([holding[0].object_id])[0]
    starts = [r.valid_at for r in current if r.object_id == wrong.id]
    retracted = w.retract(subject, relation, wrong, episode_id=episode.id, claimed_by=claimed_by)
    out.retracted += retracted.retracted
    known = [s for s in starts if s is not None]
    return min(known) if known else None
