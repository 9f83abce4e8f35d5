"""Questions a new user asks about their own chat log: the chat-derived set of ``ask_qa.py``.

    python benchmarks/ask_qa.py --set chats [--json]

Data (``benchmarks/data/``): chat logs written for this benchmark, importable as they are with
``tgraph import``: three of a changing life over one to two years (``chats/marta.jsonl``,
``chats/kwame.jsonl``, ``chats/yuki.jsonl``: moves, job changes, a break-up and a new partner,
siblings who move, a pet, plans that fall through or happen, hearsay the person denies, a wedding),
and three written later for issue 51 in other voices (``chats/priya.jsonl``: an engagement told as
"last night", a rent that goes up, a sister's rent, a job change told the way people tell it;
``chats/marco.jsonl``: terse, non-native, orders told by their status, a rent that is "due";
``chats/dana.jsonl``: one person and an assistant with long general answers, so "I" in a question is
her). ``chat_questions.jsonl`` has one question per line: its ``group``, ``kind`` (see
:data:`KINDS`), the ``question``, the expected ``yes_no`` ("yes", "no" or null), ``expect`` (groups
of alternatives: the answer's text must hold one alternative of every group, case-insensitively,
e.g. ``[["September 2023", "2023-09"]]``), ``evidence`` (the ids of the messages that hold the
answer), and optionally ``known`` (false: the right answer is "I don't know", naming what
``expect`` says), ``speaker`` (who asks, for ``ask(speaker=)``), ``relations`` (the relations an
answer may rest on, ``fnmatch`` patterns) and ``about`` (words one of which that fact must hold).

Scoring ``tg.ask``: an answer is right when it is known (or, for ``"known": false``, when it is
not), starts with "Yes"/"No" when a yes/no is expected, and holds every expected group. An answer
to another question is a known answer whose first cited fact (the one it rests on; a chain's facts
come after it) has a relation outside ``relations``, or, with ``about``, none of its words: "What
does Priya do for a living?" answered with where she lives. A "No: no record of …" rests on no
fact (what it cites after that is context). The target is none.

Retrieval, per rank mode: for every question, is one of search's first k facts and episodes from
an evidence message (a fact counts through its provenance)? The chat sets are the held-out check
of the ranking default: they were written before the rules and the ranking were looked at.
"""

from __future__ import annotations

import fnmatch
import inspect
import json
import re
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# This tree's engine, not an installed copy: run from a second worktree, it measures that tree.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.locomo_retrieval import rank_order  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
CHATS = DATA / "chats"
QUESTIONS = DATA / "chat_questions.jsonl"
KINDS = ("ever", "still", "before_after", "planning", "claims", "when", "how_long", "who",
         # written for issue 51 and 50: first-person questions, relations the memory may not hold, the
         # status of a thing, an attribute at a past time, broad questions about the group
         "asker", "unasked", "status", "past_value", "broad")
FIRST_SET = 122  # questions q001-q122 were the whole set before issue 51's were added
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
    known: bool = True
    speaker: str | None = None
    relations: tuple[str, ...] | None = None
    about: tuple[str, ...] = ()

    @property
    def first_set(self) -> bool:
        return int(self.id.lstrip("q") or 0) <= FIRST_SET

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> ChatQuestion:
        if row["kind"] not in KINDS:
            raise ValueError(f"{row['id']}: unknown kind {row['kind']!r}")
        if row.get("yes_no") not in (None, "yes", "no"):
            raise ValueError(f"{row['id']}: yes_no must be yes, no or null")
        relations = row.get("relations")
        return cls(row["id"], row["group"], row["kind"], row["question"], row.get("yes_no"),
                   tuple(tuple(alts) for alts in row.get("expect", [])), frozenset(row.get("evidence", [])),
                   known=row.get("known", True), speaker=row.get("speaker"),
                   relations=None if relations is None else tuple(relations),
                   about=tuple(row.get("about", [])))


def load_questions(path: Path | None = None) -> list[ChatQuestion]:
    lines = (path or QUESTIONS).read_text(encoding="utf-8").splitlines()
    return [ChatQuestion.from_json(json.loads(line)) for line in lines if line.strip()]


def _plain(text: str) -> str:
    return " ".join(text.replace("’", "'").casefold().split())


