"""From a rule's match to a fact: the object it names (cleaned, or rejected) and one object per item
of a listed object. The fact's sentence is worded by ``temporal_graph.core.sentences``."""

from __future__ import annotations

import re
from typing import Literal

from .chat_tastes import clean_taste, clean_title
from .grammar import (
    ADVERB_TAIL,
    LIST_SPLIT,
    OBJECT_END,
    PASTIME_DETAIL,
    PREPOSITION_TAIL,
    WORD_SPLIT,
    Emit,
    Rule,
)
from .tables import (
    COUNTS,
    DETERMINERS,
    DIETS,
    EVENTS,
    GOING_ALONG,
    HANGING_ADJECTIVES,
    HOBBY_VERBS,
    INTOLERANCES,
    INTRANSITIVE,
    LIST_RELATIONS,
    NAME_STOP,
    NOT_OBJECT_START,
    NOT_POSSESSIONS,
    PARTICLES,
    PETS,
    PLAN_VERBS,
    PREPOSITIONS,
    PRONOUNS,
    SHARED_HEADS,
    SKILLS,
    SPECIFIC,
    TRAILING_PREPOSITIONS,
    VAGUE_TASTES,
    VERB_OPENERS,
)

ANY_OBJECT = ""  # the object of an ending that names none ("we divorced"): whatever held
# Verbs whose object follows a particle: "decided to run for office", "started on a book".
PHRASAL_STARTS = frozenset({"decided to", "started on", "worked on", "started to", "began to", "signed up",
                            "learned to", "learnt to", "managed to"})
PARTNER = "\x00partner"  # "we got engaged": the partner the chat named, found by the extractor
HERE = "\x00here"  # "I have been living here": the place (or, for "there", the workplace) just named
_DEGREES = {"phd": "PhD", "ph.d.": "PhD", "doctorate": "doctorate", "master's": "master's degree",
            "masters": "master's degree", "mba": "MBA", "bachelor's": "bachelor's degree", "degree": "degree"}


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def clean_name(name: str) -> str | None:
    """A person's name from a subject match; None when it is a sentence word, not a name."""
    words = name.split()
    if words and words[0] in VERB_OPENERS:
        return None  # "Left Google last year": a verb without its subject, no name
    while words and words[0].strip("'’") in NAME_STOP:
        words.pop(0)
    if not words or any(w in NAME_STOP for w in words):
        return None
    return " ".join(words)


def clean_proper(text: str) -> str | None:
    text = re.sub(r"^[Tt]he\s+", "", text.strip()).rstrip(".'’-")
    words = text.split()
    while words and (words[-1] in NAME_STOP or words[-1].lower() in ("of", "de", "for", "on", "&")):
        words.pop()
    if not words or words[0] in NAME_STOP:
        return None
    return " ".join(words)


def _split_det(text: str) -> tuple[str | None, str]:
    words = text.split()
    if words and words[0].lower() in DETERMINERS:
        return words[0].lower(), " ".join(words[1:])
    return None, text


_CUE_FORMS = {"moving": "move", "relocating": "move", "going": "go", "traveling": "travel",
              "travelling": "travel", "flying": "fly"}


def plan_cue(raw: str) -> str:
    """What names a plan being called off: "the Lyon plan" -> "Lyon", "moving to Lyon" -> "move to
    Lyon", "the plan" -> "" (the newest plan)."""
    words = [_CUE_FORMS.get(w.lower(), w) for w in raw.strip(" .,!;").split()]
    while words and words[0].lower() in DETERMINERS:
        words.pop(0)
    words = [w for w in words if w.lower() not in ("plan", "plans")]
    return " ".join(words)


def _clean_np(text: str, *, max_words: int = 5, strict: bool = False) -> str | None:
    """A noun phrase object: cut at the next clause word, no pronouns, a few words.

    ``strict`` (likes, allergies): a phrase that goes on with a complement ("spending time with
    my family") is rejected rather than cut to something the speaker did not say.
    """
    text = ADVERB_TAIL.sub("", " " + text.strip()).strip()
    if strict and (PREPOSITION_TAIL.search(" " + text) or any(w.lower() in PRONOUNS for w in text.split())):
        return None
    text = OBJECT_END.sub("", " " + text).strip(" ,.!?\"'")
    _, text = _split_det(text)
    words = text.split()
    if not words or len(words) > max_words or any(w.lower() in PRONOUNS for w in words):
        return None
    if words[0].lower() in NOT_OBJECT_START:
        return None
    return " ".join(words)


# Last words that leave a phrase cut before its point: "a piece called" (its quoted name taken out),
# "teaching people how" (to do what?).
CUT_BEFORE = frozenset({"called", "named", "titled", "how", "what", "why", "whether", "where", "when"})


