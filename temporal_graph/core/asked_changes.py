"""Whether a newer message states a change to what an older one said about a question's subject:
"Where does Tomasz work?" with "I work at the Gdansk shipyard as a welder." and, months later,
"left the shipyard last month, now im a driving instructor in Sopot".

The rules of :mod:`.change_cues` and :mod:`.value_revisions` read such a pair from the texts
alone: a shared topic word in the clause stating the change, or a value of the same kind and
holder. People revising what they told rarely repeat it that way ("Moved my current account over
to Starling" after "Bank: Monzo."). With a question, the question says what both are about:

- the question names an *attribute*: a family of words people use for one thing about someone
  (work: "work", "job", "nurse"...; home: "live", "flat"..., and "moved" said of the person asked
  about), or a content word of its own ("What is the wifi *password*?"); the names it holds are
  who it is about, not the attribute;
- a clause of the older text states something about it (its subject may be left out: "Bank:
  Monzo.", "work remotely for a Berlin startup"), not of another party, and its subject holds
  nothing that neither the question nor the newer text speaks of ("The data pipeline runs on
  Python 3.7" holds no value of the backend's; "my *work* phone" is not the phone);
- a clause of the newer text tells a change (:func:`.change_cues.has_change_cue`: "now",
  "switched", "instead"...; "new" before a word of the family: "new job!!", "a new GP"; "down to",
  "started at") as news (:func:`.change_cues.told_as_news`: not a question, plan, negation,
  someone else), in sentences that tell nothing of the past, not of a person in a role ("My
  student just got a new job"), and not of a holder the older text does not name ("The *session*
  cache is Redis 7 now" after "Our *primary* cache is Redis 6");
- a statement clause of a sentence telling the change, or one told as news itself, is about the
  attribute too, or repeats a topic word of the older clause, not a unit ("left the *shipyard*",
  "Swapped the *Panda* for a Renault Zoe"; not "help me scale a recipe" beside "(our rent is €900
  now)" after "the scale says 88 kg");
- a clause holding "still" confirms, and counts for neither ("Still at Shopify, going on four
  years now");
- a word the question singles out is not said in the newer text only ("the *staging* server has
  64 GB now" for the production server's RAM), and no identifier is on each side that the other
  lacks ("order 4471" / "order 4472").

Who said what is the caller's (:mod:`queries.probable`: the same speaker, a later time); what it
makes of a pair is a *possible* revision, labelled, never hidden. Pure and cached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .change_cues import (
    has_change_cue,
    names_other_party,
    record_ids,
    says,
    sentences,
    stem,
    told_as_news,
    topics,
)
from .rewording import Clause, asked_words, is_verb

# Attributes of a person or a thing that people revise, each the words its statements use (names of
# the attribute, not verbs of change nor of paying: "the launch *moved*" is not about a home), the
# likeliest first (a read looks for newer messages by the first few). Compared stemmed (as
# :func:`.change_cues.stem` cuts: "lives" -> "live", "shifts" -> "shift").
_FAMILIES: dict[str, tuple[str, ...]] = {name: tuple(words.split()) for name, words in (
    ("work", """work job employer company works worked working jobs firm role
        position career workplace intern internship teach teaches teaching teacher nurse chef cook
        barista waiter waitress driver engineer developer dev programmer designer welder instructor
        accountant lawyer solicitor pharmacist mechanic electrician plumber cleaner cashier manager
        analyst consultant architect scientist researcher lecturer professor librarian paramedic
        firefighter officer pilot farmer baker carpenter builder receptionist clerk tutor"""),
    ("home", "live home house flat lives lived living apartment neighbourhood neighborhood"),
    ("phone", "phone mobile cell iphone smartphone"),
    ("email", "email e-mail mail inbox"),
    ("bank", "bank account banking savings"),
    ("vehicle", "car drive vehicle drives driving drove motorbike motorcycle bike bicycle ride scooter van"),
    ("computer", "laptop computer pc notebook macbook desktop"),
    ("partner", """dating seeing boyfriend girlfriend partner husband wife married engaged fiance
        fiancee relationship"""),
    ("doctor", "doctor gp dr dentist physician surgery clinic therapist"),
    ("study", "study school degree studies studying student course major university uni college"),
    ("diet", "diet vegetarian vegan pescatarian meat keto"),
    ("medication", "dose mg dosage medication medicine prescribed prescription pill tablet"),
    ("weight", "weigh weight kg weighs kilos lbs"),
    ("income", "salary earn earns income wage raise"),
    ("rent", "rent landlord lease"),
    ("shift", "shift nights hours schedule"),
    ("password", "password passcode pin wifi"),
    ("heating", "heat heating boiler radiator"),
)}
_FAMILY_WORDS = {name: frozenset(map(stem, words)) for name, words in _FAMILIES.items()}
# Verbs that say a change of the family's attribute only when a person moves: "Freya moved to
# Walthamstow" is about her home, "the launch moved to April 30" is not.
_PERSONAL: dict[str, frozenset[str]] = {name: frozenset(stem(w) for w in words.split()) for name, words in (
    ("work", "joined hired"), ("home", "moved relocated"))}
_LOOKUP = 3  # words of each family a read looks for newer messages by
ASKED_LOOKUP = 6  # words of a question a read looks for newer messages by, at most
_CUE_PAIRS = frozenset({("down", "to"), ("up", "to"), ("started", "at"), ("started", "as"), ("from", "this")})
# People in a role, as the subject of a change: theirs, not the speaker's.
_PEOPLE = frozenset("""student students pupil pupils teacher mentor manager tenant tenants patient patients
intern interns employee employees boss team teammate""".split())
_WORD = re.compile(r"[A-Za-z][\w'’.@-]*")
# Question words that name no attribute ("What does Omar *do*?").
_GENERIC = frozenset(stem(w) for w in """do does did doing have has had use uses used get gets go goes take
takes make makes current currently now today these days right up long much many big often old fwiw btw
fyi imo tbh anyway""".split())
# Units: a word two values share by their kind, not by what they are of ("15 minutes" / "50 minutes").
_UNITS = frozenset(stem(f) for w in """second minute hour day week month year kg kilo lb gb mb tb km mile
metre meter percent time""".split() for f in (w, w + "s"))
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


@dataclass(frozen=True)
class Asked:
    """What a question asks about: the words of the attribute families it names, and its own
    content words (not its names)."""

    family_words: frozenset[str]
    words: frozenset[str]
    lookup: tuple[str, ...]  # what a newer message about it would say: its words, its families' first
    personal: frozenset[str] = frozenset()  # its families' verbs of a person's change
    names: frozenset[str] = frozenset()  # who it asks about

    def about(self, c: Clause) -> bool:
        said = {stem(w) for w in c.words}
        if said & (self.family_words | self.words):
            return True
        if said & self.personal and _holder(c) <= self.names:
            return True
        return any("@" in w for w in c.words) and stem("email") in self.family_words


@lru_cache(maxsize=1024)
def what_is_asked(question: str) -> Asked | None:
    """What ``question`` asks about, or None when it names no attribute."""
    tokens = _WORD.findall(question)
    names = {t.lower() for t in tokens[1:] if t[:1].isupper() and not t.isupper()}  # "GP" is no name
    said = [w for w in map(str.lower, tokens) if asked_words(w) and w not in names
            and stem(w) not in _GENERIC and not w.endswith(("'s", "’s"))]
    words = {stem(w) for w in said}  # content words, stemmed as clauses are here
    families = [name for name, f in _FAMILY_WORDS.items() if words & f]
    if not (words or families):
        return None
    lookup = dict.fromkeys([*said, *(w for name in families for w in _FAMILIES[name][:_LOOKUP])])
    personal = frozenset().union(*(_PERSONAL.get(name, ()) for name in families))
    return Asked(frozenset(w for name in families for w in _FAMILY_WORDS[name]), frozenset(words),
                 tuple(lookup)[:ASKED_LOOKUP], personal, frozenset(stem(n) for n in names))


def _confirms(c: Clause) -> bool:
    return "still" in c.words


def _cue(c: Clause, a: Asked) -> bool:
    """A change cue, or one that says a change of this attribute: "new" right before a word of it
    ("new job!!", "a new GP", "New phone number"), a value that moved ("down to 85 kg"), a start
    ("started at Oakridge Secondary")."""
    pairs = set(zip(c.words, c.words[1:], strict=False))
    return has_change_cue(c.words) or bool(pairs & _CUE_PAIRS) or "cut" in c.words \
        or any(w == "new" and stem(after) in a.family_words for w, after in pairs)


def _someone_else(c: Clause, said_old: frozenset[str]) -> bool:
    """Its subject is a person in a role the older text does not name: "My student just got a new
    job" is the student's news, not mine."""
    return any(w in _PEOPLE and stem(w) not in said_old for w in c.words[: c.split])


