"""The loader of the Cypher statements the Neo4j store sends: one ``cypher/<name>.cypher`` file each.

A file starts with ``//`` header lines; these are read here:

    // params: group_id, subject_id      the parameters the statement uses (the linter declares
                                         exactly these, and the store passes exactly these)
    // placeholders: rel                 template slots written ``{{rel}}`` in the body
    // scope: schema | admin             allowed to run without a ``$group_id`` filter

A line ``// include: fact_filters`` in a statement's body is replaced by the body of
``cypher/fragments/fact_filters.cypher``, a part several statements share (the bi-temporal
predicate is written once, in ``valid_at.cypher`` and ``believed_at.cypher``). A fragment's body
is what follows its ``//`` header; its ``// params:`` must be among the including statement's.
A fragment written over one variable says so (``// variable: r``), and ``// include:
believed_at(s)`` puts another in its place. Fragments may include fragments. Every file stays
plain Cypher a person can read; :attr:`Statement.text` is the statement with its includes expanded,
which is what is sent and linted (``cypher/lint/lint.mjs`` expands them the same way).

``cypher/console/`` holds the documented queries of the Cypher console (``console/now`` ...),
loaded by the same function and linted like the others.

Values only ever travel as parameters. The only text put into a statement is a label or a
relationship type, and :func:`render` places one only after
:func:`temporal_graph.core.names.check_identifier` accepted it (a list of them, for ``{{types}}``
slots, is joined with ``|``). A block between ``// each type of {{types}}, joined by UNION ALL``
and ``// end each`` is written once per type of the list, ``{{type}}`` standing for it: the
server seeks a relationship's property index for one type only, so a read by row id over several
types is a union of one seek per type. Files whose header says ``// scope: schema`` or ``// scope: admin``
are the only ones allowed to run without a ``$group_id`` filter.

The files live in the top-level ``cypher/`` folder (next to the lint harness); the loader lives
here, with the store that sends them, so ``temporal_graph`` never imports the ``cypher`` package
(the dependency points one way: ``cypher`` re-exports this module, the core imports nothing of it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..errors import InvalidIdentifier
from ..names import check_identifier

# The folder of the .cypher files, found by path (not by import): it sits next to this package,
# in a checkout and in site-packages alike (pyproject ships it as package data of ``cypher``).
DIRECTORY = Path(__file__).resolve().parents[3] / "cypher"
FRAGMENTS = DIRECTORY / "fragments"
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
# A block repeated for each identifier of a list slot (its lines between the two comments).
_EACH = re.compile(r"^(?P<indent>[ \t]*)// each (?P<var>\w+) of \{\{(?P<slot>\w+)\}\}, "
                   r"joined by (?P<joint>[A-Z ]+)\n(?P<body>.*?)^[ \t]*// end each\n",
                   re.MULTILINE | re.DOTALL)
# A statement name, optionally in one folder: facts_by_subject, console/asof.
_NAME = re.compile(r"^(?:[a-z]+/)?[a-z][a-z0-9_]*$")
_INCLUDE = re.compile(r"^\s*//\s*include:\s*(?P<name>[a-z][a-z0-9_]*)(?:\((?P<var>[A-Za-z_]\w*)\))?\s*$")
_DIRECTIVES = ("params", "placeholders", "scope", "variable")


@dataclass(frozen=True)
class Statement:
    name: str
    text: str  # the file with its includes expanded, placeholders included
    params: frozenset[str]
    placeholders: frozenset[str]
    scope: str  # "group" (default), "schema" or "admin"

    @property
    def is_template(self) -> bool:
        return bool(self.placeholders)

    @property
    def readable(self) -> str:
        """The text as a person reads it: without the loader's header lines (``// params:`` ...)."""
        lines = self.text.splitlines()
        head = 0
        while head < len(lines) and lines[head].strip().startswith("//"):
            head += 1
        kept = [line for line in lines[:head] if _directive(line) is None] + lines[head:]
        return "\n".join(kept).strip()


