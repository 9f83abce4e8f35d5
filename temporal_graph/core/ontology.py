"""Relation cardinalities: which relations hold one object at a time and which hold many; and
how much a fact of each relation usually matters (its importance, 1-10, for ranked search).

The default ontology covers common personal-memory relations; users extend or override it:

    Ontology.default().with_relations({"PLAYS_FOR": "one", "COLLECTS": "many"}, importances={"PLAYS_FOR": 7})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .errors import InvalidInput
from .model import DEFAULT_IMPORTANCE, Importance, check_importance
from .names import normalize_relation

Cardinality = Literal["one", "many"]

_DEFAULT_ONE = """LIVES_IN WORKS_AT WORKS_AS STUDIES_AT MARRIED_TO DATING ENGAGED_TO JOB_TITLE
ROLE AGE NATIONALITY HOMETOWN CURRENT_PROJECT MANAGED_BY REPORTS_TO RELATIONSHIP_STATUS BORN_IN
BORN_ON DIED_IN DIED_ON""".split()
_DEFAULT_MANY = """LIKES DISLIKES LOVES HATES VISITED OWNS HAS_PET HAS_CHILD HAS_PARENT HAS_SIBLING
FRIEND_OF KNOWS ALLERGIC_TO HAS_CONDITION PLANS PLANS_TO_VISIT ATTENDED DID HAS_HOBBY SPEAKS
MEMBER_OF PLAYS READS WATCHED INTERESTED_IN STUDIED_AT WORKED_AT LIVED_IN LEARNING DIET HAS_GRANDPARENT
HAS_GRANDCHILD HAS_COUSIN HAS_RELATIVE""".split()

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
}


# Importance of a fact by its relation, used when the extractor gives no rating of its own (the
# offline extractor never does; an LLM may leave it out). The scale follows the LLM prompt's: life
# events 9, lasting circumstances 7-8, everyday life 5-6, passing tastes 4. Unlisted: the middle, 5.
_DEFAULT_IMPORTANCE_BY_LEVEL = {
    9: "MARRIED_TO ENGAGED_TO HAS_CHILD BORN_IN BORN_ON DIED_IN DIED_ON HAS_CONDITION",
    8: """LIVES_IN WORKS_AT WORKS_AS JOB_TITLE DATING RELATIONSHIP_STATUS STUDIES_AT ALLERGIC_TO
HAS_PARENT HAS_SIBLING""",
    7: """HOMETOWN NATIONALITY ROLE REPORTS_TO MANAGED_BY CURRENT_PROJECT HAS_PET HAS_GRANDPARENT
HAS_GRANDCHILD FRIEND_OF AGE""",
    6: """STUDIED_AT WORKED_AT LIVED_IN MEMBER_OF PLANS PLANS_TO_VISIT LEARNING DIET SPEAKS HAS_COUSIN
HAS_RELATIVE""",
    4: "LIKES DISLIKES OWNS WATCHED READS READ",
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

    @field_validator("cardinalities", "object_types", "importances", mode="before")
    @classmethod
    def _normalize_keys(cls, value: Mapping[str, Any]) -> dict[str, Any]:
        return {normalize_relation(k): v for k, v in dict(value).items()}

    @classmethod
    def default_personal(cls) -> Ontology:
        cards: dict[str, Cardinality] = {r: "one" for r in _DEFAULT_ONE}
        cards.update({r: "many" for r in _DEFAULT_MANY})
        return cls(
            cardinalities=cards, object_types=dict(_DEFAULT_OBJECT_TYPES), events=frozenset(_DEFAULT_EVENTS),
            importances=dict(_DEFAULT_IMPORTANCES),
        )

    def cardinality(self, relation: str) -> Cardinality:
        return self.cardinalities.get(normalize_relation(relation), self.default)

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
