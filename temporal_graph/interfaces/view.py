"""``tgraph view``: a read-only web page on one group of the memory, served on 127.0.0.1.

Pages (all GET, no script; the pictures are SVG drawn here, :mod:`.view_svg`):

- ``/``: search over the group (the memory's ``search``), each hit linked to its entities and
  messages; the group's entities;
- ``/entity?name=...&as_of=...&known_at=...&hops=1|2``: current facts, summary and insights (as
  known at ``known_at``), the bi-temporal chart of every fact version, what was true at ``as_of``
  as known at ``known_at``, and the neighbourhood graph at ``as_of`` (1 or 2 hops, read entity by
  entity);
- ``/chart.svg?name=...``: the chart alone; ``/message?id=...``: one message and what it asserted;
- ``/cypher?q=...``: the read-only Cypher console of ``tgraph cypher`` (``:asof T [K]`` and the
  ready parameters), results as tables, and as a graph when they hold nodes and relationships;
- ``/insights``: insights and entity summaries.

Every page is bounded: a chart draws at most ``MAX_BARS`` bars on ``MAX_LANES`` lanes, a table
``ROWS`` rows, a graph ``MAX_NODES`` nodes, each with links to the other parts (``versions_from``,
``facts_from``, ``held_from``, ``entities_from``, ``values_from``). Pages are served at once, on
starlette's thread pool; the work of one grows with what it draws and with the entity's facts
(each read once), never with their square or with the group.

The group is the one the server was started on: nothing in a URL names or changes it, so another
group's ids and names show nothing. The console runs on the group loaded into the embedded Cypher
engine, on Neo4j too (a Neo4j session would see every group of the database). Requests whose Host
or Origin is not this machine's loopback address are refused (421 / 403), as the MCP HTTP server
does, against DNS rebinding. Every value from the memory is escaped.
"""

from __future__ import annotations

import io
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any
from urllib.parse import quote, urlencode

from ..client import TemporalGraph
from ..core.errors import TemporalGraphError
from ..core.extras import missing
from ..core.model import Assertion, AssertionKind, Entity, Fact, SearchHit
from ..core.stores.protocol import AssertionQuery, FactQuery
from ..core.stores.statements import statement
from .cypher_embedded.graph import GraphNode, GraphPath, GraphRelationship
from .render import standing_cell
from .view_svg import MAX_BARS, Edge, Layout, Version, chart, chart_order, day, esc, lay_out, neighbourhood

try:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, Response
    from starlette.routing import Route
    from starlette.types import ASGIApp, Receive, Scope, Send
except ImportError as exc:  # pragma: no cover - the extra is installed in the tests
    raise missing("view", "tgraph view", exc) from exc

ALLOWED_HOSTS = ("127.0.0.1", "localhost", "[::1]")
MAX_NODES = 50
MAX_ROWS = 500  # rows of a console result
ROWS = 100  # rows of a table of facts, a page at a time
ENTITIES_SHOWN = 300  # entity names listed, a page at a time
READ_AT_ONCE = 2_000  # an entity with at most this many fact versions has them read in one go
MAX_INPUT = 10_000  # characters of a console text or a name, before anything reads it

CSS = """
body{font-family:system-ui,sans-serif;margin:0;color:#222;background:#fafbfc}
header{background:#243447;color:#fff;padding:10px 20px;display:flex;gap:20px;align-items:baseline}
header a{color:#cfe0ff;text-decoration:none}header .group{margin-left:auto;color:#9fb3c8}
main{padding:16px 20px;max-width:1100px}h1{font-size:22px;margin:8px 0}h2{font-size:17px;margin:22px 0 8px}
table{border-collapse:collapse;background:#fff;font-size:13px}td,th{border:1px solid #dde1e6;padding:4px 8px;
text-align:left;vertical-align:top}th{background:#eef1f5}.note{color:#666;font-size:13px}
.error{color:#a40000;background:#fff0f0;border:1px solid #e8b4b4;padding:8px}.stale{color:#8a6d00}
form{margin:8px 0}input[type=text]{width:22em}textarea{width:100%;font-family:monospace;font-size:13px}
svg{max-width:100%;height:auto;border:1px solid #e3e6ea;background:#fff}.kind{color:#666;font-size:12px}
pre{white-space:pre-wrap;background:#f3f5f7;padding:8px}
"""


