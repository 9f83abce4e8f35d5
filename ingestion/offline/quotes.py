"""Quoted speech: words a message quotes are the quoted person's, never the speaker's own.

``Bob told me: "I live in Berlin."`` from Mallory says something about Bob (as Mallory's claim), not
about Mallory. :func:`split_quotes` takes the quotes out of a message with who said each one, as
far as the frame names them: ``X said/told me/says: "..."``, ``X: "..."``, ``"...," X said``. A
quote in the first person without a frame is someone's words too, of someone unnamed.
"""

from __future__ import annotations

import re

from .grammar import ADV, KIN_ADJ, NAME

_SPEECH = (r"(?i:said|says|say|told|tells|tell|wrote|writes|texted|texts|messaged|asked|asks|replied|"
           r"replies|answered|answers|added|adds|explained|explains|announced|announces|mentioned|"
           r"mentions|posted|yelled|shouted|whispered|goes|went|was like|is like|was all)")
_LISTENER = r"(?:\s+(?:to\s+)?(?i:me|us|him|her|them|everyone|you))?"
_LEAD = r"(?:\s+(?i:that|this|something like|like))?"
# Who speaks: a name, "my brother (Tom)", or a pronoun (then the quote is someone's, unnamed).
_WHO = rf"(?:(?:[Mm]y|[Oo]ur)\s+(?:{KIN_ADJ}\s+)?[a-z]+(?:\s+{NAME})?|{NAME}|I|[Ww]e|[Hh]e|[Ss]he|[Tt]hey)"
# The quote: in double quotes, or single quotes (an apostrophe inside a word does not close it).
_QUOTE = (r"(?:[\"“”](?P<dq>[^\"“”\n]{1,1000})[\"“”]"
          r"|(?<![\w'])'(?P<sq>(?:[^'\n]|'(?=\w)){1,1000})'(?!\w))")

_FRAMES = (
    re.compile(rf"(?P<who>{_WHO})\s+{ADV}{_SPEECH}{_LISTENER}{_LEAD}\s*[,:]?\s*{_QUOTE}"),
    re.compile(rf"(?:^|(?<=[.!?;]\s))(?P<who>{_WHO})\s*:\s*{_QUOTE}"),
    re.compile(rf"{_QUOTE}\s*,?\s*(?:(?P<who>{_WHO})\s+{_SPEECH}|{_SPEECH}\s+(?P<who2>{_WHO}))\b"),
)
_BARE = re.compile(r"[\"“”](?P<dq>[^\"“”\n]{1,1000})[\"“”]")
_FIRST_PERSON = re.compile(r"\b(?:I|[Mm]e|[Mm]y|[Mm]ine|[Ww]e|[Uu]s|[Oo]ur)\b")
_TRAILING_NAME = re.compile(rf"(?:^|\s)(?P<name>{NAME})$")


def split_quotes(text: str) -> tuple[str, list[tuple[str | None, str]]]:
    """``text`` without its quoted speech, and each quote as (who said it, the quote): who is the
    frame's words ("Bob", "my brother Tom", "I", "she"), or None when no frame names anyone."""
    quotes: list[tuple[str | None, str]] = []

    def take(m: re.Match[str]) -> str:
        groups = m.groupdict()
        quotes.append((groups.get("who") or groups.get("who2"), groups.get("dq") or groups.get("sq") or ""))
        return " "

    for frame in _FRAMES:
        text = frame.sub(take, text)

    def bare(m: re.Match[str]) -> str:  # "Rome" or "The Office" stay: a name or title, not speech
        return take(m) if _FIRST_PERSON.search(m.group("dq")) else m.group(0)

    return _BARE.sub(bare, text), quotes


def quoted_name(who: str | None) -> str | None:
    """The name a quote's frame gives its speaker ("Bob", "Tom" in "my brother Tom"), "I" for the
    message's own speaker, or None: a pronoun, "my boss", or no frame."""
    if who is None:
        return None
    if who in ("I", "we", "We"):
        return "I"
    found = _TRAILING_NAME.search(who)
    return found.group("name") if found else None
