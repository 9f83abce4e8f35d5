"""A value stated once and revised in passing, months later, inside a request about something else
("our staging server has 32 GB of RAM" ... "the staging server has 64 GB now, can you help me with
this query?"): the older message is labelled ``possibly superseded`` by the newer one in search and
in ``context()``, and ranked below it. Lookalikes stay current: a sibling holder (the *production*
server), someone else's value, two orders, the same value restated, a question, a plan, a
negation, the past told as past, another attribute of the same thing.

Through the public API, as ``tests/test_reworded_news.py``; the pairs are our own (none is a
phrasing of ``benchmarks/supersession_chats.py``)."""

from __future__ import annotations

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.value_revisions import mentions, revises_value

# ruff: noqa: E501 (a pair a line)

LABEL = "[possibly superseded"
FILLER = [  # unrelated requests between the two, so the pair is not alone in the memory
    "Can you help me write a cover letter for a backend role?",
    "What's a good way to structure a README for an internal tool?",
    "How do I undo the last commit without losing my changes?",
]

REVISIONS = [
    ("Our staging server has 32 GB of RAM, and I need help with a slow query.",
     "The staging server has 64 GB now, can you help me with this query?"),
    ("For context, our Redis cache holds about 12 GB. How do I pick an eviction policy?",
     "Quick question about key expiry - the Redis cache holds 20 GB now."),
    ("I pay $1,450 a month for the flat on Elm Road, can you check my budget?",
     "Rent for the flat went up, I pay $1,600 a month now; can you redo my budget?"),
    ("Our support team is 5 people. How should on-call work?",
     "Small thing first: the support team is 8 people these days. How do we split the rota?"),
    ("The nightly backup job takes 45 minutes, any idea why it's slow?",
     "btw the nightly backup job takes 2 hours since we added the archive. How do I parallelise it?"),
    ("Our main service runs on Java 17. What's the best logging library?",
     "We moved the main service to Java 21 last sprint. Can you review this Dockerfile?"),
    ("Our monthly churn is 4.5%. What would you look at first?",
     "Our monthly churn is 3.1% since the onboarding changes, what else should we try?"),
    # "an hour" is a duration
    ("The weekly export takes an hour, why is it so slow?",
     "The weekly export takes 20 minutes since the index change - anyway, can you review my SQL?"),
    # a qualifier naming the one meant by default, left out
    ("Our primary cache is Redis 6, what eviction policy would you pick?",
     "FYI the cache is Redis 7 now. How do I rotate the logs?"),
    # a name in a role the speaker has one of
    ("Nadia is my team lead, so can you help me prepare for our one-to-one?",
     "Quick one - my new team lead is Oskar. How do I write a good handover doc?"),
    # the name first, after a lead-in, both times
    ("Some background: Nadia is my team lead. Can you help me plan a one-to-one?",
     "Oskar is my team lead since the reshuffle. How do I write a handover doc?"),
]

