"""Token hygiene: the bot token never shows up in logs, error messages, messages or the database.

The real bot runs as ``python -m bot`` at ``LOG_LEVEL=DEBUG`` (discord.py's own
debug lines included) against the fake, is made to fail in several ways (rate
limits past every retry, a 401, a dropped gateway connection and RESUME), and
everything it wrote — stderr, stdout, every HTTP request it sent apart from the
``Authorization`` header, the SQLite files — is searched for the token and for
its secret last part.

The redaction filter itself must never raise: it formats every record, so a
record it cannot format would otherwise break the code that logged it (and a
log call whose arguments don't fit its format does exactly that).
"""

from __future__ import annotations

import ast
import asyncio
import io
import json
import logging
import os
import re
import signal
import sys
from pathlib import Path

from bot.logs import RedactFilter
from tests.fake_discord import FakeDiscord
from tests.fake_discord.fixtures import standard_world

ROOT = Path(__file__).resolve().parents[2]
#: shaped like a real token: base64 user id . timestamp . HMAC (the secret part)
TOKEN = "MTU3Mzk4NDk5OTk5OTk5OTk5OQ.GhYgNe.hYgIeNe-Sekr1t_T0kEn-9f8e7d6c5b4a3210zyxwv"
SECRET_PART = TOKEN.rsplit(".", 1)[1]
CALLBACK = r"^POST /interactions/\d+/[^/]+/callback$"


def leaks(text: str) -> list[str]:
    return [s for s in (TOKEN, SECRET_PART) if s in text]


async def test_the_token_never_leaves_the_authorization_header(tmp_path):
    fake = FakeDiscord(token=TOKEN)
    w = standard_world(fake)
    await fake.start()
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "DEV_GUILD_ID")}
    env.update(DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(tmp_path / "bot.sqlite3"), LOG_LEVEL="DEBUG",
               PYTHONUNBUFFERED="1")
    env = fake.launch_env(env)
    stderr_path, stdout_path = tmp_path / "stderr.txt", tmp_path / "stdout.txt"
    with open(stderr_path, "wb") as err, open(stdout_path, "wb") as out:
        proc = await asyncio.create_subprocess_exec(*fake.launch_command("bot"), env=env, cwd=tmp_path,
                                                    stdout=out, stderr=err)
    try:
        await fake.wait_until_connected(timeout=30)
        await fake.wait_for_request(lambda r: r.method == "PUT" and "/commands" in r.path, timeout=30)
        await fake.slash(w.alice, w.channel, "rules", game="hex")
        r = await fake.slash(w.alice, w.channel, "challenge", opponent=w.bob, game="hex", size=5, seat="first",
                             thread=False)
        accept = [c for c in r.custom_ids if c.endswith(":accept")]
        if accept:
            await fake.click(w.bob, r, accept[0])
            await fake.wait_for(lambda m: any(n.endswith(".png") for n in m.files))
        # Every retry of an answer is rate limited: discord.py gives up and the bot logs the error.
        fault = fake.fail(CALLBACK, status=429, times=10, retry_after=0.01)
        await fake.start_slash(w.carol, w.channel, "history")
        await fake.wait_for_request(lambda q: fault.hits >= 10, timeout=20)
        # A 401 (as after a token reset) on the acknowledgement: logged, then the answer gets through.
        fake.fail(CALLBACK, status=401, times=1)
        answered = await fake.slash(w.carol, w.channel, "games")
        assert answered.content or answered.embeds
        # The gateway drops; the bot resumes with its token.
        resumes = fake.gateway.resumes
        await fake.gateway.drop()
        await fake.gateway.wait_until(lambda g: g.resumes > resumes and g.connected, timeout=30)
        last = await fake.slash(w.carol, w.channel, "history")
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), 30)
            except asyncio.TimeoutError:
                proc.kill()
                await proc.wait()
        await fake.stop()
    assert last.content or last.embeds
    logs = stderr_path.read_text(errors="replace") + stdout_path.read_text(errors="replace")
    assert " DEBUG " in logs and " ERROR " in logs, "the run must have logged at DEBUG and hit errors"
    assert not leaks(logs), [line for line in logs.splitlines() if leaks(line)][:5]

    authenticated = [q for q in fake.requests if q.headers.get("Authorization")]
    assert authenticated and all(q.headers["Authorization"] == f"Bot {TOKEN}" for q in authenticated)
    for q in fake.requests:
        carried = json.dumps([q.path, q.query, q.json], default=str) + "".join(
            f.data.decode("latin-1") for f in q.files)
        carried += json.dumps({k: v for k, v in q.headers.items() if k.lower() != "authorization"})
        assert not leaks(carried), f"{q!r} carries the token"
    for path in tmp_path.glob("bot.sqlite3*"):
        assert not leaks(path.read_bytes().decode("latin-1")), f"{path.name} holds the token"


