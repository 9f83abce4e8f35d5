"""How much of what recall hands back the memory itself knows is out of date.

    python benchmarks/stale_recall.py [--before REV] [--conversations N] [--json]

Two memories: LoCoMo dev (imported offline, one group per conversation) and the chat-derived logs
(``benchmarks/data/chats``, one group per log). Every question of each is searched for "now"
(``search(limit=10)``, facts and messages) and given a context block (``context()``):

- **superseded share**: of the messages among the search's hits (the block's messages), those
  whose standing is ``superseded`` (see ``queries.standing``): every fact they gave has ended or
  been replaced. "today" ranks them as before (``stale="show"``: standing computed, nothing
  moved); "after" is the default (``stale="auto"``: hidden for a question about now, labelled
  last for one about the past or a change) and ``stale="hide"``. Target: 0 after, for "now".
- **recall@10**: one of the first 10 hits came from an evidence message of the question (a fact
  through its provenance), today and after, over all questions and over those about now
  (``queries.time_cues.asks_past`` false): hiding what is stale must not lose the current answer.
- **search p50**: the median wall time of one search. With ``--before REV`` the same searches run
  in a second process on a checkout of REV (``git worktree``), on a copy of the same database: the
  code before the standing existed, measured in the same run (its superseded share is computed
  on its hits with this code's standing, so "today" is what REV really returned).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import chat_qa, locomo_retrieval  # noqa: E402

K = 10

# Run inside the checkout of --before: the same searches, timed, with the ids they returned.
_BEFORE = """
import json, sys, time
from temporal_graph import TemporalGraph
db, questions = sys.argv[1], json.load(sys.stdin)
tg = TemporalGraph.open(db)
tg.search("warm up", group_id=questions[0][0])
out = []
for group, text in questions:
    t0 = time.perf_counter()
    hits = tg.search(text, limit=%d, group_id=group, kinds=("fact", "episode"))
    ms = (time.perf_counter() - t0) * 1000
    out.append([ms, [[h.kind, (h.fact or h.episode).id] for h in hits]])
