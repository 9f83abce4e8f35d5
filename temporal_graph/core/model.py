"""The typed records users see and stores keep (pydantic v2, frozen)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .errors import InvalidInput
from .intervals import covers
from .limits import IMPORTANCE, MAX_TEXT_CHARS, checked_text, whole_number
from .names import MAX_NAME_CHARS, clean_name, normalize_relation
from .receipts import ErasureReceipt
from .time import to_utc

_FROZEN = ConfigDict(frozen=True)
# How much a fact matters, 1 (trivia) to 10 (life-changing); facts nobody rated get the middle.
DEFAULT_IMPORTANCE = 5
Importance = Annotated[int, Field(ge=1, le=10)]


def check_importance(value: object, what: str = "importance") -> int:
    """``value`` if it is a whole number from 1 to 10, else :class:`InvalidInput` naming ``what``."""
    return whole_number(value, what, IMPORTANCE)


RecordKindName = Literal["fact", "entity", "episode"]


class RecordKind:
    """The three kinds of record the memory keeps, as stores, indexes and search hits name them."""

    FACT: Final = "fact"
    ENTITY: Final = "entity"
    EPISODE: Final = "episode"


RECORD_KINDS: tuple[RecordKindName, ...] = (RecordKind.FACT, RecordKind.ENTITY, RecordKind.EPISODE)
# What search can return: the three kinds of record, and insights (asked for by name: kinds=).
SearchKindName = Literal["fact", "entity", "episode", "insight"]
SEARCH_KINDS: tuple[SearchKindName, ...] = (*RECORD_KINDS, "insight")
# The rankings hybrid search fuses (``queries.search``); a hit's ``reasons`` name them.
SEARCH_METHODS: tuple[str, ...] = ("bm25", "embedding", "graph")
# The orders search can give its hits (``queries.ranking``), and its defaults.
RANKS: tuple[str, ...] = ("relevance", "recency", "importance", "blend")
DEFAULT_RANK = "relevance"
# Which statements a read shows: "all" (the subject's own facts, and others' claims where no own
# fact covers that time), "own" (own facts only) or "only" (claims only); see core.claims.
CLAIMS_MODES: tuple[str, ...] = ("all", "own", "only")
DEFAULT_CLAIMS = "all"
DEFAULT_HALF_LIFE_DAYS = 30.0


class Episode(BaseModel):
    """One message or document the memory was told."""

    model_config = _FROZEN

    id: str
    group_id: str
    content: str
    reference_time: datetime
    created_at: datetime
    speaker: str | None = None
    source: str = "message"
    source_id: str | None = None  # e.g. a LoCoMo dia_id or a line number of an imported file
    # When the memory withdrew what this message said (``retract_episode``): it no longer feeds
    # search, context or ask. Set once, like a fact row's ``expired_at``.
    retracted_at: datetime | None = None
    # When its text was erased by retention (``prune(episodes_before=...)``): the facts it
    # supported stay, their source reads "source erased"; ``content`` is empty.
    erased_at: datetime | None = None

    @property
    def in_recall(self) -> bool:
        """Whether search, context and ask may offer it: neither withdrawn nor erased."""
        return self.retracted_at is None and self.erased_at is None

    def recalled(self, known_at: datetime | None) -> bool:
        """Whether a read as known at ``known_at`` (None: now) may offer it: recorded by then, its
        text not erased, and not withdrawn by then (one withdrawn since was offered then)."""
        if self.erased_at is not None or (known_at is not None and self.created_at > known_at):
            return False
        return self.retracted_at is None or (known_at is not None and self.retracted_at > known_at)


class Entity(BaseModel):
    model_config = _FROZEN

    id: str
    group_id: str
    name: str
    type: str = "Entity"
    aliases: tuple[str, ...] = ()
    summary: str = ""
    created_at: datetime


class EntitySummary(BaseModel):
    """One version of an entity's summary: what the memory believed about the entity from
    ``created_at`` (transaction time) until ``expired_at`` (None: still believed)."""

    model_config = _FROZEN

    id: str
    group_id: str
    entity_id: str
    entity: str  # the entity's name
    text: str
    method: Literal["offline", "llm"] = "offline"
    fact_ids: tuple[str, ...] = ()  # the facts (fact_id) it was made from
    created_at: datetime
    expired_at: datetime | None = None
    # The insights about the entity believed at the same time, stated after the facts (``text``
    # ends with them). Added when the summary is read, never stored with it.
    insight_ids: tuple[str, ...] = ()


InsightProducer = Literal["offline", "llm"]


class Insight(BaseModel):
    """A statement derived from facts and episodes (``derived_from``: fact version ids and episode
    ids), about the valid-time span [``valid_at``, ``invalid_at``). Believed from ``created_at``
    until ``expired_at`` (transaction time): it expires when any fact version it cites does, or
    when a revision (``replaces`` its id) takes its place."""

    model_config = _FROZEN

    id: str
    group_id: str
    text: str
    subject_ids: tuple[str, ...] = ()  # the entities it is about
    subjects: tuple[str, ...] = ()  # their names, in the same order
    derived_from: tuple[str, ...] = ()
    importance: Importance = DEFAULT_IMPORTANCE
    valid_at: datetime | None = None
    invalid_at: datetime | None = None
    created_at: datetime
    expired_at: datetime | None = None
    replaces: str | None = None
    producer: InsightProducer = "offline"
    pattern: str = ""  # which rule made it (offline), or "llm"

    def known_at(self, moment: datetime) -> bool:
        return self.created_at <= moment and (self.expired_at is None or moment < self.expired_at)


class Reflection(BaseModel):
    """What one :func:`reflect` did: insights ``written`` (new versions), how many came out the
    same and were ``kept``, ``expired`` (no longer coming out), drafts ``dropped`` (citing what
    stopped being current meanwhile) and LLM answers ``refused`` (citing evidence not given)."""

    model_config = ConfigDict(frozen=True)

    group_id: str
    producer: InsightProducer = "offline"
    written: list[Insight] = Field(default_factory=list)
    kept: int = 0
    expired: int = 0
    dropped: int = 0
    refused: int = 0


class Fact(BaseModel):
    """One version of a fact: immutable except that ``expired_at`` is set once."""

    model_config = _FROZEN

    id: str
    fact_id: str
    group_id: str
    subject: str
    relation: str
    object: str
    subject_id: str
    object_id: str
    text: str
    valid_at: datetime | None
    invalid_at: datetime | None
    created_at: datetime
    expired_at: datetime | None = None
    episode_ids: tuple[str, ...] = ()
    confidence: float = 1.0
    importance: Importance = DEFAULT_IMPORTANCE
    attributes: dict[str, Any] = Field(default_factory=dict)

    @property
    def claimed_by(self) -> str | None:
        """The speaker this fact is attributed to when someone said it about another person
        (see ``trust``); None for the memory's own belief."""
        value = self.attributes.get("claimed_by")
        return value if isinstance(value, str) else None

    @property
    def contradicted(self) -> bool:
        """A claim the subject's own record says otherwise about (set by reads that show claims)."""
        return self.claimed_by is not None and self.attributes.get("contradicted") is True

    def valid_at_time(self, moment: datetime) -> bool:
        return covers((self.valid_at, self.invalid_at), moment)

    def known_at(self, moment: datetime) -> bool:
        return self.created_at <= moment and (self.expired_at is None or moment < self.expired_at)


