"""Addresses of people and places: "I live at 27 Mill Road", "Our office is at 221 Baker Street", "The
office relocated to 5 Market Square", "Contoso relocated its office to 1200 Lake Avenue", "Luca moved to
Via Roma 15".

An address is a street address as written: a house number and a street (its last word one of
:data:`STREET_WORDS`: "221 Baker Street", "4 Kingsley Avenue"), a street in a language that names it
first ("Via Roma 15", "22 Corso Vercelli", "Rue de Rivoli 5") or by its last syllable
("Oranienstrasse 21", "21 Oranienstrasse"). A place name alone ("Leeds") is a home town, never an
address (LIVES_IN is read elsewhere).

What has the address: a person ("I", "Meera", an unnamed relative: ADDRESS); one of the speaker's
places ("my office", "our studio", "the flat": OFFICE_ADDRESS, STUDIO_ADDRESS, ... of the speaker: in
the speaker's own chat "the office" is theirs); a named place ("Cafe Lumen", "The Kaffeehaus": its
ADDRESS); a company's office ("Contoso's office", "Contoso relocated its office": the company's
OFFICE_ADDRESS; "Globex HQ": its HQ). The verbs: live / be at, on or in an address, move or relocate
to one; "the address of X is" is an attribute statement (``attributes``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .possessors import UNIQUE_KIN_RE

# The last word of a street's name.
STREET_WORDS = """Street St Road Rd Lane Ln Avenue Ave Square Sq Row Way Drive Dr Place Pl Court Ct Close
Crescent Terrace Boulevard Blvd Parade Quay Gardens Hill Walk Mews Grove Park Green Circus Wharf Alley
Highway Hwy Plaza Approach Rise Broadway Embankment Esplanade Promenade""".split()
# Words that name a street before its name ("Via Roma", "Rue de Rivoli").
_STREET_FIRST = (r"(?:Via|Viale|Corso|Piazza|Piazzale|Rue|Calle|Avenida|Rua|Praça|Plaza|Ulica|Avenue|"
                 r"Boulevard)")
# Street names told by their last syllable ("Oranienstrasse", "Hafenstraße", "Kalverstraat").
_STREET_SUFFIX = (r"[A-Z][a-zäöüß]*(?:strasse|straße|str\.|gasse|weg|platz|allee|damm|ring|straat|laan|"
                  r"gracht|gade|vej|gatan|katu)")
_NUMBER = r"\d{1,5}[A-Za-z]?(?:[-/]\d{1,4}[A-Za-z]?)?"
_CAPWORD = r"[A-Z][\w'’.-]*"
ADDRESS = (
    rf"(?:{_NUMBER}\s+(?:{_CAPWORD}\s+){{0,3}}(?:{'|'.join(STREET_WORDS)})(?![\w'’])"
    rf"|{_NUMBER}\s+{_STREET_FIRST}(?:\s+(?:(?:de|di|del|della|da|dos|la|le|des|du)\s+){{0,2}}{_CAPWORD}){{1,3}}"
    rf"|{_STREET_FIRST}(?:\s+(?:(?:de|di|del|della|da|dos|la|le|des|du)\s+){{0,2}}{_CAPWORD}){{1,3}}\s+{_NUMBER}(?![\w'’])"
    rf"|{_NUMBER}\s+{_STREET_SUFFIX}(?![\w'’])|{_STREET_SUFFIX}\s+{_NUMBER}(?![\w'’]))"
)
_ADDRESS_ONLY = re.compile(rf"^(?:(?i:at|on|in)\s+)?(?P<address>{ADDRESS})$")

# The speaker's places that have an address ("my office", "our studio", "the flat").
PLACES = """office studio flat apartment house home place shop store clinic practice workshop warehouse
restaurant cafe bakery salon gym lab school hq headquarters""".split()
# Places that are where one lives: "our new place is at ..." is the speaker's ADDRESS.
HOMES = ("home", "place")
_PLACE = rf"(?P<place>(?i:{'|'.join(PLACES)}))"
_SUBJ = (rf"(?P<subj>\b(?:I|[Ww]e|[Hh]e|[Ss]he|[Tt]hey)\b|\b(?:[Mm]y|[Oo]ur)\s+(?:{UNIQUE_KIN_RE})\b"
         r"|(?<![\w'’])(?-i:(?!(?:It|This|That|There|HQ|Headquarters)\b)[A-Z][\w&-]*"
         r"(?:\s+(?:of\s+)?(?!(?:HQ|Headquarters|Office)\b)[A-Z][\w&-]*){0,3}))")
_ADV = r"(?:\s+(?i:now|currently|still|just|also|officially|finally|already|actually))*"
_AT = r"\s+(?i:at|on|in)\s+"
_TO = r"\s+(?i:to|into)\s+"
_MOVE = (r"(?i:moved|move|moves|relocated|relocate|relocates|has moved|have moved|has relocated|"
         r"have relocated|is moving|are moving|am moving|will move|will be moving)")
_LIVE = r"(?i:live|lives|am living|is living|are living|have been living|has been living|reside|resides)"
_BE = r"(?i:am|is|are|'s|’s)"
_IS = rf"(?:\s+{_BE}|(?i:'m|’m|'re|’re|'s|’s))"  # "I am", "I'm", "we're"
_OWNER = (r"(?P<owner>(?P<own>\b(?i:my|our|the))\s+"
          r"|(?P<named>(?-i:[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3}))['’]s\s+"
          r"|^\s*(?=(?i:new)\s))(?:(?i:new|old|current|main)\s+)?")
_VALUE = rf"(?P<value>{ADDRESS})"

FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    # "I live at 27 Mill Road", "Meera lives at 90 Queens Road now", "I am living on 44 Mickiewicza Street"
    (re.compile(rf"{_SUBJ}{_ADV}\s+{_LIVE}{_ADV}{_AT}{_VALUE}"), "person"),
    # "We've just moved to 4 Kingsley Avenue", "Luca moved to Via Roma 15", "moved into 12 Oak Street"
    (re.compile(rf"(?:{_SUBJ}(?:\s+(?i:have|has))?|(?P<implicit>^\s*)){_ADV}\s*{_MOVE}{_ADV}{_TO}{_VALUE}"),
     "person"),
    # "The Kaffeehaus is at 7 Mill Lane", "I'm at 27 Mill Road now" (a person "at" an address lives there
    # only when told as lasting: "now", "these days"; "we are at 10 Downing Street for a tour" is a visit)
    (re.compile(rf"(?:^|(?<=[\s,]))(?:(?i:the)\s+)?{_SUBJ}{_IS}{_ADV}{_AT}{_VALUE}"
                r"(?P<lasting>(?=\s*(?:[,.!;]|$))|\s+(?i:now|these days|nowadays|currently)\b)?"), "person"),
    # "Our office is on 40 Dock Street", "The office is now at 12 Harbour Lane", "Contoso's office is at ...",
    # "my home is 12 Harbour Street"
    (re.compile(rf"{_OWNER}{_PLACE}\s+{_BE}{_ADV}(?:{_AT}|\s+){_VALUE}"), "place"),
    # "Some context: home is Keizersgracht 220" (home said alone opening a sentence is the speaker's)
    (re.compile(rf"(?:^|(?<=[:.!?]))\s*(?P<place>(?i:home))\s+{_BE}{_ADV}(?:{_AT}|\s+){_VALUE}"), "place"),
    # "Our studio moved to 8 Canal Road", "The office relocated to 5 Market Square", "Globex HQ moved to ..."
    (re.compile(rf"{_OWNER}{_PLACE}(?:\s+(?i:has|have))?{_ADV}\s+{_MOVE}{_ADV}{_TO}{_VALUE}"), "place"),
    (re.compile(rf"(?P<named>(?-i:[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){{0,3}}))\s+(?P<place>(?i:HQ|headquarters|"
                rf"office))(?:\s+(?i:has|have))?{_ADV}\s+(?:{_MOVE}{_TO}|{_BE}{_ADV}{_AT}){_VALUE}"),
     "place"),
    # "Contoso relocated its office to 1200 Lake Avenue", "We moved the shop to 9 Via Po"
    (re.compile(rf"{_SUBJ}(?:\s+(?i:has|have))?{_ADV}\s+{_MOVE}\s+(?P<own>(?i:its|their|our|my|the))\s+"
                rf"{_PLACE}{_TO}{_VALUE}"), "moved_place"),
)


@dataclass(frozen=True)
class AddressStatement:
    """One address told: whose (``subject`` as written: "I", "Meera", "my"; ``named`` a named owner of a
    place), the relation (ADDRESS, OFFICE_ADDRESS, HQ) and the address as written."""

    subject: str | None
    relation: str
    value: str
    span: tuple[int, int]
    owner_is_speaker: bool


def address_of(value: str) -> str | None:
    """The address a value is ("at 12 Harbour Road" -> "12 Harbour Road"), or None."""
    m = _ADDRESS_ONLY.match(value.strip())
    return m.group("address") if m else None


def find_addresses(clause: str) -> list[AddressStatement]:
    """Every address statement of a clause."""
    if not re.search(r"\d", clause):
        return []  # every address has a house number
    out: list[AddressStatement] = []
    for form, kind in FORMS:
        for m in form.finditer(clause):
            groups = m.groupdict()
            value = m.group("value").rstrip(".")
            place = (groups.get("place") or "").lower()
            relation = ("HQ" if place in ("hq", "headquarters") else
                        f"{place.upper()}_ADDRESS" if place and place not in HOMES else "ADDRESS")
            if kind == "person":
                subject = groups.get("subj") or ""
                pronoun = subject.split()[0].lower() in ("i", "we", "he", "she", "they") if subject else False
                told_lasting = groups.get("lasting") is not None or re.search(
                    r"\b(?i:now|currently|these days|nowadays)\b", m.group(0))
                if "lasting" in groups and pronoun and not told_lasting:
                    continue
                out.append(AddressStatement(groups.get("subj"), relation, value, m.span(), False))
            elif kind == "moved_place":
                own = (groups.get("own") or "").lower()
                speaker_place = own in ("our", "my", "the") and groups["subj"] in ("I", "We", "we")
                subject = None if speaker_place else groups["subj"]
                out.append(AddressStatement(subject, relation, value, m.span(), speaker_place))
            elif groups.get("named"):
                out.append(AddressStatement(groups["named"], relation, value, m.span(), False))
            else:
                out.append(AddressStatement(None, relation, value, m.span(), True))
        if out:
            return out
    return out
