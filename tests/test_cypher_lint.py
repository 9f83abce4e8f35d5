"""Every Cypher statement the Neo4j store can send passes Neo4j's own parser and semantic
analysis (``lintCypherQuery`` from @neo4j-cypher/language-support), with zero errors.

The test command installs the linter first (``npm ci`` in ``cypher/lint``). Without it the lint
tests are skipped locally, and fail in CI (``CI=true``), where a skipped lint would hide errors.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

import cypher
from temporal_graph.core.errors import InvalidIdentifier
from temporal_graph.core.ontology import Ontology
from temporal_graph.core.stores.neo4j import fact_params, fact_statement
from temporal_graph.core.stores.protocol import FactQuery

LINT_DIR = Path(cypher.DIRECTORY) / "lint"
PACKAGE = LINT_DIR / "node_modules" / "@neo4j-cypher" / "language-support"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _linter_or_skip() -> str:
    node = shutil.which("node")
    problem = None
    if node is None:
        problem = "node is not installed"
    elif not PACKAGE.is_dir():
        problem = f"the Cypher linter is not installed (run `npm ci` in {LINT_DIR})"
    if problem:
        if IN_CI:
            pytest.fail(f"{problem}; CI must lint every statement")
        pytest.skip(problem)
    return node  # type: ignore[return-value]


def _lint(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    node = _linter_or_skip()
    return subprocess.run(
        [node, "lint.mjs", *args], check=False, cwd=LINT_DIR, input=stdin, capture_output=True, text=True,
        timeout=600,
    )


def test_every_cypher_file_passes_neo4j_lint() -> None:
    result = _lint([])
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r": 0 error\(s\)", result.stdout), result.stdout


def test_every_statement_the_store_can_send_passes_neo4j_lint() -> None:
    # A few real relation names, plus the structural types a relation could collide with.
    relations = sorted(Ontology.default_personal().cardinalities)[:1]
    relations = list(dict.fromkeys(["LIVES_IN", "MENTIONS", "ABOUT", *relations]))
    statements = cypher.sendable_statements(relations)
    snippets = [cypher.statement(name) for name in cypher.names("console")]
    statements += [{"name": s.name, "text": s.text, "params": sorted(s.params)} for s in snippets]
    result = _lint(["--stdin"], json.dumps(statements))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"linted {len(statements)} statement(s)" in result.stdout
    assert re.search(r": 0 error\(s\)", result.stdout), result.stdout


def test_the_linter_expands_includes_as_the_loader_does() -> None:
    """The linter reads the files itself; it must lint the very text the store sends."""
    result = _lint(["--dump"])
    assert result.returncode == 0, result.stderr
    dumped = {s["name"].removesuffix(".cypher"): s for s in json.loads(result.stdout)}
    expected = cypher.names() + cypher.names("console")
    assert sorted(dumped) == sorted(expected)
    for name in expected:
        found = cypher.statement(name)
        slots = {k: v for k, v in cypher.SAMPLE_IDENTIFIERS.items() if k in found.placeholders}
        assert dumped[name]["text"] == cypher.fill(found.text, **slots), name
        assert set(dumped[name]["params"]) == set(found.params), name


def test_the_linter_reports_errors_it_is_given() -> None:
    # Guards against a linter that silently passes everything.
    broken = [
        {"name": "syntax", "text": "MATCH (n:Entity RETURN n", "params": []},
        {"name": "undeclared", "text": "MATCH (n:Entity {group_id: $group_id}) RETURN n", "params": []},
        {"name": "semantic", "text": "MATCH (n:Entity) RETURN m", "params": []},
    ]
    result = _lint(["--stdin"], json.dumps(broken))
    assert result.returncode == 1
    errors = [line for line in result.stdout.splitlines() if line.startswith("error:")]
    for statement in broken:
        assert any(line.startswith(f"error: {statement['name']}:") for line in errors), result.stdout
    assert "Parameter $group_id is not defined" in result.stdout


# -- checks that need no linter --------------------------------------------------------------------
_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


def _code(text: str) -> str:
    """Statement text without comments and string literals."""
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "''", text)


@pytest.mark.parametrize("name", cypher.names() + cypher.names("console"))
def test_declared_parameters_are_exactly_the_ones_used(name: str) -> None:
    found = cypher.statement(name)
    used = set(_PARAM.findall(_code(found.text)))
    assert used == set(found.params), f"{name}.cypher declares {sorted(found.params)} but uses {sorted(used)}"


@pytest.mark.parametrize("name", cypher.names() + cypher.names("console"))
def test_every_data_statement_is_scoped_to_one_group(name: str) -> None:
    found = cypher.statement(name)
    if found.scope in ("schema", "admin"):
        return
    code = _code(found.text)
    assert "$group_id" in code, f"{name}.cypher reads or writes data without a group filter"
    # every MATCH / MERGE of one of our node labels is pinned to the group in that clause
    for line in code.splitlines():
        clause = line.strip()
        if re.match(r"(OPTIONAL\s+)?(MATCH|MERGE)\b", clause) and re.search(
            r":(Entity|Episode|Assertion|EntityKey|MemoryGroup|CurrentFact)\b", clause
        ):
            assert "group_id: $group_id" in clause, (name, clause)


@pytest.mark.parametrize("name", cypher.names())
def test_a_relationship_looked_up_by_element_id_has_bare_ends(name: str) -> None:
    """With labelled ends the planner may seek every entity of the group and expand each instead
    of seeking the relationship by its element id: a search's 30 candidates read 29,000
    relationships at 1,000 facts (0.4 s) once the planner's statistics made that look cheaper."""
    lines = _code(cypher.statement(name).text).splitlines()
    for n, line in enumerate(lines):
        if re.search(r"\belementId\(r\)\s*=", line):
            match = next(lines[k] for k in range(n, -1, -1) if re.search(r"\bMATCH\b", lines[k]))
            assert re.search(r"\((\w*)\)-\[r\]->\((\w*)\)", match), (name, match)


