"""Which messages an explicit ``supersede`` replaces: ids the caller gives, or the current
messages a query matches (listed first with ``dry_run``, for the caller to confirm)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from temporal_graph.core import Core
from temporal_graph.core.errors import InvalidInput, NotFound
from temporal_graph.core.limits import query_text, whole_number
from temporal_graph.core.message_links import MESSAGE_RELATION, message_topic
from temporal_graph.core.model import Episode, IngestResult
from temporal_graph.core.names import check_group
from temporal_graph.core.rules import live_assertions
from temporal_graph.core.writer import FactWriter

from .pipeline import _Collector, link_episode

SUPERSEDE_MATCHES = 5  # messages a query may name at most, by default
MATCHES = (1, 100)
_EPISODE_ID = re.compile(r"[0-9a-f]{32}")


def superseded_messages(
    core: Core, old: object, group_id: str, find: Callable[[str, str, int], list[Episode]], limit: int
) -> list[Episode]:
    """The messages ``old`` names: an episode id, a list of ids, or (any other text) a query,
    whose best ``limit`` current matches are returned. An unknown or withdrawn id raises."""
    check_group(group_id)
    whole_number(limit, "limit", MATCHES)
    if isinstance(old, str):
        if not (_EPISODE_ID.fullmatch(old) or core.store.episodes(group_id, ids=[old])):
            return find(query_text(old, "old"), group_id, limit)
        ids = [old]
    elif isinstance(old, Sequence) and old and all(isinstance(i, str) for i in old):
        ids = list(dict.fromkeys(old))
    else:
        raise InvalidInput(f"old: expected an episode id, a list of ids or a query, got {old!r}"[:200])
    found = {e.id: e for e in core.store.episodes(group_id, ids=ids)}
    for i in ids:
        if i not in found:
            raise NotFound(f"old: no message {i!r} in group {group_id!r}")
        if not found[i].in_recall:
            raise InvalidInput(f"old: message {i!r} was withdrawn or its text erased; it cannot be "
                               "superseded")
    return [found[i] for i in ids]


def relink(w: FactWriter, result: IngestResult, matched: Sequence[Episode]) -> IngestResult:
    """A message told before that now also replaces ``matched``: only the ones it does not
    replace yet (calling ``supersede`` twice changes nothing the second time)."""
    episode = result.episode
    todo = [old for old in matched if old.id != episode.id and not any(
        a.kind == "end" and a.episode_id == episode.id
        for a in live_assertions(w.link_statements(message_topic(w.group_id, old.id), MESSAGE_RELATION)))]
    out = _Collector()
    replaced = link_episode(w, episode, (), todo, out)
    return result.model_copy(update={"superseded": replaced, "ended": out.ended, "retracted": out.retracted})