@dataclass(frozen=True)
class Fragment:
    """A part of statements, from ``cypher/fragments/<name>.cypher``."""

    name: str
    body: str  # the text after the header, its own includes expanded
    params: frozenset[str]  # its own and those of the fragments it includes
    variable: str | None  # the variable it is written over, if it may be renamed


def _directive(line: str) -> str | None:
    """The key of a header line such as ``// params: a, b``, or None."""
    body = line.strip()[2:].strip().lower()
    key = body.split(":", 1)[0]
    return key if ":" in body and key in _DIRECTIVES else None


def _header(text: str, key: str) -> str | None:
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("//"):
            break
        body = stripped[2:].strip()
        if body.lower().startswith(key + ":"):
            return body.split(":", 1)[1].strip()
    return None


def _names(value: str | None) -> frozenset[str]:
    if not value:
        return frozenset()
    return frozenset(p.strip().lstrip("$") for p in value.split(",") if p.strip())


def _expand(text: str, origin: str, within: tuple[str, ...] = ()) -> tuple[str, frozenset[str]]:
    """``text`` with every ``// include:`` line replaced by its fragment, and the parameters the
    included fragments need."""
    out: list[str] = []
    needed: set[str] = set()
    for line in text.splitlines(keepends=True):
        found = _INCLUDE.match(line)
        if found is None:
            out.append(line)
            continue
        part = fragment(found["name"], within)
        body = part.body
        if found["var"]:
            if part.variable is None:
                raise ValueError(f"{origin}: fragment {part.name} declares no variable to rename")
            # the variable as a name followed by a property (r.valid_at), not inside other names
            body = re.sub(rf"(?<![\w$.]){re.escape(part.variable)}(?=\.)", found["var"], body)
        out.append(body)
        needed |= part.params
    return "".join(out), frozenset(needed)


def fragment(name: str, within: tuple[str, ...] = ()) -> Fragment:
    """The fragment stored in ``cypher/fragments/<name>.cypher`` (``within``: the fragments
    including it, to refuse a cycle)."""
    if name in within:
        raise ValueError(f"fragment include cycle: {' -> '.join((*within, name))}")
    return _fragment(name, within)


@cache
def _fragment(name: str, within: tuple[str, ...]) -> Fragment:
    path = FRAGMENTS / f"{name}.cypher"
    if not _NAME.match(name) or "/" in name or not path.is_file():
        raise KeyError(f"no Cypher fragment named {name!r} (looked for {path})")
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    head = 0
    while head < len(lines) and not _INCLUDE.match(lines[head]) and (
        lines[head].strip().startswith("//") or not lines[head].strip()
    ):
        head += 1
    body, needed = _expand("".join(lines[head:]), path.name, (*within, name))
    return Fragment(
        name=name,
        body=body if body.endswith("\n") else body + "\n",
        params=_names(_header(text, "params")) | needed,
        variable=_header(text, "variable") or None,
    )


@cache
def statement(name: str) -> Statement:
    """The statement stored in ``cypher/<name>.cypher`` (``console/<name>``: a console snippet)."""
    if not isinstance(name, str) or not _NAME.match(name) or name.startswith("fragments/"):
        raise KeyError(f"no Cypher statement named {name!r}")
    path = DIRECTORY / f"{name}.cypher"
    if not path.is_file():
        raise KeyError(f"no Cypher statement named {name!r} (looked for {path})")
    source = path.read_text(encoding="utf-8")
    text, needed = _expand(source, path.name)
    params = _names(_header(source, "params"))
    if not needed <= params:
        raise ValueError(f"{path.name}: its fragments use parameters {sorted(needed - params)} "
                         "that its params header does not declare")
    declared = _names(_header(source, "placeholders"))
    used = _slots(text)
    if declared != used:
        raise ValueError(f"{path.name}: placeholders declared {sorted(declared)} but used {sorted(used)}")
    return Statement(
        name=name,
        text=text,
        params=params,
        placeholders=used,
        scope=(_header(source, "scope") or "group").lower(),
    )


