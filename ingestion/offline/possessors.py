"""Whose it is: possessive chains name the subject they name ("my sister's rent" is the sister's, not
the speaker's; "Marco's landlord's email" is not Marco's).

A relative the speaker has one of (mum, dad, sister, husband, ...), told of without a name, becomes
an entity of its own, "<owner>'s <kin>" ("Priya's sister"), linked to its owner by the kin relation
(HAS_SIBLING); a relative named before ("my sister Meera") is that name. Someone one has many of or
whom the chat cannot tell apart (a friend, a colleague, a neighbour, an ex) is nobody in particular:
what is said of "my friend's rent" gives no fact at all, never the speaker's. A chain of two
unnamed people ("my sister's boyfriend's flat") is too far to follow.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .tables import KIN

# Relatives one has one of (or whom a chat names as if so): "my sister" is one person of the chat.
UNIQUE_KIN = frozenset("""sister brother mom mum mother dad father husband wife spouse partner boyfriend
girlfriend fiance fiancé fiancee fiancée son daughter grandma grandpa grandmother grandfather granny nana
stepmom stepdad""".split())
# People whose things a chat may tell of but who are nobody in particular ("my friend's rent"): no fact.
NOBODY_IN_PARTICULAR = frozenset("""friend friends mate mates buddy pal bestie ex colleague colleagues
coworker coworkers co-worker boss manager landlord landlady neighbour neighbor neighbours neighbors flatmate
roommate housemate teacher cousin cousins uncle aunt niece nephew doctor dentist lawyer client customer
tenant classmate teammate cofounder co-founder kid kids child children parents siblings sisters brothers
grandparents in-laws
family team company""".split())
# How chats write some of them: "my bf", "my hubby", "my sis".
KIN_ALIASES = {"bf": "boyfriend", "gf": "girlfriend", "hubby": "husband", "wifey": "wife", "sis": "sister",
               "bro": "brother", "mommy": "mom", "daddy": "dad", "mam": "mum", "granddad": "grandpa"}
UNIQUE_KIN_RE = "|".join(sorted(UNIQUE_KIN | set(KIN_ALIASES), key=len, reverse=True))
PEOPLE_RE = "|".join(sorted(UNIQUE_KIN | NOBODY_IN_PARTICULAR, key=len, reverse=True))
_POSSESSIVE_WORD = re.compile(r"^(?P<word>[A-Za-z][\w-]*)['’]s?$")


@dataclass(frozen=True)
class Owner:
    """Whose a thing is, as the words say it: ``base`` None is the speaker ("my", "our"), else a name
    or a pronoun (he / she / they); ``kin`` the relative of that base ("my sister's": "sister")."""

    base: str | None
    kin: str | None = None
    pronoun: bool = False


def kin_word(kin: str) -> str:
    """A kin word as the memory names it ("bf" -> "boyfriend")."""
    return KIN_ALIASES.get(kin.lower(), kin.lower())


def kin_name(owner: str, kin: str) -> str:
    """The entity an unnamed relative becomes: "Priya's sister"."""
    return f"{owner}'s {kin_word(kin)}"


def kin_relation(kin: str) -> str | None:
    """The relation linking an owner to a relative of this word (HAS_SIBLING for "sister")."""
    return KIN.get(kin_word(kin))


def followable(kin: str | None) -> bool:
    """Whether "X's <kin>" names one person the memory can keep (a sister, not a friend)."""
    return kin is None or kin_word(kin) in UNIQUE_KIN


def is_person_word(word: str) -> bool:
    """A word that names a person by their tie to someone ("sister", "friend", "landlord")."""
    return kin_word(word) in UNIQUE_KIN or word.lower() in NOBODY_IN_PARTICULAR


def possessor_words(words: list[str]) -> tuple[list[str], str | None, bool]:
    """An attribute's words with the possessive people in front taken off: (the attribute's own words,
    the kin word of one person followed ("sister"), whether the chain reaches someone unnamed and
    unfollowable ("friend's", or two people deep)). "sister's rent" -> (["rent"], "sister", False)."""
    kin: str | None = None
    rest = list(words)
    while rest:
        m = _POSSESSIVE_WORD.match(rest[0])
        if m is None or not is_person_word(m.group("word")) or len(rest) == 1:
            break
        if kin is not None or not followable(m.group("word")):
            return rest, None, True
        kin = kin_word(m.group("word"))
        rest = rest[1:]
    return rest, kin, False
