"""Issue 37 through the whole memory, offline: attributes of anything, changes of role, life events,
organisations that are not homes and the new relations, each with its revision, read back with
``now``, ``as_of`` and ``history`` as a user would; and sentences that only look like facts."""

from __future__ import annotations

import pytest

from temporal_graph import TemporalGraph
from temporal_graph.core.ontology import Ontology
from tests.memory_reads import now, then, told


@pytest.fixture
def tg():
    with TemporalGraph.open(":memory:", embed=False) as memory:
        yield memory


ATTRIBUTE_REVISIONS = [
    # (first message, its time, the revision, its time, subject, relation, old value, new value)
    ("The Bluebell Cafe's opening hours are 9 to 5.", "2024-01-10",
     "The Bluebell Cafe's opening hours changed to 8 to 4.", "2024-03-02", "Bluebell Cafe", "OPENING_HOURS",
     "9 to 5", "8 to 4"),
    ("Our rent is 1,300 euros a month.", "2024-01-05", "Our rent went up to 1,450 euros a month.",
     "2024-06-01", "Omar", "RENT", "1,300 euros a month", "1,450 euros a month"),
    ("Fitch rates Northwind Bank BBB.", "2024-02-01", "Fitch downgraded Northwind Bank to BB+.", "2024-09-15",
     "Northwind Bank", "FITCH_RATING", "BBB", "BB+"),
    ("Order 5512 status is packed.", "2024-04-01", "Order 5512 status is shipped.", "2024-04-03",
     "Order 5512", "STATUS", "packed", "shipped"),
    ("The project deadline is 30 April.", "2024-03-01", "The project deadline moved to 14 May.", "2024-04-10",
     "project", "DEADLINE", "30 April", "14 May"),
    ("The price of the Aero 3 is $499.", "2024-05-01", "The Aero 3's price was cut to $449.", "2024-06-20",
     "Aero 3", "PRICE", "$499", "$449"),
    ("Northwind Bank's interest rate is 5.25%.", "2024-01-10",
     "Northwind Bank's interest rate was lowered to 5%.", "2024-08-01", "Northwind Bank", "INTEREST_RATE",
     "5.25%", "5%"),
    ("Contoso's market cap is $36B.", "2024-01-10", "Contoso's market cap is now $40B.", "2024-08-01",
     "Contoso", "MARKET_CAP", "$36B", "$40B"),
]


@pytest.mark.parametrize("case", ATTRIBUTE_REVISIONS, ids=[c[5] for c in ATTRIBUTE_REVISIONS])
@pytest.mark.parametrize("order", ["in order", "out of order"])
def test_an_attribute_holds_one_value_at_a_time(tg, case, order) -> None:
    first, t1, second, t2, subject, relation, old, new = case
    messages = [(t1, "Omar", first), (t2, "Omar", second)]
    told(tg, *(messages if order == "in order" else reversed(messages)))
    assert now(tg, subject, relation) == [new]
    assert then(tg, t1, subject, relation) == [old]
    history = tg.history(subject, relation)
    assert [f.object for f in history] == [old, new]
    assert history[0].invalid_at == history[1].valid_at  # the new value ended the old one


def test_a_repeated_value_confirms_it_and_an_earlier_one_does_not_end_the_current(tg) -> None:
    told(tg, ("2024-03-01", "Vera", "Project Falcon's budget is $2.4M."),
         ("2024-03-05", "Vera", "Project Falcon's budget is $2.4M."),
         ("2024-05-01", "Vera", "Project Falcon's budget was cut to $1.9M last week."),
         ("2024-02-01", "Vera", "Project Falcon's budget is $2.6M."))
    assert now(tg, "Project Falcon", "budget") == ["$1.9M"]
    assert [f.object for f in tg.history("Project Falcon", "budget")] == ["$2.6M", "$2.4M", "$1.9M"]
    [confirmed] = [f for f in tg.history("Project Falcon", "budget") if f.object == "$2.4M"]
    assert len(confirmed.episode_ids) == 2
    assert then(tg, "2024-04-25", "Project Falcon", "budget") == ["$1.9M"]  # "last week" of 1 May