class LoopbackOnly:
    """Refuse a request whose Host is not a loopback name (421) or whose Origin, when sent, is not
    ``http://`` one (403): the MCP server's rule (``mcp.server.transport_security``), with its lists."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
            refusal = None
            if not _loopback(headers.get("host"), ""):
                refusal = Response("Invalid Host header", status_code=421)
            elif "origin" in headers and not _loopback(headers["origin"], "http://"):
                refusal = Response("Invalid Origin header", status_code=403)
            elif scope["method"] not in ("GET", "HEAD"):
                refusal = Response("read-only: GET only", status_code=405)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _loopback(value: str | None, scheme: str) -> bool:
    if not value or not value.startswith(scheme):
        return False
    rest = value[len(scheme):]
    return any(rest.startswith(host + ":") and rest[len(host) + 1:].isdigit() for host in ALLOWED_HOSTS)


# -- reading the group ------------------------------------------------------------------------------
class GroupView:
    """Everything the pages read, on one group (fixed when the server starts). Pages are served at
    once, each on a thread of its own: the stores serve reads from several threads (the embedded
    store one statement at a time, Neo4j a session per read). Only the console's embedded Cypher
    engine is used by one page at a time."""

    def __init__(self, tg: TemporalGraph, group_id: str) -> None:
        self.tg = tg
        self.group_id = group_id
        self.store = tg.core.store
        self.console_lock = threading.Lock()
        self._cypher: Any = None

    def time(self, value: str | None, name: str) -> datetime | None:
        return self.tg.moment(value.strip(), name=name) if value and value.strip() else None

    def entity(self, name: str) -> Entity | None:
        return self.tg.find_entity(name, self.group_id) if name.strip() else None

    def episodes(self, ids: Iterable[str]) -> dict[str, Any]:
        wanted = sorted(set(ids))
        return {e.id: e for e in self.store.episodes(self.group_id, ids=wanted)} if wanted else {}

    def chart_page(self, entity: Entity, start: int = 0) -> Layout:
        """The page of ``entity``'s chart from its ``start``-th version (:func:`chart_order`, every
        version of every fact with it as subject). Versions are counted per relation first, and only
        the relations the page reaches are read (a small entity's versions are read at once: the
        group's relations are listed only for a big one)."""
        every = FactQuery(self.group_id, subject_id=entity.id, all_versions=True)
        if self.store.count_facts(every) <= READ_AT_ONCE:
            return lay_out(chart_order(self.store.facts(every)), start)
        counts = [(r, self.store.count_facts(FactQuery(self.group_id, subject_id=entity.id, relation=r,
                                                       all_versions=True)))
                  for r in sorted(self.store.relations(self.group_id))]
        total = sum(n for _, n in counts)
        start = min(max(start, 0), total)
        offset, before = 0, None  # before: the versions of the relations ahead of those read
        rows: list[Fact] = []
        for relation, n in counts:
            if n and offset + n > start and offset < start + MAX_BARS:
                before = offset if before is None else before
                rows += self.store.facts(FactQuery(self.group_id, subject_id=entity.id, relation=relation,
                                                   all_versions=True))
            offset += n
        before = before or 0
        page = lay_out(chart_order(rows), start - before)
        return Layout(page.lanes, page.start + before, page.end + before, total)

    def with_messages(self, entity: Entity, facts: Sequence[Fact]) -> dict[str, Version]:
        """``facts`` (versions of ``entity``'s facts) by id, with the messages that asserted and
        ended each: of the assertions of their relations, the write at a version's end in
        transaction time (it revised or retracted the belief), else the one whose moment is its
        valid end (the start of the next row, or an ending). Each relation's assertions are read
        once and looked up by time, so the work grows with them, not with their square."""
        kinds: tuple[AssertionKind, ...] = ("start", "end", "retract", "withdraw")
        by_write: dict[tuple[str, datetime], str] = {}
        by_moment: dict[tuple[str, datetime], list[Assertion]] = {}
        for relation in sorted({f.relation for f in facts if f.expired_at or f.invalid_at}):  # with an end
            query = AssertionQuery(self.group_id, entity.id, relation, kinds=kinds)
            for a in self.store.key_assertions(query):
                if not a.episode_id:
                    continue
                by_write[(relation, a.created_at)] = a.episode_id  # the last of a write's statements
                if a.at is not None:
                    by_moment.setdefault((relation, a.at), []).append(a)
        out: dict[str, Version] = {}
        for fact in facts:
            ended: str | None = None
            if fact.expired_at is not None:
                ended = by_write.get((fact.relation, fact.expired_at))
            elif fact.invalid_at is not None:
                ended = next((a.episode_id for a in by_moment.get((fact.relation, fact.invalid_at), [])
                              if a.kind == "end" or a.object_id != fact.object_id), None)
            out[fact.id] = Version(fact, fact.episode_ids[0] if fact.episode_ids else None, ended)
        return out

    def has_facts(self, entity: Entity) -> bool:
        """Whether a fact the memory believes now names ``entity`` (two reads of one row at most)."""
        return any(self.store.facts(query) for query in (
            FactQuery(self.group_id, subject_id=entity.id, limit=1),
            FactQuery(self.group_id, object_id=entity.id, limit=1)))

    def groups_hint(self) -> str | None:
        """For a group that holds nothing: which groups this memory holds."""
        groups = self.tg.groups()
        if self.group_id in groups:
            return None
        others = ", ".join(repr(g) for g in groups)
        return (f"group {self.group_id!r} holds nothing; "
                + (f"groups in this memory: {others} (start tgraph view with --group NAME)" if others
                   else "this memory is empty"))

    def cypher(self) -> Any:
        from .cypher_embedded.ladybug_engine import Limits
        from .cypher_runners import EmbeddedRunner

        if self._cypher is None:
            self._cypher = EmbeddedRunner(self.store, self.tg.core.clock, Limits.chosen(None, None))
        return self._cypher

    def close(self) -> None:
        if self._cypher is not None:
            self._cypher.cypher.close()
            self._cypher = None


# -- HTML -------------------------------------------------------------------------------------------
def entity_url(name: str, **extra: str) -> str:
    return "/entity?" + urlencode({"name": name, **{k: v for k, v in extra.items() if v}})


def message_url(episode_id: str) -> str:
    return "/message?id=" + quote(episode_id)


def page(view: GroupView, title: str, body: str, status: int = 200) -> HTMLResponse:
    html = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{esc(title)} · tgraph view'
            f'</title><meta name="viewport" content="width=device-width"><style>{CSS}</style></head><body>'
            '<header><strong>tgraph view</strong><a href="/">search</a><a href="/insights">insights</a>'
            f'<a href="/cypher">cypher</a><span class="group">group {esc(view.group_id)} · read-only</span>'
            f"</header><main>{body}</main></body></html>")
    return HTMLResponse(html, status_code=status, headers={
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; "
                                   "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"})


