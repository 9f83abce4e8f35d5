"""Erasure receipts: what a data-protection officer files after an erasure, kept in an erasure log
that outlives what was erased.

Every erasure (``erase_episode``, ``erase_entity``, ``prune``, ``forget``) carries a request id
(the caller's reference, or a generated one) and writes one :class:`ErasureReceipt` into the store's
erasure log, in the same transaction as the deletion: either both happen or neither. A receipt
says who asked (``request_id``), when (``at``, UTC), which group, how many records of each kind went
(``counts``) and a digest of their ids (``digest``) — never what they said, not even a name. Whoever
holds the ids (say, from an export taken before) can check the digest with :func:`erasure_digest`.
``forget`` removes a whole group but not its receipts: the log is not the group's data. The log
names a group by :func:`group_key` (a digest), not by its id, so a forgotten group's name is not left
in the store's files; ``erasures(group_id=...)`` finds the receipts by that key.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from .errors import InvalidInput

# The kinds of record an erasure counts, in the order receipts list them. "episode_texts": messages
# whose text (and vector) went while their id stays, marked erased (retention).
ERASED_KINDS: tuple[str, ...] = ("episodes", "episode_texts", "entities", "assertions", "fact_versions",
                                 "summary_versions", "insight_versions")
# One receipt per transaction: a prune of both history and message texts writes two.
ErasureOperation = Literal["erase_episode", "erase_entity", "prune_history", "prune_episode_texts", "forget"]
MAX_REQUEST_ID_CHARS = 128


class ErasureReceipt(BaseModel):
    """One erasure, as the erasure log keeps it: ``request_id``, ``at`` (UTC), ``group_id``, the
    ``operation``, ``counts`` of the records removed by kind (:data:`ERASED_KINDS`, zeros included)
    and ``digest``: :func:`erasure_digest` of their ids. No content of what was erased."""

    model_config = ConfigDict(frozen=True)

    request_id: str
    at: datetime
    group_id: str
    operation: ErasureOperation
    counts: dict[str, int]
    digest: str

    @property
    def total(self) -> int:
        """Records removed, every kind together."""
        return sum(self.counts.values())


class Forgotten(int):
    """What ``forget`` returns: the number of records removed (an ``int``, as before), with the
    erasure's :class:`ErasureReceipt` as ``receipt``."""

    receipt: ErasureReceipt

    def __new__(cls, removed: int, receipt: ErasureReceipt) -> Forgotten:
        value = super().__new__(cls, removed)
        value.receipt = receipt
        return value

    def __reduce__(self) -> tuple[type[Forgotten], tuple[int, ErasureReceipt]]:
        return (Forgotten, (int(self), self.receipt))


def erasure_digest(erased: Mapping[str, Iterable[str]]) -> str:
    """The hex SHA-256 of the erased ids: one line ``kind:id`` per record (kinds as in
    :data:`ERASED_KINDS`), sorted, joined by newlines. Ids only, so the digest tells nothing of the
    content, yet anyone holding the ids can recompute it."""
    lines = sorted({f"{kind}:{record_id}" for kind, ids in erased.items() for record_id in ids})
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def group_key(group_id: str) -> str:
    """How the erasure log names ``group_id``: the hex SHA-256 of the id, tagged, never the id."""
    return hashlib.sha256(f"temporal-graph erasure log\n{group_id}".encode()).hexdigest()


def checked_request_id(value: object = None) -> str:
    """``value`` checked as a request id (1-128 printable characters, kept as given), or a new one
    (a random UUID) when None."""
    if value is None:
        return str(uuid.uuid4())
    if not isinstance(value, str):
        raise InvalidInput(f"request_id: expected a string, got {type(value).__name__} {value!r}"[:200])
    if not value.strip() or len(value) > MAX_REQUEST_ID_CHARS or not value.isprintable():
        raise InvalidInput(f"request_id: {value[:60]!r} is not 1-{MAX_REQUEST_ID_CHARS} printable "
                           "characters (a reference such as a ticket number)")
    return value


@dataclass(frozen=True)
class ErasureRequest:
    """An erasure about to run: the store that removes the records calls :meth:`receipt` with
    their ids, inside its transaction, and writes the receipt in that same transaction. The last
    receipt made is kept in :attr:`made` (a retried transaction makes it again), for the caller."""

    request_id: str
    at: datetime
    group_id: str
    operation: ErasureOperation
    made: list[ErasureReceipt] = field(default_factory=list, compare=False)

    def receipt(self, erased: Mapping[str, Iterable[str]]) -> ErasureReceipt:
        unknown = set(erased) - set(ERASED_KINDS)
        if unknown:
            raise ValueError(f"not kinds of erased record: {sorted(unknown)}")
        ids = {kind: sorted(set(erased.get(kind, ()))) for kind in ERASED_KINDS}
        made = ErasureReceipt(request_id=self.request_id, at=self.at, group_id=self.group_id,
                              operation=self.operation, counts={k: len(v) for k, v in ids.items()},
                              digest=erasure_digest(ids))
        self.made[:] = [made]
        return made
