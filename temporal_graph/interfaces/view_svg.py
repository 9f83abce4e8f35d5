"""The pictures of ``tgraph view``, drawn on the server as SVG text (no script, no front-end build).

- :func:`chart`: an entity's bi-temporal chart. Valid time runs across, over the span of the bars
  drawn; each fact version is one bar over its valid interval (an open one runs to the right edge,
  with an arrowhead). The versions believed now sit on their relation's lane (a move shows as two
  bars meeting at the move); versions the memory no longer believes (expired in transaction time)
  are drawn apart, hatched, on the lane below, an open one ending at the revision that ended the
  belief. A chosen moment ``as_of`` is a vertical line and ``known_at`` picks the versions believed
  then: those true at ``as_of`` as known at ``known_at`` are outlined, the rest pale. Every label
  has a contrast of 4.5 or more to its bar. :func:`lay_out` cuts a page of bars and lanes.
- :func:`neighbourhood`: the entities around one entity (1-2 hops) on rings, readable at 50 nodes.

Every text from the memory goes through :func:`esc` (XML-escaped, with the characters XML cannot
hold replaced), so the output is well-formed XML, inline in a page or in a file.
"""

from __future__ import annotations

import heapq
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from html import escape

from ..core.model import Fact
from ..core.time import EARLIEST, LATEST

# What XML 1.0 cannot hold, even as a character reference.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def esc(text: object) -> str:
    """``text`` escaped for XML and HTML text and attribute values."""
    return escape(_NOT_XML.sub("\ufffd", str(text)), quote=True)


def day(moment: datetime | None) -> str:
    return "…" if moment is None else moment.astimezone(timezone.utc).isoformat()[:10]  # year 1: 0001


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


@dataclass(frozen=True)
class Version:
    """One fact version as the chart draws it: the row, and the messages that asserted and ended it."""

    fact: Fact
    asserted_by: str | None  # episode id
    ended_by: str | None  # episode id of the message that ended it in valid or transaction time


Link = Callable[[str], str]  # an episode id -> the URL of its page

LANE_H, BAR_H, LEFT, RIGHT, TOP = 30, 18, 190, 30, 46
WIDTH = 1000
# A chart draws at most this many bars on at most this many lanes; the rest are on later pages.
MAX_BARS = 200
MAX_LANES = 40

# Bar colours: a label's colour has a contrast of at least 4.5 to the fill behind it (WCAG AA).
BELIEVED_FILL, BELIEVED_TEXT = "#2e5aa8", "#ffffff"
FADED_FILL, FADED_TEXT = "#e4e9f2", "#2b3a55"  # not believed at known_at: pale, with dark words
HATCH_FILL, HATCH_LINE, HATCH_TEXT = "#eef1f5", "#b9c2ce", "#1f2933"  # no longer believed


def _superseded(fact: Fact) -> bool:
    return fact.expired_at is not None


def _start_key(fact: Fact) -> datetime:
    return fact.valid_at or EARLIEST


def drawn_end(fact: Fact) -> datetime | None:
    """Where a bar ends: its valid end; for a version no longer believed whose valid end was open,
    the revision that ended the belief (it was believed to hold until then, not until now); None:
    open, to the chart's right edge."""
    if fact.invalid_at is not None:
        return fact.invalid_at
    if fact.expired_at is not None:
        return max(fact.expired_at, _start_key(fact))
    return None


def chart_order(facts: Iterable[Fact]) -> list[Fact]:
    """The order versions are drawn and paged in: by relation; each relation's believed versions,
    then its superseded ones; each by start, then when recorded."""
    return sorted(facts, key=lambda f: (f.relation, _superseded(f), _start_key(f), f.created_at, f.id))


@dataclass(frozen=True)
class Layout:
    """One page of a chart: ``lanes`` of (relation, superseded, facts) drawing ``ordered[start:end]``
    of ``total`` versions."""

    lanes: list[tuple[str, bool, list[Fact]]]
    start: int
    end: int
    total: int


