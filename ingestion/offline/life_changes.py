"""Changes in a life as chats tell them in passing: moves told by their home or their arrival ("we bought
a flat in Leith, we move in next month", "first night in the new flat in Leith", "moved into a flat in
Camden", "landed in Oslo" when a move there was in view), relationships told without the partner's name
or a wedding announced ("we're engaged", "I'm single now", "our wedding is set for 10 August in Accra"),
a plan given up for staying ("change of plans: we're staying in Zurich"), and a job offer with its start
("got a postdoc offer from ETH Zurich! Starting in April").

Precision first: a home is one of the closed words of :data:`HOMES` in a named place; an arrival is a
move only when this message or the last turns hold a move there (a plan to move, a home or a job there
that starts); "the wedding" is the speaker's only when their engagement is in view; an offer is a job
only with its start date; "staying" ends a plan only with a word saying the plan changed. The
extractor's guards (questions, hypotheticals, negations, hearsay, quotes) apply unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Literal

from temporal_graph.core.names import name_key

from .drafts import Draft
from .grammar import NAME, PROPER, Rule, _c, _o, _rule
from .objects import clean_proper

# What a home is called: a closed list ("a hotel", "a tent" and "an office" are no home).
HOMES = ("flat", "apartment", "house", "condo", "condominium", "place", "home", "studio", "loft", "townhouse",
         "cottage", "bungalow", "duplex", "maisonette", "bedsit", "houseboat")
_HOME = r"(?i:" + "|".join(HOMES) + r")"
_HOME_ADJ = r"(?:(?i:new|own|first|little|tiny|small|big|bigger|smaller|lovely|gorgeous|cosy|cozy)\s+)*"
# A home in a named place, as a message names it: "a condo in Etobicoke", "our new flat in Leith".
HOME_IN = re.compile(r"\b" + _HOME_ADJ + _HOME + r"\s+(?:(?i:in|at)\s+)" + _o("place", PROPER)
                     + r"(?![\w'’])")

# "we move in next month": the place of the home just named, which the extractor finds in the message
# and the speaker's last turns.
HOME_PLACE = "\x00home"
# This module's kinds of object the extractor settles against the message and its last turns
# (``OfflineExtractor._settle_life``): a home's place, an arrival that is a move, a plan that changed,
# a wedding that is the speaker's, a proposal that was accepted.
LIFE_KINDS = ("home", "firstnight", "arrived", "staying", "wedding", "proposer", "accepted")

_MOVE_IN_AHEAD = r"(?i:move|moves|am moving|are moving|is moving|will move|will be moving)"
_MOVE_IN_DONE = r"(?i:moved|have moved|has moved|have just moved|has just moved)"
# "in" or the end of the clause after the verb (its time phrase is blanked out before the rules run)
_IN_OR_END = (r"(?P<o>\s+(?i:in)|(?=\s*(?:[,.!;]|$)))"
              r"(?!\s+(?i:with|together|to|next\s+door|at|on|there|here)\b)(?=\s*(?:[,.!;]|$))")
# What says a plan changed: the staying is then instead of the plan.
CHANGED_PLAN = re.compile(r"\b(?i:change of plans?|plans?\s+(?:have\s+|has\s+)?changed|after all|instead|"
                          r"not moving|no longer moving|we decided to stay|decided to stay)\b")

LIFE_RULES: list[Rule] = [
    # "We bought a flat in Leith, we move in next month" (dated: "we move in soon" is no date), "we moved
    # in last week": the home this message (or the speaker's last turns) names
    *_rule(r"<S>\s+<ADV>" + _MOVE_IN_AHEAD + _IN_OR_END, ("o", "LIVES_IN", "home", "Place"), implicit=True,
           future=True, needs_time=True, cue=("move", "moving")),
    *_rule(r"<S>\s+<ADV>" + _MOVE_IN_DONE + _IN_OR_END, ("o", "LIVES_IN", "home", "Place"), implicit=True,
           cue=("moved",)),
    # "First night in the new flat in Leith!", "first week in our new place" (the place named before)
    *_rule(r"(?P<we>(?:^\s*|[,!]\s+))(?:(?i:our|my)\s+)?(?i:first)\s+(?i:night|nights|day|days|week|"
           r"morning|evening|weekend)\s+(?i:in|at)\s+(?i:the|our|my)\s+(?i:new)\s+" + _HOME
           + r"(?:\s+(?:(?i:in|at)\s+)" + _o("o", PROPER) + r"(?![\w'’]))?",
           ("o", "LIVES_IN", "firstnight", "Place"), cue=("first",)),
    # "We moved into a flat in Camden", "moved to a bigger place in Leith"
    *_rule(r"<S>\s+<ADV>(?i:moved|have moved|has moved|relocated)\s+(?i:into|to|in\s+to)\s+"
           r"(?i:a|an|the|our|my|his|her|their)\s+" + _HOME_ADJ + _HOME + r"\s+(?i:in)\s+" + _o("o", PROPER)
           + r"(?![\w'’])", ("o", "LIVES_IN", "proper", "Place"), implicit=True, cue=("moved", "relocated")),
    # "Landed in Zurich on Tuesday", "We arrived in Oslo": a move only with one in view (the extractor)
    *_rule(r"<S>\s+<ADV>(?i:landed|arrived|touched down)\s+(?i:in)\s+" + _o("o", PROPER) + r"(?![\w'’])",
           ("o", "LIVES_IN", "arrived", "Place"), implicit=True),
    # "We're engaged!", "Rui and I are officially engaged": the partner the chat named
    *_rule(r"(?:\b(?P<we>[Ww]e)|(?P<o>" + NAME + r")\s+and\s+I)\s+(?i:are)\s+(?:(?i:now|officially|finally|"
           r"so|actually)\s+)*(?i:engaged)(?:\s+(?i:to\s+be\s+married))?(?=\s*(?:[,.!;]|$|[^\w\s]))",
           ("o", "ENGAGED_TO", "partner", "Person"), _c("engaged", "RELATIONSHIP_STATUS", "Status"),
           cue=("engaged",)),
    # "Rui proposed last night! We're engaged": the proposal's time is the engagement's (only when the
    # message says it was accepted: the extractor)
    *_rule(r"(?:^\s*|[,!]\s+)(?P<o>" + NAME + r")\s+<ADV>(?i:proposed)(?:\s+(?i:to\s+me))?(?!\s+(?i:to)\b)",
           ("o", "ENGAGED_TO", "proposer", "Person"), ("o", "RELATIONSHIP_STATUS", "accepted", "Status"),
           needs_time=True, cue=("proposed",)),
    # "I'm single now", "Tom is single again"
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?:(?i:now|officially|happily|finally|newly)\s+)*(?i:single)"
           r"(?=\s*(?:[,.!;]|$)|\s+(?i:again|now|these days|since|for now)\b)",
           _c("single", "RELATIONSHIP_STATUS", "Status"), cue=("single",)),
    # "Our wedding is set for 10 August in Accra", "the wedding is on 3 June" (the speaker's own only with
    # their engagement in view: the extractor)
    *_rule(r"\b(?P<owner>[Oo]ur|[Mm]y|[Tt]he)\s+(?i:wedding)\s+(?i:is|will be)\s+(?:(?i:now|officially|"
           r"finally)\s+)?(?:(?i:set|planned|booked|scheduled|fixed|going to be)\s+)?(?i:for|on)?\s*"
           r"(?:(?i:in|at)\s+" + _o("o", PROPER) + r")?(?![\w'’])",
           ("o", "PLANS", "wedding", "Activity"), needs_time=True, future=True, cue=("wedding",)),
    # "Change of plans: we are staying in Zurich", "we're staying in Leeds after all"
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|will be)\s+(?i:staying|remaining)\s+(?i:in)\s+" + _o("o", PROPER)
           + r"(?![\w'’])", ("o", "PLANS", "staying", "Activity"), kind="ending", positive=False,
           cue=("staying", "remaining")),
    # "Got a postdoc offer from ETH Zurich, starting in April" (the start date makes it a job)
    *_rule(r"<S>\s+<ADV>(?i:got|received|accepted|took|landed|have|has|signed)\s+(?i:a|an|the|my|his|her)\s+"
           r"(?:(?i:new|job|dream|full-time|permanent)\s+)*"
           r"(?:" + _o("role", r"(?i:postdoc|postdoctoral|phd|internship|lectureship|fellowship|residency)")
           + r"\s+)?(?:(?i:job|position|role|contract)\s+)?(?i:offer)\s+(?i:from|at|with)\s+"
           + _o("o", PROPER)
           + r"(?=[^.!?]*\b(?i:starting|start|starts|begin|begins|from)\b)",
           ("o", "WORKS_AT", "proper", "Organization"), ("role", "WORKS_AS", "offer_role", "Role"),
           implicit=True, needs_time=True, future=True, cue=("offer",)),
]

# What says a proposal was accepted.
ACCEPTED = re.compile(r"\b(?i:(?:we\s+are|we're|I\s+am|I'm)\s+(?:now\s+|officially\s+)?engaged|"
                      r"(?:I|she|he)\s+said\s+yes)\b")

# Roles named in an offer ("a postdoc offer"), as the job they are.
_OFFER_ROLES = {"postdoc": "postdoc", "postdoctoral": "postdoc", "phd": "PhD student", "internship": "intern",
                "lectureship": "lecturer", "fellowship": "fellow", "residency": "resident"}
# "Starting in April." after a sentence: the start of what that sentence told (an offer, a job).
STARTING_ALONE = re.compile(r"^(?:[Aa]nd\s+)?(?:[Ss]tarting|[Ss]tarts|[Ss]tart\s+date\s+is|[Ii]\s+start)\b"
                            r"[^.!?,;:]{0,40}[.!]*$")  # the start and its time alone: no clause after it


def life_object(kind: str, raw: str | None) -> str | None | Literal[False]:
    """The object of this module's kinds as the rule matched it (a sentinel the extractor settles);
    ``False`` for any other kind."""
    if kind == "home":
        return HOME_PLACE if raw is not None else None
    if kind == "firstnight":
        return raw.strip() if raw else HOME_PLACE
    if kind == "arrived":
        return raw.strip() if raw else None
    if kind == "staying":
        return raw.strip() if raw else None
    if kind == "wedding":
        place = clean_proper(raw) if raw else None
        return f"get married in {place}" if place else "get married"
    if kind == "proposer":
        return clean_proper(raw) if raw else None
    if kind == "accepted":
        return "engaged" if raw else None
    if kind == "offer_role":
        return _OFFER_ROLES.get(raw.lower()) if raw else None
    return False


# A home left or sold ("sold our flat in Leith") is no home moved into.
_GIVEN_UP = re.compile(r"\b(?i:sold|selling|sell|left|leaving|leave|out\s+of|rent\s+out|renting\s+out|"
                       r"let\s+out)"
                       r"\s+(?:\S+\s+){0,3}$")


def home_place(texts: Iterable[str]) -> str | None:
    """The named place of the one home the first of these texts to name one names ("a condo in
    Etobicoke" -> "Etobicoke"); None when none does, or one names two."""
    for text in texts:
        named = (clean_proper(m.group("place")) for m in HOME_IN.finditer(text[:2000])
                 if not _GIVEN_UP.search(text[max(0, m.start() - 40):m.start()]))
        places = {name_key(place): place for place in named if place}
        if places:
            return next(iter(places.values())) if len(places) == 1 else None
    return None


def moving_to(subject: str, place: str, history: Sequence[Draft]) -> bool:
    """Whether a move of ``subject`` to ``place`` is in view: a plan to move there, a home there still
    to come, or a job or place of study starting there (its name holding the place: "ETH Zurich")."""
    key = name_key(subject)
    words = set(name_key(place).split())
    for d in history:
        if name_key(d.subject) != key or d.kind != "state" or not d.object:
            continue
        named = words <= set(name_key(d.object).split())
        if d.relation == "PLANS" and named and re.match(r"(?i)(?:move|relocate)\b", d.object):
            return True
        if d.relation == "LIVES_IN" and name_key(d.object) == name_key(place) and d.future:
            return True
        if d.relation in ("WORKS_AT", "STUDIES_AT") and named and d.future:
            return True
    return False


def engaged_in_view(subject: str, history: Sequence[Draft], texts: Iterable[str]) -> bool:
    """Whether ``subject``'s engagement is in view: an engagement stated before, or a fiancé(e) named."""
    key = name_key(subject)
    if any(name_key(d.subject) == key and d.kind == "state"
           and (d.relation == "ENGAGED_TO" or (d.relation == "RELATIONSHIP_STATUS" and d.object == "engaged"))
           for d in history):
        return True
    return any(re.search(r"\b(?i:my|our)\s+(?i:fianc[eé]e?)\b", text[:2000]) for text in texts)
