"""``OfflineExtractor``: the rules run over each clause of a message; he / she / they, "left X" and
corrections are settled against earlier statements; each fact is dated by its clause's time phrase."""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache

from temporal_graph.core.extraction import ExtractedEntity, ExtractedFact, Extraction
from temporal_graph.core.model import Episode
from temporal_graph.core.names import name_key, normalize_relation
from temporal_graph.core.sentences import statement_sentence
from temporal_graph.core.time import Prefer, TimeMatch, find_time_expressions, resolve_time

from ..plans import PLAN_RELATIONS, cue_matches
from .announcements import ANNOUNCE_RULES, profile_sentences
from .attributes import ORG_WORD
from .chat_doings import DOING_RULES, everyday_done
from .chat_events import (
    CHAT_STATE_RULES,
    RECENT_DONE_RULES,
    kept_undated,
    pets_of_speaker,
    time_belongs_elsewhere,
)
from .chat_more import MORE_RULES, PHRASAL_DONE_RULES, more_object
from .chat_tastes import TASTE_RULES, addressee, favorite_relation, joined_group, pets_of_addressee
from .clauses import statements
from .drafts import Draft as _Draft
from .framing import framed, is_assistant, reported
from .grammar import (
    BORN_ON,
    COMPOUND,
    CORRECTION_MARKER,
    CORRECTION_RULES,
    DENIAL_RULES,
    ENDING_RULES,
    FUTURE,
    HEARSAY,
    HYPOTHETICAL,
    ISSUE37_ENDING_RULES,
    ISSUE37_STATE_RULES,
    KIN_ADJ,
    KIN_ALONE,
    KIN_APPOSITION,
    KIN_COUNTED,
    KIN_IS,
    KIN_MENTION,
    KIN_NAME_IS,
    KIN_NAMED,
    KIN_RE,
    KIN_ROLE_IS,
    LEADING_SUBJECT,
    MENTION,
    NAME,
    NEGATION,
    NOT_AFTER,
    NOT_DENIED,
    NOT_OBJECT,
    PAIR_MENTION,
    PARTNER_NAME,
    PASTIME_RULES,
    PET_NAME,
    PET_NAMED_AFTER,
    REPORTING,
    SARCASM,
    SEEING_SOMEONE,
    STATE_RULES,
    UNDATED_DID,
    WITH_COMPANY,
    Rule,
    RuleSet,
    bounded_clauses,
    cues_in,
    expand,
    is_question,
    sentences,
    starts_clause,
    told_before_question,
    unframed,
)
from .life_changes import (
    ACCEPTED,
    CHANGED_PLAN,
    HOME_PLACE,
    LIFE_KINDS,
    LIFE_RULES,
    STARTING_ALONE,
    engaged_in_view,
    home_place,
    life_object,
    moving_to,
)
from .objects import ANY_OBJECT, HERE, PARTNER, clean_name, clean_object, clean_proper, emissions
from .possessors import UNIQUE_KIN_RE, followable, kin_name, kin_relation, kin_word
from .quotes import quoted_name, split_quotes
from .records import read_clause, read_sentence
from .segments import bounded_segments
from .statuses import things_named
from .tables import (
    BASE_FORMS,
    COMPANIES,
    FEMININE_KIN,
    KIN,
    MASCULINE_KIN,
    NOT_NAMES,
    PETS,
    THIRD_PERSON,
)

_WORDS = re.compile(r"[A-Za-z]+")


@lru_cache(maxsize=512)  # a message is read again as the context of the next few
def _found_times(text: str) -> tuple[TimeMatch, ...]:
    return tuple(find_time_expressions(text))


def _times(text: str) -> list[TimeMatch]:
    """The time phrases of a clause (``find_time_expressions``), worked out once per text."""
    return list(_found_times(text))
_CLAUSE_RULES = (*ENDING_RULES, *ISSUE37_ENDING_RULES, *PASTIME_RULES, *STATE_RULES, *ISSUE37_STATE_RULES,
                 *CHAT_STATE_RULES, *TASTE_RULES, *MORE_RULES, *LIFE_RULES, *DOING_RULES, *ANNOUNCE_RULES)
# (the clause holds a negation, the fallback rules): the rules tried, in order; a negated clause tries
# only the rules that allow one
_RULE_SETS = {(negated, fallback): RuleSet([r for r in _CLAUSE_RULES if r.fallback == fallback
                                            and not (r.positive and negated)])
              for negated in (False, True) for fallback in (False, True)}
# Rules of things done that keep an undated match told as just done ("I just signed with a new team").
_DONE_RULES = (*RECENT_DONE_RULES, *PHRASAL_DONE_RULES)


class _Context:
    """The context episodes of one extraction, with their facts worked out once (not per clause)."""

    def __init__(self, extractor: OfflineExtractor, episodes: Sequence[Episode]) -> None:
        self.extractor = extractor
        self.episodes = sorted(episodes, key=lambda e: e.reference_time)
        self._drafts: list[_Draft] | None = None
        self._by_episode: dict[str, list[_Draft]] = {}
        # people this message introduces as a clause's subject ("Sam is a cyclist, he ..."): whom
        # he / she / they may mean even when no fact about them was taken
        self.mentions: list[str] = []

    def drafts_of(self, episode: Episode) -> list[_Draft]:
        if episode.id not in self._by_episode:
            self._by_episode[episode.id] = self.extractor.context_drafts(episode)
        return self._by_episode[episode.id]

    def drafts(self) -> list[_Draft]:
        """Facts the context states, latest episode first."""
        if self._drafts is None:
            self._drafts = [d for ep in reversed(self.episodes) for d in reversed(self.drafts_of(ep))]
        return self._drafts


