"""A later message that says something changed marks the older one ``possibly_superseded``
(``temporal_graph.core.change_cues`` through ``queries.probable``), labelled and ranked below,
never hidden: "Our office is at 221 Baker Street." -> "The office relocated to 5 Market Square."

Precision first: someone else's change, a plan, a question, a negation, the past told as past and
another record of the same template must leave the older message current. Through the public API:
``add_episode``, ``search(...)``'s standings and ``context()`` lines. The pairs are our own."""

from __future__ import annotations

import pytest

from temporal_graph import TemporalGraph

LABEL = "[possibly superseded"

REVISIONS = [
    ("Our office is at 221 Baker Street.", "The office relocated to 5 Market Square."),
    ("Noor uses the compact layout everywhere.", "Noor went back to the classic layout."),
    ("My car is an old Lada.", "Sold the Lada. Got a Skoda instead."),
    ("The data pipeline runs on Airflow.", "We migrated the pipeline to Dagster last sprint."),
    ("We deploy with Jenkins.", "We don't use Jenkins anymore, it's GitHub Actions."),
    ("Project Lark deadline is April 1.", "Project Lark deadline pushed back to May."),
    ("My manager is Dana.", "My new manager is Ibrahim."),
    ("The team standup is in the Heron room.", "Standup moved to the Kestrel room."),
    ("Our bank is Monzo.", "We switched our bank to Starling."),
    # the change told before a spaced dash, a request after it: two sentences, not one question
    ("My dentist is Dr Kowalski.", "I switched dentist, it's Dr Reyes now - anyway, how do I floss well?"),
]

# (older message, newer message) from the same speaker: the older must stay current.
LOOKALIKES = [
    # someone else's change
    ("I work at Unilever.", "My brother just started a new job at Nestle!"),
    ("My rent is 900 a month.", "My wife's rent went up to 1,100 a month."),
    ("I work at Unilever.", "My mum's new job is at Nestle."),
    ("I live in Leeds.", "My sister moved to York."),
    ("I work at Hillside Academy.", "Priya left Hillside, she teaches at Oakfield now."),
    ("Marco's rent is 900 a month.", "Priya's rent went up to 1,100 a month."),
    ("Noor uses the compact layout.", "Nour switched to the classic layout."),
    ("I live in Leeds.", "My parents relocated to Whitby."),
    # plans, wishes, hypotheticals, conditionals
    ("I drive a Lada.", "Thinking about getting a Tesla next year."),
    ("We live in Pune.", "Should we move to Bangalore?"),
    ("I work at Initech.", "Imagine if I worked at Google."),
    ("I drive a Lada.", "If I sold the Lada I'd get a Skoda instead."),
    ("My bank is Monzo.", "Planning to switch my bank to Revolut soon."),
    ("We deploy with Jenkins.", "We want to replace Jenkins with GitHub Actions."),
    # questions
    ("We use Postgres 13.", "Did you upgrade Postgres to 16 now?"),
    ("My car is a Lada.", "Is the Skoda the new car now?"),
    ("The standup is at 9:30.", "Has the standup moved to 10 now?"),
    # negations
    ("My bank is Monzo.", "I didn't switch to Revolut in the end."),
    ("The office is at 221 Baker Street.", "The office never relocated to Market Square after all."),
    ("We deploy with Jenkins.", "We have not migrated away from Jenkins."),
    # the past told as past
    ("I drive a Skoda.", "Back in 2015 I drove a Renault Clio."),
    ("I work at Fiat.", "When I was a student I switched jobs every summer."),
    # other records of one template
    ("Order 4471 shipped.", "Order 4472 is now processing."),
    ("Project Lark deadline is April 1.", "Project Wren deadline pushed back to May."),
    ("The staging server has 32 GB of RAM.", "The production server now has 128 GB of RAM."),
    ("Contoso Q2 forecast: 4.1M units.", "Contoso Q3 forecast raised to 4.6M units."),
    ("Hive 3 is queenright and strong.", "Hive 4 is queenless, needs a new queen."),
    ("Ticket 880 status: open.", "Ticket 881 is now closed."),
    ("web-01 runs Ubuntu 22.04.", "web-02 upgraded to Debian 12."),
    ("The staging cluster has 4 nodes.", "The eu1 cluster has 9 nodes these days."),
    ("Lisa's daughter is 7.", "Lisa's son is now 4."),
    ("Team Falcon has 8 engineers.", "Team Hawk grew to 11 engineers."),
    ("Our bank is Monzo.", "Our client moved to a new bank, Starling."),
    ("The pipeline runs on Airflow.", "Maybe we migrate the DAGs to Dagster someday."),
    ("I live in Lisbon.", "Back in 2010 I moved from Lisbon to Porto."),
    # advice and generic prose, as an assistant writes it
    ("Our sync job uploads every file.", "aws s3 sync only uploads what changed."),
    ("We keep the cache settings manual.", "Leave the rest of the cache settings manual for now."),
    ("We keep the cache TTL at 300 seconds.", "Set the cache TTL to 60 seconds."),
    ("The draft report is long.", "Share a rough draft early instead of a polished one late."),
    ("Each render keeps the same object.", "A new object created on every render changes props."),
    # no shared topic
    ("I live in Turin.", "Our cat switched to the new food."),
]


