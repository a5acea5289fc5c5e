"""REST API of the fake: request recording, fault injection, auth, routing,
and the handlers for every route a discord.py bot typically uses.

Handlers take ``(fake, req, **path_params)`` and return ``(status, body)``
(``body=None`` → 204) or raise :class:`DiscordAPIError`. Every request —
matched or not — is appended to ``fake.requests``.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import json
import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from aiohttp import web

from .errors import DiscordAPIError, form_error, under, unknown
from .interactions import (
    ALLOWED_CALLBACKS,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    MODAL,
    UPDATE_MESSAGE,
    FakeInteraction,
)
from .models import (
    FLAG_EPHEMERAL,
    FLAG_HAS_THREAD,
    FLAG_LOADING,
    GUILD_TEXT,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    FakeChannel,
    FakeMessage,
    RecordedRequest,
    UploadedFile,
    utcnow,
)
from .openapi import spec
from .ratelimits import limited
from .validation import THREAD_ARCHIVE_DURATIONS, check_limits

if TYPE_CHECKING:  # pragma: no cover
    from .server import FakeDiscord

Reply = tuple[int, Any]
Handler = Callable[..., Awaitable[Reply]]


@dataclass
class ApiRequest:
    """A parsed request, its record, and work to run once the answer is on the wire."""

    record: RecordedRequest
    after: list[Callable[[], None]] = field(default_factory=list)

    @property
    def json(self) -> Any:
        """The JSON body (``payload_json`` for multipart)."""
        return self.record.json

    @property
    def body(self) -> dict[str, Any]:
        """The JSON body as a dict ({} if absent)."""
        return self.record.json if isinstance(self.record.json, dict) else {}

    @property
    def files(self) -> list[UploadedFile]:
        """Uploaded files."""
        return self.record.files

    @property
    def query(self) -> dict[str, str]:
        """Query parameters."""
        return self.record.query

    def flag(self, name: str) -> bool:
        """A boolean query parameter (``true``/``1``)."""
        return self.query.get(name, "").lower() in ("1", "true")


@dataclass
class Fault:
    """An injected failure: the next ``times`` requests matching ``pattern`` get ``status``.

    ``applied``: the request takes effect first and only its answer is the error, as when a
    proxy in front of Discord times out (502/504) after the API did the work.
    """

    pattern: re.Pattern[str]
    status: int
    times: int
    retry_after: float
    is_global: bool = False
    applied: bool = False
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        """Whether it applies to ``"METHOD /path"`` (regex search) and has uses left."""
        return self.hits < self.times and bool(self.pattern.search(f"{method} {path}"))

    def response(self) -> web.Response:
        """A 5xx or a 429 with Discord's rate-limit headers and body."""
        self.hits += 1
        if self.status == 429:
            bucket = {"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                      "X-RateLimit-Reset": f"{time.time() + self.retry_after:.3f}",
                      "X-RateLimit-Reset-After": f"{self.retry_after:.3f}", "X-RateLimit-Bucket": "fakefaultbucket"}
            return limited(self.retry_after, is_global=self.is_global, bucket_headers=None if self.is_global else bucket)
        body = {"message": "500: Internal Server Error", "code": 0} if self.status < 600 else {}
        return web.Response(status=self.status, body=json.dumps(body).encode(), headers={"Content-Type": "application/json"})


@dataclass
class Delay:
    """A slow network: the next ``times`` requests matching ``pattern`` are handled at once, but
    their answers reach the bot ``seconds`` later."""

    pattern: re.Pattern[str]
    seconds: float
    times: int
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        """Whether it applies to ``"METHOD /path"`` (regex search) and has uses left."""
        return self.hits < self.times and bool(self.pattern.search(f"{method} {path}"))


# --------------------------------------------------------------------------- routing


class Router:
    """``(METHOD, "/path/{param}")`` templates → handlers, matched in order."""

    def __init__(self) -> None:
        self.routes: list[tuple[str, re.Pattern[str], str, Handler, bool]] = []

    def add(self, method: str, template: str, *, auth: bool = True) -> Callable[[Handler], Handler]:
        """Decorator registering a handler; ``auth=False`` for token-in-URL routes."""
        regex = re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template) + "$")

        def register(func: Handler) -> Handler:
            self.routes.append((method, regex, template, func, auth))
            return func

        return register

    def match(self, method: str, path: str) -> tuple[str, Handler, bool, dict[str, str]] | None:
        """The first route matching, with its path parameters."""
        for m, regex, template, func, auth in self.routes:
            if m == method:
                found = regex.match(path)
                if found:
                    return template, func, auth, found.groupdict()
        return None


