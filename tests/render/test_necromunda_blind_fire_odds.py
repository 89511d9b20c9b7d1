"""Blind Fire's -2 in the window's odds (tester14 finding 2): a Pinned fighter's draft
laid out with B shows the hit roll the game will roll, "blind fire -2" with the rest,
the target number and the chance of a hit `skirmish shoot` gives the same shot (it
fires a Pinned attacker blind)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from game.cli import main
from game.render.app import App
from game.render.session import Session
from game.rules.necromunda.odds import hit_chance
from game.scenario import load_scenario
from tests.render.driving import base, click, panel, point_at, press
from tests.render.test_app_necromunda import GAME, SEED

Write = Callable[..., Path]
PINNED = GAME.replace('profile = "grenadier"', 'profile = "grenadier"\nstate = "pinned"')


@pytest.mark.parametrize("weapon", ["Stub gun", "Grenade launcher (frag)"])
def test_blind_fire_odds_carry_its_minus_two(
    write_scenario: Write, capsys: pytest.CaptureFixture[str], weapon: str
) -> None:
    # FACTS 2.8 / seed 004: Blind Fire, a Pinned fighter's Double action, -2 to hit
    path = write_scenario(PINNED, header=False)
    args = ["shoot", str(path), "--attacker", "grenadier", "--target", "e1", "--weapon", weapon]
    assert main([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    roll = next(r for r in report["rolls"] if r["purpose"].startswith("hit roll"))
    assert "blind fire" in json.dumps(roll)
    scenario = load_scenario(path)
    app = App(scenario, session=Session.start(scenario, seed=SEED))
    click(app, base(app, "grenadier"))
    press(app, pygame.K_1 + scenario.model("grenadier").weapons.index(weapon))
    point_at(app, base(app, "e1"))
    plain = app.state.hover
    assert plain is not None and "blind fire" not in " ".join(plain.odds)
    press(app, pygame.K_b)  # the Blind Fire draft, the pointer still on e1
    draft = app.state.draft
    assert draft is not None and draft.blind
    point_at(app, base(app, "e1"))
    hover = app.state.hover
    assert hover is not None and hover.odds
    text = panel(app)
    assert "blind fire -2" in text
    need = int(roll["target"])
    assert f"-> {need}+" in text
    bs = scenario.profiles["grenadier"].bs  # type: ignore[attr-defined]
    chance = float(hit_chance(bs, bs - need))
    assert f"hit {chance:.0%}" in text or (chance < 0.005 and "hit <1%" in text)
