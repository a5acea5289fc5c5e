"""The game service without Discord: challenges, turns, results, ratings, restarts."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import ChallengeRequest, GameService, RematchAsked, UserError, challenge_options, draw_cut
from engine import ActionError, Hex, IllegalActionError, NotationError

GUILD, CHANNEL, ALICE, BOB, CAROL = 1, 10, 100, 200, 300


class Clock:
    """Time that only moves when a test says so."""

    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def service(store, clock):
    return GameService(store, clock=clock, seed_source=lambda: 12345)


def request(**kw) -> ChallengeRequest:
    base = dict(guild_id=GUILD, channel_id=CHANNEL, channel_is_thread=False, challenger_id=ALICE, opponent_id=BOB,
                opponent_is_bot=False, game="hex", size=5, seat="first")
    if "channel_can_thread" not in kw:
        base["thread"] = False  # played right here (the server's default is a thread per game)
    base.update(kw)
    return ChallengeRequest(**base)


async def start(service: GameService, **kw):
    ch = await service.create_challenge(request(**kw))
    return await service.accept(ch.id, kw.get("opponent_id", BOB))


# -- challenge options -------------------------------------------------------------------
@pytest.mark.parametrize(
    "kw, words",
    [
        (dict(game="inphexion", size=8, neutral=True), "odd sizes"),
        (dict(game="inphexion", swap=True), "Hex option"),
        (dict(game="hex", pie=True), "inpHeXion option"),
        (dict(game="hex", neutral=True), "inpHeXion option"),
        (dict(game="blindhex", size=9), "11×11"),
        (dict(game="blindhex", swap=True), "no swap option"),
        (dict(game="hex", size=25), "sizes"),
    ],
)
def test_options_that_do_not_fit_the_game_are_refused_with_the_reason(kw, words):
    with pytest.raises(UserError, match=words):
        challenge_options(request(**kw))


def test_hex_gets_swap_by_default_and_can_turn_it_off():
    assert challenge_options(request(game="hex")).variants == ("swap",)
    assert challenge_options(request(game="hex", swap=False)).variants == ()


def test_inphexion_options_become_engine_variants():
    opts = challenge_options(request(game="inphexion", size=7, pie=True, neutral=True, free_reply=True))
    assert opts.variants == ("free-reply", "neutral", "pie")


def test_the_blind_hex_cut_is_reproducible_from_its_seed():
    assert draw_cut(99) == draw_cut(99)
    winner, cards = draw_cut(99)
    assert winner in ("x", "o") and set(cards) == {"x", "o"}


# -- challenges ---------------------------------------------------------------------------
async def test_challenging_yourself_is_refused(service):
    with pytest.raises(UserError, match="yourself"):
        await service.create_challenge(request(opponent_id=ALICE))


async def test_challenging_a_bot_is_refused(service):
    with pytest.raises(UserError, match="Bots"):
        await service.create_challenge(request(opponent_is_bot=True))


async def test_a_channel_with_a_game_refuses_a_new_challenge_and_suggests_a_thread(service):
    await start(service)
    with pytest.raises(UserError, match="thread:true"):
        await service.create_challenge(request(challenger_id=CAROL, opponent_id=ALICE))


async def test_only_the_challenged_player_can_accept(service):
    ch = await service.create_challenge(request())
    with pytest.raises(UserError, match="Only the challenged"):
        await service.accept(ch.id, CAROL)
    assert (await service.challenge(ch.id)).status == "open"


async def test_two_accepts_at_once_start_one_game(service, store):
    ch = await service.create_challenge(request())
    results = await asyncio.gather(*(service.accept(ch.id, BOB) for _ in range(5)), return_exceptions=True)
    started = [r for r in results if not isinstance(r, Exception)]
    assert len(started) == 1
    assert all(isinstance(r, UserError) for r in results if isinstance(r, Exception))
    assert len(await store.active_games(GUILD)) == 1


async def test_an_expired_challenge_cannot_be_accepted(service, clock):
    ch = await service.create_challenge(request())
    clock.t += 15 * 60 + 1
    with pytest.raises(UserError, match="expired"):
        await service.accept(ch.id, BOB)


async def test_only_the_challenger_can_withdraw(service):
    ch = await service.create_challenge(request())
    with pytest.raises(UserError, match="Only the challenger"):
        await service.withdraw(ch.id, BOB)
    assert (await service.withdraw(ch.id, ALICE)).status == "withdrawn"


async def test_a_declined_challenge_cannot_be_accepted(service):
    ch = await service.create_challenge(request())
    await service.decline(ch.id, BOB)
    with pytest.raises(UserError, match="declined"):
        await service.accept(ch.id, BOB)


async def _finished_game(service: GameService) -> int:
    started = await start(service)
    await service.resign(CHANNEL, BOB)
    return started.game.row.id


async def test_both_players_pressing_rematch_at_once_make_one_challenge(service, store):
    game_id = await _finished_game(service)
    asks = [await service.rematch_request(game_id, user, None) for user in (ALICE, BOB, ALICE)]
    results = await asyncio.gather(*(service.create_challenge(req) for req in asks), return_exceptions=True)
    made = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(made) == 1 and len(refused) == 2
    assert all(isinstance(r, RematchAsked) and f"rematch of game #{game_id} is already asked for" in str(r)
               for r in refused), refused
    assert (await store.rematch_of(game_id)).id == made[0].id


async def test_a_rematch_pressed_in_two_processes_at_once_makes_one_challenge(store, clock):
    # two services on one database: each has its own locks, so only the store keeps them apart
    one, two = (GameService(store, clock=clock, seed_source=lambda: 1) for _ in range(2))
    game_id = await _finished_game(one)
    asks = [await svc.rematch_request(game_id, user, None) for svc, user in ((one, ALICE), (two, BOB))]
    results = await asyncio.gather(one.create_challenge(asks[0]), two.create_challenge(asks[1]),
                                   return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["ChallengeRow", "RematchAsked"], results


async def test_pressing_rematch_after_the_rematch_started_points_to_its_game(service):
    game_id = await _finished_game(service)
    ch = await service.create_challenge(await service.rematch_request(game_id, ALICE, None))
    started = await service.accept(ch.id, BOB)
    with pytest.raises(RematchAsked, match=f"is game #{started.game.row.id}"):
        await service.create_challenge(await service.rematch_request(game_id, BOB, None))


async def test_only_the_players_of_a_finished_game_can_ask_for_its_rematch(service):
    game_id = await _finished_game(service)
    with pytest.raises(UserError, match="Only the two players"):
        await service.rematch_request(game_id, CAROL, None)


async def test_the_seat_option_decides_who_plays_first(service):
    started = await start(service, seat="second")
    assert started.game.row.seats == (BOB, ALICE)


async def test_a_challenge_schedules_its_expiry(service, store):
    ch = await service.create_challenge(request())
    timer = await store.next_timer()
    assert (timer.kind, timer.ref_id, timer.due_at) == ("challenge-expiry", ch.id, ch.expires_at)


# -- playing --------------------------------------------------------------------------------
async def test_an_accepted_move_is_stored_before_the_call_returns(service, store):
    started = await start(service)
    await service.play(CHANNEL, ALICE, "C3")
    assert await store.actions(started.game.row.id) == ["c3"]


async def test_a_non_player_cannot_move(service):
    await start(service)
    with pytest.raises(UserError, match="not playing"):
        await service.play(CHANNEL, CAROL, "c3")


async def test_moving_out_of_turn_is_refused_and_changes_nothing(service, store):
    started = await start(service)
    with pytest.raises(UserError, match="not your turn"):
        await service.play(CHANNEL, BOB, "c3")
    assert await store.actions(started.game.row.id) == []


async def test_an_illegal_move_raises_the_engine_error_and_changes_nothing(service, store):
    started = await start(service)
    await service.play(CHANNEL, ALICE, "c3")
    with pytest.raises(IllegalActionError):
        await service.play(CHANNEL, BOB, "c3")
    with pytest.raises(NotationError):
        await service.play(CHANNEL, BOB, "hello")
    assert await store.actions(started.game.row.id) == ["c3"]


async def test_fifty_identical_moves_at_once_apply_exactly_once(service, store):
    started = await start(service)
    results = await asyncio.gather(*(service.play(CHANNEL, ALICE, "c3") for _ in range(50)), return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, (UserError, ActionError)) for r in results if isinstance(r, Exception))
    assert await store.actions(started.game.row.id) == ["c3"]


async def test_swap_gives_the_first_stone_to_the_second_player(service):
    await start(service)
    await service.play(CHANNEL, ALICE, "c3")
    result = await service.play(CHANNEL, BOB, "swap")
    assert result.game.colour_of(BOB) == "black"
    assert result.game.users_to_move() == [ALICE]


async def _win_hex(service) -> object:
    """Alice (black, top–bottom) wins a 5×5 game down column a while Bob plays column e."""
    result = None
    for row in range(1, 6):
        result = await service.play(CHANNEL, ALICE, f"a{row}")
        if result.outcome:
            break
        await service.play(CHANNEL, BOB, f"e{row}")
    return result


async def test_a_win_records_the_result_and_updates_both_ratings(service, store):
    started = await start(service, swap=False)
    result = await _win_hex(service)
    assert result.outcome.winner == "black" and result.outcome.reason.value == "connection"
    row = await store.get_game(started.game.row.id)
    assert (row.status, row.winner_seat, row.reason) == ("finished", 0, "connection")
    alice, bob = await store.get_rating(GUILD, "hex", ALICE), await store.get_rating(GUILD, "hex", BOB)
    assert alice.rating > 1500 > bob.rating
    assert (alice.wins, alice.losses, bob.wins, bob.losses) == (1, 0, 0, 1)
    assert set(result.rating_changes) == {ALICE, BOB}


async def test_an_unrated_game_leaves_ratings_alone(service, store):
    await start(service, swap=False, rated=False)
    await _win_hex(service)
    assert await store.get_rating(GUILD, "hex", ALICE) is None


async def test_resigning_gives_the_opponent_the_win(service, store):
    started = await start(service)
    await service.play(CHANNEL, ALICE, "c3")
    await service.play(CHANNEL, BOB, "b2")
    result = await service.resign(CHANNEL, ALICE)
    assert (result.outcome.winner, result.outcome.reason.value) == ("white", "resignation")
    assert (await store.get_game(started.game.row.id)).winner_seat == 1
    assert (await store.get_rating(GUILD, "hex", BOB)).wins == 1


async def test_resigning_before_both_moved_does_not_change_ratings(service, store):
    await start(service)
    await service.play(CHANNEL, ALICE, "c3")
    await service.resign(CHANNEL, BOB)
    assert await store.get_rating(GUILD, "hex", ALICE) is None


async def test_a_non_player_cannot_resign(service):
    await start(service)
    with pytest.raises(UserError, match="not playing"):
        await service.resign(CHANNEL, CAROL)


async def test_a_new_service_on_the_same_file_continues_the_game(store, clock):
    first = GameService(store, clock=clock, seed_source=lambda: 1)
    ch = await first.create_challenge(request())
    await first.accept(ch.id, BOB)
    await first.play(CHANNEL, ALICE, "c3")
    second = GameService(store, clock=clock)  # as after a restart: nothing in memory
    result = await second.play(CHANNEL, BOB, "b2")
    assert result.game.position.actions == ["c3", "b2"]


async def test_legal_actions_are_offered_only_to_the_player_to_move(service):
    await start(service)
    assert "c3" in await service.legal_for(CHANNEL, ALICE)
    assert await service.legal_for(CHANNEL, BOB) == []
    assert await service.legal_for(CHANNEL, CAROL) == []


# -- Blind Hex secrecy ----------------------------------------------------------------------
async def _blind(service):
    started = await start(service, game="blindhex", size=None)
    g = started.game
    loser = g.position.other(g.position.options.first)
    await service.play(CHANNEL, g.user_of(loser), "aside 4+5")
    return g


async def test_a_blind_hex_choice_is_secret_until_both_have_chosen(service):
    g = await _blind(service)
    first = await service.play(CHANNEL, g.user_of("x"), "1+2")
    assert first.secret and not first.revealed
    assert "x:1+2" not in first.game.position.public_record()
    x_hand = first.game.position.hands()["x"]
    assert 1 in x_hand and 2 in x_hand  # nothing public shows the choice yet
    second = await service.play(CHANNEL, g.user_of("o"), "1+3")
    assert second.revealed and not second.secret
    assert "x:1+2" in second.game.position.public_record()


async def test_a_blind_hex_player_cannot_choose_twice(service):
    g = await _blind(service)
    await service.play(CHANNEL, g.user_of("x"), "1+2")
    with pytest.raises(UserError, match="already chosen"):
        await service.play(CHANNEL, g.user_of("x"), "1+3")


async def test_a_thread_is_refused_where_threads_cannot_be_made(service):
    with pytest.raises(UserError, match="text channel"):
        await service.create_challenge(request(thread=True, channel_can_thread=False))


async def test_the_servers_thread_default_is_skipped_where_threads_cannot_be_made(service, store):
    ch = await service.create_challenge(request(channel_can_thread=False))
    assert not ch.thread


async def test_a_timeout_claim_is_a_rated_win_once_both_have_moved(service, store, clock):
    await start(service, clock="1h")
    await service.play(CHANNEL, ALICE, "c3")
    await service.play(CHANNEL, BOB, "b2")
    clock.t += 3600 + 1  # alice's hour is over
    result = await service.claim(CHANNEL, BOB)
    assert result.outcome.reason.value == "timeout"
    bob = await store.get_rating(GUILD, "hex", BOB)
    assert bob.wins == 1 and bob.rating > 1500


# -- what a move hands back ---------------------------------------------------------------
@pytest.mark.parametrize("clock_name", ["none", "1d"])
async def test_the_row_a_move_returns_is_the_row_stored(service, store, clock, clock_name):
    await start(service, clock=clock_name)
    for user, action in ((ALICE, "c3"), (BOB, "b2"), (ALICE, "c2")):
        clock.t += 60
        result = await service.play(CHANNEL, user, action)
        assert result.game.row == await store.get_game(result.game.row.id)
    clock.t += 60
    result = await service.resign(CHANNEL, BOB)
    assert result.game.row == await store.get_game(result.game.row.id)
    assert result.game.row.status == "finished"


async def test_a_move_reads_its_game_once_and_copies_its_position_once(service, store, monkeypatch):
    await start(service)
    await service.play(CHANNEL, ALICE, "c3")  # from here on the game's position is kept
    reads: list[str] = []
    inside: list[str] = []  # a store method calling another one is still one read

    def counted(name, real):
        async def read(*args, **kwargs):
            if not inside:
                reads.append(name)
            inside.append(name)
            try:
                return await real(*args, **kwargs)
            finally:
                inside.pop()
        return read

    for name in ("get_game", "active_game_in", "lock_game", "lock_game_in", "game_version", "actions"):
        monkeypatch.setattr(store, name, counted(name, getattr(store, name)))
    copies = []
    copy = Hex.copy
    monkeypatch.setattr(Hex, "copy", lambda self: copies.append(self) or copy(self))
    result = await service.play(CHANNEL, BOB, "b2")
    assert result.game.position.actions == ["c3", "b2"]
    assert reads == ["lock_game_in"]
    assert len(copies) == 1


async def test_a_move_leaves_the_position_it_was_played_on_unchanged(service):
    await start(service)
    first = await service.play(CHANNEL, ALICE, "c3")
    before = first.game.position.copy()
    await service.play(CHANNEL, BOB, "b2")
    assert first.game.position == before


def test_the_service_speaks_no_discord_markup():
    """Backticks, mentions, channel links, timestamps and bold live in ``bot.ui.texts``, not in the service."""
    import ast
    from pathlib import Path

    import bot.service

    marks = ("`", "<#", "<@", "<t:", "**", "~~", "||")
    found = []
    for path in Path(bot.service.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
                    and any(m in node.value for m in marks)):
                found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert not found, "\n".join(found)
