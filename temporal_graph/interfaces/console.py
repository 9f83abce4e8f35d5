"""``tgraph cypher``: an interactive Cypher console on the memory's Neo4j database.

Statements end with ``;`` and may span lines; lines starting with ``:`` are console commands
(``:help`` lists them). Results print as tables. The console is read-only unless started with
``write=True`` (``--write``): statements run in READ transactions and write clauses are refused
before they are sent. Ready parameters: ``$now`` (the current time), ``$group_id`` and, after
``:asof``, ``$t`` (valid time) and ``$k`` (knowledge time) for the "as of" snippets.

The core (splitting input into statements and commands, spotting write clauses, formatting
values and tables) needs no server and is tested on its own.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ..core.stores.statements import statement
from ..core.time import Clock, system_clock, to_utc

EMBEDDED_EXPLANATION = """\
The Cypher console needs the Neo4j store: this memory is the embedded (SQLite) store, which has
no Cypher engine. Start Neo4j 5 with one command, for example

    docker run --rm -p 7474:7474 -p 7687:7687 -e NEO4J_AUTH=neo4j/password neo4j:5

then load or import your memory into it and open the console with

    NEO4J_USER=neo4j NEO4J_PASSWORD=password tgraph --neo4j neo4j://localhost:7687 cypher
"""

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
  :group ID                 set $group_id
  :snippets [name]          documented queries: now, asof, history, audit, provenance
  :quit                     leave (also :exit, Ctrl-D)
Ready parameters: $now, $group_id, and $t / $k after :asof. Read-only unless started with --write."""

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


def write_clause(text: str) -> str | None:
    """The first clause of ``text`` that would write, or None for a read-only statement."""
    visible = "".join(c for _, c in _scan(text))
    for word in re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", visible):
        if word.upper() in _WRITE_WORDS:
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

    def now(self) -> datetime:
        return to_utc(self.clock())

    def handle(self, command: Command, out: Console, to_time: Callable[[str], datetime]) -> None:
        name, arg = command.name, command.argument
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
                out.print(f"not a JSON object: {exc}", markup=False)
                return
            if not isinstance(value, dict):
                out.print("usage: :params {\"name\": value, ...}", markup=False)
                return
            self.params = value
        elif name == "param":
            try:
                key, value = parse_param(arg)
            except ValueError as exc:
                out.print(str(exc), markup=False)
                return
            self.params[key] = value
        elif name == "now":
            self.params["now"] = self.now()
            out.print(f"$now = {self.params['now'].isoformat()}", markup=False)
        elif name == "group":
            if not arg:
                out.print("usage: :group ID", markup=False)
                return
            self.params["group_id"] = arg
        elif name == "asof":
            parts = arg.split()
            if not parts or len(parts) > 2:
                out.print("usage: :asof T [K]   (K, the knowledge time, defaults to now)", markup=False)
                return
            try:
                self.params["t"] = to_time(parts[0])
                self.params["k"] = to_time(parts[1]) if len(parts) == 2 else self.now()
            except ValueError as exc:
                out.print(str(exc), markup=False)
                return
            out.print(f"$t = {self.params['t'].isoformat()}   $k = {self.params['k'].isoformat()}",
                      markup=False)
            out.print(ASOF_SNIPPET, markup=False, highlight=False)
        elif name == "snippets":
            chosen = [arg] if arg else list(SNIPPETS)
            for key in chosen:
                if key not in SNIPPETS:
                    out.print(f"no snippet {key!r}; there are: {', '.join(SNIPPETS)}", markup=False)
                    continue
                out.print(SNIPPETS[key] + "\n", markup=False, highlight=False)
        else:
            out.print(f"unknown command :{name} (try :help)", markup=False)


def _to_time(text: str) -> datetime:
    return to_utc(text, name="time")


def _driver_of(target: Any) -> tuple[Any, str | None]:
    """The neo4j driver and database of a Neo4jStore, a TemporalGraph on one, or a driver."""
    store = getattr(target, "store", target)
    driver = getattr(store, "driver", None)
    if driver is not None and hasattr(driver, "session"):
        return driver, getattr(store, "database", None)
    if hasattr(target, "session") and hasattr(target, "verify_connectivity"):
        return target, None
    return None, None


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


def run_statement(
    session: Any, text: str, params: dict[str, Any], *, write: bool
) -> tuple[list[str], list[list[Any]], Any]:
    """Run one statement in a managed transaction (READ unless ``write``); keys, rows, summary."""

    def work(tx: Any) -> tuple[list[str], list[list[Any]], Any]:
        result = tx.run(text, params)
        keys = list(result.keys())
        rows = [list(record.values()) for record in result]
        return keys, rows, result.consume()

    return (session.execute_write if write else session.execute_read)(work)


def run_console(
    target: Any,
    *,
    write: bool = False,
    group_id: str = "default",
    database: str | None = None,
    input_fn: Callable[[str], str] | None = None,
    out: Console | None = None,
    clock: Clock = system_clock,
) -> int:
    """Run the console on ``target`` (a Neo4jStore, a TemporalGraph on one, or a neo4j driver);
    ``$now`` is read from ``clock``.

    Returns an exit code: 0 after ``:quit`` / end of input, 2 when the target has no Cypher engine.
    """
    out = out or Console()
    driver, store_database = _driver_of(target)
    if driver is None:
        out.print(EMBEDDED_EXPLANATION, markup=False, highlight=False)
        return 2
    import neo4j
    from neo4j.exceptions import Neo4jError

    read_line = input_fn or _read_line_factory()
    state = ConsoleState(write=write, params={"group_id": group_id}, clock=clock)
    state.params["now"] = state.now()
    mode = "read-write" if write else "read-only"
    out.print(f"Cypher console ({mode}) on group {group_id!r}. ';' ends a statement, :help for help.",
              markup=False)
    access = neo4j.WRITE_ACCESS if write else neo4j.READ_ACCESS
    buffer = ""
    with driver.session(database=database or store_database, default_access_mode=access) as session:
        while not state.done:
            try:
                line = read_line("cypher> " if not buffer.strip() else "   ...> ")
            except EOFError:
                break
            except KeyboardInterrupt:
                buffer = ""
                out.print("(cancelled)", markup=False)
                continue
            buffer += line + "\n"
            items, buffer = split_input(buffer)
            for item in items:
                if isinstance(item, Command):
                    state.handle(item, out, _to_time)
                    if state.done:
                        break
                    continue
                clause = None if write else write_clause(item.text)
                if clause is not None:
                    out.print(
                        f"refused: {clause} writes to the graph and this console is read-only "
                        "(start it with --write to allow writes)",
                        markup=False,
                    )
                    continue
                try:
                    keys, rows, summary = run_statement(session, item.text, state.params, write=write)
                except Neo4jError as exc:
                    out.print(f"error: {exc.message or exc}", markup=False)
                    continue
                if keys:
                    out.print(render_table(keys, rows))
                counters = getattr(summary, "counters", None)
                changes = counters.contains_updates if counters is not None else False
                note = f"{len(rows)} row(s)"
                if changes:
                    note += f"; {counters}"
                out.print(note, markup=False)
    return 0
