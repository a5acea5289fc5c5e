"""Replay GIFs: one frame per turn, the last held longer, looping, and each frame the real picture."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageSequence

import engine
import render
from engine import Record
from render.replay import FINAL_MS, MAX_TOTAL_MS, MIN_TOTAL_MS, durations, names_at, scenes, turns


def frames(gif: bytes) -> list[Image.Image]:
    return [f.convert("RGB") for f in ImageSequence.Iterator(Image.open(io.BytesIO(gif)))]


def test_hex_gives_one_frame_per_stone_and_swap():
    pos = engine.new_game("hex", 7, ["swap"])
    for a in ("d4", "swap", "c3", "e5", "b2"):
        pos.play(a)
    gif = render.render_replay(Record.of(pos))
    assert Image.open(io.BytesIO(gif)).n_frames == 5


def test_inphexion_relocations_belong_to_the_turn_that_caused_them(relocating):
    pos = relocating()
    record = Record.of(pos)
    relocations = sum(">" in a for a in pos.actions)
    assert relocations
    # a move and its relocations are several actions in the record, and one frame
    assert Image.open(io.BytesIO(render.render_replay(record))).n_frames == len(pos.actions) - relocations
    assert all(p.phase != "relocate" for p in turns(record))


def test_blind_hex_gives_one_frame_per_round_and_none_for_a_secret_choice(random_position):
    pos = random_position("blindhex", None, 30, 4)
    record = Record.of(pos)
    positions = list(turns(record))
    assert all(p.phase in ("choose", "over") and len(p.to_move) != 1 for p in positions)
    rounds = 1 + sum(1 for a in pos.actions if a.startswith("o:") or a.startswith("x:")) // 2  # the aside, then rounds
    if pos.phase != "choose" or len(pos.to_move) == 1:
        rounds -= 1  # the round in progress has no frame yet
    assert len(positions) == rounds
    assert Image.open(io.BytesIO(render.render_replay(record))).n_frames == rounds


def test_game_without_actions_gives_one_frame():
    gif = render.render_replay(Record(engine.make_options("hex", 5)))
    assert Image.open(io.BytesIO(gif)).n_frames == 1


def test_gif_loops_and_holds_the_last_frame_longer(random_position):
    gif = render.render_replay(Record.of(random_position("hex", 5, 6, 5)))
    image = Image.open(io.BytesIO(gif))
    assert image.info["loop"] == 0
    durations = []
    for frame in ImageSequence.Iterator(image):
        durations.append(frame.info["duration"])
    assert durations[-1] >= FINAL_MS
    assert all(d < durations[-1] for d in durations[:-1])


def gif_ms(gif: bytes) -> int:
    return sum(f.info["duration"] for f in ImageSequence.Iterator(Image.open(io.BytesIO(gif))))


@pytest.mark.parametrize("turns_played", [0, 3, 12, 60])
def test_a_whole_replay_lasts_20_to_40_seconds_whatever_the_game_length(turns_played, random_position):
    gif = render.render_replay(Record.of(random_position("hex", 11, turns_played, 2)), width=400)
    assert MIN_TOTAL_MS <= gif_ms(gif) <= MAX_TOTAL_MS


@pytest.mark.parametrize("frames_count", [1, 2, 7, 50, 121, 361, 1300])
def test_frame_times_add_up_to_20_to_40_seconds_for_any_number_of_frames(frames_count):
    d = durations(frames_count)
    assert len(d) == frames_count
    assert MIN_TOTAL_MS <= sum(d) <= MAX_TOTAL_MS
    assert all(x % 10 == 0 and x >= 20 for x in d)


@pytest.mark.parametrize("game,size", [("hex", 7), ("inphexion", 7), ("blindhex", None)])
def test_each_frame_shows_the_position_after_its_turn(game, size, random_position, shown):
    pos = random_position(game, size, 40, 6)
    record = Record.of(pos)
    decoded = frames(render.render_replay(record))
    positions = list(turns(record))
    assert len(decoded) == len(positions)
    for image, p in zip(decoded, positions):
        lay = render.layout_of(p, width=720, caption="turn 1/1")
        for cell in range(p.size * p.size):
            want = p.piece_at(cell)
            if want != "neutral":
                assert shown(image, lay, cell, game) == want, (p.grid.name(cell), len(p.actions))


def test_longest_11x11_game_stays_under_8_mb(random_position):
    pos = random_position("hex", 11, 121, 7)
    # fill the board to the last cell: the longest possible Hex game on 11×11
    while pos.outcome is None:
        pos.play(pos.legal_actions()[-1])
    gif = render.render_replay(Record.of(pos))
    assert len(gif) < 8 * 1024 * 1024


def test_replay_rejects_an_absurd_width():
    with pytest.raises(ValueError, match="width"):
        render.render_replay(Record(engine.make_options("hex", 5)), width=10)


def test_flipped_replay_shows_each_stone_where_the_flipped_layout_puts_it(random_position, shown):
    pos = random_position("hex", 7, 12, 9)
    record = Record.of(pos)
    flipped = frames(render.render_replay(record, flip=True))
    assert flipped != frames(render.render_replay(record))
    positions = list(turns(record))
    assert len(flipped) == len(positions)
    for image, p in zip(flipped, positions):
        lay = render.layout_of(p, width=720, caption="turn 1/1", flip=True)
        for cell in range(49):
            assert shown(image, lay, cell, "hex") == p.piece_at(cell), (p.grid.name(cell), len(p.actions))


@pytest.mark.parametrize("game,actions,swapper_takes", [
    ("hex", ["c3", "swap", "b2"], "black"),
    ("inphexion", ["d4", "swap", "d4 d3"], "white"),
])
def test_replay_frames_name_the_players_by_the_colours_they_had_at_that_turn(game, actions, swapper_takes):
    variants = ["swap"] if game == "hex" else ["pie"]
    pos = engine.new_game(game, 7 if game == "inphexion" else 5, variants)
    start = {pos.to_move[0]: "alice", pos.other(pos.to_move[0]): "bob"}  # alice moves first
    for a in actions:
        pos.play(a)
    names = [{p.colour: p.name for p in sc.panels} for sc in scenes(Record.of(pos), start)]
    assert names[0] == start  # before the swap: as they sat down
    assert names[1][swapper_takes] == "bob" and names[2][swapper_takes] == "bob"
    assert set(names[1].values()) == {"alice", "bob"}


def test_the_replay_gif_paints_each_frame_with_the_names_of_that_turn():
    pos = engine.new_game("hex", 5, ["swap"])
    for a in ("c3", "swap"):
        pos.play(a)
    start = {"black": "alice", "white": "bob"}
    decoded = frames(render.render_replay(Record.of(pos), names=start))
    painted = [render.render_image(p, names=names_at(p, start), caption=f"turn {k}/2", width=720).convert("RGB")
               for k, p in enumerate(turns(Record.of(pos)), 1)]
    wrong = render.render_image(pos, names=start, caption="turn 2/2", width=720).convert("RGB")
    for image, want in zip(decoded, painted):
        assert _close(image, want)
    assert not _close(decoded[1], wrong)  # the names after the swap are not the starting ones


def _close(a: Image.Image, b: Image.Image) -> bool:
    """Equal up to the GIF's palette (each channel within a small step)."""
    from PIL import ImageChops

    return max(hi for _, hi in ImageChops.difference(a, b).getextrema()) <= 40


