from __future__ import annotations

import httpx


async def test_healthz_says_ok(client: httpx.AsyncClient) -> None:
    response = await client.get("/healthz")
    assert response.json() == {"status": "ok"}


async def test_readyz_names_database_and_brain_and_the_rules_need_no_model(
    client: httpx.AsyncClient, database_url: str
) -> None:
    response = await client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "sqlite" if database_url.startswith("sqlite") else "postgresql",
        "brain": "rules",
        "model": "ok",  # the rule engine: nothing to reach, no network
    }


async def test_openapi_documents_the_public_endpoints(client: httpx.AsyncClient) -> None:
    paths = (await client.get("/openapi.json")).json()["paths"]
    for path in [
        "/api/auth/register",
        "/api/auth/login",
        "/api/auth/me",
        "/api/chat",
        "/api/{user_id}/chat",
        "/api/tasks",
        "/api/tasks/{task_id}",
        "/api/conversations",
        "/api/conversations/{conversation_id}/messages",
        "/healthz",
        "/readyz",
    ]:
        assert path in paths, path
    assert (await client.get("/docs")).status_code == 200
