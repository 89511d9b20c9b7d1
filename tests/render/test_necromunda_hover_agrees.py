"""The hover's label, its Odds and S say the same thing about a Necromunda shot
(fix16b, tester16 findings "Wrong" 1 and 2, "Could be better" 4).

Seed 004: a Flame template lies wholly inside the fighter's 90 degree vision arc, and a
fighter turns only as it activates (FACTS 2.8): once it has acted, a template pointed
outside the arc is refused, and the window said so in engine internals ("the template
at 56.3099 degrees leaves ... (facing -116.565; it reaches 179.97 degrees off)"), on
one line 910 px wide. FACTS 2.6: a weapon out of ammo (or jammed) cannot shoot until
reloaded: S refused it while the hover gave a green "hit" and full odds.

The table: the demo with Escher champion (a Flamer, then a Laspistol) at (7.5, 13)
facing 110 and Orlock grenadier at (10, 16.5), in the open (the tester's flame.toml)."""

from __future__ import annotations

import re
from dataclasses import replace

import pygame

from game.render.app import App
from game.render.overlays import wrapped
from game.render.session import Session
from game.render.table import font
from game.scenario import load_scenario
from game.scenario.scenario import Scenario
from game.sequencer.necromunda_types import READY, Act, Action, out_of_ammo_flag
from tests.conftest import REPO
from tests.render.driving import base, click, flagged, panel, point_at, press

SHOOTER, TARGET = "escher-champion", "orlock-grenadier"
OUTSIDE = (
    "no shot: Escher champion's Flamer template must lie within its 90° vision arc, and "
    "Orlock grenadier is outside it: it has acted, so it cannot turn"
)


def _table() -> Scenario:
    scenario = load_scenario(REPO / "scenarios" / "necromunda-demo.toml")
    placed = {SHOOTER: ((7.5, 13.0), 110.0), TARGET: ((10.0, 16.5), 90.0)}
    models = tuple(
        replace(m, at=placed[m.id][0], facing=placed[m.id][1]) if m.id in placed else m
        for m in scenario.models
    )
    sides = tuple(s.model_copy(update={"player": "human"}) for s in scenario.sides)
    return replace(scenario, models=models, sides=sides)


def _pointing(app: App, key: int) -> str:
    """The champion selected, its weapon `key` chosen, the pointer on the grenadier: the
    panel's words (the label said in the ruling's place is the first of them)."""
    click(app, base(app, SHOOTER))
    press(app, key)
    point_at(app, base(app, TARGET))
    assert app.state.hover is not None and app.state.hover.target == TARGET
    return panel(app)


def test_a_template_out_of_the_arc_after_a_move_is_refused_in_the_rules_words() -> None:
    scenario = _table()
    app = App(scenario, session=Session.start(scenario, seed=1))
    assert app.session is not None
    game = app.session.game
    game.declare(Act(SHOOTER, Action.move((7.5, 12.5))))  # it faces north now: 1 action left
    app.follow_game([], animate=False)
    text = _pointing(app, pygame.K_1)
    hover = app.state.hover
    assert hover is not None and hover.laid is not None and not hover.laid.hits
    assert text.count(OUTSIDE) == 2  # the ruling's place and the Odds, alike
    assert "degrees" not in text and "hit 100%" not in text
    assert not re.search(r"-?\d+\.\d{3}", text)  # no bearings to 4 decimals
    press(app, pygame.K_s)  # S: the template toward the pointer, refused alike
    point_at(app, base(app, TARGET))
    preview = app.state.preview
    assert preview is not None and preview.refused.endswith("it has acted, so it cannot turn")
    assert "under it:" not in panel(app)  # refused: nobody is under it


def test_a_long_label_is_wrapped_whole_to_the_width_given() -> None:
    pygame.font.init()
    lines = wrapped(OUTSIDE, 18, 300).split("\n")
    assert len(lines) > 1 and " ".join(lines) == OUTSIDE  # nothing cut off
    assert all(font(18).size(line)[0] <= 300 for line in lines)


def test_a_weapon_out_of_ammo_has_no_hit_on_hover_before_or_after_acting() -> None:
    # FACTS 2.6: out of ammo, it may not shoot until reloaded; S says "Reload first"
    scenario = _table()
    app = App(scenario, session=Session.start(scenario, seed=1))
    assert app.session is not None
    game = app.session.game
    for weapon, key in (("Flamer", pygame.K_1), ("Laspistol", pygame.K_2)):
        flagged(app, SHOOTER, out_of_ammo_flag(weapon))
        said = f"no shot: Escher champion's {weapon} is out of ammo (Reload first)"
        text = _pointing(app, key)
        hover = app.state.hover
        assert hover is not None and hover.laid is not None and not hover.laid.hits
        assert text.count(said) == 2, text  # the ruling's place and the Odds
        assert "hit 100%" not in text and "under it, hit" not in text
        assert not [line for line in hover.odds if line.startswith(("hit ", TARGET))]
        m = game.state.model(SHOOTER)  # after its activation: still no shot
        game.state = game.state.with_model(m.replace(flags=m.flags - {READY}))
        app.follow_game([], animate=False)
        point_at(app, base(app, "orlock-leader"))
        assert panel(app).count(said.replace("Orlock grenadier", "Orlock leader")) == 2


def test_a_state_marker_with_its_fighters_name_reads_as_one_sentence() -> None:
    scenario = _table()
    app = App(scenario, session=Session.start(scenario, seed=1))
    assert app.session is not None
    flagged(app, "orlock-heavy", out_of_ammo_flag("Heavy stubber"))
    flagged(app, "orlock-heavy", "jammed:Stub gun")
    tags = app.session.rules.markers(app.session.game)["orlock-heavy"].tags
    assert {"Heavy stubber out of ammo", "Stub gun jammed"} <= set(tags)
    assert not [t for t in tags if ":" in t]  # "Orlock heavy: no ammo: Heavy stubber"


def test_a_target_outside_the_arc_is_said_alike_whether_the_fighter_may_turn_or_not() -> None:
    # FACTS 2.8: a Standing fighter turns to face its target as it activates (the engine
    # takes `turn_to` with its first action; the odds turned it): the label and the panel
    # said a red "no line of fire" and "in arc: no" beside the odds' "hit 83%"
    scenario = _table()
    app = App(scenario, session=Session.start(scenario, seed=1))
    assert app.session is not None
    for key in (pygame.K_2, pygame.K_1):  # the Laspistol, aimed; the Flamer, laid
        text = _pointing(app, key)
        hover = app.state.hover
        assert hover is not None and getattr(hover.ruling, "turns", False)
        assert "line of fire: yes once it turns (outside its arc now)" in text
        assert "in arc: once it turns" in text
        assert "in arc: no" not in text and "line of fire: no" not in text
    assert "Escher champion turns to face Orlock grenadier as it activates" in _pointing(
        app, pygame.K_2
    )
    game = app.session.game
    game.declare(Act(SHOOTER, Action.move((7.5, 12.5))))  # acted: it may turn no more
    app.follow_game([], animate=False)
    text = _pointing(app, pygame.K_2)
    hover = app.state.hover
    assert hover is not None and not getattr(hover.ruling, "turns", False)
    assert "line of fire: no (target outside the attacker's arc)" in text
    assert "no shot: Orlock grenadier is outside Escher champion's vision arc" in text
    assert "turns" not in text and "hit 83%" not in text
