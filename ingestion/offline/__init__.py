"""The offline extractor: deterministic English rules for the personal facts people state in chat.

No model, no network: regular expressions over sentences, kept in tables (pattern → relation).
It is built to be precise rather than broad — a wrong fact is worse than a missing one — so it
skips questions, greetings, wishes, conditionals, hedges ("maybe", "I think of ..."), negations it
does not understand, what others say or believe ("he told me ...", "apparently ..."), jokes and
sarcasm ("yeah right", "/s", "just kidding": the whole message), and people it cannot name.

Why rules and not a parser: the closed word lists keep precision high where a parse would still
need the same lists to tell "I play the cello" from "I play it by ear"; no model download, and the
only small English parser models on the package registry are unofficial re-uploads.

What it reads:
* first person (I, we, implied "Lost my job ...") → the episode's speaker (nothing when unknown);
* third person with a capitalized name ("Zhang Wei lives in Hangzhou", "My sister Anna works at
  Google" → also the speaker HAS_SIBLING Anna);
* quoted speech → the person quoted (``Bob told me: "I live in Berlin."`` is Bob LIVES_IN Berlin,
  which the pipeline keeps as the speaker's claim); a quote whose frame names no one gives nothing;
* names keep their numbers and codes ("Terminal 1", "Apartment 3B", "Route 66"), never a count
  or a year ("Google 5 days a week" is Google);
* he / she / they → the one person named in this message or the last few turns (a kin word's
  gender must fit; two candidates or none → nothing);
* states (LIVES_IN, WORKS_AT, WORKS_AS, STUDIES_AT, MARRIED_TO, DATING, HAS_CHILD, HAS_SIBLING,
  HAS_PARENT, FRIEND_OF, HAS_PET, OWNS, LIKES, DISLIKES, ALLERGIC_TO, HAS_CONDITION, HOMETOWN,
  BORN_IN, PLAYS, HAS_HOBBY, LEARNING, DIET, PLANS, PLANS_TO_VISIT) and events (VISITED, ATTENDED,
  DID), with the time phrase as written; a plan stays a plan ("we're going camping next month" →
  PLANS "go camping"), never a done event;
* endings ("I quit Acme", "we divorced in 2020", "I moved out of Berlin", "I gave up chess") with
  kind="ending"; an ending whose object is not said nor found in the context gets ``object=""``
  ("whatever held"); a plan called off ("the Lyon plan fell through", "not moving after all") ends
  PLANS with the plan it names in the context, else with the cue itself ("Lyon", "move"), which the
  pipeline matches against the plans the memory holds (``ingestion.plans``);
* denials by the speaker ("I never worked at Globex", "I've never been to Rome", "that's not true,
  I don't live in Paris") with kind="denial", one per relation the words deny; only with no time
  phrase and the value closing the clause ("I never lived in Paris as a kid" denies nothing);
* attributes of anything ("Order 5512 status is shipped", "our rent went up to 1,450 euros a month",
  "Fitch downgraded Northwind Bank to BB+"): the relation named by the attribute, the value as said
  (``attributes``); changes of role ("left A and joined B as C", "stepped down as", "retired"), a
  move to an organisation as a new employer, life events (engaged, married, divorced, a baby, a
  degree, moving in together) and PREFERS / SPEAKS / MANAGES / REPORTS_TO / MEMBER_OF / KNOWS /
  OFTEN_VISITS / RECOMMENDS / AVOIDS; rules are tried only on clauses holding one of their verbs;
* facts told as still to come ("I'm moving to Berlin on Friday", plans) carry ``future=True``, so
  their time phrase resolves forward;
* "my brother" as a subject is the brother the speaker named in this message or the last few turns;
* corrections ("actually it was Lyon, not Paris", "sorry, I meant Lyon"), using earlier
  sentences and the context episodes to find which relation is being corrected.

A past state told without any time ("I lived in Rome") becomes LIVED_IN / WORKED_AT /
STUDIED_AT rather than an open-ended LIVES_IN; with a time ("I lived in Rome in 2019", "from
2019 to 2021") it stays LIVES_IN with time_text / end_time_text.

Importance: the extractor rates nothing itself; each fact gets its relation's importance from the
memory's ontology (the documented table in ``temporal_graph.core.ontology``, ``Ontology.importance``).

Cost is linear in the message: rules run on clauses of at most MAX_CLAUSE_CHARS characters, and
the context episodes' facts are worked out once per extraction.

The package: ``tables`` (closed word lists, word → relation), ``attributes`` (attribute
statements), ``grammar`` (regex building blocks,
the rule tables, clause and hedge patterns), ``objects`` (a match's object, cleaned), ``quotes``
(quoted speech and who said it), ``chat_doings`` (everyday things done told undated, series of them,
plans for now, passions), ``extractor`` (:class:`OfflineExtractor`, which runs the rules over
a message). A fact's sentence is worded by ``temporal_graph.core.sentences``, the memory's one
wording table.
"""


from .extractor import OfflineExtractor
from .objects import ANY_OBJECT

__all__ = ["ANY_OBJECT", "OfflineExtractor"]
