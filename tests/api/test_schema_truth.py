"""The OpenAPI document tells the truth: a 405 names every method documented for the path,
an integer parameter is one only when written as one, an integer in a body may be written
35450.0 (JSON Schema counts it as an integer), and every operation documents the answers the
edge can give it (413, 422, 503). tests/api/test_fuzz.py checks the same from outside."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.conftest import UserSession

_FILLERS = {"token": "a" * 43, "name": "Inbox"}


def _concrete(template: str) -> str:
    """A path the template matches: every parameter filled in."""
    path = template
    while "{" in path:
        start, end = path.index("{"), path.index("}")
        path = path[:start] + _FILLERS.get(path[start + 1 : end], "1") + path[end + 1 :]
    return path


def _documented(app: FastAPI) -> dict[str, dict[str, Any]]:
    paths: dict[str, dict[str, Any]] = app.openapi()["paths"]
    return paths


async def test_a_405_names_every_method_documented_for_its_path(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession
) -> None:
    wrong: dict[str, tuple[set[str], set[str]]] = {}
    for template, operations in _documented(app).items():
        documented = {method.upper() for method in operations}
        response = await client.request("PUT", _concrete(template), headers=user.headers)
        assert response.status_code == 405, (template, response.text)
        allowed = {method.strip() for method in response.headers["Allow"].split(",")}
        if allowed - {"HEAD"} != documented:
            wrong[template] = (allowed, documented)
    assert wrong == {}


@pytest.mark.parametrize(
    ("method", "path", "loc"),
    [
        ("DELETE", "/api/reminders?through=%0D6", ["query", "through"]),
        ("DELETE", "/api/reminders?through=6%20", ["query", "through"]),
        ("GET", "/api/conversations/1/messages?limit=1_0", ["query", "limit"]),
        ("GET", "/api/conversations/1/messages?before_id=%2B5", ["query", "before_id"]),
        ("GET", "/api/tasks/%206", ["path", "task_id"]),
        ("DELETE", "/api/reminders/1_000", ["path", "reminder_id"]),
    ],
)
async def test_an_integer_parameter_must_be_written_as_one(
    client: httpx.AsyncClient, user: UserSession, method: str, path: str, loc: list[str]
) -> None:
    response = await client.request(method, path, headers=user.headers)
    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["loc"] == loc


async def test_integer_parameters_written_as_integers_still_pass(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    assert (
        await client.delete("/api/reminders?through=6", headers=user.headers)
    ).status_code == 200
    assert (await client.get("/api/tasks/6", headers=user.headers)).status_code == 404


async def test_a_whole_number_written_with_a_fraction_is_an_integer(
    client: httpx.AsyncClient, user: UserSession
) -> None:
    chatted = await client.post(
        "/api/chat", json={"message": "hi", "conversation_id": 35450.0}, headers=user.headers
    )
    assert chatted.status_code == 404, chatted.text  # read as 35450: no such conversation
    created = await client.post(
        "/api/tasks",
        json={
            "title": "call",
            "due_date": "2030-01-02",
            "due_time": "09:00",
            "remind_before": 30.0,
        },
        headers=user.headers,
    )
    assert created.status_code == 201, created.text
    assert created.json()["remind_before"] == 30
    patched = await client.patch(
        f"/api/tasks/{created.json()['id']}", json={"remind_before": 15.0}, headers=user.headers
    )
    assert patched.json()["remind_before"] == 15


@pytest.mark.parametrize("value", [35450.5, True, "35450", float("inf")], ids=repr)
async def test_what_is_not_a_whole_number_is_still_refused(
    client: httpx.AsyncClient, user: UserSession, value: object
) -> None:
    body = {"message": "hi", "conversation_id": value}
    if value == float("inf"):
        response = await client.post(
            "/api/chat",
            content=b'{"message": "hi", "conversation_id": 1e999}',
            headers={**user.headers, "content-type": "application/json"},
        )
    else:
        response = await client.post("/api/chat", json=body, headers=user.headers)
    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["loc"] == ["body", "conversation_id"]


def _schemas(node: object) -> list[dict[str, Any]]:
    """Every schema object in the document (a dict with a "type")."""
    found = []
    pending = [node]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            if "type" in item:
                found.append(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return found


def test_bounds_are_stated_in_json_schema_words(app: FastAPI) -> None:
    # pydantic writes "ge"/"le" when it cannot map a bound (a validator before it): words no
    # JSON Schema tool reads, so the bound would go unstated.
    unread = [s for s in _schemas(app.openapi()) if {"ge", "le", "gt", "lt"} & set(s)]
    assert unread == []
    conversation = app.openapi()["components"]["schemas"]["ChatRequest"]["properties"]
    assert conversation["conversation_id"]["anyOf"][0]["minimum"] == 1


def test_every_operation_documents_the_answers_the_edge_can_give(app: FastAPI) -> None:
    # 413: the body size limit, for any request. 422: the text rule, for any header or query.
    # 503: an outage or overload, for any operation of the API that reads the database.
    missing = {}
    for template, operations in _documented(app).items():
        for method, operation in operations.items():
            expected = {"413", "422"} | ({"503"} if template.startswith("/api/") else set())
            lacking = expected - set(operation["responses"])
            if lacking:
                missing[f"{method.upper()} {template}"] = sorted(lacking)
    assert missing == {}


@pytest.mark.parametrize("message", [" ", "\n\t", "\x1c\x1f", "\x85\u3000"], ids=repr)
async def test_a_message_of_only_white_space_breaks_the_documented_pattern(
    app: FastAPI, client: httpx.AsyncClient, user: UserSession, message: str
) -> None:
    schema = app.openapi()["components"]["schemas"]["ChatRequest"]["properties"]["message"]
    assert re.search(schema["pattern"], message) is None  # as a Python generator reads it
    response = await client.post("/api/chat", json={"message": message}, headers=user.headers)
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "message"]
