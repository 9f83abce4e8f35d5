"""Issue 51's and 50's families told the way different people write: terse, long, with typos and in a
second language. Each sentence (our own) and exactly the facts it states."""

from __future__ import annotations

import pytest

from benchmarks.extraction import fact_label
from tests.extracted import extracted


def facts(text: str, speaker: str = "Ines", context: tuple[str, ...] = ()) -> set[str]:
    return {fact_label(f) for f in extracted(text, speaker, [(speaker, c) for c in context])}


CASES = [
    # employer and role in one clause
    ("Still working at Accenture as a consultant.", {"Ines:WORKS_AT=Accenture", "Ines:WORKS_AS=consultant"}),
    ("I've been with Siemens for ten years as a project manager.",
     {"Ines:WORKS_AT=Siemens @for ten years", "Ines:WORKS_AS=project manager @for ten years"}),
    ("Currently I am at Philips as an engineer.", {"Ines:WORKS_AT=Philips", "Ines:WORKS_AS=engineer"}),
    ("I'm at Google, working as a UX researcher.", {"Ines:WORKS_AT=Google", "Ines:WORKS_AS=UX researcher"}),
    ("I'm employed at Volvo as a mechanic.", {"Ines:WORKS_AT=Volvo", "Ines:WORKS_AS=mechanic"}),
    ("Sara works at Bosch as an electrician.", {"Sara:WORKS_AT=Bosch", "Sara:WORKS_AS=electrician"}),
    ("im at Ikea as a cashier these days", {"Ines:WORKS_AT=Ikea", "Ines:WORKS_AS=cashier"}),
    ("I am working in Nokia like tester.", {"Ines:WORKS_AT=Nokia"}),
    # starts ahead
    ("I start my new job at Canva on Monday.", {"Ines:WORKS_AT=Canva @on Monday"}),
    ("Starting at Uber next month as a designer!", {"Ines:WORKS_AT=Uber @next month",
                                                    "Ines:WORKS_AS=designer @next month"}),
    ("Next month I begin at Ocado.", {"Ines:WORKS_AT=Ocado @Next month"}),
    ("Tom starts at Stripe next week.", {"Tom:WORKS_AT=Stripe @next week"}),
    # several statements
    ("Moved to Bristol, rent is 950, loving it", {"Ines:LIVES_IN=Bristol", "Ines:RENT=950"}),
    ("I'm in Leeds now and my rent is 700 a month.", {"Ines:LIVES_IN=Leeds", "Ines:RENT=700 a month"}),
    ("Sara lives in Derby and works at Rolls-Royce.", {"Sara:LIVES_IN=Derby", "Sara:WORKS_AT=Rolls-Royce"}),
    ("I left Nokia, I'm now at Ericsson as a tester.",
     {"Ines:-WORKS_AT=Nokia", "Ines:WORKS_AT=Ericsson", "Ines:WORKS_AS=tester"}),
    # whose
    ("my bf's rent is 700", {"Ines's boyfriend:RENT=700", "Ines:DATING=Ines's boyfriend"}),
    ("My hubby's salary went up to 3,200 a month.",
     {"Ines's husband:SALARY=3,200 a month", "Ines:MARRIED_TO=Ines's husband"}),
    ("The rent of my sister is 800.", {"Ines's sister:RENT=800", "Ines:HAS_SIBLING=Ines's sister"}),
    ("My mom's new address: 12 Oak Road", {"Ines's mom:ADDRESS=12 Oak Road", "Ines:HAS_PARENT=Ines's mom"}),
    # revisions of values
    ("rent went up again to 1,200", {"Ines:RENT=1,200"}),
    ("My rent is going up to 1,000 in June.", {"Ines:RENT=1,000 @in June"}),
    # settings
    ("Using dark mode now.", {"Ines:MODE=dark"}),
    ("I'm back on the free plan.", {"Ines:PLAN=free"}),
    ("Upgraded to the pro plan.", {"Ines:PLAN=pro"}),
    ("I've switched my theme to Dracula.", {"Ines:THEME=Dracula"}),
    # addresses
    ("moved into 12 Oak Street last week", {"Ines:ADDRESS=12 Oak Street @last week"}),
    ("Our new place is at 19 Rose Street.", {"Ines:ADDRESS=19 Rose Street"}),
    ("We're at 5 Grove Road now.", {"Ines:ADDRESS=5 Grove Road"}),
    # statuses and shorthand
    ("my parcel finally arrived", {"Ines's parcel:STATUS=arrived"}),
    ("Ticket #4410 was closed by support.", {"Ticket 4410:STATUS=closed"}),
    ("Our flight is delayed by two hours.", {"Ines's flight:STATUS=delayed"}),
    ("Status of order 123: shipped", {"Order 123:STATUS=shipped"}),
    ("Acme Q3 revenue - $3.1B", {"Acme:Q3_REVENUE=$3.1B"}),
    ("CI: 14 min", {"CI:DURATION=14 min"}),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:50] for c in CASES])
