"""Every relation reads as English in the present and in the past: each relation of the default
ontology, attributes ("Ana's rent was 1,300 euros a month") and declared relations, regular and
irregular verbs alike; a fact's own sentence told in the past or as still holding."""

from __future__ import annotations

import re

import pytest

from temporal_graph.core.names import normalize_relation
from temporal_graph.core.ontology import ATTRIBUTE_WORDS, Ontology
from temporal_graph.core.sentences import fact_clause, past_text, still_text
from temporal_graph.core.verbs import base_form, past, third_person

DEFAULT = Ontology.default_personal()


def _reserved(word: str) -> bool:
    try:
        normalize_relation(word)
    except ValueError:
        return True
    return False


RESERVED = {w for w in ATTRIBUTE_WORDS if _reserved(w)}  # "LIMIT" alone names no relation (Cypher)
RELATIONS = sorted(set(DEFAULT.cardinalities) | set(DEFAULT.events))
ATTRIBUTES = sorted(w for w in ATTRIBUTE_WORDS if w not in RESERVED) + [
    "OPENING_HOURS", "FAVORITE_COLOR", "MONTHLY_RENT", "SPENDING_LIMIT"]
DECLARED = ["PLAYS_FOR", "COACH", "SUPPORT", "TEACHES_AT", "LEADS", "RUNS", "HOLDS", "GOES_TO", "FLIES_WITH",
            "HAS_MENTOR", "FAN_OF", "EMPLOYED_BY", "BASED_IN", "IS_CAPTAIN_OF", "PLAYED_FOR", "STUDIES_UNDER",
            "CARRIES", "PREFERS_OVER", "TAUGHT_AT", "MET", "WRITES_FOR", "DRIVES", "SPEAKS_WITH",
            "HAS_WON_PRIZE", "WAS_BORN_IN", "IS_AFFILIATED_TO", "GRADUATED_FROM", "CREATED"]
# Forms no careful writer puts down: a doubled or missing ending, a wrong past, a present copula in a
# past sentence, a relation name left raw.
WRONG = re.compile(r"\b(?:liveed|studieed|haved|haded|hased|is lived|"
                   r"was lives|used to \w+s\b|knowed|teached|leaded|runned|holded|goed|flyed|speaked|"
                   r"writed|drived|payed|buyed|\w+s (?:in|at|to|for|with) \w+ (?:in|at) \d{4}|"
                   r"[A-Z]+_[A-Z_]+)\b")
PRESENT_VERB = re.compile(r"^Zhang Wei(?:'s [\w -]+?)? (?:is|are|has|include|often \w+s|\w+s)\b")
PAST_VERB = re.compile(r"^Zhang Wei(?:'s [\w -]+?)? (?:was|were|had|often \w+ed|\w+ed|" +
                       "|".join(sorted({past(v) for v in ("run", "lead", "teach", "hold", "go", "fly", "know",
                                                          "speak", "read", "write", "drive", "meet", "do")}))
                       + r")\b")
# Named as things done: the same words in every tense.
DONE = {"PLAYED_FOR", "TAUGHT_AT", "MET", "DID", "HAS_WON_PRIZE", "WAS_BORN_IN", "GRADUATED_FROM", "CREATED"}
OBJECT = {"AGE": "34", "BORN_ON": "1990-04-02", "DIED_ON": "2020-01-01", "DID": "ran a marathon",
          "PLANS": "move to Shanghai", "DIET": "vegetarian", "DIETARY_RESTRICTION": "gluten-free"}


def _pair(relation: str) -> tuple[str, str]:
    obj = OBJECT.get(relation, "Hangzhou")
    return (fact_clause("Zhang Wei", relation, obj), fact_clause("Zhang Wei", relation, obj, tense="past"))


@pytest.mark.parametrize("relation", RELATIONS + ATTRIBUTES + DECLARED)
def test_every_relation_reads_right_in_present_and_past(relation: str) -> None:
    now, then = _pair(relation)
    ended = fact_clause("Zhang Wei", relation, OBJECT.get(relation, "Hangzhou"), tense="ended")
    for sentence in (now, then, ended):
        assert sentence.startswith("Zhang Wei") and not WRONG.search(sentence), sentence
    assert PAST_VERB.match(then) or then.startswith("Zhang Wei has won"), then  # "lived", "was", "taught"
    if relation not in DEFAULT.events and not relation.startswith(("BORN", "DIED")) and relation not in DONE:
        assert PRESENT_VERB.match(now), now  # the present is a present: "lives", "is", "has"
        assert now != then


