"""The pictures of ``tgraph view``, drawn on the server as SVG text (no script, no front-end build).

- :func:`chart`: an entity's bi-temporal chart. Valid time runs across; each fact version is one
  bar over its valid interval. The versions believed now sit on their relation's lane (a move
  shows as two bars meeting at the move); versions the memory no longer believes (expired in
  transaction time) are drawn apart, hatched, on the lane below, labelled with when they were
  believed. A chosen moment ``as_of`` is a vertical line and ``known_at`` picks the versions
  believed then: those true at ``as_of`` as known at ``known_at`` are outlined, the rest faded.
- :func:`neighbourhood`: the entities around one entity (1-2 hops) on rings, readable at 50 nodes.

Every text from the memory goes through :func:`esc` (XML-escaped, with the characters XML cannot
hold replaced), so the output is well-formed XML, inline in a page or in a file.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from html import escape

from ..core.model import Fact

# What XML 1.0 cannot hold, even as a character reference.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def esc(text: object) -> str:
    """``text`` escaped for XML and HTML text and attribute values."""
    return escape(_NOT_XML.sub("\ufffd", str(text)), quote=True)


def day(moment: datetime | None) -> str:
    return "…" if moment is None else moment.astimezone(timezone.utc).strftime("%Y-%m-%d")


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


def _lanes(versions: Sequence[Version]) -> list[tuple[str, bool, list[Version]]]:
    """(relation, superseded, versions) per lane: each relation's believed versions, then its
    superseded ones, each packed so no two bars of a lane overlap."""
    lanes: list[tuple[str, bool, list[Version]]] = []
    relations = sorted({v.fact.relation for v in versions})
    for relation in relations:
        for superseded in (False, True):
            chosen = sorted((v for v in versions if v.fact.relation == relation
                             and (v.fact.expired_at is not None) == superseded),
                            key=lambda v: (_start_key(v.fact), v.fact.created_at))
            packed: list[list[Version]] = []
            for version in chosen:
                for lane in packed:
                    last = lane[-1].fact
                    if last.invalid_at is not None and version.fact.valid_at is not None \
                            and last.invalid_at <= version.fact.valid_at:
                        lane.append(version)
                        break
                else:
                    packed.append([version])
            lanes.extend((relation, superseded, lane) for lane in packed)
    return lanes


_EARLIEST = datetime.min.replace(tzinfo=timezone.utc)


def _start_key(fact: Fact) -> datetime:
    return fact.valid_at or _EARLIEST


def _span(versions: Sequence[Version], now: datetime, marks: Sequence[datetime]) -> tuple[datetime, datetime]:
    times = [t for v in versions for t in (v.fact.valid_at, v.fact.invalid_at) if t is not None]
    times += [*marks, now]
    lo, hi = min(times), max(times)
    pad = max((hi - lo) * 0.06, timedelta(days=15))
    return lo - pad, hi + pad


def _ticks(lo: datetime, hi: datetime) -> list[tuple[datetime, str]]:
    years = range(lo.year, hi.year + 2)
    months = (1,) if hi - lo > timedelta(days=3 * 365) else (1, 4, 7, 10)
    ticks = []
    for year in years:
        for month in months:
            t = datetime(year, month, 1, tzinfo=timezone.utc)
            if lo <= t <= hi:
                ticks.append((t, str(year) if month == 1 else t.strftime("%b")))
    return ticks


def chart(
    versions: Sequence[Version], *, title: str, now: datetime, as_of: datetime | None = None,
    known_at: datetime | None = None, link: Link | None = None,
) -> str:
    """The bi-temporal chart of ``versions`` as an SVG document (``link``: message URLs; without it,
    as in a file, the bars name their messages in ``data-`` attributes only)."""
    lanes = _lanes(versions)
    marks = [m for m in (as_of, known_at) if m is not None]
    lo, hi = _span(versions, now, marks) if versions else (now - timedelta(days=365), now)
    plot = WIDTH - LEFT - RIGHT
    height = TOP + LANE_H * max(len(lanes), 1) + 64

    def x(moment: datetime | None, default: float) -> float:
        if moment is None:
            return default
        return LEFT + plot * (moment - lo).total_seconds() / max((hi - lo).total_seconds(), 1.0)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tg-chart" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{esc(title)}" font-family="sans-serif" '
        'font-size="12">',
        f"<title>{esc(title)}</title>",
        '<defs><pattern id="tg-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="6" height="6" fill="#eceff3"/>'
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#9aa5b1" stroke-width="2"/></pattern></defs>',
        '<rect width="100%" height="100%" fill="#ffffff"/>',
        f'<text x="{LEFT}" y="18" font-weight="bold" font-size="14">{esc(title)}</text>',
    ]
    axis_y = TOP + LANE_H * max(len(lanes), 1) + 8
    for tick, label in _ticks(lo, hi):
        tx = x(tick, LEFT)
        out.append(f'<line x1="{tx:.1f}" y1="{TOP - 6}" x2="{tx:.1f}" y2="{axis_y}" stroke="#e3e6ea"/>')
        out.append(f'<text x="{tx:.1f}" y="{axis_y + 16}" text-anchor="middle" fill="#555">'
                   f"{esc(label)}</text>")
    out.append(f'<line x1="{LEFT}" y1="{axis_y}" x2="{WIDTH - RIGHT}" y2="{axis_y}" stroke="#888"/>')
    out.append(f'<text x="{WIDTH - RIGHT}" y="{axis_y + 34}" text-anchor="end" fill="#555">valid time → '
               '(hatched: versions no longer believed)</text>')
    if not versions:
        out.append(f'<text x="{LEFT}" y="{TOP + 18}" fill="#555">no facts about this entity</text>')
    previous = ""
    for i, (relation, superseded, lane) in enumerate(lanes):
        y = TOP + i * LANE_H
        label = relation if relation != previous else ""
        previous = relation
        if superseded:
            label = "  superseded"
        out.append(f'<text x="{LEFT - 8}" y="{y + BAR_H - 5}" text-anchor="end" '
                   f'fill="{"#777" if superseded else "#222"}">{esc(_clip(label, 26))}</text>')
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
    x1 = x(fact.invalid_at, WIDTH - RIGHT)
    w = max(x1 - x0, 3.0)
    believed = known_at is None or fact.known_at(known_at)  # faded only when a known_at is asked
    held = as_of is not None and fact.known_at(known_at or now) and fact.valid_at_time(as_of)
    believed_span = f"believed {day(fact.created_at)} – {day(fact.expired_at) if fact.expired_at else 'now'}"
    tip = (f"{fact.subject} {fact.relation} {fact.object}: valid {day(fact.valid_at)} – "
           f"{day(fact.invalid_at) if fact.invalid_at else 'open'}; {believed_span}")
    fill = "url(#tg-hatch)" if superseded else "#5b8def"
    stroke = ' stroke="#c0392b" stroke-width="2.5"' if held else ' stroke="#3b5fa8" stroke-width="0.8"'
    opacity = "" if believed else ' opacity="0.25"'
    attrs = (f'class="version{" superseded" if superseded else ""}{" held" if held else ""}" '
             f'data-version-id="{esc(fact.id)}" data-fact-id="{esc(fact.fact_id)}" '
             f'data-asserted-by="{esc(version.asserted_by or "")}" '
             f'data-ended-by="{esc(version.ended_by or "")}"')
    parts = [f'<g {attrs}{opacity}><title>{esc(tip)}</title>']
    rect = (f'<rect x="{x0:.1f}" y="{y:.1f}" width="{w:.1f}" height="{BAR_H}" rx="3" fill="{fill}"{stroke}/>'
            f'<text x="{x0 + 4:.1f}" y="{y + BAR_H - 5:.1f}" fill="{"#333" if superseded else "#fff"}" '
            f'font-size="11">{esc(_clip(fact.object, max(int(w / 7), 1)))}</text>')
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
