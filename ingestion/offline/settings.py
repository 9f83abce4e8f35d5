"""Preferences and settings that change: "Noor uses the compact layout", "I switched to dark mode",
"I'm on the annual plan now", "I changed the layout to compact", "Back to the horizontal layout".

A setting is named by its noun (:data:`SETTINGS`: layout, theme, mode, plan, font, tier) and its value
is the word before it ("the compact layout": LAYOUT compact, "dark mode": MODE dark, "the annual plan":
PLAN annual), so a later setting of the same noun replaces it (one value at a time). The subject is who
uses it ("Noor uses ...": Noor; "I", or no subject at the start of a clause: the speaker). "The new
one" or "the other one" names no value; "went back to the classic one" is a revision of the setting
said before (``revisions``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .attributes import PLAN_KINDS

SETTINGS = ("layout", "theme", "mode", "plan", "font", "tier")
# The setting noun closes its phrase ("the annual plan now"), never a verb ("using it to plan my trip").
_CLOSE = (r"(?=\s*(?:[,.!;:)]|$)|\s+(?i:now|again|everywhere|on|in|for|at|with|and|but|because|since|instead|"
          r"too|as well|these days|from|today|yesterday|finally|already|lol|btw|ugh)\b)")
_SETTING = r"(?P<setting>(?i:layout|theme|mode|plan|font|tier))(?![\w-])" + _CLOSE
# The value: one or two words before the setting ("compact", "high contrast", "Arabic"), none a
# determiner, pronoun or a word that names no value ("same", "other", "new one").
_NOT_VALUE = (r"(?!(?i:the|a|an|my|our|your|his|her|their|its|it|this|that|these|those|them|to|same|other|"
              r"whole|"
              r"entire|one|some|any|no|every|each|what|which|who|how|and|or|but|is|are|was|were|be|been|not)\b)")
_VALUE = rf"(?P<value>{_NOT_VALUE}[A-Za-z][\w-]*(?:\s+{_NOT_VALUE}[a-z][\w-]*)?)"
_NOT_NAME = (r"(?!(?:Back|Now|Then|So|Just|Also|Finally|Still|Yes|Yeah|No|Ok|Okay|Well|And|But|Switched|Went|"
             r"Changed|Moved|Using|Today|Yesterday|Gone|Set|Turned|Since|After|Recently|Lately|Upgraded|"
             r"Downgraded|Reverted|Tried|Trying)\b)")
_SUBJ = (rf"(?:(?P<subj>\b(?:I|[Ww]e|[Hh]e|[Ss]he|[Tt]hey)\b"
         rf"|(?<![\w'’]){_NOT_NAME}(?-i:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?))\s+"
         r"|(?P<implicit>^\s*|(?<=[,;!]\s)))")
_ADV = r"(?:(?i:now|just|finally|also|still|currently|already|actually|officially)\s+)*"
_THE = r"(?:(?i:the|a|an)\s+)?"
FORMS = (
    # "Noor uses the compact layout", "I'm using dark mode"
    re.compile(rf"{_SUBJ}{_ADV}(?i:use|uses|am using|is using|are using|using|run|runs|prefer|prefers)\s+"
               rf"{_ADV}{_THE}{_VALUE}\s+{_SETTING}"),
    # "I switched to the grid layout", "Went back to dark mode", "Back to the horizontal layout"
    re.compile(rf"{_SUBJ}{_ADV}(?:(?i:have|has)\s+)?(?:(?i:switched|switch|switches|changed|changes|moved|"
               rf"went|gone|go|goes|reverted|am going|is going|upgraded|downgraded)\s+)?(?:(?i:back)\s+)?"
               rf"(?i:to)\s+{_THE}{_VALUE}\s+{_SETTING}"),
    # "I'm on the annual plan now"
    re.compile(rf"{_SUBJ}{_ADV}(?i:am|is|are)\s+{_ADV}(?:(?i:back)\s+)?(?i:on)\s+{_THE}{_VALUE}\s+"
               r"(?P<setting>(?i:plan|tier))"
               r"(?![\w-])" + _CLOSE),
    # "I changed the layout to compact", "set my theme to dark"
    re.compile(rf"{_SUBJ}{_ADV}(?:(?i:have|has)\s+)?(?i:changed|switched|set|turned)\s+(?i:the|my|our|his|her|"
               rf"their)\s+(?P<setting>(?i:layout|theme|mode|plan|font|tier))\s+(?i:to)\s+{_VALUE}(?=\s*(?:[,.!;]|$|\s+(?i:now|again|yesterday|today|"
               r"last|this|on|in|and|but)\b))"),
    # "I changed my phone to dark mode", "I turned on dark mode"
    re.compile(rf"{_SUBJ}{_ADV}(?:(?i:have|has)\s+)?(?:(?i:changed|switched|set|put)\s+(?i:my|our|the|his|her)"
               rf"\s+[a-z][\w-]*\s+(?i:to)|(?i:turned on|enabled|activated|switched on))\s+{_THE}{_VALUE}\s+"
               rf"(?P<setting>(?i:mode|theme|layout|font))(?![\w-])" + _CLOSE),
)


@dataclass(frozen=True)
class Setting:
    """``subject`` as written ("Noor", "I"; None: no subject, the speaker) uses ``value`` as its
    ``setting`` (LAYOUT, MODE, ...)."""

    subject: str | None
    setting: str
    value: str
    span: tuple[int, int]


def find_settings(clause: str) -> list[Setting]:
    low = clause.lower()
    if not any(s in low for s in SETTINGS):
        return []
    for form in FORMS:
        m = form.search(clause)
        if m is None:
            continue
        value = " ".join(m.group("value").split())
        if value.lower() in ("new", "old", "one", "ones") or value.lower().endswith(" one"):
            return []
        if m.group("setting").lower() == "plan" and value.split()[0].lower() in PLAN_KINDS:
            return []  # "the phone plan": a kind of plan, not which plan
        opens = m.start("value") == len(clause) - len(clause.lstrip())
        if value[:1].isupper() and value[1:].islower() and opens:
            value = value.lower()
        subject = m.group("subj")
        return [Setting(subject, m.group("setting").upper(), value, m.span())]
    return []
