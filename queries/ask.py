"""Questions in plain language, answered from facts (cited), or "I don't know" — never invented.

``ask`` is a pipeline of three steps:

1. **plan** (:mod:`queries.planning`): the question becomes a :class:`~queries.plan.Plan` — whom it
   starts from, a chain of hops ("Kenji's brother"), the relations asked, the kind of question and
   the time (valid time, and transaction time for "as known then"), by rules or by one LLM call;
2. **run** (:mod:`queries.answering`): the plan reads the store by subject, object and relation
   only (:mod:`queries.hops`);
3. **answer**: the facts found are worded (:mod:`queries.answer_text`) and cited, so the answer can
   only say what the memory holds.

An answer rests only on what was asked (:mod:`queries.topics`): a question about a relation the
memory does not hold for its subject gets "I don't know", naming what the memory does hold, never
an answer to another question. "I" and "my" are the asker (:mod:`queries.asker`); "Has order 5512
shipped?" is read from the order's status (:mod:`queries.status`); "Tell me about people" gets the
weightiest facts of the group (:mod:`queries.broad`); "When did Priya get engaged?" says the date
and the phrase it was resolved from (:mod:`queries.told`).

Kinds: *what* (the value: "Where does Kenji's brother live?"), *who* (the inverse: "Who lives in
Kyoto?"), *when_start* / *when_end* ("When did Priya leave Dell?"), *how_long*, *ever* ("Has Kenji
ever lived in Osaka?"), *changed* ("What changed for Kenji since 2023?", through ``diff``) and
*believed* ("What did the memory believe about Kenji on 1 May 2024?", through transaction time).
"""

from __future__ import annotations

from temporal_graph.core import DEFAULT_GROUP, Core
from temporal_graph.core.claims import check_claims
from temporal_graph.core.errors import InvalidInput
from temporal_graph.core.model import DEFAULT_CLAIMS, Answer, Fact, QuestionPlan
from temporal_graph.core.names import check_group
from temporal_graph.core.time import TimeLike

from .answering import answer_plan
from .doubts import bracket, newer_messages, possibly_superseded
from .plan import Plan
from .planning import make_plan, plan_offline, plan_with_llm
from .question_time import question_time
from .reflection import insight_sentence, insights_for

MAX_INSIGHTS = 2  # insights an answer states after its facts, those citing them

__all__ = ["Plan", "QuestionPlan", "ask", "plan_offline", "plan_with_llm", "question_time"]


def ask(
    core: Core, question: str, *, reference_time: TimeLike | None = None, speaker: str | None = None,
    group_id: str = DEFAULT_GROUP, claims: str = DEFAULT_CLAIMS,
) -> Answer:
    """Answer ``question`` from the memory; ``known=False`` (and a plain "I don't know") otherwise.
    ``speaker``: who asks, whom "I", "my" and "me" in the question mean (default: the group's one
    human speaker, said in the answer; see :mod:`queries.asker`). ``claims``: which statements may
    answer (see :mod:`temporal_graph.core.claims`)."""
    check_group(group_id)
    check_claims(claims)
    if not isinstance(question, str) or not question.strip():
        raise InvalidInput("question: empty")
    if speaker is not None and not isinstance(speaker, str):
        raise InvalidInput(f"speaker: expected text, got {type(speaker).__name__}")
    plan = make_plan(core, question, core.time_or_now(reference_time, "reference_time"), group_id, speaker)
    plan.claims = claims
    text, facts, known = answer_plan(core, plan)
    if plan.notes and known:
        text = f"{text} ({'; '.join(plan.notes)})"
    doubted = _doubted(core, plan, question, facts) if known else {}
    text += bracket(core, group_id, question, facts, doubted)
    insights = insights_for(core, group_id, facts, known_at=plan.known_at, cited_only=True,
                            limit=MAX_INSIGHTS) if known else []
    text = " ".join([text, *(f"Insight: {insight_sentence(i)}." for i in insights)])
    return Answer(question=question, text=text, facts=facts, known=known, plan=plan.described(),
                  verdict=plan.verdict, insights=insights, possibly_superseded_by=newer_messages(doubted))


def _doubted(core: Core, plan: Plan, question: str, facts: list[Fact]) -> dict[str, tuple[str, ...]]:
    """The answer's facts a newer message may have revised, for a value asked of one moment as
    currently believed (:mod:`queries.doubts`); a question about history or belief gets none."""
    at = plan.time.moment
    if at is None or not facts or plan.known_at is not None or plan.kind not in ("what", "who"):
        return {}
    return possibly_superseded(core, plan.group_id, question, facts, at=at)
