"""Whether a clause of a parsed sentence is the speaker's own statement, read from the parse.

A predicate (the verb or copula heading a clause) is *not* a statement of fact when:

* it is framed: inside fiction, a game, a dream or a hypothetical ("In the game I live in Paris",
  "I dreamt I worked at Google", "If I lived in Rome ..."), under a wish, a plan or a hedge ("I want
  to live in Rome", "I think I live ..."), or told with a modal ("I could work at Google");
* it is reported: the clause is what someone else says, claims or believes ("my flatmate said I
  live in Paris", "I live in Paris, my flatmate said", "..., or so my landlord claims");
* it is negated ("I don't live in Paris": a denial, which the regex path reads) or asked.

Each test walks up the parse from the predicate, so a frame covers the clauses under it and no
others: "I live in Milan now, my rent is 900 euros a month" keeps both statements.
"""

from __future__ import annotations

from typing import Any

Token = Any  # a spaCy token; the package is optional, so it is not imported here

# Nouns whose inside is made up: "in the game", "in my novel", "in my dream".
FRAME_NOUNS = frozenset("""game games novel novels story stories dream dreams book books movie movies film
films show shows fiction fantasy simulation sim sims script play roleplay rp campaign universe fanfic
fanfiction screenplay nightmare imagination daydream scenario version""".split())
# Verbs whose clause is not a fact: dreams, wishes, plans and hedges.
FRAME_VERBS = frozenset("""dream imagine pretend wish suppose fantasize fantasise picture hope want plan
think guess believe doubt wonder consider reckon assume bet fear worry would_like""".split())
# Verbs that report another's word: the clause under them is that person's claim.
# The narrow frames the combined extractor vetoes regex facts by (the regex path reads wishes, plans and
# hedges itself, and "wanted to let you know I joined ..." is a statement): fiction, dreams, pretence.
FICTION_VERBS = frozenset("dream imagine pretend fantasize fantasise daydream".split())
REPORT_VERBS = frozenset("""say claim tell insist swear mention write text report allege reckon think believe
hear assert maintain argue suggest suspect announce post tweet""".split())
MODALS = frozenset("would could might should may must ought shall".split())
HEARSAY = frozenset("""apparently supposedly allegedly reportedly seemingly evidently maybe perhaps probably
possibly hopefully someday""".split())
HYPOTHETICAL_MARKS = frozenset("if unless whether though although".split())
FIRST_PERSON = frozenset("i we".split())
# Clause links that start a new clause under the one above (its frame applies to them too).
CLAUSAL = frozenset("ccomp xcomp advcl conj relcl acl parataxis csubj".split())


def is_predicate(token: Token) -> bool:
    return token.pos_ in ("VERB", "AUX") and token.dep_ not in ("aux", "auxpass")


def _subject(token: Token) -> Token | None:
    return next((c for c in token.children if c.dep_ in ("nsubj", "nsubjpass")), None)


def _first_person(token: Token | None) -> bool:
    return token is not None and token.lower_ in FIRST_PERSON


def negated(pred: Token) -> bool:
    """"I don't live in Paris", "I never worked there", "no longer", "I'm no writer": a denial or an
    ending, not a state."""
    for c in pred.children:
        if c.dep_ == "neg" or c.lower_ in ("never", "no"):
            return True
        if c.lower_ in ("longer", "more") and any(g.lower_ == "no" for g in c.children):
            return True
        if c.dep_ in ("attr", "dobj") and any(g.dep_ == "det" and g.lower_ == "no" for g in c.children):
            return True
    return False


def modal(pred: Token) -> bool:
    """"would", "could", ...; "I'd love to" (but "I'd lived": had)."""
    return any(c.dep_ == "aux" and (c.lower_ in MODALS or (c.lower_ in ("'d", "’d") and pred.tag_ == "VB"))
               for c in pred.children)


def reporter(pred: Token) -> Token | None:
    """The token of whoever else says or believes the clause of ``pred``, else None.

    Walks up the clause links: "my flatmate said [I live in Paris]" and its trailing form "[I live in
    Paris], my flatmate said" (the parser makes "said" the root either way), and "I live in Paris, or
    so my landlord claims" (the reporter hangs as a conjunct beside the statement)."""
    node = pred
    while True:
        for child in node.children:  # "..., or so my landlord claims": a conjoined report of the clause
            if (child.dep_ in ("conj", "parataxis") and child.lemma_ in REPORT_VERBS
                    and not _first_person(_subject(child))
                    and not any(c.dep_ in ("ccomp", "dobj", "xcomp") for c in child.children)):
                return child
        if node.dep_ not in CLAUSAL or node.head.i == node.i:
            return None
        head = node.head
        if head.lemma_ in REPORT_VERBS and node.dep_ in ("ccomp", "parataxis", "conj", "advcl"):
            who = _subject(head)
            if negated(head):  # "I never said I worked at Google"
                return head
            if who is not None and not _first_person(who):
                return who  # an imperative ("say hi to your dogs") reports no one
            # "I told him I live in Paris": the speaker's own word; "I think I live ...": a hedge
            if head.lemma_ in FRAME_VERBS:
                return head
        node = head


def framed(pred: Token, verbs: frozenset[str] = FRAME_VERBS, *, modals: bool = True) -> bool:
    """Fiction, games, dreams, wishes, plans, hedges and hypotheticals above or on this clause (with
    ``verbs`` the framing verbs looked for, and ``modals`` whether "could" / "would" frame too)."""
    node = pred
    while True:
        for child in node.children:
            if child.dep_ == "prep" and child.lower_ in ("in", "inside", "within"):
                obj = next((c for c in child.children if c.dep_ == "pobj"), None)
                if obj is not None and obj.lower_ in FRAME_NOUNS:
                    return True
            if child.dep_ == "mark" and child.lower_ in HYPOTHETICAL_MARKS:
                return True
            if child.dep_ == "advmod" and child.lower_ in HEARSAY:
                return True
        if modals and modal(node):
            return True
        if node.dep_ not in CLAUSAL or node.head.i == node.i:
            return False
        head = node.head
        if head.lemma_ in verbs and node.dep_ in ("ccomp", "xcomp", "advcl"):
            return True
        if modals and head.lemma_ == "like" and modal(head):  # "I would like to live in Rome"
            return True
        if node.dep_ == "advcl" and head.lemma_ in ("love", "hate", "like") and any(
                c.dep_ == "dobj" and c.lower_ == "it" for c in head.children):
            return True  # "I just love it when my order status is lost": a habit of the world, no fact
        node = head


def asked(sentence: Any) -> bool:
    """A question: it ends with a question mark, or opens with an auxiliary before its subject."""
    text = sentence.text.rstrip()
    if text.endswith("?"):
        return True
    first = next((t for t in sentence if not t.is_punct and not t.is_space), None)
    return first is not None and first.dep_ in ("aux", "auxpass") and first.i < first.head.i and \
        any(c.dep_ in ("nsubj", "nsubjpass") and c.i > first.i for c in first.head.children)
