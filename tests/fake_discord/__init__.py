"""A loopback fake Discord (gateway + REST + attachment CDN) for end-to-end
tests of an unmodified discord.py 2.x bot. See :class:`FakeDiscord`.

Typical use::

    from tests.fake_discord import FakeDiscord, patch_discord
    from tests.fake_discord.fixtures import fake_discord, run_client  # fixtures

    async def test_ping(fake_discord):
        w = fake_discord.world
        async with run_client(MyBot(), fake_discord):
            r = await fake_discord.slash(w.alice, w.channel, "ping")
        assert r.content == "pong"
"""

from .errors import (
    CommandNotSynced,
    CommandUnavailable,
    DiscordAPIError,
    FakeDiscordError,
    InteractionFailed,
    InteractionTimeout,
    NotConnected,
)
from .interactions import ChoiceList, FakeInteraction, InteractionResult
from .models import (
    ComponentInfo,
    FakeAttachment,
    FakeChannel,
    FakeCommand,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    RecordedRequest,
)
from .patch import block_network, patch_discord, patch_urls
from .rest import Fault
from .server import FakeDiscord

__all__ = [
    "ChoiceList",
    "CommandNotSynced",
    "CommandUnavailable",
    "ComponentInfo",
    "DiscordAPIError",
    "FakeAttachment",
    "FakeChannel",
    "FakeCommand",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "Fault",
    "InteractionFailed",
    "InteractionResult",
    "InteractionTimeout",
    "NotConnected",
    "RecordedRequest",
    "block_network",
    "patch_discord",
    "patch_urls",
]
