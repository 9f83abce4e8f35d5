"""Denials: the subject saying a value never held or does not hold ("I never worked at Globex",
"that's not true, I don't live in Paris").

A denial touches only the value it names, and only in the voice it was said in (the subject's own
record, or one claimant's claims); what holds instead is never ended or retracted by it:

* the record never held the value: it is retracted, as ``retract_fact`` does, as of the message.
  Nothing of the record changes, but the retraction stays on file, so a claim of that value by
  someone else is labelled ``contradicted`` (``core.claims``) and a yes/no answer counts it as no
  record ("No ...; Tom claimed it ...; Maya said otherwise");
* the record holds the value at the message's time: it ends there (the speaker says it holds no
  more; what was true before stays on record), as an ending would;
* the record held the value only at other times: nothing changes (it already agrees).

A value the memory has no entity for is left alone: there is nothing to deny yet, and a negation is
no reason to create a name. The decision is :func:`denial_step`, a pure function of the rows.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from temporal_graph.core.model import Entity, Fact
from temporal_graph.core.rules import claimant
from temporal_graph.core.writer import FactWriter, Outcome

from .plans import end_rows

Step = Literal["retract", "end", "none"]


def denial_step(rows: list[Fact], at: datetime) -> Step:
    """What a denial at ``at`` does to a record whose rows of the denied value are ``rows``."""
    if not rows:
        return "retract"
    return "end" if any(r.valid_at_time(at) for r in rows) else "none"


def deny(w: FactWriter, subject: Entity, relation: str, name: str, *, at: datetime, text: str | None,
         episode_id: str | None, claimed_by: str | None) -> Outcome:
    """``subject`` (in ``claimed_by``'s voice) says ``relation name`` does not hold, as of ``at``."""
    obj = w.existing(name)
    if obj is None:
        return Outcome()
    rows = [r for r in w.current_rows(subject, relation)
            if r.object_id == obj.id and claimant(r) == claimed_by]
    step = denial_step(rows, at)
    if step == "retract":
        return w.retract(subject, relation, obj, episode_id=episode_id, claimed_by=claimed_by)
    if step == "end":
        holding = [r for r in rows if r.valid_at_time(at)]
        return end_rows(w, subject, holding, at, episode_id, claimed_by, text)
    return Outcome()
