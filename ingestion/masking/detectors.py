"""The built-in detectors: for each kind, the ways its values are written.

Each detector gives the spans of one kind in a text. A detector may have a ``hint``, a pattern a
text must contain before the detector looks at it (most messages hold no digits, no "@" and no
"password", so most detectors skip most messages). Numbers count only when their checksum holds
(``checksums``), and the digit patterns refuse what dates, times, money, years and version
numbers look like: ``3.5``, ``10:30``, ``2023-05-08``, ``$1,250``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .checksums import IBAN_LENGTHS, iban_ok, looks_random, luhn_ok, prc_id_ok

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
# Digits in groups separated by one space or dash; never part of "3.5", "10:30", "1,250" or "+44 ...".
_DIGIT_RUN = re.compile(r"(?<![\d+.,/:-])\d+(?:[ -]\d+)*(?![\d/:]|[.,]\d)")  # "1111." ends a sentence
Fits = Callable[[str, list[str]], bool]


def grouped_digits(fits: Fits) -> Finder:
    """Runs of digit groups (``4111 1111 1111 1111``): the longest stretch of whole groups that
    ``fits(digits, groups)``, so a card followed by its expiry ("... 1111 12 25") is still found."""

    def find(text: str) -> Iterator[Span]:
        for m in _DIGIT_RUN.finditer(text):
            parts = [(p.start() + m.start(), p.end() + m.start()) for p in re.finditer(r"\d+", m.group())]
            best = _longest_fit(text, parts, fits)
            if best is not None:
                yield best

    return find


def _longest_fit(text: str, parts: list[Span], fits: Fits) -> Span | None:
    for size in range(len(parts), 0, -1):
        for first in range(len(parts) - size + 1):
            chosen = parts[first : first + size]
            groups = [text[s:e] for s, e in chosen]
            if fits("".join(groups), groups):
                return chosen[0][0], chosen[-1][1]
    return None


def card_fits(digits: str, groups: list[str]) -> bool:
    """13-19 digits from a card network (2-6), written whole or in groups of 3-6, Luhn-valid."""
    grouped = len(groups) == 1 or all(3 <= len(g) <= 6 for g in groups)
    return 13 <= len(digits) <= 19 and digits[0] in "23456" and grouped and luhn_ok(digits)


def mobile_fits(digits: str, groups: list[str]) -> bool:
    """A Chinese mobile number: 1[3-9] and 9 more digits, whole or as 3-4-4."""
    shape = [len(g) for g in groups] in ([11], [3, 4, 4])
    return shape and re.fullmatch(r"1[3-9]\d{9}", digits) is not None


# -- IBANs -----------------------------------------------------------------------------------------------
_IBAN_START = re.compile(r"(?<![A-Za-z0-9])([A-Za-z]{2})\d{2}(?=[ ]?[A-Za-z0-9]{4})")


def iban_finder(text: str) -> Iterator[Span]:
    """IBANs, whole or in groups of four: exactly their country's length, mod-97 valid."""
    for m in _IBAN_START.finditer(text):
        length = IBAN_LENGTHS.get(m.group(1).upper())
        if length is None:
            continue
        chars: list[str] = []
        end = m.start()
        while end < len(text) and len(chars) < length:
            ch = text[end]
            if ch.isascii() and ch.isalnum():
                chars.append(ch.upper())
            elif not (ch == " " and len(chars) % 4 == 0 and text[end + 1 : end + 2] not in ("", " ")):
                break
            end += 1
        complete = len(chars) == length and not text[end : end + 1].isalnum()
        if complete and iban_ok("".join(chars)):
            yield m.start(), end


# -- passwords --------------------------------------------------------------------------------------------
# Words that follow "password is" in a sentence about a password, not in a disclosure of one.
_NOT_PASSWORDS = frozenset("""
    a an the this that these those it its my your his her our their same different new old wrong right
    correct incorrect invalid valid expired weak strong long short easy hard simple complicated secure
    insecure safe unsafe too very so not still now already just also only really quite pretty case
    required needed necessary optional reset hidden protected encrypted on in at under inside somewhere
    where here there something nothing what which who how why when being been be was is are were will
    would should could can must may might and or but if for to of with without about like as than then
    because since until from by into stolen forgotten lost taken broken known shown given written mine
    yours ours theirs hers unknown secret private personal random unique temporary enough
""".split())
_QUOTES_OPEN, _QUOTES_CLOSE = "\"'`\u201c\u2018\u300c", "\"'`\u201d\u2019\u300d"
_IS = r"(?:\s+(?:is|was)\s*[:\uff1a]?|\s*[:=\uff1a])\s*"  # "is", "was", ":", "="
_PASSWORD = re.compile(  # a quoted value may follow the word directly: password "correct horse"
    rf"(?i)\b(?:password|passwd|passphrase|passcode|pwd|pw)\b(?:{_IS}|\s+(?=[{_QUOTES_OPEN}]))"
    rf"(?:[{_QUOTES_OPEN}](?P<quoted>[^{_QUOTES_CLOSE}\n]{{1,100}})[{_QUOTES_CLOSE}]"
    rf"|(?P<v>[^\s{_QUOTES_OPEN}]\S{{0,99}}))"
)


