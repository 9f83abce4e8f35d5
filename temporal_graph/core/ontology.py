"""Relation cardinalities: which relations hold one object at a time and which hold many; how much
a fact of each relation usually matters (its importance, 1-10, for ranked search); and which
relations read the other way round (inverses, symmetric relations).

The default ontology covers common personal-memory relations; users extend or override it:

    Ontology.default().with_relations({"PLAYS_FOR": "one", "COLLECTS": "many"}, importances={"PLAYS_FOR": 7})

Attributes: a relation named by an attribute of its subject ("Order 5512's status is shipped" is
STATUS, "the opening hours" OPENING_HOURS, "Fitch's rating" FITCH_RATING) holds one value at a time.
Which names are attributes is :func:`is_attribute`: the relation's last word is one of
:data:`ATTRIBUTE_WORDS` (a closed list, so LIKES or PLAYS never become one), or it starts with
FAVORITE / FAVOURITE. A declared cardinality always wins over that rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .errors import InvalidInput
from .model import DEFAULT_IMPORTANCE, Importance, check_importance
from .names import normalize_relation

Cardinality = Literal["one", "many"]

# Chosen by what is true of the world: one diet at a time (vegetarian, then vegan) but several
# allergies and dietary restrictions at once; one manager one reports to, several teams one manages.
_DEFAULT_ONE = """LIVES_IN WORKS_AT WORKS_AS STUDIES_AT MARRIED_TO DATING ENGAGED_TO JOB_TITLE
ROLE AGE NATIONALITY HOMETOWN CURRENT_PROJECT MANAGED_BY REPORTS_TO RELATIONSHIP_STATUS BORN_IN
BORN_ON DIED_IN DIED_ON DIET DRIVES PHONE_MODEL""".split()
_DEFAULT_MANY = """LIKES DISLIKES LOVES HATES VISITED OWNS HAS_PET HAS_CHILD HAS_PARENT HAS_SIBLING
FRIEND_OF KNOWS ALLERGIC_TO HAS_CONDITION PLANS PLANS_TO_VISIT ATTENDED DID HAS_HOBBY SPEAKS
MEMBER_OF PLAYS READS WATCHED INTERESTED_IN STUDIED_AT WORKED_AT LIVED_IN LEARNING HAS_GRANDPARENT
HAS_GRANDCHILD HAS_COUSIN HAS_RELATIVE DIETARY_RESTRICTION PREFERS MANAGES EMPLOYS OFTEN_VISITS
RECOMMENDS AVOIDS LIVES_WITH COFOUNDER""".split()

# The last word of an attribute's relation name: what a thing *has one of at a time*. Closed on
# purpose ("my problem is ...", "the thing is ..." name no attribute).
ATTRIBUTE_WORDS = frozenset("""STATUS RENT PRICE PRICES COST FEE FEES FARE SALARY WAGE PAY INCOME
RATING RATINGS SCORE GRADE RANK RANKING TIER LEVEL STAGE PHASE PRIORITY SEVERITY DEADLINE DATE HOURS
ADDRESS CAPACITY BUDGET POPULATION VERSION SIZE WEIGHT HEIGHT LENGTH WIDTH DEPTH AREA SPEED VALUATION
CAP REVENUE PROFIT RATE BALANCE LIMIT TEMPERATURE MILEAGE RANGE DEDUCTIBLE PREMIUM CEO CTO CFO
OWNER HEADQUARTERS HQ DURATION TIMEOUT QUOTA INTERVAL SCHEDULE TIMETABLE
FREQUENCY MINIMUM MAXIMUM PLAN ETA PHONE EMAIL WEBSITE CODE COLOR COLOUR MOTTO SLOGAN THEME VENUE
LOCATION ALTITUDE VOLUME ATTENDANCE STOCK INVENTORY DEBT LOAN MORTGAGE TAX TARIFF DISCOUNT
MARGIN TITLE LAYOUT MODE FONT CURRENCY FORECAST GUIDANCE HEADCOUNT RAM""".split())
_ATTRIBUTE_PREFIXES = ("FAVORITE_", "FAVOURITE_")


def is_attribute(relation: str) -> bool:
    """Whether a relation name is an attribute of its subject (one value at a time): ``STATUS``,
    ``OPENING_HOURS``, ``FITCH_RATING``, ``FAVORITE_COLOR``; not ``LIKES`` or ``WORKS_AT``."""
    relation = normalize_relation(relation)
    return (relation.rsplit("_", 1)[-1] in ATTRIBUTE_WORDS or relation.startswith(_ATTRIBUTE_PREFIXES))


# Relations that read the other way round: A HAS_CHILD B is B HAS_PARENT A; a symmetric relation
# holds both ways. Used by questions that ask from the object's side ("Who manages Leo?").
_DEFAULT_INVERSES = {
    "HAS_PARENT": "HAS_CHILD", "HAS_CHILD": "HAS_PARENT", "MANAGES": "MANAGED_BY",
    "MANAGED_BY": "MANAGES", "REPORTS_TO": "MANAGES", "EMPLOYS": "WORKS_AT", "WORKS_AT": "EMPLOYS",
    "HAS_GRANDPARENT": "HAS_GRANDCHILD", "HAS_GRANDCHILD": "HAS_GRANDPARENT",
}
_DEFAULT_SYMMETRIC = """HAS_SIBLING MARRIED_TO IS_MARRIED_TO FRIEND_OF DATING ENGAGED_TO KNOWS HAS_COUSIN
LIVES_WITH COFOUNDER""".split()

# Relations that hold a plan: true from when it is told until it is called off or happens, never a
# state of what it plans (a plan to move to Lyon is not LIVES_IN Lyon).
PLAN_RELATIONS = frozenset({"PLANS", "PLANS_TO_VISIT"})

_DEFAULT_EVENTS = "VISITED ATTENDED DID WATCHED READ LIVED_IN WORKED_AT STUDIED_AT".split()

# Types an object of a relation usually has; used to label entities created from facts.
_DEFAULT_OBJECT_TYPES = {
    "LIVES_IN": "Place", "LIVED_IN": "Place", "VISITED": "Place", "PLANS_TO_VISIT": "Place",
    "HOMETOWN": "Place", "BORN_IN": "Place", "DIED_IN": "Place",
    "WORKS_AT": "Organization", "WORKED_AT": "Organization", "STUDIES_AT": "Organization",
    "STUDIED_AT": "Organization", "MEMBER_OF": "Organization",
    "MARRIED_TO": "Person", "DATING": "Person", "ENGAGED_TO": "Person", "HAS_CHILD": "Person",
    "HAS_PARENT": "Person", "HAS_SIBLING": "Person", "FRIEND_OF": "Person", "KNOWS": "Person",
    "MANAGED_BY": "Person", "REPORTS_TO": "Person",
    "WORKS_AS": "Role", "JOB_TITLE": "Role", "ROLE": "Role",
    "HAS_PET": "Animal", "ALLERGIC_TO": "Substance", "HAS_CONDITION": "Condition",
    "PLAYS": "Activity", "HAS_HOBBY": "Activity", "LEARNING": "Skill", "DIET": "Diet",
    "HAS_GRANDPARENT": "Person", "HAS_GRANDCHILD": "Person", "HAS_COUSIN": "Person", "HAS_RELATIVE": "Person",
    "LIVES_WITH": "Person", "COFOUNDER": "Person", "EMPLOYS": "Person", "OFTEN_VISITS": "Place",
    "DIETARY_RESTRICTION": "Diet",
}


# Importance of a fact by its relation, used when the extractor gives no rating of its own (the
# offline extractor never does; an LLM may leave it out). The scale follows the LLM prompt's: life
# events 9, lasting circumstances 7-8, everyday life 5-6, passing tastes 4. Unlisted: the middle, 5.
_DEFAULT_IMPORTANCE_BY_LEVEL = {
    9: "MARRIED_TO ENGAGED_TO HAS_CHILD BORN_IN BORN_ON DIED_IN DIED_ON HAS_CONDITION",
    8: """LIVES_IN WORKS_AT WORKS_AS JOB_TITLE DATING RELATIONSHIP_STATUS STUDIES_AT ALLERGIC_TO
