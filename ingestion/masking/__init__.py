"""PII masking at ingestion: a message's e-mail addresses, phone numbers, national ids, payment
cards, IBANs, keys, tokens and passwords become typed placeholders (``[email]``) before the
message is stored, embedded, indexed or sent to an LLM (the policy: ``core.mask``).

``detectors`` says how each kind is written, ``checksums`` tells values from lookalikes, ``masker``
applies a policy; ``benchmarks/masking.py`` measures what survives on LoCoMo.
"""

from .masker import PLACEHOLDER, Masked, Masker, mask_text, without_masked_names

__all__ = ["PLACEHOLDER", "Masked", "Masker", "mask_text", "without_masked_names"]