def error(view: GroupView, title: str, message: str, status: int) -> HTMLResponse:
    return page(view, title, f"<h1>{esc(title)}</h1><p class=\"error\">{esc(message)}</p>", status)


def _or(moment: datetime | None, open_end: str) -> str:
    return day(moment) if moment is not None else open_end


def entity_link(name: str, **extra: str) -> str:
    return f'<a href="{esc(entity_url(name, **extra))}">{esc(name)}</a>'


def _messages(view: GroupView, ids: Sequence[str]) -> str:
    return ", ".join(f'<a href="{esc(message_url(i))}">message {esc(i[:8])}</a>' for i in ids) or "—"


def page_link(request: Request, param: str, start: int, label: str) -> str:
    """A link to this page with ``param`` set to ``start`` (its other arguments kept)."""
    query = {k: v for k, v in request.query_params.items() if k != param}
    if start:
        query[param] = str(start)
    return f'<a href="{esc(request.url.path + "?" + urlencode(query))}">{esc(label)}</a>'


def pager(request: Request, param: str, start: int, end: int, total: int, noun: str,
          size: int | None = None) -> str:
    """"noun 1–100 of 2,345" and links to the first, previous and next pages; nothing when all
    are shown. ``size``: the page size, for a link back (pages of a chart vary in size)."""
    if start == 0 and end >= total:
        return ""
    links = []
    if start > 0:
        links.append(page_link(request, param, 0, "first"))
        if size is not None:
            links.append(page_link(request, param, max(start - size, 0), f"previous {size:,}"))
    if end < total:
        links.append(page_link(request, param, end, f"next (after {end:,}; {total - end:,} more)"))
    return (f'<p class="pager note" data-param="{esc(param)}">{esc(noun)} {start + 1:,}–{end:,} of '
            f"{total:,} shown · " + " · ".join(links) + "</p>")


def _start(request: Request, param: str) -> int:
    text = _arg(request, param)
    return int(text) if text.isdigit() and len(text) < 10 else 0


def paged_rows(view: GroupView, request: Request, param: str, facts: Sequence[Fact]) -> str:
    """A page of ``ROWS`` rows of ``facts`` from the offset ``param`` names, with its pager."""
    start = min(_start(request, param), max(len(facts) - 1, 0))
    end = min(start + ROWS, len(facts))
    return fact_rows(view, facts[start:end]) + pager(request, param, start, end, len(facts), "rows", ROWS)


def fact_rows(view: GroupView, facts: Sequence[Fact], *, link_subject: bool = True) -> str:
    if not facts:
        return '<p class="note">none</p>'
    rows = "".join(
        f"<tr><td>{entity_link(f.subject) if link_subject else esc(f.subject)}</td><td>{esc(f.relation)}</td>"
        f"<td>{entity_link(f.object)}</td><td>{esc(day(f.valid_at))} – "
        f"{esc(day(f.invalid_at) if f.invalid_at else 'open')}</td><td>{esc(f.text)}</td>"
        f"<td>{_messages(view, f.episode_ids)}</td></tr>" for f in facts)
    return ("<table class=\"facts\"><tr><th>subject</th><th>relation</th><th>object</th><th>valid</th>"
            f"<th>text</th><th>told in</th></tr>{rows}</table>")