def lay_out(ordered: Sequence[Fact], start: int = 0, *, max_bars: int = MAX_BARS,
            max_lanes: int = MAX_LANES) -> Layout:
    """The page of ``ordered`` (:func:`chart_order`) from ``start``: as many versions as fit in
    ``max_bars`` bars on ``max_lanes`` lanes. Within a relation's believed or superseded versions a
    bar goes on the lane that came free first if it has (no two bars of a lane overlap), else on a
    new one: n log n for n bars."""
    start = min(max(start, 0), len(ordered))
    lanes: list[tuple[str, bool, list[Fact]]] = []
    free: list[tuple[datetime, int]] = []  # (where its last bar ends, lane index) of the current group
    group: tuple[str, bool] | None = None
    end = start
    while end < len(ordered) and end - start < max_bars:
        fact = ordered[end]
        if (fact.relation, _superseded(fact)) != group:
            group, free = (fact.relation, _superseded(fact)), []
        if free and free[0][0] <= _start_key(fact):
            _, index = heapq.heappop(free)
        elif len(lanes) < max_lanes:
            index = len(lanes)
            lanes.append((fact.relation, _superseded(fact), []))
        else:
            break
        lanes[index][2].append(fact)
        bar_end = drawn_end(fact)
        if bar_end is not None:  # an open bar keeps its lane to the right edge
            heapq.heappush(free, (bar_end, index))
        end += 1
    return Layout(lanes, start, end, len(ordered))


def _shift(moment: datetime, delta: timedelta) -> datetime:
    """``moment + delta``, stopped at the ends of the range of times."""
    if delta >= timedelta(0):
        return moment + delta if LATEST - moment > delta else LATEST
    return moment + delta if moment - EARLIEST > -delta else EARLIEST


def _span(facts: Sequence[Fact], marks: Sequence[datetime], now: datetime) -> tuple[datetime, datetime]:
    """The valid time the chart spans: the bars drawn and the marked moments, padded a little; not
    "now" (a history that ended years ago fills the width)."""
    times = [t for f in facts for t in (f.valid_at, drawn_end(f)) if t is not None] + list(marks)
    if not times:
        return _shift(now, -timedelta(days=365)), now
    lo, hi = min(times), max(times)
    pad = max((hi - lo) * 0.04, timedelta(days=15))
    return _shift(lo, -pad), _shift(hi, pad)


_YEAR_STEPS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)


