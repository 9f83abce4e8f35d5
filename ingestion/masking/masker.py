"""Masking a text with a policy: every detector's spans, overlaps settled, placeholders in.

Where spans overlap, the one starting first wins; of two starting at the same place, the kind
listed first (extra patterns, then :data:`~temporal_graph.core.mask_policy.MASK_KINDS`: the more
specific one, so the password in ``postgres://me:pw@host`` is a password, not an e-mail address),
then the longer.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from temporal_graph.core.errors import InvalidInput
from temporal_graph.core.extraction import Extraction
from temporal_graph.core.mask_policy import MaskingPolicy, compile_pattern

from .detectors import BUILT_IN, Detector, Finder, Span


class _View(dict[int, int]):
    """How the detectors read a text, one character for one (so spans fit the text as given):
    full-width ASCII (common in Chinese text) as ASCII, every script's decimal digits (Arabic-Indic
    ``٤١١١``, Devanagari ``४१११``) as ASCII digits, any space (no-break, thin, ideographic) as a space,
    and hyphens, en and em dashes and the minus sign as "-". Each character is looked up once."""

    def __missing__(self, code: int) -> int:
        ch = chr(code)
        if 0xFF01 <= code <= 0xFF5E:
            read = code - 0xFF01 + 0x21
        elif ch.isdecimal():
            read = 0x30 + unicodedata.decimal(ch)
        elif unicodedata.category(ch) == "Zs":
            read = 0x20
        elif ch in _DASHES:
            read = 0x2D
        else:
            read = code
        if len(self) < 20_000:  # the characters texts use, not every one a hostile text may hold
            self[code] = read
        return read


_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2212\ufe58\ufe63"
_VIEW = _View()
PLACEHOLDER = re.compile(r"\[[a-z][a-z0-9_]*\]")


@dataclass(frozen=True)
class Masked:
    """A text after masking, and how many values of each kind were replaced (never the values)."""

    text: str
    counts: dict[str, int] = field(default_factory=dict)


def mask_text(text: str, policy: MaskingPolicy) -> Masked:
    """``text`` with what ``policy`` masks replaced by ``[kind]`` placeholders."""
    if not policy.enabled or not text:
        return Masked(text)
    return _masker(policy).mask(text)


def without_masked_names(extraction: Extraction) -> tuple[Extraction, list[str]]:
    """The extraction without facts whose subject or object is a placeholder (an LLM may answer
    "Bob HAS_EMAIL [email]"): one entity "[email]" would tie every masked address together."""
    dropped = [f for f in extraction.facts if any(PLACEHOLDER.fullmatch((name or "").strip())
                                                  for name in (f.subject, f.object, f.replaces))]
    if not dropped:
        return extraction, []
    kept = [f for f in extraction.facts if f not in dropped]
    notes = [f"skipped {f.subject} {f.relation} {f.object}: names a masked value" for f in dropped]
    return extraction.model_copy(update={"facts": kept}), notes


class Masker:
    """The detectors of one policy, made once."""

    def __init__(self, policy: MaskingPolicy) -> None:
        extra = [Detector(name, pattern_finder(name, pattern, policy.pattern_timeout))
                 for name, pattern in policy.patterns]
        self.detectors = [*extra, *(d for d in BUILT_IN if d.kind in policy.kinds)]
        self.allow = {a.casefold() for a in policy.allow}
        self.allow_compact = {_compact(a) for a in policy.allow}

    def mask(self, text: str) -> Masked:
        view = text if text.isascii() else text.translate(_VIEW)
        found = [(start, rank, start - end, d.kind) for rank, d in enumerate(self.detectors)
                 if d.hint is None or d.hint.search(view) for start, end in d.find(view)]
        found.sort()
        pieces: list[str] = []
        counts: Counter[str] = Counter()
        last = 0
        for start, _, negative_length, kind in found:
            end = start - negative_length
            value = view[start:end]
            if start < last or PLACEHOLDER.fullmatch(value):  # already masked: masking is idempotent
                continue
            if self._allowed(value, kind):  # kept as it is, and nothing inside it is masked
                pieces.append(text[last:end])
            else:
                pieces += [text[last:start], f"[{kind}]"]
                counts[kind] += 1
            last = end
        pieces.append(text[last:])
        return Masked("".join(pieces), dict(counts))

    def _allowed(self, value: str, kind: str) -> bool:
        if value.casefold() in self.allow:
            return True
        return kind != "email" and _compact(value) in self.allow_compact


def pattern_finder(name: str, pattern: str, seconds: float) -> Finder:
    """Spans of an extra pattern's matches (of its group ``v`` when it has one), searched for at
    most ``seconds`` a message; a search that takes longer refuses the message, naming the pattern,
    rather than let it be kept with that pattern unapplied."""
    compiled = compile_pattern(pattern)
    group = "v" if "v" in compiled.groupindex else 0

    def find(text: str) -> Iterator[Span]:
        try:
            spans = [m.span(group) for m in compiled.finditer(text, timeout=seconds)]
        except TimeoutError:
            raise InvalidInput(
                f"mask pattern {name}: {pattern!r} searched this message ({len(text):,} characters) for "
                f"more than {seconds:g} s and was stopped, so the message cannot be masked and is not "
                "stored; simplify the pattern (nested repeats such as (a+)+ can take time exponential "
                "in the text) or raise MaskingPolicy(pattern_timeout=...)"
            ) from None
        return ((start, end) for start, end in spans if start < end)

    return find


def _compact(value: str) -> str:
    """A number or code without its separators: "+1 (415) 555-0132" is "+14155550132"."""
    return re.sub(r"[\s().\-]", "", value).casefold()


@lru_cache(maxsize=16)
def _masker(policy: MaskingPolicy) -> Masker:
    return Masker(policy)
