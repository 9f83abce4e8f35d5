"""The built-in detectors: for each kind, the ways its values are written.

Each detector gives the spans of one kind in a text. A detector may have a ``hint``, a pattern a
text must contain before the detector looks at it (most messages hold no digits, no "@" and no
"password", so most detectors skip most messages). Numbers count only when their checksum holds
(``checksums``), and the digit patterns refuse what dates, times, money, years and version
numbers look like: ``3.5``, ``10:30``, ``2023-05-08``, ``$1,250``.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property

from .checksums import IBAN_LENGTHS, iban_ok, looks_random, luhn_ok, prc_id_ok
from .passwords import FOR, GIVEN, code_shaped, password_finder, reference

Span = tuple[int, int]
Finder = Callable[[str], Iterator[Span]]


@dataclass(frozen=True)
class Detector:
    """One way values of ``kind`` are written; ``hint`` must be found (ignoring case) first."""

    kind: str
    find: Finder
    hint: re.Pattern[str] | None = None


def detector(kind: str, find: Finder | str, hint: str | None = None,
             check: Callable[[str], bool] | None = None) -> Detector:
    finder = regex_finder(find, check) if isinstance(find, str) else find
    return Detector(kind, finder, re.compile(hint, re.IGNORECASE) if hint else None)


def regex_finder(pattern: str, check: Callable[[str], bool] | None = None) -> Finder:
    """Spans of the matches of ``pattern`` (of its group ``v`` when it has one) that pass ``check``."""
    compiled = re.compile(pattern)
    group = "v" if "v" in compiled.groupindex else 0

    def find(text: str) -> Iterator[Span]:
        for m in compiled.finditer(text):
            start, end = m.span(group)
            if start < end and (check is None or check(text[start:end])):
                yield start, end

    return find


# -- numbers written in groups: cards and Chinese mobiles ------------------------------------------------
# A text is read group by group of digits, once: groups joined by one separator ("4111 1111", "4111-1111",
# "4111.1111", two spaces, " - ") make a run. The masker's view has already read no-break and thin spaces as
# spaces, en dashes as "-" and every script's digits as ASCII digits, so these are all the separators.
_GROUP = re.compile(r"\d+")
_JOINS = {" ": " ", "  ": " ", "-": "-", " - ": "-", ".": "."}  # each separator, and its kind
_NOT_BEFORE = frozenset("+.,/:-")  # "+44 ...", "3.5", "1,250", "12/25", "10:30", "-5" are other numbers
Shape = tuple[int, ...]
Run = list[tuple[int, int, str]]  # (start, end, the kind of separator before it) of each group


@dataclass(frozen=True)
class GroupedNumber:
    """Numbers written in groups of digits: their plausible groupings (the lengths of the groups),
    how many digits one may have written with no separator at all, a check of the digits, and how
    many short groups (after a space: an expiry, a security code; ``_short``) may follow the last
    number of a run."""

    shapes: frozenset[Shape]
    unbroken: range
    check: Callable[[str], bool]
    trailing: int = 0

    def __call__(self, text: str) -> Iterator[Span]:
        for run in digit_runs(text):
            yield from self.numbers(text, run)

    def numbers(self, text: str, run: Run) -> list[Span]:
        """The numbers of one run when the whole run is numbers of a plausible grouping whose check
        holds (then maybe short trailing groups), else none: "2016 2017 2018 2019 2020 2021" is no
        card, whatever four of its years add up to. A candidate is at most five groups, and each
        group is settled once (from the end), so a run costs time in proportion to its groups."""
        n = len(run)
        tail = n  # groups from ``tail`` on may be short trailing groups
        while n - tail < self.trailing and tail > 1 and run[tail - 1][2] == " " \
                and _short(text[run[tail - 1][0] : run[tail - 1][1]]):
            tail -= 1
        size_at = [0] * (n + 1)  # the groups of the number at i, when i.. are all numbers (then trailing)
        for i in range(n - 1, -1, -1):
            for size in self._sizes:
                after = i + size
                if after <= n and (after >= tail or size_at[after]) and self._fits(text, run, i, size):
                    size_at[i] = size
                    break
        found: list[Span] = []
        i = 0
        while i < tail:
            if not size_at[i]:
                return []
            found.append((run[i][0], run[i + size_at[i] - 1][1]))
            i += size_at[i]
        return found

    @cached_property
    def _sizes(self) -> list[int]:
        return sorted({len(shape) for shape in self.shapes} | {1}, reverse=True)

    def _fits(self, text: str, run: Run, first: int, size: int) -> bool:
        chosen = run[first : first + size]
        if len({join for _, _, join in chosen[1:]}) > 1:  # one kind of separator within a number
            return False
        lengths = tuple(end - start for start, end, _ in chosen)
        if lengths not in self.shapes and not (size == 1 and lengths[0] in self.unbroken):
            return False
        return self.check("".join(text[start:end] for start, end, _ in chosen))


def _short(group: str) -> bool:
    """A group that may follow a card: 1-3 digits ("12 25", a security code), or an expiry MMYY."""
    return len(group) <= 3 or (len(group) == 4 and 1 <= int(group[:2]) <= 12)


def digit_runs(text: str) -> Iterator[Run]:
    """Runs of digit groups, in one pass: (start, end, the kind of separator before it) of each
    group. A run never starts right after "+", ".", ",", "/", ":" or "-", and never ends right before
    "/", ":" or "," and a digit (those groups are left out: "... 1111 10:30" keeps "10")."""
    run: Run = []
    for m in _GROUP.finditer(text):
        start, end = m.span()
        join = _JOINS.get(text[run[-1][1] : start]) if run and start - run[-1][1] <= 3 else None
        if join is not None:
            run.append((start, end, join))
            continue
        if run:
            yield from _bounded(text, run)
        run = [(start, end, "")]
    if run:
        yield from _bounded(text, run)


def _bounded(text: str, run: Run) -> Iterator[Run]:
    first, last = 0, len(run)
    while first < last and _starts_badly(text, run[first][0]):
        first += 1
    while last > first and _ends_badly(text, run[last - 1][1]):
        last -= 1
    if first < last:
        start, end, _ = run[first]
        yield [(start, end, ""), *run[first + 1 : last]]


def _starts_badly(text: str, start: int) -> bool:
    before = text[max(0, start - 2) : start]
    if before[-1:] == "." and before[:1].isalpha():  # an abbreviation: "card no.4111 1111 1111 1111"
        return False
    return before[-1:] in _NOT_BEFORE


def _ends_badly(text: str, end: int) -> bool:
    after = text[end : end + 2]
    return after[:1] in ("/", ":") or (after[:1] == "," and after[1:].isdigit())


CARD_SHAPES = frozenset({  # and 13-19 digits with no separator
    (4, 4, 4, 4), (4, 4, 4, 4, 3), (4, 4, 4, 3), (4, 4, 4, 2), (4, 4, 4, 1), (4, 4, 5),  # Visa, Mastercard
    (4, 6, 5), (4, 6, 4),  # American Express, Diners Club
})


def card_ok(digits: str) -> bool:
    """13-19 digits that start as a card network's do, Luhn-valid."""
    return 13 <= len(digits) <= 19 and card_network(digits) and luhn_ok(digits)


