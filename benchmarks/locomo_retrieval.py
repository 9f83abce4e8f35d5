"""Retrieval quality on LoCoMo: does search bring back the turns that hold the answer?

    python benchmarks/locomo_retrieval.py [--data PATH] [--conversations N] [--rank MODES] [--json]

The conversations are imported offline (no LLM: the rule-based extractor) into a fresh embedded
memory, one group per conversation. For every question (categories 1-4; adversarial questions
have no evidence to find) the engine's ``search`` returns its top 10 facts and episodes; a
question counts as a hit at k when one of the first k results came from one of the question's
evidence turns — an episode *is* a turn, a fact came from the turns in its provenance. The same
is measured for two memories a user would otherwise pick: BM25 over the raw turns, and embedding
similarity over the raw turns (a naive vector-store memory, all-MiniLM-L6-v2, the engine's model).

Gold data: when ``<data stem>_audit_errors.json`` sits next to the data file (known errors of the
LoCoMo gold data, from dial481/locomo-audit), its corrected evidence replaces the original, matched
by conversation index, question index and question text.

``--rank`` ranks the engine's hits by each of the given modes (comma-separated, or ``all``:
relevance, recency, importance, blend and ``blend-no-recency``, the blend with recency weighed 0;
see ``queries.ranking``), each a system of its own
(``engine`` is relevance, the others ``engine:<mode>``), on the one imported memory. Each mode
reranks the same candidates ``search(rank=mode, limit=10)`` reranks (the fused top ``POOL``),
read once per question.

Latency is the median wall time of one engine ``search`` call, measured after the embeddings were
built (the build time is reported on its own).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this tree's engine, not an installed copy (its imports are in functions)
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo" / "locomo_dev.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KS = (5, 10)
POOL = max(30, 3 * max(KS))  # the candidates search reranks for limit=10 (queries.search: depth)
_EVIDENCE = re.compile(r"D:?(\d+):(\d+)")
_TOKEN = re.compile(r"\w+")


@dataclass
class Question:
    group: str
    text: str
    category: str
    evidence: set[str]


@dataclass
class Turn:
    dia_id: str
    text: str


@dataclass
class Conversation:
    group: str
    turns: list[Turn] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)


# ----------------------------------------------------------------------------- reading


def group_name(sample_id: str | None) -> str:
    """The group the importer puts a conversation in (its id made safe), so results line up."""
    from ingestion.batch import group_for

    return group_for(SimpleNamespace(group_id=sample_id), None)  # type: ignore[arg-type]


def evidence_ids(raw: Any) -> set[str]:
    """Normalized dia_ids ("D8:6; D9:17" -> {"D8:6", "D9:17"}, "D:11:26" -> "D11:26")."""
    items = raw if isinstance(raw, list) else [raw]
    found: set[str] = set()
    for item in items:
        for session, turn in _EVIDENCE.findall(str(item)):
            found.add(f"D{int(session)}:{int(turn)}")
    return found


def turn_text(turn: dict[str, Any]) -> str:
    """What a raw-turn memory stores: the speaker, the text and a shared photo's caption."""
    text = str(turn.get("text") or "").strip()
    caption = turn.get("blip_caption")
    if isinstance(caption, str) and caption.strip():
        text = f"{text} [shares a photo of {caption.strip()}]".strip()
    speaker = turn.get("speaker")
    return f"{speaker}: {text}" if speaker else text


def apply_corrections(samples: list[dict[str, Any]], audit: list[dict[str, Any]]) -> tuple[int, int]:
    """Replace evidence by the audit's ``correct_evidence``; returns (applied, unmatched)."""
    applied = unmatched = 0
    for entry in audit:
        match = re.fullmatch(r"locomo_(\d+)_qa(\d+)", str(entry.get("question_id", "")))
        if not match or "correct_evidence" not in entry:
            unmatched += 1
            continue
        conv, index = int(match.group(1)), int(match.group(2))
        if conv >= len(samples):
            unmatched += 1
            continue
        qa = samples[conv].get("qa") or []
        wanted = str(entry.get("question", "")).strip()
        target = (
            qa[index] if index < len(qa) and str(qa[index].get("question", "")).strip() == wanted else None
        )
        if target is None:  # indices drifted: find the question by its text
            target = next((q for q in qa if str(q.get("question", "")).strip() == wanted), None)
        if target is None:
            unmatched += 1
            continue
        target["evidence"] = list(entry["correct_evidence"])
        if entry.get("correct_answer") is not None:
            target["answer"] = entry["correct_answer"]
        applied += 1
    return applied, unmatched


