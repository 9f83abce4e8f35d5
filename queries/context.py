"""A memory block for a prompt: the most relevant facts with their dates, the insights about
their subjects (labelled, with what they rest on), then supporting messages.

    Facts:
    - Zhang Wei lives in Shanghai (since 2024-06-01)
    - Zhang Wei works as software engineer (since 2021-03-01)
    Insights (derived from facts):
    - Zhang Wei moved 3 times in 2 years (2019-2021: ...) (insight believed since 2024-07-01, from 4 facts)
    Supporting messages:
    - [2024-06-02] Zhang Wei: We finally moved to Shanghai last week!

The block never exceeds ``budget_tokens``. Tokens are counted with a real tokenizer — the
WordPiece tokenizer of the all-MiniLM-L6-v2 model the memory already loads for search — on the
whole block as returned, so the bound holds to the token. (tiktoken would match OpenAI models
more closely, but it downloads its encodings on first use and this project runs offline; WordPiece
counts are of the same order for English text.) A fact line that does not fit is skipped; a
message that does not fit whole is cut at a word boundary and marked with "…".
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from temporal_graph.core import DEFAULT_GROUP, Core
from temporal_graph.core.limits import BUDGET_TOKENS, whole_number
from temporal_graph.core.model import DEFAULT_CLAIMS, DEFAULT_STALE, Episode, Insight, RecordKind, SearchHit
from temporal_graph.core.names import check_group
from temporal_graph.core.stores.protocol import FactQuery
from temporal_graph.core.time import TimeLike

from . import probable, staleness
from .answer_text import Telling, fact_line, said_later
from .reflection import insight_sentence, insights_for
from .search import search

MAX_FACTS = 20
MAX_EPISODES = 10
MAX_INSIGHTS = 5
MIN_SNIPPET_WORDS = 4


def count_tokens(core: Core, text: str) -> int:
    """Tokens of ``text`` under the embedding model's tokenizer (no special tokens)."""
    if not text:
        return 0
    return len(core.embedder.tokenizer.encode(text, add_special_tokens=False, verbose=False))


def episode_line(e: Episode, words: list[str] | None = None) -> str:
    content = " ".join(e.content.split()) if words is None else " ".join(words) + " …"
    who = f"{e.speaker}: " if e.speaker else ""
    return f"- [{e.reference_time.date().isoformat()}] {who}{content}"


def context(
    core: Core,
    query: str,
    *,
    budget_tokens: int = 1000,
    as_of: TimeLike | None = None,
    known_at: TimeLike | None = None,
    group_id: str = DEFAULT_GROUP,
    claims: str = DEFAULT_CLAIMS,
    stale: str = DEFAULT_STALE,
) -> str:
    """The memory block for ``query`` within ``budget_tokens`` tokens ("" when nothing fits).

    With ``as_of`` the facts are those valid then and no message told after it appears; with
    ``known_at`` what the memory held then (facts believed then, nothing recorded after it).
    ``stale`` as in :func:`queries.search.search`: a superseded message is left out, or listed
    last with what replaced it ("label" and "show")."""
    check_group(group_id)
    whole_number(budget_tokens, "budget_tokens", BUDGET_TOKENS)
    at = core.optional_time(as_of, "as_of")
    known = core.optional_time(known_at, "known_at")
    if budget_tokens == 0 or not query.strip():
        return ""
    hits = search(core, query, as_of=at, known_at=known, limit=MAX_FACTS + MAX_EPISODES, group_id=group_id,
                  kinds=(RecordKind.FACT, RecordKind.EPISODE), claims=claims,
                  stale="label" if stale == "show" else stale)
    fact_hits = [h for h in hits if h.fact is not None][:MAX_FACTS]
    facts = [h.fact for h in fact_hits if h.fact is not None]
    episodes = [h.episode for h in hits if h.episode is not None]
    standing = {h.episode.id: h for h in hits if h.episode is not None}
    # Messages the chosen facts were learned from support them, after the best-ranked messages.
    seen = {e.id for e in episodes}
    cited = [i for f in facts for i in f.episode_ids if i not in seen]
    if cited:
        by_id = {e.id: e for e in core.store.episodes(group_id, ids=cited) if e.recalled(known)}
        found = _cited(core, group_id, [by_id[i] for i in dict.fromkeys(cited) if i in by_id],
                       at, known, query, hide=hits.stale == "hide")
        standing |= {h.episode.id: h for h in found if h.episode is not None}
        episodes += [h.episode for h in found if h.episode is not None]
    episodes = [e for e in episodes if told_by(e, at, known)][:MAX_EPISODES]

    fits = _Budget(lambda text: count_tokens(core, text), budget_tokens)
    labels = _Labels(core, group_id, [h for h in standing.values() if h.stale], known, query)
    spoken_of = probable.SpokenOf(core, group_id, query, labels.messages.values(),
                                  (i for h in standing.values() for i in h.superseded_by))
    header = "Facts:" if at is None else f"Facts (as of {at.date().isoformat()}):"
    if facts and fits.add_section(header):
        tell = Telling(core.now())  # a fact that has ended is told in the past, as answers tell it
        for h, f in zip(fact_hits, facts, strict=True):
            fits.add(f"- {tell.line(f)}" + labels.of(staleness.doubted(h, standing, spoken_of)))
    insights = insights_for(core, group_id, facts, known_at=known, as_of=at, limit=MAX_INSIGHTS)
    if insights and fits.add_section("Insights (derived from facts):"):
        for i in insights:
            fits.add(insight_line(i))
    current = [e for e in episodes if e.id not in standing or standing[e.id].standing != "superseded"]
    if current and fits.add_section("Supporting messages:"):
        for e in current:
            label = labels.of(standing.get(e.id))
            if not fits.add(episode_line(e) + label):
                _add_cut(fits, e, label)
    superseded = [e for e in episodes if e.id in standing and standing[e.id].standing == "superseded"]
    if superseded and fits.add_section("Superseded messages (what the memory later learned replaced):"):
        for e in superseded:
            fits.add(episode_line(e) + labels.of(standing[e.id]))
    return fits.text()


