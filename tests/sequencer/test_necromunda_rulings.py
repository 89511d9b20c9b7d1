"""Necromunda readings a rules lawyer would check (issue #12, items 7-11), with
scripted dice on real tables: stray shots between the two bases, engaged means an
enemy of the target in base contact, "easier to hit" by the real chances, a blast
pulled back to long range keeps its fighter while it covers it, and Flak 5+ against
blasts and templates."""

from __future__ import annotations

import math
from typing import Any

import pytest

from game.sequencer.events import Event, Hit, Rolled
from game.sequencer.necromunda import Act, Action, NecromundaEngine
from game.sequencer.necromunda_types import AIMED, BlastPlaced, StrayChecked
from tests.sequencer.necromunda_tables import (
    R,
    ScriptedNecromunda,
    Write,
    necromunda_table,
    shooting_game,
    wall,
)


@pytest.fixture
def write(write_scenario: Write) -> Write:
    return write_scenario


def of(events: list[Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def engine_of(game: Any) -> NecromundaEngine:
    assert isinstance(game.engine, NecromundaEngine)
    return game.engine


def test_stray_shots_run_between_the_attacker_and_the_target(write: Write) -> None:
    # seed 004: at risk are fighters "within 1" of the measured line (between attacker
    # and target)": a friend touching the firer's back and a fighter just beyond the
    # target are not, though each is within 1" of the line drawn on through the bases
    fighters = [
        ("shooter", "goliath", "ganger", (4.0, 12.0), 0.0),
        ("target", "escher", "ganger", (16.0, 12.0), 180.0),
        ("behind", "goliath", "ganger", (4.0 - 2 * R - 0.01, 12.0), 0.0),
        ("beyond", "escher", "ganger", (16.0 + 2 * R + 0.4, 12.0), 180.0),
        ("between", "goliath", "ganger", (10.0, 12.9), 0.0),
    ]
    game, state = shooting_game(necromunda_table(write, fighters), "shooter")
    assert engine_of(game).at_risk(state, "shooter", "target") == ["between"]
    # a miss (1), firepower 2, one stray D6 for "between" only (4: it passes)
    game.rng = ScriptedNecromunda(1, 2, 4)  # type: ignore[assignment]
    events = game.declare(Act("shooter", Action.shoot("Lasgun", "target")))
    assert [e.model for e in of(events, StrayChecked)] == ["between"]


def test_engaged_with_the_target_means_an_enemy_of_it_in_base_contact(write: Write) -> None:
    # seed 004: "Any fighters Engaged with the target" are at risk: the target's own
    # friend touching it is not engaged with it; the firer's friend touching it is
    angle = math.radians(60)
    touch = (2 * R + 0.01) * math.cos(angle), (2 * R + 0.01) * math.sin(angle)
    fighters = [
        ("shooter", "goliath", "ganger", (4.0, 12.0), 0.0),
        ("target", "escher", "ganger", (16.0, 12.0), 180.0),
        ("its-friend", "escher", "ganger", (16.0 + touch[0], 12.0 + touch[1]), 180.0),
        ("its-enemy", "goliath", "ganger", (16.0 + touch[0], 12.0 - touch[1]), 180.0),
    ]
    game, state = shooting_game(necromunda_table(write, fighters), "shooter")
    assert engine_of(game).at_risk(state, "shooter", "target") == ["its-enemy"]


def test_target_priority_easier_to_hit_compares_the_real_chances(write: Write) -> None:
    # FACTS 2.3: a closer target may be skipped only if it is harder to hit; a natural 1
    # always misses, so 2+ (the closer, in partial cover) and 1+ (the farther, in the
    # open) are the same 5 in 6: the farther is not easier, and a Cool test is needed
    fighters = [
        ("shooter", "goliath", "leader", (4.0, 12.0), 0.0),
        ("close", "escher", "ganger", (10.0, 10.0), 180.0),
        ("far", "escher", "ganger", (16.0, 12.0), 180.0),
    ]
    low = wall("low", 9.0, 9.3, 9.2, 10.7, height=0.4)
    path = necromunda_table(write, fighters, scenery=low, weapons={"shooter": ["Lasgun"]})
    game, state = shooting_game(path, "shooter")
    me = state.model("shooter")
    game.state = state.with_model(me.replace(flags=me.flags | {AIMED}))
    fire = engine_of(game)
    lasgun = fire.weapon("shooter", "Lasgun")
    assert fire.hit_plan(game.state, "shooter", lasgun, target="close").need == 2
    assert fire.hit_plan(game.state, "shooter", lasgun, target="far").need == 1
    # Cool 5+ (leader): 3+3 passes; hit roll 2, firepower 2, wound 1
    game.rng = ScriptedNecromunda(3, 3, 2, 2, 1)  # type: ignore[assignment]
    events = game.declare(Act("shooter", Action.shoot("Lasgun", "far")))
    [cool] = [e for e in of(events, Rolled) if e.attribute == "Cl"]
    assert cool.target == 5
    assert [e.target for e in of(events, Hit)] == ["far"]


@pytest.mark.parametrize(("gap", "kept"), [(1.0, True), (3.0, False)])
def test_a_blast_pulled_back_keeps_its_fighter_while_the_marker_covers_it(
    write: Write, gap: float, kept: bool
) -> None:
    # seed 004: a centre beyond Long range is pulled back; the fighter aimed at stays the
    # target while the 3" marker still covers its base (no -2 for a point)
    reach = 2.0 + 9.0 + R  # S3 x 3 = 9" from the thrower's base edge
    fighters = [
        ("thrower", "goliath", "ganger", (2.0, 12.0), 0.0),
        ("foe", "escher", "ganger", (reach + gap, 12.0), 180.0),
    ]
    game, _ = shooting_game(necromunda_table(write, fighters), "thrower")
    # hit 6, ammo 4; then, if the marker covers the foe: Knockback D6 1 (FACTS 2.9:
    # below its S3), wound 1
    game.rng = ScriptedNecromunda(6, 4, *((1, 1) if kept else ()))  # type: ignore[assignment]
    events = game.declare(Act("thrower", Action.shoot("Frag grenade", "foe")))
    [placed] = of(events, BlastPlaced)
    assert placed.reason == "pulled back to long range"
    [roll] = [e for e in of(events, Rolled) if e.purpose.startswith("hit roll")]
    point = [m for m in roll.modifiers if m.source == "a point on the battlefield"]
    assert bool(point) is not kept
    assert [e.target for e in of(events, Hit)] == (["foe"] if kept else [])


@pytest.mark.parametrize(("weapon", "save"), [("Frag grenade", 5), ("Lasgun", 6)])
def test_flak_saves_5_against_blasts_6_otherwise(write: Write, weapon: str, save: int) -> None:
    # FACTS 2.5 [S]: "Flak | 6+ | 5+ against Blast/Flame template"
    fighters = [
        ("thrower", "goliath", "ganger", (2.0, 12.0), 0.0),
        ("foe", "escher", "ganger", (8.0, 12.0), 180.0),
    ]
    path = necromunda_table(write, fighters, weapons={"thrower": [weapon]})
    game, _ = shooting_game(path, "thrower")
    # hit 6; ammo test 4 (grenade, and its Knockback D6 1: FACTS 2.9, below S3) or
    # firepower 2 (lasgun); wound 6; save 5
    first = (4, 1) if weapon != "Lasgun" else (2,)
    game.rng = ScriptedNecromunda(6, *first, 6, 5, 1)  # type: ignore[assignment]
    events = game.declare(Act("thrower", Action.shoot(weapon, "foe")))
    [sv] = [e for e in of(events, Rolled) if e.attribute == "Sv"]
    assert (sv.base, sv.target) == (save, save)
    assert sv.results == (("success",) if save == 5 else ("fail",))


def test_shoot_json_lists_the_stray_shot_candidates_in_order(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from game.cli import main

    fighters = [
        ("shooter", "goliath", "ganger", (4.0, 12.0), 0.0),
        ("target", "escher", "ganger", (16.0, 12.0), 180.0),
        ("behind", "goliath", "ganger", (4.0 - 2 * R - 0.01, 12.0), 0.0),
        ("second", "goliath", "ganger", (12.0, 11.1), 0.0),
        ("near", "goliath", "ganger", (8.0, 12.9), 0.0),
    ]
    path = necromunda_table(write, fighters)
    args = ["shoot", str(path), "--attacker", "shooter", "--target", "target"]
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["at_risk"] == ["near", "second"]
    assert main(args) == 0
    assert "nearest first: near and second" in capsys.readouterr().out.lower()
