"""``tgraph``: the command line. Readable tables by default, JSON with ``--json``.

Each command is its arguments plus one library call, registered with :func:`command`; its result
goes through :func:`emit`, the one place that writes ``--json`` output. A new command is a few lines::

    @command("show", "a summary of one entity", arg("name", help="the entity"),
             show=lambda summary, args, out: out.print(summary.text))
    def _show(tg: TemporalGraph, args: argparse.Namespace) -> EntitySummary:
        return tg.summary(args.name, group_id=group(args))

Exit codes: 0 success, 2 bad input (with a one-line message saying what was wrong), 1 anything else.
"""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import sys
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from rich.console import Console
from rich.table import Table

from ..client import IMPORT_FILE_HELP, IMPORT_FORMATS, TemporalGraph
from ..core import MAX_MESSAGE_CHARS, TRUST_MODES
from ..core.backtest import LearnedAfter
from ..core.copy import COPY_SAMPLES
from ..core.errors import InvalidInput, NotFound, TemporalGraphError
from ..core.mask_policy import MaskingPolicy
from ..core.model import (
    CLAIMS_MODES,
    DEFAULT_CLAIMS,
    DEFAULT_HALF_LIFE_DAYS,
    DEFAULT_IMPORTANCE,
    DEFAULT_RANK,
    DEFAULT_STALE,
    RANKS,
    RECORD_KINDS,
    SEARCH_KINDS,
    SEARCH_METHODS,
    STALE_MODES,
    Answer,
    Diff,
    Entity,
    EntityRetraction,
    EpisodeRetraction,
    ErasureReport,
    Fact,
    ImportReport,
    IngestResult,
    Insight,
    PruneReport,
    Reflection,
    SearchHit,
    Supersession,
)
from ..core.names import check_group
from ..core.receipts import ErasureReceipt
from ..core.time import ACCEPTED_FORMATS
from ..core.writes import input_error
from . import render, safe_text
from .graph_files import FORMATS, graph_file
from .render import insight_line
from .safe_text import json_text, visible
from .show import EntityView, entity_view, render_entity

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
TIME_HELP = f"""times: {ACCEPTED_FORMATS}.
Times without a zone are UTC; every time shown is UTC."""

GLOBAL_HELP = ("global options (before or after the command): --db PATH, --group GROUP, --json, "
               "--neo4j URI,\n--create, --llm and more; see 'tgraph --help'.")

Show = Callable[[Any, argparse.Namespace, Console], None]
T = TypeVar("T")


# -- the registry ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Argument:
    """What to pass to ``ArgumentParser.add_argument``."""

    flags: tuple[str, ...]
    options: dict[str, Any]


def arg(*flags: str, **options: Any) -> Argument:
    return Argument(flags, options)


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    arguments: tuple[Argument, ...]
    run: Callable[..., Any]  # (tg, args) -> result; (args) -> result when it opens no memory
    show: Show  # the human-readable output of a result
    creates_db: bool = False  # may start a missing --db file (writes); reads refuse a missing one
    opens_graph: bool = True
    epilog: str = ""  # more help, before the global options and times


COMMANDS: dict[str, Command] = {}


