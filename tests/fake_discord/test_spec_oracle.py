"""The oracle itself: requests Discord's spec or documented limits forbid, sent straight to the
fake over HTTP, are each refused with 400 50035 at the right field path (and recorded), valid
ones pass, and the fake's answers match the spec's response schemas. If the fake quietly
became lenient, these fail."""

from __future__ import annotations

import json
from typing import Any, AsyncIterator

import aiohttp
import pytest

from . import FakeDiscord
from .fixtures import fake_discord  # noqa: F401 (fixture)
from .openapi import spec
from .rest import router

Body = Any


def command(**option: Any) -> dict[str, Any]:
    """A valid chat-input command with one option (overridden by ``option``)."""
    opt = {"type": 4, "name": "game", "description": "the game's number", "required": True} | option
    return {"type": 1, "name": "record", "description": "A game's record", "options": [opt]}


def button(**fields: Any) -> dict[str, Any]:
    """A valid button (overridden by ``fields``); None removes a field."""
    data = {"type": 2, "style": 1, "custom_id": "hexcord:go", "label": "Go"} | fields
    return {k: v for k, v in data.items() if v is not None}


def row(*children: dict[str, Any]) -> dict[str, Any]:
    """An action row."""
    return {"type": 1, "components": list(children)}


def embed(**fields: Any) -> dict[str, Any]:
    """An embed with a title (overridden by ``fields``)."""
    return {"title": "Board"} | fields


def options(n: int) -> list[dict[str, Any]]:
    """``n`` distinct optional string options."""
    return [{"type": 3, "name": f"o{i}", "description": "d"} for i in range(n)]


