"""Quoted speech is the quoted person's (issue 22): from speaker Mallory, ``Bob told me: "I live in
Berlin."`` is Bob's fact claimed by Mallory, or nothing, never "Mallory lives in Berlin"."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ingestion.offline import OfflineExtractor
from temporal_graph import TemporalGraph
from temporal_graph.core.model import Episode

T0 = datetime(2024, 1, 1, tzinfo=UTC)


def facts(message: str, speaker: str = "Mallory") -> list[tuple[str, str, str]]:
    episode = Episode(id="e", group_id="g", content=message, reference_time=T0, created_at=T0,
                      speaker=speaker)
    return [(f.subject, f.relation, f.object) for f in OfflineExtractor().extract(episode).facts]


BOB_IN_BERLIN = [("Bob", "LIVES_IN", "Berlin")]


@pytest.mark.parametrize(("message", "expected"), [
    ('Bob told me: "I live in Berlin."', BOB_IN_BERLIN),
    ('Bob said: "I live in Berlin."', BOB_IN_BERLIN),
    ('Bob says, "I live in Berlin."', BOB_IN_BERLIN),
    ("Bob said 'I live in Berlin'.", BOB_IN_BERLIN),
    ("Bob told me “I live in Berlin”.", BOB_IN_BERLIN),
    ('Bob: "I live in Berlin."', BOB_IN_BERLIN),
    ('"I live in Berlin," Bob said.', BOB_IN_BERLIN),
    ('"I live in Berlin," said Bob.', BOB_IN_BERLIN),
    ('My brother Bob told me "I live in Berlin".', BOB_IN_BERLIN),
    ('Yesterday Bob told me: "I live in Berlin." I work at Acme.',
     [*BOB_IN_BERLIN, ("Mallory", "WORKS_AT", "Acme")]),
    # no name in the frame: someone's words, but whose is not said, so nothing
    ('She said: "I live in Berlin."', []),
    ('My boss told me "I live in Berlin".', []),
    ('"I live in Berlin."', []),
    # reported speech: nothing, rather than the speaker's own fact
    ("Bob said that he lives in Berlin.", []),
    ("Bob told me he lives in Berlin.", []),
    ("Bob mentioned that he moved to Berlin.", []),
    ("Bob told me that I should move to Berlin.", []),
    # the speaker quoting themselves is still the speaker
    ('I told him: "I live in Berlin."', [("Mallory", "LIVES_IN", "Berlin")]),
])
def test_quoted_words_belong_to_who_said_them(message: str, expected: list[tuple[str, str, str]]) -> None:
    assert facts(message) == expected


def test_a_quote_is_the_quoted_persons_claim_never_the_speakers_fact() -> None:
    with TemporalGraph.open(":memory:", embed=False) as tg:
        tg.add_episode("I live in Paris.", reference_time="2023-01-01", speaker="Bob")
        tg.add_episode("I live in Lyon.", reference_time="2023-01-01", speaker="Mallory")
        tg.add_episode('Bob told me: "I live in Berlin."', reference_time="2023-06-01", speaker="Mallory")
        assert [(f.object, f.claimed_by) for f in tg.now("Mallory")] == [("Lyon", None)]
        bob_says = tg.now("Bob", "lives in", claims="own")
        assert [(f.object, f.claimed_by) for f in bob_says] == [("Paris", None)]
        assert [(f.object, f.claimed_by) for f in tg.now("Bob", "lives in", claims="only")] == [
            ("Berlin", "Mallory")]
