"""Vector top-k: exact search over an in-memory matrix vs approximate indexes (HNSW), by size.

Which index should the embedded store use for "the k stored vectors most similar to the query"?
For each size this measures, in one process and on the same vectors and queries:

- ``exact``: one float32 matrix product plus ``argpartition`` (what the embedded store does);
- ``hnswlib`` and ``usearch``: HNSW graphs (build seconds, query ms, recall@10 against exact);
- ``sqlite-vec``: the brute-force ``vec0`` virtual table inside SQLite.

Vectors are 384-dimensional with a low intrinsic dimension and topical clusters, which is closer
to sentence embeddings than uniform noise (on which no index has good recall). The approximate
libraries are optional: a missing one is reported as such. Run:

    .venv/bin/python benchmarks/vector_topk.py                      # 10k and 100k
    .venv/bin/python benchmarks/vector_topk.py --sizes 1000000      # 1M (builds take minutes)
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import time

import numpy as np

DIM = 384
LATENT = 32
K = 10


def clustered(n: int, seed: int) -> np.ndarray:
    """Points of a low intrinsic dimension (sentence embeddings have one), in topical clusters,
    lifted into 384 dimensions by one fixed random map, plus a little noise; unit length."""
    lift = np.random.default_rng(0).standard_normal((LATENT, DIM)).astype(np.float32)
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((256, LATENT)).astype(np.float32)
    out = np.empty((n, DIM), dtype=np.float32)
    for start in range(0, n, 100_000):
        stop = min(n, start + 100_000)
        pick = rng.integers(0, len(centres), stop - start)
        latent = centres[pick] + 0.5 * rng.standard_normal((stop - start, LATENT)).astype(np.float32)
        out[start:stop] = latent @ lift + 0.05 * rng.standard_normal((stop - start, DIM)).astype(np.float32)
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return out


def exact_topk(matrix: np.ndarray, q: np.ndarray, k: int) -> np.ndarray:
    scores = matrix @ q
    best = np.argpartition(-scores, k)[:k]
    return best[np.argsort(-scores[best])]


def timed(fn, queries: np.ndarray) -> tuple[float, list]:
    times, results = [], []
    for q in queries:
        t = time.perf_counter()
        results.append(fn(q))
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), results


def recall(found: list, truth: list) -> float:
    # one result list per query on both sides
    return statistics.mean(len(set(map(int, f)) & set(map(int, t))) / K
                           for f, t in zip(found, truth, strict=True))


def run(n: int, queries: int) -> dict:
    data = clustered(n, seed=n)
    qs = clustered(queries, seed=7)
    row: dict = {"n": n}
    row["exact_ms"], truth = timed(lambda q: exact_topk(data, q, K), qs)

    try:
        import hnswlib

        t = time.perf_counter()
        index = hnswlib.Index(space="ip", dim=DIM)
        index.init_index(max_elements=n, ef_construction=100, M=16)
        index.add_items(data, np.arange(n))
        index.set_ef(64)
        row["hnswlib_build_s"] = time.perf_counter() - t
        row["hnswlib_ms"], found = timed(lambda q: index.knn_query(q, k=K)[0][0], qs)
        row["hnswlib_recall"] = recall(found, truth)
    except ImportError:
        row["hnswlib"] = "not installed"

    try:
        from usearch.index import Index

        t = time.perf_counter()
        uindex = Index(ndim=DIM, metric="ip", dtype="f32", connectivity=16, expansion_add=100,
                       expansion_search=64)
        uindex.add(np.arange(n), data)
        row["usearch_build_s"] = time.perf_counter() - t
        row["usearch_ms"], found = timed(lambda q: uindex.search(q, K).keys, qs)
        row["usearch_recall"] = recall(found, truth)
    except ImportError:
        row["usearch"] = "not installed"

    try:
        import sqlite_vec

        db = sqlite3.connect(":memory:")
        db.enable_load_extension(True)
        sqlite_vec.load(db)
        t = time.perf_counter()
        db.execute(f"CREATE VIRTUAL TABLE v USING vec0(embedding float[{DIM}] distance_metric=cosine)")
        db.executemany("INSERT INTO v(rowid, embedding) VALUES (?, ?)",
                       ((i, data[i].tobytes()) for i in range(n)))
        row["sqlite_vec_load_s"] = time.perf_counter() - t
        sql = "SELECT rowid FROM v WHERE embedding MATCH ? AND k = ?"
        row["sqlite_vec_ms"], found = timed(lambda q: [r[0] for r in db.execute(sql, (q.tobytes(), K))], qs)
        row["sqlite_vec_recall"] = recall(found, truth)
        db.close()
    except (ImportError, AttributeError, sqlite3.OperationalError) as exc:
        row["sqlite_vec"] = f"unavailable ({exc})"
    return row


def _cell(row: dict, name: str) -> str:
    """One approximate index's "build s / ms / recall" for the table."""
    if f"{name}_ms" not in row:
        return "n/a"
    return f"{row[f'{name}_build_s']:.1f} / {row[f'{name}_ms']:.3f} / {row[f'{name}_recall']:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [run(int(s), args.queries) for s in args.sizes.split(",")]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'vectors':>10} | {'exact ms':>8} | {'hnswlib build s / ms / recall':>30} | "
          f"{'usearch build s / ms / recall':>30} | {'sqlite-vec ms / recall':>22}")
    for r in rows:
        vec = f"{r['sqlite_vec_ms']:.2f} / {r['sqlite_vec_recall']:.3f}" if "sqlite_vec_ms" in r else "n/a"
        print(f"{r['n']:>10,} | {r['exact_ms']:>8.3f} | {_cell(r, 'hnswlib'):>30} | "
              f"{_cell(r, 'usearch'):>30} | {vec:>22}")


if __name__ == "__main__":
    main()
