"""Passwords in a message: a password word ("password", "pwd", "wifi pass", or a setting named so:
``DB_PASSWORD``, ``spring.datasource.password``, a quoted ``"password"`` key), how the value is
given ("is", ":", "="), and the value, on the same line.

Chat holds code and markup as often as secrets, and there the word is followed by code, not by a
password: ``if not password:`` then ``return ...`` on the next line, ``<label>Password:</label>``,
``password = request.form["password"]``, ``password: string;``, ``pwd: /home/ana``. What follows
the word is a password only when it is written as one: a quoted text that is no template or
placeholder (``"hunter22"``, not ``"${DB_PASSWORD}"``), or one run of characters that is neither a
word of the sentence nor code (:func:`code_shaped`). A value is never looked for past the end of
the line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

Span = tuple[int, int]

_WORD = (r"(?:password|passwd|passphrase|passcode|pwd|pw|(?:wi-?fi|wlan|router|network)[ \t-]?pass)"
         r"(?:[_-]?(?:confirmation|confirm|again|repeat)|[12])?")  # password_confirmation: the same one
# The word alone, or as the last part of a setting's name (DB_PASSWORD, mail.smtp.password), then
# the quote that may close it as a key ("password": ...).
_NAME = rf"(?<![A-Za-z0-9_])(?:[A-Za-z0-9]{{1,40}}[_.-]){{0,4}}{_WORD}(?![A-Za-z0-9_])[\"'`]?"
QUOTES_OPEN, QUOTES_CLOSE = "\"'`\u201c\u2018\u300c", "\"'`\u201d\u2019\u300d"
# "is", "was", ":", "=" or ":=", on the same line; never "==", "=>", "::" or "=~" (a comparison, a
# mapping of rules, a path in code).
GIVEN = r"(?:[ \t]+(?P<prose>is|was)[ \t]*[:\uff1a]?|[ \t]*(?P<sign>:=|[:=\uff1a])(?![=>:~]))[ \t]*"
# What it is for, between the name and "is": "the password for my bank is", "the PIN to the door is".
FOR = r"(?:[ \t]+(?:for|to|of|on|at)(?:[ \t]+[\w'\u2019.&-]{1,30}){1,3}?)?"
_PASSWORD = re.compile(  # a quoted value may follow the word directly: password "correct horse"
    rf"(?i){_NAME}{FOR}(?:{GIVEN}|[ \t]+(?=[{QUOTES_OPEN}]))"
    rf"(?:[{QUOTES_OPEN}](?P<quoted>[^{QUOTES_CLOSE}\n]{{1,100}})[{QUOTES_CLOSE}]"
    rf"|(?P<v>[^\s{QUOTES_OPEN}]\S{{0,99}}))"
)

# Words that follow "password is" in a sentence about a password, not in a disclosure of one.
_NOT_PASSWORDS = frozenset("""
    a an the this that these those it its my your his her our their same different new old wrong right
    correct incorrect invalid valid expired weak strong long short easy hard simple complicated secure
    insecure safe unsafe too very so not still now already just also only really quite pretty case
    required needed necessary optional reset hidden protected encrypted on in at under inside somewhere
    where here there something nothing what which who how why when being been be was is are were will
    would should could can must may might and or but if for to of with without about like as than then
    because since until from by into stolen forgotten lost taken broken known shown given written mine
    yours ours theirs hers unknown secret private personal random unique temporary enough none
    see use enter type set leave ask check min max minimum maximum length field hash salted plain
    empty blank missing yes no sent kept made told read shared found put left seen done chosen spent
""".split())
# Words of programming languages that stand where a value would: literals, keywords, type names.
_CODE_WORDS = frozenset("""
    none null nil undefined nan true false self this super cls new await async yield return lambda
    function func fn def const let var val if else elif not and or in is of raise throw
    str string int integer bool boolean float double number char bytes byte object any void optional
    unknown never list dict map array tuple set record secretstr
