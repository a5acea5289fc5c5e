"""The websocket gateway: HELLO, heartbeats, IDENTIFY → READY + GUILD_CREATE,
RESUME with replay of missed events, REQUEST_GUILD_MEMBERS, and dispatch.

Frames are plain JSON text: discord.py asks for ``compress=zlib-stream`` but
only decompresses *binary* frames, so text frames are fine.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from aiohttp import WSMsgType, web

if TYPE_CHECKING:  # pragma: no cover
    from .server import FakeDiscord

log = logging.getLogger(__name__)

# Opcodes (https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-opcodes).
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE, RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, ACK = (
    0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11,
)
REPLAY_BUFFER = 1000


@dataclass(eq=False)
class GatewaySession:
    """A Discord gateway session: survives disconnects until invalidated, so RESUME can replay."""

    session_id: str
    identify: dict[str, Any]
    seq: int = 0
    buffer: collections.deque[tuple[int, str]] = field(default_factory=lambda: collections.deque(maxlen=REPLAY_BUFFER))
    connection: "GatewayConnection | None" = None
    invalidated: bool = False
    resumes: int = 0

    @property
    def intents(self) -> int:
        """The intents from IDENTIFY."""
        return int(self.identify.get("intents", 0))

    @property
    def shard(self) -> tuple[int, int]:
        """(shard id, shard count) from IDENTIFY; (0, 1) for an unsharded session."""
        shard = self.identify.get("shard") or [0, 1]
        return int(shard[0]), int(shard[1])

    def covers(self, guild_id: int | None) -> bool:
        """Whether Discord sends this server's events to this session (direct messages: shard 0)."""
        shard_id, count = self.shard
        return (0 if guild_id is None else (guild_id >> 22) % count) == shard_id

    def frame(self, event: str, data: Any) -> str:
        """Number the next dispatch and keep it for a later RESUME."""
        self.seq += 1
        text = json.dumps({"op": DISPATCH, "t": event, "s": self.seq, "d": data})
        self.buffer.append((self.seq, text))
        return text


