"""Relation names and labels never smuggle text into a Cypher statement.

A hostile relation name either normalizes to a plain identifier (letters, digits, underscores)
or is rejected; the templates the Neo4j store renders refuse anything else outright.
"""

from __future__ import annotations

import re

import pytest

import cypher
from temporal_graph.core.names import check_identifier, normalize_relation, quoted_terms
from temporal_graph.core.stores.neo4j import entity_label, fact_statement
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.core.stores.statements import _EACH
from temporal_graph.errors import InvalidIdentifier, InvalidName

HOSTILE = [
    "LIVES_IN]->(x) DETACH DELETE x //",
    "`LIVES_IN`",
    "LIVES`IN",
    "lives in",
    "it's",
    'say "hi"',
    "a{b}c",
    "x; MATCH (n) DETACH DELETE n",
    "WORKS_AT|MENTIONS",
    "KNOWS {id: 1}",
    "MERGE",
    "delete",
    "Return",
    "union",
    "",
    "   ",
    "$param",
    "LIVES_IN\nCREATE (evil)",
    "ĺives ïn",
    "9LIVES",
    "_LIVES",
    "A" * 65,
    "/* c */ KNOWS",
]
SAFE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
TEMPLATES = [n for n in cypher.names() if cypher.statement(n).is_template]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_relation_names_normalize_to_plain_identifiers_or_are_rejected(name: str) -> None:
    try:
        normalized = normalize_relation(name)
    except InvalidName:
        return
    assert SAFE.match(normalized), normalized
    assert check_identifier(normalized) == normalized


@pytest.mark.parametrize("name", HOSTILE)
@pytest.mark.parametrize("template", TEMPLATES)
def test_templates_refuse_every_hostile_identifier_as_is(template: str, name: str) -> None:
    slots = {slot: name for slot in cypher.statement(template).placeholders}
    with pytest.raises(InvalidIdentifier):
        cypher.render(template, **slots)


@pytest.mark.parametrize("template", [t for t in TEMPLATES if "types" in cypher.statement(t).placeholders])
def test_one_bad_type_in_a_list_refuses_the_whole_list(template: str) -> None:
    with pytest.raises(InvalidIdentifier):
        cypher.render(template, types=["LIVES_IN", "KNOWS]-() DETACH DELETE r //"])
    with pytest.raises(InvalidIdentifier):
        cypher.render(template, types=[])


@pytest.mark.parametrize("name", HOSTILE)
def test_a_normalized_hostile_name_renders_only_identifier_characters(name: str) -> None:
    try:
        rel = normalize_relation(name)
    except InvalidName:
        return
    for template in TEMPLATES:
        found = cypher.statement(template)
        slots = {slot: (rel if slot != "types" else (rel,)) for slot in found.placeholders}
        text = cypher.render(template, **slots)
        # The rendered text differs from the template exactly where the placeholders were,
        # and only by the identifier (an each-block written once, for the one type).
        skeleton = _EACH.sub(lambda b: b["body"].replace(f"{{{{{b['var']}}}}}", f"{{{{{b['slot']}}}}}"),
                             found.text)
        pieces = re.split(r"\{\{\w+\}\}", skeleton)
        rest = text
        for i, piece in enumerate(pieces):
            assert rest.startswith(piece)
            rest = rest[len(piece):]
            if i < len(pieces) - 1:
                filled = re.match(r"[A-Za-z0-9_|]+", rest)
                assert filled is not None and filled.group(0) == rel, (template, rest[:40])
                rest = rest[len(filled.group(0)):]
        assert rest == ""


def test_placeholders_must_be_filled_exactly() -> None:
    with pytest.raises(ValueError):
        cypher.render("fact_insert")  # missing rel
    with pytest.raises(ValueError):
        cypher.render("fact_insert", rel="LIVES_IN", label="Person")  # unknown slot
    with pytest.raises(ValueError):
        cypher.load("fact_insert")  # a template cannot be sent unrendered


def test_statement_names_cannot_reach_outside_the_cypher_folder() -> None:
    for name in ("../pyproject", "schema.cypher", "/etc/passwd", "Schema", ""):
        with pytest.raises(KeyError):
            cypher.statement(name)


def test_a_fact_query_with_an_unsafe_relation_never_renders() -> None:
    with pytest.raises(InvalidIdentifier):
        fact_statement(FactQuery("g", relation="KNOWS]->() DELETE r //"))


@pytest.mark.parametrize(
    ("entity_type", "label"),
    [("Person", "Person"), ("sports team", "SportsTeam"), ("Entity", None), ("Episode", None),
     ("`x`) DETACH DELETE n //", "XDETACHDELETEN"), ("", None), ("match", None), ("42", None)],
)
def test_entity_types_become_safe_labels_or_none(entity_type: str, label: str | None) -> None:
    assert entity_label(entity_type) == label


def test_full_text_queries_are_quoted_words_only() -> None:
    assert quoted_terms('name:"x" OR *:* AND title:(a~2)') == (
        '"name" OR "x" OR "or" OR "and" OR "title" OR "a" OR "2"')
    assert quoted_terms("?! -- ") is None
    # a combining mark belongs to the letter before it: alone, it is no word
    assert quoted_terms("\u0307 \u0301\u0301 -\u0307-") is None
    assert quoted_terms("café \u0301 İstanbul") == '"café" OR "istanbul"'