""".split())
# The password words themselves, as a variable's name: "password = password", "login(pw=pw)".
_PASSWORD_NAMES = frozenset("password passwd passphrase passcode pwd pw pass".split())
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CHAIN = re.compile(r"[A-Za-z_$][A-Za-z_$]*(?:(?:\.|::|->)[A-Za-z_$][A-Za-z_$]*)+")  # no digits
_TEMPLATE = re.compile(r"\$\{|\$\(|\{\{|\{%|<%|#\{|%\(|@\{")
_REFERENCE = re.compile(  # a whole value that stands for another: $VAR, {name}, %s, {0}, <your password>
    r"\$[A-Za-z_][A-Za-z_]*|\$\{[^}]*\}|%[sdr]|%\([^)]*\)[sdr]|\{[^{}]*\}|\{\{.*\}\}|<[^<>]*>|:[a-z_]+|\?"
)
_MASKED_ALREADY = re.compile(r"[*\u2022\u25cfxX#.]{3,}|\[[a-z_]+\]")  # ****, •••, xxx, [password]
_IN_A_TUPLE = re.compile(r",[ \t]*$")
_LENGTH_AFTER = re.compile(r"[ \t]*(?:\+|or more|characters?|chars?|digits?|letters?|symbols?)\b", re.I)


def password_finder(text: str) -> Iterator[Span]:
    """"my password is X", "password: X", a quoted value with spaces; a trailing full stop or comma
    stays in the sentence. Code and markup after the word are kept (see the module doc)."""
    for m in _PASSWORD.finditer(text):
        if "=" in (m.group("sign") or "") and _IN_A_TUPLE.search(text, max(0, m.start() - 3), m.start()):
            continue  # "ssid, password = ...": values paired with names by position
        if m.group("quoted") is not None:
            if not reference(m.group("quoted")):
                yield m.span("quoted")
            continue
        value = _trimmed(m.group("v"))
        end = m.start("v") + len(value)
        prose = m.group("prose") is not None
        if value and password_ok(value, prose=prose) and not _LENGTH_AFTER.match(text, end) \
                and (prose or not _sentence_goes_on(value, text, end)):
            yield m.start("v"), end


def _sentence_goes_on(value: str, text: str, end: int) -> bool:
    """After "password:", a word in lower case followed by more words is the sentence going on
    ("Never log the password: compare it with ..."), not a password."""
    return value.isalpha() and value.islower() and _NEXT_WORD.match(text, end) is not None


_NEXT_WORD = re.compile(r"[ \t]+[a-z]{2,}\b")


def _trimmed(value: str) -> str:
    """``value`` without what ends the sentence or the code around it: full stops, commas, colons
    and semicolons, and the quotes and brackets that close something opened before it (``echo
    "password: $PASSWORD"``, ``login(password: $password)``, ``...;Password=x;"``)."""
    while True:
        shorter = _unclosed(value.rstrip(".,;:"))
        if shorter == value:
            return value
        value = shorter


def _unclosed(value: str) -> str:
    while value:
        last = value[-1]
        opener = _OPENS.get(last)
        unpaired = value.count(last) % 2 if opener is None else value.count(last) > value.count(opener)
        if last not in "\"'`)]}" or not unpaired:
            return value
        value = value[:-1]
    return value


_OPENS = {")": "(", "]": "[", "}": "{"}


def password_ok(value: str, *, prose: bool = True) -> bool:
    """The word after "password is" is the password unless it is an ordinary word of the sentence
    ("my password is too short", "the password is on the fridge", "my password was changed"), or
    code (:func:`code_shaped`; after ":" or "=", ``prose`` False, more of it reads as code)."""
    word = value.strip("!?").casefold()
    if word in _NOT_PASSWORDS or re.fullmatch(r"[a-z]+ed", value) or code_shaped(value, prose=prose):
        return False
    return prose or word not in _PASSWORD_NAMES


def reference(value: str) -> bool:
    """A quoted value that stands for a password rather than being one: a template or variable
    (``${DB_PASSWORD}``, ``%(pw)s``, ``{password}``), a placeholder (``<your password>``) or one
    masked already (``********``)."""
    value = value.strip()
    return bool(_TEMPLATE.search(value) or _REFERENCE.fullmatch(value) or _MASKED_ALREADY.fullmatch(value))


def code_shaped(value: str, *, prose: bool = False) -> bool:
    """Whether an unquoted value after a password or key word is code rather than a value: a word
    of a programming language (``None``, ``return``, ``string``), markup or a structure (it starts
    with ``<``, ``{``, ``[`` or ``(``), a template or variable (``${X}``, ``$password``), a call or
    an index (``getpass()``, ``form['pw']``), a path (``/home/ana``), a password masked already.
    After ":" or "=" (``prose`` False) also a chain of names (``req.body.password``), a variable
    named like one (``new_password``, ``newPassword``, ``DB_PASSWORD``) or the password word
    itself. Real passwords can look like any of these; in chat and code they rarely do, while
    code after a password word is common."""
    word = value.strip(";,)").casefold()
    if word in _CODE_WORDS or value[:1] in "<{[(" or reference(value) or _MASKED_ALREADY.fullmatch(value):
        return True
    if _TEMPLATE.search(value) or re.search(r"[A-Za-z0-9_\])]\s*[(\[]|->|::|=>", value):
        return True
    if re.fullmatch(r"(?:~|\.{1,2})?/[\w.@~-]+(?:/[\w.@~-]*)*|[A-Za-z]:\\\S*", value):
        return True
    if prose:
        return False
    bare = value.rstrip(";,)")
    if _CHAIN.fullmatch(bare):
        return True
    if _IDENTIFIER.fullmatch(bare) and not any(ch.isdigit() for ch in bare):
        snake = "_" in bare.strip("_")
        camel = re.search(r"[a-z][A-Z]", bare) is not None
        return snake or camel or bare.casefold() in _PASSWORD_NAMES
    return False
