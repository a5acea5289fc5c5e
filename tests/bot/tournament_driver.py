"""Playing tournaments through the fake Discord: sign-up, reading round announcements, finishing games.

Everything here reads what the bot posted (announcements, standings) as a member would; the
rules the tests check it against are computed in the tests themselves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tests.bot.harness import Harness
from tests.fake_discord import FakeMember, FakeMessage

PAIRING = re.compile(r"^(\d+)\. <@(\d+)> \(first seat\) vs <@(\d+)> — <#(\d+)>$")
BYE = re.compile(r"^bye: (.*)$")
ROW = re.compile(r"^\s*(\d+) (.{20}) +(\d+)((?: +(?:-|\d+))*) +(\d+)( \(withdrawn\))?$")


@dataclass
class Announced:
    """A round as announced: its games (board, first seat, second seat, thread id) and byes."""

    number: int
    games: list[tuple[int, int, int, int]] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)
    messages: list[FakeMessage] = field(default_factory=list)


def members(h: Harness, n: int) -> list[FakeMember]:
    """``n`` members of the test server (alice, bob, carol, then new ones)."""
    w = h.world
    out = [w.alice, w.bob, w.carol][:n]
    for k in range(len(out), n):
        out.append(h.fake.add_member(h.channel.guild, f"player{k + 1}"))
    return out


async def sign_up(h: Harness, organiser: FakeMember, players: list[FakeMember], **options) -> FakeMessage:
    """``/tournament create`` as ``organiser``, everyone presses Join, the organiser presses Start."""
    r = await h.slash(organiser, "tournament create", **options)
    assert not r.ephemeral, r.content
    signup = r.message
    join = next(c for c in r.custom_ids if c.endswith(":join"))
    for p in players:
        a = await h.fake.click(p, signup, join)
        assert not a.ephemeral or "joined" in (a.content or ""), a.content
    start = next(c for c in signup.custom_ids if c.endswith(":start"))
    await h.fake.click(organiser, signup, start)
    return signup


async def announced(h: Harness, tournament: int, number: int) -> Announced:
    """Round ``number``'s announcement, waited for and read."""
    head = f"**Tournament #{tournament} — round {number} of"
    first = await h.fake.wait_for(lambda m: m.channel is h.channel and (m.content or "").startswith(head), timeout=20)
    msgs = [m for m in h.fake.messages(h.channel) if m.id >= first.id]
    out = Announced(number, messages=[first])
    for m in msgs:
        if m is not first and (m.content or "").startswith("**"):
            break
        if m is not first:
            out.messages.append(m)
        for line in (m.content or "").splitlines():
            if g := PAIRING.match(line):
                out.games.append(tuple(int(x) for x in g.groups()))  # type: ignore[arg-type]
            elif b := BYE.match(line):
                out.byes.extend(int(x) for x in re.findall(r"<@(\d+)>", b.group(1)))
    return out


def thread_of(h: Harness, channel_id: int):
    """The fake channel (thread) with this id."""
    return h.fake.channels[channel_id]


async def resign(h: Harness, who: FakeMember, thread_id: int) -> None:
    """``/resign`` in a game's thread."""
    r = await h.slash(who, "resign", channel=thread_of(h, thread_id))
    assert not r.ephemeral, r.content


async def win_by_moves(h: Harness, first: FakeMember, second: FakeMember, thread_id: int) -> None:
    """Hex 3×3 without swap: the first seat connects a1–a3 while the second plays b1, b2."""
    thread = thread_of(h, thread_id)
    for who, cell in ((first, "a1"), (second, "b1"), (first, "a2"), (second, "b2"), (first, "a3")):
        r = await h.move(who, cell, channel=thread)
        assert not r.ephemeral, r.content


async def final_post(h: Harness, tournament: int) -> FakeMessage:
    """The final standings post."""
    head = f"**Tournament #{tournament} — final standings**"
    return await h.fake.wait_for(lambda m: m.channel is h.channel and (m.content or "").startswith(head), timeout=20)


def table_rows(text: str) -> list[tuple[int, str, int, tuple[int | None, ...], int, bool]]:
    """The rows of a standings text: (rank, name, points, tie-breaks, games, withdrawn)."""
    out = []
    for line in text.splitlines():
        if m := ROW.match(line):
            marks = tuple(None if v == "-" else int(v) for v in m.group(4).split())
            out.append((int(m.group(1)), m.group(2).strip(), int(m.group(3)), marks, int(m.group(5)), bool(m.group(6))))
    return out
