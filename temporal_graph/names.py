"""Names: relation normalization, entity name keys, group ids and Cypher identifiers."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .errors import InvalidGroup, InvalidIdentifier, InvalidName

# Identifiers placed into Cypher (labels, relationship types) must match this, and are
# additionally kept away from reserved words; values never go into statements as text.
IDENTIFIER_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
GROUP_PATTERN = re.compile(r"^[A-Za-z0-9_.:@-]{1,128}$")
_CYPHER_RESERVED = frozenset(
    """ALL AND AS ASC ASCENDING BY CALL CASE CONSTRAINT CONTAINS CREATE DELETE DESC DESCENDING
    DETACH DISTINCT DROP ELSE END ENDS EXISTS FALSE FOREACH IN INDEX IS LIMIT LOAD MANDATORY MATCH
    MERGE NODE NOT NULL ON OPTIONAL OR ORDER REMOVE RETURN SET SKIP STARTS THEN TRUE UNION UNIQUE
    UNWIND USE WHERE WITH XOR YIELD""".split()
)


def normalize_relation(relation: str) -> str:
    """``"lives in"`` → ``LIVES_IN``; anything that cannot become a safe identifier is rejected."""
    if not isinstance(relation, str):
        raise InvalidName(f"relation: expected a string, got {relation!r}")
    return _normalize_relation(relation)


@lru_cache(maxsize=4096)  # called on every statement; relation names repeat
def _normalize_relation(relation: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", relation).encode("ascii", "ignore").decode()
    words = re.findall(r"[A-Za-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", ascii_text))
    normalized = "_".join(w.upper() for w in words)
    if not normalized or not IDENTIFIER_PATTERN.match(normalized):
        raise InvalidName(f"relation: {relation!r} does not name a relation")
    if normalized in _CYPHER_RESERVED:
        raise InvalidName(f"relation: {relation!r} is a reserved word")
    return normalized


def clean_name(name: str, what: str = "name") -> str:
    """Trim and collapse spaces of a display name; reject empty names."""
    if not isinstance(name, str):
        raise InvalidName(f"{what}: expected a string, got {name!r}")
    cleaned = " ".join(name.split())
    if not cleaned:
        raise InvalidName(f"{what}: {name!r} is empty")
    if len(cleaned) > 500:
        raise InvalidName(f"{what}: {cleaned[:40]!r}... is longer than 500 characters")
    return cleaned


def name_key(name: str) -> str:
    """The key under which entity names match: case- and space-insensitive."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def check_group(group_id: str) -> str:
    if not isinstance(group_id, str) or not GROUP_PATTERN.match(group_id):
        raise InvalidGroup(
            f"group_id: {group_id!r} must be 1-128 characters of letters, digits, '_', '.', ':', '@' or '-'"
        )
    return group_id


def check_identifier(identifier: str) -> str:
    """Validate a label or relationship type before it is placed in a Cypher statement."""
    if (
        not isinstance(identifier, str)
        or not IDENTIFIER_PATTERN.match(identifier)
        or identifier.upper() in _CYPHER_RESERVED
    ):
        raise InvalidIdentifier(f"identifier: {identifier!r} is not a safe label or relationship type")
    return identifier


def quoted_terms(text: str) -> str | None:
    """A full-text query (FTS5 and Lucene read it alike) matching any word of ``text``: each word
    is quoted, so user text can never be read as query syntax. None when there are no words."""
    words = re.findall(r"\w+", text.lower())
    return " OR ".join(f'"{w}"' for w in dict.fromkeys(words)) or None
