"""The window's words as a new user read them (tester9): the Selected section names the
model and its profile without file ids, the odds say "unconscious", the ruling's tag on
the table says what it means, and a shot refused for a target drops that target from the
pending line."""

from __future__ import annotations

import pygame
import pytest

from game.render import overlays
from game.render.app import App
from game.render.session import Session
from game.scenario import load_scenario
from tests.conftest import SCENARIOS
from tests.render.driving import base, click, panel, point_at, press


@pytest.fixture
def app() -> App:
    scenario = load_scenario(SCENARIOS / "infinity-demo.toml")
    window = App.window(scenario, size=(1280, 800), session=Session.start(scenario, 1))
    window.prepare_line_of_fire()
    return window


def tags(app: App, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts of the labels the ruling draws on the table from now on."""
    drawn: list[str] = []
    label = overlays._label

    def record(surface: pygame.Surface, text: str, *args: object) -> object:
        drawn.append(text)
        return label(surface, text, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(overlays, "_label", record)
    return drawn


def test_the_selected_model_and_its_profile_are_named_without_ids(app: App) -> None:
    click(app, base(app, "orc-1"))
    text = panel(app)
    assert "Orc 1  (PanOceania)" in text  # was "Orc 1 [orc-1]  (PanOceania)"
    assert "Orc trooper" in text and "orc-trooper" not in text  # the profile's id was shown


def test_the_odds_and_the_ruling_tag_are_in_words(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = tags(app, monkeypatch)
    click(app, base(app, "fusilier-1"))
    point_at(app, base(app, "zhanshi-hmg"))
    app.draw()
    text = panel(app)
    assert "unconscious " in text and "unc " not in text
    assert drawn and drawn[-1].endswith('"') and "LoF" not in drawn[-1]
    assert " seen, " in drawn[-1] and " cover, " in drawn[-1]  # '25% seen, no cover, 26.75"'
    point_at(app, base(app, "zhanshi-2"))  # the container in the way
    app.draw()
    assert drawn[-1].startswith("no line of fire, ")


def test_a_target_the_rules_refuse_is_refused_as_it_is_clicked(app: App) -> None:
    """tester11: a target the hover rules out was taken into the draft and refused only at
    Enter; now the click is refused with the rules' reason and the draft stays as it was."""
    click(app, base(app, "fusilier-1"))
    press(app, pygame.K_s)
    click(app, base(app, "zhanshi-2"))
    assert "no line of fire to Zhanshi 2" in app.state.message
    draft = app.state.draft
    assert draft is not None and draft.targets == ()
    assert "Zhanshi 2 x" not in panel(app) and "click an enemy" in panel(app)
    press(app, pygame.K_RETURN)
    assert app.state.message == "click an enemy to shoot at first"