HAS_PARENT HAS_SIBLING""",
    7: """HOMETOWN NATIONALITY ROLE REPORTS_TO MANAGED_BY CURRENT_PROJECT HAS_PET HAS_GRANDPARENT
HAS_GRANDCHILD FRIEND_OF AGE COFOUNDER""",
    6: """STUDIED_AT WORKED_AT LIVED_IN MEMBER_OF PLANS PLANS_TO_VISIT LEARNING DIET SPEAKS HAS_COUSIN
HAS_RELATIVE DIETARY_RESTRICTION MANAGES EMPLOYS LIVES_WITH""",
    4: "LIKES DISLIKES OWNS WATCHED READS READ PREFERS OFTEN_VISITS RECOMMENDS AVOIDS",
}
_DEFAULT_IMPORTANCES = {r: n for n, names in _DEFAULT_IMPORTANCE_BY_LEVEL.items() for r in names.split()}


class Ontology(BaseModel):
    """Cardinality (and a usual object type) per relation; unknown relations get ``default``."""

    model_config = ConfigDict(frozen=True)

    cardinalities: dict[str, Cardinality] = Field(default_factory=dict)
    object_types: dict[str, str] = Field(default_factory=dict)
    default: Cardinality = "many"
    # Relations whose facts are events (a dated occurrence, not a lasting state): an extracted
    # event covers the period its time phrase names, e.g. "yesterday" -> that day.
    events: frozenset[str] = Field(default_factory=frozenset)
    # How much a fact of a relation usually matters, 1-10; unlisted relations get the middle.
    importances: dict[str, Importance] = Field(default_factory=dict)
    # Undeclared relations named by an attribute (``is_attribute``) hold one value at a time.
    attributes_one: bool = False
    # A relation -> the relation that says the same from the object's side; symmetric ones say it
    # both ways.
    inverses: dict[str, str] = Field(default_factory=dict)
    symmetric: frozenset[str] = Field(default_factory=frozenset)

    @field_validator("cardinalities", "object_types", "importances", "inverses", mode="before")
    @classmethod
    def _normalize_keys(cls, value: Mapping[str, Any]) -> dict[str, Any]:
        return {normalize_relation(k): v for k, v in dict(value).items()}

    @classmethod
    def default_personal(cls) -> Ontology:
        cards: dict[str, Cardinality] = {r: "one" for r in _DEFAULT_ONE}
        cards.update({r: "many" for r in _DEFAULT_MANY})
        return cls(
            cardinalities=cards, object_types=dict(_DEFAULT_OBJECT_TYPES), events=frozenset(_DEFAULT_EVENTS),
            importances=dict(_DEFAULT_IMPORTANCES), attributes_one=True, inverses=dict(_DEFAULT_INVERSES),
            symmetric=frozenset(_DEFAULT_SYMMETRIC),
        )

    def cardinality(self, relation: str) -> Cardinality:
        relation = normalize_relation(relation)
        declared = self.cardinalities.get(relation)
        if declared is not None:
            return declared
        return "one" if self.attributes_one and is_attribute(relation) else self.default

    def inverse(self, relation: str) -> str | None:
        """The relation that states ``relation`` from its object's side (itself when symmetric)."""
        relation = normalize_relation(relation)
        return relation if relation in self.symmetric else self.inverses.get(relation)

    def is_event(self, relation: str) -> bool:
        return normalize_relation(relation) in self.events

    def object_type(self, relation: str) -> str | None:
        return self.object_types.get(normalize_relation(relation))

    def importance(self, relation: str) -> int:
        """How much a fact of ``relation`` matters when nobody rated it (1-10)."""
        return self.importances.get(normalize_relation(relation), DEFAULT_IMPORTANCE)

    def with_relations(
        self, cardinalities: Mapping[str, str], object_types: Mapping[str, str] | None = None,
        importances: Mapping[str, int] | None = None,
    ) -> Ontology:
        """A copy with these relations declared (or re-declared), optionally with their importance."""
        for relation, card in cardinalities.items():
            if card not in ("one", "many"):
                raise InvalidInput(f"cardinality of {relation!r}: {card!r} is not 'one' or 'many'")
        merged = {**self.cardinalities, **{normalize_relation(k): v for k, v in cardinalities.items()}}
        types = {**self.object_types, **{normalize_relation(k): v for k, v in (object_types or {}).items()}}
        for relation, level in (importances or {}).items():
            check_importance(level, f"importance of {relation!r}")
        rated = {**self.importances, **dict(importances or {})}
        # Validated like a new ontology (model_copy would not check the ratings).
        return Ontology.model_validate(
            {**self.model_dump(), "cardinalities": merged, "object_types": types, "importances": rated}
        )
