"""Statuses of things that have one, told by their verb or in a ticket's shorthand: "Order 5512 is
shipped", "it has shipped", "the order is processing", "PR 412 was merged yesterday", "ticket 88: closed",
"Order 4410 -> delivered", "we closed ticket 91".

A thing with a status is an order, a ticket, a parcel, an invoice, a flight, an application, a pull
request, a bug, a case (:data:`THINGS`): named by its code ("Order 5512", "INC-2231", "Flight BA283"),
by whose it is ("my order" is "<speaker>'s order", "Marco's order"), or by "the order" / "it": the coded
thing this message or the last turns named (the extractor finds it; nothing when there is none). Its
status is STATUS, one of :data:`STATUS_WORDS` as said ("shipped", "out for delivery"): a rent is never
"paid" here (a rent has no status; ``attributes`` keeps such states out of its value).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

THINGS = """order orders ticket parcel package shipment delivery invoice refund return claim application
request booking reservation flight pr bug issue case incident deploy deployment build job task story
payment transfer visa""".split()
_THING = r"(?:pull\s+request|support\s+ticket|" + "|".join(sorted(THINGS, key=len, reverse=True)) + ")"
STATUS_WORDS = """processing processed pending shipped dispatched delivered cancelled canceled refunded
resolved closed reopened open merged approved rejected accepted declined confirmed delayed escalated fixed
paid overdue packed boarding completed expired suspended returned deployed released failed arrived""".split()
_STATUS_PHRASES = ["on hold", "in transit", "out for delivery", "in progress", "in review", "under review",
                   "ready for pickup", "awaiting payment", "awaiting approval", "on its way",
                   "being processed"]
_STATUS = "(?:" + "|".join(sorted(STATUS_WORDS + _STATUS_PHRASES, key=len, reverse=True)) + ")"
_CODE = r"(?:#?\d[\w-]*|[A-Z]{1,4}-?\d[\w-]*)"
# A coded thing: "Order 5512", "ticket #88", "Flight BA283", "Visa application 2219", "INC-2231".
_QUALIFIER = (r"(?:(?:(?!(?:My|Our|The|This|That|His|Her|Their|Your|Its|And|But|So|Now|Then|Also|Just|When|"
              r"If|"
              r"Yes|No|Oh|Ok|Well|Still|Finally)\b)[A-Z][a-z]+|visa|passport|support|warranty|insurance|tax|loan|"
              r"bike|planning|job)\s+)?")
CODED = (rf"(?:(?<![\w-]){_QUALIFIER}(?i:{_THING})\s+{_CODE}(?![\w-])"
         r"|(?<![\w-])(?-i:[A-Z]{2,6})-\d{1,7}(?![\w-]))")
_CODED_RE = re.compile(rf"(?P<thing>{CODED})")
_WHOSE = (r"(?P<owner>(?P<own>\b(?i:my|our))|(?P<named>(?-i:[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?))['’]s|"
          r"(?P<pron>\b(?i:his|her|their)))\s+(?:(?i:new|latest|last|recent|first)\s+)?"
          rf"(?P<noun>(?i:{_THING}))(?:\s+(?P<code>{_CODE}))?(?![\w-])")
_THE = (rf"(?P<the>\b(?i:the|this|that))\s+(?:(?i:new|latest|last|recent)\s+)?"
        rf"(?P<tnoun>(?i:{_THING}))(?![\w-])")
_IT = r"(?P<it>\b(?i:it))"
SUBJECT = rf"(?:(?P<coded>{CODED})|{_WHOSE}|{_THE}|{_IT})"
_AUX = (r"(?:\s+(?i:is|are|was|were|has been|have been|had been|got|gets|has|have|had|just got|is now|"
        r"has now|is being))?")
_ADV = r"(?:\s+(?i:now|already|finally|still|just|officially|also|been))*"
_AFTER = (r"(?=\s*(?:[,.!;:)]|$|\s+(?:(?i:now|today|yesterday|already|again|this|last|on|in|at|to|and|but|"
          r"finally|at last|too|as well|smh|lol|ugh|btw|for|by|after|before|because|so|this morning)\b)))")
VERB_FORM = re.compile(rf"(?:^|(?<=[\s,(]))(?:{SUBJECT}){_AUX}{_ADV}\s+(?P<status>(?i:{_STATUS})){_AFTER}")
# "PR 512 - merged", "ticket 4410: resolved", "order 3390 -> delivered"
TERSE_FORM = re.compile(rf"^\s*(?P<coded>{CODED})\s*(?::|->|→|=>|–|—|-)\s*(?P<status>(?i:{_STATUS})){_AFTER}")
# "we closed ticket 91", "They refunded order 7002", "Cancelled it"
_DONE_TO = (r"(?i:cancelled|canceled|closed|reopened|merged|approved|rejected|refunded|returned|paid|"
            r"resolved|shipped|dispatched|escalated|fixed|confirmed|declined)")
ACTOR_FORM = re.compile(rf"(?:^|(?<=[\s,]))(?:(?P<actor>\b(?:I|[Ww]e|[Tt]hey)\b)\s+)?(?:(?i:just|finally|"
                        rf"already)\s+)?(?P<status>{_DONE_TO})\s+(?:{SUBJECT}){_AFTER}")


_WORD = re.compile(r"[a-z]+")
_HABITUAL = frozenset("usually always often normally sometimes typically generally rarely never".split())
_CUE_WORDS = frozenset(STATUS_WORDS) | {p.split()[0] for p in _STATUS_PHRASES} | {"canceled"}


@dataclass(frozen=True)
class StatusStatement:
    """A status told: of a coded thing (``coded``, as written), of someone's thing (``owner`` "my",
    "Marco", "his" and ``noun``), of "the <noun>" (``noun`` with ``the``), or of "it"."""

    status: str
    span: tuple[int, int]
    coded: str | None = None
    owner: str | None = None
    noun: str | None = None
    it: bool = False


def thing_name(written: str) -> str:
    """A coded thing's name as the memory keeps it: "order 3390" -> "Order 3390", "ticket #88" ->
    "Ticket 88" (its first letter a capital, no "#")."""
    name = " ".join(written.replace("#", "").split())
    return name[:1].upper() + name[1:]


def things_named(text: str) -> list[tuple[str, str]]:
    """The coded things a text names, in order, as (noun, name): "order 7781" -> ("order", "Order 7781")."""
    out = []
    for m in _CODED_RE.finditer(text):
        written = m.group("thing")
        noun = next((w.lower() for w in written.split() if w.lower() in THINGS), "")
        if not noun and re.match(r"^[A-Z]{2,6}-\d", written):
            noun = written.split("-")[0].lower()
        out.append((noun, thing_name(written)))
    return out


def find_statuses(clause: str, *, terse: bool = False) -> list[StatusStatement]:
    """Every status statement of a clause (``terse``: of a whole sentence in a ticket's shorthand)."""
    words = _WORD.findall(clause.lower())
    if _CUE_WORDS.isdisjoint(words):
        return []  # every status statement holds its status word (or the verb done to the thing)
    if not _HABITUAL.isdisjoint(words):
        return []  # "it is usually delivered to my neighbour": what happens, not what happened to it
    out: list[StatusStatement] = []
    forms = (TERSE_FORM,) if terse else (VERB_FORM, ACTOR_FORM)
    for form in forms:
        for m in form.finditer(clause):
            groups = m.groupdict()
            status = " ".join(m.group("status").lower().split())
            status = {"canceled": "cancelled", "being processed": "processing"}.get(status, status)
            if groups.get("coded"):
                out.append(StatusStatement(status, m.span(), coded=thing_name(groups["coded"])))
            elif groups.get("noun"):
                code = groups.get("code")
                if code:  # "my order 66120": the coded thing
                    coded = thing_name(f"{groups['noun']} {code}")
                    out.append(StatusStatement(status, m.span(), coded=coded))
                else:
                    owner = groups.get("own") or groups.get("named") or groups.get("pron")
                    out.append(StatusStatement(status, m.span(), owner=owner, noun=groups["noun"].lower()))
            elif groups.get("tnoun"):
                out.append(StatusStatement(status, m.span(), noun=groups["tnoun"].lower()))
            elif groups.get("it"):
                out.append(StatusStatement(status, m.span(), it=True))
        if out:
            break
    return out
