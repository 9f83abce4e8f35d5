"""Issue 51's examples through a whole memory, offline, each with its revision read back by ``now``,
``as_of`` and ``history``: whose attribute a possessive names, framing and reporting, states that are
no value, hyperbole, assistant turns, employer and role in one clause, starts ahead, several
statements in one sentence, statuses told by their verb."""

from __future__ import annotations

import pytest

from temporal_graph import TemporalGraph
from tests.memory_reads import now, relations, then, told


@pytest.fixture
def tg():
    with TemporalGraph.open(":memory:", embed=False) as memory:
        yield memory


# --- whose attribute ---------------------------------------------------------------------------------


def test_a_relatives_rent_is_theirs_and_the_speakers_own_rent_stands(tg) -> None:
    told(tg, ("2024-01-05", "Priya", "My rent is 900 euros a month."),
         ("2024-02-01", "Priya", "My sister's rent went up to 3,000 pounds."),
         ("2024-06-01", "Priya", "My sister's rent went up to 3,200 pounds."))
    assert now(tg, "Priya", "rent") == ["900 euros a month"]
    assert now(tg, "Priya's sister", "rent") == ["3,200 pounds"]
    assert then(tg, "2024-03-01", "Priya's sister", "rent") == ["3,000 pounds"]
    assert [f.object for f in tg.history("Priya's sister", "rent")] == ["3,000 pounds", "3,200 pounds"]
    assert now(tg, "Priya", "has sibling") == ["Priya's sister"]
    assert not any(rel.startswith("SISTER") for rel, _ in relations(tg, "Priya"))


@pytest.mark.parametrize(("kin", "relation"), [
    ("husband", "MARRIED_TO"), ("son", "HAS_CHILD"), ("mom", "HAS_PARENT"), ("daughter", "HAS_CHILD")])
def test_each_relatives_value_is_the_relatives(tg, kin: str, relation: str) -> None:
    told(tg, ("2024-03-01", "Priya", f"My {kin}'s salary is 41,000 pounds a year."))
    assert now(tg, f"Priya's {kin}", "salary") == ["41,000 pounds a year"]
    assert now(tg, "Priya", relation) == [f"Priya's {kin}"]
    assert now(tg, "Priya", "salary") == []


@pytest.mark.parametrize("who", ["ex", "friend", "colleague", "neighbour", "landlord", "cousin"])
def test_someone_nobody_in_particular_gives_no_fact_at_all(tg, who: str) -> None:
    told(tg, ("2024-01-05", "Priya", "My rent is 900 euros a month."),
         ("2024-03-01", "Priya", f"My {who}'s rent went up to 2,100 pounds."))
    assert now(tg, "Priya", "rent") == ["900 euros a month"]
    assert relations(tg, "Priya") == {("RENT", "900 euros a month")}


def test_a_relative_named_before_is_that_person(tg) -> None:
    told(tg, ("2024-01-05", "Priya", "My sister Meera moved to Bristol."),
         ("2024-01-06", "Priya", "My sister's rent is 950 pounds."))
    assert now(tg, "Meera", "rent") == ["950 pounds"]
    assert now(tg, "Priya", "has sibling") == ["Meera"]


def test_a_chain_of_names_names_the_last_one(tg) -> None:
    told(tg, ("2024-01-05", "Priya", "Marco's rent is 1,200 euros."),
         ("2024-02-05", "Priya", "Marco's brother's rent is 700 euros."))
    assert now(tg, "Marco", "rent") == ["1,200 euros"]
    assert now(tg, "Marco's brother", "rent") == ["700 euros"]
    assert now(tg, "Marco", "has sibling") == ["Marco's brother"]


@pytest.mark.parametrize(("text", "relation", "value"), [
    ("Harry Potter is my sister's favorite book.", "FAVORITE_BOOK", "Harry Potter"),
    ("Dance is my sister's passion.", "HAS_HOBBY", "Dance"),
])
def test_a_thing_someones_relative_loves_is_no_relative(tg, text: str, relation: str, value: str) -> None:
    told(tg, ("2024-02-01", "Priya", text))
    assert now(tg, "Priya", "has sibling") == ["Priya's sister"]  # the sister, never Harry Potter
    assert now(tg, "Priya's sister", relation) == [value]


# --- states that are no value, hyperbole, framing, reporting -------------------------------------------


@pytest.mark.parametrize("text", [
    "My rent is due on Friday.", "My rent is paid.", "My rent is late again.", "My rent is overdue.",
    "My rent is literally a million dollars.", "My rent is basically infinite.",
    "In the game my rent is 5 gold coins.", "My rent is 2,000 euros, or so my landlord claims.",
    "My rent is 1,900 euros, my flatmate said.", "How much was the rent in March 2024?",
])
def test_the_rent_holds_through_what_is_no_new_value(tg, text: str) -> None:
    told(tg, ("2024-01-05", "Priya", "My rent is 900 euros a month."), ("2024-03-01", "Priya", text))
    assert now(tg, "Priya", "rent") == ["900 euros a month"]
    assert [f.object for f in tg.history("Priya", "rent")] == ["900 euros a month"]


@pytest.mark.parametrize("text", [
    "In the game I live in Paris.", "In my novel, I live in Paris and work at Le Monde.",
    "I dreamt I worked at Google.", "I live in Paris, my flatmate said.",
    "I live in Paris, or so my landlord claims.", "Let's say I live in Paris.",
])
def test_a_framed_or_reported_home_leaves_the_real_one(tg, text: str) -> None:
    told(tg, ("2024-01-05", "Priya", "I live in London."), ("2024-03-01", "Priya", text))
    assert now(tg, "Priya", "lives in") == ["London"]
    assert relations(tg, "Priya") == {("LIVES_IN", "London")}


