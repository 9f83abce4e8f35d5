"""Producers of insights, behind one interface: offline rules, or the LLM.

A producer gets the evidence (current fact versions and recent episodes) and returns drafts that
cite it. The LLM producer makes one call per batch of subjects through the memory's
:class:`~temporal_graph.llm.LLMClient` (its cache, strict validation and local-server handling),
listing each fact and episode under a short label; an answer that cites a label it was not given
is refused as a whole, and counted.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from pydantic import BaseModel, ConfigDict, Field

from temporal_graph.core.model import Episode, Fact, Importance, InsightProducer
from temporal_graph.core.rules import claimant
from temporal_graph.core.time import iso

from .draft import InsightDraft
from .patterns import offline_drafts

if TYPE_CHECKING:
    from temporal_graph.llm import LLMClient

log = logging.getLogger(__name__)
REFLECTION_PURPOSE = "reflect"
SUBJECTS_PER_CALL = 4  # subjects whose facts go in one LLM call
FACTS_PER_SUBJECT = 40  # at most this many facts of a subject in a call, newest first
EPISODES_PER_CALL = 20


@dataclass(frozen=True)
class Evidence:
    """What a producer may cite: current fact versions and recent episodes, at ``now``."""

    facts: Sequence[Fact]
    episodes: Sequence[Episode]
    now: datetime


class Reflector(Protocol):
    """Turns evidence into insight drafts; ``producer`` names it on the insights it makes."""

    producer: InsightProducer

    def drafts(self, evidence: Evidence) -> list[InsightDraft]: ...


class OfflineReflector:
    """The deterministic rules of :mod:`patterns`."""

    producer: InsightProducer = "offline"

    def drafts(self, evidence: Evidence) -> list[InsightDraft]:
        return offline_drafts(evidence.facts, evidence.now)


class LLMInsight(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=400)
    subjects: list[str] = Field(min_length=1, description="names of the people or things it is about")
    evidence: list[str] = Field(min_length=1, description="labels of the facts and messages it rests on")
    importance: Importance = 5


class ReflectionAnswer(BaseModel):
    """What the LLM returns for one batch of subjects."""

    model_config = ConfigDict(extra="forbid")

    insights: list[LLMInsight] = Field(default_factory=list, max_length=20)


RULES = (
    "You reflect on a memory of facts about people. From the numbered facts and messages given, "
    "write a few higher-level insights: patterns, habits, changes over time, what someone cares "
    "about. Every insight must cite, in 'evidence', the labels (F1, E2, ...) of the facts and "
    "messages it rests on, and only labels given here. Name its subjects as written in the facts. "
    "importance: 1 (trivia) to 10 (life-changing). Write nothing you cannot support. Answer JSON: "
    '{"insights": [{"text": ..., "subjects": [...], "evidence": [...], "importance": 5}]}'
)


def _fact_line(label: str, f: Fact) -> str:
    since = f" from {iso(f.valid_at)}" if f.valid_at else ""
    until = f" until {iso(f.invalid_at)}" if f.invalid_at else ""
    return f"{label}: {f.text} ({f.subject} {f.relation} {f.object}{since}{until})"


@dataclass
class LLMReflector:
    """Insights written by the LLM, one call per batch of SUBJECTS_PER_CALL subjects."""

    llm: LLMClient
    producer: InsightProducer = "llm"
    answers: int = 0  # answers received
    refused: int = 0  # answers refused for citing evidence they were not given
    failed: int = 0  # calls that failed (logged; the other batches go on)
    refusals: list[str] = field(default_factory=list)  # the unknown labels, for the logs

    def drafts(self, evidence: Evidence) -> list[InsightDraft]:
        by_subject: dict[str, list[Fact]] = defaultdict(list)
        for f in evidence.facts:
            if claimant(f) is None:
                by_subject[f.subject_id].append(f)
        subjects = sorted(by_subject)
        out: list[InsightDraft] = []
        for i in range(0, len(subjects), SUBJECTS_PER_CALL):
            batch = [f for s in subjects[i : i + SUBJECTS_PER_CALL] for f in _newest(by_subject[s])]
            out += self._batch(batch, list(evidence.episodes)[-EPISODES_PER_CALL:])
        return out

    def _batch(self, facts: Sequence[Fact], episodes: Sequence[Episode]) -> list[InsightDraft]:
        labels: dict[str, Fact | Episode] = {f"F{n + 1}": f for n, f in enumerate(facts)}
        labels.update({f"E{n + 1}": e for n, e in enumerate(episodes)})
        lines = [_fact_line(label, f) for label, f in labels.items() if isinstance(f, Fact)]
        lines += [f"{label}: [{iso(e.reference_time)}] {e.speaker or 'someone'}: {e.content[:500]}"
                  for label, e in labels.items() if isinstance(e, Episode)]
        messages = [{"role": "system", "content": RULES},
                    {"role": "user", "content": "Facts and messages:\n" + "\n".join(lines)}]
        try:
            answer = self.llm.structured(messages, ReflectionAnswer, purpose=REFLECTION_PURPOSE)
        except Exception as exc:  # one failed batch must not lose the others
            self.failed += 1
            log.warning("reflect: an LLM call failed (%s); its subjects get no new insights", exc)
            return []
        self.answers += 1
        unknown = sorted({c for item in answer.insights for c in item.evidence if c not in labels})
        if unknown:
            self.refused += 1
            self.refusals.append(", ".join(unknown))
            log.warning("reflect: refused an LLM answer citing evidence it was not given: %s",
                        ", ".join(unknown))
            return []
        names = {f.subject.casefold(): (f.subject_id, f.subject) for f in facts}
        names.update({f.object.casefold(): (f.object_id, f.object) for f in facts})
        return [d for item in answer.insights if (d := _draft(item, labels, names)) is not None]


def _newest(facts: list[Fact]) -> list[Fact]:
    return sorted(facts, key=lambda f: f.created_at, reverse=True)[:FACTS_PER_SUBJECT]


def _draft(
    item: LLMInsight, labels: dict[str, Fact | Episode], names: dict[str, tuple[str, str]]
) -> InsightDraft | None:
    cited = [labels[c] for c in dict.fromkeys(item.evidence)]
    who = [names[n.casefold()] for n in item.subjects if n.casefold() in names]
    if not who:  # about no one the evidence names: the subjects come from the facts it cites
        who = [(f.subject_id, f.subject) for f in cited if isinstance(f, Fact)][:1]
    if not who:
        return None
    who = list(dict.fromkeys(who))
    facts = [f for f in cited if isinstance(f, Fact)]
    starts = [f.valid_at for f in facts if f.valid_at is not None]
    ends = [f.invalid_at for f in facts]
    return InsightDraft(
        text=item.text.strip(), subject_ids=tuple(i for i, _ in who), subjects=tuple(n for _, n in who),
        derived_from=tuple(c.id for c in cited), importance=item.importance,
        valid_at=min(starts) if starts else None,
        invalid_at=None if not ends or None in ends else max(e for e in ends if e is not None),
        pattern=f"llm {' '.join(sorted(c.id for c in cited))}",
    )
