"""A change told without repeating the attribute, read with the question that asks about it
("Where does Inés work?": "I'm a nurse at the Clinic Barcelona", then "new job!! I'm at Hospital del
Mar now"): the older message is labelled ``possibly superseded`` in search and in ``context()``
and ranked below the newer one. Lookalikes stay current: someone else's change, a plan, a
question, a negation, the past told as past, a confirmation, a change of another attribute,
another record. The pairs are our own (none is a phrasing of a benchmark set)."""

from __future__ import annotations

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.asked_changes import changed_for, what_is_asked

# ruff: noqa: E501 (a case a line)

LABEL = "[possibly superseded"

CHANGES = [
    ("Where does Inés work?", "I'm a nurse at the Clinic Barcelona.", "new job!! I'm at Hospital del Mar now"),
    ("Where does Kenta live?", "Our flat is in Shimokitazawa, tiny but cosy.", "Finally moved, we live in Yokohama now."),
    ("Which bank does Olga use?", "Bank: Nordea.", "Moved my salary account over to Revolut."),
    ("Who is Priya's doctor?", "My doctor is Dr. Hale.", "I signed up with a new GP near the office, Dr. Amin."),
    ("What car does Femi drive?", "My car is a Toyota Yaris.", "Sold the Yaris, I drive a VW ID.3 now."),
    ("How much does Jakub weigh?", "I weigh 101 kg.", "Down to 94 kg since I started cycling!"),
    ("What laptop does Mira use?", "My laptop is a Dell Latitude.", "The Latitude gave up, I'm on a Framework 13 now."),
    ("Who is Aisha dating?", "I've been seeing Marcus for a year.", "Marcus and I split up. I'm dating Theo now."),
    # a value that holds from a change: "since the migration", "after the move"
    ("Which database does the billing service run on?", "The billing service runs on MySQL 5.7.",
     "Billing runs on Postgres 15 since the migration, fyi. Unrelated: how do I rebase?"),
    ("Where is Dara's office?", "The office is on Baker Street.", "Quick one: the office is on Mill Lane after the move."),
    # a request to note it is news all the same
    ("Where is Dara's office?", "The office is on Baker Street.", "Please note the office moved to Mill Lane."),
    # "says" is the verb: the subject is the meter, which the newer text speaks of too
    ("How many units is Femi's gas meter on?", "The gas meter says 4,120 units.", "The gas meter says 4,390 units now."),
]

LOOKALIKES = [
    # someone else's news
    ("Where does Inés work?", "I'm a nurse at the Clinic Barcelona.", "My brother got a new job at Hospital del Mar now."),
    ("Where does Inés work?", "I'm a nurse at the Clinic Barcelona.", "My intern just started at Hospital del Mar, so proud."),
    # a plan, a question, a negation, the past told as past
    ("Where does Kenta live?", "We live in Shimokitazawa.", "We might move to Yokohama next year."),
    ("Where does Kenta live?", "We live in Shimokitazawa.", "Should we move to Yokohama now?"),
    ("What car does Femi drive?", "I drive a Toyota Yaris.", "I didn't swap the Yaris for the VW in the end."),
    ("Where does Kenta live?", "I live in Yokohama.", "Back in 2015 I lived in Osaka, moved a lot then."),
    # a confirmation
    ("Where does Inés work?", "I work at Hospital del Mar.", "Still at Hospital del Mar, going on three years now."),
    # a change of another attribute than the one asked about
    ("Where does Inés work?", "I work at Hospital del Mar.", "We moved to Gràcia now, closer to the park."),
    # a value of another kind, said bare; a sibling the older message sets apart
    ("How long does the CI pipeline take?", "Our CI pipeline takes 25 minutes.", "I'm down to 78 kg now."),
    ("What phone does Ines use?", "My work phone is a Galaxy A54.", "My phone is a Pixel 8 now."),
    # another record in the same template
    ("What is the status of ticket 4410?", "Ticket 4410: open, assigned to Ana.", "Ticket 4417 is closed now."),
    # the change is told in a sentence of its own, of something else: the word shared is elsewhere
    ("How much does Femi weigh?", "The scale says 88 kg. Anyway, what's a good stretch?",
     "Help me scale a bread recipe to 2 kg. (Our rent is €900 a month now, by the way.)"),
]


@pytest.mark.parametrize("question, old, new", CHANGES)
def test_a_change_the_question_names_is_read(question: str, old: str, new: str) -> None:
    assert changed_for(old, new, question)


@pytest.mark.parametrize("question, old, new", LOOKALIKES)
def test_a_lookalike_is_no_change(question: str, old: str, new: str) -> None:
    assert not changed_for(old, new, question, 2024)