# "my sister" with no name after it: a relative the speaker did not name.
_UNNAMED_KIN = re.compile(rf"^(?:[Mm]y|[Oo]ur)\s+(?:{KIN_ADJ}\s+)?(?P<kin>{UNIQUE_KIN_RE})$")
# "raised the rent": an attribute of the speaker's named without its value, which "it" may revise.
_MENTIONED = re.compile(r"\b(?i:my|our|the)\s+(?P<attr>rent|salary|pay|wage|income|mortgage|budget|"
                        r"council tax|phone plan|price|fee)\b")


class _ContextCache:
    """The facts of recent context messages, latest used last; safe to share between threads."""

    def __init__(self) -> None:
        self._items: OrderedDict[tuple[str, str | None, str, datetime], list[_Draft]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str | None, str, datetime]) -> list[_Draft] | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: tuple[str, str | None, str, datetime], drafts: list[_Draft], size: int) -> None:
        with self._lock:
            self._items[key] = drafts
            while len(self._items) > size:
                self._items.popitem(last=False)


class _Resolver:
    """Who and what one clause's words mean, from the message and its last turns (``records.Resolver``)."""

    def __init__(self, extractor: OfflineExtractor, episode: Episode, context: _Context,
                 earlier: list[_Draft]) -> None:
        self.extractor, self.episode, self.context, self.earlier = extractor, episode, context, earlier
        self.speaker = episode.speaker

    def person(self, raw: str | None) -> tuple[str | None, list[_Draft]]:
        if raw is None or raw in ("I", "i", "we", "We"):
            return self.speaker, []
        if raw.lower() in THIRD_PERSON:
            return _resolve_pronoun(raw.lower(), self.episode, self.context, self.earlier), []
        kin = _UNNAMED_KIN.match(raw)
        if kin is not None:
            return self.relative(self.speaker, kin.group("kin")) if self.speaker else (None, [])
        return OfflineExtractor._subject(raw, self.speaker), []

    def relative(self, base: str, kin: str) -> tuple[str | None, list[_Draft]]:
        kin = kin_word(kin)
        relation = kin_relation(kin)
        if not followable(kin) or relation is None:
            return None, []
        for d in self.extractor._history(self.context, self.earlier):
            if (d.extra.get("kin") == kin and name_key(d.subject) == name_key(base)
                    and "unnamed" not in d.extra):
                return d.object, []  # "my sister Meera" before: Meera
        name = kin_name(base, kin)
        return name, [_Draft(base, relation, name, "Person", extra={"kin": kin, "unnamed": "1"})]

    def _texts(self, own: bool = False) -> list[str]:
        """This message's text, then the last turns' (latest first); ``own``: the speaker's only."""
        turns = [e for e in reversed(self.context.episodes[-4:]) if not own or e.speaker == self.speaker]
        return [self.episode.content, *(e.content for e in turns)]

    def thing(self, noun: str | None) -> str | None:
        for text in self._texts():
            named = [name for kind, name in things_named(text) if noun is None or kind == noun]
            if named:
                return named[-1]
        return None

    def own_thing(self, owner: str, noun: str) -> str:
        if owner == self.speaker:
            for text in self._texts(own=True):
                named = [name for kind, name in things_named(text) if kind == noun]
                if named:
                    return named[-1]  # "order 7781 ... my order has shipped": that order
        return f"{owner}'s {noun}"

    def antecedents(self) -> list[_Draft]:
        out = [d for d in reversed(self.earlier) if d.object_type == "Value"]
        if self.speaker is not None:  # "My landlord raised the rent, it's 1,050 a month now"
            out.extend(_Draft(self.speaker, normalize_relation(m.group("attr")), "", "Value")
                       for m in reversed(list(_MENTIONED.finditer(self.episode.content[:2000]))))
        out.extend(d for d in self.context.drafts() if d.object_type == "Value")
        return out


