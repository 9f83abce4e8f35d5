"""English verb forms for wording facts: the third person singular ("lives", "coaches", "studies"),
the base form back from it, and the simple past ("lived", "taught", "planned"), irregular verbs
included. Pure functions of one word; a phrase is conjugated by its first word.
"""

from __future__ import annotations

import re

# Irregular simple pasts of verbs a relation or a fact's text may start with.
_IRREGULAR_PAST = {
    "be": "was", "have": "had", "do": "did", "go": "went", "make": "made", "take": "took",
    "get": "got", "give": "gave", "know": "knew", "see": "saw", "come": "came", "run": "ran",
    "lead": "led", "teach": "taught", "hold": "held", "keep": "kept", "leave": "left", "buy": "bought",
    "sell": "sold", "tell": "told", "think": "thought", "bring": "brought", "build": "built",
    "write": "wrote", "read": "read", "speak": "spoke", "drive": "drove", "ride": "rode", "fly": "flew",
    "win": "won", "lose": "lost", "pay": "paid", "say": "said", "find": "found", "feel": "felt",
    "meet": "met", "send": "sent", "spend": "spent", "sit": "sat", "stand": "stood", "understand":
    "understood", "wear": "wore", "eat": "ate", "drink": "drank", "sing": "sang", "swim": "swam",
    "begin": "began", "draw": "drew", "grow": "grew", "throw": "threw", "put": "put", "set": "set",
    "let": "let", "cut": "cut", "hit": "hit", "hurt": "hurt", "cost": "cost", "shut": "shut",
    "become": "became", "forget": "forgot", "forgive": "forgave", "choose": "chose", "break": "broke",
    "steal": "stole", "wake": "woke", "bear": "bore", "fight": "fought", "seek": "sought",
    "catch": "caught", "sleep": "slept", "lend": "lent", "bend": "bent", "mean": "meant",
    "deal": "dealt", "dream": "dreamt", "light": "lit", "shoot": "shot", "sink": "sank",
    "oversee": "oversaw", "undergo": "underwent", "withdraw": "withdrew", "overcome": "overcame",
    "foresee": "foresaw", "undertake": "undertook", "mislead": "misled", "rebuild": "rebuilt",
    "quit": "quit", "split": "split", "spread": "spread",
}
# Third person forms that no rule turns back into their base.
_IRREGULAR_THIRD = {"is": "be", "has": "have", "does": "do", "goes": "go", "are": "be"}
# Verbs of more than one syllable stressed on the last, which double their consonant ("preferred").
_DOUBLING = frozenset("""prefer refer occur admit commit control compel permit regret omit
submit transfer patrol propel equip confer defer deter incur rebel""".split())
_VOWELS = "aeiou"


PAST_FORMS = frozenset(_IRREGULAR_PAST.values())


def is_past(word: str) -> bool:
    """Whether a word reads as a simple past already: ``lived``, ``was``, ``taught``, ``used``."""
    return word in PAST_FORMS or word in ("were", "used") or (word.endswith("ed") and len(word) > 3)


def third_person(base: str) -> str:
    """``live`` -> ``lives``, ``coach`` -> ``coaches``, ``study`` -> ``studies``, ``be`` -> ``is``."""
    if base == "be":
        return "is"
    if base == "have":
        return "has"
    if base.endswith(("s", "sh", "ch", "x", "z", "o")):
        return base + "es"
    if base.endswith("y") and base[-2:-1] not in _VOWELS:
        return base[:-1] + "ies"
    return base + "s"


def base_form(third: str) -> str:
    """The base of a third person singular: ``lives`` -> ``live``, ``coaches`` -> ``coach``,
    ``studies`` -> ``study``, ``goes`` -> ``go``, ``has`` -> ``have``. A word that is no third person
    form (no final s) is taken to be a base already."""
    if third in _IRREGULAR_THIRD:
        return _IRREGULAR_THIRD[third]
    if third.endswith("ies") and len(third) > 4:
        return third[:-3] + "y"
    if third.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
        return third[:-2]
    if third.endswith("s") and not third.endswith("ss"):
        return third[:-1]
    return third


def _one_syllable(word: str) -> bool:
    return len(re.findall(r"[aeiouy]+", word)) == 1


def past(base: str) -> str:
    """The simple past of a base form, third person singular: ``live`` -> ``lived``, ``plan`` ->
    ``planned``, ``study`` -> ``studied``, ``visit`` -> ``visited``, ``teach`` -> ``taught``."""
    if base in _IRREGULAR_PAST:
        return _IRREGULAR_PAST[base]
    if base.endswith("e"):
        return base + "d"
    if base.endswith("y") and base[-2:-1] not in _VOWELS:
        return base[:-1] + "ied"
    if base.endswith("c"):  # "panicked", "picnicked"
        return base + "ked"
    cvc = (len(base) > 2 and base[-1] not in _VOWELS + "wxy" and base[-2] in _VOWELS
           and base[-3] not in _VOWELS)
    if cvc and (_one_syllable(base) or base in _DOUBLING):
        return base + base[-1] + "ed"
    return base + "ed"


def past_of_third(third: str) -> str:
    """The simple past of a third person singular form: ``lives`` -> ``lived``, ``is`` -> ``was``."""
    return past(base_form(third))


def phrase_in_past(phrase: str) -> str:
    """A verb phrase in the third person present, in the past by its first word: ``plays for`` ->
    ``played for``, ``is captain of`` -> ``was captain of``, ``has`` -> ``had``."""
    head, _, rest = phrase.partition(" ")
    return " ".join(w for w in (past_of_third(head), rest) if w)
