"""The task service directly, on both databases: numbering under concurrency, owner scoping."""

from __future__ import annotations

import asyncio

import pytest
from fastapi import FastAPI

from backend.domain.errors import TaskNotFoundError
from backend.models import TaskCreate, TaskStatus, TaskUpdate
from backend.services import tasks, users
from tests.conftest import unique_email


async def _new_user(app: FastAPI) -> int:
    async with app.state.sessionmaker() as session:
        user = await users.register_user(session, email=unique_email(), password="pw-12345678")
    assert user.id is not None
    return user.id


async def test_concurrent_creates_get_distinct_consecutive_numbers(app: FastAPI) -> None:
    owner = await _new_user(app)

    async def create(i: int) -> int:
        async with app.state.sessionmaker() as session:
            task = await tasks.create_task(
                session, user_id=owner, data=TaskCreate(title=f"task {i}")
            )
        return task.number

    numbers = await asyncio.gather(*(create(i) for i in range(25)))
    assert sorted(numbers) == list(range(1, 26))


async def test_concurrent_creates_for_different_users_do_not_interfere(app: FastAPI) -> None:
    owners = [await _new_user(app) for _ in range(4)]

    async def create(owner: int) -> int:
        async with app.state.sessionmaker() as session:
            return (
                await tasks.create_task(session, user_id=owner, data=TaskCreate(title="t"))
            ).number

    numbers = await asyncio.gather(*(create(owner) for owner in owners for _ in range(5)))
    for index, owner in enumerate(owners):
        assert sorted(numbers[index * 5 : index * 5 + 5]) == [1, 2, 3, 4, 5], owner


async def test_every_function_is_scoped_by_owner(app: FastAPI) -> None:
    alice, bob = await _new_user(app), await _new_user(app)
    async with app.state.sessionmaker() as session:
        await tasks.create_task(session, user_id=alice, data=TaskCreate(title="alice's"))
        assert (await tasks.list_page(session, user_id=bob)).tasks == []
        assert await tasks.count_tasks(session, user_id=bob) == 0
        for operation in (tasks.get_task, tasks.complete_task, tasks.delete_task):
            with pytest.raises(TaskNotFoundError):
                await operation(session, user_id=bob, task_id=1)
        with pytest.raises(TaskNotFoundError):
            await tasks.update_task(session, user_id=bob, task_id=1, data=TaskUpdate(title="x"))
        kept = await tasks.get_task(session, user_id=alice, task_id=1)
    assert (kept.title, kept.completed) == ("alice's", False)


async def test_status_filters_and_counts(app: FastAPI) -> None:
    owner = await _new_user(app)
    async with app.state.sessionmaker() as session:
        for title in ("a", "b", "c"):
            await tasks.create_task(session, user_id=owner, data=TaskCreate(title=title))
        await tasks.complete_task(session, user_id=owner, task_id=2)
        pending = (await tasks.list_page(session, user_id=owner, status=TaskStatus.PENDING)).tasks
        completed = await tasks.count_tasks(session, user_id=owner, status=TaskStatus.COMPLETED)
        limited = (await tasks.list_page(session, user_id=owner, limit=2)).tasks
    assert [t.title for t in pending] == ["a", "c"]
    assert completed == 1
    assert [t.number for t in limited] == [1, 2]


async def test_update_sets_updated_at_and_keeps_created_at(app: FastAPI) -> None:
    owner = await _new_user(app)
    async with app.state.sessionmaker() as session:
        task = await tasks.create_task(session, user_id=owner, data=TaskCreate(title="a"))
        created, updated = task.created_at, task.updated_at
        changed = await tasks.update_task(
            session, user_id=owner, task_id=task.number, data=TaskUpdate(description="d")
        )
    assert changed.created_at == created
    assert changed.updated_at > updated
    assert changed.updated_at.tzinfo is not None


async def test_title_search_takes_quotes_and_wildcards_literally(app: FastAPI) -> None:
    """Search patterns are inlined into the SQL (for the trigram index): quotes stay quoted,
    and % and _ match themselves only."""
    owner = await _new_user(app)
    titles = ["100% juice", "1000 juicers", "o'brien's report", "x_yz notes", "xayz notes"]
    async with app.state.sessionmaker() as session:
        for title in titles:
            await tasks.create_task(session, user_id=owner, data=TaskCreate(title=title))

    async def search(text: str) -> list[str]:
        async with app.state.sessionmaker() as session:
            found = (await tasks.list_page(session, user_id=owner, title_search=text)).tasks
        return [task.title for task in found]

    assert await search("100%") == ["100% juice"]
    assert await search("o'brien's") == ["o'brien's report"]
    assert await search("x_yz") == ["x_yz notes"]
    assert await search("'; DROP TABLE task; --") == []
    assert len(await search("juice")) == 2  # the stem "juic" finds both


async def test_a_title_search_finds_a_title_that_uses_another_word_for_the_same_thing(
    app: FastAPI,
) -> None:
    owner = await _new_user(app)
    async with app.state.sessionmaker() as session:
        for title in ("call mom", "buy milk"):
            await tasks.create_task(session, user_id=owner, data=TaskCreate(title=title))
        found = (await tasks.list_page(session, user_id=owner, title_search="my mother")).tasks
    assert [t.title for t in found] == ["call mom"]


async def test_a_title_search_finds_a_two_character_word_with_a_digit(app: FastAPI) -> None:
    owner = await _new_user(app)
    async with app.state.sessionmaker() as session:
        for title in ("finish Q4 report", "review report draft", "go to the gym"):
            await tasks.create_task(session, user_id=owner, data=TaskCreate(title=title))
        q4 = (await tasks.list_page(session, user_id=owner, title_search="the Q4 one")).tasks
        go = (await tasks.list_page(session, user_id=owner, title_search="go")).tasks
    assert [t.title for t in q4] == ["finish Q4 report"]
    assert go == []  # two letters without a digit narrow nothing