@lru_cache(maxsize=4096)
def _stems(text: str) -> frozenset[str]:
    return frozenset(stem(w) for _, cs in sentences(text) for c in cs for w in c.words)


def _same_holder(c: Clause, a: Asked, said_new: frozenset[str]) -> bool:
    """Every word of the older clause's subject is one the question or the newer text speaks of:
    "The data pipeline runs on Python 3.7" holds no value of the backend's, nor "my *work* phone
    is a Galaxy A54" of the phone "my phone is a Pixel 8 now" speaks of."""
    if c.words and is_verb(c.words[0]):
        return True  # its subject left out: "work remotely for a Berlin startup and drive a Fiat Panda"
    return {stem(w) for w in c.subject} - _lead_in(c) <= a.words | a.family_words | said_new


def _another_holder(c: Clause, olds: list[Clause], said_old: frozenset[str],
                    said_new: frozenset[str]) -> bool:
    """Each side's subject has a word the other text lacks: "The *session* cache is Redis 7 now" is
    no news of "Our *primary* cache is Redis 6", nor "Nour switched ..." of "Noor uses ..."."""
    if not _holder(c) - said_old:
        return False
    return any(_holder(o) - said_new for o in olds)


def _holder(c: Clause) -> set[str]:
    """Its subject's words after any lead-in, where a verb ends the subject (else it is unknown)."""
    return {stem(w) for w in c.subject} - _lead_in(c) if c.split < len(c.words) else set()