@dataclass(eq=False)
class GatewayConnection:
    """One websocket; ``ready`` once READY/GUILD_CREATE (or RESUMED) went out."""

    ws: web.WebSocketResponse
    session: GatewaySession | None = None
    ready: bool = False
    heartbeats: int = 0
    #: set when the fake itself closes the socket (so a 1000 echo is not a client logout)
    closed_by_server: bool = False
    received: list[dict[str, Any]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def alive(self) -> bool:
        """Whether the socket is still open."""
        return not self.ws.closed

    async def send_text(self, text: str) -> None:
        """Send one frame; a lock keeps concurrent dispatches from interleaving."""
        async with self.lock:
            if not self.ws.closed:
                await self.ws.send_str(text)

    async def send(self, payload: dict[str, Any]) -> None:
        """Send a JSON frame."""
        await self.send_text(json.dumps(payload))


def guild_of(event: str, data: Any) -> int | None:
    """The server an event is about (None: a direct message or no server), which picks its shard."""
    if not isinstance(data, dict):
        return None
    gid = data.get("guild_id")
    if gid is None and event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
        gid = data.get("id")
    return int(gid) if gid is not None else None


class Gateway:
    """Owns sessions and connections of the fake gateway."""

    def __init__(self, fake: "FakeDiscord") -> None:
        self.fake = fake
        self.sessions: list[GatewaySession] = []
        self.connections: list[GatewayConnection] = []
        self.identifies = 0
        self.resumes = 0
        #: every DISPATCH the fake emitted (event name, data), READY/GUILD_CREATE excluded
        self.dispatched: list[tuple[str, Any]] = []
        self._ready_changed = asyncio.Event()

    # ---- state for tests

    @property
    def ready_connections(self) -> list[GatewayConnection]:
        """Open connections that finished READY/RESUMED."""
        return [c for c in self.connections if c.ready and c.alive]

    @property
    def connected(self) -> bool:
        """Whether at least one bot connection is ready."""
        return bool(self.ready_connections)

    async def wait_ready(self, timeout: float) -> None:
        """Wait until a connection is ready (raises ``asyncio.TimeoutError``)."""
        await self.wait_until(lambda g: g.connected, timeout)

    async def wait_until(self, predicate: "Callable[[Gateway], bool]", timeout: float = 10.0) -> None:
        """Wait until ``predicate(gateway)`` holds; re-checked on every connect/ready/disconnect.

        E.g. ``await fake.gateway.wait_until(lambda g: g.identifies == 2 and g.connected)``
        after restarting a bot process. Raises ``asyncio.TimeoutError``.
        """
        async def loop() -> None:
            while not predicate(self):
                self._ready_changed.clear()
                await self._ready_changed.wait()
        await asyncio.wait_for(loop(), timeout)

    def events(self, name: str) -> list[Any]:
        """Data of every dispatched event called ``name`` (e.g. ``"THREAD_UPDATE"``)."""
        return [data for event, data in self.dispatched if event == name]

    def _changed(self) -> None:
        self._ready_changed.set()

    # ---- dispatch

    async def dispatch(self, event: str, data: Any, *, intent: int | None = None,
                       transform: "Callable[[GatewaySession, Any], Any] | None" = None,
                       every_shard: bool = False) -> int:
        """Send a DISPATCH to every live session of the shard the event's server is on (direct
        messages: shard 0); buffer it in disconnected ones (for RESUME).

        ``every_shard``: send it to every session whatever its shard, as Discord may while shards
        are being moved between processes (for tests of exactly-once handling).
        ``intent``: only sessions that IDENTIFYed with this intent bit get it
        (e.g. GUILD_MESSAGES for MESSAGE_CREATE). ``transform(session, data)``
        adapts the payload per session (e.g. blank content without the
        message-content intent). Returns how many open connections got it.
        """
        sent = 0
        self.dispatched.append((event, data))
        guild_id = guild_of(event, data)
        for session in self.sessions:
            if session.invalidated or (intent is not None and not session.intents & intent):
                continue
            if not (every_shard or session.covers(guild_id)):
                continue  # another shard's server
            text = session.frame(event, transform(session, data) if transform else data)
            conn = session.connection
            if conn is not None and conn.alive and conn.ready:
                await conn.send_text(text)
                sent += 1
        return sent

    async def reconnect(self) -> None:
        """Ask every connected client to reconnect and RESUME (op 7)."""
        for conn in list(self.connections):
            if conn.alive:
                await conn.send({"op": RECONNECT, "d": None})

    async def drop(self, code: int = 4000, *, invalidate: bool = False) -> None:
        """Close every connection from the server side (the client reconnects; 4000 → RESUME).

        ``invalidate=True`` also forgets the sessions, so the RESUME is refused
        and the client IDENTIFYs afresh (note: discord.py then waits 5 s in
        ``before_identify_hook`` unless the bot overrides it).
        """
        for conn in list(self.connections):
            if invalidate and conn.session is not None:
                conn.session.invalidated = True
            conn.ready = False  # from now on, events are only buffered for RESUME
            conn.closed_by_server = True
            if conn.alive:
                await conn.ws.close(code=code, message=b"fake: dropped")
        self._changed()

    async def close_all(self) -> None:
        """Close every socket (server shutdown)."""
        for conn in list(self.connections):
            conn.closed_by_server = True
            if conn.alive:
                await conn.ws.close(code=1001, message=b"fake: shutting down")

    # ---- the websocket handler

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """aiohttp handler for the gateway URL."""
        # A short close timeout: a killed bot process never answers the close handshake.
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True, timeout=2.0)
        await ws.prepare(request)
        conn = GatewayConnection(ws)
        self.connections.append(conn)
        try:
            await conn.send({"op": HELLO, "d": {"heartbeat_interval": self.fake.heartbeat_interval_ms}})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    payload = json.loads(msg.data)
                elif msg.type == WSMsgType.BINARY:
                    payload = json.loads(msg.data.decode())
                else:
                    break
                conn.received.append(payload)
                await self._on_frame(conn, payload)
        except ConnectionResetError:
            pass  # the bot process died; treated like any disconnect below
        finally:
            conn.ready = False
            if ws.close_code == 1000 and conn.session is not None and not conn.closed_by_server:
                # A clean close by the client ends the session, as on Discord.
                conn.session.invalidated = True
            if conn.session is not None and conn.session.connection is conn:
                conn.session.connection = None
            self._changed()
        return ws

    async def _on_frame(self, conn: GatewayConnection, payload: dict[str, Any]) -> None:
        op, data = payload.get("op"), payload.get("d")
        if op == HEARTBEAT:
            conn.heartbeats += 1
            await conn.send({"op": ACK})
        elif op == IDENTIFY:
            await self._identify(conn, data or {})
        elif op == RESUME:
            await self._resume(conn, data or {})
        elif op == REQUEST_MEMBERS:
            await self._members(conn, data or {})
        elif op in (PRESENCE, VOICE):
            pass  # recorded in conn.received; nothing to answer
        else:
            await conn.ws.close(code=4001, message=b"Unknown opcode.")

    async def _identify(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        if data.get("token") not in (self.fake.token, f"Bot {self.fake.token}"):
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
            return
        shard = data.get("shard")
        if shard is not None and not (
            isinstance(shard, list) and len(shard) == 2 and all(isinstance(x, int) for x in shard)
            and 0 <= shard[0] < shard[1]
        ):
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        if (shard[1] if shard else 1) < self.fake.shard_count and len(self.fake.bot_guilds()) >= 2500:
            await conn.ws.close(code=4011, message=b"Sharding required.")
            return
        self.identifies += 1
        session = GatewaySession(session_id=secrets.token_hex(16), identify=data)
        self.sessions.append(session)
        conn.session = session
        session.connection = conn
        fake = self.fake
        guilds = [g for g in fake.bot_guilds() if session.covers(g.id)]
        ready = {
            "v": 10,
            "user": fake.bot_user.payload() | {"verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": fake.gateway_url,
            "application": {"id": str(fake.application_id), "flags": fake.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
            "auth": {},
            "_trace": ["fake-discord"],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await conn.send_text(session.frame("READY", ready))
        for guild in guilds:
            await conn.send_text(session.frame("GUILD_CREATE", guild.payload()))
        conn.ready = True
        self._changed()

    async def _resume(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        session = next((s for s in self.sessions if s.session_id == data.get("session_id")), None)
        if session is None or session.invalidated or data.get("token") not in (self.fake.token, f"Bot {self.fake.token}"):
            await conn.send({"op": INVALID_SESSION, "d": False})
            return
        self.resumes += 1
        session.resumes += 1
        old = session.connection
        if old is not None and old is not conn and old.alive:
            old.closed_by_server = True
            await old.ws.close(code=4000, message=b"fake: session resumed elsewhere")
        conn.session = session
        session.connection = conn
        since = int(data.get("seq") or 0)
        for seq, text in list(session.buffer):
            if seq > since:
                await conn.send_text(text)
        await conn.send_text(session.frame("RESUMED", {"_trace": ["fake-discord"]}))
        conn.ready = True
        self._changed()

    async def _members(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        if conn.session is None:
            return
        guild_ids = data.get("guild_id")
        for gid in guild_ids if isinstance(guild_ids, list) else [guild_ids]:
            guild = self.fake.guilds.get(int(gid))
            if guild is None:
                continue
            members = list(guild.members.values())
            if data.get("user_ids"):
                wanted = {int(u) for u in data["user_ids"]}
                members = [m for m in members if m.id in wanted]
            elif data.get("query"):
                members = [m for m in members if m.name.lower().startswith(str(data["query"]).lower())]
            limit = int(data.get("limit") or 0)
            if limit:
                members = members[:limit]
            chunk = {
                "guild_id": str(guild.id),
                "members": [m.payload() for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if data.get("nonce") is not None:
                chunk["nonce"] = data["nonce"]
            if data.get("presences"):
                chunk["presences"] = []
            await conn.send_text(conn.session.frame("GUILD_MEMBERS_CHUNK", chunk))