def load(path: Path, limit: int | None) -> tuple[list[dict[str, Any]], list[Conversation], dict[str, Any]]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    samples = doc if isinstance(doc, list) else [doc]
    notes: dict[str, Any] = {}
    audit_path = path.with_name(f"{path.stem}_audit_errors.json")
    if audit_path.exists():
        applied, unmatched = apply_corrections(samples, json.loads(audit_path.read_text(encoding="utf-8")))
        notes["audit"] = {"file": audit_path.name, "applied": applied, "unmatched": unmatched}
    if limit is not None:
        samples = samples[:limit]
    conversations = []
    skipped: Counter[str] = Counter()
    for sample in samples:
        conversation = sample.get("conversation") or {}
        raw_id = sample.get("sample_id")
        group = group_name(str(raw_id) if raw_id is not None else None)
        conv = Conversation(group)
        sessions = sorted(
            (int(m.group(1)), turns)
            for key, turns in conversation.items()
            if (m := re.fullmatch(r"session_(\d+)", key)) and isinstance(turns, list)
        )
        for number, turns in sessions:
            for position, turn in enumerate(turns, start=1):
                if isinstance(turn, dict):
                    dia = evidence_ids(turn.get("dia_id") or f"D{number}:{position}")
                    conv.turns.append(Turn(next(iter(dia), f"D{number}:{position}"), turn_text(turn)))
        for qa in sample.get("qa") or []:
            category = CATEGORIES.get(qa.get("category"))
            evidence = evidence_ids(qa.get("evidence") or [])
            if category is None:
                skipped["not in categories 1-4"] += 1
            elif not evidence:
                skipped["no evidence"] += 1
            else:
                conv.questions.append(Question(group, str(qa.get("question", "")), category, evidence))
        conversations.append(conv)
    notes["questions_skipped"] = dict(skipped)
    return samples, conversations, notes


# ----------------------------------------------------------------------------- systems


class BM25:
    """Okapi BM25 (k1=1.2, b=0.75) over raw turns: the classic keyword memory."""

    def __init__(self, texts: list[str], k1: float = 1.2, b: float = 0.75) -> None:
        self.docs = [Counter(_TOKEN.findall(t.lower())) for t in texts]
        self.lengths = np.array([sum(d.values()) for d in self.docs], dtype=float)
        self.avg = float(self.lengths.mean()) if len(self.docs) else 0.0
        df: Counter[str] = Counter(w for d in self.docs for w in d)
        n = len(self.docs)
        self.idf = {w: math.log(1 + (n - f + 0.5) / (f + 0.5)) for w, f in df.items()}
        self.k1, self.b = k1, b

    def top(self, query: str, k: int) -> list[int]:
        scores = np.zeros(len(self.docs))
        norm = self.k1 * (1 - self.b + self.b * self.lengths / (self.avg or 1.0))
        for word in set(_TOKEN.findall(query.lower())):
            idf = self.idf.get(word)
            if idf is None:
                continue
            tf = np.array([d.get(word, 0) for d in self.docs], dtype=float)
            scores += idf * tf * (self.k1 + 1) / (tf + norm)
        order = np.argsort(-scores, kind="stable")
        return [int(i) for i in order[:k] if scores[i] > 0]


class Embeddings:
    """Cosine similarity over raw-turn embeddings: the naive vector-store memory."""

    def __init__(self, embedder: Any, texts: list[str]) -> None:
        self.embedder = embedder
        self.matrix = np.asarray(embedder.encode(texts), dtype=np.float32)

    def top(self, query: str, k: int) -> list[int]:
        q = np.asarray(self.embedder.encode([query])[0], dtype=np.float32)
        return [int(i) for i in np.argsort(-(self.matrix @ q), kind="stable")[:k]]


