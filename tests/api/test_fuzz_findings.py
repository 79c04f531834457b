"""What random fuzzing found, kept as fixed examples (scripts/explore_api.py says how they
get here): each request the fuzzer once failed on, and the answer it must get now, on both
databases. A new finding is a new row: the request as Schemathesis's `curl` line shows it,
the status it must get, and where the 422 must point if it is one."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tests.conftest import UserSession


@dataclass(frozen=True)
class Finding:
    found: str  # the run that found it, and what was wrong
    method: str
    path: str
    # Raw JSON text, as the fuzzer sent it (escapes and all).
    body: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    status: int = 200
    # For a 422: the `loc` of its first error.
    loc: tuple[str | int, ...] | None = None
    # For a 405: the methods the Allow header must name (HEAD aside).
    allow: frozenset[str] | None = None

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


FINDINGS = [
    Finding(
        "issue 30, item 9: a 500 on PostgreSQL, a 200 on SQLite",
        "GET",
        "/api/tasks?list=%00",
        status=422,
        loc=("query", "list"),
    ),
    Finding("issue 30, item 9", "GET", "/api/tasks?tag=%00", status=422, loc=("query", "tag")),
    Finding("issue 30, item 9", "GET", "/api/tasks?q=a%00", status=422, loc=("query", "q")),
    Finding(
        "seed 27: ST201, an integer parameter written '\\r6' was read as 6",
        "DELETE",
        "/api/reminders?through=%0D6",
        status=422,
        loc=("query", "through"),
    ),
    Finding(
        "seed 27: ST202, a NUL refused by the field's own check, schema-valid to the fuzzer",
        "POST",
        "/api/chat/stream",
        body='{".exe": [{"__dict__": null}], "conversation_id": 1, '
        '"message": "P\\u00f9|\\u0000\\u00fd\\u0088Q1"}',
        headers={"Idempotency-Key": "fuzz-key-1"},
        status=422,
        loc=("body", "message"),
    ),
    Finding(
        "seed 27: ST202, 709.0 refused where the schema says integer",
        "POST",
        "/api/{user_id}/chat",
        body='{"\\u00ebz\\u008f": [true, [-6553558575168059604992, null]], '
        '"G": {"\\udb60\\udd0a": null}, "conversation_id": 709.0, "message": ":\\u00f2\\u00e6"}',
        headers={"Idempotency-Key": "fuzz-key-2"},
        status=404,  # read as conversation 709, which the account does not have
    ),
    Finding(
        "issue 30, item 10: conversation_id 35450.0 refused by StrictInt",
        "POST",
        "/api/chat",
        body='{"message": "hi", "conversation_id": 35450.0}',
        status=404,
    ),
    Finding(
        "seed 27 (after the fixes above): ST101, a 500 for a completion given with a remind_at",
        "PATCH",
        "/api/tasks/1",
        body='{"\\u009ex": [1705009768766140.0, false], "remind_at": "2094-09-13T00:21:00.79547Z", '
        '"tags": [], "remind_before": null, "priority": "low", "title": "seed", '
        '"due_time": null, "completed": true, "repeat_from": "schedule"}',
        status=200,
    ),
    Finding(
        "seed 27 (after the fixes above): ST202, conversation_id 0 was schema-valid (the bound "
        "was written 'ge', which JSON Schema does not read)",
        "POST",
        "/api/chat",
        body='{"message": "0", "conversation_id": 0}',
        status=422,
        loc=("body", "conversation_id"),
    ),
    *(
        Finding(
            f"seed 27: ST205, OPTIONS {path} named only the first route's methods",
            "OPTIONS",
            path,
            status=405,
            allow=frozenset(methods),
        )
        for path, methods in [
            ("/api/auth/me", {"GET", "PATCH"}),
            ("/api/calendar/feed", {"GET", "POST", "DELETE"}),
            ("/api/lists", {"GET", "POST"}),
            ("/api/lists/Inbox", {"PATCH", "DELETE"}),
            ("/api/reminders", {"GET", "DELETE"}),
            ("/api/tasks", {"GET", "POST"}),
            ("/api/tasks/1", {"GET", "PATCH", "DELETE"}),
        ]
    ),
]


@pytest.mark.parametrize("finding", FINDINGS, ids=str)
async def test_a_request_the_fuzzer_once_failed_on_gets_its_documented_answer(
    client: httpx.AsyncClient, user: UserSession, finding: Finding
) -> None:
    # Something to find: the account's task 1.
    seeded = await client.post("/api/tasks", json={"title": "seed"}, headers=user.headers)
    assert seeded.status_code == 201
    path = finding.path.replace("{user_id}", str(user.id))
    headers = {**user.headers, **finding.headers}
    if finding.body is not None:
        headers["content-type"] = "application/json"
    # A fresh key per run: a retried turn would get the stored reply instead.
    if "Idempotency-Key" in headers:
        headers["Idempotency-Key"] += f"-{user.id}"
    response = await client.request(
        finding.method,
        path,
        content=finding.body.encode() if finding.body is not None else None,
        headers=headers,
    )
    assert response.status_code == finding.status, (finding.found, response.text)
    body: Any = response.json()
    if finding.loc is not None:
        assert tuple(body["detail"][0]["loc"]) == finding.loc
    if finding.allow is not None:
        allowed = {method.strip() for method in response.headers["Allow"].split(",")}
        assert allowed - {"HEAD"} == finding.allow
