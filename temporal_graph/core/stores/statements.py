"""The loader of the Cypher statements the Neo4j store sends: one ``cypher/<name>.cypher`` file each.

A file starts with ``//`` header lines; two of them are read here:

    // params: group_id, subject_id      the parameters the statement uses (the linter declares
                                         exactly these, and the store passes exactly these)
    // placeholders: rel                 template slots written ``{{rel}}`` in the body

Values only ever travel as parameters. The only text put into a statement is a label or a
relationship type, and :func:`render` places one only after
:func:`temporal_graph.core.names.check_identifier` accepted it (a list of them, for ``{{types}}``
slots, is joined with ``|``). Files whose header says ``// scope: schema`` or ``// scope: admin``
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
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Statement:
    name: str
    text: str  # the file as written, placeholders included
    params: frozenset[str]
    placeholders: frozenset[str]
    scope: str  # "group" (default), "schema" or "admin"

    @property
    def is_template(self) -> bool:
        return bool(self.placeholders)


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


@cache
def statement(name: str) -> Statement:
    """The statement stored in ``cypher/<name>.cypher``."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise KeyError(f"no Cypher statement named {name!r}")
    path = DIRECTORY / f"{name}.cypher"
    if not path.is_file():
        raise KeyError(f"no Cypher statement named {name!r} (looked for {path})")
    text = path.read_text(encoding="utf-8")
    declared = _names(_header(text, "placeholders"))
    used = frozenset(_PLACEHOLDER.findall(text))
    if declared != used:
        raise ValueError(f"{path.name}: placeholders declared {sorted(declared)} but used {sorted(used)}")
    return Statement(
        name=name,
        text=text,
        params=_names(_header(text, "params")),
        placeholders=used,
        scope=(_header(text, "scope") or "group").lower(),
    )


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
    slots = set(_PLACEHOLDER.findall(template))
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
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template)


def render(name: str, **identifiers: str | Sequence[str]) -> str:
    """The text of statement ``name`` with its placeholders filled by validated identifiers."""
    return fill(statement(name).text, **identifiers)


def names() -> list[str]:
    """Every statement name, sorted."""
    return sorted(p.stem for p in DIRECTORY.glob("*.cypher"))


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
