"""Who a name or a speaker id is: the lookups behind entity resolution and speaker authority.

A name (in a message, a fact or a query) finds the entity spelled exactly so first, then the entity
whose name matches case- and space-insensitively. A speaker id is stricter: the speaker is the
entity of exactly that id (NFC), so lookalike ids ("bob", "Ｂｏｂ", "Bob\\u200b", "Bob.", Cyrillic
"Воb" for "Bob") are other people unless an alias declares them one. :func:`lookalike_speakers`
finds such ids, so an import can report them.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Protocol

from .model import Entity
from .names import clean_name, exact_key, name_key

# Cyrillic and Greek letters drawn like Latin ones (a small part of Unicode's confusables list:
# the letters a speaker id can be forged with in common fonts).
_LATIN_LOOKALIKES = str.maketrans(
    "АВЕЅІЈКМНОРСТХУаеѕіјорсхуԁһԛԝ" "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧοιν",
    "ABESIJKMHOPCTXYaesijopcxydhqw" "ABEZHIKMNOPTYXoiv",
)


class EntityKeyReader(Protocol):
    """A store or a write transaction: anything that finds an entity by key."""

    def entity_by_key(self, group_id: str, key: str) -> Entity | None: ...


def entity_named(reader: EntityKeyReader, group_id: str, name: str) -> Entity | None:
    """The entity ``name`` refers to: the one spelled exactly so (a lookalike speaker's own entity
    is found only this way), else the one matching case- and space-insensitively."""
    exact, folded = _spellings(reader, group_id, clean_name(name))
    return exact if exact is not None else folded


class EntityKeysReader(Protocol):
    """A store: finds the entities of many keys at once."""

    def entities_by_keys(self, group_id: str, keys: Sequence[str]) -> dict[str, Entity]: ...


@dataclass(frozen=True)
class HeldKeys:
    """Entities read by key in one batch (:func:`read_keys`), answering the lookups of
    :func:`entity_named` and :func:`speaker_entity` of the names it was read for."""

    found: dict[str, Entity]

    def entity_by_key(self, group_id: str, key: str) -> Entity | None:
        return self.found.get(key)


def read_keys(reader: EntityKeysReader, group_id: str, names: Iterable[str], *,
              also: Iterable[str] = ()) -> HeldKeys:
    """Every key the lookups of ``names`` may read (name key and exact key of each), and the keys
    ``also``, in one read."""
    keys = keys_of(names, also=also)
    return HeldKeys(reader.entities_by_keys(group_id, keys) if keys else {})


def keys_of(names: Iterable[str], *, also: Iterable[str] = ()) -> list[str]:
    """The keys :func:`read_keys` reads for ``names`` and ``also``."""
    displays = [clean_name(name) for name in dict.fromkeys(names)]
    keys = [k for d in displays for k in (name_key(d), exact_key(d))]
    return list(dict.fromkeys([*keys, *(k for k in also if k)]))


class KeysReadOnce:
    """A reader of entities by key that asks ``reader`` for each key once: lookups that each read
    their keys in one batch (a message's lookalike speakers, then its new names) share one read
    when the keys are read ahead (:meth:`read_ahead`)."""

    def __init__(self, reader: EntityKeysReader) -> None:
        self._reader = reader
        self._read: dict[tuple[str, str], Entity | None] = {}

    def read_ahead(self, group_id: str, keys: Iterable[str]) -> None:
        wanted = [k for k in dict.fromkeys(keys) if (group_id, k) not in self._read]
        if wanted:
            found = self._reader.entities_by_keys(group_id, wanted)
            self._read.update(((group_id, k), found.get(k)) for k in wanted)

    def entities_by_keys(self, group_id: str, keys: Sequence[str]) -> dict[str, Entity]:
        self.read_ahead(group_id, keys)
        return {k: e for k in keys if (e := self._read[group_id, k]) is not None}


def entities_named(reader: EntityKeysReader, group_id: str, names: Iterable[str]) -> dict[str, Entity | None]:
    """:func:`entity_named` of each of ``names``, in one read."""
    wanted = list(dict.fromkeys(names))
    held = read_keys(reader, group_id, wanted)
    return {name: entity_named(held, group_id, name) for name in wanted}


def speaker_entity(reader: EntityKeyReader, group_id: str, speaker: str) -> Entity | None:
    """The entity of exactly this speaker id (its name or an alias, such as a declared one), or None."""
    return _spellings(reader, group_id, clean_name(speaker, "speaker"))[0]


def _spellings(reader: EntityKeyReader, group_id: str, display: str) -> tuple[Entity | None, Entity | None]:
    """(the entity with ``display`` as its name or an alias, the entity of its name key). One
    lookup when they are one: every exact key is stored with its name key, so no name key, no exact
    key (and files written before exact keys hold name keys only)."""
    folded = reader.entity_by_key(group_id, name_key(display))
    if folded is None or display in (folded.name, *folded.aliases):
        return folded, folded
    return reader.entity_by_key(group_id, exact_key(display)), folded


def lookalike_key(name: str) -> str:
    """What a name looks like: compatibility forms (width) folded, Latin-looking Cyrillic and Greek
    letters read as Latin, accents, punctuation and invisible characters dropped, then the name key
    (case and spaces). Two ids with one lookalike key look like the same person."""
    text = unicodedata.normalize("NFKD", name).translate(_LATIN_LOOKALIKES)
    kept = "".join(ch if unicodedata.category(ch)[0] in "LN" else " " if ch.isspace() else "" for ch in text)
    return name_key(kept)


def lookalike_speakers(
    reader: EntityKeysReader, group_id: str, speakers: Iterable[str]
) -> list[tuple[str, str]]:
    """Pairs of ids that look alike but are different people in the group, each pair in sorted
    order: two of ``speakers``, or one of them and an entity of the memory. Ids that an alias makes
    one person are no pair. Every key it looks up is read in one batch."""
    ids = sorted(set(speakers))
    keys = speaker_keys(ids)
    held = HeldKeys(reader.entities_by_keys(group_id, keys) if keys else {})
    own = {s: speaker_entity(held, group_id, s) for s in ids}
    pairs: set[tuple[str, str]] = set()
    by_look: dict[str, list[str]] = defaultdict(list)
    for s in ids:
        by_look[lookalike_key(s)].append(s)
    for same in by_look.values():
        pairs.update((a, b) for a, b in combinations(same, 2) if not _same(own[a], own[b]))
    for s in ids:
        look = lookalike_key(s)
        other = held.entity_by_key(group_id, look) if look else None
        if other is not None and other.name != s and not _same(own[s], other):
            a, b = sorted((s, other.name))
            pairs.add((a, b))
    return sorted(pairs)


def speaker_keys(speakers: Iterable[str]) -> list[str]:
    """The keys :func:`lookalike_speakers` reads for ``speakers``: each one's own keys and what it
    looks like."""
    ids = sorted(set(speakers))
    return keys_of([clean_name(s, "speaker") for s in ids], also=[lookalike_key(s) for s in ids])


def _same(a: Entity | None, b: Entity | None) -> bool:
    return a is not None and b is not None and a.id == b.id