class OfflineExtractor:
    """Deterministic rule-based extraction of personal facts from English chat (no model, no network)."""

    # A message is context for the few after it: its own facts (read without context) are kept for
    # that many extractions, not worked out again for each (read only once made).
    CONTEXT_CACHE = 64

    def context_drafts(self, episode: Episode) -> list[_Draft]:
        """The facts one context message states by itself (no context of its own, no corrections)."""
        cache = self.__dict__.get("_context_cache")
        if cache is None:  # made on first use: a subclass need not call __init__
            cache = self.__dict__.setdefault("_context_cache", _ContextCache())
        key = (episode.id, episode.speaker, episode.content, episode.reference_time)
        found = cache.get(key)
        if found is None:
            found = self._drafts(episode, _Context(self, ()), corrections=False)
            cache.put(key, found, self.CONTEXT_CACHE)
        return found

    def extract(self, episode: Episode, context: Sequence[Episode] = ()) -> Extraction:
        drafts = self._drafts(episode, _Context(self, context), corrections=True)
        facts: list[ExtractedFact] = []
        entities: dict[tuple[str, str], ExtractedEntity] = {}
        seen: dict[tuple[str, str, str, str], _Draft] = {}
        for d in drafts:
            key = (name_key(d.subject), d.relation, name_key(d.object), d.kind)
            if key not in seen:
                seen[key] = d
            elif seen[key].time is None and d.time is not None:
                seen[key].time = d.time  # "an ICU nurse at St. Michael's. Started there in 2020"
        for d in drafts:
            key = (name_key(d.subject), d.relation, name_key(d.object), d.kind)
            if seen.get(key) is not d or (d.object and name_key(d.object) == name_key(d.subject)):
                continue
            facts.append(
                ExtractedFact(
                    subject=d.subject, relation=d.relation, object=d.object,
                    text=statement_sentence(d.subject, d.relation, d.object, d.kind, det=d.det,
                                            kin=None if "unnamed" in d.extra else d.extra.get("kin"),
                                            species=d.extra.get("species")),
                    kind=d.kind, time_text=_phrase(d.time.time_text) if d.time else None,
                    end_time_text=d.time.end_time_text if d.time else None, replaces=d.replaces,
                    subject_type=d.subject_type, object_type=d.object_type, confidence=d.confidence,
                    future=d.future,
                )
            )
            for name, type_ in ((d.subject, d.subject_type), (d.object, d.object_type)):
                if name:
                    entities.setdefault((name_key(name), type_), ExtractedEntity(name=name, type=type_))
        return Extraction(entities=list(entities.values()), facts=facts)

    # -- per episode -----------------------------------------------------------------------------

    def _drafts(self, episode: Episode, context: _Context, *, corrections: bool) -> list[_Draft]:
        out: list[_Draft] = []
        pending_pet: _Draft | None = None
        pending_partner = False
        if SARCASM.search(episode.content) or is_assistant(episode.speaker):
            return out  # a joke or sarcasm anywhere, or an assistant's turn: nothing taken at face value
        told: list[str] = []
        for segment in bounded_segments(episode.content):  # bounded pieces: linear in the message
            text, quotes = split_quotes(expand(segment))
            for who, quote in quotes:  # the quoted person's words, with "I" meaning them
                out.extend(self._quoted(episode, who, quote))
            told.extend(sentences(text))
        told = profile_sentences(_with_start(told))  # "Priya: 34, teaches chemistry at ..." written out
        for sentence in told:
            pieces = unframed(sentence)
            if is_question(" ".join(pieces)):  # "let you know" asks nothing
                sentence = told_before_question(sentence)
                pieces = unframed(sentence)
            if not sentence or framed(sentence) or reported(sentence):
                pending_pet = None  # someone else's word, a story, a game, a dream, a supposition
                continue
            # A rumour passed on ("word is ...", "apparently ...") states nothing, except about someone who
            # speaks in this chat: the teller's word about them, which the memory keeps as the teller's
            # claim (theirs to confirm or deny: "Not true, I'm not moving back to Ghana").
            about = _present(episode, context) if HEARSAY.search(sentence) else None
            if about is not None and not about:
                pending_pet = None
                continue
            partner = PARTNER_NAME.match(sentence)
            if partner and pending_partner and episode.speaker:  # "I'm seeing someone. His name is Sam"
                name = clean_name(partner.group("name"))
                if name:
                    out.append(_Draft(episode.speaker, "DATING", name, "Person"))
            pending_partner = bool(SEEING_SOMEONE.search(sentence))
            pet_name = PET_NAME.match(sentence)
            if pet_name and pending_pet is not None:  # "I got a puppy! Her name is Coco."
                name = clean_name(pet_name.group("name"))
                if name:
                    pending_pet.extra["species"] = pending_pet.object
                    pending_pet.object = name
                pending_pet = None
                continue
            pending_pet = None
            shorthand = self._shorthand(sentence, episode, context, out)  # "Order 7730 status: cancelled"
            if shorthand:
                out.extend(shorthand)
                continue
            context.mentions.extend(m.group("name") for m in MENTION.finditer(sentence)
                                    if clean_name(m.group("name")))
            context.mentions.extend(name for m in PAIR_MENTION.finditer(sentence)  # "Leo and Sam are fine"
                                    for name in (m.group("a"), m.group("b")) if clean_name(name))
            for clause in (said for piece in pieces for whole in bounded_clauses(piece)
                           for part in _compound(whole) for said in statements(part)):
                pet_name = PET_NAME.match(clause[:1].upper() + clause[1:]) if pending_pet else None
                if pending_pet is not None and pet_name and clean_name(pet_name.group("name")):
                    # "I have a dog now, his name is Rex": the clause cut after "now" names the pet
                    pending_pet.extra["species"] = pending_pet.object
                    pending_pet.object = clean_name(pet_name.group("name")) or pending_pet.object
                    pending_pet = None
                    continue
                found = self._clause(clause, episode, context, out, corrections)
                if about is not None:
                    found = [d for d in found if name_key(d.subject) in about and d.kind == "state"]
                out.extend(found)
                pets = [d for d in found
                        if d.relation == "HAS_PET" and "kin" not in d.extra and d.object.lower() in PETS]
                named = PET_NAMED_AFTER.search(clause) if pets else None
                if named and clean_name(named.group("name")):  # "I adopted a cat, her name is Pepper"
                    pets[-1].extra["species"] = pets[-1].object
                    pets[-1].object = clean_name(named.group("name")) or pets[-1].object
                    pets = []
                pending_pet = pets[-1] if pets else pending_pet
        return out

    def _quoted(self, episode: Episode, who: str | None, quote: str) -> list[_Draft]:
        """Facts of a quote, about the person quoted (the message's speaker for "I said ...");
        nothing when the frame names no one ("she said", "my boss told me")."""
        name = quoted_name(who)
        speaker = episode.speaker if name == "I" else clean_name(name) if name else None
        if speaker is None:
            return []
        quoted = episode.model_copy(update={"content": quote, "speaker": speaker})
        return self._drafts(quoted, _Context(self, ()), corrections=False)

    def _clause(
        self, clause: str, episode: Episode, context: _Context, earlier: list[_Draft], corrections: bool
    ) -> list[_Draft]:
        if len(_WORDS.findall(clause, 0, 200)) < 2:
            return []  # "!!!", "Wow.": no rule reads fewer than two words
        clause = self._name_kin(WITH_COMPANY.sub("I", clause), episode.speaker, context, earlier)
        times = _times(clause)
        text, anchors = _strip_times(clause, times)
        if HYPOTHETICAL.search(text):
            return []
        speaker = episode.speaker
        if corrections and CORRECTION_MARKER.search(text):
            fixed = self._correction(text, episode, context, earlier)
            if fixed is not None:
                return fixed
        drafts = self._kinship(text, speaker)
        named_pet = any(d.relation == "HAS_PET" for d in drafts)  # "Rocket, my hamster": not a second pet
        if speaker is not None and not named_pet:  # "my dogs love the park": the speaker has dogs
            drafts.extend(_Draft(speaker, "HAS_PET", kind, "Animal", extra={"species": kind})
                          for kind in pets_of_speaker(text))
        spoken_to = addressee(episode, context.episodes) if "your" in text.lower() else None
        if spoken_to is not None:  # "your pups are so cute", to the other speaker: they have dogs
            drafts.extend(_Draft(spoken_to, "HAS_PET", kind, "Animal", extra={"species": kind})
                          for kind in pets_of_addressee(text))
        drafts.extend(self._born_on(clause, times, speaker))
        records = self._records(clause, times, text, anchors, episode, context, earlier)
        if records:  # the clause tells a value (an attribute, a status, an address): no rule reads it
            return drafts + records
        denials = self._run(DENIAL_RULES, text, times, anchors, episode, context, earlier)
        # a denial's negation is its own: "I never lived in Oslo, we live in Bergen" states Bergen
        text = _blank(text, [span for _, span in denials])
        drafts.extend(d for d, _ in denials)
        # "Lyon, not Paris" and "I cannot wait" are no negation
        negated = bool(NEGATION.search(NOT_DENIED.sub("", NOT_OBJECT.sub("", text))))
        for fallback in (False, True):  # the fallback rules only when no other rule matched
            found = self._run(_RULE_SETS[negated, fallback], text, times, anchors, episode, context, earlier)
            drafts.extend(d for d, _ in found)
            if found:
                break
        # "joined a travel club": a membership too, from when it was joined
        drafts.extend(_Draft(d.subject, "MEMBER_OF", group, "Organization", time=d.time,
                             confidence=d.confidence)
                      for d in list(drafts) if d.relation == "DID" and d.kind == "state"
                      and (group := joined_group(d.object)) is not None)
        return drafts

    def _run(
        self, rules: RuleSet | Sequence[Rule], text: str, times: list[TimeMatch], anchors: list[int],
        episode: Episode, context: _Context, earlier: list[_Draft],
    ) -> list[tuple[_Draft, tuple[int, int]]]:
        """The drafts of every match of these rules, each with the span it matched."""
        out: list[tuple[_Draft, tuple[int, int]]] = []
        present = cues_in(text.lower())
        # only the rules one of whose words the clause holds: the others' regexes cannot match
        for rule in rules.candidates(present) if isinstance(rules, RuleSet) else rules:
            if rule.cue and present.isdisjoint(rule.cue):
                continue
            for m in rule.pattern.finditer(text):
                out.extend((d, m.span()) for d in self._apply(rule, m, text, times, anchors, episode, context,
                                                              earlier))
        return out

    def _apply(
        self, rule: Rule, m: re.Match[str], text: str, times: list[TimeMatch], anchors: list[int],
        episode: Episode, context: _Context, earlier: list[_Draft],
    ) -> list[_Draft]:
        groups = m.groupdict()
        raw_subject = groups.get("subj")
        resolver = _Resolver(self, episode, context, earlier)
        subject, links = resolver.person(raw_subject)
        if subject is not None and groups.get("kin"):  # "Jane Eyre is my mum's favourite book"
            subject, kin_links = resolver.relative(subject, groups["kin"])
            links = [*links, *kin_links]
        if subject is None or (rule.kind == "denial" and times):
            return []  # a denial with a time ("never in winter") denies less than the value
        if raw_subject and REPORTING.search(text[:m.start("subj")]):
            return []  # "... say I live in Atlantis": reported or requested, not stated
        if raw_subject and raw_subject not in ("I", "we", "We") and raw_subject.lower() not in THIRD_PERSON:
            following = text[m.end("subj"):].split()
            if following and following[0].lower() in BASE_FORMS:
                return []  # "Themes like sisterhood": a name needs "likes", so this is no subject
            if rule.fallback and " " not in raw_subject.strip() and raw_subject.lower().endswith("ing"):
                return []  # "Shipping took a lifetime": a doing, not someone
        time = _nearest_time(m.span(), times, anchors)
        if rule.fallback and time is not None and time_belongs_elsewhere(text, m.end(), times, anchors, time):
            time = None  # "I had a quiet weekend after we went camping two weekends ago": not its time
        if time is not None and time.is_duration and not re.search(r"\b(?:have|has)\b", m.group(0)):
            time = None  # "for two weeks" only dates a present-perfect state
        undated = rule.fallback and time is None  # kept only for the clear events of UNDATED_DID
        if rule.needs_time and (time is None or time.is_duration) and not undated:
            return []
        if rule.future and time is not None and not _still_ahead(time, episode):
            return []  # "I'm running a marathon" dated in the past is no plan
        pronoun = raw_subject is not None and raw_subject.lower() in THIRD_PERSON
        if pronoun and not starts_clause(text[:m.start("subj")]):
            return []  # "the book she wrote": a pronoun inside a relative clause
        if (rule.fallback or rule.opens_clause) and not starts_clause(text[:m.start()]):
            return []  # "the book I read last year ...": a relative clause, not a report
        drafts: list[_Draft] = []
        for emit, raw in emissions(rule, groups):
            mine = more_object(emit.object_kind, raw)  # chat_more's own kinds of object
            if mine is False:
                mine = life_object(emit.object_kind, raw)  # life_changes' own
            obj, det = (mine, None) if mine is not False else clean_object(emit, raw, groups)
            if obj is None or (undated and not UNDATED_DID.match(obj) and not (
                    rule in _DONE_RULES and kept_undated(text[m.start():m.start("o")], obj))
                    and not (rule in DOING_RULES and everyday_done(obj))):
                continue
            relation, kind, object_type = emit.relation, rule.kind, emit.object_type
            if relation == "FAVORITE?":  # "Harry Potter is my favorite book": the favourite of that kind
                relation = favorite_relation(groups.get("fav") or "")
            if relation == "LEFT?":  # a home or a job: the context decides
                relation = self._disambiguate(relation, subject, obj, context, earlier)
                object_type = "Place" if relation == "LIVES_IN" else "Organization"
            if relation.endswith("?") and relation != "STARTED?":  # "moved to X": a job, else a home
                names = [n for n in (groups.get("o"), groups.get("old")) if n]
                org = any(self._is_org(clean_proper(n) or n, context, earlier) for n in names)
                if relation == "JOINED?" and not org:  # "left Initech and joined Hooli": a new job
                    org = any(d.relation in ("WORKS_AT", "WORKED_AT")
                              and name_key(d.subject) == name_key(subject) for d in earlier)
                if relation in ("AT_ORG?", "SWITCHED?", "SWITCHED_FROM?", "JOINED?", "IN_ORG?") and not org:
                    continue  # "is at the station", "switched from tea to coffee": no job said
                relation, object_type = ("WORKS_AT", "Organization") if org else ("LIVES_IN", "Place")
                if emit.relation.endswith("_FROM?"):
                    kind = "ending"
            if obj == HERE:  # "living here", "a pastry chef there": what this message just named
                wanted = ("WORKS_AT", "STUDIES_AT") if relation == "STARTED?" else (relation,)
                named = next((d for d in reversed(earlier) if d.object and d.kind == "state"
                              and name_key(d.subject) == name_key(subject) and d.relation in wanted), None)
                if named is None:
                    continue
                obj, relation, object_type = named.object, named.relation, named.object_type
            if emit.object_kind in LIFE_KINDS:
                settled = self._settle_life(emit.object_kind, obj, subject, groups, episode, context, earlier)
                if settled is None:
                    continue
                obj = settled
            if emit.object_kind == "partner" and obj == PARTNER:
                found = self._partner(subject, episode, context, earlier)
                if found is None:
                    continue  # "we got engaged" with no partner named in the chat: only the status
                obj = found
            if rule.past and time is None:
                relation = {"LIVES_IN": "LIVED_IN", "WORKS_AT": "WORKED_AT", "STUDIES_AT": "STUDIED_AT"}.get(
                    relation, relation)
                if relation == "WORKS_AS":
                    continue
            if emit.object_kind == "any":
                obj = self._ended_object(subject, relation, context, earlier, episode)
            if kind == "state" and relation in ("VISITED", "ATTENDED", "DID") and _is_future(time, episode):
                continue  # told as done but dated in the future: too unclear to keep
            if (kind == "state" and relation == "VISITED" and time is None
                    and re.search(r"\b(?:was|were) in\b", m.group(0))):
                continue  # "I was in Paris" needs a time to be a visit
            draft = _Draft(subject, relation, obj, object_type, kind, time, det=det,
                           confidence=0.7 if undated else 0.8 if rule.fallback else 0.9,
                           future=kind == "state" and (rule.future or relation in PLAN_RELATIONS
                                                       or bool(FUTURE.search(m.group(0)))))
            if kind == "ending" and relation in PLAN_RELATIONS:
                draft.relation, draft.object = self._called_off(subject, obj, episode, context, earlier)
            if emit.object_kind == "petname":
                draft.extra["species"] = groups["pet"].lower()
                if raw is None:
                    draft.object = groups["pet"].lower()
            old = NOT_AFTER.match(text[m.end():])
            if old and kind == "state" and emit.object_kind == "proper":
                draft.kind, draft.replaces = "correction", clean_proper(old.group("old"))
            drafts.append(draft)
        return [*drafts, *links] if drafts else drafts

    # -- pieces ----------------------------------------------------------------------------------

    def _records(self, clause: str, times: list[TimeMatch], text: str, anchors: list[int], episode: Episode,
                 context: _Context, earlier: list[_Draft]) -> list[_Draft]:
        """The values a clause tells (``records``): attributes, statuses, addresses, durations, settings,
        revisions; none in a negated or hypothetical clause."""
        words = _blank(clause, [(t.start, t.end) for t in times])  # "14 May" is no "may"
        if NEGATION.search(words) or HYPOTHETICAL.search(words):
            return []
        return read_clause(clause, times, text, anchors, _Resolver(self, episode, context, earlier))

    def _shorthand(self, sentence: str, episode: Episode, context: _Context, earlier: list[_Draft]
                   ) -> list[_Draft]:
        """A whole sentence in shorthand ("Order 7730 status: cancelled", "ticket 88: closed")."""
        if ":" not in sentence and "-" not in sentence and "→" not in sentence:
            return []
        times = _times(sentence)
        words = _blank(sentence, [(t.start, t.end) for t in times])
        if NEGATION.search(words) or HYPOTHETICAL.search(words):
            return []
        return read_sentence(sentence, times, _Resolver(self, episode, context, earlier))

    @staticmethod
    def _subject(raw: str | None, speaker: str | None) -> str | None:
        if raw is None or raw in ("I", "we", "We"):
            return speaker
        kin = re.match(rf"(?:[Mm]y|[Oo]ur)\s+(?:{KIN_ADJ}\s+)?(?:{KIN_RE})\s+(?P<name>.+)$", raw)
        return clean_name(kin.group("name") if kin else raw)

    def _name_kin(self, clause: str, speaker: str | None, context: _Context, earlier: list[_Draft]) -> str:
        """"My brother was born in Kyoto" -> "Kenji was born in Kyoto" when the speaker named exactly
        one brother before (this message or the context); otherwise the clause as it is."""
        m = KIN_ALONE.search(clause)
        if m is None or speaker is None or not starts_clause(clause[:m.start()]):
            return clause
        kin = m.group("kin").lower()
        if KIN.get(kin) in ("FRIEND_OF", "KNOWS", "MANAGED_BY", "HAS_PET"):
            return clause  # one has many friends and colleagues: "my friend" names no one in particular
        names = {name_key(d.object): d.object for d in self._history(context, earlier)
                 if d.extra.get("kin") == kin and name_key(d.subject) == name_key(speaker)
                 and "unnamed" not in d.extra}
        if len(names) != 1:
            return clause
        return clause[:m.start()] + next(iter(names.values())) + clause[m.end():]

    def _called_off(
        self, subject: str, cue: str, episode: Episode, context: _Context, earlier: list[_Draft]
    ) -> tuple[str, str]:
        """A plan called off: the plan this speaker stated earlier that the cue names (its relation and
        object), or the cue itself, which the pipeline matches against the plans the memory holds.
        Another speaker's word about the plan is theirs (a claim), never the one called off."""
        own = [d for ep in reversed(context.episodes) if ep.speaker == episode.speaker
               for d in reversed(context.drafts_of(ep))]
        for d in (*reversed(earlier), *own):
            if (d.kind == "state" and d.relation in PLAN_RELATIONS
                    and name_key(d.subject) == name_key(subject)
                    and (not cue or cue_matches(cue, d.relation, d.object))):
                return d.relation, d.object
        return "PLANS", cue

    def _born_on(self, clause: str, times: list[TimeMatch], speaker: str | None) -> list[_Draft]:
        """"Our daughter Iris was born on 2 May": the date as said (a birth year alone says too
        little to keep as a birthday)."""
        out = []
        for t in times:
            if not t.text.lower().startswith("on "):
                continue
            m = BORN_ON.search(clause[:t.start])
            subject = self._subject(m.group("subj"), speaker) if m else None
            if subject is not None and m is not None and m.group("subj").lower() not in THIRD_PERSON:
                out.append(_Draft(subject, "BORN_ON", _phrase(t.text[3:].strip()) or "", "Date"))
        return out

    def _is_org(self, name: str, context: _Context, earlier: list[_Draft]) -> bool:
        """Whether a name is an organisation's: the chat gave it as a workplace or school (or as a
        home: then not), it carries an organisation's word ("Zeta Labs"), or it is a well-known one."""
        key = name_key(name)
        for d in self._history(context, earlier):
            if name_key(d.object) == key:
                if d.relation in ("WORKS_AT", "WORKED_AT", "STUDIES_AT", "STUDIED_AT", "MEMBER_OF"):
                    return True
                if d.relation in ("LIVES_IN", "LIVED_IN", "HOMETOWN", "BORN_IN", "VISITED"):
                    return False
        return bool(ORG_WORD.search(name)) or name in COMPANIES or name.split()[0] in COMPANIES

    def _settle_life(self, kind: str, obj: str, subject: str, groups: dict[str, str | None], episode: Episode,
                     context: _Context, earlier: list[_Draft]) -> str | None:
        """The object of a life change (``life_changes``) from the message and its last turns; None when
        they do not settle it: the home moved into, an arrival that is a move, a plan that changed, a
        wedding that is the speaker's own."""
        texts = _Resolver(self, episode, context, earlier)._texts(own=True)
        if obj == HOME_PLACE:
            return home_place(texts)
        if kind == "arrived":
            return obj if moving_to(subject, obj, self._history(context, earlier)) else None
        if kind in ("proposer", "accepted"):  # "Rui proposed last night!": engaged once the message says yes
            return obj if ACCEPTED.search(episode.content[:2000]) else None
        if kind == "staying":  # "change of plans: we're staying in Zurich": the move planned ends
            return "move" if CHANGED_PLAN.search(episode.content[:2000]) else None
        if kind == "wedding" and (groups.get("owner") or "").lower() == "the":
            return obj if engaged_in_view(subject, self._history(context, earlier), texts) else None
        return obj

    def _partner(self, subject: str, episode: Episode, context: _Context, earlier: list[_Draft]
                 ) -> str | None:
        """The partner the chat named for ``subject`` ("my boyfriend Leo"), for "we got engaged";
        else the one other person this message names ("Tom's great. We've been together since
        2021"); else the one person the turn before asked after ("How's Tom?"); else nobody."""
        for d in self._history(context, earlier):
            if (name_key(d.subject) == name_key(subject) and d.kind == "state" and d.object
                    and d.relation in ("DATING", "ENGAGED_TO", "MARRIED_TO", "LIVES_WITH")):
                return d.object
        others = {name_key(n): n for n in context.mentions if name_key(n) != name_key(subject)}
        if others:
            return next(iter(others.values())) if len(others) == 1 else None
        return _asked_about(episode, context)  # "How's Tom?" "We've been together since 2021"

    def _disambiguate(
        self, relation: str, subject: str, obj: str, context: _Context, earlier: list[_Draft]
    ) -> str:
        """"left Berlin" ends LIVES_IN when Berlin is known as the subject's home; otherwise a job."""
        for d in self._history(context, earlier):
            if name_key(d.subject) == name_key(subject) and name_key(d.object) == name_key(obj):
                if d.relation in ("LIVES_IN", "LIVED_IN", "HOMETOWN"):
                    return "LIVES_IN"
                if d.relation in ("WORKS_AT", "WORKED_AT", "STUDIES_AT"):
                    return "STUDIES_AT" if d.relation == "STUDIES_AT" else "WORKS_AT"
        return "WORKS_AT"

    def _history(self, context: _Context, earlier: list[_Draft]) -> list[_Draft]:
        """Facts stated before this clause: this episode's earlier ones first, then the context, latest
        first."""
        return [*reversed(earlier), *context.drafts()]

    def _ended_object(
        self, subject: str, relation: str, context: _Context, earlier: list[_Draft], episode: Episode
    ) -> str:
        for d in self._history(context, earlier):
            if (name_key(d.subject) == name_key(subject) and d.relation == relation and d.kind == "state"
                    and d.object):
                return d.object
        if (relation in ("DATING", "ENGAGED_TO", "MARRIED_TO")
                and name_key(subject) == name_key(episode.speaker or "")):
            asked = _asked_about(episode, context)  # "How is Chiara?" "We broke up in May."
            if asked is not None and not any(name_key(d.object) == name_key(asked) and "kin" in d.extra
                                             for d in self._history(context, earlier)):
                return asked
        return ANY_OBJECT

    def _kinship(self, text: str, speaker: str | None) -> list[_Draft]:
        if speaker is None:
            return []
        drafts = []
        found = [(m.group("name"), m.group("kin").lower())
                 for pattern in (KIN_MENTION, KIN_IS, KIN_NAMED, KIN_NAME_IS)
                 for m in pattern.finditer(text)]
        found.extend((m.group("name"), m.group("kin").lower()) for m in KIN_ROLE_IS.finditer(text)
                     if m.group("name").split()[0] not in NOT_NAMES)
        found.extend((m.group("name"), m.group("kin").lower()) for m in KIN_APPOSITION.finditer(text)
                     if KIN.get(m.group("kin").lower()) not in ("FRIEND_OF", "KNOWS", "MANAGED_BY"))
        for m in KIN_COUNTED.finditer(text):
            kin = m.group("kin").lower()
            kin = {"children": "child", "puppies": "puppy"}.get(kin, kin.removesuffix("s"))
            found.extend((name, kin) for name in re.split(r",\s+(?:and\s+)?|\s+and\s+", m.group("names")))
        for raw_name, kin in found:
            name = clean_name(raw_name)
            if name is None or name_key(name) == name_key(speaker):
                continue
            relation = KIN[kin]
            if relation == "HAS_PET":
                drafts.append(_Draft(speaker, relation, name, "Animal", extra={"species": kin}))
            else:
                drafts.append(_Draft(speaker, relation, name, "Person", extra={"kin": kin}))
        return drafts

    def _correction(
        self, text: str, episode: Episode, context: _Context, earlier: list[_Draft]
    ) -> list[_Draft] | None:
        """ "actually it was Lyon, not Paris" / "sorry, I meant Lyon": same relation, right object."""
        for pattern in CORRECTION_RULES:
            m = pattern.search(text)
            if m is None:
                continue
            new = clean_proper(m.group("new"))
            old = clean_proper(m.group("old")) if m.group("old") else None
            if new is None:
                continue
            for d in self._history(context, earlier):
                if d.kind == "ending" or not d.object or not d.object[:1].isupper():
                    continue
                if old is not None and name_key(d.object) != name_key(old):
                    continue
                if old is None and episode.speaker and d.subject != episode.speaker:  # exactly this speaker
                    continue
                return [_Draft(d.subject, d.relation, new, d.object_type, "correction", d.time,
                               replaces=d.object, extra={k: v for k, v in d.extra.items() if k != "kin"})]
            return []
        return None


