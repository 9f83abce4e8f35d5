"""Everyday things done as long chats tell them without a date (LoCoMo's turns, beyond chat_events.py):
a past verb with a thing of its own that says what was done by itself ("We roasted marshmallows
around the campfire", "I baked some cookies for the kids", "we explored nature"), several of them in
one sentence ("We explored nature, roasted marshmallows and even went on a hike": each verb with the
subject said again), and what one is off to do now ("I'm off to go swimming with the kids": a plan).

Precision first: the verb is one of a closed list whose object names the doing (never the light verbs
"had", "got", "made", "took", whose undated objects say too little: "made a difference", "had fun"),
its object is no pronoun, no chat word ("it", "some time") and no idiom ("ran into", "wrote back"); the
thing done still opens its clause and keeps the extractor's guards (questions, hypotheticals,
negations, hearsay, quotes). A series is split only when every piece after the first starts with
one of these verbs or another past verb of chat_events.py's lists, so a list of nouns ("we ate pizza,
salad and cake") stays one thing done.
"""

from __future__ import annotations

import re

from .chat_events import _NOT_BREAK
from .grammar import _HOBBY, N, Rule, _alt, _plain, _rule

# Past verbs whose object alone tells a thing done (the list the undated rule accepts).
DOING_VERBS = (
    "explored", "roasted", "baked", "cooked", "grilled", "barbecued", "hiked", "swam", "ate", "built",
    "planted", "knitted", "sewed", "wrote", "drew", "sketched", "sculpted", "carved", "decorated", "danced",
    "sang", "biked", "kayaked", "surfed", "skied", "climbed", "camped", "fished", "toured", "rescued",
    "donated", "raised", "brewed", "harvested", "renovated", "repaired", "assembled", "knit", "crocheted",
    "quilted", "photographed", "brainstormed", "researched", "blogged", "recorded", "composed", "rehearsed",
)
# What such a verb may not be followed by: a pronoun or a word that makes it an idiom or says nothing.
_NOT_THING = (r"(?!(?:it|its|that|this(?!\s+[a-z])|them|him|her|me|you|us|one|some\s+time|a\s+lot|a\s+bit|"
              r"a\s+ton|tons|lots|out|into|over|up|down|through|back|off|away|on|about\s+(?:it|that|this)|for\s+(?:it|that)|"
              r"so|too|very|really|all|together|again|anyway|though)\b)")
EVERYDAY_DONE = re.compile(r"^(?:" + _alt(DOING_VERBS) + r")\s+" + _NOT_THING + r"[\w'’-]+")


def everyday_done(thing_done: str) -> bool:
    """Whether a thing done with no time phrase says by itself what was done ("roasted marshmallows")."""
    return EVERYDAY_DONE.match(thing_done) is not None


# What one is passionate about: a doing up to the word that starts what follows ("helping people | and
# making ..."), or a few words of a thing ("dance and fashion"); never a pronoun or a question word.
_STOP = r"(?:and|or|in|for|at|with|to|so|because|since|but|as|which|that|who|when|while|even)"
_PASSION = (r"(?!(?i:the|this|that|these|those|it|them|him|her|you|your|his|their|our|my|all|every|what|"
            r"how|why|where|who|making sure|making certain)\b)"
            r"(?P<o>[a-z]+ing(?:\s+(?!(?i:" + _STOP + r")\b)[\w'’-]+){0,3}"
            r"|(?![a-z]+ing\b)[\w'’-]+(?:\s+(?!(?i:" + _STOP + r")\b)[\w'’-]+)?"
            r"(?:\s+(?i:and)\s+(?![a-z]+ing\b)[\w'’-]+)?)"
            r"(?=\s*(?:[,.!;]|$)|\s+(?i:" + _STOP + r")\b)")

