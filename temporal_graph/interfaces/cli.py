"""``tgraph``: the command line. Readable tables by default, JSON with ``--json``.

Exit codes: 0 success, 2 bad input (with a one-line message saying what was wrong), 1 anything else.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import unicodedata
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from rich.console import Console
from rich.table import Table

from ..client import TemporalGraph
from ..core import MAX_MESSAGE_CHARS, TRUST_MODES
from ..errors import InvalidInput, NotFound, TemporalGraphError
from ..model import Fact
from ..names import check_group
from ..times import ACCEPTED_FORMATS

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
TIME_HELP = f"""times: {ACCEPTED_FORMATS}.
Times without a zone are UTC; every time shown is UTC."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, like every other bad input
        self.exit(EXIT_BAD_INPUT, f"tgraph: {message} (see 'tgraph --help')\n")


def _common(*, suppress: bool) -> argparse.ArgumentParser:
    default = (lambda value: argparse.SUPPRESS) if suppress else (lambda value: value)
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--db", default=default("memory.db"), metavar="PATH",
                   help="embedded store file (default ./memory.db); must exist unless importing or --create")
    p.add_argument("--create", action="store_true", default=default(False),
                   help="create the --db file when it does not exist (import always may)")
    p.add_argument("--neo4j", default=default(None), metavar="URI",
                   help="use a Neo4j database instead (NEO4J_USER, NEO4J_PASSWORD from the environment)")
    p.add_argument("--group", default=default(None), metavar="GROUP",
                   help="group (tenant) to read or write; default 'default'")
    p.add_argument("--json", action="store_true", default=default(False), help="print JSON instead of tables")
    p.add_argument("--trust", choices=TRUST_MODES, default=default("speaker"),
                   help="'speaker' (default): what someone says about another person is kept as their claim "
                        "(claimed_by) and never ends that person's own facts; 'all': every speaker counts alike")
    p.add_argument("--max-message-chars", type=int, default=default(MAX_MESSAGE_CHARS), metavar="N",
                   help=f"refuse messages longer than N characters (default {MAX_MESSAGE_CHARS:,}); "
                        "an import reports each such line")
    p.add_argument("--llm", action="store_true", default=default(False),
                   help="extract and plan with the LLM configured by OPENAI_API_KEY / OPENAI_BASE_URL / "
                        "TGRAPH_LLM_MODEL (default: the offline rules)")
    # LLM tuning for local servers; each flag overrides its environment variable.
    for flag, kind, env in (("--llm-workers", int, "TGRAPH_LLM_WORKERS"),
                            ("--llm-timeout", float, "TGRAPH_LLM_TIMEOUT"),
                            ("--llm-retries", int, "TGRAPH_LLM_RETRIES"),
                            ("--llm-max-tokens", int, "TGRAPH_LLM_MAX_TOKENS")):
        p.add_argument(flag, type=kind, default=default(None), metavar="N",
                       help=f"with --llm (default ${env})")
    return p


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tgraph", description="A bi-temporal knowledge-graph memory.",
                     parents=[_common(suppress=False)], epilog=TIME_HELP,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    common = [_common(suppress=True)]

    def command(name: str, help: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help, parents=common, description=help, epilog=TIME_HELP,
                              formatter_class=argparse.RawDescriptionHelpFormatter)

    p = command("import", "import a chat log (JSONL, CSV, LoCoMo JSON, ChatGPT conversations.json)")
    p.add_argument("path", help="the chat-log file")
    p.add_argument("--format", default="auto", choices=["auto", "jsonl", "csv", "locomo", "chatgpt"],
                   help="file format (default: recognised from the content)")
    p.add_argument("--strict", action="store_true", help="stop at the first bad line; import nothing")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--replay", action="store_true",
                   help="record each message at its own time in transaction time too (a replayed history)")

    p.add_argument("--no-embed", action="store_true",
                   help="do not embed while importing (faster bulk load; run 'tgraph reindex' before searching)")

    p = command("import-facts", "bulk-load structured facts from CSV (with a header) or JSONL")
    p.add_argument("path", help="columns/keys: subject, relation, object, valid_at, invalid_at, text, confidence")
    p.add_argument("--strict", action="store_true", help="stop at the first bad line; import nothing")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--no-embed", action="store_true",
                   help="do not embed the facts (faster; run 'tgraph reindex' before searching)")

    p = command("reindex", "embed every record that has no vector yet (all groups unless --group)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")

    p = command("now", "what is true now")
    p.add_argument("subject", nargs="?", help="only facts about this entity")
    _filters(p)

    p = command("as-of", "what was true at a time, as known at another")
    p.add_argument("time", help="the valid time asked about (formats below)")
    p.add_argument("subject", nargs="?", help="only facts about this entity")
    p.add_argument("--known-at", metavar="TIME", help="as the memory believed it at this time (default now)")
    _filters(p)

    p = command("history", "a subject's timeline, as currently believed")
    p.add_argument("subject", help="the entity whose timeline to show")
    p.add_argument("--relation", help="only this relation (e.g. LIVES_IN or 'lives in')")

    p = command("audit", "every version of a fact across transaction time")
    p.add_argument("fact_id", help="a fact id, or the 8-character start shown in tables")

    p = command("diff", "facts that started, ended or were revised between two times")
    p.add_argument("start", help="start of the window (included)")
    p.add_argument("end", help="end of the window (excluded)")
    p.add_argument("--subject", help="only facts about this entity")

    p = command("paths", "multi-hop chains of facts valid at a time")
    p.add_argument("start", help="the entity to start from")
    p.add_argument("--end", help="only chains ending at this entity")
    p.add_argument("--relation", action="append", dest="relations", help="follow only this relation (repeatable)")
    p.add_argument("--max-hops", type=int, default=3, help="longest chain (default 3)")
    p.add_argument("--as-of", metavar="TIME", help="every hop valid at this time (default now)")

    p = command("search", "hybrid search over facts, entities and episodes")
    p.add_argument("query", help="words to look for")
    p.add_argument("--as-of", metavar="TIME", help="facts valid at this time (default: current facts)")
    p.add_argument("--limit", type=int, default=10, help="most hits to show (default 10)")

    p = command("ask", "answer a question from the memory")
    p.add_argument("question", help="the question, in words")
    p.add_argument("--reference-time", metavar="TIME", help="what 'now' means in the question (default now)")

    p = command("context", "a dated memory block for a prompt: the facts and messages relevant to a query")
    p.add_argument("query", help="what the block is for, e.g. a question")
    p.add_argument("--budget", type=int, default=1000, help="most tokens in the block (default 1000)")
    p.add_argument("--as-of", help="facts valid at this time (default now)")

    p = command("mcp", "serve the memory to agents over the Model Context Protocol (stdio by default)")
    p.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP on this port instead of stdio")
    p.add_argument("--host", default="127.0.0.1", help="address to bind with --http (default 127.0.0.1)")
    p.add_argument("--allow-forget", action="store_true",
                   help="offer the forget_group tool (deletes the group for good)")

    p = command("cypher", "an interactive Cypher console on the Neo4j database")
    p.add_argument("--write", action="store_true", help="allow writes (read-only by default)")

    p = command("export", "everything of one group as JSON")
    p.add_argument("--output", "-o", help="write to this file instead of standard output")

    p = command("forget", "delete one group entirely (asks first on a terminal; --yes otherwise)")
    p.add_argument("group_id", nargs="?", metavar="GROUP", help="the group to delete (or use --group)")
    p.add_argument("--yes", action="store_true", help="do not ask; needed when not run on a terminal")
    return parser


