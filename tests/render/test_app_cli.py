"""`skirmish play` as a script runs it: headless frames, a screenshot, bad input."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.commands.play import parse_size
from game.errors import InputError
from game.render import frame
from game.render.app import App
from game.scenario import load_scenario
from tests.conftest import SCENARIOS


def test_frames_and_screenshot_of_the_requested_size(tmp_path: Path) -> None:
    out = tmp_path / "shots" / "x.png"
    assert main(["play", "--frames", "3", "--screenshot", str(out), "--size", "900x640"]) == 0
    image = pygame.image.load(str(out))
    assert image.get_size() == (900, 640)
    r, g, b, _ = image.get_at((900 - 5, 320))
    assert (r, g, b) == frame.PANEL_BG  # the side panel at the right
    assert not list(out.parent.glob(".*tmp*"))  # written atomically


def test_default_size_is_1280_by_800(tmp_path: Path) -> None:
    out = tmp_path / "x.png"
    scenario = Path(__file__).resolve().parents[2] / "scenarios" / "necromunda-demo.toml"
    assert main(["play", str(scenario), "--frames", "1", "--screenshot", str(out)]) == 0
    assert pygame.image.load(str(out)).get_size() == (1280, 800)


def test_missing_scenario_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.toml"
    assert main(["play", str(missing), "--frames", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"skirmish: {missing}: no such file"]


def test_bad_size_and_screenshot_name_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--frames", "1", "--size", "big"]) == 2
    assert main(["play", "--frames", "1", "--screenshot", str(tmp_path / "x.jpg")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "--size" in err[0] and "--screenshot" in err[1]


def test_parse_size() -> None:
    assert parse_size("1280x800") == (1280, 800)
    assert parse_size("640X480", least=(200, 200)) == (640, 480)  # a picture's size
    for bad in ("640x480", "100x100", "1280", "x800", "12.5x800"):
        with pytest.raises(InputError):
            parse_size(bad)


def test_without_a_display_play_draws_one_frame_and_saves_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["play"]) == 0
    assert (tmp_path / "skirmish-play.png").read_bytes()[:4] == b"\x89PNG"


def test_a_window_is_no_smaller_than_800x600(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tester's finding 8: --size took 200x200 for a window whose panel and table fit
    from 800x600 (README); a window smaller is refused, and resizing stops there."""
    monkeypatch.chdir(tmp_path)
    for command in (["play"], ["edit"]):
        assert main([*command, "--frames", "1", "--size", "640x480"]) == 2
        assert "--size: expected WxH in pixels, from 800x600 up" in capsys.readouterr().err
    app = App.window(load_scenario(SCENARIOS / "infinity-demo.toml"), size=(800, 600))
    with pytest.warns(DeprecationWarning):
        window = pygame.Window.from_display_module()
    assert window.minimum_size == (800, 600) and app.windowed
    pygame.display.quit()
