"""The in-memory limit store: fixed windows from a key's first hit, bounded memory."""

from __future__ import annotations

from backend.core.limits.window import Limit, MemoryLimitStore

TWO_PER_TEN = Limit("test", 2, 10)


async def test_a_window_allows_its_count_then_says_how_long_to_wait() -> None:
    now = [0.0]
    store = MemoryLimitStore(clock=lambda: now[0])
    assert await store.hit(TWO_PER_TEN, "k") is None
    now[0] = 4
    assert await store.hit(TWO_PER_TEN, "k") is None
    assert await store.hit(TWO_PER_TEN, "k") == 6  # the window opened at t=0 ends at t=10
    assert await store.wait(TWO_PER_TEN, "k") == 6
    now[0] = 10.5
    assert await store.wait(TWO_PER_TEN, "k") is None
    assert await store.hit(TWO_PER_TEN, "k") is None


async def test_other_limits_and_subjects_have_budgets_of_their_own() -> None:
    store = MemoryLimitStore()
    for _ in range(2):
        assert await store.hit(TWO_PER_TEN, "k") is None
    assert await store.hit(TWO_PER_TEN, "k") is not None
    assert await store.hit(Limit("other", 2, 10), "k") is None
    assert await store.hit(Limit("test", 3, 10), "k") is None  # reconfigured: counts afresh
    assert await store.hit(TWO_PER_TEN, "j") is None


async def test_a_refund_gives_back_one_hit_of_the_current_window() -> None:
    store = MemoryLimitStore()
    for _ in range(2):
        await store.hit(TWO_PER_TEN, "k")
    await store.refund(TWO_PER_TEN, "k")
    assert await store.wait(TWO_PER_TEN, "k") is None
    assert await store.hit(TWO_PER_TEN, "k") is None
    assert await store.hit(TWO_PER_TEN, "k") is not None


async def test_waiting_counts_nothing() -> None:
    store = MemoryLimitStore()
    for _ in range(5):
        assert await store.wait(TWO_PER_TEN, "k") is None
    assert await store.hit(TWO_PER_TEN, "k") is None


async def test_the_store_forgets_idle_keys_to_bound_memory() -> None:
    now = [0.0]
    store = MemoryLimitStore(clock=lambda: now[0], max_keys=3)
    one_per_second = Limit("test", 1, 1)
    for key in "abc":
        await store.hit(one_per_second, key)
    now[0] = 5
    await store.hit(one_per_second, "d")
    assert await store.wait(one_per_second, "a") is None
    assert len(store) <= 3


def test_keys_hold_no_subject_in_clear_and_have_one_length() -> None:
    short, long = TWO_PER_TEN.key("1.2.3.4"), TWO_PER_TEN.key("someone@example.com" * 10)
    assert short.startswith("test/2/10:") and "1.2.3.4" not in short
    assert "example.com" not in long
    assert len(short) == len(long)
