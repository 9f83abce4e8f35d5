"""Whether a newer text gives another value for a value an older one stated: "our staging server
has 32 GB of RAM" -> months later, inside a request about something else, "the staging server has
64 GB now, can you help me with this query?".

A value is read as a *mention*: who or what holds it, the words said around it, its kind and the
value itself (:func:`mentions`). Kinds are a number with a unit ("32 GB", "420 ms", "20 km a
week", "two weeks"; sizes and durations compared across units), an amount of money with its
currency and period ("$4,000 a month"), a percentage, a count of something ("6 people", "120
paying customers"), a version of a named thing ("Python 3.10", "Postgres 14"), a date ("March
14") and a name in a role the speaker has one of ("my manager is Dana", "Dana is my manager"; not
a friend or a colleague: people have several). Years and identifiers ("order 4471", "ticket 88",
"INV-2024-0113") are not values: an identifier anywhere in the sentence is part of what holds the
value, so two orders never revise each other. The holder is the clause's subject, the object of a
verb of change ("finance moved *our cloud budget* to $5,500"), what a headline puts before its
colon ("Globex payment terms: net 30"), or what follows a lead-in ("Small update: the staging
server ...").

A newer mention revises an older one (:func:`revises_value`) when both are the same kind with
different values and they are about the same holder:

- they share a word besides the value and its unit (the attribute: "RAM", "rent", "p95"; for a
  version, the product);
- when both name an attribute besides the holder, they share one (the staging server's RAM is not
  its disk);
- when both sentences name identifiers, they share one ("order 4471" / "order 4472");
- the newer names nothing of its holder that the older text lacks ("the *production* server" is
  not the staging one; "my sister's rent" is not mine), and both name the same other parties ("my
  husband gets 35 days of leave" is not "my leave");
- the newer leaves out at most the older holder's head noun ("our staging server" -> "we bumped
  staging to ...") and a qualifier naming the one meant by default ("our *main* DB" -> "the
  database"), never what sets it apart ("the data team next door is 3 people" is not revised
  by "my team is 7 people", nor "the admin dashboard's p95" by "p95 is 600 ms now").

The newer clause must be news of the same thing, as the stated-change rule reads it
(:func:`.change_cues.told_as_news`: not a question, plan, hypothetical, negation, advice, the past
told as past, someone else's); the older clause must be a statement too (a question "is it still
32 GB?" states nothing), and the same value again is a restatement, not a revision. Who said what
is the caller's (:mod:`queries.probable`: the same speaker or the same named subject, a later
time). Pure and cached; texts without a digit, a number word or a name in a role are dismissed by
one regular expression before any parsing.

One person's own values are compared by what they measure too, when the caller says one speaker
said both (``same_speaker``): "I earn €52,000 a year" -> "I'm on €58,000 now" shares no word
(:mod:`.own_values`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .change_cues import is_statement, other_parties, told_as_news
from .own_values import same_own_attribute
from .rewording import DEFAULT_QUALIFIERS, ID_NOUNS, STOP_WORDS, Clause, clauses, is_verb

# Where a value can be said inside a message: sentences, and asides in brackets or after a dash.
_SEGMENT = re.compile(r"(?<=[.!?;])\s+|\n+|\s[-–—]\s|[()]")
# A record's identifier written as one word ("INV-2024-0113", "web-03"): letters and digits.
_ID_WORD = re.compile(r"^(?=.*[a-z])(?=.*\d)[a-z\d]+(?:[-_.][a-z\d]+)+$")
_HAS_NUMBER = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|an hour)\b",
                         re.I)
# "my manager is Dana", "Dana is my manager": a name in a role, said with a capital.
_NAMED_ROLE = re.compile(r"\b(?:[Mm]y|[Oo]ur)\b[^.?!]{0,40}\bis\s+[A-Z]|\b[A-Z][\w’'-]* is (?:my|our)\b")
_CAPITAL = re.compile(r"\b[A-Z][\w’'-]*")
_NUMERIC = re.compile(r"^\d[\d,]*(?:\.\d+)?$")
_MONEY = re.compile(r"^([$€£])(\d[\d,]*(?:\.\d+)?)(k|m|bn)?$")
_PERCENT = re.compile(r"^(\d+(?:\.\d+)?)%$")
_SCALED = re.compile(r"^(\d[\d,]*(?:\.\d+)?)(k|m|gb|tb|mb|ms|km|kg)$")  # "4.1m", "32gb" written together
_YEAR = re.compile(r"^(?:19|20)\d\d$")

_NUMBER_WORDS = {w: float(n) for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split()) if n}
# Units: (family, scale to the family's base), so "1.2 TB" and "1,200 GB" are one value.
_UNITS: dict[str, tuple[str, float]] = {unit: (family, scale) for family, scale, units in (
    ("bytes", 1e-6, "kb"), ("bytes", 1e-3, "mb mib"), ("bytes", 1.0, "gb gib gig gigs"),
    ("bytes", 1e3, "tb tib"), ("time", 1e-3, "ms"), ("time", 1.0, "s sec secs second seconds"),
    ("time", 60.0, "min mins minute minutes"),
    ("time", 3600.0, "h hr hrs hour hours"), ("time", 86400.0, "day days"), ("time", 604800.0, "week weeks"),
    ("distance", 1.0, "km kms kilometres kilometers"), ("distance", 1.609, "mi mile miles"),
    ("weight", 1.0, "kg kgs kilos"), ("weight", 0.4536, "lb lbs pounds"), ("cores", 1.0, "cores vcpus cpus"),
) for unit in units.split()}
_PERIODS = frozenset("hour day week month year mo yr annum".split())
_MULTIPLIERS = {"k": 1e3, "m": 1e6, "bn": 1e9}
_MONTHS = frozenset("""january february march april may june july august september october november
december jan feb mar apr jun jul aug sep sept oct nov dec""".split())
# A verb of change whose object, not its subject, holds the value ("finance moved our cloud budget
# to $5,500": the budget's, not finance's).
_CHANGE_VERBS = frozenset("""moved bumped set changed upgraded downgraded migrated scaled raised lowered
increased decreased reduced cut pushed extended shortened updated""".split())
# Roles many people hold at once: a second name in one is another person, not a revision.
_MANY = frozenset("""friend friends colleague colleagues coworker coworkers neighbour neighbor cousin
brother sister son daughter kid kids child children client clients customer customers aunt uncle niece
nephew teammate mate favourite favorite""".split())
# The same attribute in other words.
_ALIASES = {"memory": "ram", "db": "database", "prod": "production"}
_PRONOUNS = frozenset("i me we us you he him she her they them it".split())
_NOT_HOLDERS = frozenset("""some context update background reference fyi btw quick small oh anyway also
now since these days this that week month year roughly approximately around nearly almost exactly
currently new first note aside""".split())
# Verbs that carry no attribute of their own: sharing one says nothing about what is held.
_BARE = frozenset("""is are was were be been being am has have had do does did get gets got i'm we're
you're they're he's she's it's that's there's i've we've they've""".split())


@dataclass(frozen=True)
class Mention:
    """A value said in a clause: its kind, the value, who or what holds it, and every word around."""

    kind: tuple[str, ...]  # ("bytes", ""), ("money", "$", "month"), ("count", "people"), ("date",), ...
    value: str
    holder: tuple[str, ...]  # in order: its head noun last ("staging", "server")
    words: frozenset[str]
    clause: Clause
    segment: str
    ids: frozenset[str]  # identifiers anywhere in its sentence ("Invoice INV-2024-0113: ..., due 15 Feb")

    @property
    def attribute(self) -> frozenset[str]:
        """Its words that are neither the holder's nor verbs ("RAM" of "the staging server has 32 GB
        of RAM"): what of the holder the value measures."""
        return frozenset(w for w in self.words if w not in self.holder and not is_verb(w))