def _lead_in(c: Clause) -> set[str]:
    """The words before a colon: "Context in case it matters: ..." names no topic nor holder."""
    return {stem(w) for w in c.words[: c.words.index(":")]} if ":" in c.words else set()


def _told(c: Clause) -> set[str]:
    """Its topic words after any lead-in."""
    return set(topics(c)) - _lead_in(c)


def _present(sentence: str, cs: tuple[Clause, ...], old_year: int | None) -> bool:
    """Every clause of the sentence says something of the present: "Back in 2015 I lived in Osaka,
    moved a lot then" tells the past throughout."""
    years = [int(y) for y in _YEAR.findall(sentence)]
    return all(says(sentence, c) for c in cs) and not (old_year and any(y < old_year for y in years))


@lru_cache(maxsize=65536)
def _speaks_of(text: str, question: str) -> bool:
    """A clause of ``text`` says something about what ``question`` asks, or tells a change: a read
    compares every pair of its messages, and most pairs end here."""
    a = what_is_asked(question)
    return a is not None and any(says(s, c) and (a.about(c) or _cue(c, a))
                                 for s, cs in sentences(text) for c in cs)


def changed_for(old: str, new: str, question: str, old_year: int | None = None) -> bool:
    """Whether ``new`` states a change to what ``old`` said about what ``question`` asks (module doc)."""
    if not (_speaks_of(old, question) and _speaks_of(new, question)):
        return False
    return _changed_for(old, new, question, old_year)


@lru_cache(maxsize=16384)
def _changed_for(old: str, new: str, question: str, old_year: int | None) -> bool:
    a = what_is_asked(question)
    if a is None:
        return False
    said_new = _stems(new)
    olds = [c for s, cs in sentences(old) for c in cs if says(s, c) and a.about(c)
            and not names_other_party(c.words) and _same_holder(c, a, said_new)]
    if not olds:
        return False
    news = [(s, c) for s, cs in sentences(new) if _present(s, cs, old_year) for c in cs if not _confirms(c)]
    said_old = _stems(old)
    cued = {s for s, c in news if _cue(c, a) and told_as_news(old, new, s, c, old_year)
            and not _someone_else(c, said_old) and not _another_holder(c, olds, said_old, said_new)}
    if not cued:
        return False
    old_topics = set().union(*(_told(c) for c in olds)) - _GENERIC - _UNITS
    # In a sentence that tells the change, or told as news itself ("Got a raise!! I'm on 53k now"):
    # "(power is €95 a month for us now)" is no news of a scale "help me scale a recipe" names.
    if not any(says(s, c) and (s in cued or told_as_news(old, new, s, c, old_year))
               and (a.about(c) or _told(c) & old_topics) for s, c in news):
        return False
    # What the question singles out, said in the newer text only: "the *staging* server has 64 GB
    # now" is no news of "the production server has 384 GB" for "the staging server's RAM".
    if (a.words - a.family_words) & said_new - said_old:
        return False
    old_ids = set().union(*(record_ids(c) for _, cs in sentences(old) for c in cs))
    new_ids = set().union(*(record_ids(c) for _, cs in sentences(new) for c in cs))
    return not (old_ids - new_ids and new_ids - old_ids)