def card_network(digits: str) -> bool:
    """The first digits of a card network's numbers: Visa 4; Mastercard 51-55 and 2221-2720, Maestro
    50 and 56-59, Mir 2200-2204; American Express 34 and 37, Diners Club 30, 36, 38 and 39, JCB 35;
    Discover, UnionPay and Maestro 6. So no year from 1000 to 2199 begins a card."""
    first, four = digits[0], int(digits[:4])
    if first in "456":
        return True
    if first == "3":
        return digits[1] in "0456789"
    return first == "2" and (2200 <= four <= 2204 or 2221 <= four <= 2720)


def mobile_ok(digits: str) -> bool:
    """A Chinese mobile number: 1[3-9] and 9 more digits."""
    return len(digits) == 11 and digits[0] == "1" and digits[1] in "3456789"


card_finder = GroupedNumber(CARD_SHAPES, range(13, 20), card_ok, trailing=3)
mobile_finder = GroupedNumber(frozenset({(3, 4, 4)}), range(11, 12), mobile_ok)


# -- IBANs -----------------------------------------------------------------------------------------------
_IBAN_START = re.compile(r"(?<![A-Za-z0-9])([A-Za-z]{2})\d{2}(?=[ -]?[A-Za-z0-9]{4})")


def iban_finder(text: str) -> Iterator[Span]:
    """IBANs, whole or in groups of four (one space or one dash between groups, the same one
    throughout): exactly their country's length, mod-97 valid. Each looks at most 45 characters."""
    for m in _IBAN_START.finditer(text):
        length = IBAN_LENGTHS.get(m.group(1).upper())
        if length is None:
            continue
        chars: list[str] = []
        end, separator = m.start(), ""
        while end < len(text) and len(chars) < length:
            ch = text[end]
            if ch.isascii() and ch.isalnum():
                chars.append(ch.upper())
            elif ch in " -" and (separator or ch) == ch and len(chars) % 4 == 0 \
                    and text[end + 1 : end + 2].isascii() and text[end + 1 : end + 2].isalnum():
                separator = ch
            else:
                break
            end += 1
        complete = len(chars) == length and not text[end : end + 1].isalnum()
        if complete and iban_ok("".join(chars)):
            yield m.start(), end


