"""Batch import, offline: the whole LoCoMo dev file, then synthetic JSONL files of growing size.

    python benchmarks/import.py [--data PATH] [--sizes 10000,30000,100000]
    python benchmarks/import.py --exports [--messages 10000] [--long 300] [--rounds 3] [--embed] [--full]
                                          [--part all|exports|readers|long]

For each input: wall time, messages per second, peak memory (RSS of a fresh process per run) and
the size of the database file. The synthetic logs are chat between many people who state and
change where they live and work and what they like, with chit-chat in between, one conversation
per 200 messages.

``--exports`` (issue 52): the same synthetic chat written as a WhatsApp export (Android ``.txt``,
with the system lines, media placeholders and deleted messages a real one has between messages), as
a Slack export folder (``users.json``, ``channels.json``, a day file per day) and as JSONL; each is
imported in a fresh process, round after round, and "ratio" is the export's messages per second over
the JSONL import's in the same round (median over the rounds). Embedding is off unless ``--embed``
(the readers' cost is what differs; the model would hide it). Then the readers alone, at the size
and at four times it: the growth of the reading process's peak RSS, flat for the streamed formats.
Last, long messages as assistant exports have them: a Claude export of ``--long`` messages (a short
question, then an answer of 2-3 KB of prose and code), imported with embeddings in this process
against the encode floor of the same texts, and where the CPU went (``import_floor.py``'s
breakdown). ``--full`` runs 100,000 messages and 10,000 long ones (the issue's sizes; an hour or
more on a loaded machine).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo" / "locomo_dev.json"

CITIES = ["Paris", "Lyon", "Berlin", "Madrid", "Rome", "Vienna", "Prague", "Oslo", "Lisbon", "Dublin"]
JOBS = ["nurse", "teacher", "software engineer", "designer", "chef", "pilot", "lawyer", "architect"]
HOBBIES = ["tennis", "chess", "hiking", "painting", "jazz", "yoga", "cycling", "baking"]
CHAT = ["How was your day?", "Haha, that's great!", "See you tomorrow.", "What do you think?",
        "I'm so tired today.", "Thanks for asking!", "Let's catch up soon."]

# Runs in a fresh interpreter so peak RSS belongs to one import only.
_CHILD = """
import json, resource, sys, time
from temporal_graph import TemporalGraph
path, db = sys.argv[1], sys.argv[2]
with TemporalGraph.open(db) as tg:
    tg.embedder.encode(["warm up"])
    t0 = time.perf_counter()
    report = tg.import_file(path, progress=False)
    seconds = time.perf_counter() - t0