def _tell(tg: TemporalGraph, tick, old: str, new: str, speaker: str = "Sam") -> tuple[str, str]:
    tick()
    a = tg.add_episode(old, speaker=speaker, reference_time="2024-01-10").episode.id
    tick()
    b = tg.add_episode(new, speaker=speaker, reference_time="2024-06-10").episode.id
    return a, b


def _standing(tg: TemporalGraph, query: str, episode_id: str):
    hits = tg.search(query, stale="label", limit=20)
    return next((h for h in hits if h.episode is not None and h.episode.id == episode_id), None)


def _old_lines(tg: TemporalGraph, query: str, old: str) -> list[str]:
    return [line for line in tg.context(query).splitlines() if old.rstrip(".") in line]


@pytest.mark.parametrize("old, new", REVISIONS)
def test_a_stated_change_labels_the_older_message_and_ranks_it_below(clock, tick, old: str, new: str) -> None:
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        old_id, new_id = _tell(tg, tick, old, new)
        hits = [h for h in tg.search(old, stale="label", limit=20) if h.episode is not None]
        ids = [h.episode.id for h in hits if h.episode is not None]
        hit = hits[ids.index(old_id)]
        if hit.standing != "superseded":  # a fact the rules read may say more; never less
            assert hit.standing == "possibly_superseded" and new_id in hit.superseded_by
        assert new_id in ids and ids.index(new_id) < ids.index(old_id)
        lines = _old_lines(tg, old, old)
        assert all("superseded" in line for line in lines)  # in the prompt, if at all, labelled


@pytest.mark.parametrize("old, new", LOOKALIKES)
def test_a_lookalike_leaves_the_older_message_current(clock, tick, old: str, new: str) -> None:
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        old_id, _ = _tell(tg, tick, old, new)
        for query in (old, new):
            hit = _standing(tg, query, old_id)
            assert hit is None or hit.standing in ("current", "unparsed"), (query, hit.standing)
        assert not any(LABEL in line for line in _old_lines(tg, old, old))


def test_another_speakers_change_is_not_a_revision_unless_it_names_the_subject(clock, tick) -> None:
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        tick()
        old = tg.add_episode("My car is an old Lada.", speaker="Sam", reference_time="2024-01-10").episode.id
        tick()
        tg.add_episode("Sold the Lada. Got a Skoda instead.", speaker="Kim", reference_time="2024-06-10")
        assert _standing(tg, "Lada car", old).standing in ("current", "unparsed")
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        tick()
        old = tg.add_episode("Noor uses the compact layout everywhere.", speaker="Sam",
                             reference_time="2024-01-10").episode.id
        tick()
        tg.add_episode("Noor went back to the classic layout.", speaker="Kim", reference_time="2024-06-10")
        assert _standing(tg, "Noor layout", old).standing == "possibly_superseded"


def test_a_change_dated_before_the_older_message_is_the_past(clock, tick) -> None:
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        old_id, _ = _tell(tg, tick, "I drive a Skoda.", "In 2019 I sold the old car and got a Skoda instead.")
        assert _standing(tg, "car Skoda", old_id).standing in ("current", "unparsed")


def test_the_older_message_is_labelled_never_hidden(clock, tick) -> None:
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        old_id, _ = _tell(tg, tick, "The data pipeline runs on Airflow.",
                          "We migrated the pipeline to Dagster last sprint.")
        for stale in ("label", "hide"):
            hits = tg.search("data pipeline", stale=stale, limit=20)
            assert any(h.episode is not None and h.episode.id == old_id for h in hits)