@pytest.mark.parametrize(("relation", "obj", "now", "then"), [
    ("LIVES_IN", "Hangzhou", "Zhang Wei lives in Hangzhou", "Zhang Wei lived in Hangzhou"),
    ("WORKS_AS", "engineer", "Zhang Wei works as an engineer", "Zhang Wei worked as an engineer"),
    ("KNOWS", "Bob", "Zhang Wei knows Bob", "Zhang Wei knew Bob"),
    ("SPEAKS", "Cantonese", "Zhang Wei speaks Cantonese", "Zhang Wei spoke Cantonese"),
    ("READS", "poetry", "Zhang Wei reads poetry", "Zhang Wei read poetry"),
    ("HAS_CONDITION", "asthma", "Zhang Wei has asthma", "Zhang Wei had asthma"),
    ("HAS_PET", "Bao", "Zhang Wei has a pet, Bao", "Zhang Wei had a pet, Bao"),
    ("STUDIES_AT", "MIT", "Zhang Wei studies at MIT", "Zhang Wei studied at MIT"),
    ("PREFERS", "tea", "Zhang Wei prefers tea", "Zhang Wei preferred tea"),
    ("MARRIED_TO", "Li Na", "Zhang Wei is married to Li Na", "Zhang Wei was married to Li Na"),
    ("RENT", "1,300 euros a month", "Zhang Wei's rent is 1,300 euros a month",
     "Zhang Wei's rent was 1,300 euros a month"),
    ("OPENING_HOURS", "9 to 5", "Zhang Wei's opening hours are 9 to 5",
     "Zhang Wei's opening hours were 9 to 5"),
    ("PLAYS_FOR", "Hangzhou FC", "Zhang Wei plays for Hangzhou FC", "Zhang Wei played for Hangzhou FC"),
    ("TEACHES_AT", "MIT", "Zhang Wei teaches at MIT", "Zhang Wei taught at MIT"),
    ("LEADS", "the team", "Zhang Wei leads the team", "Zhang Wei led the team"),
    ("COACH", "the team", "Zhang Wei coaches the team", "Zhang Wei coached the team"),
    ("CARRIES", "a torch", "Zhang Wei carries a torch", "Zhang Wei carried a torch"),
    ("PLAYED_FOR", "Hangzhou FC", "Zhang Wei played for Hangzhou FC", "Zhang Wei played for Hangzhou FC"),
    ("EMPLOYED_BY", "Acme", "Zhang Wei is employed by Acme", "Zhang Wei was employed by Acme"),
    ("HAS_MENTOR", "Chen", "Zhang Wei's mentor is Chen", "Zhang Wei's mentor was Chen"),
    ("HAS_WON_PRIZE", "the Turing Award", "Zhang Wei has won prize the Turing Award",
     "Zhang Wei has won prize the Turing Award"),
    ("WAS_BORN_IN", "Suzhou", "Zhang Wei was born in Suzhou", "Zhang Wei was born in Suzhou"),
    ("IS_AFFILIATED_TO", "Fudan", "Zhang Wei is affiliated to Fudan", "Zhang Wei was affiliated to Fudan"),
    ("GRADUATED_FROM", "Fudan", "Zhang Wei graduated from Fudan", "Zhang Wei graduated from Fudan"),
])
def test_the_wording_of_each_tense(relation: str, obj: str, now: str, then: str) -> None:
    assert fact_clause("Zhang Wei", relation, obj) == now
    assert fact_clause("Zhang Wei", relation, obj, tense="past") == then


def test_ended_declared_relations_use_the_base_form() -> None:
    played = fact_clause("Zhang Wei", "PLAYS_FOR", "Hangzhou FC", ended=True)
    assert played == "Zhang Wei used to play for Hangzhou FC"
    assert fact_clause("Zhang Wei", "TEACHES_AT", "MIT", ended=True) == "Zhang Wei used to teach at MIT"


@pytest.mark.parametrize(("base", "third", "simple_past"), [
    ("live", "lives", "lived"), ("study", "studies", "studied"), ("coach", "coaches", "coached"),
    ("plan", "plans", "planned"), ("stop", "stops", "stopped"), ("visit", "visits", "visited"),
    ("prefer", "prefers", "preferred"), ("play", "plays", "played"), ("go", "goes", "went"),
    ("have", "has", "had"), ("be", "is", "was"), ("teach", "teaches", "taught"), ("fix", "fixes", "fixed"),
    ("quit", "quits", "quit"), ("panic", "panics", "panicked"), ("own", "owns", "owned"),
    ("follow", "follows", "followed"), ("fly", "flies", "flew"), ("date", "dates", "dated"),
])
def test_verb_forms(base: str, third: str, simple_past: str) -> None:
    assert third_person(base) == third and base_form(third) == base and past(base) == simple_past


@pytest.mark.parametrize(("text", "then", "still"), [
    ("Zhang Wei lives in Hangzhou with Li Na.", "Zhang Wei lived in Hangzhou with Li Na",
     "Zhang Wei still lives in Hangzhou with Li Na"),
    ("Zhang Wei's rent is 1,300 euros a month.", "Zhang Wei's rent was 1,300 euros a month",
     "Zhang Wei's rent is still 1,300 euros a month"),
    ("Zhang Wei is married to Li Na.", "Zhang Wei was married to Li Na",
     "Zhang Wei is still married to Li Na"),
    ("Zhang Wei has a dog, Bao.", "Zhang Wei had a dog, Bao", "Zhang Wei still has a dog, Bao"),
    ("Zhang Wei often visits Porto.", "Zhang Wei often visited Porto", "Zhang Wei still often visits Porto"),
    ("Zhang Wei teaches at MIT.", "Zhang Wei taught at MIT", "Zhang Wei still teaches at MIT"),
    ("Zhang Wei was born in Suzhou.", "Zhang Wei was born in Suzhou", None),  # no "still" for a thing done
    ("Zhang Wei visited Kyoto.", "Zhang Wei visited Kyoto", None),
    ("Li Na is married to Zhang Wei.", None, None),  # not told from the subject: worded from the relation
])
def test_a_facts_own_sentence_in_the_past_and_still(text: str, then: str | None, still: str | None) -> None:
    assert past_text("Zhang Wei", text) == then
    assert still_text("Zhang Wei", text) == still
