"""The offline extractor's grammar: regex building blocks, the rule tables (pattern → relation), and
the patterns that cut a message into clauses and spot hedges, negations, hearsay and corrections."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from temporal_graph.core.extraction import StatementKind

from .tables import (
    CAR_BRANDS,
    CLAUSE_OPENERS,
    CONDITIONS,
    DIETS,
    GAME_PHRASES,
    GAMES,
    HOBBY_GERUNDS,
    HOBBY_PHRASES,
    HOBBY_VERBS,
    INSTRUMENT_ADJECTIVES,
    INSTRUMENTS,
    JOBS,
    KIN,
    LANGUAGES,
    PETS,
    PLAN_VERBS,
    POSSESSION_PHRASES,
    POSSESSIONS,
    PRACTICES,
    SKILL_PHRASES,
    SKILLS,
)

KIN_ADJ = (r"(?:little|big|older|younger|baby|twin|eldest|oldest|youngest|step-?|half-?|new|dear|sweet|"
           r"lovely)")
REPORTING = re.compile(
    r"\b(?i:say|says|said|tell|tells|told|claim|claims|claimed|pretend|pretends|heard|hear|write|writes|wrote|"
    r"type|repeat|think|thinks|thought|believe|believes|believed|reckon|reckons|swear|swears|insist|insists)\s+"
    r"(?:(?i:me|us|him|her|them|everyone)\s+)?(?:that\s+)?$"
)


def _alt(words) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


# --- regex building blocks -------------------------------------------------------------------------

# A capital, also a Latin letter with an accent ("Tremoço", "Łukasz", "Élodie"), then letters.
_CAP = r"[A-ZÀ-ÖØ-ÞĀ-ſ]"
_WORD_CAP = rf"(?:(?!I\b){_CAP}[^\W\d_]*(?:[-'’]{_CAP}[^\W\d_]+)?)"
NAME = rf"{_WORD_CAP}(?:\s+{_WORD_CAP}){{0,2}}"
KIN_RE = _alt(KIN)
# Adverbs between "am" and the verb of a plan ("I'm also hosting", "we're currently planning").
_NOW = r"(?:(?i:also|currently|still|really|actually|now|definitely|officially)\s+)?"
# A subject: I / we, "my sister Anna", or a capitalized name.
SUBJ = (rf"(?P<subj>\b(?:I|[Ww]e|[Hh]e|[Ss]he|[Tt]hey)\b"
        rf"|(?:\b(?:[Mm]y|[Oo]ur)\s+(?:{KIN_ADJ}\s+)?(?:{KIN_RE})\s+)?(?<![\w'])(?:{NAME}))")
# A number or code that ends a name ("Terminal 1", "Apartment 3B", "Route 66"): never a year, a
# count ("Google 5 days a week"), a time ("9:30") or part of one ("24/7").
_UNITS = (r"(?:day|week|month|year|hour|minute|second|night|time|kid|child|children|people|person|"
          r"mile|km|kilomet(?:er|re)|met(?:er|re)|dollar|euro|pound|percent|min|hr|mph)s?")
_CODE = (r"(?:\s+(?!(?:19|20)\d\d\b)\d{1,4}[A-Za-z]?(?![\w'’/:-])(?![.,]\d)(?!\s*%)"
         rf"(?!\s+(?i:{_UNITS})\b))?")
# A proper-noun object: "Hangzhou", "New York City", "University of Toronto", "Johnson & Johnson",
# "Terminal 1".
PROPER = (r"(?:[Tt]he\s+)?" + _CAP + r"[\w.&'’-]*"
          r"(?:\s+(?:(?:of|de|du|la|le|del|for|on|am|upon|&)\s+)?" + _CAP + r"[\w.&'’-]*)*" + _CODE)
# A lowercase noun phrase: a few words, no punctuation.
NP = r"[\w+'’-]+(?:\s+[\w+'’-]+){0,7}"
LIST = r"[\w+'’-]+(?:(?:,\s+|\s+)[\w+'’-]+){0,11}"  # "hiking, painting and pottery"
# (a capital only where the adverb opens a clause without a subject: "Still working at ...")
ADV = (r"(?:(?:[Jj]ust|[Rr]eally|[Aa]lso|[Ff]inally|[Rr]ecently|[Ss]till|[Nn]ow|[Aa]ctually|[Oo]fficially|"
       r"[Aa]lready|[Aa]bsolutely|[Tt]otally|[Tt]ruly|[Ee]specially|[Cc]urrently|[Ee]ven|[Ss]o|[Bb]oth)\s+)*")
_TITLE_WORD = (r"(?!(?i:of|the|a|an|and|or|to|in|at|for|with|my|your|his|her|their|our|who|that|is|was|"
               r"not)\b)"
               r"[\w+#.-]+")
ROLE = rf"(?:{_TITLE_WORD}\s+){{0,4}}?(?i:{_alt(JOBS)})(?:\s+(?i:{_alt(JOBS)}))*s?(?!\w|-\w)"
DET = r"(?:(?P<det>a|an|the|this|that|my|our|some)\s+)"
# A title with "of" written with capitals: "Head of Design"
_ROLE_OF_NAMED = (r"(?i:head|director|vice president|vp|chief|manager|lead|dean|chair)\s+of\s+"
                  r"(?!(?i:the|a|an|my|our|at|for|in|with|and)\b)[A-Za-z][a-z]+"
                  r"(?:\s+(?!(?i:at|for|in|with|and|since)\b)[A-Za-z][a-z]+)?")


def _o(name: str, body: str) -> str:
    return f"(?P<{name}>{body})"


@dataclass(frozen=True)
class Emit:
    """One fact a rule produces from a named group of its match."""

    group: str
    relation: str
    object_kind: str  # proper | np | role | pet | vp | activity
    object_type: str


@dataclass(frozen=True)
class Rule:
    pattern: re.Pattern[str]
    emits: tuple[Emit, ...]
    kind: StatementKind = "state"
    needs_time: bool = False  # only with a time phrase in the clause (generic "did" facts)
    past: bool = False  # a past state: LIVED_IN etc. unless a time phrase is given
    positive: bool = True  # skipped in clauses with a negation
    fallback: bool = False  # only when no other rule matched the clause
    opens_clause: bool = False  # the subject must open a clause ("a job I enjoy" is no taste)
    future: bool = False  # a plan: only with a time phrase after the message's time, or none at all
    # Words one of which the clause must hold for the rule to be tried (as ``cues_in`` names them: a
    # word, a prefix "word*", or a text with spaces): a cheap test that spares most clauses the regex.
    # Empty: always tried.
    cue: tuple[str, ...] = ()


def _group_end(pattern: str, i: int) -> int:
    """The index just past the group opening at ``pattern[i]`` ("(")."""
    depth = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        depth += ch == "("
        depth -= ch == ")"
        i += 1
        if depth == 0:
            return i
    return i


def _alternatives(body: str) -> list[str]:
    """A group's body split at its top-level "|"."""
    out, depth, current, i = [], 0, "", 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            current += body[i:i + 2]
            i += 2
            continue
        depth += ch == "("
        depth -= ch == ")"
        if ch == "|" and depth == 0:
            out.append(current)
            current = ""
        else:
            current += ch
        i += 1
    return [*out, current]


def _first_words(pattern: str) -> set[str] | None:
    """The words a match of ``pattern`` can start with ("word", or "word*" when the pattern goes on
    without a space), or None when it can start otherwise (a class, an optional group, a name)."""
    for opener in ("(?i:", "(?:", "(?P<"):
        if pattern.startswith(opener):
            end = _group_end(pattern, 0)
            optional = end < len(pattern) and (pattern[end] in "?*" or pattern.startswith("{0,", end))
            after: set[str] = set()
            if optional:  # the match may start after the group: with what follows it
                rest = pattern[end:]
                rest = rest[rest.index("}") + 1:] if rest.startswith("{") else rest[1:]
                following = _first_words(rest.lstrip("?"))
                if following is None:
                    return None
                after = following
            body = pattern[len(opener):end - 1]
            if opener == "(?P<":
                body = body[body.index(">") + 1:]
            words: set[str] = set()
            for alternative in _alternatives(body):
                first = _first_words(alternative + pattern[end:] if not alternative else alternative)
                if first is None:
                    return None
                words |= first
            return words | after
    word = re.match(r"[a-z]+", pattern)
    if word is None:
        return None
    rest = pattern[word.end():]
    whole = not rest or rest.startswith((" ", "\\s", "\\b"))
    return {word.group(0) if whole else word.group(0) + "*"}


def _cue(pattern: str) -> tuple[str, ...]:
    """The words a rule cannot match without: the first words its verb group (right after
    ``<S>\\s+<ADV>``) can start with (``<ADV>(?i:quit|resigned from)`` -> ("quit", "resigned")); none
    when that is not a list of words. A word the pattern goes on after without a space ("cancell" of
    "cancell?ed") is a prefix cue ("cancell*"); the others must be whole words of the clause."""
    for lead in ("<S>\\s+<ADV>", "<ADV>", "<S>\\s+"):
        start = pattern.find(lead)
        if start >= 0:
            words = _first_words(pattern[start + len(lead):])
            return tuple(sorted(words)) if words else ()
    return ()


# Every rule's cue words: a clause's words are looked up once (cues_in), not searched once per rule.
# "word": the clause must hold that word; "word*": a word starting so; a hand-written cue, or one with
# another character than a letter ("part in"): that text anywhere in the clause.
CUE_WHOLE: set[str] = set()
CUE_PREFIX: set[str] = set()
CUE_TEXT: set[str] = set()
_LONGEST_PREFIX = [0]
_WORD = re.compile(r"[a-z]+")


def _register(cues: tuple[str, ...], hand_written: bool) -> tuple[str, ...]:
    """Files each cue under how it is looked for; the rule keeps the cues as ``cues_in`` names them."""
    out = []
    for cue in cues:
        word = cue.rstrip("*")
        if hand_written or not word.isalpha():
            CUE_TEXT.add(word)
            out.append(word)
        elif cue.endswith("*"):
            CUE_PREFIX.add(word)
            _LONGEST_PREFIX[0] = max(_LONGEST_PREFIX[0], len(word))
            out.append(word + "*")
        else:
            CUE_WHOLE.add(word)
            out.append(word)
    return tuple(out)


def cues_in(low: str) -> frozenset[str]:
    """The cues ``low`` (a lowercased clause) holds, named as rules name them ("am", "cancell*",
    "part in"): a rule none of whose cues is among them cannot match."""
    return _cues_in(low, len(CUE_WHOLE) + len(CUE_PREFIX) + len(CUE_TEXT))


@lru_cache(maxsize=32)  # a clause is tried by several rule lists in turn
def _cues_in(low: str, known: int) -> frozenset[str]:  # ``known``: a rule added later is not missed
    words = set(_WORD.findall(low))
    found = {w for w in words if w in CUE_WHOLE}
    longest = _LONGEST_PREFIX[0]
    for w in words:
        for i in range(1, min(len(w), longest) + 1):
            if w[:i] in CUE_PREFIX:
                found.add(w[:i] + "*")
    found.update(text for text in CUE_TEXT if text in low)
    return frozenset(found)


def _rule(pattern: str, *emits: tuple[str, str, str, str], implicit: bool = False, **options) -> list[Rule]:
    """Compile a rule; ``implicit`` adds the chat form without "I" ("Lost my job ...")."""
    hand_written = "cue" in options
    options["cue"] = _register(options["cue"] if hand_written else _cue(pattern), hand_written)
    bodies = [pattern.replace("<S>", SUBJ)]
    if implicit:
        bodies.append(pattern.replace("<S>\\s+", r"(?:^\s*|[,!]\s+)(?:[Jj]ust\s+|[Aa]lso\s+|[Ff]inally\s+)?"))
    compiled = []
    for body in bodies:
        body = (body.replace("<PROPER>", PROPER).replace("<NP>", NP).replace("<ROLE>", ROLE)
                .replace("<ADV>", ADV).replace("<DET>", DET).replace("<LIST>", LIST))
        compiled.append(Rule(re.compile(body), tuple(Emit(*e) for e in emits), **options))
    return compiled


