"""The claims policy: which statements a read shows, and how a claim is labelled.

A *claim* is what a speaker said about someone else (``Fact.claimed_by``, under ``trust="speaker"``);
an *own* fact is the memory's belief about the subject (the subject's own words, ``add_fact``).
Every read (``now``, ``as_of``, ``search``, ``context``, ``ask``) takes ``claims``:

- ``"all"`` (the default): the subject's own facts first; a claim only where no own fact of the
  same subject and relation covers that time (for a relation of many values: no own fact of the
  same value), so a 'one' relation never shows two values at one time;
- ``"own"``: the subject's own facts only;
- ``"only"``: the claims only, every one of them.

A claim shown is always labelled: ``claimed_by`` (who said it) and ``contradicted`` (the subject's
own record holds another value of a 'one' relation during the claim, or the subject retracted that
value: "I never worked there"). The decisions are pure
functions of rows (:func:`covered`, :func:`contradicted`, :func:`select`); :func:`apply_claims`
reads the own rows they need, one read per (subject, relation) that has a claim.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from datetime import datetime
from functools import partial

from .bundle import Core
from .errors import InvalidInput
from .intervals import covers, overlaps, valid_interval
from .model import CLAIMS_MODES, Fact
from .ontology import Cardinality
from .rules import claimant
from .stores.protocol import AssertionQuery, FactQuery

Key = tuple[str, str]  # (subject_id, relation)


def check_claims(mode: object) -> str:
    if mode not in CLAIMS_MODES:
        raise InvalidInput(f"claims: {mode!r} is not one of {', '.join(CLAIMS_MODES)}"[:200])
    return mode  # type: ignore[return-value]


def key_of(f: Fact) -> Key:
    return (f.subject_id, f.relation)


def _same_time(own: Fact, claim: Fact, at: datetime | None) -> bool:
    if at is not None:
        return covers(valid_interval(own), at)
    return overlaps(valid_interval(own), valid_interval(claim))


def covered(claim: Fact, own: Iterable[Fact], cardinality: Cardinality, at: datetime | None = None) -> bool:
    """An own fact of the claim's subject and relation holds at ``at`` (None: at any time of the
    claim); for a relation of many values, only an own fact of the same value covers it."""
    return any(
        key_of(f) == key_of(claim) and _same_time(f, claim, at)
        and (cardinality == "one" or f.object_id == claim.object_id)
        for f in own
    )


def contradicted(claim: Fact, own: Iterable[Fact], cardinality: Cardinality,
                 denied: Collection[str] = ()) -> bool:
    """The subject's own record says otherwise: the subject retracted the claimed value (``denied``:
    object ids), or another value of a 'one' relation holds while the claim does."""
    if claim.object_id in denied:
        return True
    return cardinality == "one" and any(
        key_of(f) == key_of(claim) and f.object_id != claim.object_id
        and overlaps(valid_interval(f), valid_interval(claim))
        for f in own
    )


def labelled(claim: Fact, own: Iterable[Fact], cardinality: Cardinality,
             denied: Collection[str] = ()) -> Fact:
    said_otherwise = contradicted(claim, own, cardinality, denied)
    return claim.model_copy(update={"attributes": {**claim.attributes, "contradicted": said_otherwise}})


def select(
    facts: Sequence[Fact], mode: str, own_of: Callable[[Key], list[Fact]],
    cardinality_of: Callable[[str], Cardinality], at: datetime | None = None,
    denied_of: Callable[[Key], Collection[str]] = lambda key: (),
) -> list[Fact]:
    """``facts`` as ``mode`` shows them, in their order; claims labelled. ``own_of``: the own rows
    of one (subject, relation) at any valid time; ``denied_of``: the values the subject retracted;
    ``at``: the moment the read asks about, if one."""
    check_claims(mode)
    if mode == "own":
        return [f for f in facts if f.claimed_by is None]
    out = []
    for f in facts:
        if f.claimed_by is None:
            if mode == "all":
                out.append(f)
            continue
        own = own_of(key_of(f))
        cardinality = cardinality_of(f.relation)
        if mode == "only" or not covered(f, own, cardinality, at):
            out.append(labelled(f, own, cardinality, denied_of(key_of(f))))
    return out


def apply_claims(
    core: Core, group_id: str, facts: Sequence[Fact], mode: str, *, at: datetime | None = None,
    known_at: datetime | None = None,
) -> list[Fact]:
    """:func:`select` with the own rows read from the store (as believed at ``known_at``): those
    of every claimed (subject, relation) and its retractions, read at once (a server store
    overlaps them)."""
    check_claims(mode)
    keys = [] if mode == "own" else list(dict.fromkeys(key_of(f) for f in facts if f.claimed_by is not None))

    def own_rows(key: Key) -> list[Fact]:
        rows = core.store.facts(FactQuery(group_id, subject_id=key[0], relation=key[1], known_at=known_at))
        return [r for r in rows if r.claimed_by is None]

    def denials(key: Key) -> set[str]:
        # Retractions are statements, not rows: read by key from the assertions.
        said = core.store.key_assertions(AssertionQuery(group_id, key[0], key[1], kinds=("retract",)))
        return {a.object_id for a in said if claimant(a) is None and a.object_id is not None
                and (known_at is None or a.created_at <= known_at)}

    reads: list[Callable[[], object]] = [*(partial(own_rows, k) for k in keys),
                                         *(partial(denials, k) for k in keys)]
    answers = core.store.at_once(reads)
    own = dict(zip(keys, answers[: len(keys)], strict=True))
    denied = dict(zip(keys, answers[len(keys) :], strict=True))
    return select(facts, mode, own.__getitem__, core.ontology.cardinality, at, denied.__getitem__)
