"""Answers in the tense a person would use, on every store, for every question family: a fact that
ended by the time of asking is told in the past ("Where did Zhang Wei live in June 2023?" -> "Zhang
Wei lived in Hangzhou ..."), one that still holds in the present, with "still" when the question
asked about a time gone by; what the memory believed then is reported in the past."""

from __future__ import annotations

import pytest

from temporal_graph import TemporalGraph

STORY = [
    ("Zhang Wei", "2023-01-10T10:00:00+00:00", "I live in Hangzhou."),
    ("Zhang Wei", "2024-04-10T10:00:00+00:00", "I moved to Shanghai in March 2024."),
    ("Ana", "2023-01-10T10:00:00+00:00", "I work at Acme."),
    ("Ana", "2023-02-01T10:00:00+00:00", "My rent is 1,300 euros a month."),
    ("Ana", "2024-06-01T10:00:00+00:00", "My rent went up to 1,450 euros a month."),
    ("Priya", "2023-03-10T10:00:00+00:00", "I started working at Dell in March 2019."),
    ("Priya", "2024-03-10T10:00:00+00:00", "I left Dell in May 2023."),
    ("Kenji", "2023-01-10T10:01:00+00:00", "My brother Hiro lives in Sapporo."),
    ("Kenji", "2024-08-10T10:00:00+00:00", "Hiro moved to Fukuoka in June."),
]

# (family, question, the answer opens with / holds, words it must not hold): present and past per family.
CASES = [
    ("what, now", "Where does Zhang Wei live?", "Zhang Wei lives in Shanghai", "lived"),
    ("what, past, ended", "Where did Zhang Wei live in June 2023?", "Zhang Wei lived in Hangzhou", "lives"),
    ("what, past, still holds", "Where did Ana work in 2023?", "Ana still works at Acme", "worked"),
    ("attribute, now", "What is Ana's rent?", "Ana's rent is 1,450 euros a month", "was"),
    ("attribute, past", "What was Ana's rent in 2023?", "Ana's rent was 1,300 euros a month", " is "),
    ("history", "Where has Zhang Wei lived?",
     "Zhang Wei lived in Hangzhou (2023-01-10 to 2024-03-01); Zhang Wei lives in Shanghai", "still"),
    ("who, now", "Who lives in Shanghai?", "Zhang Wei lives in Shanghai", "lived"),
    ("who, past", "Who lived in Hangzhou in 2023?", "Zhang Wei lived in Hangzhou", "lives"),
    ("when began, holds", "When did Zhang Wei move to Shanghai?", "Zhang Wei lives in Shanghai", "lived"),
    ("when began, ended", "When did Priya start working at Dell?", "Priya worked at Dell", "works"),
    ("when ended", "When did Priya leave Dell?", "Priya worked at Dell", "works"),
    ("when ended, holds", "When did Zhang Wei leave Shanghai?", "it still holds: Zhang Wei lives in Shanghai",
     "lived"),
    ("how long, ended", "How long did Priya work at Dell?", "Priya worked at Dell", "works"),
    ("how long, holds", "How long has Zhang Wei lived in Shanghai?", "Zhang Wei lives in Shanghai", "lived"),
    ("ever, ended", "Has Zhang Wei ever lived in Hangzhou?", "Yes: Zhang Wei lived in Hangzhou", "lives"),
    ("ever, holds", "Has Zhang Wei ever lived in Shanghai?", "Yes: Zhang Wei lives in Shanghai", "lived"),
    ("still", "Does Zhang Wei still live in Hangzhou?",
     "No: it ended in March 2024; Zhang Wei lived in Hangzhou (2023-01-10 to 2024-03-01); now: Zhang Wei "
     "lives in Shanghai", "still lives"),
    ("yes/no, past", "Did Zhang Wei live in Hangzhou in 2023?", "Yes: Zhang Wei lived in Hangzhou", "lives"),
    ("yes/no, past, holds", "Did Ana work at Acme in 2023?", "Yes: Ana still works at Acme", "worked"),
    ("before", "Where did Zhang Wei live before Shanghai?", "Zhang Wei lived in Hangzhou", "lives"),
    ("changed", "What changed for Zhang Wei since 2023?", "ended: Zhang Wei lived in Hangzhou", "still"),
    ("believed", "What did the memory believe about Zhang Wei on 2023-06-01?",
     "As the memory believed it on 2023-06-01: Zhang Wei lived in Hangzhou", "lives"),
    ("as known then", "Where did Hiro live in July 2024, as known on 2024-07-01?",
     "As the memory believed it on 2024-07-01: Hiro lived in Sapporo", "lives"),
    ("chain, now", "Where does Kenji's brother live?",
     "Hiro lives in Fukuoka (since 2024-06-01) [claimed by Kenji]. Through: Kenji's brother is Hiro",
     "lived"),
    ("chain, past", "Where did Kenji's brother live in 2023?",
     "Hiro lived in Sapporo (2023-01-10 to 2024-06-01) [claimed by Kenji]. Through: Kenji's brother is Hiro",
     "still"),
]


@pytest.fixture
def story(tg: TemporalGraph, clock, groups) -> tuple[TemporalGraph, str]:
    group = groups()
    for who, at, text in STORY:  # each message known from its own time, so "as known then" reads it
        clock.set(at)
        tg.add_episode(text, reference_time=at, speaker=who, group_id=group)
    clock.set("2025-01-01T00:00:00+00:00")
    return tg, group


def test_every_family_answers_in_the_tense_of_its_facts(story: tuple[TemporalGraph, str]) -> None:
    tg, group = story
    wrong = []
    for family, question, said, never in CASES:
        answer = tg.ask(question, group_id=group)
        known = answer.known or family == "when ended, holds"  # "I don't know when it ended: ..."
        if not (known and said in answer.text and never not in answer.text):
            wrong.append(f"{family}: {question} -> {answer.text}")
    assert not wrong, "\n".join(wrong)


def test_a_question_asked_from_an_earlier_now_tells_what_held_then_in_the_present(
        story: tuple[TemporalGraph, str]) -> None:
    tg, group = story
    # Asked in June 2023, Zhang Wei's Hangzhou home had not ended: present, not past.
    then = tg.ask("Where does Zhang Wei live?", reference_time="2023-06-01", group_id=group)
    assert then.text.startswith("Zhang Wei lives in Hangzhou")
