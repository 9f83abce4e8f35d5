"""Held-out slots for ``supersession_chats.py --holdout`` (issue 50, values revised in passing).

Written before the value-revision rule (:mod:`temporal_graph.core.value_revisions`) and never tuned
to it: other attributes, holders, values and phrasings than :data:`supersession_chats.SLOTS`, other
ways of slipping the revision into a request (:data:`REVISED_STYLES`), and a seed of their own
(:data:`SEED`). Values include words for numbers ("two weeks"), percentages, versions, a pet's
weight, a person's name; siblings are the same attribute of another holder (the staging cluster
beside the cluster, the work phone beside the phone, a partner's salary beside the user's). Run
only, never edit to improve a score (plain mistakes may be fixed, and the commit says so).
"""

from __future__ import annotations

from benchmarks.supersession_chats import Slot

# ruff: noqa: E501 (one slot's values and phrasings a line each: easier to read as data)

SEED = 5051

SLOTS: tuple[Slot, ...] = (
    Slot("ci_minutes", (("25 minutes", "9 minutes"), ("40 minutes", "15 minutes"), ("12 minutes", "31 minutes")),
         ("our CI pipeline takes {v}", "a full CI run takes about {v}", "CI needs {v} per push"),
         ("the CI pipeline takes {v} since we added caching", "CI is down to {v}",
          "a full CI run is {v} these days"),
         "How long does {name}'s CI pipeline take?",
         "If CI takes {v}, splitting the slow tests into their own job is the first thing to try.",
         ("the nightly end-to-end suite takes {v}", ("2 hours", "95 minutes", "3 hours"))),
    Slot("cluster_nodes", (("6 nodes", "10 nodes"), ("3 nodes", "5 nodes"), ("24 nodes", "16 nodes")),
         ("our Kubernetes cluster has {v}", "the prod cluster runs on {v}", "we run {v} in our k8s cluster"),
         ("the prod cluster is {v} now", "we scaled the prod cluster to {v}", "the k8s cluster has {v} these days"),
         "How many nodes does {name}'s production cluster have?",
         "With {v}, a pod disruption budget keeps upgrades from taking everything down at once.",
         ("the staging cluster has {v}", ("2 nodes", "4 nodes", "1 node"))),
    Slot("salary", (("€52,000 a year", "€58,000 a year"), ("£41,000 a year", "£46,500 a year"),
                    ("$95,000 a year", "$104,000 a year")),
         ("my salary is {v}", "I earn {v}", "my pay is {v} before tax"),
         ("I got a raise, my salary is {v} now", "my salary went up to {v}", "I'm on {v} after the review"),
         "What is {name}'s salary?",
         "On {v}, maxing the employer pension match is usually the best first move.",
         ("my wife earns {v}", ("€49,000 a year", "£38,000 a year", "$88,000 a year"))),
    Slot("mortgage_rate", (("4.2%", "3.6%"), ("2.9%", "4.8%"), ("5.1%", "4.4%")),
         ("our mortgage rate is {v}", "we pay {v} on the mortgage", "the mortgage is fixed at {v}"),
         ("we remortgaged, the rate is {v} now", "the mortgage rate is {v} since the fix ended",
          "our mortgage rate went to {v}"),
         "What is {name}'s mortgage rate?",
         "At {v}, overpaying the mortgage competes directly with the savings rate you can get.",
         ("the savings account pays {v}", ("1.5%", "2.1%", "3.2%"))),
    Slot("go_version", (("Go 1.19", "Go 1.22"), ("Go 1.20", "Go 1.21"), ("Go 1.18", "Go 1.22")),
         ("our API gateway is built with {v}", "the gateway compiles with {v}", "gateway builds use {v}"),
         ("the gateway is on {v} now", "we moved the gateway to {v}", "gateway builds use {v} since last sprint"),
         "Which Go version does {name}'s API gateway use?",
         "{v} has everything this needs in the standard library.",
         ("the CLI tool still builds with {v}", ("Go 1.16", "Go 1.17", "Go 1.15"))),
    Slot("dog_weight", (("14 kg", "17 kg"), ("30 kg", "27 kg"), ("8 kg", "9.5 kg")),
         ("my dog weighs {v}", "our labrador is {v}", "the dog is about {v}"),
         ("the vet weighed my dog at {v} this week", "my dog weighs {v} now", "our labrador is {v} these days"),
         "How much does {name}'s dog weigh?",
         "For a dog of {v}, the food bag's table is a starting point; adjust by body condition.",
         ("my neighbour's dog weighs {v}", ("40 kg", "22 kg", "6 kg"))),
    Slot("commute", (("45 minutes each way", "20 minutes each way"), ("an hour each way", "25 minutes each way"),
                     ("15 minutes each way", "50 minutes each way")),
         ("my commute is {v}", "getting to the office takes me {v}", "I commute {v}"),
         ("my commute is {v} since we moved", "the commute is {v} now", "getting to work takes {v} these days"),
         "How long is {name}'s commute?",
         "With a commute of {v}, audiobooks or a language course make it count.",
         ("my partner's commute is {v}", ("10 minutes each way", "35 minutes each way", "an hour and a half"))),
    Slot("engineers", (("14 engineers", "22 engineers"), ("9 engineers", "6 engineers"), ("40 engineers", "55 engineers")),
         ("we have {v}", "engineering is {v}", "the company employs {v}"),
         ("engineering is at {v} now", "we've grown to {v}", "we're down to {v} after the layoffs"),
         "How many engineers does {name}'s company have?",
         "With {v}, a lightweight RFC process helps decisions stick.",
         ("the sales team has {v}", ("5 reps", "9 reps", "12 reps"))),
    Slot("phone", (("an iPhone 12", "a Pixel 8"), ("a Galaxy S21", "an iPhone 15"), ("a Pixel 6", "a Fairphone 5")),
         ("my phone is {v}", "I use {v}", "I'm on {v}"),
         ("I switched to {v}", "my phone is {v} now", "I've got {v} since the old one broke"),
         "What phone does {name} use?",
         "On {v}, the built-in screen time settings can do most of this.",
         ("my work phone is {v}", ("a Galaxy A54", "an iPhone SE", "a Moto G"))),
    Slot("mrr", (("$48k MRR", "$61k MRR"), ("€9,500 MRR", "€14,000 MRR"), ("$210k MRR", "$185k MRR")),
         ("we're at {v}", "the business does {v}", "revenue is {v}"),
         ("we're at {v} now", "we closed the quarter at {v}", "revenue went to {v}"),
         "What is {name}'s monthly recurring revenue?",
         "At {v}, one more salesperson should pay for themselves within two quarters.",
         ("the consulting side brings in {v}", ("$12k a month", "€3,000 a month", "$40k a month"))),
    Slot("sprint_length", (("two weeks", "three weeks"), ("one week", "two weeks"), ("three weeks", "one week")),
         ("our sprints last {v}", "a sprint is {v} for us", "we plan in sprints of {v}"),
         ("sprints last {v} now", "we changed our sprints to {v}", "a sprint is {v} since the retro"),
         "How long are {name}'s sprints?",
         "With sprints of {v}, keep the planning meeting under an hour.",
         ("the design team works in cycles of {v}", ("six weeks", "four weeks", "a month"))),
    Slot("gp", (("Dr Okafor", "Dr Lindqvist"), ("Dr Patel", "Dr Moreau"), ("Dr Hughes", "Dr Nakamura")),
         ("my GP is {v}", "I see {v} at the practice", "{v} is my doctor"),
         ("my GP is {v} now", "I changed practice, my doctor is {v}", "I see {v} since the move"),
         "Who is {name}'s GP?",
         "It's worth asking {v} for a referral letter you can keep a copy of.",
         ("my son's paediatrician is {v}", ("Dr Svensson", "Dr Adeyemi", "Dr Rossi"))),
    Slot("s3_bill", (("$730 a month", "$410 a month"), ("$2,300 a month", "$3,100 a month"),
                     ("€180 a month", "€95 a month")),
         ("our S3 bill is {v}", "storage costs us {v}", "we pay {v} for S3"),
         ("the S3 bill is {v} after the lifecycle rules", "storage is down to {v}", "we pay {v} for S3 now"),
         "How much is {name}'s S3 bill?",
         "At {v}, moving cold objects to infrequent access is the cheapest win.",
         ("the CloudFront bill is {v}", ("$120 a month", "$900 a month", "€60 a month"))),
)

# How the held-out revision is slipped in: ``{p}`` the revised phrase, ``{r}`` the request.
REVISED_STYLES: tuple[str, ...] = (
    "{R} Context in case it matters: {p}.",
    "Update: {p}. {R}",
    "{P} - anyway, {r}",
    "{R} (fwiw {p})",
    "Hey! {P}. So: {r}",
)
STATED_STYLES: tuple[str, ...] = (
    "{R} Background: {p}.",
    "Hi. {P}. {R}",
    "{R} In case it helps, {p}.",
)
