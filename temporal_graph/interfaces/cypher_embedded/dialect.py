"""The thin translation layer: Neo4j's Cypher, as typed in the console, rewritten into the dialect
of the embedded engine (LadybugDB, the successor of Kùzu) where the two differ.

Each rule is a small pure function over tokens (strings, quoted names and comments are single
tokens, so nothing inside them is ever touched). ``benchmarks/cypher_engines.py`` counts how many
statements of the exploration set need it. The rules:

- ``type(r)`` → ``label(r)``; ``toString``/``toInteger``/``toFloat``/``split``/``elementId`` → the
  engine's names; ``labels(n)`` → ``n._labels`` (every node keeps its Neo4j labels in ``_labels``);
- ``datetime(x)`` → ``cast(x AS TIMESTAMP_TZ)``, ``datetime()`` → the console clock's now,
  ``date(x)`` → ``cast(x AS DATE)``, ``duration('P1Y2M')`` / ``duration({days: 30})`` →
  ``interval('1 years 2 months')``, ``x.prop.year`` (also month, day, hour, minute, second) →
  ``date_part('year', x.prop)``;
- ``-[*1..3]->`` → ``-[* TRAIL 1..3]->``: no relationship twice in a path, as in Neo4j;
- ``WITH x ORDER BY y`` → ``WITH x ORDER BY y SKIP 0`` (the engine wants a SKIP or LIMIT there);
- a node label that is not a table (``(p:Person)``, the entity type) → a filter on the one
  ``Entity`` table (``(p:Entity {_type_label: 'Person'})``); ``WHERE n:Person`` →
  ``list_contains(n._labels, 'Person')``.

What the engine cannot run is named in one line (:func:`unsupported`), never a traceback.
Columns are named from the statement as typed (:func:`return_columns`), as Neo4j names them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from ...core.time import to_utc
from .graph import ENTITY, NODE_LABELS

TYPE_LABEL = "_type_label"  # the entity's type label, or null
LABELS = "_labels"  # every label of a node, as Neo4j would list them

_RENAMED = {"type": "label", "tostring": "to_string", "tointeger": "to_int64", "tofloat": "to_double",
            "split": "string_split", "elementid": "id"}
_DATE_PARTS = {"year", "month", "day", "hour", "minute", "second"}
_DURATION_UNITS = {"years": "years", "months": "months", "weeks": "weeks", "days": "days",
                   "hours": "hours", "minutes": "minutes", "seconds": "seconds"}
_ISO_DURATION = re.compile(
    r"^P(?:(?P<years>\d+)Y)?(?:(?P<months>\d+)M)?(?:(?P<weeks>\d+)W)?(?:(?P<days>\d+)D)?"
    r"(?:T(?:(?P<hours>\d+)H)?(?:(?P<minutes>\d+)M)?(?:(?P<seconds>\d+(?:\.\d+)?)S)?)?$",
    re.IGNORECASE,
)
# Statements the engine parses differently or not at all, named for the user.
_UNSUPPORTED = (
    (re.compile(r"\bduration\s*\.\s*(between|inMonths|inDays|inSeconds)\b", re.I),
     "duration.{0}() (compare times instead: a + duration('P1Y') < b)"),
    (re.compile(r"\[\s*[A-Za-z_]\w*\s+IN\b", re.I), "list comprehensions [x IN list ...]"),
    (re.compile(r"\bCALL\s*\{", re.I), "CALL { } subqueries"),
    (re.compile(r"\b[A-Za-z_]\w*\s*\{\s*\.", re.I), "map projections n{.name}"),
    (re.compile(r"\bCALL\s+(apoc|db|gds|dbms)\s*\.|\b(apoc|gds)\s*\.", re.I),
     "procedures and functions of {0}.*"),
    (re.compile(r"\bshortestPath\s*\(|\ballShortestPaths\s*\(", re.I), "shortestPath()"),
    # The engine's own settings (CALL timeout=0, CALL threads=8): a session keeps the limits it was
    # started with.
    (re.compile(r"\bCALL\s+(?:[A-Za-z_]\w*|`[^`]*`)\s*=", re.I),
     "changing engine settings (CALL name = value); the console's limits are --timeout and --max-memory"),
)


class Unsupported(ValueError):
    """A statement (or part of one) the embedded engine cannot run; the message names it."""


@dataclass(frozen=True)
class Token:
    kind: str  # "space", "string", "name", "ident", "param", "number", "punct"
    text: str


_TOKEN = re.compile(
    r"(?P<space>\s+|//[^\n]*|/\*.*?(?:\*/|$))"
    r"|(?P<string>'(?:\\.|[^'\\])*'?|\"(?:\\.|[^\"\\])*\"?)"
    r"|(?P<name>`[^`]*`?)"
    r"|(?P<param>\$[A-Za-z_]\w*|\$`[^`]*`)"
    r"|(?P<number>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)"
    r"|(?P<ident>[A-Za-z_]\w*)"
    r"|(?P<punct>->|<-|<>|<=|>=|=~|\.\.|.)",
    re.DOTALL,
)


def tokenize(text: str) -> list[Token]:
    return [Token(m.lastgroup or "punct", m.group()) for m in _TOKEN.finditer(text)]


def _significant(tokens: list[Token], start: int, step: int = 1) -> int:
    """Index of the next token that is not space from ``start`` (inclusive), or -1."""
    i = start
    while 0 <= i < len(tokens):
        if tokens[i].kind != "space":
            return i
        i += step
    return -1


def _is(tokens: list[Token], i: int, text: str) -> bool:
    return 0 <= i < len(tokens) and tokens[i].text.upper() == text.upper()


def _closing(tokens: list[Token], i: int) -> int:
    """Index of the bracket closing the one at ``i``."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    depth, opener = 0, tokens[i].text
    for j in range(i, len(tokens)):
        if tokens[j].text == opener:
            depth += 1
        elif tokens[j].text == pairs[opener]:
            depth -= 1
            if depth == 0:
                return j
    raise Unsupported(f"unbalanced '{opener}'")


