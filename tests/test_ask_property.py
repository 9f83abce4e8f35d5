"""Property (issue 51): over generated memories and questions of every family, ``ask`` answers with
facts of the asked relation or says "I don't know" — never an answer about another relation.

A memory is a random set of facts, written with ``add_fact`` (so the offline rules are not in the
way), about two people: where they live and work, their jobs, partners, relationship status, rent
(and a sister's rent, as a careless extraction would store it), a bike order's status, pets, studies,
plans. Each question comes with the relations an answer may rest on. An answer that is not "I don't
know" must rest on one of them: every fact it cites, for an open question; the fact it rests on (the
first it cites), for a yes/no one, whose later facts are context ("now: …"). A "No: no record of …"
rests on no fact. And "I don't know" is no escape: where a fact of the asked relation holds now for
the person asked, an open question about now is answered.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from temporal_graph import TemporalGraph
from temporal_graph.core.model import Answer, Fact
from temporal_graph.times import ManualClock

EXAMPLES = int(os.environ.get("TG_PROPERTY_EXAMPLES", "120"))
SETTINGS = settings(max_examples=max(10, EXAMPLES // 2), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
PEOPLE = ("Priya", "Marco")
VALUES: dict[str, tuple[str, ...]] = {
    "LIVES_IN": ("London", "Milan", "Porto"),
    "WORKS_AT": ("Deloitte", "Monzo", "Pirelli"),
    "WORKS_AS": ("data analyst", "test engineer"),
    "ENGAGED_TO": ("Arjun", "Chiara"),
    "MARRIED_TO": ("Arjun", "Chiara"),
    "DATING": ("Arjun", "Chiara", "Sam"),
    "RELATIONSHIP_STATUS": ("single", "engaged", "married"),
    "RENT": ("900 euros a month", "2,100 pounds a month"),
    "SISTER_RENT": ("3,000 pounds a month",),
    "BIKE_ORDER_STATUS": ("processing", "shipped", "delivered", "cancelled", "on hold"),
    "HAS_PET": ("Biryani", "Pepper"),
    "STUDIES_AT": ("Kyoto University", "Bocconi"),
    "LIKES": ("climbing", "jazz"),
    "PLANS": ("buy a house in Leeds", "move to Basel"),
    "HAS_SIBLING": ("Asha", "Giulia"),
}
YEARS = tuple(range(2019, 2025))
ASKED_ON = datetime(2024, 6, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Asked:
    """A question and what an answer to it may rest on: relations (``REL`` or ``REL=value``)."""

    text: str
    may_rest_on: frozenset[str]
    speaker: str | None = None
    known_when: str | None = None  # a relation that, holding now for the person asked, is the answer


LIVE = frozenset({"LIVES_IN", "LIVED_IN"})
WORK = frozenset({"WORKS_AT", "WORKED_AT"})
MARRIED = frozenset({"MARRIED_TO", "IS_MARRIED_TO", "RELATIONSHIP_STATUS=married"})
PARTNERS = frozenset({"DATING", "ENGAGED_TO", "MARRIED_TO", "IS_MARRIED_TO"})


def questions(who: str, other: str) -> list[Asked]:
    return [
        Asked(f"What does {who} do for a living?", frozenset({"WORKS_AS", *WORK})),
        Asked(f"Where does {who} work?", WORK, known_when="WORKS_AT"),
        Asked(f"Where does {who} live?", LIVE, known_when="LIVES_IN"),
        Asked(f"Where did {who} live in 2021?", LIVE),
        Asked(f"Has {who} ever lived in Porto?", LIVE | {"PLANS=move to Basel"}),
        Asked(f"When did {who} start working at Monzo?", WORK),
        Asked(f"When is {who} getting married?", MARRIED),
        Asked(f"When did {who} get married?", MARRIED),
        Asked(f"When did {who} get engaged?", frozenset({"ENGAGED_TO", "RELATIONSHIP_STATUS=engaged"})),
        Asked(f"Who is {who} engaged to?", frozenset({"ENGAGED_TO"})),
        Asked(f"Is {who} married?", MARRIED | {"RELATIONSHIP_STATUS"}),
        Asked(f"Is {who} married to Arjun?", MARRIED),
        Asked(f"Who is {who} dating?", PARTNERS),
        Asked(f"What is {who}'s relationship status?", PARTNERS | {"RELATIONSHIP_STATUS"}),
        Asked(f"What is {who}'s rent?", frozenset({"RENT"}), known_when="RENT"),
        Asked(f"How much was {who}'s rent in 2022?", frozenset({"RENT"})),
        Asked(f"What is the status of {who}'s bike order?", frozenset({"BIKE_ORDER_STATUS"}),
              known_when="BIKE_ORDER_STATUS"),
        Asked(f"Has {who}'s bike order shipped?", frozenset({"BIKE_ORDER_STATUS"})),
        Asked(f"Does {who} have a pet?", frozenset({"HAS_PET", "OWNS"})),
        Asked(f"Where does {who} study?", frozenset({"STUDIES_AT", "STUDIED_AT"})),
        Asked(f"Is {who} planning to buy a house?", frozenset({"PLANS=buy a house in Leeds"})),
        Asked(f"What is {who}'s email?", frozenset({"EMAIL"})),
        Asked(f"Who is {who}'s sister?", frozenset({"HAS_SIBLING"})),
        Asked("Where do I live?", LIVE, speaker=who, known_when="LIVES_IN"),
        Asked("What is my rent?", frozenset({"RENT"}), speaker=who),
        Asked(f"Does {other} still work at Pirelli?", WORK),
    ]


def fits(f: Fact, allowed: frozenset[str]) -> bool:
    return f.relation in allowed or f"{f.relation}={f.object}" in allowed


def about_the_asked(answer: Answer, asked: Asked) -> bool:
    """The property: "I don't know" (citing nothing), or an answer resting on an asked relation."""
    if not answer.known:
        return answer.text.startswith("I don't know") and answer.facts == []
    if answer.text.startswith("No: no record of"):
        return True
    if not answer.facts:
        return False
    if answer.verdict is not None:
        return fits(answer.facts[0], asked.may_rest_on)
    return all(fits(f, asked.may_rest_on) for f in answer.facts)


facts = st.lists(
    st.tuples(st.sampled_from(PEOPLE), st.sampled_from(sorted(VALUES)), st.integers(0, 4),
              st.sampled_from(YEARS), st.one_of(st.none(), st.integers(1, 3))),
    min_size=0, max_size=14,
)


@SETTINGS
@given(told=facts, data=st.data())
def test_every_answer_is_about_the_asked_relation_or_i_dont_know(told, data):
    clock = ManualClock(datetime(2024, 6, 1, tzinfo=UTC))
    with TemporalGraph.open(":memory:", clock=clock, embed=False) as tg:
        for who, relation, pick, year, lasted in told:
            values = VALUES[relation]
            tg.add_fact(who, relation, values[pick % len(values)], valid_at=f"{year}-03-01",
                        invalid_at=f"{year + lasted}-03-01" if lasted else None)
        tg.add_episode("Hi!", reference_time="2024-05-01", speaker="Priya")  # who speaks, for "I"
        tg.add_episode("Hello.", reference_time="2024-05-02", speaker="Marco")
        who = data.draw(st.sampled_from(PEOPLE), label="who")
        other = PEOPLE[1 - PEOPLE.index(who)]
        for asked in questions(who, other):
            answer = tg.ask(asked.text, reference_time=ASKED_ON, speaker=asked.speaker)
            assert about_the_asked(answer, asked), (asked.text, answer.text, [
                (f.relation, f.object) for f in answer.facts])
            if asked.known_when and tg.now(who, asked.known_when):
                assert answer.known, (asked.text, answer.text)
