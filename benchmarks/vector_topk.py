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
    .venv/bin/python benchmarks/vector_topk.py --engine --sizes 10000,30000,100000,1000000
    .venv/bin/python benchmarks/vector_topk.py --libraries --sizes 100000

``--engine``: the embedded store's own index (``VectorIndex``): the exact matrix product against
its approximate path (usearch HNSW, int8, then an exact re-rank of its candidates), with build
seconds, p50 / p95, recall@10, and the saved files' mapping time in a fresh load: where the
crossover lies. ``--libraries``: the candidates for that graph (usearch float32 and int8, hnswlib,
voyager, faiss HNSW) on the same vectors at one degree (16) and three search widths, each followed
by the same exact re-rank; save and load seconds, file size, and whether it can remove a vector.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the engine's own index (--engine)

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


def engine(n: int, queries: int) -> dict:
    """The store's VectorIndex: exact against approximate + re-rank, and a reload from its files."""
    import os
    import tempfile

    from temporal_graph.core.stores import vector_file
    from temporal_graph.core.stores.vector_index import VectorIndex

    data = clustered(n, seed=n)
    qs = clustered(queries, seed=7)
    ids = [f"r{i}" for i in range(n)]
    index = VectorIndex.from_arrays(ids, data)
    os.environ["TGRAPH_APPROXIMATE_FROM"] = "0"
    t = time.perf_counter()
    index.approximate()
    build = time.perf_counter() - t

    def percentiles(exact: bool) -> tuple[float, float, list]:
        times, found = [], []
        for q in qs:
            t = time.perf_counter()
            found.append({i for i, _ in index.search(q, K, exact=exact)})
            times.append((time.perf_counter() - t) * 1000)
        return statistics.median(times), sorted(times)[int(0.95 * len(times)) - 1], found

    exact_p50, exact_p95, truth = percentiles(True)
    approx_p50, approx_p95, found = percentiles(False)
    with tempfile.TemporaryDirectory() as folder:
        db = f"{folder}/m.db"
        t = time.perf_counter()
        vector_file.write(db, "g", "episode", "mark", index)
        save = time.perf_counter() - t
        t = time.perf_counter()
        saved = vector_file.read(db, "g", "episode")
        load = time.perf_counter() - t
        assert saved is not None and saved[1].graph is not None
        t = time.perf_counter()
        saved[1].search(qs[0], K)
        first = time.perf_counter() - t
    del os.environ["TGRAPH_APPROXIMATE_FROM"]
    return {"n": n, "build_s": round(build, 1), "exact_p50_ms": round(exact_p50, 2),
            "exact_p95_ms": round(exact_p95, 2), "approx_p50_ms": round(approx_p50, 2),
            "approx_p95_ms": round(approx_p95, 2),
            "recall_at_10": round(statistics.mean(len(f & t) / K
                                                  for f, t in zip(found, truth, strict=True)), 3),
            "save_s": round(save, 2), "load_s": round(load, 3), "first_search_ms": round(first * 1000, 1)}