def _join(tokens: list[Token]) -> str:
    return "".join(t.text for t in tokens)


def _quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _unquote(token: Token) -> str:
    body = token.text[1:-1]
    return re.sub(r"\\(.)", r"\1", body)


# -- rules -----------------------------------------------------------------------------------------
def unsupported(text: str) -> str | None:
    """What in ``text`` the embedded engine cannot run, or None."""
    spaced = " ".join(t.text for t in tokenize(text) if t.kind not in ("string", "space"))
    for pattern, message in _UNSUPPORTED:
        found = pattern.search(spaced)
        if found:
            return message.format(*(g for g in found.groups() if g))
    return None


def _duration(tokens: list[Token], open_at: int, close_at: int) -> str:
    """``interval('...')`` for the argument of ``duration(...)``: an ISO 8601 string or a map."""
    inner = [t for t in tokens[open_at + 1 : close_at] if t.kind != "space"]
    parts: list[str] = []
    if len(inner) == 1 and inner[0].kind == "string":
        match = _ISO_DURATION.match(_unquote(inner[0]))
        if not match or _unquote(inner[0]).upper() in ("P", "PT"):
            raise Unsupported(f"duration({inner[0].text}): not an ISO 8601 duration such as 'P1Y2M10D'")
        parts = [f"{value} {unit}" for unit, value in match.groupdict().items() if value]
    elif inner and inner[0].text == "{" and inner[-1].text == "}":
        body = inner[1:-1]
        for k in range(0, len(body), 4):
            key, colon, value = body[k : k + 3]
            unit = _DURATION_UNITS.get(key.text.lower())
            if unit is None or colon.text != ":" or value.kind != "number":
                raise Unsupported("duration({...}) with other than numbers of years, months, weeks, days, "
                                  "hours, minutes, seconds")
            parts.append(f"{value.text} {unit}")
            if k + 3 < len(body) and body[k + 3].text != ",":
                raise Unsupported("duration({...}) with other than numbers")
    else:
        raise Unsupported("duration() of other than an ISO 8601 string or a map of numbers")
    return f"interval({_quote(' '.join(parts) or '0 days')})"


