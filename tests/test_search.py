"""Hybrid search: BM25 + embeddings + graph neighbourhood, fused; time-aware; reasons given."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from queries.search import named_entities
from temporal_graph.core.model import Episode
from temporal_graph.core.stores.protocol import ChangeSet
from temporal_graph.errors import InvalidInput

pytestmark = pytest.mark.slow  # loads the embedding model (once per session)


@pytest.fixture
def memory(tg, tick):
    tick()
    tg.add_fact("Zhang Wei", "lives in", "Beijing", valid_at="2020-03-01")
    tg.add_fact("Zhang Wei", "works as", "software engineer", valid_at="2021-03-01")
    tg.add_fact(
        "Maria",
        "adopted",
        "golden retriever puppy",
        valid_at="2024-11-02",
        text="Maria adopted a golden retriever puppy",
    )
    tg.add_fact(
        "Quarterly budget meeting",
        "scheduled on",
        "Thursday",
        text="The quarterly budget meeting is scheduled on Thursday",
    )
    tg.add_fact("Tom", "plays", "violin", text="Tom plays the violin in an orchestra")
    tg.add_fact("Oslo", "located in", "Norway", text="Oslo is located in Norway")
    tick()
    tg.add_fact("Zhang Wei", "lives in", "Shanghai", valid_at="2024-06-01")
    return tg


def texts(hits):
    return [h.text for h in hits]


def rank_of(hits, text):
    return texts(hits).index(text)


def test_exact_name_ranks_above_unrelated_facts(memory):
    hits = memory.search("Zhang Wei", kinds=("fact",))
    about = [h for h in hits if "Zhang Wei" in h.text]
    assert about and all(rank_of(hits, h.text) < 2 for h in about)
    assert any("neighbour of Zhang Wei" in h.reasons for h in about)
    assert any(r.startswith("bm25 #") for r in about[0].reasons)


def test_a_paraphrase_ranks_above_unrelated_facts(memory):
    hits = memory.search("who got a new dog?", kinds=("fact",))
    assert hits[0].text == "Maria adopted a golden retriever puppy"
    assert any(r.startswith("embedding #1") for r in hits[0].reasons)  # no word in common


def test_current_facts_only_by_default_and_as_of_filters(memory):
    now = texts(memory.search("where does Zhang Wei live", kinds=("fact",)))
    assert "Zhang Wei lives in Shanghai" in now
    assert "Zhang Wei lives in Beijing" not in now  # ended in 2024
    past = texts(memory.search("where does Zhang Wei live", as_of="2022-01-01", kinds=("fact",)))
    assert "Zhang Wei lives in Beijing" in past
    assert "Zhang Wei lives in Shanghai" not in past
    assert "Maria adopted a golden retriever puppy" not in past  # not yet valid in 2022
    history = texts(memory.search("where does Zhang Wei live", include_history=True, kinds=("fact",)))
    assert {"Zhang Wei lives in Beijing", "Zhang Wei lives in Shanghai"} <= set(history)


def test_retracted_facts_are_never_found(memory, tick):
    tick()
    memory.retract_fact("Tom", "plays", "violin")
    assert "Tom plays the violin in an orchestra" not in texts(memory.search("violin orchestra"))
    assert "Tom plays the violin in an orchestra" not in texts(
        memory.search("violin orchestra", include_history=True)
    )


def test_entities_and_episodes_are_searchable_with_reasons(memory, clock):
    episode = Episode(
        id="ep-dog",
        group_id="default",
        content="We picked up our retriever from the shelter today!",
        speaker="Maria",
        reference_time=datetime(2024, 11, 2, tzinfo=UTC),
        created_at=clock(),
    )
    memory.core.store.write(lambda tx: tx.apply(ChangeSet(episodes=[episode])))
    assert memory.reindex() == 1  # written past the client: reindex embeds it
    hits = memory.search("retriever shelter")
    assert hits[0].kind == "episode" and hits[0].episode.id == "ep-dog"
    assert hits[0].reasons[0] == "bm25 #1"
    people = memory.search("Zhang Wei", kinds=("entity",))
    assert people[0].entity.name == "Zhang Wei"
    assert "named in the query" in people[0].reasons


def test_groups_are_isolated_and_bad_arguments_named(memory):
    assert memory.search("Zhang Wei", group_id="someone-else") == []
    assert memory.search("   ") == []
    with pytest.raises(InvalidInput, match="limit"):
        memory.search("x", limit=0)
    with pytest.raises(TypeError, match="mystery"):
        memory.search("x", mystery=True)


def test_records_are_embedded_when_written(memory):
    probe = [1.0] + [0.0] * 383
    assert len(memory.core.store.vector_search("default", "fact", probe, 100)) > 0
    assert len(memory.core.store.vector_search("default", "entity", probe, 100)) > 0
    assert memory.reindex() == 0  # nothing was left for later


def test_named_entities_longest_match_first(memory):
    found = named_entities(memory.core, "Did Zhang Wei's move to Shanghai go well?", "default")
    names = [e.name for e in found]
    assert names == ["Zhang Wei", "Shanghai"]


def test_a_stop_word_alone_is_no_keyword_match(memory):
    hits = memory.search("is the violin there", kinds=("fact",))
    reasons = {h.text: h.reasons for h in hits}
    assert any(r.startswith("bm25") for r in reasons["Tom plays the violin in an orchestra"])
    # "is" and "the" are in this sentence too, but they tell nothing.
    meeting = reasons.get("The quarterly budget meeting is scheduled on Thursday", [])
    assert not any(r.startswith("bm25") for r in meeting)


def test_how_much_and_per_are_no_keyword_match(tg, tick):
    tg.add_episode("Window functions give you the latest row per group, and per user too.", speaker="bot",
                   reference_time="2024-05-01")
    tg.add_episode("How much should I keep in an emergency fund?", speaker="Ana", reference_time="2024-05-02")
    tg.add_episode("These days I run 30 km a week.", speaker="Ana", reference_time="2024-05-03")
    tick()
    hits = tg.search("How much does Ana run per week?", kinds=("episode",))
    reasons = {h.text: h.reasons for h in hits}
    assert any(r == "bm25 #1" for r in reasons["These days I run 30 km a week."])
    for unrelated in ("Window functions give you the latest row per group, and per user too.",
                      "How much should I keep in an emergency fund?"):
        assert not any(r.startswith("bm25") for r in reasons.get(unrelated, [])), reasons


def test_the_s_of_a_possessive_or_a_contraction_is_no_keyword_match(tg, tick):
    # Leila is no entity here (nothing was read from her messages), so "Leila's" stays in the
    # query: its "s" was a keyword, and every "it's" and "here's" a hit above the vet's successor.
    for i, text in enumerate(("Here's a tip: it's easier with a list.", "I'm sure it'll work, don't worry.",
                              "Our cat's vet is Dr Abbott.")):
        tg.add_episode(text, speaker="Leila", reference_time=f"2024-05-0{i + 1}")
    tick()
    hits = tg.search("Who is Leila's vet? I'd like to know, don't you?", kinds=("episode",))
    keyword_hits = [h.text for h in hits if any(r.startswith("bm25") for r in h.reasons)]
    assert keyword_hits == ["Our cat's vet is Dr Abbott."], keyword_hits


def test_a_name_every_fact_carries_adds_no_graph_weight(tg, tick):
    tick()
    for hobby in ["chess", "tennis", "painting", "cooking"]:
        tg.add_fact("Caroline", "likes", hobby, text=f"Caroline likes {hobby}")
    hits = tg.search("Does Caroline like tennis?", kinds=("fact",))
    assert hits[0].text == "Caroline likes tennis"
    # Every fact is about Caroline: being her neighbour weighs nothing in the fusion.
    without_graph = tg.search("Does Caroline like tennis?", kinds=("fact",), methods=("bm25", "embedding"))
    assert [(h.text, h.score) for h in hits] == [(h.text, h.score) for h in without_graph]


def test_a_query_holding_a_very_long_word_still_searches(memory):
    # A pasted URL or hash is longer than any name may be: it names nobody, it is no error.
    hits = memory.search("where does Zhang Wei live? " + "x" * 600, limit=3)
    assert any("Zhang Wei" in h.text for h in hits)
    assert memory.context("Zhang Wei " + "y" * 600, budget_tokens=200)


def test_full_text_hits_of_a_group_are_found_behind_better_hits_of_other_groups(tg):
    """The store ranks full-text hits over every group before keeping a group's: a group whose one
    hit ranks behind many of another group's still gets it, and gets the same hits, best first, as
    ranking its own records alone would give."""
    store = tg.core.store
    when = datetime(2024, 1, 1, tzinfo=UTC)

    def episode(group: str, i: int, text: str) -> Episode:
        return Episode(id=f"{group}-{i}", group_id=group, content=text, reference_time=when, created_at=when)

    crowd = [episode("crowd", i, "kayak kayak kayak trip") for i in range(120)]
    mine = [episode("mine", i, f"a long note {i} about a kayak and many other things") for i in range(7)]
    mine.append(episode("mine", 99, "nothing to do with boats"))
    store.write(lambda tx: tx.apply(ChangeSet(episodes=[*crowd, *mine])))
    found = store.text_search("mine", "episode", "kayak", 5)
    assert len(found) == 5 and all(i.startswith("mine-") for i, _ in found)
    assert [s for _, s in found] == sorted((s for _, s in found), reverse=True)
    every = store.text_search("mine", "episode", "kayak", 50)
    assert sorted(i for i, _ in every) == [f"mine-{i}" for i in range(7)]
    assert every[:5] == found


def test_a_name_with_an_ampersand_is_named_in_a_query() -> None:
    from queries.search import named_entities
    from temporal_graph import TemporalGraph

    with TemporalGraph.open(":memory:", embed=False) as tg:
        tg.add_fact("Dana", "works at", "Crumb & Co")
        named = named_entities(tg.core, "Who works at Crumb & Co?", "default")
        assert [e.name for e in named] == ["Crumb & Co"]
        assert named_entities(tg.core, "salt & pepper", "default") == []


def test_a_message_said_word_for_word_again_is_one_hit_listing_its_repeats(tg, tick):
    asked = []
    for day in ("2024-01-03", "2024-02-07", "2024-03-12"):
        tick()
        asked.append(tg.add_episode("Can you help me prepare for a salary  conversation?", reference_time=day,
                                    speaker="Priya").episode.id)
    tick()
    news = tg.add_episode("Can you help me prepare for a salary conversation? I'm on €58,000 a year now.",
                          reference_time="2024-04-02", speaker="Priya").episode.id
    tick()
    tg.add_episode("can you help me prepare for a SALARY conversation?", reference_time="2024-04-09",
                   speaker="Omar")  # another speaker's words are another message
    hits = tg.search("salary conversation", limit=3, kinds=["episode"])
    assert len(hits) == 3
    texts = [(h.episode.speaker, " ".join(h.episode.content.split()).casefold()) for h in hits]
    assert len(set(texts)) == 3, texts
    requests = [h for h in hits if h.episode.id in asked]
    assert len(requests) == 1 and sorted([requests[0].episode.id, *requests[0].repeats]) == sorted(asked)
    assert requests[0].episode.id == asked[-1]  # the newest copy stands for them
    assert news in {h.episode.id for h in hits}
    assert not any(h.repeats for h in hits if h not in requests)


def test_repeats_with_another_standing_stay_hits_of_their_own_and_are_counted_when_left_out(tg, tick):
    for day in ("2020-01-05", "2020-01-06"):
        tick()
        tg.add_episode("I live in Leeds.", reference_time=day, speaker="Rafa")
    tick()
    tg.add_episode("I moved to York.", reference_time="2022-05-01", speaker="Rafa")
    now = tg.search("Where does Rafa live?", kinds=["episode"])
    assert not any("Leeds" in h.text for h in now)
    assert now.stale_left_out == 2  # both, though one hit stood for them
    tick()
    again = tg.add_episode("I live in Leeds.", reference_time="2024-02-01", speaker="Rafa").episode.id
    shown = [h for h in tg.search("Where does Rafa live?", kinds=["episode"], stale="show")
             if h.episode is not None and "Leeds" in h.text]
    current = [h for h in shown if h.episode.id == again]
    assert len(shown) == 2 and len(current) == 1 and not current[0].stale
    assert [len(h.repeats) for h in shown if h is not current[0]] == [1]