AssertionKind = Literal["start", "end", "retract", "withdraw", "restore"]


class Assertion(BaseModel):
    """What one write told the memory about (subject, relation): the input the timeline is derived from.

    ``start``: ``object`` held from ``at`` (``None``: since forever) until ``until`` (``None``: open).
    ``end``: ``object`` (``None``: whatever held) stopped holding at ``at``.
    ``retract``: every earlier assertion about ``object`` was wrong.
    ``withdraw``: every earlier assertion of the key made by episode ``episode_id`` is void, as if
    that message had never been told (``retract_episode``; ``object`` is None); or, without an
    episode, every earlier assertion naming the entity ``object`` (``retract_entity``).
    ``restore``: undoes the withdrawals of the same target told before it (``restore_entity``).
    Assertions are append-only; rows (facts) are a pure function of the live assertions.
    """

    model_config = _FROZEN

    id: str
    group_id: str
    subject_id: str
    relation: str
    object_id: str | None
    kind: AssertionKind
    at: datetime | None = None
    until: datetime | None = None
    created_at: datetime
    seq: int = 0  # arrival order within the same created_at, for deterministic ties
    episode_id: str | None = None
    text: str = ""
    confidence: float = 1.0
    importance: Importance = DEFAULT_IMPORTANCE
    attributes: dict[str, Any] = Field(default_factory=dict)


