"""Password-guessing throttle for sign-in, which never locks the owner out of an account.

Three budgets, each `attempts` per window:

- per client address, the sign-ins it may try and get wrong (any accounts): a try is reserved
  before the password is checked, so concurrent guesses cannot outrun the count, and handed
  back when the password was right;
- per account, the wrong passwords it may receive from anywhere; past that the account is
  under attack, and
- per address and account, whether this client has failed on this account: while the account
  is under attack, a client that has failed on it waits, and any other client, the owner on
  another device or network, still signs in (one try each, until it fails).

So one address guesses at most `attempts` passwords per window, and many addresses together
at most `attempts` on an account plus one each.
"""

from __future__ import annotations

from backend.core.limits.window import Limit, LimitStore


class SignInThrottle:
    def __init__(self, store: LimitStore, *, attempts: int, window_seconds: float) -> None:
        self._store = store
        self._per_address = Limit("sign-in-address", attempts, window_seconds)
        self._per_account = Limit("sign-in-account", attempts, window_seconds)
        self._failed_here = Limit("sign-in-failed", 1, window_seconds)

    async def admit(self, address: str, account: str) -> int | None:
        """Reserves a try at `account` for `address`; returns the seconds to wait instead if
        the address is out of tries, or has failed on this account while it is under attack."""
        under_attack = await self._store.wait(self._per_account, account)
        if under_attack is not None:
            failed_here = await self._store.wait(self._failed_here, f"{address}|{account}")
            if failed_here is not None:
                # Either ending lets this client try again.
                return min(under_attack, failed_here)
        return await self._store.hit(self._per_address, address)

    async def failed(self, address: str, account: str) -> None:
        """Counts a wrong password (the address's reserved try stays spent)."""
        await self._store.hit(self._per_account, account)
        await self._store.hit(self._failed_here, f"{address}|{account}")

    async def succeeded(self, address: str) -> None:
        """Hands back the address's reserved try: only wrong passwords use up its budget."""
        await self._store.refund(self._per_address, address)


class SignInAttempt:
    """An admitted try, whose outcome the caller reports once the password is checked."""

    def __init__(self, throttle: SignInThrottle, address: str, account: str) -> None:
        self._throttle, self._address, self._account = throttle, address, account

    async def failed(self) -> None:
        await self._throttle.failed(self._address, self._account)

    async def succeeded(self) -> None:
        await self._throttle.succeeded(self._address)
