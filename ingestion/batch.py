"""Batch import of chat logs and chat exports: ordered, idempotent, resumable, in bounded memory.

The path (a file, or a folder or zip of exports) is read (and checked) first, line by line, into a
spool on disk (:mod:`.spool`), each export counted on its own (:class:`ImportFileReport`); then,
per group, messages are applied in reference-time order, a batch at a time, so contradictions
inside one file resolve exactly as if the messages had arrived one by one.
Extraction may run concurrently (LLM); application stays ordered. Episodes are committed in small
batches (with an LLM, as soon as their extraction and every earlier one of the group is done): a
crash loses at most the batch in flight, and a re-run skips every committed episode.
"""

from __future__ import annotations

import hashlib
import json
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import tzinfo
from functools import partial
from pathlib import Path

from temporal_graph.core import Core
from temporal_graph.core.embeddings import encode_texts
from temporal_graph.core.errors import ImportFormatError, InvalidInput
from temporal_graph.core.extraction import LLM_FAILED, Extraction, Extractor
from temporal_graph.core.identity import lookalike_speakers, speaker_entity
from temporal_graph.core.model import (
    Episode,
    ImportFileReport,
    ImportLineError,
    ImportReport,
    IngestResult,
    LookalikeSpeakers,
    RefusedFile,
)
from temporal_graph.core.names import check_group, clean_name
from temporal_graph.core.progress import progress_bar
from temporal_graph.core.writer import FactWriter
from temporal_graph.core.writes import alias_speakers, check_speaker_alias

from .identities import load_identities
from .pipeline import (
    CONTEXT_EPISODES,
    apply_episode,
    expected_texts,
    extract,
    held_episodes,
    make_episode,
    new_names,
)
from .readers import (
    ChatMessage,
    NotReadable,
    ReadError,
    ReadOptions,
    Tally,
    line_limit,
    open_export,
    planned_as,
    read_options,
    read_unit,
)
from .resolution import EntityResolver, name_text
from .spool import Spool

# Episodes per transaction (and per encode-ahead call). The model pads a call's texts to the longest
# of each length-sorted slice, so a wider window pads less: 256 encodes ~25% more texts per CPU-second
# than 100 did, and a commit writes more rows per index page (a crash still loses one batch at most).
BATCH_EPISODES = 256
LLM_WORKERS = 4


class StrictImportError(ImportFormatError):
    """``strict=True`` and the file has a bad line or record; nothing was written."""


def group_for(message: ChatMessage, override: str | None) -> str:
    """The group a message goes to: ``override``, else its conversation id exactly (NFC), else
    "default". An id that cannot be a group raises InvalidGroup; it is never rewritten, so two
    different conversation ids never share a group."""
    if override:
        return check_group(override)
    if not message.group_id:
        return "default"
    return check_group(unicodedata.normalize("NFC", message.group_id))


def _line_problem(report: ImportReport, strict: bool, file: str, line: int, reason: str,
                  into: list[ImportLineError] | None = None, counts: ImportFileReport | None = None) -> None:
    """Record a bad line and go on, or (``strict``) stop before anything is written."""
    if strict:
        raise StrictImportError(f"{file}:{line}: {reason} (--strict: stopped; nothing was imported)")
    (report.errors if into is None else into).append(ImportLineError(file=file, line=line, reason=reason))
    if counts is not None and into is None:
        counts.errors += 1


class _Files:
    """The per-file counts of one import: one :class:`ImportFileReport` per export read, and which
    of them a message's file belongs to (an export may be several files)."""

    def __init__(self, report: ImportReport) -> None:
        self.report = report
        self._unit: dict[str, ImportFileReport] = {}

    def start(self, label: str, fmt: str) -> ImportFileReport:
        counts = ImportFileReport(path=label, format=fmt)
        self.report.files.append(counts)
        self._unit[label] = counts
        return counts

    def member(self, file: str, counts: ImportFileReport) -> None:
        self._unit.setdefault(file, counts)

    def of(self, m: ChatMessage) -> ImportFileReport | None:
        return self._unit.get(m.file or "")


