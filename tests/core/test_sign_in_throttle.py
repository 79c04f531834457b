"""The sign-in throttle: guessing is bounded per address and per account, the owner gets in."""

from __future__ import annotations

from backend.core.limits.sign_in import SignInThrottle
from backend.core.limits.window import MemoryLimitStore

ACCOUNT = "owner@example.com"


def throttle(clock: list[float] | None = None) -> SignInThrottle:
    now = clock or [0.0]
    return SignInThrottle(MemoryLimitStore(clock=lambda: now[0]), attempts=3, window_seconds=60)


async def _guess(guard: SignInThrottle, address: str, account: str = ACCOUNT) -> int | None:
    """Tries a wrong password; the wait if refused."""
    wait = await guard.admit(address, account)
    if wait is None:
        await guard.failed(address, account)
    return wait


async def test_an_address_gets_its_count_of_wrong_passwords_then_waits() -> None:
    guard = throttle()
    assert [await _guess(guard, "attacker", f"{i}@x.example") for i in range(4)] == [
        None,
        None,
        None,
        60,
    ]


async def test_right_passwords_do_not_use_up_the_budget() -> None:
    guard = throttle()
    for _ in range(10):
        assert await guard.admit("owner", ACCOUNT) is None
        await guard.succeeded("owner")


async def test_while_an_account_is_under_attack_only_clients_that_have_not_failed_may_try() -> None:
    guard = throttle()
    for bot in ("bot-1", "bot-2", "bot-3"):
        assert await _guess(guard, bot) is None
    assert await guard.admit("bot-1", ACCOUNT) is not None  # failed here before
    assert await _guess(guard, "bot-4") is None  # a new address: one try ...
    assert await guard.admit("bot-4", ACCOUNT) is not None  # ... then it waits
    assert await guard.admit("owner", ACCOUNT) is None  # the owner elsewhere is let in
    assert await guard.admit("bot-1", "someone-else@example.com") is None


async def test_the_wait_ends_with_the_window() -> None:
    now = [0.0]
    guard = throttle(now)
    for _ in range(3):
        await _guess(guard, "attacker")
    now[0] = 30
    assert await guard.admit("attacker", ACCOUNT) == 30
    now[0] = 61
    assert await guard.admit("attacker", ACCOUNT) is None
