"""Names: relation normalization, entity name keys, group ids and Cypher identifiers."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from .errors import InvalidGroup, InvalidIdentifier, InvalidName

# Identifiers placed into Cypher (labels, relationship types) must match this, and are
# additionally kept away from reserved words; values never go into statements as text.
# Both are used with fullmatch and end in \Z, so a trailing newline never passes ("demo\n").
IDENTIFIER_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}\Z")
# A group id is any Unicode text of 1-128 characters, kept exactly (so two ids never share a group),
# without control, format or separator characters and without surrounding spaces; see check_group.
GROUP_PATTERN = re.compile(r"(?!\s)[^\x00-\x1f\x7f-\x9f\u2028\u2029]{1,128}(?<!\s)\Z")
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
MAX_NAME_CHARS = 500
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
    if not normalized or not IDENTIFIER_PATTERN.fullmatch(normalized):
        raise InvalidName(f"relation: {relation!r} does not name a relation")
    if normalized in _CYPHER_RESERVED:
        raise InvalidName(f"relation: {relation!r} is a reserved word")
    return normalized


def clean_name(name: str, what: str = "name") -> str:
    """Trim and collapse spaces of a display name (NFC, so "Zu\u0308rich" stays one word); reject
    empty names, names with control characters or lone surrogates, and names over 500 characters."""
    if not isinstance(name, str):
        raise InvalidName(f"{what}: expected a string, got {type(name).__name__} {name!r}"[:200])
    if len(name) > 2 * MAX_NAME_CHARS:  # not remembered: the cache holds names, not megabytes
        return _clean_str.__wrapped__(name, what)
    return _clean_str(name, what)


# Control characters (category Cc: U+0000-001F, U+007F-009F) other than tab and line breaks, which
# collapse into spaces, and lone surrogates (category Cs).
_FORBIDDEN_IN_NAMES = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


@lru_cache(maxsize=1 << 16)
def _clean_str(name: str, what: str) -> str:
    # Remembered: a bulk load checks the same few thousand names hundreds of thousands of times.
    bad = _FORBIDDEN_IN_NAMES.search(name)
    if bad is not None:
        raise InvalidName(
            f"{what}: {name[:40]!r} contains the character {bad.group()!r}, which is not allowed in a name")
    cleaned = " ".join(unicodedata.normalize("NFC", name).split())
    if not cleaned:
        raise InvalidName(f"{what}: {name!r} is empty")
    if len(cleaned) > MAX_NAME_CHARS:
        raise InvalidName(f"{what}: {cleaned[:40]!r}... is longer than {MAX_NAME_CHARS} characters")
    return cleaned


def name_key(name: str) -> str:
    """The key under which entity names match: case- and space-insensitive."""
    # NFKC leaves ASCII as it is, and casefolding ASCII is lower-casing it (the common case, faster).
    folded = name.lower() if name.isascii() else unicodedata.normalize("NFKC", name).casefold()
    return " ".join(folded.split())


# Exact keys share the key table with name keys. Their prefix is a control character, which no
# cleaned name holds, so an exact key never equals a name key.
_EXACT = "\x1f"


def exact_key(name: str) -> str:
    """The key under which a name matches only as spelled (NFC, spaces collapsed): how a speaker
    id finds its entity, and how a name finds the entity spelled exactly so before a lookalike."""
    return _EXACT + clean_name(name)


def entity_keys(names: Iterable[str]) -> list[str]:
    """Every key an entity with these names (its name and aliases) answers to: the
    case-insensitive name key and the exact key of each."""
    return list(dict.fromkeys(k for n in names for k in (name_key(n), exact_key(n))))


def check_group(group_id: str) -> str:
    """Accept a group id exactly as given, or raise :class:`InvalidGroup` naming it. Any Unicode
    text in NFC of 1-128 characters works ("demo", "对话一", "team/a"); control, format and line
    separator characters, surrounding spaces and non-NFC text are refused, never rewritten."""
    problem = group_problem(group_id)
    if problem:
        raise InvalidGroup(f"group_id: {group_id!r} {problem}"[:300])
    return group_id


def group_problem(group_id: object) -> str | None:
    """What is wrong with ``group_id`` as a group id (or a message key), or None."""
    if not isinstance(group_id, str):
        return f"must be a string, not {type(group_id).__name__}"
    if not 1 <= len(group_id) <= 128:
        return f"must be 1-128 characters long (it has {len(group_id)})"
    if group_id != group_id.strip():
        return "must not start or end with whitespace (spaces, tabs, newlines)"
    bad = next((ch for ch in group_id if unicodedata.category(ch) in _UNSAFE_CATEGORIES), None)
    if bad is not None or not GROUP_PATTERN.fullmatch(group_id):
        return f"contains the control or invisible character {bad!r}"
    if unicodedata.normalize("NFC", group_id) != group_id:
        return f"is not in Unicode NFC form; use {unicodedata.normalize('NFC', group_id)!r}"
    return None


def check_identifier(identifier: str) -> str:
    """Validate a label or relationship type before it is placed in a Cypher statement."""
    if (
        not isinstance(identifier, str)
        or not IDENTIFIER_PATTERN.fullmatch(identifier)
        or identifier.upper() in _CYPHER_RESERVED
    ):
        raise InvalidIdentifier(f"identifier: {identifier!r} is not a safe label or relationship type")
    return identifier


def quoted_terms(text: str) -> str | None:
    """A full-text query (FTS5 and Lucene read it alike) matching any word of ``text``: each word
    is quoted, so user text can never be read as query syntax. None when there are no words."""
    return " OR ".join(f'"{w}"' for w in query_words(text)) or None


def query_words(text: str) -> list[str]:
    """The distinct words of ``text``, lowercased as the full-text indexes lowercase what they
    store: a character at a time, so "İstanbul" is "istanbul" (``str.lower`` gives "i" and a
    combining dot, and a word split there is found by neither index). Combining marks stay in
    their word; marks with no letter or digit are no word."""
    lowered = text.replace("\u0130", "i").lower()
    words = "".join(ch if ch.isalnum() or ch == "_" or unicodedata.category(ch).startswith("M") else " "
                    for ch in lowered).split()
    return list(dict.fromkeys(w for w in words if any(ch.isalnum() or ch == "_" for ch in w)))


def relation_phrase(relation: str) -> str:
    """``LIVES_IN`` -> ``"lives in"``: a relation as words in a sentence."""
    return relation.lower().replace("_", " ")


def fact_words(subject: str, relation: str, object: str) -> str:
    """``Alice lives in Paris``: the text of a fact told without one."""
    return f"{subject} {relation_phrase(relation)} {object}"