def engine_sources(tg: Any, group: str, hits: list[Any], episode_turn: dict[str, str]) -> list[set[str]]:
    """The source turns of each hit: an episode's own turn (and those it says repeat it word for
    word), a fact's provenance turns."""
    out = []
    for hit in hits:
        if hit.episode is not None:
            out.append({episode_turn.get(e, "") for e in hit.message_ids})
        elif hit.fact is not None:
            out.append({episode_turn.get(e, "") for e in hit.fact.episode_ids})
        else:
            out.append(set())
    return out


# ----------------------------------------------------------------------------- scoring


class Score:
    def __init__(self) -> None:
        self.hits: dict[str, dict[int, int]] = defaultdict(lambda: dict.fromkeys(KS, 0))
        self.n: Counter[str] = Counter()

    def add(self, category: str, ranked_sources: list[set[str]], evidence: set[str]) -> None:
        self.n[category] += 1
        for k in KS:
            if any(sources & evidence for sources in ranked_sources[:k]):
                self.hits[category][k] += 1

    def table(self) -> dict[str, dict[str, float]]:
        return {
            name: {
                **{
                    f"recall@{k}": round(self.hits[name][k] / self.n[name], 4) if self.n[name] else 0.0
                    for k in KS
                },
                "n": self.n[name],
            }
            for name in CATEGORIES.values()
        }

    def overall(self) -> dict[str, float]:
        total = sum(self.n.values()) or 1
        return {f"recall@{k}": round(sum(h[k] for h in self.hits.values()) / total, 4) for k in KS}


def run(
    data: Path, limit: int | None, db: str | None, progress: bool, ranks: tuple[str, ...] = ("relevance",)
) -> dict[str, Any]:
    from temporal_graph import TemporalGraph

    samples, conversations, notes = load(data, limit)
    workdir = tempfile.TemporaryDirectory(prefix="locomo-")
    source = Path(workdir.name) / "locomo.json"
    source.write_text(json.dumps(samples), encoding="utf-8")
    tg = TemporalGraph.open(db or Path(workdir.name) / "memory.db")
    log = (lambda *a: print(*a, file=sys.stderr, flush=True)) if progress else (lambda *a: None)

    started = time.perf_counter()
    report = tg.import_file(source, format="locomo", progress=progress)
    notes["import_seconds"] = round(time.perf_counter() - started, 1)
    notes["episodes"] = report.episodes_imported + report.episodes_skipped
    notes["facts_added"] = report.facts_added
    notes["import_errors"] = len(report.errors)
    log(f"imported {notes['episodes']} turns, {report.facts_added} facts in {notes['import_seconds']}s")

    started = time.perf_counter()
    tg.reindex()  # the import embedded everything; this only proves nothing was left
    notes["embedding_seconds"] = round(time.perf_counter() - started, 1)

    engines = {rank: Score() for rank in ("relevance", *ranks)}
    now = tg.core.clock()
    bm25, embedding = Score(), Score()
    latencies: list[float] = []
    for conv in conversations:
        episode_turn = {}
        for e in tg.core.store.episodes(conv.group):
            if e.source_id:
                episode_turn[e.id] = next(iter(evidence_ids(":".join(e.source_id.rsplit(":", 2)[-2:]))), "")
        texts = [t.text for t in conv.turns]
        keyword, vectors = BM25(texts), Embeddings(tg.embedder, texts)
        for q in conv.questions:
            t0 = time.perf_counter()
            hits = tg.search(q.text, limit=max(KS), group_id=conv.group, kinds=("fact", "episode"))
            latencies.append((time.perf_counter() - t0) * 1000)
            sources = engine_sources(tg, conv.group, hits, episode_turn)
            engines["relevance"].add(q.category, sources, q.evidence)
            if len(engines) > 1:
                # The candidates a ranked search reorders, searched once for every mode.
                candidates = tg.search(q.text, limit=POOL, pool=POOL, group_id=conv.group,
                                       kinds=("fact", "episode"))
                for rank, engine in engines.items():
                    if rank != "relevance":
                        hits = rank_order(tg.core.store, conv.group, candidates, rank, now, max(KS))
                        engine.add(q.category, engine_sources(tg, conv.group, hits, episode_turn), q.evidence)
            bm25.add(q.category, [{conv.turns[i].dia_id} for i in keyword.top(q.text, max(KS))], q.evidence)
            embedding.add(
                q.category, [{conv.turns[i].dia_id} for i in vectors.top(q.text, max(KS))], q.evidence
            )
        so_far = ", ".join(f"{_system(r)} {e.overall()['recall@10']:.3f}" for r, e in engines.items())
        log(f"{conv.group}: {len(conv.questions)} questions; recall@10 so far: {so_far}")
    tg.close()
    workdir.cleanup()
    systems = {_system(rank): engine for rank, engine in engines.items()}
    systems.update(bm25=bm25, embedding=embedding)
    return {
        "systems": {name: score.table() for name, score in systems.items()},
        "median_search_ms": round(statistics.median(latencies), 2) if latencies else None,
        "_overall": {name: score.overall() for name, score in systems.items()},
        "_notes": notes,
    }


