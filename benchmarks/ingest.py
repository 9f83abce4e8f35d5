"""Ingestion throughput and cost on a LoCoMo-format file, one ``add_episode`` per turn.

    python benchmarks/ingest.py [--data PATH] [--limit N] [--llm-limit N]

Offline path: episodes per second, facts and entities produced, peak memory.
LLM path: the same pipeline with the LLM extractor, answered by a *scripted* client (no LLM is
reachable here) that returns a fixed structured extraction per episode; it counts LLM calls and
prompt tokens per episode (tokens approximate: characters / 4). Target: 1 call per episode, at
most 2 (the second only when entity resolution is ambiguous).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
import tracemalloc
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ingestion.offline import OfflineExtractor  # noqa: E402
from ingestion.readers import ChatMessage, read_messages  # noqa: E402
from temporal_graph import TemporalGraph  # noqa: E402
from temporal_graph.core.extraction import Extraction  # noqa: E402
from temporal_graph.core.model import Episode  # noqa: E402
from temporal_graph.core.time import UTC, ManualClock  # noqa: E402
from temporal_graph.llm import LLMRequest  # noqa: E402
from temporal_graph.llm.testing import ScriptedLLM  # noqa: E402

_ANY_TIME = datetime(2024, 1, 1, tzinfo=UTC)  # time phrases stay as written; the pipeline resolves them
DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / "locomo_dev.json"


def load(path: Path, limit: int | None) -> list[ChatMessage]:
    messages = [m for m in read_messages(path) if isinstance(m, ChatMessage)]
    return messages[:limit] if limit else messages


def ingest(tg: TemporalGraph, clock: ManualClock, messages: list[ChatMessage]) -> dict:
    facts = entities = 0
    started = time.perf_counter()
    for m in messages:
        clock.set(m.timestamp)
        result = tg.add_episode(m.content, reference_time=m.timestamp, speaker=m.speaker,
                                group_id=m.group_id or "default", source_id=m.source_id)
        facts += len(result.added)
        entities += len(result.entities_created)
    seconds = time.perf_counter() - started
    return {"episodes": len(messages), "seconds": seconds, "episodes_per_s": len(messages) / seconds,
            "facts_added": facts, "entities_created": entities}


def scripted_answers() -> callable:
    """Answer each extraction request with what a careful model would return for the message:
    here, the offline extractor's reading of it, so the pipeline has realistic work to do."""
    offline = OfflineExtractor()

    def answer(request: LLMRequest) -> Extraction | dict:
        if request.purpose != "extract":
            return {"choice": None}  # disambiguation: "none of these"
        payload = request.messages[-1]["content"]
        message = json.loads(payload[payload.index("{"):payload.rindex("}") + 1])["message"]
        episode = Episode(id="x", group_id="g", content=message["text"], speaker=message["speaker"],
                          reference_time=_ANY_TIME, created_at=_ANY_TIME)
        return offline.extract(episode)

    return answer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--limit", type=int, help="first N turns only (default: all)")
    parser.add_argument("--llm-limit", type=int, default=500, help="turns for the scripted-LLM run")
    args = parser.parse_args(argv)
    messages = load(args.data, args.limit)
    print(f"data: {args.data} ({len(messages)} turns)")

    tracemalloc.start()
    clock = ManualClock(messages[0].timestamp)
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        tg.embedder.encode(["warm up"])  # load the model outside the timed part
        offline = ingest(tg, clock, messages)
    _, peak_py = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("\noffline extractor (the default)")
    print(f"  episodes            {offline['episodes']:>10,}")
    print(f"  wall time           {offline['seconds']:>10.1f} s")
    print(f"  episodes / second   {offline['episodes_per_s']:>10.1f}")
    print(f"  facts added         {offline['facts_added']:>10,}")
    print(f"  entities created    {offline['entities_created']:>10,}")
    print(f"  peak Python heap    {peak_py / 1e6:>10.1f} MB (tracemalloc)")
    print(f"  peak RSS            {rss_mb:>10.1f} MB (whole process, embedding model included)")

    subset = messages[: args.llm_limit]
    llm = ScriptedLLM(scripted_answers())
    clock = ManualClock(subset[0].timestamp)
    with TemporalGraph.open(":memory:", clock=clock, llm=llm) as tg:
        run = ingest(tg, clock, subset)
    usage = llm.usage
    by_purpose = dict(usage.calls_by_purpose)
    print(f"\nLLM extractor, scripted client ({len(subset)} turns; no LLM reachable here)")
    print(f"  LLM calls           {usage.calls:>10,}  {by_purpose}")
    print(f"  calls / episode     {usage.calls / len(subset):>10.2f}  (target 1, at most 2)")
    print(f"  prompt tokens / ep  {usage.prompt_tokens / len(subset):>10.0f}  (approximate: chars / 4)")
    print(f"  episodes / second   {run['episodes_per_s']:>10.1f}  "
          "(pipeline only; a real LLM adds its latency)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
