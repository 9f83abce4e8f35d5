"""Several statements in one sentence, cut apart: comma splices ("I live in Milan now, my rent is 900
euros a month"), a new subject after "and" ("We moved to York and my rent is 850 pounds"), and verbs
that share the sentence's subject ("Jonas is a chef at Nobelhart, lives in Kreuzberg and plays the
bass": each verb with "Jonas" said again).

A cut is made only where what comes before it is a statement of its own: not after a time or place
phrase alone ("In 2019, I started at Google" stays whole, so the time stays with its verb), not after
a condition, a supposition or a question word ("If I get the job, I'll move to Berlin" stays whole, so
the condition still holds its consequence back).
"""

from __future__ import annotations

import re

from temporal_graph.core.time import find_time_expressions

from .chat_doings import done_series
from .grammar import HYPOTHETICAL, NAME
from .tables import VERB_OPENERS

_ATTRIBUTE_NOUNS = (r"(?:rent|salary|pay|wage|income|mortgage|bill|bills|budget|price|fee|fees|address|"
                    r"council\s+tax|phone\s+plan|plan|layout|theme|mode|font|order|ticket|parcel|package|"
                    r"flat|office|studio|commute|forecast|status|deadline)")
# What opens a statement of its own after a comma or "and".
_NEW_SUBJECT = (r"(?:(?:I|we|We|he|He|she|She|they|They)\s+(?!(?i:and|or|but|too|both|all)\b)[a-z]"
                r"|(?i:my|our|his|her|their)\s+(?:(?:new|old|monthly|current)\s+)?" + _ATTRIBUTE_NOUNS
                + r"\s+(?i:is|are|was|went|has|got|just|now|moved|takes|costs)\b"
                r"|(?i:it\s+is|it's|its)\s+\S"
                r"|(?i:the)\s+" + _ATTRIBUTE_NOUNS + r"\s+(?i:is|are|went|has|got|just|now|takes)\b"
                r"|(?i:rent|salary)\s+(?i:is|went)\b)")
# A statement whose subject is a thing of someone's or a value ("my rent is", "the order has", "it is").
_NEW_RECORD = (r"(?:(?i:my|our|his|her|their)\s+(?:(?:new|old|monthly|current)\s+)?" + _ATTRIBUTE_NOUNS
               + r"\s+(?i:is|are|was|went|has|got|just|now|moved|takes|costs)\b"
               r"|(?i:it\s+is|it's|its)\s+\S"
               r"|(?i:the)\s+" + _ATTRIBUTE_NOUNS + r"\s+(?i:is|are|went|has|got|just|now|takes)\b"
               r"|(?i:rent|salary)\s+(?i:is|went)\b)")
# Cuts: a comma before a new subject; "and" before a new record ("... and my rent is 850 pounds"), not
# before "I" (the rules read "I live in Turin and I work at Fiat" whole, and a time said once serves both).
_SPLICE = re.compile(r",\s+(?:(?i:and|but|so|now|then|plus|also)\s+)?(?=" + _NEW_SUBJECT + r")"
                     r"|\s+(?i:and)\s+(?:(?i:now|then|also)\s+)?(?=" + _NEW_RECORD + r")"
                     r"|(?:^|(?<=\s))(?i:now),\s+")
# Verbs that go on with the sentence's subject: "..., lives in Kreuzberg and plays the bass".
_PRONOUN_AFTER = re.compile(r"(?:(?i:and|but|so|now|then|plus|also)\s+)?"
                            r"(?:I|we|We|he|He|she|She|they|They)\s")
# ("like" and "love" are left out: "like a walk" is an example, "and love theme" a noun)
_SHARED_VERB = re.compile(
    r",\s+(?:(?i:and)\s+)?(?=(?i:lives?|works?|plays?|studies|study|speaks?|teach|teaches|owns?|manages?|"
    r"moved|joined|started|became|got|has|is)\s)"
    r"|\s+(?i:and)\s+(?=(?i:lives?|works?|plays?|studies|study|speaks?|teach|teaches|owns?|manages?)\s)")
_LEAD = re.compile(rf"^(?P<subj>I|[Ww]e|[Hh]e|[Ss]he|(?<![\w'])(?:{NAME}))\s+[a-z]")
_SUBORDINATE = re.compile(
    r"^\s*(?i:if|when|whenever|unless|although|though|because|since|while|after|before|once|as soon as|until|"
    r"what|where|who|why|how|whether|even if|in case)\b")
# A subject with its verb, or a finite verb: "I live in Milan now", "moved to Leeds" (not "In 2019").
_STATEMENT = re.compile(r"\b(?:I|[Ww]e|[Hh]e|[Ss]he|[Tt]hey)\s+[a-z]"
                        r"|\b(?i:am|is|are|was|were|has|have|had|live|"
                        r"lives|work|works|moved|got|went|takes|costs|plays|joined|started|left|quit|bought|"
                        r"became)\b|\b[A-Za-z][a-z]+ed\b")


# The month May is no "may": a hedge test blanks it first.
_MONTH_MAY = re.compile(r"\b(?:(?:in|on|since|until|by|from|of|last|next|this|early|late|mid)\s+May"
                        r"|May\s+\d+)\b")


def _hedged(text: str) -> bool:
    return HYPOTHETICAL.search(_MONTH_MAY.sub(" ", text)) is not None


def _whole(part: str) -> bool:
    """Whether a piece before a cut is a statement of its own (so the cut may be made)."""
    words = part.split()
    last = part.rsplit(",", 1)[-1]  # "Last weekend, after we finished": no cut parts "after" from its clause
    return (len(words) >= 3 and _STATEMENT.search(part) is not None and not _SUBORDINATE.match(part)
            and not _SUBORDINATE.match(last) and not _hedged(part))


def statements(clause: str) -> list[str]:
    """The statements of a clause, each a clause of its own; the clause itself when it is one (or
    when it holds a hedge or condition anywhere: "Jo is at Google, I think, as an intern")."""
    if _hedged(clause):
        return [clause]
    out: list[str] = []
    start = 0
    for m in _SPLICE.finditer(clause):
        if m.start() == 0:
            start = m.end()
            continue
        before = clause[start:m.start()]
        if _whole(before) and not (_PRONOUN_AFTER.match(clause, m.end()) and find_time_expressions(before)):
            # (not "Last week was wild, I got noticed": the time said before is the next statement's too)
            out.append(before)
            start = m.end()
    out.append(clause[start:])
    # each verb of a series of things done with the subject again ("... and even went on a hike")
    return [s for part in out for piece in _shared_subject(part.strip(" ,")) for s in done_series(piece)
            if s.strip()]


def _shared_subject(clause: str) -> list[str]:
    """"Jonas is a chef, lives in Kreuzberg and plays the bass" -> its three statements of Jonas."""
    lead = _LEAD.match(clause)
    if lead is None or not _SHARED_VERB.search(clause) or _hedged(clause):
        return [clause]
    if lead.group("subj").split()[0] in VERB_OPENERS:
        return [clause]  # "Left Google last year, joined Meta": no subject to share (each is the speaker's)
    parts = _SHARED_VERB.split(clause)
    if not _whole(parts[0]):
        return [clause]
    return [parts[0], *(f"{lead.group('subj')} {p}" for p in parts[1:])]
