"""Whether a newer text states a change to what an older one said: "Our office is at 221 Baker
Street." -> "The office relocated to 5 Market Square."; "My car is an old Lada" -> "Sold the Lada.
Got a Skoda instead."

:mod:`temporal_graph.core.rewording` needs the two texts to share a value slot; people rarely
repeat the sentence when they revise it, but they do say that something changed ("relocated",
"switched", "now", "instead", "no longer"). :func:`states_change` reads that, on the same topic:

- a clause of the newer text holds a *change cue* (a closed list, tense and typo variants
  included; "since the upgrade", "after the move");
- it is news, not advice ("share a rough version early instead of ...") nor a cue inside a
  relative clause ("uploads what changed"), "for now", or "a new" anything;
- it is a statement of the present: not a question, a plan, a wish, a hypothetical or a
  conditional ("Thinking about getting a Tesla", "Should we move?", "Imagine if ..."), not negated
  ("I didn't switch to Revolut in the end"; "no longer" and "any more" are cues, not negations),
  not the past told as past ("Back in 2015 ...", a year before the older text);
- it is not about someone else: a relative or other party ("my brother", "our client") or a
  pronoun the older text does not speak of, or a named subject it does not name; nor is the
  older clause someone else's ("my toddler sleeps 10 hours") unless the two share its subject;
- it shares a topic word with a clause of the older text (a content word, not a verb or a cue),
  looked for in the cue clause itself ("Sold the Lada" of "Sold the Lada. Got a Skoda instead.");
- and both are about the same record: no identifier ("order 4471", "web-03", "Q2", "hive 3") nor
  subject word ("staging" / "production" server; "the k8s cluster") on each side that the other
  lacks.

The caller (:mod:`queries.probable`) adds what is not text: the same speaker, and a later time.
Pure and cached; no store, no model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .rewording import ID_NOUNS, STOP_WORDS, Clause, asked_words, clauses, is_verb, revising_clauses
from .sentence_split import SENTENCE_BREAK

_WORD = re.compile(r"[#\w][\w'’.-]*\w|\w")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_ID_SHAPE = re.compile(r"^(?=.*[a-z])(?=.*\d)[\w.-]{2,}$")  # "web-03", "lh1234", "q2", "inv-2024-0113"
_AMOUNT = re.compile(r"^\d+(?:[.,]\d+)*(?:[a-z]{1,3}|%)?$")  # "32gb", "4.1m", "93%": values, not ids

# Words that say a value changed. Participles and adverbs, not plans: "switching" is left out
# ("I'm switching next month" is a plan), "switched" is in.
_CUES = frozenset("""now nowadays new newly instead anymore switched swapped moved migrated replaced
upgraded downgraded relocated transferred changed bumped raised lowered increased decreased reduced
extended shortened renamed promoted retired sold traded quit became postponed rescheduled delayed
hired dropped rose grew
swiched switchd swaped upgarded migarted relocted chnaged""".split())
_CUE_PAIRS = frozenset({("no", "longer"), ("any", "more"), ("these", "days"), ("took", "over"),
                        ("went", "up"), ("went", "down"), ("went", "back"), ("went", "to"), ("gone", "up"),
                        ("gone", "down"), ("pushed", "back"), ("pushed", "to"), ("traded", "in"),
                        ("got", "promoted"), ("from", "now"), ("cut", "to"), ("is", "up"), ("are", "up"),
                        ("is", "down"), ("are", "down"), ("went", "from")})
# "since the upgrade", "after the move": a value that holds from a change.
_SINCE = frozenset("since after".split())
_CHANGE_NOUNS = frozenset("""switch move upgrade migration change changeover transfer merger reorg relocation
rebrand takeover handover""".split())
_CUE_VERBS = _CUES - {"now", "nowadays", "new", "newly", "instead", "anymore"}
_CUE_WORDS = _CUES | {w for pair in _CUE_PAIRS for w in pair if w not in STOP_WORDS}
_AUX_CHAIN = frozenset("""has have had 've 's was were is are be been being got get gets just finally
recently already also officially""".split())
_RELATIVE = frozenset("what that which who whom whose whatever whichever where when".split())
_NOT_NOW = frozenset("for until till by just".split())
_OWNED = frozenset("my our his her their the".split())
_PAST_FORMS = frozenset("""sold got went took bought made left quit became grew rose put cut set ran
came gave found kept paid began built drove won lost swapped""".split())
# A plan, wish, hypothetical or conditional anywhere in the sentence: nothing changed yet.
_UNREAL = frozenset("""if imagine imagining suppose supposing unless whether thinking considering
planning planned might could would should shall will gonna wanna hope hoping hopefully
maybe perhaps someday wish wishing eventually tempted debating wondering soon need needs want wants
i'd we'd i'll we'll you'll he'll she'll they'll let's""".split())
# Words that open advice or a request, that the clause cutting does not take for verbs ("Try a
# batch size of 64 instead", "Help me scale a cake recipe"). Not "please", "tell", "remind":
# "Please note the office moved to ..." is news.
_ADVICE = frozenset("""try consider avoid pick choose enable disable tweak help explain suggest
recommend""".split())
# Past forms spelt as their command: opening a clause, a request ("Set the cache TTL to 60 seconds").
_COMMAND_SPELT_PAST = frozenset("set reset put let shut".split())
_PLANNERS = frozenset("i we you they he she".split())
_SUBJECT_VERBS = frozenset("""i'm we're you're they're he's she's it's that's there's i've we've you've
they've""".split())
_UNREAL_PAIRS = frozenset({("going", "to"), ("about", "to"), ("next", "year"), ("next", "month"),
                           ("next", "week"), ("next", "sprint"), ("next", "quarter"), ("what", "if")})
