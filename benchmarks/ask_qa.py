"""Natural-language questions to ``tg.ask``: over a public temporal knowledge graph (YAGO11k), and
over chat logs a user would write (the chat-derived set, :mod:`benchmarks.chat_qa`).

    python benchmarks/ask_qa.py [--set yago|chats|all] [--data DIR] [--labels JSON] [--per-family N]
                                [--seed S] [--rank MODES] [--json]

``--set chats`` (or ``all``, the default) also runs the chat-derived set: six chat logs of our
own and 178 questions of thirteen kinds (ever, still, before/after, planning, claims, when, how long,
who; and first-person, unheld relations, status, past values, broad questions), accuracy per kind
and the answers to another question; ``--rank`` adds search recall@k per rank mode over the same
questions.
``--json`` prints ``{"families", "median_ask_ms"}`` for YAGO11k and, when the chat set ran,
``"chats"`` beside them.

The graph is read and loaded through ``add_fact`` by the temporal-QA benchmark's own code
(:mod:`benchmarks.temporal_qa`: years as half-open intervals, declared cardinalities, ambiguous
subject-relation pairs left out). Questions are written from templates over relation labels
(``--labels``: a JSON object, relation id or name -> words such as "works at"; YAGO's are built in),
in eight families, only where the raw data answers unambiguously:

* ``as-of``: "What did X play for in 1995?" (X held exactly one value that year; pairs whose value
  changed over time, as in the temporal-QA benchmark).
* ``current``: "What does X play for now?" (exactly one value holds now, or ended last).
* ``when-start`` / ``when-end``: "When did X start working at Y?" / "When did X stop working at Y?"
  (X held Y in one stretch; gold: its first year / the year it no longer held — the interval's
  exclusive end, which is what the data's inclusive last year becomes).
* ``how-long``: "How long did X work at Y?" (one closed stretch; gold: whole years).
* ``who-inverse``: "Who worked at Y in 1995?" (exactly one subject; symmetric relations left out).
* ``two-hop``: "What was X's spouse born in?" (X has exactly one spouse, in either direction, and the
  spouse exactly one value ever); only for datasets with a marriage relation.
* ``ever``: "Has X ever played for Y?", half yes (X held Y) and half no (Y held by others, never by X).

Scoring: an answer is right when its first cited fact has the right object (the right subject for
who-inverse) — and for when/how-long, the right year or number of years, also present in the
answer text; a "no" is right when ``ask`` says it does not know. Names the question finder cannot
read in running text (brackets, parentheses, more than six words) are left out of the questions.

Baseline in the same run: hybrid search (``tg.search``, facts of any valid time) top-1 fact for
the question text, scored by the same rule on its fact (a "no" is right unless the top fact is the
asked one). A search costs about 0.6 s on YAGO11k, so by default only the first 30 questions of each
family (a random sample) are searched; ``--baseline-sample -1`` searches them all (about 25 minutes).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    from benchmarks import chat_qa
    from benchmarks import temporal_qa as tqa
    from benchmarks.locomo_retrieval import rank_modes
except ModuleNotFoundError:  # run as a script from the repository root
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from benchmarks import chat_qa
    from benchmarks import temporal_qa as tqa
    from benchmarks.locomo_retrieval import rank_modes

from queries.question import HOP_WORDS, SYMMETRIC
from temporal_graph.core.errors import TemporalGraphError
from temporal_graph.core.model import Answer, Fact
from temporal_graph.core.names import clean_name, name_key, normalize_relation

FAMILIES = ("as-of", "current", "when-start", "when-end", "how-long", "who-inverse", "two-hop", "ever")
YAGO_LABELS = {
    "wasBornIn": "was born in", "diedIn": "died in", "worksAt": "works at", "playsFor": "plays for",
    "isMarriedTo": "is married to", "isAffiliatedTo": "is affiliated to", "owns": "owns",
    "hasWonPrize": "won", "graduatedFrom": "graduated from", "created": "created",
}
_NAME_WORD = re.compile(r"[\w][\w'’.-]*")
_SPOUSE_KEYS = frozenset(HOP_WORDS["spouse"])
BASELINE_SAMPLE = 30  # hybrid search costs ~0.6 s a query on YAGO11k: a sample keeps the run to minutes
MIN_YEAR = 1500  # the time-expression parser reads years 1500-2099


# -- relation words -----------------------------------------------------------------------------------
_IRREGULAR_BASE = {"won": "win", "has": "have", "had": "have", "made": "make", "did": "do", "led": "lead"}
_IRREGULAR_PAST = {"has": "had", "won": "won", "made": "made", "led": "led", "did": "did"}


@dataclass(frozen=True)
class Label:
    """A relation's words ("works at") in the forms the question templates need."""

    words: str

    @property
    def copula(self) -> bool:
        return self.words.split()[0] in ("is", "was", "are", "were")

    @property
    def rest(self) -> str:
        return " ".join(self.words.split()[1:])

    @property
    def event(self) -> bool:
        """Told in the past ("was born in", "won", "graduated from"): it happens, it does not last."""
        v = self.verb
        return v == "was" or v.endswith("ed") or v in _IRREGULAR_PAST.values()

    @property
    def verb(self) -> str:
        return self.words.split()[0]

    @property
    def base(self) -> str:
        v = self.verb
        if v in _IRREGULAR_BASE:
            return _IRREGULAR_BASE[v]
        if v.endswith("ied") and len(v) > 4:
            return v[:-3] + "y"
        if v.endswith("ed"):
            stem = v[:-2]
            needs_e = len(stem) <= 2 or stem.endswith(("at", "it", "ut", "v", "c", "z", "us"))
            return stem + "e" if needs_e else stem
        if v.endswith("ies"):
            return v[:-3] + "y"
        if v.endswith(("ses", "xes", "zes", "ches", "shes")):
            return v[:-2]
        return v[:-1] if v.endswith("s") and not v.endswith("ss") else v

    @property
    def past(self) -> str:
        v = self.verb
        if v in _IRREGULAR_PAST or v.endswith("ed"):
            return _IRREGULAR_PAST.get(v, v)
        if v in ("is", "was"):
            return "was"
        b = self.base
        if b.endswith("e"):
            return b + "d"
        return b[:-1] + "ied" if b.endswith("y") and b[-2:-1] not in "aeiou" else b + "ed"

    @property
    def gerund(self) -> str:
        b = self.base
        if b.endswith("ie"):
            return b[:-2] + "ying"
        return b[:-1] + "ing" if b.endswith("e") and not b.endswith("ee") else b + "ing"


