"""Bad input (API.md): each case raises its ``temporal_graph.errors`` exception, the message
names the bad value, and nothing is written (the group's export is unchanged).

``BAD_WRITES`` is also run against every store by the conformance suite.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from temporal_graph import Ontology, TemporalGraph
from temporal_graph.errors import (
    InvalidGroup,
    InvalidInput,
    InvalidInterval,
    InvalidName,
    InvalidTime,
)
from temporal_graph.times import to_utc


@dataclass(frozen=True)
class Case:
    name: str
    call: Callable[[TemporalGraph, str], Any]  # (client, a valid group id)
    error: type[Exception]
    names: str  # text the message must contain: the bad value


BAD_WRITES = [
    Case("empty subject",
         lambda tg, g: tg.add_fact("", "lives in", "Rome", group_id=g), InvalidName, "''"),
    Case("blank object",
         lambda tg, g: tg.add_fact("Alice", "lives in", "   ", group_id=g), InvalidName, "'   '"),
    Case("empty relation",
         lambda tg, g: tg.add_fact("Alice", "", "Rome", group_id=g), InvalidName, "''"),
    Case("relation of symbols",
         lambda tg, g: tg.add_fact("Alice", "?!", "Rome", group_id=g), InvalidName, "'?!'"),
    Case("unparsable valid_at",
         lambda tg, g: tg.add_fact("Alice", "lives in", "Rome", valid_at="the day after never", group_id=g),
         InvalidTime, "the day after never"),
    Case("unparsable invalid_at",
         lambda tg, g: tg.add_fact("Alice", "lives in", "Rome", valid_at="2021", invalid_at="soonish",
                                   group_id=g),
         InvalidTime, "soonish"),
    Case("reversed interval",
         lambda tg, g: tg.add_fact("Zoe", "lives in", "Atlantis", valid_at="2024-05-01",
                                   invalid_at="2023-05-01", group_id=g),
         InvalidInterval, "2023-05-01"),
    Case("empty interval",
         lambda tg, g: tg.add_fact("Zoe", "lives in", "Atlantis", valid_at="2024-05-01",
                                   invalid_at="2024-05-01", group_id=g),
         InvalidInterval, "2024-05-01"),
    # Undated and superseding Paris, it would start at the write time (2025), after its end.
    Case("ends before its implied start",
         lambda tg, g: tg.add_fact("Alice", "lives in", "Rome", invalid_at="2022-07-01", group_id=g),
         InvalidInput, "2022-07-01"),
    Case("not a time at all",
         lambda tg, g: tg.add_fact("Alice", "lives in", "Rome", valid_at=12345, group_id=g),
         InvalidTime, "12345"),
    Case("bad group characters",
         lambda tg, g: tg.add_fact("Alice", "lives in", "Rome", group_id="team\tb"),
         InvalidGroup, r"team\tb"),
    Case("empty group",
         lambda tg, g: tg.add_fact("Alice", "lives in", "Rome", group_id=""), InvalidGroup, "''"),
    Case("end at an unparsable time",
         lambda tg, g: tg.end_fact("Alice", "lives in", "Paris", at="when pigs fly", group_id=g),
         InvalidTime, "when pigs fly"),
    Case("end with an empty object",
         lambda tg, g: tg.end_fact("Alice", "lives in", "", at="2024", group_id=g), InvalidName, "''"),
    Case("end in a bad group",
         lambda tg, g: tg.end_fact("Alice", "lives in", at="2024", group_id=" padded "),
         InvalidGroup, "' padded '"),
    Case("retract an empty object",
         lambda tg, g: tg.retract_fact("Alice", "lives in", " ", group_id=g), InvalidName, "' '"),
    Case("retract with an empty subject",
         lambda tg, g: tg.retract_fact("", "lives in", "Paris", group_id=g), InvalidName, "''"),
    Case("retract in a bad group",
         lambda tg, g: tg.retract_fact("Alice", "lives in", "Paris", group_id="a\x00b"),
         InvalidGroup, r"a\x00b"),
]


@pytest.mark.parametrize("case", BAD_WRITES, ids=[c.name for c in BAD_WRITES])
def test_bad_write_raises_names_the_value_and_writes_nothing(tg: TemporalGraph, tick, case: Case) -> None:
    tick()
    tg.add_fact("Alice", "lives in", "Paris", valid_at="2020")
    before = tg.export()
    tick()
    with pytest.raises(case.error) as raised:
        case.call(tg, "default")
    assert isinstance(raised.value, InvalidInput) and isinstance(raised.value, ValueError)
    assert case.names in str(raised.value), f"message {str(raised.value)!r} does not name {case.names!r}"
    assert tg.export() == before


def test_a_bad_write_in_a_fresh_group_leaves_it_empty(tg: TemporalGraph, tick) -> None:
    tick()
    with pytest.raises(InvalidInterval):
        tg.add_fact("Zoe", "lives in", "Atlantis", valid_at="2024", invalid_at="2020", group_id="fresh")
    data = tg.export("fresh")
    assert (data["entities"], data["facts"], data["assertions"]) == ([], [], [])


BAD_READS = [
    Case("as_of an unparsable time", lambda tg, g: tg.as_of("sometime", group_id=g), InvalidTime, "sometime"),
    Case("as_of an unparsable known_at",
         lambda tg, g: tg.as_of("2024", known_at="yesteryear", group_id=g), InvalidTime, "yesteryear"),
    Case("now in a bad group", lambda tg, g: tg.now(group_id="x\ny"), InvalidGroup, r"x\ny"),
    Case("history of an empty subject",
         lambda tg, g: tg.history("", group_id=g), InvalidName, "''"),
    Case("history in a bad group",
         lambda tg, g: tg.history("Alice", group_id="!" * 129), InvalidGroup, "129"),
    Case("audit in a bad group",
         lambda tg, g: tg.audit("abc", group_id="a\u200bb"), InvalidGroup, r"a\u200bb"),
    Case("diff ending before it starts",
         lambda tg, g: tg.diff("2024", "2023", group_id=g), InvalidInput, "2023"),
    Case("snapshot at an unparsable time",
         lambda tg, g: tg.snapshot("nope", group_id=g), InvalidTime, "nope"),
    Case("export of a bad group", lambda tg, g: tg.export("a/b\n"), InvalidGroup, r"a/b\n"),
    Case("forget of a bad group", lambda tg, g: tg.forget("\x7f"), InvalidGroup, r"\x7f"),
]


@pytest.mark.parametrize("case", BAD_READS, ids=[c.name for c in BAD_READS])
def test_bad_read_raises_and_names_the_value(tg: TemporalGraph, tick, case: Case) -> None:
    tick()
    tg.add_fact("Alice", "lives in", "Paris", valid_at="2020")
    before = tg.export()
    with pytest.raises(case.error) as raised:
        case.call(tg, "default")
    assert case.names in str(raised.value), f"message {str(raised.value)!r} does not name {case.names!r}"
    assert tg.export() == before


def test_a_declared_cardinality_must_be_one_or_many() -> None:
    with pytest.raises(InvalidInput, match="several"):
        Ontology.default_personal().with_relations({"plays for": "several"})


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2023-05-08", "2023-05-08T00:00:00+00:00"),
        ("2023-05-08T13:56:00+08:00", "2023-05-08T05:56:00+00:00"),
        ("8 May 2023", "2023-05-08T00:00:00+00:00"),
        ("May 2023", "2023-05-01T00:00:00+00:00"),
        ("2023", "2023-01-01T00:00:00+00:00"),
    ],
)
def test_times_in_the_accepted_forms_read_as_utc(text: str, expected: str) -> None:
    """The counterpart of the bad cases: the forms API.md promises are accepted."""
    assert to_utc(text).isoformat() == expected