def _with_start(told: list[str]) -> list[str]:
    """"Got an offer from Arup! Starting in May." -> one sentence: the start belongs to what was told."""
    out: list[str] = []
    for sentence in told:
        if out and STARTING_ALONE.match(sentence):
            out[-1] = f"{out[-1].rstrip(' .!')}, {sentence[:1].lower()}{sentence[1:]}"
        else:
            out.append(sentence)
    return out


def _present(episode: Episode, context: _Context) -> set[str]:
    """The name keys of the people who speak in the last turns, other than this message's speaker."""
    mine = name_key(episode.speaker) if episode.speaker else None
    return {name_key(e.speaker) for e in context.episodes if e.speaker and name_key(e.speaker) != mine}


def _compound(clause: str) -> list[str]:
    """"I quit Umbrella and joined Stark as a designer" -> the two clauses, each with the subject
    (and the opening time phrase) of the first; any other clause as it is."""
    parts = COMPOUND.split(clause)
    lead = LEADING_SUBJECT.match(clause) if len(parts) > 1 else None
    if lead is None:
        return [clause]
    prefix = f"{lead.group('time') or ''}{lead.group('subj')} "
    return [parts[0], *(prefix + p for p in parts[1:])]


def _phrase(time_text: str | None) -> str | None:
    """A time phrase as written, without the full stop the sentence ended with ("in June.")."""
    if time_text and time_text.endswith(".") and not re.search(r"\b[ap]\.m\.$", time_text, re.I):
        return time_text[:-1]
    return time_text


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with these spans blanked out; every other offset stays where it was."""
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _strip_times(clause: str, times: list[TimeMatch]) -> tuple[str, list[int]]:
    """The clause without its time phrases, and where each phrase was (offsets in the new text)."""
    parts, anchors, pos = [], [], 0
    for t in times:
        parts.append(clause[pos:t.start])
        anchors.append(len("".join(parts)))
        pos = t.end
    parts.append(clause[pos:])
    # Offsets stay exact: the spaces and commas left behind are harmless for the rules.
    return "".join(parts), anchors


def _nearest_time(span: tuple[int, int], times: list[TimeMatch], anchors: list[int]) -> TimeMatch | None:
    """The time phrase inside the match, else the next one after it, else the last one before it."""
    if not times:
        return None
    start, end = span
    inside = [t for t, a in zip(times, anchors, strict=True) if start <= a <= end]
    after = [t for t, a in zip(times, anchors, strict=True) if a > end]
    before = [t for t, a in zip(times, anchors, strict=True) if a < start]
    chosen = inside or after or before[-1:]
    return chosen[0] if chosen else None


def _still_ahead(time: TimeMatch, episode: Episode) -> bool:
    """A plan's time that has not all passed: "next month", or "this month" said mid-month."""
    if time.time_text is None:
        return False
    span = resolve_time(time.time_text, episode.reference_time, prefer="future")
    return span is not None and (span.end or span.start) > episode.reference_time