class Diff(BaseModel):
    """What changed in valid time between two moments, as currently believed."""

    model_config = _FROZEN

    start: datetime
    end: datetime
    started: list[Fact]  # valid_at in [start, end)
    ended: list[Fact]  # invalid_at in [start, end)
    revised: list[Fact]  # versions written in [start, end) that replaced an earlier version


class Path(BaseModel):
    """A chain of facts, each hop's object being the next hop's subject."""

    model_config = _FROZEN

    hops: list[Fact]

    @property
    def start(self) -> str:
        return self.hops[0].subject

    @property
    def end(self) -> str:
        return self.hops[-1].object

    def __len__(self) -> int:
        return len(self.hops)


# Where a message stands (see queries.standing): what it said holds; some of its facts ended or were
# replaced; a key, an explicit supersede or all its facts say it is out of date; a newer message
# reads like its revision (search only says "possibly"); it gave no fact.
Standing = Literal["current", "partly_superseded", "superseded", "possibly_superseded", "unparsed"]
STANDINGS: tuple[Standing, ...] = ("current", "partly_superseded", "superseded", "possibly_superseded",
                                   "unparsed")
# Stale standings: a read labels every message it hands back in one of these.
STALE_STANDINGS: frozenset[str] = frozenset({"partly_superseded", "superseded", "possibly_superseded"})


def standing_words(standing: str | None) -> str:
    """A standing as people read it ("partly superseded", "no fact read")."""
    return {"unparsed": "no fact read", None: ""}.get(standing, (standing or "").replace("_", " "))
# What reads do with superseded messages: leave them out (counted), keep them labelled below every
# current hit, or rank them as any other hit (still labelled); "auto": hide for a question about
# now, show (labelled) for one about the past or a change (what used to hold is its answer).
StaleMode = Literal["auto", "hide", "label", "show"]
STALE_MODES: tuple[StaleMode, ...] = ("auto", "hide", "label", "show")
DEFAULT_STALE: StaleMode = "auto"


class SearchHit(BaseModel):
    model_config = _FROZEN

    kind: SearchKindName
    score: float
    reasons: list[str]  # why it matched, e.g. ["bm25 #1", "embedding #3", "neighbour of Alice"]
    fact: Fact | None = None
    entity: Entity | None = None
    episode: Episode | None = None
    insight: Insight | None = None
    # Messages: where it stands as of the search's time, the facts holding for what it said that no
    # longer holds, and the messages that replaced it (a key, a supersede, a likely revision). A fact
    # learned only from messages the search found possibly superseded is "possibly_superseded" too,
    # with their newer messages.
    standing: Standing | None = None
    replaced_by: tuple[str, ...] = ()
    superseded_by: tuple[str, ...] = ()
    # Its statements that no longer hold, as sentences (for a partly superseded message).
    stale_statements: tuple[str, ...] = ()
    # The other messages of its speaker that say this very text, with the same standing, left out
    # of the hits (this one is the newest): a request said three times is one hit, not three of ten.
    repeats: tuple[str, ...] = ()

    @property
    def message_ids(self) -> tuple[str, ...]:
        """The messages this hit stands for: its own and its ``repeats`` (none for other kinds)."""
        return (self.episode.id, *self.repeats) if self.episode is not None else ()

    @property
    def stale(self) -> bool:
        """A hit whose standing says (or suspects) it is out of date."""
        return self.standing in STALE_STANDINGS

    @property
    def text(self) -> str:
        if self.fact is not None:
            return self.fact.text
        if self.entity is not None:
            return self.entity.name
        if self.insight is not None:
            return self.insight.text
        assert self.episode is not None
        return self.episode.content


