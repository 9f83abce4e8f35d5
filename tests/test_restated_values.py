"""A held value said again with a hedge or in other spelling confirms it (issue 50): "about 40
minutes" after "40 minutes" is no new value; "about 45 minutes" and "nearly 40 minutes" are."""

from __future__ import annotations

import pytest

from ingestion.restated import same_value
from temporal_graph import TemporalGraph
from tests.memory_reads import now, stretches, told


@pytest.fixture
def tg():
    with TemporalGraph.open(":memory:", embed=False) as memory:
        yield memory


@pytest.mark.parametrize(("held", "said"), [
    ("40 minutes", "about 40 minutes"),
    ("40 minutes", "roughly 40 min"),
    ("40 minutes", "~40 minutes"),
    ("45 minutes", "~45 mins"),
    ("1,400 a month", "around 1400 a month"),
    ("340 MB", "roughly 340MB"),
    ("12,000 pallets", "approx. 12,000 pallets"),
    ("52k", "52k or so"),
    ("80 kg", "approximately 80 kilos"),
    ("Jenkins", "jenkins"),
])
def test_same_value(held: str, said: str) -> None:
    assert same_value(held, said)


@pytest.mark.parametrize(("held", "said"), [
    ("40 minutes", "about 45 minutes"),
    ("40 minutes", "nearly 40 minutes"),  # a bound, not a hedge
    ("40 minutes", "40 hours"),
    ("4.1M units", "3.8M units"),
    ("1,400 a month", "1,400 a week"),
    ("£950", "about €950"),
    ("Jenkins", "GitHub Actions"),
])
def test_another_value(held: str, said: str) -> None:
    assert not same_value(held, said)


def test_a_hedged_restatement_confirms(tg) -> None:
    told(tg, ("2024-01-10", "ci-notes", "The nightly build takes 40 minutes."),
         ("2024-05-02", "ci-notes", "Nightly build still takes about 40 minutes."))
    assert now(tg, "nightly build", "DURATION") == ["40 minutes"]
    assert stretches(tg, "nightly build", "DURATION") == [("40 minutes", "2024-01-10", "")]
    hits = [h for h in tg.search("How long does the nightly build take?", stale="show") if h.episode]
    assert len(hits) == 2 and not any("superseded" in (h.standing or "") for h in hits)


def test_a_hedged_other_value_still_revises(tg) -> None:
    told(tg, ("2024-01-10", "ci-notes", "The nightly build takes 40 minutes."),
         ("2024-05-02", "ci-notes", "Nightly build takes about 25 minutes since the cache fix."))
    assert now(tg, "nightly build", "DURATION") != ["40 minutes"]
    assert stretches(tg, "nightly build", "DURATION")[0] == ("40 minutes", "2024-01-10", "2024-05-02")
