"""Infinity Guts Rolls at the end of an Order (issue #12; FACTS 3.3), scripted dice on
small tables: a Normal WIP roll for a trooper that had to make a Saving Roll; on a fail
it moves up to 2" out of every attacker's Line of Fire, else into cover, else goes
Prone (rule value); never toward the attacker; none in CodeOne."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game.scenario import load_scenario
from game.sequencer.declarations import decode
from game.sequencer.events import Moved, Rolled, SaveRolled, StateChanged
from game.sequencer.game import Game
from game.sequencer.infinity import Activate, Continue, React, Skill
from game.sequencer.sight import Cover, Placement
from tests.sequencer.scripted import ScriptedDice

Write = Callable[..., Path]

TABLE = """
[scenario]
name = "Guts"
ruleset = "infinity"
table = [24, 24]
{saves}

[[side]]
id = "blue"

[[side]]
id = "red"

{scenery}

[[model]]
id = "fusilier"
side = "blue"
profile = "fusilier"
at = [4, 12]
facing = 0

[[model]]
id = "zhanshi"
side = "red"
profile = "zhanshi"
at = [{at[0]}, {at[1]}]
facing = 0
"""

BLOCK = """
[[scenery]]
id = "block"
kind = "building"
polygon = [[10, 12.9], [12, 12.9], [12, 20], [10, 20]]
"""

LOW_WALL = """
[[scenery]]
id = "low"
kind = "wall"
height = 0.5
line = [[15.0, 9.0], [15.0, 12.0]]
thickness = 0.2
"""


def shot(write: Write, *faces: int, scenery: str = "", at: Any = (13.0, 12.2),
         saves: str = "") -> tuple[Game, list[Any]]:  # fmt: skip
    """The fusilier's Combi Rifle, Burst 3 at the zhanshi, who stays idle: a 3 hits
    (SV 15), two 20s miss; then the zhanshi's N5 save (SV 8) and whatever follows."""
    path = write(TABLE.format(saves=saves, scenery=scenery, at=at), header=False)
    game = Game(load_scenario(path), seed=1)
    game.rng = ScriptedDice(3, 20, 20, *faces)  # type: ignore[assignment]
    game.declare(Activate("fusilier", Skill.attack("Combi Rifle", ("zhanshi", 3))))
    while game.awaiting().kind == "aro":
        game.declare(React(game.awaiting().models[0], Skill.idle()))
    events = game.declare(Continue(Skill.idle()))
    assert game.rng.left() == []  # type: ignore[attr-defined]
    return game, events


def guts(events: list[Any]) -> list[Rolled]:
    return [e for e in events if isinstance(e, Rolled) and e.purpose == "Guts Roll"]


def test_guts_roll_passed_stays_put(write_scenario: Write) -> None:
    # FACTS 3.3: "one Normal WIP roll at the very end of the Order, after saves. Pass ->
    # stay put." The zhanshi saves (1) and passes WIP 12 with a 12.
    game, events = shot(write_scenario, 1, 12)
    [save] = [e for e in events if isinstance(e, SaveRolled)]
    assert save.wounds == 0
    [roll] = guts(events)
    assert (roll.model, roll.attribute, roll.target, roll.results) == (
        "zhanshi", "WIP", 12, ("success",),
    )  # fmt: skip
    assert not [e for e in events if isinstance(e, Moved) and e.model == "zhanshi"]
    assert game.state.model("zhanshi").at == (13.0, 12.2)


def test_guts_roll_failed_moves_out_of_line_of_fire(write_scenario: Write) -> None:
    # FACTS 3.3: fail -> "(1) move up to 2" to leave the LoF ... of every attacker";
    # "may not move toward the attacker". A building's corner is within reach.
    game, events = shot(write_scenario, 1, 13, scenery=BLOCK)
    assert guts(events)[0].results == ("fail",)
    [moved] = [e for e in events if isinstance(e, Moved) and e.model == "zhanshi"]
    start, end = moved.path
    assert 0 < moved.distance <= 2.0 + 1e-9
    assert math.dist(end, (4, 12)) >= math.dist(start, (4, 12))
    engine: Any = game.engine
    assert not engine.sighting(game.state, "fusilier", "zhanshi").lof


def test_guts_roll_failed_moves_into_cover_when_no_way_out_of_sight(
    write_scenario: Write,
) -> None:
    # FACTS 3.3: "(2) otherwise move up to 2" to gain Total or Partial Cover": a low wall
    # hides nothing whole, but touching it gives Partial Cover from the fusilier
    game, events = shot(write_scenario, 1, 13, scenery=LOW_WALL, at=(14.0, 13.0))
    [moved] = [e for e in events if isinstance(e, Moved) and e.model == "zhanshi"]
    assert moved.distance <= 2.0 + 1e-9
    engine: Any = game.engine
    seen = engine.sighting(game.state, "fusilier", "zhanshi")
    assert seen.lof and seen.cover.value == "partial"


