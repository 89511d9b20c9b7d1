"""Whose view the panel gives and of whom (tester8): Open Rebellion's two cover readings
of one unit say whose each is, and a trooper the game takes out is no longer selected
with a ruling and odds of a shot it cannot take."""

from __future__ import annotations

import pygame
import pytest

from game.cli import main
from game.playtest.batch import automatic_player
from game.render.actions import Select
from game.render.app import App
from game.render.session import Session
from game.scenario import load_scenario
from game.sequencer.game import Game
from tests.conftest import SCENARIOS
from tests.render.driving import base, click, panel, point_at


def test_both_cover_readings_say_whose_they_are() -> None:
    scenario = load_scenario(SCENARIOS / "open-rebellion-demo.toml")
    app = App(scenario, session=Session.start(scenario))
    rebels = [m for m in scenario.models if m.side == "rebels"]
    government = [m for m in scenario.models if m.side == "government"]
    for shooter, target in ((s, t) for s in rebels for t in government):
        click(app, base(app, shooter.id))
        point_at(app, base(app, target.id))
        text = panel(app)
        if "no shot" not in text:
            break
    else:
        raise AssertionError("no rebel has a shot on the demo table")
    shooter_name = text.split("Line of fire ", 1)[1].split(" -> ", 1)[0]
    # the line of fire section: the model's own view of the unit; the odds: the unit's,
    # from every model of it that fires ("cover: light: 2 of the 3 in sight" beside
    # "cover: open: only 2 of 4 in cover" said neither)
    assert "cover from all of Rebel squad" in text, text
    assert f"(under Line of fire: {shooter_name}'s view alone)" in text, text


def test_a_trooper_taken_out_is_deselected_and_cannot_be_selected() -> None:
    scenario = load_scenario(SCENARIOS / "infinity-demo.toml")
    # the first trooper taken out in this seeded game of simple players, and when
    rehearsal = Game(scenario, 3)
    player = automatic_player(rehearsal.engine, "simple")
    victim, before = None, 0
    while victim is None and not rehearsal.state.finished:
        before = len(rehearsal.declarations)
        rehearsal.declare(player.choose(rehearsal.state, rehearsal.awaiting()))
        victim = next((m.id for m in rehearsal.state.models if m.status == "dead"), None)
    assert victim is not None
    session = Session.start(scenario, seed=3)
    app = App(scenario, session=session)
    player = automatic_player(session.game.engine, "simple")
    for declaration in rehearsal.declarations[:before]:
        app.declare(declaration)
    app.perform(Select(victim))
    assert app.state.selected == victim
    app.declare(rehearsal.declarations[before])  # the declaration that kills it
    assert app.state.selected is None and app.state.hover is None
    assert app.state.message.endswith("is dead: no longer selected"), app.state.message
    app.perform(Select(victim))
    assert app.state.selected is None and app.state.message.endswith("is dead: out of the fight")
    pygame.event.clear()


def test_a_fighter_that_may_still_crawl_stays_selectable() -> None:
    # Necromunda: a seriously injured fighter crawls (it counts as lost at the end, but
    # is not gone); out of action, it is
    scenario = load_scenario(SCENARIOS / "necromunda-demo.toml")
    session = Session.start(scenario)
    game, rules = session.game, session.rules
    fighter = game.state.models[0]
    for status, gone in (("seriously-injured", False), ("out-of-action", True)):
        game.state = game.state.with_model(fighter.replace(status=status))
        assert rules.gone(game, fighter.id) is gone


def test_a_fighter_out_of_action_is_said_so_in_the_rules_words() -> None:
    # Necromunda's state is "out-of-action" in the game; a person reads "out of action"
    scenario = load_scenario(SCENARIOS / "necromunda-demo.toml")
    session = Session.start(scenario)
    app = App(scenario, session=session)
    fighter = session.game.state.models[0]
    app.perform(Select(fighter.id))
    assert app.state.selected == fighter.id
    game = session.game
    game.state = game.state.with_model(fighter.replace(status="out-of-action"))
    app.follow_game([], animate=False)
    assert app.state.selected is None
    assert app.state.message.endswith("is out of action: no longer selected"), app.state.message
    app.perform(Select(fighter.id))
    assert app.state.message.endswith("is out of action: out of the fight"), app.state.message
    pygame.event.clear()


def test_the_hover_says_a_squads_cover_count_as_the_log_does() -> None:
    # FACTS 1.4: a unit's cover by the majority of its models. The hover said the count
    # the old way ("cover: light: 2 of the 3 in sight in cover from haystacks; 1 of 4 out
    # of sight", "open: only 2 of 4 in cover") while the log says it as a player would
    # (9e4aa25, review12). The village since Open Rebellion's rules version 2: the Hill
    # farm's Gov squad b, 6" from the haystacks that hide part of it, is in no cover now
    scenario = load_scenario(SCENARIOS / "open-rebellion-village.toml")
    app = App(scenario, session=Session.start(scenario))
    click(app, base(app, "reb-b1"))
    point_at(app, base(app, "gov-a2"))
    text = panel(app)
    ruled = (
        "cover: light: both models in sight are in cover from the rubble; the other 2 are out "
        "of sight; judged for the whole of West squad"
    )
    assert ruled in text, text
    odds = "cover from all of Orchard squad: light: all 4 of its models are in cover (under"
    assert odds in text, text


@pytest.mark.parametrize(
    ("table", "shooter", "target"),
    [
        ("open-rebellion-village", "reb-a1", "gov-hmg"),
        ("open-rebellion-village", "reb-a1", "gov-a1"),
    ],
)
def test_the_hover_names_the_scenery_giving_cover_as_lof_does(
    capsys: pytest.CaptureFixture[str], table: str, shooter: str, target: str
) -> None:
    # fix13a: lof said "in cover from the haystacks", the hover "in cover from haystacks"
    # (a piece whose id is a plain word was named only where the rules' other readings
    # put scenery)
    main(["lof", str(SCENARIOS / f"{table}.toml"), "--from", shooter, "--to", target])
    lof = [line for line in capsys.readouterr().out.splitlines() if line.startswith("cover: ")]
    assert len(lof) == 1 and " from the " in lof[0], lof
    scenario = load_scenario(SCENARIOS / f"{table}.toml")
    app = App(scenario, session=Session.start(scenario))
    click(app, base(app, shooter))
    point_at(app, base(app, target))
    assert lof[0] in panel(app), panel(app)