def _cited(core: Core, group_id: str, episodes: list[Episode], at: datetime | None, known: datetime | None,
           query: str, *, hide: bool) -> list[SearchHit]:
    """The messages a chosen fact cites, with their standing as the search gives its own: a fact
    that still holds may cite a message since replaced (a supersede that restated it), which the
    block must label, or leave out as the search did ("hide")."""
    hits = [SearchHit(kind=RecordKind.EPISODE, score=0.0, reasons=["cited by a fact"], episode=e)
            for e in episodes]
    valid_time = at if at is not None else core.now()
    found = staleness.label(core, group_id, hits, valid_time=valid_time, known_at=known, told_by=at,
                            query=query)
    return [h for h in found if not (hide and h.standing == "superseded")]


class _Labels:
    """The bracket a stale message's line ends with, saying what replaced what: an LLM reading the
    block must be able to tell an old value from the current one. Every line of a stale message
    carries one, starting "[superseded", "[partly superseded" or "[possibly superseded"."""

    def __init__(self, core: Core, group_id: str, stale: list[SearchHit], known: datetime | None,
                 query: str) -> None:
        self.query = query
        rows = list(dict.fromkeys(i for h in stale for i in h.replaced_by))
        messages = list(dict.fromkeys(i for h in stale for i in h.superseded_by))
        read = FactQuery(group_id, ids=tuple(rows), known_at=known)
        self.rows = {f.id: f for f in core.store.facts(read)} if rows else {}
        self.messages = {e.id: e for e in core.store.episodes(group_id, ids=messages)} if messages else {}

    def of(self, hit: SearchHit | None) -> str:
        if hit is None or not hit.stale:
            return ""
        words = {"superseded": "superseded", "partly_superseded": "partly superseded",
                 "possibly_superseded": "possibly superseded"}[hit.standing or ""]
        parts = []
        if hit.stale_statements:
            parts.append("no longer: " + " ".join(hit.stale_statements))
        newer = [self.messages[i] for i in hit.superseded_by if i in self.messages]
        if newer:
            parts.append(said_later(newer[0], probable.excerpt(newer[0].content, self.query)))
        now = [fact_line(self.rows[i])[2:] for i in hit.replaced_by if i in self.rows]
        if now:
            parts.append("now: " + "; ".join(now))
        return f" [{words}: {'; '.join(parts) or 'no longer holds'}]"


def insight_line(i: Insight) -> str:
    return f"- {insight_sentence(i)}"


def told_by(e: Episode, as_of: datetime | None, known_at: datetime | None) -> bool:
    """A message belongs in a block as of ``as_of`` and as known at ``known_at`` only if it was
    told by then and recorded by then."""
    return (as_of is None or e.reference_time <= as_of) and (known_at is None or e.created_at <= known_at)


class _Budget:
    """Lines accepted so far; a line is accepted only if the whole block still fits."""

    def __init__(self, count: Callable[[str], int], budget: int) -> None:
        self.count = count
        self.budget = budget
        self.lines: list[str] = []
        self._pending_header: str | None = None

    def text(self) -> str:
        return "\n".join(self.lines)

    def _fits(self, lines: list[str]) -> bool:
        return self.count("\n".join(lines)) <= self.budget

    def add_section(self, header: str) -> bool:
        """A header is only kept together with at least one line under it (see ``add``)."""
        self._pending_header = header
        return self._fits([*self.lines, header])

    def add(self, line: str) -> bool:
        new = [self._pending_header, line] if self._pending_header else [line]
        if not self._fits([*self.lines, *new]):
            return False
        self.lines += new
        self._pending_header = None
        return True


def _add_cut(fits: _Budget, e: Episode, label: str = "") -> None:
    """The longest word prefix of the message that fits (with its ``label``), if it says anything
    at all."""
    words = e.content.split()
    lo, hi = MIN_SNIPPET_WORDS, len(words) - 1
    best = None
    while lo <= hi:
        mid = (lo + hi) // 2
        candidate = (
            [fits._pending_header, episode_line(e, words[:mid]) + label]
            if fits._pending_header
            else [episode_line(e, words[:mid]) + label]
        )
        if fits._fits([*fits.lines, *candidate]):
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    if best is not None:
        fits.add(episode_line(e, words[:best]) + label)
