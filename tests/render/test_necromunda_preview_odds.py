"""The odds of a blast at a point and of a flame template before Enter (tester14 finding
8): the Odds section said only "point at an enemy" while the hit roll needed (BS 4+, a
point -2: 6+) was first seen in the log. Now a blast laid at a point shows its hit roll
and, on a hit, the exact odds of each fighter under the marker (FACTS 2.7, seed 004:
cover judged from the centre), and says the scatter of a miss is not in them; a
template shows each fighter under it, no hit roll (FACTS 2.5: Flak 5+ against it), the
figures `skirmish shoot --at X,Y --trials N` gives as exact."""

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
from tests.render.driving import at, base, click, panel, point_at, press
from tests.render.test_app_necromunda import GAME, SEED

Write = Callable[..., Path]


def _pct(p: float) -> str:
    return "<1%" if 0 < p < 0.005 else f"{p:.0%}"


def _said(exact: dict[str, float]) -> str:
    return (
        f"hit {_pct(exact['hit'])} · seriously injured {_pct(exact['seriously_injured'])} · "
        f"out of action {_pct(exact['out_of_action'])}"
    )


def _shoot(path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> dict:  # type: ignore[type-arg]
    assert main(["shoot", str(path), *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_a_blast_at_a_point_shows_its_hit_roll_and_who_is_under_it(
    write_scenario: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_scenario(GAME, header=False)
    report = _shoot(path, capsys, "--attacker", "grenadier", "--at", "9,9",
                    "--weapon", "Grenade launcher (frag)")  # fmt: skip
    roll = next(r for r in report["rolls"] if r["purpose"].startswith("hit roll"))
    need = int(roll["target"])
    scenario = load_scenario(path)
    app = App(scenario, session=Session.start(scenario, seed=SEED))
    click(app, base(app, "grenadier"))
    press(app, pygame.K_1, pygame.K_s)  # the frag launcher
    click(app, at(app, (9.0, 9.0)))
    point_at(app, at(app, (3.0, 3.0)))  # away from every enemy: no hover
    assert app.state.hover is None
    text = panel(app)
    assert "point at an enemy for the modifiers" not in text
    chance = float(hit_chance(4, 4 - need))
    assert f"BS 4+, a point on the battlefield -2 -> {need}+ to hit: {_pct(chance)}" in text
    for fighter in ("E1", "E2"):  # both under the marker, each hit if the roll is
        assert f"{fighter}: hit {_pct(chance)} · seriously injured" in text
    assert 'a miss scatters up to 6": where it lands is not in the odds' in text


def test_a_flame_template_shows_the_odds_of_each_fighter_under_it(
    write_scenario: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_scenario(GAME.replace("at = [16, 8]", "at = [16, 14]"), header=False)
    report = _shoot(path, capsys, "--attacker", "flamer", "--at", "16,10", "--weapon",
                    "Flamer", "--trials", "10")  # fmt: skip
    assert set(report["exact"]) == {"e3"}
    scenario = load_scenario(path)
    app = App(scenario, session=Session.start(scenario, seed=SEED))
    click(app, base(app, "flamer"))
    press(app, pygame.K_1, pygame.K_s)  # the Flamer
    point_at(app, at(app, (16.0, 10.0)))
    preview = app.state.preview
    assert preview is not None and preview.under == ("e3",)
    text = panel(app)
    assert "Flamer (a template: no hit roll), each fighter under it hit:" in text
    assert f"E3: {_said(report['exact']['e3'])}" in text
    assert "catching fire (Blaze) is not in the odds" in text