def test_a_question_naming_no_attribute_reads_nothing() -> None:
    assert what_is_asked("What's up with Dana?") is None
    assert not changed_for("I work at Acme.", "I work at Globex now.", "What's up with Dana?")


def test_the_names_a_question_holds_are_who_not_what() -> None:
    a = what_is_asked("Where does Tomasz work?")
    assert a is not None and "tomasz" not in a.words and "work" in a.words


def _asked_of(question: str) -> str:
    """The person a question asks about: its name ("Where does Inés work?" -> "Inés")."""
    return next(w.removesuffix("'s") for w in question.rstrip("?").split()[1:] if w[:1].isupper())


def _tell(tg: TemporalGraph, tick, speaker: str, old: str, new: str) -> tuple[str, str]:
    tick()
    a = tg.add_episode(old, speaker=speaker, reference_time="2024-02-01").episode.id
    tick()
    tg.add_episode("Can you suggest a good book about habits?", speaker=speaker, reference_time="2024-04-01")
    tick()
    b = tg.add_episode(new, speaker=speaker, reference_time="2024-08-01").episode.id
    return a, b


@pytest.mark.parametrize("question, old, new", CHANGES[:3])
def test_search_and_context_label_the_older_message(clock, tick, question: str, old: str, new: str) -> None:
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        old_id, new_id = _tell(tg, tick, _asked_of(question), old, new)
        hits = [h for h in tg.search(question, limit=10) if h.episode is not None]
        ids = [h.episode.id for h in hits]
        assert old_id in ids and new_id in ids and ids.index(new_id) < ids.index(old_id)
        hit = hits[ids.index(old_id)]
        assert hit.standing in ("possibly_superseded", "superseded", "partly_superseded")
        lines = [line for line in tg.context(question).splitlines() if old.rstrip(".")[:25] in line]
        assert lines and all("[" in line and "superseded" in line for line in lines)


def test_another_speakers_change_leaves_the_older_message_current(clock, tick) -> None:
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        tick()
        old_id = tg.add_episode("I'm a nurse at the Clinic Barcelona.", speaker="Inés",
                                reference_time="2024-02-01").episode.id
        tick()
        tg.add_episode("new job!! I'm at Hospital del Mar now", speaker="Pau", reference_time="2024-08-01")
        hit = next(h for h in tg.search("Where does Inés work?", limit=10)
                   if h.episode is not None and h.episode.id == old_id)
        assert hit.standing in ("current", "unparsed")


# A value given again for what the question asks (:func:`rewording.revises_about`, own values), through
# the API: the older is labelled only when the newer is news of the same holder's value.
VALUES_AGAIN = [
    ("How long does Ilse's homepage take to load?", "First paint on the homepage is 3.9 s.",
     "After the font work the homepage is 1.7 s."),
    ("How much does Ilse save each month?", "I put away €600 a month.", "I stash €800 a month these days."),
]
VALUE_LOOKALIKES = [
    # a qualifier the newer and the question leave out: another pool
    ("How big is Ilse's thread pool?", "The worker pool is 12 threads.", "Some context: our thread pool is 40 threads."),
    # a period is no shared attribute, and another currency is another sum
    ("How much does Ilse save each month?", "I save €600 a month.", "The water bill came to £45 a month this time."),
    # a question, the past told as past
    ("How much does Ilse sleep per night?", "I get 6 hours of sleep.", "Is 8 hours of sleep really needed?"),
    ("How much does Ilse save each month?", "I save €600 a month.", "I used to save €200 a month as a student."),
    # the older is someone else's value
    ("How much does Ilse sleep per night?", "My toddler sleeps 11 hours at night.", "I'm managing 6 hours of sleep now."),
    ("How many days of holiday does Ilse get?", "My husband gets 30 days of holiday.", "My holiday went up to 26 days."),
]


def _old_standing(clock, tick, question: str, old: str, new: str) -> str:
    with TemporalGraph.open(":memory:", clock=clock) as tg:
        old_id, _ = _tell(tg, tick, "Ilse", old, new)
        return next(h.standing for h in tg.search(question, limit=10)
                    if h.episode is not None and h.episode.id == old_id)


@pytest.mark.parametrize("question, old, new", VALUES_AGAIN)
def test_a_value_given_again_for_the_question_labels_the_older(clock, tick, question: str, old: str,
                                                                new: str) -> None:
    assert _old_standing(clock, tick, question, old, new) == "possibly_superseded"


@pytest.mark.parametrize("question, old, new", VALUE_LOOKALIKES)
def test_a_lookalike_value_for_the_question_leaves_the_older_current(clock, tick, question: str, old: str,
                                                                     new: str) -> None:
    assert _old_standing(clock, tick, question, old, new) in ("current", "unparsed")