#: (what, route kind, body, field path Discord names). Route kinds: see ``_path``.
INVALID: list[tuple[str, str, Body, str]] = [
    # application commands
    ("integer max_value above Int53 (2**53)", "commands", [command(min_value=1, max_value=2**53)], "0.options.0.max_value"),
    ("min_value greater than max_value", "commands", [command(min_value=10, max_value=1)], "0.options.0.min_value"),
    ("min_length greater than max_length", "commands", [command(type=3, min_length=5, max_length=2)],
     "0.options.0.min_length"),
    ("101-character choice name", "commands", [command(type=3, choices=[{"name": "x" * 101, "value": "v"}])],
     "0.options.0.choices.0.name"),
    ("choice value not of the option's type", "commands", [command(choices=[{"name": "one", "value": "1"}])],
     "0.options.0.choices.0.value"),
    ("101-character string choice value", "commands", [command(type=3, choices=[{"name": "n", "value": "v" * 101}])],
     "0.options.0.choices.0.value"),
    ("26 choices", "commands", [command(type=3, choices=[{"name": f"c{i}", "value": f"{i}"} for i in range(26)])],
     "0.options.0.choices"),
    ("upper-case command name", "commands", [command() | {"name": "Record"}], "0.name"),
    ("command name with a space", "commands", [command() | {"name": "my record"}], "0.name"),
    ("33-character command name", "commands", [command() | {"name": "r" * 33}], "0.name"),
    ("option name with punctuation", "commands", [command(name="game!")], "0.options.0.name"),
    ("empty command description", "commands", [command() | {"description": ""}], "0.description"),
    ("101-character command description", "commands", [command() | {"description": "d" * 101}], "0.description"),
    ("26 options", "commands", [command() | {"options": options(26)}], "0.options"),
    ("required option after an optional one", "commands",
     [command() | {"options": [*options(1), {"type": 3, "name": "need", "description": "d", "required": True}]}],
     "0.options.1.required"),
    ("more than 4,000 characters in one command", "commands",
     [command() | {"options": [{"type": 3, "name": f"o{i}", "description": "d" * 100,
                                "choices": [{"name": "n" * 100, "value": f"{i}{j}"} for j in range(2)]}
                               for i in range(15)]}], "0"),
    ("two commands with one name", "commands", [command(), command()], "1.name"),
    # messages
    ("2,001 characters of content", "message", {"content": "x" * 2001}, "content"),
    ("11 embeds", "message", {"embeds": [embed()] * 11}, "embeds"),
    ("257-character embed title", "message", {"embeds": [embed(title="t" * 257)]}, "embeds.0.title"),
    ("4,097-character embed description", "message", {"embeds": [embed(description="d" * 4097)]},
     "embeds.0.description"),
    ("257-character field name", "message", {"embeds": [embed(fields=[{"name": "n" * 257, "value": "v"}])]},
     "embeds.0.fields.0.name"),
    ("1,025-character field value", "message", {"embeds": [embed(fields=[{"name": "n", "value": "v" * 1025}])]},
     "embeds.0.fields.0.value"),
    ("26 embed fields", "message", {"embeds": [embed(fields=[{"name": "n", "value": "v"}] * 26)]}, "embeds.0.fields"),
    ("2,049-character footer", "message", {"embeds": [embed(footer={"text": "f" * 2049})]}, "embeds.0.footer.text"),
    ("257-character author name", "message", {"embeds": [embed(author={"name": "a" * 257})]}, "embeds.0.author.name"),
    ("embeds over 6,000 characters in all", "message", {"embeds": [embed(description="d" * 4000)] * 2}, "embeds"),
    ("embed colour 2**24", "message", {"embeds": [embed(color=2**24)]}, "embeds.0.color"),
    ("footer without text", "message", {"embeds": [embed(footer={"icon_url": "https://example.invalid/i.png"})]},
     "embeds.0.footer.text"),
    ("author without name", "message", {"embeds": [embed(author={"url": "https://example.invalid/"})]},
     "embeds.0.author.name"),
    ("attachment:// naming a file that is not sent", "message",
     {"embeds": [embed(image={"url": "attachment://board.png"})]}, "embeds.0.image.url"),
    ("11 attachments", "message",
     {"content": "x", "attachments": [{"id": i, "filename": f"{i}.png"} for i in range(11)]}, "attachments"),
    ("6 action rows", "message", {"components": [row(button(custom_id=f"b{i}")) for i in range(6)]}, "components"),
    ("6 buttons in a row", "message", {"components": [row(*[button(custom_id=f"b{i}") for i in range(6)])]},
     "components.0.components"),
    ("101-character custom_id", "message", {"components": [row(button(custom_id="c" * 101))]},
     "components.0.components.0.custom_id"),
    ("81-character button label", "message", {"components": [row(button(label="l" * 81))]},
     "components.0.components.0.label"),
    ("button without label or emoji", "message", {"components": [row(button(label=None))]},
     "components.0.components.0.label"),
    ("link button with a custom_id", "message",
     {"components": [row(button(style=5, url="https://example.invalid/"))]}, "components.0.components.0.custom_id"),
    ("link button without a url", "message", {"components": [row(button(style=5, custom_id=None))]},
     "components.0.components.0.url"),
    ("select with 26 options", "message",
     {"components": [row({"type": 3, "custom_id": "pick", "options": [{"label": f"{i}", "value": f"{i}"}
                                                                       for i in range(26)]})]},
     "components.0.components.0.options"),
    ("ephemeral flag on a channel message", "message", {"content": "secret", "flags": 64}, "flags"),
    # threads
    ("thread without type", "thread", {"name": "game 1"}, "type"),
    ("101-character thread name", "thread", {"name": "n" * 101, "type": 11}, "name"),
    # interaction responses
    ("26 autocomplete choices", "callback", {"type": 8, "data": {"choices": [{"name": f"{i}", "value": f"{i}"}
                                                                             for i in range(26)]}}, "data.choices"),
    ("101-character autocomplete choice name", "callback",
     {"type": 8, "data": {"choices": [{"name": "x" * 101, "value": "a1"}]}}, "data.choices.0.name"),
    ("embed colour 2**24 in an interaction response", "callback",
     {"type": 4, "data": {"embeds": [embed(color=2**24)]}}, "data.embeds.0.color"),
    ("46-character modal title", "callback",
     {"type": 9, "data": {"custom_id": "m", "title": "t" * 46,
                          "components": [row({"type": 4, "custom_id": "a", "style": 1, "label": "A"})]}},
     "data.title"),
]


VALID: list[tuple[str, str, Body, int]] = [
    ("a command sync like the bot's, snowflakes and permissions as discord.py sends them", "commands",
     [command(min_value=1, max_value=2**31 - 1),
      {"type": 1, "name": "खेलो", "description": "Devanagari with vowel signs", "default_member_permissions": "32",
       "contexts": [0], "integration_types": [0],
       "options": [{"type": 3, "name": "เกม", "description": "Thai", "choices": [{"name": "Hex", "value": "hex"}]}]}],
     200),
    ("a message with an attached picture, an embed and buttons", "message",
     {"content": "Your move", "embeds": [embed(image={"url": "attachment://board.png"}, color=2**24 - 1,
                                               footer={"text": "game 1"})],
      "components": [row(button(), button(custom_id="hexcord:resign", label=None, emoji={"name": "🏳"}),
                         button(style=5, custom_id=None, url="https://example.invalid/rules"))],
      "allowed_mentions": {"parse": []}, "flags": 4096}, 200),
    ("a public thread", "thread", {"name": "hex #1", "type": 11, "auto_archive_duration": 1440}, 201),
]


