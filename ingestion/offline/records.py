"""Values told of someone or something, read from one clause, with whose they are settled: attributes
(``attributes``), statuses (``statuses``), addresses (``addresses``), durations (``durations``),
settings (``settings``), and revisions that name no attribute (``revisions``).

The readers give what the words say ("my sister's", "the order", "it", "Noor"); a :class:`Resolver`
(the extractor's view of the message and its last turns) says who or what that is: the speaker, a
relative (named before, else "<speaker>'s sister" with the kin relation), the coded thing named before,
the value a revision revises. What cannot be settled gives nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from temporal_graph.core.ontology import is_attribute
from temporal_graph.core.time import TimeMatch

from .addresses import find_addresses
from .attributes import (
    ORG_WORD,
    REPORTED,
    Attribute,
    colon_attribute,
    find_attributes,
    names_attribute,
    value_ok,
)
from .drafts import Draft
from .durations import find_durations
from .revisions import find_revision, fits, kind_of, nearness
from .settings import find_settings
from .statuses import find_statuses

_POSSESSIVE_PRONOUN = {"his": "he", "her": "she", "their": "they"}
# How many values told before a revision may revise (the latest of the message and its last turns).
_ANTECEDENTS = 6


class Resolver(Protocol):
    """Who and what the words of one clause mean, from the message and its last turns."""

    speaker: str | None

    def person(self, raw: str | None) -> tuple[str | None, list[Draft]]:
        """"I" / "we" / None: the speaker; he / she / they: the one person meant; "my sister": the
        sister (with the kin link when unnamed); a name: that name."""
        ...

    def relative(self, base: str, kin: str) -> tuple[str | None, list[Draft]]:
        """``base``'s relative of this kin word, and the link to make when the chat did not name them."""
        ...

    def thing(self, noun: str | None) -> str | None:
        """The coded thing "the <noun>" (or "it", ``noun`` None) means: the last one named before."""
        ...

    def own_thing(self, owner: str, noun: str) -> str:
        """"my order" -> the speaker's coded order named before, else "<owner>'s order"."""
        ...

    def antecedents(self) -> Sequence[Draft]:
        """Attribute values told before this clause, latest first (the message's, then the turns')."""
        ...


def _nearest(span: tuple[int, int], times: Sequence[TimeMatch], anchors: Sequence[int]) -> TimeMatch | None:
    """The time phrase inside the match, else the first after it, else the last before it."""
    start, end = span
    inside = [t for t, a in zip(times, anchors, strict=True) if start <= a <= end]
    after = [t for t, a in zip(times, anchors, strict=True) if a > end]
    before = [t for t, a in zip(times, anchors, strict=True) if a < start]
    chosen = inside or after or before[-1:]
    return chosen[0] if chosen else None


def attribute_drafts(attribute: Attribute, resolver: Resolver) -> list[Draft]:
    """The facts of one attribute statement: its subject settled, a favourite also liked."""
    if attribute.past and attribute.time is None:
        return []  # "the price was $499": when, and is it still? Unknown
    links: list[Draft] = []
    if attribute.pronoun:
        base, links = resolver.person(_POSSESSIVE_PRONOUN.get(attribute.pronoun, attribute.pronoun))
    elif attribute.subject is None:
        base = resolver.speaker
    else:
        base = attribute.subject
    if base is None:
        return []
    subject, subject_type = base, ("Person" if attribute.subject is None or attribute.pronoun
                                   else attribute.subject_type)
    if attribute.kin:
        found, kin_links = resolver.relative(base, attribute.kin)
        if found is None:
            return []
        subject, subject_type, links = found, "Person", [*links, *kin_links]
    drafts = [Draft(subject, attribute.relation, attribute.value, "Value", time=attribute.time,
                    subject_type=subject_type, future=attribute.future)]
    if attribute.relation.startswith("FAVORITE_") and subject_type == "Person":
        drafts.append(Draft(subject, "LIKES", attribute.value, "Thing"))  # a favourite is liked
    return [*drafts, *links]


def read_sentence(sentence: str, times: list[TimeMatch], resolver: Resolver) -> list[Draft]:
    """A whole sentence in shorthand: "Order 7730 status: cancelled", "Rent: 720 euros", "PR 512 -
    merged", "ticket 88: closed", "nightly build: 38 min"."""
    if ":" not in sentence and "->" not in sentence and " - " not in sentence and "→" not in sentence:
        return []
    words = sentence  # the shorthand has no report before it to look for
    drafts = [d for attribute, _ in colon_attribute(sentence, times)
              for d in attribute_drafts(attribute, resolver)]
    if drafts:
        return drafts
    for status in find_statuses(sentence, terse=True):
        if status.coded:
            drafts.append(Draft(status.coded, "STATUS", status.status, "Value", subject_type="Entity",
                                time=_nearest(status.span, times, [t.start for t in times])))
    if drafts or ":" not in words:
        return drafts
    for duration in find_durations(sentence, colon=True):
        drafts.extend(_duration_drafts(duration.thing, duration.value, duration.mine, None, resolver))
    return drafts


