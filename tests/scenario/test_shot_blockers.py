"""The line-of-fire ruling judges a shot on the table the engine's shot is judged on
(fix15f): the models the engine's sight leaves out of a shot hide nothing and give no
cover in `skirmish lof` and the window's ruling either, by one rule both read (the rule
system's "left_out" part; Necromunda's `game.rules.necromunda.sight.left_out`).

Necromunda, FACTS 2.3: "Prone fighters have no facing or arc and do not block LoS" and
"Friendly fighters touching the firer's base are ignored when judging cover". The ruling
counted a Pinned or Seriously Injured fighter, and a friend touching the shooter's base,
as hiding the target where the engine's shot did not: "visible: 77% (the rest hidden by
...)", partial cover, where the engine's shot saw it whole, in the open.

Infinity and Open Rebellion leave out only the dead (FACTS 3.3: a trooper Dead is
removed; an Open Rebellion model dead likewise), which the ruling already did (fix15c):
their cases hold every state a model may be in to the same agreement."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest

from game.geometry import Table, sight
from game.render.lof_picture import verdict
from game.scenario import load_scenario
from game.scenario.ruling import LofRuling, rule
from game.scenario.scenario import Scenario
from game.scenario.tables import table_from_scenario
from game.sequencer.game import Game
from tests.conftest import REPO

# shooter and target 10" apart on a bare table, facing each other
SHOOTER_AT, TARGET_AT = (6.0, 4.0), (6.0, 14.0)
NEAR_TARGET = (6.6, 12.0)  # a third model 2" short of the target, a little aside


def _bare(name: str, models: dict[str, tuple[tuple[float, float], str | None, str]],
          units: dict[str, str] | None = None) -> Scenario:  # fmt: skip
    """The scenario with no scenery and only `models`: id -> (where, state, side)."""
    scenario = load_scenario(REPO / "scenarios" / f"{name}.toml")
    kept = []
    for m in scenario.models:
        if m.id in models:
            at, state, side = models[m.id]
            facing = math.degrees(math.atan2(TARGET_AT[1] - at[1], TARGET_AT[0] - at[0]))
            unit = (units or {}).get(m.id, m.unit)
            kept.append(replace(m, at=at, facing=facing, state=state, side=side, unit=unit))
    return replace(scenario, scenery=(), objectives=(), models=tuple(kept))


def _engine_table(game: Game, ruleset: str, attacker: str, target: str) -> Table:
    """The table the engine judges a shot from `attacker` at `target` on."""
    engine: Any = game.engine
    if ruleset == "necromunda":  # the placements for this shot (FACTS 2.3)
        placements = engine.placements(game.state, attacker, target)
    elif ruleset == "infinity":  # the dead off the table
        placements = engine._placements(game.state)
    else:  # Open Rebellion: the dead off the table
        placements = engine.placements(game.state)
    table: Table = engine.sight.table_at(placements)
    return table


def _agree(scenario: Scenario, attacker: str, target: str) -> LofRuling:
    """The ruling, asserted to see what the engine's shot sees: the same models in the
    way, the same visible share, the same cover."""
    ruling = rule(scenario, table_from_scenario(scenario), attacker, target)
    game = Game(scenario, 1)
    table = _engine_table(game, scenario.ruleset.name, attacker, target)
    rs = scenario.ruleset
    seen = sight(table, attacker, target, arc_degrees=rs.arc_degrees, models_block=rs.models_block)
    assert ruling.sight.hidden_by == seen.hidden_by
    assert ruling.blockers == seen.blockers
    assert ruling.visible_fraction == pytest.approx(seen.visible_fraction if seen.clear else 0.0)
    engine: Any = game.engine
    if hasattr(engine, "cover_from"):  # Open Rebellion: the squad's cover from this model
        assert ruling.cover == engine.cover_from(game.state, attacker, ruling.unit).level.label
    else:
        shot = engine.sighting(game.state, attacker, target)
        # the engine says the arc apart from the line of fire; the ruling, in one
        assert (ruling.lof, ruling.in_arc, ruling.reason) == (
            shot.lof and shot.in_arc,
            shot.in_arc,
            shot.reason,
        )
    return ruling


NECROMUNDA_THIRD = ["standing", "engaged", "pinned", "seriously-injured", "out-of-action"]


@pytest.mark.parametrize("state", NECROMUNDA_THIRD)
def test_necromunda_prone_fighters_hide_nothing_in_the_ruling_as_in_the_shot(state: str) -> None:
    # FACTS 2.3: "Prone fighters ... do not block LoS": a Pinned or Seriously Injured
    # fighter 2" short of the target hides none of it, in the ruling as in the engine's
    # shot; a Standing one (or an Engaged one) hides part of it in both
    scenario = _bare("necromunda-demo", {
        "escher-leader": (SHOOTER_AT, None, "escher"),
        "orlock-leader": (TARGET_AT, None, "orlock"),
        "orlock-heavy": (NEAR_TARGET, state, "orlock"),
    })  # fmt: skip
    ruling = _agree(scenario, "escher-leader", "orlock-leader")
    hides = state in ("standing", "engaged")
    assert ("orlock-heavy" in ruling.sight.hidden_by) == hides
    assert (ruling.cover == "none") != hides
    if not hides:  # as the lof picture's header says it, and why the heavy hides nothing
        assert (
            verdict(ruling)
            == "escher-leader -> orlock-leader: line of fire, 100% visible, no cover"
        )
        said = state.replace("-", " ")
        if state != "out-of-action":  # in the way, yet the shot is judged without it
            assert ruling.hides_nothing == (("orlock-heavy", said),)
            assert f"hides nothing: orlock-heavy ({said})" in ruling.lines()
            doc = ruling.to_json()["hides_nothing"]
            assert doc == [{"id": "orlock-heavy", "why": said}]
    else:
        assert ruling.hides_nothing == ()


@pytest.mark.parametrize("touching", [True, False])
def test_necromunda_a_friend_touching_the_firer_is_ignored_in_the_ruling_as_in_the_shot(
    touching: bool,
) -> None:
    # FACTS 2.3: "Friendly fighters touching the firer's base are ignored when judging
    # cover": a friend whose base touches the shooter's, straight in front of it, hides
    # nothing; the same friend a tenth of an inch off hides the target, in both
    base = load_scenario(REPO / "scenarios" / "necromunda-demo.toml")
    r = base.model("escher-leader").radius + base.model("escher-ganger-1").radius
    gap = 0.01 if touching else 0.1
    at = (SHOOTER_AT[0], SHOOTER_AT[1] + r + gap)  # straight in front of the shooter
    scenario = _bare("necromunda-demo", {
        "escher-leader": (SHOOTER_AT, None, "escher"),
        "escher-ganger-1": (at, None, "escher"),
        "orlock-leader": (TARGET_AT, None, "orlock"),
    })  # fmt: skip
    ruling = _agree(scenario, "escher-leader", "orlock-leader")
    assert ("escher-ganger-1" in ruling.sight.hidden_by) != touching
    why = (("escher-ganger-1", "touching escher-leader's base"),)
    assert ruling.hides_nothing == (why if touching else ())


@pytest.mark.parametrize("state", ["normal", "prone", "unconscious", "dead"])
def test_infinity_only_the_dead_hide_nothing_in_the_ruling_as_in_the_shot(state: str) -> None:
    # FACTS 3.5: models block LoF, friend or foe; FACTS 3.3: a trooper Dead is removed
    # from the table. Prone and Unconscious troopers stay on it and block, in both.
    scenario = _bare("infinity-demo", {
        "fusilier-1": (SHOOTER_AT, None, "blue"),
        "zhanshi-1": (TARGET_AT, None, "red"),
        "zhanshi-2": (NEAR_TARGET, None if state == "normal" else state, "red"),
    })  # fmt: skip
    ruling = _agree(scenario, "fusilier-1", "zhanshi-1")
    assert ("zhanshi-2" in ruling.sight.hidden_by) == (state != "dead")


@pytest.mark.parametrize("state", ["ready", "activated", "in-position", "hidden", "dead"])
def test_open_rebellion_a_squads_dead_give_no_cover_in_the_ruling_as_in_the_shot(
    state: str,
) -> None:
    # Open Rebellion: models never block; a squad's cover is read from its living models
    # (the dead removed), in the ruling as in the engine's fire
    scenario = load_scenario(REPO / "scenarios" / "open-rebellion-demo.toml")
    scenario = replace(scenario, models=tuple(
        replace(m, state=state) if m.id == "gov-a2" else m for m in scenario.models
    ))  # fmt: skip
    for shooter in ("reb-a1", "reb-b1"):
        ruling = _agree(scenario, shooter, "gov-a1")
        assert ruling.unit == "gov-squad-a"


def test_the_demo_tables_ruled_as_the_engine_shoots_with_fighters_down() -> None:
    # Necromunda's demo with two fighters Pinned and one Seriously Injured: every ruling
    # between enemies sees what the engine's shot sees
    scenario = load_scenario(REPO / "scenarios" / "necromunda-demo.toml")
    down = {"orlock-heavy": "pinned", "escher-ganger-1": "seriously-injured",
            "orlock-ganger-1": "pinned"}  # fmt: skip
    scenario = replace(scenario, models=tuple(
        replace(m, state=down.get(m.id, m.state)) for m in scenario.models
    ))  # fmt: skip
    for a in scenario.models:
        for b in scenario.models:
            if a.side != b.side:
                _agree(scenario, a.id, b.id)


def test_the_lof_pictures_legend_says_what_each_mark_does_to_the_shot() -> None:
    # the picture's top view marks each base's state as the window does; its legend
    # says what the mark does to this shot: off the table, hiding nothing (Necromunda's
    # prone fighters, FACTS 2.3), or nothing said where the model still blocks
    # (Infinity's Prone and Unconscious troopers, FACTS 3.5)
    from game.render.lof_picture import lof_picture, marks_legend

    scenario = _bare("necromunda-demo", {
        "escher-leader": (SHOOTER_AT, None, "escher"),
        "orlock-leader": (TARGET_AT, None, "orlock"),
        "orlock-heavy": (NEAR_TARGET, "pinned", "orlock"),
        "orlock-grenadier": ((12.0, 12.0), "out-of-action", "orlock"),
        "escher-juve": ((2.0, 2.0), "seriously-injured", "escher"),
    })  # fmt: skip
    ruling = rule(scenario, table_from_scenario(scenario), "escher-leader", "orlock-leader")
    assert marks_legend(scenario, ruling) == [
        ("pinned", "pinned: hides nothing"),
        ("out-of-action", "out of action: off the table"),
        ("seriously-injured", "seriously injured: hides nothing"),
    ]
    assert lof_picture(scenario, ruling).get_size()[1] > 0
    # the target's own state says nothing of what it hides
    alone = _bare("necromunda-demo", {
        "escher-leader": (SHOOTER_AT, None, "escher"),
        "orlock-leader": (TARGET_AT, "pinned", "orlock"),
    })  # fmt: skip
    ruling = rule(alone, table_from_scenario(alone), "escher-leader", "orlock-leader")
    assert marks_legend(alone, ruling) == [("pinned", "pinned")]
    infinity = _bare("infinity-demo", {
        "fusilier-1": (SHOOTER_AT, None, "blue"),
        "zhanshi-1": (TARGET_AT, None, "red"),
        "zhanshi-2": (NEAR_TARGET, "prone", "red"),
        "zhanshi-hmg": ((12.0, 12.0), "dead", "red"),
    })  # fmt: skip
    ruling = rule(infinity, table_from_scenario(infinity), "fusilier-1", "zhanshi-1")
    assert marks_legend(infinity, ruling) == [("prone", "prone"), ("dead", "dead: off the table")]