def _skip(counts: ImportFileReport | None, reason: str, n: int = 1) -> None:
    if counts is not None and n:
        counts.skipped[reason] = counts.skipped.get(reason, 0) + n


DUPLICATE = "duplicate (the same message twice in the file)"
ALREADY = "already imported"
CONFLICT = "message id reused with other text (see conflicts)"


def spool_file(
    spool: Spool, path: Path, fmt: str, group_id: str | None, strict: bool, report: ImportReport,
    options: ReadOptions, files: _Files | None = None,
) -> Counter[tuple[str, str]]:
    """Read every message under ``path`` (a file, or the exports of a folder or zip) into ``spool``
    by group, counting each export (``files``) and reporting each bad line (``strict``: stopping at
    it) and each refused file; the files are read once, line by line, and nothing of them stays in
    memory. Returns how many messages each (group, speaker) has."""
    if group_id:
        check_group(group_id)  # a bad --group is one error for the whole import, before reading
    files = files if files is not None else _Files(report)
    speakers: Counter[tuple[str, str]] = Counter()
    with open_export(path, fmt) as (source, found):
        report.not_read = dict(found.ignored)
        for unit in found.units:
            tally = Tally()
            try:
                unit_format, items = read_unit(unit, options, tally)
            except ImportFormatError as exc:
                if source.kind == "file":
                    raise
                why = exc.reason if isinstance(exc, NotReadable) else str(exc).removeprefix(f"{unit.label}: ")
                if strict:
                    raise StrictImportError(f"{exc} (--strict: stopped; nothing was imported)") from None
                looks = exc.looks_like if isinstance(exc, NotReadable) else planned_as(unit)
                report.refused.append(RefusedFile(path=unit.label, looks_like=looks, reason=why))
                continue
            counts = files.start(unit.label, unit_format)
            for item in items:
                if isinstance(item, ReadError):
                    _line_problem(report, strict, item.file, item.line, item.reason, counts=counts)
                    continue
                report.episodes_read += 1
                counts.read += 1
                try:
                    group = group_for(item, group_id)
                except InvalidInput as exc:
                    _line_problem(report, strict, item.file or unit.label, item.line,
                                  f"conversation id: {exc}", counts=counts)
                    continue
                files.member(item.file or unit.label, counts)
                speakers[(group, _speaker_name(item.speaker))] += 1
                spool.add(group, item, unit.label)
            for reason, n in tally.skipped.items():
                _skip(counts, reason, n)
            counts.notes, counts.conversations = tally.notes, tally.conversations
    if not report.files and source.kind != "file":
        raise ImportFormatError(_nothing_found(path, report))
    return speakers


def _speaker_name(speaker: str | None) -> str:
    if not speaker:
        return ""
    try:
        return clean_name(speaker, "speaker")
    except InvalidInput:
        return speaker


def _nothing_found(path: Path, report: ImportReport) -> str:
    refused = "; ".join(f"{r.path}: {r.reason}" for r in report.refused[:3])
    skipped = ", ".join(f"{n} {why}" for why, n in report.not_read.items())
    return (f"{path}: no chat export found in it" + (f" ({skipped} not read)" if skipped else "")
            + (f"; refused: {refused}" if refused else "") + "; give an export's file, folder or zip")


