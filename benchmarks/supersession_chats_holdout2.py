"""A third held-out set for ``supersession_chats.py --holdout holdout2`` (issue 50, values revised in
passing).

Written before the rule that reads a revision which does not repeat the attribute's word, and never
tuned to it: attributes, holders, values and phrasings used by neither :data:`supersession_chats.SLOTS`
nor :mod:`supersession_chats_holdout`, styles of their own and a seed of their own (:data:`SEED`).
Most revisions say the attribute another way than its statement did ("I charge €85 an hour" ->
"clients pay me €95 an hour now"; "I sleep about 6 hours a night" -> "I'm getting 7 hours these
days"), inside a request about something else.

Lookalikes come two ways. A *sibling* is stated early beside a value that is revised later: the
same attribute of another person or another product (a partner's savings, the decaf beside the
house blend). A *decoy* is said late about a value that is never revised, and must not revise it:
a plan, a wish, a hypothetical, a question, a target, the past told as past, someone else's value,
another product's. Run only, never edit to improve a score (plain mistakes may be fixed, and the
commit says so).
"""

from __future__ import annotations

from benchmarks.supersession_chats import Slot

# ruff: noqa: E501 (one slot's values and phrasings a line each: easier to read as data)

SEED = 7213

SLOTS: tuple[Slot, ...] = (
    Slot("hourly_rate", (("€85 an hour", "€95 an hour"), ("$120 an hour", "$140 an hour"), ("£60 an hour", "£75 an hour")),
         ("I charge {v} for freelance work", "my freelance rate is {v}", "I bill clients {v}"),
         ("clients pay me {v} now", "I've put my prices up to {v}", "new clients get quoted {v} these days"),
         "What is {name}'s freelance hourly rate?",
         "At {v}, a half-day minimum keeps small jobs worth your while.",
         ("the subcontractor I work with bills {v}", ("€45 an hour", "$70 an hour", "£35 an hour")),
         ("if I went full-time on consulting I'd ask {v}", "a friend of mine charges {v} for the same work",
          "should I be charging {v}?")),
    Slot("sleep", (("6 hours", "7.5 hours"), ("5 hours", "7 hours"), ("8 hours", "6.5 hours")),
         ("I sleep about {v} a night", "I usually get {v} of sleep", "most nights I manage {v} in bed"),
         ("I'm getting {v} these days", "since the baby sleeps through I get {v} a night",
          "I'm managing {v} of sleep now"),
         "How much does {name} sleep per night?",
         "On {v} a night, caffeine after noon is the first thing worth cutting.",
         ("my toddler sleeps {v} at night", ("11 hours", "10 hours", "12 hours")),
         ("I'd love to get {v} a night", "my partner gets {v} of sleep, lucky her",
          "is {v} of sleep enough for an adult?")),
    Slot("body_weight", (("84 kg", "78 kg"), ("71 kg", "67 kg"), ("95 kg", "89 kg")),
         ("I weigh {v}", "I'm {v} at the moment", "the scale says {v}"),
         ("I'm down to {v}", "weighed in at {v} this morning", "I'm at {v} now after the cut"),
         "How much does {name} weigh?",
         "At {v}, about 1.6 g of protein per kilo is a sensible daily target.",
         ("my brother weighs {v}", ("102 kg", "66 kg", "90 kg")),
         ("my goal is {v} by the summer", "back in 2019 I was {v}", "if I got to {v} would my knees thank me?")),
    Slot("laptop_ram", (("16 GB", "32 GB"), ("8 GB", "24 GB"), ("32 GB", "64 GB")),
         ("my laptop has {v} of RAM", "I'm working on a laptop with {v} of memory", "my machine has {v}"),
         ("my laptop's got {v} now", "I'm on {v} since the upgrade", "the new machine has {v}"),
         "How much RAM does {name}'s laptop have?",
         "With {v}, two IDEs and a browser will fit, but Docker will be tight.",
         ("my work desktop has {v} of RAM", ("64 GB", "128 GB", "48 GB")),
         ("would a laptop with {v} be worth it?", "my colleague's laptop has {v}", "I might get one with {v} next year")),
    Slot("savings", (("£400 a month", "£650 a month"), ("€300 a month", "€500 a month"), ("$1,000 a month", "$700 a month")),
         ("I save {v}", "I put away {v}", "I manage to set aside {v}"),
         ("I'm putting {v} into savings now", "since the raise {v} goes into savings", "I stash {v} these days"),
         "How much does {name} save each month?",
         "Saving {v}, an emergency fund of three months comes within reach in a year or two.",
         ("my partner saves {v}", ("£250 a month", "€200 a month", "$450 a month")),
         ("I'd like to save {v} eventually", "my sister manages to save {v}", "I used to save {v} before the move")),
    Slot("homepage_load", (("3.2 s", "1.4 s"), ("4.5 s", "2.1 s"), ("2.6 s", "0.9 s")),
         ("our homepage loads in {v}", "the landing page takes {v} to load", "first paint on the homepage is {v}"),
         ("after the image work the homepage is {v}", "it loads in {v} since we dropped the carousel",
          "we got the landing page to {v}"),
         "How long does {name}'s homepage take to load?",
         "At {v}, the biggest win is usually deferring third-party scripts.",
         ("the checkout page loads in {v}", ("5 s", "3.8 s", "6.2 s")),
         ("we want the homepage under {v}", "a competitor's homepage loads in {v}", "could we get it to {v} with a CDN?")),
    Slot("error_rate", (("2.4%", "0.8%"), ("5%", "1.5%"), ("0.7%", "1.9%")),
         ("our checkout error rate is {v}", "{v} of checkouts fail", "checkout fails about {v} of the time"),
         ("checkout failures are at {v} now", "only {v} of payments fail since the retry fix",
          "failed checkouts dropped to {v}"),
         "What is {name}'s checkout error rate?",
         "At {v}, look at the payment provider's decline codes before touching the code.",
         ("the login error rate is {v}", ("0.3%", "0.1%", "1.2%")),
         ("the target is {v} by Q3", "the industry average is around {v}", "what if it went up to {v}?")),
    Slot("coffee_price", (("€12 a bag", "€14 a bag"), ("$16 a bag", "$18 a bag"), ("£9 a bag", "£11 a bag")),
         ("our house blend sells for {v}", "we charge {v} for the house blend", "the house blend goes for {v}"),
         ("the house blend is {v} since the beans got dearer", "we put the house blend up to {v}",
          "customers pay {v} for the house blend now"),
         "How much does {name}'s house blend cost?",
         "At {v}, a subscription discount of ten percent keeps regulars coming back.",
         ("the decaf sells for {v}", ("€13 a bag", "$17 a bag", "£10 a bag")),
         ("the roaster down the street charges {v} for theirs", "we might raise it to {v} in spring",
          "would customers still buy it at {v}?")),
    Slot("node_version", (("Node 18", "Node 22"), ("Node 16", "Node 20"), ("Node 14", "Node 18")),
         ("our services run on {v}", "the backend is on {v}", "we deploy everything with {v}"),
         ("we're on {v} everywhere now", "everything deploys with {v} since the upgrade", "prod runs {v} now"),
         "Which Node version does {name}'s backend run?",
         "{v} has a built-in test runner, so you may not need Jest for this.",
         ("the build tooling still needs {v}", ("Node 12", "Node 14", "Node 10")),
         ("should we jump to {v}?", "we plan to move to {v} next quarter", "our old monolith used {v} in 2019")),
    Slot("leave_days", (("25 days", "28 days"), ("20 days", "24 days"), ("30 days", "27 days")),
         ("I get {v} of annual leave", "my contract gives me {v} off a year", "I have {v} of holiday a year"),
         ("the new contract gives me {v} off", "I've got {v} of holiday now", "my leave went up to {v}"),
         "How many days of annual leave does {name} get?",
         "With {v} of leave, booking one long break and several long weekends spreads it well.",
         ("my husband gets {v} of leave", ("20 days", "22 days", "35 days")),
         ("in my last job I had {v} of leave", "I'm going to ask for {v} at the review", "do most people get {v}?")),
    Slot("electricity_bill", (("€140 a month", "€95 a month"), ("£110 a month", "£160 a month"), ("$180 a month", "$120 a month")),
         ("our electricity bill is about {v}", "we pay {v} for power", "electricity costs us {v}"),
         ("we're paying {v} for power since the solar panels", "the electricity bill came to {v} this time",
          "power is {v} for us now"),
         "How much is {name}'s electricity bill?",
         "At {v}, a smart plug on the fridge and the dryer shows where most of it goes.",
         ("the gas bill is {v}", ("€60 a month", "£70 a month", "$55 a month")),
         ("the neighbours pay {v} for theirs", "with a heat pump it might be {v}", "is {v} a lot for a flat?")),
    Slot("pool_size", (("20 connections", "50 connections"), ("10 connections", "40 connections"), ("100 connections", "60 connections")),
         ("our connection pool is {v}", "the app opens {v} to Postgres", "we cap the database pool at {v}"),
         ("we raised it to {v}", "the pool is {v} after the tuning", "the app holds {v} these days"),
         "How big is {name}'s database connection pool?",
         "With {v}, check that max_connections on the server leaves room for migrations.",
         ("the worker pool is {v}", ("8 connections", "16 connections", "30 connections")),
         ("should the pool be {v}?", "the vendor recommends {v}", "we'll try {v} in the load test")),
    Slot("tenk_time", (("52 minutes", "48 minutes"), ("58 minutes", "55 minutes"), ("45 minutes", "43 minutes")),
         ("my 10k best is {v}", "I run a 10k in about {v}", "my personal best over 10k is {v}"),
         ("my 10k PB is {v} now", "I finally broke it, {v} for the 10k", "I'm down to {v} for 10k"),
         "What is {name}'s best 10k time?",
         "From a {v} 10k, a half marathon around two and a quarter times that is realistic.",
         ("my running buddy's 10k best is {v}", ("41 minutes", "62 minutes", "50 minutes")),
         ("I'm aiming for {v} this autumn", "my coach ran it in {v}", "could I do {v} with intervals?")),
)

# How the revision is slipped in: ``{p}`` the revised phrase, ``{r}`` the request.
REVISED_STYLES: tuple[str, ...] = (
    "{R} For what it's worth, {p}.",
    "Side note, {p}. {R}",
    "{P}, which is nice. Anyway: {r}",
    "Morning! {R} ({p}, by the way.)",
    "{P} - so that's changed. {R}",
)
STATED_STYLES: tuple[str, ...] = (
    "{R} Some background: {p}.",
    "So, {p}. {R}",
    "{P}. With that in mind, {r}",
)
