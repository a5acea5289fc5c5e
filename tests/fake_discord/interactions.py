"""Interactions: the server-side record (:class:`FakeInteraction`), what a test
gets back (:class:`InteractionResult`), and building ``data.options`` /
``data.resolved`` from the command definitions the bot synced.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import CommandUnavailable, InteractionFailed, InteractionTimeout
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

if TYPE_CHECKING:  # pragma: no cover
    from .server import FakeDiscord

# Interaction types.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# Callback (response) types.
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = (
    1, 4, 5, 6, 7, 8, 9,
)
ALLOWED_CALLBACKS = {
    PING: {PONG},
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE},
}


@dataclass(eq=False)
class FakeInteraction:
    """Everything about one interaction the fake dispatched, and how the bot answered it."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    guild: FakeGuild | None
    data: dict[str, Any]
    payload: dict[str, Any]
    application_id: int
    dispatched_at: float
    name: str | None = None
    message: FakeMessage | None = None
    #: the first accepted callback's type (None while unanswered)
    callback_type: int | None = None
    #: seconds from dispatch to the first callback request (accepted or not)
    latency: float | None = None
    #: whether a callback came after the deadline (answered 404 10062)
    late: bool = False
    #: every callback request, in order, accepted or not
    callbacks: list[RecordedRequest] = field(default_factory=list)
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    #: refused callback/webhook requests: (status, code, message)
    errors: list[tuple[int, int, str]] = field(default_factory=list)
    future: asyncio.Future["InteractionResult"] | None = None
    #: for a modal submit, the interaction whose response showed the modal
    triggered_by: "FakeInteraction | None" = None
    deadline_handle: asyncio.TimerHandle | None = None

    @property
    def acknowledged(self) -> bool:
        """Whether a callback was accepted."""
        return self.callback_type is not None

    @property
    def deferred(self) -> bool:
        """Whether the accepted callback was a deferral (5 or 6)."""
        return self.callback_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE)

    @property
    def done(self) -> bool:
        """Whether the test-facing result is settled."""
        return self.future is not None and self.future.done()

    def metadata(self) -> dict[str, Any]:
        """``interaction_metadata`` of messages this interaction produced."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "user": self.user.payload(),
            "authorizing_integration_owners": self.payload.get("authorizing_integration_owners", {}),
        }
        if self.type == APPLICATION_COMMAND:
            data["name"] = self.name
            data["command_type"] = self.data.get("type", 1)
        if self.triggered_by is not None:  # a modal submit: the interaction that showed the modal
            data["triggering_interaction_metadata"] = self.triggered_by.metadata()
        elif self.message is not None:
            data["interacted_message_id"] = str(self.message.id)
        if self.original is not None and self.original is not self.message:
            data["original_response_message_id"] = str(self.original.id)
        return data

    def legacy_metadata(self) -> dict[str, Any]:
        """The deprecated ``interaction`` field of messages."""
        return {"id": str(self.id), "type": self.type, "name": self.name or "", "user": self.user.payload()}

    def callback_payload(self, message: FakeMessage | None, response_type: int) -> dict[str, Any]:
        """The ``?with_response=true`` body: ``{"interaction": …, "resource": …}``."""
        inter: dict[str, Any] = {"id": str(self.id), "type": self.type}
        if message is not None:
            inter["response_message_id"] = str(message.id)
            inter["response_message_loading"] = message.loading
            inter["response_message_ephemeral"] = message.ephemeral
        body: dict[str, Any] = {"interaction": inter}
        # The spec's resource is the message made or updated (types 4, 7) or an activity (12); nothing else.
        if response_type in (CHANNEL_MESSAGE, UPDATE_MESSAGE) and message is not None:
            body["resource"] = {"type": response_type, "message": message.payload()}
        return body

    def describe(self) -> str:
        """One line for error messages."""
        what = {APPLICATION_COMMAND: f"/{self.name}", MESSAGE_COMPONENT: f"component {self.data.get('custom_id')!r}",
                AUTOCOMPLETE: f"autocomplete of /{self.name}", MODAL_SUBMIT: f"modal {self.data.get('custom_id')!r}"}
        return f"interaction {self.id} ({what.get(self.type, self.type)} by {self.user.name})"

    def summary(self) -> str:
        """What happened so far, for timeout messages."""
        parts = []
        if self.callback_type is None:
            parts.append("no accepted callback")
        else:
            parts.append(f"callback type {self.callback_type} after {self.latency:.3f}s")
        if self.errors:
            parts.append("refused: " + "; ".join(f"{s} {c} {m}" for s, c, m in self.errors))
        if self.followups:
            parts.append(f"{len(self.followups)} follow-up(s)")
        return ", ".join(parts)

    # ---- resolution

    def resolve(self, message: FakeMessage | None) -> None:
        """Settle the test-facing result (first final answer wins)."""
        if self.future is not None and not self.future.done():
            self.future.set_result(InteractionResult(self, message))
        if self.deadline_handle is not None:
            self.deadline_handle.cancel()

    def fail(self, message: str) -> None:
        """Settle the test-facing result with :class:`InteractionFailed`."""
        if self.future is not None and not self.future.done():
            self.future.set_exception(InteractionFailed(f"{self.describe()}: {message}", self))

    async def wait(self, timeout: float) -> "InteractionResult":
        """Wait for the final answer; :class:`InteractionTimeout` with a summary if none comes."""
        assert self.future is not None
        try:
            return await asyncio.wait_for(asyncio.shield(self.future), timeout)
        except asyncio.TimeoutError:
            raise InteractionTimeout(
                f"{self.describe()} got no final answer within {timeout}s: {self.summary()}", self
            ) from None


class InteractionResult:
    """The answer to an interaction, as the user would see it when it settled.

    ``content``/``embeds``/``components``/``attachments``/``flags`` are a
    snapshot taken when the answer arrived; :attr:`message` is the live
    message (later edits show there); :attr:`followups` is live too.
    """

    def __init__(self, interaction: FakeInteraction, message: FakeMessage | None) -> None:
        self.interaction = interaction
        self.message = message
        self.type: int | None = interaction.callback_type
        self.latency: float | None = interaction.latency
        self.choices: list[dict[str, Any]] | None = interaction.choices
        self.modal: dict[str, Any] | None = interaction.modal
        self.content: str | None = message.content if message is not None else None
        self.embeds: list[dict[str, Any]] = [dict(e) for e in message.embeds] if message is not None else []
        self.flags: int = message.flags if message is not None else 0
        self.attachments: dict[str, bytes] = dict(message.files) if message is not None else {}
        self.components: list[ComponentInfo] = list(message.component_list) if message is not None else []

    @property
    def ephemeral(self) -> bool:
        """Whether the answer is only visible to the user (flags & 64)."""
        return bool(self.flags & 64)

    @property
    def custom_ids(self) -> list[str]:
        """custom_ids of the answer's components."""
        return [c.custom_id for c in self.components if c.custom_id]

    @property
    def labels(self) -> list[str]:
        """Labels of the answer's buttons."""
        return [c.label for c in self.components if c.label]

    @property
    def followups(self) -> list[FakeMessage]:
        """Follow-up messages (live list)."""
        return self.interaction.followups

    @property
    def messages(self) -> list[FakeMessage]:
        """The resulting message (if any) and the follow-ups."""
        out = [self.message] if self.message is not None else []
        return out + [m for m in self.followups if m is not self.message]

    @property
    def embed(self) -> dict[str, Any] | None:
        """The first embed, if any."""
        return self.embeds[0] if self.embeds else None

    def __repr__(self) -> str:
        return f"<InteractionResult type={self.type} ephemeral={self.ephemeral} content={self.content!r}>"