def _say(*parts: str) -> str:
    return " ".join(" ".join(p for p in parts if p).split()) + "?"


def value_question(label: Label, who: str, when: str, tense: str) -> str:
    """ "What did X play for in 1995?" / "What is X married to now?" / "What was X born in?" """
    if label.copula:
        return _say("What", "was" if tense == "past" else "is", who, label.rest, when)
    return _say("What", "did" if tense == "past" else "does", who, label.base, label.rest, when)


def start_question(label: Label, x: str, y: str) -> str:
    if label.event:  # "When was X born in Y?", "When did X win Y?"
        if label.copula:
            return _say("When was", x, label.rest, y)
        return _say("When did", x, label.base, label.rest, y)
    if label.copula:
        return _say("When did", x, "become", label.rest, y)
    return _say("When did", x, "start", label.gerund, label.rest, y)


def end_question(label: Label, x: str, y: str) -> str:
    if label.copula:
        return _say("When did", x, "stop being", label.rest, y)
    return _say("When did", x, "stop", label.gerund, label.rest, y)


def how_long_question(label: Label, x: str, y: str) -> str:
    if label.copula:
        return _say("How long was", x, label.rest, y)
    return _say("How long did", x, label.base, label.rest, y)


def who_question(label: Label, y: str, year: int) -> str:
    return _say("Who", label.past, label.rest, y, f"in {year}")


def ever_question(label: Label, x: str, y: str) -> str:
    if label.event and not label.copula:
        return _say("Did", x, "ever", label.base, label.rest, y)
    if label.copula:
        return _say("Was", x, "ever", label.rest, y)
    return _say("Has", x, "ever", label.past, label.rest, y)


# -- questions -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AskQuestion:
    family: str
    text: str
    expect: str  # "object", "subject", "start", "end", "years", "yes", "no"
    gold: Any  # an entity name (engine name), or a year / number of years
    about: tuple[str, str] = ("", "")  # (subject, object) names of the fact asked about, when there is one


def readable(name: str) -> bool:
    """Names the question reader can find in running text: plain words (no brackets), at most six,
    no "'s" inside (it would read as a possessive)."""
    words = _NAME_WORD.findall(name)
    return " ".join(words) == name and 0 < len(words) <= 6 and not re.search(r"['’]s\b", name)


