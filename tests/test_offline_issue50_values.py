"""The extraction issue 50's examples need, through a whole memory, each with its revision: addresses
of people and places, revisions that do not repeat the attribute ("went back to X", "is now at X",
"cut to X"), preferences and settings that change, and terse notation without a verb."""

from __future__ import annotations

import pytest

from benchmarks.extraction import fact_label
from temporal_graph import TemporalGraph
from tests.extracted import extracted
from tests.memory_reads import now, then, told


@pytest.fixture
def tg():
    with TemporalGraph.open(":memory:", embed=False) as memory:
        yield memory


def facts(text: str, speaker: str = "Lena", context: tuple[str, ...] = ()) -> set[str]:
    """What the extractor reads from ``text`` after the ``context`` turns (the same speaker's)."""
    return {fact_label(f) for f in extracted(text, speaker, [(speaker, c) for c in context])}


# --- the issue's own histories -------------------------------------------------------------------------

HISTORIES = [
    # (first message, revision, subject, relation, old value, new value)
    ("Noor uses the compact layout everywhere.", "Noor went back to the classic layout.", "Noor", "LAYOUT",
     "compact", "classic"),
    ("Our office is at 221 Baker Street.", "The office relocated to 5 Market Square.", "Lena",
     "OFFICE_ADDRESS",
     "221 Baker Street", "5 Market Square"),
    ("Contoso Q2 forecast: 4.1M units", "Contoso cut its Q2 forecast to 3.8M units.", "Contoso",
     "Q2_FORECAST",
     "4.1M units", "3.8M units"),
    ("the nightly build takes 40 minutes", "after the cache fix the nightly build takes 12 minutes",
     "nightly build", "DURATION", "40 minutes", "12 minutes"),
    ("ticket 88: open", "ticket 88: closed", "Ticket 88", "STATUS", "open", "closed"),
    ("nightly build: 40 min", "nightly build: 12 min", "nightly build", "DURATION", "40 min", "12 min"),
    ("the staging server has 32 GB", "the staging server has 64 GB now", "staging server", "RAM", "32 GB",
     "64 GB"),
]


@pytest.mark.parametrize("case", HISTORIES, ids=[c[3] for c in HISTORIES])
def test_the_issues_histories_supersede(tg, case) -> None:
    first, second, subject, relation, old, new = case
    told(tg, ("2024-01-10", "Lena", first), ("2024-03-02", "Lena", second))
    assert now(tg, subject, relation) == [new]
    assert then(tg, "2024-02-01", subject, relation) == [old]
    history = tg.history(subject, relation)
    assert [f.object for f in history] == [old, new] and history[0].invalid_at == history[1].valid_at


def test_a_sentence_of_a_job_a_home_and_a_pastime_is_read_whole_and_revised_by_its_job(tg) -> None:
    told(tg, ("2024-01-10", "Tess", "Rafa is a nurse at St Mary's, lives in Leeds and plays the cello."),
         ("2024-06-10", "Tess", "Rafa is a nurse at King's, lives in Leeds and plays the cello."))
    assert now(tg, "Rafa", "works at") == ["King's"]
    assert then(tg, "2024-03-01", "Rafa", "works at") == ["St Mary's"]
    assert now(tg, "Rafa", "lives in") == ["Leeds"] and now(tg, "Rafa", "plays") == ["cello"]
    assert now(tg, "Rafa", "works as") == ["nurse"]


def test_turin_and_fiat_then_a_new_job(tg) -> None:
    told(tg, ("2024-01-10", "Gio", "I live in Turin and I work at Fiat."),
         ("2024-06-10", "Gio", "I left Fiat and joined Ferrari."))
    assert now(tg, "Gio", "lives in") == ["Turin"] and now(tg, "Gio", "works at") == ["Ferrari"]