class ChoiceList(list):
    """Autocomplete choices (``[{"name", "value"}, …]``) plus the interaction they answered."""

    interaction: FakeInteraction

    @property
    def names(self) -> list[str]:
        """Choice names."""
        return [c["name"] for c in self]

    @property
    def values(self) -> list[Any]:
        """Choice values."""
        return [c["value"] for c in self]


# --------------------------------------------------------------------------- options


def find_subcommand(command: FakeCommand, path: list[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Walk ``["group", "sub"]`` into the definition.

    Returns (the leaf's option definitions, the nesting chain of sub-command
    definitions) so the caller can wrap the leaf options in type 1/2 options.
    """
    defs = command.options
    chain: list[dict[str, Any]] = []
    for part in path:
        match = next((o for o in defs if o.get("name") == part and o.get("type") in (1, 2)), None)
        if match is None:
            names = [o["name"] for o in defs if o.get("type") in (1, 2)]
            raise CommandUnavailable(f"/{command.name} has no sub-command {part!r} (synced: {names})")
        chain.append(match)
        defs = match.get("options") or []
    if any(o.get("type") in (1, 2) for o in defs):
        names = [o["name"] for o in defs if o.get("type") in (1, 2)]
        raise CommandUnavailable(f"/{command.name} {' '.join(path)} needs a sub-command: one of {names}")
    return defs, chain


def wrap_subcommands(chain: list[dict[str, Any]], leaf: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Nest leaf options inside sub-command/group options, innermost last."""
    options = leaf
    for definition in reversed(chain):
        options = [{"type": definition["type"], "name": definition["name"], "options": options}]
    return options


class OptionBuilder:
    """Turns Python values into ``data.options`` + ``data.resolved`` like Discord's client does."""

    def __init__(self, fake: "FakeDiscord", guild: FakeGuild | None, channel: FakeChannel,
                 member: FakeMember | None = None) -> None:
        self.fake = fake
        self.guild = guild
        self.channel = channel
        self.member = member
        self.resolved: dict[str, dict[str, Any]] = {}

    def build(self, command: FakeCommand, defs: list[dict[str, Any]], values: dict[str, Any],
              focused: str | None = None) -> list[dict[str, Any]]:
        """Options in definition order; strict for commands, lenient for autocomplete."""
        by_name = {d["name"]: d for d in defs}
        unknown = set(values) - set(by_name)
        if focused is not None and focused not in by_name:
            unknown.add(focused)
        if unknown:
            raise CommandUnavailable(
                f"/{command.name} has no option(s) {sorted(unknown)}; synced options: {list(by_name)}"
            )
        options = []
        for definition in defs:
            name = definition["name"]
            if name == focused:
                raw = values.get(name, "")
                options.append({"type": definition["type"], "name": name, "value": raw, "focused": True})
                continue
            if name not in values:
                if definition.get("required") and focused is None:
                    raise CommandUnavailable(f"/{command.name}: required option {name!r} missing")
                continue
            value = self.convert(command, definition, values[name], strict=focused is None)
            options.append({"type": definition["type"], "name": name, "value": value})
        return options

    def convert(self, command: FakeCommand, definition: dict[str, Any], value: Any, *, strict: bool) -> Any:
        """One option value in wire form; raises if Discord's client would not allow it."""
        otype, name = definition["type"], definition["name"]
        where = f"/{command.name} option {name!r}"
        if otype in (3, 4, 10) and definition.get("choices"):
            choices = definition["choices"]
            for choice in choices:
                if choice["value"] == value:
                    break
            else:
                by_name = {c["name"]: c["value"] for c in choices}
                if value in by_name:
                    value = by_name[value]
                elif strict:
                    raise CommandUnavailable(f"{where}: {value!r} is not one of the choices {list(by_name.values())}")
        if otype == 3:
            if not isinstance(value, str):
                raise TypeError(f"{where} is a string option, got {value!r}")
            lo, hi = definition.get("min_length", 0), definition.get("max_length", 6000)
            if strict and not lo <= len(value) <= hi:
                raise CommandUnavailable(f"{where}: length must be {lo}..{hi}")
            return value
        if otype in (4, 10):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or (otype == 4 and not isinstance(value, int)):
                raise TypeError(f"{where} is a {'integer' if otype == 4 else 'number'} option, got {value!r}")
            lo, hi = definition.get("min_value"), definition.get("max_value")
            if strict and ((lo is not None and value < lo) or (hi is not None and value > hi)):
                raise CommandUnavailable(f"{where}: {value} is outside {lo}..{hi}")
            return value
        if otype == 5:
            if not isinstance(value, bool):
                raise TypeError(f"{where} is a boolean option, got {value!r}")
            return value
        if otype == 6:
            return self._user(value)
        if otype == 7:
            return self._channel(value, definition, where)
        if otype == 8:
            return self._role(value)
        if otype == 9:
            return self._role(value) if isinstance(value, FakeRole) else self._user(value)
        if otype == 11:
            return self._attachment(value)
        raise TypeError(f"{where}: unsupported option type {otype}")

    def _user(self, value: Any) -> str:
        user = self.fake.get_user(value)
        self.resolved.setdefault("users", {})[str(user.id)] = user.payload()
        member = self.guild.member(user) if self.guild is not None else None
        if member is not None:
            self.resolved.setdefault("members", {})[str(user.id)] = member.payload(with_user=False, with_permissions=True)
        return str(user.id)

    def _role(self, value: Any) -> str:
        if not isinstance(value, FakeRole):
            raise TypeError(f"expected a FakeRole, got {value!r}")
        self.resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)

    def _channel(self, value: Any, definition: dict[str, Any], where: str) -> str:
        channel = value if isinstance(value, FakeChannel) else self.fake.get_channel(int(value))
        allowed = definition.get("channel_types")
        if allowed and channel.type not in allowed:
            raise CommandUnavailable(f"{where}: channel type {channel.type} not in {allowed}")
        data = channel.payload()
        # Discord sends the invoking member's permissions in that channel (no overwrites modelled).
        data["permissions"] = str(self.member.permissions.value) if self.member is not None else "0"
        self.resolved.setdefault("channels", {})[str(channel.id)] = data
        return str(channel.id)

    def _attachment(self, value: Any) -> str:
        if isinstance(value, FakeAttachment):
            att = value
        else:
            filename, data = value
            att = self.fake.store_attachment(self.channel, filename, data, ephemeral=True)
        self.resolved.setdefault("attachments", {})[str(att.id)] = att.payload()
        return str(att.id)
