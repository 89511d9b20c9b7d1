"""The window's words as a new user read them (tester9): the Selected section names the
model and its profile without file ids, the odds say "unconscious", the ruling's tag on
the table says what it means, and a shot refused for a target drops that target from the
pending line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.render import game_actions, overlays
from game.render.app import App
from game.render.session import Session, Taken
from game.scenario import load_scenario
from game.sequencer.events import Declared
from game.sequencer.infinity_orders import Activate, Skill
from tests.conftest import SCENARIOS
from tests.render.driving import at, base, click, panel, point_at, press


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


def people_play(write_scenario: Callable[..., Path], name: str) -> App:
    """A bundled table with a person on every side, opened in the window."""
    text = (SCENARIOS / f"{name}.toml").read_text(encoding="utf-8")
    path = write_scenario(text.replace('player = "ai"', 'player = "human"'), header=False)
    scenario = load_scenario(path)
    window = App.window(scenario, size=(1280, 800), session=Session.start(scenario, 1))
    window.prepare_line_of_fire()
    return window


def refused_target(app: App, shooter: str, clicked: str) -> str:
    """The panel's words for a click on `clicked` in a shot `shooter` lays out."""
    press(app, pygame.K_ESCAPE)
    click(app, base(app, shooter))
    press(app, pygame.K_s)
    click(app, base(app, clicked))
    draft = app.state.draft
    assert draft is not None and draft.targets == ()
    return app.state.message


# What `skirmish shoot` and the window both say of a shot at the shooter and at a friend:
# the engine's refusal, each system in its own words (Infinity's enemy and allied
# troopers, seed 000; Necromunda's friend and foe, seed 004; Open Rebellion's enemy
# units, seed 001), the friend's side named as the scenario names it.
OWN_SIDE = [
    ("infinity-demo", "fusilier-2", "Fusilier 2 cannot target itself", "fusilier-1",
     "Fusilier 1 is an allied trooper (PanOceania), not an enemy"),
    ("necromunda-demo", "escher-leader", "Escher leader cannot shoot at itself",
     "escher-champion", "Escher champion is a friendly fighter (House Escher), not an enemy"),
    ("open-rebellion-demo", "reb-a1", "Rebel squad a cannot fire at itself", "reb-b4",
     "Rebel squad b is a friendly unit (Rebels), not an enemy unit"),
]  # fmt: skip


@pytest.mark.parametrize(("table", "shooter", "itself", "friend", "as_friend"), OWN_SIDE)
def test_a_shot_at_the_shooter_or_a_friend_says_why_as_a_player_would(
    write_scenario: Callable[..., Path],
    table: str,
    shooter: str,
    itself: str,
    friend: str,
    as_friend: str,
) -> None:
    """review11: clicking the shooter read "Fusilier 2 is on Fusilier 2's side", a friend
    "Orlock heavy is on Orlock leader's side"; now the shooter (in Open Rebellion its own
    unit, which fires unit at unit) cannot shoot itself, in the rules' words, and a friend
    is refused as `skirmish shoot` refuses it (fix12b: the engines said "Fusilier 1 is on
    Fusilier 2's own side", "Rebel squad b is not an enemy unit", the window otherwise)."""
    app = people_play(write_scenario, table)
    if table == "open-rebellion-demo":  # each side names a unit for the initiative first
        click(app, base(app, "reb-a1"))
        press(app, pygame.K_e)
        click(app, base(app, "gov-a1"))
        press(app, pygame.K_e)
    assert app.session is not None
    assert shooter in app.session.game.awaiting().models
    assert refused_target(app, shooter, shooter) == itself
    assert refused_target(app, shooter, friend) == as_friend
    if table == "open-rebellion-demo":  # another model of the firing unit is the unit
        assert refused_target(app, shooter, "reb-a2") == itself


class _Told:
    """An event told as a line headed by a model's name and a colon."""

    def describe(self) -> str:
        return "Fusilier 1: stands where it was"


def test_undo_leaves_off_the_declaring_sides_name_and_no_other(app: App) -> None:
    """review11: undo's words (`_what`) dropped any table name before a colon, though it
    means the declaring side's ("PanOceania: Order to ..." reads "Order to ...")."""
    idle = Activate("fusilier-1", Skill.idle())
    taken = [Taken(idle, True, False)]
    assert game_actions._what(app, [_Told()], 0, taken) == "Fusilier 1: stands where it was"
    declared = Declared("blue", idle.to_dict())
    assert game_actions._what(app, [declared], 0, taken) == "Order to Fusilier 1, who stays idle"


@pytest.mark.parametrize("row", OWN_SIDE, ids=[row[0] for row in OWN_SIDE])
def test_skirmish_shoot_at_a_friend_says_what_the_window_says(
    capsys: pytest.CaptureFixture[str], row: tuple[str, str, str, str, str]
) -> None:
    """fix12b: `skirmish shoot` at a friend gave each engine's own odd sentence; it is the
    window's, whole, on the one line a refusal takes."""
    table, shooter, _, friend, as_friend = row
    assert main(["shoot", table, "--attacker", shooter, "--target", friend]) == 2
    err = capsys.readouterr().err
    assert err == f"skirmish: {table}: --attacker {shooter} --target {friend}: {as_friend}\n"


def test_a_necromunda_move_laid_out_says_take_cover_goes_half_as_far(
    write_scenario: Callable[..., Path],
) -> None:
    """FACTS 2.8: Take Cover moves half the fighter's Move (then Pinned). The line of a
    move laid out offered C past that ("Escher leader moves 3.4\\" of 5\\": ..., C takes
    cover"), and C then refused it (review12)."""
    app = people_play(write_scenario, "necromunda-demo")
    assert app.session is not None
    model = app.session.game.awaiting().models[0]
    x, y = app.scenario.model(model).at
    click(app, base(app, model))
    press(app, pygame.K_m)
    click(app, at(app, (x, y + 3.4)))
    said = "click points, Backspace undoes one, Enter, C takes cover (half the Move)"
    assert f'moves 3.4" of 5" (1.6" left): {said}' in panel(app)
    press(app, pygame.K_c)  # past half of 5": the rules' refusal
    assert app.state.message.endswith('but may move 2.5"')
