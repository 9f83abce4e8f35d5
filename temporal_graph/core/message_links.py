"""Supersession the caller states: message keys and explicit supersedes, as pure functions.

A message can go out of date in three ways, and all three are assertions, so they live in
transaction time like every statement, and retracting the message that made one undoes it:

- a **fact** it told ends or is replaced (the contradiction rules of :mod:`rules`);
- a **key** (``add_episode(..., key="Globex/payment_terms")``): the messages of one key in a group
  form a timeline with one message at a time, exactly as a relation of cardinality one does. Each
  keyed message asserts a ``start`` on the key's timeline at its reference time, its *object* a
  mark of its content, so the same content told again merges (a confirmation) and other content
  supersedes from its reference time; a late message about the past lands in the past;
- an explicit **supersede** (``tg.supersede(old, content, ...)``): the new message asserts an
  ``end`` on each old message's own topic at its reference time.

Two pseudo-relations hold them, never written as facts (a relation users write is normalized to
UPPER_SNAKE, so neither lower-case name can be spoken): :data:`KEY_RELATION` on a key's subject,
:data:`MESSAGE_RELATION` on a message's topic. ``retract_entity`` also withdraws messages through
their topics.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from .errors import InvalidInput
from .model import Assertion
from .names import group_problem
from .rules import Segment, derive_timeline, live_assertions, withdrawal_target
from .stores.protocol import Store

KEY_RELATION = "message_key"
MESSAGE_RELATION = "message_topic"
LINK_RELATIONS = frozenset({KEY_RELATION, MESSAGE_RELATION})
MAX_KEYS = 32  # keys one message may carry


def check_keys(key: object = None, keys: object = None) -> tuple[str, ...]:
    """The keys of one message: ``key`` and ``keys`` together, each checked as a group id is (any
    NFC text of 1-128 characters without control or invisible characters, kept exactly), in order,
    without repeats. Raises :class:`InvalidInput` naming a bad one."""
    given: list[object] = [] if key is None else [key]
    if keys is not None:
        if isinstance(keys, str) or not isinstance(keys, Sequence):
            raise InvalidInput(f"keys: expected a list of strings, got {type(keys).__name__} {keys!r}"[:200])
        given += list(keys)
    if len(given) > MAX_KEYS:
        raise InvalidInput(f"keys: a message may carry at most {MAX_KEYS} keys, got {len(given)}")
    for value in given:
        problem = group_problem(value)
        if problem:
            raise InvalidInput(f"key: {value!r} {problem}"[:300])
    return tuple(dict.fromkeys(str(v) for v in given))


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]


def key_subject(group_id: str, key: str) -> str:
    """The subject id a key's timeline is kept under (never an entity's: those are plain hex)."""
    return "key:" + _digest(group_id, key)


def message_topic(group_id: str, episode_id: str) -> str:
    """The subject id the statements about one message (superseded, withdrawn) are kept under."""
    return "msg:" + _digest(group_id, episode_id)


def content_mark(text: str) -> str:
    """What makes two keyed messages "the same content": their text, compared in NFC, case-folded,
    with runs of spaces as one and trailing punctuation dropped."""
    folded = " ".join(unicodedata.normalize("NFC", text).casefold().split()).rstrip(" .!?")
    return "content:" + _digest(folded)


def believed(assertions: Iterable[Assertion], known_at: datetime | None) -> list[Assertion]:
    """The assertions recorded by ``known_at`` (all of them when None)."""
    return [a for a in assertions if known_at is None or a.created_at <= known_at]


@dataclass(frozen=True)
class KeyPlace:
    """Where one message stands on a key's timeline."""

    at: datetime | None  # its reference time, as the key's timeline holds it
    segment: Segment | None  # the stretch it belongs to (None: it lost a same-instant tie)
    before: Segment | None  # the stretch ending where its own begins (what it superseded)
    after: Segment | None  # the stretch beginning where its own ends (what supersedes it)
    timeline: tuple[Segment, ...] = ()

    def holder(self, moment: datetime) -> Segment | None:
        """The stretch of the key holding at ``moment``."""
        return next((s for s in reversed(self.timeline) if s.valid_at is None or s.valid_at <= moment), None)


