"""PII masking on LoCoMo: how many ordinary chat turns does the default policy touch?

    python benchmarks/masking.py [--data PATH] [--json]

LoCoMo's turns are ordinary chat between two people, full of dates, times, money, years, ages,
scores and counts, and (as far as anyone knows) no e-mail address, phone number, card or key: every
value the default policy masks there is a candidate false positive, listed with its turn so a
person can judge it. The turns are read by the importer's own LoCoMo reader (photo captions
included, as an import stores them) and masked with ``MaskingPolicy()``, exactly what
``tgraph import`` does before storing.

The turns hold few digits, so the file's other texts (questions, answers, session summaries,
observations: the same people and events, with thousands of dates and numbers) are measured the
same way. Also counted: the numbers written (a run of digits with its signs and separators:
"10:30", "$1,250", "2023", "3.5") and how many of them survive masking; and the time masking takes.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ingestion.masking import Masker  # noqa: E402
from ingestion.readers import ChatMessage, read_messages  # noqa: E402
from temporal_graph.core.mask_policy import MaskingPolicy  # noqa: E402

DATA = ROOT / "../shared/data/locomo/locomo_dev.json"
# A number as written in chat: digits with their separators and signs ("$1,250.50", "10:30", "3-2").
NUMBER = re.compile(r"[$€£¥+-]?\d[\d,.:/-]*\d%?|[$€£¥+-]?\d%?")


def turns(path: Path) -> list[tuple[str, str]]:
    """(turn id, text) of every turn, as the importer reads it."""
    return [(m.source_id, m.content) for m in read_messages(path, "locomo") if isinstance(m, ChatMessage)]


def other_texts(path: Path) -> list[tuple[str, str]]:
    """(where, text) of every other string of the file (questions, answers, summaries,
    observations): more dates and numbers than the turns hold, in the same kind of prose."""
    found: list[tuple[str, str]] = []

    def walk(value: Any, where: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{where}.{key}")
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, f"{where}[{i}]")
        elif isinstance(value, (str, int)) and not isinstance(value, bool):
            found.append((where, str(value)))

    for conversation in json.loads(path.read_text(encoding="utf-8")):
        for key in ("qa", "event_summary", "session_summary", "observation"):
            walk(conversation.get(key), f"{conversation.get('sample_id')}.{key}")
    return found


def hits(original: str, masked: str) -> list[dict[str, str]]:
    """Each placeholder of ``masked`` with the text of ``original`` it replaced."""
    matcher = difflib.SequenceMatcher(None, original, masked, autojunk=False)
    return [{"kind": masked[j1:j2].strip("[]"), "value": original[i1:i2]}
            for op, i1, i2, j1, j2 in matcher.get_opcodes() if op != "equal"]


def measure(texts: list[tuple[str, str]]) -> dict[str, Any]:
    """What the default policy masks in ``texts``: counts, each masked text, numbers kept, time."""
    masker = Masker(MaskingPolicy())
    seconds: list[float] = []
    masked: list[dict[str, Any]] = []
    by_kind: Counter[str] = Counter()
    numbers = survived = 0
    for where, text in texts:
        started = time.perf_counter()
        result = masker.mask(text)
        seconds.append(time.perf_counter() - started)
        written = NUMBER.findall(text)
        numbers += len(written)
        survived += sum(1 for n in written if n in result.text)
        if result.counts:
            by_kind.update(result.counts)
            masked.append({"where": where, "kinds": result.counts, "values": hits(text, result.text),
                           "text": text})
    return {
        "texts": len(texts),
        "with_digits": sum(1 for _, t in texts if any(ch.isdigit() for ch in t)),
        "masked": len(masked),
        "masked_pct": round(100 * len(masked) / max(1, len(texts)), 3),
        "masked_by_kind": dict(by_kind),
        "numbers_written": numbers,
        "numbers_survived": survived,
        "mask_us_median": round(statistics.median(seconds) * 1e6, 1),
        "mask_us_mean": round(statistics.fmean(seconds) * 1e6, 1),
        "masked_texts": masked,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DATA, help="a LoCoMo JSON file (default: locomo_dev)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = {"data": str(args.data), "turns": measure(turns(args.data)),
               "other_texts": measure(other_texts(args.data))}
    if args.json:
        print(json.dumps(figures, indent=2, ensure_ascii=False))
        return 0
    for name in ("turns", "other_texts"):
        f = figures[name]
        print(f"{name}: {f['texts']} ({f['with_digits']} with digits), {f['masked']} masked "
              f"({f['masked_pct']}%) {f['masked_by_kind']}; numbers written {f['numbers_written']}, "
              f"kept {f['numbers_survived']}; {f['mask_us_median']} µs per text (median), "
              f"{f['mask_us_mean']} µs (mean)")
        for text in f["masked_texts"]:
            values = ", ".join(f"[{h['kind']}] {h['value']!r}" for h in text["values"])
            print(f"  {text['where']}: {values}\n      {text['text'][:200]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