_QUESTION_START = frozenset("""do does did should shall could would can will is are was were have has
what which who when where why how whether""".split())
_NEGATION = frozenset("not no never nope nobody nothing neither nor cannot".split())
_PAST = frozenset({("back", "in"), ("back", "then"), ("years", "ago"), ("used", "to"), ("when", "i"),
                   ("when", "we"), ("in", "college"), ("in", "school")})
# Someone other than the speaker: a change said of them is theirs, unless the older text spoke of them.
_OTHERS = frozenset("""brother brothers sister sisters wife husband partner girlfriend boyfriend fiance
fiancee fiancé fiancée mum mom mother dad father parents son sons daughter daughters kid kids child children
toddler toddlers teenager teenagers grandson granddaughter grandkids friend friends boss colleague
colleagues coworker coworkers client clients customer customers neighbour neighbor neighbours
neighbors cousin cousins aunt uncle niece nephew grandma grandpa grandmother grandfather roommate
flatmate housemate landlord landlady he she they his her their him them""".split())
_PRONOUNS = frozenset("he she they his her their him them".split())
# Words that name no topic of their own: two texts sharing only these say nothing alike.
_VAGUE = frozenset("""got get gets getting went go goes thing things time times day days way lot bit
one ones guy guys people person really pretty good great nice new old last first since after""".split())


