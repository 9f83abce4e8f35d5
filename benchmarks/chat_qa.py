"""Questions a new user asks about their own chat log: the chat-derived set of ``ask_qa.py``.

    python benchmarks/ask_qa.py --set chats [--json]

Data (``benchmarks/data/``): three chat logs of a changing life over one to two years, written
for this benchmark (``chats/marta.jsonl``, ``chats/kwame.jsonl``, ``chats/yuki.jsonl``: moves, job
changes, a break-up and a new partner, siblings who move, a pet, plans that fall through or happen,
hearsay the person denies, a wedding), importable as they are with ``tgraph import``; and
``chat_questions.jsonl``, one question per line: its ``group``, ``kind`` (ever, still,
before_after, planning, claims, when, how_long, who), the ``question``, the expected ``yes_no``
("yes", "no" or null), ``expect`` (groups of alternatives: the answer's text must hold one
alternative of every group, case-insensitively, e.g. ``[["September 2023", "2023-09"]]``) and
``evidence`` (the ids of the messages that hold the answer).

Scoring ``tg.ask``: an answer is right when it is known (every question has an answer in its log;
"I don't know" is wrong), starts with "Yes"/"No" when a yes/no is expected, and holds every
expected group.

Retrieval, per rank mode: for every question, is one of search's first k facts and episodes from
an evidence message (a fact counts through its provenance)? The chat sets are the held-out check
of the ranking default: they were written before the rules and the ranking were looked at.
"""

from __future__ import annotations

import json
import re
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.locomo_retrieval import rank_order

DATA = Path(__file__).resolve().parent / "data"
CHATS = DATA / "chats"
QUESTIONS = DATA / "chat_questions.jsonl"
KINDS = ("ever", "still", "before_after", "planning", "claims", "when", "how_long", "who")
KS = (1, 3, 5)


@dataclass(frozen=True)
class ChatQuestion:
    id: str
    group: str
    kind: str
    question: str
    yes_no: str | None
    expect: tuple[tuple[str, ...], ...]
    evidence: frozenset[str]

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> ChatQuestion:
        if row["kind"] not in KINDS:
            raise ValueError(f"{row['id']}: unknown kind {row['kind']!r}")
        if row.get("yes_no") not in (None, "yes", "no"):
            raise ValueError(f"{row['id']}: yes_no must be yes, no or null")
        return cls(row["id"], row["group"], row["kind"], row["question"], row.get("yes_no"),
                   tuple(tuple(alts) for alts in row.get("expect", [])), frozenset(row.get("evidence", [])))


def load_questions(path: Path | None = None) -> list[ChatQuestion]:
    lines = (path or QUESTIONS).read_text(encoding="utf-8").splitlines()
    return [ChatQuestion.from_json(json.loads(line)) for line in lines if line.strip()]


def _plain(text: str) -> str:
    return " ".join(text.replace("’", "'").casefold().split())


def answer_right(q: ChatQuestion, known: bool, text: str) -> bool:
    """Known, the expected yes/no first, and one alternative of every expected group in the text."""
    if not known:
        return False
    said = _plain(text)
    if q.yes_no is not None and not re.match(rf"{q.yes_no}\b", said):
        return False
    return all(any(_plain(alt) in said for alt in group) for group in q.expect)


def open_memory(tg_factory: Any, chats: Path) -> Any:
    """A memory with every chat log imported the way ``tgraph import`` does (one group per log)."""
    tg = tg_factory()
    for path in sorted(chats.glob("*.jsonl")):
        tg.import_file(path, progress=False)
    return tg


def episode_messages(tg: Any, groups: Iterable[str]) -> dict[str, str]:
    """Episode id -> the id of the message it was imported from."""
    return {e.id: e.source_id for g in groups for e in tg.core.store.episodes(g) if e.source_id}


def sources(hit: Any, message_of: Mapping[str, str]) -> set[str]:
    if hit.episode is not None:
        return {message_of.get(hit.episode.id, "")}
    if hit.fact is not None:
        return {message_of.get(e, "") for e in hit.fact.episode_ids}
    return set()


