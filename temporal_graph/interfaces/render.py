"""How ``tgraph`` shows results on a terminal: tables and lines, all times UTC.

``--json`` output does not come through here; see ``cli.emit``.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from datetime import datetime

from rich.console import Console
from rich.table import Table

from ..core.copy import CopyReport
from ..core.model import (
    Answer,
    Diff,
    Fact,
    FactFileReport,
    ImportReport,
    IngestResult,
    Insight,
    SearchHit,
    standing_words,
)
from ..core.names import name_key

MOST_ERRORS_SHOWN = 20
FACT_COLUMNS = ("subject", "relation", "object", "valid from (UTC)", "valid until (UTC)",
                "believed from (UTC)")


def day(moment: datetime | None) -> str:
    """A date, with the time of day only when it is not midnight; four-digit years (``strftime``
    writes year 1 as "1")."""
    if moment is None:
        return ""
    shown = moment.isoformat(sep=" ", timespec="minutes")[:16]
    return shown[:10] if (moment.hour, moment.minute, moment.second) == (0, 0, 0) else shown


def span(f: Fact) -> str:
    start = day(f.valid_at) or "…"
    end = day(f.invalid_at) if f.invalid_at is not None else "now"
    return f"{start} → {end}"


def fact_table(
    console: Console, facts: Sequence[Fact], title: str, *, versions: bool = False, limit: int | None = None
) -> None:
    """One row per fact version; ``versions`` adds when each version stopped being believed. With
    ``limit`` (0: none), the first ``limit`` rows, and a line saying how many more there are (the
    20,000 current facts of a 100k-fact group took 13 s to draw, for a table nobody reads)."""
    shown = facts if not limit or len(facts) <= limit else facts[:limit]
    counted = f"{len(facts)}" if len(shown) == len(facts) else f"first {len(shown)} of {len(facts)}"
    table = Table(title=f"{title} ({counted})")
    for column in FACT_COLUMNS:
        table.add_column(column)
    if versions:
        table.add_column("believed until (UTC)")
    table.add_column("fact")
    for f in shown:
        contradicted = ", contradicted" if f.contradicted else ""
        claim = f" (claimed by {f.claimed_by}{contradicted})" if f.claimed_by else ""
        row = [f.subject, f.relation, f.object + claim, day(f.valid_at) or "(unknown)",
               day(f.invalid_at) or "-", day(f.created_at)]
        if versions:
            row.append(day(f.expired_at) or "-")
        row.append(f.fact_id[:8])
        table.add_row(*row)
    console.print(table)
    if len(shown) < len(facts):
        more = len(facts) - len(shown)
        console.print(f"{more} more not shown: --limit 0 shows every one, --json gives them all")


def diff_tables(console: Console, diff: Diff) -> None:
    fact_table(console, diff.started, "started")
    fact_table(console, diff.ended, "ended")
    fact_table(console, diff.revised, "revised", versions=True)


def chains(console: Console, paths: Sequence[Sequence[Fact]], start: str) -> None:
    """Each chain on one line from ``start``: ``Alice -[LIVES_IN 2023-01-01 → now]-> Paris <-[...]- Acme``
    (a hop walked backwards, as ``--direction any`` allows, points back)."""
    if not paths:
        console.print("no paths")
    for i, hops in enumerate(paths, 1):
        at = _origin(hops, start)
        words = [hops[0].subject if at == hops[0].subject_id else hops[0].object]
        for h in hops:
            if h.subject_id == at:
                words.append(f"-[{h.relation} {span(h)}]-> {h.object}")
                at = h.object_id
            else:
                words.append(f"<-[{h.relation} {span(h)}]- {h.subject}")
                at = h.subject_id
        console.print(f"{i}. {' '.join(words)}", highlight=False)


def _origin(hops: Sequence[Fact], start: str) -> str:
    """The id of the entity a chain starts from: the end of the first hop the second hop does not
    touch (a chain never visits an entity twice), or, for one hop, the end named ``start``."""
    first = hops[0]
    if len(hops) > 1:
        went_to_subject = first.subject_id in (hops[1].subject_id, hops[1].object_id)
        return first.object_id if went_to_subject else first.subject_id
    backwards = name_key(first.object) == name_key(start) != name_key(first.subject)
    return first.object_id if backwards else first.subject_id


def search_table(console: Console, hits: Sequence[SearchHit], query: str) -> None:
    table = Table(title=f"search: {query}")
    for column in ("#", "kind", "text", "when", "standing", "why"):
        table.add_column(column)
    for i, hit in enumerate(hits, 1):
        when = span(hit.fact) if hit.fact else (day(hit.episode.reference_time) if hit.episode else "")
        text = hit.text + (f" (said {len(hit.message_ids)} times)" if hit.repeats else "")
        table.add_row(str(i), hit.kind, text, when, standing_cell(hit), ", ".join(hit.reasons))
    console.print(table)
    left_out = getattr(hits, "stale_left_out", 0)
    if left_out:
        console.print(stale_note(left_out), highlight=False)


def standing_cell(hit: SearchHit) -> str:
    """A message's standing as people read it, with the messages that replaced it (their ids' first
    8 characters) and, for a partly superseded one, what of it no longer holds."""
    words = standing_words(hit.standing)
    if hit.superseded_by:
        words += " by " + ", ".join(i[:8] for i in hit.superseded_by)
    if hit.stale_statements:
        words += " (no longer: " + " ".join(hit.stale_statements) + ")"
    return words


def stale_note(left_out: int) -> str:
    return (f"{left_out} superseded message{'s' if left_out != 1 else ''} left out: the memory knows "
            "what replaced them (--stale label lists them)")


def answer(console: Console, answer: Answer) -> None:
    console.print(answer.text, highlight=False)
    for fact in answer.facts:
        console.print(f"  - {fact.text} [{span(fact)}] (fact {fact.fact_id[:8]})", highlight=False)


def ingest_result(console: Console, result: IngestResult) -> None:
    """What one message changed: a summary line, then the facts it added, ended or retracted."""
    episode = result.episode
    if result.skipped:
        console.print(f"episode {episode.id[:8]} was already in the memory; nothing changed", highlight=False)
        return
    console.print(f"episode {episode.id[:8]} ({day(episode.reference_time)}): "
                  f"facts added {len(result.added)}, merged {len(result.merged)}, ended {len(result.ended)}, "
                  f"retracted {len(result.retracted)}; entities created {len(result.entities_created)}",
                  highlight=False)
    if result.superseded:
        console.print("replaced messages: " + ", ".join(i[:8] for i in result.superseded), highlight=False)
    for title, facts in (("added", result.added), ("ended", result.ended), ("retracted", result.retracted)):
        if facts:
            fact_table(console, facts, title)
    if result.masked:
        console.print(f"masked before storing: {masked_counts(result.masked)}", highlight=False)
    for warning in result.warnings:
        console.print(f"warning: {warning}", style="yellow", highlight=False)


def masked_counts(masked: dict[str, int]) -> str:
    """``"2 (email 1, phone 1)"``: how many values were masked, by kind; ``"0"`` for none."""
    total = sum(masked.values())
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(masked.items()))
    return f"{total} ({kinds})" if total else "0"


def import_report(console: Console, report: ImportReport, db: list[str]) -> None:
    """The counts of an import, its first bad lines, and how to query the groups it wrote."""
    title = f"imported {report.path} ({report.format}) in {report.seconds:.1f} s"
    table = Table(title=title, show_header=False)
    for label, value in (
        ("messages read", report.episodes_read), ("messages imported", report.episodes_imported),
        ("messages skipped (already imported)", report.episodes_skipped), ("facts added", report.facts_added),
        ("facts merged", report.facts_merged), ("facts ended", report.facts_ended),
        ("facts retracted", report.facts_retracted), ("entities created", report.entities_created),
        ("errors", len(report.errors)), ("conflicts (reused message ids)", len(report.conflicts)),
        ("values masked", masked_counts(report.masked)),
        *([("LLM answers not usable (see below)", len(report.llm_failures))] if report.llm_failures else []),
    ):
        table.add_row(label, str(value))
    console.print(table)
    _import_files(console, report)
    problems = [*report.errors, *report.conflicts, *report.llm_failures]
    for error in problems[:MOST_ERRORS_SHOWN]:
        console.print(f"{error.file}:{error.line}: {error.reason}", style="yellow", highlight=False)
    if len(problems) > MOST_ERRORS_SHOWN:
        console.print(f"... and {len(problems) - MOST_ERRORS_SHOWN} more (use --json for all)")
    for pair in report.lookalike_speakers:  # repr: an invisible or lookalike character shows
        a, b = pair.speakers
        console.print(f"lookalike speakers in group {pair.group_id!r}: {a!r} and {b!r} are kept apart as "
                      "two people; if they are one, declare it: tgraph alias-speaker ALIAS SPEAKER",
                      style="yellow", highlight=False, soft_wrap=True)
    # Say where the messages went and how to query them: the group is easy to miss.
    names = {group: name for f in report.files for group, name in f.conversations.items()}
    for group, count in sorted(report.groups.items()):
        command = shlex.join(["tgraph", *db, "now", "--group", group])
        named = f" ({names[group]!r})" if group in names else ""
        console.print(f"group {group!r}{named}: {count} messages; query it with: {command}", highlight=False,
                      soft_wrap=True)
    _speakers(console, report)


def _import_files(console: Console, report: ImportReport) -> None:
    """Per file read: read, stored, skipped by reason, errors; how it was read; files refused."""
    if len(report.files) > 1 or any(f.skipped or f.notes for f in report.files):
        table = Table(title="per file", title_justify="left")
        for column in ("file", "format", "read", "stored", "skipped", "errors"):
            table.add_column(column, justify="left" if column in ("file", "format", "skipped") else "right")
        for f in report.files:
            skipped = ", ".join(f"{n} {why}" for why, n in sorted(f.skipped.items(), key=lambda i: -i[1]))
            table.add_row(f.path, f.format, str(f.read), str(f.stored), skipped or "0", str(f.errors))
        console.print(table)
    for f in report.files:
        for note in f.notes:
            unsettled = "could not be settled" in note
            console.print(f"{f.path}: {note}", style="yellow" if unsettled else None, highlight=False,
                          soft_wrap=True)
    for refused in report.refused:
        seen = f"looks like {refused.looks_like}, but " if refused.looks_like else ""
        console.print(f"refused {refused.path}: {seen}{refused.reason}", style="yellow", highlight=False,
                      soft_wrap=True)
    if report.not_read:
        console.print("not read: " + ", ".join(f"{n} {why}" for why, n in report.not_read.items()),
                      highlight=False)


MOST_SPEAKERS_SHOWN = 12


def _speakers(console: Console, report: ImportReport) -> None:
    """Each group's speakers, so a user can write an identities file (--identities)."""
    shown = {group: speakers for group, speakers in report.speakers.items() if speakers}
    for group, speakers in sorted(shown.items()):
        more = len(speakers) - MOST_SPEAKERS_SHOWN
        names = ", ".join(map(repr, speakers[:MOST_SPEAKERS_SHOWN]))
        names += f" and {more} more" if more > 0 else ""
        console.print(f"speakers in group {group!r}: {names}", highlight=False, soft_wrap=True)
    if len(shown) > 1 or any(len(s) > 1 for s in shown.values()):
        console.print("the same person under several ids? list them in a file for --identities "
                      '(JSON {"Alice": ["+41 79 555 01 02", "alice.m"]})', highlight=False, soft_wrap=True)


