"""``tgraph``: the command line. Readable tables by default, JSON with ``--json``.

Exit codes: 0 success, 2 bad input (with a one-line message saying what was wrong), 1 anything else.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from rich.console import Console
from rich.table import Table

from .client import TemporalGraph
from .errors import InvalidInput, TemporalGraphError
from .model import Fact

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, like every other bad input
        self.exit(EXIT_BAD_INPUT, f"tgraph: {message} (see 'tgraph --help')\n")


def _common(*, suppress: bool) -> argparse.ArgumentParser:
    default = (lambda value: argparse.SUPPRESS) if suppress else (lambda value: value)
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--db", default=default("memory.db"), help="embedded store file (default ./memory.db)")
    p.add_argument("--neo4j", default=default(None), metavar="URI", help="use a Neo4j database instead")
    p.add_argument("--group", default=default(None), help="group (tenant); default 'default'")
    p.add_argument("--json", action="store_true", default=default(False), help="print JSON")
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
                     parents=[_common(suppress=False)])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    common = [_common(suppress=True)]

    def command(name: str, help: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help, parents=common, description=help)

    p = command("import", "import a chat log (JSONL, CSV, LoCoMo JSON, ChatGPT conversations.json)")
    p.add_argument("path")
    p.add_argument("--format", default="auto", choices=["auto", "jsonl", "csv", "locomo", "chatgpt"])
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
    p.add_argument("subject", nargs="?")
    _filters(p)

    p = command("as-of", "what was true at a time, as known at another")
    p.add_argument("time")
    p.add_argument("subject", nargs="?")
    p.add_argument("--known-at", help="knowledge time (default now)")
    _filters(p)

    p = command("history", "a subject's timeline, as currently believed")
    p.add_argument("subject")
    p.add_argument("--relation")

    p = command("audit", "every version of a fact across transaction time")
    p.add_argument("fact_id")

    p = command("diff", "facts that started, ended or were revised between two times")
    p.add_argument("start")
    p.add_argument("end")
    p.add_argument("--subject")

    p = command("paths", "multi-hop chains of facts valid at a time")
    p.add_argument("start")
    p.add_argument("--end")
    p.add_argument("--relation", action="append", dest="relations")
    p.add_argument("--max-hops", type=int, default=3)
    p.add_argument("--as-of")

    p = command("search", "hybrid search over facts, entities and episodes")
    p.add_argument("query")
    p.add_argument("--as-of")
    p.add_argument("--limit", type=int, default=10)

    p = command("ask", "answer a question from the memory")
    p.add_argument("question")
    p.add_argument("--reference-time")

    p = command("context", "a dated memory block for a prompt: the facts and messages relevant to a query")
    p.add_argument("query")
    p.add_argument("--budget", type=int, default=1000, help="most tokens in the block (default 1000)")
    p.add_argument("--as-of", help="facts valid at this time (default now)")

    p = command("cypher", "an interactive Cypher console on the Neo4j database")
    p.add_argument("--write", action="store_true", help="allow writes (read-only by default)")

    p = command("export", "everything of one group as JSON")
    p.add_argument("--output", "-o", help="write to this file instead of standard output")

    p = command("forget", "delete one group entirely")
    p.add_argument("group_id")
    return parser


def _filters(p: argparse.ArgumentParser) -> None:
    p.add_argument("--relation")
    p.add_argument("--object")


def open_graph(args: argparse.Namespace) -> TemporalGraph:
    options: dict[str, Any] = {}
    if args.llm:
        from .llm import LLMClient

        options["llm"] = LLMClient(concurrency=getattr(args, "llm_workers", None),
                                   timeout=getattr(args, "llm_timeout", None),
                                   max_retries=getattr(args, "llm_retries", None),
                                   max_tokens=getattr(args, "llm_max_tokens", None))
    if args.neo4j:
        user = os.environ.get("NEO4J_USER", "neo4j")
        password = os.environ.get("NEO4J_PASSWORD", "")
        return TemporalGraph.connect(args.neo4j, auth=(user, password), database=os.environ.get("NEO4J_DATABASE"),
                                     **options)
    return TemporalGraph.open(args.db, **options)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # Tables stay readable when piped: a fixed width instead of the 80 columns of a non-terminal.
    console = Console() if sys.stdout.isatty() else Console(width=160)
    try:
        if args.command == "cypher":
            return _cypher(args, console)
        with open_graph(args) as tg:
            return COMMANDS[args.command](tg, args, console)
    except InvalidInput as exc:
        print(f"tgraph: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except TemporalGraphError as exc:
        print(f"tgraph: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print("tgraph: interrupted; committed work is kept, re-run to resume", file=sys.stderr)
        return 130


# -- commands --------------------------------------------------------------------------------------
def _group(args: argparse.Namespace) -> str:
    return args.group or "default"


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
        ("errors", len(report.errors)),
    ):
        table.add_row(label, str(value))
    console.print(table)
    for error in report.errors[:20]:
        console.print(f"[yellow]{error.file}:{error.line}: {error.reason}[/yellow]", highlight=False)
    if len(report.errors) > 20:
        console.print(f"... and {len(report.errors) - 20} more (use --json for all)")
    return EXIT_OK


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
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        print(text)
    return EXIT_OK


def _forget(tg: TemporalGraph, args: argparse.Namespace, console: Console) -> int:
    removed = tg.forget(args.group_id)
    if args.json:
        print(json.dumps({"group_id": args.group_id, "removed": removed}))
    else:
        console.print(f"forgot group {args.group_id!r}: {removed} records removed")
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
    "context": _context,
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
    for column in ("subject", "relation", "object", "valid from", "valid until", "believed from"):
        table.add_column(column)
    if versions:
        table.add_column("believed until")
    table.add_column("fact")
    for f in facts:
        row = [f.subject, f.relation, f.object, _day(f.valid_at) or "(unknown)", _day(f.invalid_at) or "-",
               _day(f.created_at)]
        if versions:
            row.append(_day(f.expired_at) or "-")
        row.append(f.fact_id[:8])
        table.add_row(*row)
    console.print(table)
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
