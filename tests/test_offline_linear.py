"""Offline extraction stays linear in the message: every pattern runs on a bounded piece of it.

No clock here (the machine is shared; benchmarks/extraction_linear.py measures CPU seconds): the tests
check that the quote split and every clause see at most a bounded number of characters, with no word
longer than a bound, whatever the message (runs of capitals, DNA, punctuation, nested quotes), and that
the number of pieces grows with the length, not with its square.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

import ingestion.offline.extractor as extractor_module
from ingestion.offline import OfflineExtractor
from ingestion.offline.grammar import MAX_CLAUSE_CHARS
from ingestion.offline.segments import MAX_SEGMENT_CHARS, MAX_TOKEN_CHARS, bounded_segments
from temporal_graph.core.model import Episode

REF = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
_DNA = "".join(random.Random(51).choice("ACGT") for _ in range(5_000))

SHAPES = {
    "run-on words": "lorem ipsum dolor sit amet ",
    "capital run": "A" * 997 + " ",
    "capitalised words": "Lorem Ipsum Dolor Sit Amet ",
    "DNA": _DNA,
    "repeated punctuation": "!!!???...,,,;;;" * 20,
    "nested quotes": 'He said "she said \'I live in "Rome" ',
    "first person": "I love it and I went there and ",
    "chat": "I went to a support group yesterday and it was great. My sister Anna works at Google. ",
}


def _message(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


class _Recorder(OfflineExtractor):
    """Records how long each clause the rules read is."""

    def __init__(self) -> None:
        super().__init__()
        self.clauses: list[int] = []

    def _clause(self, clause, episode, context, earlier, corrections):  # type: ignore[no-untyped-def]
        self.clauses.append(len(clause))
        return super()._clause(clause, episode, context, earlier, corrections)


def _read(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[_Recorder, list[int]]:
    quoted: list[int] = []
    split = extractor_module.split_quotes

    def spy(piece: str):  # type: ignore[no-untyped-def]
        quoted.append(len(piece))
        return split(piece)

    monkeypatch.setattr(extractor_module, "split_quotes", spy)
    recorder = _Recorder()
    episode = Episode(id="e", group_id="g", content=text, reference_time=REF, created_at=REF, speaker="Sam")
    recorder.extract(episode)
    return recorder, quoted


@pytest.mark.slow
@pytest.mark.parametrize("shape", SHAPES)
def test_a_long_message_is_read_in_bounded_pieces(shape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _message(SHAPES[shape], 60_000)
    recorder, quoted = _read(text, monkeypatch)
    assert quoted and max(quoted) <= MAX_SEGMENT_CHARS
    assert not recorder.clauses or max(recorder.clauses) <= MAX_CLAUSE_CHARS
    # every piece of the text is read once: the pieces add up to it (its long runs made placeholders)
    assert sum(quoted) == sum(len(piece) for piece in bounded_segments(text))


@pytest.mark.slow
@pytest.mark.parametrize("shape", SHAPES)
def test_pieces_grow_linearly(shape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _, small = _read(_message(SHAPES[shape], 10_000), monkeypatch)
    _, large = _read(_message(SHAPES[shape], 40_000), monkeypatch)
    assert sum(large) <= 4 * sum(small) + MAX_SEGMENT_CHARS  # 4x the text: 4x what the patterns read
    assert max(large) <= MAX_SEGMENT_CHARS


def test_no_word_longer_than_the_bound_reaches_a_pattern() -> None:
    for shape in ("capital run", "DNA", "repeated punctuation"):
        for piece in bounded_segments(_message(SHAPES[shape], 100_000)):
            assert len(piece) <= MAX_SEGMENT_CHARS
            assert max(len(word) for word in piece.split() or [""]) <= MAX_TOKEN_CHARS


def test_a_message_within_the_bound_is_one_piece_unchanged() -> None:
    text = "I live in Paris and I work at Renault. My sister Anna works at Google."
    assert list(bounded_segments(text)) == [text]


def test_facts_of_a_long_message_are_still_found() -> None:
    text = _message(SHAPES["chat"], 30_000)
    episode = Episode(id="e", group_id="g", content=text, reference_time=REF, created_at=REF, speaker="Sam")
    facts = {(f.subject, f.relation, f.object) for f in OfflineExtractor().extract(episode).facts}
    assert ("Anna", "WORKS_AT", "Google") in facts and ("Sam", "HAS_SIBLING", "Anna") in facts


def test_a_dna_string_in_a_sentence_leaves_the_sentence_readable() -> None:
    text = f"My sequence is {_DNA} and I live in Paris."
    episode = Episode(id="e", group_id="g", content=text, reference_time=REF, created_at=REF, speaker="Sam")
    facts = {(f.relation, f.object) for f in OfflineExtractor().extract(episode).facts}
    assert facts == {("LIVES_IN", "Paris")}


def test_a_long_message_is_not_cut_inside_a_quote() -> None:
    quote = 'Bob told me: "' + "I live in Berlin and I love it. " * 30 + 'I work at Acme."'
    text = "We talked for hours. " * 60 + quote
    pieces = list(bounded_segments(text))
    assert len(pieces) > 1 and all(piece.count('"') % 2 == 0 for piece in pieces)
    episode = Episode(id="e", group_id="g", content=text, reference_time=REF, created_at=REF, speaker="Sam")
    facts = {(f.subject, f.relation, f.object) for f in OfflineExtractor().extract(episode).facts}
    assert ("Sam", "WORKS_AT", "Acme") not in facts and ("Bob", "WORKS_AT", "Acme") in facts
