"""A chat import against the encode floor, in one process: how close the import comes to the model.

    .venv/bin/python benchmarks/import_floor.py [--messages 3000] [--rounds 3] [--minibatch 8]
                                                [--threads 1,2] [--serial] [--data PATH]

The chat is LoCoMo's dev conversations in time order, as ``scale.py`` builds it (one group). Each
round, in this one process (so a busy moment of the shared machine hits both sides alike): the
floor (the model encoding the chat's message texts, ``speaker: text``, in calls of 256), the import
of the chat into a fresh SQLite file, the floor again. "import / floor" is messages per second of
the import over texts per second of the mean floor around it; the median over the rounds is
quoted. The import embeds more than its messages (new facts, new names), so 1.00 is out of reach.

``--minibatch 4,8,64``: texts per model run (``OnnxEmbedder.batch_size``), each value its own rounds,
interleaved; ``--threads 1,2``: onnxruntime's intra-op threads, likewise;
``--switch-interval 5,0.5``: the interpreter's switch interval during the import (ms), likewise.
``--serial``: each round also imports with ``encode_ahead=False`` (the model on the writing thread,
no overlap). The breakdown of the median round says where the CPU went: the writing thread's
extraction, SQLite writes (the rows, their vectors, summaries) and the rest; the model's share is
the process's CPU less the writing thread's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import ingestion.batch as batch_module  # noqa: E402
from temporal_graph import TemporalGraph  # noqa: E402
from temporal_graph.core.embeddings import default_embedder  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo" / "locomo_dev.json"


def chat_turns(data: Path) -> list[tuple[datetime, str, str]]:
    """Every LoCoMo turn (time, speaker, text), in time order (turns 30 s apart in a session)."""
    turns = []
    for sample in json.loads(data.read_text(encoding="utf-8")):
        conv, i = sample["conversation"], 1
        while f"session_{i}" in conv:
            when = datetime.strptime(conv[f"session_{i}_date_time"], "%I:%M %p on %d %B, %Y").replace(
                tzinfo=timezone.utc)
            turns += [(when + timedelta(seconds=30 * k), t["speaker"], t["text"])
                      for k, t in enumerate(conv[f"session_{i}"])]
            i += 1
    return sorted(turns)


def write_chat(turns: list[tuple[datetime, str, str]], n: int, path: Path) -> list[str]:
    """The first ``n`` messages (the dev set replayed later in time past its end) as JSONL; their
    texts as the model sees them."""
    shift = (turns[-1][0] - turns[0][0]) + timedelta(days=30)
    texts = []
    with path.open("w", encoding="utf-8") as out:
        for i in range(n):
            rnd, k = divmod(i, len(turns))
            when, speaker, text = turns[k]
            out.write(json.dumps({"id": f"m{i}", "group": "me", "speaker": speaker,
                                  "timestamp": (when + rnd * shift).isoformat(), "text": text}) + "\n")
            texts.append(f"{speaker}: {text}")
    return texts


class Stages:
    """CPU seconds of the writing (main) thread per import stage, and the model thread's busy time."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = defaultdict(float)
        self.encoder_busy = 0.0
        self._originals: dict[str, Any] = {}

    def wrap(self, name: str, label: str) -> None:
        original = getattr(batch_module, name)
        self._originals[name] = original

        def timed(*args: Any, **kwargs: Any) -> Any:
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                return original(*args, **kwargs)
            finally:
                if threading.current_thread() is threading.main_thread():
                    self.cpu[label] += time.thread_time() - cpu
                else:  # the encoder thread: its wall time busy (the model's threads do the work)
                    self.encoder_busy += time.perf_counter() - wall

        setattr(batch_module, name, timed)

    def restore(self) -> None:
        for name, original in self._originals.items():
            setattr(batch_module, name, original)


def floor(encode: Callable[[list[str]], Any], texts: list[str]) -> float:
    started = time.perf_counter()
    for i in range(0, len(texts), 256):
        encode(texts[i : i + 256])
    return len(texts) / (time.perf_counter() - started)