DOING_RULES: list[Rule] = [
    # "We roasted marshmallows around the campfire", ", explored the coast" (told after a comma): up to
    # the clause word that starts what follows; dated or not (``everyday_done`` keeps the undated)
    *_rule(r"<S>\s+<ADV>(?P<o>(?i:" + _alt(DOING_VERBS) + r")(?:\s+" + _NOT_BREAK + r"[\w+'’-]+){1,9})",
           ("o", "DID", "activity", "Activity"), needs_time=True, fallback=True),  # never subjectless: "a
    # turtle who was scared but explored the world" is the turtle's
    # "I'm off to go swimming with the kids", "I'm off to do some taekwondo": a plan for now
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?i:off)\s+(?i:to)\s+(?!(?i:bed|sleep|work|school|a\s+good|"
           r"a\s+great|a\s+rough|a\s+slow|a\s+flying|the\s+races)\b)"
           r"(?P<o>(?i:go|do|bake|cook|have|make|play|watch|visit|see|meet|practice|practise|hit|catch|"
           r"walk|run|ride|take|get)\s+" + _NOT_THING + r"[\w'’-]+(?:\s+" + _NOT_BREAK + r"[\w'’-]+){0,6})",
           ("o", "PLANS", "activity", "Activity"), future=True, opens_clause=True, cue=("off to",)),
    # "I'm passionate about dancing", "I've always been passionate about veterans and their rights"
    *_rule(r"<S>\s+<ADV>(?i:am|is|are|have been|has been|have always been|has always been)\s+"
           r"(?:(?i:really|so|very|truly|super|deeply|incredibly|especially)\s+)?(?i:passionate)\s+(?i:about)\s+"
           + _PASSION, N("o", "LIKES", "Thing"), opens_clause=True, cue=("passionate about",)),
    # "I'm starting a dance studio", "I'm creating a library for my kids": a thing of one's own under way
    # (a job or a course started is the life-change rules')
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?:(?i:still|also|currently|now|slowly)\s+)?"
           r"(?i:starting|building|creating|opening|setting up|launching|designing)\s+(?i:a|an|my|our)\s+"
           r"(?!(?:[\w-]+\s+){0,2}(?i:job|jobs|position|role|career|course|courses|class|classes|lessons|"
           r"workshop|degree|internship|shift|diet|routine|program|programme|chapter|life|journey|family|"
           r"conversation|thread|list|fire|trend|trip|tour|season|semester|term|treatment|therapy)\b)"
           r"(?P<o>(?:(?i:new|small|little|own)\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*)?)(?=\s*(?:[,.!;]|$)|\s+"
           r"(?i:for|with|in|at|on|to|and|but|so|because|'cause|cause|since|that|which)\b)",
           N("o", "WORKS_ON", "Project"), opens_clause=True,
           cue=("starting", "building", "creating", "opening", "setting", "launching", "designing")),
    # "I started volunteering here about a year ago": a pastime since then (dated: undated "started"
    # is the things-done rules')
    *_rule(r"<S>\s+<ADV>(?i:started|began)\s+(?P<o>(?i:" + _HOBBY + r"))(?![\w-])",
           _plain("o", "HAS_HOBBY", "Activity"), needs_time=True, opens_clause=True,
           cue=("started", "began")),
    # "I'm now part of the fire-fighting brigade", "I'm a part of a writers' group"
    *_rule(r"<S>\s+<ADV>(?i:am|is|are)\s+(?:(?i:now|also|proudly|officially)\s+)?(?:(?i:a)\s+)?(?i:part)\s+"
           r"(?i:of)\s+(?i:a|an|the|our|my)\s+(?P<o>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?\s+"
           r"(?i:group|team|club|brigade|community|crew|choir|band|league|association|society|network|"
           r"organization|organisation|program|programme|committee|squad|collective|circle))\b",
           N("o", "MEMBER_OF", "Organization"), opens_clause=True, cue=("part of",)),
]

# A series of things done: ", roasted marshmallows and even went on a hike" — a piece after a comma or
# "and" that opens with a past verb of these lists is a statement of the same subject.
_SERIES_VERBS = _alt((*DOING_VERBS, "went", "visited", "played", "watched", "saw", "painted", "volunteered",
                      "joined", "hosted", "organized", "organised", "celebrated", "attended", "finished",
                      "tried", "spent", "met"))
_SERIES_AND = re.compile(r"(?:,\s+(?:(?i:and)\s+)?|\s+(?i:and)\s+)(?:(?i:even|also|then|just|finally)\s+)?"
                         r"(?=(?i:" + _SERIES_VERBS + r")\s+[\w'’-])")
_SERIES_LEAD = re.compile(r"^(?P<subj>I|[Ww]e)\s+(?:(?i:just|also|even|then|all|both)\s+)?"
                          r"(?i:" + _SERIES_VERBS + r")\s")


def done_series(clause: str) -> list[str]:
    """"We explored nature, roasted marshmallows and even went on a hike" -> its statements, the
    subject said again before each piece ("We roasted marshmallows", "We even went on a hike")."""
    lead = _SERIES_LEAD.match(clause)
    if lead is None:
        return [clause]
    parts = _SERIES_AND.split(clause)
    if len(parts) < 2:
        return [clause]
    pieces = [parts[0]]
    for m, part in zip(_SERIES_AND.finditer(clause), parts[1:], strict=True):
        adverb = [w for w in m.group(0).replace(",", " ").split() if w.lower() != "and"]  # "even", kept
        pieces.append(" ".join([lead.group("subj"), *adverb, part]))
    return pieces
