"""Masking in conversations about code: how many values are masked, and how many of them were no
secret at all (issue 54)?

    .venv/bin/python benchmarks/masking_code.py [--before REV] [--show] [--json]

``benchmarks/data/code_chats.jsonl`` holds 21 user/assistant conversations about code written for
this question (136 messages: Flask, Django, Express, React, Go, Spring, Compose, Kubernetes,
Laravel, Rails, SQL, shell, Rust, ASP.NET, HTML, Terraform, Ansible, nginx, ...): login handlers,
settings, forms, schemas and configs, where "password" is followed by code far more often than by
a password. A few messages do hold a secret (a pasted ``.env``, a connection string, "the guest
password is ..."); each message's ``masks`` field says how many values of each kind it holds.
The rules were written with that set in view; ``code_chats_holdout.jsonl`` (6 conversations, 30
messages: FastAPI, Swift, PowerShell, Redis and Mongo, GitHub Actions and Jenkins, LDAP and SSH)
was written after them and is measured the same way, as a check on a set they were not fitted to.

Every message is masked with the default policy (``MaskingPolicy()``, what ``add_episode`` and
``tgraph import`` apply) and compared with its labels, kind by kind: values masked, those beyond
the labels (no secret: code, markup or prose rewritten), and labelled values left as they were
(missed). ``--show`` prints each message whose masks differ from its labels, with the masked text.
``--before REV`` runs the same count on a checkout of REV (a ``git worktree`` under /tmp, removed
after) and prints both rows.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks" / "data" / "code_chats.jsonl"
HOLDOUT = ROOT / "benchmarks" / "data" / "code_chats_holdout.jsonl"

# Runs with a tree on sys.path (this one, or a checkout of --before); prints one JSON document.
WORKER = """
import json, sys
sys.path.insert(0, sys.argv[1])
from ingestion.masking import mask_text
from temporal_graph import MaskingPolicy

policy = MaskingPolicy()
rows = []
for line in open(sys.argv[2], encoding="utf-8"):
    message = json.loads(line)
    masked = mask_text(message["text"], policy)
    rows.append({"id": message["id"], "masks": message["masks"], "got": masked.counts, "text": masked.text})
print(json.dumps(rows))
"""


def measure(code: Path, data: Path) -> list[dict]:
    done = subprocess.run([sys.executable, "-c", WORKER, str(code), str(data)], capture_output=True,
                          text=True, check=True, cwd=code)
    return json.loads(done.stdout)


def tally(rows: list[dict]) -> dict:
    """Per kind: values masked, beyond the labels, missed; and the messages whose masks differ."""
    kinds = sorted({k for r in rows for k in (*r["masks"], *r["got"])})
    table = {}
    for kind in kinds:
        got = [r["got"].get(kind, 0) for r in rows]
        want = [r["masks"].get(kind, 0) for r in rows]
        table[kind] = {"labelled": sum(want), "masked": sum(got),
                       "no_secret": sum(max(0, g - w) for g, w in zip(got, want, strict=True)),
                       "missed": sum(max(0, w - g) for g, w in zip(got, want, strict=True))}
    wrong = [r for r in rows if r["got"] != r["masks"]]
    clean = [r for r in rows if not r["masks"]]
    return {"messages": len(rows), "conversations": len({r["id"].rsplit("-", 1)[0] for r in rows}),
            "kinds": table, "messages_differing": len(wrong),
            "messages_without_a_secret_rewritten": sum(1 for r in clean if r["got"]),
            "messages_without_a_secret": len(clean), "differing": wrong}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", metavar="REV", help="also count on a checkout of REV")
    parser.add_argument("--show", action="store_true", help="print the messages whose masks differ")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sets = {DATA.name: DATA, HOLDOUT.name: HOLDOUT}
    trees = {"after": ROOT}
    where = None
    if args.before:
        where = Path(tempfile.mkdtemp(prefix="masking-code-before-")) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(where), args.before],
                       check=True, capture_output=True)
        trees = {"before": where, "after": ROOT}
    try:
        runs = {(name, tree): tally(measure(code, data)) for name, data in sets.items()
                for tree, code in trees.items()}
    finally:
        if where is not None:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(where)],
                           check=False, capture_output=True)
    if args.json:
        print(json.dumps({f"{name} {tree}": {k: v for k, v in run.items() if k != "differing"}
                          for (name, tree), run in runs.items()}))
        return 0
    for name in sets:
        first = runs[(name, "after")]
        print(f"{name}: {first['conversations']} conversations, {first['messages']} messages, default policy")
        print(f"{'':>22}  {'kind':<10} {'labelled':>8} {'masked':>7} {'no secret':>9} {'missed':>7}")
        for tree in trees:
            run = runs[(name, tree)]
            label = f"{tree} ({args.before})" if tree == "before" else tree
            for kind, row in run["kinds"].items():
                print(f"{label:>22}  {kind:<10} {row['labelled']:>8} {row['masked']:>7} "
                      f"{row['no_secret']:>9} {row['missed']:>7}")
                label = ""
            rewritten, clean = run["messages_without_a_secret_rewritten"], run["messages_without_a_secret"]
            print(f"{'':>22}  messages without a secret rewritten: {rewritten} of {clean}; "
                  f"messages whose masks differ from their labels: {run['messages_differing']}")
        print()
    if args.show:
        for (name, tree), run in runs.items():
            for r in run["differing"]:
                print(f"\n== {name} {tree} {r['id']}: labelled {r['masks']}, masked {r['got']}\n{r['text']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