def test_joy_that_used_to_be_and_a_status_one_loves_to_hate_give_nothing(tg) -> None:
    told(tg, ("2024-03-01", "Priya", "Art used to give me so much joy."),
         ("2024-03-02", "Priya", "I just love it when my order status is lost."))
    assert relations(tg, "Priya") == set()


def test_an_assistants_general_statements_are_no_facts(tg) -> None:
    told(tg, ("2024-03-01", "Priya", "I live in London."),
         ("2024-03-01", "assistant", "The standard rate is 20% above a threshold."),
         ("2024-03-01", "assistant", "To avoid conflicts, the rent is 1,000 euros a month in Paris."),
         ("2024-03-01", "assistant", "Total: 45 euros. Estimated delivery is 3 days."),
         ("2024-03-01", "assistant", "You live in Leeds and work at Asda, so your rent is 700 pounds."))
    assert relations(tg, "Priya") == {("LIVES_IN", "London")}
    for name in ("To", "Total", "Estimated", "assistant", "standard"):
        assert relations(tg, name) == set()


# --- employer and role, starts ahead, several statements -----------------------------------------------


def test_employer_and_role_in_one_clause(tg) -> None:
    told(tg, ("2023-01-01", "Priya", "I work at KPMG as an auditor."),
         ("2024-02-01", "Priya", "I'm still at Deloitte as a data analyst."))
    assert now(tg, "Priya", "works at") == ["Deloitte"] and now(tg, "Priya", "works as") == ["data analyst"]
    assert then(tg, "2023-06-01", "Priya", "works at") == ["KPMG"]


def test_a_job_that_starts_ahead_is_a_plan_until_its_date_then_the_job(tg) -> None:
    told(tg, ("2024-01-10", "Priya", "I work at Barclays as an analyst."),
         ("2024-03-04", "Priya", "I start at Monzo next week as a product manager."))
    assert then(tg, "2024-03-06", "Priya", "works at") == ["Barclays"]
    assert then(tg, "2024-03-06", "Priya", "plans") == ["start work at Monzo"]
    assert then(tg, "2024-03-20", "Priya", "works at") == ["Monzo"]
    assert then(tg, "2024-03-20", "Priya", "works as") == ["product manager"]
    assert then(tg, "2024-03-20", "Priya", "plans") == []
    [job] = [f for f in tg.history("Priya", "works at") if f.object == "Monzo"]
    assert job.valid_at.isoformat().startswith("2024-03-11")  # from the Monday of next week


def test_two_statements_in_one_sentence_both_hold(tg) -> None:
    told(tg, ("2024-01-05", "Priya", "I live in Turin."),
         ("2024-04-01", "Priya", "I live in Milan now, my rent is 900 euros a month."))
    assert now(tg, "Priya", "lives in") == ["Milan"] and now(tg, "Priya", "rent") == ["900 euros a month"]
    assert then(tg, "2024-02-01", "Priya", "lives in") == ["Turin"]


def test_a_rent_raised_then_told_by_it(tg) -> None:
    told(tg, ("2024-01-05", "Priya", "My rent is 990 euros a month."),
         ("2024-05-01", "Priya", "My landlord raised the rent, it's 1,050 euros a month now."))
    assert now(tg, "Priya", "rent") == ["1,050 euros a month"]
    assert then(tg, "2024-03-01", "Priya", "rent") == ["990 euros a month"]


# --- statuses told by their verb ------------------------------------------------------------------------


def test_an_orders_status_told_by_its_verbs_through_the_chat(tg) -> None:
    told(tg, ("2024-05-01", "Marco", "I ordered a bike, order 4471."),
         ("2024-05-02", "Marco", "The order is processing."),
         ("2024-05-04", "Marco", "It has shipped."),
         ("2024-05-06", "Marco", "It was delivered this morning."))
    assert now(tg, "Order 4471", "status") == ["delivered"]
    assert then(tg, "2024-05-03", "Order 4471", "status") == ["processing"]
    assert [f.object for f in tg.history("Order 4471", "status")] == ["processing", "shipped", "delivered"]


def test_order_is_shipped_replaces_packed(tg) -> None:
    told(tg, ("2024-04-01", "Kai", "Order 5512 status is packed."),
         ("2024-04-03", "Kai", "Order 5512 is shipped."))
    assert now(tg, "Order 5512", "status") == ["shipped"]
    assert then(tg, "2024-04-02", "Order 5512", "status") == ["packed"]


@pytest.mark.parametrize(("text", "status"), [
    ("Order 5512 was cancelled.", "cancelled"), ("Order 5512 got refunded.", "refunded"),
    ("order 5512 is out for delivery", "out for delivery"), ("Order 5512 has been dispatched!", "dispatched"),
])
def test_status_verbs(tg, text: str, status: str) -> None:
    told(tg, ("2024-04-01", "Kai", "Order 5512 status is packed."), ("2024-04-03", "Kai", text))
    assert now(tg, "Order 5512", "status") == [status]


def test_my_order_is_the_speakers(tg) -> None:
    told(tg, ("2024-04-01", "Kai", "My order is processing."),
         ("2024-04-05", "Kai", "My order got cancelled."))
    assert now(tg, "Kai's order", "status") == ["cancelled"]
    assert then(tg, "2024-04-02", "Kai's order", "status") == ["processing"]


def test_a_ticket_closed_then_reopened(tg) -> None:
    told(tg, ("2024-04-01", "Ken", "Ticket 4521 is resolved."),
         ("2024-04-03", "Ken", "Ticket 4521 got reopened."),
         ("2024-04-09", "Ken", "We closed ticket 4521 today."))
    assert [f.object for f in tg.history("Ticket 4521", "status")] == ["resolved", "reopened", "closed"]
