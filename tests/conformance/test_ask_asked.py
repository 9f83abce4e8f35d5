"""`ask` reads what it needs through the store protocol alike on every store (issue 51, 50): the
group's speakers for "I" and for broad questions, the one holder of a relation for a question naming
no one, a thing's status, and an "I don't know" that names what is held instead."""

from __future__ import annotations

from temporal_graph import TemporalGraph

ASKED_ON = "2024-06-01"


def _memory(tg: TemporalGraph, group: str) -> None:
    tg.add_episode("Hi!", reference_time="2024-05-01", speaker="Dana", group_id=group)
    tg.add_episode("The VAT rate is 23%.", reference_time="2024-05-01T00:00:30", speaker="assistant",
                   group_id=group)
    tg.add_fact("Dana", "lives in", "Porto", valid_at="2023-09-28", group_id=group)
    tg.add_fact("Dana", "rent", "700 euros a month", valid_at="2024-01-01", group_id=group)
    tg.add_fact("Dana", "rent", "750 euros a month", valid_at="2024-04-01", group_id=group)
    tg.add_fact("Order 5512", "status", "shipped", valid_at="2024-03-06", group_id=group)
    tg.add_fact("Order 5512", "status", "delivered", valid_at="2024-03-09", group_id=group)


def test_ask_on_every_store(tg: TemporalGraph, groups) -> None:
    group = groups("ask")
    _memory(tg, group)

    def ask(question: str, **kw):
        return tg.ask(question, reference_time=ASKED_ON, group_id=group, **kw)

    job = ask("What does Dana do for a living?")
    assert not job.known and job.facts == [] and "Porto" in job.text
    home = ask("Where do I live?")
    assert [f.object for f in home.facts] == ["Porto"] and "taking 'I' to be Dana" in home.text
    assert [f.object for f in ask("What is my rent?", speaker="Dana").facts] == ["750 euros a month"]
    march = ask("How much was the rent in March 2024?")
    assert [f.object for f in march.facts] == ["700 euros a month"] and "Dana" in march.text
    shipped = ask("Has order 5512 shipped?")
    assert shipped.verdict == "yes" and "delivered" in shipped.text
    people = ask("Tell me about people.")
    assert people.text.startswith("The weightiest current facts of the memory")
    assert {f.subject for f in people.facts} == {"Dana"}