def _duration_drafts(thing: str, value: str, mine: bool, time: TimeMatch | None,
                     resolver: Resolver) -> list[Draft]:
    if mine:
        if resolver.speaker is None:
            return []
        relation = re.sub(r"[^A-Z0-9]+", "_", thing.upper()).strip("_") + "_DURATION"
        return [Draft(resolver.speaker, relation, value, "Value", time=time)]
    return [Draft(thing, "DURATION", value, "Value", time=time, subject_type="Entity")]


def read_clause(clause: str, times: list[TimeMatch], text: str, anchors: list[int],
                resolver: Resolver) -> list[Draft]:
    """The values one clause tells (``clause`` as said, ``text`` the same without its time phrases, at
    ``anchors``); none when it tells none."""
    words_before = clause
    drafts: list[Draft] = []
    for attribute, (start, _) in find_attributes(clause, times):
        if REPORTED.search(words_before[:start]):
            continue  # "she told me Order 5512 status is shipped": someone else's word
        drafts.extend(attribute_drafts(attribute, resolver))
    if drafts:
        return drafts
    for status in find_statuses(text):
        if REPORTED.search(text[:status.span[0]]):
            continue
        subject = _status_subject(status, resolver)
        if subject is not None:
            drafts.append(Draft(subject, "STATUS", status.status, "Value", subject_type="Entity",
                                time=_nearest(status.span, times, anchors)))
    if drafts:
        return drafts
    for address in find_addresses(text):
        if REPORTED.search(text[:address.span[0]]):
            continue
        time = _nearest(address.span, times, anchors)
        links: list[Draft] = []
        if address.owner_is_speaker or address.subject is None:
            subject = resolver.speaker
            subject_type = "Person"
        else:
            subject, links = resolver.person(address.subject)
            organisation = ORG_WORD.search(address.subject) or address.relation == "HQ"
            subject_type = ("Organization" if organisation
                            else "Person" if address.relation == "ADDRESS" else "Entity")
        if subject is not None:
            ahead = bool(re.search(r"\b(?:moving|relocating|will)\b", text[address.span[0]:address.span[1]]))
            drafts.extend([Draft(subject, address.relation, address.value, "Value", time=time,
                                 subject_type=subject_type, future=ahead), *links])
    if drafts:
        return drafts
    for duration in find_durations(text):
        drafts.extend(_duration_drafts(duration.thing, duration.value, duration.mine,
                                       _nearest(duration.span, times, anchors), resolver))
    if drafts:
        return drafts
    for setting in find_settings(text):
        subject, links = resolver.person(setting.subject)
        if subject is not None:
            drafts.extend([Draft(subject, setting.setting, setting.value, "Value",
                                 time=_nearest(setting.span, times, anchors)), *links])
    if drafts or names_attribute(text.lower()):
        return drafts  # a clause naming its attribute revises nothing else, even when it gave no value
    return _revision(text, times, anchors, resolver)


def _status_subject(status, resolver: Resolver) -> str | None:  # type: ignore[no-untyped-def]
    if status.coded:
        return status.coded
    if status.it:
        return resolver.thing(None)
    if status.owner:
        owner = status.owner
        if owner.lower() in ("my", "our"):
            return resolver.own_thing(resolver.speaker, status.noun) if resolver.speaker else None
        if owner.lower() in _POSSESSIVE_PRONOUN:
            person, _ = resolver.person(_POSSESSIVE_PRONOUN[owner.lower()])
            return f"{person}'s {status.noun}" if person else None
        return resolver.own_thing(owner, status.noun)
    return resolver.thing(status.noun)


def _revision(text: str, times: list[TimeMatch], anchors: list[int], resolver: Resolver) -> list[Draft]:
    """A new value of the attribute told last whose value is of the same kind."""
    revision = find_revision(text)
    if revision is None or REPORTED.search(text[:revision.span[0]]):
        return []
    pronouns = ("I", "We", "They", "He", "She")
    named = revision.who and revision.who[:1].isupper() and revision.who not in pronouns
    who, _ = resolver.person(revision.who) if named else (None, [])
    fitting: list[tuple[Draft, float]] = []
    for before in resolver.antecedents()[:_ANTECEDENTS]:
        if not is_attribute(before.relation) or before.kind != "state":
            continue
        kind = kind_of(before.relation, before.object)
        setting_set = kind == "setting" and revision.changed_to  # "changed it to dark"
        if kind is None or (revision.kind != "any" and revision.kind != kind) or (
                revision.kind == "any" and kind == "setting" and not setting_set):
            continue
        if who is not None and who != before.subject:
            continue
        if (not fits(kind, revision.value, before.object, before.relation)
                or not value_ok(before.relation, revision.value)):
            continue
        distance = nearness(revision.value, before.object) if kind == "amount" else None
        if distance is not None and distance > 5:
            continue  # "960" revises no council tax of 140 (a build cut from 40 to 12 minutes is 3.3)
        fitting.append((before, distance or 1.0))
    if not fitting:
        return []
    # the nearest in size among the values told last (the latest first among equals)
    before = min(fitting, key=lambda pair: pair[1])[0] if len(fitting) > 1 else fitting[0][0]
    time = _nearest((revision.value_start, revision.span[1]), times, anchors)
    return [Draft(before.subject, before.relation, revision.value, "Value", time=time,
                  subject_type=before.subject_type)]