print(json.dumps({"seconds": seconds, "read": report.episodes_read, "imported": report.episodes_imported,
                  "facts": report.facts_added, "ended": report.facts_ended, "errors": len(report.errors),
                  "entities": report.entities_created,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def synthetic(path: Path, n: int, seed: int = 3) -> Path:
    rng = random.Random(seed)
    start = datetime(2022, 1, 1, tzinfo=timezone.utc)
    with path.open("w", encoding="utf-8") as out:
        for i in range(n):
            person = f"Person {rng.randrange(max(10, n // 50))}"
            roll = rng.random()
            if roll < 0.15:
                text = f"I live in {rng.choice(CITIES)}."
            elif roll < 0.25:
                text = f"I work as a {rng.choice(JOBS)}."
            elif roll < 0.35:
                text = f"I love {rng.choice(HOBBIES)}."
            elif roll < 0.40:
                text = f"I just moved to {rng.choice(CITIES)}!"
            else:
                text = rng.choice(CHAT)
            when = start + timedelta(minutes=7 * i)
            out.write(json.dumps({"speaker": person, "text": text, "timestamp": when.isoformat(),
                                  "conversation": f"chat-{i // 200}"}) + "\n")
    return path


def run(path: Path) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "import.db"
        done = subprocess.run([sys.executable, "-c", _CHILD, str(path), str(db)], capture_output=True,
                              text=True, cwd=ROOT, check=True)
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        figures["db_mb"] = sum(p.stat().st_size for p in Path(tmp).iterdir()) / 1e6
        return figures


def show(label: str, f: dict) -> None:
    print(f"{label:<28} {f['read']:>8,} {f['seconds']:>8.1f} {f['read'] / f['seconds']:>8.0f} "
          f"{f['facts']:>8,} {f['entities']:>8,} {f['errors']:>6} {f['rss_mb']:>8.0f} {f['db_mb']:>8.1f}")
    sys.stdout.flush()


# -- chat exports (issue 52) ------------------------------------------------------------------------
Said = tuple[datetime, str, str]  # (time, speaker, text)


def chat(n: int, seed: int = 7) -> list[Said]:
    """``n`` messages of the synthetic chat, one conversation, minute times (WhatsApp has no seconds)."""
    rng = random.Random(seed)
    start = datetime(2022, 1, 1, tzinfo=timezone.utc)
    out = []
    for i in range(n):
        roll = rng.random()
        if roll < 0.15:
            text = f"I live in {rng.choice(CITIES)}."
        elif roll < 0.25:
            text = f"I work as a {rng.choice(JOBS)}."
        elif roll < 0.35:
            text = f"I love {rng.choice(HOBBIES)}."
        elif roll < 0.40:
            text = f"I just moved to {rng.choice(CITIES)}!"
        else:
            text = rng.choice(CHAT)
        out.append((start + timedelta(minutes=7 * i), f"Person {rng.randrange(20)}", text))
    return out


def write_jsonl(said: list[Said], path: Path) -> Path:
    with path.open("w", encoding="utf-8") as out:
        for when, speaker, text in said:
            out.write(json.dumps({"speaker": speaker, "text": text, "timestamp": when.isoformat(),
                                  "conversation": "chat"}) + "\n")
    return path


def write_whatsapp(said: list[Said], path: Path) -> Path:
    """An Android export (day first, 24-hour clock), with a system line, a media placeholder or a
    deleted message after one message in ten, as a real chat has them."""
    with path.open("w", encoding="utf-8") as out:
        out.write(f"{said[0][0]:%d/%m/%y, %H:%M} - Messages and calls are end-to-end encrypted. No one "
                  "outside of this chat can read them.\n")
        for i, (when, speaker, text) in enumerate(said):
            stamp = f"{when:%d/%m/%y, %H:%M} - "
            out.write(f"{stamp}{speaker}: {text}\n")
            if i % 10 == 3:
                out.write(stamp + ("Person 3 added Person 9\n", f"{speaker}: <Media omitted>\n",
                                   f"{speaker}: This message was deleted\n")[i % 3])
    return path


def write_slack(said: list[Said], folder: Path) -> Path:
    """A Slack export: 20 users, one channel, a day file per day (with a join now and then)."""
    (folder / "general").mkdir(parents=True)
    users = [{"id": f"U{k:03d}", "name": f"person{k}", "real_name": f"Person {k}",
              "profile": {"real_name": f"Person {k}", "display_name": f"person{k}"}} for k in range(20)]
    (folder / "users.json").write_text(json.dumps(users), encoding="utf-8")
    (folder / "channels.json").write_text(json.dumps([{"id": "C001", "name": "general", "members": []}]),
                                          encoding="utf-8")
    days: dict[str, list[dict]] = {}
    for i, (when, speaker, text) in enumerate(said):
        day = days.setdefault(when.date().isoformat(), [])
        if i % 50 == 7:
            day.append({"type": "message", "subtype": "channel_join", "user": "U003",
                        "text": "<@U003> has joined the channel", "ts": f"{when.timestamp() - 1:.6f}"})
        day.append({"type": "message", "user": f"U{int(speaker.split()[1]):03d}", "text": text,
                    "ts": f"{when.timestamp():.6f}", "client_msg_id": f"m{i}", "team": "T1", "blocks": []})
    for day, records in days.items():
        (folder / "general" / f"{day}.json").write_text(json.dumps(records, indent=4), encoding="utf-8")
    return folder


_EXPORT_CHILD = """
import json, resource, sys, time
from temporal_graph import TemporalGraph
path, db, embed = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
with TemporalGraph.open(db, embed=embed) as tg:
    tg.embedder.encode(["warm up"])
    t0, c0 = time.perf_counter(), time.process_time()
    report = tg.import_file(path, progress=False, tz="UTC")
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "cpu": cpu, "imported": report.episodes_imported,
                  "facts": report.facts_added, "rss_mb": peak}))
"""


def _import_child(path: Path, embed: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([sys.executable, "-c", _EXPORT_CHILD, str(path), str(Path(tmp) / "m.db"),
                               "1" if embed else "0"], capture_output=True, text=True, cwd=ROOT, check=True)
        return json.loads(done.stdout.strip().splitlines()[-1])


def exports_against_jsonl(n: int, rounds: int, embed: bool) -> None:
    said = chat(n)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        inputs = {"jsonl": write_jsonl(said, work / "chat.jsonl"),
                  "whatsapp": write_whatsapp(said, work / "WhatsApp Chat with chat.txt"),
                  "slack": write_slack(said, work / "slack")}
        runs: dict[str, list[dict]] = {name: [] for name in inputs}
        names = list(inputs)
        for r in range(rounds):
            for name in names[r % 3:] + names[:r % 3]:  # each format first in turn: a busy spell hits all
                figures = _import_child(inputs[name], embed)
                assert figures["imported"] == n, (name, figures)
                runs[name].append(figures)
                print(f"  round {r + 1}: {name} {n / figures['seconds']:.0f} msg/s, {n / figures['cpu']:.0f} "
                      f"msg per CPU-second, peak {figures['rss_mb']:.0f} MB", flush=True)
    print(f"\n{n:,} messages, one conversation, embedding {'on' if embed else 'off'}; median of {rounds} "
          "rounds; ratio: messages per second (wall, then CPU of the importing process) over the JSONL "
          "import's in the same round")
    print(f"{'format':<10} {'messages':>9} {'wall s':>7} {'msg/s':>6} {'ratio':>6} {'CPU s':>7} "
          f"{'msg/CPU s':>9} {'ratio':>6}  {'CPU ratios':<18} {'facts':>6} {'peak MB':>8}")
    for name, figures in runs.items():
        pairs = list(zip(figures, runs["jsonl"], strict=True))
        walls = [j["seconds"] / f["seconds"] for f, j in pairs]
        cpus = [j["cpu"] / f["cpu"] for f, j in pairs]
        print(f"{name:<10} {n:>9,} {statistics.median(f['seconds'] for f in figures):>7.1f} "
              f"{statistics.median(n / f['seconds'] for f in figures):>6.0f} "
              f"{statistics.median(walls):>6.2f} "
              f"{statistics.median(f['cpu'] for f in figures):>7.1f} "
              f"{statistics.median(n / f['cpu'] for f in figures):>9.0f} {statistics.median(cpus):>6.2f}  "
              f"{', '.join(f'{x:.2f}' for x in cpus):<18} {figures[0]['facts']:>6,} "
              f"{statistics.median(f['rss_mb'] for f in figures):>8.0f}")


_READ_CHILD = """
import json, resource, sys, time
from ingestion.readers import ChatMessage, read_messages
small, big = sys.argv[1], sys.argv[2]
sum(1 for _ in read_messages(small, tz="UTC"))
base, cpu = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, time.process_time()
n = sum(isinstance(m, ChatMessage) for m in read_messages(big, tz="UTC"))
cpu = time.process_time() - cpu
grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024
print(json.dumps({"messages": n, "growth_mb": grown, "cpu": cpu}))
"""


def reader_memory(n: int) -> None:
    """The readers alone: the growth of a reading process's peak RSS, at ``n`` messages and at 4n."""
    print("\nreaders alone: growth of the reading process's peak RSS (after reading a small file first), "
          "and the reading's CPU")
    print(f"{'format':<10} {'messages':>9} {'file MB':>8} {'growth MB':>10} {'CPU s':>7} {'µs/msg':>7}")
    writers = (("whatsapp", write_whatsapp), ("slack", write_slack), ("jsonl", write_jsonl))
    for size in (n, 4 * n):
        said, small = chat(size), chat(200)
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            for name, write in writers:
                big = write(said, work / (name if name == "slack" else f"{name}.txt"))
                tiny = write(small, work / (f"small-{name}" if name == "slack" else f"small-{name}.txt"))
                done = subprocess.run([sys.executable, "-c", _READ_CHILD, str(tiny), str(big)],
                                      capture_output=True, text=True, cwd=ROOT, check=True)
                figures = json.loads(done.stdout.strip().splitlines()[-1])
                files = [f for f in big.rglob("*") if f.is_file()] if big.is_dir() else [big]
                mb = sum(f.stat().st_size for f in files) / 1e6
                per = 1e6 * figures["cpu"] / figures["messages"]
                print(f"{name:<10} {figures['messages']:>9,} {mb:>8.1f} {figures['growth_mb']:>10.1f} "
                      f"{figures['cpu']:>7.2f} {per:>7.0f}", flush=True)


# Sentences of the kind assistant answers are made of (our own), and questions with a personal fact
# now and then, as people ask them.
PROSE = [
    "A cache in front of the database keeps repeated reads cheap.",
    "Each entry expires after a few minutes, so stale values do not linger for long.",
    "When the cache misses, the request goes to the primary, which is slower but always current.",
    "You can measure both paths with a small load test before choosing the limits.",
    "The function below reads through the cache and fills it on a miss.",
    "If several workers miss at once, a lock per key stops them from loading the same row twice.",
    "For the retry policy, start with three attempts and an exponential backoff of one second.",
    "Logging the key and the latency of every miss makes slow paths easy to find later.",
    "This pattern is often called read-through caching, and most frameworks support it directly.",
    "Remember to invalidate the entry when the row is written, or readers will see the old value.",
    "A time-to-live that is too short brings the load back to the database.",
    "In production, put the cache size in the configuration rather than in the code.",
    "The tests should cover a hit, a miss, an expiry and a failed load from the database.",
    "Python's functools.lru_cache is enough for a single process, but not across machines.",
    "With Redis, use SET with the EX option so that the expiry is written with the value.",
]
QUESTIONS = [
    "How should I cache the results of a slow database query in my Flask app?",
    "I moved to Lisbon last year and now I work as a software engineer at a small startup. "
    "What is a good way to structure the data layer?",
    "Can you show me how to add retries to the database calls?",
    "My sister Ana lives in Porto and runs a bakery; she wants a simple ordering site. Where do we start?",
    "What should the tests for the cache look like?",
    "I just started learning Rust in my free time. Is it worth rewriting this service in it?",
]
CODE = "\n".join([
    "```python",
    "def fetch(key: str, cache: dict[str, bytes], db) -> bytes:",
    '    """Read through the cache; fill it on a miss."""',
    "    if key in cache:",
    "        return cache[key]",
    "    value = db.get(key)",
    "    cache[key] = value",
    "    return value",
    "```",
])


def write_claude(n: int, path: Path) -> list[str]:
    """A Claude export of ``n`` messages: a question (now and then with a fact about the asker), then
    an answer of 2-3 KB of prose and code, 20 messages a conversation. Returns the texts as the model
    sees them."""
    rng = random.Random(11)
    start = datetime(2024, 1, 1, tzinfo=timezone.utc)
    conversations, texts = [], []
    for c in range(0, n, 20):
        messages = []
        for i in range(c, min(n, c + 20)):
            human = i % 2 == 0
            if human:
                text = f"{rng.choice(PROSE)} {rng.choice(QUESTIONS)}"  # each question its own
            else:
                parts: list[str] = []
                goal = rng.randrange(2000, 3000)
                while sum(map(len, parts)) < goal:
                    parts.append(" ".join(rng.sample(PROSE, rng.randrange(3, 6))))
                    if len(parts) == 2:
                        parts.append(CODE)
                text = "\n\n".join(parts)
            messages.append({"uuid": f"m-{i}", "text": text, "sender": "human" if human else "assistant",
                             "created_at": (start + timedelta(minutes=i)).isoformat(), "attachments": [],
                             "files": []})
            texts.append(f"{'user' if human else 'assistant'}: {text}")
        conversations.append({"uuid": f"c-{c // 20}", "name": f"chat {c // 20}", "chat_messages": messages})
    path.write_text(json.dumps(conversations), encoding="utf-8")
    return texts


def long_messages(n: int) -> None:
    """A long-message Claude export against the encode floor of its texts, in this process."""
    from benchmarks.import_floor import floor, one_import
    from temporal_graph.core.embeddings import default_embedder

    embedder = default_embedder()
    embedder.encode(["warm up"])
    with tempfile.TemporaryDirectory(prefix="tg-import-long-") as tmp:
        work = Path(tmp)
        texts = write_claude(n, work / "conversations.json")
        cpu = time.process_time()
        before = floor(embedder.encode, texts)
        floor_cpu = time.process_time() - cpu
        encode, encoded = embedder.encode, []

        def counted(batch, *args, **kwargs):  # type: ignore[no-untyped-def]
            encoded.extend(batch)
            return encode(batch, *args, **kwargs)

        embedder.encode = counted
        try:
            run = one_import(work / "conversations.json", work / "long.db", False, embedder)
        finally:
            embedder.encode = encode
        cpu = time.process_time()
        after = floor(embedder.encode, texts)
        floor_cpu = (floor_cpu + time.process_time() - cpu) / 2
    rate, base = n / run["seconds"], (before + after) / 2
    size = statistics.mean(len(t) for t in texts)
    print(f"\nlong messages: a Claude export of {n:,} messages (mean {size:,.0f} characters: a question, "
          "then an answer of 2-3 KB of prose and code), embedding on")
    print(f"{'encode floor':<14} {base:>8.1f} texts/s ({1000 / base:.0f} ms a text; before {before:.1f}, "
          f"after {after:.1f})")
    print(f"{'import':<14} {rate:>8.1f} msg/s   ({1000 / rate:.0f} ms a message), import / floor "
          f"{rate / base:.2f}")
    print(f"in CPU (all threads): the floor {1000 * floor_cpu / n:.0f} ms a text, the import "
          f"{1000 * run['process_cpu'] / n:.0f} ms a message: import / floor "
          f"{floor_cpu / run['process_cpu']:.2f}")
    rest = run["main_cpu"] - run["extraction"] - run["sqlite write"] - run["prepare"]
    model = run["process_cpu"] - run["main_cpu"]
    print(f"where the CPU went, seconds (ms a message): wall {run['seconds']:.1f}; process CPU "
          f"{run['process_cpu']:.1f} = model {model:.1f} ({1000 * model / n:.0f}) + writing thread "
          f"{run['main_cpu']:.1f}: extraction {run['extraction']:.1f} ({1000 * run['extraction'] / n:.0f}), "
          f"SQLite write {run['sqlite write']:.1f} ({1000 * run['sqlite write'] / n:.0f}), prepare "
          f"{run['prepare']:.1f}, rest {rest:.1f}; {run['facts']:.0f} facts, {run['entities']:.0f} entities")
    messages = set(texts)
    others = [t for t in encoded if t not in messages]
    print(f"the model during the import: {len(encoded):,} texts ({sum(map(len, encoded)):,} characters) "
          f"against the floor's {n:,} ({sum(map(len, texts)):,}): the messages, and {len(others):,} others "
          f"(facts, names, summaries; {sum(map(len, others)):,} characters)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--sizes", default="10000,30000,100000")
    parser.add_argument("--exports", action="store_true", help="WhatsApp and Slack exports against JSONL, "
                        "the readers' memory, long assistant messages against the encode floor")
    parser.add_argument("--messages", type=int, default=10_000, help="messages of each export (--exports)")
    parser.add_argument("--long", type=int, default=300, help="messages of the long-message export")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--embed", action="store_true", help="embed while importing the exports")
    parser.add_argument("--full", action="store_true", help="100,000 messages and 10,000 long ones")
    parser.add_argument("--part", choices=["all", "exports", "readers", "long"], default="all",
                        help="with --exports: one of its three parts only")
    args = parser.parse_args(argv)
    if args.exports:
        messages, long = (100_000, 10_000) if args.full else (args.messages, args.long)
        if args.part in ("all", "exports"):
            exports_against_jsonl(messages, args.rounds, args.embed)
        if args.part in ("all", "readers"):
            reader_memory(messages)
        if args.part in ("all", "long"):
            long_messages(long)
        return 0
    print(f"{'input':<28} {'messages':>8} {'wall s':>8} {'msg/s':>8} {'facts':>8} {'entities':>8} "
          f"{'errors':>6} {'peak MB':>8} {'db MB':>8}")
    show(args.data.name, run(args.data))
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            show(f"synthetic {n:,} lines", run(synthetic(Path(tmp) / f"chat-{n}.jsonl", n)))
    print("peak MB: RSS of the importing process (includes the embedding model, ~0.5 GB).")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