def _ticks(lo: datetime, hi: datetime) -> list[tuple[datetime, str]]:
    """Grid lines at round moments inside [lo, hi], about ten at most: years (every 1, 2, 5, 10 ...
    years), quarters, months or days, by the span."""
    days = (hi - lo).days
    ticks: list[tuple[datetime, str]] = []
    if days > 3 * 365:
        step = next((s for s in _YEAR_STEPS if (hi.year - lo.year) / s <= 10), 10_000)
        first = max(1, -(-lo.year // step) * step)
        for year in range(first, hi.year + 1, step):
            t = datetime(year, 1, 1, tzinfo=timezone.utc)
            if lo <= t <= hi:
                ticks.append((t, str(year)))
        return ticks
    if days > 40:
        months = range(1, 13) if days <= 300 else (1, 4, 7, 10)
        for year in range(lo.year, hi.year + 1):
            for month in months:
                t = datetime(year, month, 1, tzinfo=timezone.utc)
                if lo <= t <= hi:
                    ticks.append((t, str(year) if month == 1 else t.strftime("%b")))
        return ticks
    step_days = max(1, days // 8)
    d = lo.date()
    while True:
        t = datetime(d.year, d.month, d.day, tzinfo=timezone.utc)
        if t > hi:
            return ticks
        if t >= lo:
            ticks.append((t, t.strftime("%d %b")))
        if date.max - d < timedelta(days=step_days):
            return ticks
        d += timedelta(days=step_days)


def chart(
    lanes: Sequence[tuple[str, bool, Sequence[Version]]], *, title: str, now: datetime,
    as_of: datetime | None = None, known_at: datetime | None = None, link: Link | None = None,
    shown: tuple[int, int, int] | None = None,
) -> str:
    """The bi-temporal chart of the versions on ``lanes`` (:func:`lay_out`) as an SVG document
    (``link``: message URLs; without it, as in a file, the bars name their messages in ``data-``
    attributes only). ``shown``: (first, last, total) when these are some of an entity's versions."""
    facts = [v.fact for _, _, lane in lanes for v in lane]
    marks = [m for m in (as_of, known_at) if m is not None]
    lo, hi = _span(facts, marks, now)
    plot = WIDTH - LEFT - RIGHT
    height = TOP + LANE_H * max(len(lanes), 1) + 64
    seconds = max((hi - lo).total_seconds(), 1.0)

    def x(moment: datetime | None, default: float) -> float:
        if moment is None:
            return default
        return LEFT + plot * min(max((moment - lo).total_seconds() / seconds, 0.0), 1.0)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tg-chart" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{esc(title)}" font-family="sans-serif" '
        'font-size="12">',
        f"<title>{esc(title)}</title>",
        '<defs><pattern id="tg-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
        f'patternTransform="rotate(45)"><rect width="6" height="6" fill="{HATCH_FILL}"/>'
        f'<line x1="0" y1="0" x2="0" y2="6" stroke="{HATCH_LINE}" stroke-width="2"/></pattern></defs>',
        '<rect width="100%" height="100%" fill="#ffffff"/>',
        f'<text x="{LEFT}" y="18" font-weight="bold" font-size="14">{esc(title)}</text>',
    ]
    axis_y = TOP + LANE_H * max(len(lanes), 1) + 8
    for tick, label in _ticks(lo, hi):
        tx = x(tick, LEFT)
        out.append(f'<line x1="{tx:.1f}" y1="{TOP - 6}" x2="{tx:.1f}" y2="{axis_y}" stroke="#e3e6ea"/>')
        out.append(f'<text class="tick" x="{tx:.1f}" y="{axis_y + 16}" text-anchor="middle" fill="#555">'
                   f"{esc(label)}</text>")
    out.append(f'<line x1="{LEFT}" y1="{axis_y}" x2="{WIDTH - RIGHT}" y2="{axis_y}" stroke="#888"/>')
    legend = "valid time → (hatched: versions no longer believed)"
    if shown is not None and (shown[0] > 1 or shown[1] < shown[2]):
        legend = f"versions {shown[0]:,}–{shown[1]:,} of {shown[2]:,} drawn; " + legend
    out.append(f'<text class="legend" x="{WIDTH - RIGHT}" y="{axis_y + 34}" text-anchor="end" fill="#555">'
               f"{esc(legend)}</text>")
    if not facts:
        out.append(f'<text x="{LEFT}" y="{TOP + 18}" fill="#555">no facts about this entity</text>')
    previous = ""
    for i, (relation, superseded, lane) in enumerate(lanes):
        y = TOP + i * LANE_H
        label = relation if relation != previous else ""
        previous = relation
        if superseded:
            label = "  superseded"
        out.append(f'<text x="{LEFT - 8}" y="{y + BAR_H - 5}" text-anchor="end" '
                   f'fill="{"#555" if superseded else "#222"}">{esc(_clip(label, 26))}</text>')
        for version in lane:
            out.append(_bar(version, y, x, superseded, as_of, known_at, now, link))
    for moment, name, colour in ((as_of, "as_of", "#c0392b"), (known_at, "known_at", "#2471a3")):
        if moment is None:
            continue
        mx = x(moment, LEFT)
        out.append(f'<line class="tg-mark" x1="{mx:.1f}" y1="{TOP - 10}" x2="{mx:.1f}" y2="{axis_y}" '
                   f'stroke="{colour}" stroke-width="1.5" stroke-dasharray="4 3"/>')
        dy = 30 if name == "as_of" else 40
        out.append(f'<text x="{mx:.1f}" y="{dy}" text-anchor="middle" fill="{colour}" font-size="11">'
                   f'{name} {esc(day(moment))}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _bar(version: Version, y: float, x: Callable[[datetime | None, float], float], superseded: bool,
         as_of: datetime | None, known_at: datetime | None, now: datetime, link: Link | None) -> str:
    fact = version.fact
    x0 = x(fact.valid_at, LEFT)
    end = drawn_end(fact)
    x1 = x(end, WIDTH - RIGHT)
    w = max(x1 - x0, 3.0)
    believed = known_at is None or fact.known_at(known_at)  # faded only when a known_at is asked
    held = as_of is not None and fact.known_at(known_at or now) and fact.valid_at_time(as_of)
    believed_span = f"believed {day(fact.created_at)} – {day(fact.expired_at) if fact.expired_at else 'now'}"
    tip = (f"{fact.subject} {fact.relation} {fact.object}: valid {day(fact.valid_at)} – "
           f"{day(fact.invalid_at) if fact.invalid_at else 'open'}; {believed_span}")
    if superseded:
        fill, ink = "url(#tg-hatch)", HATCH_TEXT
    elif believed:
        fill, ink = BELIEVED_FILL, BELIEVED_TEXT
    else:
        fill, ink = FADED_FILL, FADED_TEXT
    stroke = (' stroke="#c0392b" stroke-width="2.5"' if held else
              ' stroke="#1d3c78" stroke-width="0.8"' if believed else
              ' stroke="#8a9bbf" stroke-width="0.8" stroke-dasharray="3 2"')
    classes = ["version"] + [c for c, on in (("superseded", superseded), ("held", held),
                                            ("faded", not believed), ("open", end is None)) if on]
    attrs = (f'class="{" ".join(classes)}" '
             f'data-version-id="{esc(fact.id)}" data-fact-id="{esc(fact.fact_id)}" '
             f'data-asserted-by="{esc(version.asserted_by or "")}" '
             f'data-ended-by="{esc(version.ended_by or "")}"')
    parts = [f"<g {attrs}><title>{esc(tip)}</title>"]
    # On hatching a label gets a halo of the pattern's ground, so the lines never cross its letters.
    halo = f' stroke="{HATCH_FILL}" stroke-width="3" paint-order="stroke"' if superseded else ""
    rect = (f'<rect x="{x0:.1f}" y="{y:.1f}" width="{w:.1f}" height="{BAR_H}" rx="3" fill="{fill}"{stroke}/>'
            f'<text x="{x0 + 4:.1f}" y="{y + BAR_H - 5:.1f}" fill="{ink}"{halo} '
            f'font-size="11">{esc(_clip(fact.object, max(int(w / 7), 1)))}</text>')
    if end is None:  # open: an arrowhead at the right edge says it goes on
        tip_x = x0 + w
        rect += (f'<path d="M{tip_x - 6:.1f},{y + 4:.1f} L{tip_x - 1:.1f},{y + BAR_H / 2:.1f} '
                 f'L{tip_x - 6:.1f},{y + BAR_H - 4:.1f}" fill="none" stroke="{ink}" stroke-width="1.2"/>')
    if link is not None and version.asserted_by:
        parts.append(f'<a class="asserted" href="{esc(link(version.asserted_by))}">'
                     f'<title>asserted by this message</title>{rect}</a>')
    else:
        parts.append(rect)
    if version.ended_by:
        cap = (f'<rect x="{x0 + w - 5:.1f}" y="{y - 2:.1f}" width="7" height="{BAR_H + 4}" rx="1" '
               'fill="#222"/>')
        if link is not None:
            parts.append(f'<a class="ended" href="{esc(link(version.ended_by))}"><title>ended by this message'
                         f'</title>{cap}</a>')
        else:
            parts.append(cap)
    parts.append("</g>")
    return "".join(parts)


# -- the neighbourhood -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Edge:
    source: str  # entity names
    target: str
    relation: str
    tip: str


def neighbourhood(center: str, rings: Sequence[Sequence[str]], edges: Sequence[Edge], *, title: str,
                  link: Callable[[str], str] | None = None, left_out: int = 0) -> str:
    """``center`` in the middle, ``rings[0]`` (one hop away) on the inner circle and ``rings[1]``
    (two hops) on the outer one, in the order given; ``edges`` between any of them."""
    inner = list(rings[0]) if rings else []
    outer = list(rings[1]) if len(rings) > 1 else []
    # Labels run outwards from each node, so a ring needs about a line's height per node.
    r1 = max(140.0, 22.0 * len(inner) / (2 * math.pi))
    r2 = max(r1 + 160.0, 18.0 * len(outer) / (2 * math.pi)) if outer else r1
    size = int(2 * (r2 + 175))
    c = size / 2
    pos: dict[str, tuple[float, float, float]] = {center: (c, c, 0.0)}
    for ring, radius in ((inner, r1), (outer, r2)):
        for i, name in enumerate(ring):
            angle = 2 * math.pi * i / max(len(ring), 1) - math.pi / 2
            pos[name] = (c + radius * math.cos(angle), c + radius * math.sin(angle), angle)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tg-graph" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}" role="img" aria-label="{esc(title)}" font-family="sans-serif" '
        'font-size="12">',
        f"<title>{esc(title)}</title>",
        '<rect width="100%" height="100%" fill="#ffffff"/>',
        f'<text x="12" y="20" font-weight="bold" font-size="14">{esc(title)}</text>',
    ]
    if left_out:
        out.append(f'<text x="12" y="38" fill="#777">{left_out} more not shown</text>')
    for ring_radius in (r1, r2) if outer else (r1,):
        out.append(f'<circle cx="{c:.1f}" cy="{c:.1f}" r="{ring_radius:.1f}" fill="none" stroke="#f0f0f0"/>')
    for edge in edges:
        if edge.source not in pos or edge.target not in pos:
            continue
        (ax, ay, _), (bx, by, _) = pos[edge.source][:3], pos[edge.target][:3]
        near = center in (edge.source, edge.target)
        out.append(f'<g class="edge"><title>{esc(edge.tip)}</title><line x1="{ax:.1f}" y1="{ay:.1f}" '
                   f'x2="{bx:.1f}" y2="{by:.1f}" stroke="{"#8aa4d6" if near else "#d0d5dc"}" '
                   'stroke-width="1.2"/>')
        if near:
            mx, my = ax + (bx - ax) * 0.55, ay + (by - ay) * 0.55
            out.append(f'<text x="{mx:.1f}" y="{my:.1f}" text-anchor="middle" fill="#6b7a90" font-size="10">'
                       f'{esc(_clip(edge.relation.lower(), 22))}</text>')
        out.append("</g>")
    for name, (nx_, ny, angle) in pos.items():
        is_center = name == center
        radius = 9 if is_center else 6
        if is_center:
            anchor, tx, ty = "middle", nx_, ny - 14
        else:
            right = math.cos(angle) >= 0
            anchor = "start" if right else "end"
            tx = nx_ + (10 if right else -10) * 1.0
            ty = ny + 4
        colour = "#c0392b" if is_center else "#5b8def"
        node = (f'<circle cx="{nx_:.1f}" cy="{ny:.1f}" r="{radius}" fill="{colour}"/>'
                f'<text x="{tx:.1f}" y="{ty:.1f}" text-anchor="{anchor}" '
                f'font-weight="{"bold" if is_center else "normal"}">{esc(_clip(name, 24))}</text>')
        if link is not None and not is_center:
            node = f'<a href="{esc(link(name))}"><title>{esc(name)}</title>{node}</a>'
        out.append(f'<g class="node">{node}</g>')
    out.append("</svg>")
    return "\n".join(out)