def _slots(text: str) -> frozenset[str]:
    """The template slots of ``text``: its placeholders, less the variables of its each-blocks."""
    return frozenset(_PLACEHOLDER.findall(text)) - {m["var"] for m in _EACH.finditer(text)}


def load(name: str) -> str:
    """The text of a statement that has no placeholders."""
    found = statement(name)
    if found.is_template:
        raise ValueError(f"{name}.cypher is a template; use render({name!r}, ...)")
    return found.text


def fill(template: str, **identifiers: str | Sequence[str]) -> str:
    """Put validated identifiers into ``{{slot}}`` placeholders of ``template``.

    A string fills a slot with one identifier; a sequence fills it with ``A|B|C`` (for
    relationship-type alternatives). Every value is checked before anything is placed, every
    slot must be filled and no unknown slot may be given.
    """
    slots = _slots(template)
    missing = slots - identifiers.keys()
    extra = identifiers.keys() - slots
    if missing or extra:
        raise ValueError(
            f"template slots {sorted(slots)}; missing {sorted(missing)}, unknown {sorted(extra)}"
        )
    values: dict[str, str] = {}
    for slot, value in identifiers.items():
        if isinstance(value, str):
            values[slot] = check_identifier(value)
        else:
            parts = list(value) if isinstance(value, Sequence) else None
            if not parts:
                raise InvalidIdentifier(f"identifier: {slot} needs at least one label or type, got {value!r}")
            values[slot] = "|".join(check_identifier(p) for p in parts)

    def each(block: re.Match[str]) -> str:
        # every identifier of the slot was checked above; a single one is a list of one
        items = values[block["slot"]].split("|")
        copies = [block["body"].replace("{{%s}}" % block["var"], item) for item in items]
        return f"{block['indent']}{block['joint']}\n".join(copies)

    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], _EACH.sub(each, template))


def render(name: str, **identifiers: str | Sequence[str]) -> str:
    """The text of statement ``name`` with its placeholders filled by validated identifiers."""
    return fill(statement(name).text, **identifiers)


def names(folder: str = "") -> list[str]:
    """Every statement name, sorted: the store's (``cypher/*.cypher``), or those of a folder
    (``names("console")``: ``console/asof``, ...)."""
    prefix = f"{folder}/" if folder else ""
    return sorted(prefix + p.stem for p in (DIRECTORY / folder).glob("*.cypher"))


def split_statements(text: str) -> list[str]:
    """Split a multi-statement file (``schema.cypher``) at ``;`` that end a line."""
    body = "\n".join(line for line in text.splitlines() if not line.strip().startswith("//"))
    return [part.strip() for part in re.split(r";\s*(?:\n|$)", body) if part.strip()]


# Sample identifiers the linter and the tests put into templates.
SAMPLE_IDENTIFIERS: dict[str, str | tuple[str, ...]] = {
    "rel": "LIVES_IN",
    "label": "Person",
    "types": ("LIVES_IN", "WORKS_AT"),
}


def sendable_statements(relations: Sequence[str] = ("LIVES_IN",)) -> list[dict[str, object]]:
    """Every statement text the Neo4j store can send, as the linter reads them
    (``{"name", "text", "params"}``): multi-statement schema files split into their commands,
    templates rendered once per relation in ``relations`` (and with the sample label/types)."""
    out: list[dict[str, object]] = []
    for name in names():
        found = statement(name)
        variants: list[tuple[str, str]] = []
        if not found.is_template:
            variants.append((name, found.text))
        else:
            for rel in relations:
                slots = {k: v for k, v in SAMPLE_IDENTIFIERS.items() if k in found.placeholders}
                if "rel" in slots:
                    slots["rel"] = rel
                if "types" in slots:
                    slots["types"] = tuple(dict.fromkeys((*relations, rel)))
                variants.append((f"{name}[{rel}]", render(name, **slots)))
        for label, text in variants:
            commands = split_statements(text) if found.scope == "schema" and ";" in text else [text]
            for i, command in enumerate(commands):
                suffix = f"#{i + 1}" if len(commands) > 1 else ""
                out.append({"name": label + suffix, "text": command, "params": sorted(found.params)})
    return out