def fact_file_report(console: Console, report: FactFileReport, group: str) -> None:
    console.print(f"{report.path}: {report.items} facts read, {report.rows_written} rows written, "
                  f"{report.entities_created} entities created, {len(report.errors)} errors, "
                  f"{report.seconds:.1f} s (group {group!r})", highlight=False)
    for error in report.errors[:MOST_ERRORS_SHOWN]:
        console.print(f"{error.file}:{error.line}: {error.reason}", style="yellow", highlight=False)


def copy_report(console: Console, report: CopyReport, target: str) -> None:
    """Per group: each kind's count on both sides and what this run wrote; then the as_of sample."""
    for g in report.groups:
        table = Table(title=f"group {g.group_id!r} copied to {target}", title_justify="left")
        for column in ("records", "source", "target", "written now"):
            table.add_column(column, justify="left" if column == "records" else "right")
        for kind, count in g.source.items():
            mark = "" if g.target.get(kind) == count else "  (differs)"
            table.add_row(kind, str(count), f"{g.target.get(kind, 0)}{mark}", str(g.written.get(kind, "")))
        console.print(table)
        verdict = ("same answers" if not g.mismatches
                   else f"{len(g.mismatches)} differ: " + "; ".join(g.mismatches))
        console.print(f"as_of(T, K) on both sides: {g.samples} asked, {verdict}", highlight=False)
    console.print("copy complete: both sides agree" if report.ok
                  else "copy INCOMPLETE: the sides differ (run it again to resume)", highlight=False)


def insight_line(insight: Insight) -> str:
    """One insight for a person: its words, who made it, since when it is believed, what it cites."""
    cites = ", ".join(c[:8] for c in insight.derived_from)
    return (f"{insight.text} [{insight.producer}, importance {insight.importance}, "
            f"since {day(insight.created_at)}; cites {cites}]")
