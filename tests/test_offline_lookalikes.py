"""Sentences that only look like facts give none (issue 51): framing (stories, games, dreams,
suppositions, examples), reporting ("..., my flatmate said", "or so they claim"), possessives of people
nobody in particular ("my friend's rent"), states of a value that are no value ("my rent is due"),
questions, hyperbole, and an assistant's turns. Each is said by someone whose chat already holds a rent,
a home and a job, and none of those may change either."""

from __future__ import annotations

import pytest

from temporal_graph import TemporalGraph
from tests.extracted import extracted

FRAMING = [
    "In the game I'm a blacksmith in Whiterun.",
    "In my story, I live in a lighthouse in Maine.",
    "In our campaign I play a rogue who lives in Baldur's Gate.",
    "Last night I dreamt I was married to a pop star.",
    "I dreamed that my rent was 50 euros.",
    "In my dream I worked at NASA as an astronaut.",
    "Imagine I moved to Reykjavik.",
    "Let's say my salary is 200k.",
    "Say my rent went up to 2,000 euros, what then?",
    "Suppose I worked at Google.",
    "Hypothetically, I live in Monaco.",
    "For example, Ana lives in Porto and works at Sonae.",
    "For instance, order 1234 status is shipped.",
    "e.g. my address is 1 Example Street",
    "In the simulation our office is at 10 Test Lane.",
    "In the mock-up the layout is compact.",
    "My character works at the Daily Planet.",
    "My avatar lives in a treehouse.",
    "In the novel I am writing, I'm a detective in Oslo.",
    "In Minecraft I live in a castle.",
    "in the sims my salary is 9000",
    "In my fantasy league I manage the Sharks.",
    "In the exercise, the price of the widget is $40.",
    "Pretend I'm a doctor at Mercy Hospital.",
    "In the play I am married to Juliet.",
]
REPORTING = [
    "My rent is 980 euros, or so the agent claims.",
    "I live in Bath now, my mum says.",
    "Ana moved to Lisbon, her cousin told me.",
    "Order 6601 has shipped, or so they say.",
    "Tom works at Stripe, I heard.",
    "The office is at 2 Dock Road, according to the email.",
    "Meera got promoted to director, at least that's what Raj says.",
    "Our rent is 900 euros, my flatmate reckons.",
    "Jonas earns 5,000 a month, if you believe him.",
    "The forecast is 3M units, allegedly.",
    "Apparently the nightly build takes 5 minutes now.",
    "Supposedly ticket 91 is closed.",
    "Rumour has it Initech moved to 4 Canal Street.",
    "My boss says my salary is going up to 60k.",
    "She told me she lives at 8 Mill Lane.",
    "He says he's at Google as a designer now.",
    "My dad thinks I work at the bank.",
    "The app says the parcel was delivered.",
    "Word is the rent is going up to 1,100.",
    "Flight LH400 is delayed, some guy said.",
]
KIN_NONE = [
    "My friend's rent is 1,500 pounds.",
    "My ex's address is 4 Pine Close.",
    "My colleague's salary went up to 70k.",
    "My neighbour's order got cancelled.",
    "My flatmate's rent is 600.",
    "My boss's favourite colour is red.",
    "Cooking is my friend's passion.",
    "The Hobbit is my cousin's favourite book.",
    "My sister's boyfriend's rent is 800 euros.",
    "My landlord's salary is none of my business.",
    "My teacher's address is 5 School Road.",
    "My roommate's phone plan is 30 a month.",
    "My uncle's rent is 450 euros.",
    "My mate's flat is at 3 High Street.",
    "My sister's rent is due tomorrow.",
    "My mum's cooking is the best.",
    "My husband's job is killing him.",
    "My dad's car is in the shop.",
]
NOT_VALUE = [
    "My rent is due on the 3rd.",
    "Rent is paid, finally.",
    "The rent is late this month.",
    "My rent is overdue again.",
    "Our rent is paid up to March.",
    "My salary is late.",
    "My phone bill is due Friday.",
    "The mortgage payment is pending.",
    "My rent is killing me.",
    "My rent is too high.",
    "My salary is a joke.",
    "Our rent is split four ways.",
    "The price is negotiable.",
    "My salary is confidential.",
    "The fee is waived for members.",
    "rent's due tmrw",
    "The deadline is tight.",
    "The budget is tight this year.",
]
HYPERBOLE = [
    "My rent is literally a million pounds.",
    "The commute takes like a thousand hours.",
    "The build takes forever.",
    "My salary is basically zero.",
    "The price is like a gazillion dollars.",
    "The test suite takes a million years.",
    "Our rent is basically infinite.",
    "The queue takes ages.",
]
QUESTIONS = [
    "How much was the rent in March 2024?",
    "What was your salary last year?",
    "Has order 7781 shipped yet?",
    "Is ticket 88 still open?",
    "Did the office move to 5 Market Square?",
    "Which layout does Noor use now?",
    "How long does the nightly build take?",
    "Are you still at Deloitte as an analyst?",
    "When do you start at Monzo?",
    "is my parcel delivered",
    "So your rent is 900 now?",
    "What's Contoso's Q2 forecast?",
]
ASSISTANT = [
    "The standard rate is 20% above a threshold.",
    "To avoid merge conflicts, rebase often.",
    "Total: $45.80, shipping included.",
    "Estimated delivery is 3 to 5 days.",
    "Your rent of 900 euros leaves 300 for food.",
    "Based on what you said, you live in Leeds and work at Asda.",
    "A typical nightly build takes 30 minutes.",
    "Congratulations on starting at Monzo as a product manager!",
    "Order 5512 is shipped, according to the tracking you pasted.",
    "I live in the cloud, so to speak.",
]

CASES = [("Priya", s) for s in FRAMING + REPORTING + KIN_NONE + NOT_VALUE + HYPERBOLE + QUESTIONS] + [
    ("assistant", s) for s in ASSISTANT]


def test_there_are_more_than_a_hundred() -> None:
    assert len(CASES) >= 100


@pytest.mark.parametrize(("speaker", "text"), CASES, ids=[t[:48] for _, t in CASES])
def test_gives_nothing(speaker: str, text: str) -> None:
    assert extracted(text, speaker) == []


def test_the_memory_keeps_its_values_through_all_of_them() -> None:
    with TemporalGraph.open(":memory:", embed=False) as tg:
        tg.add_episode("I live in London, I work at Barclays and my rent is 900 euros a month.",
                       reference_time="2024-01-05", speaker="Priya")
        before = {(f.relation, f.object) for f in tg.history("Priya")}
        for i, (speaker, text) in enumerate(CASES):
            tg.add_episode(text, reference_time=f"2024-03-{1 + i % 28:02d}", speaker=speaker)
        assert {(f.relation, f.object) for f in tg.history("Priya")} == before
        assert before == {("LIVES_IN", "London"), ("WORKS_AT", "Barclays"), ("RENT", "900 euros a month")}


@pytest.mark.parametrize("text", [
    "Flight LH400 is delayed, a woman at the desk told us.",
    "My rent went up to 900, the guy from the agency said.",
])
def test_a_long_reporter_closing_the_sentence(text: str) -> None:
    assert extracted(text, "Priya") == []