class SearchResults(list[SearchHit]):
    """The hits of a search, best first (a list); how many superseded messages it left out, and
    what it did with them (``stale``: "hide", "label" or "show", after "auto" chose): an agent can
    tell "nothing stale matched" from "stale messages matched and were withheld"."""

    def __init__(self, hits: Iterable[SearchHit] = (), *, stale_left_out: int = 0,
                 stale: str = "hide") -> None:
        super().__init__(hits)
        self.stale_left_out = stale_left_out
        self.stale = stale


TimeKind = Literal["now", "at", "during", "ever", "before_change", "after_change"]
QuestionKind = Literal["what", "who", "when_start", "when_end", "how_long", "ever", "changed", "believed"]


class QuestionPlan(BaseModel):
    """What a question asks, as a query: filled by one structured LLM call or by the offline rules.

    Names and time phrases stay as written; ``ask`` resolves them the same way for both planners.
    """

    subject: str | None = Field(
        default=None,
        description="The person or thing the question starts from, as named in the question "
        "('Kenji' in \"Where does Kenji's brother live?\"); null if it names nobody (only 'he', 'she').",
    )
    object: str | None = Field(
        default=None,
        description="A second named entity the answer should be about, e.g. 'Shanghai' in "
        "'when did she move to Shanghai' or 'who lives in Shanghai'; else null.",
    )
    hops: list[str] = Field(
        default_factory=list,
        description="Relations to follow from the subject, in order, to reach whom the question is really "
        "about, UPPER_SNAKE: ['HAS_SIBLING'] for \"Kenji's brother\", ['MARRIED_TO'] for 'the husband of "
        "Rita', ['HAS_SIBLING', 'MARRIED_TO'] for \"Sam's sister's husband\"; at most 3; empty when "
        "the question is about the subject itself.",
    )
    hop_words: list[str] = Field(
        default_factory=list,
        description="The words naming each hop as written ('brother', 'husband'), same order as hops.",
    )
    relations: list[str] = Field(
        default_factory=list,
        description="Relations that would answer it, UPPER_SNAKE, best first, chosen "
        "from the known relations when one fits (e.g. LIVES_IN for 'where does she live'); empty when "
        "the answer is the entity the hops reach ('Who is Hiro's brother?').",
    )
    kind: QuestionKind = Field(
        default="what",
        description="what: the value(s) of the relations; who: which subjects hold the relations to the "
        "object ('who lives in Kyoto'); when_start / when_end: when it began / ended; how_long: for how "
        "long; ever: yes or no, did it ever hold ('has Kenji ever lived in Osaka'); changed: what "
        "changed since a time; believed: what the memory believed on a date.",
    )
    time: TimeKind = Field(
        default="now",
        description="now: the present; at: one moment; during: a period such as 'in 2019' or "
        "'last summer'; ever: the whole history; before_change/after_change: just before/after a change "
        "such as 'before she moved'.",
    )
    time_text: str | None = Field(
        default=None,
        description="The time phrase exactly as written in the question (e.g. 'in May 2023', "
        "'last summer', 'since 2023'); null for now/ever/before_change/after_change.",
    )
    change_relation: str | None = Field(
        default=None,
        description="For before_change/after_change: the relation that changed "
        "(LIVES_IN for moving, WORKS_AT for a new job).",
    )