def _is_future(time: TimeMatch | None, episode: Episode, prefer: Prefer = "past") -> bool:
    if time is None or time.time_text is None:
        return False
    span = resolve_time(time.time_text, episode.reference_time, prefer=prefer)
    return span is not None and span.start > episode.reference_time
# How many earlier turns a pronoun may reach back to find its person.
PRONOUN_TURNS = 3


def _resolve_pronoun(pronoun: str, episode: Episode, context: _Context, earlier: list[_Draft]) -> str | None:
    found = _pronoun_from_facts(pronoun, episode, context, earlier)
    if found is not None or pronoun == "they":
        return found
    speakers = {name_key(e.speaker) for e in (episode, *context.episodes) if e.speaker}
    named = {name_key(n): n for n in context.mentions if name_key(n) not in speakers}
    if named:
        return next(iter(named.values())) if len(named) == 1 else None
    return _asked_about(episode, context)  # "How's Arjun?" "He got a job at Ocado"


# "How's Arjun?", "How is Chiara doing?", "And Tom?": a turn asking after one person.
_ASKED_ABOUT = re.compile(
    rf"^\s*(?:(?i:how's|hows|how\s+is|how\s+was|how\s+are\s+things\s+with|and|what\s+about|how\s+about)\s+)"
    rf"(?P<name>{NAME})(?:\s+(?i:doing|getting\s+on|holding\s+up|these\s+days|lately))?\s*[?]+\s*$")


