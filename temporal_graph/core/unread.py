"""What of a message no fact read from it covers (issue 50, partly replaced messages).

The extractor reads some statements of a message and not others: "Rafa is a nurse at St Mary's,
lives in Leeds and plays the cello" may give only *lives in Leeds*. When every fact read from it
ends, the message is not wholly out of date while a part nobody read ("plays the cello") may still
hold: it is partly superseded. This module says which parts of a message are unread, cheaply and
without a model: the message is cut into sentences and clauses (at ``;``, ``,``, "and", "but", a
dash, brackets), and a clause is unread when it has content words and none of them is a word of
what was read (the statements' sentences, their objects and relations), the words naming whom the
statements are about aside ("Rafa" is in every clause about Rafa, read or not).

Precision goes both ways: a clause that shares a value or relation word with a read statement is
read, however much else it says ("I moved to York last month"); questions, greetings, feelings,
dates and bare numbers are never unread content, so "Hi! I live in Leeds." goes out of date whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from temporal_graph.core.rewording import STOP_WORDS

__all__ = ["content_words", "parts", "unread_parts"]

# Sentence ends, line breaks, semicolons, dashes (not brackets: "Seoul (Mapo)" says where in Seoul);
# a comma not inside a number or date ("€1,020", "3 March, 2023"); "and", "but", "while" between two
# statements.
_CUT = re.compile(r"(?<=[.!?;])\s+|\n+|;\s*|\s[–—-]\s|,\s+(?=\D)|\s+(?:and|but|while|whereas|plus)\s+",
                  re.IGNORECASE)
# One or two capitalised words after a comma name where the clause before is ("Leeds, UK").
_APPOSITION = re.compile(r"[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?[.!]?")
# Words a place phrase begins with, and "same" ("still in Leeds, same flat"): after a comma, the
# phrase says more of the clause before.
_JOINING = frozenset("in on at near by with from off around outside inside behind beside opposite same"
                     .split())
# A condition or hypothetical holds no value: "(just) in case I end up in Europe", "if we move".
_CONDITION = re.compile(r"(?:(?:and|but|so|or|just)\s+)*(?:if|unless|whether|in case|in order)\b",
                        re.IGNORECASE)
# A request to the assistant holds no value either: "(and) help me write my self-review".
_REQUEST = re.compile(r"(?:(?:and|but|so|also|now|please)\s+)*(?:help|please|can you|could you|would you|"
                      r"tell me|show me|explain|give me|let me know|remind me)\b", re.IGNORECASE)
_EXCLAMATION = re.compile(r"[^\W_][\w'’-]*!+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD = re.compile(r"[^\W_](?:[\w'’.-]*[^\W_])?")
_POSSESSIVE = re.compile(r"['’]s$")
_LETTER = re.compile(r"[^\W\d_]")

# Words that say nothing that could still hold: titles, greetings and feelings, the calendar and
# time ("last month"), hedges. A clause of nothing else is not unread content.
_FILLER = frozenset("""mr mrs ms dr prof st sir madam miss hi hello hey thanks thank cheers lol haha wow omg
yay ugh great good nice cool awesome amazing glad happy excited sad sorry news update guess think know mean
anyway honestly actually basically literally guys folks finally recently lately soon earlier later moment
days weeks months years daily weekly monthly ago note fyi btw january february march april may june july
august september october november december jan feb mar apr jun jul aug sep sept oct nov dec monday
tuesday wednesday thursday friday saturday sunday weekend morning afternoon evening night today tonight
yesterday tomorrow week month year time way kind sort far bit lot pretty quite super totally definitely
love loved loving enjoy enjoying enjoyed fun lovely wonderful fantastic incredible exciting proud grateful
thankful hope hoping wish bad best worst""".split())
# Auxiliaries and the copula: "Varga is our landlord" is not read because a read statement says "is".
_FILLER |= frozenset("""is are was were be been being am has have had having do does did done will would can
could shall should may might must i'm i've i'd i'll we're we've you're they're he's she's it's that's
there's let's""".split())
# Saying, starting and feeling about what was read ("Started there in January", "she said yes",
# "hard to believe", "we've been together since 2019"): nothing else that could still hold.
_FILLER |= frozenset("""start started starting starts began begin begun say said says told early together hard
believe yep yup sure alright""".split())
_FILLER_STEMS: frozenset[str] = frozenset()  # set below, once _stem is defined


def _stem(word: str) -> str:
    """A crude stem, enough to match "lives" with "live" and "married" with "marry"."""
    word = _POSSESSIVE.sub("", word.lower()).strip(".'’-")
    for suffix, put in (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + put
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


_FILLER_STEMS = frozenset(_stem(w) for w in _FILLER)


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def content_words(text: str) -> frozenset[str]:
    """The stems of the words of ``text`` that could say something still true: with a letter, not
    a stop word or filler."""
    return frozenset(_stem(w) for w in _words(text)
                     if _LETTER.search(w) and len(w) > 1 and w not in STOP_WORDS and w not in _FILLER
                     and _stem(w) not in _FILLER_STEMS and w.removesuffix("s") not in _FILLER)


def parts(text: str) -> list[str]:
    """The clauses of ``text`` that state something: its sentences cut at clause marks, questions,
    conditions ("just in case I end up in Europe"), requests ("help me write …") and lone
    exclamations ("Slowly!") left out, as they hold no value."""
    out: list[str] = []
    for sentence in _SENTENCE.split(text):
        sentence = sentence.strip()
        if sentence.endswith("?") or _EXCLAMATION.fullmatch(sentence):
            continue
        for part in _joined(_pieces(sentence)):
            if _CONDITION.match(part) or _REQUEST.match(part):
                break  # the rest of the sentence is the condition's or the request's
            out.append(part)
    return out


def _joined(pieces: list[tuple[str, str]]) -> list[str]:
    """Clauses from the pieces a sentence was cut into: a name or a place phrase after a comma
    or "and" says more of the clause before ("lives at Gartenweg 4, Freiburg", "in Toronto, near
    Ossington"), and a name before "and" belongs to the clause after ("Efua and I are planning")."""
    out: list[str] = []
    carry = ""
    for k, (mark, piece) in enumerate(pieces):
        piece, carry = carry + piece, ""
        name = _APPOSITION.fullmatch(piece) is not None
        place = _words(piece)[:1] in ([w] for w in _JOINING)
        if out and mark in (",", "and") and (name or place):
            out[-1] += f"{mark if mark == ',' else ' and'} {piece}"
        elif name and k + 1 < len(pieces) and pieces[k + 1][0] == "and":
            carry = f"{piece} and "
        else:
            out.append(piece)
    return out


def _pieces(sentence: str) -> list[tuple[str, str]]:
    """The sentence's pieces, each with the mark that cut it from the one before (",", "and", ...;
    "" for the first)."""
    out, at, mark = [], 0, ""
    for m in _CUT.finditer(sentence):
        piece = sentence[at:m.start()].strip()
        if piece:
            out.append((mark, piece))
        at, mark = m.end(), m.group().strip().lower()
    piece = sentence[at:].strip()
    if piece:
        out.append((mark, piece))
    return out


def unread_parts(text: str, read: Iterable[str], about: Iterable[str] = ()) -> tuple[str, ...]:
    """The clauses of the message ``text`` that no statement read from it covers: each has content
    words and none of them is a word of ``read`` (the statements' sentences, or their objects and
    relations). The words of ``about`` (the names of whom the statements are about) cover nothing
    and count for nothing: every clause about Rafa names Rafa, read or not."""
    named = frozenset(s for name in about for s in content_words(name))
    covered = frozenset(s for r in read for s in _stems_of(r)) - named
    out = []
    for part in parts(text):
        words = content_words(part) - named
        if words and not words & covered:
            out.append(part)
    return tuple(out)


def _stems_of(text: str) -> set[str]:
    # Numbers cover too ("rent is €950" is read when *€950* was), though alone they are not content.
    return {_stem(w) for w in _words(text) if w not in STOP_WORDS}
