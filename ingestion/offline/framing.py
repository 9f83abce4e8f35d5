"""What is not told as true by the person telling it: an assistant's turns, fiction, games, dreams and
suppositions, and statements with a reporter tacked on.

* An assistant (a speaker named "assistant", "ai", "bot", "chatgpt", ...) states nothing about the user
  or the world here: what it says is advice, general knowledge or the user's words handed back
  ("Based on what you said, you live in Leeds"), and a memory of the user is built from the user.
* A sentence framed as a story, a game, a dream or a supposition ("In the game I live in Paris", "I
  dreamt I worked at Google", "Let's say my rent is 500", "For example, Tom works at Renault", "My
  character works at Globex") states nothing; the frame reaches to the end of its sentence.
* A sentence closed by its reporter ("My rent is 900 euros, or so my landlord claims", "I live in
  Paris, my flatmate said", "..., I heard", "..., according to my wife", "..., at least that's what
  Mum says") is someone else's word: no fact for the speaker (what the reporter said is at most their
  claim, and the reporter here is not the one speaking).
"""

from __future__ import annotations

import re

ASSISTANT_SPEAKERS = frozenset("""assistant ai bot chatbot chatgpt gpt claude gemini copilot model system
llm agent""".split())

_STORY = (r"(?:game|games|novel|story|stories|book|play|film|movie|script|sketch|show|dream|dreams|daydream|"
          r"nightmare|simulation|sim|sims|campaign|exercise|example|mock-?up|fixture|test|demo|role-?play|rp|"
          r"scenario|hypothetical|fantasy(?:\s+\w+)?|vr\s+game|video\s+game|story\s+I\s+am\s+writing|"
          r"novel\s+I\s+am\s+writing|world|universe|roleplay|d&d\s+campaign|dnd\s+campaign)")
FRAMED = re.compile(
    r"(?:^|(?<=[.!?;]\s))\s*(?:"
    # "In the game ...", "In my novel, ...", "In our D&D campaign ...", "in sims ..."
    rf"(?i:in|inside|within|for)\s+(?:(?i:the|my|our|this|that|a|an|his|her)\s+)?(?:[\w&'-]+\s+){{0,2}}?"
    rf"(?i:{_STORY})\b"
    # "I dreamt (that) ...", "Last night I dreamed ..."
    r"|(?:[\w,]+\s+){0,3}?(?i:I|we)\s+(?i:dreamt|dreamed|dream|imagined|imagine|pretended|pretend)\b"
    # "Imagine ...", "Let's say ...", "Say ...,", "Suppose ...", "Hypothetically ...", "Pretend ...",
    # "For example ...", "e.g. ..."
    r"|(?i:imagine|let\s+us\s+say|let's\s+say|lets\s+say|suppose|supposing|hypothetically|pretend|"
    r"for\s+example|for\s+instance|picture\s+this|what\s+if)\b|(?i:e\.g\.|i\.e\.|ex:)"
    r"|(?i:say)(?:,|\s+(?:(?i:that)\b|(?:I|we|my|our)\s))"  # "Say my rent is 500", not "Say hi to Tom"
    # "My character ...", "My novel's heroine ...", "Her character ..."
    r"|(?i:my|our|his|her|their|the)\s+(?:(?:novel|story|book|game|film|movie|play)['’]s\s+)?"
    r"(?i:character|avatar|heroine|hero|protagonist|persona|alter\s+ego|sim|npc)\b"
    r")")
# A reporter closing a sentence: ", or so my landlord claims", ", my flatmate said", ", I heard", ...
_REPORT_VERB = (r"(?:said|says|say|told\s+me|tells\s+me|told\s+us|claims|claimed|claim|reckons|reckon|thinks|"
                r"think|believes|believe|swears|insists|insisted|mentioned|wrote|writes|heard|hear)")
# Who reports: someone named ("Raj", "my flatmate", "the guy from the agency", "they", "support"), never
# any words before a verb of saying or believing (", hard to believe", ", I must say", ", needless to say").
_REPORTER = (r"(?:(?i:my|our|his|her|their|the|a|an|some|your|this|that|one\s+of\s+(?:my|our|the))\s+"
             r"[\w'’]+(?:\s+[\w'’]+){0,4}?"
             r"|(?!I\b)[A-Z][\w'’]*(?:\s+[A-Z][\w'’]*)?"
             r"|(?i:he|she|they|we|you|him|her|them|everyone|everybody|people|someone|somebody|mum|mom|dad|"
             r"support))")
REPORTED_TAIL = re.compile(
    r",?\s*(?:"
    rf"(?i:or\s+so)\s+{_REPORTER}\s+(?i:{_REPORT_VERB})"
    rf"|(?i:according\s+to)\s+{_REPORTER}"
    rf"|(?i:at\s+least\s+(?:that\s+is|that's|thats)\s+what)\s+{_REPORTER}\s+(?i:{_REPORT_VERB})"
    rf"|(?i:if\s+you\s+believe)\s+{_REPORTER}"
    rf"|(?i:allegedly|supposedly|reportedly|apparently|or\s+something|I\s+think|I\s+guess|I\s+believe)"
    rf"|(?<=,)\s*{_REPORTER}\s+(?i:{_REPORT_VERB})(?:\s+(?i:me|us|him|her|them))?"
    r"|(?<=,)\s*I\s+(?i:heard|hear|was\s+told)"
    rf"|(?<=,)\s*(?i:said|says|claims|claimed|wrote|writes|reports|reported|insists)\s+{_REPORTER}"
    r")\s*(?:[.!?…]+|\s+(?i:lol|lmao|haha|though|tho|anyway))*\s*$")


def is_assistant(speaker: str | None) -> bool:
    """Whether a speaker id is an assistant's ("assistant", "AI", "ChatGPT", ...)."""
    return speaker is not None and speaker.strip().lower() in ASSISTANT_SPEAKERS


def framed(sentence: str) -> bool:
    """Whether a sentence is framed as a story, game, dream, supposition or example."""
    return FRAMED.search(sentence[:200]) is not None


def reported(sentence: str) -> bool:
    """Whether a sentence ends with its reporter ("..., my flatmate said", "..., or so they claim")."""
    return REPORTED_TAIL.search(sentence[-160:]) is not None