class Answer(BaseModel):
    model_config = _FROZEN

    question: str
    text: str
    facts: list[Fact] = Field(default_factory=list)
    known: bool = True  # False when the memory does not know; the text then says so
    verdict: Literal["yes", "no"] | None = None  # the answer to a yes/no question; None for others
    plan: QuestionPlan | None = None  # what the question was taken to ask (for --json and debugging)
    # Insights citing the answer's facts, believed when the question asks about (``text`` ends with them).
    insights: list[Insight] = Field(default_factory=list)
    # Newer messages (ids) that read like revisions of the messages the answer's facts were learned
    # from: the answer may be out of date, and its text says so, quoting them.
    possibly_superseded_by: list[str] = Field(default_factory=list)


class IngestResult(BaseModel):
    """What one ``add_episode`` did."""

    model_config = _FROZEN

    episode: Episode
    added: list[Fact] = Field(default_factory=list)
    merged: list[Fact] = Field(default_factory=list)
    ended: list[Fact] = Field(default_factory=list)
    retracted: list[Fact] = Field(default_factory=list)
    entities_created: list[Entity] = Field(default_factory=list)
    entities_matched: list[Entity] = Field(default_factory=list)
    skipped: bool = False  # the episode was already in the memory
    warnings: list[str] = Field(default_factory=list)
    # Values masked in the message before it was kept, by kind ({"email": 1}); never the values.
    masked: dict[str, int] = Field(default_factory=dict)
    # Messages this one replaced: the one before it on a key's timeline, or those it supersedes.
    superseded: list[str] = Field(default_factory=list)


class ImportLineError(BaseModel):
    """A line or record of an import file that was reported and skipped."""

    model_config = _FROZEN

    file: str
    line: int  # 1-based line, or record index for JSON files
    reason: str


class LookalikeSpeakers(BaseModel):
    """Two speaker ids of a group that look alike ("Bob" / "Bob.", "Bob" / "Ｂｏｂ") but are
    different people: nothing declared them one (``alias_speaker``)."""

    model_config = _FROZEN

    group_id: str
    speakers: tuple[str, str]  # in sorted order


class ImportFileReport(BaseModel):
    """What an import made of one file, or of one export inside a folder or zip (a Slack workspace,
    a Telegram chat's pages, a Messenger thread's parts): ``read`` messages, of which ``stored`` were
    written by this import; what was skipped, by reason (system lines, media without words, bots,
    duplicates, already imported); bad lines (listed in ``ImportReport.errors``)."""

    path: str
    format: str
    read: int = 0
    stored: int = 0
    skipped: dict[str, int] = Field(default_factory=dict)
    errors: int = 0
    conversations: dict[str, str] = Field(default_factory=dict)  # group id -> its name in the export
    notes: list[str] = Field(default_factory=list)  # how it was read: the day/month order, the zone


class RefusedFile(BaseModel):
    """A file of a folder or zip the import could not read: what it looked like (None: nothing it
    reads) and why."""

    model_config = _FROZEN

    path: str
    looks_like: str | None = None
    reason: str