def test_the_value_is_kept_as_said_and_worded_as_an_attribute(tg) -> None:
    told(tg, ("2024-06-01", "Omar", "Our rent went up to 1,450 euros a month in March."))
    [rent] = tg.now("Omar", "rent")
    assert rent.object == "1,450 euros a month" and rent.text == "Omar's rent is 1,450 euros a month."
    assert rent.valid_at.isoformat().startswith("2024-03-01")


def test_a_change_of_job_in_one_sentence_ends_the_old_job_and_role(tg) -> None:
    told(tg, ("2023-05-01", "Ana", "I work at Globex as an analyst."),
         ("2024-02-01", "Ana", "I left Globex and joined Initech as a data engineer."))
    assert now(tg, "Ana", "works at") == ["Initech"]
    assert now(tg, "Ana", "works as") == ["data engineer"]
    assert then(tg, "2023-10-01", "Ana", "works as") == ["analyst"]
    assert then(tg, "2023-10-01", "Ana", "works at") == ["Globex"]


@pytest.mark.parametrize(("text", "job", "role"), [
    ("I got promoted to team lead.", "Hooli", "team lead"),
    ("I was made head of sales last month.", "Hooli", "head of sales"),
    ("I now work as a consultant.", "Hooli", "consultant"),
])
def test_a_new_role_at_the_same_organisation_ends_the_old_one(tg, text, job, role) -> None:
    told(tg, ("2023-01-01", "Ben", "I work at Hooli as an engineer."), ("2024-03-01", "Ben", text))
    assert now(tg, "Ben", "works as") == [role] and now(tg, "Ben", "works at") == [job]
    assert then(tg, "2023-06-01", "Ben", "works as") == ["engineer"]


def test_stepping_down_and_retiring_end_what_held(tg) -> None:
    told(tg, ("2023-01-01", "Ben", "I'm the team lead at Hooli."),
         ("2024-03-01", "Ben", "I stepped down as team lead."))
    assert now(tg, "Ben", "works as") == [] and now(tg, "Ben", "works at") == ["Hooli"]
    told(tg, ("2020-01-01", "Tom", "I work at Siemens as an engineer."),
         ("2022-03-01", "Tom", "I retired last year."))
    assert now(tg, "Tom", "works at") == [] and now(tg, "Tom", "works as") == []
    assert then(tg, "2020-06-01", "Tom", "works at") == ["Siemens"]


def test_a_move_to_an_organisation_is_a_new_employer_never_a_home(tg) -> None:
    told(tg, ("2021-03-01", "Ben", "Judy works at Oracle."),
         ("2023-02-01", "Ben", "Judy moved to Microsoft in 2022."),
         ("2023-02-02", "Ben", "Carla works at Contoso."),
         ("2023-05-01", "Ben", "Kim moved to Contoso in 2022."),
         ("2023-05-02", "Ben", "Omar moved to Lisbon in 2021."))
    assert now(tg, "Judy", "works at") == ["Microsoft"] and now(tg, "Judy", "lives in") == []
    assert then(tg, "2021-06-01", "Judy", "works at") == ["Oracle"]
    # Contoso is known to the memory as a workplace, not from the name
    assert now(tg, "Kim", "works at") == ["Contoso"] and now(tg, "Kim", "lives in") == []
    assert now(tg, "Omar", "lives in") == ["Lisbon"]
    assert tg.find_entity("Microsoft").type == "Organization"


def test_is_at_an_organisation_is_where_one_works(tg) -> None:
    told(tg, ("2024-01-01", "Ben", "Raj works at Shopify."),
         ("2025-02-01", "Ben", "Raj is at Stripe as of 2025."))
    assert now(tg, "Raj", "works at") == ["Stripe"]
    assert then(tg, "2024-06-01", "Raj", "works at") == ["Shopify"]


def test_we_got_engaged_names_the_partner_from_the_chat_then_married_and_divorced(tg) -> None:
    told(tg, ("2024-05-01", "Maya", "My boyfriend Leo is the best."),
         ("2024-06-10", "Maya", "We got engaged on Saturday!"))
    assert now(tg, "Maya", "engaged to") == ["Leo"] and now(tg, "Maya", "relationship status") == ["engaged"]
    [engaged] = tg.now("Maya", "relationship status")
    assert engaged.valid_at.isoformat().startswith("2024-06-08")  # the Saturday before the message
    told(tg, ("2025-07-01", "Maya", "Leo and I got married in June."),
         ("2027-03-01", "Maya", "We got divorced last year."))
    assert now(tg, "Maya", "relationship status") == ["divorced"] and now(tg, "Maya", "married to") == []
    assert then(tg, "2025-12-01", "Maya", "relationship status") == ["married"]
    assert then(tg, "2025-12-01", "Maya", "married to") == ["Leo"]