def hit_row(view: GroupView, hit: SearchHit) -> str:
    links: list[str] = []
    if hit.fact is not None:
        links = [entity_link(hit.fact.subject), entity_link(hit.fact.object)]
        links += [f'<a href="{esc(message_url(i))}">message</a>' for i in hit.fact.episode_ids[:3]]
    elif hit.entity is not None:
        links = [entity_link(hit.entity.name)]
    elif hit.episode is not None:
        links = [f'<a href="{esc(message_url(hit.episode.id))}">message</a>']
        if hit.episode.speaker and view.entity(hit.episode.speaker) is not None:
            links.append(entity_link(hit.episode.speaker))
    elif hit.insight is not None:
        links = [entity_link(name) for name in hit.insight.subjects]
    standing = (f' <span class="stale">({esc(standing_cell(hit))})</span>'
                if hit.standing not in (None, "current") else "")
    return (f'<tr class="hit"><td class="kind">{esc(hit.kind)}</td><td>{esc(hit.text)}{standing}</td>'
            f"<td>{' · '.join(links)}</td><td class=\"kind\">{esc(', '.join(hit.reasons))}</td></tr>")


# -- the pages --------------------------------------------------------------------------------------
def _arg(request: Request, name: str) -> str:
    return request.query_params.get(name, "")[:MAX_INPUT]


def home(view: GroupView, request: Request) -> HTMLResponse:
    query, as_of = _arg(request, "q"), _arg(request, "as_of")
    form = (f'<form action="/" method="get"><input type="text" name="q" value="{esc(query)}" '
            f'placeholder="search the memory" autofocus> as of <input type="text" name="as_of" size="12" '
            f'value="{esc(as_of)}" placeholder="now"> <button>search</button></form>')
    body = [f"<h1>Search group {esc(view.group_id)}</h1>", form]
    status = 200
    if query.strip():
        try:
            hits = view.tg.search(query, as_of=view.time(as_of, "as_of"), limit=20, group_id=view.group_id,
                                  stale="label")
        except TemporalGraphError as exc:
            body.append(f'<p class="error">{esc(exc)}</p>')
            status = 400
        else:
            body.append(f"<h2>{len(hits)} hit(s) for {esc(query)}</h2>")
            if hits.stale_left_out:
                body.append(f'<p class="note">{hits.stale_left_out} superseded message(s) left out</p>')
            if hits:
                head = "<tr><th>kind</th><th>hit</th><th>links</th><th>why</th></tr>"
                rows = "".join(hit_row(view, h) for h in hits)
                body.append(f'<table class="hits">{head}{rows}</table>')
    hint = view.groups_hint()
    if hint is not None:
        body.append(f'<p class="note group-hint">{esc(hint)}</p>')
    else:
        body.append(entity_lists(view, request))
    return page(view, "search", "".join(body), status)


# The types extraction gives to an attribute's value ("2,100 pounds a month", "engaged", a date):
# values, listed apart from the people and things the memory is about.
VALUE_TYPES = frozenset({"Value", "Status", "Date"})


def entity_lists(view: GroupView, request: Request) -> str:
    """The group's people and things, then its values, each by name a page at a time; entities no
    believed fact names are left out (checked for the entities of the page only)."""
    entities = sorted(view.store.entities(view.group_id), key=lambda e: (e.name.casefold(), e.name))
    out = []
    for title, param, chosen in (
            ("People and things", "entities_from", [e for e in entities if e.type not in VALUE_TYPES]),
            ("Values", "values_from", [e for e in entities if e.type in VALUE_TYPES])):
        if not chosen:
            continue
        start = min(_start(request, param), len(chosen))
        shown: list[Entity] = []
        end = start
        while end < len(chosen) and len(shown) < ENTITIES_SHOWN:
            if view.has_facts(chosen[end]):
                shown.append(chosen[end])
            end += 1
        without = end - start - len(shown)
        note = (f' <span class="note">({without} without facts left out)</span>' if without else "")
        out.append(f'<h2>{esc(title)}</h2><p class="entities {esc(param)}">'
                   + (" · ".join(entity_link(e.name) for e in shown) or '<span class="note">none</span>')
                   + note + "</p>" + pager(request, param, start, end, len(chosen), "entities"))
    return "".join(out) or '<p class="note">this group holds no entities</p>'


