"""The memory as tools an agent can call: one spec per tool (name, description, pydantic input and
output models, handler), OpenAI-style function schemas generated from those models, and a
dispatcher that validates and runs a call. The MCP server serves exactly these specs.

A memory's tools act on one group, chosen by whoever wires them up (``call_tool(..., group_id=)``),
never by the model: an agent cannot read or write another tenant's memory by naming it.

    from temporal_graph.tools import call_tool, tool_schemas
    tools = tool_schemas()                                   # give these to the model
    result = call_tool(tg, "now", {"subject": "Alice"})      # run what it asked for
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .client import TemporalGraph
from .core import DEFAULT_GROUP
from .core.errors import InvalidInput
from .core.limits import BUDGET_TOKENS, HOPS, IMPORTANCE, RESULTS
from .core.model import (
    DEFAULT_IMPORTANCE,
    DEFAULT_STALE,
    Answer,
    EntityRetraction,
    EntitySummary,
    EpisodeRetraction,
    Fact,
    IngestResult,
    Insight,
    Reflection,
    SearchHit,
    StaleMode,
    Supersession,
)
from .core.names import name_key
from .core.receipts import ErasureReceipt

# A short hint for the model; a bad time gets the full list of accepted formats in its error.
TIME_FORMATS = "ISO 8601 ('2023-05-08', '2023-05-08T13:56:00+08:00') or a date ('8 May 2023', 'May 2023')"


class ToolArgumentError(InvalidInput):
    """A tool call named no known tool or gave arguments its input model rejects."""


# -- inputs ----------------------------------------------------------------------------------------
class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _name(what: str) -> Any:
    return Field(description=what)


def _time(what: str, default: Any = ...) -> Any:
    return Field(default, description=f"{what}; {TIME_FORMATS}")


def _whole(default: int, what: str, bounds: tuple[int, int]) -> Any:
    """A whole-number argument: strict, so ``true`` or ``"7"`` is refused rather than read as 1 or 7;
    the range is in the schema for the model, and checked by the library with its own message."""
    low, high = bounds
    return Field(default, description=what, strict=True, json_schema_extra={"minimum": low, "maximum": high})


class AddEpisodeInput(_Input):
    content: str = _name("The message or note, as said; facts are extracted from it.")
    reference_time: str | None = _time("When it was said (relative phrases such as 'last year' are read "
                                       "against it); default now", None)
    speaker: str | None = Field(None, description="Who said it; their 'I/me/my' means them.")
    source: str = Field("message", description="What kind of text it is, e.g. 'message' or 'document'.")
    keys: list[str] | None = Field(None, description="What the message is the record of, e.g. "
                                   "['Globex/payment_terms']: a later message with the same key replaces it "
                                   "from its reference time.")


class SupersedeInput(_Input):
    old: str | list[str] = _name("The message(s) the new one replaces: an episode id, a list of ids, or "
                                 "words matching the old message (its best current matches are replaced).")
    content: str = _name("The new message, as said; facts are extracted from it.")
    reference_time: str | None = _time("When it was said; the old messages are replaced from then "
                                       "(default now)", None)
    speaker: str | None = Field(None, description="Who said it; their 'I/me/my' means them.")
    dry_run: bool = Field(False, description="Only list the messages 'old' matches; write nothing.")


class EntityInput(_Input):
    name: str = _name("The person or thing, by name.")


class AddFactInput(_Input):
    subject: str = _name("The entity the fact is about, e.g. 'Alice'.")
    relation: str = _name("The relation, e.g. 'LIVES_IN' or 'lives in' (normalized to UPPER_SNAKE).")
    object: str = _name("The other entity or value, e.g. 'Paris'.")
    valid_at: str | None = _time("When it started to hold; omit if unknown", None)
    invalid_at: str | None = _time("When it stopped holding; omit if it still holds", None)
    text: str | None = Field(None, description="The fact as a sentence (default: made from the names).")
    importance: int = _whole(DEFAULT_IMPORTANCE, "How much it matters, 1 (trivia) to 10 (life-changing: "
                             "a birth, a marriage, a diagnosis); default 5.", IMPORTANCE)


class EndFactInput(_Input):
    subject: str = _name("The entity the fact is about.")
    relation: str = _name("The relation that stopped holding, e.g. 'WORKS_AT'.")
    object: str | None = Field(None, description="Only this object; omit to end whatever holds.")
    at: str = _time("When it stopped holding")


class RetractFactInput(_Input):
    subject: str = _name("The entity the wrong fact is about.")
    relation: str = _name("Its relation.")
    object: str = _name("Its object: every belief that subject-relation-object held is withdrawn.")


class _Claims(_Input):
    claims: Literal["all", "own", "only"] = Field(
        "all", description="Which statements to show: 'all' (default: the subject's own facts, and what "
        "others claimed about them where no own fact covers that time, labelled claimed_by), 'own' "
        "(own facts only) or 'only' (claims only).")


class SearchInput(_Claims):
    query: str = _name("Words to look for in facts, entity names and messages.")
    as_of: str | None = _time("Facts valid at this time instead of the current ones", None)
    limit: int = _whole(10, "Most hits to return.", RESULTS)
    rank: str = Field("relevance", description="Order of the hits: 'relevance' (default), 'recency' "
                      "(most recently told first), 'importance' or 'blend' (all three combined).")
    half_life_days: float = Field(30.0, strict=True, json_schema_extra={"exclusiveMinimum": 0},
                                  description="For recency and blend: days after which a fact counts half "
                                  "as recent.")
    known_at: str | None = _time("Search the memory as it stood at this moment: facts believed then, "
                                 "nothing recorded after it (default now)", None)
    stale: StaleMode = Field(DEFAULT_STALE, description="Messages out of date (a later message of their key, "
                             "an explicit supersede, or all their facts ended or replaced): 'auto' "
                             "(default: hide for a question about now, show labelled for one about the "
                             "past), 'hide' (counted in stale_left_out), 'label' (kept below every current "
                             "hit, standing 'superseded') or 'show' (ranked as any hit). Partly or possibly "
                             "superseded messages are always kept, labelled, below what replaced them.")


class _Filters(_Claims):
    subject: str | None = Field(None, description="Only facts about this entity.")
    relation: str | None = Field(None, description="Only this relation, e.g. 'LIVES_IN'.")
    object: str | None = Field(None, description="Only facts whose object is this entity.")


class NowInput(_Filters):
    pass


class AsOfInput(_Filters):
    valid_time: str = _time("The moment asked about")
    known_at: str | None = _time("As the memory believed it at this moment (default now); use it to see "
                                 "what was believed before a correction", None)


class HistoryInput(_Input):
    subject: str = _name("The entity whose timeline to show.")
    relation: str | None = Field(None, description="Only this relation, e.g. 'LIVES_IN'.")


class SummaryInput(_Input):
    entity: str = _name("The entity to summarize, e.g. 'Alice'.")
    known_at: str | None = _time("As the memory believed it at this moment (default now)", None)


class ReflectInput(_Input):
    subject: str | None = Field(None, description="Only insights about this entity (default: everyone).")
    since: str | None = _time("Only insights about times after this moment", None)


class InsightsInput(_Input):
    subject: str | None = Field(None, description="Only insights about this entity.")
    known_at: str | None = _time("As the memory believed them at this moment (default now)", None)


class PathsInput(_Input):
    start: str = _name("The entity to start from.")
    end: str | None = Field(None, description="Only chains ending at this entity.")
    relations: list[str] | None = Field(None, description="Follow only these relations, e.g. ['MARRIED_TO'].")
    max_hops: int = _whole(3, "Longest chain, in hops.", HOPS)
    as_of: str | None = _time("Every hop valid at this moment (default now)", None)
    known_at: str | None = _time("Every hop as the memory believed it at this moment (default now)", None)


class AskInput(_Claims):
    question: str = _name("A question in words, e.g. 'Where did Alice live in 2019?'.")
    reference_time: str | None = _time("What 'now' means in the question (default now)", None)
    speaker: str | None = Field(None, description="Who asks; 'I/me/my' in the question means them "
                                "(default: the one person speaking in the memory, if only one does).")


class ContextInput(_Claims):
    query: str = _name("What the memory block is for, e.g. the user's latest message.")
    budget_tokens: int = _whole(1000, "Most tokens in the block.", BUDGET_TOKENS)
    as_of: str | None = _time("Facts valid at this moment, and no message told after it (default now)", None)
    known_at: str | None = _time("Nothing the memory recorded after this moment (default now)", None)
    stale: StaleMode = Field(DEFAULT_STALE, description="Messages whose facts all ended or were replaced: "
                             "'auto' (default) or 'hide' leaves them out of a block about now; 'label' "
                             "or 'show' (and 'auto' for a question about the past) lists them last with "
                             "what replaced them.")


class RetractEpisodeInput(_Input):
    episode_id: str = _name("The id of the message to withdraw (as search, context or export show it).")


class ForgetGroupInput(_Input):
    group_id: str = _name("The id of the group this memory serves, typed again to confirm.")


# -- outputs (JSON objects: MCP's structured content must be one) ----------------------------------
class FactResult(BaseModel):
    fact: Fact


class FactsResult(BaseModel):
    facts: list[Fact]


class SearchResult(BaseModel):
    hits: list[SearchHit]
    stale_left_out: int = Field(0, description="Superseded messages left out of the hits (stale='hide').")


class PathsResult(BaseModel):
    paths: list[list[Fact]] = Field(description="Each path is its chain of facts, first hop first.")


class ContextResult(BaseModel):
    context: str


class SummaryResult(BaseModel):
    summary: EntitySummary | None = Field(description="None when nothing was known about the entity then.")


class InsightsResult(BaseModel):
    insights: list[Insight]


class ForgetResult(BaseModel):
    group_id: str
    removed: int
    # What the erasure log keeps of it (request id, time, counts, digest of the ids; no content).
    receipt: ErasureReceipt | None = None


# -- handlers: one call on the public facade each ----------------------------------------------------
def _add_episode(tg: TemporalGraph, a: AddEpisodeInput, group: str) -> IngestResult:
    reference = a.reference_time if a.reference_time is not None else tg.moment()
    return tg.add_episode(a.content, reference_time=reference, speaker=a.speaker, group_id=group,
                          source=a.source, keys=a.keys)


def _supersede(tg: TemporalGraph, a: SupersedeInput, group: str) -> Supersession:
    reference = a.reference_time if a.reference_time is not None else tg.moment()
    return tg.supersede(a.old, a.content, reference_time=reference, speaker=a.speaker, group_id=group,
                        dry_run=a.dry_run)


def _retract_entity(tg: TemporalGraph, a: EntityInput, group: str) -> EntityRetraction:
    return tg.retract_entity(a.name, group_id=group)


def _restore_entity(tg: TemporalGraph, a: EntityInput, group: str) -> EntityRetraction:
    return tg.restore_entity(a.name, group_id=group)


def _add_fact(tg: TemporalGraph, a: AddFactInput, group: str) -> FactResult:
    return FactResult(fact=tg.add_fact(a.subject, a.relation, a.object, valid_at=a.valid_at,
                                       invalid_at=a.invalid_at, text=a.text, importance=a.importance,
                                       group_id=group))


def _end_fact(tg: TemporalGraph, a: EndFactInput, group: str) -> FactsResult:
    return FactsResult(facts=tg.end_fact(a.subject, a.relation, a.object, at=a.at, group_id=group))


def _retract_fact(tg: TemporalGraph, a: RetractFactInput, group: str) -> FactsResult:
    return FactsResult(facts=tg.retract_fact(a.subject, a.relation, a.object, group_id=group))


def _search(tg: TemporalGraph, a: SearchInput, group: str) -> SearchResult:
    hits = tg.search(a.query, as_of=a.as_of, limit=a.limit, group_id=group, rank=a.rank,
                     half_life_days=a.half_life_days, claims=a.claims, known_at=a.known_at, stale=a.stale)
    return SearchResult(hits=hits, stale_left_out=hits.stale_left_out)


def _now(tg: TemporalGraph, a: NowInput, group: str) -> FactsResult:
    return FactsResult(facts=tg.now(a.subject, a.relation, a.object, group_id=group, claims=a.claims))


def _as_of(tg: TemporalGraph, a: AsOfInput, group: str) -> FactsResult:
    return FactsResult(facts=tg.as_of(a.valid_time, known_at=a.known_at, subject=a.subject,
                                      relation=a.relation, object=a.object, group_id=group, claims=a.claims))


def _history(tg: TemporalGraph, a: HistoryInput, group: str) -> FactsResult:
    return FactsResult(facts=tg.history(a.subject, a.relation, group_id=group))


def _summary(tg: TemporalGraph, a: SummaryInput, group: str) -> SummaryResult:
    return SummaryResult(summary=tg.summary(a.entity, known_at=a.known_at, group_id=group))


def _reflect(tg: TemporalGraph, a: ReflectInput, group: str) -> Reflection:
    return tg.reflect(group_id=group, subject=a.subject, since=a.since)


def _insights(tg: TemporalGraph, a: InsightsInput, group: str) -> InsightsResult:
    return InsightsResult(insights=tg.insights(a.subject, known_at=a.known_at, group_id=group))


def _paths(tg: TemporalGraph, a: PathsInput, group: str) -> PathsResult:
    found = tg.paths(a.start, end=a.end, relations=a.relations, max_hops=a.max_hops, as_of=a.as_of,
                     group_id=group, known_at=a.known_at)
    return PathsResult(paths=[p.hops for p in found])


def _ask(tg: TemporalGraph, a: AskInput, group: str) -> Answer:
    return tg.ask(a.question, reference_time=a.reference_time, speaker=a.speaker, group_id=group,
                  claims=a.claims)


def _context(tg: TemporalGraph, a: ContextInput, group: str) -> ContextResult:
    block = tg.context(a.query, budget_tokens=a.budget_tokens, as_of=a.as_of, known_at=a.known_at,
                       group_id=group, claims=a.claims, stale=a.stale)
    return ContextResult(context=block)


def _retract_episode(tg: TemporalGraph, a: RetractEpisodeInput, group: str) -> EpisodeRetraction:
    return tg.retract_episode(a.episode_id, group_id=group)


def _forget_group(tg: TemporalGraph, a: ForgetGroupInput, group: str) -> ForgetResult:
    if a.group_id != group:
        raise InvalidInput(f"forget_group: this memory serves group {group!r}; "
                           f"it cannot delete {a.group_id!r}")
    removed = tg.forget(group)
    return ForgetResult(group_id=group, removed=removed, receipt=removed.receipt)


# -- the specs -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ToolSpec:
    """One tool: what a model sees (name, description, input schema) and what runs."""

    name: str
    description: str
    input: type[BaseModel]
    output: type[BaseModel]
    handler: Callable[[TemporalGraph, Any, str], BaseModel]
    writes: bool  # changes the memory (callers serialize these per group)
    destructive: bool = False  # only offered when explicitly allowed
    extracts: bool = False  # runs extraction (AsyncTemporalGraph runs one at a time)

    def input_schema(self) -> dict[str, Any]:
        return _schema(self.input)

    def output_schema(self) -> dict[str, Any]:
        return self.output.model_json_schema(mode="serialization")


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec("add_episode",
             "Remember a message: extract its facts (who lives, works, studies where, relatives, likes, "
             "plans, what happened when) and apply them, ending facts it contradicts. Call it after each "
             "user turn worth remembering. E-mail addresses, phone numbers, ids, cards, keys and passwords "
             "in it are masked ([email], [password], ...) before anything is kept. Returns what was added, "
             "merged, ended or retracted, and what was masked by kind.",
             AddEpisodeInput, IngestResult, _add_episode, writes=True, extracts=True),
    ToolSpec("supersede",
             "Remember a message that replaces earlier ones ('the staging server has 64 GB now', 'that's "
             "no longer true: ...'): the old messages stop counting as current from its time, and facts "
             "only they told end. Give the old messages' ids, or words matching them (dry_run lists the "
             "matches first). Undone by retracting the new message.",
             SupersedeInput, Supersession, _supersede, writes=True, extracts=True),
    ToolSpec("add_fact",
             "Record one fact 'subject relation object' directly, optionally with when it started and "
             "ended. For one-at-a-time relations (LIVES_IN, WORKS_AS, MARRIED_TO) a new object ends the old "
             "one at its start. Returns the fact written (or the one it merged into).",
             AddFactInput, FactResult, _add_fact, writes=True),
    ToolSpec("end_fact",
             "Say a fact stopped holding at a time ('Alice left Acme in May 2024'); it stays in the "
             "history. Returns the facts ended.",
             EndFactInput, FactsResult, _end_fact, writes=True),
    ToolSpec("retract_fact",
             "Withdraw a fact that was never true (a mistake or a correction: 'actually it was Lyon, not "
             "Paris'); it disappears from current answers and history but stays auditable. Returns the "
             "facts withdrawn.",
             RetractFactInput, FactsResult, _retract_fact, writes=True),
    ToolSpec("search",
             "Find facts, entities and messages relevant to some words (keywords, meaning and graph "
             "neighbours combined), current facts unless as_of is given. Use it when you do not know "
             "the exact entity or relation.",
             SearchInput, SearchResult, _search, writes=False),
    ToolSpec("now",
             "What is true now, optionally only about one subject, relation or object. Each fact comes "
             "with when it started (valid_at).",
             NowInput, FactsResult, _now, writes=False),
    ToolSpec("as_of",
             "What was true at a past (or future) moment; with known_at, as the memory believed it at "
             "that moment (before later corrections).",
             AsOfInput, FactsResult, _as_of, writes=False),
    ToolSpec("history",
             "The timeline of a subject (optionally one relation) as currently believed, oldest first: "
             "where someone lived, worked, ... and from when until when.",
             HistoryInput, FactsResult, _history, writes=False),
    ToolSpec("summary",
             "A short description of an entity made from its current facts (newest first), as the memory "
             "believed it now or at known_at. A cheap first look before asking for facts.",
             SummaryInput, SummaryResult, _summary, writes=False),
    ToolSpec("reflect",
             "Derive insights from the facts (how often something changed, values held for years, streaks "
             "and gaps, people sharing a place or job, plans that never happened) and store them with the "
             "facts they rest on. Returns the new insights.",
             ReflectInput, Reflection, _reflect, writes=True),
    ToolSpec("insights",
             "The insights believed now (or at known_at), optionally about one entity, weightiest first, "
             "each with the fact versions it rests on; an insight expires when any of them is corrected.",
             InsightsInput, InsightsResult, _insights, writes=False),
    ToolSpec("paths",
             "Multi-hop chains of facts from an entity (e.g. Kenji -HAS_SIBLING-> Hiro -LIVES_IN-> Osaka), "
             "every hop valid at the same moment, shortest first.",
             PathsInput, PathsResult, _paths, writes=False),
    ToolSpec("ask",
             "Answer a question in words from the memory, with the facts it rests on; says so when the "
             "memory does not know.",
             AskInput, Answer, _ask, writes=False),
    ToolSpec("context",
             "A dated memory block for a prompt: the facts and messages most relevant to a query, within "
             "a token budget. Put it in your context before answering the user.",
             ContextInput, ContextResult, _context, writes=False),
    ToolSpec("retract_episode",
             "Withdraw everything one message told ('I never said I moved to Austin'), as of now: facts "
             "only it supported end, facts it had ended or replaced hold again, and it stops feeding "
             "search and context. The history of what was believed before stays auditable. Only when "
             "the user explicitly asks for it.",
             RetractEpisodeInput, EpisodeRetraction, _retract_episode, writes=True, destructive=True),
    ToolSpec("retract_entity",
             "Withdraw a person (or anything named) from the memory as of now: every fact naming them and "
             "every message about them stop feeding answers, search and context; the history stays "
             "auditable and restore_entity brings them back. Only when the user explicitly asks for it.",
             EntityInput, EntityRetraction, _retract_entity, writes=True, destructive=True),
    ToolSpec("restore_entity",
             "Undo retract_entity: the person's facts and messages count again.",
             EntityInput, EntityRetraction, _restore_entity, writes=True, destructive=True),
    ToolSpec("forget_group",
             "Delete everything this memory holds, for good (the right to be forgotten). Only when the "
             "user explicitly asks for it; give the group id to confirm.",
             ForgetGroupInput, ForgetResult, _forget_group, writes=True, destructive=True),
)
_BY_NAME = {spec.name: spec for spec in TOOLS}


def tool_specs(*, allow_forget: bool = False) -> list[ToolSpec]:
    """The tools on offer; the destructive ones (``retract_episode``, ``retract_entity``,
    ``restore_entity``, ``forget_group``) only when ``allow_forget``."""
    return [spec for spec in TOOLS if allow_forget or not spec.destructive]


def tool_schemas(*, allow_forget: bool = False) -> list[dict[str, Any]]:
    """OpenAI-style function tools (``{"type": "function", "function": {...}}``), from the input models."""
    return [
        {"type": "function",
         "function": {"name": spec.name, "description": spec.description, "parameters": spec.input_schema()}}
        for spec in tool_specs(allow_forget=allow_forget)
    ]


def tool_spec(name: str, *, allow_forget: bool = False) -> ToolSpec:
    """The spec of the tool called ``name``; ToolArgumentError when there is none on offer."""
    offered = {spec.name: spec for spec in tool_specs(allow_forget=allow_forget)}
    if not isinstance(name, str) or name not in offered:
        hint = " (start the memory with forget allowed to offer it)" if name in _BY_NAME else ""
        raise ToolArgumentError(f"unknown tool {name!r}{hint}; tools: {', '.join(offered)}"[:300])
    return offered[name]


def parse_arguments(spec: ToolSpec, arguments: Any) -> BaseModel:
    """The tool's input model from ``arguments`` (a dict, or a JSON object as text, as OpenAI sends)."""
    if isinstance(arguments, (str, bytes)):
        try:
            arguments = spec.input.model_validate_json(arguments or "{}")
        except ValidationError as exc:
            raise ToolArgumentError(_validation_line(spec.name, exc)) from None
        return arguments
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise ToolArgumentError(f"{spec.name}: arguments must be an object, got {type(arguments).__name__}")
    try:
        return spec.input.model_validate(arguments)
    except ValidationError as exc:
        raise ToolArgumentError(_validation_line(spec.name, exc)) from None