def test_styles(text: str, expected: set[str]) -> None:
    assert facts(text) == expected


REVISIONS = [
    (("My rent is 1,050 euros.",), "Up to 1,100 now.", {"Ines:RENT=1,100"}),
    (("The nightly build takes 30 minutes.",), "Down to 12 minutes after the fix.",
     {"nightly build:DURATION=12 minutes"}),
    (("My font size is 14.",), "Changed it to 16.", {"Ines:FONT_SIZE=16"}),
    (("I use the compact layout.",), "Switched back to the roomy one.", {"Ines:LAYOUT=roomy"}),
]


@pytest.mark.parametrize(("context", "text", "expected"), REVISIONS, ids=[r[1] for r in REVISIONS])
def test_revisions_in_styles(context: tuple[str, ...], text: str, expected: set[str]) -> None:
    assert facts(text, context=context) == expected


NOT_REVISIONS = [
    (("My rent is 850 euros.",), "It is 2 hours away by train."),
    (("My salary is 52,000.",), "It's 10 degrees outside."),
    (("The nightly build takes 40 minutes.",), "It's 300 euros a month."),
    (("I use the compact layout.",), "I went back to the old one."),
    (("My rent is 850 euros.",), "They want to raise it to 900."),
    (("The nightly build takes 40 minutes.",), "It took 50 minutes yesterday."),
]


@pytest.mark.parametrize(("context", "text"), NOT_REVISIONS, ids=[r[1] for r in NOT_REVISIONS])
def test_no_revision_of_another_kind(context: tuple[str, ...], text: str) -> None:
    assert facts(text, context=context) == set()


@pytest.mark.parametrize("text", [
    "We are at 10 Downing Street for a tour.", "I'm at 4 Elm Road picking up the keys.",
    "The party is at 12 Oak Street.", "Meet me at 5 King Street.", "My office was at 5 King Street.",
    "Our office is not at 5 King Street.", "Order total: $45", "Tip: 15%", "PR 512 - please review",
    "The queue at the DMV is a billion miles long.", "Shipping took a lifetime.",
    "Ticket 77 is closed, says support.", "The parcel arrived, the tracking page says.",
])
def test_no_value_here(text: str) -> None:
    assert facts(text) == set()


CHAT_SHAPES = [
    ("And yup, I do- Rocket, my hamster.", {"Ines:HAS_PET=Rocket"}),
    ("Thanks, Mel, my friend!", set()),
    ("This was my Lake District trip last year and it was stunning.",
     {"Ines:VISITED=Lake District @last year"}),
    ("My Paris trip is next month.", set()),
    ("Adding Lisbon to my bucket list!", {"Ines:PLANS_TO_VISIT=Lisbon"}),
    ("Kyoto is definitely on my travel list.", {"Ines:PLANS_TO_VISIT=Kyoto"}),
    ("Cycling has opened up a whole new world for me.", {"Ines:HAS_HOBBY=cycling"}),
    ("Knitting has always been my escape.", {"Ines:HAS_HOBBY=knitting"}),
    ("Knitting has been hard lately.", set()),
    ("I'm carrying on volunteering at the food bank.", {"Ines:HAS_HOBBY=volunteering"}),
    ("I decided to run for the town council last week.",
     {"Ines:DID=decided to run for the town council @last week"}),
    ("I wrapped up my first novel.", {"Ines:DID=wrapped up their first novel"}),
    ("I've been working hard on my bakery website.", {"Ines:WORKS_ON=bakery website"}),
]


@pytest.mark.parametrize(("text", "expected"), CHAT_SHAPES, ids=[c[0][:50] for c in CHAT_SHAPES])
def test_long_chat_shapes(text: str, expected: set[str]) -> None:
    assert facts(text) == expected


@pytest.mark.parametrize(("context", "text"), [
    (("My rent is 700 euros.",), "It's 3 stops from the station."),
    (("My rent is 700 euros.",), "It's 2 for 1 on Tuesdays."),
    (("My rent is 700 euros.",), "We moved it to the living room."),
    (("Our office is at 3 Dock Road.",), "It's 5 minutes from my flat."),
    (("Order 8812 status is packed.",), "It is delivered to my neighbour usually."),
    (("My salary is 3,000 a month.",), "It's 2 years since I started."),
])
def test_a_number_in_a_phrase_revises_nothing(context: tuple[str, ...], text: str) -> None:
    assert facts(text, context=context) == set()


