"""``python -m render`` takes the engine's arguments and writes a PNG and/or a GIF."""

from __future__ import annotations

import io
import subprocess
import sys

from PIL import Image

import engine
import render
from render.cli import main


def test_cli_writes_the_position_as_png(tmp_path):
    out = tmp_path / "board.png"
    assert main(["inphexion", "--size", "7", "d4", "d4 d5", "-o", str(out)]) == 0
    assert Image.open(out).format == "PNG"


def test_cli_writes_a_replay_gif(tmp_path):
    gif = tmp_path / "replay.gif"
    assert main(["hex", "--size", "5", "--variant", "swap", "c3", "swap", "b2", "--gif", str(gif)]) == 0
    assert Image.open(gif).n_frames == 3


def test_cli_accepts_options_between_and_after_actions(tmp_path):
    out = tmp_path / "b.png"
    assert main(["hex", "c3", "--size", "5", "b2", "-o", str(out), "--theme", "light", "--name", "black=Ann", "--flip"]) == 0
    assert out.exists()


def test_cli_reads_a_record_file(tmp_path):
    record = tmp_path / "game.txt"
    record.write_text("# game: blindhex\n# size: 11\naside 4+5\nx:1+2\no:1+3\n")
    out = tmp_path / "b.png"
    assert main(["blindhex", "--first", "x", "--record", str(record), "-o", str(out)]) == 0
    assert out.exists()


def test_cli_rejects_an_illegal_action_with_status_2(tmp_path, capsys):
    assert main(["hex", "--size", "5", "c3", "c3", "-o", str(tmp_path / "x.png")]) == 2
    assert "action 2" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_cli_rejects_bad_options_with_status_2(tmp_path, capsys):
    assert main(["inphexion", "--size", "8", "-o", str(tmp_path / "x.png")]) == 2
    assert "error" in capsys.readouterr().err


def test_python_dash_m_render_runs(tmp_path):
    out = tmp_path / "board.png"
    done = subprocess.run(
        [sys.executable, "-m", "render", "hex", "--size", "5", "c3", "-o", str(out)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    lay = render.layout_of(engine.new_game("hex", 5))
    assert Image.open(io.BytesIO(out.read_bytes())).size == (render.WIDTH, lay.height)


def test_cli_flips_the_replay_gif_too(tmp_path):
    import engine
    import render
    from render.replay import turns

    args = ["hex", "--size", "5", "c3", "a1", "e2"]
    plain, flipped = tmp_path / "plain.gif", tmp_path / "flipped.gif"
    assert main(args + ["--gif", str(plain)]) == 0
    assert main(args + ["--gif", str(flipped), "--flip"]) == 0
    pos = engine.new_game("hex", 5)
    for a in ("c3", "a1", "e2"):
        pos.play(a)
    want = render.render_replay(engine.Record.of(pos), flip=True)
    assert flipped.read_bytes() == want
    assert plain.read_bytes() != want
    assert len(list(turns(engine.Record.of(pos)))) == Image.open(flipped).n_frames
