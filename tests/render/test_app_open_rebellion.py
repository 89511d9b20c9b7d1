"""Open Rebellion on the table with mouse and keyboard (SDL dummy driver): initiative
picks, a unit moved by one vector, small arms fire at a unit with both pools and the
exact odds in the hover, the defender's fall-back answer, passing, markers on the
bases, the computer's turn, and the demo opening in the window."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.render.app import AI_FRAMES, App
from game.render.help import help_sections
from game.render.open_rebellion_play import OpenRebellionRules
from game.render.session import Session
from game.rules.open_rebellion.odds import CoverTier, small_arms_fire
from game.scenario import load_scenario
from game.sequencer.open_rebellion_types import (
    EndUnit,
    FallBackChoice,
    PickInitiative,
    SmallArmsFire,
    UnitAct,
)
from tests.conftest import SCENARIOS
from tests.render.driving import at, base, click, panel, point_at, press

Write = Callable[..., Path]
Point = tuple[float, float]

GAME = """
[scenario]
name = "Two squads a side"
ruleset = "open-rebellion"
table = [24, 24]
turns = 2

[[scenery]]
id = "woods"
kind = "area"
height = 0.5
polygon = [[18, 16], [23, 16], [23, 23], [18, 23]]

[[side]]
id = "red"
player = "human"

[[side]]
id = "blue"
player = "human"
"""
UNITS: dict[str, tuple[str, list[Point]]] = {
    "red-a": ("red", [(4, 8), (4, 10)]),
    "red-b": ("red", [(4, 18), (4, 20)]),
    "blue-a": ("blue", [(14, 8), (14, 10)]),
    "blue-b": ("blue", [(20, 18), (20, 20)]),
}


def scenario_text(game: str = GAME, units: dict[str, tuple[str, list[Point]]] = UNITS) -> str:
    """`game`'s header and scenery with riflemen in `units` (unit -> side, where each stands)."""
    text = game
    for unit, (side, spots) in units.items():
        for i, (x, y) in enumerate(spots):
            text += (
                f'\n[[model]]\nid = "{unit}-{i + 1}"\nside = "{side}"\nprofile = "rifleman"\n'
                f'at = [{x}, {y}]\nunit = "{unit}"\n'
            )
    return text


def awaiting(app: App) -> tuple[str | None, str]:
    assert app.session is not None
    now = app.session.game.awaiting()
    return now.side, now.kind