def _stem(word: str) -> str:
    for suffix in ("'s", "’s", "ies", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _pairs(words: tuple[str, ...]) -> set[tuple[str, str]]:
    return set(zip(words, words[1:], strict=False))


def _has_cue(words: tuple[str, ...]) -> bool:
    if _CUE_PAIRS & _pairs(words):
        return True
    triples = zip(words, words[1:], words[2:], strict=False)
    if any(a in _SINCE and b in _OWNED and c in _CHANGE_NOUNS for a, b, c in triples):
        return True
    for n, w in enumerate(words):
        before = words[n - 1] if n else ""
        after = words[n + 1] if n + 1 < len(words) else ""
        if w == "now" and before in _NOT_NOW:
            continue  # "for now" says it may change, not that it did
        if w == "new" and before not in _OWNED:
            continue  # "my new manager" is news; "something new", "a new commit" are not
        if w == "instead" and after == "of":
            continue  # "use A instead of B" is advice as often as news
        if w in _CUE_VERBS and not _main_verb(words, n):
            continue  # "uploads what changed", "the most frequently changed files": not news of a change
        if w in _CUES:
            return True
    return False


def _main_verb(words: tuple[str, ...], n: int) -> bool:
    """The cue verb at ``n`` is not inside a relative clause ("uploads what changed") nor a modifier
    ("frequently changed files"), auxiliaries aside ("that has been moved")."""
    before = _before_verb(words, n)
    return not (before in _RELATIVE or before.endswith("ly"))


def _before_verb(words: tuple[str, ...], n: int) -> str:
    """The word before the verb at ``n`` and its auxiliaries ("that" of "that has been moved")."""
    k = n - 1
    while k >= 0 and words[k] in _AUX_CHAIN:
        k -= 1
    return words[k] if k >= 0 else ""


def _relative(c: Clause) -> bool:
    """It speaks through a relative clause: one where its predicate begins, or inside its subject ("a
    cache TTL that is 60 seconds works better")."""
    return any(n == c.split or is_verb(c.words[n]) for n in range(min(c.split + 1, len(c.words)))
               if n and _before_verb(c.words, n) in _RELATIVE)


def _imperative(c: Clause) -> bool:
    """Advice or a request ("share a rough version early", "leave the rest manual for now"): a
    clause opening on a verb that is not in the past ("Sold the Lada" is news)."""
    first = c.words[0] if c.words else ""
    if first in _ADVICE or first in _COMMAND_SPELT_PAST:
        return True
    if first in _SUBJECT_VERBS:
        return False  # "We're on Python 3.12 now": a subject with its verb, not a command
    return _split(c) == 0 and not (first.endswith("ed") or first in _PAST_FORMS or first in _CUES)


def _negated(words: tuple[str, ...]) -> bool:
    """Negated, not counting the negations that are cues ("no longer", "not ... any more")."""
    pairs = _pairs(words)
    if ("no", "longer") in pairs or "anymore" in words or ("any", "more") in pairs:
        return False
    return bool(_NEGATION.intersection(words)) or any(w.endswith(("n't", "n’t")) for w in words)


@lru_cache(maxsize=16384)
def _split(c: Clause) -> int:
    """Where the predicate begins: at the first verb or cue verb ("Nadia transferred to ..."); at
    once when the clause starts with one ("Sold the Lada"; but "Rent went up" has a subject)."""
    w = c.words
    if w and _verbal(w[0]) and not (len(w) > 1 and _verbal(w[1])):
        return 0
    return min([c.split, *(n for n in range(1, len(w)) if w[n] in _CUE_VERBS)])


def _verbal(word: str) -> bool:
    return is_verb(word) or word in _CUE_VERBS


def _subject(c: Clause) -> tuple[str, ...]:
    return c.words[: _split(c)]


@lru_cache(maxsize=16384)
def _topics(c: Clause) -> set[str]:
    """Its content words, but no verb of its predicate ("uses", "works"): a word before the verb is
    a noun even when it could be one ("Rent went up")."""
    split = _split(c)
    return {_stem(w) for n, w in enumerate(c.words) if len(w) > 2 and w not in STOP_WORDS
            and w not in _CUE_WORDS and w not in _VAGUE and (n < split or not is_verb(w))
            and not any(ch.isdigit() for ch in w) and w not in _OTHERS and w not in _NEGATION
            and not w.endswith(("n't", "n’t"))}


def _ids(c: Clause) -> set[str]:
    """Identifiers of a record: "order 4471", "#88", "web-03", "q2", and a number right after a
    noun of the subject ("hive 3 is queenright", "bus 42 runs")."""
    out = set()
    subject_len = len(_subject(c)) if c.split < len(c.words) else 0
    for n, w in enumerate(c.words):
        before = c.words[n - 1] if n else ""
        if w[:1].isdigit() and _AMOUNT.match(w) and not w.rstrip("%").replace(".", "").isdigit():
            continue  # an amount with its unit
        if w[:1].isdigit() and (before in ID_NOUNS or (n < subject_len and before and before not in STOP_WORDS
                                                         and not before[:1].isdigit())):
            out.add(f"{before} {w}")
        elif w.startswith("#") or (_ID_SHAPE.match(w) and not _AMOUNT.match(w)):
            out.add(w)
    return out


@lru_cache(maxsize=4096)
def _sentences(text: str) -> tuple[tuple[str, tuple[Clause, ...]], ...]:
    return tuple((s, clauses(s)) for s in SENTENCE_BREAK.split(text) if s.strip())


@lru_cache(maxsize=4096)
def _capitalised(text: str) -> frozenset[str]:
    """Words written with a capital other than at the start of a sentence: names."""
    out: set[str] = set()
    for sentence in SENTENCE_BREAK.split(text):
        tokens = _WORD.findall(sentence)
        out.update(t.lower() for t in tokens[1:] if t[:1].isupper())
    return frozenset(out)


def _unreal(sentence: str, words: tuple[str, ...]) -> bool:
    """A question, plan, wish, hypothetical or conditional, or the past told as past."""
    return sentence.rstrip().endswith("?") or _asks(words) or _unsure(sentence, words)


def _asks(words: tuple[str, ...]) -> bool:
    return bool(words) and words[0] in _QUESTION_START


def _unsure(sentence: str, words: tuple[str, ...]) -> bool:
    """A plan, wish, hypothetical or conditional anywhere in ``sentence``, or the past told as past."""
    # "may" as a modal; "May" is a month ("pushed back to May").
    if "may" in words and re.search(r"\bmay\b", sentence):
        return True
    pairs = _pairs(words)
    # "plan" the verb or the intention ("we plan to", "the plan is"), not the noun ("my phone plan costs")
    plans = any(w in ("plan", "plans") and (before in _PLANNERS or after in ("to", "on", "is", "was"))
                for before, w, after in zip(("", *words[:-1]), words, (*words[1:], ""), strict=True))
    return bool(plans or _UNREAL.intersection(words) or _UNREAL_PAIRS & pairs or _PAST & pairs)


def _others(words: tuple[str, ...]) -> set[str]:
    return {_stem(w.removesuffix("'s").removesuffix("’s")) for w in words
            if w.removesuffix("'s").removesuffix("’s") in _OTHERS}


def names_other_party(words: tuple[str, ...]) -> bool:
    """The words name a relative or another party ("my sister", "clients", "he"): not the speaker's own."""
    return bool(_others(words))


def other_parties(words: Sequence[str]) -> frozenset[str]:
    """The relatives and other parties the words name ("my sister pays" -> sister)."""
    return frozenset(_others(tuple(words)))


@dataclass(frozen=True)
class _Cue:
    """A clause of the newer text stating a change, with what its check against an older text needs."""

    clause: Clause
    words: frozenset[str]  # stemmed
    topics: frozenset[str]
    years: tuple[int, ...]
    others: frozenset[str]  # other parties it names
    subject: frozenset[str]  # topic words of its subject
    ids: frozenset[str]


@dataclass(frozen=True)
class _Said:
    """An older text's statement clauses, indexed by topic word."""

    clauses: tuple[Clause, ...]
    words: frozenset[str]
    holding: dict[str, tuple[int, ...]]


def _news(sentence: str, c: Clause, *, clause_asks: bool = False) -> bool:
    """The clause ``c`` of ``sentence`` tells news: not advice or a request, not a question, plan,
    wish, hypothetical or conditional, not the past told as past, not negated. ``clause_asks``:
    only the clause itself can be the question (a value told in passing, "the staging server has
    64 GB now, can you help me tune postgres?", is news)."""
    asked = (c.question or _asks(c.words)) if clause_asks else _unreal(sentence, c.words)
    return not (asked or _imperative(c) or _unsure(sentence, c.words) or _negated(c.words)
                or (clause_asks and _relative(c)))


def _told_as_past(cue: _Cue, old_year: int | None) -> bool:
    """It dates itself before the older text was told ("In 2019 I sold ...")."""
    return old_year is not None and any(y < old_year for y in cue.years)


def _someone_else(cue: _Cue, old: str, old_words: frozenset[str]) -> bool:
    """It is said of a relative, another party or a pronoun the older text does not speak of ("his"
    of "Dr. Osei's clinic" is spoken of; "their" of "the office is in Leeds" is not)."""
    others = cue.others - old_words
    return bool(others) and not (others <= _PRONOUNS and cue.subject & old_words and _names_someone(old))


@lru_cache(maxsize=4096)
def _names_someone(text: str) -> bool:
    """A clause of ``text`` names its subject or an owner ("Dr. Osei's clinic", "Noor uses ...")."""
    return any(c.names for c in clauses(text))


def _named_other(cue: _Cue, old_words: frozenset[str], new_names: frozenset[str]) -> bool:
    """Its subject names someone or something the older text does not name ("Priya left Hillside"
    after "I work at Hillside")."""
    return any(w in new_names and w not in old_words for w in cue.subject)


def _cue(c: Clause) -> _Cue:
    ids = frozenset(_ids(c))
    # An identifier in its subject sets it apart as a topic word does: "the k8s cluster" is not
    # "the staging cluster".
    return _Cue(c, frozenset(_stem(w) for w in c.words), frozenset(_topics(c)),
                tuple(int(w) for w in c.words if _YEAR.match(w)), frozenset(_others(c.words)),
                frozenset({_stem(w) for w in _subject(c)} & (_topics(c) | ids)), ids)


@lru_cache(maxsize=4096)
def _cues(new: str) -> tuple[_Cue, ...]:
    out = []
    for sentence, cs in _sentences(new):
        for c in cs:
            if not _has_cue(c.words) or not _news(sentence, c):
                continue
            out.append(_cue(c))
    return tuple(out)


@lru_cache(maxsize=4096)
def _said(old: str) -> _Said:
    olds = tuple(c for _, cs in _sentences(old) for c in cs if not c.question and not _imperative(c))
    holding: dict[str, list[int]] = {}
    for i, c in enumerate(olds):
        for w in _topics(c):
            holding.setdefault(w, []).append(i)
    return _Said(olds, frozenset(_stem(w) for c in olds for w in c.words),
                 {w: tuple(i) for w, i in holding.items()})


def states_change(old: str, new: str, old_year: int | None = None) -> bool:
    """Whether ``new`` says that what ``old`` said changed (see the module doc). ``old_year``: the
    year ``old`` was told; a change ``new`` dates before it is the past, not a revision."""
    cues = _cues(new)
    if not cues:
        return False
    said = _said(old)
    new_names = _capitalised(new)
    for cue in cues:
        if _told_as_past(cue, old_year) or _someone_else(cue, old, said.words):
            continue
        near = sorted({i for w in cue.topics for i in said.holding.get(w, ())})
        if any(_same_record(said.clauses[i], cue, said.words, new_names) for i in near):
            return True
    return False


def reworded_as_news(old: str, new: str, old_year: int | None = None) -> bool:
    """Whether ``new`` reads like ``old`` with other values (:func:`.rewording.revises`) in a clause
    that a stated change would need to be: news (not advice, a question, a plan, wish,
    hypothetical or conditional, the past told as past, a negation), not dated before ``old_year``,
    not said of someone else nor of a named subject ``old`` does not name. "Our client moved to a
    new office", "We might migrate ...", "The office will relocate ..." revise nothing."""
    revising = revising_clauses(old, new)
    if not revising:
        return False
    return any(c in revising and told_as_news(old, new, sentence, c, old_year)
               for sentence, cs in _sentences(new) for c in cs)


def news_about(old: str, new: str, asked: frozenset[str], old_year: int | None = None) -> bool:
    """A clause of ``new`` giving a value with a word of ``asked`` (a question's words, as
    :func:`.rewording.asked_words` reads them) is news (:func:`told_as_news`): "is 7 hours of sleep
    enough?", "I used to save $700 a month" give no new value."""
    return any(c.numbers and asked_words(" ".join(c.words)) & asked and told_as_news(old, new, s, c, old_year)
               for s, cs in _sentences(new) for c in cs)


def is_statement(sentence: str, c: Clause) -> bool:
    """The clause ``c`` of ``sentence`` states something: not a question (only the clause itself
    can be one), a plan, wish, hypothetical or conditional, a negation or advice."""
    return _news(sentence, c, clause_asks=True)


def told_as_news(old: str, new: str, sentence: str, c: Clause, old_year: int | None = None) -> bool:
    """The clause ``c`` of ``sentence``, in ``new``, could revise what ``old`` said: a statement
    (:func:`is_statement`), not dated before ``old_year``, not said of someone else nor of a named
    subject ``old`` does not name."""
    if not is_statement(sentence, c):
        return False
    cue, old_words = _cue(c), _words(old)
    return not (_told_as_past(cue, old_year) or _someone_else(cue, old, old_words)
                or _named_other(cue, old_words, _capitalised(new)))


@lru_cache(maxsize=4096)
def _words(text: str) -> frozenset[str]:
    """Every word of ``text``, stemmed."""
    return frozenset(_stem(w) for c in clauses(text) for w in c.words)


def _same_record(o: Clause, cue: _Cue, old_words: frozenset[str], new_names: frozenset[str]) -> bool:
    """The older clause ``o`` (sharing a topic word with ``cue``) speaks of the same record and
    subject."""
    # Another record: each side has an identifier the other lacks ("order 4471" / "order 4472").
    old_ids = _ids(o)
    if {i for i in old_ids if _stem(i) not in cue.words and i not in cue.ids} and \
            {i for i in cue.ids if _stem(i) not in old_words and i not in old_ids}:
        return False
    old_subject = {_stem(w) for w in _subject(o)} & _topics(o)
    if _named_other(cue, old_words, new_names):
        return False
    if _others(o.words) - cue.others and not cue.subject & old_subject:
        return False  # the older is someone else's: "my toddler sleeps 10 hours" / "I'm getting 7 now"
    # Another thing of the same kind: "the staging server" / "the production server".
    return not (old_subject - cue.words and cue.subject - old_words)


def same_subject(old: str, new: str) -> bool:
    """Both name the same someone or something in subject position ("Noor uses ..." / "Noor went
    back ..."): another speaker may then be reporting the change."""
    subjects = {w for _, cs in _sentences(new) for c in cs for w in _subject(c) if w in _capitalised(new)}
    subjects |= {w for w in (c.words[0] for _, cs in _sentences(new) for c in cs if c.split == 1)}
    return bool((subjects - STOP_WORDS) & {w for _, cs in _sentences(old) for c in cs for w in _subject(c)})


# The pieces a question-guided rule builds on (:mod:`.asked_changes`): the same reading, not a copy.
stem = _stem
sentences = _sentences
topics = _topics
record_ids = _ids


def says(sentence: str, c: Clause) -> bool:
    """The clause ``c`` of ``sentence`` says something of the present, its subject perhaps left out
    ("work remotely for a Berlin startup", "Bank: Monzo", "Reach me at ..."): not a question, plan,
    wish, hypothetical or conditional, not the past told as past, not negated."""
    return not (c.question or _asks(c.words) or _unsure(sentence, c.words) or _negated(c.words))


def has_change_cue(words: tuple[str, ...]) -> bool:
    """The clause's words hold a change cue, as news would say it (module doc)."""
    return _has_cue(words)
