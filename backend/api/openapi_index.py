"""The app's documented paths, read from its OpenAPI document: which one a request's path
fits, with its parameters, the methods documented there, and which parameters are integers.

The edge (backend/api/middleware.py, the 405 handler in backend/main.py) holds requests to
what the document says where the framework is laxer or less precise.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from starlette.routing import compile_path

# Parameter places the edge reads itself: the path and the query string.
IntegerParams = frozenset[tuple[str, str]]


@dataclass(frozen=True)
class DocumentedPath:
    template: str
    pattern: re.Pattern[str]
    # Upper-case, as an Allow header lists them.
    methods: frozenset[str]
    # Per method: the ("path" | "query", name) parameters documented as integers.
    integers: dict[str, IntegerParams]


def _is_integer(schema: dict[str, Any]) -> bool:
    """`{"type": "integer"}`, or that or null (an optional parameter)."""
    if schema.get("type") == "integer":
        return True
    options = schema.get("anyOf", [])
    kinds = {option.get("type") for option in options}
    return "integer" in kinds and kinds <= {"integer", "null"}


def _integers(operation: dict[str, Any]) -> IntegerParams:
    return frozenset(
        (parameter["in"], parameter["name"])
        for parameter in operation.get("parameters", [])
        if parameter.get("in") in ("path", "query") and _is_integer(parameter.get("schema", {}))
    )


class OpenApiIndex:
    def __init__(self, document: dict[str, Any]) -> None:
        self.paths: list[DocumentedPath] = []
        for template, operations in document.get("paths", {}).items():
            methods = {method.upper(): operation for method, operation in operations.items()}
            self.paths.append(
                DocumentedPath(
                    template=template,
                    pattern=compile_path(template)[0],
                    methods=frozenset(methods),
                    integers={method: _integers(op) for method, op in methods.items()},
                )
            )

    def find(self, path: str) -> tuple[DocumentedPath, dict[str, str]] | None:
        """The documented path `path` fits (the first, as the router tries them in the same
        order), and its parameters' values as written."""
        for documented in self.paths:
            found = documented.pattern.match(path)
            if found is not None:
                return documented, found.groupdict()
        return None


_INDEXES: weakref.WeakKeyDictionary[Any, OpenApiIndex] = weakref.WeakKeyDictionary()


def openapi_index(app: Any) -> OpenApiIndex | None:
    """The index of a FastAPI app's document (built on first use; None for other apps)."""
    if not hasattr(app, "openapi"):
        return None
    if app not in _INDEXES:
        _INDEXES[app] = OpenApiIndex(app.openapi())
    return _INDEXES[app]


def route_path(scope: Mapping[str, Any]) -> str:
    """The request's path as the app's routes see it (below any root path)."""
    path: str = scope["path"]
    return path.removeprefix(scope.get("root_path", ""))