def _temporal(tokens: list[Token], now: datetime) -> list[Token]:
    """``datetime``/``date``/``duration`` calls and ``.year``-style accessors."""
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        name = token.text.lower() if token.kind == "ident" else ""
        open_at = _significant(tokens, i + 1)
        before = _significant(tokens, i - 1, -1)
        is_call = name in ("datetime", "date", "duration") and _is(tokens, open_at, "(") and not (
            before >= 0 and tokens[before].text == ".")
        if is_call:
            close_at = _closing(tokens, open_at)
            empty = _significant(tokens, open_at + 1) == close_at
            if name == "duration":
                out.append(Token("ident", _duration(tokens, open_at, close_at)))
            elif empty:
                moment = now if name == "datetime" else now.replace(hour=0, minute=0, second=0, microsecond=0)
                kind = "TIMESTAMP_TZ" if name == "datetime" else "DATE"
                out.append(Token("ident", f"cast({_quote(moment.isoformat())} AS {kind})"))
            elif _is(tokens, _significant(tokens, open_at + 1), "{"):
                raise Unsupported(f"{name}({{...}}) of a map; write {name}('2021-01-01')")
            else:
                inner = _time_literal(_temporal(tokens[open_at + 1 : close_at], now))
                inner = [Token("ident", "cast("), *inner, Token("ident", " AS TIMESTAMP_TZ)")]
                if name == "date":  # the UTC day of the time, as Neo4j's date() in UTC
                    inner = [Token("ident", "cast(cast("), *inner, Token("ident", " AS TIMESTAMP) AS DATE)")]
                out.extend(inner)
            i = close_at + 1
            continue
        out.append(token)
        i += 1
    return _date_parts(out)


def _time_literal(tokens: list[Token]) -> list[Token]:
    """A string literal read by the memory's strict time parser, written as UTC for the engine
    (which would drop an offset and refuses '2021-01-01T10:00'); anything else as it is."""
    solid = [t for t in tokens if t.kind != "space"]
    if len(solid) != 1 or solid[0].kind != "string":
        return tokens
    try:
        moment = to_utc(_unquote(solid[0]), name="time")
    except ValueError as exc:
        raise Unsupported(str(exc)) from None
    return [Token("string", _quote(moment.isoformat()))]


def _date_parts(tokens: list[Token]) -> list[Token]:
    """``a.b.year`` and ``$t.year`` → ``date_part('year', a.b)`` / ``date_part('year', $t)``."""
    out: list[Token] = []
    for token in tokens:
        out.append(token)
        if token.kind != "ident" or token.text.lower() not in _DATE_PARTS or len(out) < 3:
            continue
        if out[-2].text != ".":
            continue
        head = out[:-2]
        if head[-1].kind == "param":
            base = head[-1:]
        elif len(head) >= 3 and (head[-3].kind, head[-2].text, head[-1].kind) == ("ident", ".", "ident"):
            base = head[-3:]
        else:
            continue
        del out[len(out) - 2 - len(base) :]
        out.append(Token("ident", f"date_part({_quote(token.text.lower())}, {_join(base)})"))
    return out


def _trails(tokens: list[Token]) -> list[Token]:
    """``-[*1..3]->`` never repeats a relationship in Neo4j; the engine's default may (a walk)."""
    out = list(tokens)
    for i, token in enumerate(tokens):
        before = _significant(tokens, i - 1, -1)
        if token.text == "[" and before >= 0 and tokens[before].text in ("-", "<-"):
            for j in range(i + 1, _closing(tokens, i)):
                if tokens[j].text == "*":
                    out[j] = Token("punct", "* TRAIL ")
    return out


_CLAUSES = {"MATCH", "OPTIONAL", "WITH", "RETURN", "UNWIND", "CALL", "UNION", "WHERE"}


def _with_order(tokens: list[Token]) -> list[Token]:
    """``WITH x ORDER BY y`` (an order for what follows, e.g. ``collect``) → ``... SKIP 0``: the
    engine takes ORDER BY in WITH only before SKIP or LIMIT."""
    out = list(tokens)
    clause, ordered, bounded = "", False, False
    for i, token in [*_top_level(tokens), (len(tokens), Token("ident", "RETURN"))]:
        word = token.text.upper() if token.kind == "ident" else ""
        if word in _CLAUSES and not (clause == "WITH" and word == "WITH"):
            if clause == "WITH" and ordered and not bounded:
                if i == len(tokens):
                    out.append(Token("ident", " SKIP 0"))
                else:
                    out[i] = Token(token.kind, "SKIP 0 " + token.text)
                bounded = True
            if word != "WHERE":
                clause, ordered, bounded = word, False, False
        elif word == "ORDER":
            ordered = True
        elif word in ("SKIP", "LIMIT"):
            bounded = True
    return out


