"""What embedding a message by its sentences costs the model, against its whole text alone.

    .venv/bin/python benchmarks/message_vectors.py [--data PATH] [--messages 2000] [--rounds 3]

Two sets of messages, each encoded both ways in this one process, the two alternating round by
round (median seconds, and their ratio):

- chat: LoCoMo dev turns, ``speaker: text`` (short messages, one to three sentences);
- long answers: this repository's documentation cut into messages of about 2,000 characters of
  prose (unique sentences, as a real assistant's answers have; a synthetic export repeats its
  sentences, and the model encodes each text once).

"whole" is the text a message was embedded by before 2026-12-07 (the model reads its first 256
tokens); "sentences" are the texts it is embedded by now (:func:`item_texts`), each encoded once.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.embedding_runtime import locomo_texts  # noqa: E402
from temporal_graph.core.embeddings import default_embedder, item_text, item_texts  # noqa: E402
from temporal_graph.core.model import Episode  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo" / "locomo_dev.json"
_T = datetime(2026, 1, 1, tzinfo=UTC)


def _episode(i: int, text: str, speaker: str) -> Episode:
    return Episode(id=str(i), group_id="g", content=text, speaker=speaker, reference_time=_T, created_at=_T)


def chat(path: Path, count: int) -> list[Episode]:
    turns = [t.split(": ", 1) for t in locomo_texts(path, count)]
    return [_episode(i, text, speaker) for i, (speaker, text) in enumerate(turns)]


def long_answers(size: int = 2_000) -> list[Episode]:
    pages = "\n\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md")))
    prose = [p.strip() for p in pages.split("\n\n")
             if len(p.strip()) > 40 and not p.strip().startswith(("```", "|", "#", "<"))]
    out, current = [], ""
    for paragraph in prose:
        current += paragraph + "\n\n"
        if len(current) >= size:
            out.append(_episode(len(out), current.strip(), "assistant"))
            current = ""
    return out


def measure(name: str, episodes: list[Episode], rounds: int) -> None:
    embedder = default_embedder()
    whole = [item_text(e) for e in episodes]
    sentences = list(dict.fromkeys(t for e in episodes for t in item_texts(e)))
    embedder.encode(["warm up"])
    times: dict[str, list[float]] = {"whole": [], "sentences": []}
    for _ in range(rounds):
        for label, texts in (("whole", whole), ("sentences", sentences)):
            started = time.perf_counter()
            embedder.encode(texts)
            times[label].append(time.perf_counter() - started)
    a, b = statistics.median(times["whole"]), statistics.median(times["sentences"])
    chars = sum(len(e.content) for e in episodes) / max(1, len(episodes))
    print(f"{name}: {len(episodes)} messages, mean {chars:,.0f} characters; texts whole {len(whole)}, "
          f"sentences {len(sentences)}")
    print(f"  encode s (median of {rounds}): whole {a:.2f}, sentences {b:.2f}; sentences / whole {b / a:.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="a LoCoMo-format JSON file")
    parser.add_argument("--messages", type=int, default=2_000, help="LoCoMo turns of the chat set")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    if args.data.exists():
        measure("chat (LoCoMo dev)", chat(args.data, args.messages), args.rounds)
    else:
        print(f"chat: skipped, {args.data} is absent")
    measure("long answers (docs/*.md)", long_answers(), args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
