"""Full-text search reads a question's words as each store's index reads the stored text, on every
store: a word is never split where ``str.lower`` would split it."""

from __future__ import annotations

from temporal_graph import TemporalGraph


def test_a_name_with_a_dotted_capital_i_is_found_by_its_words(tg: TemporalGraph, tick, groups) -> None:
    # "İ".lower() is "i" and a combining dot: the question once asked for "i" OR "stanbul".
    g = groups("istanbul")
    tick()
    fact = tg.add_fact("Ayşe", "lives in", "İstanbul", valid_at="2024-01-01", group_id=g)
    tick()
    tg.add_episode("İzmir is lovely in May.", speaker="Ayşe", reference_time="2024-05-01", group_id=g)
    store = tg.core.store
    assert [i for i, _ in store.text_search(g, "fact", "İstanbul", 5)] == [fact.id]
    named = [i for i, _ in store.text_search(g, "entity", "İSTANBUL", 5)]
    assert [e.name for e in store.entities(g, ids=named)] == ["İstanbul"]
    assert len(store.text_search(g, "episode", "Is İzmir lovely?", 5)) == 1
    assert "Ayşe lives in İstanbul" in [h.text for h in tg.search("İstanbul", group_id=g, methods=("bm25",))]
