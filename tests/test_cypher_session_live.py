"""A Cypher session on the embedded store stays in step with the memory: whatever changes it (a
message with or without facts, an erase, a retraction, a prune, a forget; through the same
``TemporalGraph``, a second one on the file, or another process), the next statement sees it.
And a statement cannot run away: it stops at the time limit or the memory limit with one line
naming the limit, and the session answers the next statement."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from temporal_graph import TemporalGraph
from temporal_graph.interfaces.cli import main
from temporal_graph.interfaces.console import run_console
from temporal_graph.interfaces.cypher_embedded import EmbeddedCypher, EngineError, Limits
from temporal_graph.times import ManualClock

CONTENTS = "MATCH (e:Episode) RETURN e.content ORDER BY e.content"
# A message that gives no fact: on today's main only fact counts told the session to reload.
MARKER = "Zqvx the quiet marker says good morning."


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def writer(path: Path) -> Iterator[TemporalGraph]:
    clock = ManualClock("2024-03-01")
    tg = TemporalGraph.open(path, clock=clock, embed=False)
    tg.add_episode("I live in Denver.", reference_time="2024-01-01", speaker="Maya")
    yield tg
    tg.close()


@pytest.fixture
def console(path: Path, writer: TemporalGraph) -> Iterator[EmbeddedCypher]:
    """The console's own TemporalGraph on the same file: another connection, as another process."""
    reader = TemporalGraph.open(path, embed=False)
    session = EmbeddedCypher(reader.core.store)
    yield session
    session.close()
    reader.close()


def contents(session: EmbeddedCypher, group: str = "default") -> list[str]:
    return [row[0] for row in session.run(CONTENTS, {"group_id": group})[1]]


def test_an_erase_through_another_connection_reaches_the_open_session(
    writer: TemporalGraph, console: EmbeddedCypher
) -> None:
    marker = writer.add_episode(MARKER, reference_time="2024-01-02", speaker="Zqvx").episode.id
    assert MARKER in contents(console)
    writer.erase_episode(marker)
    assert MARKER not in contents(console)
    assert contents(console) == ["I live in Denver."]


def test_a_new_message_without_facts_is_seen_by_the_open_session(
    writer: TemporalGraph, console: EmbeddedCypher
) -> None:
    assert contents(console) == ["I live in Denver."]
    writer.add_episode(MARKER, reference_time="2024-01-02", speaker="Zqvx")
    assert MARKER in contents(console)


def test_writes_through_the_sessions_own_store_are_seen_too(writer: TemporalGraph) -> None:
    session = EmbeddedCypher(writer.core.store)  # one connection: PRAGMA data_version would not move
    try:
        marker = writer.add_episode(MARKER, reference_time="2024-01-02").episode.id
        assert MARKER in contents(session)
        writer.erase_episode(marker)
        assert MARKER not in contents(session)
    finally:
        session.close()


def test_retention_retraction_and_forget_reach_the_open_session(
    writer: TemporalGraph, console: EmbeddedCypher
) -> None:
    writer.add_episode(MARKER, reference_time="2024-01-02", speaker="Zqvx")
    assert MARKER in contents(console)
    writer.prune(episodes_before="2025-01-01")  # every text erased, the ids stay
    assert contents(console) == ["", ""]
    writer.add_episode("I moved to Austin.", reference_time="2024-02-01", speaker="Maya")
    assert "I moved to Austin." in contents(console)
    writer.forget("default")
    assert contents(console) == []


def test_the_session_reloads_only_when_the_group_changed(
    writer: TemporalGraph, console: EmbeddedCypher
) -> None:
    contents(console)
    contents(console)
    assert console.loads == 1
    writer.add_episode("Elsewhere.", reference_time="2024-01-02", group_id="other")
    contents(console)
    assert console.loads == 1  # another group's write leaves this group's copy as it is
    writer.add_fact("Maya", "works at", "Acme")
    contents(console)
    assert console.loads == 2


