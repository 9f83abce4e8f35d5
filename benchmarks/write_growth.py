"""Does a write slow down as the memory ages? One write timed on keys with N facts of history.

    .venv/bin/python benchmarks/write_growth.py [--sizes 10,100,1000,10000] [--repeats 25]
        [--chat 10000] [--embed] [--no-summaries] [--json]

For each N, in a fresh memory file, history is loaded with the bulk path (``add_facts``), then
p50 and p95 of one ``add_fact`` and of one ``add_episode`` (offline extraction) are measured on:

- ``many_key``: "Ana likes ..." already said of N things ('many' relation); a new thing;
- ``one_key``: "Ana lives in ..." with N versions ('one' relation); a new current version;
- ``entity``: Ana with N facts over 20 relations (10 of each cardinality); a new fact of one of
  them, in turn.

And ``chat``: an import (``import_file``) of a synthetic chat in which one speaker talks about
herself (``--chat`` messages: what she likes, often again; moves, jobs, trips, pets, what she did),
in files of 1,000 messages into one group: msg/s of each 1,000.

Targets (issue 27): at the largest N every p50 within 2x of the smallest N; the last 1,000
messages of the chat within 20% of the first 1,000. Without ``--embed`` only the write path
counts (records are left for ``reindex``); ``--no-summaries`` also leaves out the entity summary
refresh that runs after each write (to see how much of the cost it is). One JSON object with
``--json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from temporal_graph import TemporalGraph  # noqa: E402

T0 = datetime(1990, 1, 1, tzinfo=UTC)  # history starts here, one fact a day: N = 10,000 ends in 2017
DAY = timedelta(days=1)
SYLLABLES = ("ka", "lo", "ri", "ben", "vik", "tor", "mar", "sel", "dun", "fa",
             "go", "ne", "pi", "ru", "sa", "te", "ul", "vo", "ze", "mi")
# Ten relations of each cardinality (default ontology), and how a message says each of them.
ONE = ("LIVES_IN", "WORKS_AT", "WORKS_AS", "STUDIES_AT", "MARRIED_TO", "DATING", "ENGAGED_TO",
       "JOB_TITLE", "RELATIONSHIP_STATUS", "ALLERGIC_TO")
MANY = ("LIKES", "DISLIKES", "LOVES", "HATES", "VISITED", "OWNS", "HAS_PET", "HAS_CHILD", "HAS_PARENT",
        "HAS_SIBLING")
SAYINGS = ("I like {w}.", "I moved to {W}.", "I dislike {w}.", "I work at {W}.", "I visited {W} yesterday.",
           "I have a dog named {W}.", "I own a {w}.")
SCENARIOS = ("many_key", "one_key", "entity")


def word(i: int) -> str:
    """A made-up word, distinct for each ``i`` (names with digits would be cut by extraction)."""
    out, i = "", i + len(SYLLABLES)
    while i:
        i, r = divmod(i, len(SYLLABLES))
        out += SYLLABLES[r]
    return out


def history(scenario: str, n: int) -> list[tuple]:
    if scenario == "many_key":
        return [("Ana", "LIKES", word(i), T0 + i * DAY) for i in range(n)]
    if scenario == "one_key":
        return [("Ana", "LIVES_IN", word(i).capitalize(), T0 + i * DAY) for i in range(n)]
    relations = ONE + MANY
    return [("Ana", relations[i % 20], word(i).capitalize(), T0 + i * DAY) for i in range(n)]


def fact_write(scenario: str, n: int, group_id: str = "default") -> Callable[[TemporalGraph, int], Any]:
    """The j-th timed ``add_fact`` of a scenario: a new object, starting after the history."""
    relations = {"many_key": ("LIKES",), "one_key": ("LIVES_IN",), "entity": ONE + MANY}[scenario]

    def write(tg: TemporalGraph, j: int) -> Any:
        return tg.add_fact("Ana", relations[j % len(relations)], word(10 * n + j).capitalize(),
                           valid_at=T0 + (n + j) * DAY, group_id=group_id)

    return write


def episode_write(scenario: str, n: int, group_id: str = "default") -> Callable[[TemporalGraph, int], Any]:
    """The j-th timed ``add_episode``: Ana saying something new about herself, after the history."""
    sayings = {"many_key": SAYINGS[:1], "one_key": SAYINGS[1:2], "entity": SAYINGS}[scenario]

    def write(tg: TemporalGraph, j: int) -> Any:
        w = word(20 * n + j)
        text = sayings[j % len(sayings)].format(w=w, W=w.capitalize())
        return tg.add_episode(text, reference_time=T0 + (n + 1000 + j) * DAY, speaker="Ana",
                              group_id=group_id)

    return write


def timed(write: Callable[[TemporalGraph, int], Any], tg: TemporalGraph, repeats: int) -> dict[str, float]:
    seconds = []
    for j in range(repeats + 1):  # in time order, as a conversation arrives
        started = time.perf_counter()
        write(tg, j)
        seconds.append(time.perf_counter() - started)
    # The first warms up (first extraction, statement caches). It used to be written first at the
    # latest time, which made every timed write an arrival about the past.
    return percentiles(seconds[1:])


def percentiles(seconds: list[float]) -> dict[str, float]:
    """p50 and p95 of ``seconds``, in milliseconds."""
    cuts = statistics.quantiles(seconds, n=20, method="inclusive")
    return {"p50_ms": round(1000 * statistics.median(seconds), 2), "p95_ms": round(1000 * cuts[18], 2)}


def memory(path: Path, embed: bool, summaries: bool) -> TemporalGraph:
    tg = TemporalGraph.open(path, embed=embed)
    if not summaries:
        tg.core.after_write.clear()  # the entity summary refresh after each write
    return tg


def key_scenarios(sizes: list[int], repeats: int, embed: bool, summaries: bool, workdir: Path) -> dict:
    out: dict[str, dict[str, dict[str, dict[str, float]]]] = {}
    for scenario in SCENARIOS:
        for op, make in (("add_fact", fact_write), ("add_episode", episode_write)):
            out.setdefault(scenario, {})[op] = {}
            for n in sizes:
                tg = memory(workdir / f"{scenario}-{op}-{n}.db", embed, summaries)
                report = tg.add_facts(history(scenario, n), strict=True, embed=False)
                assert report.rows_written == n, report
                if embed:
                    tg.reindex()
                out[scenario][op][str(n)] = timed(make(scenario, n), tg, repeats)
                tg.close()
                print(f"  {scenario} {op} N={n}: {out[scenario][op][str(n)]}", file=sys.stderr)
    return out


def chat_lines(count: int) -> list[dict]:
    """``count`` messages of Ana about herself, one an hour: mostly new likes, a fifth of them
    said again; every 50th a move, every 70th a new job, trips, pets, things she owns."""
    lines = []
    for i in range(count):
        if i % 50 == 49:
            text = f"I moved to {word(100_000 + i).capitalize()}."
        elif i % 70 == 69:
            text = f"I work at {word(200_000 + i).capitalize()}."
        elif i % 5 == 4:
            text = f"I like {word(i // 2)}."  # something she said she liked before
        else:
            w = word(i)
            text = SAYINGS[(0, 0, 0, 2, 4, 5, 6)[i % 7]].format(w=w, W=w.capitalize())
        lines.append({"id": f"m{i}", "speaker": "Ana", "timestamp": (T0 + i * timedelta(hours=1)).isoformat(),
                      "text": text})
    return lines


def chat_import(count: int, embed: bool, summaries: bool, workdir: Path) -> dict:
    tg = memory(workdir / "chat.db", embed, summaries)
    lines = chat_lines(count)
    rates = []
    for block in range(0, count, 1000):
        path = workdir / f"chat-{block}.jsonl"
        path.write_text("".join(json.dumps(m) + "\n" for m in lines[block : block + 1000]), encoding="utf-8")
        started = time.perf_counter()
        report = tg.import_file(path, group_id="chat", progress=False)
        rates.append(round(report.episodes_imported / (time.perf_counter() - started), 1))
        print(f"  chat messages {block}-{block + 999}: {rates[-1]} msg/s", file=sys.stderr)
    facts = len(tg.now("Ana", group_id="chat"))
    tg.close()
    return {"messages": count, "msg_per_s_per_1000": rates, "current_facts_of_ana": facts,
            "last_vs_first": round(rates[-1] / rates[0], 3) if rates else None}


def verdict(keys: dict, chat: dict, sizes: list[int]) -> dict:
    small, large = str(sizes[0]), str(sizes[-1])
    growth = {f"{s}.{op}": round(keys[s][op][large]["p50_ms"] / keys[s][op][small]["p50_ms"], 2)
              for s in keys for op in keys[s]}
    return {"p50_growth": growth, "p50_within_2x": all(g <= 2 for g in growth.values()),
            "chat_last_within_20pct": chat["last_vs_first"] is not None and chat["last_vs_first"] >= 0.8}


def table(result: dict) -> str:
    sizes = result["sizes"]
    columns = "".join(f"{'N=' + str(n):>17}" for n in sizes)
    head = f"{'scenario':10} {'op':12}{columns}{'p50 growth':>12}"
    lines = [f"write cost against history, p50 / p95 ms (embed={result['embed']}, "
             f"summaries={result['summaries']})", head]
    for scenario, ops in result["keys"].items():
        for op, by_size in ops.items():
            cells = "".join(f"{by_size[str(n)]['p50_ms']:>8.1f} /{by_size[str(n)]['p95_ms']:>7.1f}"
                            for n in sizes)
            growth = result["verdict"]["p50_growth"][f"{scenario}.{op}"]
            lines.append(f"{scenario:10} {op:12}{cells}{growth:>11}x")
    chat = result["chat"]
    lines.append(f"chat import, {chat['messages']} messages of one speaker about herself, msg/s per 1,000: "
                 + " ".join(f"{r:.0f}" for r in chat["msg_per_s_per_1000"])
                 + f" (last/first {chat['last_vs_first']})")
    v = result["verdict"]
    lines.append(f"targets: every p50 within 2x: {v['p50_within_2x']}; "
                 f"last 1,000 within 20% of first: {v['chat_last_within_20pct']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100,1000,10000")
    parser.add_argument("--repeats", type=int, default=25)
    parser.add_argument("--chat", type=int, default=10_000, help="messages in the chat import")
    parser.add_argument("--embed", action="store_true", help="embed what each write adds")
    parser.add_argument("--no-summaries", action="store_true", help="leave out the entity summary refresh")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sizes = sorted(int(s) for s in args.sizes.split(","))
    summaries = not args.no_summaries
    with tempfile.TemporaryDirectory(prefix="write-growth-") as tmp:
        keys = key_scenarios(sizes, args.repeats, args.embed, summaries, Path(tmp))
        chat = chat_import(args.chat, args.embed, summaries, Path(tmp))
    result = {"sizes": sizes, "repeats": args.repeats, "embed": args.embed, "summaries": summaries,
              "keys": keys, "chat": chat}
    result["verdict"] = verdict(keys, chat, sizes)
    print(json.dumps(result) if args.json else table(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