def _asked_about(episode: Episode, context: _Context) -> str | None:
    """The one person the turn just before asked after ("How's Tom?"), when someone else asked it."""
    if not context.episodes:
        return None
    last = context.episodes[-1]
    if not last.speaker or name_key(last.speaker) == name_key(episode.speaker or ""):
        return None
    speakers = {name_key(e.speaker) for e in (episode, *context.episodes) if e.speaker}
    asked = (_ASKED_ABOUT.match(s) for s in sentences(last.content[:400]))
    names = {name_key(n): n for n in (clean_name(m.group("name")) for m in asked if m)
             if n and name_key(n) not in speakers}
    return next(iter(names.values())) if len(names) == 1 else None


def _pronoun_from_facts(pronoun: str, episode: Episode, context: _Context, earlier: list[_Draft]
                        ) -> str | None:
    """He / she / they → the one person named in this message or the last few turns, else None.

    Candidates are people the conversation named as kin or as subjects of facts, never its speakers
    (who are "I" and "you"). A kin word's gender rules out the other pronoun; two fitting people
    (or "they" for someone gendered) means no guess.
    """
    speakers = {name_key(e.speaker) for e in (episode, *context.episodes) if e.speaker}
    recent = list(reversed(earlier))
    for ep in context.episodes[::-1][:PRONOUN_TURNS]:
        recent.extend(reversed(context.drafts_of(ep)))
    people: dict[str, tuple[str, str | None]] = {}
    for d in recent:
        kin = d.extra.get("kin")
        pairs: list[tuple[str, str | None]] = [(d.object, kin)] if kin else []
        if d.subject and name_key(d.subject) not in speakers:
            pairs.append((d.subject, None))
        for name, word in pairs:
            key = name_key(name)
            if key in speakers or not name[:1].isupper():
                continue
            gender = ("she" if word in FEMININE_KIN
                      else "he" if word in MASCULINE_KIN else None)
            if key not in people or people[key][1] is None:
                people[key] = (name, gender)
    fitting = [name for name, gender in people.values()
               if gender is None or (gender == pronoun and pronoun != "they")]
    if pronoun == "they":  # "they" only for someone the conversation gave no gender
        fitting = [name for name, gender in people.values() if gender is None]
    return fitting[0] if len(fitting) == 1 else None
