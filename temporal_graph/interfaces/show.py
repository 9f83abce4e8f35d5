"""``tgraph show ENTITY``: one entity at a glance — its summary, insights, current facts, timeline.

:func:`entity_view` gathers what is shown (also the ``--json`` output); :func:`render_entity`
prints it for a person.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel
from rich.console import Console

from ..client import TemporalGraph
from ..core import DEFAULT_GROUP
from ..core.errors import no_entity
from ..core.model import EntitySummary, Fact, Insight
from ..core.time import TimeLike
from .render import day, fact_table, insight_line


class EntityView(BaseModel):
    """What ``tgraph show`` prints about one entity."""

    entity: str
    known_at: datetime
    summary: EntitySummary | None
    insights: list[Insight]  # about the entity, believed at ``known_at``, weightiest first
    facts: list[Fact]  # true at ``known_at`` as believed then, with the entity as subject or object
    timeline: list[Fact]  # every fact with the entity as subject, in valid-time order, as believed now


def entity_view(
    tg: TemporalGraph, name: str, *, known_at: TimeLike | None = None, group_id: str = DEFAULT_GROUP
) -> EntityView:
    entity = tg.find_entity(name, group_id)
    if entity is None:
        raise no_entity(name, group_id)
    moment = tg.moment(known_at, name="known_at")
    facts = tg.as_of(moment, known_at=moment, subject=entity.name, group_id=group_id)
    seen = {f.id for f in facts}
    facts += [f for f in tg.as_of(moment, known_at=moment, object=entity.name, group_id=group_id)
              if f.id not in seen]
    return EntityView(
        entity=entity.name,
        known_at=moment,
        summary=tg.summary(entity.name, known_at=moment, group_id=group_id),
        insights=tg.insights(entity.name, known_at=moment, group_id=group_id),
        facts=facts,
        timeline=tg.history(entity.name, group_id=group_id),
    )


def render_entity(view: EntityView, console: Console, *, limit: int | None = None) -> None:
    """The entity's summary, insights, and tables of its current facts and timeline (each of at
    most ``limit`` rows, saying how many more there are)."""
    console.print(view.entity, style="bold", highlight=False)
    if view.summary is None:
        console.print("summary: none (no current facts)", highlight=False)
    else:
        made = "by the LLM" if view.summary.method == "llm" else "from its facts"
        console.print(f"summary ({made}, believed since {day(view.summary.created_at)}):", highlight=False)
        console.print(f"  {view.summary.text}", highlight=False, soft_wrap=True)
    if view.insights:
        console.print("insights (derived from its facts):", highlight=False)
        for insight in view.insights:
            console.print(f"  - {insight_line(insight)}", highlight=False, soft_wrap=True)
    fact_table(console, view.facts, "current facts", limit=limit)
    fact_table(console, view.timeline, "timeline (as currently believed)", limit=limit)
