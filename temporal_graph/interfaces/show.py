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
    """What ``tgraph show`` prints about one entity, as the memory stood at ``known_at``."""

    entity: str
    known_at: datetime
    then: bool = False  # known_at was asked for: the view is of that moment, not of now
    summary: EntitySummary | None
    summary_stored: bool = True  # False: made from the facts believed at known_at (none was stored then)
    insights: list[Insight]  # about the entity, believed at ``known_at``, weightiest first
    facts: list[Fact]  # true at ``known_at`` as believed then, with the entity as subject or object
    timeline: list[Fact]  # every fact with the entity as subject, in valid-time order, as believed then


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
    summary = tg.summary(entity.name, known_at=moment, group_id=group_id, derive=True)
    return EntityView(
        entity=entity.name,
        known_at=moment,
        then=known_at is not None,
        summary=summary,
        summary_stored=summary is None or bool(summary.id),
        insights=tg.insights(entity.name, known_at=moment, group_id=group_id),
        facts=facts,
        timeline=tg.history(entity.name, known_at=moment, group_id=group_id),
    )


def render_entity(view: EntityView, console: Console, *, limit: int | None = None) -> None:
    """The entity's summary, insights, and tables of its facts true at ``known_at`` and its timeline,
    as believed then (each of at most ``limit`` rows, saying how many more there are)."""
    when = day(view.known_at)
    console.print(view.entity, style="bold", highlight=False)
    if view.summary is None:
        console.print(f"summary: none (no facts as known at {when})" if view.then
                      else "summary: none (no current facts)", highlight=False)
    else:
        if not view.summary_stored:
            made = f"made from its facts as known at {when}; the memory had stored none by then"
        elif view.summary.method == "llm":
            made = f"by the LLM, believed since {day(view.summary.created_at)}"
        else:
            made = f"from its facts, believed since {day(view.summary.created_at)}"
        console.print(f"summary ({made}):", highlight=False)
        console.print(f"  {view.summary.text}", highlight=False, soft_wrap=True)
    if view.insights:
        console.print("insights (derived from its facts):", highlight=False)
        for insight in view.insights:
            console.print(f"  - {insight_line(insight)}", highlight=False, soft_wrap=True)
    fact_table(console, view.facts, f"true at {when}, as believed then" if view.then else "current facts",
               limit=limit)
    fact_table(console, view.timeline, f"timeline (as believed at {when})" if view.then
               else "timeline (as currently believed)", limit=limit)