router = Router()


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with ``Content-Type`` exactly ``application/json``.

    discord.py only parses a body whose content-type is exactly that;
    aiohttp's ``json_response`` would append ``; charset=utf-8``.
    """
    if body is None and status == 204:
        return web.Response(status=204, headers=headers)
    return web.Response(status=status, body=json.dumps(body).encode(), headers={"Content-Type": "application/json", **(headers or {})})


async def parse_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    """JSON, or multipart with ``payload_json`` and ``files[n]`` parts."""
    ctype = request.headers.get("Content-Type", "")
    if ctype.startswith("multipart/"):
        payload: Any = None
        files: list[UploadedFile] = []
        reader = await request.multipart()
        async for part in reader:
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            elif part.filename is not None:
                files.append(UploadedFile(part.name or "", part.filename, bytes(await part.read()),
                                          part.headers.get("Content-Type")))
            elif part.name:
                payload = payload or {}
                payload[part.name] = await part.text()
        return payload, files
    raw = await request.read()
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except ValueError:
        return raw.decode(errors="replace"), []


async def api_entry(fake: "FakeDiscord", request: web.Request) -> web.StreamResponse:
    """aiohttp handler for ``/api/v{n}/…``: record, inject faults, authenticate, route, answer."""
    path = "/" + request.match_info["tail"]
    body, files = await parse_body(request)
    record = RecordedRequest(
        method=request.method,
        path=path,
        query=dict(request.query),
        json=body,
        files=files,
        headers=dict(request.headers),
        at=fake.now(),
    )
    fake.requests.append(record)
    req = ApiRequest(record)
    response = await _answer(fake, request, req)
    for delay in fake.delays:
        if delay.matches(record.method, record.path):
            delay.hits += 1
            await asyncio.sleep(delay.seconds)  # already handled: only the answer is late
            break
    # Settle interactions etc. only once the answer is written, so a test that
    # resumes on them finds the bot already holding the response.
    try:
        await response.prepare(request)
        await response.write_eof()
    finally:
        for hook in req.after:
            hook()
        fake._notify_request(record)
    return response


async def _answer(fake: "FakeDiscord", request: web.Request, req: ApiRequest) -> web.Response:
    record = req.record
    fault = next((f for f in fake.faults if f.matches(record.method, record.path)), None)
    if fault is not None and not fault.applied:
        return _fault_answer(fake, record, fault)
    response = await _handle(fake, request, req)
    if fault is not None and record.status is not None and record.status < 300:
        return _fault_answer(fake, record, fault)  # it took effect; the bot hears an error
    return response


def _fault_answer(fake: "FakeDiscord", record: RecordedRequest, fault: Fault) -> web.Response:
    record.fault = True
    record.route = "<fault>"
    response = fault.response()
    record.status = response.status
    record.response = json.loads(response.body) if response.body else None  # type: ignore[arg-type]
    _check_answer(fake, record)
    return response


async def _handle(fake: "FakeDiscord", request: web.Request, req: ApiRequest) -> web.Response:
    record = req.record
    found = router.match(record.method, record.path)
    if found is None:
        record.status = 404
        record.response = {"message": "404: Not Found", "code": 0}
        return json_response(404, record.response)
    template, handler, needs_auth, params = found
    record.route = f"{record.method} {template}"
    if needs_auth and request.headers.get("Authorization") != f"Bot {fake.token}":
        record.status = 401
        record.response = {"message": "401: Unauthorized", "code": 0}
        return json_response(401, record.response)
    headers, refusal = fake.ratelimits.check(record.method, record.path, template)
    if refusal is not None:
        record.status = 429
        record.response = json.loads(refusal.body)  # type: ignore[arg-type]
        return refusal
    operation = spec().operation(record.method, record.path)
    record.operation = operation.operation_id if operation is not None else None
    try:
        if operation is None:
            fake._on_fake_problem(record, "no operation of the spec has this method and path")
        else:
            # The spec's schema for this operation, then the documented limits it does not encode.
            problems = operation.request_problems(req.json) + check_limits(operation.operation_id, req.json)
            if problems:
                raise form_error(problems)
        status, body = await handler(fake, req, **params)
    except DiscordAPIError as exc:
        status, body = exc.status, exc.body()
        fake._on_api_error(req, exc)
    record.status, record.response = status, body
    _check_answer(fake, record)
    return json_response(status, body, headers)


def _check_answer(fake: "FakeDiscord", record: RecordedRequest) -> None:
    """Record it as the fake's own bug if its answer breaks the operation's response schema."""
    if not fake.check_own_answers:
        return
    operation = spec().operation(record.method, record.path)
    if operation is None or record.status is None:
        return
    for path, _, message in operation.response_problems(record.status, record.response):
        fake._on_fake_problem(record, f"the fake's {record.status} answer breaks the spec at {path or 'the top'}: {message}")


# --------------------------------------------------------------------------- helpers


def _snowflake(value: str, what: str, code: int) -> int:
    if not value.isdigit():
        raise DiscordAPIError(400, 50035, "Invalid Form Body", {"id": {"_errors": [{"code": "NUMBER_TYPE_COERCE",
                                                                                    "message": f"Value \"{value}\" is not snowflake."}]}})
    return int(value)


def _channel(fake: "FakeDiscord", channel_id: str) -> FakeChannel:
    channel = fake.channels.get(_snowflake(channel_id, "channel", 10003))
    if channel is None or getattr(channel, "_deleted", False):
        raise unknown("Channel", 10003)
    return channel


def _message(fake: "FakeDiscord", channel: FakeChannel, message_id: str) -> FakeMessage:
    msg = fake.message_index.get(_snowflake(message_id, "message", 10008))
    if msg is None or msg.channel is not channel or msg.deleted or msg.ephemeral:
        raise unknown("Message", 10008)
    return msg


def _missing_permissions() -> DiscordAPIError:
    return DiscordAPIError(403, 50013, "Missing Permissions")


def _check_content_permissions(fake: "FakeDiscord", channel: FakeChannel, data: dict[str, Any],
                               files: list[UploadedFile]) -> None:
    """Files need Attach Files and embeds Embed Links in the channel, for interaction answers too."""
    if channel.guild is None:
        return
    perms = fake.bot_permissions(channel)
    if (files and not perms.attach_files) or (data.get("embeds") and not perms.embed_links):
        raise _missing_permissions()


def _check_app(fake: "FakeDiscord", app_id: str) -> None:
    if app_id != str(fake.application_id):
        raise DiscordAPIError(403, 50001, "Missing Access")


# --------------------------------------------------------------------------- users, app, gateway


@router.add("GET", "/users/@me")
async def get_me(fake: "FakeDiscord", req: ApiRequest) -> Reply:
    """The bot user (401 for a wrong token happens before routing)."""
    return 200, fake.bot_user.payload() | {"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"}


@router.add("GET", "/users/{user_id}")
async def get_user(fake: "FakeDiscord", req: ApiRequest, user_id: str) -> Reply:
    """A user by id (10013 Unknown User)."""
    user = fake.users.get(_snowflake(user_id, "user", 10013))
    if user is None:
        raise unknown("User", 10013)
    return 200, user.payload()


@router.add("POST", "/users/@me/channels")
async def open_dm(fake: "FakeDiscord", req: ApiRequest) -> Reply:
    """Open (or reuse) the DM channel with ``recipient_id``."""
    rid = str(req.body.get("recipient_id", ""))
    user = fake.users.get(int(rid)) if rid.isdigit() else None
    if user is None:
        raise DiscordAPIError(400, 50033, "Invalid Recipient(s)")
    return 200, fake.dm_channel(user).payload()


def _app_info(fake: "FakeDiscord") -> dict[str, Any]:
    return {
        "id": str(fake.application_id),
        "name": fake.bot_user.name,
        "icon": None,
        "description": "A fake application for tests",
        "summary": "",
        "type": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "owner": fake.owner_user.payload(),
        "team": None,
        "flags": fake.application_flags,
        "flags_new": str(fake.application_flags),
        "bot": fake.bot_user.payload(),
        "tags": [],
        "rpc_origins": [],
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "role_connections_verification_url": None,
        "approximate_guild_count": len(fake.bot_guilds()),
        "approximate_user_install_count": 0,
        "approximate_user_authorization_count": 0,
        "explicit_content_filter": 0,
        "eligible_oauth2_scopes": ["bot", "applications.commands"],
        "integration_types_config": {"0": {}},
    }


@router.add("GET", "/oauth2/applications/@me")
async def get_app(fake: "FakeDiscord", req: ApiRequest) -> Reply:
    """Application info (``Client.application_info()`` and ``login``)."""
    return 200, _app_info(fake)


@router.add("GET", "/applications/@me")
async def get_app2(fake: "FakeDiscord", req: ApiRequest) -> Reply:
    """Application info (newer endpoint)."""
    return 200, _app_info(fake)


@router.add("GET", "/gateway", auth=False)
async def get_gateway(fake: "FakeDiscord", req: ApiRequest) -> Reply:
    """The gateway URL."""
    return 200, {"url": fake.gateway_url}


@router.add("GET", "/gateway/bot")
async def get_gateway_bot(fake: "FakeDiscord", req: ApiRequest) -> Reply:
    """Gateway URL, shard count and session start limits (used by AutoShardedClient)."""
    return 200, {
        "url": fake.gateway_url,
        "shards": fake.shard_count,
        "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 86400000, "max_concurrency": 1},
    }


# --------------------------------------------------------------------------- application commands


def _scope(fake: "FakeDiscord", app_id: str, guild_id: str | None) -> int | None:
    _check_app(fake, app_id)
    if guild_id is None:
        return None
    guild = fake.guilds.get(int(guild_id)) if guild_id.isdigit() else None
    if guild is None or guild.member(fake.bot_user) is None:
        raise DiscordAPIError(403, 50001, "Missing Access")
    return guild.id


def _store_command(fake: "FakeDiscord", scope: int | None, body: dict[str, Any]) -> dict[str, Any]:
    from .models import FakeCommand

    commands = fake.commands.setdefault(scope, {})
    key = (body.get("type", 1), body["name"])
    old = next((c for c in commands.values() if (c.type, c.name) == key), None)
    definition = {k: v for k, v in body.items() if k not in ("id", "application_id", "version", "guild_id")}
    if old is not None:
        same = {k: v for k, v in old.payload.items() if k not in ("id", "application_id", "version", "guild_id")} == definition
        version = old.payload["version"] if same else str(fake.snowflakes.next())
        cid = old.id
    else:
        version, cid = str(fake.snowflakes.next()), fake.snowflakes.next()
    payload = {
        "type": 1,
        "default_member_permissions": None,
        "nsfw": False,
        **definition,
        "id": str(cid),
        "application_id": str(fake.application_id),
        "version": version,
    }
    payload.setdefault("description", "")
    if payload.get("default_member_permissions") is not None:
        payload["default_member_permissions"] = str(payload["default_member_permissions"])  # always a string back
    if payload.get("integration_types") is None:
        payload["integration_types"] = [0]  # guild install; Discord echoes it for guild commands too
    if scope is not None:
        payload["guild_id"] = str(scope)
    commands[cid] = FakeCommand(cid, scope, payload)
    return payload


async def _put_commands(fake: "FakeDiscord", req: ApiRequest, scope: int | None) -> Reply:
    body = req.json  # already checked against the spec and the documented limits
    previous = fake.commands.get(scope, {})
    keep = {(c.get("type", 1), c["name"]) for c in body}
    fake.commands[scope] = {cid: c for cid, c in previous.items() if (c.type, c.name) in keep}
    result = [_store_command(fake, scope, cmd) for cmd in body]
    fake._record_sync(scope, [c["name"] for c in body])
    return 200, result


@router.add("PUT", "/applications/{app_id}/commands")
async def put_global_commands(fake: "FakeDiscord", req: ApiRequest, app_id: str) -> Reply:
    """Bulk overwrite global commands (``tree.sync()``)."""
    return await _put_commands(fake, req, _scope(fake, app_id, None))


@router.add("PUT", "/applications/{app_id}/guilds/{guild_id}/commands")
async def put_guild_commands(fake: "FakeDiscord", req: ApiRequest, app_id: str, guild_id: str) -> Reply:
    """Bulk overwrite guild commands (``tree.sync(guild=…)``)."""
    return await _put_commands(fake, req, _scope(fake, app_id, guild_id))


@router.add("GET", "/applications/{app_id}/commands")
async def get_global_commands(fake: "FakeDiscord", req: ApiRequest, app_id: str) -> Reply:
    """Global commands."""
    return 200, [c.payload for c in fake.commands.get(_scope(fake, app_id, None), {}).values()]


@router.add("GET", "/applications/{app_id}/guilds/{guild_id}/commands")
async def get_guild_commands(fake: "FakeDiscord", req: ApiRequest, app_id: str, guild_id: str) -> Reply:
    """Guild commands."""
    return 200, [c.payload for c in fake.commands.get(_scope(fake, app_id, guild_id), {}).values()]


async def _upsert(fake: "FakeDiscord", req: ApiRequest, scope: int | None) -> Reply:
    existed = any(c.name == req.body.get("name") for c in fake.commands.get(scope, {}).values())
    payload = _store_command(fake, scope, req.body)
    return (200 if existed else 201), payload


@router.add("POST", "/applications/{app_id}/commands")
async def post_global_command(fake: "FakeDiscord", req: ApiRequest, app_id: str) -> Reply:
    """Create/replace one global command."""
    return await _upsert(fake, req, _scope(fake, app_id, None))


@router.add("POST", "/applications/{app_id}/guilds/{guild_id}/commands")
async def post_guild_command(fake: "FakeDiscord", req: ApiRequest, app_id: str, guild_id: str) -> Reply:
    """Create/replace one guild command."""
    return await _upsert(fake, req, _scope(fake, app_id, guild_id))


async def _one_command(fake: "FakeDiscord", scope: int | None, command_id: str, delete: bool) -> Reply:
    commands = fake.commands.get(scope, {})
    cmd = commands.get(int(command_id)) if command_id.isdigit() else None
    if cmd is None:
        raise unknown("application command", 10063)
    if delete:
        del commands[cmd.id]
        return 204, None
    return 200, cmd.payload


@router.add("GET", "/applications/{app_id}/commands/{command_id}")
async def get_global_command(fake: "FakeDiscord", req: ApiRequest, app_id: str, command_id: str) -> Reply:
    """One global command."""
    return await _one_command(fake, _scope(fake, app_id, None), command_id, False)


@router.add("DELETE", "/applications/{app_id}/commands/{command_id}")
async def delete_global_command(fake: "FakeDiscord", req: ApiRequest, app_id: str, command_id: str) -> Reply:
    """Delete one global command."""
    return await _one_command(fake, _scope(fake, app_id, None), command_id, True)


@router.add("GET", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}")
async def get_guild_command(fake: "FakeDiscord", req: ApiRequest, app_id: str, guild_id: str, command_id: str) -> Reply:
    """One guild command."""
    return await _one_command(fake, _scope(fake, app_id, guild_id), command_id, False)


@router.add("DELETE", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}")
async def delete_guild_command(fake: "FakeDiscord", req: ApiRequest, app_id: str, guild_id: str, command_id: str) -> Reply:
    """Delete one guild command."""
    return await _one_command(fake, _scope(fake, app_id, guild_id), command_id, True)


# --------------------------------------------------------------------------- interactions & webhooks


@router.add("POST", "/interactions/{interaction_id}/{token}/callback", auth=False)
async def interaction_callback(fake: "FakeDiscord", req: ApiRequest, interaction_id: str, token: str) -> Reply:
    """The one response to an interaction (types 4–9); late → 10062, twice → 40060."""
    inter = fake.interaction_index.get(int(interaction_id)) if interaction_id.isdigit() else None
    if inter is None or inter.token != token:
        raise unknown("interaction", 10062)
    now = fake.now()
    inter.callbacks.append(req.record)
    if inter.latency is None:
        inter.latency = now - inter.dispatched_at
    if inter.acknowledged:
        raise DiscordAPIError(400, 40060, "Interaction has already been acknowledged.")
    if now - inter.dispatched_at > fake.interaction_deadline:
        inter.late = True
        waited = now - inter.dispatched_at
        req.after.append(lambda: inter.fail(
            f"the bot answered after {waited:.3f}s, past the {fake.interaction_deadline}s deadline "
            "(Discord: 404 10062 Unknown interaction; the user sees 'The application did not respond')"))
        raise unknown("interaction", 10062)
    rtype = req.body.get("type")
    data = req.body.get("data") or {}
    if rtype not in ALLOWED_CALLBACKS.get(inter.type, set()):
        raise form_error([("type", "INTERACTION_RESPONSE_TYPE_INVALID",
                           f"Response type {rtype} is not valid for interaction type {inter.type}.")])
    message: FakeMessage | None = None
    final = True
    if rtype in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
        _check_content_permissions(fake, inter.channel, data, req.files)
    if rtype == CHANNEL_MESSAGE:
        with under("data"):
            message = fake.create_message(inter.channel, fake.bot_user, data, req.files, interaction=inter)
        inter.original = message
    elif rtype == DEFERRED_CHANNEL_MESSAGE:
        flags = FLAG_LOADING | (int(data.get("flags") or 0) & FLAG_EPHEMERAL)
        message = fake.create_message(inter.channel, fake.bot_user, {"content": "", "flags": flags}, [],
                                      interaction=inter, allow_empty=True)
        inter.original = message
        final = False
    elif rtype == DEFERRED_UPDATE:
        inter.original = inter.message
        final = False
    elif rtype == UPDATE_MESSAGE:
        assert inter.message is not None
        with under("data"):
            message = fake.edit_message(inter.message, data, req.files)
        inter.original = message
    elif rtype == AUTOCOMPLETE_RESULT:
        inter.choices = list(data.get("choices") or [])
    elif rtype == MODAL:
        inter.modal = data
    inter.callback_type = rtype
    if final:
        req.after.append(lambda: inter.resolve(message))
    if not req.flag("with_response"):
        return 204, None
    return 200, inter.callback_payload(message, rtype)


def _webhook_interaction(fake: "FakeDiscord", app_id: str, token: str) -> FakeInteraction:
    inter = fake.token_index.get(token)
    if inter is None or app_id != str(fake.application_id):
        raise unknown("Webhook", 10015)
    if fake.now() - inter.dispatched_at > fake.webhook_token_ttl:
        raise DiscordAPIError(401, 50027, "Invalid Webhook Token")
    if not inter.acknowledged:
        # Discord only creates the interaction webhook once the interaction is acknowledged.
        raise unknown("Webhook", 10015)
    return inter


def _webhook_message(inter: FakeInteraction, message_id: str) -> FakeMessage:
    if message_id == "@original":
        msg = inter.original
    else:
        msg = next((m for m in [inter.original, *inter.followups] if m is not None and str(m.id) == message_id), None)
    if msg is None or msg.deleted:
        raise unknown("Message", 10008)
    return msg


@router.add("POST", "/webhooks/{app_id}/{token}", auth=False)
async def execute_webhook(fake: "FakeDiscord", req: ApiRequest, app_id: str, token: str) -> Reply:
    """A follow-up. After a type-5 defer, the first one fills the loading message (Discord's legacy rule)."""
    inter = _webhook_interaction(fake, app_id, token)
    _check_content_permissions(fake, inter.channel, req.body, req.files)
    original = inter.original
    if inter.callback_type == DEFERRED_CHANNEL_MESSAGE and original is not None and original.loading and not original.deleted:
        # "the loading message will be edited instead … the ephemeral flag will be ignored"
        data = dict(req.body)
        data.pop("flags", None)
        message = fake.edit_message(original, data, req.files)
    else:
        channel = inter.channel
        if req.query.get("thread_id"):
            channel = _channel(fake, req.query["thread_id"])
        message = fake.create_message(channel, fake.bot_user, req.body, req.files, interaction=inter, followup=True)
    inter.followups.append(message)
    if inter.deferred:
        req.after.append(lambda: inter.resolve(message))
    if not req.flag("wait"):
        return 204, None
    return 200, message.payload()


@router.add("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", auth=False)
async def get_webhook_message(fake: "FakeDiscord", req: ApiRequest, app_id: str, token: str, message_id: str) -> Reply:
    """The original response or a follow-up."""
    inter = _webhook_interaction(fake, app_id, token)
    return 200, _webhook_message(inter, message_id).payload()


@router.add("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", auth=False)
async def edit_webhook_message(fake: "FakeDiscord", req: ApiRequest, app_id: str, token: str, message_id: str) -> Reply:
    """Edit the original response (settles a deferred interaction) or a follow-up."""
    inter = _webhook_interaction(fake, app_id, token)
    msg = _webhook_message(inter, message_id)
    _check_content_permissions(fake, msg.channel, req.body, req.files)
    fake.edit_message(msg, req.body, req.files)
    if inter.deferred and msg is inter.original:
        req.after.append(lambda: inter.resolve(msg))
    return 200, msg.payload()


@router.add("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", auth=False)
async def delete_webhook_message(fake: "FakeDiscord", req: ApiRequest, app_id: str, token: str, message_id: str) -> Reply:
    """Delete the original response or a follow-up.

    Deleting a still-loading "thinking…" message does not answer the
    interaction: the next follow-up is a new message (it may be ephemeral)
    and that is what settles it.
    """
    inter = _webhook_interaction(fake, app_id, token)
    msg = _webhook_message(inter, message_id)
    was_loading = msg.loading
    await fake.delete_message(msg)
    if inter.deferred and msg is inter.original and not was_loading:
        req.after.append(lambda: inter.resolve(msg))
    return 204, None


# --------------------------------------------------------------------------- channels & messages


@router.add("GET", "/channels/{channel_id}")
async def get_channel(fake: "FakeDiscord", req: ApiRequest, channel_id: str) -> Reply:
    """A channel, thread or DM channel (403 50001 Missing Access where the bot can't see it, or is no
    longer in its server)."""
    channel = _channel(fake, channel_id)
    if channel.guild is not None and not fake.bot_permissions(channel).view_channel:
        raise DiscordAPIError(403, 50001, "Missing Access")
    return 200, channel.payload()


@router.add("PATCH", "/channels/{channel_id}")
async def edit_channel(fake: "FakeDiscord", req: ApiRequest, channel_id: str) -> Reply:
    """Rename a channel; (un)archive/lock/rename a thread → CHANNEL_UPDATE / THREAD_UPDATE."""
    channel = _channel(fake, channel_id)
    body = req.body
    if channel.is_dm:
        raise DiscordAPIError(400, 50024, "Cannot execute action on this channel type")
    perms = fake.bot_permissions(channel)
    if channel.is_thread:
        is_owner = channel.owner_id == fake.bot_user.id
        if channel.locked and not perms.manage_threads:
            raise _missing_permissions()
        if "locked" in body and not perms.manage_threads:
            raise _missing_permissions()
        if set(body) - {"archived", "locked"} and not (is_owner or perms.manage_threads):
            raise _missing_permissions()
        if "auto_archive_duration" in body and body["auto_archive_duration"] not in THREAD_ARCHIVE_DURATIONS:
            raise form_error([("auto_archive_duration", "BASE_TYPE_CHOICES", f"Value must be one of {THREAD_ARCHIVE_DURATIONS}.")])
        if "name" in body and not 1 <= len(body["name"] or "") <= 100:
            raise form_error([("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")])
        if "archived" in body and bool(body["archived"]) != channel.archived:
            channel.archived = bool(body["archived"])
            channel.archive_timestamp = utcnow()
        for key in ("locked", "invitable"):
            if key in body:
                setattr(channel, key, bool(body[key]))
        if "name" in body:
            channel.name = body["name"]
        if "auto_archive_duration" in body:
            channel.auto_archive_duration = body["auto_archive_duration"]
        await fake.dispatch("THREAD_UPDATE", channel.payload())
    else:
        if not perms.manage_channels:
            raise _missing_permissions()
        if "name" in body:
            channel.name = body["name"]
        if "topic" in body:
            channel.topic = body["topic"]
        await fake.dispatch("CHANNEL_UPDATE", channel.payload())
    return 200, channel.payload()


@router.add("DELETE", "/channels/{channel_id}")
async def delete_channel(fake: "FakeDiscord", req: ApiRequest, channel_id: str) -> Reply:
    """Delete a thread or channel (needs manage_threads / manage_channels)."""
    channel = _channel(fake, channel_id)
    if channel.is_dm or channel.guild is None:
        return 200, channel.payload()
    perms = fake.bot_permissions(channel)
    if not (perms.manage_threads if channel.is_thread else perms.manage_channels):
        raise _missing_permissions()
    await fake.channel_deleted(channel)
    return 200, channel.payload()


@router.add("POST", "/channels/{channel_id}/typing")
async def typing(fake: "FakeDiscord", req: ApiRequest, channel_id: str) -> Reply:
    """Typing indicator (no effect)."""
    _channel(fake, channel_id)
    return 204, None


@router.add("GET", "/channels/{channel_id}/messages")
async def history(fake: "FakeDiscord", req: ApiRequest, channel_id: str) -> Reply:
    """Newest first; ``limit`` (≤ 100), ``before``, ``after``, ``around``."""
    channel = _channel(fake, channel_id)
    _require_read(fake, channel)
    limit = int(req.query.get("limit", 50))
    if not 1 <= limit <= 100:
        raise form_error([("limit", "NUMBER_TYPE_MAX", "int value should be <= 100 and >= 1.")])
    msgs = fake.messages(channel)
    if "before" in req.query:
        msgs = [m for m in msgs if m.id < int(req.query["before"])]
        msgs = msgs[-limit:]
    elif "after" in req.query:
        msgs = [m for m in msgs if m.id > int(req.query["after"])][:limit]
    elif "around" in req.query:
        pivot = int(req.query["around"])
        older = [m for m in msgs if m.id <= pivot][-((limit + 1) // 2):]
        newer = [m for m in msgs if m.id > pivot][: limit // 2]
        msgs = older + newer
    else:
        msgs = msgs[-limit:]
    return 200, [m.payload() for m in reversed(msgs)]


def _require_read(fake: "FakeDiscord", channel: FakeChannel) -> None:
    if channel.guild is not None:
        perms = fake.bot_permissions(channel)
        if not (perms.view_channel and perms.read_message_history):
            raise DiscordAPIError(403, 50001, "Missing Access")


@router.add("GET", "/channels/{channel_id}/messages/{message_id}")
async def get_message(fake: "FakeDiscord", req: ApiRequest, channel_id: str, message_id: str) -> Reply:
    """One message (ephemeral and deleted ones are 10008)."""
    channel = _channel(fake, channel_id)
    _require_read(fake, channel)
    return 200, _message(fake, channel, message_id).payload()


@router.add("POST", "/channels/{channel_id}/messages")
async def send_message(fake: "FakeDiscord", req: ApiRequest, channel_id: str) -> Reply:
    """Post as the bot: permission checks, closed DMs (50007), auto-unarchiving threads."""
    channel = _channel(fake, channel_id)
    body = req.body
    if channel.is_dm:
        assert channel.recipient is not None
        if not channel.recipient.dms_open or channel.recipient.bot:
            raise DiscordAPIError(403, 50007, "Cannot send messages to this user")
    else:
        perms = fake.bot_permissions(channel)
        can_send = perms.send_messages_in_threads if channel.is_thread else perms.send_messages
        if not (perms.view_channel and can_send):
            raise _missing_permissions()
        _check_content_permissions(fake, channel, body, req.files)
        if channel.is_thread and channel.archived:
            if channel.locked and not perms.manage_threads:
                raise DiscordAPIError(400, 50083, "Thread is archived")
            channel.archived = False
            channel.archive_timestamp = utcnow()
            await fake.dispatch("THREAD_UPDATE", channel.payload())
    ref = body.get("message_reference")
    if ref is not None:
        target = fake.message_index.get(int(ref.get("message_id", 0)))
        if (target is None or target.deleted) and ref.get("fail_if_not_exists", True):
            raise form_error([("message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message")])
    earlier = _same_nonce(fake, body)
    if earlier is not None:
        return 200, earlier.payload()  # enforce_nonce: the message it already made, nothing new
    message = fake.create_message(channel, fake.bot_user, body, req.files)
    return 200, message.payload()


#: how far back ``enforce_nonce`` looks; Discord says "the past few minutes", so the fake takes the short end
NONCE_WINDOW = _dt.timedelta(minutes=2)


def _same_nonce(fake: "FakeDiscord", body: dict[str, Any]) -> FakeMessage | None:
    """With ``enforce_nonce``, the bot's recent message that carried the same nonce, in any channel:
    Discord documents the check per author ("created by the same author"), not per channel."""
    nonce = body.get("nonce")
    if not body.get("enforce_nonce") or nonce is None:
        return None
    since = utcnow() - NONCE_WINDOW
    for msg in reversed(fake.message_index.values()):
        if msg.created_at < since:
            break
        if msg.author is fake.bot_user and msg.nonce is not None and str(msg.nonce) == str(nonce):
            return msg
    return None


@router.add("PATCH", "/channels/{channel_id}/messages/{message_id}")
async def edit_message(fake: "FakeDiscord", req: ApiRequest, channel_id: str, message_id: str) -> Reply:
    """Edit the bot's own message (another author's → 50005)."""
    channel = _channel(fake, channel_id)
    msg = _message(fake, channel, message_id)
    if msg.author is not fake.bot_user:
        if set(req.body) - {"flags"} or not fake.bot_permissions(channel).manage_messages:
            raise DiscordAPIError(403, 50005, "Cannot edit a message authored by another user")
    fake.edit_message(msg, req.body, req.files)
    return 200, msg.payload()


@router.add("DELETE", "/channels/{channel_id}/messages/{message_id}")
async def delete_message(fake: "FakeDiscord", req: ApiRequest, channel_id: str, message_id: str) -> Reply:
    """Delete the bot's own message, or another's with manage_messages."""
    channel = _channel(fake, channel_id)
    msg = _message(fake, channel, message_id)
    if msg.author is not fake.bot_user and not (channel.guild and fake.bot_permissions(channel).manage_messages):
        raise _missing_permissions()
    await fake.delete_message(msg)
    return 204, None


# --------------------------------------------------------------------------- threads


def _thread_body(req: ApiRequest) -> tuple[str, int]:
    body = req.body
    name = body.get("name")
    problems = []
    if not isinstance(name, str) or not 1 <= len(name) <= 100:
        problems.append(("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
    duration = body.get("auto_archive_duration", 4320)
    if duration not in THREAD_ARCHIVE_DURATIONS:
        problems.append(("auto_archive_duration", "BASE_TYPE_CHOICES", f"Value must be one of {THREAD_ARCHIVE_DURATIONS}."))
    if problems:
        raise form_error(problems)
    return name, duration


@router.add("POST", "/channels/{channel_id}/threads")
async def create_thread(fake: "FakeDiscord", req: ApiRequest, channel_id: str) -> Reply:
    """Start a thread without a message (type 11 public / 12 private) → THREAD_CREATE."""
    parent = _channel(fake, channel_id)
    if parent.type != GUILD_TEXT:
        raise DiscordAPIError(400, 50024, "Cannot execute action on this channel type")
    name, duration = _thread_body(req)
    ttype = req.body.get("type", PRIVATE_THREAD)
    if ttype not in (PUBLIC_THREAD, PRIVATE_THREAD):
        raise form_error([("type", "BASE_TYPE_CHOICES", "Value must be one of {11, 12}.")])
    perms = fake.bot_permissions(parent)
    allowed = perms.create_public_threads if ttype == PUBLIC_THREAD else perms.create_private_threads
    if not (perms.view_channel and allowed):
        raise _missing_permissions()
    thread = fake.add_thread(parent, name, private=ttype == PRIVATE_THREAD, owner=fake.bot_user,
                             auto_archive_duration=duration, invitable=req.body.get("invitable", True))
    payload = await _announce_thread(fake, thread)
    return 201, payload


@router.add("POST", "/channels/{channel_id}/messages/{message_id}/threads")
async def create_thread_from_message(fake: "FakeDiscord", req: ApiRequest, channel_id: str, message_id: str) -> Reply:
    """Start a public thread on a message (the thread takes the message's id) → THREAD_CREATE."""
    parent = _channel(fake, channel_id)
    if parent.type != GUILD_TEXT:
        raise DiscordAPIError(400, 50024, "Cannot execute action on this channel type")
    msg = _message(fake, parent, message_id)
    name, duration = _thread_body(req)
    perms = fake.bot_permissions(parent)
    if not (perms.view_channel and perms.create_public_threads):
        raise _missing_permissions()
    if msg.thread is not None:
        raise DiscordAPIError(400, 160004, "A thread has already been created for this message")
    thread = fake.add_thread(parent, name, owner=fake.bot_user, auto_archive_duration=duration, thread_id=msg.id)
    msg.thread = thread
    msg.flags |= FLAG_HAS_THREAD
    payload = await _announce_thread(fake, thread)
    return 201, payload


async def _announce_thread(fake: "FakeDiscord", thread: FakeChannel) -> dict[str, Any]:
    thread.thread_members.add(fake.bot_user.id)
    member = {"id": str(thread.id), "user_id": str(fake.bot_user.id), "join_timestamp": utcnow().isoformat(), "flags": 0}
    payload = thread.payload() | {"member": member}
    await fake.dispatch("THREAD_CREATE", payload | {"newly_created": True})
    return payload


@router.add("PUT", "/channels/{channel_id}/thread-members/{user_id}")
async def add_thread_member(fake: "FakeDiscord", req: ApiRequest, channel_id: str, user_id: str) -> Reply:
    """Add a member to a thread (``@me`` = the bot)."""
    thread = _channel(fake, channel_id)
    if not thread.is_thread:
        raise DiscordAPIError(400, 50024, "Cannot execute action on this channel type")
    uid = fake.bot_user.id if user_id == "@me" else _snowflake(user_id, "user", 10013)
    assert thread.guild is not None
    if thread.guild.member(uid) is None:
        raise unknown("Member", 10007)
    if thread.archived:
        raise DiscordAPIError(400, 50083, "Thread is archived")
    thread.thread_members.add(uid)
    return 204, None


@router.add("DELETE", "/channels/{channel_id}/thread-members/{user_id}")
async def remove_thread_member(fake: "FakeDiscord", req: ApiRequest, channel_id: str, user_id: str) -> Reply:
    """Remove a member from a thread."""
    thread = _channel(fake, channel_id)
    uid = fake.bot_user.id if user_id == "@me" else _snowflake(user_id, "user", 10013)
    thread.thread_members.discard(uid)
    return 204, None


# --------------------------------------------------------------------------- guilds


def _guild(fake: "FakeDiscord", guild_id: str):  # type: ignore[no-untyped-def]
    guild = fake.guilds.get(_snowflake(guild_id, "guild", 10004))
    if guild is None or guild.member(fake.bot_user) is None:
        raise unknown("Guild", 10004)
    return guild


@router.add("GET", "/guilds/{guild_id}")
async def get_guild(fake: "FakeDiscord", req: ApiRequest, guild_id: str) -> Reply:
    """A guild (without members/channels, like the REST endpoint)."""
    data = _guild(fake, guild_id).payload()
    for key in ("members", "channels", "threads", "presences", "voice_states"):
        data.pop(key, None)
    return 200, data


@router.add("GET", "/guilds/{guild_id}/channels")
async def get_guild_channels(fake: "FakeDiscord", req: ApiRequest, guild_id: str) -> Reply:
    """The guild's channels (no threads)."""
    return 200, [c.payload() for c in _guild(fake, guild_id).channels if not c.is_thread]


@router.add("GET", "/guilds/{guild_id}/threads/active")
async def get_active_threads(fake: "FakeDiscord", req: ApiRequest, guild_id: str) -> Reply:
    """Active threads of the guild."""
    threads = [c for c in _guild(fake, guild_id).threads if not c.archived]
    return 200, {"threads": [t.payload() for t in threads], "members": []}


@router.add("GET", "/guilds/{guild_id}/roles")
async def get_roles(fake: "FakeDiscord", req: ApiRequest, guild_id: str) -> Reply:
    """The guild's roles."""
    return 200, [r.payload() for r in _guild(fake, guild_id).roles]


@router.add("GET", "/guilds/{guild_id}/members/{user_id}")
async def get_member(fake: "FakeDiscord", req: ApiRequest, guild_id: str, user_id: str) -> Reply:
    """One member (10007 Unknown Member)."""
    guild = _guild(fake, guild_id)
    member = guild.member(_snowflake(user_id, "user", 10013))
    if member is None:
        raise unknown("Member", 10007)
    return 200, member.payload()


@router.add("GET", "/guilds/{guild_id}/members")
async def list_members(fake: "FakeDiscord", req: ApiRequest, guild_id: str) -> Reply:
    """Members by id, ``limit``/``after`` paging."""
    guild = _guild(fake, guild_id)
    limit = int(req.query.get("limit", 1))
    after = int(req.query.get("after", 0))
    members = sorted((m for m in guild.members.values() if m.id > after), key=lambda m: m.id)[:limit]
    return 200, [m.payload() for m in members]