def libraries(n: int, queries: int) -> list[str]:
    """One line per candidate library: build, then per search width its ms and recall@10 after the
    exact re-rank, then save / load seconds and file size."""
    import os
    import tempfile

    data = clustered(n, seed=n)
    qs = clustered(queries, seed=7)
    truth = [set(map(int, exact_topk(data, q, K))) for q in qs]
    widths = (64, 128, 256, 512)
    folder = tempfile.mkdtemp()
    lines = []

    def rerank(candidates, q):
        c = np.asarray(candidates, dtype=np.int64)
        c = c[c >= 0]
        return c[np.argsort(-(data[c] @ q))][:K]

    def one(name, build, search, save, load, removes):
        t = time.perf_counter()
        index = build()
        cells = [f"{name:12} build {time.perf_counter() - t:6.1f} s"]
        for width in widths:
            times, found = [], []
            for q in qs:
                t = time.perf_counter()
                found.append(rerank(search(index, q, width), q))
                times.append((time.perf_counter() - t) * 1000)
            cells.append(f"{width}: {statistics.median(times):.2f} ms {recall(found, truth):.3f}")
        path = os.path.join(folder, name)
        t = time.perf_counter()
        save(index, path)
        saved = time.perf_counter() - t
        t = time.perf_counter()
        load(path)
        cells.append(f"save {saved:.2f} s, load {time.perf_counter() - t:.3f} s, "
                     f"{os.path.getsize(path) / 1e6:.0f} MB, removes: {removes}")
        lines.append(" | ".join(cells))

    try:
        from usearch.index import Index

        for dtype in ("f32", "i8"):
            def ubuild(dtype=dtype):
                index = Index(ndim=DIM, metric="cos", dtype=dtype, connectivity=16, expansion_add=128)
                index.add(np.arange(n), data, threads=os.cpu_count() or 1)
                return index

            def usearch_(index, q, width):
                index.expansion_search = width
                return index.search(q, width).keys

            one(f"usearch-{dtype}", ubuild, usearch_, lambda i, p: i.save(p),
                lambda p: Index.restore(p, view=True), "yes")
    except ImportError:
        lines.append("usearch: not installed")
    try:
        import hnswlib

        def hbuild():
            index = hnswlib.Index(space="ip", dim=DIM)
            index.init_index(max_elements=n, ef_construction=128, M=16, allow_replace_deleted=True)
            index.set_num_threads(os.cpu_count() or 1)
            index.add_items(data, np.arange(n))
            return index

        def hsearch(index, q, width):
            index.set_ef(width)
            return index.knn_query(q, k=width)[0][0]

        def hload(p):
            index = hnswlib.Index(space="ip", dim=DIM)
            index.load_index(p)
            return index

        one("hnswlib", hbuild, hsearch, lambda i, p: i.save_index(p), hload, "mark only")
    except ImportError:
        lines.append("hnswlib: not installed")
    try:
        import voyager

        def vbuild():
            index = voyager.Index(voyager.Space.InnerProduct, num_dimensions=DIM, M=16, ef_construction=128)
            index.add_items(data, ids=np.arange(n), num_threads=os.cpu_count() or 1)
            return index

        one("voyager", vbuild, lambda i, q, w: i.query(q, k=w, query_ef=w)[0], lambda i, p: i.save(p),
            voyager.Index.load, "mark only")
    except ImportError:
        lines.append("voyager: not installed")
    try:
        import faiss

        def fbuild():
            index = faiss.IndexHNSWFlat(DIM, 16, faiss.METRIC_INNER_PRODUCT)
            index.hnsw.efConstruction = 128
            index.add(data)
            return index

        def fsearch(index, q, width):
            index.hnsw.efSearch = width
            return index.search(q[None, :], width)[1][0]

        one("faiss-hnsw", fbuild, fsearch, faiss.write_index, lambda p: faiss.read_index(p), "no")
    except ImportError:
        lines.append("faiss: not installed")
    return lines


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
    parser.add_argument("--engine", action="store_true", help="the store's own exact vs approximate path")
    parser.add_argument("--libraries", action="store_true", help="the HNSW libraries compared")
    args = parser.parse_args()
    if args.libraries:
        for s in args.sizes.split(","):
            print(f"{int(s):,} vectors (search width: p50 ms, recall@10 after the exact re-rank):")
            print("\n".join(libraries(int(s), args.queries)), flush=True)
        return
    if args.engine:
        print(f"{'vectors':>10} | {'build s':>7} | {'exact p50/p95 ms':>16} | {'approx p50/p95 ms':>17} | "
              f"{'recall@10':>9} | {'save s':>6} | {'load s':>6} | {'1st search ms':>13}")
        for s in args.sizes.split(","):
            r = engine(int(s), args.queries)
            print(f"{r['n']:>10,} | {r['build_s']:>7} | {r['exact_p50_ms']:>7}/{r['exact_p95_ms']:<8} | "
                  f"{r['approx_p50_ms']:>8}/{r['approx_p95_ms']:<8} | {r['recall_at_10']:>9} | "
                  f"{r['save_s']:>6} | {r['load_s']:>6} | {r['first_search_ms']:>13}", flush=True)
        return
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