def entity_page(view: GroupView, request: Request) -> HTMLResponse:
    name = _arg(request, "name")
    entity = view.entity(name)
    if entity is None:
        close = view.tg.similar_names(name, view.group_id) if name.strip() else []
        maybe = f"; did you mean {' or '.join(repr(n) for n in close)}?" if close else ""
        return error(view, "no such entity", view.groups_hint() or f"no entity named {name!r} in this group"
                     + maybe, 404)
    raw_as_of, raw_known = _arg(request, "as_of"), _arg(request, "known_at")
    hops = 2 if _arg(request, "hops") == "2" else 1
    try:
        as_of, known_at = view.time(raw_as_of, "as_of"), view.time(raw_known, "known_at")
    except TemporalGraphError as exc:
        return error(view, entity.name, str(exc), 400)
    tg, group = view.tg, view.group_id
    now = tg.moment()
    current = tg.now(subject=entity.name, group_id=group)
    seen = {f.id for f in current}
    current += [f for f in tg.now(object=entity.name, group_id=group) if f.id not in seen]
    body = [f"<h1>{esc(entity.name)} <span class=\"kind\">{esc(entity.type)}</span></h1>"]
    summary = tg.summary(entity.name, known_at=known_at, group_id=group, derive=True)
    if summary is not None:
        made = (f" <span class=\"note\">(made from its facts as known at {esc(day(summary.created_at))}; the "
                "memory had stored none by then)</span>" if not summary.id else "")
        body.append(f'<p class="summary">{esc(summary.text)}{made}</p>')
    body.append("<h2>Current facts</h2>" + paged_rows(view, request, "facts_from", current))
    insights = tg.insights(entity.name, known_at=known_at, group_id=group)
    if insights:
        body.append("<h2>Insights</h2><ul>" + "".join(f"<li>{esc(i.text)}</li>" for i in insights) + "</ul>")
    body.append(
        f'<h2>Bi-temporal chart</h2><form action="/entity" method="get">'
        f'<input type="hidden" name="name" value="{esc(entity.name)}">'
        f'true at (as_of) <input type="text" name="as_of" size="12" value="{esc(raw_as_of)}" '
        'placeholder="now"> '
        f'as known at (known_at) <input type="text" name="known_at" size="12" value="{esc(raw_known)}" '
        f'placeholder="now"> hops <select name="hops"><option{" selected" if hops == 1 else ""}>1</option>'
        f'<option{" selected" if hops == 2 else ""}>2</option></select> <button>redraw</button></form>')
    layout = view.chart_page(entity, _start(request, "versions_from"))
    drawn = view.with_messages(entity, [f for _, _, facts in layout.lanes for f in facts])
    body.append(draw_chart(entity, layout, drawn, now=now, as_of=as_of, known_at=known_at, link=message_url))
    body.append(pager(request, "versions_from", layout.start, layout.end, layout.total, "versions"))
    held = current  # what holds at as_of as known at known_at: now, unless they are given
    if as_of is not None or known_at is not None:
        t, k = as_of or now, known_at or now
        held = tg.as_of(t, known_at=k, subject=entity.name, group_id=group)
        seen = {f.id for f in held}
        held += [f for f in tg.as_of(t, known_at=k, object=entity.name, group_id=group) if f.id not in seen]
        body.append(f'<h2 id="as-of">True on {esc(day(t))} as known on {esc(day(k))}</h2>'
                    + paged_rows(view, request, "held_from", held))
    body.append("<h2>Every version</h2>" + version_table(view, [drawn[f.id] for _, _, facts in layout.lanes
                                                                 for f in facts])
                + pager(request, "versions_from", layout.start, layout.end, layout.total, "versions"))
    body.append(graph_section(view, entity, held, as_of, known_at, hops, now))
    return page(view, entity.name, "".join(body))


def draw_chart(entity: Entity, layout: Layout, versions: dict[str, Version], *, now: datetime,
               as_of: datetime | None, known_at: datetime | None, link: Callable[[str], str] | None) -> str:
    lanes = [(relation, superseded, [versions[f.id] for f in facts])
             for relation, superseded, facts in layout.lanes]
    return chart(lanes, title=f"{entity.name}: every fact version", now=now, as_of=as_of, known_at=known_at,
                 link=link, shown=(layout.start + 1, layout.end, layout.total))


def version_table(view: GroupView, versions: Sequence[Version]) -> str:
    """The versions the chart draws, in its order."""
    if not versions:
        return '<p class="note">none</p>'
    rows = "".join(
        f'<tr class="{"superseded" if v.fact.expired_at else "believed"}"><td>{esc(v.fact.relation)}</td>'
        f"<td>{entity_link(v.fact.object)}</td>"
        f"<td>{esc(day(v.fact.valid_at))} – {esc(_or(v.fact.invalid_at, 'open'))}</td>"
        f"<td>{esc(day(v.fact.created_at))} – {esc(_or(v.fact.expired_at, 'now'))}</td>"
        f"<td>{_messages(view, [v.asserted_by] if v.asserted_by else [])}</td>"
        f"<td>{_messages(view, [v.ended_by] if v.ended_by else [])}</td></tr>" for v in versions)
    return ("<table class=\"versions\"><tr><th>relation</th><th>object</th><th>valid</th><th>believed</th>"
            f"<th>asserted by</th><th>ended by</th></tr>{rows}</table>")


