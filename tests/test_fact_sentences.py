"""Facts read as English in summaries: one wording per relation of the default ontology (no
"has sibling", no UPPER_SNAKE, third person singular), plans as plans, ended facts as the past,
and a sensible guess for relations a user declares."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from ingestion.offline import OfflineExtractor
from queries.summaries import fact_sentence
from temporal_graph.core.model import Episode, Fact
from temporal_graph.core.ontology import Ontology
from temporal_graph.core.sentences import fact_clause

T0 = datetime(2023, 3, 1, tzinfo=UTC)
DEFAULT = Ontology.default_personal()
RELATIONS = sorted(set(DEFAULT.cardinalities) | set(DEFAULT.events))

# What each relation of the default ontology says about (Zhang Wei, <object>), now and once ended.
EXPECTED = {
    "LIVES_IN": ("Hangzhou", "Zhang Wei lives in Hangzhou", "Zhang Wei used to live in Hangzhou"),
    "LIVED_IN": ("Hangzhou", "Zhang Wei lived in Hangzhou", "Zhang Wei lived in Hangzhou"),
    "WORKS_AT": ("Acme", "Zhang Wei works at Acme", "Zhang Wei used to work at Acme"),
    "WORKED_AT": ("Acme", "Zhang Wei worked at Acme", "Zhang Wei worked at Acme"),
    "WORKS_AS": ("engineer", "Zhang Wei works as an engineer", "Zhang Wei used to work as an engineer"),
    "JOB_TITLE": ("Staff Engineer", "Zhang Wei's job title is Staff Engineer",
                  "Zhang Wei's job title was Staff Engineer"),
    "ROLE": ("team lead", "Zhang Wei's role is team lead", "Zhang Wei's role was team lead"),
    "STUDIES_AT": ("Zhejiang University", "Zhang Wei studies at Zhejiang University",
                   "Zhang Wei used to study at Zhejiang University"),
    "STUDIED_AT": ("MIT", "Zhang Wei studied at MIT", "Zhang Wei studied at MIT"),
    "MARRIED_TO": ("Li Na", "Zhang Wei is married to Li Na", "Zhang Wei was married to Li Na"),
    "ENGAGED_TO": ("Li Na", "Zhang Wei is engaged to Li Na", "Zhang Wei was engaged to Li Na"),
    "DATING": ("Li Na", "Zhang Wei is dating Li Na", "Zhang Wei used to date Li Na"),
    "RELATIONSHIP_STATUS": ("single", "Zhang Wei's relationship status is single",
                            "Zhang Wei's relationship status was single"),
    "AGE": ("34", "Zhang Wei is 34 years old", "Zhang Wei was 34 years old"),
    "NATIONALITY": ("Chinese", "Zhang Wei's nationality is Chinese", "Zhang Wei's nationality was Chinese"),
    "HOMETOWN": ("Suzhou", "Zhang Wei is from Suzhou", "Zhang Wei's hometown was Suzhou"),
    "CURRENT_PROJECT": ("Atlas", "Zhang Wei is working on Atlas", "Zhang Wei used to work on Atlas"),
    "MANAGED_BY": ("Chen", "Zhang Wei is managed by Chen", "Zhang Wei was managed by Chen"),
    "REPORTS_TO": ("Chen", "Zhang Wei reports to Chen", "Zhang Wei used to report to Chen"),
    "DRIVES": ("Kia EV6", "Zhang Wei's car is the Kia EV6", "Zhang Wei used to drive the Kia EV6"),
    "PHONE_MODEL": ("iPhone 15", "Zhang Wei's phone is the iPhone 15",
                    "Zhang Wei's phone used to be the iPhone 15"),
    "BORN_IN": ("Suzhou", "Zhang Wei was born in Suzhou", "Zhang Wei was born in Suzhou"),
    "BORN_ON": ("1990-04-02", "Zhang Wei was born on 1990-04-02", "Zhang Wei was born on 1990-04-02"),
    "DIED_IN": ("Suzhou", "Zhang Wei died in Suzhou", "Zhang Wei died in Suzhou"),
    "DIED_ON": ("2020-01-01", "Zhang Wei died on 2020-01-01", "Zhang Wei died on 2020-01-01"),
    "LIKES": ("badminton", "Zhang Wei likes badminton", "Zhang Wei used to like badminton"),
    "DISLIKES": ("cilantro", "Zhang Wei dislikes cilantro", "Zhang Wei used to dislike cilantro"),
    "LOVES": ("jazz", "Zhang Wei loves jazz", "Zhang Wei used to love jazz"),
    "HATES": ("traffic", "Zhang Wei hates traffic", "Zhang Wei used to hate traffic"),
    "INTERESTED_IN": ("robotics", "Zhang Wei is interested in robotics",
                      "Zhang Wei used to be interested in robotics"),
    "VISITED": ("Kyoto", "Zhang Wei visited Kyoto", "Zhang Wei visited Kyoto"),
    "ATTENDED": ("PyCon", "Zhang Wei attended PyCon", "Zhang Wei attended PyCon"),
    "WATCHED": ("Dune", "Zhang Wei watched Dune", "Zhang Wei watched Dune"),
    "READ": ("Dune", "Zhang Wei read Dune", "Zhang Wei read Dune"),
    "READS": ("poetry", "Zhang Wei reads poetry", "Zhang Wei used to read poetry"),
    "OWNS": ("car", "Zhang Wei owns a car", "Zhang Wei used to own a car"),
    "HAS_PET": ("Bao", "Zhang Wei has a pet, Bao", "Zhang Wei used to have a pet, Bao"),
    "HAS_CHILD": ("Mei", "Zhang Wei's child is Mei", "Zhang Wei's child was Mei"),
    "HAS_PARENT": ("Zhang Min", "Zhang Wei's parent is Zhang Min", "Zhang Wei's parent was Zhang Min"),
    "HAS_SIBLING": ("Lin", "Zhang Wei's sibling is Lin", "Zhang Wei's sibling was Lin"),
    "HAS_GRANDPARENT": ("Zhang Lao", "Zhang Wei's grandparent is Zhang Lao",
                        "Zhang Wei's grandparent was Zhang Lao"),
    "HAS_GRANDCHILD": ("Xiao", "Zhang Wei's grandchild is Xiao", "Zhang Wei's grandchild was Xiao"),
    "HAS_COUSIN": ("Jun", "Zhang Wei's cousin is Jun", "Zhang Wei's cousin was Jun"),
    "HAS_RELATIVE": ("Hua", "Zhang Wei's relative is Hua", "Zhang Wei's relative was Hua"),
    "FRIEND_OF": ("Bob", "Zhang Wei is friends with Bob", "Zhang Wei used to be friends with Bob"),
    "KNOWS": ("Bob", "Zhang Wei knows Bob", "Zhang Wei used to know Bob"),
    "ALLERGIC_TO": ("peanuts", "Zhang Wei is allergic to peanuts",
                    "Zhang Wei used to be allergic to peanuts"),
    "HAS_CONDITION": ("asthma", "Zhang Wei has asthma", "Zhang Wei used to have asthma"),
    "HAS_HOBBY": ("knitting", "Zhang Wei's hobbies include knitting",
                  "Zhang Wei used to have knitting as a hobby"),
    "PLAYS": ("chess", "Zhang Wei plays chess", "Zhang Wei used to play chess"),
    "SPEAKS": ("Cantonese", "Zhang Wei speaks Cantonese", "Zhang Wei used to speak Cantonese"),
    "MEMBER_OF": ("the chess club", "Zhang Wei is a member of the chess club",
                  "Zhang Wei used to be a member of the chess club"),
    "LEARNING": ("Spanish", "Zhang Wei is learning Spanish", "Zhang Wei was learning Spanish"),
    "DIET": ("vegetarian", "Zhang Wei is vegetarian", "Zhang Wei used to be vegetarian"),
    "DID": ("ran a marathon", "Zhang Wei ran a marathon", "Zhang Wei ran a marathon"),
    "PREFERS": ("tea", "Zhang Wei prefers tea", "Zhang Wei used to prefer tea"),
    "MANAGES": ("the Oslo team", "Zhang Wei manages the Oslo team", "Zhang Wei used to manage the Oslo team"),
    "EMPLOYS": ("Li Na", "Zhang Wei employs Li Na", "Zhang Wei used to employ Li Na"),
    "OFTEN_VISITS": ("Porto", "Zhang Wei often visits Porto", "Zhang Wei used to visit Porto often"),
    "RECOMMENDS": ("Dr. Patel", "Zhang Wei recommends Dr. Patel", "Zhang Wei used to recommend Dr. Patel"),
    "AVOIDS": ("gluten", "Zhang Wei avoids gluten", "Zhang Wei used to avoid gluten"),
    "LIVES_WITH": ("Li Na", "Zhang Wei lives with Li Na", "Zhang Wei used to live with Li Na"),
    "COFOUNDER": ("Rui", "Zhang Wei's cofounder is Rui", "Zhang Wei's cofounder was Rui"),
    "DIETARY_RESTRICTION": ("gluten-free", "Zhang Wei is gluten-free", "Zhang Wei used to be gluten-free"),
    "PLANS": ("move to Shanghai", "Zhang Wei is planning to move to Shanghai",
              "Zhang Wei planned to move to Shanghai"),
    "PLANS_TO_VISIT": ("Kyoto", "Zhang Wei is planning to visit Kyoto", "Zhang Wei planned to visit Kyoto"),
}


def fact(relation: str, obj: str, *, text: str | None = None, valid_at: datetime | None = T0,
         invalid_at: datetime | None = None, **attributes: object) -> Fact:
    return Fact(id="f1", fact_id="f1", group_id="g", subject="Zhang Wei", subject_id="s", relation=relation,
                object=obj, object_id="o", valid_at=valid_at, invalid_at=invalid_at, created_at=T0,
                text=text or "", attributes=attributes)


def test_every_default_relation_has_a_wording() -> None:
    assert sorted(EXPECTED) == RELATIONS


@pytest.mark.parametrize("relation", RELATIONS)
def test_each_relation_reads_as_english(relation: str) -> None:
    obj, now, then = EXPECTED[relation]
    assert fact_clause("Zhang Wei", relation, obj) == now
    assert fact_clause("Zhang Wei", relation, obj, ended=True) == then
    for sentence in (now, then):
        assert not re.search(r"\b[A-Z]+_[A-Z_]+\b", sentence)  # no raw relation names
        assert not re.search(r"\bhas (?:sibling|child|parent|pet|hobby|condition|cousin)\b", sentence)
        assert not re.search(r"Zhang Wei (?:live|work|like|play|own|speak|know|study|plan) ", sentence)


def test_summary_sentences_are_dated_and_plans_are_plans() -> None:
    assert fact_sentence(fact("HAS_SIBLING", "Lin")) == "Zhang Wei's sibling is Lin."  # no "since"
    assert fact_sentence(fact("BORN_IN", "Suzhou", valid_at=datetime(1990, 1, 1, tzinfo=UTC))) == (
        "Zhang Wei was born in Suzhou in 1990.")
    assert fact_sentence(fact("HAS_SIBLING", "Lin", text="Lin is Zhang Wei's younger sister.")).startswith(
        "Zhang Wei's younger sister is Lin")
    assert fact_sentence(fact("HAS_PET", "Bao", text="Zhang Wei has a dog named Bao.")).startswith(
        "Zhang Wei has a dog, Bao")
    plan = fact("PLANS", "move to Shanghai", planned_for="2024-01-01T00:00:00+00:00",
                planned_for_granularity="month")
    assert fact_sentence(plan) == "Zhang Wei is planning to move to Shanghai in January 2024."
    called_off = plan.model_copy(update={"invalid_at": datetime(2024, 1, 20, tzinfo=UTC)})
    assert fact_sentence(called_off, at=datetime(2024, 2, 1, tzinfo=UTC)) == (
        "Zhang Wei planned to move to Shanghai in January 2024 (the plan ended 2024-01-20).")
    visit = fact("VISITED", "Kyoto", valid_at=datetime(2019, 7, 1, tzinfo=UTC),
                 invalid_at=datetime(2019, 8, 1, tzinfo=UTC))
    assert fact_sentence(visit) == "Zhang Wei visited Kyoto in July 2019."
    liked = fact("LIKES", "chess", valid_at=datetime(2019, 1, 1, tzinfo=UTC),
                 invalid_at=datetime(2021, 1, 1, tzinfo=UTC))
    assert fact_sentence(liked, at=datetime(2024, 1, 1, tzinfo=UTC)) == (
        "Zhang Wei liked chess from 2019 until 2021.")  # dated: the simple past, not "used to"
    assert fact_sentence(fact("OWNS", "cats")) == "Zhang Wei owns cats since March 2023."


@pytest.mark.parametrize(("relation", "expected"), [
    ("PLAYS_FOR", "Zhang Wei plays for Hangzhou FC"),
    ("HAS_MENTOR", "Zhang Wei's mentor is Hangzhou FC"),
    ("FAN_OF", "Zhang Wei is a fan of Hangzhou FC"),
    ("EMPLOYED_BY", "Zhang Wei is employed by Hangzhou FC"),
    ("SUPPORT", "Zhang Wei supports Hangzhou FC"),
    ("COACH", "Zhang Wei coaches Hangzhou FC"),
    ("IS_CAPTAIN_OF", "Zhang Wei is captain of Hangzhou FC"),
])
def test_declared_relations_get_a_sensible_wording(relation: str, expected: str) -> None:
    assert fact_clause("Zhang Wei", relation, "Hangzhou FC") == expected


# -- one wording: what the offline extractor writes as a fact's text is the summaries' wording --------
TOLD = [
    ("I'm vegetarian.", "Sam is vegetarian."),
    ("My hobby is painting.", "Sam's hobbies include painting."),
    ("My sister Anna works at Google.", "Sam's sister is Anna."),
    ("I got a puppy! Her name is Coco.", "Sam has a puppy, Coco."),
    ("I'm planning to move to Lyon.", "Sam is planning to move to Lyon."),
    ("I went to a poetry reading yesterday.", "Sam attended a poetry reading."),
    ("I quit Acme.", "Sam used to work at Acme."),
    ("We divorced in 2020.", "Sam got divorced."),
    ("I never worked at Globex.", "Sam says it is not so: Sam works at Globex."),
]


@pytest.mark.parametrize(("said", "text"), TOLD, ids=[t[0] for t in TOLD])
def test_the_offline_extractor_words_facts_as_summaries_do(said: str, text: str) -> None:
    at = datetime(2023, 5, 8, tzinfo=UTC)
    episode = Episode(id="e", group_id="g", content=said, reference_time=at, created_at=at, speaker="Sam")
    facts = OfflineExtractor().extract(episode).facts
    assert text in [f.text for f in facts]
    first = next(f for f in facts if f.text == text)
    if first.kind == "state":  # the summary's clause of the stored fact reads the same
        assert fact_clause(first.subject, first.relation, first.object, text=first.text) + "." == text