def answer_right(q: ChatQuestion, known: bool, text: str) -> bool:
    """Known (or not, as expected), the expected yes/no first, and one alternative of every expected
    group in the text."""
    if known != q.known:
        return False
    said = _plain(text)
    if q.yes_no is not None and not re.match(rf"{q.yes_no}\b", said):
        return False
    return all(any(_plain(alt) in said for alt in group) for group in q.expect)


def another_question(q: ChatQuestion, known: bool, facts: Sequence[Any], text: str = "") -> bool:
    """A known answer resting on a fact of a relation the question does not ask about (or, with
    ``about``, on one that holds none of its words). A "No: no record of …" rests on no fact: what
    it cites after that is context ("now: she is dating Lukas"), not its answer."""
    if not known or not facts or q.relations is None or _plain(text).startswith("no: no record"):
        return False
    first = facts[0]
    if not any(fnmatch.fnmatchcase(first.relation, pattern) for pattern in q.relations):
        return True
    words = _plain(f"{first.object} {first.text}")
    return bool(q.about) and not any(_plain(w) in words for w in q.about)


def _asks_with_speaker(tg: Any) -> bool:
    """Whether this tree's ``ask`` takes ``speaker=`` (a run against an older tree asks without it)."""
    return "speaker" in inspect.signature(tg.ask).parameters


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
    off: Counter[str] = Counter()
    by_group: Counter[str] = Counter()
    by_set: Counter[str] = Counter()
    misses: dict[str, list[tuple[str, str]]] = defaultdict(list)
    others: list[tuple[str, str]] = []
    times = []
    with_speaker = _asks_with_speaker(tg)
    for q in questions:
        extra = {"speaker": q.speaker} if q.speaker and with_speaker else {}
        t0 = time.perf_counter()
        answer = tg.ask(q.question, group_id=q.group, **extra)
        times.append((time.perf_counter() - t0) * 1000)
        total[q.kind] += 1
        if another_question(q, answer.known, answer.facts, answer.text):
            off[q.kind] += 1
            others.append((q.question, answer.text))
        if answer_right(q, answer.known, answer.text):
            right[q.kind] += 1
            by_group[q.group] += 1
            by_set["first" if q.first_set else "issue51"] += 1
        else:
            misses[q.kind].append((q.question, answer.text))
    groups = Counter(q.group for q in questions)
    sets = Counter("first" if q.first_set else "issue51" for q in questions)
    return {
        "kinds": {k: {"n": total[k], "right": right[k], "accuracy": round(right[k] / total[k], 3),
                      "another_question": off[k]} for k in KINDS if total[k]},
        "groups": {g: round(by_group[g] / n, 3) for g, n in groups.items()},
        "sets": {s: {"n": n, "accuracy": round(by_set[s] / n, 3)} for s, n in sets.items()},
        "overall": round(sum(right.values()) / max(1, len(questions)), 3),
        "another_question": sum(off.values()),
        "median_ask_ms": round(statistics.median(times), 1) if times else None,
        "_misses": dict(misses),
        "_another": others,
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
    sets = report.get("sets", {})
    named = {"first": "q001-q122", "issue51": "issue 51's"}
    out = [f"chat-derived set: {report['n']} questions over {len(report['groups'])} chat logs; "
           f"tg.ask right {report['overall']:.1%} (median {report['median_ask_ms']} ms); "
           f"answers to another question: {report['another_question']}",
           "per set: " + ", ".join(f"{named.get(s, s)} {v['accuracy']:.1%} of {v['n']}"
                                   for s, v in sets.items()),
           "per log: " + ", ".join(f"{g} {v:.0%}" for g, v in report["groups"].items()), "",
           f"{'kind':<14}{'n':>4}{'right':>7}{'accuracy':>10}{'other q':>9}"]
    for kind, row in report["kinds"].items():
        out.append(f"{kind:<14}{row['n']:>4}{row['right']:>7}{row['accuracy']:>10.1%}"
                   f"{row['another_question']:>9}")
    if "retrieval" in report:
        out += ["", f"{'search rank':<18}" + "".join(f"{'recall@' + str(k):>11}" for k in KS)]
        for system, row in report["retrieval"].items():
            out.append(f"{system:<18}" + "".join(f"{row[f'recall@{k}']:>11.3f}" for k in KS))
    for kind, bad in report["_misses"].items():
        for question, got in bad:
            out.append(f"  miss [{kind}] {question} -> {got[:150]}")
    for question, got in report.get("_another", []):
        out.append(f"  another question: {question} -> {got[:150]}")
    return "\n".join(out)
