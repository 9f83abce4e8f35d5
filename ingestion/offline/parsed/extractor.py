"""``ParsedExtractor`` (the parse rules alone) and ``CombinedExtractor`` (the regex path, checked and
completed by the parse)."""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from temporal_graph.core.extraction import ExtractedEntity, ExtractedFact, Extraction, Extractor
from temporal_graph.core.model import Episode
from temporal_graph.core.names import name_key
from temporal_graph.core.ontology import is_attribute
from temporal_graph.core.sentences import statement_sentence
from temporal_graph.core.time import TimeMatch, find_time_expressions, resolve_time

from ..extractor import OfflineExtractor
from ..grammar import SARCASM
from ..objects import clean_name
from ..quotes import quoted_name, split_quotes
from ..tables import KIN
from .frames import FICTION_VERBS, asked, framed, is_predicate, reporter
from .pipeline import MODEL, load_pipeline
from .rules import HUGE, NOT_VALUES, Found, Scene, statements, things_named

ASSISTANT = "assistant"
# What the combined extractor takes from the parse: the families the regex path misses; likes and the
# rest it reads itself, and better.
ADDED_RELATIONS = frozenset("LIVES_IN WORKS_AT WORKS_AS STATUS".split())
_CACHE_SIZE = 256  # parsed messages kept: a message is parsed once as itself, then read again as context


class ParsedExtractor:
    """Facts read from a dependency parse of each sentence (spaCy, the ``parse`` extra).

    ``model`` names the spaCy pipeline package; it is loaded on the first extraction (about half a
    second), or at construction with ``load=True``."""

    def __init__(self, model: str = MODEL, *, load: bool = False) -> None:
        self.model = model
        self._nlp: Any = load_pipeline(model) if load else None
        self._docs: OrderedDict[str, Any] = OrderedDict()

    def parse(self, text: str) -> Any:
        """The parsed text (a ``spacy.tokens.Doc``), from a small cache of recent messages."""
        doc = self._docs.get(text)
        if doc is None:
            if self._nlp is None:
                self._nlp = load_pipeline(self.model)
            doc = self._nlp(text)
            self._docs[text] = doc
            if len(self._docs) > _CACHE_SIZE:
                self._docs.popitem(last=False)
        else:
            self._docs.move_to_end(text)
        return doc

    def extract(self, episode: Episode, context: Sequence[Episode] = ()) -> Extraction:
        return _extraction(self.found(episode, context))

    def found(self, episode: Episode, context: Sequence[Episode] = ()) -> list[Found]:
        """The facts of one message, before wording (offsets into the message's text)."""
        if SARCASM.search(episode.content) or (episode.speaker or "").lower() == ASSISTANT:
            return []  # a joke; or an assistant's word, which is no fact about the user or the world
        text, quotes = split_quotes(episode.content)
        out: list[Found] = []
        for who, quote in quotes:  # the quoted person's words, "I" meaning them
            name = quoted_name(who)
            speaker = episode.speaker if name == "I" else clean_name(name) if name else None
            if speaker is not None:
                quoted = episode.model_copy(update={"content": quote, "speaker": speaker})
                out.extend(self.found(quoted))
        kin: dict[str, str] = {}
        things: list[str] = []
        for earlier in sorted(context, key=lambda e: e.reference_time):
            things.extend(things_named(earlier.content))
            if earlier.speaker == episode.speaker and re.search(r"(?i)\b(?:my|our)\s", earlier.content):
                self._kin_of(earlier, kin)
        out.extend(self._found(text, episode, kin, things))
        return out

    def _kin_of(self, episode: Episode, kin: dict[str, str]) -> None:
        for f in self._found(split_quotes(episode.content)[0], episode, kin, []):
            if "kin" in f.extra:
                kin[f.extra["kin"]] = f.object

    def _found(self, text: str, episode: Episode, kin: dict[str, str], things: list[str]) -> list[Found]:
        if not text.strip():
            return []
        doc = self.parse(text)
        times = find_time_expressions(text)
        ref = episode.reference_time

        def ahead(t: TimeMatch) -> bool:
            if t.time_text is None:
                return False
            span = resolve_time(t.time_text, ref, prefer="future")
            return span is not None and span.start > ref

        out: list[Found] = []
        for sentence in doc.sents:
            if asked(sentence):
                continue
            named = things + things_named(text[:sentence.end_char])
            scene = Scene(episode.speaker, kin, named, times, 0, ahead)
            out.extend(statements(sentence, scene))
        return out


def _extraction(found: Sequence[Found]) -> Extraction:
    facts: list[ExtractedFact] = []
    entities: dict[tuple[str, str], ExtractedEntity] = {}
    seen: set[tuple[str, str, str, str]] = set()
    for f in found:
        key = (name_key(f.subject), f.relation, name_key(f.object), f.kind)
        if key in seen or not f.object or name_key(f.object) == name_key(f.subject):
            continue
        seen.add(key)
        facts.append(ExtractedFact(
            subject=f.subject, relation=f.relation, object=f.object,
            text=statement_sentence(f.subject, f.relation, f.object, f.kind, kin=f.extra.get("kin"),
                                    species=f.extra.get("species")),
            kind=f.kind, time_text=_phrase(f.time.time_text) if f.time else None,
            end_time_text=f.time.end_time_text if f.time else None, subject_type=f.subject_type,
            object_type=f.object_type, confidence=0.85, future=f.future))
        for name, type_ in ((f.subject, f.subject_type), (f.object, f.object_type)):
            entities.setdefault((name_key(name), type_), ExtractedEntity(name=name, type=type_))
    return Extraction(entities=list(entities.values()), facts=facts)


