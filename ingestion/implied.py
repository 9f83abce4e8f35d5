"""What a message's facts imply beyond themselves, against what the memory already holds (issue 51's
endings and life events):

* An ending of something the memory never held ("I stopped playing football", "moved from Tokyo to
  Osaka", "we broke up" after "How's Chiara?") says it held until then: a stretch from an unknown start
  to the ending, so "Does Kwame still play football?" is "no, since November" and "Has Mei ever lived in
  Tokyo?" is "yes". Only where the message tells a change (:data:`CHANGE`: "Bob does not live in
  Paris" says nothing of before) and where it overlaps nothing: a relation of one object at a time
  gets it only when nothing else was ever held there.
* A pastime given up ends the same pastime under its other relations and its kinds ("I gave up
  climbing" ends a hobby of bouldering): :data:`KINDS`.
* A relationship status told without the partner's name ("we got married", "we're engaged") names the
  partner the memory holds then (engaged to, else dating); "I'm single now" ends whoever was dated.
* A death ("Biscuit passed away on Tuesday") ends the speaker's having that pet.

Each is written with the message as its source, in the same voice as the fact it comes from (the
speaker's own, or their claim about someone else).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from temporal_graph.core import Core
from temporal_graph.core.extraction import ExtractedFact
from temporal_graph.core.model import Entity, Episode, Fact
from temporal_graph.core.names import name_key
from temporal_graph.core.rules import claimant
from temporal_graph.core.sentences import statement_sentence
from temporal_graph.core.writer import FactWriter

from .plans import PLAN_RELATIONS
from .resolution import EntityResolver

PASTIMES = ("LIKES", "HAS_HOBBY", "PLAYS")
# Pastimes and their kinds: giving up the first gives up each of the others.
KINDS: dict[str, tuple[str, ...]] = {
    "climbing": ("bouldering", "rock climbing", "indoor climbing", "sport climbing", "ice climbing"),
    "running": ("jogging", "trail running", "marathon running", "cross-country running"),
    "football": ("soccer", "five-a-side", "five-a-side football", "futsal"),
    "cycling": ("biking", "mountain biking", "road cycling", "road biking", "spinning"),
    "swimming": ("open water swimming", "wild swimming"),
    "dancing": ("salsa", "ballet", "tango", "swing dancing", "ballroom dancing", "hip hop dancing"),
    "skiing": ("cross-country skiing", "backcountry skiing"),
    "yoga": ("hot yoga", "vinyasa", "ashtanga", "bikram yoga"),
    "martial arts": ("karate", "judo", "taekwondo", "jiu-jitsu", "kickboxing", "aikido", "kung fu"),
    "music": ("piano", "guitar", "violin", "drums", "cello", "bass", "singing"),
}
_PARTNERS = ("ENGAGED_TO", "DATING")
# Words that tell a change: an ending says what held before it only with one of them ("I stopped playing
# rugby", "moved from Tokyo", "not any more"); "Bob does not live in Paris" says nothing of before.
CHANGE = re.compile(r"\b(?i:stopped|stop|quit|quitting|gave\s+up|giving\s+up|left|leaving|moved|moving|"
                    r"relocated|no\s+longer|anymore|any\s+more|broke\s+up|split|separated|divorced|dumped|"
                    r"passed\s+away|died|sold|finished|graduated|retired|resigned|dropped\s+out|fired|laid\s+off|"
                    r"let\s+go|recovered|used\s+to|ended)\b")
_DEATHS = frozenset({"passed away", "died", "was put down", "was put to sleep"})


@dataclass(frozen=True)
class Told:
    """One extracted fact as the memory reads it: its relation, subject entity, voice and time."""

    fact: ExtractedFact
    relation: str
    subject: Entity
    claimed_by: str | None
    at: datetime


@dataclass
class Implied:
    added: list[Fact]
    ended: list[Fact]


def may_imply(fact: ExtractedFact) -> bool:
    """Whether a fact may imply anything here (most imply nothing, and are not read twice)."""
    relation = fact.relation.upper()
    return ((fact.kind == "ending" and bool(fact.object))
            or (fact.kind == "state" and relation == "RELATIONSHIP_STATUS")
            or (fact.kind == "state" and relation == "DID" and fact.object.lower() in _DEATHS))


def _mine(row: Fact, claimed_by: str | None) -> bool:
    return claimant(row) == claimed_by


def _holds(row: Fact, at: datetime, *, just_before: bool = False) -> bool:
    """Whether ``row`` holds at ``at`` (``just_before``: holds until at least ``at``, begun before it)."""
    if just_before:
        return ((row.valid_at is None or row.valid_at < at)
                and (row.invalid_at is None or row.invalid_at >= at))
    return (row.valid_at is None or row.valid_at <= at) and (row.invalid_at is None or row.invalid_at > at)


def _named(w: FactWriter, row: Fact) -> Entity:
    return w.entities_by_id([row.object_id])[0]


def _kinds(name: str) -> set[str]:
    key = name_key(name)
    return {key, *(name_key(k) for k in KINDS.get(key, ()))}


def before_facts(core: Core, w: FactWriter, episode: Episode, told: Sequence[Told], resolver: EntityResolver
                 ) -> Implied:
    """What the endings of a message imply, written before its facts (so that a relation of one object
    at a time is seen as it was before the message): a pastime given up ends its kinds; an ending of
    what was never held gives the stretch it ends."""
    out = Implied([], [])
    changed = CHANGE.search(episode.content[:5000]) is not None
    for t in told:
        f = t.fact
        if (f.kind != "ending" or not f.object or t.relation in PLAN_RELATIONS
                or core.ontology.is_event(t.relation)):
            continue
        since: datetime | None = None
        if t.relation in PASTIMES:
            others, held = _given_up(w, t)
            for row in others:
                out.ended += w.end(t.subject, row.relation, _named(w, row), at=t.at, text=f.text,
                                   episode_id=episode.id, claimed_by=t.claimed_by).ended
            if held:
                continue  # it held itself: the ending says the rest
            # "I gave up climbing" after "I started bouldering": climbing held since bouldering began
            starts = [r.valid_at for r in others if name_key(_named(w, r).name) != name_key(f.object)]
            since = min(starts) if starts and all(starts) else None  # type: ignore[type-var]
        if not changed:
            continue  # "Bob does not live in Paris": no word of a change, nothing said of before
        rows = [r for r in w.current_rows(t.subject, t.relation) if _mine(r, t.claimed_by)]
        obj = resolver.resolve(w, f.object, f.object_type or core.ontology.object_type(t.relation),
                               speaker=episode.speaker)
        if any(r.object_id == obj.id for r in rows):
            continue  # held, or held once: the ending itself says the rest
        if core.ontology.cardinality(t.relation) == "one" and rows:
            continue  # "since an unknown time" would cross what the memory holds there
        outcome = w.start(t.subject, t.relation, obj, valid_at=since, invalid_at=t.at,
                          default_start=episode.reference_time,
                          text=statement_sentence(t.subject.name, t.relation, obj.name, "ending"),
                          episode_id=episode.id, confidence=f.confidence, claimed_by=t.claimed_by,
                          importance=core.ontology.importance(t.relation))
        out.added += outcome.added
    return out


def _given_up(w: FactWriter, t: Told) -> tuple[list[Fact], bool]:
    """The subject's pastimes (any of :data:`PASTIMES`) of the one given up or of its kinds that hold
    then, but the very one the ending names (it ends that itself); and whether the one given up held
    itself, under any of them."""
    wanted = _kinds(t.fact.object)
    itself = name_key(t.fact.object)
    others, held = [], False
    for relation in PASTIMES:
        for row in w.current_rows(t.subject, relation):
            if not (_mine(row, t.claimed_by) and _holds(row, t.at)):
                continue
            name = name_key(_named(w, row).name)
            held = held or name == itself
            if name in wanted and not (relation == t.relation and name == itself):
                others.append(row)
    return others, held


def after_facts(core: Core, w: FactWriter, episode: Episode, told: Sequence[Told]) -> Implied:
    """What a message's statuses and deaths imply, once its facts are written."""
    out = Implied([], [])
    named = {(name_key(t.subject.name), t.relation) for t in told if t.fact.kind == "state"}
    for t in told:
        f = t.fact
        if f.kind != "state":
            continue
        if t.relation == "RELATIONSHIP_STATUS" and f.object in ("married", "engaged"):
            relation = "MARRIED_TO" if f.object == "married" else "ENGAGED_TO"
            if (name_key(t.subject.name), relation) not in named:
                _with_partner(core, w, episode, t, relation, out)
        elif t.relation == "RELATIONSHIP_STATUS" and f.object == "single":
            for relation in _PARTNERS:
                for row in w.current_rows(t.subject, relation):
                    if _mine(row, t.claimed_by) and _holds(row, t.at):
                        out.ended += w.end(t.subject, relation, _named(w, row), at=t.at, text=f.text,
                                           episode_id=episode.id, claimed_by=t.claimed_by).ended
        elif t.relation == "DID" and f.object.lower() in _DEATHS and episode.speaker:
            owner = w.speaker_entity(episode.speaker)
            if owner is None:
                continue
            for row in w.current_rows(owner, "HAS_PET"):  # the speaker's own pet: their own word
                if row.object_id == t.subject.id and claimant(row) is None and _holds(row, t.at):
                    out.ended += w.end(owner, "HAS_PET", t.subject, at=t.at, text=f.text,
                                       episode_id=episode.id).ended
    return out


def _with_partner(core: Core, w: FactWriter, episode: Episode, t: Told, relation: str, out: Implied) -> None:
    """"We got married" with no name: the one partner the subject had just before (engaged to, then
    dating), from the status's time."""
    wanted = ("ENGAGED_TO", "DATING") if relation == "MARRIED_TO" else ("DATING",)
    for held in wanted:
        rows = [r for r in w.current_rows(t.subject, held) if _mine(r, t.claimed_by)
                and _holds(r, t.at, just_before=True)]
        partners = {r.object_id for r in rows}
        if len(partners) > 1:
            return  # two at once: no guess
        if rows:
            partner = _named(w, rows[0])
            outcome = w.start(t.subject, relation, partner, valid_at=t.at, invalid_at=None,
                              default_start=episode.reference_time,
                              text=statement_sentence(t.subject.name, relation, partner.name),
                              episode_id=episode.id, confidence=t.fact.confidence, claimed_by=t.claimed_by,
                              importance=core.ontology.importance(relation))
            out.added += outcome.added
            return