def load_labels(path: str | None, data: tqa.Dataset) -> dict[str, Label]:
    """Relation id -> its words: YAGO's built in, overridden by ``--labels`` (keys: ids or names).

    A relation labelled in the file is also named after its words in the memory ("is employed at"
    -> IS_EMPLOYED_AT), as a user would name it: ids such as ``R3`` mean nothing to a question."""
    given = json.loads(Path(path).read_text(encoding="utf-8")) if path else {}
    out = {}
    for rid, raw in data.relation_names.items():
        words = given.get(rid) or given.get(raw) or YAGO_LABELS.get(raw)
        if words:
            out[rid] = Label(" ".join(str(words).split()))
        if given.get(rid) or given.get(raw):
            try:
                key = normalize_relation("_".join(out[rid].words.split()))
            except TemporalGraphError:
                continue  # words that make no relation name: keep the dataset's
            if key not in data.relation_keys.values():
                data.relation_keys[rid] = key
    return out


def make_questions(data: tqa.Dataset, gold: tqa.Gold, labels: dict[str, Label], per_family: int,
                   seed: int) -> dict[str, list[AskQuestion]]:
    rng = random.Random(seed)
    name = data.entity_names
    keys = data.relation_keys
    ok = {i for i, n in name.items() if readable(n)}
    symmetric = {rid for rid, key in keys.items() if key in SYMMETRIC}
    # Raw pairs both ways, for symmetric relations: (x, rel) -> every value ever, either direction.
    ever: dict[tuple[str, str], set[str]] = defaultdict(set)
    for f in data.facts:
        ever[(f.head, f.rel)].add(f.tail)
        if f.rel in symmetric:
            ever[(f.tail, f.rel)].add(f.head)
    told: dict[tuple[str, str], set[tuple[str, int, int | None]]] = defaultdict(set)
    mirrored: dict[tuple[str, str], set[tuple[str, int, int | None]]] = defaultdict(set)
    for f in data.facts:
        if f.rel in symmetric:
            told[(f.head, f.rel)].add((f.tail, f.start, f.end))
            mirrored[(f.tail, f.rel)].add((f.head, f.start, f.end))
    candidates: dict[str, list[AskQuestion]] = defaultdict(list)
    changing = sorted(p for p, spans in gold.spans.items() if len({s.obj for s in spans}) > 1)

    for x, rel in changing:
        if x not in ok or rel not in labels:
            continue
        if rel in symmetric and mirrored[(x, rel)] - told[(x, rel)]:
            continue  # also told the other way round, differently: no one timeline to check against
        spans = gold.spans[(x, rel)]
        label = labels[rel]
        year = rng.randint(*tqa._span_years(spans))
        held = tqa.holding(spans, year)
        if len(held) == 1 and next(iter(held)) in ok and year >= MIN_YEAR:
            (value,) = held
            question = value_question(label, name[x], f"in {year}", "past")
            candidates["as-of"].append(AskQuestion("as-of", question, "object", name[value], (name[x], "")))
        last = tqa.last_known(spans, tqa.NOW_YEAR)
        if len(last) == 1 and next(iter(last)) in ok:
            (value,) = last
            question = value_question(label, name[x], "now", "present")
            candidates["current"].append(AskQuestion("current", question, "object", name[value],
                                                     (name[x], "")))

    holders: dict[tuple[str, str], list[tuple[str, tqa.Span]]] = defaultdict(list)  # (rel, value) -> spans
    ambiguous_values = {(rel, f.tail) for (x, rel) in gold.ambiguous for f in gold.by_pair[(x, rel)]}
    for (x, rel), spans in sorted(gold.spans.items()):
        for s in spans:
            holders[(rel, s.obj)].append((x, s))
        if x not in ok or rel not in labels:
            continue
        label = labels[rel]
        for s in spans:
            y = s.obj
            if y not in ok or y == x or sum(t.obj == y for t in spans) != 1:
                continue
            if rel in symmetric and (y, rel) in gold.by_pair:
                continue  # told both ways: two rows, perhaps with different dates
            about = (name[x], name[y])
            candidates["when-start"].append(AskQuestion("when-start", start_question(label, name[x], name[y]),
                                                        "start", s.start, about))
            if s.stop is not None and s.stop <= tqa.NOW_YEAR and not label.event:
                candidates["when-end"].append(AskQuestion("when-end", end_question(label, name[x], name[y]),
                                                          "end", s.stop, about))
                candidates["how-long"].append(AskQuestion(
                    "how-long", how_long_question(label, name[x], name[y]), "years", s.stop - s.start, about))
            candidates["ever"].append(AskQuestion("ever", ever_question(label, name[x], name[y]), "yes",
                                                  name[y], about))
        others = sorted({v for (r, v) in holders if r == rel} - ever[(x, rel)] - {x})
        if others:
            y = rng.choice(others)
            if y in ok:
                candidates["never"].append(AskQuestion("ever", ever_question(label, name[x], name[y]), "no",
                                                       name[y], (name[x], name[y])))

    for (rel, y), held in sorted(holders.items()):
        if rel in symmetric or rel not in labels or y not in ok or (rel, y) in ambiguous_values:
            continue
        x, span = rng.choice(held)
        first, last = tqa._span_years([span])
        year = rng.randint(first, last)
        who = {h for h, s in held if s.holds(year)}
        if len(who) == 1 and year >= MIN_YEAR and (only := next(iter(who))) in ok:
            question = who_question(labels[rel], name[y], year)
            candidates["who-inverse"].append(AskQuestion("who-inverse", question, "subject", name[only]))

    spouse = [rid for rid, key in keys.items() if key in _SPOUSE_KEYS]
    for x in sorted({f.head for f in data.facts if f.rel in spouse}):
        partners = {p for rid in spouse for p in ever[(x, rid)]}
        if x not in ok or len(partners) != 1:
            continue
        (partner,) = partners
        for rel in sorted(labels):
            if rel in spouse or (partner, rel) not in gold.spans:
                continue
            values = {s.obj for s in gold.spans[(partner, rel)]}
            if len(values) == 1 and next(iter(values)) in ok:
                question = value_question(labels[rel], f"{name[x]}'s spouse", "", "past")
                candidates["two-hop"].append(AskQuestion("two-hop", question, "object",
                                                         name[next(iter(values))], (name[partner], "")))

    out = {}
    for family in FAMILIES:
        if family == "ever":
            half = per_family // 2
            yes = _pick(rng, candidates["ever"], per_family - min(half, len(candidates["never"])))
            out[family] = yes + _pick(rng, candidates["never"], per_family - len(yes))
        else:
            out[family] = _pick(rng, candidates[family], per_family)
    return out