def _system(rank: str) -> str:
    return "engine" if rank == "relevance" else f"engine:{rank}"


NO_RECENCY = "blend-no-recency"  # a system of the benchmarks, not a rank of the library


def rank_modes(text: str) -> tuple[str, ...]:
    """The ranks of ``text`` (comma-separated, or ``all``: every rank and the blend without recency)."""
    from queries.ranking import RANKS, check_rank

    modes = (*RANKS, NO_RECENCY) if text == "all" else tuple(
        dict.fromkeys(m.strip() for m in text.split(",") if m.strip()))
    return tuple(m if m == NO_RECENCY else check_rank(m) for m in modes)


def rank_order(store: Any, group: str, candidates: Any, mode: str, now: Any, limit: int) -> list[Any]:
    """``candidates`` reranked by ``mode`` (a rank, or the blend without recency)."""
    from queries.ranking import BLEND_WITHOUT_RECENCY, DEFAULT_HALF_LIFE_DAYS, ranked

    rank, weights = ("blend", BLEND_WITHOUT_RECENCY) if mode == NO_RECENCY else (mode, None)
    return ranked(store, group, candidates, rank=rank, now=now, half_life_days=DEFAULT_HALF_LIFE_DAYS,
                  limit=limit, weights=weights)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="a LoCoMo-format JSON file")
    parser.add_argument("--conversations", type=int, default=None, help="only the first N conversations")
    parser.add_argument("--db", default=None, help="keep the imported memory in this file")
    parser.add_argument("--rank", default="relevance",
                        help="engine ranking modes, comma-separated, or 'all' (default: relevance)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        ranks = rank_modes(args.rank)
    except ValueError as exc:  # InvalidInput
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not args.data.exists():
        print(f"error: {args.data} does not exist", file=sys.stderr)
        return 2
    result = run(args.data, args.conversations, args.db, progress=not args.json,
                 ranks=ranks or ("relevance",))
    overall, notes = result.pop("_overall"), result.pop("_notes")
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"LoCoMo retrieval — {args.data.name}: {notes}")
    header = f"{'system':<18} {'category':<12} {'n':>5} {'recall@5':>9} {'recall@10':>10}"
    print(header)
    print("-" * len(header))
    for system, table in result["systems"].items():
        for category, row in table.items():
            print(
                f"{system:<18} {category:<12} {row['n']:>5} {row['recall@5']:>9.3f} {row['recall@10']:>10.3f}"
            )
        all_n = sum(r["n"] for r in table.values())
        print(
            f"{system:<18} {'all':<12} {all_n:>5} {overall[system]['recall@5']:>9.3f} "
            f"{overall[system]['recall@10']:>10.3f}"
        )
    print(f"median engine search latency: {result['median_search_ms']} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
