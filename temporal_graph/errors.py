"""Public home of the error classes (they live in :mod:`temporal_graph.core.errors`)."""

from .core.errors import (
    ConnectionLost,
    ConstraintViolation,
    ImportFormatError,
    InvalidGroup,
    InvalidIdentifier,
    InvalidInput,
    InvalidInterval,
    InvalidName,
    InvalidTime,
    LLMError,
    LLMOutputError,
    LLMUnavailable,
    MissingExtra,
    NotFound,
    StoreClosed,
    StoreError,
    StoreLocked,
    TemporalGraphError,
)

__all__ = [
    "ConnectionLost", "ConstraintViolation", "ImportFormatError", "InvalidGroup", "InvalidIdentifier",
    "InvalidInput", "InvalidInterval", "InvalidName", "InvalidTime", "LLMError", "LLMOutputError",
    "LLMUnavailable", "MissingExtra", "NotFound", "StoreClosed", "StoreError", "StoreLocked",
    "TemporalGraphError",
]