def _word(w: str) -> str:
    """A word as compared: without a possessive or plural, "running" as "run", an alias as its word."""
    w = w.removesuffix("'s").removesuffix("’s")
    if len(w) > 4 and w.endswith("s") and not w.endswith("ss"):
        w = w[:-1]
    if len(w) > 5 and w.endswith("ing"):
        w = w[:-3]
        w = w[:-1] if len(w) > 2 and w[-1] == w[-2] else w
    return _ALIASES.get(w, w)


def _number(w: str, before: str = "", after: str = "") -> float | None:
    if _NUMERIC.match(w):
        return float(w.replace(",", ""))
    if w == "an" and after == "hour":  # "I commute an hour each way"; "a day", "a week" are periods
        return 0.5 if before == "half" else 1.0
    return _NUMBER_WORDS.get(w)


def _amount(n: float) -> str:
    return f"{n:.6g}"


def _period(words: tuple[str, ...], k: int) -> str:
    """"a month", "per year", "/mo" after a value at ``k``."""
    if k + 1 < len(words) and words[k] in ("a", "an", "per", "every", "each") and words[k + 1] in _PERIODS:
        return words[k + 1]
    return ""


def _values(words: tuple[str, ...]) -> list[tuple[tuple[str, ...], str, set[int]]]:
    """Each value of a clause's words: (kind, value, the positions it takes)."""
    out: list[tuple[tuple[str, ...], str, set[int]]] = []
    n = 0
    while n < len(words):
        w, before = words[n], words[n - 1] if n else ""
        after = words[n + 1] if n + 1 < len(words) else ""
        money, percent, scaled = _MONEY.match(w), _PERCENT.match(w), _SCALED.match(w)
        number = _number(w, before, after)
        if money:
            amount = float(money[2].replace(",", "")) * _MULTIPLIERS.get(money[3] or "", 1.0)
            period = _period(words, n + 1)
            out.append((("money", money[1], period), _amount(amount), {n, n + 1, n + 2} if period else {n}))
        elif percent:
            out.append((("percent",), _amount(float(percent[1])), {n}))
        elif scaled and scaled[2] in _UNITS:
            family, scale = _UNITS[scaled[2]]
            period = _period(words, n + 1)
            out.append(((family, period), _amount(float(scaled[1].replace(",", "")) * scale), {n}))
        elif number is None or before in ID_NOUNS or _YEAR.match(w):
            pass  # no number, an identifier ("order 4471") or a year
        elif before in _MONTHS or after in _MONTHS:
            month = before if before in _MONTHS else after
            out.append((("date",), f"{month[:3]} {w}", {n - 1 if before in _MONTHS else n + 1, n}))
        elif after in _UNITS:
            family, scale = _UNITS[after]
            period = _period(words, n + 2)
            out.append(((family, period), _amount(number * scale), {n, n + 1}))
        elif w in _NUMBER_WORDS or w == "an":
            pass  # "one thing", "two of us": a number word counts only with a unit
        elif before.isalpha() and len(before) > 1 and before not in STOP_WORDS and not is_verb(before) \
                and (not after or after in STOP_WORDS):
            out.append((("version", before), w, {n - 1, n}))  # "Python 3.10", "Postgres 14"
        elif after.isalpha() and len(after) > 2 and after not in STOP_WORDS and not is_verb(after):
            out.append((("count", _word(after)), _amount(number), {n, n + 1}))  # "6 people", "14 engineers"
        n += 1
    return out


