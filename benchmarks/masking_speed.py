"""Masking time on hostile input: does it grow in proportion to the text?

    python benchmarks/masking_speed.py [--base CHARS] [--json]

Each input is a short piece repeated to 1x, 2x and 4x the base size (default 62,500 characters, so
4x is the largest message the memory takes, 250,000): long runs of digit groups (the reason for
issue 42: "scores: 777 777 ..." took 9-18 s at 3.2 KB), cards, years, phone numbers, IBANs, PEM
headers, e-mail lookalikes, password phrases, key words before hex, random-looking tokens, and
digits in other scripts, other spaces and dashes, and every kind mixed. The text is masked with the
default policy, exactly as ``add_episode`` does (the best of five runs); a row reads "linear" when
the 4x text takes at most about four times as long as the 1x one (4 when linear, 16 when
quadratic, 64 when cubic; up to 6 allowed for noise on a shared machine). The last row is an extra
pattern that backtracks exponentially, ``(a+)+$`` on "aaaa...b": it is stopped at its time limit
and the message refused.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ingestion.masking import Masker  # noqa: E402
from temporal_graph.core.mask_policy import MaskingPolicy  # noqa: E402
from temporal_graph.errors import InvalidInput  # noqa: E402

PIECES = {
    "digit groups '777 '": "777 ",
    "dashed groups '555-'": "555-",
    "dotted groups '12.'": "12.",
    "valid cards": "4111 1111 1111 1111 ",
    "years '2016 '": "2016 ",
    "mobiles": "13812345678 ",
    "one digit run": "7",
    "IBAN starts 'GB82 '": "GB82 ",
    "PEM BEGIN, no END": "-----BEGIN PRIVATE KEY-----",
    "e-mail atoms 'a!' then '@'": "a!",
    "e-mail domain 'x@a.'": "x@a.",
    "'password for '": "password for ",
    "'password is  '": "password is  ",
    "'phone: 1 '": "phone: 1 ",
    "'the key is '": "the key is ",
    "key word + hex": "key 4f3c2a1b9e8d7c6b5a4f3e2d1c0b9a8f ",
    "token chars 'Ab3/'": "Ab3/",
    "Arabic-Indic card groups": "4111 1111 1111 1111 ".translate({48 + d: 0x0660 + d for d in range(10)}),
    "no-break spaces and en dashes": "4111\u00a01111\u20131111 ",
    "20,000 distinct CJK characters": "".join(chr(0x4E00 + i) for i in range(20_000)),
    "every kind mixed": ("Mail ana@example.com or call +44 20 7946 0958; card 4111 1111 1111 1111, "
                         "IBAN GB82 WEST 1234 5698 7654 32, password: Tr0ub4dor&3, on 2023-05-08 at 10:30. "),
}
TRAILERS = {"e-mail atoms 'a!' then '@'": "@"}  # what makes the piece's pattern try hard


def text_of(piece: str, size: int, trailer: str = "") -> str:
    return (piece * (size // len(piece) + 1))[: size - len(trailer)] + trailer


def seconds(masker: Masker, text: str, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        masker.mask(text)
        best = min(best, time.perf_counter() - started)
    return best


def growth(times: list[float]) -> float:
    """The time of the 4x text over the 1x one: 4 when linear, 16 when quadratic, 64 when cubic."""
    return times[-1] / max(times[0], 1e-6)


def measure(base: int) -> dict[str, Any]:
    masker = Masker(MaskingPolicy())
    sizes = [base, 2 * base, 4 * base]
    rows = []
    issue = ["scores: " + " ".join(["777"] * n) for n in (800, 1600, 3200)]  # issue 42's own input
    times = [seconds(masker, t) for t in issue]
    rows.append({"input": "issue 42: 'scores: ' + 800/1600/3200 x '777'", "chars": [len(t) for t in issue],
                 "seconds": times, "growth": growth(times)})
    for name, piece in PIECES.items():
        texts = [text_of(piece, n, TRAILERS.get(name, "")) for n in sizes]
        times = [seconds(masker, t) for t in texts]
        rows.append({"input": name, "chars": sizes, "seconds": times, "growth": growth(times)})
    timeout = 0.25
    user = Masker(MaskingPolicy(patterns={"thing": r"(a+)+$"}, pattern_timeout=timeout))
    refused = []
    for n in sizes:
        started = time.perf_counter()
        try:
            user.mask("a" * (n - 1) + "b")
            outcome = "masked"
        except InvalidInput:
            outcome = "refused"
        refused.append({"chars": n, "seconds": time.perf_counter() - started, "outcome": outcome})
    return {"base": base, "rows": rows, "user_pattern": {"pattern": "(a+)+$", "timeout": timeout,
                                                           "runs": refused}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=int, default=62_500, help="characters of the 1x text (default 62,500)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = measure(args.base)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"{'input':46} {'1x':>9} {'2x':>9} {'4x':>9}  4x/1x (linear: 4, quadratic: 16)")
    for row in figures["rows"]:
        ms = "".join(f"{t * 1000:8.1f}ms"[:10].rjust(10) for t in row["seconds"])
        verdict = "linear" if row["growth"] <= 6 else "FASTER THAN LINEAR"
        print(f"{row['input'][:46]:46}{ms}  x{row['growth']:.2f} {verdict}")
    print(f"(1x = {figures['base']:,} characters; the issue's row is 3.2, 6.4 and 12.8 KB)")
    u = figures["user_pattern"]
    runs = ", ".join(f"{r['chars']:,} chars {r['outcome']} after {r['seconds']:.2f} s" for r in u["runs"])
    print(f"extra pattern {u['pattern']} on 'aaa...b', time limit {u['timeout']} s: {runs}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