@pytest.fixture
async def http(fake_discord: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:  # noqa: F811
    """A raw HTTP client to the fake (authenticated as the bot)."""
    async with aiohttp.ClientSession(fake_discord.url, headers={"Authorization": f"Bot {fake_discord.token}"}) as session:
        yield session


def _path(fake: FakeDiscord, kind: str) -> str:
    w = fake.world
    return {
        "commands": f"/applications/{fake.application_id}/commands",
        "message": f"/channels/{w.channel.id}/messages",
        "thread": f"/channels/{w.channel.id}/threads",
        "callback": "/interactions/1/not-a-live-token/callback",
    }[kind]


async def _send(http: aiohttp.ClientSession, method: str, path: str, body: Body,
                files: dict[str, bytes] | None = None) -> tuple[int, Any]:
    if files:
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps(body), content_type="application/json")
        for i, (name, data) in enumerate(files.items()):
            form.add_field(f"files[{i}]", data, filename=name, content_type="image/png")
        request = http.request(method, "/api/v10" + path, data=form)
    else:
        request = http.request(method, "/api/v10" + path, json=body)
    async with request as resp:
        return resp.status, await resp.json() if resp.status != 204 else None


def _field(errors: dict[str, Any], path: str) -> list[dict[str, Any]]:
    """The ``_errors`` Discord gives at ``path`` in its nested errors (KeyError if none)."""
    node = errors
    for part in path.split(".") if path else []:
        node = node[part]
    return node["_errors"]


def _method(kind: str) -> str:
    return "PUT" if kind == "commands" else "POST"


@pytest.mark.parametrize("what,kind,body,field", INVALID, ids=[case[0] for case in INVALID])
async def test_a_forbidden_request_is_refused_at_its_field(fake_discord: FakeDiscord, http: aiohttp.ClientSession,  # noqa: F811
                                                           what: str, kind: str, body: Body, field: str) -> None:
    status, answer = await _send(http, _method(kind), _path(fake_discord, kind), body)
    assert (status, answer["code"], answer["message"]) == (400, 50035, "Invalid Form Body"), answer
    assert _field(answer["errors"], field), answer
    [violation] = fake_discord.take_violations()
    assert any(p.split(" ", 2)[2].startswith(f"{field}: ") for p in violation.problems), violation


@pytest.mark.parametrize("what,kind,body,status", VALID, ids=[case[0] for case in VALID])
async def test_a_valid_request_passes(fake_discord: FakeDiscord, http: aiohttp.ClientSession,  # noqa: F811
                                      what: str, kind: str, body: Body, status: int) -> None:
    files = {"board.png": b"\x89PNG\r\n\x1a\n"} if kind == "message" else None
    got, answer = await _send(http, _method(kind), _path(fake_discord, kind), body, files)
    assert got == status, answer
    assert fake_discord.take_violations() == []


async def test_a_refusal_fails_the_test_that_caused_it(fake_discord: FakeDiscord,  # noqa: F811
                                                       http: aiohttp.ClientSession) -> None:
    from .fixtures import collect_violations

    await _send(http, "POST", _path(fake_discord, "message"), {"embeds": [embed(footer={})]})
    report = collect_violations()  # what tests/conftest.py fails the test with
    assert "create_message" in report and "embeds.0.footer.text: This field is required" in report
    assert fake_discord.take_violations() == []  # collected, so this test itself passes


def test_every_route_of_the_fake_is_an_operation_of_the_spec() -> None:
    oracle = spec()
    missing = []
    for method, _, template, _, _ in router.routes:
        sample = template.replace("{", "").replace("}", "")  # "/channels/channel_id" matches "{channel_id}"
        if oracle.operation(method, sample) is None:
            missing.append(f"{method} {template}")
    assert missing == []