def command(name: str, help: str, *arguments: Argument, show: Show | None = None, creates_db: bool = False,
            opens_graph: bool = True, epilog: str = "") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a subcommand: its arguments, its handler (the decorated function) and how to show
    its result without ``--json`` (default: the JSON itself)."""

    def register(run: Callable[..., Any]) -> Callable[..., Any]:
        COMMANDS[name] = Command(name, help, arguments, run, show or _show_json, creates_db, opens_graph,
                                 epilog)
        return run

    return register


@dataclass(frozen=True)
class Document:
    """A result that is a file in its own format (export, snapshot): written as is, to ``path`` when
    given, else to standard output, whatever ``--json`` says."""

    text: str
    path: str | None


@dataclass(frozen=True)
class Done:
    """A command that already wrote its output (an interactive console, a refusal) and its exit code."""

    code: int


# -- parsing ---------------------------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]  # one line, exit 2, like every bad input
        self.exit(EXIT_BAD_INPUT, f"tgraph: {message} (see 'tgraph --help')\n")


def _common(*, suppress: bool) -> _Parser:
    """The global options. ``suppress``: as a subcommand accepts them (after its name too), with
    no default of their own and no help (a subcommand's help shows its own options only)."""
    default = (lambda value: argparse.SUPPRESS) if suppress else (lambda value: value)
    p = _Parser(add_help=False)
    if suppress:
        add = p.add_argument

        def quiet(*flags: str, **options: Any) -> Any:
            return add(*flags, **{**options, "help": argparse.SUPPRESS})

        p.add_argument = quiet  # type: ignore[method-assign]
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
                   help="'speaker' (default): what someone says about another person is kept as their "
                        "claim (claimed_by) and never ends that person's own facts; 'all': every speaker "
                        "counts alike")
    p.add_argument("--max-message-chars", type=int, default=default(MAX_MESSAGE_CHARS), metavar="N",
                   help=f"refuse messages longer than N characters (default {MAX_MESSAGE_CHARS:,}); "
                        "an import reports each such line")
    p.add_argument("--no-mask", action="store_true", default=default(False),
                   help="keep messages exactly as given (by default e-mail addresses, phone numbers, "
                        "national ids, cards, IBANs, keys, tokens and passwords become [email], ...)")
    p.add_argument("--mask-allow", action="append", default=default(None), metavar="VALUE",
                   help="never mask this value, e.g. a public support address (repeatable)")
    p.add_argument("--mask-pattern", action="append", type=_mask_pattern, default=default(None),
                   metavar="NAME=REGEX", help="also mask what REGEX matches, as [NAME] (repeatable)")
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
    for spec in COMMANDS.values():
        p = sub.add_parser(spec.name, help=spec.help, parents=common, description=spec.help,
                           epilog="\n".join(filter(None, (spec.epilog, GLOBAL_HELP, TIME_HELP))),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        for argument in spec.arguments:
            p.add_argument(*argument.flags, **argument.options)
    return parser


def _mask_pattern(text: str) -> tuple[str, str]:
    name, sep, regex = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=REGEX")
    return name.strip(), regex


def mask_option(args: argparse.Namespace) -> MaskingPolicy:
    """The masking policy the flags ask for: ``--no-mask``, ``--mask-allow``, ``--mask-pattern``."""
    allow, patterns = args.mask_allow or [], args.mask_pattern or []
    if args.no_mask:
        if allow or patterns:
            raise InvalidInput("--no-mask masks nothing: drop --mask-allow and --mask-pattern, or --no-mask")
        return MaskingPolicy(enabled=False)
    try:
        return MaskingPolicy(allow=frozenset(allow), patterns=tuple(patterns))
    except ValidationError as exc:
        raise input_error(exc) from None


def open_graph(args: argparse.Namespace) -> TemporalGraph:
    options: dict[str, Any] = {"trust": args.trust, "max_message_chars": args.max_message_chars,
                               "mask": mask_option(args)}
    if args.llm:
        from ..llm import LLMClient

        options["llm"] = LLMClient(concurrency=getattr(args, "llm_workers", None),
                                   timeout=getattr(args, "llm_timeout", None),
                                   max_retries=getattr(args, "llm_retries", None),
                                   max_tokens=getattr(args, "llm_max_tokens", None))
    if args.neo4j:
        return TemporalGraph.connect(args.neo4j, auth=_neo4j_auth(),
                                     database=os.environ.get("NEO4J_DATABASE"), **options)
    missing = args.db != ":memory:" and not os.path.exists(args.db)
    if missing and not (args.create or COMMANDS[args.command].creates_db):
        raise InvalidInput(f"--db {args.db}: no such file; check the path, "
                           "or add --create to start an empty memory")
    return TemporalGraph.open(args.db, **options)


def _neo4j_auth() -> tuple[str, str]:
    return os.environ.get("NEO4J_USER", "neo4j"), os.environ.get("NEO4J_PASSWORD", "")


# -- running ---------------------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; every failure ends as one line on stderr and an exit code, never a traceback."""
    # The Neo4j driver logs a failed connection itself; our one line says it (a handler stops
    # Python's last-resort one from printing the driver's line too).
    logging.getLogger("neo4j").addHandler(logging.NullHandler())
    try:
        args = build_parser().parse_args(argv)
        spec = COMMANDS[args.command]
        # Tables stay readable when piped: a fixed width instead of the 80 columns of a non-terminal.
        # Stored text is data: no markup, and control characters are shown escaped (safe_text).
        console = safe_text.console() if sys.stdout.isatty() else safe_text.console(width=160)
        if not spec.opens_graph:
            return emit(spec.run(args), spec, args, console)
        with open_graph(args) as tg:
            return emit(spec.run(tg, args), spec, args, console)
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
        return _fail(EXIT_FAILED,
                     f"internal error ({type(exc).__name__}: {exc}); set TGRAPH_DEBUG=1 for details")


def emit(result: Any, spec: Command, args: argparse.Namespace, console: Console) -> int:
    """Write a command's result: JSON with ``--json``, the command's own view otherwise."""
    if isinstance(result, Done):
        return result.code
    if isinstance(result, Document):
        _write_document(result)
    elif args.json:
        print(json_text(plain(result)))
    else:
        spec.show(result, args, console)
    return EXIT_OK


def plain(value: Any) -> Any:
    """JSON data for a result: models as their JSON dump, containers element by element."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def _show_json(result: Any, args: argparse.Namespace, console: Console) -> None:
    print(json_text(plain(result)))


def _write_document(document: Document) -> None:
    if document.path is None:
        print(document.text, end="" if document.text.endswith("\n") else "\n")
        return
    try:
        with open(document.path, "w", encoding="utf-8") as handle:
            handle.write(document.text)
    except OSError as exc:
        raise InvalidInput(f"--output {document.path}: cannot write it ({exc.strerror or exc})") from None
    print(f"wrote {visible(document.path)}", file=sys.stderr)


def _fail(code: int, message: str) -> int:
    line = visible(" ".join(message.split())) or "failed"  # one line, whatever the message held
    try:
        print(f"tgraph: {line}", file=sys.stderr)
    except OSError:
        pass
    return code


def group(args: argparse.Namespace) -> str:
    """The --group to use, 'default' when none; terminals may hand over decomposed text (NFD),
    groups are kept in NFC."""
    return unicodedata.normalize("NFC", args.group) if args.group else "default"


def _db_flags(args: argparse.Namespace) -> list[str]:
    return [] if args.neo4j else ["--db", args.db]


def _attribute(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    return key.strip(), value


def unknown_name_hint(tg: TemporalGraph, group_id: str, names: Sequence[str | None]) -> str | None:
    """Why a read about ``names`` may have found nothing: a group that holds nothing (and the groups
    that exist), or a name the group does not know (and the names it knows that look like it)."""
    if group_id not in tg.groups():
        others = ", ".join(repr(g) for g in tg.groups())
        return (f"group {group_id!r} holds nothing; " +
                (f"groups in this memory: {others} (use --group)" if others else "this memory is empty"))
    for name in names:
        if name is not None and tg.find_entity(name, group_id) is None:
            close = tg.similar_names(name, group_id)
            maybe = f"; did you mean {' or '.join(repr(n) for n in close)}?" if close else ""
            return f"no entity named {name!r} in group {group_id!r}{maybe}"
    return None


def _said_if_empty(tg: TemporalGraph, args: argparse.Namespace, result: T, *names: str | None) -> T:
    """``result``; when it is empty, one line on stderr says why if a name or the group is unknown."""
    if not result or (isinstance(result, Diff) and not (result.started or result.ended or result.revised)):
        hint = unknown_name_hint(tg, group(args), names)
        if hint is not None:
            print(f"tgraph: {visible(hint)}", file=sys.stderr)
    return result


# -- shared arguments ------------------------------------------------------------------------------
QUIET = arg("--quiet", action="store_true", help="no progress bar")
STALE = arg("--stale", choices=STALE_MODES, default=DEFAULT_STALE,
            help="messages whose facts all ended or were replaced: auto (default: hide for a question "
                 "about now, show labelled for one about the past), hide (counted), label (listed "
                 "after every current hit) or show (ranked as any hit)")
STRICT = arg("--strict", action="store_true", help="stop at the first bad line; import nothing")
SUBJECT_FILTERS = (arg("--relation", help="only this relation (e.g. LIVES_IN or 'lives in')"),
                   arg("--object", help="only facts whose object is this entity"))
STATEMENT = (arg("subject", help="the entity the fact is about, e.g. Alice"),
             arg("relation", help="the relation, e.g. LIVES_IN or 'lives in'"))
OUTPUT = arg("--output", "-o", metavar="FILE", help="write to this file instead of standard output")
REQUEST_ID = arg("--request-id", metavar="REF",
                 help="your reference for this erasure (a ticket number), kept in its receipt "
                      "(default: a new UUID)")


def _rows(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of rows (0: all)")
    return int(text)


TABLE_LIMIT = arg("--limit", type=_rows, default=200, metavar="N",
                  help="most facts a table shows (default 200; 0: all); --json always gives all")
NO_SUMMARIES = arg("--no-summaries", action="store_true",
                   help="do not refresh entity summaries while loading (faster bulk load; "
                        "run 'tgraph reindex' afterwards)")


def _facts(title: str | Callable[[argparse.Namespace], str], *, versions: bool = False) -> Show:
    """Show a list of facts as one table, titled ``title`` (or ``title(args)``)."""

    def show(facts: Any, args: argparse.Namespace, console: Console) -> None:
        render.fact_table(console, facts, title(args) if callable(title) else title, versions=versions,
                          limit=getattr(args, "limit", None))

    return show


# -- writing ---------------------------------------------------------------------------------------
@command("import", "import a chat log or export (WhatsApp, Slack, Telegram, Discord, Messenger, ChatGPT, "
         "Claude, JSONL, CSV, LoCoMo): a file, or a folder or zip of them",
         arg("path", help="the chat-log or export file, or a folder or zip of exports (formats and field "
                          "names below)"),
         arg("--format", default="auto", choices=["auto", *IMPORT_FORMATS],
             help="file format (default: recognised from the content)"),
         arg("--tz", metavar="ZONE",
             help="the zone of times an export gives without one (WhatsApp): an IANA name such as "
                  "Europe/Berlin, UTC or +05:30 (default: this machine's zone, said in the report)"),
         arg("--identities", metavar="FILE",
             help='which speaker ids are one person: JSON {"Alice": ["+41 79 555 01 02", "alice.m"]} or '
                  "CSV with columns id,person (the report lists each group's speakers)"),
         arg("--date-order", choices=["auto", "day-first", "month-first"], default="auto",
             help="the day/month order of WhatsApp dates (default: settled per file from its dates)"),
         STRICT, QUIET,
         arg("--replay", action="store_true",
             help="record each message at its own time in transaction time too (a replayed history)"),
         arg("--no-embed", action="store_true",
             help="do not embed while importing (faster bulk load; run 'tgraph reindex' before searching)"),
         NO_SUMMARIES,
         arg("--speaker-alias", nargs=2, action="append", metavar=("ALIAS", "SPEAKER"), dest="aliases",
             help="speaker id ALIAS is the person SPEAKER (repeatable; stored, as 'tgraph alias-speaker')"),
         show=lambda report, args, out: render.import_report(out, report, _db_flags(args)), creates_db=True,
         epilog=IMPORT_FILE_HELP)
def _import(tg: TemporalGraph, args: argparse.Namespace) -> ImportReport:
    return tg.import_file(args.path, format=args.format, group_id=args.group,
                          progress=not (args.quiet or args.json), strict=args.strict, replay=args.replay,
                          embed=False if args.no_embed else None,
                          summaries=False if args.no_summaries else None,
                          speaker_aliases=dict(args.aliases or ()), tz=args.tz, identities=args.identities,
                          date_order=args.date_order)


@command("alias-speaker", "declare that speaker id ALIAS is the person SPEAKER (ids are exact otherwise)",
         arg("alias", help="the other id the person speaks under, e.g. bob"),
         arg("speaker", help="the person's speaker id, e.g. Bob"),
         show=lambda entity, args, out: out.print(
             f"speaker {args.alias!r} is {entity.name!r} (also known as: "
             f"{', '.join(map(repr, entity.aliases))})", highlight=False),
         creates_db=True)
def _alias_speaker(tg: TemporalGraph, args: argparse.Namespace) -> Entity:
    return tg.alias_speaker(args.alias, args.speaker, group_id=group(args))


@command("import-facts", "bulk-load structured facts from CSV (with a header) or JSONL",
         arg("path", help="columns/keys: subject, relation, object, valid_at, invalid_at, text, confidence, "
                          "importance (1-10), episode_id, subject_type, object_type; attributes (JSONL)"),
         STRICT, QUIET,
         arg("--no-embed", action="store_true",
             help="do not embed the facts (faster; run 'tgraph reindex' before searching)"),
         NO_SUMMARIES,
         show=lambda report, args, out: render.fact_file_report(out, report, group(args)), creates_db=True)
def _import_facts(tg: TemporalGraph, args: argparse.Namespace) -> Any:
    return tg.import_facts(args.path, group_id=group(args), strict=args.strict,
                           embed=False if args.no_embed else None, progress=not (args.quiet or args.json),
                           summaries=False if args.no_summaries else None)


@command("add-fact", "record that SUBJECT RELATION OBJECT holds (contradictions follow the relation's rules)",
         *STATEMENT, arg("object", help="the other entity, e.g. Paris"),
         arg("--valid-at", metavar="TIME", help="when it started to hold (default: unknown)"),
         arg("--invalid-at", metavar="TIME", help="when it stopped holding (default: still holds)"),
         arg("--text", help="the statement in words (default: made from the names)"),
         arg("--confidence", type=float, default=1.0, help="between 0 and 1 (default 1)"),
         arg("--importance", type=int, default=DEFAULT_IMPORTANCE,
             help="how much it matters, 1 (trivia) to 10 (life-changing) (default 5)"),
         arg("--subject-type", metavar="TYPE", help="the subject's entity type, e.g. Person"),
         arg("--object-type", metavar="TYPE", help="the object's entity type (default: from the relation)"),
         arg("--attribute", action="append", type=_attribute, dest="attributes", metavar="KEY=VALUE",
             help="an extra attribute of the fact (repeatable)"),
         arg("--episode-id", metavar="ID", help="the episode this fact was learned from"),
         show=lambda fact, args, out: render.fact_table(out, [fact], "recorded"), creates_db=True)
def _add_fact(tg: TemporalGraph, args: argparse.Namespace) -> Fact:
    return tg.add_fact(args.subject, args.relation, args.object, valid_at=args.valid_at,
                       invalid_at=args.invalid_at, group_id=group(args), text=args.text,
                       episode_id=args.episode_id, confidence=args.confidence,
                       attributes=dict(args.attributes) if args.attributes else None,
                       subject_type=args.subject_type, object_type=args.object_type,
                       importance=args.importance)


def _show_ended(facts: list[Fact], args: argparse.Namespace, out: Console) -> None:
    if facts:
        render.fact_table(out, facts, "ended")
        return
    out.print(f"nothing held at {args.at}, so nothing ended; the ending is recorded and ends a fact told "
              "later that holds then (an ending at a fact's very start changes nothing: to say it never "
              "held, use tgraph retract)", highlight=False)


@command("end-fact", "close the fact(s) SUBJECT RELATION [OBJECT] holding at a time",
         *STATEMENT, arg("object", nargs="?", help="only this object (default: every current object)"),
         arg("--at", metavar="TIME", required=True, help="when it stopped holding"),
         arg("--create-names", action="store_true",
             help="record the ending even if SUBJECT or OBJECT is not known yet, creating them (an ending "
                  "told before its fact); without it an unknown name is an error"),
         show=lambda facts, args, out: _show_ended(facts, args, out))
def _end_fact(tg: TemporalGraph, args: argparse.Namespace) -> list[Fact]:
    return tg.end_fact(args.subject, args.relation, args.object, at=args.at, group_id=group(args),
                       create_names=args.create_names)


@command("retract", "SUBJECT RELATION OBJECT was never true: expire it in transaction time, no successor "
                    "(exit 2, nothing written, when nothing about it is believed)",
         *STATEMENT, arg("object", help="the other entity"),
         show=_facts("retracted", versions=True))
def _retract(tg: TemporalGraph, args: argparse.Namespace) -> list[Fact]:
    _believed_or_refuse(tg, args)
    return tg.retract_fact(args.subject, args.relation, args.object, group_id=group(args))


def _believed_or_refuse(tg: TemporalGraph, args: argparse.Namespace) -> None:
    """A retraction that would expire nothing is refused before it is written: it is almost always
    a wrong name or relation, and a command line that says nothing would hide that."""
    hint = unknown_name_hint(tg, group(args), [args.subject, args.object])
    if hint is not None:
        raise NotFound(f"retract: {hint}; nothing retracted")
    obj = tg.find_entity(args.object, group(args))
    timeline = tg.history(args.subject, args.relation, group_id=group(args))
    if obj is None or not any(f.object_id == obj.id for f in timeline):
        told = f"{args.subject!r} {args.relation!r} {args.object!r}"
        raise NotFound(f"retract: nothing is believed about {told} in group {group(args)!r} "
                       f"(see tgraph history {shlex.quote(args.subject)}); nothing retracted")


@command("add-episode", "tell the memory one message: extract its facts and apply them",
         arg("content", help="the message text"),
         arg("--reference-time", metavar="TIME", required=True, help="when the message was said"),
         arg("--speaker", help="who said it ('I' in the message)"),
         arg("--source", default="message", help="what kind of text it is (default 'message')"),
         arg("--source-id", metavar="ID",
             help="its id in the source, e.g. a message id (re-adding it is a no-op)"),
         arg("--key", metavar="KEY", action="append",
             help="what the message is the record of, e.g. Globex/payment_terms: a later message with the "
                  "same key replaces it (repeat for several keys)"),
         show=lambda result, args, out: render.ingest_result(out, result), creates_db=True)
def _add_episode(tg: TemporalGraph, args: argparse.Namespace) -> IngestResult:
    return tg.add_episode(args.content, reference_time=args.reference_time, speaker=args.speaker,
                          group_id=group(args), source=args.source, source_id=args.source_id, keys=args.key)


def _show_supersession(result: Supersession, args: argparse.Namespace, out: Console) -> None:
    matched = ", ".join(f"{visible(e.id[:8])} ({render.day(e.reference_time)}) {visible(e.content[:60])!r}"
                        for e in result.matched)
    if result.dry_run:
        out.print(f"would replace {len(result.matched)} message(s): {matched or 'none'} (nothing written; "
                  "run again without --dry-run, or with their ids)", highlight=False)
        return
    assert result.result is not None
    render.ingest_result(out, result.result)
    out.print(f"replaced {len(result.result.superseded)} message(s): {matched or 'none'}", highlight=False)


@command("supersede", "tell the memory a message that replaces earlier ones from its time (undone by "
                      "retract-episode of the new one)",
         arg("old", metavar="OLD", help="the message it replaces: an episode id, or words matching it "
                                        "(its best current matches; see them first with --dry-run)"),
         arg("content", help="the new message text"),
         arg("--also", metavar="ID", action="append", default=[], help="another episode id it replaces"),
         arg("--reference-time", metavar="TIME", required=True, help="when the new message was said"),
         arg("--speaker", help="who said it ('I' in the message)"),
         arg("--dry-run", action="store_true", help="only list the messages OLD matches; write nothing"),
         show=_show_supersession)
def _supersede(tg: TemporalGraph, args: argparse.Namespace) -> Supersession:
    old: str | list[str] = [args.old, *args.also] if args.also else args.old
    return tg.supersede(old, args.content, reference_time=args.reference_time, speaker=args.speaker,
                        group_id=group(args), dry_run=args.dry_run)


@command("reflect", "derive insights from the facts (patterns over time) and store them with their evidence",
         arg("--subject", help="only insights about this entity"),
         arg("--since", metavar="TIME", help="only insights about valid times after this"),
         arg("--producer", choices=("offline", "llm"), default="offline",
             help="offline rules (default) or the LLM (needs TGRAPH_LLM_* settings)"),
         show=lambda done, args, out: _reflection(done, out))
def _reflect(tg: TemporalGraph, args: argparse.Namespace) -> Reflection:
    return tg.reflect(group_id=group(args), subject=args.subject, since=args.since, producer=args.producer)


def _reflection(done: Reflection, console: Console) -> None:
    console.print(f"{len(done.written)} new insights, {done.kept} unchanged, {done.expired} expired"
                  + (f", {done.refused} LLM answers refused (unknown evidence)" if done.refused else ""),
                  highlight=False)
    _insights_list(done.written, console, "")


@command("reindex", "embed every record that has no vector yet and rebuild missing or stale entity summaries "
                    "(all groups unless --group)", QUIET,
         arg("--messages", action="store_true",
             help="also embed again every message of several sentences (by its sentences; a memory "
                  "written before 2026-12-07 holds their whole text's vector)"),
         show=lambda done, args, out: out.print(f"repaired {done['repaired']} records "
                                                "(vectors and summaries)"))
def _reindex(tg: TemporalGraph, args: argparse.Namespace) -> dict[str, int]:
    progress = not (args.quiet or args.json)
    return {"repaired": tg.reindex(args.group, progress=progress, messages=args.messages)}


# -- reading ---------------------------------------------------------------------------------------
CLAIMS = arg("--claims", choices=CLAIMS_MODES, default=DEFAULT_CLAIMS,
             help="all (default): own facts, and others' claims where no own fact covers that time; "
                  "own: own facts only; only: claims only")


@command("now", "what is true now",
         arg("subject", nargs="?", help="only facts about this entity"), *SUBJECT_FILTERS, CLAIMS,
         TABLE_LIMIT,
         show=_facts("true now"))
def _now(tg: TemporalGraph, args: argparse.Namespace) -> list[Fact]:
    facts = tg.now(args.subject, args.relation, args.object, group_id=group(args), claims=args.claims)
    return _said_if_empty(tg, args, facts, args.subject, args.object)


@command("as-of", "what was true at a time, as known at another",
         arg("time", help="the valid time asked about (formats below)"),
         arg("subject", nargs="?", help="only facts about this entity"),
         arg("--known-at", metavar="TIME", help="as the memory believed it at this time (default now)"),
         *SUBJECT_FILTERS, CLAIMS, TABLE_LIMIT,
         show=_facts(lambda a: f"true at {a.time}" + (f", as known at {a.known_at}" if a.known_at else "")))
def _as_of(tg: TemporalGraph, args: argparse.Namespace) -> list[Fact]:
    facts = tg.as_of(args.time, known_at=args.known_at, subject=args.subject, relation=args.relation,
                     object=args.object, group_id=group(args), claims=args.claims)
    return _said_if_empty(tg, args, facts, args.subject, args.object)


@command("history", "a subject's timeline, as currently believed",
         arg("subject", help="the entity whose timeline to show"), SUBJECT_FILTERS[0], TABLE_LIMIT,
         show=_facts(lambda a: f"history of {a.subject}"))
def _history(tg: TemporalGraph, args: argparse.Namespace) -> list[Fact]:
    facts = tg.history(args.subject, args.relation, group_id=group(args))
    return _said_if_empty(tg, args, facts, args.subject)


@command("show", "one entity: its summary, its current facts and its timeline",
         arg("entity", help="the entity to show"),
         arg("--known-at", metavar="TIME",
             help="the summary, facts and timeline as the memory believed them at this time (default now)"),
         TABLE_LIMIT, show=lambda view, args, console: render_entity(view, console, limit=args.limit))
def _show(tg: TemporalGraph, args: argparse.Namespace) -> EntityView:
    hint = unknown_name_hint(tg, group(args), [args.entity])
    if hint is not None:
        raise NotFound(hint)
    return entity_view(tg, args.entity, known_at=args.known_at, group_id=group(args))


@command("insights", "insights derived from the facts (tgraph reflect), as believed now or at a time",
         arg("subject", nargs="?", help="only insights about this entity"),
         arg("--known-at", metavar="TIME", help="as the memory believed them at this time (default now)"),
         show=lambda found, args, out: _insights_list(found, out, "no insights"))
def _insights(tg: TemporalGraph, args: argparse.Namespace) -> list[Insight]:
    return tg.insights(args.subject, known_at=args.known_at, group_id=group(args))


def _insights_list(found: list[Insight], console: Console, empty: str) -> None:
    for insight in found:
        console.print(f"- {insight_line(insight)}", highlight=False, soft_wrap=True)
    if not found:
        console.print(empty, highlight=False)


@command("audit", "every version of a fact across transaction time",
         arg("fact_id", help="a fact id, or the 8-character start shown in tables"),
         show=_facts(lambda a: f"versions of fact {a.fact_id}", versions=True))
def _audit(tg: TemporalGraph, args: argparse.Namespace) -> list[Fact]:
    return tg.audit(args.fact_id, group_id=group(args))


@command("diff", "facts that started, ended or were revised between two times",
         arg("start", help="start of the window (included)"), arg("end", help="end of the window (excluded)"),
         arg("--subject", help="only facts about this entity"),
         show=lambda diff, args, out: render.diff_tables(out, diff))
def _diff(tg: TemporalGraph, args: argparse.Namespace) -> Diff:
    return _said_if_empty(tg, args, tg.diff(args.start, args.end, subject=args.subject, group_id=group(args)),
                          args.subject)


@command("paths", "multi-hop chains of facts valid at a time (or overlapping in time)",
         arg("start", help="the entity to start from"),
         arg("--end", help="only chains ending at this entity"),
         arg("--relation", action="append", dest="relations", help="follow only this relation (repeatable)"),
         arg("--max-hops", type=int, default=3, help="longest chain (default 3)"),
         arg("--as-of", metavar="TIME", help="every hop valid at this time (default now)"),
         arg("--direction", choices=["out", "any"], default="out",
             help="'out' (default): subject to object only; 'any': facts may also be walked backwards"),
         arg("--overlapping", action="store_true",
             help="hops from any valid time whose intervals share an instant (instead of --as-of)"),
         arg("--during", nargs=2, metavar=("FROM", "UNTIL"),
             help="like --overlapping, with the shared time meeting [FROM, UNTIL)"),
         arg("--limit", type=int, default=100, help="most chains to show (default 100)"),
         arg("--known-at", metavar="TIME", help="every hop as the memory believed it then (default now)"),
         show=lambda hops, args, out: render.chains(out, hops, args.start))
def _paths(tg: TemporalGraph, args: argparse.Namespace) -> list[list[Fact]]:
    paths = tg.paths(args.start, end=args.end, relations=args.relations, max_hops=args.max_hops,
                     as_of=args.as_of, group_id=group(args), direction=args.direction,
                     overlapping=args.overlapping, during=tuple(args.during) if args.during else None,
                     limit=args.limit, known_at=args.known_at)
    return _said_if_empty(tg, args, [path.hops for path in paths], args.start, args.end)  # a chain: its hops


@command("search", "hybrid search over facts, entities and episodes",
         arg("query", help="words to look for"),
         arg("--as-of", metavar="TIME", help="facts valid at this time (default: current facts)"),
         arg("--limit", type=int, default=10, help="most hits to show (default 10)"),
         arg("--include-history", action="store_true", help="facts of any valid time, as currently believed"),
         arg("--kind", action="append", dest="kinds", choices=SEARCH_KINDS,
             help="only this kind of record (repeatable; default: facts, entities, episodes; "
                  "'insight' adds insights)"),
         arg("--method", action="append", dest="methods", choices=SEARCH_METHODS,
             help="only this ranking (repeatable; default all), e.g. to compare them"),
         arg("--pool", type=int, metavar="N",
             help="how deep each ranking goes before fusion (default max(30, 3*limit))"),
         arg("--rank", choices=RANKS, default=DEFAULT_RANK,
             help="order of the hits: relevance (default), recency, importance or blend"),
         arg("--half-life", type=float, default=DEFAULT_HALF_LIFE_DAYS, metavar="DAYS",
             help="for recency and blend: days after which a fact counts half as recent (default 30)"),
         arg("--known-at", metavar="TIME", help="search the memory as it stood at this time (default now)"),
         STALE,
         CLAIMS,
         show=lambda hits, args, out: render.search_table(out, hits, args.query))
def _search(tg: TemporalGraph, args: argparse.Namespace) -> list[SearchHit]:
    hits = tg.search(args.query, as_of=args.as_of, limit=args.limit, group_id=group(args),
                     include_history=args.include_history, kinds=args.kinds or RECORD_KINDS,
                     methods=args.methods or SEARCH_METHODS, pool=args.pool, rank=args.rank,
                     half_life_days=args.half_life, claims=args.claims, known_at=args.known_at,
                     stale=args.stale)
    if hits.stale_left_out and args.json:  # the table says it under the hits
        print(f"tgraph: {render.stale_note(hits.stale_left_out)}", file=sys.stderr)
    return _said_if_empty(tg, args, hits)


@command("ask", "answer a question from the memory",
         arg("question", help="the question, in words"),
         arg("--reference-time", metavar="TIME", help="what 'now' means in the question (default now)"),
         arg("--speaker", help="who asks ('I', 'my' in the question; default: the one person speaking)"),
         CLAIMS,
         show=lambda answer, args, out: render.answer(out, answer))
def _ask(tg: TemporalGraph, args: argparse.Namespace) -> Answer:
    return tg.ask(args.question, reference_time=args.reference_time, speaker=args.speaker,
                  group_id=group(args), claims=args.claims)


@command("context", "a dated memory block for a prompt: the facts and messages relevant to a query",
         arg("query", help="what the block is for, e.g. a question"),
         arg("--budget", type=int, default=1000, help="most tokens in the block (default 1000)"),
         arg("--as-of", metavar="TIME",
             help="facts valid at this time, and no message told after it (default now)"),
         arg("--known-at", metavar="TIME", help="nothing recorded after this time (default now)"),
         STALE,
         CLAIMS,
         show=lambda block, args, out: print(visible(block["context"])))
def _context(tg: TemporalGraph, args: argparse.Namespace) -> dict[str, Any]:
    block = tg.context(args.query, budget_tokens=args.budget, as_of=args.as_of, known_at=args.known_at,
                       group_id=group(args), claims=args.claims, stale=args.stale)
    return {"query": args.query, "budget_tokens": args.budget, "as_of": args.as_of, "known_at": args.known_at,
            "context": block}


@command("snapshot", "the graph of facts valid at a time, as GraphML or node-link JSON",
         arg("--as-of", metavar="TIME", help="facts valid at this time (default now)"),
         arg("--known-at", metavar="TIME", help="as the memory believed it at this time (default now)"),
         arg("--format", choices=FORMATS, default="graphml",
             help="graphml (default) or json (networkx node-link)"),
         OUTPUT)
def _snapshot(tg: TemporalGraph, args: argparse.Namespace) -> Document:
    graph = tg.snapshot(args.as_of, args.known_at, group_id=group(args))
    return Document(graph_file(graph, args.format), args.output)


@command("export", "everything of one group as JSON", OUTPUT)
def _export(tg: TemporalGraph, args: argparse.Namespace) -> Document:
    return Document(json_text(tg.export(group(args))), args.output)


@command("forget", "delete one group entirely (asks first on a terminal; --yes otherwise)",
         arg("group_id", nargs="?", metavar="GROUP", help="the group to delete (or use --group)"),
         arg("--yes", action="store_true", help="do not ask; needed when not run on a terminal"),
         REQUEST_ID,
         show=lambda done, args, out: out.print(
             f"forgot group {done['group_id']!r}: {done['removed']} records removed "
             f"({_counted(done['receipt'])})\n"
             + _receipt_line(done["receipt"]), highlight=False))
def _forget(tg: TemporalGraph, args: argparse.Namespace) -> dict[str, Any] | Done:
    target = check_group(_forget_target(args))
    if not args.yes:
        if not sys.stdin.isatty():
            raise InvalidInput(f"forget {target!r}: deleting a group needs --yes when not run on a terminal")
        answer = input(f"Delete group {target!r} and everything in it, for good? "
                       "Type the group name to confirm: ")
        if answer.strip() != target:
            print("tgraph: nothing deleted", file=sys.stderr)
            return Done(EXIT_FAILED)
    removed = tg.forget(target, request_id=args.request_id)
    return {"group_id": target, "removed": int(removed), "receipt": removed.receipt}


def _forget_target(args: argparse.Namespace) -> str:
    """The group to forget: positional (kept for compatibility) or --group, like other commands."""
    positional = unicodedata.normalize("NFC", args.group_id) if args.group_id else None
    named = group(args) if args.group else None
    if positional and named and positional != named:
        raise InvalidInput(f"forget: two different groups given ({positional!r} and --group {named!r})")
    if not (positional or named):
        raise InvalidInput("forget: name the group to delete: tgraph forget --group GROUP")
    return positional or named  # type: ignore[return-value]


@command("copy", "copy the memory into another store (a Neo4j database or another file), every group "
                 "unless --group; resumable, and compared with the source at the end",
         arg("--to", required=True, metavar="TARGET",
             help="a Neo4j URI (neo4j://host:7687, bolt://..., NEO4J_USER / NEO4J_PASSWORD) or an "
                  "embedded file (created when missing)"),
         arg("--samples", type=int, default=COPY_SAMPLES, metavar="N",
             help=f"as_of(T, K) questions, each about one subject, asked of both sides at the end "
                  f"(default {COPY_SAMPLES})"),
         arg("--merge", action="store_true",
             help="add to a group the target holds with a history of its own (refused otherwise)"))
def _copy(tg: TemporalGraph, args: argparse.Namespace) -> Done:
    with _open_target(args) as target:
        report = tg.copy_to(target, group_id=check_group(args.group) if args.group else None,
                            samples=args.samples, merge=args.merge)
    if args.json:
        print(json_text(plain(report)))
    else:
        render.copy_report(safe_text.console() if sys.stdout.isatty() else safe_text.console(width=160),
                           report, args.to)
    return Done(EXIT_OK if report.ok else EXIT_FAILED)


def _open_target(args: argparse.Namespace) -> TemporalGraph:
    """The store ``copy --to`` names: a Neo4j database by URI, else an embedded file."""
    if "://" in args.to:
        if args.to == args.neo4j:
            raise InvalidInput(f"--to {args.to}: that is the memory being copied")
        return TemporalGraph.connect(args.to, auth=_neo4j_auth(), database=os.environ.get("NEO4J_DATABASE"))
    if not args.neo4j and os.path.realpath(args.to) == os.path.realpath(args.db):
        raise InvalidInput(f"--to {args.to}: that is the memory being copied")
    return TemporalGraph.open(args.to)


def _show_retraction(result: EpisodeRetraction, args: argparse.Namespace, out: Console) -> None:
    if result.already:
        out.print(f"episode {visible(result.episode_id)} was already retracted: nothing changed",
                  highlight=False)
        return
    out.print(f"retracted episode {visible(result.episode_id)}: {len(result.expired)} fact versions no "
              f"longer believed, {len(result.added)} believed from now on", highlight=False)
    if result.added:
        render.fact_table(out, result.added, "now believed")


@command("retract-episode", "\"I never said that\": withdraw everything message ID told, as of now "
                            "(history and as-of queries still show what was believed before)",
         arg("episode_id", metavar="ID", help="the episode's id (see search or export)"),
         show=_show_retraction)
def _retract_episode(tg: TemporalGraph, args: argparse.Namespace) -> EpisodeRetraction:
    return tg.retract_episode(args.episode_id, group_id=group(args))


def _counted(receipt: ErasureReceipt) -> str:
    """A receipt's counts in words, the kinds it removed none of left out: "1 episode, 4 entities"."""
    words = [f"{n} {kind.replace('_', ' ').removesuffix('s') if n == 1 else kind.replace('_', ' ')}"
             for kind, n in receipt.counts.items() if n]
    return ", ".join(words) or "none"


def _show_entity_retraction(result: EntityRetraction, args: argparse.Namespace, out: Console) -> None:
    verb = "retracted" if args.command == "retract-entity" else "restored"
    if result.already:
        out.print(f"{visible(result.entity)} was already {verb}: nothing changed", highlight=False)
        return
    out.print(f"{verb} {visible(result.entity)} as of {result.at.isoformat()}: {len(result.expired)} fact "
              f"versions no longer believed, {len(result.added)} believed from now on, "
              f"{len(result.episodes)} messages {'out of' if verb == 'retracted' else 'back in'} reads",
              highlight=False)


@command("retract-entity", "withdraw a person (or any entity) as of now: every fact naming them and every "
                           "message about them leave reads; history and as-of queries keep what was "
                           "believed before; restore-entity undoes it",
         arg("name", help="the entity's name"), show=_show_entity_retraction)
def _retract_entity(tg: TemporalGraph, args: argparse.Namespace) -> EntityRetraction:
    return tg.retract_entity(args.name, group_id=group(args))


@command("restore-entity", "undo retract-entity: the entity's facts and messages count again",
         arg("name", help="the entity's name"), show=_show_entity_retraction)
def _restore_entity(tg: TemporalGraph, args: argparse.Namespace) -> EntityRetraction:
    return tg.restore_entity(args.name, group_id=group(args))


def _receipt_line(receipt: ErasureReceipt | None) -> str:
    if receipt is None:
        return ""
    return (f"receipt {visible(receipt.request_id)} at {receipt.at.isoformat()}: {receipt.total} records, "
            f"sha256 {receipt.digest} (tgraph erasures)")


def _show_erasure(report: ErasureReport, args: argparse.Namespace, out: Console) -> None:
    what = [f"episode {visible(e)}" for e in report.episodes]
    what += [f"entity {visible(n)}" for n in report.entities]
    out.print(f"erased {', '.join(what) or 'nothing'}: {report.assertions} statements, "
              f"{report.fact_versions} fact versions, {report.summary_versions} summary versions",
              highlight=False)
    out.print(_receipt_line(report.receipt), highlight=False)
    if report.naming_episodes:
        out.print(f"{len(report.naming_episodes)} messages still name it (erase them too with --episodes): "
                  + ", ".join(visible(e) for e in report.naming_episodes), highlight=False)


@command("erase", "remove a message or an entity for good, with every trace in history (privacy law); "
                  "asks first on a terminal (--yes otherwise); the receipt goes into the erasure log",
         arg("what", choices=("episode", "entity"), help="episode ID, or entity NAME"),
         arg("target", metavar="ID_OR_NAME", help="the episode id or the entity's name"),
         arg("--episodes", action="store_true",
             help="entity: also erase the messages that name it"),
         arg("--yes", action="store_true", help="do not ask; needed when not run on a terminal"),
         REQUEST_ID,
         show=_show_erasure)
def _erase(tg: TemporalGraph, args: argparse.Namespace) -> ErasureReport | Done:
    if args.what == "episode" and args.episodes:
        raise InvalidInput("erase episode: --episodes is for erasing an entity")
    if not args.yes:
        if not sys.stdin.isatty():
            raise InvalidInput(f"erase {args.what} {args.target!r}: erasing for good needs --yes when not "
                               "run on a terminal")
        with_messages = " and the messages naming it" if args.episodes else ""
        typed = "id" if args.what == "episode" else "name"
        answer = input(f"Erase {args.what} {visible(args.target)!r}{with_messages} for good, with every "
                       f"trace in history? Type the {typed} to confirm: ")
        if answer.strip() != args.target.strip():
            print("tgraph: nothing erased", file=sys.stderr)
            return Done(EXIT_FAILED)
    if args.what == "episode":
        return tg.erase_episode(args.target, group_id=group(args), request_id=args.request_id)
    return tg.erase_entity(args.target, group_id=group(args), include_episodes=args.episodes,
                           request_id=args.request_id)


def _show_prune(report: PruneReport, args: argparse.Namespace, out: Console) -> None:
    out.print(f"pruned group {visible(report.group_id)!r}: {report.versions_removed} old versions removed, "
              f"{report.episodes_erased} message texts erased", highlight=False)
    for receipt in report.receipts:
        out.print(_receipt_line(receipt), highlight=False)


@command("prune", "retention: drop history no longer believed before a date, erase old message texts",
         arg("--history-before", metavar="DATE",
             help="remove fact and summary versions no longer believed since before DATE"),
         arg("--episodes-before", metavar="DATE",
             help="erase the text of messages told before DATE (their facts stay, source erased)"),
         REQUEST_ID,
         show=_show_prune)
def _prune(tg: TemporalGraph, args: argparse.Namespace) -> PruneReport:
    if args.history_before is None and args.episodes_before is None:
        raise InvalidInput("prune: give --history-before DATE and/or --episodes-before DATE")
    return tg.prune(history_before=args.history_before, episodes_before=args.episodes_before,
                    group_id=group(args), request_id=args.request_id)


def _show_erasures(receipts: list[ErasureReceipt], args: argparse.Namespace, out: Console) -> None:
    table = Table(title=f"erasure log of group {visible(group(args))!r} ({len(receipts)})",
                  title_justify="left")
    for column in ("at (UTC)", "request id", "operation", "records", "sha256 of the ids"):
        table.add_column(column)
    for r in receipts:
        kinds = ", ".join(f"{n} {kind.replace('_', ' ')}" for kind, n in r.counts.items() if n) or "none"
        table.add_row(r.at.isoformat(timespec="seconds"), visible(r.request_id), r.operation, kinds, r.digest)
    out.print(table)


@command("erasures", "the erasure log: a receipt per erase, prune and forget (request id, time, counts, "
                     "digest of the ids; never what was erased), kept after the data is gone",
         arg("--since", metavar="TIME", help="receipts at or after this time only"),
         show=_show_erasures)
def _erasures(tg: TemporalGraph, args: argparse.Namespace) -> list[ErasureReceipt]:
    return tg.erasures(group_id=group(args), since=args.since)


def _show_learned(report: LearnedAfter, args: argparse.Namespace, out: Console) -> None:
    table = Table(title=f"learned after {report.known_at.isoformat()} in group {visible(report.group_id)!r}",
                  title_justify="left")
    table.add_column("records")
    table.add_column("count", justify="right")
    for kind, n in report.counts.items():
        table.add_row(kind.replace("_", " "), str(n))
    out.print(table)
    out.print(f"clean: a read at known_at={report.known_at.isoformat()} sees none of it" if report.clean else
              f"NOT clean: reads at that time returned {len(report.leaked)} of these records: "
              + ", ".join(visible(i) for i in report.leaked[:20]), highlight=False)


@command("learned-after", "backtest guard: every record the memory learned after a transaction time "
                          "(fact versions written or revised, messages, entities, insights, summaries)",
         arg("known_at", metavar="TIME", help="the transaction time a backtest reads at (known_at)"),
         show=_show_learned)
def _learned_after(tg: TemporalGraph, args: argparse.Namespace) -> LearnedAfter:
    return tg.learned_after(args.known_at, group_id=group(args))


@command("mcp", "serve the memory to agents over the Model Context Protocol (stdio by default)",
         arg("--http", type=int, metavar="PORT", help="serve streamable HTTP on this port instead of stdio"),
         arg("--host", default="127.0.0.1", help="address to bind with --http (default 127.0.0.1)"),
         arg("--allow-forget", action="store_true",
             help="offer the destructive tools: forget_group (deletes the group for good) and "
                  "retract_episode"))
def _mcp(tg: TemporalGraph, args: argparse.Namespace) -> Done:
    from .mcp_server import serve

    if args.http is not None and not 0 < args.http < 65536:
        raise InvalidInput(f"--http {args.http}: not a port number (1-65535)")
    serve(tg, group_id=check_group(group(args)), allow_forget=args.allow_forget, http_port=args.http,
          host=args.host)
    return Done(EXIT_OK)


@command("view", "a read-only web page on the group: search, entities with their bi-temporal chart and "
                 "neighbourhood, the Cypher console (on 127.0.0.1; prints its URL)",
         arg("--port", type=int, default=0, help="port to serve on (default: a free one)"),
         arg("--entity", metavar="NAME", help="with --svg: the entity whose chart to write"),
         arg("--svg", metavar="FILE", help="write the entity's bi-temporal chart to FILE instead of serving"),
         arg("--as-of", metavar="TIME", help="with --svg: mark what was true then"),
         arg("--known-at", metavar="TIME", help="with --svg: as the memory believed it then"))
def _view(tg: TemporalGraph, args: argparse.Namespace) -> Done:
    from .view import Server, export_chart

    if (args.svg is None) != (args.entity is None):
        raise InvalidInput("--svg FILE and --entity NAME go together (write one entity's chart)")
    if args.svg is not None:
        hint = unknown_name_hint(tg, check_group(group(args)), [args.entity])
        if hint is not None:
            raise NotFound(hint)
        svg = export_chart(tg, args.entity, group(args), as_of=args.as_of, known_at=args.known_at)
        with open(args.svg, "w", encoding="utf-8") as handle:
            handle.write(svg)
        print(f"tgraph view: wrote the chart of {visible(args.entity)!r} to {args.svg}")
        return Done(EXIT_OK)
    if not 0 <= args.port < 65536:
        raise InvalidInput(f"--port {args.port}: not a port number (0-65535)")
    server = Server(tg, check_group(group(args)), port=args.port)
    print(f"tgraph view: {server.url} (group {visible(group(args))!r}, read-only; Ctrl-C stops)", flush=True)
    hint = server.view.groups_hint()
    if hint is not None:
        print(f"tgraph view: {hint}", file=sys.stderr, flush=True)
    server.run()
    return Done(EXIT_OK)


@command("cypher", "a Cypher console on the memory (Neo4j, or the embedded store's graph)",
         arg("-e", "--execute", action="append", default=[], metavar="STATEMENT",
             help="run this statement or ':' command instead of the console (repeatable, in order)"),
         arg("--file", metavar="FILE",
             help="run the statements of FILE ('-': standard input), before any -e"),
         arg("--param", action="append", default=[], metavar="NAME=VALUE",
             help="set $NAME before running (a JSON value, else text; repeatable)"),
         arg("--write", action="store_true", help="allow writes (Neo4j only; read-only by default)"),
         arg("--timeout", type=float, metavar="SECONDS",
             help="stop a statement after this long (embedded store; 0: never; default "
                  "$TGRAPH_CYPHER_TIMEOUT, else 30)"),
         arg("--max-memory", type=int, metavar="MB",
             help="memory the embedded engine may hold, the group and what statements build (default "
                  "$TGRAPH_CYPHER_MEMORY, else 2048)"),
         opens_graph=False)
def _cypher(args: argparse.Namespace) -> Done:
    from .console import parse_param, run_console

    params = {}
    for text in args.param:
        try:
            name, value = parse_param(text)
        except ValueError:
            raise InvalidInput(f"--param {text!r}: write it as NAME=VALUE") from None
        params[name] = value
    statements: list[str] | None = None
    if args.file is not None or args.execute:
        statements = [_read_text(args.file)] if args.file is not None else []
        statements.extend(args.execute)
    # Fixed widths when piped, as for every command's tables.
    out = Console(markup=False, width=None if sys.stdout.isatty() else 160)
    err = Console(markup=False, width=None if sys.stderr.isatty() else 160, stderr=True)
    with open_graph(args) as tg:
        code = run_console(tg.core.store, write=args.write, group_id=group(args), clock=tg.core.clock,
                           statements=statements, params=params, json_lines=args.json, out=out, err=err,
                           timeout=args.timeout, max_memory_mb=args.max_memory)
        return Done(code)


def _read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