LOOKALIKES = [
    # a sibling holder: the production server's RAM is not the staging server's
    ("Our staging server has 32 GB of RAM.", "The production server has 128 GB of RAM, what swap should it have?"),
    # a qualifier the newer leaves out: "my team" is not "the data team" (this rule refuses it; the
    # stated-change rule still reads "now" on the topic "team" as a change)
    pytest.param("The data team next door is 3 people.", "My team is 7 people now. How do I run a retro?",
                 marks=pytest.mark.xfail(strict=True, reason="labelled by change_cues.states_change")),
    # a qualifier that sets the holder apart, said instead of the default one
    ("Our primary cache is Redis 6.", "The session cache is Redis 7 now."),
    # someone else's value; two people's rents
    ("My rent is £1,200 a month.", "My sister's rent is £950 a month, is that a good deal?"),
    ("Priya's rent is €900 a month.", "Marco's rent is €750 a month."),
    # someone else's value first, then the speaker's own (found on the held-out conversations)
    ("My partner's commute is 35 minutes each way.", "Background: my commute is 15 minutes each way."),
    # another person's, another role, a role many people hold
    ("Nadia is my team lead.", "My sister's team lead is Oskar, she loves him."),
    ("Nadia is my team lead.", "My mentor is Oskar, he's great with career advice."),
    pytest.param("My friend is Ana, she's a chemist.", "My friend is Maria, she runs a bakery.",
                 marks=pytest.mark.xfail(strict=True, reason="labelled by change_cues.reworded_as_news")),
    # two orders, two tickets
    ("Order 4471 weighs 12 kg.", "Order 4472 weighs 9 kg."),
    ("Ticket 881 took 3 days to close.", "Ticket 902 took 5 days to close."),
    # the same value restated
    ("Our staging server has 32 GB of RAM.", "The staging server still has 32 GB, is that enough for Elasticsearch?"),
    # a question
    ("Our staging server has 32 GB of RAM.", "Does the staging server have 64 GB of RAM now?"),
    ("Our staging server has 32 GB of RAM.", "is it still 32 GB or did it get 64 GB of RAM"),
    # a plan, a hypothetical
    ("Our staging server has 32 GB of RAM.", "We'll upgrade the staging server to 64 GB next month."),
    ("Our cloud budget is $4,000 a month.", "If the cloud budget were $6,000 a month, would reserved instances pay off?"),
    # a negation
    ("Our staging server has 32 GB of RAM.", "The staging server doesn't have 64 GB of RAM, that was the old plan."),
    # the past told as past
    ("The staging server has 64 GB of RAM.", "Back in 2019 the staging server had 16 GB of RAM."),
    # another attribute of the same thing (this rule refuses it; the rewording rule reads the
    # sentence as the same one with another value)
    pytest.param("Our staging server has 32 GB of RAM.", "Our staging server has 500 GB of disk.",
                 marks=pytest.mark.xfail(strict=True, reason="labelled by change_cues.reworded_as_news")),
]


def _tell(tg: TemporalGraph, tick, old: str, new: str) -> tuple[str, str]:
    tick()
    a = tg.add_episode(old, speaker="Sam", reference_time="2024-01-10").episode.id
    for n, text in enumerate(FILLER):
        tick()
        tg.add_episode(text, speaker="Sam", reference_time=f"2024-0{3 + n}-01")
    tick()
    b = tg.add_episode(new, speaker="Sam", reference_time="2024-07-10").episode.id
    return a, b


def _hits(tg: TemporalGraph, query: str):
    return [h for h in tg.search(query, stale="label", limit=20) if h.episode is not None]


@pytest.mark.parametrize("old, new", REVISIONS)
def test_a_value_revised_in_passing_labels_the_older_message(clock, tick, old: str, new: str) -> None:
    assert revises_value(old, new)
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        old_id, new_id = _tell(tg, tick, old, new)
        hits = _hits(tg, old)
        ids = [h.episode.id for h in hits]
        hit = hits[ids.index(old_id)]
        assert hit.standing == "possibly_superseded" and new_id in hit.superseded_by
        assert new_id in ids and ids.index(new_id) < ids.index(old_id)  # the revision ranks first
        lines = [line for line in tg.context(old).splitlines() if old[:30] in line]
        assert lines and all(LABEL in line for line in lines)


@pytest.mark.parametrize("old, new", LOOKALIKES)
def test_a_lookalike_value_leaves_the_older_message_current(clock, tick, old: str, new: str) -> None:
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        old_id, _ = _tell(tg, tick, old, new)
        for query in (old, new):
            hit = next((h for h in _hits(tg, query) if h.episode.id == old_id), None)
            assert hit is None or hit.standing in ("current", "unparsed"), (query, hit.standing)
        lines = [line for line in tg.context(old).splitlines() if old.rstrip(".") in line]
        assert not any(LABEL in line for line in lines)


@pytest.mark.parametrize("old, new", [p.values if hasattr(p, "values") else p for p in LOOKALIKES])
def test_no_lookalike_reads_as_a_value_revision(old: str, new: str) -> None:
    assert not revises_value(old, new)


def test_another_speakers_value_is_not_a_revision(clock, tick) -> None:
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        tick()
        old_id = tg.add_episode("Our staging server has 32 GB of RAM.", speaker="Sam",
                                reference_time="2024-01-10").episode.id
        tick()
        tg.add_episode("The staging server has 64 GB now.", speaker="Kim", reference_time="2024-06-10")
        hit = next(h for h in _hits(tg, "staging server RAM") if h.episode.id == old_id)
        assert hit.standing in ("current", "unparsed")


