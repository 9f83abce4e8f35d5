"""`ask` answers the question asked or says "I don't know" (issue 51, and the broad questions of issue
50): never where Priya lives for what she does, never the engagement for the wedding, never a
relationship status for an order's. "I" is whoever asks. Memories are built with ``add_fact`` (or a
scripted extractor), so these answers do not depend on what the offline rules read."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence

import pytest

from queries.question import unknown_names
from temporal_graph import AsyncTemporalGraph, TemporalGraph
from temporal_graph.core.extraction import ExtractedFact, Extraction
from temporal_graph.core.model import Episode
from temporal_graph.errors import InvalidInput
from temporal_graph.interfaces.cli import main
from temporal_graph.tools import call_tool

ASKED_ON = "2024-06-01"


def relations(answer) -> list[str]:
    return [f.relation for f in answer.facts]


class Told:
    """A scripted extractor: the facts each message gives, by its text (nothing for the others)."""

    def __init__(self, facts: dict[str, list[ExtractedFact]]) -> None:
        self.facts = facts

    def extract(self, episode: Episode, context: Sequence[Episode] = ()) -> Extraction:
        return Extraction(facts=self.facts.get(episode.content, []))


@pytest.fixture
def memory(tg, tick):
    tick()
    tg.add_fact("Priya", "lives in", "London", valid_at="2023-11-01")
    tg.add_fact("Priya", "engaged to", "Arjun", valid_at="2024-02-13")
    tg.add_fact("Priya", "rent", "2,100 pounds a month", valid_at="2024-01-06")
    tg.add_fact("Priya", "rent", "2,250 pounds a month", valid_at="2024-04-01")
    tg.add_fact("Priya", "sister rent", "3,000 pounds a month", valid_at="2024-03-02")  # an extraction slip
    tg.add_fact("Marco", "lives in", "Milan", valid_at="2024-02-10")
    tg.add_fact("Marco", "relationship status", "single", valid_at="2024-05-01")
    tg.add_fact("Marco", "works at", "Pirelli", valid_at="2024-01-01")
    return tg


# -- an answer about the asked relation, or "I don't know" ------------------------------------------
def test_what_she_does_for_a_living_is_never_where_she_lives(memory, tick):
    answer = memory.ask("What does Priya do for a living?", reference_time=ASKED_ON)
    assert not answer.known and answer.facts == []
    assert answer.text.startswith("I don't know") and "'works as'" in answer.text
    assert "It knows:" in answer.text and "London" in answer.text  # named as what it knows, not as the answer
    tick()
    memory.add_fact("Priya", "works as", "data analyst", valid_at="2024-01-01")
    answer = memory.ask("What does Priya do for a living?", reference_time=ASKED_ON)
    assert answer.known and relations(answer) == ["WORKS_AS"] and "data analyst" in answer.text


def test_an_employer_answers_what_she_does_but_a_job_title_is_not_where_she_works(memory, tick):
    marco = memory.ask("What does Marco do for a living?", reference_time=ASKED_ON)
    assert marco.known and relations(marco) == ["WORKS_AT"]
    tick()
    memory.add_fact("Priya", "works as", "data analyst", valid_at="2024-01-01")
    where = memory.ask("Where does Priya work?", reference_time=ASKED_ON)
    assert not where.known and where.facts == [] and "data analyst" in where.text


def test_when_she_is_getting_married_is_never_the_day_she_got_engaged(memory, tick):
    answer = memory.ask("When is Priya getting married?", reference_time=ASKED_ON)
    assert not answer.known and answer.facts == []
    assert "I don't know" in answer.text and "engaged to Arjun" in answer.text
    engaged = memory.ask("When did Priya get engaged?", reference_time=ASKED_ON)
    assert engaged.known and relations(engaged) == ["ENGAGED_TO"] and "2024-02-13" in engaged.text
    tick()
    memory.add_fact("Priya", "married to", "Arjun", valid_at="2025-04-12")
    wedding = memory.ask("When is Priya getting married?", reference_time=ASKED_ON)
    assert wedding.known and relations(wedding) == ["MARRIED_TO"] and "2025-04-12" in wedding.text


def test_the_status_of_an_order_is_never_a_relationship_status(memory, tick):
    answer = memory.ask("What is the status of Marco's bike order?", reference_time=ASKED_ON)
    assert not answer.known and answer.facts == []
    assert "RELATIONSHIP_STATUS" not in answer.plan.relations
    own = memory.ask("What is Marco's relationship status?", reference_time=ASKED_ON)
    assert own.known and relations(own) == ["RELATIONSHIP_STATUS"] and "single" in own.text
    tick()
    memory.add_fact("Marco", "bike order status", "shipped", valid_at="2024-03-06")
    answer = memory.ask("What is the status of Marco's bike order?", reference_time=ASKED_ON)
    assert answer.known and relations(answer) == ["BIKE_ORDER_STATUS"] and "shipped" in answer.text
    again = memory.ask("What is Marco's relationship status?", reference_time=ASKED_ON)
    assert relations(again) == ["RELATIONSHIP_STATUS"]


def test_her_rent_is_not_her_sisters(memory):
    answer = memory.ask("What is Priya's rent?", reference_time=ASKED_ON)
    assert relations(answer) == ["RENT"] and "2,250" in answer.text and "3,000" not in answer.text


def test_an_unheld_attribute_is_i_dont_know_naming_what_is_held(memory):
    answer = memory.ask("What is Marco's email?", reference_time=ASKED_ON)
    assert not answer.known and answer.facts == [] and answer.text.startswith("I don't know")
    assert "Milan" in answer.text or "Pirelli" in answer.text


def test_a_question_no_relation_answers_is_not_answered_with_every_fact(memory):
    answer = memory.ask("When did Marco run the Milan marathon?", reference_time=ASKED_ON)
    assert not answer.known and answer.facts == []  # never "Marco lives in Milan (since ...)"
    assert answer.text.startswith("I don't know") and "marathon" in answer.text
    everything = memory.ask("Tell me about Marco", reference_time=ASKED_ON)  # a broad question lists them
    assert everything.known and {"LIVES_IN", "WORKS_AT"} <= set(relations(everything))


def test_married_or_not_from_the_relationship_status(memory, tick):
    priya = memory.ask("Is Marco married?", reference_time=ASKED_ON)
    assert priya.verdict == "no" and relations(priya) == ["RELATIONSHIP_STATUS"] and "single" in priya.text
    tick()
    memory.add_fact("Kwame", "relationship status", "married", valid_at="2024-08-10")
    kwame = memory.ask("Is Kwame married?", reference_time="2024-09-01")
    assert kwame.verdict == "yes" and "married" in kwame.text
    never = memory.ask("Is Priya allergic to anything?", reference_time=ASKED_ON)
    assert not never.known and never.verdict is None  # never told: no "no" on that evidence


def test_yes_to_married_is_never_a_yes_to_dating(tg, tick):
    tick()
    tg.add_fact("Yuki", "dating", "Haruto", valid_at="2019-01-01", invalid_at="2024-07-13")
    tg.add_fact("Yuki", "dating", "Lukas", valid_at="2025-02-15")
    ever = tg.ask("Has Yuki ever been married to Haruto?", reference_time="2025-06-01")
    assert ever.verdict == "no" and "no record" in ever.text
    assert "DATING" not in relations(ever)[:1] or ever.text.startswith("No: no record")
    when = tg.ask("When did Yuki marry Haruto?", reference_time="2025-06-01")
    assert not when.known and when.facts == []


# -- the status of a thing -----------------------------------------------------------------------------
@pytest.mark.parametrize(("status", "verdict", "lead"), [
    ("processing", "no", "No, not yet"), ("shipped", "yes", "Yes"), ("out for delivery", "yes", "Yes"),
    ("delivered", "yes", "Yes"), ("cancelled", "no", "No:"), ("on hold", None, "I don't know"),
])
def test_has_the_order_shipped_from_its_status(tg, tick, status, verdict, lead):
    tick()
    tg.add_fact("Order 5512", "status", status, valid_at="2024-03-01")
    answer = tg.ask("Has order 5512 shipped?", reference_time=ASKED_ON)
    assert answer.verdict == verdict and answer.text.startswith(lead), answer.text
    assert status in answer.text and answer.known == (verdict is not None)
    assert relations(answer) == (["STATUS"] if answer.known else [])  # "I don't know" cites nothing


def test_has_marcos_order_shipped_reads_his_order_status_only(memory, tick):
    tick()
    memory.add_fact("Marco", "order status", "processing", valid_at="2024-03-01")
    answer = memory.ask("Has Marco's order shipped?", reference_time=ASKED_ON)
    assert answer.text.startswith("No, not yet") and relations(answer) == ["ORDER_STATUS"]
    tick()
    memory.add_fact("Marco", "order status", "delivered", valid_at="2024-03-09")
    delivered = memory.ask("Has Marco's order been delivered?", reference_time=ASKED_ON)
    assert delivered.verdict == "yes" and "delivered" in delivered.text


def test_shipped_once_is_yes_after_it_was_delivered(tg, tick):
    tick()
    tg.add_fact("Order 5512", "status", "shipped", valid_at="2024-03-06")
    tg.add_fact("Order 5512", "status", "delivered", valid_at="2024-03-09")
    answer = tg.ask("Has order 5512 shipped?", reference_time=ASKED_ON)
    assert answer.verdict == "yes" and "delivered" in answer.text and "shipped" in answer.text
    before = tg.ask("Was order 5512 delivered?", reference_time="2024-03-07")
    assert before.verdict == "no" and before.text.startswith("No, not yet")


# -- an attribute in the past --------------------------------------------------------------------------
def test_the_rent_in_a_past_month(memory):
    named = memory.ask("How much was Priya's rent in March 2024?", reference_time=ASKED_ON)
    assert named.known and "2,100" in named.text and "2,250" not in named.text
    # Priya and Marco: "the rent" is whose? Only Priya's is known, once Marco's is not asked
    nameless = memory.ask("How much was the rent in March 2024?", reference_time=ASKED_ON)
    assert nameless.known and "Priya" in nameless.text and "2,100" in nameless.text
    assert "March" not in (nameless.plan.subject or "")


def test_a_nameless_attribute_held_by_two_says_whose_it_could_be(memory, tick):
    tick()
    memory.add_fact("Marco", "rent", "900 euros a month", valid_at="2024-02-10")
    answer = memory.ask("How much was the rent in March 2024?", reference_time=ASKED_ON)
    assert not answer.known and "Marco" in answer.text and "Priya" in answer.text


# -- the date a start was resolved to, and the phrase ----------------------------------------------------
def test_when_did_she_get_engaged_says_the_date_and_the_words(clock, tick):
    engaged = ExtractedFact(subject="Priya", relation="ENGAGED_TO", object="Arjun",
                            text="Priya is engaged to Arjun.", time_text="last night")
    told = Told({"Arjun proposed last night!!! We're engaged": [engaged]})
    with TemporalGraph.open(":memory:", clock=clock, embed=False, extractor=told) as tg:
        tick()
        tg.add_episode("Arjun proposed last night!!! We're engaged",
                       reference_time="2024-02-14T08:05:00+00:00", speaker="Priya")
        answer = tg.ask("When did Priya get engaged?", reference_time=ASKED_ON)
    assert answer.known and relations(answer) == ["ENGAGED_TO"]
    assert '2024-02-13 ("last night", told on 2024-02-14)' in answer.text
    assert "first told" not in answer.text


# -- who asks ------------------------------------------------------------------------------------------
@pytest.fixture
def dana(tg, tick):
    tick()
    tg.add_episode("Hi there.", reference_time="2024-09-02T09:00:00+00:00", speaker="Dana")
    tg.add_episode("The standard VAT rate in Portugal is 23%.", reference_time="2024-09-02T09:00:30+00:00",
                   speaker="assistant")
    tg.add_fact("Dana", "lives in", "Lisbon", valid_at="2024-01-01", invalid_at="2024-09-28")
    tg.add_fact("Dana", "lives in", "Porto", valid_at="2024-09-28")
    tg.add_fact("Dana", "rent", "750 euros a month", valid_at="2024-10-05")
    return tg


def test_i_is_the_one_person_speaking_beside_the_assistant(dana):
    answer = dana.ask("Where do I live?", reference_time="2025-01-01")
    assert answer.known and [f.object for f in answer.facts] == ["Porto"]
    assert "taking 'I' to be Dana" in answer.text and "assistant" in answer.text
    rent = dana.ask("What is my rent?", reference_time="2025-01-01")
    assert "750 euros" in rent.text
    before = dana.ask("Where did I live before Porto?", reference_time="2025-01-01")
    assert [f.object for f in before.facts] == ["Lisbon"]
    ever = dana.ask("Have I ever lived in Lisbon?", reference_time="2025-01-01")
    assert ever.verdict == "yes"


def test_the_speaker_says_who_asks(dana, tick):
    tick()
    dana.add_episode("Hello!", reference_time="2024-10-01T10:00:00+00:00", speaker="Rui")
    dana.add_fact("Rui", "lives in", "Braga", valid_at="2024-01-01")
    unsure = dana.ask("Where do I live?", reference_time="2025-01-01")
    assert not unsure.known and "Dana" in unsure.text and "Rui" in unsure.text and "speaker=" in unsure.text
    rui = dana.ask("Where do I live?", reference_time="2025-01-01", speaker="Rui")
    assert [f.object for f in rui.facts] == ["Braga"] and "taking 'I'" not in rui.text
    stranger = dana.ask("Where do I live?", reference_time="2025-01-01", speaker="Zed")
    assert not stranger.known and "Zed" in stranger.text
    with pytest.raises(InvalidInput, match="speaker"):
        dana.ask("Where do I live?", speaker="   ")


def test_an_assistant_alone_is_no_asker(tg, tick):
    tick()
    tg.add_episode("The standard VAT rate is 23%.", reference_time="2024-09-02", speaker="assistant")
    answer = tg.ask("What is my rent?")
    assert not answer.known and "speaker=" in answer.text


def test_tell_me_is_no_first_person(memory):
    answer = memory.ask("Tell me about Priya", reference_time=ASKED_ON)
    assert answer.known and "taking 'I'" not in answer.text and "LIVES_IN" in relations(answer)


def test_speaker_through_the_cli_the_tool_and_the_async_client(tmp_path, capsys):
    db = tmp_path / "memory.db"
    with TemporalGraph.open(db, embed=False) as tg:
        tg.add_episode("Hi.", reference_time="2024-01-01", speaker="Dana")
        tg.add_episode("Hello!", reference_time="2024-01-02", speaker="Rui")
        tg.add_fact("Dana", "lives in", "Porto", valid_at="2024-01-01")
        tg.add_fact("Rui", "lives in", "Braga", valid_at="2024-01-01")
        tool = call_tool(tg, "ask", {"question": "Where do I live?", "speaker": "Rui"})
        assert "Braga" in tool["text"]
    assert main(["--db", str(db), "--json", "ask", "Where do I live?", "--speaker", "Dana"]) == 0
    assert "Porto" in json.loads(capsys.readouterr().out)["text"]

    async def asked() -> str:
        async with AsyncTemporalGraph.open(db) as memory:
            return (await memory.ask("Where do I live?", speaker="Rui")).text

    assert "Braga" in asyncio.run(asked())


# -- broad questions about the group (issue 50) ------------------------------------------------------------
def test_tell_me_about_people_gives_the_groups_weightiest_facts_labelled(memory):
    answer = memory.ask("Tell me about people.", reference_time=ASKED_ON)
    assert answer.known and answer.text.startswith("The weightiest current facts of the memory")
    assert {f.subject for f in answer.facts} == {"Priya", "Marco"}
    assert all(f.invalid_at is None or f.invalid_at > answer.facts[0].created_at for f in answer.facts)
    same = memory.ask("What do you know?", reference_time=ASKED_ON)
    assert [f.id for f in same.facts] == [f.id for f in answer.facts]


def test_the_other_people_still_come_back_after_one_persons_messages_are_withdrawn(tg, tick):
    told = {"Ana": "I live in Porto.", "Ben": "I live in Rome.", "Cy": "I live in Oslo."}
    facts = {text: [ExtractedFact(subject=who, relation="LIVES_IN", object=text.split()[-1].rstrip("."),
                                  text=f"{who} lives in {text.split()[-1]}")] for who, text in told.items()}
    with TemporalGraph.open(":memory:", clock=tg.core.clock, embed=False, extractor=Told(facts)) as memory:
        ids = {}
        for day, (who, text) in enumerate(told.items(), 1):
            tick()
            ids[who] = memory.add_episode(text, reference_time=f"2024-01-0{day}", speaker=who).episode.id
        tick()
        memory.retract_episode(ids["Ben"])
        answer = memory.ask("Tell me about people.", reference_time=ASKED_ON)
        assert answer.known and {f.subject for f in answer.facts} == {"Ana", "Cy"}
        hits = memory.search("Tell me about people.", kinds=("fact",))
        assert {h.fact.subject for h in hits if h.fact} == {"Ana", "Cy"}
        assert all("weightiest current fact of the memory" in h.reasons[0] for h in hits)


def test_a_group_told_nothing_says_so(tg):
    answer = tg.ask("What do you know?")
    assert not answer.known and answer.facts == []


def test_a_degree_is_no_name_and_a_time_phrase_names_no_one(tg, tick):
    tick()
    tg.add_fact("Yuki", "studies at", "Kyoto University", valid_at="2020-04-01", invalid_at="2024-03-15")
    finished = tg.ask("When did Yuki finish her PhD?", reference_time=ASKED_ON)
    assert finished.known and "2024-03-15" in finished.text
    assert unknown_names("How much was the rent in March 2024?", []) == []
