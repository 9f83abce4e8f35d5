"""Errors raised by temporal-graph.

Every error about bad input derives from :class:`InvalidInput` (also a ``ValueError``), and its
message names the offending value, so a caller can show it to a user as is. Every failure of the
storage backend after connecting derives from :class:`StoreError`: each store maps its driver's
exceptions (``sqlite3``, ``neo4j``) once, at its public methods, so no driver exception reaches
a caller. The tree::

    TemporalGraphError
    ├── InvalidInput (ValueError)        bad argument; nothing was written
    │   ├── InvalidName
    │   ├── InvalidTime
    │   ├── InvalidInterval
    │   ├── InvalidGroup
    │   ├── InvalidIdentifier
    │   └── ImportFormatError
    ├── NotFound (LookupError)           no record with that id in the group
    ├── StoreError                       the backend failed or is misconfigured
    │   ├── StoreLocked                  another writer holds the lock; retrying later can work
    │   ├── StoreClosed                  used after close()
    │   ├── ConnectionLost               the server went away or cannot be reached
    │   └── ConstraintViolation          a write broke a uniqueness or integrity rule
    ├── LLMError                         the configured LLM could not be used
    │   ├── LLMUnavailable
    │   └── LLMOutputError
    └── MissingExtra (ImportError)       an optional part is used without its package installed
"""

from __future__ import annotations


class TemporalGraphError(Exception):
    """Base class of every error this package raises on purpose."""


class InvalidInput(TemporalGraphError, ValueError):
    """An argument was rejected; nothing was written."""


class InvalidName(InvalidInput):
    """An entity or relation name is empty or unusable."""


class InvalidTime(InvalidInput):
    """A time value could not be parsed."""


class InvalidInterval(InvalidInput):
    """A valid-time interval is empty or reversed (``invalid_at <= valid_at``)."""


class InvalidGroup(InvalidInput):
    """A ``group_id`` is not 1-128 characters of NFC Unicode text without control characters."""


class InvalidIdentifier(InvalidInput):
    """A label or relationship type is not safe to place in a Cypher statement."""


class NotFound(TemporalGraphError, LookupError):
    """A fact, entity or episode asked for by id does not exist in the group."""


class StoreError(TemporalGraphError):
    """The storage backend failed or is misconfigured (the subclasses name the common causes)."""


class StoreLocked(StoreError):
    """Another writer held the store's lock for longer than the store waits (and retries)."""


class StoreClosed(StoreError):
    """The store was used after :meth:`close`."""


class ConnectionLost(StoreError):
    """The database server is unreachable, or the connection to it broke."""


class ConstraintViolation(StoreError):
    """A write broke a uniqueness or integrity constraint of the backend; nothing was written."""


class ImportFormatError(InvalidInput):
    """An import file is missing, empty, of an unknown format or unreadable as a whole."""


class LLMError(TemporalGraphError):
    """The configured LLM could not be used (not configured, unreachable, or refused the request)."""


class LLMUnavailable(LLMError):
    """The LLM endpoint kept failing (connection, timeout, rate limit, server error) after retries."""


class LLMOutputError(LLMError):
    """The LLM answered, but its answer is not valid JSON for the requested schema.

    Nothing is cached for such an answer; callers keep the episode and record a warning.
    """


class MissingExtra(TemporalGraphError, ImportError):
    """An optional part (Neo4j, the MCP server, an LLM) was used without its package; the message
    names the extra that installs it, e.g. ``pip install 'temporal-graph[neo4j]'``."""


def no_entity(name: str, group_id: str, what: str = "entity") -> NotFound:
    """The error for a name no entity of the group has (``what``: the argument that named it)."""
    return NotFound(f"{what}: no entity named {name!r} in group {group_id!r}")