def key_timeline(assertions: Iterable[Assertion]) -> list[Segment]:
    """A key's timeline: one message's content at a time, as a relation of cardinality one."""
    return sorted(derive_timeline(assertions, "one"), key=lambda s: (s.valid_at is not None, s.valid_at))


def place(episode_id: str, assertions: Sequence[Assertion]) -> KeyPlace | None:
    """Where ``episode_id`` stands on the key's timeline derived from ``assertions``; None when it
    asserted nothing there that is still live (it never had the key, or was withdrawn)."""
    own = [a for a in live_assertions(assertions) if a.episode_id == episode_id and a.kind == "start"]
    if not own:
        return None
    segments = key_timeline(assertions)
    mine = next((s for s in segments if episode_id in s.episode_ids), None)
    if mine is None:  # a later arrival at the same instant took its place
        at = own[0].at
        holder = next((s for s in segments if s.valid_at == at), None)
        return KeyPlace(at, None, None, holder, tuple(segments))
    before = next((s for s in segments if s.invalid_at is not None and s.invalid_at == mine.valid_at), None)
    after = next((s for s in segments if mine.invalid_at is not None and s.valid_at == mine.invalid_at), None)
    return KeyPlace(own[0].at, mine, before, after, tuple(segments))


def key_successors(placed: KeyPlace, valid_time: datetime | None) -> tuple[str, ...]:
    """The messages holding the key at ``valid_time`` in place of the placed one (None: no time,
    nothing did)."""
    if valid_time is None or (placed.at is not None and valid_time < placed.at):
        return ()  # no time asked, or one before it was told
    mine = placed.segment
    if mine is not None and (mine.invalid_at is None or valid_time < mine.invalid_at):
        return ()
    holder = placed.holder(valid_time)
    if holder is not None and holder is not mine:
        return holder.episode_ids  # what holds then, past any stretch in between
    return placed.after.episode_ids if placed.after is not None else ()


@dataclass(frozen=True)
class TopicState:
    """What was said about one message's own topic, as believed at some moment."""

    superseded: tuple[tuple[datetime | None, str], ...] = ()  # (from when, by which message)
    withdrawn_for: tuple[str, ...] = ()  # entities whose retraction withdrew it

    def superseders(self, valid_time: datetime | None) -> tuple[str, ...]:
        if valid_time is None:
            return ()
        return tuple(dict.fromkeys(by for at, by in self.superseded if at is None or at <= valid_time))


def topic_state(assertions: Iterable[Assertion]) -> TopicState:
    """The live supersedes of one message's topic, and the entity withdrawals still in force."""
    told = sorted(assertions, key=lambda a: (a.created_at, a.seq))
    ends = [a for a in live_assertions(told) if a.kind == "end" and a.episode_id is not None]
    # Entity withdrawals of the message: the last word per entity (withdraw or restore) decides.
    last: dict[str | None, str] = {}
    for a in told:
        if a.kind in ("withdraw", "restore") and a.episode_id is None:
            last[withdrawal_target(a)[1]] = a.kind
    return TopicState(
        superseded=tuple((a.at, a.episode_id) for a in ends if a.episode_id is not None),
        withdrawn_for=tuple(e for e, kind in last.items() if kind == "withdraw" and e is not None),
    )


def topic_states(
    store: Store, group_id: str, episode_ids: Iterable[str], known_at: datetime | None
) -> dict[str, TopicState]:
    """What was said of each message's topic as believed at ``known_at`` (None: now), by id; one
    read for all of them."""
    topics = {message_topic(group_id, i): i for i in dict.fromkeys(episode_ids)}
    said: dict[str, list[Assertion]] = {i: [] for i in topics.values()}
    for a in believed(store.assertions_about(group_id, list(topics), MESSAGE_RELATION), known_at):
        said[topics[a.subject_id]].append(a)
    return {i: topic_state(told) for i, told in said.items()}


def withdrawn_messages(
    store: Store, group_id: str, episode_ids: Iterable[str], known_at: datetime | None
) -> set[str]:
    """The messages ``retract_entity`` took out of reads, as believed at ``known_at``."""
    states = topic_states(store, group_id, episode_ids, known_at)
    return {i for i, state in states.items() if state.withdrawn_for}