def test_guts_roll_failed_in_the_open_goes_prone(write_scenario: Write) -> None:
    # FACTS 3.3: "(3) [U for N5; earlier editions: otherwise go Prone]": rule value
    # guts_goes_prone in assets/infinity/rules.toml (unconfirmed)
    game, events = shot(write_scenario, 1, 13)
    assert StateChanged("zhanshi", "normal", "prone") in events
    assert game.state.model("zhanshi").status == "prone"
    assert game.state.model("zhanshi").at == (13.0, 12.2)


def test_no_guts_roll_in_codeone(write_scenario: Write) -> None:
    # FACTS 3.3: Guts Rolls are "not used in CodeOne": no die is drawn for one (the script
    # holds only the attack and the save: CodeOne DAM 13 - ARM 1 = 12, a 20 is no wound)
    _, events = shot(write_scenario, 20, saves='saves = "codeone"')
    assert guts(events) == []


def test_a_trooper_left_unconscious_makes_no_guts_roll(write_scenario: Write) -> None:
    # FACTS 3.3: the roll is for troopers not Null; an Unconscious trooper has none
    game, events = shot(write_scenario, 20)  # the save fails: 1 wound, VITA 1
    assert game.state.model("zhanshi").status == "unconscious"
    assert guts(events) == []


def test_a_failed_guts_roll_ignores_an_attacker_the_exchange_took_down(
    write_scenario: Write,
) -> None:
    # The fusilier splits its Burst: 2 at the zhanshi (a Normal roll: it faces away) and 1
    # at zhanshi-b, whose ARO wins with a Critical and kills the fusilier. The zhanshi
    # saves its hit and fails its Guts Roll: a dead attacker is off the table and
    # threatens nothing, so the zhanshi stays where it is (it used to raise KeyError).
    text = TABLE.format(saves="", scenery="", at=(13.0, 12.2)) + (
        '\n[[model]]\nid = "zhanshi-b"\nside = "red"\nprofile = "zhanshi"\n'
        "at = [13, 14.5]\nfacing = 180\n"
    )
    game = Game(load_scenario(write_scenario(text, header=False)), seed=1)
    # fusilier 3, 20 at the zhanshi and 20 at zhanshi-b; zhanshi-b 14 (a Critical, SV 14);
    # the zhanshi saves (1); the fusilier fails both saves (20, 20); Guts Roll 13 fails
    game.rng = ScriptedDice(3, 20, 20, 14, 1, 20, 20, 13)  # type: ignore[assignment]
    game.declare(
        Activate("fusilier", Skill.attack("Combi Rifle", ("zhanshi", 2), ("zhanshi-b", 1)))
    )
    game.declare(React("zhanshi-b", Skill.attack("Combi Rifle", ("fusilier", 1))))
    events = game.declare(Continue(Skill.idle()))
    assert game.state.model("fusilier").status == "dead"
    rolls = guts(events)
    assert [r.model for r in rolls] == ["zhanshi"] and rolls[0].results == ("fail",)
    assert not [e for e in events if isinstance(e, Moved) and e.model == "zhanshi"]
    assert game.state.model("zhanshi").status == "normal"


def test_guts_roll_the_player_may_choose_to_fail(write_scenario: Write) -> None:
    # FACTS 3.3: "Pass -> stay put. The player may choose to fail." The zhanshi's
    # (idle) ARO says it fails any Guts Roll on purpose: no WIP die is drawn (the script
    # holds only the save's 1), and it moves out of the fusilier's Line of Fire as on a
    # failed roll. (It faces the fusilier here, so it may declare an ARO.)
    from game.sequencer.infinity_guts import GutsFailed

    text = TABLE.format(saves="", scenery=BLOCK, at=(13.0, 12.2))
    facing_west = text[::-1].replace("0 = gnicaf", "081 = gnicaf", 1)[::-1]
    path = write_scenario(facing_west, header=False)
    game = Game(load_scenario(path), seed=1)
    game.rng = ScriptedDice(3, 20, 20, 1)  # type: ignore[assignment]
    game.declare(Activate("fusilier", Skill.attack("Combi Rifle", ("zhanshi", 3))))
    assert game.awaiting().kind == "aro"
    game.declare(React("zhanshi", Skill.idle().failing_guts()))
    events = game.declare(Continue(Skill.idle()))
    assert game.rng.left() == []  # type: ignore[attr-defined]
    assert not guts(events)
    assert [e.model for e in events if isinstance(e, GutsFailed)] == ["zhanshi"]
    [moved] = [e for e in events if isinstance(e, Moved) and e.model == "zhanshi"]
    assert 0 < moved.distance <= 2.0 + 1e-9
    engine: Any = game.engine
    assert not engine.sighting(game.state, "fusilier", "zhanshi").lof
    # the choice is in the save (and replays); a skill without it keeps its old form
    [react] = [d.to_dict() for d in game.declarations if isinstance(d, React)]
    assert react["skill"]["fail_guts"] is True
    assert "fail_guts" not in Activate("x", Skill.idle()).to_dict()["skill"]
    assert decode(react) == React("zhanshi", Skill.idle().failing_guts())


