"""Yes/no questions about the state of a thing, asked by its verb: "Has order 5512 shipped?", "Was
order 5610 delivered?", "Is ticket 88 resolved?". They are answered from the thing's status
(a ``STATUS`` relation, or one whose name ends so: ``ORDER_STATUS``), on a ladder of the states
such things pass through: a status at or past the asked step says yes ("delivered" has shipped), one
before it says no, not yet ("processing"), one off the ladder (cancelled, refunded) says no, and a
status the ladder does not hold ("on hold") says "I don't know", naming it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The steps of a thing's life, in order; words on one step mean the same.
LADDERS: tuple[tuple[frozenset[str], ...], ...] = (
    (  # an order or a parcel
        frozenset({"ordered", "placed", "pending", "received", "confirmed"}),
        frozenset({"processing", "processed", "being processed", "preparing", "in preparation"}),
        frozenset({"packed", "ready", "ready to ship", "awaiting shipment"}),
        frozenset({"shipped", "dispatched", "sent", "in transit", "on its way", "on the way",
                   "out for delivery"}),
        frozenset({"delivered", "arrived", "collected", "picked up", "received by you"}),
    ),
    (  # a ticket, a request or a task
        frozenset({"open", "opened", "new", "submitted", "reported"}),
        frozenset({"in progress", "assigned", "investigating", "in review", "under review"}),
        frozenset({"resolved", "fixed", "done", "completed", "approved"}),
        frozenset({"closed"}),
    ),
)
# Ends off every ladder: a thing in one of these never reaches a later step.
STOPPED = frozenset({"cancelled", "canceled", "refunded", "returned", "lost", "rejected", "declined",
                     "failed", "withdrawn", "void"})
# A question's verb -> the status word it asks about.
_ASKED = {
    "ship": "shipped", "shipped": "shipped", "dispatched": "dispatched", "sent": "sent",
    "deliver": "delivered", "delivered": "delivered", "arrive": "arrived", "arrived": "arrived",
    "process": "processed", "processed": "processed", "processing": "processing",
    "cancelled": "cancelled", "canceled": "cancelled", "refunded": "refunded", "returned": "returned",
    "resolved": "resolved", "closed": "closed", "opened": "opened", "approved": "approved",
    "rejected": "rejected", "paid": "paid", "completed": "completed", "fixed": "fixed",
}
_VERB = re.compile(r"\b(" + "|".join(sorted(_ASKED, key=len, reverse=True)) + r")\b", re.IGNORECASE)


def asked_status(question: str) -> str | None:
    """The status a yes/no question asks about by its verb ("Has it shipped?" -> "shipped")."""
    m = _VERB.search(question)
    return _ASKED[m.group(1).lower()] if m else None


def is_status(relation: str) -> bool:
    return relation == "STATUS" or relation.endswith("_STATUS")


@dataclass(frozen=True)
class Step:
    ladder: int
    rank: int


def _step(value: str) -> Step | None:
    v = " ".join(value.casefold().split()).strip(" .!")
    for i, ladder in enumerate(LADDERS):
        for rank, words in enumerate(ladder):
            if v in words:
                return Step(i, rank)
    return None


def verdict(asked: str, value: str) -> str | None:
    """"yes" when a thing whose status is ``value`` has reached ``asked``, "no" when it has not (or
    stopped), None when the ladder cannot tell (an unknown status, or two ladders)."""
    v = " ".join(value.casefold().split()).strip(" .!")
    if v == asked:
        return "yes"
    if asked in STOPPED:
        return "no" if _step(v) is not None or v in STOPPED else None
    if v in STOPPED:
        return "no"
    want, have = _step(asked), _step(v)
    if want is None or have is None or want.ladder != have.ladder:
        return None
    return "yes" if have.rank >= want.rank else "no"


def not_yet(asked: str, value: str) -> bool:
    """Whether a thing whose status is ``value`` may still reach ``asked`` (a later step of its ladder)."""
    want, have = _step(asked), _step(value)
    return want is not None and have is not None and want.ladder == have.ladder and want.rank > have.rank