@pytest.mark.parametrize("name", cypher.names())
def test_every_index_hint_asks_for_a_seek(name: str) -> None:
    """``USING INDEX`` lets the planner scan the whole index and filter each row: a bulk batch of
    7,000 facts planned so took 33 s, and 4 s with ``USING INDEX SEEK``, which allows only a seek."""
    code = _code(cypher.statement(name).text)
    assert not re.search(r"USING\s+INDEX\s+(?!SEEK\b)", code), f"{name}.cypher: USING INDEX without SEEK"


def test_store_passes_exactly_the_declared_parameters_to_fact_reads() -> None:
    for query in (
        FactQuery("g", subject_id="s"),
        FactQuery("g", object_id="o"),
        FactQuery("g", relation="LIVES_IN"),
        FactQuery("g"),
        FactQuery("g", ids=("a", "b"), limit=5),
        FactQuery("g", known_at=(k := datetime(2024, 1, 1, tzinfo=UTC)), expired_after=k),
    ):
        name, identifiers = fact_statement(query, ["LIVES_IN", "WORKS_AT"])
        assert set(fact_params(query)) == set(cypher.statement(name).params)
        cypher.render(name, **identifiers) if identifiers else cypher.load(name)
    assert set(fact_params(FactQuery("g"))) - {"limit"} == set(cypher.statement("facts_count").params)


def test_schema_files_split_into_idempotent_commands() -> None:
    # schema_relation: the row id's constraint and six range indexes (fact vectors are indexed on
    # :CurrentFact nodes, in schema).
    for name, least in (("schema", 8), ("schema_relation", 7)):
        text = cypher.render(name, rel="LIVES_IN") if name == "schema_relation" else cypher.load(name)
        commands = cypher.split_statements(text)
        assert len(commands) >= least
        for command in commands:
            assert "IF NOT EXISTS" in command, command


def test_the_core_never_imports_the_cypher_folder() -> None:
    """Imports point one way: ``cypher`` re-exports the loader of ``temporal_graph``, never back."""
    probe = ("import sys, temporal_graph, temporal_graph.core.stores.neo4j, temporal_graph.interfaces.cli, "
             "temporal_graph.interfaces.console; print('cypher' in sys.modules)")
    repo = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=repo,
                          env={**os.environ, "PYTHONPATH": str(repo)}, timeout=120)
    assert done.stdout.strip() == "False", done.stderr


