"""Records are embedded when written, so reads encode only their query; reindex covers the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from temporal_graph import TemporalGraph

pytestmark = pytest.mark.slow  # loads the embedding model
SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "sample_chat.jsonl"


class CountingEmbedder:
    """The real model, counting how many texts each call encodes."""

    def __init__(self, real) -> None:
        self.real, self.calls = real, []
        self.dimensions = real.dimensions
        self.tokenizer = real.tokenizer  # context counts tokens with it

    def encode(self, texts):
        self.calls.append(len(texts))
        return self.real.encode(texts)


def test_a_search_right_after_an_import_embeds_nothing_stored(tmp_path) -> None:
    from temporal_graph.core.embeddings import default_embedder

    counting = CountingEmbedder(default_embedder())
    with TemporalGraph.open(tmp_path / "m.db", embedder=counting) as tg:
        report = tg.import_file(SAMPLE, progress=False)
        imported = sum(counting.calls)
        assert imported >= report.episodes_imported  # every message was embedded by the import
        counting.calls.clear()
        hits = tg.search("where does Zhang Wei live?", group_id="demo")
        tg.context("what does he do for work?", group_id="demo")
        assert counting.calls == [1, 1]  # the two queries, nothing else
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
