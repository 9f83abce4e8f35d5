"""An import that encodes ahead (the model on its own thread, a batch ahead of the writes) leaves
the same memory as the serial one (each batch encoded on the writing thread just before its
write): the same episodes, entities, fact versions with their valid and transaction times,
provenance and summaries, and a vector for every row, the same vector up to the model's rounding."""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from ingestion.batch import import_file
from temporal_graph import TemporalGraph
from temporal_graph.core.time import ManualClock

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_CHAT = ROOT / "examples" / "sample_chat.jsonl"
LOCOMO = ROOT.parent / "shared" / "data" / "locomo" / "locomo_dev.json"


def imported(tmp_path: Path, chat: Path, name: str, *, encode_ahead: bool, replay: bool,
             batch_size: int) -> Path:
    db = tmp_path / f"{name}.db"
    with TemporalGraph.open(db, clock=ManualClock("2026-06-01T12:00:00+00:00")) as tg:
        ingestion = tg._ingest()
        report = import_file(tg.core, chat, extractor=ingestion.extractor, resolver=ingestion.resolver(),
                             progress=False, replay=replay, batch_size=batch_size,
                             encode_ahead=encode_ahead)
        assert report.errors == [] and report.episodes_imported > 0
    return db


def memory(db: Path) -> tuple[dict, dict[str, np.ndarray]]:
    """Every row that matters, without the random ids of fact rows (facts are named by their
    entities' stable ids, a version chain by its rows), and every vector by what it stands for."""
    conn = sqlite3.connect(db)
    rows: dict = {}
    vectors: dict[str, np.ndarray] = {}

    def vector(key: str, blob: bytes | None) -> None:
        assert blob is not None, f"no vector for {key}"
        vectors[key] = np.frombuffer(blob, dtype=np.float32)

    episodes = conn.execute("SELECT id, group_id, speaker, content, source, source_id, reference_time, "
                            "created_at, embedding FROM episodes ORDER BY id").fetchall()
    rows["episodes"] = [r[:-1] for r in episodes]
    for r in episodes:
        vector(f"episode {r[0]}", r[-1])
    entities = conn.execute("SELECT id, group_id, name, type, aliases, summary, created_at, embedding "
                            "FROM entities ORDER BY id").fetchall()
    rows["entities"] = [r[:-1] for r in entities]
    for r in entities:
        vector(f"entity {r[0]}", r[-1])
    provenance = defaultdict(list)
    for fact_row, seq, episode in conn.execute("SELECT fact_row, seq, episode_id FROM fact_episodes"):
        provenance[fact_row].append((seq, episode))
    chains = defaultdict(list)
    for (row_id, fact_id, *fields, blob) in conn.execute(
            "SELECT id, fact_id, group_id, subject_id, relation, object_id, text, valid_at, invalid_at, "
            "created_at, expired_at, confidence, attributes, embedding FROM facts"):
        row = (*fields, tuple(sorted(provenance[row_id])))
        chains[fact_id].append(row)
        if fields[8] is None:  # current rows are embedded (ended versions keep theirs or none)
            vector(f"fact {row}", blob)
    rows["fact versions"] = sorted(tuple(sorted(chain, key=repr)) for chain in chains.values())
    rows["summaries"] = sorted(conn.execute(
        "SELECT group_id, entity_id, entity, text, method, created_at, expired_at FROM summaries").fetchall(),
        key=repr)
    conn.close()
    return rows, vectors


def same_memory(a: Path, b: Path) -> None:
    rows_a, vectors_a = memory(a)
    rows_b, vectors_b = memory(b)
    for table in rows_a:
        assert rows_a[table] == rows_b[table], table
    assert vectors_a.keys() == vectors_b.keys()
    worst = min(float(vectors_a[k] @ vectors_b[k]) for k in vectors_a)
    assert worst > 0.9999, worst  # batch composition moves the last bits only


def test_the_sample_chat_encoded_ahead_is_the_serial_import(tmp_path) -> None:
    # small batches, so the sample chat spans many of them and the pipeline has something to overlap
    ahead = imported(tmp_path, SAMPLE_CHAT, "ahead", encode_ahead=True, replay=False, batch_size=7)
    serial = imported(tmp_path, SAMPLE_CHAT, "serial", encode_ahead=False, replay=False, batch_size=7)
    same_memory(ahead, serial)


@pytest.mark.skipif(not LOCOMO.exists(), reason="LoCoMo data not present")
def test_a_locomo_conversation_replayed_encoded_ahead_is_the_serial_import(tmp_path) -> None:
    chat = tmp_path / "conv.json"
    chat.write_text(json.dumps([json.loads(LOCOMO.read_text())[0]]))
    ahead = imported(tmp_path, chat, "ahead", encode_ahead=True, replay=True, batch_size=64)
    serial = imported(tmp_path, chat, "serial", encode_ahead=False, replay=True, batch_size=64)
    same_memory(ahead, serial)