def test_an_erase_in_another_process_reaches_an_interactive_console(
    path: Path, writer: TemporalGraph
) -> None:
    """The console prompt open, the message erased by another process, then a statement."""
    marker = writer.add_episode(MARKER, reference_time="2024-01-02", speaker="Zqvx").episode.id
    lines = iter([CONTENTS + ";", "__erase__", CONTENTS + ";", ":quit"])

    def read_line(_prompt: str) -> str:
        line = next(lines)
        if line == "__erase__":
            erase = ("import sys\nfrom temporal_graph import TemporalGraph\n"
                     "with TemporalGraph.open(sys.argv[1], embed=False) as tg:\n"
                     "    tg.erase_episode(sys.argv[2])\n")
            done = subprocess.run([sys.executable, "-c", erase, str(path), marker],
                                  capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stderr
            return ""
        return line

    buffer = io.StringIO()
    out = Console(file=buffer, width=200, color_system=None)
    reader = TemporalGraph.open(path, embed=False)
    try:
        assert run_console(reader.core.store, input_fn=read_line, out=out) == 0
    finally:
        reader.close()
    first, _, second = buffer.getvalue().partition("2 row(s)")
    assert "Zqvx" in first
    assert "Zqvx" not in second and "1 row(s)" in second


# -- limits -----------------------------------------------------------------------------------------
@pytest.fixture
def dense(tmp_path: Path) -> Iterator[TemporalGraph]:
    """Twelve people who all know each other: paths of up to six hops number in the hundreds of
    millions."""
    tg = TemporalGraph.open(tmp_path / "dense.db", embed=False)
    names = [f"Person {i}" for i in range(12)]
    tg.add_facts([{"subject": a, "relation": "knows", "object": b} for a in names for b in names if a != b])
    yield tg
    tg.close()


PATHS = "MATCH p=(a)-[*1..6]->(b) RETURN count(p)"


def test_a_runaway_path_query_stops_at_the_time_limit_and_the_session_goes_on(
    dense: TemporalGraph,
) -> None:
    session = EmbeddedCypher(dense.core.store, limits=Limits(timeout=0.5))
    try:
        with pytest.raises(EngineError, match=r"ran longer than the console's limit of 0.5 s .*--timeout"):
            session.run(PATHS, {"group_id": "default"})
        assert session.run("MATCH (n:Entity) RETURN count(n)", {"group_id": "default"})[1] == [[12]]
    finally:
        session.close()


def test_a_runaway_path_query_stops_at_the_memory_limit_and_the_session_goes_on(
    dense: TemporalGraph,
) -> None:
    session = EmbeddedCypher(dense.core.store, limits=Limits(timeout=300, memory_mb=128))
    try:
        with pytest.raises(EngineError, match=r"more memory than the console's limit of 128 MB .*max-memory"):
            session.run(PATHS, {"group_id": "default"})
        assert session.run("MATCH (n:Entity) RETURN count(n)", {"group_id": "default"})[1] == [[12]]
    finally:
        session.close()


def test_a_statement_cannot_lift_the_limits_it_runs_under(dense: TemporalGraph) -> None:
    session = EmbeddedCypher(dense.core.store, limits=Limits(timeout=0.5))
    try:
        for setting in ("CALL timeout=0", "call `timeout` = 0", "CALL threads = 64"):
            with pytest.raises(EngineError, match="engine settings"):
                session.run(setting, {"group_id": "default"})
        with pytest.raises(EngineError, match="limit of 0.5 s"):
            session.run(PATHS, {"group_id": "default"})
    finally:
        session.close()


def test_the_console_has_a_time_limit_by_default() -> None:
    assert 0 < Limits().timeout <= 60 and Limits().memory_mb <= 4096


def test_the_command_line_names_the_limit_and_carries_on(
    dense: TemporalGraph, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(dense.core.store.path)
    code = main(["--db", db, "cypher", "--timeout", "0.5", "-e", PATHS])
    err = capsys.readouterr().err
    assert code == 2 and "limit of 0.5 s" in err and "Traceback" not in err and "internal error" not in err
    lines = iter([PATHS + ";", "MATCH (n:Entity) RETURN count(n);", ":quit"])
    buffer = io.StringIO()
    out = Console(file=buffer, width=200, color_system=None)
    assert run_console(dense.core.store, input_fn=lambda _p: next(lines), out=out, timeout=0.5) == 0
    shown = buffer.getvalue()
    assert "limit of 0.5 s" in shown and "12" in shown and "1 row(s)" in shown


@pytest.mark.parametrize("flags", [["--timeout", "-1"], ["--max-memory", "1"], ["--timeout", "nan"]])
def test_a_bad_limit_is_refused_in_one_line(
    dense: TemporalGraph, capsys: pytest.CaptureFixture[str], flags: list[str]
) -> None:
    code = main(["--db", str(dense.core.store.path), "cypher", *flags, "-e", "RETURN 1"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err