# --- addresses ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("I live at 4 Cedar Road.", {"Lena:ADDRESS=4 Cedar Road"}),
    ("we r living on 12 Tanner Street now", {"Lena:ADDRESS=12 Tanner Street"}),
    ("Bo lives at 33 Kingsway Gardens.", {"Bo:ADDRESS=33 Kingsway Gardens"}),
    ("My dad moved to 8 Elm Grove last month.", {"Lena's dad:ADDRESS=8 Elm Grove @last month",
                                                 "Lena:HAS_PARENT=Lena's dad"}),
    ("Our studio is now on 17 Wharf Road.", {"Lena:STUDIO_ADDRESS=17 Wharf Road"}),
    ("The shop moved to 2 Rue Cler.", {"Lena:SHOP_ADDRESS=2 Rue Cler"}),
    ("Initech's office is at 90 Harbour Drive.", {"Initech:OFFICE_ADDRESS=90 Harbour Drive"}),
    ("Initech relocated its office to 5 Dock Road in March.",
     {"Initech:OFFICE_ADDRESS=5 Dock Road @in March"}),
    ("Umbrella HQ moved to 300 Ferry Lane.", {"Umbrella:HQ=300 Ferry Lane"}),
    ("The Green Fig is at 6 Orchard Row.", {"Green Fig:ADDRESS=6 Orchard Row"}),
    ("Sami moved to Calle Mayor 12.", {"Sami:ADDRESS=Calle Mayor 12"}),
    ("Our new flat is at Bergmannstrasse 7.", {"Lena:FLAT_ADDRESS=Bergmannstrasse 7"}),
    ("The address of our clinic is 45 Mill Street.", {"Lena:CLINIC_ADDRESS=45 Mill Street"}),
    ("My address is changed to 9 Hill Rise.", {"Lena:ADDRESS=9 Hill Rise"}),
    ("I'm at 27 Mill Road now.", {"Lena:ADDRESS=27 Mill Road"}),
    ("Some context: home is Keizersgracht 220, Amsterdam.", {"Lena:ADDRESS=Keizersgracht 220"}),
    ("My home is 12 Harbour Street.", {"Lena:ADDRESS=12 Harbour Street"}),
    ("I'm at 10 Downing Street for a tour.", set()),
])
def test_addresses(text: str, expected: set[str]) -> None:
    assert facts(text) == expected


def test_a_home_then_a_new_address_said_another_way(tg) -> None:
    told(tg, ("2024-01-10", "Lena", "Some context: home is 12 Harbour Street, Bristol. Now, a question."),
         ("2024-05-10", "Lena", "I'm at 7 Linden Avenue, Bath since the move."))
    assert now(tg, "Lena", "address") == ["7 Linden Avenue"]
    assert then(tg, "2024-03-01", "Lena", "address") == ["12 Harbour Street"]


def test_a_persons_address_revised(tg) -> None:
    told(tg, ("2024-01-10", "Lena", "I live at 4 Cedar Road."),
         ("2024-05-10", "Lena", "We moved to 19 Pine Close."))
    assert now(tg, "Lena", "address") == ["19 Pine Close"]
    assert then(tg, "2024-03-01", "Lena", "address") == ["4 Cedar Road"]


# --- revisions that do not name their attribute ------------------------------------------------------------


@pytest.mark.parametrize(("context", "text", "expected"), [
    (("My rent is 850 euros a month.",), "They've put it up to 900.", {"Lena:RENT=900"}),
    (("My rent is 850 euros a month.",), "its 880 now", {"Lena:RENT=880"}),
    (("Rent is 850 euros a month.",), "Went up to 870 in May.", {"Lena:RENT=870 @in May"}),
    (("Our office is at 221 Baker Street.",), "It's now at 5 Market Square.",
     {"Lena:OFFICE_ADDRESS=5 Market Square"}),
    (("The studio is at 8 Canal Road.",), "We moved it to 3 Lock Lane.", {"Lena:STUDIO_ADDRESS=3 Lock Lane"}),
    (("Fabrikam Q3 forecast: 2.2M units",), "They cut it to 1.9M units.",
     {"Fabrikam:Q3_FORECAST=1.9M units"}),
    (("Fabrikam Q3 forecast: 2.2M units",), "Cut to 1.7M units this morning.",
     {"Fabrikam:Q3_FORECAST=1.7M units @this morning"}),
    (("The test suite takes 30 minutes.",), "After the upgrade it's down to 9 minutes.",
     {"test suite:DURATION=9 minutes"}),
    (("Order 9001 status is packed.",), "Now shipped.", {"Order 9001:STATUS=shipped"}),
    (("I use the compact layout.",), "I went back to the classic one.", {"Lena:LAYOUT=classic"}),
    (("Project Atlas's budget is $3M.",), "It got slashed to $2.5M.", {"Project Atlas:BUDGET=$2.5M"}),
])
def test_a_revision_takes_the_attribute_it_revises(context: tuple[str, ...], text: str,
                                                   expected: set[str]) -> None:
    assert facts(text, context=context) == expected