def call_tool(
    tg: TemporalGraph, name: str, arguments: Any = None, *, group_id: str = DEFAULT_GROUP,
    allow_forget: bool = False,
) -> dict[str, Any]:
    """Validate ``arguments`` for tool ``name``, run it on ``tg`` in ``group_id``, return JSON data.

    Bad arguments raise :class:`~temporal_graph.core.errors.InvalidInput` (``ToolArgumentError`` or the
    library's own error, with the command line's message) whose text is one line naming the value.
    """
    spec = tool_spec(name, allow_forget=allow_forget)
    parsed = parse_arguments(spec, arguments)
    result = spec.handler(tg, parsed, group_id)
    return result.model_dump(mode="json")


class GroupSummary(BaseModel):
    """A cheap overview of one group: how much it holds now, and its newest current facts."""

    group_id: str
    current_facts: int
    entities: int = Field(description="Entities named by the current facts.")
    relations: list[str] = Field(description="Relations of the current facts, most used first.")
    facts: list[str] = Field(description="Current facts as dated sentences, newest first.")
    truncated: bool = Field(description="True when more current facts exist than are listed.")


def group_summary(tg: TemporalGraph, group_id: str = DEFAULT_GROUP, *, limit: int = 50) -> GroupSummary:
    """Counts and the ``limit`` newest current facts of ``group_id`` (one read of the current facts)."""
    facts = tg.now(group_id=group_id)
    newest = sorted(facts, key=lambda f: (f.valid_at or f.created_at, f.created_at), reverse=True)[:limit]
    relations = Counter(f.relation for f in facts)
    return GroupSummary(
        group_id=group_id, current_facts=len(facts),
        entities=len({name_key(n) for f in facts for n in (f.subject, f.object)}),
        relations=[r for r, _ in relations.most_common()],
        facts=[_dated(f) for f in newest], truncated=len(facts) > limit,
    )


