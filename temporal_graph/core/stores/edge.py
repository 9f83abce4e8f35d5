"""Where a driver's exceptions become :class:`~temporal_graph.core.errors.StoreError`: once, at the edge.

Each store writes one context manager that translates its driver's exceptions (``sqlite3``,
``neo4j``) into the error tree of :mod:`temporal_graph.core.errors`, and marks every public method with
``MapErrors(that_context_manager)``. Nothing inside a store catches a driver exception to reword
it, and nothing outside a store ever sees one.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from functools import wraps
from typing import Concatenate, Generic, ParamSpec, TypeVar

S = TypeVar("S")
P = ParamSpec("P")
R = TypeVar("R")


class MapErrors(Generic[S]):
    """A method decorator: the method runs inside ``errors(store)``, which translates failures.

    Nested calls (a public method calling another) are harmless: the inner edge has already
    translated, and a :class:`StoreError` passes every edge unchanged.
    """

    def __init__(self, errors: Callable[[S], AbstractContextManager[object]]) -> None:
        self._errors = errors

    def __call__(self, method: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R]:
        errors = self._errors

        @wraps(method)
        def mapped(store: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
            with errors(store):
                return method(store, *args, **kwargs)

        return mapped
