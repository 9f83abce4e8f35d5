"""Probable revisions: a newer message that reads like an older one with other values.

"The nightly build takes 40 minutes" and, months later, "after the cache fix the nightly build
takes 12 minutes": no key, and often no fact the rules read, yet the second is plainly the first
revised (:func:`temporal_graph.core.rewording.revises` says how that is read). Such a pair makes
the older message ``possibly_superseded`` by the newer: a "now" read ranks it below the newer one
and labels it, never hides it on this evidence alone. Only messages a read already found are
compared, each with those told after it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from temporal_graph.core.model import Episode
from temporal_graph.core.rewording import revises

from .standing import MessageStanding


def marked(messages: Sequence[Episode], found: dict[str, MessageStanding]) -> dict[str, MessageStanding]:
    """``found`` with each current or unparsed message that a newer one of ``messages`` revises
    marked ``possibly_superseded`` by the newest such message."""
    out = dict(found)
    newest_first = sorted(messages, key=lambda e: (e.reference_time, e.created_at), reverse=True)
    for old in messages:
        if found[old.id].standing not in ("current", "unparsed"):
            continue
        newer = _revisions(old, newest_first)
        if newer:
            out[old.id] = found[old.id].model_copy(update={
                "standing": "possibly_superseded", "by": "probable", "superseded_by": (newer[0].id,)})
    return out


def _revisions(old: Episode, newest_first: Iterable[Episode]) -> list[Episode]:
    return [e for e in newest_first if e.id != old.id and e.reference_time > old.reference_time
            and e.content != old.content and revises(old.content, e.content)]