def _dated(f: Fact) -> str:
    since = f" (since {f.valid_at.date().isoformat()})" if f.valid_at is not None else ""
    return f"{f.text}{since}"


def error_line(exc: BaseException) -> str:
    """An error as the one line a model (or a person) reads."""
    return " ".join(str(exc).split()) or type(exc).__name__


def _validation_line(tool: str, exc: ValidationError) -> str:
    errors = exc.errors()
    # An unknown key is named first, whatever else is wrong: a misnamed argument ("time" for
    # "valid_time") is what makes a required one look missing.
    first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    where = ".".join(str(part) for part in first["loc"])
    if not where:
        return f"{tool}: arguments must be an object, got {first.get('input')!r}"[:300]
    kind, message = first["type"], first["msg"]
    if kind == "missing":
        return f"{tool}: {where} is required"
    if kind == "extra_forbidden":
        known = ", ".join(_BY_NAME[tool].input.model_fields) if tool in _BY_NAME else ""
        return f"{tool}: unknown argument {where!r}" + (f" (arguments: {known})" if known else "")
    return f"{tool}: {where}: {message}, got {first.get('input')!r}"[:300]


def _schema(model: type[BaseModel]) -> dict[str, Any]:
    """A model's JSON schema in the flat shape function-calling APIs expect: no titles, no $defs."""
    schema = model.model_json_schema()
    if "$defs" in schema:  # inputs are flat; nested models would need inlining
        raise TypeError(f"{model.__name__}: tool inputs must be flat")

    def strip(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k != "title"}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node

    out = strip(schema)
    out.setdefault("required", [])
    out["additionalProperties"] = False
    return out
