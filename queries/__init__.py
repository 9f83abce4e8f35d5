"""The read side beyond plain temporal lookups (those are :mod:`temporal_graph.core.reads`). Every
function takes the typed :class:`~temporal_graph.core.Core`, never the ``TemporalGraph`` facade,
which imports them. Records are embedded when written (``temporal_graph.core.embeddings``); a read
encodes only its query.

- :mod:`queries.paths`: multi-hop chains of facts valid at one time, or overlapping in time.
- :mod:`queries.search`: hybrid retrieval (BM25 + embeddings + graph neighbourhood, fused by RRF).
- :mod:`queries.context`: a dated memory block for a prompt, within a token budget.
- :mod:`queries.ask`: questions answered from cited facts (LLM-planned or by rules), or "I don't know",
  as plan -> run -> answer: :mod:`queries.plan` (the plan, data only), :mod:`queries.planning` (making
  it, from :mod:`queries.question` and :mod:`queries.question_time`), :mod:`queries.answering` (running
  it per question kind, reading through :mod:`queries.hops`) and :mod:`queries.answer_text` (dates at
  their precision, durations).
"""
