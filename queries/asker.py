"""Who asks: the person "I", "my" and "me" in a question stand for.

``ask(..., speaker="Dana")`` names the asker: the entity of exactly that speaker id (as messages
find their speaker, :func:`temporal_graph.core.identity.speaker_entity`). Without it, the asker is
the group's one human speaker, when the latest messages have exactly one (an assistant never
counts), and the answer says whom it took "I" to be. With several, or none, "I" is not guessed: the
answer says "I don't know" and names the people who speak.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from temporal_graph.core import Core
from temporal_graph.core.identity import speaker_entity
from temporal_graph.core.model import Entity
from temporal_graph.core.names import clean_name

RECENT_MESSAGES = 200  # messages looked at to find who speaks in a group (the latest ones)
# Speaker ids of assistants and other software: never the human asker.
ASSISTANTS = frozenset("""assistant ai bot chatbot chatgpt gpt claude gemini copilot system model agent tool
llm""".split())


def is_assistant(speaker: str) -> bool:
    """Whether a speaker id names an assistant ("assistant", "ChatGPT", "AI"), not a person."""
    return speaker.strip().casefold() in ASSISTANTS


@dataclass(frozen=True)
class Asker:
    """Whom "I" means, or why that cannot be told (``unknown``). ``entity`` may be None for a
    named speaker the memory holds nothing about; the question is then read with ``name``."""

    name: str | None = None
    entity: Entity | None = None
    note: str | None = None  # said in the answer when the asker was not named
    unknown: str | None = None


def asker(core: Core, group_id: str, speaker: str | None, reference: datetime) -> Asker:
    """The asker, from ``speaker`` or from who speaks in the group's latest messages."""
    if speaker is not None:
        name = clean_name(speaker, "speaker")
        entity = speaker_entity(core.store, group_id, name)
        return Asker(entity.name if entity is not None else name, entity)
    recent = core.store.recent_episodes(group_id, reference + timedelta(days=1), RECENT_MESSAGES)
    people = list(dict.fromkeys(e.speaker for e in recent if e.speaker and not is_assistant(e.speaker)))
    if len(people) == 1:
        entity = speaker_entity(core.store, group_id, people[0])
        if entity is not None:
            others = sorted({e.speaker for e in recent if e.speaker and is_assistant(e.speaker)})
            beside = f" beside {', '.join(others)}" if others else ""
            note = f"taking 'I' to be {entity.name}, the one person speaking in this memory{beside}"
            return Asker(entity.name, entity, note=note)
    if len(people) > 1:
        named = ", ".join(sorted(people)[:-1]) + f" or {sorted(people)[-1]}"
        return Asker(unknown=f"'I' could be {named}, who all speak in this memory; "
                             "ask with speaker= to say who is asking")
    return Asker(unknown="the memory does not know who 'I' is: ask with speaker= to say who is asking")