def _filters(p: argparse.ArgumentParser) -> None:
    p.add_argument("--relation", help="only this relation (e.g. LIVES_IN or 'lives in')")
    p.add_argument("--object", help="only facts whose object is this entity")


def open_graph(args: argparse.Namespace) -> TemporalGraph:
    options: dict[str, Any] = {"trust": args.trust, "max_message_chars": args.max_message_chars}
    if args.llm:
        from ..llm import LLMClient

        options["llm"] = LLMClient(concurrency=getattr(args, "llm_workers", None),
                                   timeout=getattr(args, "llm_timeout", None),
                                   max_retries=getattr(args, "llm_retries", None),
                                   max_tokens=getattr(args, "llm_max_tokens", None))
    if args.neo4j:
        user = os.environ.get("NEO4J_USER", "neo4j")
        password = os.environ.get("NEO4J_PASSWORD", "")
        return TemporalGraph.connect(args.neo4j, auth=(user, password), database=os.environ.get("NEO4J_DATABASE"),
                                     **options)
    if args.db != ":memory:" and not os.path.exists(args.db) and args.command not in ("import", "import-facts") and not args.create:
        raise InvalidInput(f"--db {args.db}: no such file; check the path, or add --create to start an empty memory")
    return TemporalGraph.open(args.db, **options)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; every failure ends as one line on stderr and an exit code, never a traceback."""
    try:
        args = build_parser().parse_args(argv)
        # Tables stay readable when piped: a fixed width instead of the 80 columns of a non-terminal.
        # markup=False: names and messages are data; "[/x]" in a name must print as is.
        console = Console(markup=False) if sys.stdout.isatty() else Console(width=160, markup=False)
        if args.command == "cypher":
            return _cypher(args, console)
        with open_graph(args) as tg:
            return COMMANDS[args.command](tg, args, console)
    except (InvalidInput, NotFound) as exc:
        return _fail(EXIT_BAD_INPUT, str(exc))
    except TemporalGraphError as exc:
        return _fail(EXIT_FAILED, str(exc))
    except KeyboardInterrupt:
        return _fail(130, "interrupted; committed work is kept, re-run to resume")
    except BrokenPipeError:
        # The reader (e.g. `| head`) stopped early; later flushes must not fail again at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return _fail(EXIT_FAILED, "output closed early (broken pipe)")
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        return _fail(EXIT_FAILED, f"cannot use{where}: {exc.strerror or exc}")
    except Exception as exc:  # last resort: one line instead of a traceback
        if os.environ.get("TGRAPH_DEBUG"):
            raise
        return _fail(EXIT_FAILED, f"internal error ({type(exc).__name__}: {exc}); set TGRAPH_DEBUG=1 for details")


def _fail(code: int, message: str) -> int:
    line = " ".join(message.split()) or "failed"  # one line, whatever the message held
    try:
        print(f"tgraph: {line}", file=sys.stderr)
    except OSError:
        pass
    return code


# -- commands --------------------------------------------------------------------------------------
def _group(args: argparse.Namespace) -> str:
    # Terminals may hand over decomposed text (NFD); groups are kept in NFC.
    return unicodedata.normalize("NFC", args.group) if args.group else "default"


def _import(tg: TemporalGraph, args: argparse.Namespace, console: Console) -> int:
    report = tg.import_file(args.path, format=args.format, group_id=args.group,
                            progress=not (args.quiet or args.json), strict=args.strict, replay=args.replay,
                            embed=False if args.no_embed else None)
    if args.json:
        print(report.model_dump_json(indent=2))
        return EXIT_OK
    table = Table(title=f"imported {report.path} ({report.format}) in {report.seconds:.1f} s", show_header=False)
    for label, value in (
        ("episodes read", report.episodes_read), ("episodes imported", report.episodes_imported),
        ("episodes skipped (already there)", report.episodes_skipped), ("facts added", report.facts_added),
        ("facts merged", report.facts_merged), ("facts ended", report.facts_ended),
        ("facts retracted", report.facts_retracted), ("entities created", report.entities_created),
        ("errors", len(report.errors)), ("conflicts (reused message ids)", len(report.conflicts)),
    ):
        table.add_row(label, str(value))
    console.print(table)
    for error in [*report.errors, *report.conflicts][:20]:
        console.print(f"{error.file}:{error.line}: {error.reason}", style="yellow", highlight=False)
    if len(report.errors) + len(report.conflicts) > 20:
        console.print(f"... and {len(report.errors) + len(report.conflicts) - 20} more (use --json for all)")
    _print_groups(report.groups, args, console)
    return EXIT_OK


def _print_groups(groups: dict[str, int], args: argparse.Namespace, console: Console) -> None:
    """Say where the messages went and how to query them: the group is easy to miss."""
    if not groups:
        return
    db = [] if args.neo4j else ["--db", args.db]
    for group, count in sorted(groups.items()):
        command = shlex.join(["tgraph", *db, "now", "--group", group])
        console.print(f"group {group!r}: {count} messages; query it with: {command}", highlight=False,
                      soft_wrap=True)


def _import_facts(tg: TemporalGraph, args: argparse.Namespace, console: Console) -> int:
    from ingestion.fact_files import import_facts

    report = import_facts(tg, args.path, group_id=_group(args), strict=args.strict,
                          embed=False if args.no_embed else None, progress=not (args.quiet or args.json))
    if args.json:
        print(report.model_dump_json(indent=2))
        return EXIT_OK
    console.print(f"{report.path}: {report.items} facts read, {report.rows_written} rows written, "
                  f"{report.entities_created} entities created, {len(report.errors)} errors, "
                  f"{report.seconds:.1f} s (group {_group(args)!r})", highlight=False)
    for error in report.errors[:20]:
        console.print(f"[yellow]{error.file}:{error.line}: {error.reason}[/yellow]", highlight=False)
    return EXIT_OK


def _reindex(tg: TemporalGraph, args: argparse.Namespace, console: Console) -> int:
    done = tg.reindex(args.group, progress=not (args.quiet or args.json))
    if args.json:
        print(json.dumps({"embedded": done}))
    else:
        console.print(f"embedded {done} records")
    return EXIT_OK


def _now(tg: TemporalGraph, args: argparse.Namespace, console: Console) -> int:
    facts = tg.now(args.subject, args.relation, args.object, group_id=_group(args))
    return _show_facts(facts, args, console, "true now")


def _as_of(tg: TemporalGraph, args: argparse.Namespace, console: Console) -> int:
    facts = tg.as_of(args.time, known_at=args.known_at, subject=args.subject, relation=args.relation,
                     object=args.object, group_id=_group(args))
    known = f", as known at {args.known_at}" if args.known_at else ""
    return _show_facts(facts, args, console, f"true at {args.time}{known}")


def _history(tg: TemporalGraph, args: argparse.Namespace, console: Console) -> int:
    facts = tg.history(args.subject, args.relation, group_id=_group(args))
    return _show_facts(facts, args, console, f"history of {args.subject}")


def _audit(tg: TemporalGraph, args: argparse.Namespace, console: Console) -> int:
    facts = tg.audit(args.fact_id, group_id=_group(args))
    return _show_facts(facts, args, console, f"versions of fact {args.fact_id}", versions=True)


def _diff(tg: TemporalGraph, args: argparse.Namespace, console: Console) -> int:
    diff = tg.diff(args.start, args.end, subject=args.subject, group_id=_group(args))
    if args.json:
        print(diff.model_dump_json(indent=2))
        return EXIT_OK
    _show_facts(diff.started, args, console, "started")
    _show_facts(diff.ended, args, console, "ended")
    _show_facts(diff.revised, args, console, "revised", versions=True)
    return EXIT_OK


def _paths(tg: TemporalGraph, args: argparse.Namespace, console: Console) -> int:
    paths = tg.paths(args.start, end=args.end, relations=args.relations, max_hops=args.max_hops,
                     as_of=args.as_of, group_id=_group(args))
    if args.json:
        print(json.dumps([[h.model_dump(mode="json") for h in p.hops] for p in paths], indent=2))
        return EXIT_OK
    if not paths:
        console.print("no paths")
    for i, path in enumerate(paths, 1):
        chain = " ".join(
            [path.hops[0].subject] + [f"-[{h.relation} {_span(h)}]-> {h.object}" for h in path.hops]
        )
        console.print(f"{i}. {chain}", highlight=False)
    return EXIT_OK


def _search(tg: TemporalGraph, args: argparse.Namespace, console: Console) -> int:
    hits = tg.search(args.query, as_of=args.as_of, limit=args.limit, group_id=_group(args))
    if args.json:
        print(json.dumps([h.model_dump(mode="json") for h in hits], indent=2))
        return EXIT_OK
    table = Table(title=f"search: {args.query}")
    for column in ("#", "kind", "text", "when", "why"):
        table.add_column(column)
    for i, hit in enumerate(hits, 1):
        when = _span(hit.fact) if hit.fact else (_day(hit.episode.reference_time) if hit.episode else "")
        table.add_row(str(i), hit.kind, hit.text, when, ", ".join(hit.reasons))
    console.print(table)
    return EXIT_OK


def _ask(tg: TemporalGraph, args: argparse.Namespace, console: Console) -> int:
    answer = tg.ask(args.question, reference_time=args.reference_time, group_id=_group(args))
    if args.json:
        print(answer.model_dump_json(indent=2))
        return EXIT_OK
    console.print(answer.text, highlight=False)
    for fact in answer.facts:
        console.print(f"  - {fact.text} [{_span(fact)}] (fact {fact.fact_id[:8]})", highlight=False)
    return EXIT_OK


def _context(tg: TemporalGraph, args: argparse.Namespace, console: Console) -> int:
    block = tg.context(args.query, budget_tokens=args.budget, as_of=args.as_of, group_id=_group(args))
    if args.json:
        print(json.dumps({"query": args.query, "budget_tokens": args.budget, "as_of": args.as_of,
                          "context": block}, indent=2, ensure_ascii=False))
    else:
        print(block)
    return EXIT_OK


def _export(tg: TemporalGraph, args: argparse.Namespace, console: Console) -> int:
    text = json.dumps(tg.export(_group(args)), indent=2, ensure_ascii=False)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as exc:
            raise InvalidInput(f"--output {args.output}: cannot write it ({exc.strerror or exc})") from None
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        print(text)
    return EXIT_OK


def _forget(tg: TemporalGraph, args: argparse.Namespace, console: Console) -> int:
    group = _forget_target(args)
    check_group(group)
    if not args.yes:
        if not sys.stdin.isatty():
            raise InvalidInput(f"forget {group!r}: deleting a group needs --yes when not run on a terminal")
        answer = input(f"Delete group {group!r} and everything in it, for good? Type the group name to confirm: ")
        if answer.strip() != group:
            print("tgraph: nothing deleted", file=sys.stderr)
            return EXIT_FAILED
    removed = tg.forget(group)
    if args.json:
        print(json.dumps({"group_id": group, "removed": removed}, ensure_ascii=False))
    else:
        console.print(f"forgot group {group!r}: {removed} records removed", highlight=False)
    return EXIT_OK


def _forget_target(args: argparse.Namespace) -> str:
    """The group to forget: positional (kept for compatibility) or --group, like other commands."""
    positional = unicodedata.normalize("NFC", args.group_id) if args.group_id else None
    named = _group(args) if args.group else None
    if positional and named and positional != named:
        raise InvalidInput(f"forget: two different groups given ({positional!r} and --group {named!r})")
    if not (positional or named):
        raise InvalidInput("forget: name the group to delete: tgraph forget --group GROUP")
    return positional or named  # type: ignore[return-value]


def _mcp(tg: TemporalGraph, args: argparse.Namespace, console: Console) -> int:
    from .mcp_server import serve

    group = check_group(_group(args))
    if args.http is not None and not 0 < args.http < 65536:
        raise InvalidInput(f"--http {args.http}: not a port number (1-65535)")
    serve(tg, group_id=group, allow_forget=args.allow_forget, http_port=args.http, host=args.host)
    return EXIT_OK


def _cypher(args: argparse.Namespace, console: Console) -> int:
    from cypher.console import run_console

    if not args.neo4j:
        from cypher.console import EMBEDDED_EXPLANATION

        print(EMBEDDED_EXPLANATION, file=sys.stderr)
        return EXIT_BAD_INPUT
    with open_graph(args) as tg:
        return run_console(tg.store, write=args.write, group_id=_group(args)) or EXIT_OK


COMMANDS: dict[str, Callable[[TemporalGraph, argparse.Namespace, Console], int]] = {
    "import": _import, "import-facts": _import_facts, "reindex": _reindex, "now": _now, "as-of": _as_of, "history": _history, "audit": _audit,
    "diff": _diff, "paths": _paths, "search": _search, "ask": _ask, "export": _export, "forget": _forget,
    "context": _context, "mcp": _mcp,
}


# -- rendering -------------------------------------------------------------------------------------
def _day(moment: datetime | None) -> str:
    if moment is None:
        return ""
    return moment.strftime("%Y-%m-%d") if (moment.hour, moment.minute, moment.second) == (0, 0, 0) \
        else moment.strftime("%Y-%m-%d %H:%M")


def _span(f: Fact) -> str:
    start = _day(f.valid_at) or "…"
    end = _day(f.invalid_at) if f.invalid_at is not None else "now"
    return f"{start} → {end}"


def _show_facts(facts: list[Fact], args: argparse.Namespace, console: Console, title: str,
                versions: bool = False) -> int:
    if args.json:
        print(json.dumps([f.model_dump(mode="json") for f in facts], indent=2, ensure_ascii=False))
        return EXIT_OK
    table = Table(title=f"{title} ({len(facts)})")
    for column in ("subject", "relation", "object", "valid from (UTC)", "valid until (UTC)", "believed from (UTC)"):
        table.add_column(column)
    if versions:
        table.add_column("believed until (UTC)")
    table.add_column("fact")
    for f in facts:
        claim = f" (claimed by {f.claimed_by})" if f.claimed_by else ""
        row = [f.subject, f.relation, f.object + claim, _day(f.valid_at) or "(unknown)", _day(f.invalid_at) or "-",
               _day(f.created_at)]
        if versions:
            row.append(_day(f.expired_at) or "-")
        row.append(f.fact_id[:8])
        table.add_row(*row)
    console.print(table)
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
