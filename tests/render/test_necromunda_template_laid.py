"""A Flamer pointed at a fighter prone in cover: the window, the odds and the engine agree
(fix16a item 1). FACTS 2.3: a Prone fighter in cover is hidden and "cannot be targeted";
FACTS 2.7: the Flame template "ignores LoS ... auto-hits every fighter under it unless a
wall or solid terrain is in the way". The engine lays the template and hits whoever its
`template_under` finds, hidden or not. The window said "no shot: ... hidden: prone and in
cover" at the target while its odds said "under it: hit 100%", and the engine, laying it,
hit nobody: the barricade the fighter lies behind is in the way. Now the window says what
the template does, from the engine's own `why_not_under`, in the ruling's place, and the
odds say the same; a fighter hidden from a shot but under the template is hit, and said so.

The table: the demo, Escher champion (a Flamer) at (7, 11) facing the Orlocks, Orlock
ganger 1 Pinned behind barricade 1 (partial cover: hidden)."""

from __future__ import annotations

import math
from dataclasses import replace

import pygame

from game.render.app import App
from game.render.session import Session
from game.scenario import load_scenario
from game.scenario.scenario import Scenario
from game.sequencer.game import Game
from game.sequencer.necromunda import NecromundaEngine
from game.sequencer.necromunda_targeting import ARC
from game.sequencer.necromunda_types import Act, Action, TemplatePlaced
from tests.conftest import REPO
from tests.render.driving import base, click, panel, point_at, press

SHOOTER, TARGET = "escher-champion", "orlock-ganger-1"


def _table(placed: dict[str, tuple[tuple[float, float], str | None]]) -> Scenario:
    """The demo with both sides played by people and the fighters `placed` (at, state)."""
    scenario = load_scenario(REPO / "scenarios" / "necromunda-demo.toml")
    models = tuple(
        replace(m, at=placed[m.id][0], state=placed[m.id][1], facing=90.0) if m.id in placed else m
        for m in scenario.models
    )
    sides = tuple(s.model_copy(update={"player": "human"}) for s in scenario.sides)
    return replace(scenario, models=models, sides=sides)


BEHIND_BARRICADE = {SHOOTER: ((7.0, 11.0), None), TARGET: ((5.0, 17.4), "pinned")}
# Orlock heavy stands between: Orlock ganger 1 Pinned behind a fighter (cover, hidden);
# a template is not stopped by fighters (FACTS 2.7: only a wall or solid terrain)
BEHIND_A_FIGHTER = {
    SHOOTER: ((15.0, 10.5), None),
    TARGET: ((15.0, 17.0), "pinned"),
    "orlock-heavy": ((15.4, 14.5), None),
}


def _laid(scenario: Scenario) -> tuple[Game, tuple[str, ...], str]:
    """The engine's answer: whom its Flamer laid toward the target hits, and why not."""
    game = Game(scenario, 1)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    a, b = game.state.model(SHOOTER).at, game.state.model(TARGET).at
    toward = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
    # hidden from an aimed shot either way (FACTS 2.3)
    refused = engine.why_not_target(game.state, SHOOTER, TARGET, ARC)
    assert "is hidden: prone and in cover" in refused
    state = engine.ready_to_shoot(game.state, SHOOTER)
    game.state = state.with_model(state.model(SHOOTER).replace(facing=toward))
    weapon = engine.weapon(SHOOTER, "Flamer")
    why = engine.why_not_under(game.state, SHOOTER, TARGET, (weapon, toward, ARC))
    assert game.declare(Act(SHOOTER, Action.flame("Flamer", toward)))
    placed = next(e for e in game.events if isinstance(e, TemplatePlaced))
    return game, placed.under, why


def _window(scenario: Scenario) -> App:
    """The window with the champion's Flamer laid out, pointing at the target."""
    app = App(scenario, session=Session.start(scenario, seed=1))
    click(app, base(app, SHOOTER))
    press(app, pygame.K_1, pygame.K_s)  # the Flamer
    point_at(app, base(app, TARGET))
    assert app.state.hover is not None and app.state.hover.target == TARGET
    return app


def test_flame_template_at_a_hidden_fighter_behind_a_barricade_says_the_engines_miss() -> None:
    # FACTS 2.7: "unless a wall or solid terrain is in the way": the barricade is
    scenario = _table(BEHIND_BARRICADE)
    _, under, why = _laid(scenario)
    assert TARGET not in under and why == f"barricade-1 is in the way of {TARGET}"
    app = _window(scenario)
    hover = app.state.hover
    assert hover is not None and hover.laid is not None and not hover.laid.hits
    said = "Flamer template: barricade 1 is in the way of Orlock ganger 1"
    text = panel(app)
    assert said in text  # the ruling's verdict, in the engine's words
    odds = "Flamer (a template: no hit roll): barricade 1 is in the way of Orlock ganger 1: no hit"
    assert odds in text
    assert "hit 100%" not in text and "no shot" not in text
    assert "line of fire: yes" in text  # the sight still ruled below it


def test_flame_template_hits_a_fighter_hidden_from_a_shot_and_says_so() -> None:
    # FACTS 2.7: the template ignores LoS: hidden (FACTS 2.3) does not stop it
    scenario = _table(BEHIND_A_FIGHTER)
    _, under, why = _laid(scenario)
    assert TARGET in under and why == ""
    app = _window(scenario)
    hover = app.state.hover
    assert hover is not None and hover.laid is not None and hover.laid.hits
    text = panel(app)
    assert "Flamer template: Orlock ganger 1 under it, hit (it ignores line of sight)" in text
    assert "Flamer (a template: no hit roll), Orlock ganger 1 under it: hit 100%" in text
    assert "no shot" not in text
    press(app, pygame.K_2)  # the Laspistol, aimed: hidden, no shot, as the engine says
    hover = app.state.hover
    assert hover is not None and hover.laid is None
    assert "no shot: Orlock ganger 1 is hidden: prone and in cover" in panel(app)
