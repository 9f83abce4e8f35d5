"""Batch import of chat logs: ordered, idempotent, resumable, in bounded memory.

The file is read (and checked) first, line by line, into a spool on disk (:mod:`.spool`); then,
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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from pathlib import Path

from temporal_graph.core import Core
from temporal_graph.core.embeddings import encode_texts
from temporal_graph.core.errors import ImportFormatError, InvalidInput
from temporal_graph.core.extraction import LLM_FAILED, Extraction, Extractor
from temporal_graph.core.identity import lookalike_speakers, speaker_entity
from temporal_graph.core.model import Episode, ImportLineError, ImportReport, IngestResult, LookalikeSpeakers
from temporal_graph.core.names import check_group
from temporal_graph.core.progress import progress_bar
from temporal_graph.core.writer import FactWriter
from temporal_graph.core.writes import alias_speakers, check_speaker_alias

from .pipeline import CONTEXT_EPISODES, apply_episode, expected_texts, extract, make_episode, new_names
from .readers import FORMATS, ChatMessage, ReadError, detect_format, line_limit, read_messages
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
                  into: list[ImportLineError] | None = None) -> None:
    """Record a bad line and go on, or (``strict``) stop before anything is written."""
    if strict:
        raise StrictImportError(f"{file}:{line}: {reason} (--strict: stopped; nothing was imported)")
    (report.errors if into is None else into).append(ImportLineError(file=file, line=line, reason=reason))


def spool_file(
    spool: Spool, path: Path, fmt: str, group_id: str | None, strict: bool, report: ImportReport,
    max_line_bytes: int,
) -> None:
    """Read every message of the file into ``spool`` by group, reporting each bad line (``strict``:
    stopping at it); the file is read once, line by line, and nothing of it stays in memory."""
    if group_id:
        check_group(group_id)  # a bad --group is one error for the whole import, before reading
    for item in read_messages(path, fmt, max_line_bytes):
        if isinstance(item, ReadError):
            _line_problem(report, strict, item.file, item.line, item.reason)
            continue
        report.episodes_read += 1
        try:
            group = group_for(item, group_id)
        except InvalidInput as exc:
            _line_problem(report, strict, str(path), item.line, f"conversation id: {exc}")
            continue
        spool.add(group, item)


def _prepare(
    core: Core, path: Path, group: str, messages: Sequence[ChatMessage], strict: bool, report: ImportReport,
    masked: dict[str, dict[str, int]], spool: Spool, lines: dict[str, int] | None = None,
) -> tuple[list[Episode], set[str]]:
    """Episodes of one batch of a group, each checked at the edge (size, text) and masked (what was
    masked in each goes to ``masked`` by episode id), and the ids of those already stored; a message
    id reused with other text (earlier in the file, as ``spool`` remembers, or in the memory) is a
    conflict: reported, the first one kept. ``lines`` gets the line of each episode kept."""
    file, source = str(path), f"import:{path.name}"
    episodes: dict[str, tuple[ChatMessage, Episode]] = {}
    for m in messages:
        try:
            e, counts = _episode(core, m, group, source)
        except InvalidInput as exc:
            _line_problem(report, strict, file, m.line, str(exc))
            continue
        first = episodes.get(e.id)
        if first is None:
            episodes[e.id] = (m, e)
            masked[e.id] = counts
        elif _differs(first[1], e):
            _line_problem(report, strict, file, m.line, _conflict(m, f"line {first[0].line}"),
                          report.conflicts)
        else:
            report.episodes_skipped += 1  # the same message twice
    for episode_id, (line, digest) in spool.first_seen(group, list(episodes)).items():
        m, e = episodes.pop(episode_id)
        masked.pop(episode_id, None)
        if digest != _digest(e):
            _line_problem(report, strict, file, m.line, _conflict(m, f"line {line}"), report.conflicts)
        else:
            report.episodes_skipped += 1  # the same message twice
    spool.mark_seen(group, [(e.id, m.line, _digest(e)) for m, e in episodes.values()])
    stored = {e.id: e for e in core.store.episodes(group, ids=list(episodes))} if episodes else {}
    kept = []
    for episode_id, (m, e) in episodes.items():
        if episode_id in stored and _differs(stored[episode_id], e):
            _line_problem(report, strict, file, m.line, _conflict(m, "the memory"), report.conflicts)
            masked.pop(episode_id, None)
            continue
        kept.append(e)
        if lines is not None:
            lines[e.id] = m.line
    return kept, set(stored)


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
) -> ImportReport:
    """Import the chat log at ``path`` into ``core``'s store: facts from ``extractor``, names
    resolved by ``resolver`` (one suited to ``embed``). ``speaker_aliases`` ({alias: speaker}) are
    declared in every group of the file before its messages; the report lists the lookalike speaker
    ids the file holds (:func:`~temporal_graph.core.identity.lookalike_speakers`).

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
    if format != "auto" and format not in FORMATS:
        raise ImportFormatError(f"format {format!r} is not one of auto, {', '.join(FORMATS)}")
    max_line = line_limit(core.max_message_chars)
    fmt = detect_format(path, max_line) if format == "auto" else format
    report = ImportReport(path=str(path), format=fmt)
    with Spool(_spool_directory(core)) as spool:
        spool_file(spool, path, fmt, group_id, strict, report, max_line)
        groups = spool.groups()
        if strict:  # every message checked (and masked) before the first write: a bad one writes nothing
            scratch = ImportReport(path=str(path), format=fmt)
            for group in groups:
                for messages in spool.batches(group, batch_size):
                    _prepare(core, path, group, messages, True, scratch, {}, spool)
            spool.forget_seen()
        aliases = dict(speaker_aliases or {})
        for group in groups:  # every group checked first: a refused alias writes nothing at all
            for alias, person in aliases.items():
                check_speaker_alias(partial(speaker_entity, core.store, group), alias, person)
        for group in groups:
            alias_speakers(core, aliases, group_id=group)
        # With an LLM, extraction runs in parallel, as many requests in flight as the client allows.
        workers = None if core.llm is None else getattr(core.llm, "concurrency", LLM_WORKERS)

        embedding = core.embed if embed is None else embed
        label = "importing + embedding" if embedding else "importing"
        with progress_bar(progress, label, report.episodes_read) as advance:
            for group in groups:
                speakers: set[str] = set()
                masked: dict[str, dict[str, int]] = {}
                lines: dict[str, int] = {}
                runs = _group_runs(core, extractor, workers, path, spool, group, strict, report, masked,
                                   batch_size, advance, speakers, lines)
                ahead = _encoded_ahead(core, group, embedding and encode_ahead, runs)
                for batch, extractions, encoded in ahead:
                    results = _apply_batch(core, resolver, group, batch, extractions, replay, embed,
                                           summaries, encoded)
                    for result in results:
                        _count(report, result, masked.pop(result.episode.id, {}))
                        _llm_failures(report, path, lines.pop(result.episode.id, 0), result)
                    advance(len(batch))
                report.lookalike_speakers += [LookalikeSpeakers(group_id=group, speakers=pair)
                                              for pair in lookalike_speakers(core.store, group, speakers)]
    report.seconds = time.perf_counter() - started
    return report


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
    advance: Callable[..., None], speakers: set[str], lines: dict[str, int],
) -> Iterator[tuple[Sequence[Episode], Extractions]]:
    """The group's runs ready to apply, read from ``spool`` a batch at a time: messages already
    stored (an earlier, interrupted run) are counted as skipped and not extracted again; each
    extraction sees the messages before it in the group, across batches."""
    tail: list[Episode] = []
    for messages in spool.batches(group, batch_size):
        kept, stored = _prepare(core, path, group, messages, strict, report, masked, spool, lines)
        if kept:
            report.groups[group] = report.groups.get(group, 0) + len(kept)
        speakers.update(e.speaker for e in kept if e.speaker)
        todo = [e for e in kept if e.id not in stored]
        for e in kept:
            if e.id in stored:
                masked.pop(e.id, None)
                lines.pop(e.id, None)
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
) -> list[IngestResult]:
    resolver.prefetch(_new_names(core, group, batch, extractions), encoded)

    def run(w: FactWriter) -> list[IngestResult]:
        w.whole_merged_rows = False  # the results are only counted: a fact's citations are never read
        results = []
        for e, (x, notes) in zip(batch, extractions, strict=True):
            if replay:
                w.now = e.reference_time
            results.append(apply_episode(core, w, e, x, resolver, notes))
        return results

    return core.write(group, run, embed=embed, summaries=summaries,
                      texts=expected_texts(batch, [x for x, _ in extractions]), encoded=encoded)


def _new_names(
    core: Core, group: str, batch: Sequence[Episode], extractions: Sequence[tuple[Extraction, list[str]]]
) -> list[str]:
    return new_names(core, group, [x for x, _ in extractions], [e.speaker for e in batch])


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


def _llm_failures(report: ImportReport, path: Path, line: int, result: IngestResult) -> None:
    """The message's notes saying its LLM answer could not be used, as lines of the report."""
    report.llm_failures += [ImportLineError(file=str(path), line=line, reason=note)
                            for note in result.warnings if note.startswith(LLM_FAILED)]


def _chunks(items: Sequence[Episode], size: int) -> Iterator[Sequence[Episode]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]
