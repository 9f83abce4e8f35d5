"""Which runtime runs the embedding model: load time, throughput and agreement with torch.

    python benchmarks/embedding_runtime.py [--texts 2000] [--repeats 3] [--json]

Each variant runs in a fresh process: ``load s`` is the wall time from the process start to the
first vector (importing the runtime and loading the model included; also in CPU seconds), then
``--texts`` LoCoMo messages are encoded in one call (the embedder sorts them by length into
batches of 64), best of ``--repeats``: ``texts/s`` by the wall clock and ``texts/CPU-s`` by the
process's CPU time (a busy shared machine distorts the second much less). ``min cos`` is the
lowest cosine of a variant's vectors against torch's (sentence-transformers), over all texts.

Variants: torch (sentence-transformers); onnx (onnxruntime on the checked export, the default);
onnx with 1 and with 2 intra-op threads; onnx-int8 (dynamic int8 quantisation of the export).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo" / "locomo_dev.json"
VARIANTS = ("torch", "onnx", "onnx-1-thread", "onnx-2-threads", "onnx-int8")

_WORKER = r"""
import time
started = time.perf_counter()
import json, sys
variant, texts_file, out, repeats, int8 = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
from temporal_graph.core.embedders import (OnnxEmbedder, SentenceTransformerEmbedder, onnx_file,
                                           packaged_model_path)
model = packaged_model_path()
if variant == "torch":
    embedder = SentenceTransformerEmbedder(model)
else:
    threads = {"onnx-1-thread": 1, "onnx-2-threads": 2}.get(variant)
    embedder = OnnxEmbedder(int8 if variant == "onnx-int8" else onnx_file(model), model, threads=threads)
embedder.encode(["warm up"])
load_s, load_cpu_s = time.perf_counter() - started, time.process_time()
texts = json.load(open(texts_file, encoding="utf-8"))
best_wall = best_cpu = float("inf")
for _ in range(repeats):
    wall, cpu = time.perf_counter(), time.process_time()
    vectors = embedder.encode(texts)
    best_wall = min(best_wall, time.perf_counter() - wall)
    best_cpu = min(best_cpu, time.process_time() - cpu)
import numpy as np
np.save(out, np.asarray(vectors, dtype=np.float32))
print(json.dumps({"load_s": round(load_s, 2), "load_cpu_s": round(load_cpu_s, 2),
                  "texts_per_s": round(len(texts) / best_wall, 1),
                  "texts_per_cpu_s": round(len(texts) / best_cpu, 1)}))
"""


def locomo_texts(path: Path, count: int) -> list[str]:
    texts = []
    for sample in json.loads(path.read_text(encoding="utf-8")):
        conversation, i = sample["conversation"], 1
        while f"session_{i}" in conversation:
            texts += [f"{turn['speaker']}: {turn['text']}" for turn in conversation[f"session_{i}"]]
            i += 1
    return texts[:count]


def quantised(workdir: Path) -> Path:
    """The export with int8 weights (onnxruntime's dynamic quantisation)."""
    sys.path.insert(0, str(ROOT))
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from temporal_graph.core.embedders import onnx_file, packaged_model_path

    target = workdir / "int8.onnx"
    quantize_dynamic(str(onnx_file(packaged_model_path())), str(target), weight_type=QuantType.QInt8)
    return target


def run(variant: str, texts_file: Path, workdir: Path, repeats: int, int8: Path) -> tuple[dict, np.ndarray]:
    out = workdir / f"{variant}.npy"
    done = subprocess.run([sys.executable, "-c", _WORKER, variant, str(texts_file), str(out), str(repeats),
                           str(int8)], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
                               "PATH": "/usr/bin:/bin"})
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1]), np.load(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--texts", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    variants = [v for v in args.variants.split(",") if v]
    with tempfile.TemporaryDirectory(prefix="tg-runtime-") as name:
        workdir = Path(name)
        texts_file = workdir / "texts.json"
        texts_file.write_text(json.dumps(locomo_texts(args.data, args.texts)), encoding="utf-8")
        int8 = quantised(workdir) if "onnx-int8" in variants else workdir / "none"
        rows, vectors = {}, {}
        for variant in ["torch", *(v for v in variants if v != "torch")]:  # torch first: the reference
            rows[variant], vectors[variant] = run(variant, texts_file, workdir, args.repeats, int8)
            reference, mine = vectors["torch"], vectors[variant]
            rows[variant]["min_cos"] = round(float((reference * mine).sum(1).min()), 7)  # unit vectors
            if not args.json:
                row = rows[variant]
                print(f"{variant:>15}: load {row['load_s']:.2f} s ({row['load_cpu_s']:.2f} CPU-s) | "
                      f"{row['texts_per_s']:.0f} texts/s | "
                      f"{row['texts_per_cpu_s']:.0f} texts/CPU-s | min cos {row['min_cos']:.7f}", flush=True)
    if args.json:
        print(json.dumps({"texts": args.texts, "variants": rows}, indent=2))


if __name__ == "__main__":
    main()