def test_a_replay_holds_only_the_frame_before_while_it_paints_the_next(random_position, monkeypatch):
    """Memory bounded whatever the game's length: frames are encoded as they come, not kept."""
    import gc
    import weakref

    from render import replay

    made: list[weakref.ref] = []
    alive_at_each: list[int] = []
    real = replay.to_palette

    def tracked(*args, **kwargs):
        gc.collect()
        alive_at_each.append(sum(1 for r in made if r() is not None))
        image = real(*args, **kwargs)
        made.append(weakref.ref(image))
        return image

    monkeypatch.setattr(replay, "to_palette", tracked)
    render.render_replay(Record.of(random_position("hex", 7, 30, 3)))
    assert len(made) >= 20
    assert max(alive_at_each) == 1


def test_a_replays_words_are_said_by_the_callers_say():
    """The frames' words go through ``say`` (the bot passes the catalogs'): a Blind Hex reveal line too."""
    record = Record(engine.make_options("blindhex", 11, [], "x"), ["aside 4+5", "x:1+2", "o:1+3"])
    heard: list[str] = []

    def say(text, facts):
        heard.append(text)
        return text.upper().format(**{k.upper(): v for k, v in facts.items()})

    shouted = render.render_replay(record, say=say)
    assert "Last: {player} {turn}" in heard
    assert shouted != render.render_replay(record)  # the words drawn are the ones said