def graph_section(view: GroupView, entity: Entity, held: Sequence[Fact], as_of: datetime | None,
                  known_at: datetime | None, hops: int, now: datetime) -> str:
    """The entities around ``entity`` at ``as_of`` as known at ``known_at`` (the facts ``snapshot``
    would give), read entity by entity: ``held``, the entity's facts then, and for two hops those
    of the neighbours drawn (at most MAX_NODES in all), never the whole group."""
    t = as_of or now

    def around(name: str) -> list[Fact]:
        found = view.tg.as_of(t, known_at=known_at, subject=name, group_id=view.group_id)
        seen = {f.id for f in found}
        return found + [f for f in view.tg.as_of(t, known_at=known_at, object=name, group_id=view.group_id)
                        if f.id not in seen]

    facts = {f.id: f for f in held}
    if not facts:
        return f"<h2>Neighbourhood</h2><p class=\"note\">{esc(entity.name)} has no facts then</p>"
    names = {entity.id: entity.name}
    for f in facts.values():
        names[f.subject_id], names[f.object_id] = f.subject, f.object
    rings: list[list[str]] = []
    ids = {entity.id}
    frontier = [entity.id]
    budget = MAX_NODES - 1
    left_out = 0
    for hop in range(hops):
        if hop:  # the facts of the ring drawn last, to find the next one
            for n in frontier:
                for f in around(names[n]):
                    facts.setdefault(f.id, f)
                    names.setdefault(f.subject_id, f.subject)
                    names.setdefault(f.object_id, f.object)
        order = {n: i for i, n in enumerate(frontier)}
        near: dict[str, int] = {}  # a node of the next ring -> the first node of this one it touches
        for f in facts.values():
            for a, b in ((f.subject_id, f.object_id), (f.object_id, f.subject_id)):
                if a in order and b not in ids:
                    near[b] = min(near.get(b, len(order)), order[a])
        # the outer ring follows the inner one: neighbours stay together
        found = sorted(near, key=lambda n: (near[n] if hop else 0, names[n]))
        left_out += max(len(found) - budget, 0)
        found = found[:budget]
        budget -= len(found)
        rings.append(found)
        ids |= set(found)
        frontier = found
    edges = [Edge(names[f.subject_id], names[f.object_id], f.relation,
                  f"{f.text} (valid {day(f.valid_at)} – {day(f.invalid_at) if f.invalid_at else 'open'})")
             for f in facts.values() if f.subject_id in ids and f.object_id in ids]
    when = f"as of {day(as_of)}" if as_of else "now"
    extra = {"as_of": as_of.isoformat() if as_of else "", "hops": str(hops),
             "known_at": known_at.isoformat() if known_at else ""}
    svg = neighbourhood(entity.name, [[names[n] for n in ring] for ring in rings], edges,
                        title=f"{entity.name}: {hops} hop(s), {when}", left_out=left_out,
                        link=lambda name: entity_url(name, **extra))
    return f"<h2>Neighbourhood ({when}, {len(ids)} entities)</h2>{svg}"


def chart_svg(view: GroupView, request: Request) -> Response:
    entity = view.entity(_arg(request, "name"))
    if entity is None:
        return Response("no such entity in this group", status_code=404, media_type="text/plain")
    try:
        as_of = view.time(_arg(request, "as_of"), "as_of")
        known_at = view.time(_arg(request, "known_at"), "known_at")
    except TemporalGraphError as exc:
        return Response(str(exc), status_code=400, media_type="text/plain")
    layout = view.chart_page(entity, _start(request, "versions_from"))
    drawn = view.with_messages(entity, [f for _, _, facts in layout.lanes for f in facts])
    svg = draw_chart(entity, layout, drawn, now=view.tg.moment(), as_of=as_of, known_at=known_at,
                     link=message_url)
    headers = {"X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'"}
    return Response(svg, media_type="image/svg+xml", headers=headers)


def message_page(view: GroupView, request: Request) -> HTMLResponse:
    episode_id = _arg(request, "id")
    episode = view.episodes([episode_id]).get(episode_id) if episode_id else None
    if episode is None:
        return error(view, "no such message", f"no message {episode_id!r} in this group", 404)
    speaker = episode.speaker or ""
    who = entity_link(speaker) if speaker and view.entity(speaker) is not None else esc(speaker or "—")
    state = ("withdrawn " + day(episode.retracted_at)) if episode.retracted_at else ""
    told = view.store.facts_citing(view.group_id, [episode.id])
    body = (f"<h1>Message {esc(episode.id[:8])}</h1><p>{who} · said {esc(day(episode.reference_time))} · "
            f"told to the memory {esc(day(episode.created_at))} · {esc(episode.source)}"
            f"{' · ' + esc(state) if state else ''}</p><pre class=\"content\">{esc(episode.content)}</pre>"
            "<h2>Fact versions it is cited by</h2>" + paged_rows(view, request, "facts_from", told))
    return page(view, "message", body)


def insights_page(view: GroupView, request: Request) -> HTMLResponse:
    """The insights believed now and the entities' summaries, ``ROWS`` of each at a time."""
    insights = view.tg.insights(group_id=view.group_id)
    body = ["<h1>Insights</h1>"]
    start = min(_start(request, "insights_from"), len(insights))
    shown = insights[start:start + ROWS]
    body.append("<ul>" + "".join(f"<li>{esc(i.text)} — {' '.join(entity_link(s) for s in i.subjects)}</li>"
                                 for i in shown) + "</ul>"
                + pager(request, "insights_from", start, start + len(shown), len(insights), "insights", ROWS)
                if insights else '<p class="note">no insights (derive them with tgraph reflect)</p>')
    summaries = sorted(view.store.summaries(view.group_id), key=lambda s: (s.entity.casefold(), s.entity))
    start = min(_start(request, "summaries_from"), len(summaries))
    chosen = summaries[start:start + ROWS]
    body.append("<h2>Entity summaries</h2>")
    body.append("<table class=\"summaries\"><tr><th>entity</th><th>summary</th></tr>" + "".join(
        f"<tr><td>{entity_link(s.entity)}</td><td>{esc(s.text)}</td></tr>" for s in chosen) + "</table>"
        + pager(request, "summaries_from", start, start + len(chosen), len(summaries), "summaries", ROWS)
        if summaries else '<p class="note">no summaries</p>')
    return page(view, "insights", "".join(body))