def test_open_rebellion_activations_by_mouse_and_keyboard(write_scenario: Write) -> None:
    scenario = load_scenario(write_scenario(scenario_text(), header=False))
    app = App(scenario, session=Session.start(scenario, seed=4))
    assert app.session is not None
    rules = app.session.rules
    assert isinstance(rules, OpenRebellionRules)
    game = app.session.game
    assert awaiting(app) == ("red", "initiative")
    assert "roll for initiative" in panel(app)
    assert "I initiative action · A take position" in " ".join(app.state.keys_help)

    # Initiative: each side selects a unit and presses E.
    click(app, base(app, "red-a-1"))
    press(app, pygame.K_e)
    assert game.declarations[-1] == PickInitiative("red-a")
    click(app, base(app, "blue-a-2"))
    press(app, pygame.K_e)
    assert game.declarations[-1] == PickInitiative("blue-a")
    side, kind = awaiting(app)
    assert kind == "activate"
    mine, theirs = ("red-a", "blue-a") if side == "red" else ("blue-a", "red-a")
    step = 3.0 if side == "red" else -3.0

    # M, a click 3" along, Enter: both models of the unit move by the same vector.
    before = [game.state.model(f"{mine}-{i}").at for i in (1, 2)]
    click(app, base(app, f"{mine}-1"))
    press(app, pygame.K_m)
    click(app, at(app, (before[0][0] + step, before[0][1])))
    press(app, pygame.K_RETURN)
    assert isinstance(game.declarations[-1], UnitAct)
    for i, (x, y) in zip((1, 2), before, strict=True):
        assert game.state.model(f"{mine}-{i}").at == pytest.approx((x + step, y), abs=0.02)
    assert awaiting(app) == (side, "action")
    assert "1 action left" in panel(app)

    # The hover on an enemy model: both pools and the exact odds of the markers.
    point_at(app, base(app, f"{theirs}-1"))
    lines = rules.odds_lines(game, f"{mine}-1", f"{theirs}-1", "Rifle")
    engine = rules.engine
    plan = engine.pools(game.state, mine, theirs)
    assert f"attacker {plan.attack} dice" in lines[1]
    # the ROF is of the models that see (tester14: "ROF 3 (2 with LOS)" read as the ROF of
    # all, only 2 seeing): two riflemen, ROF 1 each
    assert lines[1].startswith(
        f"attacker {plan.attack} dice: ROF 2 from the 2 models in line of sight + skill "
    ), lines[1]
    assert f"defender {plan.defence} dice" in lines[2]
    exact = small_arms_fire(plan.attack, plan.defence, CoverTier.OPEN)
    none = sum(w for m, w in exact.counts.items() if m.wounds == 0) / exact.total
    assert any(f"0: {none:.0%}" in line for line in lines if line.startswith("wound markers"))
    assert "attacker" in panel(app) and "wound markers" in panel(app)

    # S, a click on an enemy model, Enter: small arms fire at its unit.
    # The draft says it as the rules fire: unit at unit (tester11: "Reb a3 shoots SAW:
    # Gov a3 x1" read as one model's shot)
    press(app, pygame.K_s)
    named = {"red-a": "Red a", "blue-a": "Blue a"}
    assert f"{named[mine]} fires: click a model of the enemy unit" in panel(app)
    click(app, base(app, f"{theirs}-2"))
    assert f"{named[mine]} fires at {named[theirs]}: Enter" in panel(app)
    assert " x1" not in panel(app)
    press(app, pygame.K_RETURN)
    last = game.declarations[-1]
    assert isinstance(last, UnitAct) and last.action.target == theirs
    [fire] = [e for e in game.events if isinstance(e, SmallArmsFire)]
    assert fire.damage  # seed 4: the fire does damage, so the defender answers
    # the defender answers: its unit selected, I holds (takes the morale check)
    assert awaiting(app)[1] == "fall-back"
    # FACTS 1.4: in the open, D is the morale check failed on purpose, said as the log says it
    assert "D fails the morale check on purpose and falls back" in panel(app)
    # F1: the answer's keys, and no route to react along (review12: Infinity's ARO's
    # "click the dashed route" was listed)
    reacting = [keys for title, keys in help_sections(app.state) if title.startswith("Reacting")]
    assert [keys[:2] for keys in reacting] == [
        ("D fails the morale check on purpose", "I takes the morale check")
    ]
    assert not any("route" in line for line in reacting[0])
    press(app, pygame.K_m)  # the answer takes no move (review12: M drew a path)
    assert app.state.draft is None and app.state.message.startswith(
        "D fails the morale check on purpose, "
    )
    click(app, base(app, f"{theirs}-1"))
    # E does not answer it (tester14: E, pressed to pass, took the morale check unasked)
    declared = len(game.declarations)
    press(app, pygame.K_e)
    assert len(game.declarations) == declared and awaiting(app)[1] == "fall-back"
    assert app.state.message.endswith(
        f"{named[theirs]} must answer the fire first: D fails the morale check on purpose, "
        "I takes the morale check"
    ), app.state.message
    press(app, pygame.K_i)
    assert isinstance(game.declarations[-1], FallBackChoice)
    wounds, pins = engine.markers(game.state, theirs)
    assert wounds + pins == fire.damage
    # The unit's markers are said once, in words, by one of its models (not on each).
    shown = {m: k.tags for m, k in app.state.markers if m.startswith(theirs) and k.tags}
    assert len(shown) == 1
    [tags] = shown.values()
    said = " and ".join(
        f"{n} {kind} marker{'s' if n != 1 else ''}"
        for n, kind in ((wounds, "wound"), (pins, "pinned"))
        if n
    )
    assert tags[0] == f"{theirs.replace('-', ' ').capitalize()}: {said}"
    # two actions: the other side's turn; it passes with its other unit
    other = "blue" if side == "red" else "red"
    assert awaiting(app) == (other, "activate")
    assert [k.tags for m, k in app.state.markers if m.startswith(mine) and k.tags] == [
        (f"{mine.replace('-', ' ').capitalize()}: done",)
    ]
    click(app, base(app, f"{other}-b-1"))
    press(app, pygame.K_e)
    assert game.declarations[-1] == EndUnit(f"{other}-b")
    app.draw()


def test_the_computer_plays_its_side_and_the_demo_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = load_scenario(SCENARIOS / "open-rebellion-demo.toml")
    app = App(scenario, session=Session.start(scenario, seed=1))
    assert app.session is not None
    game = app.session.game
    assert awaiting(app) == ("rebels", "initiative")
    click(app, base(app, "reb-a1"))
    press(app, pygame.K_e)
    # the government (ai) names its unit on its own after a few frames
    for _ in range(AI_FRAMES + 2):
        app.frame()
    assert len(game.declarations) >= 2
    assert awaiting(app)[1] != "initiative" or game.state.turn > 1
    monkeypatch.chdir(tmp_path)
    assert main(["play", str(SCENARIOS / "open-rebellion-demo.toml"), "--frames", "3"]) == 0
