"""Long user/assistant conversations in which the user revises a value in passing, months later.

    python benchmarks/supersession_chats.py [--conversations N] [--messages N] [--seed S] [--holdout [NAME]]
                                            [--out DIR]

Each conversation is one user talking to an assistant over about a year: requests for help with
code, SQL, e-mails, trips, budgets (assistant turns of 1-3 KB, prose and some code). Along the way
the user states values about their own project or life ("our staging server has 32 GB of RAM",
"my team is 6 people", "rent is £1,200") inside requests about something else, and months later
revises some of them, again in passing ("the staging server has 64 GB now, can you help me
with..."). A few siblings of a revised value are stated and never revised (the *production*
server's RAM beside the staging one's): what a memory must not confuse with the revision.

Everything is generated from ``--seed`` (deterministic): nothing large is committed. ``--out DIR``
writes one importable JSONL per conversation (``tgraph import``: ``id``, ``group``, ``speaker``,
``timestamp``, ``text``) and ``questions.jsonl``: one question per revised value, with the ids of
the message that stated the old value (``old``) and of the one revising it (``revision``), and
the assistant turns that repeated the old value (``old_echoes``); ``keep.jsonl``: the messages
that must stay current (siblings, values stated and never revised), each with a question about it.

``--holdout`` generates from the held-out slots and phrasings of ``supersession_chats_holdout.py``
(written before the value-revision rule, never tuned to it) with their own default seed;
``--holdout holdout2`` from ``supersession_chats_holdout2.py`` (written before the rule for
revisions that do not repeat the attribute's word; with decoys: plans, questions and others' values
said late about values never revised); ``--holdout holdout3`` from ``supersession_chats_holdout3.py``
(written on 2026-12-07 before that day's later rules; half its values are names); ``--holdout
holdout4`` from ``supersession_chats_holdout4.py`` (written before revisions were read by their
meaning; revisions often in other words than the statement).
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the held-out slots

DEFAULT_CONVERSATIONS = 10
DEFAULT_MESSAGES = 300
DEFAULT_SEED = 50
REVISED_PER_CONVERSATION = 5
STATED_ONLY_PER_CONVERSATION = 3
ASSISTANT = "assistant"
# Room for every statement (and sibling) in the first 40% of the user's turns: 8 slots and up to 5 siblings.
MIN_MESSAGES = 80


# ----------------------------------------------------------------------------- what the user states


@dataclass(frozen=True)
class Slot:
    """A value the user may state and revise: phrasings with ``{v}`` for the value, ``{name}`` for
    the user in the question, and a sibling stated beside it that must not be taken for it."""

    name: str
    values: tuple[tuple[str, str], ...]  # (old, new) pairs to pick from
    state: tuple[str, ...]
    revise: tuple[str, ...]
    question: str
    echo: str  # how an assistant turn repeats the value
    sibling: tuple[str, tuple[str, ...]] | None = None  # (phrasing with {v}, values)
    # Said late with another value when the slot is never revised, and must not revise it: a plan, a
    # question, someone else's value ("I'd like to save {v} eventually").
    decoys: tuple[str, ...] = ()


SLOTS: tuple[Slot, ...] = (
    Slot("staging_ram", (("32 GB", "64 GB"), ("16 GB", "48 GB"), ("64 GB", "128 GB")),
         ("our staging server has {v} of RAM", "the staging box is a {v} RAM machine",
          "staging runs on one server with {v} of memory"),
         ("the staging server has {v} now", "we bumped staging to {v} of RAM last week",
          "staging got upgraded, it's {v} of RAM now"),
         "How much RAM does {name}'s staging server have?",
         "With {v} of RAM on staging you have some headroom, but keep an eye on swap.",
         ("the production server has {v} of RAM", ("256 GB", "192 GB", "384 GB"))),
    Slot("team_size", (("6 people", "9 people"), ("4 people", "7 people"), ("12 people", "8 people")),
         ("my team is {v}", "there are {v} on my team", "I manage a team of {v}"),
         ("we're {v} on the team now", "the team is {v} since the reorg", "my team is {v} now"),
         "How many people are on {name}'s team?",
         "For a team of {v}, a short written weekly update usually beats another meeting.",
         ("the data team next door is {v}", ("3 people", "5 people", "11 people"))),
    Slot("cloud_budget", (("$4,000 a month", "$5,500 a month"), ("$1,200 a month", "$900 a month"),
                          ("$12k a month", "$18k a month")),
         ("our cloud budget is {v}", "finance gives us {v} for cloud", "we can spend {v} on AWS"),
         ("the cloud budget is {v} now", "finance moved our cloud budget to {v}",
          "our AWS budget got changed to {v}"),
         "What is {name}'s cloud budget?",
         "At {v} for cloud, reserved instances would pay for themselves within the year.",
         ("the marketing budget is {v}", ("$20k a month", "$8,000 a month", "$3,500 a month"))),
    Slot("launch_date", (("March 14", "April 30"), ("June 3", "July 15"), ("September 9", "October 21")),
         ("our launch deadline is {v}", "we launch on {v}", "the product has to ship by {v}"),
         ("the launch moved to {v}", "our deadline is {v} now", "we're launching on {v} instead"),
         "When is {name}'s launch deadline?",
         "Working back from a {v} launch, freeze features three weeks before.",
         ("the beta for partners opens on {v}", ("February 1", "May 12", "August 20"))),
    Slot("home_address", (("12 Harbour Street, Bristol", "7 Linden Avenue, Bath"),
                          ("Calle Mayor 18, Madrid", "Carrer de Verdi 41, Barcelona"),
                          ("Keizersgracht 220, Amsterdam", "Oudegracht 99, Utrecht")),
         ("I live at {v}", "my flat is at {v}", "home is {v}"),
         ("we moved, I live at {v} now", "my new address is {v}", "I'm at {v} since the move"),
         "What is {name}'s home address?",
         "Since you're at {v}, the local council site will list the recycling days.",
         ("my parents live at {v}", ("3 Mill Lane, Exeter", "Calle Luna 5, Toledo", "Dorpsstraat 8, Edam"))),
    Slot("python_version", (("Python 3.10", "Python 3.12"), ("Python 3.8", "Python 3.11"),
                            ("Python 3.9", "Python 3.12")),
         ("our backend runs on {v}", "we're on {v} in production", "the service is pinned to {v}"),
         ("we're on {v} now", "we finally upgraded the backend to {v}",
          "the service runs {v} since the upgrade"),
         "Which Python version does {name}'s backend run?",
         "On {v} you can rely on the standard library's zoneinfo for time zones.",
         ("the data pipeline runs on {v}", ("Python 3.7", "Python 3.6", "Python 3.7"))),
    Slot("postgres_version", (("Postgres 13", "Postgres 16"), ("Postgres 12", "Postgres 15"),
                              ("Postgres 14", "Postgres 16")),
         ("the database is {v}", "we use {v} for everything", "our main DB is {v}"),
         ("the database is {v} now", "we upgraded the database to {v}",
          "we're running {v} after the migration"),
         "Which Postgres version does {name}'s main database run?",
         "{v} supports what you need here, so no extension is required.",
         None),
    Slot("pro_price", (("$29 a month", "$35 a month"), ("€15 a month", "€19 a month"),
                       ("$99 a year", "$79 a year")),
         ("our Pro plan costs {v}", "we charge {v} for Pro", "Pro is {v}"),
         ("Pro is {v} now", "we changed the Pro price to {v}", "the Pro plan went to {v}"),
         "How much does {name}'s Pro plan cost?",
         "At {v}, a yearly option with two months free is a common nudge.",
         ("the Team plan costs {v}", ("$79 a month", "€49 a month", "$249 a year"))),
    Slot("rent", (("£1,200 a month", "£1,350 a month"), ("€850 a month", "€920 a month"),
                  ("$2,100 a month", "$1,900 a month")),
         ("my rent is {v}", "I pay {v} in rent", "the flat costs me {v}"),
         ("rent is {v} now", "my rent changed to {v}", "the landlord set the rent to {v}"),
         "How much rent does {name} pay?",
         "With rent at {v}, the 50/30/20 split leaves a fair amount for savings.",
         ("my sister pays {v} for her place", ("£950 a month", "€700 a month", "$1,500 a month"))),
    Slot("customers", (("120 paying customers", "310 paying customers"),
                       ("45 paying customers", "80 paying customers"),
                       ("2,000 paying customers", "2,600 paying customers")),
         ("we have {v}", "we're at {v}", "the product has {v}"),
         ("we're at {v} now", "we have {v} these days", "we passed {v}"),
         "How many paying customers does {name}'s product have?",
         "With {v}, one support inbox is still manageable.",
         ("our free tier has {v}", ("900 users", "4,000 users", "15,000 users"))),
    Slot("manager", (("Dana", "Ibrahim"), ("Lucía", "Marcus"), ("Kenji", "Olga")),
         ("my manager is {v}", "I report to {v}", "{v} is my manager"),
         ("my new manager is {v}", "I report to {v} now", "{v} is my manager since the reorg"),
         "Who is {name}'s manager?",
         "It may help to send {v} a short summary before the one-to-one.",
         ("my mentor is {v}", ("Priscilla", "Tomás", "Haruka"))),
    Slot("weekly_km", (("20 km a week", "35 km a week"), ("10 km a week", "25 km a week"),
                       ("50 km a week", "30 km a week")),
         ("I run about {v}", "I'm running {v}", "my running volume is {v}"),
         ("I'm running {v} now", "these days I run {v}", "my weekly running is {v} now"),
         "How much does {name} run per week?",
         "At {v}, add no more than ten percent a week.",
         None),
    Slot("p95_latency", (("420 ms", "180 ms"), ("900 ms", "350 ms"), ("250 ms", "600 ms")),
         ("our API's p95 latency is {v}", "p95 on the API sits at {v}", "the API answers in {v} at p95"),
         ("p95 is {v} now", "the API's p95 is {v} after the changes", "we measured the p95 at {v} this week"),
         "What is the p95 latency of {name}'s API?",
         "A p95 of {v} suggests the slow path is a few heavy queries rather than the network.",
         ("the admin dashboard's p95 is {v}", ("2.1 s", "1.4 s", "3 s"))),
    Slot("db_size", (("400 GB", "1.2 TB"), ("80 GB", "250 GB"), ("2 TB", "3.5 TB")),
         ("the production database is about {v}", "prod data is roughly {v}", "our database holds {v}"),
         ("the production database is {v} now", "prod grew to {v}", "the database is at {v} these days"),
         "How big is {name}'s production database?",
         "At {v}, a logical dump takes a while; use physical backups with WAL archiving.",
         ("the analytics warehouse is {v}", ("9 TB", "600 GB", "14 TB"))),
    Slot("car", (("a 2015 Honda Civic", "a Tesla Model 3"), ("a Fiat Panda", "a Skoda Enyaq"),
                 ("a VW Golf", "a Toyota Yaris hybrid")),
         ("I drive {v}", "my car is {v}", "I get around in {v}"),
         ("I drive {v} now", "I sold the old car, it's {v} now", "my car is {v} since last month"),
         "What car does {name} drive?",
         "With {v}, the running costs will mostly be insurance and tyres.",
         ("my partner drives {v}", ("a Mini Cooper", "a Renault Clio", "a Mazda 3"))),
    Slot("react_version", (("React 17", "React 18"), ("Angular 14", "Angular 17"), ("Vue 2", "Vue 3")),
         ("the frontend is built with {v}", "our frontend uses {v}", "we're on {v} on the frontend"),
         ("the frontend is on {v} now", "we migrated the frontend to {v}",
          "frontend runs {v} since the migration"),
         "Which frontend framework version does {name}'s app use?",
         "{v} handles this pattern well, as long as state stays close to where it's used.",
         None),
)


# ----------------------------------------------------------------------------- what the user asks


@dataclass(frozen=True)
class Topic:
    name: str
    requests: tuple[str, ...]
    sentences: tuple[str, ...]
    code: tuple[str, ...] = ()


TOPICS: tuple[Topic, ...] = (
    Topic("python-debug", (
        "can you help me figure out why my script throws a KeyError on the second run?",
        "why does my generator get exhausted after the first loop?",
        "how do I stop this function from mutating the list I pass in?",
        "my unit test passes alone but fails in the full suite, any idea why?"), (
        "The quickest way to narrow this down is to print the object right before the failing line.",
        "A KeyError on the second run usually means state survived between runs, often a module-level dict.",
        "Generators are single-use: once exhausted, iterating again yields nothing and raises no error.",
        "If you need to walk the data twice, materialise it with list() or recreate the generator.",
        "Mutable default arguments are evaluated once, when the function is defined, not on every call.",
        "Tests that pass alone and fail together tend to share a fixture, a temp file, or a global.",
        "pytest's -p no:randomly and --lf flags help you reproduce ordering problems deterministically.",
        "Copying defensively at the boundary is cheap compared to chasing aliasing bugs later.",
        "Type hints will not stop the mutation, but a frozen dataclass or a tuple will.",
        "It's worth adding a regression test that runs the function twice in the same process.",
        "Logging the id() of the object in both places will tell you whether it's the same instance.",
        "Once it's fixed, consider whether the cache belongs in an explicit object you pass around."), (
        "```python\ndef load(path, cache=None):\n    cache = {} if cache is None else cache\n"
        "    if path not in cache:\n        cache[path] = parse(path)\n    return cache[path]\n```",
        "```python\nrows = list(read_rows(path))  # materialise once\ntotal = sum(r.amount for r in rows)\n"
        "largest = max(rows, key=lambda r: r.amount)\n```",
        "```python\ndef normalise(items: list[str]) -> list[str]:\n"
        "    out = [s.strip().lower() for s in items]\n"
        "    return sorted(set(out))\n```")),
    Topic("sql", (
        "can you write a query that finds customers who ordered twice in the same week?",
        "how do I get the latest row per user in SQL without a subquery per row?",
        "help me speed up a report query that joins orders and invoices",
        "what's the cleanest way to pivot monthly totals into columns?"), (
        "Window functions are the tool for 'latest row per group' problems.",
        "ROW_NUMBER() over a partition ordered by the timestamp descending gives you rank one per user.",
        "An index on the join columns, in the order the planner uses them, often halves the runtime.",
        "Run EXPLAIN ANALYZE before and after; guessing at query plans is a losing game.",
        "date_trunc('week', ...) groups by ISO week, which is usually what finance expects.",
        "For pivots, conditional aggregation with FILTER is readable and portable enough.",
        "Avoid SELECT * in reports, it hides which columns the query depends on.",
        "If the report runs nightly, a materialised view refreshed after the batch is simpler.",
        "Be careful with time zones: truncating timestamps in UTC can move orders to the wrong day.",
        "CTEs make the query easier to read; in recent versions they are inlined when possible.",
        "Check the row counts at each step so you notice a join that multiplies rows."), (
        "```sql\nSELECT DISTINCT ON (user_id) user_id, created_at, status\nFROM events\n"
        "ORDER BY user_id, created_at DESC;\n```",
        "```sql\nWITH weekly AS (\n"
        "  SELECT customer_id, date_trunc('week', ordered_at) AS wk, count(*) AS n\n"
        "  FROM orders GROUP BY 1, 2\n)\nSELECT customer_id FROM weekly WHERE n >= 2;\n```",
        "```sql\nSELECT date_trunc('month', paid_at) AS month,\n"
        "       sum(amount) FILTER (WHERE region = 'EU') AS eu,\n"
        "       sum(amount) FILTER (WHERE region = 'US') AS us\nFROM invoices GROUP BY 1 ORDER BY 1;\n```")),
    Topic("email", (
        "can you help me write an email to a client about a delay?",
        "I need a polite reply declining a meeting invite",
        "help me draft a message asking a colleague for feedback on my proposal",
        "can you make this email sound less passive-aggressive?"), (
        "Lead with the news, then the reason, then what happens next.",
        "Clients mostly want to know the new date and whether anything else changes.",
        "Keep the apology short; one sentence of ownership reads better than a paragraph.",
        "Offer a concrete next step, such as a call on a specific day.",
        "When declining, thank them, give a brief reason if you can, and suggest an alternative.",
        "Asking for feedback works better with two or three specific questions.",
        "Passive-aggressive tone often comes from phrases like 'as previously mentioned'.",
        "Replace 'per my last email' with a short restatement of the point.",
        "Subject lines that say what the email is about get answered faster.",
        "Read it out loud once; awkward sentences show up immediately.",
        "If the relationship matters, a short call can replace a long email.")),
    Topic("docker", (
        "my docker compose setup can't reach the database container, help?",
        "how do I make my Docker image smaller?",
        "why does my container exit immediately after starting?",
        "can you explain how to pass secrets to a container safely?"), (
        "Inside compose, services reach each other by service name, not localhost.",
        "Multi-stage builds let you compile in one image and ship only the result.",
        "A container exits when its main process exits, so a backgrounded server ends it at once.",
        "Slim base images cut a lot of size, but check that you don't need the missing libraries.",
        "Secrets belong in files mounted at run time or the orchestrator's secret store, not ENV lines.",
        "docker logs on the exited container usually shows the reason in the last lines.",
        "A healthcheck plus depends_on with condition: service_healthy avoids start-up races.",
        "Order Dockerfile steps from least to most frequently changed so the cache helps you.",
        "Pin base image digests for reproducible builds.",
        "A .dockerignore keeps node_modules and .git out of the build context."), (
        "```dockerfile\nFROM python:3.12-slim AS build\nWORKDIR /app\nCOPY requirements.txt .\n"
        "RUN pip wheel -r requirements.txt -w /wheels\n\nFROM python:3.12-slim\n"
        "COPY --from=build /wheels /wheels\n"
        "RUN pip install /wheels/*\n```",
        "```yaml\nservices:\n  app:\n    build: .\n    depends_on:\n      db:\n"
        "        condition: service_healthy\n"
        "  db:\n    image: postgres\n    healthcheck:\n      test: [\"CMD\", \"pg_isready\"]\n```")),
    Topic("git", (
        "I committed to the wrong branch, how do I move the commit?",
        "how do I undo a merge that I already pushed?",
        "what's a sane branching strategy for a small team?",
        "can you explain rebase vs merge for my team's wiki?"), (
        "git cherry-pick copies a commit onto the current branch; then reset the wrong branch.",
        "For a pushed merge, git revert -m 1 creates a new commit that undoes it safely.",
        "Rewriting shared history forces everyone to recover, so avoid it on main.",
        "Short-lived feature branches merged daily keep conflicts small.",
        "Rebase gives a linear history; merge keeps the record of how work came together.",
        "Whatever you choose, protect main and require a review.",
        "git reflog is the safety net: almost nothing is truly lost for ninety days.",
        "Squash merges keep main tidy but lose the intermediate commits.",
        "Write commit messages that say why, not only what.",
        "Tags for releases make it easy to see what shipped when."), (
        "```bash\ngit switch correct-branch\ngit cherry-pick abc1234\ngit switch wrong-branch\n"
        "git reset --hard HEAD~1\n```",)),
    Topic("travel", (
        "can you plan three days in Lisbon for me?",
        "what should I pack for a week of hiking in the Dolomites?",
        "help me compare train vs plane from Paris to Barcelona",
        "any tips for a long layover in Istanbul?"), (
        "Group sights by neighbourhood so you're not crossing the city twice a day.",
        "Book the most popular museum for the morning of day one, before the queues.",
        "Layers beat one heavy jacket in the mountains; the weather turns quickly.",
        "Trains win on door-to-door time once you count security and transfers to airports.",
        "Check whether your layover allows leaving the airport and what the visa rules are.",
        "Keep a paper copy of the key bookings in case your phone dies.",
        "Local transport cards usually pay off after a handful of rides.",
        "Plan one unscheduled afternoon; it's often the best part of a trip.",
        "Blister plasters and broken-in boots matter more than any gadget.",
        "Eat where the menu is in the local language first.")),
    Topic("cooking", (
        "can you suggest a week of quick dinners?",
        "what can I make with chickpeas, spinach and rice?",
        "help me scale a cake recipe from 20 cm to 26 cm tin",
        "how do I meal prep lunches that don't get soggy?"), (
        "Cook one grain and one protein in bulk and vary the sauces through the week.",
        "Chickpeas, spinach and rice make a good pilaf with cumin and lemon.",
        "Scaling a round tin goes by area: a 26 cm tin holds about 1.7 times a 20 cm one.",
        "Keep dressings and crunchy toppings in separate small containers.",
        "Roasted vegetables hold up for four days; leafy salads don't.",
        "A sheet-pan dinner saves both time and washing up.",
        "Frozen peas and spinach are perfectly good shortcuts.",
        "Taste for salt and acid at the end; that's what makes food taste finished.",
        "Label containers with the day they were cooked.")),
    Topic("bash", (
        "can you help me write a cron job that rotates logs?",
        "how do I find the biggest files on a server?",
        "write me a bash script that backs up a folder to S3",
        "why does my script work in the terminal but not from cron?"), (
        "Cron runs with a minimal environment, so PATH and variables from your shell are missing.",
        "logrotate is usually better than a hand-written rotation script.",
        "du -ah piped into sort -h and tail shows the largest files quickly.",
        "Use set -euo pipefail so a failing step stops the script.",
        "Redirect cron output to a log file or you will never see the error.",
        "aws s3 sync only uploads what changed, which keeps backups cheap.",
        "Quote variables that hold paths; spaces will bite eventually.",
        "Test the script with env -i to mimic cron's environment."), (
        "```bash\n#!/usr/bin/env bash\nset -euo pipefail\nsrc=\"$1\"\nstamp=$(date +%F)\n"
        "tar czf \"/tmp/backup-$stamp.tgz\" \"$src\"\naws s3 cp \"/tmp/backup-$stamp.tgz\" \"s3://my-backups/\"\n```",
        "```bash\ndu -ah / 2>/dev/null | sort -rh | head -n 20\n```")),
    Topic("review", (
        "help me write my self-review for this cycle",
        "how should I give feedback to a report who keeps missing deadlines?",
        "can you help me prepare for a salary conversation?",
        "what should I put in a promotion packet?"), (
        "Anchor every claim in an outcome and, where you can, a number.",
        "Feedback lands better when it describes behaviour and impact, not character.",
        "Ask what's getting in the way before proposing a fix; missed deadlines have many causes.",
        "For salary talks, bring market data and a specific figure.",
        "A promotion packet should show you already work at the next level, with examples.",
        "Name one or two growth areas honestly; it builds trust.",
        "Agree on a follow-up date so feedback turns into a plan.",
        "Collect quotes from peers ahead of time rather than the night before.")),
    Topic("pandas", (
        "how do I clean a CSV where dates come in three formats?",
        "my groupby is slow on 10 million rows, what can I do?",
        "can you help me merge two dataframes without duplicating rows?",
        "how do I reshape wide survey data to long format?"), (
        "pd.to_datetime with format='mixed' handles several formats, but check the ambiguous ones.",
        "Categorical dtypes for the grouping columns make groupby much faster.",
        "Duplicated rows after a merge mean the key isn't unique on one side; check with duplicated().",
        "melt turns wide columns into long rows; name id_vars explicitly.",
        "Read only the columns you need with usecols.",
        "validate='one_to_one' in merge turns silent duplication into an error.",
        "For very large files, polars or DuckDB may be easier than tuning pandas.",
        "Keep the raw file untouched and write the cleaned version next to it."), (
        "```python\nimport pandas as pd\ndf = pd.read_csv(path, usecols=[\"id\", \"date\", \"amount\"])\n"
        "df[\"date\"] = pd.to_datetime(df[\"date\"], format=\"mixed\", dayfirst=True)\n"
        "df = df.merge(customers, on=\"id\", how=\"left\", validate=\"many_to_one\")\n```",)),
    Topic("k8s", (
        "my pod keeps getting OOMKilled, how do I size the limits?",
        "can you explain readiness vs liveness probes?",
        "help me write a Kubernetes deployment for a small web app",
        "how do I roll back a bad deployment?"), (
        "OOMKilled means the container went over its memory limit, not that the node ran out.",
        "Set requests to typical usage and limits with some headroom above the peak.",
        "Readiness decides whether the pod gets traffic; liveness decides whether it's restarted.",
        "A liveness probe that checks dependencies can restart healthy pods during an outage.",
        "kubectl rollout undo goes back to the previous ReplicaSet.",
        "Watch memory with kubectl top or your metrics stack over a full day before deciding.",
        "Keep manifests in git and apply them from CI.",
        "Use a PodDisruptionBudget so node drains don't take everything down."), (
        "```yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n"
        "  template:\n    spec:\n      containers:\n        - name: web\n          image: web:1.4.2\n"
        "          resources:\n            requests: {memory: 256Mi}\n"
        "            limits: {memory: 512Mi}\n```",)),
    Topic("budget", (
        "can you help me set up a monthly budget spreadsheet?",
        "how much should I keep in an emergency fund?",
        "help me compare two phone contracts",
        "what's a simple way to track shared expenses with flatmates?"), (
        "Start from last month's actual spending rather than an ideal.",
        "Three to six months of essential costs is the usual emergency fund range.",
        "Compare contracts on total cost over the term, including the handset.",
        "A shared spreadsheet or an app like Splitwise avoids awkward reminders.",
        "Automate savings on payday so they happen before spending.",
        "Group categories coarsely at first; too many categories kill the habit.",
        "Review the budget monthly for the first quarter, then quarterly.")),
    Topic("react", (
        "why does my React component re-render so often?",
        "how should I fetch data in a component without race conditions?",
        "help me structure forms with validation",
        "can you explain when to use context vs props?"), (
        "A new object or function created on every render changes props and triggers re-renders.",
        "useMemo and useCallback help only when the child actually compares props.",
        "Abort the previous request in the effect's cleanup to avoid race conditions.",
        "A data-fetching library handles caching and deduplication for you.",
        "Keep form state in one place and validate on blur, not on every keystroke.",
        "Context suits values many components read, like the theme or the user.",
        "Passing props a level or two is fine; it's explicit.",
        "The React profiler shows which components render and why."), (
        "```tsx\nuseEffect(() => {\n  const ctrl = new AbortController();\n"
        "  fetch(`/api/items?q=${q}`, { signal: ctrl.signal })\n    .then(r => r.json()).then(setItems)\n"
        "    .catch(() => {});\n  return () => ctrl.abort();\n}, [q]);\n```",)),
    Topic("fitness", (
        "can you make me a strength plan for three days a week?",
        "how do I fit training around a newborn?",
        "what should I eat before a long run?",
        "help me recover from a minor calf strain"), (
        "Three full-body sessions with squats, a hinge, a push and a pull cover the basics.",
        "Progress slowly: add a little weight or a rep each week.",
        "Short sessions count; twenty minutes done beats an hour planned.",
        "Carbohydrates two to three hours before a long run help; test it in training.",
        "For a minor strain, relative rest and gradual loading beat complete rest.",
        "Sleep is the most underrated part of any plan.",
        "Write the sessions down so you can see progress.")),
)

# Said in any reply, whatever the topic: with the topic's own sentences, replies rarely repeat a line.
GENERIC = (
    "It depends a little on your constraints, so I'll state my assumptions as I go.",
    "The simplest version that works is usually the right first step.",
    "Measure before and after, otherwise it's hard to tell whether a change helped.",
    "Write down the decision and the reason next to it; future you will thank you.",
    "If something feels off, it's worth a second look before building on it.",
    "There's rarely a single right answer here, but there are a few clear wrong ones.",
    "Try it on a small example first, then on the real thing.",
    "Small, reversible steps make it easier to back out if something surprises you.",
    "Ask the people affected early; they often know the edge cases.",
    "Automate the part you repeat most often, and leave the rest manual for now.",
    "A checklist catches more mistakes than good intentions do.",
    "Keep an eye on the cost of maintaining whatever you build, not only building it.",
    "Defaults matter: most people never change them.",
    "Make the common case easy and the rare case possible.",
    "When two options look equal, pick the one that's easier to undo.",
    "Deadlines slip more from unclear ownership than from hard problems.",
    "Good naming saves more time than clever code.",
    "The first draft is for getting it down; the second is for getting it right.",
    "If you can't explain it in two sentences, the plan may need simplifying.",
    "Leave yourself a note about what you tried and what didn't work.",
    "Errors are cheaper to fix the earlier you notice them.",
    "It helps to timebox exploration so it doesn't quietly eat the week.",
    "Pairing on the tricky part for half an hour often beats a day alone.",
    "Consistency across the team matters more than the perfect convention.",
    "Look at what's already there before adding something new.",
    "Plan for the failure case, not only the happy path.",
    "Try to keep one source of truth; copies drift.",
    "Sleep on big decisions when you can.",
    "Share a rough version early instead of a polished one late.",
    "Most of the gain comes from the first few improvements.",
    "Write the test or the example before the explanation; it keeps you honest.",
    "Be wary of advice that ignores your particular context, mine included.",
    "A quick sketch on paper can settle a debate faster than a meeting.",
    "If it's important, put a date on it.",
    "Backups you haven't restored from are only hopes.",
    "Keep the interface small and the implementation boring.",
    "You can always add detail later; removing it is harder.",
    "Watch for the step everyone assumes someone else is doing.",
)

LEADS = ("", "Quick one: ", "btw ", "Small update: ", "Oh, and ", "FYI ", "")
JOINS = (". Anyway, ", " - unrelated, but ", ". Also, ", "; ", ". Different topic: ")
OPENERS = ("Sure - ", "Good question. ", "Happy to help. ", "Here's how I'd approach it. ", "", "Right, ")
CLOSERS = ("If you share the exact error or your current draft, I can be more specific.",
           "Let me know how it goes, and we can adjust from there.",
           "Want me to turn this into a checklist?",
           "Happy to go deeper on any of these points.")


# ----------------------------------------------------------------------------- generation


@dataclass
class Message:
    id: str
    group: str
    speaker: str
    timestamp: str
    text: str

    def row(self) -> dict[str, str]:
        return {"id": self.id, "group": self.group, "speaker": self.speaker, "timestamp": self.timestamp,
                "text": self.text}


@dataclass
class Question:
    id: str
    group: str
    slot: str
    question: str
    old: str
    revision: str
    old_value: str
    new_value: str
    old_echoes: list[str] = field(default_factory=list)

    def row(self) -> dict[str, object]:
        return dict(self.__dict__)


@dataclass
class Conversation:
    group: str
    user: str
    messages: list[Message]
    questions: list[Question]
    # (question, message id): siblings and values never revised, which nothing supersedes.
    keep: list[tuple[str, str]] = field(default_factory=list)


USERS = ("Priya", "Mateus", "Ingrid", "Kwabena", "Sofía", "Haruto", "Aoife", "Dmitri", "Leila", "Tomasz",
         "Chiamaka", "Elif", "Bruno", "Mai", "Farid", "Signe")


def _assistant_reply(rng: random.Random, topic: Topic, echo: str | None) -> str:
    """1-3 KB of advice on the topic: paragraphs of its sentences, sometimes a code block."""
    target = rng.randint(1200, 2900)
    first = rng.choice(topic.sentences)
    parts = [rng.choice(OPENERS) + first]
    if echo:
        parts.append(echo)
    code_at = rng.randint(1, 3) if topic.code and rng.random() < 0.6 else -1
    pool = [*(t for t in topic.sentences if t != first), *rng.sample(GENERIC, 18)]
    rng.shuffle(pool)
    paragraph = 0
    while sum(len(p) + 2 for p in parts) < target and pool:
        paragraph += 1
        if paragraph == code_at:
            parts.append(rng.choice(topic.code))
            continue
        take = rng.randint(3, 5)
        parts.append(" ".join(pool[:take]))
        del pool[:take]
    parts.append(rng.choice(CLOSERS))
    return "\n\n".join(parts)[:3000]


def _cap(text: str) -> str:
    return text if text.startswith("p95") else text[0].upper() + text[1:]


def _sentence(request: str) -> str:
    """A request as a sentence of its own: capitalised, ending in a stop or a question mark."""
    return _cap(request) + ("" if request[-1] in "?.!" else ".")


def _styled(rng: random.Random, styles: Sequence[str], phrase: str, request: str) -> str:
    return rng.choice(styles).format(p=phrase, P=_cap(phrase), r=request, R=_sentence(request))


def _stated(rng: random.Random, phrase: str, request: str, styles: Sequence[str] = ()) -> str:
    if styles:
        return _styled(rng, styles, phrase, request)
    style = rng.randrange(3)
    if style == 0:
        return f"Some context: {phrase}. Now, {request}"
    if style == 1:
        return f"{_sentence(request)} For reference, {phrase}."
    return f"{_cap(phrase)}, and {request}"


def _revised(rng: random.Random, phrase: str, request: str, styles: Sequence[str] = ()) -> str:
    """The revision in passing: at the start of an unrelated request, or tacked on at its end."""
    if styles:
        return _styled(rng, styles, phrase, request)
    if rng.random() < 0.6:
        lead = rng.choice(LEADS)
        return f"{lead}{phrase if lead else _cap(phrase)}{rng.choice(JOINS)}{request}"
    said = _sentence(request)
    return f"{said[:-1]} (oh and {phrase}, if that matters){said[-1]}"


# Held-out sets by name, each a module of ``SLOTS``, ``STATED_STYLES``, ``REVISED_STYLES`` and ``SEED``.
HELD_OUT = {"holdout": "supersession_chats_holdout", "holdout2": "supersession_chats_holdout2",
            "holdout3": "supersession_chats_holdout3", "holdout4": "supersession_chats_holdout4"}


def generate(n: int = DEFAULT_CONVERSATIONS, messages: int = DEFAULT_MESSAGES,
             seed: int | None = None, *, holdout: bool | str = False) -> list[Conversation]:
    """``n`` conversations of about ``messages`` messages each (user and assistant alternating);
    ``holdout``: from a held-out set's slots and phrasings (default seed theirs): ``True`` or a name
    of :data:`HELD_OUT`."""
    if n < 1 or messages < MIN_MESSAGES:
        raise ValueError(f"need at least 1 conversation of {MIN_MESSAGES} messages, got {n} of {messages}")
    if holdout:
        name = "holdout" if holdout is True else str(holdout)
        if name not in HELD_OUT:
            raise ValueError(f"no held-out set {name!r}: one of {', '.join(HELD_OUT)}")
        h = importlib.import_module(f"benchmarks.{HELD_OUT[name]}")
        spec = _Spec(h.SLOTS, h.STATED_STYLES, h.REVISED_STYLES)
        seed = h.SEED if seed is None else seed
    else:
        spec, seed = _Spec(SLOTS), DEFAULT_SEED if seed is None else seed
    return [_conversation(i, messages, random.Random(f"{seed}:{i}"), spec) for i in range(n)]


@dataclass(frozen=True)
class _Spec:
    slots: tuple[Slot, ...]
    stated: tuple[str, ...] = ()  # phrasings around a statement (empty: the default ones)
    revised: tuple[str, ...] = ()


def _conversation(index: int, messages: int, rng: random.Random, spec: _Spec) -> Conversation:
    user = USERS[index % len(USERS)] + ("" if index < len(USERS) else f" {index // len(USERS) + 1}")
    group = f"conv-{index + 1:02d}-{user.split()[0].lower()}"
    slots = rng.sample(spec.slots, REVISED_PER_CONVERSATION + STATED_ONLY_PER_CONVERSATION)
    revised = slots[:REVISED_PER_CONVERSATION]  # the others are stated and never revised
    turns = messages // 2
    # Where values are said (user turn numbers): statements in the first 40%, revisions in the last half.
    early = rng.sample(range(2, int(turns * 0.4)), len(slots) + sum(s.sibling is not None for s in revised))
    late = sorted(rng.sample(range(int(turns * 0.55), turns - 1), len(revised)))
    plan: dict[int, tuple[str, Slot, str]] = {}
    values = {s.name: rng.choice(s.values) for s in slots}
    spots = iter(early)
    for s in slots:
        plan[next(spots)] = ("state", s, values[s.name][0])
        if s in revised and s.sibling is not None:
            plan[next(spots)] = ("sibling", s, rng.choice(s.sibling[1]))
    for s, at in zip(revised, late, strict=True):
        plan[at] = ("revise", s, values[s.name][1])
    decoyed = [s for s in slots[REVISED_PER_CONVERSATION:] if s.decoys]
    if decoyed:  # sets without decoys draw nothing more: they generate as they always did
        free = [t for t in range(int(turns * 0.55), turns - 1) if t not in plan]
        for s, at in zip(decoyed, rng.sample(free, len(decoyed)), strict=True):
            plan[at] = ("decoy", s, values[s.name][1])

    start = datetime(2024, 1, 8, 9, 0, tzinfo=timezone.utc) + timedelta(days=rng.randint(0, 60))
    span_days = rng.randint(300, 420)
    out: list[Message] = []
    said: dict[str, str] = {}  # slot -> id of the message that stated its old value
    revising: dict[str, str] = {}
    keep: list[tuple[str, str]] = []
    first_name = user.split()[0]
    echoes: dict[str, list[str]] = {s.name: [] for s in revised}
    for turn in range(turns):
        when = start + timedelta(days=span_days * turn / turns, minutes=rng.randint(0, 600))
        topic = rng.choice(TOPICS)
        request = rng.choice(topic.requests)
        echo = None
        if turn in plan:
            kind, slot, value = plan[turn]
            if kind == "state":
                text = _stated(rng, rng.choice(slot.state).format(v=value), request, spec.stated)
                if rng.random() < 0.25:
                    echo = slot.echo.format(v=value)
            elif kind == "sibling":
                assert slot.sibling is not None
                text = _stated(rng, slot.sibling[0].format(v=value), request, spec.stated)
            elif kind == "decoy":
                text = _stated(rng, rng.choice(slot.decoys).format(v=value), request, spec.stated)
            else:
                text = _revised(rng, rng.choice(slot.revise).format(v=value), request, spec.revised)
        else:
            text = _sentence(request)
        uid = f"{group}-{2 * turn + 1:04d}"
        out.append(Message(uid, group, user, when.isoformat(), text))
        if turn in plan:
            kind, slot, _ = plan[turn]
            if kind == "state":
                said[slot.name] = uid
                if slot not in revised:
                    keep.append((slot.question.format(name=first_name), uid))
            elif kind == "sibling":
                keep.append((slot.question.format(name=first_name), uid))
            elif kind == "revise":
                revising[slot.name] = uid
        reply_at = when + timedelta(minutes=rng.randint(1, 4))
        aid = f"{group}-{2 * turn + 2:04d}"
        out.append(Message(aid, group, ASSISTANT, reply_at.isoformat(), _assistant_reply(rng, topic, echo)))
        if echo and turn in plan and plan[turn][1].name in echoes:
            echoes[plan[turn][1].name].append(aid)
    questions = [
        Question(f"{group}-q{i + 1}", group, s.name, s.question.format(name=user.split()[0]), said[s.name],
                 revising[s.name], values[s.name][0], values[s.name][1], echoes[s.name])
        for i, s in enumerate(revised)
    ]
    return Conversation(group, user, out, questions, keep)


def write(conversations: Sequence[Conversation], out: Path) -> list[Path]:
    """One importable JSONL per conversation and ``questions.jsonl``; the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for c in conversations:
        path = out / f"{c.group}.jsonl"
        path.write_text("".join(json.dumps(m.row(), ensure_ascii=False) + "\n" for m in c.messages),
                        encoding="utf-8")
        paths.append(path)
    questions = out / "questions.jsonl"
    questions.write_text("".join(json.dumps(q.row(), ensure_ascii=False) + "\n"
                                 for c in conversations for q in c.questions), encoding="utf-8")
    kept = out / "keep.jsonl"
    rows = ({"group": c.group, "question": q, "message": m} for c in conversations for q, m in c.keep)
    kept.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return [*paths, questions, kept]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=DEFAULT_CONVERSATIONS, metavar="N")
    parser.add_argument("--messages", type=int, default=DEFAULT_MESSAGES, metavar="N",
                        help="messages per conversation (user and assistant turns)")
    parser.add_argument("--seed", type=int, help=f"default {DEFAULT_SEED} (--holdout: its own)")
    parser.add_argument("--holdout", nargs="?", const="holdout", default=False, choices=list(HELD_OUT),
                        help="a held-out set's slots and phrasings (alone: supersession_chats_holdout.py; "
                             "holdout2-4: supersession_chats_holdout2.py ... _holdout4.py)")
    parser.add_argument("--out", type=Path, metavar="DIR", help="write the JSONL files here")
    args = parser.parse_args(argv)
    try:
        conversations = generate(args.conversations, args.messages, args.seed, holdout=args.holdout)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    n_messages = sum(len(c.messages) for c in conversations)
    n_questions = sum(len(c.questions) for c in conversations)
    size = sum(len(m.text.encode()) for c in conversations for m in c.messages)
    print(f"{len(conversations)} conversations, {n_messages} messages ({size / 1e6:.1f} MB of text), "
          f"{n_questions} questions about revised values")
    if args.out:
        for path in write(conversations, args.out):
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