def cypher_page(view: GroupView, request: Request) -> HTMLResponse:
    from .console import SNIPPETS

    text = _arg(request, "q")
    shown = (("as of a date", ':asof 2023-06-01\n' + SNIPPETS["asof"]),
             ("now, as a graph", statement("console/now_graph").readable), *SNIPPETS.items())
    examples = "".join(f'<li><a href="/cypher?{esc(urlencode({"q": snippet}))}">{esc(name)}</a></li>'
                       for name, snippet in shown)
    body = [f"<h1>Cypher (read-only) on group {esc(view.group_id)}</h1>",
            '<form action="/cypher" method="get"><textarea name="q" rows="7">' + esc(text) + "</textarea>"
            '<br><button>run</button> <span class="note">statements end with \';\'; :asof T [K] sets $t and '
            "$k; ready: $now, $group_id</span></form>"]
    status = 200
    if text.strip():
        with view.console_lock:  # the embedded engine runs one statement at a time
            results, status = run_cypher(view, text)
        body.append(results)
    body.append(f"<h2>Snippets</h2><ul>{examples}</ul>")
    return page(view, "cypher", "".join(body), status)


def run_cypher(view: GroupView, text: str) -> tuple[str, int]:
    """The console's statements and commands of ``text``, in order, as HTML; stops at the first
    that fails. ``:group`` is refused and ``$group_id`` stays the server's group."""
    from rich.console import Console

    from .console import Command, ConsoleState, format_value, script_items, write_clause
    from .cypher_runners import StatementFailed

    try:
        runner = view.cypher()
    except TemporalGraphError as exc:  # the engine's package is missing
        return f'<p class="error">{esc(exc)}</p>', 500
    state = ConsoleState(params={"group_id": view.group_id}, clock=view.tg.core.clock, interactive=False)
    state.params["now"] = state.now()
    parts: list[str] = []
    for item in script_items([text]):
        if isinstance(item, Command):
            if item.name == "group":
                return "".join(parts) + '<p class="error">the group is the one tgraph view was started on ' \
                                        "(--group); :group is not available here</p>", 400
            said = io.StringIO()
            ok = state.handle(item, Console(file=said, width=100, markup=False, color_system=None),
                              lambda s: view.tg.moment(s, name="time"))
            state.params["group_id"] = view.group_id
            if said.getvalue().strip():
                parts.append(f"<pre>{esc(said.getvalue())}</pre>")
            if not ok:
                return "".join(parts), 400
            if item.name == "asof":
                parts.append(f'<p class="note">$t = {esc(state.params["t"].isoformat())}, '
                             f'$k = {esc(state.params["k"].isoformat())}</p>')
            continue
        clause = write_clause(item.text, runner.refused_words)
        if clause is not None:
            return "".join(parts) + f'<p class="error">refused: {esc(clause)} writes to the graph or ' \
                                    "touches files and this console is read-only</p>", 400
        state.params["group_id"] = view.group_id
        try:
            outcome = runner.run(item.text, state.params)
        except StatementFailed as exc:
            return "".join(parts) + f'<p class="error">error: {esc(exc)}</p>', 400
        shown = outcome.rows[:MAX_ROWS]
        table = ("<table class=\"rows\"><tr>" + "".join(f"<th>{esc(k)}</th>" for k in outcome.keys) + "</tr>"
                 + "".join("<tr>" + "".join(f"<td>{esc(format_value(v))}</td>" for v in row) + "</tr>"
                           for row in shown) + "</table>")
        more = f", first {len(shown)} shown" if len(shown) < len(outcome.rows) else ""
        count = f'<p class="note">{len(outcome.rows)} row(s){more}</p>'
        parts.append(f"<pre>{esc(item.text)}</pre>{table}{count}{result_graph(outcome.rows)}")
    return "".join(parts), 200


