"""Each worker's rendered calendar feeds (backend/services/calendar_feed.py): a copy serves
only its own version, one rendering serves everyone waiting for it, and the copies kept stay
within their budget."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from backend.services.calendar_feed import FeedCache, FeedVersion


def _version(feed: str, tasks: int = 1) -> FeedVersion:
    return FeedVersion(feed, 1, "UTC", tasks, datetime(2030, 1, 1, tzinfo=UTC), tasks)


class _Renderer:
    def __init__(self, size: int = 10) -> None:
        self.calls = 0
        self.size = size
        self.gate = asyncio.Event()
        self.gate.set()

    async def __call__(self) -> bytes:
        self.calls += 1
        await self.gate.wait()
        return bytes([self.calls]) * self.size


async def test_a_copy_serves_its_version_and_a_new_version_is_rendered_anew() -> None:
    cache, render = FeedCache(max_bytes=1000), _Renderer()
    first = await cache.document(_version("a"), render)
    assert await cache.document(_version("a"), render) == first
    assert render.calls == 1
    assert await cache.document(_version("a", tasks=2), render) != first
    assert render.calls == 2
    assert cache.size_bytes == 10  # the old copy was replaced, not kept beside the new one


async def test_requests_for_a_version_being_rendered_share_that_one_rendering() -> None:
    cache, render = FeedCache(max_bytes=1000), _Renderer()
    render.gate.clear()
    waiting = [asyncio.create_task(cache.document(_version("a"), render)) for _ in range(5)]
    await asyncio.sleep(0)  # every request has asked
    render.gate.set()
    assert len({await request for request in waiting}) == 1
    assert render.calls == 1


async def test_a_rendering_goes_on_for_the_others_when_one_client_hangs_up() -> None:
    cache, render = FeedCache(max_bytes=1000), _Renderer()
    render.gate.clear()
    leaving = asyncio.create_task(cache.document(_version("a"), render))
    staying = asyncio.create_task(cache.document(_version("a"), render))
    await asyncio.sleep(0)
    leaving.cancel()
    render.gate.set()
    assert await staying == bytes([1]) * 10
    assert render.calls == 1


async def test_the_copies_kept_stay_within_the_budget_the_least_recently_served_going_first() -> (
    None
):
    cache, render = FeedCache(max_bytes=25), _Renderer(size=10)
    await cache.document(_version("a"), render)
    await cache.document(_version("b"), render)
    await cache.document(_version("a"), render)  # a served again: b is now the oldest
    await cache.document(_version("c"), render)
    assert cache.size_bytes == 20
    calls = render.calls
    await cache.document(_version("a"), render)
    assert render.calls == calls  # kept
    await cache.document(_version("b"), render)
    assert render.calls == calls + 1  # dropped, rendered again


async def test_a_document_larger_than_the_budget_is_served_but_not_kept() -> None:
    cache, render = FeedCache(max_bytes=5), _Renderer(size=10)
    assert len(await cache.document(_version("a"), render)) == 10
    assert cache.size_bytes == 0
    await cache.document(_version("a"), render)
    assert render.calls == 2
