"""Records are embedded when written, so reads encode only their query (and the sentences stating a
value they compare by meaning, never a stored record); reindex covers the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.meant_revisions import value_sentences

pytestmark = pytest.mark.slow  # loads the embedding model
SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "sample_chat.jsonl"


class CountingEmbedder:
    """The real model, counting how many texts each call encodes."""

    def __init__(self, real) -> None:
        self.real, self.calls, self.texts = real, [], []
        self.dimensions = real.dimensions
        self.tokenizer = real.tokenizer  # context counts tokens with it

    def encode(self, texts):
        self.calls.append(len(texts))
        self.texts += texts
        return self.real.encode(texts)


def test_a_search_right_after_an_import_embeds_nothing_stored(tmp_path) -> None:
    from temporal_graph.core.embeddings import default_embedder

    counting = CountingEmbedder(default_embedder())
    with TemporalGraph.open(tmp_path / "m.db", embedder=counting) as tg:
        report = tg.import_file(SAMPLE, progress=False)
        imported = sum(counting.calls)
        assert imported >= report.episodes_imported  # every message was embedded by the import
        counting.calls.clear()
        counting.texts.clear()
        questions = {"where does Zhang Wei live?", "what does he do for work?"}
        hits = tg.search("where does Zhang Wei live?", group_id="demo")
        tg.context("what does he do for work?", group_id="demo")
        stated = {s for e in tg.core.store.episodes("demo") for s in value_sentences(e.content)}
        assert questions <= set(counting.texts) <= questions | stated  # no stored record again
        assert any(r.startswith("embedding") for h in hits for r in h.reasons)
    with TemporalGraph.open(tmp_path / "m.db", embedder=counting) as again:  # a restart re-embeds nothing
        counting.calls.clear()
        again.search("badminton", group_id="demo")
        assert counting.calls == [1]


def test_reindex_makes_an_unembedded_import_searchable_and_is_idempotent(tmp_path) -> None:
    with TemporalGraph.open(tmp_path / "m.db") as tg:
        report = tg.import_file(SAMPLE, progress=False, embed=False)
        probe = tg.embedder.encode(["Zhang Wei: I live in Hangzhou."])[0]  # an episode's text
        assert tg.core.store.vector_search("demo", "episode", probe, 5) == []
        embedded = tg.reindex()
        assert embedded >= report.episodes_imported + report.entities_created
        assert tg.core.store.vector_search("demo", "episode", probe, 1)[0][1] > 0.99
        assert tg.reindex() == 0
        hits = tg.search("Which city is home?", group_id="demo", kinds=("episode",))
        assert any(r.startswith("embedding") for h in hits for r in h.reasons)


class HashEmbedder:
    """Fast stand-in vectors (one per text, deterministic), noting which threads encode."""

    dimensions = 16

    def __init__(self, real) -> None:
        self.tokenizer = real.tokenizer
        self.threads: set[str] = set()

    def encode(self, texts):
        import hashlib
        import threading

        self.threads.add(threading.current_thread().name)
        out = []
        for text in texts:
            digest = hashlib.sha256(text.encode()).digest()[: self.dimensions]
            out.append([b - 127.5 for b in digest])
        return out


def test_an_import_encoding_ahead_stores_each_record_with_its_own_vector(tmp_path) -> None:
    """Batches are encoded in a thread while the previous one is written, new names included, so
    the writing thread never waits for the model: every record still gets the vector of its own
    text, in the write that adds it (nothing is left for reindex)."""
    from ingestion.ingest import Ingestion
    from temporal_graph.core.embeddings import default_embedder, embedding_changes, item_text
    from temporal_graph.core.stores.protocol import FactQuery

    embedder = HashEmbedder(default_embedder())
    with TemporalGraph.open(tmp_path / "m.db", embedder=embedder) as tg:
        report = Ingestion(tg.core).import_file(SAMPLE, progress=False, batch_size=2)
        assert report.episodes_imported > 4 and report.facts_added > 0
        assert embedder.threads and "MainThread" not in embedder.threads  # all encoded ahead, off the writer
        assert tg.reindex() == 0
        store = tg.core.store
        records = [("episode", e) for e in store.episodes("demo")]
        records += [("entity", e) for e in store.entities("demo")]
        records += [("fact", f) for f in store.facts(FactQuery("demo")) if f.expired_at is None]
        assert len(records) > 10
        for kind, record in records:
            changes = embedding_changes(embedder, [record])  # (a message: with its sentences')
            vector = {**changes.fact_embeddings, **changes.entity_embeddings,
                      **changes.episode_embeddings}[record.id]
            same = [i for i, score in store.vector_search("demo", kind, vector, 5) if score > 0.999]
            assert record.id in same, (kind, item_text(record))  # (records of one text share a vector)