# -- fragments: the bi-temporal predicate is written once ------------------------------------------
def test_the_time_predicate_is_spelled_only_in_its_fragments() -> None:
    """"Valid at T" and "believed at K" live in cypher/fragments/; statements include them."""
    for path in sorted(Path(cypher.DIRECTORY).glob("*.cypher")):
        source = path.read_text(encoding="utf-8")
        assert "<= $valid_time" not in source and "> $known_at" not in source, path.name
    for name in ("facts_by_subject", "facts_by_object", "facts_by_relation", "facts_by_ids", "facts_in_group",
                 "facts_count", "summaries_read"):
        text = cypher.statement(name).text
        assert "// include:" not in text
        assert "expired_at > $known_at" in text, name  # expanded: what is sent is the whole statement


def test_an_include_is_replaced_by_the_fragment_body_with_its_variable_renamed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from temporal_graph.core.stores import statements

    (tmp_path / "fragments").mkdir()
    (tmp_path / "fragments" / "alive.cypher").write_text(
        "// Rows not ended at $at.\n// variable: r\n// params: at\n"
        "  AND (r.ended IS NULL OR r.ended > $at)\n"
    )
    (tmp_path / "fragments" / "loop.cypher").write_text("// include: loop\n")
    (tmp_path / "people.cypher").write_text(
        "// params: group_id, at\nMATCH (p:Entity {group_id: $group_id})\nWHERE p.name IS NOT NULL\n"
        "  // include: alive(p)\nRETURN p.name AS name\n"
    )
    (tmp_path / "undeclared.cypher").write_text(
        "// params: group_id\nMATCH (r:Entity {group_id: $group_id})\nWHERE true\n"
        "  // include: alive\nRETURN r\n"
    )
    (tmp_path / "cycle.cypher").write_text("// params: group_id\n// include: loop\nRETURN $group_id\n")
    monkeypatch.setattr(statements, "DIRECTORY", tmp_path)
    monkeypatch.setattr(statements, "FRAGMENTS", tmp_path / "fragments")
    statements.statement.cache_clear()
    statements._fragment.cache_clear()
    try:
        assert statements.statement("people").text == (
            "// params: group_id, at\nMATCH (p:Entity {group_id: $group_id})\nWHERE p.name IS NOT NULL\n"
            "  AND (p.ended IS NULL OR p.ended > $at)\nRETURN p.name AS name\n"
        )
        with pytest.raises(ValueError, match=r"undeclared.cypher: its fragments use parameters \['at'\]"):
            statements.statement("undeclared")
        with pytest.raises(ValueError, match="cycle: loop -> loop"):
            statements.statement("cycle")
    finally:
        statements.statement.cache_clear()
        statements._fragment.cache_clear()


def test_an_each_block_is_written_once_per_type_and_checks_each() -> None:
    template = ("UNWIND $ids AS row_id\nCALL (row_id) {\n  // each type of {{types}}, joined by UNION ALL\n"
                "  MATCH (s)-[r:{{type}} {id: row_id}]->(o)\n  RETURN r\n  // end each\n}\nRETURN r\n")
    assert cypher.fill(template, types=("LIVES_IN", "WORKS_AT")) == (
        "UNWIND $ids AS row_id\nCALL (row_id) {\n  MATCH (s)-[r:LIVES_IN {id: row_id}]->(o)\n  RETURN r\n"
        "  UNION ALL\n  MATCH (s)-[r:WORKS_AT {id: row_id}]->(o)\n  RETURN r\n}\nRETURN r\n")
    assert cypher.fill(template, types="LIVES_IN").count("MATCH") == 1
    with pytest.raises(InvalidIdentifier):
        cypher.fill(template, types=("LIVES_IN", "X]->() DETACH DELETE s //"))
    with pytest.raises(InvalidIdentifier):
        cypher.fill(template, types=())
    with pytest.raises(ValueError, match="missing"):
        cypher.fill(template)