def _clean_phrase(text: str, *, max_words: int = 10) -> str | None:
    """An activity or plan ("painted a sunrise"): my/our → their, no other pronouns."""
    text = re.split(r"\s+(?:and|but|because|so|which|who|where|while|when|since|"
                    r"after|before|if|in\s+hopes|hoping|to\s+(?:clear|show|showcase|get|see|help|make|keep|take|raise|"
                    r"support|spread|bring|learn|meet|honou?r|give|relax|reconnect|recharge|unwind|explore|"
                    r"discuss|prepare|promote|connect|improve|build|create)|like\s+(?:my|our|the|that|this)|"
                    r"with\s+(?:my|our|some|a))\b",
                    " " + text.strip())[0].strip(" ,.!?\"'")
    words = text.split()
    out = []
    for w in words:
        low = w.lower()
        if low in ("my", "our"):
            out.append("their")
        elif low == "that" and len(out) >= 2 and out[-1].lower() not in PREPOSITIONS | PARTICLES:
            break  # "read a book that made an impact": a relative clause, not the book's name
        elif low in ("this", "that", "these", "those"):
            out.append("the")
        elif low in PRONOUNS or low in ("i", "me", "us", "you", "your", "there", "here"):
            # "went fishing in one of the nearby lakes": the phrase ends where its pronoun's begins
            if len(out) >= 3 and out[-1].lower() in PREPOSITIONS | TRAILING_PREPOSITIONS:
                out.pop()
                break
            return None
        else:
            out.append(w)
    while out and out[-1].lower() in PREPOSITIONS | TRAILING_PREPOSITIONS | {"a", "an", "the", "their", "and",
                                                                              "new"}:
        out.pop()
    if (not out or len(out) > max_words or out[-1].lower() in HANGING_ADJECTIVES | CUT_BEFORE
            or out[-1].endswith(("'s", "s'"))):
        # "had an amazing" (cut before "and emotional wedding"), "a tournament for the shelter's": the
        # thing itself is lost
        return None
    out[0] = out[0].lower()
    return " ".join(out)


def emissions(rule: Rule, groups: dict[str, str | None]) -> list[tuple[Emit, str | None]]:
    """Each (emit, raw object); a list object ("hiking, painting and pottery") gives one per item,
    up to the first item that is not a clean object ("hiking and it is great" → hiking)."""
    out: list[tuple[Emit, str | None]] = []
    for emit in rule.emits:
        raw = groups.get(emit.group)
        if raw is not None and emit.relation in ("LIKES", "DISLIKES", "HAS_HOBBY"):
            raw = PASTIME_DETAIL.sub(r"\g<p>", raw)  # "hiking in the mountains": the taste is hiking
        if raw is None or emit.relation not in LIST_RELATIONS or raw.split()[0].lower() in SPECIFIC:
            out.append((emit, raw))
            continue
        # commas separate items only in a real list ("a, b and c"), not "a safe, inviting place"
        splitter = LIST_SPLIT if re.search(r"\s(?:and|or)\s", raw) else WORD_SPLIT
        items: list[str] = []
        for i, item in enumerate(splitter.split(raw.split(",")[0] if splitter is WORD_SPLIT else raw)):
            if _clean_np(item, max_words=4, strict=True) is None:
                if i == 0:
                    items.append(item)  # let the cleaner reject it as a whole
                break
            items.append(item)
        out.extend((emit, item) for item in _share_head(items))
    return out


def _share_head(items: list[str]) -> list[str]:
    """"action and sci-fi movies": the kind word belongs to every item, not only the last."""
    words = _clean_np(items[-1], max_words=4, strict=True) if len(items) > 1 else None
    if (words is None or len(words.split()) != 2 or words.split()[-1].lower() not in SHARED_HEADS
            or words.split()[0].lower().endswith("ing")
            or any(i.strip().endswith("ing") for i in items[:-1])):
        return items  # "climbing, sliding and playing games": pastimes, not kinds of games
    head = words.split()[-1]
    return [f"{item.strip()} {head}" if len(item.split()) == 1 else item for item in items[:-1]] + items[-1:]


def _names_event(words: list[str]) -> bool:
    return any(w.lower().rstrip("s") in EVENTS or w.lower() in EVENTS for w in words)