print(json.dumps(out))
""" % K


def _build(workdir: Path, conversations: int | None) -> dict[str, Any]:
    """Both memories, imported into one file each; the questions with their evidence."""
    from temporal_graph import TemporalGraph

    sets: dict[str, Any] = {}
    samples, convs, _ = locomo_retrieval.load(locomo_retrieval.DEFAULT_DATA, conversations)
    source = workdir / "locomo.json"
    source.write_text(json.dumps(samples), encoding="utf-8")
    db = workdir / "locomo.db"
    with TemporalGraph.open(db) as tg:
        tg.import_file(source, format="locomo", progress=False)
        turn_of = {}
        for c in convs:
            for e in tg.core.store.episodes(c.group):
                if e.source_id:
                    ids = locomo_retrieval.evidence_ids(":".join(e.source_id.rsplit(":", 2)[-2:]))
                    turn_of[e.id] = next(iter(ids), "")
    sets["LoCoMo dev"] = {"db": db, "questions": [(c.group, q.text, q.evidence) for c in convs
                                                  for q in c.questions], "source_of": turn_of}
    db = workdir / "chats.db"
    with TemporalGraph.open(db) as tg:
        chat_qa.open_memory(lambda: tg, chat_qa.CHATS)
        questions = chat_qa.load_questions()
        message_of = chat_qa.episode_messages(tg, {q.group for q in questions})
    sets["chat logs"] = {"db": db, "questions": [(q.group, q.question, set(q.evidence)) for q in questions],
                         "source_of": message_of}
    return sets


def _sources(hits: list[Any], source_of: dict[str, str]) -> list[set[str]]:
    return [{source_of.get(h.episode.id, "")} if h.episode is not None
            else {source_of.get(e, "") for e in h.fact.episode_ids} if h.fact is not None else set()
            for h in hits]


def _measure(tg: Any, data: dict[str, Any], stale: str) -> dict[str, Any]:
    from queries.time_cues import asks_past

    stale_hits = messages = found = found_now = asked_now = block_stale = block_messages = 0
    stale_now = messages_now = 0
    times = []
    for group, text, evidence in data["questions"]:
        t0 = time.perf_counter()
        hits = tg.search(text, limit=K, group_id=group, kinds=("fact", "episode"), stale=stale)
        times.append((time.perf_counter() - t0) * 1000)
        messages += sum(h.episode is not None for h in hits)
        stale_hits += sum(h.standing == "superseded" for h in hits)
        hit = any(s & evidence for s in _sources(hits, data["source_of"]))
        found += hit
        if not asks_past(text):
            asked_now += 1
            found_now += hit
            messages_now += sum(h.episode is not None for h in hits)
            stale_now += sum(h.standing == "superseded" for h in hits)
        block = tg.context(text, group_id=group, stale=stale)
        supporting, _, superseded = block.partition("Superseded messages")
        block_stale += superseded.count("\n- ")
        shown = supporting.split("Supporting messages:", 1)[-1].count("\n- ")
        block_messages += shown + superseded.count("\n- ")
    n = max(1, len(data["questions"]))
    return {"superseded_share_search": round(stale_hits / max(1, messages), 4),
            "superseded_share_search_now": round(stale_now / max(1, messages_now), 4),
            "superseded_share_context": round(block_stale / max(1, block_messages), 4),
            "recall@10": round(found / n, 4), "recall@10 (now)": round(found_now / max(1, asked_now), 4),
            "questions about now": asked_now, "search_p50_ms": round(statistics.median(times), 2)}


def _before(rev: str, data: dict[str, Any], workdir: Path) -> dict[str, Any]:
    """The same searches on a checkout of ``rev``, in its own process; superseded share of its hits."""
    from queries.standing import standings
    from temporal_graph import TemporalGraph
    from temporal_graph.core.stores.protocol import FactQuery

    tree = workdir / f"before-{rev}"
    if not tree.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), rev],
                       check=True)
    db = workdir / f"{data['db'].stem}-before.db"
    shutil.copy(data["db"], db)
    questions = [[g, t] for g, t, _ in data["questions"]]
    ran = subprocess.run([sys.executable, "-c", _BEFORE, str(db)], input=json.dumps(questions), cwd=tree,
                         capture_output=True, text=True, check=True)
    results = json.loads(ran.stdout)
    stale_hits = messages = found = 0
    with TemporalGraph.open(data["db"]) as tg:
        for (group, _, evidence), (_, hits) in zip(data["questions"], results, strict=True):
            episodes = tg.core.store.episodes(group, ids=[i for kind, i in hits if kind == "episode"])
            standing = standings(tg.core, group, episodes, valid_time=tg.core.now(), known_at=None)
            messages += len(episodes)
            stale_hits += sum(s.standing == "superseded" for s in standing.values())
            facts = FactQuery(group, ids=tuple(i for kind, i in hits if kind == "fact"))
            rows = {f.id: f for f in tg.core.store.facts(facts)}
            cited = {i: f.episode_ids for i, f in rows.items()}
            sources = [{data["source_of"].get(i, "")} if kind == "episode"
                       else {data["source_of"].get(e, "") for e in cited.get(i, ())} for kind, i in hits]
            found += any(s & evidence for s in sources)
    n = max(1, len(results))
    return {"superseded_share_search": round(stale_hits / max(1, messages), 4),
            "recall@10": round(found / n, 4),
            "search_p50_ms": round(statistics.median(ms for ms, _ in results), 2)}


def run(*, before: str | None, conversations: int | None) -> dict[str, Any]:
    from temporal_graph import TemporalGraph

    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="stale-recall-") as name:
        workdir = Path(name)
        try:
            for label, data in _build(workdir, conversations).items():
                row: dict[str, Any] = {"questions": len(data["questions"])}
                with TemporalGraph.open(data["db"]) as tg:
                    tg.search("warm up", group_id=data["questions"][0][0])
                    row["today (stale='show')"] = _measure(tg, data, "show")
                    row["after (default: auto)"] = _measure(tg, data, "auto")
                    row["after, stale='hide'"] = _measure(tg, data, "hide")
                if before:
                    row[f"before ({before})"] = _before(before, data, workdir)
                report[label] = row
        finally:
            if before:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(workdir / f"before-{before}")], check=False, capture_output=True)
    return report


def human(report: dict[str, Any]) -> str:
    out = [f"{'set':<12}{'reads':<26}{'stale in search':>16}{'(now qs)':>10}{'stale in context':>18}"
           f"{'recall@10':>11}{'(now qs)':>10}{'search p50 ms':>15}"]
    for label, row in report.items():
        for reads, m in row.items():
            if reads == "questions":
                continue
            context = m.get("superseded_share_context")
            now = m.get("recall@10 (now)")
            stale_now = m.get("superseded_share_search_now")
            out.append(f"{label:<12}{reads:<26}{m['superseded_share_search']:>16.1%}"
                       f"{'' if stale_now is None else f'{stale_now:.1%}':>10}"
                       f"{'' if context is None else f'{context:.1%}':>18}{m['recall@10']:>11.3f}"
                       f"{'' if now is None else f'{now:.3f}':>10}{m['search_p50_ms']:>15.1f}")
        asked = next(m["questions about now"] for m in row.values()
                     if isinstance(m, dict) and "questions about now" in m)
        out.append(f"{'':<12}({row['questions']} questions, {asked} about now)")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", metavar="REV", help="also time the same searches on this git revision")
    parser.add_argument("--conversations", type=int, metavar="N",
                        help="only the first N LoCoMo conversations")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if not locomo_retrieval.DEFAULT_DATA.exists():
        print(f"error: {locomo_retrieval.DEFAULT_DATA} is missing", file=sys.stderr)
        return 2
    report = run(before=args.before, conversations=args.conversations)
    print(json.dumps(report, indent=2) if args.json else human(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
