"""Which push endpoints the server will POST to (specs/notifications.md).

An endpoint is a URL a browser hands over, so anyone signed in can make the server send
requests to any address they name. Only `https` URLs on hosts whose every address is public
are taken, unless the URL's origin is in PUSH_ENDPOINT_ALLOW (a push service inside a private
network; the tests' local one). The check runs when a browser subscribes (`check_endpoint`)
and again, without DNS, before each send; at connection time `GuardedResolver` drops private
addresses a name may have come to resolve to since (DNS rebinding). IP literals never reach a
resolver, which is why the check refuses them outright, and the sender never follows
redirects.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable, Iterable, Sequence
from urllib.parse import SplitResult, urlsplit

from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.resolver import DefaultResolver

from backend.models.notifications import ENDPOINT_MAX_LENGTH

DEFAULT_PORTS = {"http": 80, "https": 443}
# A lookup that takes longer than this is taken as failed (the browser may subscribe again).
LOOKUP_TIMEOUT_SECONDS = 5.0

# Looks a host name up: its addresses, as text.
Lookup = Callable[[str, int], Awaitable[Sequence[str]]]


class EndpointRefusedError(ValueError):
    """The endpoint is not one the server will send to; the message says why, for people."""


class PrivateAddressError(OSError):
    """A push endpoint's host resolved, at connection time, only to addresses that are not
    public."""


def is_public(address: str) -> bool:
    """Whether an address is on the public internet (not loopback, private, link-local,
    shared, reserved, multicast or unspecified; an IPv4-mapped IPv6 address as its IPv4)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    # `is_global` alone admits multicast, so the other tests are spelled out.
    return ip.is_global and not (
        ip.is_multicast
        or ip.is_private
        or ip.is_reserved
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_unspecified
    )


def _is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        # Forms socket would still read as an address ("127.1", "2130706433", "0x7f.1").
        return all(part.isdigit() or part.lower().startswith("0x") for part in host.split("."))
    return True


def origin(url: str) -> str:
    """The URL's origin (scheme, host, and port unless the scheme's default), lower-case."""
    parts = urlsplit(url.strip())
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    shown = f"[{host}]" if ":" in host else host
    port = parts.port
    if port is None or port == DEFAULT_PORTS.get(scheme):
        return f"{scheme}://{shown}"
    return f"{scheme}://{shown}:{port}"


def _allowed_origins(allow: Iterable[str]) -> set[str]:
    found = set()
    for entry in allow:
        try:
            found.add(origin(entry))
        except ValueError:
            continue  # a malformed entry admits nothing
    return found


def allowed_host_ports(allow: Iterable[str]) -> set[tuple[str, int]]:
    """The (host, port) pairs the allow-list admits, as a resolver sees them."""
    pairs = set()
    for entry in _allowed_origins(allow):
        parts = urlsplit(entry)
        if parts.hostname:
            pairs.add((parts.hostname, parts.port or DEFAULT_PORTS.get(parts.scheme, 443)))
    return pairs


def _parse(url: str) -> tuple[SplitResult, str, int]:
    if len(url) > ENDPOINT_MAX_LENGTH:
        raise EndpointRefusedError(f"The endpoint is longer than {ENDPOINT_MAX_LENGTH} characters.")
    parts = urlsplit(url)
    if parts.scheme.lower() not in DEFAULT_PORTS or not parts.hostname:
        raise EndpointRefusedError("The endpoint is not a web address (https://...).")
    if "@" in parts.netloc:
        raise EndpointRefusedError("The endpoint may not carry a user name or password.")
    try:
        port = parts.port or DEFAULT_PORTS[parts.scheme.lower()]
    except ValueError as exc:
        raise EndpointRefusedError("The endpoint's port is not a valid port number.") from exc
    return parts, parts.hostname.lower().rstrip("."), port


def check_endpoint_form(url: str, allow: Iterable[str]) -> bool:
    """What can be checked without DNS (before every send); True when the allow-list
    admits the endpoint's origin (nothing more to check)."""
    parts, host, _ = _parse(url)
    if origin(url) in _allowed_origins(allow):
        return True
    if parts.scheme.lower() != "https":
        raise EndpointRefusedError("Push endpoints must use https.")
    if _is_ip_literal(host):
        raise EndpointRefusedError(
            "Push endpoints must name a host, not an IP address: the server does not send "
            "to bare addresses."
        )
    if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
        raise EndpointRefusedError(f"{host} is a local name, not a public push service.")
    return False


async def system_lookup(host: str, port: int) -> Sequence[str]:
    """The host's addresses from the system resolver."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


async def check_endpoint(url: str, allow: Iterable[str], *, lookup: Lookup | None = None) -> None:
    """Refuses (EndpointRefusedError) an endpoint the server must not send to: not https,
    with a user name, naming an IP address, or a host any of whose addresses is not public;
    unless the allow-list holds its origin."""
    if check_endpoint_form(url, allow):
        return
    _, host, port = _parse(url)
    try:
        async with asyncio.timeout(LOOKUP_TIMEOUT_SECONDS):
            addresses = await (lookup or system_lookup)(host, port)
    except (OSError, TimeoutError, UnicodeError) as exc:
        raise EndpointRefusedError(
            f"The endpoint's host {host} could not be found; try again later."
        ) from exc
    if not addresses:
        raise EndpointRefusedError(f"The endpoint's host {host} has no address.")
    if not all(is_public(address) for address in addresses):
        raise EndpointRefusedError(
            f"The endpoint's host {host} points into a private network, not to a public "
            "push service."
        )


class GuardedResolver(AbstractResolver):
    """aiohttp's resolver, keeping only public addresses (all of them for an allow-listed
    host and port): what a name resolves to when the connection is made is what counts."""

    def __init__(self, allow: Iterable[str], inner: AbstractResolver | None = None) -> None:
        self._allowed = allowed_host_ports(allow)
        self._inner = inner if inner is not None else DefaultResolver()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        found = await self._inner.resolve(host, port, family)
        if (host.lower().rstrip("."), port) in self._allowed:
            return found
        public = [result for result in found if is_public(result["host"])]
        if not public:
            raise PrivateAddressError(f"{host} resolves to no public address")
        return public

    async def close(self) -> None:
        await self._inner.close()
