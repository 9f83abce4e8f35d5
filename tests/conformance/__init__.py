"""The conformance suite: the same behaviour checks, run against every store."""
