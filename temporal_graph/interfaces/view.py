"""``tgraph view``: a read-only web page on one group of the memory, served on 127.0.0.1.

Pages (all GET, no script; the pictures are SVG drawn here, :mod:`.view_svg`):

- ``/``: search over the group (the memory's ``search``), each hit linked to its entities and
  messages; the group's entities;
- ``/entity?name=...&as_of=...&known_at=...&hops=1|2``: current facts, summary and insights, the
  bi-temporal chart of every fact version, what was true at ``as_of`` as known at ``known_at``,
  and the neighbourhood graph at ``as_of`` (1 or 2 hops, from ``snapshot``);
- ``/chart.svg?name=...``: the chart alone; ``/message?id=...``: one message and what it asserted;
- ``/cypher?q=...``: the read-only Cypher console of ``tgraph cypher`` (``:asof T [K]`` and the
  ready parameters), results as tables, and as a graph when they hold nodes and relationships;
- ``/insights``: insights and entity summaries.

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
from ..core.model import AssertionKind, Entity, Fact, SearchHit
from ..core.stores.protocol import AssertionQuery, FactQuery
from ..core.stores.statements import statement
from .cypher_embedded.graph import GraphNode, GraphPath, GraphRelationship
from .render import standing_cell
from .view_svg import Edge, Version, chart, day, esc, neighbourhood

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
MAX_ROWS = 500
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
    """Everything the pages read, on one group (fixed when the server starts)."""

    def __init__(self, tg: TemporalGraph, group_id: str) -> None:
        self.tg = tg
        self.group_id = group_id
        self.store = tg.core.store
        self.lock = threading.Lock()  # one reader at a time: pages are small, the store stays simple
        self._cypher: Any = None

    def time(self, value: str | None, name: str) -> datetime | None:
        return self.tg.moment(value.strip(), name=name) if value and value.strip() else None

    def entity(self, name: str) -> Entity | None:
        return self.tg.find_entity(name, self.group_id) if name.strip() else None

    def episodes(self, ids: Iterable[str]) -> dict[str, Any]:
        wanted = sorted(set(ids))
        return {e.id: e for e in self.store.episodes(self.group_id, ids=wanted)} if wanted else {}

    def versions(self, entity: Entity) -> list[Version]:
        """Every version of every fact with ``entity`` as subject, with the messages that asserted
        and ended each (the assertions of its relation: the write at its end, or the one whose
        start is its end)."""
        rows = self.store.facts(FactQuery(self.group_id, subject_id=entity.id, all_versions=True))
        kinds: tuple[AssertionKind, ...] = ("start", "end", "retract", "withdraw")
        assertions = {r: self.store.key_assertions(AssertionQuery(self.group_id, entity.id, r, kinds=kinds))
                      for r in {f.relation for f in rows}}
        versions = []
        for fact in rows:
            said = assertions[fact.relation]
            ended: str | None = None
            if fact.expired_at is not None:  # the write that revised or retracted this belief
                at_end = [a for a in said if a.created_at == fact.expired_at and a.episode_id]
                ended = at_end[-1].episode_id if at_end else None
            elif fact.invalid_at is not None:  # what started the next row, or said it ended
                at_end = [a for a in said if a.at == fact.invalid_at and a.episode_id
                          and (a.kind == "end" or a.object_id != fact.object_id)]
                ended = at_end[0].episode_id if at_end else None
            versions.append(Version(fact, fact.episode_ids[0] if fact.episode_ids else None, ended))
        return versions

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
    entities = sorted(view.store.entities(view.group_id), key=lambda e: e.name.casefold())
    if entities:
        shown = entities[:300]
        body.append(f"<h2>Entities ({len(entities)})</h2><p>"
                    + " · ".join(entity_link(e.name) for e in shown)
                    + (f' <span class="note">and {len(entities) - len(shown)} more</span>'
                       if len(entities) > len(shown) else "") + "</p>")
    else:
        body.append('<p class="note">this group holds no entities</p>')
    return page(view, "search", "".join(body), status)


def entity_page(view: GroupView, request: Request) -> HTMLResponse:
    name = _arg(request, "name")
    entity = view.entity(name)
    if entity is None:
        return error(view, "no such entity", f"no entity named {name!r} in this group", 404)
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
    summary = tg.summary(entity.name, known_at=known_at, group_id=group)
    if summary is not None:
        body.append(f'<p class="summary">{esc(summary.text)}</p>')
    body.append("<h2>Current facts</h2>" + fact_rows(view, current))
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
    versions = view.versions(entity)
    body.append(chart(versions, title=f"{entity.name}: every fact version", now=now, as_of=as_of,
                      known_at=known_at, link=message_url))
    if as_of is not None or known_at is not None:
        t, k = as_of or now, known_at or now
        held = tg.as_of(t, known_at=k, subject=entity.name, group_id=group)
        body.append(f'<h2 id="as-of">True on {esc(day(t))} as known on {esc(day(k))}</h2>'
                    + fact_rows(view, held))
    body.append("<h2>Every version</h2>" + version_table(view, versions))
    body.append(graph_section(view, entity, as_of, known_at, hops))
    return page(view, entity.name, "".join(body))


def version_table(view: GroupView, versions: Sequence[Version]) -> str:
    if not versions:
        return '<p class="note">none</p>'
    ordered = sorted(versions, key=lambda v: (v.fact.relation, v.fact.created_at, v.fact.id))
    rows = "".join(
        f'<tr class="{"superseded" if v.fact.expired_at else "believed"}"><td>{esc(v.fact.relation)}</td>'
        f"<td>{entity_link(v.fact.object)}</td>"
        f"<td>{esc(day(v.fact.valid_at))} – {esc(_or(v.fact.invalid_at, 'open'))}</td>"
        f"<td>{esc(day(v.fact.created_at))} – {esc(_or(v.fact.expired_at, 'now'))}</td>"
        f"<td>{_messages(view, [v.asserted_by] if v.asserted_by else [])}</td>"
        f"<td>{_messages(view, [v.ended_by] if v.ended_by else [])}</td></tr>" for v in ordered)
    return ("<table class=\"versions\"><tr><th>relation</th><th>object</th><th>valid</th><th>believed</th>"
            f"<th>asserted by</th><th>ended by</th></tr>{rows}</table>")


def graph_section(view: GroupView, entity: Entity, as_of: datetime | None, known_at: datetime | None,
                  hops: int) -> str:
    graph = view.tg.snapshot(as_of, known_at, group_id=view.group_id)
    if entity.id not in graph:
        return f"<h2>Neighbourhood</h2><p class=\"note\">{esc(entity.name)} has no facts then</p>"
    undirected = graph.to_undirected(as_view=True)
    rings: list[list[str]] = []
    ids = {entity.id}
    frontier = [entity.id]
    budget = MAX_NODES - 1
    left_out = 0
    names = {n: str(d.get("name", n)) for n, d in graph.nodes(data=True)}
    for _ in range(hops):
        found = sorted({m for n in frontier for m in undirected.neighbors(n)} - ids, key=lambda n: names[n])
        if hops == 2 and rings:  # the outer ring follows the inner one: neighbours stay together
            order = {n: i for i, n in enumerate(frontier)}
            found.sort(key=lambda m: min(order.get(n, len(order)) for n in undirected.neighbors(m)))
        left_out += max(len(found) - budget, 0)
        found = found[:budget]
        budget -= len(found)
        rings.append(found)
        ids |= set(found)
        frontier = found
    edges = []
    for source, target, data in graph.edges(data=True):
        if source in ids and target in ids:
            fact: Fact = data["fact"]
            edges.append(Edge(names[source], names[target], fact.relation,
                              f"{fact.text} (valid {day(fact.valid_at)} – "
                              f"{day(fact.invalid_at) if fact.invalid_at else 'open'})"))
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
    svg = chart(view.versions(entity), title=f"{entity.name}: every fact version", now=view.tg.moment(),
                as_of=as_of, known_at=known_at, link=message_url)
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
            "<h2>Fact versions it is cited by</h2>" + fact_rows(view, told))
    return page(view, "message", body)


def insights_page(view: GroupView, request: Request) -> HTMLResponse:
    insights = view.tg.insights(group_id=view.group_id)
    body = ["<h1>Insights</h1>"]
    body.append("<ul>" + "".join(f"<li>{esc(i.text)} — {' '.join(entity_link(s) for s in i.subjects)}</li>"
                                 for i in insights) + "</ul>" if insights
                else '<p class="note">no insights (derive them with tgraph reflect)</p>')
    summaries = view.store.summaries(view.group_id)
    body.append("<h2>Entity summaries</h2>")
    body.append("<table><tr><th>entity</th><th>summary</th></tr>" + "".join(
        f"<tr><td>{entity_link(s.entity)}</td><td>{esc(s.text)}</td></tr>"
        for s in sorted(summaries, key=lambda s: s.entity.casefold())) + "</table>" if summaries
        else '<p class="note">no summaries</p>')
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
        def endpoint(request: Request) -> Response:  # run in starlette's thread pool
            with view.lock:
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
    """The bi-temporal chart of entity ``name`` as an SVG document, for a file (no links)."""
    from ..core.errors import no_entity

    view = GroupView(tg, group_id)
    entity = view.entity(name)
    if entity is None:
        raise no_entity(name, group_id)
    return chart(view.versions(entity), title=f"{entity.name}: every fact version", now=tg.moment(),
                 as_of=view.time(as_of, "as_of"), known_at=view.time(known_at, "known_at"))


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