class ImportReport(BaseModel):
    """What one ``import_file`` did."""

    path: str
    format: str
    episodes_read: int = 0
    episodes_imported: int = 0
    episodes_skipped: int = 0
    facts_added: int = 0
    facts_ended: int = 0
    facts_retracted: int = 0
    facts_merged: int = 0
    entities_created: int = 0
    errors: list[ImportLineError] = Field(default_factory=list)
    # Reused message ids whose text differs from the message already stored under that id.
    conflicts: list[ImportLineError] = Field(default_factory=list)
    groups: dict[str, int] = Field(default_factory=dict)  # group written -> messages of the file in it
    # Values masked in the messages this import wrote, by kind ({"email": 3, "phone": 1}).
    masked: dict[str, int] = Field(default_factory=dict)
    # Speaker ids of the file that look like another speaker or entity of their group; kept apart.
    lookalike_speakers: list[LookalikeSpeakers] = Field(default_factory=list)
    # Messages whose LLM answer could not be used (not the schema): read by the fallback extractor,
    # or kept without facts; the reason says which.
    llm_failures: list[ImportLineError] = Field(default_factory=list)
    seconds: float = 0.0
    # Per file read (one entry per export of a folder or zip), the files refused, and the files of a
    # folder or zip left unread by why ({"media and attachments": 12}).
    files: list[ImportFileReport] = Field(default_factory=list)
    refused: list[RefusedFile] = Field(default_factory=list)
    not_read: dict[str, int] = Field(default_factory=dict)
    # Group -> the speaker ids of its messages in the file, most messages first (for an identities file).
    speakers: dict[str, list[str]] = Field(default_factory=dict)


