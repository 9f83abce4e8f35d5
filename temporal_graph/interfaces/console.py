"""``tgraph cypher``: a Cypher console on the memory, on Neo4j or on the embedded store.

Statements end with ``;`` and may span lines; lines starting with ``:`` are console commands
(``:help`` lists them). Results print as tables, or as one JSON object per statement. On Neo4j
the console is read-only unless started with ``write=True`` (``--write``): statements run in READ
transactions and write clauses are refused before they are sent. On the embedded store it is
always read-only: the group is loaded into an embedded Cypher engine (``cypher_embedded``), the
same graph model as the Neo4j store. Ready parameters: ``$now`` (the current time),
``$group_id`` and, after ``:asof``, ``$t`` (valid time) and ``$k`` (knowledge time).

Non-interactive use (``statements=``: ``tgraph cypher -e ... --file ...``) runs the statements and
commands in order and stops at the first bad one (exit code 2).

The core (splitting input into statements and commands, spotting write clauses, formatting
values and tables) needs no server and is tested on its own.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ..core.stores.statements import statement
from ..core.time import Clock, system_clock, to_utc
from .cypher_embedded.graph import GraphNode, GraphPath, GraphRelationship
from .cypher_embedded.ladybug_engine import Limits
from .cypher_runners import Neo4jRunner, Runner, StatementFailed, open_runner

# The documented queries of ``:snippets``, in the order shown: ``cypher/console/<name>.cypher``.
SNIPPET_NAMES = ("now", "asof", "history", "audit", "provenance")
SNIPPETS = {name: statement(f"console/{name}").readable for name in SNIPPET_NAMES}
ASOF_SNIPPET = SNIPPETS["asof"]

HELP = """\
Statements end with ';' and may span several lines. Commands:
  :help                     this text
  :params                   show the parameters
  :params {json}            replace the parameters with a JSON object
                            (times as "2023-05-01" strings stay strings)
  :param name => value      set one parameter (JSON value, or a bare word / time string)
  :asof T [K]               set $t = T and $k = K (default: now) and print the "as of" snippet
  :now                      refresh $now (it is set when the console starts)
  :group ID                 set $group_id (the embedded store then explores that group)
  :snippets [name]          documented queries: now, asof, history, audit, provenance
  :quit                     leave (also :exit, Ctrl-D)
Ready parameters: $now, $group_id, and $t / $k after :asof. Read-only unless started with --write
(Neo4j only)."""

# Clauses that change the graph or the schema; refused unless the console was started with write.
# (Administration commands are left to the server, which refuses them in a READ session.)
_WRITE_WORDS = ("CREATE", "MERGE", "DELETE", "DETACH", "SET", "REMOVE", "DROP", "FOREACH",
                "ALTER", "RENAME", "GRANT", "DENY", "REVOKE")
_WRITE_PROCEDURES = re.compile(
    r"\b(db\.create\.|db\.index\.fulltext\.create|db\.index\.vector\.create|apoc\.(create|merge|refactor|periodic|nodes\.delete|do)\b)",
    re.IGNORECASE,
)
_MAX_CELL = 80


@dataclass
class Command:
    """A console command (``:name args``)."""

    name: str
    argument: str = ""


@dataclass
class Query:
    text: str


def _scan(text: str) -> Iterable[tuple[int, str]]:
    """Yield (index, char) of characters outside strings, backtick names and comments."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "'\"`":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" and c != "`" else 1
            i = j + 1
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        yield i, c
        i += 1


def split_input(buffer: str) -> tuple[list[Command | Query], str]:
    """Split what was typed so far into complete items and the unfinished rest.

    A line starting with ``:`` (when no statement is pending) is a command; a statement is
    complete at a ``;`` outside strings, names and comments.
    """
    items: list[Command | Query] = []
    rest = buffer
    while True:
        stripped = rest.lstrip()
        if not stripped:
            return items, ""
        if stripped.startswith("//"):  # a comment line before a statement or command
            rest = stripped.partition("\n")[2]
            continue
        if stripped.startswith(":"):
            line, _newline, after = stripped.partition("\n")
            name, _sep, argument = line[1:].strip().partition(" ")
            items.append(Command(name.lower(), argument.strip()))
            rest = after
            continue
        end = next((i for i, c in _scan(stripped) if c == ";"), None)
        if end is None:
            return items, stripped
        text = stripped[:end].strip()
        if text:
            items.append(Query(text))
        rest = stripped[end + 1 :]


