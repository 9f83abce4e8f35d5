"""Checks that tell a value from a lookalike: Luhn for payment cards, mod 97 for IBANs, ISO 7064
MOD 11-2 for PRC resident ids, and a randomness test for tokens. Pure functions of the value."""

from __future__ import annotations

import math
import re
from collections import Counter


def luhn_ok(digits: str) -> bool:
    """The Luhn checksum of payment card numbers (digits only)."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


# IBAN length per country (ISO 13616 registry); an IBAN must have its country's length.
IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29,
    "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29,
    "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28,
    "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20,
    "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19,
    "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29,
    "RO": 24, "RS": 22, "SA": 24, "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28,
    "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
}


def iban_ok(iban: str) -> bool:
    """An IBAN (upper case, no spaces) of its country's length whose mod-97 check holds: the first
    four characters moved to the end, letters read as 10-35, the number is 1 modulo 97."""
    if IBAN_LENGTHS.get(iban[:2]) != len(iban) or not iban[2:4].isdigit() or not iban.isalnum():
        return False
    rearranged = iban[4:] + iban[:4]
    return int("".join(str(int(ch, 36)) for ch in rearranged)) % 97 == 1


_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def prc_id_ok(value: str) -> bool:
    """An 18-character PRC resident id: a region code, a real birth date (1900-2099) and the
    ISO 7064 MOD 11-2 check character (0-9 or X)."""
    if len(value) != 18 or not value[:17].isdigit() or value[0] == "0":
        return False
    year, month, day = int(value[6:10]), int(value[10:12]), int(value[12:14])
    if not (1900 <= year <= 2099 and 1 <= month <= 12 and 1 <= day <= _days_in(year, month)):
        return False
    check = "10X98765432"[sum(int(d) * w for d, w in zip(value[:17], _ID_WEIGHTS, strict=True)) % 11]
    return value[17].upper() == check


def _days_in(year: int, month: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def looks_random(token: str) -> bool:
    """A long token that reads as a generated secret rather than a word, a name or a hash: 24+
    characters with both cases and digits, changing character class often, no run of seven lower
    case letters, high entropy. Hex-only strings (hashes, UUIDs) and CamelCase names stay."""
    if len(token) < 24 or re.fullmatch(r"[0-9a-fA-F_-]+", token) or re.search(r"[a-z]{7}", token):
        return False
    if not (re.search(r"[a-z]", token) and re.search(r"[A-Z]", token) and re.search(r"\d", token)):
        return False
    classes = [_char_class(ch) for ch in token]
    if sum(a != b for a, b in zip(classes, classes[1:], strict=False)) < len(token) / 4:
        return False
    counts = Counter(token).values()
    return -sum(n / len(token) * math.log2(n / len(token)) for n in counts) >= 3.5


def _char_class(ch: str) -> int:
    return 0 if ch.islower() else 1 if ch.isupper() else 2 if ch.isdigit() else 3