async def test_the_fakes_answers_match_the_spec(fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:  # noqa: F811
    """Answers to the operations the bot uses, checked against their response schemas here too."""
    w = fake_discord.world
    app = fake_discord.application_id
    fake_discord.fail(r"^POST /channels/\d+/messages$", status=429, times=1, retry_after=0.01)
    calls: list[tuple[str, str, Body]] = [
        ("GET", "/users/@me", None),
        ("GET", "/oauth2/applications/@me", None),
        ("GET", "/applications/@me", None),
        ("PUT", f"/applications/{app}/guilds/{w.guild.id}/commands",
         [command(), {"type": 1, "name": "settings", "description": "d", "default_member_permissions": "32"}]),
        ("GET", f"/applications/{app}/guilds/{w.guild.id}/commands", None),
        ("POST", f"/channels/{w.channel.id}/messages", {"content": "rate limited first"}),
        ("POST", f"/channels/{w.channel.id}/messages", {"content": "hi", "components": [row(button())]}),
        ("POST", f"/channels/{w.channel.id}/threads", {"name": "game", "type": 11}),
        ("GET", f"/channels/{w.channel.id}", None),
        ("GET", f"/guilds/{w.guild.id}/members/{w.alice.id}", None),
        ("POST", "/users/@me/channels", {"recipient_id": str(w.alice.id)}),
        ("GET", "/channels/1", None),
    ]
    checked = []
    for method, path, body in calls:
        status, answer = await _send(http, method, path, body)
        operation = spec().operation(method, path)
        assert operation is not None
        assert operation.response_problems(status, answer) == [], (method, path, status)
        checked.append((operation.operation_id, status))
    assert ("create_message", 429) in checked and ("get_channel", 404) in checked
    synced = (await _send(http, "GET", f"/applications/{app}/guilds/{w.guild.id}/commands", None))[1]
    assert all(c["integration_types"] == [0] for c in synced)
    assert [c["default_member_permissions"] for c in synced] == [None, "32"]
    sent = fake_discord.messages(w.channel)[-1].payload()
    assert [c["id"] for c in sent["components"]] == [1] and sent["components"][0]["components"][0]["id"] == 2
    assert fake_discord.take_violations() == []


# --------------------------------------------------------------------------- refreshing the vendored spec


def test_refresh_vendors_a_good_spec_with_its_licence(tmp_path) -> None:
    from .openapi import SPEC_PATH
    from .refresh_spec import main

    assert main([str(SPEC_PATH.parent), "--into", str(tmp_path / "spec")]) == 0
    assert sorted(p.name for p in (tmp_path / "spec").iterdir()) == ["LICENSE", "README.md", "openapi.json"]
    assert (tmp_path / "spec" / "openapi.json").read_bytes() == SPEC_PATH.read_bytes()


def test_refresh_refuses_a_spec_lacking_an_operation_the_fake_serves(tmp_path, capsys) -> None:
    from .openapi import SPEC_PATH
    from .refresh_spec import main

    document = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    del document["paths"]["/interactions/{interaction_id}/{interaction_token}/callback"]
    (tmp_path / "openapi.json").write_text(json.dumps(document), encoding="utf-8")
    assert main([str(tmp_path / "openapi.json"), "--into", str(tmp_path / "out")]) == 1
    assert "POST /interactions/{interaction_id}/{token}/callback" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_refresh_refuses_what_is_not_openapi_3_1(tmp_path, capsys) -> None:
    from .refresh_spec import main

    (tmp_path / "openapi.json").write_text('{"openapi": "3.0.3", "paths": {}}', encoding="utf-8")
    assert main([str(tmp_path), "--into", str(tmp_path / "out")]) == 1
    assert "OpenAPI 3.1" in capsys.readouterr().err
    (tmp_path / "openapi.json").write_text("{not json", encoding="utf-8")
    assert main([str(tmp_path), "--into", str(tmp_path / "out")]) == 1


async def test_a_fake_not_checking_its_own_answers_still_refuses_a_forbidden_request(
        fake_discord: FakeDiscord, http: aiohttp.ClientSession) -> None:  # noqa: F811
    fake_discord.check_own_answers = False  # as bench/load.py runs it
    status, answer = await _send(http, "POST", _path(fake_discord, "message"), {"embeds": [embed(footer={})]})
    assert (status, answer["code"]) == (400, 50035), answer
    [violation] = fake_discord.take_violations()
    assert any("embeds.0.footer.text: This field is required" in p for p in violation.problems), violation
