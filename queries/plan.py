"""The plan of a question: whom it starts from, the hops and relations asked, the kind of question
and the times (valid time, and transaction time for "as known then"), resolved against the memory
of one group at the question's reference time. Data only: :mod:`queries.planning` makes a plan,
:mod:`queries.answering` runs it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal

from temporal_graph.core.model import DEFAULT_CLAIMS, Entity, QuestionKind, QuestionPlan, TimeKind

from .topics import stem

EPSILON = timedelta(microseconds=1)  # "before 2020" is the instant just before 2020 began


@dataclass
class TimeSpec:
    """The valid time a question asks about.

    ``now``: the reference time (``start``); ``at``: one moment (``start``); ``during``: any fact
    overlapping ``[start, end)``; ``ever``: the whole history; ``before_change`` / ``after_change``:
    just before / after the latest change of ``change_relation``, placed when the plan is run.
    """

    kind: TimeKind
    start: datetime | None = None
    end: datetime | None = None
    text: str = ""  # the phrase, for the answer
    change_relation: str | None = None
    before: bool = False  # "before <date>": the value then, else the last one that ended before it

    @classmethod
    def now(cls, reference: datetime) -> TimeSpec:
        return cls("now", start=reference, text="now")

    @property
    def placed(self) -> bool:
        """On the timeline (now, a moment or a period): rows are read at this time."""
        return self.kind in ("now", "at", "during")

    @property
    def moment(self) -> datetime | None:
        """The instant asked about (``now`` and ``at``), else ``None``."""
        return self.start if self.kind in ("now", "at") else None


@dataclass(frozen=True)
class Hop:
    relations: tuple[str, ...]  # any of these holds the hop, best first
    word: str | None = None  # as asked ("brother"): prefers facts told with that word


@dataclass(kw_only=True)
class Plan:
    """A question resolved against the memory: entities found, relations known, times placed."""

    group_id: str
    reference: datetime  # what "now" means for this question
    subject: Entity | None
    object: Entity | None
    relation_tiers: list[list[str]]
    time: TimeSpec
    kind: QuestionKind = "what"
    hops: list[Hop] = field(default_factory=list)
    known_at: datetime | None = None
    known_text: str = ""
    notes: list[str] = field(default_factory=list)
    unknown_name: str | None = None  # a name asked about that the memory does not know
    unknown_object: str | None = None
    polar: bool = False  # a yes/no question ("Is X still…", "Did X ever…")
    order: Literal["before", "after"] | None = None  # "before/after <object>": the neighbour on the timeline
    asks_plan: bool = False  # about a plan ("Is X planning to move to C?")
    claims: str = DEFAULT_CLAIMS  # which statements may answer (core.claims)
    verdict: Literal["yes", "no"] | None = None  # set by the answer to a yes/no question
    # What the question's words ask about (queries.topics): its topic, neighbours named when it is
    # not known, whether its words are loose ("leave": any fact with the named value answers).
    topic: str | None = None
    related: list[str] = field(default_factory=list)
    loose: bool = False
    broad: bool = False  # asks for everything about its subject ("Tell me about Priya")
    group: bool = False  # asks for everything about the group ("Tell me about people")
    status: str | None = None  # the state a yes/no question asks by its verb ("shipped")
    content: frozenset[str] = frozenset()  # stems of what it asks about, for plans ("wedding")
    asked: str = ""  # the words that ask, for an "I don't know" ("get engaged")
    asker_unknown: str | None = None  # "I" in the question, and who it is cannot be told
    wanted: list[str] = field(default_factory=list)  # the relations the words ask for, held or not
    holders: list[str] = field(default_factory=list)  # named nobody: who holds what it asks (several)
    who_said: bool = False  # "Who said Marta works at the Ritz?": the claimants of a statement

    def may_rest_on(self, relation: str) -> bool:
        """Whether a fact of ``relation`` that links the subject and the named value may answer when
        the asked relations hold none: only when the question's words name no relation strictly."""
        if self.topic is None:  # words that name no relation; none left unexplained by this one
            return not self.content or bool(self.content & {stem(p) for p in relation.split("_")})
        return self.loose or relation in {r.partition("=")[0] for tier in self.relation_tiers for r in tier}

    def described(self) -> QuestionPlan:
        """The plan as the public :class:`QuestionPlan` (what ``tgraph ask --json`` prints)."""
        return QuestionPlan(
            subject=self.subject.name if self.subject else (
                self.unknown_name if self.unknown_name != self.unknown_object else None),
            object=self.object.name if self.object else self.unknown_object,
            hops=[h.relations[0] for h in self.hops],
            hop_words=[h.word or "" for h in self.hops],
            relations=[r for tier in self.relation_tiers for r in tier],
            kind=self.kind,
            time=self.time.kind,
            time_text=self.known_text or self.time.text or None,
            change_relation=self.time.change_relation,
        )