def write_clause(text: str, more_words: Sequence[str] = ()) -> str | None:
    """The first clause of ``text`` that would write, or None for a read-only statement
    (``more_words``: an engine's own statements that write or touch files)."""
    visible = "".join(c for _, c in _scan(text))
    refused = {*_WRITE_WORDS, *more_words}
    for word in re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", visible):
        if word.upper() in refused:
            return word.upper()
    found = _WRITE_PROCEDURES.search(visible)
    if found:
        return found.group(0)
    if re.search(r"\bIN\s+TRANSACTIONS\b", visible, re.IGNORECASE):
        return "CALL ... IN TRANSACTIONS"
    return None


def parse_value(text: str) -> Any:
    """A parameter value: JSON when it parses, else the bare text (times stay text unless :asof)."""
    text = text.strip()
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text.strip("'\"")


def parse_param(argument: str) -> tuple[str, Any]:
    """``name => value`` (also ``name: value`` and ``name = value``)."""
    match = re.match(r"^\$?([A-Za-z_][A-Za-z0-9_]*)\s*(=>|:|=)\s*(.*)$", argument.strip(), re.DOTALL)
    if not match:
        raise ValueError("usage: :param name => value")
    return match.group(1), parse_value(match.group(3))


def format_value(value: Any) -> str:
    """Readable text for one cell: nodes as (:Label {..}), relationships as [:TYPE {..}], times ISO."""
    if isinstance(value, GraphNode):
        return f"(:{':'.join(value.labels)} {_props(dict(value.properties))})"
    if isinstance(value, GraphRelationship):
        return f"[:{value.type} {_props(dict(value.properties))}]"
    if isinstance(value, GraphPath):
        return " ".join(format_value(r) for r in value.relationships)
    if isinstance(value, timedelta):
        return iso_duration(value)
    labels = getattr(value, "labels", None)
    if labels is not None and hasattr(value, "element_id"):
        return f"(:{':'.join(sorted(labels))} {_props(dict(value))})"
    rel_type = getattr(value, "type", None)
    if rel_type is not None and hasattr(value, "element_id") and hasattr(value, "start_node"):
        return f"[:{rel_type} {_props(dict(value))}]"
    if hasattr(value, "nodes") and hasattr(value, "relationships"):
        return " ".join(format_value(r) for r in value.relationships)
    if hasattr(value, "iso_format"):
        return value.iso_format()
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list):
        if len(value) > 8 and all(isinstance(x, (int, float)) for x in value):
            return f"[{len(value)} numbers]"  # embeddings
        return "[" + ", ".join(format_value(x) for x in value) + "]"
    if isinstance(value, dict):
        return _props(value)
    if value is None:
        return ""
    return str(value)


def iso_duration(value: timedelta) -> str:
    """``P30DT3600S``-style text for a duration (days and seconds, as the engines measure it)."""
    seconds = value.seconds + value.microseconds / 1e6
    time_part = f"T{seconds:g}S" if seconds else ""
    return f"P{value.days}D{time_part}" if value.days or not time_part else f"P{time_part}"


def json_value(value: Any) -> Any:
    """JSON data for one cell: nodes as {labels, properties}, relationships as {type, properties},
    paths as {nodes, relationships}, times as ISO text (on Neo4j and on the embedded store alike)."""
    if isinstance(value, GraphNode):
        return {"labels": list(value.labels), "properties": json_value(dict(value.properties))}
    if isinstance(value, GraphRelationship):
        return {"type": value.type, "properties": json_value(dict(value.properties))}
    if hasattr(value, "element_id") and hasattr(value, "labels"):  # a neo4j Node
        return {"labels": sorted(value.labels), "properties": json_value(dict(value))}
    if hasattr(value, "element_id") and hasattr(value, "start_node"):  # a neo4j Relationship
        return {"type": value.type, "properties": json_value(dict(value))}
    if hasattr(value, "nodes") and hasattr(value, "relationships"):  # a path, ours or neo4j's
        return {"nodes": [json_value(n) for n in value.nodes],
                "relationships": [json_value(r) for r in value.relationships]}
    if hasattr(value, "to_native") and hasattr(value, "iso_format"):  # a neo4j time: as Python's
        return json_value(value.to_native())
    if hasattr(value, "iso_format"):
        return value.iso_format()
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, timedelta):
        return iso_duration(value)
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): json_value(v) for k, v in value.items() if k not in ("embedding", "name_text")}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _props(props: dict) -> str:
    shown = {k: v for k, v in props.items() if k not in ("embedding", "name_text")}
    return "{" + ", ".join(f"{k}: {format_value(v)}" for k, v in sorted(shown.items())) + "}"


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_CELL else text[: _MAX_CELL - 1] + "…"