def test_the_redaction_filter_never_raises_on_a_record_it_cannot_format():
    """A malformed log call must not turn into an exception in the code that logged it."""
    record = logging.LogRecord("bot.service", logging.INFO, __file__, 1, "game %d: %d×%d", (1, 7), None)
    assert RedactFilter(TOKEN).filter(record) is True


def test_the_filter_scrubs_the_token_from_messages_arguments_and_tracebacks():
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactFilter(TOKEN))
    logger = logging.getLogger("tests.token_hygiene")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("connecting with %s", TOKEN)
        logger.warning("headers: %r", {"Authorization": f"Bot {TOKEN}"})
        logger.warning(f"inline {TOKEN}")
        try:
            raise RuntimeError(f"request failed: Authorization: Bot {TOKEN}")
        except RuntimeError:
            logger.exception("HTTP error")
        try:
            raise ValueError(SECRET_PART)
        except ValueError as exc:
            logger.error("wrapped", exc_info=exc)
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    text = stream.getvalue()
    assert text.count("[redacted]") >= 4 and "Traceback" in text
    assert TOKEN not in text


def test_every_log_call_of_the_bot_has_arguments_that_fit_its_format():
    """``log.info("%d×%d", size)`` raises inside the redaction filter, i.e. in the bot's own code."""
    placeholder = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[diouxXeEfFgGcrsa]")
    wrong = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("debug", "info", "warning", "error", "exception", "critical", "log")
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in ("log", "logger", "_log")):
                continue
            args = node.args[1:] if node.func.attr == "log" else node.args
            if not args or not isinstance(args[0], ast.Constant) or not isinstance(args[0].value, str):
                continue
            if any(isinstance(a, ast.Starred) for a in args):
                continue
            wanted = len(placeholder.findall(args[0].value.replace("%%", "")))
            if wanted != len(args) - 1:
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}: {wanted} placeholders, "
                             f"{len(args) - 1} arguments: {args[0].value!r}")
    assert not wrong, "\n".join(wrong)


def test_a_run_with_production_logging_answers_a_challenge(tmp_path, monkeypatch):
    """In-process, with exactly the logging ``python -m bot`` sets up (INFO, redaction filter)."""
    from bot.logs import setup_logging

    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    setup_logging("INFO", TOKEN)
    try:
        result = asyncio.run(_challenge_once(tmp_path))
    finally:
        root.handlers[:], level = saved
        root.setLevel(level)
        logging.getLogger("discord").setLevel(logging.NOTSET)
    assert not result.ephemeral, result.content
    assert "challenges you" in result.content
    assert not leaks(stream.getvalue())


async def _challenge_once(tmp_path):
    from bot.app import HexBot
    from bot.config import Settings
    from tests.bot.harness import ManualClock
    from tests.fake_discord.fixtures import run_client
    from tests.fake_discord.patch import patch_discord

    fake = FakeDiscord(token=TOKEN)
    w = standard_world(fake)
    await fake.start()
    try:
        with patch_discord(fake):
            bot = HexBot(Settings(token=TOKEN, database_url=str(tmp_path / "bot.sqlite3")), clock=ManualClock())
            async with run_client(bot, fake):
                return await fake.slash(w.alice, w.channel, "challenge", opponent=w.bob, game="hex", size=5)
    finally:
        await fake.stop()