def ask_report(tg: Any, questions: Sequence[ChatQuestion]) -> dict[str, Any]:
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    by_group: Counter[str] = Counter()
    misses: dict[str, list[tuple[str, str]]] = defaultdict(list)
    times = []
    for q in questions:
        t0 = time.perf_counter()
        answer = tg.ask(q.question, group_id=q.group)
        times.append((time.perf_counter() - t0) * 1000)
        total[q.kind] += 1
        if answer_right(q, answer.known, answer.text):
            right[q.kind] += 1
            by_group[q.group] += 1
        else:
            misses[q.kind].append((q.question, answer.text))
    groups = Counter(q.group for q in questions)
    return {
        "kinds": {k: {"n": total[k], "right": right[k], "accuracy": round(right[k] / total[k], 3)}
                  for k in KINDS if total[k]},
        "groups": {g: round(by_group[g] / n, 3) for g, n in groups.items()},
        "overall": round(sum(right.values()) / max(1, len(questions)), 3),
        "median_ask_ms": round(statistics.median(times), 1) if times else None,
        "_misses": dict(misses),
    }


def retrieval_report(tg: Any, questions: Sequence[ChatQuestion], modes: Sequence[str]) -> dict[str, Any]:
    """recall@k of each rank mode over the same candidates (those ``search(limit=5)`` reranks)."""
    message_of = episode_messages(tg, {q.group for q in questions})
    hits: dict[str, Counter[int]] = {m: Counter() for m in modes}
    pool = max(30, 3 * max(KS))
    for q in questions:
        candidates = tg.search(q.question, limit=pool, pool=pool, group_id=q.group, kinds=("fact", "episode"),
                               rank="relevance")
        for mode in modes:
            top = rank_order(tg.core.store, q.group, candidates, mode, tg.core.clock(), max(KS))
            found = [sources(h, message_of) for h in top]
            for k in KS:
                hits[mode][k] += any(s & q.evidence for s in found[:k])
    n = max(1, len(questions))
    return {m: {f"recall@{k}": round(hits[m][k] / n, 3) for k in KS} for m in modes}


def run(
    *, ranks: Sequence[str] = (), questions_path: Path | None = None, chats: Path | None = None,
) -> dict[str, Any]:
    """Every question asked of the imported logs (default: the set's own data files)."""
    from temporal_graph import TemporalGraph

    questions = load_questions(questions_path or QUESTIONS)
    chats = chats or CHATS
    with tempfile.TemporaryDirectory(prefix="chat-qa-") as workdir:
        tg = open_memory(lambda: TemporalGraph.open(Path(workdir) / "memory.db"), chats)
        try:
            report = ask_report(tg, questions)
            if ranks:
                report["retrieval"] = retrieval_report(tg, questions, ranks)
        finally:
            tg.close()
    report["n"] = len(questions)
    return report


def human(report: dict[str, Any]) -> str:
    out = [f"chat-derived set: {report['n']} questions over 3 chat logs; "
           f"tg.ask right {report['overall']:.1%} (median {report['median_ask_ms']} ms); per log: "
           + ", ".join(f"{g} {v:.0%}" for g, v in report["groups"].items()), "",
           f"{'kind':<14}{'n':>4}{'right':>7}{'accuracy':>10}"]
    for kind, row in report["kinds"].items():
        out.append(f"{kind:<14}{row['n']:>4}{row['right']:>7}{row['accuracy']:>10.1%}")
    if "retrieval" in report:
        out += ["", f"{'search rank':<18}" + "".join(f"{'recall@' + str(k):>11}" for k in KS)]
        for system, row in report["retrieval"].items():
            out.append(f"{system:<18}" + "".join(f"{row[f'recall@{k}']:>11.3f}" for k in KS))
    for kind, bad in report["_misses"].items():
        for question, got in bad:
            out.append(f"  miss [{kind}] {question} -> {got[:150]}")
    return "\n".join(out)