def test_we_got_engaged_without_a_partner_named_keeps_only_the_status(tg) -> None:
    told(tg, ("2024-06-10", "Maya", "We got engaged on Saturday!"))
    assert [f.relation for f in tg.now("Maya")] == ["RELATIONSHIP_STATUS"]


def test_life_events_are_dated_facts(tg) -> None:
    told(tg, ("2024-03-20", "Maya", "We had a baby girl, Iris, on Tuesday."),
         ("2024-03-21", "Maya", "My grandpa Joe passed away in March."),
         ("2024-03-22", "Maya", "I finished my PhD in 2022."))
    assert now(tg, "Maya", "has child") == ["Iris"]
    [baby] = [f for f in tg.history("Maya", "did") if f.object == "had a baby"]
    assert baby.valid_at.isoformat().startswith("2024-03-19")
    assert [f.object for f in tg.history("Joe", "did")] == ["passed away"]
    assert "finished a PhD" in [f.object for f in tg.history("Maya", "did")]


def test_a_diet_is_one_at_a_time_and_allergies_are_many(tg) -> None:
    told(tg, ("2023-01-01", "Maya", "I eat everything."), ("2024-01-01", "Maya", "I'm vegetarian now."),
         ("2024-06-01", "Maya", "I'm vegan now."), ("2024-07-01", "Maya", "I'm allergic to peanuts."),
         ("2024-08-01", "Maya", "I'm allergic to shellfish."))
    assert now(tg, "Maya", "diet") == ["vegan"]
    assert then(tg, "2023-06-01", "Maya", "diet") == ["omnivore"]
    assert then(tg, "2024-03-01", "Maya", "diet") == ["vegetarian"]
    assert now(tg, "Maya", "allergic to") == ["peanuts", "shellfish"]
    ontology = Ontology.default_personal()
    assert ontology.cardinality("DIET") == "one" and ontology.cardinality("ALLERGIC_TO") == "many"


@pytest.mark.parametrize(("text", "subject", "relation", "obj"), [
    ("Ivar prefers houseplants.", "Ivar", "PREFERS", "houseplants"),
    ("Ana speaks Basque.", "Ana", "SPEAKS", "Basque"),
    ("Leo manages the Oslo team.", "Leo", "MANAGES", "Oslo team"),
    ("Leo reports to Karin.", "Leo", "REPORTS_TO", "Karin"),
    ("Mia is a member of the choir.", "Mia", "MEMBER_OF", "choir"),
    ("Zane is the parent of Enzo.", "Zane", "HAS_CHILD", "Enzo"),
    ("Enzo is the son of Zane.", "Enzo", "HAS_PARENT", "Zane"),
    ("Leo knows Karin.", "Leo", "KNOWS", "Karin"),
    ("Initech employs Ana.", "Ana", "WORKS_AT", "Initech"),
    ("Ana often visits Porto.", "Ana", "OFTEN_VISITS", "Porto"),
    ("Ana recommends Dr. Patel.", "Ana", "RECOMMENDS", "Dr. Patel"),
    ("Ana avoids dairy.", "Ana", "AVOIDS", "dairy"),
    ("Leo is managed by Karin.", "Leo", "MANAGED_BY", "Karin"),
])
def test_relations_between_people_organisations_and_things(tg, text, subject, relation, obj) -> None:
    told(tg, ("2024-01-01", "Ivar", text))
    assert [(f.relation, f.object) for f in tg.now(subject)] == [(relation, obj)]


def test_cardinality_and_inverses_of_the_new_relations() -> None:
    o = Ontology.default_personal()
    assert [o.cardinality(r) for r in ("REPORTS_TO", "MANAGES", "SPEAKS", "MEMBER_OF", "LIVES_WITH")] == [
        "one", "many", "many", "many", "many"]
    assert o.inverse("MANAGES") == "MANAGED_BY" and o.inverse("HAS_PARENT") == "HAS_CHILD"
    assert o.inverse("KNOWS") == "KNOWS" and o.inverse("EMPLOYS") == "WORKS_AT"
    assert o.with_relations({"STATUS": "many"}).cardinality("STATUS") == "many"  # declared wins
    assert Ontology().cardinality("STATUS") == "many"  # a bare ontology has no attribute rule


