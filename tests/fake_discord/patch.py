"""Pointing discord.py at the fake, and making sure nothing else is reached.

discord.py builds every REST URL from the class attribute
``discord.http.Route.BASE`` and opens the gateway at
``DiscordWebSocket.DEFAULT_GATEWAY`` (later at READY's ``resume_gateway_url``,
which the fake sets to itself). Swapping those two attributes is all it takes.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from typing import Any, Iterator

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1", "ip6-localhost"}


@contextlib.contextmanager
def patch_urls(api_base: str, gateway_url: str) -> Iterator[None]:
    """Set ``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``; restore them afterwards."""
    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    try:
        yield
    finally:
        Route.BASE = old_base
        DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


@contextlib.contextmanager
def patch_discord(fake: Any, *, block: bool = True) -> Iterator[Any]:
    """Point discord.py at a started :class:`FakeDiscord` (and, by default, block other hosts).

    For example (inside a test)::

        with patch_discord(fake):
            await bot.start(fake.token)
    """
    with contextlib.ExitStack() as stack:
        stack.enter_context(patch_urls(fake.api_base, fake.gateway_url))
        if block:
            stack.enter_context(block_network())
        yield fake


def _is_loopback(host: Any) -> bool:
    if host is None:
        return True
    if isinstance(host, bytes):
        host = host.decode()
    host = str(host)
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@contextlib.contextmanager
def block_network() -> Iterator[None]:
    """Refuse name lookups and TCP/UDP connects to anything but loopback.

    A safety net: if a patch is missed, a test fails with a clear error
    instead of talking to the real Discord. Unix sockets are allowed.
    """
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def guard(sock: socket.socket, address: Any) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address[0]):
            raise ConnectionRefusedError(f"fake_discord.block_network: connection to {address!r} refused in tests")

    def connect(sock: socket.socket, address: Any) -> None:
        guard(sock, address)
        return real_connect(sock, address)

    def connect_ex(sock: socket.socket, address: Any) -> int:
        guard(sock, address)
        return real_connect_ex(sock, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if not _is_loopback(host):
            raise socket.gaierror(socket.EAI_NONAME, f"fake_discord.block_network: lookup of {host!r} refused in tests")
        return real_getaddrinfo(host, *args, **kwargs)

    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]
    socket.getaddrinfo = getaddrinfo
    try:
        yield
    finally:
        socket.socket.connect = real_connect  # type: ignore[method-assign]
        socket.socket.connect_ex = real_connect_ex  # type: ignore[method-assign]
        socket.getaddrinfo = real_getaddrinfo