def _phrase(time_text: str | None) -> str | None:
    if time_text and time_text.endswith(".") and not re.search(r"\b[ap]\.m\.$", time_text, re.I):
        return time_text[:-1]
    return time_text


# -- both -----------------------------------------------------------------------------------------

_KIN_PREFIX = re.compile(r"^(?:%s)_" % "|".join(sorted((re.escape(k.upper().replace(" ", "_")) for k in KIN),
                                                       key=len, reverse=True)))


class CombinedExtractor:
    """The regex path's facts, checked against the parse, plus the parse's facts the regex path missed.

    A regex fact is dropped when the parse shows its words are not the speaker's own statement (every
    place its object is said lies in a framed, reported, negated or asked clause), when it gives an
    attribute a state or hyperbole for a value ("due", "literally a million"), when its relation names
    someone else's attribute as the speaker's ("SISTER_RENT"), when it makes kin of a name the parse
    does not link to the kin word ("Harry Potter is my sister's favorite book"), or when the parse
    states the same relation and object of another subject (whose attribute it is)."""

    def __init__(self, regex: Extractor | None = None, parsed: ParsedExtractor | None = None) -> None:
        self.regex = regex if regex is not None else OfflineExtractor()
        self.parsed = parsed if parsed is not None else ParsedExtractor()

    def extract(self, episode: Episode, context: Sequence[Episode] = ()) -> Extraction:
        if (episode.speaker or "").lower() == ASSISTANT:
            return Extraction()
        regex = self.regex.extract(episode, context)
        found = self.parsed.found(episode, context)
        if SARCASM.search(episode.content):
            return regex
        text = split_quotes(episode.content)[0]
        doc = self.parsed.parse(text) if text.strip() else None
        closed = _closed_spans(doc) if doc is not None else []
        by_relation = {(f.relation, name_key(f.object)): f for f in found}
        linked = {name_key(f.object) for f in found if "kin" in f.extra}
        kept: list[ExtractedFact] = []
        for fact in regex.facts:
            if fact.kind == "state" and self._vetoed(fact, text, closed, by_relation, linked, episode, doc):
                continue
            kept.append(fact)
        have = {(name_key(f.subject), f.relation, name_key(f.object)) for f in kept}
        same_slot = {(name_key(f.subject), f.relation) for f in kept if is_attribute(f.relation)}
        extra = [f for f in found if (name_key(f.subject), f.relation, name_key(f.object)) not in have
                 and (name_key(f.subject), f.relation) not in same_slot
                 and (f.relation in ADDED_RELATIONS or is_attribute(f.relation) or "kin" in f.extra)]
        added = _extraction(extra)
        entities = {(name_key(e.name), e.type): e for e in (*regex.entities, *added.entities)}
        return Extraction(entities=list(entities.values()), facts=[*kept, *added.facts])

    @staticmethod
    def _vetoed(fact: ExtractedFact, text: str, closed: list[tuple[int, int]],
                by_relation: dict[tuple[str, str], Found], linked: set[str], episode: Episode,
                doc: Any) -> bool:
        obj = fact.object
        if is_attribute(fact.relation):
            words = obj.lower().split()
            if words and (words[0] in NOT_VALUES or HUGE.match(obj)) or "literally" in text.lower().split():
                return True
            if episode.speaker and name_key(fact.subject) == name_key(episode.speaker) \
                    and _KIN_PREFIX.match(fact.relation):
                return True  # "my sister's rent" is not the speaker's SISTER_RENT
        for (relation, value), other in by_relation.items():  # whose attribute: the parse's owner
            if value == name_key(obj) and name_key(other.subject) != name_key(fact.subject) and (
                    relation == fact.relation or fact.relation.endswith("_" + relation)):
                return True
        if fact.relation in set(KIN.values()) and name_key(obj) not in linked and doc is not None \
                and _kin_possessive(doc, obj):
            return True
        if fact.relation in ("LIKES", "DISLIKES") and doc is not None and _verb_inside(doc, obj):
            return True  # "Art used to give me so much joy" is no taste for "art used to"
        places = [m.start() for m in re.finditer(re.escape(obj), text, re.I)] if obj else []
        return bool(places) and bool(closed) and all(any(a <= p < b for a, b in closed) for p in places)


def _closed_spans(doc: Any) -> list[tuple[int, int]]:
    """The character spans of the clauses that are not the speaker's own statement."""
    spans = []
    for pred in doc:  # questions, negations, wishes and plans are the regex path's own to read
        if is_predicate(pred) and (framed(pred, FICTION_VERBS, modals=False) or reporter(pred) is not None):
            spans.append((pred.left_edge.idx, pred.right_edge.idx + len(pred.right_edge.text)))
    return spans


def _kin_possessive(doc: Any, name: str) -> bool:
    """Whether the sentence naming ``name`` uses a kin word only as an owner ("my sister's ...")."""
    key = name_key(name)
    for sentence in doc.sents:
        if key not in name_key(sentence.text):
            continue
        kin = [t for t in sentence if t.lower_ in KIN]
        return bool(kin) and all(t.dep_ == "poss" and t.head.lower_ != "name" for t in kin)
    return False


def _verb_inside(doc: Any, obj: str) -> bool:
    key = obj.lower()
    start = doc.text.lower().find(key)
    if start < 0:
        return False
    span = doc.char_span(start, start + len(key), alignment_mode="expand")
    return span is not None and any(t.tag_ in ("VBD", "VBZ", "VBP", "MD", "TO") for t in span)