def _vocab_object(kind: str, raw: str | None) -> str | None | Literal[False]:
    """Objects of the closed-list rules; ``False`` when ``kind`` is not one of them."""
    if kind not in ("plain", "hobbyverb", "diet", "intolerance", "nomeat", "go_ing", "go_to", "go_on",
                    "attend", "plan_ing"):
        return False
    if raw is None:
        return None
    value = " ".join(raw.split())
    if kind == "plain":
        return value if value[:1].isupper() and value.lower() not in SKILLS else value.lower()
    if kind == "hobbyverb":
        return HOBBY_VERBS[value.lower()]
    if kind == "diet":
        return DIETS.get(value.lower(), value.lower())
    if kind == "intolerance":
        return INTOLERANCES[value.lower()]
    if kind == "nomeat":
        return "vegetarian"
    if kind == "go_ing":
        return f"go {value.lower()}"
    if kind == "go_on":  # "a picnic date", "a hike"
        noun = _clean_np(value, max_words=5)
        return None if noun is None else f"go on {_article(noun)} {noun}"
    if kind == "attend":  # "I've got a gaming tournament next month": an event of one's own ahead
        noun = _clean_np(re.sub(r"\s+coming\s+up$", "", value, flags=re.I), max_words=5)
        if noun is None or not _names_event(noun.split()):
            return None
        return f"attend {_article(noun)} {noun}"
    if kind == "go_to":
        det, rest = _split_det(value)
        noun = _clean_np(rest, max_words=4)
        if noun is None:
            return None
        article = "a" if det in ("a", "an") else "the" if det == "the" else "their"
        return f"go to {_article(noun) if article == 'a' else article} {noun}"
    verb, _, rest = value.partition(" ")
    base, phrase = PLAN_VERBS[verb.lower()], _clean_phrase(rest)
    if verb.lower() in GOING_ALONG:  # "walking to work"; "hiking with some buddies": the plan is the hike
        return f"{base} {phrase}" if phrase else base
    if phrase is None or phrase.split()[0].lower() in PREPOSITIONS:
        return None  # "I'm seeing to it"
    return f"{base} {phrase}"


def clean_object(emit: Emit, raw: str | None, groups: dict[str, str | None]) -> tuple[str | None, str | None]:
    """The object an emit takes from its raw match, with the determiner it came with; None when the
    match holds no clean object."""
    kind = emit.object_kind
    if kind == "any":
        return ANY_OBJECT, None
    if kind == "const":  # the emit names its object ("engaged" for RELATIONSHIP_STATUS)
        return emit.group, None
    if kind in ("here", "there"):
        return (HERE if raw is not None else None), None
    if kind == "partner":
        return (clean_name(raw) if raw else PARTNER), None
    if kind == "degree" and raw:
        degree = _DEGREES.get(raw.lower(), raw)
        return f"finished {'an' if degree[:1] in 'aeiouAEIOUM' else 'a'} {degree}", None
    if kind == "languages" and raw:
        return raw.strip(), None
    if kind == "cue":
        return plan_cue(raw or ""), None
    if kind == "title":
        return clean_title(raw), None
    if kind == "taste":
        return clean_taste(raw), None
    special = _vocab_object(kind, raw)
    if special is not False:
        return special, None
    if kind == "petname":
        if raw is None:
            return groups.get("pet"), None
        return clean_name(raw), None
    if raw is None:
        return None, None
    if kind == "proper":
        return clean_proper(raw), None
    if kind in ("role", "role_start"):
        role = " ".join(raw.split()).strip(" .,")
        _, role = _split_det(role)
        # "Sous chef at ..." opening a sentence: the capital is the sentence's, not the role's
        if kind == "role_start" and role[:1].isupper() and role[1:2].islower() and all(
                w.islower() for w in role.split()[1:]):
            role = role[:1].lower() + role[1:]
        return (role if role and role.split()[0].lower() not in PRONOUNS else None), None
    if kind == "condition":
        value = _clean_np(raw, max_words=4)
        return value, None
    if kind in ("np", "place_np"):
        det, _ = _split_det(raw)
        det = det or groups.get("det")
        strict = emit.relation in LIST_RELATIONS
        value = _clean_np(raw, max_words=4 if kind == "np" else 5, strict=strict)
        if strict and value is not None and value.lower() in VAGUE_TASTES:
            return None, None  # "I enjoy playing": playing what?
        if strict and det in SPECIFIC:
            return None, None  # "I love the colors": about a thing in the chat, not a taste
        if emit.relation == "OWNS" and value is not None:
            words = [w for w in value.split() if w.lower() not in COUNTS]
            if not words or words[-1].lower() in NOT_POSSESSIONS or any(
                    w.lower() in PETS or w.lower().rstrip("s") in PETS
                    or w.lower() in ("named", "called")
                    for w in words):
                return None, None
            value = " ".join(words)
        return value, det
    if kind == "event":
        det = groups.get("det")
        value = _clean_np(raw, max_words=6)
        if value is None or not _names_event(value.split()[:5]):
            return None, None
        if value[:1].isupper() and len(value.split()) == 1:  # "went to Paris" is a visit
            return None, None
        return value, det
    if kind in ("vp", "activity"):
        value = _clean_phrase(raw)
        if kind == "activity" and value is not None:
            words = value.split()
            phrasal = len(words) > 2 and " ".join(w.lower() for w in words[:2]) in PHRASAL_STARTS
            if words[0].lower() not in INTRANSITIVE and not phrasal and (
                    len(words) == 1 or words[1].lower() in PREPOSITIONS):
                return None, None  # "we took for ...": the object was elsewhere
        if value is None or (
                kind == "vp" and value.split()[0].lower() in DETERMINERS + ("be", "get", "have")):
            return None, None
        return value, None
    return None, None
