"""The shooter's-eye view's legend stays readable (tester16, could be better 1: in
necromunda-mirror at 1280x800 the line "hidden by hab stack (full height) (hab-west)
(building, full height)" shrank to 11 px, letters about 6 px high; README: "room enough
to be read"), and names a piece as its label does, two alike told apart in words ("west
hab stack"), not by an id in brackets."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.render import eye
from game.render.app import App
from game.render.session import Session
from game.scenario import load_scenario
from tests.conftest import SCENARIOS
from tests.render.driving import base, click, panel, point_at


def test_eye_legend_is_never_smaller_than_the_panels_smallest_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rendered: list[tuple[str, int, int]] = []
    real = eye.font

    class Told:
        def __init__(self, size: int) -> None:
            self.px, self.real = size, real(size)

        def render(self, text: str, *args: Any) -> pygame.Surface:
            image = self.real.render(text, *args)
            rendered.append((text, self.px, image.get_width()))
            return image

        def __getattr__(self, name: str) -> Any:
            return getattr(self.real, name)

    monkeypatch.setattr(eye, "font", Told)
    scenario = load_scenario(SCENARIOS / "necromunda-mirror.toml")
    app = App(scenario, session=Session.start(scenario, seed=1), size=(1280, 800))
    app.draw()
    click(app, base(app, "orlock-ganger-1"))
    rendered.clear()
    point_at(app, base(app, "goliath-ganger-2"))
    app.draw()
    legend = [r for r in rendered if r[0].startswith("hidden by ")]
    assert legend, rendered
    text, size, _ = legend[-1]  # as drawn: the last size tried
    assert text == "hidden by west hab stack (full height)"  # no "(hab-west)", no kind again
    assert size >= eye.LEAST_TEXT  # was 11
    said = panel(app)
    assert "west hab stack (full height)" in said and "(hab-west)" not in said


def test_eye_text_too_long_for_its_room_is_cut_not_shrunk_past_the_least() -> None:
    surface = pygame.Surface((400, 100))
    long = "hidden by the very long named habitation stack of the western hive quarter"
    box = eye._text(surface, long, 17, (255, 255, 255), (0, 0), "topleft", 150)
    assert box.width <= 150
    assert box.height >= eye.font(eye.LEAST_TEXT).get_height() - 1