@pytest.mark.parametrize("text", [
    "Jo is at Google, I think, as an intern.", "I'm on the phone plan with my mum.", "My font is too small.",
    "My theme is broken.", "My mode is beast mode.", "It is usually delivered on Mondays.",
])
def test_states_and_hedges_that_are_no_setting_or_status(text: str) -> None:
    assert facts(text) == set()


def test_a_move_ahead_to_an_address_is_told_ahead() -> None:
    [fact] = extracted("We are moving to 12 Oak Street in June.", "Ines")
    assert (fact.relation, fact.object, fact.time_text, fact.future) == (
        "ADDRESS", "12 Oak Street", "in June", True)


@pytest.mark.parametrize(("context", "text", "expected"), [
    (("Our rent is 900 pounds a month.", "Council tax is 140 a month."), "It's 960 now.", {"Ines:RENT=960"}),
    (("The price of the Vespa is 4,200 euros.", "The price of the Fiat is 9,000 euros."), "Dropped to 8,500.",
     {"Fiat:PRICE=8,500"}),
    (("The nightly build takes 45 minutes.", "The deploy takes 10 minutes."), "It's down to 30 minutes.",
     {"nightly build:DURATION=30 minutes"}),
    (("My theme is light.",), "Changed it to dark yesterday.", {"Ines:THEME=dark @yesterday"}),
])
def test_a_revision_revises_the_value_nearest_in_size(context: tuple[str, ...], text: str,
                                                       expected: set[str]) -> None:
    assert facts(text, context=context) == expected


@pytest.mark.parametrize(("context", "text", "expected"), [
    ((), "The staging server has 32 GB of RAM.", {"staging server:RAM=32 GB"}),
    (("The staging server has 32 GB of RAM.",), "Upgraded it to 64 GB.", {"staging server:RAM=64 GB"}),
    ((), "My laptop has 16 GB of memory.", {"Ines:LAPTOP_RAM=16 GB"}),
    ((), "The Vespa costs 4,200 euros.", {"Vespa:PRICE=4,200 euros"}),
    (("The Vespa costs 4,200 euros.",), "Dropped to 3,900.", {"Vespa:PRICE=3,900"}),
    ((), "The ticket costs 40 euros.", set()),
])
def test_values_told_by_their_verb(context: tuple[str, ...], text: str, expected: set[str]) -> None:
    assert facts(text, context=context) == expected


ROLES = [
    ("Working as a barista at Pret these days.", {"Ines:WORKS_AS=barista", "Ines:WORKS_AT=Pret"}),
    ("Still a teacher, still at Oakwood Primary.",
     {"Ines:WORKS_AS=teacher", "Ines:WORKS_AT=Oakwood Primary"}),
    ("Now I'm a junior dev at Monzo.", {"Ines:WORKS_AS=junior dev", "Ines:WORKS_AT=Monzo"}),
    ("I'm Head of Design at Canva.", {"Ines:WORKS_AS=Head of Design", "Ines:WORKS_AT=Canva"}),
    ("Job update: I'm now a PM at Wise.", {"Ines:WORKS_AS=PM", "Ines:WORKS_AT=Wise"}),
    ("My role at Spotify is data engineer.", {"Ines:WORKS_AT=Spotify", "Ines:WORKS_AS=data engineer"}),
    ("Me and my wife both work at Ikea.", {"Ines:WORKS_AT=Ikea"}),
    ("Still with Monzo, as a data analyst now.", {"Ines:WORKS_AT=Monzo", "Ines:WORKS_AS=data analyst"}),
    ("I met him at 5 pm at Costa.", set()),
]


@pytest.mark.parametrize(("text", "expected"), ROLES, ids=[r[0][:50] for r in ROLES])
def test_roles_as_people_write_them(text: str, expected: set[str]) -> None:
    assert facts(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("I moved to Lyon in May, my new address is 4 Rue Cler.",
     {"Ines:LIVES_IN=Lyon @in May", "Ines:ADDRESS=4 Rue Cler"}),
    ("I live in Rome, work at Eni and play the piano.",
     {"Ines:LIVES_IN=Rome", "Ines:WORKS_AT=Eni", "Ines:PLAYS=piano"}),
    ("Left Google last year, joined Meta as a PM.",
     {"Ines:-WORKS_AT=Google @last year", "Ines:WORKS_AT=Meta @last year", "Ines:WORKS_AS=PM @last year"}),
    ("If I move in May, my rent will be 900.", set()),
    ("I love the self-acceptance and love theme.", set()),
])
def test_several_statements_more(text: str, expected: set[str]) -> None:
    assert facts(text) == expected