def render_table(keys: Sequence[str], rows: Sequence[Sequence[Any]], *, title: str | None = None) -> Table:
    table = Table(title=title, show_lines=False, header_style="bold")
    for key in keys:
        table.add_column(str(key), overflow="fold")
    for row in rows:
        table.add_row(*(_clip(format_value(v)) for v in row))
    return table


@dataclass
class ConsoleState:
    """Parameters and mode of one console session."""

    write: bool = False
    params: dict[str, Any] = field(default_factory=dict)
    done: bool = False
    clock: Clock = system_clock  # what $now and a default :asof K read: the memory's clock
    interactive: bool = True  # :asof also prints its snippet, for the eye

    def now(self) -> datetime:
        return to_utc(self.clock())

    def handle(self, command: Command, out: Console, to_time: Callable[[str], datetime]) -> bool:
        """Carry out a command; False (after saying why on ``out``) when it was not understood."""
        name, arg = command.name, command.argument

        def fail(message: str) -> bool:
            out.print(message, markup=False)
            return False

        if name in ("quit", "exit", "q"):
            self.done = True
        elif name in ("help", "h", "?"):
            out.print(HELP, markup=False, highlight=False)
        elif name == "params" and not arg:
            out.print(render_table(["name", "value"], sorted(self.params.items()), title="parameters"))
        elif name == "params":
            try:
                value = json.loads(arg)
            except json.JSONDecodeError as exc:
                return fail(f"not a JSON object: {exc}")
            if not isinstance(value, dict):
                return fail("usage: :params {\"name\": value, ...}")
            self.params = value
        elif name == "param":
            try:
                key, value = parse_param(arg)
            except ValueError as exc:
                return fail(str(exc))
            self.params[key] = value
        elif name == "now":
            self.params["now"] = self.now()
            out.print(f"$now = {self.params['now'].isoformat()}", markup=False)
        elif name == "group":
            if not arg:
                return fail("usage: :group ID")
            self.params["group_id"] = arg
        elif name == "asof":
            parts = arg.split()
            if not parts or len(parts) > 2:
                return fail("usage: :asof T [K]   (K, the knowledge time, defaults to now)")
            try:
                self.params["t"] = to_time(parts[0])
                self.params["k"] = to_time(parts[1]) if len(parts) == 2 else self.now()
            except ValueError as exc:
                return fail(str(exc))
            if self.interactive:
                out.print(f"$t = {self.params['t'].isoformat()}   $k = {self.params['k'].isoformat()}",
                          markup=False)
                out.print(ASOF_SNIPPET, markup=False, highlight=False)
        elif name == "snippets":
            chosen = [arg] if arg else list(SNIPPETS)
            unknown = [key for key in chosen if key not in SNIPPETS]
            if unknown:
                return fail(f"no snippet {unknown[0]!r}; there are: {', '.join(SNIPPETS)}")
            for key in chosen:
                out.print(SNIPPETS[key] + "\n", markup=False, highlight=False)
        else:
            return fail(f"unknown command :{name} (try :help)")
        return True


def _to_time(text: str) -> datetime:
    return to_utc(text, name="time")


def _history_file() -> Path:
    return Path(os.environ.get("TGRAPH_HISTORY", Path.home() / ".tgraph_cypher_history"))


def _read_line_factory() -> Callable[[str], str]:
    """``input`` with readline history and editing where readline exists."""
    try:
        import readline
    except ImportError:
        return input
    path = _history_file()
    try:
        readline.read_history_file(path)
    except OSError:
        pass
    readline.set_history_length(2000)
    import atexit

    def save() -> None:
        try:
            readline.write_history_file(path)
        except OSError:
            pass

    atexit.register(save)
    return input