def _variable_length(tokens: list[Token]) -> set[str]:
    """Names of variable-length relationships (``[r:A*1..3]``): lists of relationships in Neo4j."""
    names: set[str] = set()
    for i, token in enumerate(tokens):
        var_at = _significant(tokens, i + 1)
        if token.text == "[" and var_at >= 0 and tokens[var_at].kind == "ident":
            if any(t.text == "*" for t in tokens[var_at : _closing(tokens, i)]):
                names.add(tokens[var_at].text)
    return names


def _functions(tokens: list[Token]) -> list[Token]:
    """Renamed functions, ``labels(n)`` as the node's ``_labels`` property, and ``size(r)`` of a
    variable-length relationship as its ``length(r)``."""
    paths = _variable_length(tokens)
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        open_at = _significant(tokens, i + 1)
        before = _significant(tokens, i - 1, -1)
        called = token.kind == "ident" and _is(tokens, open_at, "(") and not (
            before >= 0 and tokens[before].text == ".")
        if called and token.text.lower() == "size":
            arg = _significant(tokens, open_at + 1)
            close_at = _significant(tokens, arg + 1) if arg >= 0 else -1
            if arg >= 0 and tokens[arg].text in paths and _is(tokens, close_at, ")"):
                out.append(Token("ident", f"length({tokens[arg].text})"))
                i = close_at + 1
                continue
        if called and token.text.lower() == "labels":
            arg = _significant(tokens, open_at + 1)
            close_at = _significant(tokens, arg + 1) if arg >= 0 else -1
            if arg >= 0 and tokens[arg].kind == "ident" and _is(tokens, close_at, ")"):
                out.append(Token("ident", f"{tokens[arg].text}.{LABELS}"))
                i = close_at + 1
                continue
        if called and token.text.lower() in _RENAMED:
            out.append(Token("ident", _RENAMED[token.text.lower()]))
        else:
            out.append(token)
        i += 1
    return out


def _label_names(tokens: list[Token], i: int) -> tuple[list[str], int, str]:
    """The labels from the ``:`` at ``i`` (``:A:B``, ``:A&B``, ``:A|B``): names, next index, joiner."""
    names: list[str] = []
    joiner = ""
    while True:
        name_at = _significant(tokens, i + 1)
        if name_at < 0 or tokens[name_at].kind not in ("ident", "name"):
            raise Unsupported("a label after ':' is missing")
        text = tokens[name_at].text
        names.append(text[1:-1] if tokens[name_at].kind == "name" else text)
        nxt = _significant(tokens, name_at + 1)
        if nxt >= 0 and tokens[nxt].text in (":", "&", "|"):
            joiner = joiner or tokens[nxt].text
            if tokens[nxt].text != joiner and {joiner, tokens[nxt].text} != {":", "&"}:
                raise Unsupported("label expressions mixing '|' with ':' or '&'")
            i = nxt
            continue
        return names, name_at + 1, joiner


def _node_labels(tokens: list[Token]) -> list[Token]:
    """Node labels that are not tables become a filter on the Entity table; label predicates in
    expressions become ``list_contains`` on the node's labels."""
    out: list[Token] = []
    braces = 0
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.text == "{":
            braces += 1
        elif token.text == "}":
            braces -= 1
        if token.text == "(":
            var_at = _significant(tokens, i + 1)
            colon = var_at if _is(tokens, var_at, ":") else _significant(tokens, var_at + 1)
            if var_at >= 0 and (tokens[var_at].text == ":" or tokens[var_at].kind == "ident") and _is(
                    tokens, colon, ":"):
                names, after, joiner = _label_names(tokens, colon)
                if joiner == "|":
                    raise Unsupported("label alternatives (n:A|B) on nodes")
                out.extend(tokens[i:colon])
                out.extend(_node_pattern_labels(tokens, names, after))
                i = _significant(tokens, after)
                if _is(tokens, i, "{"):
                    braces += 1
                    i += 1  # the property map was opened by the replacement
                continue
        if token.kind == "ident" and braces == 0:
            colon = _significant(tokens, i + 1)
            before = _significant(tokens, i - 1, -1)
            predicate = _is(tokens, colon, ":") and not (
                before >= 0 and tokens[before].text in ("(", "[", ",", "{", "|", ":", "."))
            if predicate:
                names, after, joiner = _label_names(tokens, colon)
                checks = [f"list_contains({token.text}.{LABELS}, {_quote(n)})" for n in names]
                combined = (" OR " if joiner == "|" else " AND ").join(checks)
                out.append(Token("ident", f"({combined})" if len(checks) > 1 else combined))
                i = after
                continue
        out.append(token)
        i += 1
    return out