def _prepare(
    core: Core, path: Path, group: str, messages: Sequence[ChatMessage], strict: bool, report: ImportReport,
    masked: dict[str, dict[str, int]], spool: Spool, files: _Files | None = None,
) -> tuple[list[tuple[ChatMessage, Episode]], set[str]]:
    """(message, episode) of one batch of a group, each checked at the edge (size, text) and masked
    (what was masked in each goes to ``masked`` by episode id), and the ids of those already stored;
    a message id reused with other text (earlier in the file, as ``spool`` remembers, or in the
    memory) is a conflict: reported, the first one kept. ``files`` counts each file's skips."""
    source = f"import:{path.name}"
    files = files if files is not None else _Files(report)
    episodes: dict[str, tuple[ChatMessage, Episode]] = {}
    for m in messages:
        file, counts = m.file or str(path), files.of(m)
        try:
            e, masks = _episode(core, m, group, source)
        except InvalidInput as exc:
            _line_problem(report, strict, file, m.line, str(exc), counts=counts)
            continue
        first = episodes.get(e.id)
        if first is None:
            episodes[e.id] = (m, e)
            masked[e.id] = masks
        elif _differs(first[1], e):
            _line_problem(report, strict, file, m.line, _conflict(m, _where(first[0], file)),
                          report.conflicts)
            _skip(counts, CONFLICT)
        else:
            report.episodes_skipped += 1  # the same message twice
            _skip(counts, DUPLICATE)
    for episode_id, (line, digest) in spool.first_seen(group, list(episodes)).items():
        m, e = episodes.pop(episode_id)
        masked.pop(episode_id, None)
        if digest != _digest(e):
            _line_problem(report, strict, m.file or str(path), m.line, _conflict(m, f"line {line}"),
                          report.conflicts)
            _skip(files.of(m), CONFLICT)
        else:
            report.episodes_skipped += 1  # the same message twice
            _skip(files.of(m), DUPLICATE)
    spool.mark_seen(group, [(e.id, m.line, _digest(e)) for m, e in episodes.values()])
    stored = held_episodes(core.store, group, [e for _, e in episodes.values()])
    kept = []
    for episode_id, (m, e) in episodes.items():
        if episode_id in stored and _differs(stored[episode_id], e):
            _line_problem(report, strict, m.file or str(path), m.line, _conflict(m, "the memory"),
                          report.conflicts)
            _skip(files.of(m), CONFLICT)
            masked.pop(episode_id, None)
            continue
        kept.append((m, e))
    return kept, set(stored)


def _where(first: ChatMessage, file: str) -> str:
    return f"line {first.line}" if (first.file or file) == file else f"{first.file} line {first.line}"


