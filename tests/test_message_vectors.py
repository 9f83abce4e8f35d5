"""The vector that stands for a message: its sentences' vectors, summed, so that a value told in
passing, inside a request about something else, is found by a question about it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.embeddings import item_text, passages, pooled
from temporal_graph.core.model import Episode
from temporal_graph.times import ManualClock

T0 = datetime(2026, 1, 5, 9, tzinfo=UTC)


def _episode(content: str, speaker: str | None = "Ines") -> Episode:
    return Episode(id="e1", group_id="g", content=content, speaker=speaker, reference_time=T0, created_at=T0)


def test_a_message_of_several_sentences_is_embedded_by_each_of_them() -> None:
    told = _episode("Small update - Biscuit sees Dr Achebe now. Thanks! Can you help me plan dinners?")
    assert passages(told) == ("Ines: Biscuit sees Dr Achebe now.", "Ines: Can you help me plan dinners?")
    assert passages(_episode("Biscuit sees Dr Achebe now.")) == ()  # one sentence: its text alone
    assert passages(_episode("Sure. Thanks a lot!")) == ()  # nothing of three words or more twice
    assert passages(_episode("Line one is here\nline two is here", speaker=None)) == (
        "Line one is here", "line two is here")


def test_pooled_is_the_unit_sum_of_unit_vectors() -> None:
    assert pooled([[3.0, 0.0], [0.0, 2.0]]) == pytest.approx([2**-0.5, 2**-0.5])
    assert np.linalg.norm(pooled([[1.0, 2.0, 3.0], [0.5, 0.1, 0.0], [0.0, 0.0, 9.0]])) == pytest.approx(1.0)


MESSAGES = [
    ("Ines", "Our dog Biscuit goes to Dr Marsh at Elm Street Vets for his checkups."),
    ("Ines", "Can you suggest a stretching routine for after long runs? My calves get really tight."),
    ("assistant", "Try slow calf raises, a wall stretch held for thirty seconds, and foam rolling."),
    ("Ines", "Biscuit chewed through another lead this morning. Any tips for a stronger one?"),
    ("Ines", "What should I pack for a weekend of hiking in the Lake District in October?"),
    ("Ines", "Biscuit keeps scratching his ears lately. Is that something to worry about?"),
    ("assistant", "Frequent ear scratching in dogs can mean mites or an infection; a vet can check."),
    ("Ines", "Can you recommend a sourdough method that works in a cold kitchen?"),
    ("Ines", "My manager wants the quarterly report by Friday. Help me outline it."),
    ("Ines", "Which dog food brands are good for a spaniel with a sensitive stomach?"),
    ("Ines", "We adopted Biscuit from a shelter in Leeds three years ago."),
    ("Ines", "Is it safe to give a dog cooked chicken bones? My neighbour says yes."),
    ("Ines", "Small update - Biscuit is with Dr Achebe at the Harbour clinic since Elm Street closed. "
             "Anyway, can you help me plan a week of high-protein dinners for marathon training? "
             "I need five recipes and a shopping list, and I cook for two."),
]


@pytest.mark.slow  # the embedding model
def test_a_value_told_in_passing_inside_a_request_comes_back_for_a_question_about_it() -> None:
    with TemporalGraph.open(":memory:", clock=ManualClock(T0 + timedelta(days=400))) as tg:
        ids = [tg.add_episode(text, speaker=speaker, reference_time=T0 + timedelta(days=20 * i)).episode.id
               for i, (speaker, text) in enumerate(MESSAGES)]
        found = [h.episode.id for h in tg.search("Who is Biscuit's vet?", kinds=("episode",), limit=10)
                 if h.episode is not None]
        assert ids[-1] in found  # the whole text's vector alone is mostly dinners: it was not


@pytest.mark.slow
def test_a_message_of_one_sentence_keeps_the_vector_of_its_text() -> None:
    """Vectors stored before messages were embedded by sentence stay right for such messages."""
    with TemporalGraph.open(":memory:", clock=ManualClock(T0)) as tg:
        told = tg.add_episode("Biscuit goes to Dr Marsh for his checkups.", speaker="Ines", reference_time=T0)
        stored = tg.core.store.vectors("default", "episode", [told.episode.id])[told.episode.id]
        assert stored == pytest.approx(tg.embedder.encode([item_text(told.episode)])[0], abs=1e-6)


@pytest.mark.slow
def test_reindex_messages_embeds_a_memory_of_an_earlier_version_by_its_sentences(tmp_path) -> None:
    """A message of several sentences an earlier version stored with its whole text's vector gets
    the vector of this one from ``reindex --messages``; plain ``reindex`` leaves it; a withdrawn
    message stays out of search."""
    from temporal_graph.core.stores.protocol import ChangeSet
    from temporal_graph.interfaces.cli import main

    text = MESSAGES[-1][1]
    path = tmp_path / "old.db"
    with TemporalGraph.open(path, clock=ManualClock(T0 + timedelta(days=400))) as tg:
        told = tg.add_episode(text, speaker="Ines", reference_time=T0).episode
        gone = tg.add_episode("I live in Leeds now. Ask me anything.", speaker="Ines",
                              reference_time=T0).episode
        tg.retract_episode(gone.id)
        store = tg.core.store
        now = store.vectors("default", "episode", [told.id])[told.id]
        whole = tg.embedder.encode([item_text(told)])[0]
        assert now != pytest.approx(whole, abs=1e-3)
        store.apply(ChangeSet(episode_embeddings={told.id: whole}))  # as an earlier version wrote it
        assert tg.reindex() == 0
        assert store.vectors("default", "episode", [told.id])[told.id] == pytest.approx(whole, abs=1e-6)
    assert main(["--db", str(path), "reindex", "--messages", "--json"]) == 0
    with TemporalGraph.open(path) as tg:
        store = tg.core.store
        assert store.vectors("default", "episode", [told.id])[told.id] == pytest.approx(now, abs=1e-6)
        probe = tg.embedder.encode(["Ines: I live in Leeds now."])[0]
        assert gone.id not in [i for i, _ in store.vector_search("default", "episode", probe, 5)]


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_reindex_messages_takes_true_or_false_only(value) -> None:
    from temporal_graph.errors import InvalidInput

    with TemporalGraph.open(":memory:", embed=False) as tg:
        with pytest.raises(InvalidInput, match="messages: .* must be True or False"):
            tg.reindex(messages=value)
