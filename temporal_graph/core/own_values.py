"""Whether two values the speaker tells of themselves measure one attribute said two ways: "I earn
€52,000 a year" -> months later "my salary is €58,000 now"; "my commute is 40 minutes" -> "it takes
me 25 minutes to get to work now".

People rarely repeat the attribute's word when they revise their own figure in passing, so
:mod:`.value_revisions` (which needs a shared word) misses these. Here the holder is the speaker,
and the attribute is read from a small vocabulary of *families*: the words people use for one
attribute of their own life (earn / salary / paid / income; save / set aside / stash). Two mentions
are one attribute when:

- both are the speaker's own: a first-person word in the clause ("I", "my", "me", "we", "our"),
  no other party ("my sister", "clients", anyone's "'s") and nothing holding the value but words of
  a family ("my *commute*", not "my *laptop*");
- their kinds agree: the same unit, currency and period, or the newer drops the period of a sum
  within a factor of two of the older ("I earn €52,000 a year" -> "I'm on €58,000 now");
- both name the same family, or the newer names nothing at all besides the value ("I'm on €58,000
  now") and the older a family, for a kind a unit sets apart (money, or a value per period): a bare
  duration or count ("I'm getting 7 hours") could be anything.

Precision first: a value the vocabulary does not know is left to the shared-word rule. Whether it
is news (not a plan, question, the past) is the caller's check, as for every value revision; that
both were said by one speaker too (:mod:`queries.probable`). Pure: no store, no model.
"""

from __future__ import annotations

from typing import Protocol

from .change_cues import names_other_party
from .rewording import Clause


class Mention(Protocol):
    """What this module reads of a :class:`.value_revisions.Mention` (which calls it, so it is
    described here rather than imported)."""

    @property
    def kind(self) -> tuple[str, ...]: ...
    @property
    def value(self) -> str: ...
    @property
    def holder(self) -> tuple[str, ...]: ...
    @property
    def words(self) -> frozenset[str]: ...
    @property
    def clause(self) -> Clause: ...

# Words (as compared: singular, no "-ing") and phrases for one attribute of the speaker's own life.
_FAMILIES: dict[str, frozenset[str]] = {name: frozenset(words.split("|")) for name, words in (
    ("income", "salary|earn|earned|paid|income|wage|paycheck|payslip|gross|take-home|before tax|after tax"),
    ("housing", "rent|landlord|flat|apartment|lease"),
    ("mortgage", "mortgage|remortgage|remortgaged"),
    ("commute", "commute|commut|journey|to work|into work|to the office|into the office"),
    ("running", "run|ran|jog|jogg|mileage"),
    ("savings", "save|sav|set aside|put away|stash"),
)}
_FIRST_PERSON = frozenset("i i'm i've me my myself we we're we've us our".split())
# Words that say a value moved, not what it measures: "I'm *down* to 67 kg" names no attribute.
_MOVED = frozenset("down up back finally currently get got".split())
PERIOD_DROPPED_RATIO = 2.0  # the newer sum without its period is the same sum within this factor


def _phrases(m: Mention) -> frozenset[str]:
    """The clause's words and its two- and three-word phrases ("to work", "to the office")."""
    w = m.clause.words
    return frozenset({*m.words, *(" ".join(w[k:k + 2]) for k in range(len(w) - 1)),
                      *(" ".join(w[k:k + 3]) for k in range(len(w) - 2))})


def families(m: Mention) -> frozenset[str]:
    """The families a mention's words name."""
    said = _phrases(m)
    return frozenset(name for name, words in _FAMILIES.items() if words & said)


def _family_word(word: str) -> bool:
    return any(word in words for words in _FAMILIES.values())


def own(m: Mention) -> bool:
    """Said of the speaker themselves, by nothing but a family's word ("my salary", "I")."""
    words = m.clause.words
    return bool(_FIRST_PERSON.intersection(words)) and not names_other_party(words) \
        and not any(w.endswith(("'s", "’s")) for w in words) \
        and all(_family_word(w) for w in m.words.intersection(m.holder))  # its units are no holder


def _bare(m: Mention) -> bool:
    """It names nothing besides the value: "I'm on €58,000 now"."""
    return not (m.words - _MOVED)


def _set_apart(kind: tuple[str, ...]) -> bool:
    """A kind a unit sets apart: money, or a value per period ("km a week")."""
    return kind[0] == "money" or (len(kind) > 1 and kind[-1] != "" and kind[0] != "version")


def _kinds_agree(old: Mention, new: Mention) -> bool:
    if old.kind == new.kind:
        return True
    # "€52,000 a year" -> "€58,000": the newer drops the period of about the same sum
    if old.kind[:2] != new.kind[:2] or old.kind[0] != "money" or new.kind[2]:
        return False
    a, b = float(old.value), float(new.value)
    return min(a, b) > 0 and max(a, b) / min(a, b) <= PERIOD_DROPPED_RATIO


def same_own_attribute(old: Mention, new: Mention) -> bool:
    """``old`` and ``new`` are the speaker's own value of one attribute said two ways (module doc)."""
    if not (own(old) and own(new) and _kinds_agree(old, new)):
        return False
    named = families(old)
    if not named:
        return False
    return bool(named & families(new)) or (_bare(new) and _set_apart(old.kind))
