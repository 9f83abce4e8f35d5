"""A fifth held-out set for ``supersession_chats.py --holdout holdout4`` (issue 50, values revised in
passing).

Written on 2026-12-07 late in the evening, before the change that reads a revision by its meaning
(sentence vectors) and never tuned to it: attributes, holders, values and phrasings used by none of
the other sets, styles of their own and a seed of their own (:data:`SEED`). Values are numbers,
names, places and times; revisions often use other words than the statement ("PO" for "product
owner", "the 29" for "the bus"), and some give no cue of change at all.

Siblings are the same attribute of another holder, stated early; decoys are said late about a value
that is never revised (a plan, a wish, a question, someone else's). Run only, never edit to improve a
score (plain mistakes may be fixed, and the commit says so).
"""

from __future__ import annotations

from benchmarks.supersession_chats import Slot

# ruff: noqa: E501 (one slot's values and phrasings a line each: easier to read as data)

SEED = 4419

SLOTS: tuple[Slot, ...] = (
    Slot("thermostat", (("21°C", "19°C"), ("20°C", "18°C"), ("22°C", "20°C")),
         ("the thermostat is set to {v}", "we keep the living room at {v}", "the heating is set at {v} in the house"),
         ("we turned the thermostat down to {v}", "the house sits at {v} these days to save gas", "it's {v} on the dial since the energy bill shock"),
         "What temperature does {name} keep the thermostat at?",
         "At {v}, a thicker duvet at night makes a real difference.",
         ("the office is kept at {v}", ("23°C", "24°C", "17°C")),
         ("my partner would like {v}", "my parents keep theirs at {v}", "is {v} too cold for a baby?")),
    Slot("product_owner", (("Hannah Berg", "Marco Ruiz"), ("Olu Adeyemi", "Signe Dahl"), ("Grace Liu", "Tom Akers")),
         ("our product owner is {v}", "{v} is the PO on our team", "{v} owns the backlog for us"),
         ("{v} took over as PO", "the backlog is {v}'s now", "we report to {v} for priorities since the reshuffle"),
         "Who is {name}'s product owner?",
         "{v} will want the acceptance criteria written down before the sprint starts.",
         ("the platform team's PO is {v}", ("Ravi Menon", "Elsa Kaur", "Jonas Weber")),
         ("I wish {v} were our PO", "{v} interviewed for the PO job", "would {v} be a good PO for us?")),
    Slot("bus_route", (("the 73", "the 29"), ("the number 12", "the number 40"), ("the N8", "the 155")),
         ("I take {v} to work", "{v} gets me to the office", "my commute is {v} bus"),
         ("I'm on {v} since they rerouted my old bus", "I ride {v} to the office these days", "switched to {v} for work"),
         "Which bus does {name} take to work?",
         "If {v} runs late, the journey planner app shows live arrivals.",
         ("my daughter takes {v} to school", ("the 38", "the number 9", "the 211")),
         ("I could take {v} if I left earlier", "a colleague takes {v}", "does {v} run on Sundays?")),
    Slot("book_club", (("Middlemarch", "Piranesi"), ("The Overstory", "Klara and the Sun"), ("Beloved", "Stoner")),
         ("our book club is reading {v}", "book club picked {v} this time", "we're doing {v} in book club"),
         ("book club dropped the old one, we're on {v}", "we switched to {v} after two chapters", "{v} is the book club read now"),
         "Which book is {name}'s book club reading?",
         "For {v}, a few open questions on a card keep the discussion going.",
         ("my mum's book club is reading {v}", ("Wolf Hall", "Circe", "The Road")),
         ("someone suggested {v} for next time", "I'd love to read {v} one day", "is {v} a long read?")),
    Slot("cloud_region", (("eu-west-1", "eu-central-1"), ("us-east-1", "us-west-2"), ("ap-southeast-1", "ap-northeast-1")),
         ("the app runs in {v}", "our servers live in {v}", "production is deployed to {v}"),
         ("we migrated the app to {v}", "everything is in {v} after the move", "prod runs out of {v} these days"),
         "Which region is {name}'s app hosted in?",
         "In {v}, check the price of the instance types before the reserved ones renew.",
         ("the backups go to {v}", ("eu-north-1", "ca-central-1", "sa-east-1")),
         ("we might add {v} later", "a competitor hosts in {v}", "is {v} cheaper for us?")),
    Slot("editor", (("VS Code", "Neovim"), ("PyCharm", "Zed"), ("Sublime Text", "Helix")),
         ("I code in {v}", "my editor is {v}", "I write everything in {v}"),
         ("I've moved to {v}", "{v} is my daily driver these days", "gave up the old editor for {v}"),
         "Which editor does {name} use?",
         "In {v}, a formatter on save keeps the diffs clean.",
         ("my teammate uses {v}", ("Emacs", "IntelliJ", "Vim")),
         ("I keep meaning to try {v}", "the bootcamp teaches {v}", "is {v} good for Python?")),
    Slot("bedtime", (("7:30", "8:00"), ("7:00", "7:45"), ("8:15", "7:30")),
         ("the kids go to bed at {v}", "lights out for the kids is {v}", "the twins are in bed by {v}"),
         ("the kids go down at {v} now", "bedtime is {v} since the summer", "we put the kids to bed at {v} after the clocks changed"),
         "What time do {name}'s kids go to bed?",
         "With lights out at {v}, a bath an hour before helps them wind down.",
         ("the baby sleeps at {v}", ("6:30", "6:45", "7:15")),
         ("the school recommends {v}", "my sister's kids go to bed at {v}", "is {v} too late for a six-year-old?")),
    Slot("test_coverage", (("62%", "78%"), ("45%", "71%"), ("80%", "88%")),
         ("our test coverage is {v}", "the suite covers {v} of the code", "coverage sits at {v}"),
         ("coverage is at {v} after the cleanup", "we're at {v} line coverage", "the suite reaches {v} now"),
         "What is {name}'s test coverage?",
         "At {v}, the untested parts are usually the error paths.",
         ("the frontend's coverage is {v}", ("30%", "55%", "91%")),
         ("the goal is {v} by summer", "another team claims {v}", "is {v} a reasonable target?")),
    Slot("car_insurer", (("Aviva", "Direct Line"), ("Geico", "Progressive"), ("Allianz", "AXA")),
         ("we insure the car with {v}", "the car's insurance is with {v}", "{v} covers our car"),
         ("the car's insured with {v} now", "went with {v} at renewal", "our cover is from {v} this year"),
         "Which company insures {name}'s car?",
         "{v} usually needs the claim reported within a week.",
         ("the house is insured with {v}", ("Zurich", "State Farm", "Hiscox")),
         ("{v} quoted us less", "my brother uses {v}", "is {v} good with claims?")),
    Slot("daily_steps", (("6,000 steps", "9,500 steps"), ("4,500 steps", "8,000 steps"), ("11,000 steps", "7,000 steps")),
         ("I average {v} a day", "my watch says {v} a day on average", "I walk about {v} daily"),
         ("I'm doing {v} a day lately", "the daily average is up to {v}", "{v} a day since I got the dog"),
         "How many steps a day does {name} walk?",
         "At {v} a day, adding one longer walk at the weekend lifts the average.",
         ("my partner does {v} a day", ("12,000 steps", "3,000 steps", "15,000 steps")),
         ("the doctor wants {v} a day", "my coworker does {v}", "is {v} a day enough?")),
)

# How the revision is slipped in: ``{p}`` the revised phrase, ``{r}`` the request.
REVISED_STYLES: tuple[str, ...] = (
    "{R} Side note, {p}.",
    "Before I forget, {p}. {R}",
    "{P} :) Unrelated question: {r}",
    "{R} Also {p}, in case it matters.",
    "Heads up that {p}. {R}",
)
STATED_STYLES: tuple[str, ...] = (
    "{R} For context, {p}.",
    "Background: {p}. {R}",
    "{P}. Question for you: {r}",
)