def _pick(rng: random.Random, items: list[AskQuestion], n: int) -> list[AskQuestion]:
    return list(items) if len(items) <= n else rng.sample(items, n)


# -- scoring ----------------------------------------------------------------------------------------------
def fact_right(q: AskQuestion, f: Fact | None) -> bool:
    """Is ``f`` (the first cited fact) the right one for ``q``?"""
    if f is None:
        return False
    def same(a: str, b: str) -> bool:
        return name_key(a) == name_key(b)

    if q.expect == "object":  # the other end from the asked subject: "B is married to A" answers "A's spouse"
        reversed_pair = q.about[0] and same(f.object, q.about[0]) and f.relation in SYMMETRIC
        value = f.subject if reversed_pair else f.object
        return same(value, q.gold)
    if q.expect == "subject":
        return same(f.subject, q.gold)
    asked = {name_key(f.subject), name_key(f.object)} == {name_key(clean_name(n)) for n in q.about}
    if q.expect == "start":
        return asked and f.valid_at is not None and f.valid_at.year == q.gold
    if q.expect == "end":
        return asked and f.invalid_at is not None and f.invalid_at.year == q.gold
    if q.expect == "years":
        return asked and f.valid_at is not None and f.invalid_at is not None and \
            f.invalid_at.year - f.valid_at.year == q.gold
    if q.expect == "yes":
        return asked
    return False


def engine_right(q: AskQuestion, answer: Answer) -> bool:
    if q.expect == "no":  # "I don't know", or a closed-world "No" (issue 26)
        return answer.verdict == "no" or not answer.known
    first = answer.facts[0] if answer.known and answer.facts else None
    if not fact_right(q, first):
        return False
    wording = {"start": f"in {q.gold}", "end": f"in {q.gold}", "years": f"{q.gold} year"}.get(q.expect)
    return wording is None or wording in answer.text


def baseline_right(q: AskQuestion, top: Fact | None) -> bool:
    if q.expect == "no":
        asked = {name_key(clean_name(n)) for n in q.about}
        return top is None or {name_key(top.subject), name_key(top.object)} != asked
    return fact_right(q, top)