def _node_pattern_labels(tokens: list[Token], names: list[str], after: int) -> list[Token]:
    """The labels of a node pattern as the engine's table and, for a type label, a property
    filter; when the pattern has its own map, the filter joins it (its ``{`` is emitted here)."""
    tables = [n for n in names if n in NODE_LABELS]
    others = [n for n in names if n not in NODE_LABELS]
    if len(set(tables)) > 1:
        others.append("&".join(sorted(set(tables))))  # a node is never both: match nothing
    out = [Token("ident", ":" + (tables[0] if tables else ENTITY))]
    map_at = _significant(tokens, after)
    has_map = _is(tokens, map_at, "{")
    if others or has_map:
        out += [Token("space", " "), Token("punct", "{")]
    if others:
        wanted = "&".join(others)  # an entity has one type label: several match nothing
        out.append(Token("ident", f"{TYPE_LABEL}: {_quote(wanted)}"))
        if has_map and not _is(tokens, _significant(tokens, map_at + 1), "}"):
            out.append(Token("punct", ","))
        if not has_map:
            out.append(Token("punct", "}"))
    return out


def translate(text: str, *, now: datetime) -> str:
    """``text`` in the engine's dialect; raises :class:`Unsupported` naming what cannot be run."""
    problem = unsupported(text)
    if problem:
        raise Unsupported(problem)
    tokens = tokenize(text)
    for token in tokens:
        if token.kind in ("string", "name") and (len(token.text) < 2 or token.text[-1] != token.text[0]):
            raise Unsupported(f"an unclosed quote: {token.text[:20]}")
    tokens = _node_labels(tokens)
    tokens = _temporal(tokens, now)
    tokens = _functions(tokens)
    return _join(_with_order(_trails(tokens)))


# -- column names ----------------------------------------------------------------------------------
_CLAUSE_ENDS = {"ORDER", "SKIP", "LIMIT", "UNION", "OFFSET"}


def _top_level(tokens: list[Token]) -> Iterator[tuple[int, Token]]:
    depth = 0
    for i, token in enumerate(tokens):
        if token.text in "([{" and token.kind == "punct":
            depth += 1
        elif token.text in ")]}" and token.kind == "punct":
            depth -= 1
        elif depth == 0:
            yield i, token


def return_columns(text: str) -> list[str] | None:
    """The column names Neo4j gives the last ``RETURN`` of ``text``: each item's alias, or the
    item as typed; None for ``RETURN *`` or no RETURN."""
    tokens = tokenize(text.strip().rstrip(";"))
    returns = [i for i, t in _top_level(tokens) if t.kind == "ident" and t.text.upper() == "RETURN"]
    if not returns:
        return None
    start = returns[-1] + 1
    first = _significant(tokens, start)
    if _is(tokens, first, "DISTINCT"):
        start = first + 1
    end = len(tokens)
    for i, token in _top_level(tokens):
        if i > start and token.kind == "ident" and token.text.upper() in _CLAUSE_ENDS:
            end = i
            break
    items: list[list[Token]] = [[]]
    top = {i for i, _ in _top_level(tokens)}
    for i in range(start, end):
        if i in top and tokens[i].text == ",":
            items.append([])
        else:
            items[-1].append(tokens[i])
    names: list[str] = []
    for item in items:
        solid = [t for t in item if t.kind != "space"]
        if not solid:
            return None
        if len(solid) == 1 and solid[0].text == "*":
            return None
        if len(solid) >= 3 and solid[-2].text.upper() == "AS":
            alias = solid[-1]
            names.append(alias.text[1:-1] if alias.kind == "name" else alias.text)
        else:
            names.append(_join(item).strip())
    return names