class RuleSet:
    """Rules in their order, indexed by cue: the rules a clause's cues allow are found by looking its
    cues up, not by testing every rule."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.rules = tuple(rules)
        self._by_cue: dict[str, list[int]] = {}
        for i, rule in enumerate(self.rules):
            for cue in rule.cue:
                self._by_cue.setdefault(cue, []).append(i)
        self._always = [i for i, rule in enumerate(self.rules) if not rule.cue]

    def candidates(self, present: frozenset[str]) -> list[Rule]:
        """The rules, in order, that one of the cues ``present`` (``cues_in``) allows."""
        chosen = set(self._always)
        for cue in present:
            chosen.update(self._by_cue.get(cue, ()))
        return [self.rules[i] for i in sorted(chosen)]


# Short emit builders keep the rule tables readable: a proper-noun, noun-phrase or role object.
def P(g: str, rel: str, t: str) -> tuple[str, str, str, str]:
    return (g, rel, "proper", t)


def N(g: str, rel: str, t: str) -> tuple[str, str, str, str]:
    return (g, rel, "np", t)


def R(g: str, rel: str) -> tuple[str, str, str, str]:
    return (g, rel, "role", "Role")


_BE = r"(?i:am|is|are|was|were)"
_LIVE = (r"(?i:live|lives|am living|is living|are living|have lived|has lived|have been living|"
         r"has been living)")
_MOVE = (r"(?i:moved|move|moves|am moving|is moving|are moving|will move|will be moving|relocated|"
         r"relocate|am relocating|is relocating|will relocate|have moved|has moved|have relocated)")
_WORK = (r"(?i:work|works|am working|is working|are working|have been working|has been working|"
         r"have worked|has worked|will work|will be working)")

# What a plan is called when it is called off: "the Lyon plan", "our trip to Rome", "moving to Lyon".
_PLAN_NOUN = (r"(?:[\w'-]+\s+){0,3}?(?i:plan|plans|move|trip|visit|vacation|holiday|relocation|journey|"
              r"conference)"
              r"(?:\s+(?i:to)\s+<PROPER>)?")
_PLAN_GOING = r"(?i:moving|relocating|going|traveling|travelling|flying)(?:\s+(?i:to)\s+<PROPER>)?"
# Verbs that tell what is still to come ("I'm moving to Lyon on Friday", "I will start at Acme").
FUTURE = re.compile(
    r"\b(?i:will|shall)\b|\b(?i:am|is|are)\s+(?:(?i:going\s+to)\b|(?i:moving|relocating|starting|joining|"
    r"leaving|flying|heading|visiting|getting|marrying)\b)")

# The rule tables: order matters only for the "fallback" rules (generic DID), which run last.
ENDING_RULES: list[Rule] = [
    *_rule(r"<S>\s+<ADV>(?i:moved away from|moved out of|no longer live in|no longer lives in|do not live in|"
           r"does not live in|am not living in|is not living in)\s+" + _o("o", "<PROPER>"),
           P("o", "LIVES_IN", "Place"), kind="ending", positive=False, implicit=True),
    # "left X": a home or a job; the context decides, a job by default ("I left Google last year").
    *_rule(r"<S>\s+<ADV>(?i:left)\s+" + _o("o", "<PROPER>") + r"(?!\s+(?:for|to)\b)",
           P("o", "LEFT?", "Organization"), kind="ending", positive=False, implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:quit|resigned from|was fired from|got fired from|was laid off from|"
           r"got laid off from|was let go from|got let go from|"
           r"stopped working at|stopped working for|no longer work at|no longer work for|no longer works at|"
           r"do not work at|do not work for|does not work at|am not working at|"
           r"quit my job at|left my job at|lost my job at)\s+" + _o("o", "<PROPER>")
           + r"(?![\w'’.&-])(?!\s+(?i:classes|class|lessons|lesson|course|courses)\b)",
           P("o", "WORKS_AT", "Organization"), kind="ending", positive=False, implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:quit|left|lost)\s+(?i:my|his|her|their)\s+(?i:job|position)\s+(?i:as)\s+"
           r"(?:an?\s+)?" + _o("role", "<ROLE>"), R("role", "WORKS_AS"), kind="ending", positive=False,
           implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:quit|left|lost)\s+(?i:my|his|her|their)\s+(?i:job|position)"
           r"(?!\s+(?i:as|at|with|for)\b)",
           ("none", "WORKS_AT", "any", "Organization"), kind="ending", positive=False, implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:graduated from|dropped out of|finished at)\s+" + _o("o", "<PROPER>"),
           P("o", "STUDIES_AT", "Organization"), kind="ending", positive=False),
    *_rule(r"<S>\s+<ADV>(?i:divorced|split up with|separated from|got divorced from|am divorced from)\s+"
           + _o("o", NAME), P("o", "MARRIED_TO", "Person"), kind="ending", positive=False),
    *_rule(r"(?P<o>" + NAME + r")\s+and\s+I\s+<ADV>(?i:got divorced|divorced|split up|separated)",
           P("o", "MARRIED_TO", "Person"), kind="ending", positive=False),
    *_rule(r"\b(?P<we>[Ww]e)\s+<ADV>(?i:got divorced|divorced|are divorced|split up|separated)\b",
           ("none", "MARRIED_TO", "any", "Person"), kind="ending", positive=False),
    *_rule(r"<S>\s+<ADV>(?i:broke up with|dumped)\s+" + _o("o", NAME), P("o", "DATING", "Person"),
           kind="ending", positive=False),
    *_rule(r"(?P<o>" + NAME + r")\s+and\s+I\s+<ADV>(?i:broke up|split)", P("o", "DATING", "Person"),
           kind="ending", positive=False),
    *_rule(r"\b(?P<we>[Ww]e)\s+<ADV>(?i:broke up)\b", ("none", "DATING", "any", "Person"), kind="ending",
           positive=False),
    *_rule(r"<S>\s+<ADV>(?i:recovered from|beat)\s+" + _o("o", "<NP>"),
           ("o", "HAS_CONDITION", "condition", "Condition"), kind="ending", positive=False),
    *_rule(r"<S>\s+<ADV>(?i:no longer have|no longer has|do not have|does not have)\s+"
           + _o("o", rf"(?:type [12] )?(?i:{_alt(CONDITIONS)})(?:\s+disease)?")
           + r"\s+(?i:anymore|any more)?",
           ("o", "HAS_CONDITION", "condition", "Condition"), kind="ending", positive=False),
    *_rule(r"<S>\s+<ADV>(?i:sold|donated|gave away)\s+(?:(?i:my|our|his|her)\s+)" + _o("o", "<NP>"),
           N("o", "OWNS", "Thing"), kind="ending", positive=False, implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:do not|does not|no longer)\s+(?i:like|enjoy|love)\s+" + _o("o", "<NP>")
           + r"\s+(?i:anymore|any more)", N("o", "LIKES", "Thing"), kind="ending", positive=False),
    *_rule(r"<S>\s+<ADV>(?i:no longer)\s+(?i:like|enjoy|love)\s+" + _o("o", "<NP>")
           + r"(?!\s+(?i:anymore|any more))",
           N("o", "LIKES", "Thing"), kind="ending", positive=False),
    # "I quit badminton", "gave up chess", "stopped playing tennis": a pastime ends. Lowercase
    # only, so "quit Acme" stays a job, and never "my job" or "smoking"-like habits with an article.
    # A game or an instrument given up also ends PLAYS (PASTIME_RULES).
    *_rule(r"<S>\s+<ADV>(?i:quit|gave up on|gave up|stopped doing)\s+"
           r"(?![Mm]y\b|smoking\b|drinking\b|vaping\b|[Tt]he\b|[Aa]n?\b|[Hh]is\b|[Hh]er\b|[Tt]heir\b)"
           + _o("o", r"[a-z][a-z-]+") + r"(?=\s*(?:[,.!;]|$|\s+(?:and|now|last|this|in|since|because)\b))",
           N("o", "LIKES", "Activity"), kind="ending", positive=False, implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:stopped)\s+" + _o("o", f"(?i:{_alt(HOBBY_PHRASES + HOBBY_GERUNDS)})")
           + r"(?![\w-])(?!\s+(?:for|to)\b)",
           N("o", "LIKES", "Activity"), kind="ending", positive=False, implicit=True),
    # Plans called off: the ending names a cue ("the Lyon plan", "the move"); the plan it names ends.
    *_rule(r"\b(?:[Tt]he|[Oo]ur|[Mm]y|[Tt]his|[Tt]hat)\s+" + _o("o", _PLAN_NOUN)
           + r"\s+(?:(?i:has|have|had)\s+)?(?:(?i:is|was|are|were|got|been|has been)\s+)?"
           r"(?i:fell through|fallen through|falls through|off(?!\s+to\b)|cancell?ed|called off|scrapped|"
           r"not happening|dead|did not work out|is not going to happen)\b",
           ("o", "PLANS", "cue", "Activity"), kind="ending", positive=False,
           cue=("through", "off", "cancel", "scrapped", "not happening", "dead", "did not work out",
                "not going to happen")),
    *_rule(r"<S>\s+<ADV>(?i:called off|call off|cancell?ed|scrapped|dropped|gave up on|abandoned|shelved)\s+"
           r"(?i:the|our|my|his|her|their)\s+" + _o("o", _PLAN_NOUN),
           ("o", "PLANS", "cue", "Activity"), kind="ending", positive=False, implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?i:not|no longer)\s+" + _o("o", _PLAN_GOING)
           + r"(?:\s+(?i:after all|anymore|any more))?(?=\s*(?:[,.!;]|$))",
           ("o", "PLANS", "cue", "Activity"), kind="ending", positive=False),
    *_rule(r"(?:^\s*|[,!]\s+)(?i:not|no longer)\s+" + _o("o", _PLAN_GOING)
           + r"\s+(?i:after all|anymore|any more)",
           ("o", "PLANS", "cue", "Activity"), kind="ending", positive=False, cue=("after all", "any")),
    *_rule(r"<S>\s+<ADV>(?i:decided|have decided|has decided|chose)\s+(?i:not)\s+to\s+"
           + _o("o", r"(?i:move|relocate|go|travel|fly)(?:\s+(?i:to)\s+<PROPER>)?"),
           ("o", "PLANS", "cue", "Activity"), kind="ending", positive=False, implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:changed)\s+(?i:my|our|his|her|their)\s+(?i:mind|minds)\s+(?i:about)\s+"
           + _o("o", _PLAN_GOING + r"|(?i:the)\s+" + _PLAN_NOUN),
           ("o", "PLANS", "cue", "Activity"), kind="ending", positive=False, implicit=True),
    # (the "anymore" test after the verb: tried only where the verb is, not from every position)
    *_rule(r"<S>\s+<ADV>"
           r"(?:(?i:do not|does not)\s+(?i:really\s+)?(?i:like|enjoy|care for)|(?i:hate|hates|dislike|"
           r"dislikes|detest|cannot stand|can not stand|am not a fan of|is not a fan of|am not into))"
           r"(?!.*\b(?:anymore|any more)\b)\s+"
           + _o("o", "<LIST>"), N("o", "DISLIKES", "Thing"), kind="state", positive=False),
]

# Denials: the speaker says a value never held ("I never worked at Globex", "I've never been to
# Rome") or does not hold ("that's not true, I don't work at Globex"). First person only, the value
# closing the clause and no time phrase in it: "I never lived in Paris as a kid" or "I don't work at
# Acme on Fridays" deny less than the value, and "... anymore" is an ending (ENDING_RULES, which never
# see a denial's words: the extractor blanks them). "Never" denies the present and past relations;
# "been to" also denies living there.
_I = r"(?:^|(?<=[\s,;:]))(?P<subj>I|[Ww]e)\s+<ADV>"
_NEVER = r"(?:(?i:have|had)\s+)?(?i:never)\s+(?:(?i:ever|once|actually|even)\s+)?"
_NOT_NOW = r"(?i:do not|am not|are not)\s+(?:(?i:actually|even)\s+)?"
_CLOSES = (r"(?=\s*(?:[,.!;]|$|\s+(?:(?i:either|though|at all|in my life|ever|for that matter)\b"
           r"|(?i:before)\s*(?:[,.!;]|$))))")


def _denial(verbs: str, *relations: str, object_type: str, obj: str = "<PROPER>") -> list[Rule]:
    return _rule(_I + verbs + r"\s+" + _o("o", obj) + _CLOSES,
                 *(P("o", r, object_type) for r in relations), kind="denial", positive=False)


DENIAL_RULES: list[Rule] = [
    *_denial(_NEVER + r"(?i:worked|been working|been employed)\s+(?i:at|for|with)",
             "WORKS_AT", "WORKED_AT", object_type="Organization"),
    *_denial(_NOT_NOW + r"(?i:work|working)\s+(?i:at|for)", "WORKS_AT", object_type="Organization"),
    *_denial(_NEVER + r"(?i:lived|been living)\s+in", "LIVES_IN", "LIVED_IN", object_type="Place"),
    *_denial(_NOT_NOW + r"(?i:live|living)\s+in", "LIVES_IN", object_type="Place"),
    *_denial(_NEVER + r"(?i:been to|been in|visited|set foot in|traveled to|travelled to)",
             "VISITED", "LIVES_IN", "LIVED_IN", object_type="Place"),
    *_denial(_NEVER + r"(?i:studied at|been a student at|gone to school at)", "STUDIES_AT", "STUDIED_AT",
             object_type="Organization"),
    *_denial(_NOT_NOW + r"(?i:study|studying)\s+(?i:at)", "STUDIES_AT", object_type="Organization"),
    *_denial(_NEVER + r"(?i:dated|been with|gone out with|been in a relationship with)", "DATING",
             object_type="Person", obj=NAME),
    *_denial(_NOT_NOW + r"(?i:dating|in a relationship with)", "DATING", object_type="Person", obj=NAME),
    *_denial(r"(?:" + _NEVER + r"(?i:married|been married to)|(?i:was never married to|am not married to|"
             r"was not married to))", "MARRIED_TO", object_type="Person", obj=NAME),
]

STATE_RULES: list[Rule] = [
    # where they live
    *_rule(r"<S>\s+<ADV>" + _LIVE + r"\s+in\s+" + _o("o", "<PROPER>"), P("o", "LIVES_IN", "Place")),
    *_rule(r"<S>\s+<ADV>(?i:lived)\s+in\s+" + _o("o", "<PROPER>"), P("o", "LIVES_IN", "Place"), past=True),
    # a move to an organisation is a change of employer ("Judy moved to Microsoft"): MOVED? is decided
    # by the extractor from the name and the context
    *_rule(r"<S>\s+<ADV>" + _MOVE + r"\s+(?:back\s+)?(?:to|into)\s+" + _o("o", "<PROPER>")
           + r"(?:(?:\s+\S+){0,3}?\s+as\s+(?:an?\s+)?" + _o("role", "<ROLE>") + ")?",
           P("o", "MOVED?", "Place"), R("role", "WORKS_AS"), implicit=True),
    *_rule(r"<S>\s+<ADV>" + _BE + r"\s+(?i:based|settled)\s+in\s+" + _o("o", "<PROPER>"),
           P("o", "LIVES_IN", "Place")),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?i:originally\s+)?from\s+" + _o("o", "<PROPER>"),
           P("o", "HOMETOWN", "Place")),
    # work
    *_rule(r"<S>\s+<ADV>" + _WORK + r"\s+as\s+(?:an?\s+)?" + _o("role", "<ROLE>")
           + r"(?:\s+(?:at|for|with)\s+" + _o("o", "<PROPER>") + ")?",
           R("role", "WORKS_AS"), P("o", "WORKS_AT", "Organization")),
    *_rule(r"<S>\s+<ADV>" + _WORK + r"\s+(?:at|for)\s+" + _o("o", "<PROPER>") + r"(?:\s+as\s+(?:an?\s+)?"
           + _o("role", "<ROLE>") + ")?", P("o", "WORKS_AT", "Organization"), R("role", "WORKS_AS")),
    *_rule(r"<S>\s+<ADV>(?i:worked)\s+(?:at|for)\s+" + _o("o", "<PROPER>") + r"(?:\s+as\s+(?:an?\s+)?"
           + _o("role", "<ROLE>") + ")?", P("o", "WORKS_AT", "Organization"), R("role", "WORKS_AS"),
           past=True),
    *_rule(r"<S>\s+<ADV>(?i:worked)\s+as\s+(?:an?\s+)?" + _o("role", "<ROLE>") + r"(?:\s+(?:at|for)\s+"
           + _o("o", "<PROPER>") + ")?", R("role", "WORKS_AS"), P("o", "WORKS_AT", "Organization"),
           past=True),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|have been|has been)\s+(?:(?i:now)\s+)?(?:an?|the)\s+"
           + _o("role", "<ROLE>")
           + r"(?:\s+(?:at|for|of|with)\s+" + _o("o", "<PROPER>") + r")?(?![\w'’])",
           R("role", "WORKS_AS"), P("o", "WORKS_AT", "Organization")),
    # "I'm Head of Design at Canva"
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?:(?i:now)\s+)?(?:(?i:the)\s+)?" + _o("role", _ROLE_OF_NAMED)
           + r"\s+(?:at|for|with)\s+" + _o("o", "<PROPER>"), R("role", "WORKS_AS"),
           P("o", "WORKS_AT", "Organization")),
    # "Working as a barista at Pret these days"
    *_rule(r"(?P<we>(?:^\s*|[,!]\s+))(?:(?i:still|now|currently|been|also)\s+)?(?i:working)\s+as\s+(?:an?\s+)?"
           + _o("role", "<ROLE>") + r"(?:\s+(?:at|for|with)\s+" + _o("o", "<PROPER>") + ")?",
           R("role", "WORKS_AS"), P("o", "WORKS_AT", "Organization"), cue=("working",)),
    # "My role at Spotify is data engineer"
    *_rule(r"\b(?P<we>[Mm]y)\s+(?i:role|job|position|title|job title)\s+(?i:at|with)\s+" + _o("o", "<PROPER>")
           + r"\s+(?i:is)\s+(?:(?i:now)\s+)?(?:an?\s+)?" + _o("role", "<ROLE>"),
           P("o", "WORKS_AT", "Organization"),
           R("role", "WORKS_AS"), cue=("role", "job", "position", "title")),
    *_rule(r"<S>\s+<ADV>(?i:became|become|will become|have become|was promoted to|got promoted to|"
           r"was hired as|got hired as|got a job as|got a new job as|landed a job as|took a job as|"
           r"started a job as|started a new job as|started working as|started as)\s+"
           r"(?:an?\s+|the\s+)?" + _o("role", "<ROLE>")
           + r"(?:\s+(?:at|for|with)\s+" + _o("o", "<PROPER>") + ")?",
           R("role", "WORKS_AS"), P("o", "WORKS_AT", "Organization"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:got|landed|accepted|took|started|start|am starting|will start)\s+"
           r"(?:an?\s+)?(?:(?i:new)\s+)?(?i:job|position|role|internship)\s+(?i:at|with)\s+"
           + _o("o", "<PROPER>") + r"(?:\s+as\s+(?:an?\s+)?" + _o("role", "<ROLE>") + ")?",
           P("o", "WORKS_AT", "Organization"), R("role", "WORKS_AS"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:joined|will join|am joining)\s+" + _o("o", "<PROPER>")
           + r"\s+as\s+(?:an?\s+)?" + _o("role", "<ROLE>"), P("o", "WORKS_AT", "Organization"),
           R("role", "WORKS_AS"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:started at|started working at|started working for|will start at|am starting at|"
           r"starting at|starting work at|"
           r"was hired by|got hired by|got hired at|was hired at)\s+" + _o("o", "<PROPER>")
           + r"(?:\s+as\s+(?:an?\s+)?" + _o("role", "<ROLE>") + ")?", P("o", "WORKS_AT", "Organization"),
           R("role", "WORKS_AS"), implicit=True),
    # employer and role in one clause: "I'm still at Deloitte as a data analyst", "Giulia is with Pirelli
    # as an accountant", "been at Asos as a copywriter", "I am working in Siemens as engineer" (the role
    # after "as" says the place is an employer, even with "in")
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|have been|has been|been|am working|is working|are working|work|works|"
           r"working|have been working|has been working|am employed|is employed|are employed|employed)"
           r"\s+<ADV>"
           r"(?i:at|with|in|for|by)\s+" + _o("o", "<PROPER>")
           + r"(?:\s+(?i:now|currently|still|these days))?,?\s+(?:(?i:working)\s+)?(?i:as)\s+(?:an?\s+)?"
           + _o("role", "<ROLE>"),
           P("o", "WORKS_AT", "Organization"), R("role", "WORKS_AS"), implicit=True),
    # "Still at Fiat, still a designer", "Still with Monzo, as a data analyst now", "Still a teacher, still
    # at Oakwood Primary"
    *_rule(r"(?P<we>(?:^\s*|[,!]\s+))(?i:still)\s+(?i:at|with)\s+" + _o("o", "<PROPER>")
           + r",?\s+(?:(?i:and)\s+)?"
           r"(?:(?i:still)\s+)?(?:(?i:as)\s+)?(?:an?\s+)?" + _o("role", "<ROLE>"),
           P("o", "WORKS_AT", "Organization"),
           R("role", "WORKS_AS"), cue=("still",)),
    *_rule(r"(?P<we>(?:^\s*|[,!]\s+))(?i:still)\s+(?:an?\s+)?" + _o("role", "<ROLE>")
           + r",?\s+(?:(?i:and)\s+)?"
           r"(?i:still)\s+(?i:at|with)\s+" + _o("o", "<PROPER>"), R("role", "WORKS_AS"),
           P("o", "WORKS_AT", "Organization"), cue=("still",)),
    # "I work as nurse in King Hussein Hospital", "I am software developer in Comarch": "in" an
    # organisation only (a nurse in London works in a city)
    *_rule(r"<S>\s+<ADV>(?:" + _WORK + r"\s+as|(?i:am|is|are))\s+(?:an?\s+)?" + _o("role", "<ROLE>")
           + r"\s+(?i:in|at)\s+" + _o("o", "<PROPER>"), R("role", "WORKS_AS"),
           P("o", "IN_ORG?", "Organization")),
    # "I am working in Nokia": an organisation only ("working in London" is a city)
    *_rule(r"<S>\s+<ADV>" + _WORK + r"\s+(?i:in)\s+" + _o("o", "<PROPER>"), P("o", "IN_ORG?", "Organization"),
           implicit=True),
    # "I start my new job at Canva on Monday"
    *_rule(r"<S>\s+<ADV>(?i:start|starts|begin|begins)\s+(?i:my|his|her|their|a)\s+(?:(?i:new)\s+)?"
           r"(?i:job|position|role|internship)\s+(?i:at|with)\s+" + _o("o", "<PROPER>")
           + r"(?:,?\s+(?i:as)\s+(?:an?\s+)?" + _o("role", "<ROLE>") + ")?",
           P("o", "WORKS_AT", "Organization"), R("role", "WORKS_AS"), implicit=True, future=True),
    # starting a job ahead, told in the present: "I start at Monzo next week as a product manager"
    *_rule(r"<S>\s+<ADV>(?i:start|starts|begin|begins|start work|starts work|begin work|begins work|"
           r"start working|starts working|will be starting|will begin|will begin work|will start work)\s+"
           r"(?i:at|with)\s+" + _o("o", "<PROPER>") + r"(?:,?\s+(?i:as)\s+(?:an?\s+)?" + _o("role", "<ROLE>")
           + ")?",
           P("o", "WORKS_AT", "Organization"), R("role", "WORKS_AS"), implicit=True, future=True),
    *_rule(r"<S>\s+<ADV>(?i:start|starts|begin|begins|will start|will begin|am starting|is starting|"
           r"will be starting)\s+(?:(?i:work|working)\s+)?(?i:in)\s+" + _o("o", "<PROPER>")
           + r",?\s+(?i:as)\s+"
           r"(?:an?\s+)?" + _o("role", "<ROLE>"), P("o", "WORKS_AT", "Organization"), R("role", "WORKS_AS"),
           implicit=True, future=True),
    # study
    *_rule(r"<S>\s+<ADV>(?i:study|studies|am studying|is studying|are studying)\s+(?:[a-z]+\s+){0,3}?at\s+"
           + _o("o", "<PROPER>"), P("o", "STUDIES_AT", "Organization")),
    *_rule(r"<S>\s+<ADV>(?i:studied)\s+(?:[a-z]+\s+){0,3}?at\s+" + _o("o", "<PROPER>"),
           P("o", "STUDIES_AT", "Organization"), past=True),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+an?\s+(?:[a-z]+\s+){0,3}?student\s+at\s+" + _o("o", "<PROPER>"),
           P("o", "STUDIES_AT", "Organization")),
    *_rule(r"<S>\s+<ADV>(?i:go|goes|started|start|will start|am starting)\s+"
           r"(?:(?i:college|university|school)\s+)?(?:to|at)\s+"
           + _o("o", r"(?:[Tt]he\s+)?(?:[A-Z][\w.&'-]*\s+)*(?:University|College|School|Academy|Institute)"
                r"(?:\s+of(?:\s+[A-Z][\w.&'-]*)+)?|University(?:\s+of)?(?:\s+[A-Z][\w.&'-]*)+"),
           P("o", "STUDIES_AT", "Organization")),
    # partners and family
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|got|have been|has been)\s+(?i:married)\s+to\s+" + _o("o", NAME),
           P("o", "MARRIED_TO", "Person")),
    *_rule(r"<S>\s+<ADV>(?i:married)\s+" + _o("o", NAME), P("o", "MARRIED_TO", "Person")),
    *_rule(r"(?P<o>" + NAME + r")\s+and\s+I\s+<ADV>(?i:got married|married|are married|have been married)",
           P("o", "MARRIED_TO", "Person")),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|got)\s+(?i:engaged)\s+to\s+" + _o("o", NAME),
           P("o", "ENGAGED_TO", "Person")),
    *_rule(r"(?P<o>" + NAME + r")\s+and\s+I\s+<ADV>(?i:got engaged|are engaged)",
           P("o", "ENGAGED_TO", "Person")),
    *_rule(r"<S>\s+<ADV>(?i:am dating|is dating|are dating|have been dating|has been dating|started dating|"
           r"am seeing|is seeing|have been seeing|am in a relationship with|is in a relationship with)\s+"
           + _o("o", NAME), P("o", "DATING", "Person")),
    *_rule(r"(?P<o>" + NAME
           + r")\s+and\s+I\s+<ADV>(?i:are dating|have been dating|started dating|are together)",
           P("o", "DATING", "Person")),
    # pets (named or not) and possessions
    *_rule(r"<S>\s+<ADV>(?i:have|has|got|adopted|bought|rescued|have got|has got|just got|own|owns)\s+"
           r"(?:(?i:a|an|another|this|that|two|three|new|cute|little|sweet|adorable|beautiful|tiny|rescue|baby|black|white|brown|old|young)\s+)*"
           + _o("pet", f"(?i:{_alt(PETS)})(?:s|es)?")
           + r"(?:\s+(?i:named|called)\s+" + _o("o", NAME) + r")?\b"
           + r"(?!.*\b(?i:for you|for him|for her|for them|for my)\b)",  # a gift is not a pet of one's own
           ("o", "HAS_PET", "petname", "Animal"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:own|owns|bought|purchased|got a new|have a new|has a new)\s+<DET>?"
           + _o("o", "<NP>"),
           N("o", "OWNS", "Thing"), implicit=True),
    # likes, health
    *_rule(r"<S>\s+<ADV>(?:(?i:love|loves|like|likes|enjoy|enjoys|adore|adores)|"
           r"(?i:am|is|are)\s+<ADV>(?i:into|a big fan of|a huge fan of|a fan of|passionate about|"
           r"obsessed with))\s+"
           + _o("o", "<LIST>"), N("o", "LIKES", "Thing"), opens_clause=True),
    *_rule(r"\b[Mm]y\s+(?:all-time\s+)?favou?rite\s+(?:[a-z]+\s+){1,2}is\s+" + _o("o", "<NP>"),
           N("o", "LIKES", "Thing"), cue=("favorite", "favourite")),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?:(?i:very|severely|deathly|mildly|super)\s+)?(?i:allergic)\s+to\s+"
           + _o("o", "<LIST>"), N("o", "ALLERGIC_TO", "Substance")),
    *_rule(r"<S>\s+<ADV>(?i:have|has)\s+(?:an?\s+)?" + _o("o", r"[\w-]+(?:\s+[\w-]+)?")
           + r"\s+(?i:allergy|allergies)",
           N("o", "ALLERGIC_TO", "Substance")),
    *_rule(r"<S>\s+<ADV>(?i:was|were|got|have been|has been|am being)\s+(?i:diagnosed)\s+with\s+"
           + _o("o", "<NP>"),
           ("o", "HAS_CONDITION", "condition", "Condition")),
    *_rule(r"<S>\s+<ADV>(?i:suffer|suffers|am suffering|have|has|live with|lives with)\s+(?:from\s+)?"
           + _o("o", rf"(?:type [12] )?(?i:{_alt(CONDITIONS)})(?:\s+disease)?"),
           ("o", "HAS_CONDITION", "condition", "Condition")),
    # plans
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?i:planning|going|about)\s+to\s+"
           r"(?i:visit|see|go to|travel to|fly to|head to)\s+"
           + _o("o", "<PROPER>"), P("o", "PLANS_TO_VISIT", "Place"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:plan to|plans to|will|am planning to|is planning to|are planning to)\s+"
           r"(?i:visit|go to|travel to|fly to|head to)\s+" + _o("o", "<PROPER>"),
           P("o", "PLANS_TO_VISIT", "Place")),
    *_rule(r"<S>\s+<ADV>(?i:am planning a trip|is planning a trip|are planning a trip|booked a trip|"
           r"booked a flight|booked flights|booked tickets)\s+to\s+" + _o("o", "<PROPER>"),
           P("o", "PLANS_TO_VISIT", "Place")),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?i:going|flying|traveling|travelling|heading|driving)\s+to\s+"
           + _o("o", "<PROPER>"), P("o", "PLANS_TO_VISIT", "Place")),
    # "going to" + a verb is a plan only when dated ("I'm gonna keep going" is no plan)
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?i:going)\s+to\s+"
           + _o("o", r"(?!visit\s+[A-Z]|see\b|go to\b|be\b)[a-z]+(?:\s+[\w'’-]+){1,11}"),
           ("o", "PLANS", "vp", "Activity"), implicit=True, needs_time=True),
    *_rule(r"<S>\s+<ADV>(?i:plan|plans|am planning|is planning|are planning|planning)\s+to\s+"
           + _o("o", r"(?!visit\b|be\b)[a-z]+(?:\s+[\w'’-]+){1,11}"), ("o", "PLANS", "vp", "Activity"),
           implicit=True),
    # trips and events
    *_rule(r"<S>\s+<ADV>(?i:visited|toured|explored)\s+" + _o("o", "<PROPER>"), P("o", "VISITED", "Place"),
           implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:visited|toured)\s+<DET>" + _o("o", "<NP>"), ("o", "VISITED", "place_np", "Place"),
           implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:went|traveled|travelled|flew|drove|went back|"
           r"took (?:a|an|our|my) (?:[a-z]+ ){0,2}trip|went on (?:a|an) (?:[a-z]+ ){0,2}trip|"
           r"got back from (?:a|my|our) (?:[a-z]+ ){0,2}trip)\s+to\s+"
           + _o("o", "<PROPER>"), P("o", "VISITED", "Place"), implicit=True),
    # "I snapped that pic on my trip to the Smoky Mountains": the trip was taken (a coming one is not)
    *_rule(r"(?<![\w'])(?i:on|during|from)\s+(?i:my|our)\s+(?!(?i:next|upcoming|future|planned|dream)\b)"
           r"(?:[a-z]+\s+){0,2}(?i:trip|vacation|holiday|visit|journey)\s+to\s+" + _o("o", "<PROPER>"),
           P("o", "VISITED", "Place"), cue=("trip", "vacation", "holiday", "visit", "journey")),
    *_rule(r"<S>\s+<ADV>(?i:got back from|came back from|returned from|have been to|has been to|was in|"
           r"were in)\s+" + _o("o", "<PROPER>"), P("o", "VISITED", "Place"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:went to|attended|go to|was at|were at)\s+<DET>?" + _o("o", "<NP>"),
           ("o", "ATTENDED", "event", "Event"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:attended)\s+" + _o("o", "<PROPER>"), P("o", "ATTENDED", "Event"), implicit=True),
    *_rule(r"<S>\s+<ADV>" + _o("o", r"(?i:painted|drew|made|baked|cooked|wrote|read|finished|won|started|"
           r"began|signed up for|joined|hosted|organized|organised|volunteered|donated|graduated|passed|"
           r"performed|played|built|launched|opened|published|completed|hiked|climbed|ran|swam|biked|camped|celebrated|"
           r"dyed|sang|composed|recorded|released|planted|knitted|designed|created|printed|taught|mentored|"
           r"tried|practiced|practised|competed|raced|danced|took|went)(?:\s+[\w+'’-]+){0,9}"),
           ("o", "DID", "activity", "Activity"), needs_time=True, fallback=True, implicit=True),
]

# --- pastimes, learning, diet, things, plans said in the present ----------------------------------

_GAME = _alt(GAME_PHRASES + GAMES + INSTRUMENTS)
_GAME_OBJ = (rf"(?:(?i:the|some|a\s+little|a\s+bit\s+of)\s+)?(?:(?i:{_alt(INSTRUMENT_ADJECTIVES)})\s+)?"
             rf"(?P<o>(?i:{_GAME}))(?![\w-])")
_HOBBY = _alt(HOBBY_PHRASES + HOBBY_GERUNDS)
_SKILL = rf"(?:{_alt(LANGUAGES)}|(?i:{_alt(SKILL_PHRASES + SKILLS)}))"
_HOBBY_VERB = _alt(HOBBY_VERBS)
_POSSESSION = _alt(POSSESSION_PHRASES + POSSESSIONS)
_DIET = _alt(DIETS)
_PLAY = (r"(?i:play|plays|am playing|is playing|are playing|have been playing|has been playing|have played|"
         r"has played|started playing|start playing|began playing|have started playing|has started playing|"
         r"took up playing|picked up playing|took up|picked up)")
_LEARN = (r"(?i:am learning|is learning|are learning|have been learning|been learning|has been learning|"
          r"started learning|began learning|have started learning|has started learning|am studying|"
          r"is studying|are studying|have been studying|has been studying|started studying|"
          r"am teaching myself|is teaching (?:himself|herself)|have been teaching myself)")
_NOT_AT_PLACE = r"(?![^,.;!?]*\bat\s+(?:[Tt]he\s+)?[A-Z])"  # "studying law at Harvard" is STUDIES_AT
_CLASS = r"(?i:class|classes|lessons|lesson|course|courses|workshop)"
_HABIT = (r"(?=\s+(?i:every|most|on|a lot|often|regularly|twice|once|several|whenever|each|at least|almost|"
          r"daily|weekly))")


def _plain(group: str, relation: str, object_type: str, kind: str = "plain") -> tuple[str, str, str, str]:
    return (group, relation, kind, object_type)


PASTIME_RULES: list[Rule] = [
    # playing sports, games and instruments
    *_rule(r"<S>\s+<ADV>(?:(?i:quit|stopped|gave up on|gave up)\s+(?:(?i:playing)\s+)?"
           r"|(?i:no longer)\s+(?i:playing|play|plays)\s+"
           r"|(?i:do not|does not)\s+(?i:play)\s+(?=(?:\S+\s+){0,3}(?i:anymore|any more)\b))" + _GAME_OBJ,
           _plain("o", "PLAYS", "Activity"), kind="ending", positive=False, implicit=True),
    *_rule(r"<S>\s+<ADV>" + _PLAY + r"\s+" + _GAME_OBJ, _plain("o", "PLAYS", "Activity"), implicit=True,
           opens_clause=True),
    # hobbies taken up, practised, or named as such
    *_rule(r"<S>\s+<ADV>(?i:took up|take up|have taken up|has taken up|started|have started|has started|"
           r"got into|have gotten into|got back into|picked up)\s+" + _o("o", f"(?i:{_HOBBY})") + r"(?![\w-])"
           + r"(?=\s*(?:[,.!;]|$)|\s+(?i:again|recently|lately|too|as well|and|in|on|at|with|every|this|last|"
             r"to|a few|about|when|because|since|while|for)\b)",
           _plain("o", "HAS_HOBBY", "Activity"), implicit=True, opens_clause=True),
    *_rule(r"<S>\s+<ADV>(?i:go|goes)\s+" + _o("o", f"(?i:{_HOBBY})") + r"(?![\w-])" + _HABIT,
           _plain("o", "HAS_HOBBY", "Activity"), opens_clause=True),
    *_rule(r"<S>\s+<ADV>(?i:practice|practise|practices|practises|do|does|have been doing|has been doing|"
           r"have been practicing|have been practising|am doing|started doing)\s+"
           + _o("o", f"(?i:{_alt(PRACTICES)})") + r"(?![\w-])", _plain("o", "HAS_HOBBY", "Activity"),
           opens_clause=True),
    *_rule(r"\b(?:[Mm]y|[Oo]ur)\s+(?:(?i:main|favou?rite|new|biggest)\s+)?"
           r"(?i:hobby|hobbies|pastime|pastimes|passion)\s+"
           r"(?i:is|are|include|includes)\s+" + _o("o", "<LIST>"), N("o", "HAS_HOBBY", "Activity"),
           cue=("hobb", "pastime", "passion")),
    *_rule(r"<S>\s+<ADV>(?i:love|loves|like|likes|enjoy|enjoys|adore|adores)\s+to\s+"
           + _o("o", f"(?i:{_HOBBY_VERB})") + r"(?![\w-])(?!\s+(?i:it|that|this|them|you|with you|there)\b)",
           _plain("o", "LIKES", "Activity", "hobbyverb"), opens_clause=True),
    # learning and studying
    *_rule(r"<S>\s+<ADV>" + _LEARN + r"\s+(?:(?i:how)\s+)?to\s+(?i:play)\s+" + _GAME_OBJ,
           _plain("o", "LEARNING", "Skill"), implicit=True),
    *_rule(r"<S>\s+<ADV>" + _LEARN + r"\s+(?:(?i:how)\s+)?to\s+" + _o("o", f"(?i:{_HOBBY_VERB})")
           + r"(?![\w-])",
           _plain("o", "LEARNING", "Skill", "hobbyverb"), implicit=True),
    *_rule(r"<S>\s+<ADV>" + _LEARN + r"\s+(?:(?i:the|some|a\s+bit\s+of|basic|more)\s+)?" + _o("o", _SKILL)
           + r"(?![\w-])" + _NOT_AT_PLACE, _plain("o", "LEARNING", "Skill"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|have been|has been|started|start|began|have started)\s+(?i:taking)\s+"
           r"(?:(?i:an?|some|my|the)\s+)?"
           r"(?:(?i:online|private|evening|weekly|beginner|beginners|night|free|new)\s+)*"
           + _o("o", _SKILL) + r"\s+" + _CLASS + r"\b", _plain("o", "LEARNING", "Skill"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|have been|has been|started|start|began|have started)\s+(?i:taking)\s+"
           r"(?:(?i:an?|some|my)\s+)?(?:(?i:online|private|evening|weekly|night|free|new)\s+)*" + _CLASS
           + r"\s+(?i:in|on)\s+" + _o("o", _SKILL) + r"(?![\w-])", _plain("o", "LEARNING", "Skill"),
           implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:signed up for|enrolled in|registered for)\s+" + _o("o", _SKILL)
           + r"\s+(?i:lessons|classes)\b", _plain("o", "LEARNING", "Skill"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?i:studying|working)\s+(?i:for|toward|towards)\s+"
           r"(?i:a|an|my|his|her|their)\s+"
           + _o("o", _SKILL) + r"\s+(?i:degree|diploma|certificate|license|licence)\b",
           _plain("o", "LEARNING", "Skill"), implicit=True),
    # diet and intolerances
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|have been|has been|went|became|become|turned|have gone|has gone|eat|"
           r"eats)\s+(?:(?i:a|an|fully|strictly|strict|mostly|completely|totally)\s+)?"
           + _o("o", f"(?i:{_DIET})")
           + r"(?![\w-])(?!\s+(?i:food|options|restaurant|restaurants|recipe|recipes|place|meal|meals|dish|"
             r"dishes|cafe|bakery|menu|version|alternative|friendly|diet for)\b)",
           _plain("o", "DIET", "Diet", "diet")),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|have been|has been|went|started)\s+on\s+(?:an?\s+)?"
           + _o("o", r"(?i:keto|paleo|vegan|vegetarian|gluten-free|low-carb|low carb|mediterranean|"
                     r"plant-based)")
           + r"\s+(?i:diet)\b", _plain("o", "DIET", "Diet", "diet")),
    *_rule(r"<S>\s+<ADV>(?i:have|has)\s+(?:an?\s+)?" + _o("o", r"(?i:gluten|lactose|dairy)")
           + r"\s+(?i:intolerance|sensitivity)\b", _plain("o", "DIET", "Diet", "intolerance")),
    *_rule(r"<S>\s+<ADV>(?i:do not|does not|no longer|never)\s+eat\s+" + _o("o", r"(?i:meat)")
           + r"(?=\s*(?:[,.!;]|$|\s+(?i:anymore|any more|at all|or fish)\b))",
           _plain("o", "DIET", "Diet", "nomeat"), positive=False),
    # things owned, named from a closed list ("I have a car", never "I have a question")
    *_rule(r"<S>\s+<ADV>(?i:have|has|have got|has got)\s+(?:(?i:a|an|two|three|my own|our own)\s+)"
           + _o("o", rf"(?:[a-z][a-z-]*\s+){{0,2}}?(?i:{_POSSESSION})(?:s|es)?"
                     rf"|(?:[a-z]+\s+)?(?:{_alt(CAR_BRANDS)})")
           + r"(?=\s*(?:[,.!;]|$)|\s+(?i:at|in|on|with|that|which|and|but|from|now|too|back|so|there|"
             r"here)\b)",
           N("o", "OWNS", "Thing")),
    # where they are from
    *_rule(r"<S>\s+<ADV>(?i:grew up|was raised|were raised)\s+in\s+" + _o("o", "<PROPER>"),
           P("o", "HOMETOWN", "Place")),
    *_rule(r"<S>\s+<ADV>(?i:was|were)\s+(?i:born)\s+in\s+" + _o("o", "<PROPER>"), P("o", "BORN_IN", "Place")),
    # plans said in the present: "we're going camping", "I'm running a marathon next month"
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+" + _NOW + r"(?i:going)\s+" + _o("o", f"(?i:{_HOBBY})")
           + r"(?![\w-])(?!\s+to\b)", _plain("o", "PLANS", "Activity", "go_ing"), future=True),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+" + _NOW + r"(?i:going|heading)\s+to\s+"
           + _o("o", r"(?i:an?|the|my|our)\s+" + NP), ("o", "PLANS", "go_to", "Activity"), needs_time=True,
           future=True),
    # "on Sunday I'm going on a picnic date with my girlfriend", "I have plans for a hike next month"
    *_rule(r"<S>\s+<ADV>(?:(?i:am|is|are)\s+" + _NOW + r"(?i:going)\s+(?i:on)|(?i:have|has)\s+(?i:plans)\s+"
           r"(?i:for))\s+" + _o("o", r"(?i:an?)\s+" + NP), ("o", "PLANS", "go_on", "Activity"),
           needs_time=True, future=True),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+" + _NOW + r"(?i:visiting)\s+" + _o("o", "<PROPER>"),
           P("o", "PLANS_TO_VISIT", "Place"), needs_time=True, future=True),
    # "I've got a gaming tournament next month", "Next week I have a community meeting coming up"
    *_rule(r"<S>\s+<ADV>(?i:have|has|have got|has got)\s+(?i:an?)\s+" + _o("o", NP)
           + r"(?=\s*(?:[,.!;]|$)|\s+(?i:coming up|and|with|at|in|on|for)\b)",
           ("o", "PLANS", "attend", "Activity"), needs_time=True, future=True),
    # "Next month, I'm off to Ireland for a semester"
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+" + _NOW + r"(?i:off)\s+to\s+" + _o("o", "<PROPER>"),
           P("o", "PLANS_TO_VISIT", "Place"), needs_time=True, future=True),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+" + _NOW
           + _o("o", rf"(?i:{_alt(PLAN_VERBS)})(?!\s+[A-Z])(?:\s+[\w'’-]+){{1,7}}"),
           ("o", "PLANS", "plan_ing", "Activity"), needs_time=True, future=True),
]

# Corrections whose relation comes from an earlier statement.
CORRECTION_RULES = [
    re.compile(r"(?i:it|that)\s+(?i:was|is)\s+(?:(?i:actually)\s+)?(?P<new>" + PROPER
               + r"),?\s+(?i:not)\s+(?P<old>" + PROPER + ")"),
    re.compile(r"\bI\s+(?i:meant|mean)\s+(?P<new>" + PROPER + r")(?:,?\s+(?i:not)\s+(?P<old>" + PROPER
               + "))?"),
    re.compile(r"(?i:not)\s+(?P<old>" + PROPER + r"),?\s+(?i:but\s+)?(?P<new>" + PROPER + r")\s*$"),
]
CORRECTION_MARKER = re.compile(
    r"\b(?i:actually|sorry|oops|correction|i meant|my mistake|my bad|wait|rather)\b")
NOT_OBJECT = re.compile(r",?\s+(?:(?i:and\s+)?not\s+(?:in\s+|at\s+|to\s+)?)" + PROPER)
# Negations that deny nothing: eagerness ("I cannot wait to see it"), delight ("could not be happier").
NOT_DENIED = re.compile(r"\b(?i:cannot wait|can not wait|could not wait|could not be happier|"
                        r"cannot be happier|could not be prouder|not only)\b")
NOT_AFTER = re.compile(r"^,?\s+(?:(?i:and\s+)?not\s+(?:in\s+|at\s+|to\s+)?)(?P<old>" + PROPER + ")")

# Kinship mentions anywhere in a clause: "my sister Anna", "Anna is my sister", "a son named Leo".
KIN_MENTION = re.compile(
    rf"\b(?:[Mm]y|[Oo]ur)\s+(?:{KIN_ADJ}\s+)?(?P<kin>(?i:{KIN_RE}))(?:\s+|,\s+(?!{NAME}\s+and\s+I\b))"
    rf"(?P<name>{NAME})(?![\w])")  # "my girlfriend, Toby and I": a list of three, not her name
# "Oscar, my guinea pig", "Max, our new puppy": a name told with its kin (one of the family or a pet;
# "Mel, my friend" is how one speaks to a friend, not a fact)
KIN_APPOSITION = re.compile(
    rf"(?<![\w'’])(?P<name>{NAME}),\s+(?:[Mm]y|[Oo]ur)\s+(?:{KIN_ADJ}\s+)?(?P<kin>(?i:{KIN_RE}))\b(?!['’-])")
KIN_NAME_IS = re.compile(
    rf"\b(?:[Mm]y|[Oo]ur)\s+(?:{KIN_ADJ}\s+)?(?P<kin>(?i:{KIN_RE}))['’]s\s+name\s+is\s+"
    rf"(?P<name>{NAME})(?![\w])")
KIN_COUNTED = re.compile(
    rf"\b(?:I|[Ww]e)\s+(?:have|have got|had)\s+(?:two|three|four|five|2|3|4|5)\s+"
    rf"(?P<kin>kids|children|sons|daughters|sisters|brothers|siblings|dogs|cats|puppies|kittens)[,:]?\s+(?:(?i:named|called)\s+)?"
    rf"(?P<names>{NAME}(?:,\s+{NAME})*,?\s+and\s+{NAME})(?![\w])")
# "My brother was born in Kyoto": a kin word as a clause's subject, with no name after it.
KIN_ALONE = re.compile(
    rf"\b(?:[Mm]y|[Oo]ur)\s+(?:{KIN_ADJ}\s+)?(?P<kin>(?i:{KIN_RE}))\b(?!['’]s\b)(?!,?\s+{NAME})(?=\s+[a-z])")
KIN_IS = re.compile(rf"(?<![\w'])(?P<name>{NAME})\s+is\s+my\s+(?:{KIN_ADJ}\s+)?(?P<kin>{KIN_RE})\b(?!['’])")
# "My cofounder is Rui", "My boss is Tom": the person a role in one's life names (people one may have
# several of or no name for; a relative is "my sister Anna" or "Anna is my sister").
KIN_ROLE_IS = re.compile(
    rf"\b(?:[Mm]y|[Oo]ur)\s+(?:(?:new|current|old|former)\s+)?(?P<kin>cofounder|co-founder|boss|best friend|"
    rf"roommate|mentor)\s+is\s+(?P<name>{NAME})(?![\w'’])(?!\s+(?:and|&)\s)")
KIN_NAMED = re.compile(
    rf"\bI\s+(?:have|had)\s+(?:an?|one)\s+(?:{KIN_ADJ}\s+)?(?P<kin>{KIN_RE})\s+(?:named|called)\s+"
    rf"(?P<name>{NAME})")
PET_NAME = re.compile(
    rf"^(?:(?:Her|His|Its|Their)\s+name\s+is|(?:She|He|It)\s+is\s+called"
    rf"|(?:An?|The)\s+(?:[a-z]+\s+)?(?i:{_alt(PETS)})\s+(?:called|named))\s+(?P<name>{NAME})")
PET_NAMED_AFTER = re.compile(rf",\s+(?:her|his|its|their)\s+name\s+is\s+(?P<name>{NAME})(?![\w'])")
# "I'm seeing someone. His name is Sam": the partner named in the next sentence.
SEEING_SOMEONE = re.compile(r"\bI\s+(?:am|have been)\s+(?:seeing|dating)\s+someone\b")
PARTNER_NAME = re.compile(rf"^(?:His|Her|Their)\s+name\s+is\s+(?P<name>{NAME})")
# A person a message introduces as a clause's subject ("Sam is a cyclist, he works as ...").
MENTION = re.compile(
    rf"(?:^|(?<=[.!?,;]\s))(?P<name>{NAME})(?:['’]s\s|\s+(?:is|was|has|works|lives|got|moved|proposed)\b)")
# Two people a message introduces together ("Leo and Sam are fine"): neither is "he" alone.
PAIR_MENTION = re.compile(
    rf"(?:^|(?<=[.!?,;]\s))(?P<a>{NAME})\s+and\s+(?P<b>{NAME})\s+(?:are|were|have|had|got|moved|live)\b")

HYPOTHETICAL = re.compile(
    r"\b(?i:if|unless|wish|wished|would|could(?!\s+not\b)|should|might|may|maybe|perhaps|probably|possibly|hopefully|"
    r"hope|hoping|suppose|imagine|whether|thinking about|thinking of|considering|want to|wants to|wanted to|"
    r"would like|dream of|dreaming of|someday|some day|one day|pretend|supposed to|in case|as if|"
    r"i think|i guess|not sure|kind of want|(?:love|loves|hate|hates|like|likes|adore)\s+it\s+when)\b"
)
NEGATION = re.compile(r"\b(?i:not|never|no longer|nobody|neither|nor|cannot)\b")
_QUESTION_START = re.compile(
    r"^(?i:do|does|did|are|is|was|were|have|has|can|could|would|will|where|what|when|who|why|how|which)\b.*\byou\b"
)
_CONTRACTIONS = [
    (r"\b([Ii])['’]m\b", r"\1 am"), (r"\b(\w+)['’]ve\b", r"\1 have"), (r"\b(\w+)['’]re\b", r"\1 are"),
    (r"\b(\w+)['’]ll\b", r"\1 will"), (r"\b(\w+)['’]d\b", r"\1 would"),
    (r"\b([Cc])an['’]t\b", r"\1annot"), (r"\b([Ww])on['’]t\b", r"\1ill not"), (r"\b(\w+)n['’]t\b", r"\1 not"),
    (r"\b([Ii]t|[Tt]hat|[Tt]here|[Ww]hat|[Hh]ere|[Hh]e|[Ss]he|[Ww]ho|[Nn]ame)['’]s\b", r"\1 is"),
    (r"\b([Gg])onna\b", r"\1oing to"), (r"\b([Ww])anna\b", r"\1ant to"), (r"\b([Gg])otta\b", r"\1ot to"),
    # texting without apostrophes or capitals: "im at Boots", "i live in Leeds", "we r moving"
    (r"(?<![\w'’])i(?![\w'’])", "I"), (r"\b[Ii]m\b", "I am"), (r"\b[Ii]ve\b", "I have"),
    (r"\b([Dd]o|[Dd]oes|[Dd]id|[Ii]s|[Ww]as|[Aa]re|[Hh]ave|[Hh]as)nt\b", r"\1 not"),
    (r"\b([Dd])ont\b", r"\1o not"),
    (r"\b([Cc])ant\b", r"\1annot"), (r"\b([Tt])hats\b", r"\1hat is"),
    (r"\b([Ww]e|[Tt]hey|[Yy]ou)\s+r\b", r"\1 are"),
]
_SENTENCE_END = re.compile(r"(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bDr\.)(?<!\bSt\.)"
                           r"(?<![Ee]\.g\.)(?<![Ii]\.e\.)"
                           r"(?<=[.!?])\s+|\n+")
_CLAUSE_BREAK = re.compile(
    r"\s+[–—-]\s+|;\s*|:\s+|,?\s+\b(?:but|because|although|though|whereas)\b\s+|,\s+so\s+"
    r"|,\s+(?=(?:just\s+)?in\s+case\b)"  # "..., just in case I end up in Europe" hedges only itself
    # ", if that matters" closing a sentence is an aside, not a condition on it
    r"|,\s+(?=(?i:if\s+(?:that|this|it)\s+(?:matters|helps|is\s+relevant)|if\s+relevant)\b)")
ADVERB_TAIL = re.compile(
    r"\s+(?:too|again|anymore|any\s+more|a\s+lot|so\s+much|very\s+much|as\s+well|lately|together|"
    r"these\s+days|right\s+now|now|recently|nowadays)\s*[.!]*$"
)
PREPOSITION_TAIL = re.compile(r"\s+(?:with|for|to|from|at|in|on|about|by|like|than|of)\s+\S")
OBJECT_END = re.compile(
    r"\s+(?:and|but|because|since|when|while|so|which|who|where|that|as|with|to|for|from|after|before|"
    r"until|if|at|in|on|it|I|we|and\s+it|too|again|anymore|any\s+more|a\s+lot|so\s+much|very\s+much|"
    r"as\s+well|lately|together|these\s+days|right\s+now|now)\b.*$"
)


# "I left Globex and joined Initech as ...": a second verb of a change of job or home, whose subject
# is the first clause's (the clause is cut before it and the subject said again).
COMPOUND = re.compile(
    r",?\s+and\s+(?:then\s+|now\s+|later\s+|soon\s+)?(?=(?i:joined|started|moved|became|took|switched|"
    r"got promoted|was promoted|got a job|landed|accepted|watched|did|visited|went|saw|finished|tried|"
    r"adopted|attended)\b)")
LEADING_SUBJECT = re.compile(
    rf"^(?P<time>(?:[A-Z][a-z]+\s+(?:year|month|week|spring|summer|autumn|fall|winter)|In\s+\w+(?:\s+\d{{4}})?)"
    rf",?\s+)?(?P<subj>I|[Ww]e|{NAME})\s+")


BORN_ON = re.compile(SUBJ + r"\s+(?i:was|were)\s+(?i:born)\s+$")  # "Iris was born" + "on 2 May"


_EXPANSIONS = [(re.compile(pattern), repl) for pattern, repl in _CONTRACTIONS]


def expand(text: str) -> str:
    text = text.replace("’", "'")
    for pattern, repl in _EXPANSIONS:
        text = pattern.sub(repl, text)
    return text


# Rules run on bounded pieces: every pattern then costs a constant per piece, so extraction is linear
# in the message (a long run-on text without punctuation is cut at word boundaries).
MAX_CLAUSE_CHARS = 300


def bounded_clauses(sentence: str) -> Iterator[str]:
    for clause in _CLAUSE_BREAK.split(sentence):
        clause = clause.strip()
        while len(clause) > MAX_CLAUSE_CHARS:
            cut = clause.rfind(",", 0, MAX_CLAUSE_CHARS)
            if cut < MAX_CLAUSE_CHARS // 3:
                cut = clause.rfind(" ", 0, MAX_CLAUSE_CHARS)
            if cut <= 0:
                cut = MAX_CLAUSE_CHARS
            yield clause[:cut].strip(" ,")
            clause = clause[cut:].strip(" ,")
        if clause:
            yield clause


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


# A question typed without its mark: "is my parcel delivered", "did the office move".
_ASKED = re.compile(r"^(?i:is|are|was|were|has|have|had|did|does|do|can|could|will|would|should)\s+"
                    r"(?i:my|your|our|his|her|their|the|this|that|it|he|she|they|we|I|you|order|ticket)\b")


def is_question(sentence: str) -> bool:
    text = sentence.strip()
    return text.endswith("?") or bool(_QUESTION_START.match(text)) or bool(_ASKED.match(text))


_DASH = re.compile(r"\s+[–—-]\s+")
_ASKING = re.compile(
    r"^(?i:do|does|did|are|is|was|were|have|has|had|can|could|would|will|should|shall|may|might|where|what|"
    r"when|who|whom|whose|why|how|which|any|anything|anyone|so|or|right|huh|eh|ever|want|wanna|guess)\b")


# ", and " before a question: "I drive a 2015 Honda Civic, and what's the cleanest way to ...?"
_AND_ASKING = re.compile(r",\s+(?i:and|but|so)\s+(?=" + _ASKING.pattern.removeprefix("^") + ")")


def told_before_question(sentence: str) -> str:
    """The statement a question is tacked onto after a dash ("I finished another pottery project -
    want to see a pic?" states the project) or a comma and "and" ("My car is a Civic, and how do I
    ...?"); empty when the sentence is a question throughout."""
    parts = _DASH.split(sentence)
    if len(parts) < 2:
        parts = _AND_ASKING.split(sentence, maxsplit=1)
    if len(parts) < 2:
        return ""
    told = parts[0].strip()
    if is_question(told) or _ASKING.match(told) or told.endswith(("?", ",")):
        return ""
    return told


# A frame that announces news ("wanted to let you know", "so excited to tell you"): what follows it is
# told as the speaker's own statement, not wished for ("wanted to" reads as a hypothetical otherwise).
TELLING_FRAME = re.compile(
    r"(?:^|(?<=[,!.;:–—-]\s))\s*"
    r"(?:(?i:i)\s+(?:(?i:just|really|have|had|am|was|got)\s+)*(?:(?i:so|super|really|very)\s+)?)?"
    r"(?:(?i:just)\s+)?(?i:wanted|want|have|had|got|excited|happy|glad|thrilled|stoked|pumped)\s+(?i:to)\s+"
    r"(?:(?i:tell|let)\s+(?i:you|ya)(?:\s+(?i:know|all))?|(?i:share|say)(?:\s+(?i:with you))?)"
    r"(?:\s+(?i:that))?[,:]?\s+(?=(?i:i|we|my|our)\b)")


# The speaker and company opening a clause ("my kids and I just finished a painting"): the speaker did
# it, whoever came along. (A named companion is left to the rules that name them: "Tom and I got married".)
WITH_COMPANY = re.compile(r"(?:^|(?<=[,.!;:–—-]\s))(?:[Mm]y\s+[a-z]+\s+and\s+I|[Mm]e\s+and\s+my\s+[a-z]+)\b")


def unframed(sentence: str) -> list[str]:
    """The sentence cut at news frames, each frame left out: what came before it ("Haven't talked in a
    few days") is a clause of its own, so its negation does not reach the news."""
    return [part for part in TELLING_FRAME.split(sentence) if part.strip()]


LIST_SPLIT = re.compile(r",\s+(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+")
WORD_SPLIT = re.compile(r"\s+and\s+|\s+or\s+")


def starts_clause(before: str) -> bool:
    """Whether a subject at this point opens a clause (and is not inside "the book I read")."""
    before = before.rstrip()
    if not before or before[-1] in ",.!;:-–—":
        return True
    return before.split()[-1].lower() in CLAUSE_OPENERS
# Things done that are worth keeping even without a time phrase: a clear, finished event with an
# object ("joined a travel club", "went on a road trip"), never "took a bit" or "went out".
UNDATED_DID = re.compile(
    r"^(?:joined|adopted|volunteered\b|graduated\b|won|launched|opened|organized|organised|hosted|"
    r"competed in|signed up for|enrolled in|started (?:a|an|their)|finished (?:a|an|the|their)|painted|"
    r"went (?:camping|hiking|fishing|skiing|surfing|kayaking|volunteering|snorkeling|backpacking)\b|"
    r"went on (?:a|an) (?:[\w-]+ ){0,2}(?:trip|hike|tour|ride|vacation|retreat|cruise|road trip)\b|"
    r"took (?:a|an) (?:[\w-]+ ){0,2}(?:class|course|trip|lesson|lessons|workshop)\b|"
    r"ran (?:a|the) (?:[\w-]+ ){0,2}(?:marathon|race|5k|10k)\b)"
    r"(?!.*\b(?:in hopes|hoping|the)$)"
)
# Markers that a sentence is a joke or sarcasm: nothing in the message is taken at face value.
SARCASM = re.compile(
    r"(?:/s\b|\byeah,? right\b|\bjust kidding\b|\bi am kidding\b|\bkidding\b|\bjk\b|\bnot!|\blol jk\b"
    r"|\bsarcasm\b)", re.IGNORECASE)
# Markers that the speaker passes on what others say or believe, not what they know.
HEARSAY = re.compile(
    r"\b(?:apparently|supposedly|allegedly|reportedly|rumou?r has it|according to|word is|word has it|"
    r"people say|they say|so I hear|I hear that)\b", re.IGNORECASE)
PASTIME_DETAIL = re.compile(
    rf"^(?P<p>(?i:{_HOBBY}))\s+(?:in|on|at|with|around|along|through|by|near|every|during)\s+.*$")


# --- issue 37: changes of role, life events, relations between people, organisations and things ---

# A role said with "of" ("head of sales", "director of engineering"): ROLE needs a job word at its end.
_ROLE_OF = (r"(?i:head|director|vice president|vp|chief|manager|lead|dean|chair)\s+of\s+"
            r"(?!(?i:the|a|an|my|our|at|for|in|with|and)\b)[a-z]+(?:\s+(?!(?i:at|for|in|with|and|since)\b)[a-z]+)?")
_ANY_ROLE = rf"(?:{_ROLE_OF}|{ROLE})"
# Groups one is a member of ("joined the choir", "left the book club").
_GROUP = (r"(?i:choir|club|band|team|orchestra|union|league|church|committee|board|society|association|"
          r"group|guild|chorus|ensemble|troupe|council|congregation|fraternity|sorority|cooperative|co-op)")
_GROUP_OBJ = (r"(?i:the)\s+(?:[A-Za-z][\w'-]*\s+){0,3}?" + _GROUP + r"(?![\w-])"
              r"|(?:[A-Z][\w'-]*\s+){1,3}" + _GROUP + r"(?![\w-])")
_PAIR = rf"(?P<subj>{NAME})\s+and\s+(?P<o>{NAME})"  # "Tom and Ana got married"
_LANGUAGE = rf"(?:{_alt(LANGUAGES)})"
_LANGUAGE_OR_SKILL = _SKILL
_NOT_PLACE_AFTER = r"(?!\s+(?i:for|to)\b)"


def _c(value: str, relation: str, object_type: str) -> tuple[str, str, str, str]:
    """An emit whose object is the constant ``value`` ("engaged" for RELATIONSHIP_STATUS)."""
    return (value, relation, "const", object_type)


ISSUE37_ENDING_RULES: list[Rule] = [
    *_rule(r"<S>\s+<ADV>(?i:stepped down as|resigned as|quit as|retired as|stopped working as|left my job as|"
           r"left his job as|left her job as|left the role of|left the position of|"
           r"gave up (?:my|his|her) role as)"
           r"\s+(?:(?i:an?|the|our|their)\s+)?" + _o("role", _ANY_ROLE),
           R("role", "WORKS_AS"), kind="ending", positive=False, implicit=True),
    # "I retired (from Acme)": the job and the role end, and the retirement is an event.
    *_rule(r"<S>\s+<ADV>(?i:retired|have retired|has retired|went into retirement)\b(?!\s+(?i:as|from)\b)"
           r"(?!\s+(?:[a-z]+\s+)?(?i:dog|horse|teacher|nurse|couple|people|man|woman))",
           ("none", "WORKS_AT", "any", "Organization"), ("none", "WORKS_AS", "any", "Role"),
           implicit=True, kind="ending", positive=False),
    *_rule(r"<S>\s+<ADV>(?i:retired|have retired|has retired|went into retirement)\b(?!\s+(?i:as)\b)"
           r"(?!\s+(?:[a-z]+\s+)?(?i:dog|horse|teacher|nurse|couple|people|man|woman))",
           _c("retired", "DID", "Activity"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:retired from)\s+" + _o("o", "<PROPER>"),
           P("o", "WORKS_AT", "Organization"), ("none", "WORKS_AS", "any", "Role"), kind="ending",
           positive=False, implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:left|quit)\s+(?i:the|our|my|his|her|their)\s+"
           + _o("o", r"(?:[A-Za-z][\w'-]*\s+){0,3}?" + _GROUP) + r"(?![\w-])",
           N("o", "MEMBER_OF", "Organization"), kind="ending", positive=False, implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:no longer manages|no longer manage|stopped managing|do not manage anymore)\s+"
           r"(?:(?i:the|our|my)\s+)?" + _o("o", r"(?:[A-Z][\w'-]*\s+){0,3}[a-z]+(?:\s+[a-z]+)?"),
           N("o", "MANAGES", "Organization"), kind="ending", positive=False),
    *_rule(r"(?:\b(?P<we>[Ww]e)|(?P<o>" + NAME + r")\s+and\s+I)\s+<ADV>(?i:called off|broke off|ended)\s+"
           r"(?i:the|our)\s+(?i:engagement)\b", ("o", "ENGAGED_TO", "partner", "Person"),
           _c("engaged", "RELATIONSHIP_STATUS", "Status"), kind="ending", positive=False),
    # "Scratch the Mississauga house": a plan called off
    *_rule(r"(?:^\s*|[,!]\s+)(?i:scratch|forget)\s+(?i:the|our|my)\s+"
           + _o("o", r"(?:[A-Z][\w'-]*\s+){0,3}(?i:plan|plans|move|trip|visit|house|flat|apartment|"
                     r"purchase|idea)")
           + r"\b",
           ("o", "PLANS", "cue", "Activity"), kind="ending", positive=False, cue=("scratch", "forget")),
    *_rule(r"<S>\s+<ADV>(?i:defended|submitted and defended)\s+(?i:my|his|her|their)\s+"
           r"(?i:thesis|dissertation|phd|doctoral thesis)\b", ("none", "STUDIES_AT", "any", "Organization"),
           kind="ending", positive=False, implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:quit|stopped|dropped|gave up)\s+(?:(?i:my|the)\s+)?" + _o("o", _LANGUAGE_OR_SKILL)
           + r"\s+(?i:classes|class|lessons|course)\b", ("o", "LEARNING", "plain", "Skill"),
           kind="ending", positive=False, implicit=True),
    *_rule(r"(?:\b(?P<we>[Ww]e)|(?P<o>" + NAME + r")\s+and\s+I)\s+<ADV>(?i:got divorced|divorced|"
           r"are divorced|have divorced|finalized our divorce|finalised our divorce)\b",
           _c("divorced", "RELATIONSHIP_STATUS", "Status"), positive=False),
]

