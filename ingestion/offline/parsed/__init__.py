"""Extraction over a dependency parse: the optional alternative to the regex rules (issue 51).

Needs the ``parse`` extra (spaCy and a small English CPU pipeline: ``pip install
'temporal-graph[parse]'``); nothing here is imported by the default path. Two extractors:

* :class:`ParsedExtractor`: rules over the parse alone, for the personal facts people state (where
  they live and work and as what, kin, likes), attributes with whose they are ("my sister's rent" is
  the sister's), statuses told by their verb ("Order 4471 has shipped"), and several statements in
  one sentence; it gives nothing for framed, reported, negated or asked clauses (``frames``);
* :class:`CombinedExtractor`: the regex path's facts, those the parse shows are not the speaker's
  own statement dropped, plus the parse's facts the regex path missed.

``benchmarks/extraction_parse.py`` measures both beside the regex path.
"""

from .extractor import CombinedExtractor, ParsedExtractor
from .pipeline import MODEL, available, load_pipeline

__all__ = ["MODEL", "CombinedExtractor", "ParsedExtractor", "available", "load_pipeline"]