def result_graph(rows: Sequence[Sequence[Any]]) -> str:
    """The nodes and relationships of a console result, drawn (nothing when it holds none). A path
    gives its own order; a relationship alone joins the nodes beside it in its row, since the
    embedded engine's relationships do not carry their ends."""
    labels: dict[str, str] = {}  # node identity -> what it is called
    edges: dict[tuple[str, str, str], None] = {}  # (from, to, type), in the order met

    def node(value: Any) -> str | None:
        if not isinstance(value, GraphNode):
            return None
        props = value.properties
        label = str(props.get("name") or props.get("id") or ":".join(value.labels))
        identity = str(props.get("id") or label)
        labels.setdefault(identity, label)
        return identity

    for row in rows[:MAX_ROWS]:
        cells = list(row)
        for i, value in enumerate(cells):
            if isinstance(value, GraphPath):
                ends = [node(n) for n in value.nodes]
                pairs = [(a, b, r.type) for a, r, b in zip(ends, value.relationships, ends[1:], strict=False)]
            elif isinstance(value, GraphRelationship):
                a = node(cells[i - 1]) if i > 0 else None
                b = node(cells[i + 1]) if i + 1 < len(cells) else None
                pairs = [(a, b, value.type)]
            else:
                node(value)
                continue
            for a, b, rel in pairs:
                if a and b:
                    edges[(a, b, rel)] = None
    if not edges:
        return ""
    degree = Counter(n for a, b, _ in edges for n in (a, b))
    center = max(labels, key=lambda n: (degree[n], labels[n]))
    near = {b if a == center else a for a, b, _ in edges if center in (a, b)} - {center}
    inner = sorted(near, key=lambda n: labels[n])
    outer = sorted(set(labels) - near - {center}, key=lambda n: labels[n])
    budget = MAX_NODES - 1
    kept_inner, kept_outer = inner[:budget], outer[: max(budget - len(inner), 0)]
    # Drawn by name: two nodes of one name would share a place, so such names get their id's start.
    named = Counter(labels.values())
    shown = {n: labels[n] if named[labels[n]] == 1 else f"{labels[n]} ({n[:6]})" for n in labels}
    entity_of = {shown[n]: labels[n] for n in labels}
    drawn = [Edge(shown[a], shown[b], rel, f"{labels[a]} {rel} {labels[b]}") for a, b, rel in edges]
    title = f"the result as a graph: {len(labels)} nodes, {len(edges)} relationships"
    svg = neighbourhood(shown[center], [[shown[n] for n in kept_inner], [shown[n] for n in kept_outer]],
                        drawn, title=title,
                        link=lambda name: entity_url(entity_of[name]),
                        left_out=len(labels) - 1 - len(kept_inner) - len(kept_outer))
    return f'<div class="result-graph">{svg}</div>'


# -- the application --------------------------------------------------------------------------------
def build_app(tg: TemporalGraph, group_id: str) -> tuple[ASGIApp, GroupView]:
    """The ASGI application of the pages on ``group_id``, behind the loopback check."""
    view = GroupView(tg, group_id)

    def route(path: str, handler: Callable[[GroupView, Request], Response]) -> Route:
        def endpoint(request: Request) -> Response:  # run in starlette's thread pool, pages at once
            try:
                return handler(view, request)
            except TemporalGraphError as exc:
                return error(view, "refused", str(exc), 400)

        return Route(path, endpoint, methods=["GET", "HEAD"])

    app = Starlette(routes=[route("/", home), route("/entity", entity_page), route("/chart.svg", chart_svg),
                            route("/message", message_page), route("/insights", insights_page),
                            route("/cypher", cypher_page),
                            Route("/favicon.ico", lambda request: Response(status_code=204))])
    return LoopbackOnly(app), view


def export_chart(tg: TemporalGraph, name: str, group_id: str, *, as_of: str | None = None,
                 known_at: str | None = None) -> str:
    """The bi-temporal chart of entity ``name`` as an SVG document, for a file (no links): its
    first page, as the web page draws it (the SVG says how many versions it leaves out)."""
    from ..core.errors import no_entity

    view = GroupView(tg, group_id)
    entity = view.entity(name)
    if entity is None:
        raise no_entity(name, group_id)
    layout = view.chart_page(entity)
    drawn = view.with_messages(entity, [f for _, _, facts in layout.lanes for f in facts])
    return draw_chart(entity, layout, drawn, now=tg.moment(), as_of=view.time(as_of, "as_of"),
                      known_at=view.time(known_at, "known_at"), link=None)


class Server:
    """The pages served on ``host``:``port`` (0: a free port, chosen when the socket is bound)."""

    def __init__(self, tg: TemporalGraph, group_id: str, *, port: int = 0, host: str = "127.0.0.1") -> None:
        self.app, self.view = build_app(tg, group_id)
        self.socket = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind((host, port))
        self.port = self.socket.getsockname()[1]
        self.url = f"http://{f'[{host}]' if ':' in host else host}:{self.port}/"
        config = uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread: threading.Thread | None = None

    def run(self) -> None:
        """Serve until Ctrl-C (the caller's thread)."""
        try:
            self.server.run(sockets=[self.socket])
        finally:
            self.view.close()

    def start(self) -> str:
        """Serve in a background thread; the URL once it listens."""
        self.thread = threading.Thread(target=self.run, name="tgraph-view", daemon=True)
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("tgraph view: the server did not start")
            time.sleep(0.01)
        return self.url

    def stop(self) -> None:
        self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(10)
        self.socket.close()