# -- passwords (passwords.py): how values are given --------------------------------------------------------
_IS = GIVEN.replace("?P<prose>", "?:").replace("?P<sign>", "?:")  # "is", "was", ":", "=", on one line
_FOR = FOR


# -- other value checks -------------------------------------------------------------------------------------
_DATE_LIKE = re.compile(r"\d{4}\s*[-./]\s*\d{1,4}(?:\s*[-./]\s*\d{1,2})?|\d{1,2}[-./]\d{1,2}[-./]\d{2,4}")
_FILE_EXTENSIONS = frozenset("png jpg jpeg gif svg webp bmp ico pdf txt md js ts css html json py".split())


def phone_value_ok(value: str) -> bool:
    """A number after a phone keyword: 7-15 digits, not a date or a span of years."""
    return 7 <= len(re.sub(r"\D", "", value)) <= 15 and not _DATE_LIKE.fullmatch(value.strip())


def international_ok(value: str) -> bool:
    """``+`` and 8-15 digits, separated by single spaces, dots, dashes or brackets."""
    return 8 <= len(re.sub(r"\D", "", value)) <= 15 and not re.search(r"[ .-]{2}", value)


def email_ok(value: str) -> bool:
    """Not a file name such as ``icon@2x.png``."""
    return value.rsplit(".", 1)[-1].casefold() not in _FILE_EXTENSIONS


# -- keys -------------------------------------------------------------------------------------------------
_PEM_BEGIN = re.compile(r"-----BEGIN[A-Z ]{0,40}PRIVATE KEY-----")
_PEM_END = re.compile(r"-----END[A-Z ]{0,40}PRIVATE KEY-----")
_PEM_BODY = re.compile(r"[A-Za-z0-9+/=\s]*")


def private_key_finder(text: str) -> Iterator[Span]:
    """PEM private keys, from BEGIN to the next END (or to the end of the base64 after BEGIN when
    the END is missing); the ENDs are found once, so many BEGINs cost no more than one."""
    ends = [m.span() for m in _PEM_END.finditer(text)]
    starts = [start for start, _ in ends]
    last = 0
    for m in _PEM_BEGIN.finditer(text):
        if m.start() < last:
            continue
        i = bisect.bisect_left(starts, m.end())
        if i < len(ends):
            last = ends[i][1]
        else:
            body = _PEM_BODY.match(text, m.end())
            last = body.end() if body else m.end()
        yield m.start(), last


# A hex key with a key word shortly before it: "my encryption key: 4f3c2a1b...". Hex strings are hashes,
# commit ids and UUIDs as often as keys, so without such a word one stays.
_HEX = re.compile(r"(?<![0-9A-Za-z])[0-9a-fA-F]{32,}(?![0-9A-Za-z])")
_KEY_WORD = re.compile(r"(?i)(?<![A-Za-z])(?:key|secret|token|seed|passphrase|credential|hmac)s?(?![A-Za-z])")
_KEY_WORD_BEFORE = 40  # characters


def hex_key_finder(text: str) -> Iterator[Span]:
    """Hex runs of 32 or more characters, with digits and letters, after a key word."""
    for m in _HEX.finditer(text):
        value = m.group()
        if has_digit(value) and not value.isdigit() and \
                _KEY_WORD.search(text, max(0, m.start() - _KEY_WORD_BEFORE), m.start()):
            yield m.span()