def password_finder(text: str) -> Iterator[Span]:
    """"my password is X", "password: X", a quoted value with spaces; a trailing full stop or comma
    stays in the sentence."""
    for m in _PASSWORD.finditer(text):
        if m.group("quoted") is not None:
            yield m.span("quoted")
            continue
        value = m.group("v").rstrip(".,;:")
        if value and password_ok(value):
            yield m.start("v"), m.start("v") + len(value)


def password_ok(value: str) -> bool:
    """The word after "password is" is the password unless it is an ordinary word of the sentence
    ("my password is too short", "the password is on the fridge", "my password was changed")."""
    return value.strip("!?").casefold() not in _NOT_PASSWORDS and not re.fullmatch(r"[a-z]+ed", value)


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


def has_digit(value: str) -> bool:
    return any(ch.isdigit() for ch in value)


def secret_value_ok(value: str) -> bool:
    """A value given to a key or token name: letters and digits, or long."""
    return len(value) >= 20 or (has_digit(value) and any(ch.isalpha() for ch in value))


# -- the patterns -------------------------------------------------------------------------------------------
_KEY_NAME = (r"(?:[A-Za-z0-9]+[_.-])*(?:(?:api|access|secret|private)[\s_-]?key|apikey|client[\s_-]?secret"
             r"|secret|token|credentials?)(?:[_.-][A-Za-z0-9]+)*")
_EMAIL_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_EMAIL = (rf"(?<![A-Za-z0-9._%+-]){_EMAIL_ATOM}(?:\.{_EMAIL_ATOM})*"
          r"@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}(?![A-Za-z0-9-])")
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

# In order of preference when two spans start at the same place (mask_policy.MASK_KINDS order).
BUILT_IN: tuple[Detector, ...] = (
    detector("password", password_finder, r"pass|pwd|pw"),
    detector("password", rf"(?i)\bpin(?:\s*(?:code|number))?\b{_IS}(?P<v>\d{{4,8}})(?!\d)", r"pin"),
    detector("password", r"(?:密码|口令|支付密码|PIN码)\s*(?:是|为|：|:)\s*(?P<v>[^\s，。；！？、,;]{1,64})",
             r"密码|口令"),
    detector("password", r"(?i)\b[a-z][a-z0-9+.-]{1,20}://[^\s/:@]{1,64}:(?P<v>[^\s/@]{1,128})@",
             r"://"),  # scheme://user:PASSWORD@host
    detector("secret", r"-----BEGIN[A-Z ]{0,40}PRIVATE KEY-----"
                       r"(?:[\s\S]*?-----END[A-Z ]{0,40}PRIVATE KEY-----|[A-Za-z0-9+/=\s]*)", r"PRIVATE KEY"),
    detector("secret", rf"(?i)(?<![A-Za-z0-9_]){_KEY_NAME}[\"']?{_IS}[\"']?(?P<v>[A-Za-z0-9_\-+/=.~]{{8,}})",
             r"key|secret|token|credential", secret_value_ok),
    detector("secret", r"(?i)\bAuthorization\s*:\s*Basic\s+(?P<v>[A-Za-z0-9+/=]{8,})", r"authorization"),
    detector("national_id", r"(?<![0-9A-Za-z])\d{17}[0-9Xx](?![0-9A-Za-z])", r"\d{17}", prc_id_ok),
    detector("card", grouped_digits(card_fits), r"\d{3}"),
    detector("iban", iban_finder, r"[a-z]{2}\d{2}"),
    detector("email", _EMAIL, r"@", email_ok),
    detector("phone", r"(?<![A-Za-z0-9+])\+\d[\d ().-]{6,22}\d(?!\d)", r"\+\d", international_ok),
    detector("phone", _NANP, r"\d{3}\D{1,2}\d{3}\D\d{4}"),
    detector("phone", grouped_digits(mobile_fits), r"1[3-9]\d"),
    detector("phone", _PHONE_WORDS, r"\d{3}", phone_value_ok),  # any 7-15 digits after "phone", "call me at"
    detector("phone", _PHONE_WORDS_ZH, r"电话|手机|联系方式", phone_value_ok),
    detector("api_key", _TOKEN, _TOKEN_HINT, has_digit),
    detector("api_key", r"\bBearer\s+(?P<v>[A-Za-z0-9._~+/=-]{16,})", r"bearer"),
    detector("api_key", r"(?<![A-Za-z0-9+=_-])[A-Za-z0-9+=_-]{24,}(?![A-Za-z0-9+=_-])", r"\d", looks_random),
)