def _names(words: tuple[str, ...], caps: frozenset[str]) -> list[tuple[tuple[str, ...], str, set[int]]]:
    """A name in a role the speaker has one of: "my (new) manager is Dana", "Dana is my manager"
    (``caps``: the words written with a capital)."""
    def name(at: range) -> list[int]:
        out = []
        for k in at:
            if words[k] not in caps or words[k] in STOP_WORDS or words[k] in _MONTHS:
                break
            out.append(k)
        return out

    found = []
    if "is" in words:
        k = words.index("is")
        if k + 1 < len(words) and words[k + 1] in ("my", "our"):  # "Dana is my manager"
            phrase = []  # "team lead" of "Dana is my team lead since March": the role is its last noun
            for w in words[k + 2:]:
                if w in STOP_WORDS or is_verb(w):
                    break
                phrase.append(w)
            role = next((w for w in reversed(phrase) if w not in ("new", "current")), "")
            # after a lead-in ("Some context: Dana is ..."), past words like "oh and"
            lead = words.index(":") + 1 if ":" in words[:k] else 0
            start = next((n for n, w in enumerate(words[:k]) if n >= lead and w not in STOP_WORDS), k)
            held = name(range(start, k))
            if held and len(held) == k - start:
                found.append((role, held))
        elif "my" in words[:k] or "our" in words[:k]:  # "my new manager is Dana"
            held = name(range(k + 1, len(words)))
            found.append((words[k - 1], held))
    return [(("name", _word(role)), " ".join(words[k] for k in held), set(held)) for role, held in found
            if held and role.isalpha() and role not in STOP_WORDS and role not in _MANY and not is_verb(role)]


