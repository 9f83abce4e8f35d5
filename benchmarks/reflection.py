"""Reflection on real chat logs: how many insights, how well they hold, how long a reflect takes.

    python benchmarks/reflection.py [--locomo PATH] [--conversations N] [--json]

Each chat log (the repo's examples/ and benchmarks/data chat sets, and the first N LoCoMo dev
conversations) is told message by message, offline (the rule-based extractor, no embeddings), one
group per conversation. Halfway through each conversation the memory reflects (offline rules);
then the rest is told and it reflects again. Reported per log:

- insights per subject (current insights over the entities they are about);
- ``held``: the share of the halfway insights whose every cited fact version is still current after
  the rest of the conversation (the others expired with their evidence, in the write that changed it);
- ``sound``: the share of current insights whose every cited fact version is current (the invariant:
  always 1.0);
- the median and worst wall time of one ``reflect``.

With the scripted LLM (``temporal_graph.llm.testing``) it also measures the LLM producer's evidence
check: a script that cites a label it was not given in every other answer must see half its answers
refused (counted in ``Reflection.refused``), and no insight written from them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingestion.readers import read_messages  # noqa: E402
from ingestion.readers.messages import ChatMessage  # noqa: E402
from temporal_graph import TemporalGraph  # noqa: E402
from temporal_graph.core.stores.protocol import FactQuery  # noqa: E402
from temporal_graph.llm.testing import ScriptedLLM  # noqa: E402

CHAT_LOGS = (ROOT / "examples" / "sample_chat.jsonl", ROOT / "benchmarks" / "data" / "sample_chat.jsonl")
DEFAULT_LOCOMO = ROOT.parent / "shared" / "data" / "locomo" / "locomo_dev.json"


def conversations(path: Path, limit: int | None) -> dict[str, list[ChatMessage]]:
    by_group: dict[str, list[ChatMessage]] = defaultdict(list)
    for item in read_messages(path):
        if isinstance(item, ChatMessage):
            by_group[item.group_id or path.stem].append(item)
    groups = list(by_group)[:limit] if limit else list(by_group)
    return {g: by_group[g] for g in groups}


def tell(tg: TemporalGraph, group: str, messages: list[ChatMessage]) -> None:
    for m in messages:
        tg.add_episode(m.content, reference_time=m.timestamp, speaker=m.speaker, group_id=group,
                       source_id=m.source_id)


def timed_reflect(tg: TemporalGraph, group: str, times: list[float]):
    start = time.perf_counter()
    done = tg.reflect(group_id=group)
    times.append(time.perf_counter() - start)
    return done


def measure_log(path: Path, limit: int | None) -> dict[str, Any]:
    tg = TemporalGraph.open(":memory:", embed=False)
    times: list[float] = []
    halfway, current, subjects = [], [], set()
    messages = 0
    for group, turns in conversations(path, limit).items():
        half = len(turns) // 2
        tell(tg, group, turns[:half])
        halfway += [(group, i) for i in timed_reflect(tg, group, times).written]
        tell(tg, group, turns[half:])
        timed_reflect(tg, group, times)
        messages += len(turns)
        believed = tg.insights(group_id=group)
        facts = {f.id for f in tg.core.store.facts(FactQuery(group))}
        current += [(i, facts) for i in believed]
        subjects |= {(group, s) for i in believed for s in i.subject_ids}
    still = 0
    for group, insight in halfway:
        facts = {f.id for f in tg.core.store.facts(FactQuery(group))}
        still += set(insight.derived_from) <= facts
    tg.close()
    return {
        "log": path.name, "messages": messages, "insights": len(current), "subjects": len(subjects),
        "insights_per_subject": round(len(current) / len(subjects), 2) if subjects else 0.0,
        "halfway_insights": len(halfway),
        "held": round(still / len(halfway), 3) if halfway else None,
        "sound": round(sum(set(i.derived_from) <= f for i, f in current) / len(current), 3)
        if current else None,
        "reflect_ms_median": round(1000 * statistics.median(times), 1) if times else None,
        "reflect_ms_max": round(1000 * max(times), 1) if times else None,
    }


def measure_llm_refusals(path: Path, limit: int | None) -> dict[str, Any]:
    """Every other scripted answer cites a label it was not given: those answers are refused."""
    calls = {"n": 0}

    def answer(request: Any) -> dict[str, Any]:
        calls["n"] += 1
        evidence = ["F1"] if calls["n"] % 2 else ["F1", "F999"]
        return {"insights": [{"text": f"insight {calls['n']}", "subjects": ["?"], "evidence": evidence}]}

    tg = TemporalGraph.open(":memory:", embed=False)
    group = "llm"
    tell(tg, group, [m for turns in conversations(path, limit).values() for m in turns])
    tg.llm = ScriptedLLM(answer)  # after the telling: extraction stays offline
    subjects = sorted({f.subject for f in tg.core.store.facts(FactQuery(group))})
    done = [tg.reflect(group_id=group, subject=s, producer="llm") for s in subjects]  # a call each
    tg.close()
    answers, refused = calls["n"], sum(d.refused for d in done)
    return {"answers": answers, "refused": refused,
            "refused_share": round(refused / answers, 3) if answers else None,
            "written": sum(len(d.written) for d in done)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--locomo", type=Path, default=DEFAULT_LOCOMO)
    parser.add_argument("--conversations", type=int, default=2, help="LoCoMo dev conversations (0: none)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = [measure_log(p, None) for p in CHAT_LOGS if p.exists()]
    if args.conversations and args.locomo.exists():
        rows.append(measure_log(args.locomo, args.conversations))
    use_locomo = bool(args.conversations) and args.locomo.exists()
    llm = measure_llm_refusals(args.locomo if use_locomo else CHAT_LOGS[0], 1 if use_locomo else None)
    if args.json:
        print(json.dumps({"logs": rows, "llm": llm}, indent=2))
        return 0
    for r in rows:
        print(f"{r['log']}: {r['messages']} messages, {r['insights']} insights on {r['subjects']} subjects "
              f"({r['insights_per_subject']}/subject); halfway insights held {r['held']} "
              f"({r['halfway_insights']}); sound {r['sound']}; reflect {r['reflect_ms_median']} ms median, "
              f"{r['reflect_ms_max']} ms max")
    print(f"scripted LLM: {llm['answers']} answers, {llm['refused']} refused ({llm['refused_share']}), "
          f"{llm['written']} insights written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