def has_digit(value: str) -> bool:
    return any(ch.isdigit() for ch in value)


def secret_value_ok(value: str) -> bool:
    """A value given to a key or token name: letters and digits, or long; never code
    (``settings.SECRET_KEY``, ``new_token``: :func:`~.passwords.code_shaped`)."""
    return (len(value) >= 20 or (has_digit(value) and any(ch.isalpha() for ch in value))) \
        and not code_shaped(value)


def key_value_ok(value: str) -> bool:
    """A value given to a plain "key": as for a key name, unless a token detector names it."""
    return secret_value_ok(value) and _TOKEN_RE.fullmatch(value) is None


# A full stop after it ends the sentence; one followed by "(" or "[" is a call or an index in code (the
# atomic group keeps a shorter value from matching instead).
_SECRET_VALUE = r"(?P<v>(?>[A-Za-z0-9_\-+/=.~]{7,}[A-Za-z0-9_\-+/=~]))(?![(\[])"
_RANDOM = r"[A-Za-z0-9+=_/-]"
_RANDOM_RUN = re.compile(rf"(?<!{_RANDOM})(?:{_RANDOM}){{24,}}(?!{_RANDOM})")
_ASSIGNED = re.compile(r".*=(?=[^=])")  # up to the last "=" that is not base64's padding at the end


def random_finder(text: str) -> Iterator[Span]:
    """Long random strings (:func:`~.checksums.looks_random`); in ``NAME=value`` only the value is
    looked at, so a setting's name is never masked with it (``JWT_SECRET=...`` keeps its name, and
    the value is a [secret] when a key detector names it so)."""
    for m in _RANDOM_RUN.finditer(text):
        start = m.start()
        named = _ASSIGNED.match(m.group())
        if named is not None:
            start += named.end()
        if looks_random(text[start : m.end()]):
            yield start, m.end()


# -- the patterns -------------------------------------------------------------------------------------------
_KEY_NAME = (r"(?:[A-Za-z0-9]+[_.-])*(?:(?:api|access|secret|private|encryption|wallet|licen[cs]e|product"
             r"|recovery|master)[\s_-]?key|apikey|client[\s_-]?secret|secret|token|credentials?)"
             r"(?:[_.-][A-Za-z0-9]+)*")
# Local parts and domains in any script (josé@example.com, 用户@例子.中国), and punycode ones (xn--...).
_EMAIL_CHARS = r"\w!#$%&'*+/=?^`{|}~-"
_EMAIL = (rf"(?<![.{_EMAIL_CHARS}])[{_EMAIL_CHARS}]+(?:\.[{_EMAIL_CHARS}]+)*"
          r"@(?:[^\W_](?:[\w-]{0,61}[^\W_])?\.)+(?:[^\W\d_]{2,63}|xn--[a-z0-9-]{1,59})(?![\w-])")
# North American: (555) 123-4567, 555-123-4567, 555.123.4567, 555 123 4567, 1-800-555-0199.
_NANP = (r"(?<![\w+.,/-])(?:1[-. ]?)?(?:\([2-9]\d{2}\)\s?|[2-9]\d{2}(?P<sep>[-. ]))"
         r"[2-9]\d{2}(?(sep)(?P=sep)|[-. ])\d{4}(?![\w-]|[.,]\d)")
_PHONE_WORDS = (r"(?i)\b(?:phone|tel|telephone|mobile|cell|cellphone|whatsapp|fax"
                r"|(?:phone|mobile|cell|contact|my)\s+(?:number|no\.?|#)|(?:call|text|reach|ring)\s+me\s+(?:at|on))"
                r"(?:\s*(?:is|:|at|on|-|\uff1a))*\s*(?P<v>\+?\(?\d[\d ().-]{5,20}\d)(?!\d)")
