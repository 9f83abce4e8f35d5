"""Attributes of anything: "Order 5512's status is shipped", "the opening hours of the Bluebell Cafe
are 8 to 4", "our rent went up to 1,450 euros a month", "Fitch downgraded Northwind Bank to BB+",
"Contoso cut its Q2 forecast to 3.8M units", "Contoso Q2 forecast: 4.1M units".

An attribute statement gives a subject (a name, "the project", or "my"/"our": the speaker), an
attribute (a few words whose last is one of :data:`ATTRIBUTE_WORDS`, the ontology's closed list, so
"my problem is ..." or "the thing is ..." name none) and a value, kept exactly as said. The relation
is the attribute, normalised (``OPENING_HOURS``); the ontology holds it one value at a time, so a new
value ends the old one at its valid time.

Whose: possessive chains name the subject they name (``possessors``): "my sister's rent" is the
sister's, "Marco's sister's rent" the sister of Marco's, "his rent" the person "he" is; "my friend's
rent" is nobody's in particular and gives nothing. "The rent" or a bare "Rent is ..." of a personal
attribute (rent, salary, council tax, ...) is the speaker's; "the price is negotiable" is nobody's.

The value is what follows the verb up to the end of the clause or a clause word ("and", "because");
a time phrase that ends it dates the fact ("went up to 1,500 euros in March"), one that *is* the
value stays the value ("the deadline moved to 14 May"). A rating names its rater in the relation
("Moody's affirmed Contoso at A2" is MOODYS_RATING) and must look like a rating (AA-, Baa2).

Precision first: nothing is taken from a past-tense statement without a time ("the price was
right"), a value that is a pronoun, a clause or a vague word ("unclear", "somewhere in town"), a
state of the value that is no value ("my rent is due", "paid", "late", "overdue"), an amount told
without a number or in hyperbole ("literally a million dollars", "basically infinite"), a subject that
is a pronoun ("their address", "it"), or what the clause reports someone saying.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from temporal_graph.core.names import InvalidName, normalize_relation
from temporal_graph.core.ontology import ATTRIBUTE_WORDS, is_attribute
from temporal_graph.core.time import TimeMatch

from .addresses import address_of
from .possessors import possessor_words
from .tables import NAME_STOP

_ATTR_HEAD = "|".join(sorted((w.lower() for w in ATTRIBUTE_WORDS), key=len, reverse=True))
# An attribute: up to four words, the last one from the closed list ("opening hours", "Wi-Fi
# speed", "interest rate", "favorite color", "sister's rent"); none of them a pronoun or article.
_ATTR_WORD = (r"(?!(?i:the|a|an|my|our|his|her|their|its|your|this|that|is|are|was|were)\b)"
              r"[A-Za-z][\w-]*(?:['’]s)?")
ATTR = (rf"(?P<attr>(?:{_ATTR_WORD}\s+){{0,3}}(?i:{_ATTR_HEAD})"
        rf"|(?:{_ATTR_WORD}\s+)?(?i:favou?rite)\s+[a-z][\w-]*)")
# A named subject: capitalized words, with codes and versions ("Order 5512", "Atlas 2.0", "Hall B",
# "Flight BA117"), optionally one lowercase noun after them ("the Falcon project").
_CAP = r"(?:(?!(?i:my|our|his|her|their)\b)(?:[A-Z][\w&.-]*[\w&]|[A-Z])(?:['’][A-Z]\w*)?)"
_PART = rf"(?:{_CAP}|\d+(?:\.\d+)*[A-Za-z]?)"
NAMED = rf"(?:{_CAP}(?:\s+(?:of\s+|&\s+)?{_PART}){{0,4}})"
_LOWER_NOUN = r"(?!(?i:and|or|is|are|was|were)\b)[a-z][a-z-]+"
SUBJECT = (rf"(?P<subj>(?P<own>\b(?i:my|our))|(?P<pron>\b(?i:his|her|their))"
           rf"|(?:(?i:the)\s+)?{NAMED}(?:\s+{_LOWER_NOUN})?|(?i:the)\s+{_LOWER_NOUN})")
_NOW = r"(?:\s+(?i:now|currently|still|officially|already|just|finally|also|again))*"
_COPULA = r"(?P<cop>(?i:is|are|was|were|has been|have been|will be))"
_CHANGED = (r"(?:raised|increased|cut|lowered|reduced|moved|changed|updated|pushed back|pushed|extended|"
            r"bumped up|bumped|set|dropped|upgraded|downgraded|hiked|slashed|revised|adjusted|trimmed|"
            r"lifted|boosted)")
_CHANGE = (r"(?P<change>(?i:changed|has changed|have changed|moved|has moved|went up|went down|has gone up|"
           r"has gone down|have gone up|rose|has risen|fell|has fallen|dropped|has dropped|increased|"
           r"has increased|decreased|has decreased|jumped|climbed|shifted|slipped|"
           rf"(?:is|are|was|were|has been|have been|got|just got|gets)\s+{_CHANGED}|(?P<bare>{_CHANGED})"
           r"|(?P<ahead>is going up|is going down|are going up|are going down|will go up|will go down|"
           r"will be raised|will be cut|is being raised|is being cut)))"
           r"(?:\s+(?i:again|once more|further|even more))?(?:\s+(?i:from)\s+(?P<old>[^,;]+?))?\s+(?i:to)")
_VERB = rf"{_NOW}\s+(?:{_CHANGE}|{_COPULA}){_NOW}"

# "X's A is V", "my A is V", "X A is V" (Order 5512 status is packed), "X A: V".
POSSESSIVE = re.compile(rf"(?:^|(?<=[\s,(])){SUBJECT}(?P<poss>['’]s?)?\s+{ATTR}{_VERB}\s+(?P<value>.+)$")
# What stands between a name and its value in shorthand: "X A: V", "X A - V", "X A -> V".
_SEPARATOR = r"\s*(?::|->|→|=>|=)\s*|\s+[-–—]\s+"
COLON_FORM = re.compile(rf"^\s*{SUBJECT}(?:['’]s)?\s+{ATTR}(?:{_SEPARATOR})(?P<value>[^:]+?)\s*$")
# "Status of order 123: shipped"
COLON_OF = re.compile(rf"^\s*(?:(?i:the)\s+)?{ATTR}\s+(?i:of)\s+"
                      rf"(?P<subj>(?:(?i:the)\s+)?{NAMED}|(?i:[a-z]+)\s+\d[\w-]*)(?:{_SEPARATOR})(?P<value>[^:]+?)\s*$")
# "Rent is 900 pounds", "the rent is 900 pounds", "Rent: 720 euros": a personal attribute, the speaker's.
BARE_FORM = re.compile(rf"(?:^|(?<=[\s,]))(?:(?P<the>(?i:the))\s+)?{ATTR}{_VERB}\s+(?P<value>.+)$")
BARE_COLON = re.compile(rf"^\s*{ATTR}(?:{_SEPARATOR})(?P<value>[^:]+?)\s*$")
# "the A of X is V", "the salary of my wife is ...", "(the) new address of our office is ...".
OF_FORM = re.compile(rf"(?:^|(?<=[\s,]))(?:(?i:the)\s+)?{ATTR}\s+(?i:of)\s+"
                     rf"(?P<subj>(?:(?i:the)\s+)?{NAMED}|(?P<own>(?i:my|our))\s+(?P<ofnoun>[a-z][\w-]*))"
                     rf"{_VERB}\s+(?P<value>.+)$")
# Headlines: "Contoso cut its Q2 forecast to 3.8M units", "Fabrikam raises FY24 guidance to $3B".
HEADLINE = re.compile(rf"(?:^|(?<=[\s,]))(?P<subj>{NAMED})\s+(?i:has\s+|have\s+)?(?i:raises|raised|cuts|cut|"
                      r"lowers|lowered|lifts|lifted|trims|trimmed|boosts|boosted|hikes|hiked|slashes|slashed|"
                      r"revises|revised|ups|upped|increases|increased|reduces|reduced|sets|set|moves|moved)\s+"
                      rf"(?:(?i:its|their)\s+)?{ATTR}\s+(?i:to)\s+(?P<value>.+)$")

# Attributes told by a verb of their own: "The Vespa costs 4,200 euros" (a named thing's PRICE), "the
# staging server has 64 GB of RAM" (a thing's RAM).
COSTS = re.compile(rf"(?:^|(?<=[\s,]))(?:(?i:the)\s+)?(?P<subj>{NAMED})\s+(?:(?i:now|currently|still)\s+)?"
                   r"(?i:costs|is priced at|sells for|retails for|goes for)\s+(?P<value>[$£€¥₹]?\d.+)$")
HAS_RAM = re.compile(r"(?:^|(?<=[\s,]))(?:(?i:the|(?P<own>our|my))\s+)?"
                     r"(?P<subj>(?-i:[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}|" + NAMED + r"))"
                     r"\s+(?:(?i:now|currently)\s+)?(?i:has|have)\s+(?:(?i:now)\s+)?"
                     r"(?P<value>\d[\d.,]*\s*(?i:GB|TB|MB|gigs?))(?:\s+(?i:of)\s+(?i:RAM|memory)\b"
                     r"|(?<=[A-Za-z])(?=\s*(?:(?i:now|again)\b|[,.!;]|$)))")
# (a machine's bare "has 64 GB" is its memory; a phone's or a disk's is its storage, no RAM)
_MACHINES = frozenset("server vm machine box node instance host laptop desktop workstation pc".split())
# Personal attributes: a bare "Rent is ..." or "the rent" is the speaker's (not "the price", "the fee").
PERSONAL = frozenset("""RENT SALARY WAGE PAY INCOME MORTGAGE COUNCIL_TAX ADDRESS PHONE_PLAN
MONTHLY_RENT TAKE_HOME_PAY""".split())
# Attributes whose value is an amount: told without a digit it is no value ("my rent is too high").
AMOUNTS = frozenset("""RENT PRICE PRICES COST FEE FEES FARE SALARY WAGE PAY INCOME BUDGET POPULATION CAPACITY
VALUATION CAP REVENUE PROFIT BALANCE DEBT LOAN MORTGAGE TAX TARIFF DISCOUNT MARGIN DEDUCTIBLE PREMIUM
FORECAST GUIDANCE HEADCOUNT RAM DURATION ATTENDANCE VOLUME WEIGHT HEIGHT LENGTH WIDTH DEPTH AREA ALTITUDE
QUOTA TIMEOUT MILEAGE TEMPERATURE SPEED SIZE""".split())

_RATER = r"(?P<rater>Fitch|Moody['’]?s|S&P|Standard\s*&\s*Poor['’]?s|DBRS|Scope|AM Best|Kroll|Morningstar)"
_RATING = (r"(?P<value>(?:AAA|AA|A|BBB|BB|B|CCC|CC|C|D|RD|SD)[+-]?|Aaa|Aa[123]|A[123]|Baa[123]|Ba[123]|B[123]"
           r"|Caa[123]|Ca)")
RATING_FORMS = (
    re.compile(rf"\b{_RATER}\s+(?i:rates|rated|has rated|now rates)\s+(?P<subj>{NAMED})\s+(?:(?i:at)\s+)?"
               rf"{_RATING}(?![\w+-])"),
    re.compile(rf"\b{_RATER}\s+(?:(?i:has|have)\s+)?(?i:upgraded|downgraded|affirmed|raised|cut|lowered|"
               rf"reaffirmed|confirmed|moved)\s+(?P<subj>{NAMED})\s+(?i:to|at)\s+{_RATING}(?![\w+-])"),
)
_RATER_WORDS = ("fitch", "moody", "s&p", "standard", "dbrs", "scope", "am best", "kroll", "morningstar")

# Where a value ends: a clause word, or another statement joined on.
_VALUE_END = re.compile(
    r"\s*(?:[,;]\s+|\s+(?:and|but|because|since|so|which|who|while|although|though|after|before|until|"
    r"when|if|unless|for\s+(?:now|the|a|an|this|that|some)|thanks|due|as\s+of)\b|[.!?]+(?:\s|$)|\s+-\s+).*$",
    re.IGNORECASE)
_VAGUE = frozenset("""unclear unknown complicated right wrong fine okay ok good great nice bad high low weird
crazy insane ridiculous different same better worse amazing awesome terrible perfect reasonable
interesting somewhere something anything nothing everything whatever it this that these those there
here them him her us me you crucial key important vital essential challenging tough hard easy
difficult huge big small simple clear ready done set tbd tba n/a na none unset pending""".split())
# States of a value that are no value of it: "my rent is due on Friday", "paid", "late again".
_NOT_A_VALUE = frozenset("""due paid unpaid late overdue sorted split shared waived confidential negotiable
killing covered included going increasing decreasing rising falling fixed steep expensive cheap affordable
tight flexible secret private public free too broken buggy bugged glitchy ugly annoying confusing messed
tiny large slow fast off""".split())
# Kinds of plan that are no setting of one ("the phone plan", "the meal plan").
PLAN_KINDS = frozenset("""phone mobile data cell internet meal health insurance payment pension savings
retirement business lesson training workout diet game study travel marketing action escape backup""".split())
# Amounts told in hyperbole: "literally a million dollars", "like a thousand years", "basically infinite".
_HYPERBOLE = re.compile(
    r"\b(?i:literally|basically|practically|like|virtually|infinite|infinity|forever|ages|eternity|"
    r"gazillion|zillion|bajillion|kajillion|squillion|umpteen|a\s+(?:million|billion|trillion|thousand|"
    r"hundred)|one\s+(?:million|billion|trillion))\b")
_NOISE_END = re.compile(r"(?:\s+(?i:lol|lmao|haha+|ugh|smh|btw|tbh|imo|fyi|now|again|too|already|anymore|"
                        r"as well|per month|finally|still|yet|x+|[:;]-?[()DP]))+$")
_PRONOUN_SUBJECT = frozenset("his her their its your this that these those it".split())
_NOT_VALUE_START = frozenset("""that to a an the my our your his her their its not never no being
going getting what how why when where who whether if like about around""".split())
_OWN_ROOTS = frozenset("my our".split())
_NOT_OWNERS = frozenset("""main top first last next new old big biggest best worst only real current
whole same other final usual average total overall""".split())
# Words before an attribute that describe it, not name it: "my new address" is my ADDRESS.
_DESCRIBING = frozenset("new old current latest updated actual present".split())
_CODED = re.compile(r"(?:\d|\b[A-Z]{2,}\d*)\w*$")  # a name ending in a number or code: "Order 5512", "BA117"
# Words that begin an attribute's name ("share price", "interest rate"), never end a subject's.
_MODIFIERS = frozenset("""share stock market interest exchange opening closing membership council ticket list
retail sale sales asking entry admission monthly annual hourly base starting""".split())
_CODE_WORD = re.compile(r"^(?:Q[1-4]|H[12]|FY\d{2,4})$")  # "Q2 forecast", "FY24 guidance"
# Words before a statement that make it someone else's ("she told me ...", "Bob says ...").
REPORTED = re.compile(
    r"\b(?i:say|says|said|tell|tells|told|claim|claims|claimed|heard|hear|hears|read|reckon|reckons|"
    r"think|thinks|thought|believe|believes|believed|rumou?r|supposedly|apparently|allegedly|wonder|"
    r"wondering|ask|asked|asks|doubt|whether)\b")
# A word that makes a name an organisation's ("Northwind Bank", "Acme Corp", "Zeta Labs").
ORG_WORD = re.compile(
    r"\b(?:Inc|Corp|Corporation|Ltd|LLC|GmbH|AG|SA|PLC|Co|Company|Bank|Labs|Technologies|Systems|Group|"
    r"Partners|Capital|Studios|Software|Solutions|Consulting|Media|Foods|Motors|Airlines|Airways|Pharma|"
    r"Hospital|Clinic|University|College|School|Academy|Institute|Agency|Bureau|Ministry|Council|"
    r"Foundation|Insurance|Holdings|Industries|Enterprises|Ventures|Networks|Telecom|Energy|Logistics|"
    r"Kitchen|Restaurant|Bakery|Bistro|Brewery|Pharmacy)\b")
_HEADS = frozenset(w.lower() for w in ATTRIBUTE_WORDS) | {"favorite", "favourite"}
_WORDS = re.compile(r"[a-z]+")


@dataclass(frozen=True)
class Attribute:
    """One attribute statement: ``subject`` None means the speaker; ``kin`` a relative of the subject
    (of the speaker when ``subject`` is None) whose attribute it is ("my sister's rent": "sister");
    ``pronoun`` the subject is he / she / they, to resolve ("his rent")."""

    subject: str | None
    relation: str
    value: str
    time: TimeMatch | None
    past: bool  # told in the past tense: kept only with a time
    subject_type: str = "Entity"
    kin: str | None = None
    pronoun: str | None = None
    future: bool = False  # "is going up to 1,000 in June": told ahead of its time


def relation_of(words: str) -> tuple[str | None, str | None, bool]:
    """An attribute's relation from its words, with the relative they start with: "sister's rent" ->
    (RENT, "sister", False); "friend's rent" -> (None, None, True): someone unnamed, no fact at all."""
    parts, kin, nobody = possessor_words(words.split())
    if nobody:
        return None, None, True
    while len(parts) > 1 and parts[0].lower() in _DESCRIBING:
        parts = parts[1:]
    relation = _relation(" ".join(parts))
    return relation, kin, False


def _relation(words: str) -> str | None:
    words = re.sub(r"['’]s\b", "", words)
    words = re.sub(r"(?i)\bfavourite\b", "favorite", words)
    try:
        relation = normalize_relation(words)
    except InvalidName:  # a reserved word ("limit" alone): no relation of that name
        return None
    return relation if is_attribute(relation) else None


def _subject(raw: str) -> str | None:
    words = raw.split()
    while words and (words[0].lower() == "the" or words[0] in NAME_STOP):  # "Yesterday Order 5512"
        words = words[1:]
    if not words or words[0].lower() in _PRONOUN_SUBJECT:
        return None
    return " ".join(words).rstrip(".'’")


def value_ok(relation: str, value: str) -> bool:
    """Whether a value is one of this attribute: not a state of it ("due", "paid"), not an amount told
    without a number or in hyperbole, an address where the attribute is one."""
    words = value.split()
    first = words[0].lower().strip(",.!")
    if first in _NOT_A_VALUE or value.lower() in _NOT_A_VALUE or _HYPERBOLE.search(value):
        return False
    head = relation.rsplit("_", 1)[-1]
    if (relation in AMOUNTS or head in AMOUNTS) and not re.search(r"\d", value):
        return False
    settings = ("mode", "theme", "layout", "font")
    if head.lower() in settings and words[-1].lower() in settings:
        return False  # "my mode is beast mode": a manner of speaking
    if head == "PLAN" and first in PLAN_KINDS:
        return False
    if head == "ADDRESS" and address_of(value) is None:
        return False
    return True


def _value(raw: str, start: int, times: list[TimeMatch]) -> tuple[str, TimeMatch | None] | None:
    """The value as said (from offset ``start`` of the clause), and the time phrase that dates it."""
    text = _VALUE_END.sub("", raw)
    end = start + len(text)
    time = None
    for t in times:
        if t.start <= start < t.end or (start <= t.start < end and not text[: t.start - start].strip()):
            continue  # the value itself is a date ("moved to 14 May")
        if start < t.start < end:  # a time phrase after the value dates it
            text = raw[: t.start - start]
            end = t.start
            time = t
            break
    value = text.strip().rstrip(".,!;:").strip()
    value = _NOISE_END.sub("", value).strip().rstrip(".,!;:")
    words = value.split()
    if not words or len(words) > 8 or words[0].lower() in _NOT_VALUE_START:
        return None
    if value.lower() in _VAGUE or words[0].lower() in _VAGUE:
        return None
    if len(words) > 1 and words[1].lower() == "by":  # "was hit by a flood": an event, not a value
        return None
    if len(words) > 1 and words[0].lower().endswith("ing"):  # "is coming together nicely": a doing
        return None
    if time is None:
        time = next((t for t in times if t.start >= end), None) or next(
            (t for t in reversed(times) if t.end <= start), None)
    return value, time


def names_attribute(low: str) -> bool:
    """Whether a lowercased clause names an attribute (its word, or a rater's name)."""
    return any(w in _HEADS for w in _WORDS.findall(low)) or any(r in low for r in _RATER_WORDS)


def may_hold_attribute(low: str) -> bool:
    """Whether a lowercased clause holds a word an attribute statement needs (its attribute word, a
    rater's name, a verb of price or memory): most clauses hold none, and are spared the patterns."""
    return (names_attribute(low) or " costs " in low or " ram" in low or " memory" in low
            or " priced " in low or re.search(r"\d\s*[gt]b\b", low) is not None)


def find_attributes(clause: str, times: list[TimeMatch]) -> list[tuple[Attribute, tuple[int, int]]]:
    """Every attribute statement of one clause (with its span), in the clause's own words."""
    out: list[tuple[Attribute, tuple[int, int]]] = []
    low = clause.lower()
    if not may_hold_attribute(low):
        return out
    if any(r in low for r in _RATER_WORDS):
        for form in RATING_FORMS:
            for m in form.finditer(clause):
                rater = re.sub(r"[^A-Za-z]", "", m.group("rater").replace("Standard & Poor's", "SP"))
                rater = "SP" if rater.startswith("Standard") else rater
                relation = _relation(f"{rater} rating")
                subject = _subject(m.group("subj"))
                if relation and subject:
                    time = next((t for t in times if t.start >= m.end()), None) or next(
                        (t for t in reversed(times) if t.end <= m.start()), None)
                    out.append((Attribute(subject, relation, m.group("value"), time, False, "Organization"),
                                m.span()))
    if out:
        return out
    for form, relation in ((COSTS, "PRICE"), (HAS_RAM, "RAM")):
        told = form.search(clause)
        if told is None:
            continue
        found = _value(told.group("value"), told.start("value"), times)
        thing = _subject(told.group("subj"))
        bare = form is HAS_RAM and not re.search(r"(?i)\b(?:ram|memory)\b", told.group(0))
        if bare and (thing is None or thing.split()[-1].lower() not in _MACHINES):
            continue
        if found and thing and value_ok(relation, found[0]):
            if told.groupdict().get("own"):  # "my laptop has 16 GB of RAM": the speaker's LAPTOP_RAM
                owned = _relation(f"{thing} {relation}") or relation
                return [(Attribute(None, owned, found[0], found[1], False), told.span())]
            return [(Attribute(thing, relation, found[0], found[1], False), told.span())]
    return _statements(clause, times, (HEADLINE, OF_FORM, POSSESSIVE, BARE_FORM))


def colon_attribute(sentence: str, times: list[TimeMatch]) -> list[tuple[Attribute, tuple[int, int]]]:
    """A whole sentence of the form "X A: V" ("Order 7730 status: cancelled", "Rent: 720 euros")."""
    if not may_hold_attribute(sentence.lower()):
        return []
    return _statements(sentence, times, (COLON_OF, COLON_FORM, BARE_COLON))


def _statements(clause: str, times: list[TimeMatch], forms: tuple[re.Pattern[str], ...]
                ) -> list[tuple[Attribute, tuple[int, int]]]:
    out: list[tuple[Attribute, tuple[int, int]]] = []
    for form in forms:
        m = form.search(clause)
        if m is None:
            continue
        groups = m.groupdict()
        own, pronoun = groups.get("own"), groups.get("pron")
        raw_subject = groups.get("subj")
        relation, kin, nobody = relation_of(m.group("attr"))
        if nobody:
            return []  # "my friend's rent": someone unnamed; not the speaker's, not anyone's here
        if relation is None:
            continue
        subject: str | None
        if form is OF_FORM and groups.get("ofnoun"):  # "the salary of my wife", "the address of our office"
            noun = groups["ofnoun"]
            _, kin_of, nobody = possessor_words([f"{noun}'s", "x"])
            if nobody:
                return []
            if kin_of is None:
                relation = _relation(f"{noun} {m.group('attr')}")
                if relation is None:
                    continue
            subject, kin = None, kin_of
        elif form in (BARE_FORM, BARE_COLON):
            if relation not in PERSONAL and not (form is BARE_COLON and relation.endswith("_STATUS")):
                continue  # "the price is negotiable": whose price?
            subject = None
        elif own and own.lower() in _OWN_ROOTS:
            subject = None
        elif pronoun:
            subject = None
        elif raw_subject is not None:
            subject = _subject(raw_subject)
            if subject is None:
                continue
            if form is COLON_OF and subject[:1].islower():  # "order 123": a coded thing, named as one
                subject = subject[:1].upper() + subject[1:]
            compound = subject.islower() and raw_subject.lower().startswith("the ") and " " not in subject
            if compound and subject in _NOT_OWNERS:
                continue  # "the main priority is ...": an adjective, not what has the attribute
            coded = _CODED.search(subject) or any(_CODE_WORD.match(w) for w in m.group("attr").split())
            if (form is POSSESSIVE and not groups.get("poss") and not coded and not compound
                    and not groups.get("bare")):
                continue  # "Order 5512 status is ..." needs no "'s"; "Finding balance is key" is no name
        else:
            continue
        words = (subject or "").split()
        modifier = len(words) > 1 and (_CODE_WORD.match(words[-1]) or words[-1] in _MODIFIERS)
        if modifier and not groups.get("poss"):
            # "Contoso Q2 forecast", "Initech share price": the last word is the attribute's
            relation = _relation(f"{words[-1]} {m.group('attr')}") or relation
            subject = " ".join(words[:-1])
        found = _value(m.group("value"), m.start("value"), times)
        if found is None:
            continue
        value, time = found
        places = ("ADDRESS", "HQ", "HEADQUARTERS")
        address = address_of(value) if relation.rsplit("_", 1)[-1] in places else None
        if address:
            value = address  # "is at 12 Harbour Road": the address
        if not value_ok(relation, value):
            continue
        copula = (groups.get("cop") or "").lower()
        kind = "Organization" if subject and ORG_WORD.search(subject) else "Entity"
        out.append((Attribute(subject, relation, value, time, copula in ("was", "were"), kind, kin=kin,
                              pronoun=pronoun.lower() if pronoun else None, future=bool(groups.get("ahead"))),
                    m.span()))
        break
    return out