# -- running ----------------------------------------------------------------------------------------------
def run(data_dir: str | Path, *, labels_path: str | None = None, per_family: int = 300, seed: int = 7,
        with_baseline: bool = True, baseline_sample: int = BASELINE_SAMPLE) -> dict[str, Any]:
    data = tqa.read_dataset(data_dir)
    cards = tqa.cardinalities(data)
    gold = tqa.gold_timelines(data, cards)
    labels = load_labels(labels_path, data)
    questions = make_questions(data, gold, labels, per_family, seed)
    engine = tqa.Engine(data, cards)
    engine.load(tqa.arrival_order(data.facts, seed))
    tg = engine.tg
    index_seconds = 0.0
    if with_baseline:  # the search index is built once, up front, so no single query pays for it
        t0 = time.perf_counter()
        tg.reindex()  # loaded with embedding off (bulk); vectors for the search baseline
        index_seconds = time.perf_counter() - t0
    families: dict[str, dict[str, Any]] = {}
    search_times: list[float] = []
    times: list[float] = []
    misses: dict[str, list[tuple[str, str]]] = defaultdict(list)
    try:
        for family in FAMILIES:
            qs = questions[family]
            right = base = 0
            searched = qs if baseline_sample < 0 else qs[:baseline_sample]  # qs are in random order
            for q in qs:
                t0 = time.perf_counter()
                answer = tg.ask(q.text)
                times.append((time.perf_counter() - t0) * 1000)
                if engine_right(q, answer):
                    right += 1
                else:
                    misses[family].append((q.text, answer.text))
                if with_baseline and q in searched:
                    t0 = time.perf_counter()
                    hits = tg.search(q.text, limit=1, kinds=("fact",), include_history=True)
                    search_times.append((time.perf_counter() - t0) * 1000)
                    base += baseline_right(q, hits[0].fact if hits else None)
            families[family] = {
                "n": len(qs),
                "engine": round(right / len(qs), 4) if qs else None,
                "baseline": (round(base / len(searched), 4) if searched else None) if with_baseline else None,
            }
    finally:
        engine.close()
    return {"families": families, "median_ask_ms": round(statistics.median(times), 2) if times else None,
            "_misses": misses, "_facts": len(data.facts), "_index_seconds": round(index_seconds, 1),
            "_search_ms": round(statistics.median(search_times), 2) if search_times else None}


def human(report: dict[str, Any]) -> str:
    rows = [[f, s["n"], _pct(s["engine"]), _pct(s["baseline"])] for f, s in report["families"].items()]
    out = [(f"{report['_facts']} facts loaded through add_fact; median ask {report['median_ask_ms']} ms; "
            f"search: index built in {report['_index_seconds']} s, "
            f"median query {report['_search_ms']} ms"), "",
           tqa._table(rows, ["family", "n", "ask", "search top-1"])]
    for family, bad in report["_misses"].items():
        for text, got in bad[:3]:
            out.append(f"  miss [{family}] {text} -> {got[:160]}")
    return "\n".join(out)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="tg.ask on template questions over a HyTE-format temporal KG")
    parser.add_argument("--data", default=str(tqa.DEFAULT_DATA),
                        help="directory with entities.dict, relations.dict, temporal")
    parser.add_argument("--labels",
                        help="JSON file: relation id (or name) -> words, e.g. {\"1\": \"works at\"}")
    parser.add_argument("--per-family", type=int, default=300, help="questions per family (default 300)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-baseline", action="store_true", help="skip the search baseline (faster)")
    parser.add_argument("--baseline-sample", type=int, default=BASELINE_SAMPLE, metavar="N",
                        help=f"search only the first N questions of each family (default {BASELINE_SAMPLE}; "
                             "-1: all of them; a search takes about 0.6 s on YAGO11k)")
    parser.add_argument("--set", choices=("yago", "chats", "all"), default="all",
                        help="which questions: YAGO11k templates, the chat-derived set, or both (default)")
    parser.add_argument("--rank", default="",
                        help="chat set: also search recall@k per rank mode (comma-separated, or 'all')")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {}
    if args.set in ("yago", "all"):
        if not (Path(args.data) / "temporal").exists():
            print(f"error: {args.data} has no 'temporal' file", file=sys.stderr)
            return 2
        report = run(args.data, labels_path=args.labels, per_family=args.per_family, seed=args.seed,
                     with_baseline=not args.no_baseline, baseline_sample=args.baseline_sample)
        out.update(families=report["families"], median_ask_ms=report["median_ask_ms"])
        if not args.json:
            print(human(report))
    if args.set in ("chats", "all"):
        chats = chat_qa.run(ranks=rank_modes(args.rank) if args.rank else ())
        out["chats"] = {k: v for k, v in chats.items() if not k.startswith("_")}
        if not args.json:
            print(("\n" if "families" in out else "") + chat_qa.human(chats))
    if args.json:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
