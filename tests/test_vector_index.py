"""A vector index read from a file keeps its ids in a mapped array and takes its first writes
without decoding them all: it must answer exactly as an index that decoded them, before and after
it does, and save the same ids and rows."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from temporal_graph.core.stores import vector_index
from temporal_graph.core.stores.vector_index import VectorIndex

DIMS = 8
# Besides plain ids: ones wider than the array ("r12345" cut to its width would be "r1234") and one
# ending in NUL (numpy's bytes would drop it and read "tail").
_IDS = [f"r{i}" for i in range(12)] + ["é-ü", "r1234", "r12345", "tail", "tail\x00", "r1234567", "r12345678"]

_WRITES = st.lists(st.one_of(
    st.tuples(st.just("add"), st.lists(st.tuples(st.sampled_from(_IDS), st.integers(0, 10**6)), max_size=4)),
    st.tuples(st.just("remove"), st.lists(st.sampled_from(_IDS), max_size=4)),
), max_size=24)


def _vector(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(DIMS).astype(np.float32)


def _saved(ids: list[str | None], spare: int) -> VectorIndex:
    """An index as a file gives it: ids as a bytes array (b"": a free slot), spare zero rows."""
    matrix = np.zeros((len(ids) + spare, DIMS), dtype=np.float32)
    for slot, item_id in enumerate(ids):
        if item_id is not None:
            v = _vector(slot)
            matrix[slot] = v / np.linalg.norm(v)
    array = np.array([(i or "").encode("utf-8") for i in ids], dtype=bytes)
    return VectorIndex.from_arrays(array, matrix)


def _answers(index: VectorIndex) -> dict[str, float]:
    """Every record with its score (the limit is past their number; by id, since equal vectors tie
    in an order the float sums of different slots decide)."""
    return dict(index.search(_vector(99), 20, exact=True))


def _same_answers(a: dict[str, float], b: dict[str, float]) -> bool:
    """The same records with the same scores, up to the float sums' order (rounding both to 5
    places once split -0.495125 into -0.49513 and -0.49512)."""
    return a.keys() == b.keys() and all(abs(a[i] - b[i]) < 1e-5 for i in a)


@settings(max_examples=150, deadline=None)
@given(writes=_WRITES, spare=st.sampled_from([0, 2, 64]), free_slot=st.booleans(), width_8=st.booleans())
def test_writes_on_mapped_ids_answer_as_on_decoded_ones(writes, spare, free_slot, width_8) -> None:
    start: list[str | None] = ["r0", "r1", None if free_slot else "r2", "r3", "é-ü", "r1234", "tail"]
    if width_8:  # ids 8 bytes wide: compared as integers first
        start.append("r1234567")
    mapped, decoded = _saved(start, spare), _saved(start, spare)
    assert "r0" in decoded  # a look-up by id decodes them all: the reference
    for kind, arguments in writes:
        for index in (mapped, decoded):
            if kind == "add":
                index.add((item_id, _vector(seed)) for item_id, seed in arguments)
            else:
                index.remove(arguments)
        assert len(mapped) == len(decoded)
        assert _same_answers(_answers(mapped), _answers(decoded))
    ids, rows = mapped.arrays()
    expected_ids, expected_rows = decoded.arrays()
    assert dict(zip(ids, map(tuple, rows), strict=True)) == dict(zip(expected_ids, map(tuple, expected_rows),
                                                                     strict=True))
    assert all((item_id in mapped) == (item_id in decoded) for item_id in _IDS)


def test_a_mapped_index_decodes_its_ids_only_after_a_few_writes(monkeypatch) -> None:
    index = _saved([f"r{i}" for i in range(10)], spare=64)
    monkeypatch.setattr(vector_index, "WRITES_ON_MAPPED_IDS", 3)
    index.remove(["r1"])
    index.add([("r1", _vector(5)), ("new", _vector(1006))])
    index.add([("r2", _vector(7))])
    assert index._ids is None  # three writes: still the mapped array, with what they changed over it
    assert [i for i, _ in index.search(_vector(1006), 1)] == ["new"]
    index.remove(["r3"])
    assert index._ids is not None
    assert sorted(index.arrays()[0]) == sorted(["r0", "r1", "r2", "new"] + [f"r{i}" for i in range(4, 10)])