def test_guts_roll_chosen_by_the_active_trooper(write_scenario: Write) -> None:
    # FACTS 3.3, "The player may choose to fail": the active trooper says so with its
    # Order's skill; here nothing forces it to a Guts Roll (no save), so nothing happens
    # and no die is drawn beyond the attack's.
    from game.sequencer.infinity_guts import GutsFailed

    path = write_scenario(TABLE.format(saves="", scenery="", at=(13.0, 12.2)), header=False)
    game = Game(load_scenario(path), seed=1)
    game.rng = ScriptedDice(20, 20, 20)  # type: ignore[assignment]
    game.declare(Activate("fusilier", Skill.attack("Combi Rifle", ("zhanshi", 3)).failing_guts()))
    while game.awaiting().kind == "aro":
        game.declare(React(game.awaiting().models[0], Skill.idle()))
    events = game.declare(Continue(Skill.idle()))
    assert game.rng.left() == []  # type: ignore[attr-defined]
    assert not [e for e in events if isinstance(e, GutsFailed)] and not guts(events)


def _fall_back_asked_of_every_point(engine: Any, state: Any, model: str, by: list[str]) -> Any:
    """FACTS 3.3's fall back asked of every point at once, with a full sighting from
    every attacker (no cheap question first): the points on 16 headings at 0.5" to 2",
    shortest first, that are no nearer any attacker and that the base can reach; the
    first out of every attacker's Line of Fire, else the first in Partial or Total
    Cover from all of them; None: neither (stay, or go Prone)."""
    from game.sequencer.infinity_guts import HEADINGS, STEPS

    me = state.model(model)
    points = []
    for step in STEPS:
        for k in range(HEADINGS):
            angle = 2 * math.pi * k / HEADINGS
            to = (me.at[0] + step * math.cos(angle), me.at[1] + step * math.sin(angle))
            nearer = any(
                math.dist(to, state.model(a).at) < math.dist(me.at, state.model(a).at) - 1e-9
                for a in by
            )
            if not nearer and engine.path_blocked(state, model, (me.at, to)) is None:
                points.append(to)
    seen = {
        to: [engine.sighting(state, a, model, {model: Placement(to, me.facing)}) for a in by]
        for to in points
    }
    out_of_sight = [to for to in points if not any(s.lof for s in seen[to])]
    in_cover = [to for to in points if all(s.cover is not Cover.NONE for s in seen[to])]
    return (out_of_sight or in_cover or [None])[0]


def test_guts_fall_back_picks_the_point_the_rule_picks_asked_of_every_point() -> None:
    """The fall back asks its points in order and only as far as the answer needs (a
    cheap question first, batched): the point it moves to is the one the rule (FACTS
    3.3: "move up to 2" to leave the LoF of every attacker; otherwise ... to gain Total
    or Partial Cover") picks when every candidate is asked everything, over many
    positions of the bundled demo table, one and two attackers."""
    import numpy as np

    from game.paths import SCENARIOS_DIR
    from game.sequencer.infinity_guts import _fall_back

    setup = load_scenario(SCENARIOS_DIR / "infinity-demo.toml")
    game = Game(setup, seed=1)
    engine, start = game.engine, game.state
    rng = np.random.default_rng(13)
    width, depth = setup.header.table
    blue = [m.id for m in start.models if m.side == start.models[0].side]
    red = [m.id for m in start.models if m.side != start.models[0].side]
    outcomes = {"out of sight": 0, "cover": 0, "none": 0}
    tried = 0
    while tried < 40:
        state = start
        for m in start.models:  # everyone somewhere else on the table
            at = (float(rng.uniform(1, width - 1)), float(rng.uniform(1, depth - 1)))
            state = state.with_model(
                state.model(m.id).replace(at=at, facing=float(rng.uniform(0, 360)))
            )
        model = str(rng.choice(red))
        by = [str(a) for a in rng.choice(blue, size=1 + tried % 2, replace=False)]
        me = state.model(model)
        if any(engine.path_blocked(state, m.id, (m.at,)) for m in state.models):
            continue  # a base on scenery or another base: not a position of the game
        tried += 1
        engine.sight._sightings.clear()  # each position asks afresh, the fall back first
        engine.sight._clears.clear()
        events: list[Any] = []
        after = _fall_back(engine, state, model, by, events)
        expected = _fall_back_asked_of_every_point(engine, state, model, by)
        moves = [e for e in events if isinstance(e, Moved)]
        if expected is None:
            assert moves == [] and after.model(model).at == me.at
        else:
            assert [m.path for m in moves] == [(me.at, expected)]
            assert after.model(model).at == expected
        if expected is None:
            outcomes["none"] += 1
        elif not any(
            engine.sighting(state, a, model, {model: Placement(expected, me.facing)}).lof
            for a in by
        ):
            outcomes["out of sight"] += 1
        else:
            outcomes["cover"] += 1
    # the positions reach every branch of the rule, or the comparison proves little
    assert all(outcomes.values()), outcomes