def test_membership_starts_and_ends(tg) -> None:
    told(tg, ("2024-01-01", "Ivar", "Mia joined the choir in 2021."),
         ("2024-01-02", "Ivar", "Mia left the choir last year."))
    assert now(tg, "Mia", "member of") == [] and then(tg, "2022-01-01", "Mia", "member of") == ["choir"]


# Sentences that look like attributes or the new facts but state none (precision first).
NOT_FACTS = [
    'Is the rent 1,300 euros?',
    'If the rent went up to 1,450 euros we would move.',
    'If Order 5512 status is shipped, let me know.',
    "What are the Bluebell Cafe's opening hours?",
    "The rent isn't 1,300 euros.",
    'Our rent is not going up to 1,450 euros.',
    'Bob said the rent is 1,300 euros.',
    'She told me the deadline moved to 14 May.',
    'Maybe the price will drop to $449.',
    'I wish our rent was 900 euros.',
    'I think the deadline is 30 April.',
    'The rent could go up to 1,500 euros.',
    'Apparently Fitch downgraded Northwind Bank to BB+.',
    'Would Fitch downgrade Northwind Bank to BB+?',
    'My problem is that I never sleep.',
    "The thing is, I'm tired.",
    'My point is we should leave.',
    'Her reaction was priceless.',
    'The weather is lovely today.',
    'The best part was the food.',
    'My heart is full.',
    'His smile is contagious.',
    'My guess is 30 April.',
    'I hope we get engaged next year.',
    'We almost got married in 2019.',
    'If I get promoted to team lead I will celebrate.',
    "I didn't get promoted to team lead.",
    'Did you leave Globex?',
    "I'd love to join Initech as a data engineer.",
    'I might move to Microsoft next year.',
    "Leo doesn't manage the Oslo team.",
    'Does Ana speak Basque?',
    "I don't speak French.",
    'Ivar said he prefers houseplants.',
    'The status is unclear.',
    'The price was right.',
    'Their address is somewhere in town.',
    'Who manages the Oslo team?',
    'Is Order 5512 status shipped yet?',
    'Has the rent gone up to 1,450 euros?',
    'The price was $499.',
    'Their rent is 2,000 a month.',
    'His salary is huge.',
    'Supposedly the deadline moved to 14 May.',
    'Tom says our rent went up to 1,500 euros.',
    'Would you say the opening hours are 9 to 5?',
    'In case the deadline moves to 14 May, tell me.',
    'The rent should go down to 1,200 euros.',
    'Our rent will probably go up to 1,500 euros.',
    "I'm not sure the status is shipped.",
    'Just kidding, our rent is 5 euros.',
    "What's your salary?",
    'Why did Fitch downgrade Northwind Bank to BB+?',
    'Finding balance is key.',
    'Finding that balance is crucial.',
    'My old area was hit by a nasty flood last week.',
    "Unless the price drops to $449, I'll wait.",
    'Leo might report to Karin.',
    'Did Ana recommend Dr. Patel?',
    'We never got engaged.',
]


def test_sixty_sentences_that_look_like_facts_give_none(tg) -> None:
    assert len(NOT_FACTS) == 60
    for i, text in enumerate(NOT_FACTS):
        result = tg.add_episode(text, reference_time=f"2024-01-{1 + i % 28:02d}", speaker="Kai",
                                group_id=f"g{i}")
        assert (text, result.added) == (text, [])
    # what was not read stays as the message it was
    hits = tg.search("Bluebell Cafe opening hours", group_id="g3", limit=1)
    assert [h.text for h in hits] == [NOT_FACTS[3]]


def test_the_docs_example_of_attributes_and_roles(capsys) -> None:
    from tests.doc_examples import run_example

    run_example("### What the offline rules read beyond people")
    assert capsys.readouterr().out.splitlines() == [
        "['1,450 euros a month']", "['1,300 euros a month']", "Northwind Bank's Fitch rating is BB+.",
        "['Initech', 'data engineer']"]