def _digest(e: Episode) -> str:
    """What two messages under one id must share to be the same message (see :func:`_differs`)."""
    same = json.dumps([e.content, e.speaker, e.reference_time.isoformat()], ensure_ascii=False)
    return hashlib.blake2b(same.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _differs(a: Episode, b: Episode) -> bool:
    return (a.content, a.speaker, a.reference_time) != (b.content, b.speaker, b.reference_time)


def _conflict(m: ChatMessage, where: str) -> str:
    return (f"message id {m.source_id!r} is already used in {where} by a message with different "
            "text, speaker or time; kept the first one, skipped this one")


def import_file(
    core: Core,
    path: str | Path,
    *,
    extractor: Extractor,
    resolver: EntityResolver,
    format: str = "auto",
    group_id: str | None = None,
    progress: bool = True,
    strict: bool = False,
    replay: bool = False,
    embed: bool | None = None,
    summaries: bool | None = None,
    batch_size: int = BATCH_EPISODES,
    speaker_aliases: Mapping[str, str] | None = None,
    encode_ahead: bool = True,
    tz: str | tzinfo | None = None,
    identities: str | Path | None = None,
    date_order: str = "auto",
) -> ImportReport:
    """Import the chat log or export at ``path`` (a file, or a folder or zip of exports) into
    ``core``'s store: facts from ``extractor``, names resolved by ``resolver`` (one suited to
    ``embed``). ``speaker_aliases`` ({alias: speaker}) are declared in every group of the file
    before its messages; an ``identities`` file's ids (:mod:`.identities`) in each group where one
    of them speaks. The report counts each file read, lists the files refused and the speakers of
    each group, and the lookalike speaker ids the file holds
    (:func:`~temporal_graph.core.identity.lookalike_speakers`). ``tz`` is the zone of times an
    export gives without one (None: this machine's); ``date_order`` the day/month order of WhatsApp
    dates ("auto": settled per file).

    ``replay=True`` records each message at its own time in transaction time too, as if the memory
    had been listening live, so "as known at K" questions about the log's own past make sense.
    Each batch commits with its vectors (``embed=False``: none; ``reindex`` later) and entity
    summaries (``summaries=False``: none; ``refresh_summaries`` later), so an import stopped at
    any point leaves every committed message complete, and a re-run imports the rest.

    ``encode_ahead=False`` encodes each batch on the writing thread, just before its write: the
    serial import, the same rows and vectors, slower (tests and benchmarks compare the two).
    """
    started = time.perf_counter()
    path = Path(path)
    options = read_options(line_limit(core.max_message_chars), tz, date_order)
    declared = load_identities(identities) if identities is not None else {}
    report = ImportReport(path=str(path), format=format)
    files = _Files(report)
    with Spool(_spool_directory(core)) as spool:
        said = spool_file(spool, path, format, group_id, strict, report, options, files)
        report.format = ", ".join(dict.fromkeys(f.format for f in report.files)) or format
        groups = spool.groups()
        report.speakers = _speakers_by_group(said, groups)
        if strict:  # every message checked (and masked) before the first write: a bad one writes nothing
            scratch = ImportReport(path=str(path), format=report.format)
            for group in groups:
                for messages in spool.batches(group, batch_size):
                    _prepare(core, path, group, messages, True, scratch, {}, spool, _Files(scratch))
            spool.forget_seen()
        aliases = {group: _aliases(speaker_aliases or {}, declared, report.speakers.get(group, []))
                   for group in groups}
        for group in groups:  # every group checked first: a refused alias writes nothing at all
            for alias, person in aliases[group].items():
                check_speaker_alias(partial(speaker_entity, core.store, group), alias, person)
        for group in groups:
            alias_speakers(core, aliases[group], group_id=group)
        # With an LLM, extraction runs in parallel, as many requests in flight as the client allows.
        workers = None if core.llm is None else getattr(core.llm, "concurrency", LLM_WORKERS)

        embedding = core.embed if embed is None else embed
        label = "importing + embedding" if embedding else "importing"
        with progress_bar(progress, label, report.episodes_read) as advance:
            for group in groups:
                speakers: set[str] = set()
                masked: dict[str, dict[str, int]] = {}
                origin: dict[str, ImportFileReport | None] = {}
                told: dict[str, ChatMessage] = {}
                runs = _group_runs(core, extractor, workers, path, spool, group, strict, report, masked,
                                   batch_size, advance, speakers, files, origin, told)
                ahead = _encoded_ahead(core, group, embedding and encode_ahead, runs)
                for batch, extractions, encoded in ahead:
                    results = _apply_batch(core, resolver, group, batch, extractions, replay, embed,
                                           summaries, encoded, told)
                    for result in results:
                        _count(report, result, masked.pop(result.episode.id, {}))
                        _count_file(origin.pop(result.episode.id, None), result)
                        m = told.pop(result.episode.id, None)
                        where = (m.file or str(path), m.line) if m is not None else (str(path), 0)
                        _llm_failures(report, *where, result)
                    advance(len(batch))
                report.lookalike_speakers += [LookalikeSpeakers(group_id=group, speakers=pair)
                                              for pair in lookalike_speakers(core.store, group, speakers)]
    report.seconds = time.perf_counter() - started
    return report


def _speakers_by_group(said: Counter[tuple[str, str]], groups: Sequence[str]) -> dict[str, list[str]]:
    """Group -> its speakers, most messages first (then by name)."""
    out: dict[str, list[str]] = {group: [] for group in groups}
    for (group, speaker), _ in sorted(said.items(), key=lambda item: (-item[1], item[0][1])):
        if speaker and group in out:
            out[group].append(speaker)
    return out


def _aliases(
    given: Mapping[str, str], declared: Mapping[str, str], speakers: Sequence[str]
) -> dict[str, str]:
    """The aliases to declare in a group: every one given, and the identities file's ids that speak
    in it (an id of the file that never speaks there would only add a stray person to the group)."""
    present = set(speakers)
    out = {alias: person for alias, person in declared.items() if alias in present}
    for alias, person in given.items():
        if out.get(alias, person) != person:
            raise ImportFormatError(f"speaker {alias!r} is {person!r} by the speaker aliases and "
                                    f"{out[alias]!r} by the identities file; an id is one person")
        out[alias] = person
    return out


def _spool_directory(core: Core) -> Path | None:
    """Beside the database when it is a file (its disk takes the import anyway), else the
    system's temporary directory."""
    where = getattr(core.store, "path", None)
    if isinstance(where, str) and where != ":memory:":
        folder = Path(where).resolve().parent
        if folder.is_dir():
            return folder
    return None


def _group_runs(
    core: Core, extractor: Extractor, workers: int | None, path: Path, spool: Spool, group: str,
    strict: bool, report: ImportReport, masked: dict[str, dict[str, int]], batch_size: int,
    advance: Callable[..., None], speakers: set[str], files: _Files,
    origin: dict[str, ImportFileReport | None], told: dict[str, ChatMessage],
) -> Iterator[tuple[Sequence[Episode], Extractions]]:
    """The group's runs ready to apply, read from ``spool`` a batch at a time: messages already
    stored (an earlier, interrupted run) are counted as skipped and not extracted again; each
    extraction sees the messages before it in the group, across batches. ``origin`` gets the file
    counts of each episode handed out, for its result, and ``told`` its message (file, line, keys)."""
    tail: list[Episode] = []
    for messages in spool.batches(group, batch_size):
        pairs, stored = _prepare(core, path, group, messages, strict, report, masked, spool, files)
        kept = [e for _, e in pairs]
        if kept:
            report.groups[group] = report.groups.get(group, 0) + len(kept)
        speakers.update(e.speaker for e in kept if e.speaker)
        todo = []
        for m, e in pairs:
            if e.id in stored:
                masked.pop(e.id, None)
                _skip(files.of(m), ALREADY)
            else:
                todo.append(e)
                origin[e.id] = files.of(m)
                told[e.id] = m
        report.episodes_skipped += len(kept) - len(todo)
        advance(len(kept) - len(todo))
        yield from _extract_all(extractor, workers, todo, [*tail, *kept], batch_size)
        tail = [*tail, *kept][-CONTEXT_EPISODES:]


def _episode(core: Core, m: ChatMessage, group: str, source: str) -> tuple[Episode, dict[str, int]]:
    """The episode of one message, its text masked, and what was masked in it by kind."""
    # Line numbers are not stable ids across files, so line-based messages dedupe on content + time.
    source_id = None if m.source_id.startswith("line:") else m.source_id
    return make_episode(
        core, m.content, reference_time=m.timestamp, speaker=m.speaker, group_id=group,
        source=source, source_id=source_id, created_at=m.timestamp,
    )


def _extract_all(
    extractor: Extractor, workers: int | None, todo: Sequence[Episode], ordered: Sequence[Episode],
    batch_size: int,
) -> Iterator[tuple[Sequence[Episode], list[tuple[Extraction, list[str]]]]]:
    """Extractions in order, in runs ready to apply; context is the previous messages of the group.

    Offline (``workers`` None): runs of ``batch_size``. With an LLM, extractions run in parallel
    (``workers`` requests at once) and each run is the longest prefix whose extractions are done:
    an episode is committed as soon as it and every earlier one of its group are extracted, so a
    failure later (server gone, ^C) loses no finished work.
    """
    position = {e.id: i for i, e in enumerate(ordered)}

    def one(e: Episode) -> tuple[Extraction, list[str]]:
        i = position[e.id]
        return extract(extractor, e, ordered[max(0, i - CONTEXT_EPISODES) : i])

    if workers is None:
        for batch in _chunks(todo, batch_size):
            yield batch, [one(e) for e in batch]
        return
    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        futures = [pool.submit(one, e) for e in todo]
        start = 0
        while start < len(todo):
            futures[start].result()  # the next in order (raises its error, after earlier ones are saved)
            end = start + 1
            while end < len(todo) and end - start < batch_size and futures[end].done() \
                    and futures[end].exception() is None:
                end += 1
            yield todo[start:end], [f.result() for f in futures[start:end]]
            start = end
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


Extractions = list[tuple[Extraction, list[str]]]  # per episode of a run: its extraction and notes
Vectors = dict[str, list[float]]  # by text


def _encoded_ahead(
    core: Core, group: str, embedding: bool, runs: Iterable[tuple[Sequence[Episode], Extractions]]
) -> Iterator[tuple[Sequence[Episode], Extractions, Vectors]]:
    """Each run with the vectors of what writing it will embed (its episodes, facts and the names
    the group has no entity for yet), encoded in a thread while the run before it is written (the
    model runs outside the GIL), so the writing thread never waits for the model. The vectors still
    commit with their rows: they are only handed to the run's own write. A run whose successor
    fails to extract is still handed over before the error, so no finished work is lost.
    ``embedding`` False: no vectors ahead (the write encodes what it needs itself, if anything)."""
    if not embedding:
        yield from ((batch, extractions, {}) for batch, extractions in runs)
        return
    with ThreadPoolExecutor(max_workers=1) as encoder:
        ahead: tuple[Sequence[Episode], Extractions, Future[Vectors]] | None = None
        pending = iter(runs)
        while True:
            try:
                batch, extractions = next(pending)
            except StopIteration:
                break
            except BaseException:
                if ahead is not None:
                    yield ahead[0], ahead[1], ahead[2].result()
                raise
            texts = [*expected_texts(batch, [x for x, _ in extractions]),
                     *map(name_text, _new_names(core, group, batch, extractions))]
            job = encoder.submit(encode_texts, core.embedder, texts)
            if ahead is not None:
                yield ahead[0], ahead[1], ahead[2].result()
            ahead = (batch, extractions, job)
        if ahead is not None:
            yield ahead[0], ahead[1], ahead[2].result()


def _apply_batch(
    core: Core, resolver: EntityResolver, group: str, batch: Sequence[Episode],
    extractions: Sequence[tuple[Extraction, list[str]]],
    replay: bool, embed: bool | None, summaries: bool | None, encoded: Vectors,
    told: Mapping[str, ChatMessage],
) -> list[IngestResult]:
    resolver.prefetch(_new_names(core, group, batch, extractions), encoded)

    def run(w: FactWriter) -> list[IngestResult]:
        w.whole_merged_rows = False  # the results are only counted: a fact's citations are never read
        results = []
        for e, (x, notes) in zip(batch, extractions, strict=True):
            if replay:
                w.now = e.reference_time
            keys = told[e.id].keys if e.id in told else ()
            results.append(apply_episode(core, w, e, x, resolver, notes, keys=keys))
        return results

    return core.write(group, run, embed=embed, summaries=summaries,
                      texts=expected_texts(batch, [x for x, _ in extractions]), encoded=encoded)


def _new_names(
    core: Core, group: str, batch: Sequence[Episode], extractions: Sequence[tuple[Extraction, list[str]]]
) -> list[str]:
    return new_names(core.store, group, [x for x, _ in extractions], [e.speaker for e in batch])


def _count_file(counts: ImportFileReport | None, result: IngestResult) -> None:
    if counts is None:
        return
    if result.skipped:
        _skip(counts, ALREADY)
    else:
        counts.stored += 1


def _count(report: ImportReport, result: IngestResult, masked: dict[str, int]) -> None:
    if result.skipped:
        report.episodes_skipped += 1
        return
    report.episodes_imported += 1
    for kind, n in masked.items():
        report.masked[kind] = report.masked.get(kind, 0) + n
    report.facts_added += len(result.added)
    report.facts_merged += len(result.merged)
    report.facts_ended += len(result.ended)
    report.facts_retracted += len(result.retracted)
    report.entities_created += len(result.entities_created)


def _chunks(items: Sequence[Episode], size: int) -> Iterator[Sequence[Episode]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def _llm_failures(report: ImportReport, file: str, line: int, result: IngestResult) -> None:
    """The message's notes saying its LLM answer could not be used, as lines of the report."""
    report.llm_failures += [ImportLineError(file=file, line=line, reason=note)
                            for note in result.warnings if note.startswith(LLM_FAILED)]