class FactInput(BaseModel):
    """One structured fact to write: the arguments of :meth:`TemporalGraph.add_fact`, and an item
    of :meth:`TemporalGraph.add_facts`.

    Checked when made, with the errors ``add_fact`` raises (:class:`~temporal_graph.errors.InvalidName`
    for a name, :class:`~temporal_graph.errors.InvalidTime` for a value that is no time, else
    :class:`~temporal_graph.errors.InvalidInput`, wrapped in pydantic's ``ValidationError``): names are
    trimmed, the relation normalized (``"lives in"`` -> ``LIVES_IN``). Time strings are read later,
    in the memory's zone. Numbers may be given as text (a CSV cell); numbers and booleans are never
    times, and booleans never numbers. ``text`` holds at most 10,000 characters (``MAX_TEXT_CHARS``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    subject: str
    relation: str
    object: str
    valid_at: datetime | date | str | None = None
    invalid_at: datetime | date | str | None = None
    text: str | None = None
    confidence: float = 1.0
    importance: Importance = DEFAULT_IMPORTANCE
    episode_id: str | None = None
    attributes: dict[str, Any] | None = None
    subject_type: str | None = None
    object_type: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _checked(cls, data: Any) -> Any:
        # One pass over the raw fields with the domain's own checks, so a bad value is refused with
        # the message add_fact has always given (pydantic would coerce 12345 into a 1970 datetime).
        if not isinstance(data, dict):
            return data
        fields = dict(data)
        for name in ("subject", "object"):
            if name in fields:
                fields[name] = clean_name(fields[name], name)
        if "relation" in fields:
            fields["relation"] = normalize_relation(fields["relation"])
        for name in ("valid_at", "invalid_at"):
            value = fields.get(name)
            if value is not None and not isinstance(value, (datetime, date, str)):
                to_utc(value, name=name)  # refuses it, naming it (numbers and booleans are no times)
        if "confidence" in fields:
            fields["confidence"] = _confidence(fields["confidence"])
        if "importance" in fields:
            fields["importance"] = check_importance(_whole_number(fields["importance"]))
        for name in ("text", "episode_id", "subject_type", "object_type"):
            if fields.get(name) is not None:
                checked_text(fields[name], name, MAX_TEXT_CHARS if name == "text" else MAX_NAME_CHARS)
        attributes = fields.get("attributes")
        if attributes is not None and not isinstance(attributes, dict):
            got = f"{type(attributes).__name__} {attributes!r}"
            raise InvalidInput(f"attributes: expected a dict, got {got}"[:200])
        return fields


def _confidence(value: object) -> float:
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            pass
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise InvalidInput(f"confidence: {value!r} is not a number between 0 and 1"[:200])
    return float(value)


def _whole_number(value: object) -> object:
    """An integer written as text (a CSV cell) as the integer; anything else as it is."""
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            pass
    return value


class FactFileReport(BaseModel):
    """What one ``import_facts`` (``tgraph import-facts``) did; errors name the file and line."""

    path: str
    items: int = 0
    rows_written: int = 0
    entities_created: int = 0
    errors: list[ImportLineError] = Field(default_factory=list)
    seconds: float = 0.0


class BulkError(BaseModel):
    """An item of a bulk load that was refused, and why (``index``: 0-based place in the input)."""

    model_config = _FROZEN

    index: int
    reason: str


class BulkReport(BaseModel):
    """What one ``add_facts`` did."""

    items: int = 0
    rows_written: int = 0  # fact rows inserted (a merge of equal statements writes one)
    entities_created: int = 0
    errors: list[BulkError] = Field(default_factory=list)
    seconds: float = 0.0


class EpisodeRetraction(BaseModel):
    """What one ``retract_episode`` did: the message's statements were withdrawn as of
    ``retracted_at`` (transaction time) and every timeline they touched derived again."""

    model_config = _FROZEN

    episode_id: str
    group_id: str
    retracted_at: datetime
    expired: list[Fact] = Field(default_factory=list)  # versions no longer believed
    added: list[Fact] = Field(default_factory=list)  # versions believed from now on (restored, re-cited)
    already: bool = False  # it had been retracted before: nothing changed


class Supersession(BaseModel):
    """What one ``supersede`` did: the messages it ``matched`` (the ids given, or a query's
    matches), and unless it was a ``dry_run``, the new message (``episode``, ``result``) and the
    facts only the old messages told: ended at its reference time (``ended``), or retracted when
    they were to begin later (``retracted``)."""

    model_config = _FROZEN

    matched: list[Episode] = Field(default_factory=list)
    episode: Episode | None = None
    result: IngestResult | None = None
    ended: list[Fact] = Field(default_factory=list)
    retracted: list[Fact] = Field(default_factory=list)
    dry_run: bool = False


class EntityRetraction(BaseModel):
    """What one ``retract_entity`` (or ``restore_entity``) did, as of ``at`` in transaction time:
    the facts naming the entity it withdrew (``expired``) or brought back (``added``), and the
    messages about it taken out of reads (or given back)."""

    model_config = _FROZEN

    entity: str
    group_id: str
    at: datetime
    expired: list[Fact] = Field(default_factory=list)
    added: list[Fact] = Field(default_factory=list)
    episodes: list[str] = Field(default_factory=list)
    already: bool = False  # nothing to do: it was retracted (restored) already


class ErasureReport(BaseModel):
    """What one ``erase_episode`` / ``erase_entity`` removed for good (counts of records)."""

    model_config = _FROZEN

    group_id: str
    episodes: list[str] = Field(default_factory=list)  # ids of the messages erased
    entities: list[str] = Field(default_factory=list)  # names of the entities erased
    assertions: int = 0
    fact_versions: int = 0
    summary_versions: int = 0
    # Messages that still name an erased entity (erase them too with ``include_episodes=True``).
    naming_episodes: list[str] = Field(default_factory=list)
    rederived: list[Fact] = Field(default_factory=list)  # versions the remaining statements now give
    # What the erasure log keeps of it: request id, time, counts by kind, digest of the ids.
    receipt: ErasureReceipt | None = None


class PruneReport(BaseModel):
    """What one ``prune`` dropped."""

    model_config = _FROZEN

    group_id: str
    history_before: datetime | None = None
    episodes_before: datetime | None = None
    versions_removed: int = 0  # fact, summary and insight versions no longer believed before history_before
    episodes_erased: int = 0  # messages whose text was erased (their facts stay, "source erased")
    # What the erasure log keeps of it (see ErasureReport): one receipt per part that ran (history,
    # message texts), in that order, under one request id.
    receipts: list[ErasureReceipt] = Field(default_factory=list)