@dataclass
class Shell:
    """Carries out commands and statements, writing tables (or JSON lines) to ``out`` and what goes
    wrong to ``err``."""

    runner: Runner
    state: ConsoleState
    out: Console
    err: Console
    json_lines: bool = False

    def execute(self, item: Command | Query) -> bool:
        """True when the item ran; False after one line on ``err`` saying why not."""
        if isinstance(item, Command):
            return self.state.handle(item, self.err if self.json_lines else self.out, _to_time)
        clause = None if self.state.write else write_clause(item.text, self.runner.refused_words)
        if clause is not None:
            return self._fail(f"refused: {clause} writes to the graph or touches files and this console "
                              "is read-only" + ("" if self.runner.refused_words else
                                                " (start it with --write to allow writes)"))
        try:
            outcome = self.runner.run(item.text, self.state.params)
        except StatementFailed as exc:
            return self._fail(f"error: {exc}")
        if self.json_lines:
            record = {"statement": item.text, "columns": outcome.keys,
                      "rows": [[json_value(v) for v in row] for row in outcome.rows]}
            self.out.print(json.dumps(record, ensure_ascii=False), markup=False, highlight=False,
                           emoji=False, soft_wrap=True)
            return True
        if outcome.keys:
            self.out.print(render_table(outcome.keys, outcome.rows))
        note = f"{len(outcome.rows)} row(s)"
        self.out.print(note + (f"; {outcome.changes}" if outcome.changes else ""), markup=False)
        return True

    def _fail(self, message: str) -> bool:
        self.err.print(message, markup=False, highlight=False, soft_wrap=True)
        return False


def script_items(statements: Sequence[str]) -> list[Command | Query]:
    """The commands and statements of ``-e`` texts and files, in order; the last statement of each
    text may leave out its ``;``."""
    items: list[Command | Query] = []
    for text in statements:
        found, _rest = split_input(text + "\n;")
        items.extend(found)
    return items


def run_console(
    target: Any,
    *,
    write: bool = False,
    group_id: str = "default",
    database: str | None = None,
    input_fn: Callable[[str], str] | None = None,
    out: Console | None = None,
    err: Console | None = None,
    clock: Clock = system_clock,
    statements: Sequence[str] | None = None,
    params: dict[str, Any] | None = None,
    json_lines: bool = False,
    timeout: float | None = None,
    max_memory_mb: int | None = None,
) -> int:
    """Run the console on ``target`` (a Neo4jStore, a TemporalGraph, a neo4j driver, or the
    embedded store); ``$now`` is read from ``clock``, ``params`` are set first.

    On the embedded store each statement may run ``timeout`` seconds (0: no limit) and the engine
    holds at most ``max_memory_mb`` MB (the group and what statements build); unset, they are
    ``TGRAPH_CYPHER_TIMEOUT`` / ``TGRAPH_CYPHER_MEMORY``, else 30 s and 2048 MB. A statement over
    either limit fails with one line naming it, and the session goes on.

    Interactive unless ``statements`` are given (texts of statements and ``:`` commands): then they
    run in order, and the first that fails stops the run. Returns an exit code: 0, or 2 after a
    statement or command that failed (with one line on ``err``) in a non-interactive run, or when
    ``write`` is asked of the embedded store.
    """
    out = out or Console()
    err = err or out
    state = ConsoleState(write=write, params={"group_id": group_id}, clock=clock,
                         interactive=statements is None)
    state.params["now"] = state.now()
    state.params.update(params or {})
    try:
        limits = Limits.chosen(timeout, max_memory_mb)
    except ValueError as exc:
        err.print(str(exc), markup=False, highlight=False, soft_wrap=True)
        return 2
    try:
        with open_runner(target, write=write, database=database, clock=clock, limits=limits) as runner:
            shell = Shell(runner, state, out, err, json_lines=json_lines)
            if statements is not None:
                for item in script_items(statements):
                    if not shell.execute(item):
                        return 2
                    if state.done:
                        break
                return 0
            _interactive(shell, input_fn or _read_line_factory())
    except StatementFailed as exc:
        err.print(str(exc), markup=False, highlight=False, soft_wrap=True)
        return 2
    return 0


def _interactive(shell: Shell, read_line: Callable[[str], str]) -> None:
    state = shell.state
    mode = "read-write" if state.write else "read-only"
    engine = "" if isinstance(shell.runner, Neo4jRunner) else ", embedded engine"
    shell.out.print(f"Cypher console ({mode}{engine}) on group {state.params['group_id']!r}. "
                    "';' ends a statement, :help for help.", markup=False)
    buffer = ""
    while not state.done:
        try:
            line = read_line("cypher> " if not buffer.strip() else "   ...> ")
        except EOFError:
            break
        except KeyboardInterrupt:
            buffer = ""
            shell.out.print("(cancelled)", markup=False)
            continue
        buffer += line + "\n"
        items, buffer = split_input(buffer)
        for item in items:
            shell.execute(item)
            if state.done:
                break