@pytest.mark.parametrize("text, kind, value", [
    ("The staging server has 64 GB now", ("bytes", ""), "64"),
    ("prod grew to 1.2 TB", ("bytes", ""), "1200"),  # sizes compared across units
    ("We charge $12k a year for it", ("money", "$", "year"), "12000"),
    ("Sprints last two weeks", ("time", ""), "1.2096e+06"),
    ("We're on Postgres 16", ("version", "postgres"), "16"),
    ("The team is 9 people", ("count", "people"), "9"),
    ("Small update: my new manager is Ibrahim", ("name", "manager"), "ibrahim"),
])
def test_values_are_read_with_their_kind(text: str, kind: tuple[str, ...], value: str) -> None:
    assert [(m.kind, m.value) for m in mentions(text)] == [(kind, value)]


def test_identifiers_and_years_are_not_values() -> None:
    assert mentions("Order 4471 shipped in 2023") == ()
    assert mentions("I'll explain it step by step") == ()


# The speaker's own value, revised without the attribute's word (issue 50: "I earn €52,000 a year"
# -> "I'm on €58,000 now"): read only when one person said both.
OWN_REVISIONS = [
    ("I earn €52,000 a year, could you look over my budget?", "I'm on €58,000 now, can you redo the budget?"),
    ("My salary is £41,000 a year. What pension contribution makes sense?", "Quick one: I get paid £44,000 a year since April. Is an ISA worth it?"),
    ("My commute is 40 minutes each way, any podcast ideas?", "It takes me 25 minutes to get to work now. Can you suggest a short audiobook?"),
    ("I pay €850 a month in rent. Is that a lot for Lyon?", "The flat costs me €910 a month since the renewal, how do I reply politely?"),
    ("I run about 20 km a week, how should I pace a 10k?", "These days I jog 35 km a week. What shoes should I get?"),
]

OWN_LOOKALIKES = [
    # another person's value of the same attribute
    ("I earn €52,000 a year.", "My wife earns €49,000 a year now, should we file jointly?"),
    ("My commute is 40 minutes each way.", "My partner's commute is 25 minutes now that she drives."),
    ("My rent is €900 a month.", "Marco pays €750 a month for his flat now."),
    # another attribute of the speaker in the same currency and period
    ("I earn €52,000 a year.", "I pay €14,000 a year in rent now."),
    ("I earn €52,000 a year.", "I'm saving €500 a month now."),
    # a bare duration is not a commute
    ("My commute is 40 minutes each way.", "I'm getting 7 hours now, which helps."),
    # a plan, a hypothetical, a question, the past told as past
    ("I earn €52,000 a year.", "Next year I'll earn €60,000 a year if the promotion happens."),
    ("I earn €52,000 a year.", "If I took the Berlin offer I'd earn €65,000 a year."),
    ("I earn €52,000 a year.", "Should I ask to be paid €60,000 a year?"),
    ("I earn €52,000 a year.", "Back in 2019 I earned €40,000 a year."),
    # a sum of one currency far from the older one, its period left out: a one-off, not the salary
    ("I earn €52,000 a year.", "I got paid €800 now for the article."),
]


@pytest.mark.parametrize("old, new", OWN_REVISIONS)
def test_the_speakers_own_value_said_another_way_is_a_revision(clock, tick, old: str, new: str) -> None:
    assert revises_value(old, new, same_speaker=True)
    assert not revises_value(old, new)  # by two speakers, "I" is two people
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        old_id, new_id = _tell(tg, tick, old, new)
        hit = next(h for h in _hits(tg, old) if h.episode.id == old_id)
        assert hit.standing == "possibly_superseded" and new_id in hit.superseded_by


@pytest.mark.parametrize("old, new", OWN_LOOKALIKES)
def test_an_own_value_lookalike_is_not_a_revision(old: str, new: str) -> None:
    assert not revises_value(old, new, 2024, same_speaker=True)


def test_another_speakers_own_value_is_not_a_revision(clock, tick) -> None:
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        tick()
        old_id = tg.add_episode("I earn €52,000 a year.", speaker="Sam", reference_time="2024-01-10").episode.id
        tick()
        tg.add_episode("I'm on €58,000 now.", speaker="Kim", reference_time="2024-06-10")
        hit = next(h for h in _hits(tg, "How much does Sam earn?") if h.episode.id == old_id)
        assert hit.standing in ("current", "unparsed")