def _content(w: str) -> bool:
    return len(w) > 1 and w not in STOP_WORDS and w not in _NOT_HOLDERS and w not in _PRONOUNS \
        and w not in _BARE and w not in _NUMBER_WORDS and not w[:1].isdigit() and w[:1] not in "$€£:"


def _ids(words: tuple[str, ...]) -> set[str]:
    """Identifiers of a record: "order 4471", "inv-2024-0113"."""
    return {f"{words[n - 1]} {w}" for n, w in enumerate(words) if n and words[n - 1] in ID_NOUNS
            and w[:1].isdigit()} | {w for w in words if _ID_WORD.match(w) and not _SCALED.match(w)}


def _holder(c: Clause, taken: set[int]) -> tuple[str, ...]:
    """Who or what holds the clause's value: its subject, or the object of a verb of change ("we
    bumped *staging* to 48 GB"); identifiers count ("order 4471")."""
    words, split = c.words, c.split
    if split < len(words) and words[split] in _CHANGE_VERBS:
        end = next((k for k in range(split + 1, len(words)) if words[k] in ("to", "from") or k in taken),
                   len(words))
        held = [words[k] for k in range(split + 1, end) if not is_verb(words[k])]
    elif ":" in words and not any(_content(w) for w in words[:words.index(":")]):
        # a lead-in ("Small update: the staging server has 64 GB now"): the subject follows it
        colon = words.index(":")
        end = next((k for k in range(colon + 1, len(words)) if is_verb(words[k]) or k in taken), len(words))
        held = list(words[colon + 1:end])
    elif ":" in words and not any(is_verb(w) for w in words[words.index(":") + 1:]):
        held = list(words[:words.index(":")])  # a headline: what comes before the colon holds the value
    else:
        held = list(words[:split])  # before the verb, a word is a noun ("the Atlas budget: ...")
    return tuple(dict.fromkeys([*(_word(w) for w in held if _content(w)), *sorted(_ids(words))]))


def _without(holder: tuple[str, ...], name: str) -> tuple[str, ...]:
    """The holder of a name in a role, without the name: "Dana is my manager" is the speaker's."""
    return tuple(w for w in holder if w not in name.split())


def _segments(text: str) -> list[str]:
    return [s.strip() for s in _SEGMENT.split(text) if s and s.strip()]


@lru_cache(maxsize=8192)
def mentions(text: str) -> tuple[Mention, ...]:
    """The values ``text`` states, with their holders (questions and plans included: the caller
    refuses them, knowing which side of a pair they are on)."""
    named = bool(_NAMED_ROLE.search(text))
    if not (named or _HAS_NUMBER.search(text)):
        return ()
    out: list[Mention] = []
    for segment in _segments(text):
        if not (_HAS_NUMBER.search(segment) or (named and _NAMED_ROLE.search(segment))):
            continue  # most sentences hold no value: not parsed at all
        caps = frozenset(t.lower() for t in _CAPITAL.findall(segment)) if named else frozenset()
        ids = frozenset(i for c in clauses(segment) for i in _ids(c.words))
        for c in clauses(segment):
            found = _values(c.words) + (_names(c.words, caps) if caps else [])
            if not found:
                continue
            taken = set().union(*(at for _, _, at in found))
            around = frozenset({_word(w) for k, w in enumerate(c.words) if k not in taken and _content(w)
                                and w not in _UNITS and w not in _PERIODS} | _ids(c.words))
            holder = _holder(c, taken)
            out.extend(Mention(kind, value, _without(holder, value) if kind[0] == "name" else holder,
                               around, c, segment, ids) for kind, value, _ in found)
    return tuple(out)