# Chat forms without a subject, answering a question ("Still in Leeds?" "Yep, still in Leeds.").
_ANSWER = r"(?:^\s*|[,!]\s+)(?:(?i:yes|yep|yeah|yup|sure|oh|well),?\s+)?(?i:still)\s+"

ISSUE37_STATE_RULES: list[Rule] = [
    *_rule(r"<S>\s+<ADV>(?i:defended|submitted and defended)\s+(?i:my|his|her|their)\s+"
           r"(?i:thesis|dissertation|phd|doctoral thesis)\b", _c("finished a PhD", "DID", "Activity"),
           implicit=True),
    # "I got the job! Sous chef at Harbour Kitchen, starting on 14 August."
    *_rule(r"(?P<we>(?:^\s*|[,!]\s+))(?:(?i:an?|the)\s+)?" + _o("role", "<ROLE>") + r"\s+(?i:at)\s+"
           + _o("o", "<PROPER>") + r"(?=[^.!?]*\b(?i:starting|start|from)\b)",
           ("role", "WORKS_AS", "role_start", "Role"), P("o", "WORKS_AT", "Organization"), future=True,
           needs_time=True, cue=("start", "from")),
    # chat: answers without a subject, places and jobs named by "here" / "there"
    *_rule(r"(?P<we>" + _ANSWER + r")(?i:in)\s+" + _o("o", "<PROPER>"), P("o", "LIVES_IN", "Place"),
           cue=("still",)),
    *_rule(r"(?P<we>" + _ANSWER + r")(?i:at)\s+" + _o("o", "<PROPER>"),
           ("o", "AT_ORG?", "proper", "Organization"), cue=("still",)),
    *_rule(r"<S>\s+<ADV>" + _LIVE + r"\s+(?P<o>here)\b", ("o", "LIVES_IN", "here", "Place")),
    # "I live in London now, moved here in November": the home just named, from when it was moved to
    *_rule(r"<S>\s+<ADV>(?i:moved|relocated|have moved|has moved)\s+(?P<o>here|there)\b"
           r"(?!\s+(?i:to|for|with)\b)",
           ("o", "LIVES_IN", "here", "Place"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:have been|has been)\s+(?:an?\s+)" + _o("role", "<ROLE>")
           + r"(?:\s+(?P<o>there)\b)?", R("role", "WORKS_AS"), ("o", "WORKS_AT", "there", "Organization")),
    *_rule(r"<S>\s+<ADV>(?i:started|began|started working|have worked|have been working)\s+(?P<o>there)\b",
           ("o", "WORKS_AT", "there", "Organization"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:started|began)(?P<o>)\s*[.!]?\s*$", ("o", "STARTED?", "there", "Organization"),
           needs_time=True),
    *_rule(r"(?:\b(?P<we>[Ww]e)|(?P<o>" + NAME + r")\s+and\s+I)\s+<ADV>(?i:started dating|have been dating|"
           r"began dating)\b(?!\s+[A-Z])", ("o", "DATING", "partner", "Person")),
    *_rule(r"(?P<we>\b)(?i:was|is)\s+(?i:my)\s+(?i:last)\s+(?i:day)\s+(?i:at)\s+" + _o("o", "<PROPER>"),
           P("o", "WORKS_AT", "Organization"), kind="ending", positive=False, cue=("last day",)),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?:(?i:now|currently)\s+)?in\s+" + _o("o", "<PROPER>")
           + r"\s+(?i:now|these days|nowadays)\b", P("o", "LIVES_IN", "Place")),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+in\s+(?i:my|his|her|their)\s+(?i:first|second|third|fourth|fifth|"
           r"final|last|1st|2nd|3rd|4th|5th)\s+(?i:year)\s+(?i:at|of)\s+" + _o("o", "<PROPER>"),
           P("o", "STUDIES_AT", "Organization")),
    *_rule(r"<S>\s+<ADV>(?i:started|began|just started)\s+(?i:my|his|her|their|a)\s+(?i:master's|masters|phd|"
           r"degree|studies|bachelor's|mba|doctorate)\s+(?i:at)\s+" + _o("o", "<PROPER>"),
           P("o", "STUDIES_AT", "Organization"), implicit=True),
    *_rule(r"(?:\b(?P<we>[Ww]e)|(?P<o>" + NAME + r")\s+and\s+I)\s+<ADV>(?i:have been|are)\s+(?i:together)\b",
           ("o", "DATING", "partner", "Person")),
    *_rule(r"<S>\s+<ADV>(?i:proposed to)\s+" + _o("o", NAME) + r"(?=.*\b(?i:said yes|accepted)\b)",
           P("o", "ENGAGED_TO", "Person"), _c("engaged", "RELATIONSHIP_STATUS", "Status")),
    *_rule(r"<S>\s+<ADV>(?i:have been seeing|am seeing|started seeing)\s+(?i:someone),\s+" + _o("o", NAME)
           + r"(?![\w'])", P("o", "DATING", "Person")),

    # roles
    *_rule(r"<S>\s+<ADV>(?i:was made|got made|was named|was appointed|got appointed|was elected|"
           r"got elected|was promoted to|got promoted to|has been promoted to|have been promoted to|"
           r"became|has become|have become)\s+(?:(?i:as)\s+)?(?:(?i:an?|the|our|their)\s+)?"
           + _o("role", _ROLE_OF), R("role", "WORKS_AS"), implicit=True),
    *_rule(r"<S>\s+(?i:am|is|are)\s+(?:(?i:now|currently)\s+)(?i:working)\s+as\s+(?:an?\s+)?"
           + _o("role", "<ROLE>"), R("role", "WORKS_AS")),
    # "moved to Microsoft": a job when the name is an organisation's, else a home (the extractor decides)
    *_rule(r"<S>\s+<ADV>(?i:moved|relocated)\s+from\s+" + _o("old", "<PROPER>") + r"\s+to\s+"
           + _o("o", "<PROPER>"), ("o", "MOVED?", "proper", "Place"),
           ("old", "MOVED_FROM?", "proper", "Place"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:switched|changed jobs|jumped ship)\s+from\s+" + _o("old", "<PROPER>")
           + r"\s+to\s+" + _o("o", "<PROPER>"), ("o", "SWITCHED?", "proper", "Organization"),
           ("old", "SWITCHED_FROM?", "proper", "Organization"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:is|am|are)\s+(?:(?i:currently|now)\s+)?(?i:at)\s+" + _o("o", "<PROPER>")
           + r"(?:\s+in\s+[A-Z][\w'-]*)?(?:\s+(?i:now|these days|nowadays|currently))?"
           r"(?=\s*(?:[,.!;]|$|\s+(?:as\s+of|since)\b))",
           ("o", "AT_ORG?", "proper", "Organization"), opens_clause=True),
    *_rule(r"<S>\s+<ADV>(?i:joined|has joined|have joined)\s+" + _o("o", "<PROPER>"),
           ("o", "JOINED?", "proper", "Organization"), implicit=True),
    *_rule(r"(?P<org>" + PROPER + r")\s+(?i:employs|hired|has hired|just hired)\s+" + _o("subj", NAME)
           + r"(?=\s*(?:[,.!;]|$|\s+as\b))(?:\s+as\s+(?:an?\s+)?" + _o("role", "<ROLE>") + ")?",
           ("org", "WORKS_AT", "proper", "Organization"), R("role", "WORKS_AS"), cue=("employs", "hired")),
    # life events
    *_rule(r"<S>\s+<ADV>(?i:got engaged|just got engaged|have gotten engaged|have got engaged)\s+to\s+"
           + _o("o", NAME), _c("engaged", "RELATIONSHIP_STATUS", "Status")),
    *_rule(r"(?:\b(?P<we>[Ww]e)|(?P<o>" + NAME + r")\s+and\s+I)\s+<ADV>(?i:got engaged|just got engaged|"
           r"have gotten engaged|are engaged now|are now engaged)\b",
           ("o", "ENGAGED_TO", "partner", "Person"), _c("engaged", "RELATIONSHIP_STATUS", "Status")),
    *_rule(r"<S>\s+<ADV>(?i:got married|just got married)\s+to\s+" + _o("o", NAME),
           _c("married", "RELATIONSHIP_STATUS", "Status")),
    *_rule(r"<S>\s+<ADV>(?i:married)\s+" + NAME, _c("married", "RELATIONSHIP_STATUS", "Status")),
    *_rule(r"(?:\b(?P<we>[Ww]e)|(?P<o>" + NAME + r")\s+and\s+I)\s+<ADV>(?i:got married|just got married|"
           r"tied the knot|got hitched)\b",
           ("o", "MARRIED_TO", "partner", "Person"), _c("married", "RELATIONSHIP_STATUS", "Status")),
    *_rule(r"(?:\b(?P<we>[Ww]e)|(?P<o>" + NAME + r")\s+and\s+I)\s+<ADV>(?i:got married|just got married|"
           r"tied the knot|got hitched)\b", ("none", "ENGAGED_TO", "any", "Person"), kind="ending",
           positive=False),  # a wedding ends the engagement
    *_rule(r"(?:^|(?<=[\s,]))" + _PAIR + r"\s+<ADV>(?i:got married|tied the knot|got hitched)\b",
           P("o", "MARRIED_TO", "Person")),
    *_rule(r"(?:^|(?<=[\s,]))" + _PAIR + r"\s+<ADV>(?i:got engaged)\b", P("o", "ENGAGED_TO", "Person")),
    *_rule(r"(?:\b(?P<we>[Ww]e)|(?P<o>" + NAME + r")\s+and\s+I)\s+<ADV>(?i:moved in together|started living "
           r"together)\b", ("o", "LIVES_WITH", "partner", "Person")),
    *_rule(r"<S>\s+<ADV>(?i:moved in with)\s+" + _o("o", NAME) + r"(?![\w'])",
           P("o", "LIVES_WITH", "Person")),
    *_rule(r"<S>\s+<ADV>(?i:had|have had|has had|welcomed|gave birth to)\s+(?:(?i:a|an|our|my|their)\s+)"
           r"(?:(?i:new|little|healthy|beautiful|first|second|third)\s+)*(?i:baby)(?:\s+(?i:girl|boy))?"
           r"(?:,?\s+(?:(?i:named|called)\s+)?" + _o("o", NAME) + r"(?![\w']))?",
           _c("had a baby", "DID", "Activity"), P("o", "HAS_CHILD", "Person"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:had|have had|has had|welcomed)\s+(?:(?i:a|our|their)\s+)(?:(?i:baby)\s+)?"
           r"(?i:son|daughter|boy|girl)(?:,?\s+(?:(?i:named|called)\s+)?" + _o("o", NAME) + r"(?![\w']))",
           _c("had a baby", "DID", "Activity"), P("o", "HAS_CHILD", "Person"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:adopted)\s+(?:(?i:a|our|their)\s+)(?:(?i:baby|little)\s+)?(?i:son|daughter|boy|girl|"
           r"child|kid)(?:,?\s+(?:(?i:named|called)\s+)?" + _o("o", NAME) + r"(?![\w']))",
           P("o", "HAS_CHILD", "Person"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:finished|completed|defended)\s+(?i:my|his|her|their|a)\s+"
           + _o("o", r"(?i:phd|ph\.d\.|doctorate|master's|masters|mba|bachelor's|degree)")
           + r"(?!\s+(?i:at|from|in)\s+[A-Z])",
           ("o", "DID", "degree", "Activity"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:finished|completed|defended)\s+(?i:my|his|her|their)\s+"
           r"(?i:phd|ph\.d\.|doctorate|master's|masters|mba|bachelor's|degree)(?!\s+(?i:at|from|in)\s+[A-Z])",
           ("none", "STUDIES_AT", "any", "Organization"), kind="ending", positive=False, implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:finished|completed)\s+(?i:my|his|her|their)\s+(?:(?i:phd|degree|studies|master's|"
           r"masters|mba|bachelor's)\s+)(?i:at)\s+" + _o("o", "<PROPER>"),
           P("o", "STUDIES_AT", "Organization"), kind="ending", positive=False, implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:started|began|start|begin)\s+(?i:school|university|college|uni|grad school|"
           r"kindergarten|a phd|my phd|a degree|my degree)\s+(?i:at)\s+" + _o("o", "<PROPER>"),
           P("o", "STUDIES_AT", "Organization"), implicit=True),
    *_rule(r"<S>\s+<ADV>(?i:passed away|died)\b", _c("passed away", "DID", "Activity"), needs_time=True),
    # relations between people, organisations and things
    *_rule(r"<S>\s+<ADV>(?i:prefer|prefers|much prefer)\s+(?!to\b)" + _o("o", "<LIST>"),
           N("o", "PREFERS", "Thing"), opens_clause=True),
    *_rule(r"<S>\s+<ADV>(?i:speak|speaks|can speak|am fluent in|is fluent in)\s+"
           r"(?:(?i:fluent|some|a little|basic|good|native|conversational)\s+)?"
           + _o("o", _LANGUAGE + r"(?:(?:,\s+|\s+and\s+|,\s+and\s+)" + _LANGUAGE + r")*") + r"(?![\w'])",
           ("o", "SPEAKS", "languages", "Language"), opens_clause=True),
    *_rule(r"<S>\s+<ADV>(?i:manage|manages|run|runs|lead|leads|head|heads|am managing|is managing)\s+"
           r"(?i:the|our|a)\s+" + _o("o", r"(?:[A-Z][\w'-]*\s+){0,3}(?i:team|office|department|division|"
                                           r"unit|branch|store|shop|group|lab|project|squad|program|"
                                           r"programme|practice|clinic|restaurant|kitchen)")
           + r"(?![\w-])", N("o", "MANAGES", "Organization"), opens_clause=True),
    *_rule(r"<S>\s+<ADV>(?i:report|reports|am reporting|is reporting)\s+(?i:directly\s+)?to\s+"
           + _o("o", NAME) + r"(?![\w'])", P("o", "REPORTS_TO", "Person")),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?i:managed by)\s+" + _o("o", NAME) + r"(?![\w'])",
           P("o", "MANAGED_BY", "Person")),
    *_rule(r"(?P<o>" + NAME + r")\s+(?i:is)\s+(?P<subj>" + NAME + r")['’]s\s+(?i:manager|boss|supervisor)\b",
           P("o", "MANAGED_BY", "Person"), cue=("manager", "boss", "supervisor")),
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?:(?i:a|an)\s+)?(?:(?i:proud|new|longtime|long-time|active)\s+)?"
           r"(?i:member|members)\s+of\s+" + _o("o", r"(?:(?i:the)\s+)?(?:[A-Z][\w'&-]*\s*){1,4}|(?i:the)\s+"
                                                  r"(?:[a-z][\w-]*\s+){0,2}?" + _GROUP + r"(?![\w-])"),
           N("o", "MEMBER_OF", "Organization")),
    *_rule(r"<S>\s+<ADV>(?i:joined|have joined|has joined)\s+" + _o("o", _GROUP_OBJ),
           N("o", "MEMBER_OF", "Organization"), implicit=True),
    *_rule(r"(?:^|(?<=[\s,]))(?P<subj>" + NAME + r")\s+(?i:is)\s+(?i:the)\s+"
           r"(?i:parent|father|mother|dad|mom|mum)\s+of\s+" + _o("o", NAME) + r"(?![\w'])",
           P("o", "HAS_CHILD", "Person"), cue=(" of ",)),
    *_rule(r"(?:^|(?<=[\s,]))(?P<subj>" + NAME + r")\s+(?i:is)\s+(?i:the)\s+(?i:son|daughter|child|kid)"
           r"\s+of\s+" + _o("o", NAME) + r"(?![\w'])", P("o", "HAS_PARENT", "Person"), cue=(" of ",)),
    *_rule(r"(?:^|(?<=[\s,]))(?P<subj>" + NAME + r")\s+(?i:knows)\s+" + _o("o", NAME)
           + r"(?=\s*(?:[,.!;]|$))",
           P("o", "KNOWS", "Person"), cue=("knows",)),
    *_rule(r"<S>\s+<ADV>(?:(?i:often|frequently|regularly)\s+(?i:visit|visits|go to|goes to)|"
           r"(?i:visit|visits)(?=\s+[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*\s+"
           r"(?i:often|a lot|regularly|frequently)))\s+"
           + _o("o", "<PROPER>"), P("o", "OFTEN_VISITS", "Place"), opens_clause=True),
    *_rule(r"<S>\s+<ADV>(?i:recommend|recommends|highly recommend|highly recommends)\s+" + _o("o", "<PROPER>")
           + r"(?=\s*(?:[,.!;]|$|\s+(?:to|for)\b))", P("o", "RECOMMENDS", "Thing"), opens_clause=True),
    *_rule(r"<S>\s+<ADV>(?i:avoid|avoids|stay away from|stays away from|try to avoid|tries to avoid)\s+"
           + _o("o", "<LIST>"), N("o", "AVOIDS", "Thing"), opens_clause=True),
    *_rule(r"<S>\s+<ADV>(?i:eat|eats)\s+(?i:everything|anything|meat)(?=\s*(?:[,.!;]|$))",
           _c("omnivore", "DIET", "Diet")),
]