@pytest.mark.parametrize(("context", "text"), [
    ((), "It's 960 now."),  # nothing told before
    (("My rent is 850 euros a month.",), "It is great now."),  # no amount
    (("My rent is 850 euros a month.",), "It's now at 5 Market Square."),  # an address for an amount
    (("Our office is at 221 Baker Street.",), "It's 960 now."),  # an amount for an address
    (("I use the compact layout.",), "It is fine now."),
    (("My rent is 850 euros a month.",), "Tom said they put it up to 900."),
    (("My rent is 850 euros a month.",), "If they put it up to 900 I will move."),
    (("Order 9001 status is packed.",), "Now 960."),
])
def test_a_revision_of_nothing_fitting_gives_nothing(context: tuple[str, ...], text: str) -> None:
    assert facts(text, context=context) == set()


def test_a_revision_in_a_chat_supersedes_in_the_memory(tg) -> None:
    told(tg, ("2024-01-10", "Lena", "Our office is at 221 Baker Street."),
         ("2024-04-10", "Lena", "It's now at 5 Market Square."))
    assert now(tg, "Lena", "office address") == ["5 Market Square"]
    assert then(tg, "2024-02-01", "Lena", "office address") == ["221 Baker Street"]


# --- settings ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("I switched to the grid layout.", {"Lena:LAYOUT=grid"}),
    ("Omar uses the dark theme at work.", {"Omar:THEME=dark"}),
    ("switched to light mode, easier on the eyes", {"Lena:MODE=light"}),
    ("I'm on the family plan now.", {"Lena:PLAN=family"}),
    ("I changed the theme to solarized.", {"Lena:THEME=solarized"}),
    ("I set my phone to night mode.", {"Lena:MODE=night"}),
    ("Back to the horizontal layout.", {"Lena:LAYOUT=horizontal"}),
    ("My editor font is JetBrains Mono now.", {"Lena:EDITOR_FONT=JetBrains Mono"}),
    ("I am using the simple layout now.", {"Lena:LAYOUT=simple"}),
])
def test_settings(text: str, expected: set[str]) -> None:
    assert facts(text) == expected


@pytest.mark.parametrize("text", [
    "I'm using it to plan my next trip.", "The plan is to leave at six.", "Dark mode would be nice.",
    "I use the same layout as you.", "Which theme do you use?", "I don't use dark mode.",
    "My plan is simple.", "The theme of the party is the 80s.",
])
def test_what_only_looks_like_a_setting(text: str) -> None:
    assert facts(text) == set()


def test_a_setting_revised(tg) -> None:
    told(tg, ("2024-01-10", "Omar", "I use light mode."), ("2024-02-10", "Omar", "Switched to dark mode."))
    assert now(tg, "Omar", "mode") == ["dark"] and then(tg, "2024-01-20", "Omar", "mode") == ["light"]


# --- terse notation --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("Fabrikam Q1 revenue: $2.3B", {"Fabrikam:Q1_REVENUE=$2.3B"}),
    ("ticket 512: resolved", {"Ticket 512:STATUS=resolved"}),
    ("PR 77 - merged", {"PR 77:STATUS=merged"}),
    ("order 1204 -> refunded", {"Order 1204:STATUS=refunded"}),
    ("JIRA-311: done", set()),
    ("JIRA-311: closed", {"JIRA-311:STATUS=closed"}),
    ("deploy pipeline: 14 min", {"deploy pipeline:DURATION=14 min"}),
    ("Initech share price: $12.40", {"Initech:SHARE_PRICE=$12.40"}),
    ("Initech raises FY25 guidance to $900M", {"Initech:FY25_GUIDANCE=$900M"}),
    ("Initech Q4 forecast cut to 2M units", {"Initech:Q4_FORECAST=2M units"}),
    ("Salary: 48,000 a year", {"Lena:SALARY=48,000 a year"}),
    ("Forecast: sunny all week", set()),
    ("Status: it's complicated", set()),
    ("Address: TBD", set()),
])
def test_terse_notation(text: str, expected: set[str]) -> None:
    assert facts(text) == expected