def _same_holder(old: Mention, new: Mention) -> bool:
    """Both speak of the same attribute of the same thing (see the module doc)."""
    if old.kind[0] != "version":  # a version's product is the attribute ("Python 3.10" / "Python 3.12")
        if not old.words & new.words:
            return False
        if old.attribute and new.attribute and not old.attribute & new.attribute:
            return False  # the staging server's RAM is not its disk
    if old.ids and new.ids and not old.ids & new.ids:
        return False  # another record of one template: "INV-2024-0113" / "INV-2024-0114"
    if set(new.holder) - old.words:
        return False  # the newer names a holder the older does not: the production server, order 4472
    if other_parties(old.clause.words) != other_parties(new.clause.words):
        return False  # "my husband gets 35 days of leave" is not "my leave"
    # The newer may leave out the older holder's head noun ("our staging server" -> "staging"), not
    # what sets it apart from its siblings ("the data team" -> "my team", "the production server" ->
    # "the server").
    lost = [w for w in old.holder if w not in new.words and w not in DEFAULT_QUALIFIERS]
    owners = {_word(w) for w in old.clause.words if w.endswith(("'s", "’s"))}
    # An owner is never the head ("my partner's commute" is not "my commute").
    return not lost or (lost == [old.holder[-1]] and not owners & set(lost))


@lru_cache(maxsize=8192)
def _kinds(text: str) -> frozenset[tuple[str, ...]]:
    return frozenset(m.kind for m in mentions(text))


@lru_cache(maxsize=8192)
def _stated(text: str) -> tuple[Mention, ...]:
    """Its mentions in statements (a question "is it still 32 GB?" states nothing)."""
    return tuple(m for m in mentions(text) if is_statement(m.segment, m.clause))


def _same_value_kind(a: frozenset[tuple[str, ...]], b: frozenset[tuple[str, ...]]) -> bool:
    """Some kind of value both texts hold: the same, or two sums of one currency ("€52,000 a year",
    "€58,000": :mod:`.own_values`)."""
    return bool(a & b) or bool({k[:2] for k in a if k[0] == "money"} & {k[:2] for k in b if k[0] == "money"})


def pairs(old: str, new: str, old_year: int | None = None, *,
          same_speaker: bool = False) -> list[tuple[Mention, Mention]]:
    """The (older, newer) mentions where ``new`` gives another value for what ``old`` stated.
    ``same_speaker``: one person said both, so what each says of themselves is one holder's
    (:func:`.own_values.same_own_attribute`)."""
    # A search compares each message it found with dozens of others: most pairs share no kind of value.
    if not _same_value_kind(_kinds(old), _kinds(new)):
        return []
    olds = _stated(old)
    out: list[tuple[Mention, Mention]] = []
    for n in mentions(new):
        same_kind = [o for o in olds if (o.kind == n.kind and _same_holder(o, n))
                     or (same_speaker and same_own_attribute(o, n))]
        # The same value again in that clause restates it; a revision gives only another one.
        if not same_kind or any(o.value == n.value for o in same_kind):
            continue
        if not told_as_news(old, new, n.segment, n.clause, old_year):
            continue
        out.extend((o, n) for o in same_kind)
    return out


def revises_value(old: str, new: str, old_year: int | None = None, *, same_speaker: bool = False) -> bool:
    """Whether ``new`` states another value for a value ``old`` stated, of the same holder and
    attribute, as news (see the module doc). ``old_year``: the year ``old`` was told;
    ``same_speaker``: one person said both (their own values are then compared too)."""
    return bool(pairs(old, new, old_year, same_speaker=same_speaker))