_TOKEN_PREFIXES = (
    r"sk-(?:proj-|ant-(?:api\d\d-)?|svcacct-|admin-)?[A-Za-z0-9_-]{20,}",  # OpenAI, Anthropic
    r"(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}",  # Stripe
    r"gh[pousr]_[A-Za-z0-9]{36,}", r"github_pat_[A-Za-z0-9_]{22,}",  # GitHub
    r"xox[abprs]-[A-Za-z0-9-]{10,}",  # Slack
    r"(?:AKIA|ASIA)[0-9A-Z]{16}",  # AWS access key id
    r"AIza[0-9A-Za-z_-]{35}",  # Google
    r"glpat-[0-9A-Za-z_-]{20,}", r"hf_[A-Za-z0-9]{30,}", r"npm_[A-Za-z0-9]{36}",  # GitLab, Hugging Face, npm
    r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",  # JWT
)
_PHONE_WORDS_ZH = r"(?:电话|手机|联系方式)(?:号码?)?\s*(?:是|为|：|:)?\s*(?P<v>\+?\d[\d -]{5,20}\d)(?!\d)"
_TOKEN_HINT = r"sk-|_live_|_test_|gh[pousr]_|github_pat_|xox|akia|asia|aiza|glpat-|hf_|npm_|eyj"
_TOKEN = rf"(?<![A-Za-z0-9_-])(?:{'|'.join(_TOKEN_PREFIXES)})(?![A-Za-z0-9_-])"
_TOKEN_RE = re.compile(f"(?:{'|'.join(_TOKEN_PREFIXES)})")

# In order of preference when two spans start at the same place (mask_policy.MASK_KINDS order).
BUILT_IN: tuple[Detector, ...] = (
    detector("password", password_finder, r"pass|pwd|pw"),
    detector("password", rf"(?i)\bpin(?:\s*(?:code|number))?\b{_FOR}{_IS}(?P<v>\d{{4,8}})(?!\d)", r"pin"),
    detector("password", r"(?:密码|口令|支付密码|PIN码)\s*(?:是|为|：|:)\s*(?P<v>[^\s，。；！？、,;]{1,64})",
             r"密码|口令"),
    detector("password", r"(?i)\b[a-z][a-z0-9+.-]{1,20}://[^\s/:@]{1,64}:(?P<v>[^\s/@]{1,128})@",
             r"://", lambda value: not reference(value)),  # scheme://user:PASSWORD@host, not ${PASSWORD}
    detector("password", r"(?<![\w-])(?:-u|--user)[ =]+[^\s:\"']{1,64}:(?P<v>[^\s@\"']{1,128})", r"-u|--user",
             lambda value: not code_shaped(value, prose=True)),  # curl -u user:PASSWORD, not -u "$U:$P"
    detector("secret", private_key_finder, r"PRIVATE KEY"),
    detector("secret", rf"(?i)(?<![A-Za-z0-9_]){_KEY_NAME}{_FOR}[\"']?{_IS}[\"']?{_SECRET_VALUE}",
             r"key|secret|token|credential", secret_value_ok),
    detector("secret", rf"(?i)(?<![A-Za-z0-9_])key{_FOR}{_IS}[\"']?{_SECRET_VALUE}", r"key",
             key_value_ok),  # "the key is ...": a known token prefix is an [api_key]
    detector("secret", hex_key_finder, r"key|secret|token|seed|passphrase|credential|hmac"),
    detector("secret", r"(?i)\bAuthorization\s*:\s*Basic\s+(?P<v>[A-Za-z0-9+/=]{8,})", r"authorization"),
    detector("national_id", r"(?<![0-9A-Za-z])\d{17}[0-9Xx](?![0-9A-Za-z])", r"\d{17}", prc_id_ok),
    detector("card", card_finder, r"\d{3}"),
    detector("iban", iban_finder, r"[a-z]{2}\d{2}"),
    detector("email", _EMAIL, r"@", email_ok),
    detector("phone", r"(?<![A-Za-z0-9+])\+\d[\d ().-]{6,22}\d(?!\d)", r"\+\d", international_ok),
    detector("phone", _NANP, r"\d{3}\D{1,2}\d{3}\D\d{4}"),
    detector("phone", mobile_finder, r"1[3-9]\d"),
    detector("phone", _PHONE_WORDS, r"\d{3}", phone_value_ok),  # any 7-15 digits after "phone", "call me at"
    detector("phone", _PHONE_WORDS_ZH, r"电话|手机|联系方式", phone_value_ok),
    detector("api_key", _TOKEN, _TOKEN_HINT, has_digit),
    detector("api_key", r"\bBearer\s+(?P<v>[A-Za-z0-9._~+/=-]{16,})", r"bearer"),
    # a long random string (an AWS secret access key: 40 characters of base64, "/" and "+" included)
    detector("api_key", random_finder, r"\d"),
)
