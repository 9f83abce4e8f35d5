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

A positive control: every turn again, with one made-up value of one kind appended ("By the way, my
id number is 110105198703150417."; cards, ids and IBANs valid by their checksums): how many are
masked, and how many turns come out with exactly that value masked and nothing else changed.
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import re
import statistics
import string
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ingestion.masking import Masker  # noqa: E402
from ingestion.masking.checksums import luhn_ok, prc_id_ok  # noqa: E402
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


# A positive control: each turn gets one made-up value of one kind, valid by its checksum.
PHRASES = {
    "email": "you can mail me at {}",
    "phone": "my new number is {}",
    "card": "the card was {}",
    "national_id": "my id number is {}",
    "iban": "send it to {}",
    "api_key": "the key is {}",
    "password": "my password is {}",
}


def made_up(kind: str, rng: random.Random) -> str:
    """A value of ``kind`` no one has: random digits and letters, with a valid check where one applies."""
    digits = lambda n: "".join(rng.choice("0123456789") for _ in range(n))  # noqa: E731
    if kind == "email":
        return f"{rng.choice(['ana', 'li.wei', 'j_smith'])}{digits(3)}@{rng.choice(['example', 'mail'])}.com"
    if kind == "phone":
        return rng.choice([f"+44 20 {digits(4)} {digits(4)}", f"1{rng.choice('3456789')}{digits(9)}",
                           f"({rng.randint(201, 989)}) {rng.randint(201, 989)}-{digits(4)}"])
    if kind == "card":
        body = f"4{digits(14)}"
        number = next(body + d for d in "0123456789" if luhn_ok(body + d))
        return " ".join(number[i:i + 4] for i in range(0, 16, 4))
    if kind == "national_id":
        base = f"110105{rng.randint(1950, 2005)}{rng.randint(1, 12):02}{rng.randint(1, 28):02}{digits(3)}"
        return next(base + c for c in "0123456789X" if prc_id_ok(base + c))
    if kind == "iban":
        account = digits(18)
        check = 98 - int("".join(str(int(ch, 36)) for ch in account + "DE00")) % 97
        return f"DE{check:02}{account}"
    secret = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(12)) + digits(2)
    return f"sk-proj-{secret}{secret}" if kind == "api_key" else secret[:10]


def planted(texts: list[tuple[str, str]], seed: int = 7) -> dict[str, Any]:
    """Each text with one made-up value after it: how often that value, and only it, is masked."""
    rng, masker = random.Random(seed), Masker(MaskingPolicy())
    kinds = list(PHRASES)
    found: Counter[str] = Counter()
    exact = 0
    missed: list[str] = []
    for i, (_, text) in enumerate(texts):
        kind = kinds[i % len(kinds)]
        value = made_up(kind, rng)
        phrase = PHRASES[kind]
        result = masker.mask(f"{text} By the way, {phrase.format(value)}.")
        if result.counts.get(kind):
            found[kind] += 1
        else:
            missed.append(f"{kind}: {value}")
        exact += result.text == f"{text} By the way, {phrase.format(f'[{kind}]')}."
    return {"planted": len(texts), "masked_by_kind": dict(found), "masked": sum(found.values()),
            "exactly_that_value": exact, "missed": missed[:20]}


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
               "other_texts": measure(other_texts(args.data)), "planted": planted(turns(args.data))}
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
    p = figures["planted"]
    print(f"planted (one made-up value after each turn): {p['masked']} of {p['planted']} masked "
          f"{p['masked_by_kind']}, {p['exactly_that_value']} with nothing else changed; "
          f"missed: {p['missed']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