def one_import(path: Path, db: Path, serial: bool, embedder: Any) -> dict[str, float]:
    stages = Stages()
    for name, label in (("extract", "extraction"), ("_apply_batch", "sqlite write"),
                        ("_prepare", "prepare"), ("encode_texts", "encode")):
        stages.wrap(name, label)
    try:
        with TemporalGraph.open(str(db), embedder=embedder) as tg:
            ingestion = tg._ingest()
            wall, cpu, main_cpu = time.perf_counter(), time.process_time(), time.thread_time()
            report = batch_module.import_file(
                tg.core, path, extractor=ingestion.extractor, resolver=ingestion.resolver(),
                progress=False, encode_ahead=not serial)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            main_cpu = time.thread_time() - main_cpu
    finally:
        stages.restore()
    return {"seconds": wall, "process_cpu": cpu, "main_cpu": main_cpu, "facts": report.facts_added,
            "entities": report.entities_created, "encoder_busy": stages.encoder_busy, **stages.cpu}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--messages", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--minibatch", default="", help="texts per model run, comma-separated "
                        "(default: the embedder's own)")
    parser.add_argument("--serial", action="store_true", help="also import with encode_ahead=False")
    parser.add_argument("--threads", default="", help="onnxruntime intra-op threads, comma-separated: "
                        "each its own rounds (default: onnxruntime's choice)")
    parser.add_argument("--switch-interval", default="", help="sys.setswitchinterval during the import, in "
                        "ms, comma-separated: each its own rounds (default: Python's, 5 ms)")
    args = parser.parse_args(argv)
    embedders = {None: default_embedder()}
    for threads in (int(t) for t in args.threads.split(",") if t):
        from temporal_graph.core.embedders import OnnxEmbedder, onnx_file, packaged_model_path

        embedders[threads] = OnnxEmbedder(onnx_file(packaged_model_path()), packaged_model_path(),
                                          threads=threads)
    if args.threads:
        del embedders[None]
    for embedder in embedders.values():
        embedder.encode(["warm up"])  # the model's load is not the import's
    own = getattr(embedders[next(iter(embedders))], "batch_size", None)
    minibatches = [int(m) for m in args.minibatch.split(",") if m] or [own]
    switches = [float(m) / 1000 for m in args.switch_interval.split(",") if m] or [sys.getswitchinterval()]
    modes = [(f"{mode}{'' if len(switches) == 1 else f' {switch * 1000:g}ms'}", mode == "serial", switch)
             for mode in (["pipelined", "serial"] if args.serial else ["pipelined"]) for switch in switches]
    default_switch = sys.getswitchinterval()
    rows: dict[tuple[int | None, int | None, str], list[dict[str, float]]] = defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="tg-import-floor-") as tmp:
        work = Path(tmp)
        chat = work / "chat.jsonl"
        texts = write_chat(chat_turns(args.data), args.messages, chat)
        k = 0
        for _ in range(args.rounds):
            for threads, embedder in embedders.items():
                for minibatch in minibatches:
                    if minibatch is not None:
                        embedder.batch_size = minibatch
                    for mode, serial, switch in modes:
                        before = floor(embedder.encode, texts)
                        sys.setswitchinterval(switch)
                        try:
                            run = one_import(chat, work / f"import-{k}.db", serial, embedder)
                        finally:
                            sys.setswitchinterval(default_switch)
                        after = floor(embedder.encode, texts)
                        k += 1
                        run["floor"] = (before + after) / 2
                        run["ratio"] = args.messages / run["seconds"] / run["floor"]
                        rows[(threads, minibatch, mode)].append(run)
                        rate = args.messages / run["seconds"]
                        print(f"  round: threads {threads} minibatch {minibatch} {mode}: floor "
                              f"{before:.0f}/{after:.0f} texts/s, import {rate:.0f} msg/s, ratio "
                              f"{run['ratio']:.2f}", flush=True)
    print(f"\n{args.messages} messages, median of {args.rounds} rounds (import / floor in the same round)")
    print(f"{'threads':>7} {'minibatch':>9} {'mode':<15} {'floor t/s':>9} {'import m/s':>10} "
          f"{'import/floor':>12}  rounds")
    for (threads, minibatch, mode), runs in rows.items():
        ratios = [r["ratio"] for r in runs]
        print(f"{threads or 'auto'!s:>7} {minibatch!s:>9} {mode:<15} "
              f"{statistics.median(r['floor'] for r in runs):>9.0f} "
              f"{statistics.median(args.messages / r['seconds'] for r in runs):>10.0f} "
              f"{statistics.median(ratios):>12.2f}  {', '.join(f'{x:.2f}' for x in ratios)}")
    print("\nwhere the CPU went (median round by ratio), seconds:")
    for (threads, minibatch, mode), runs in rows.items():
        r = sorted(runs, key=lambda x: x["ratio"])[len(runs) // 2]
        rest = r["main_cpu"] - r["extraction"] - r["sqlite write"] - r["prepare"]
        model = r["process_cpu"] - r["main_cpu"]
        if mode.startswith("serial"):  # the model runs in the write, partly on this thread: no split
            print(f"  threads {threads or 'auto'} minibatch {minibatch} {mode}: wall {r['seconds']:.1f}; "
                  f"process CPU {r['process_cpu']:.1f}, of it extraction {r['extraction']:.1f}")
            continue
        print(f"  threads {threads or 'auto'} minibatch {minibatch} {mode}: wall {r['seconds']:.1f}; "
              f"process CPU {r['process_cpu']:.1f} = model {model:.1f} (its thread busy "
              f"{r['encoder_busy']:.1f} s of wall) + writing thread "
              f"{r['main_cpu']:.1f} (extraction {r['extraction']:.1f}, SQLite write {r['sqlite write']:.1f}, "
              f"prepare {r['prepare']:.1f}, rest {rest:.1f}); {r['facts']:.0f} facts, {r['entities']:.0f} "
              "entities embedded besides the messages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
