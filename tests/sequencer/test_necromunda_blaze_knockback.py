"""Necromunda's Blaze and Knockback traits (FACTS 2.9) with scripted dice.

FACTS 2.9 [S], trait notes: "**Blaze** = target catches fire on 4+; when it next
activates it takes an S3 AP-1 hit, moves 2D6" at random if Active, and the fire goes out
on a 6+ (+2 if Pinned, +1 per Active friend within 1"). **Knockback** = hit roll >=
target S pushes it 1" (+1 D if blocked)." Readings FACTS leaves open (README,
assets/necromunda/traits.toml): the fire takes the burning fighter's whole activation, a
Pinned one stands before it runs, and a fighter under a blast rolls a D6 of its own for
Knockback, pushed away from the blast's centre."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from game.errors import IllegalDeclaration
from game.rules.necromunda.dice import Knockback, Traits
from game.rules.registry import RULESETS
from game.scenario import load_scenario
from game.sequencer.events import Declared, Event, Moved, StateChanged, Wounded, event_dict
from game.sequencer.game import Game
from game.sequencer.necromunda import Act, Action, NecromundaEngine
from game.sequencer.necromunda_types import (
    BLAZE,
    OUT_OF_ACTION,
    PINNED,
    READY,
    SERIOUSLY_INJURED,
    STANDING,
    BlazeRolled,
    Burned,
    EndActivation,
    ForcedMove,
    InjuryRolled,
    NecromundaState,
)
from game.sequencer.sentences import Teller, names_of
from tests.sequencer.necromunda_tables import (
    R,
    ScriptedNecromunda,
    Write,
    necromunda_table,
    shooting_game,
    wall,
)

PISTOL = """
[[weapon]]
name = "Concussion pistol"
short = 6
long = 12
strength = 3
damage = 1
traits = ["Knockback"]
"""


def of(events: list[Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def told(game: Game, path: Path) -> list[str]:
    teller = Teller(RULESETS["necromunda"], names_of(load_scenario(path)))
    return [line for line in (teller.say(e) for e in game.events) if line]


def state(game: Game) -> NecromundaState:
    assert isinstance(game.state, NecromundaState)
    return game.state


# -- Blaze: catching fire ---------------------------------------------------------------

FLAMER = [
    ("flamer", "goliath", "champion-flamer", (4.0, 12.0), 0.0),
    ("foe", "escher", "ganger", (6.5, 12.0), 180.0),
    ("far", "escher", "ganger", (20.0, 20.0), 180.0),
]


@pytest.mark.parametrize(("face", "caught"), [(4, True), (3, False)])
def test_blaze_a_flamer_hit_sets_the_target_on_fire_on_a_4_plus(
    write_scenario: Write, face: int, caught: bool
) -> None:
    # FACTS 2.9: "Blaze = target catches fire on 4+": after the hit (here no wound)
    path = necromunda_table(write_scenario, FLAMER)
    game, _ = shooting_game(path, "flamer")
    game.rng = ScriptedNecromunda(2, 1, face)  # type: ignore[assignment]  # firepower, wound
    events = game.declare(Act("flamer", Action.flame("Flamer", 0.0)))
    [roll] = of(events, BlazeRolled)
    assert (roll.model, roll.weapon, roll.face, roll.need, roll.success) == (
        "foe", "Flamer", face, 4, caught
    )  # fmt: skip
    assert (BLAZE in state(game).model("foe").flags) is caught
    outcome = "catches fire" if caught else "does not catch fire"
    assert f"Foe rolls for the Flamer's Blaze: D6 {face}, needs 4+: {outcome}" in told(game, path)


def test_blaze_a_hit_that_takes_the_target_out_of_action_rolls_no_blaze(
    write_scenario: Write,
) -> None:
    # FACTS 2.9: the fire is for a fighter still in the fight: wound 6, save 1 (flak 5+
    # against a template, AP -1), Injury die 6: out of action; no Blaze die is rolled
    path = necromunda_table(write_scenario, FLAMER)
    game, _ = shooting_game(path, "flamer")
    game.rng = ScriptedNecromunda(2, 6, 1, 6)  # type: ignore[assignment]
    events = game.declare(Act("flamer", Action.flame("Flamer", 0.0)))
    assert state(game).model("foe").status == OUT_OF_ACTION
    assert not of(events, BlazeRolled)
    assert game.rng.left() == []  # type: ignore[attr-defined]


def test_blaze_a_weapon_without_it_sets_nothing_on_fire(write_scenario: Write) -> None:
    path = necromunda_table(write_scenario, FLAMER, weapons={"flamer": ["Lasgun"]})
    game, _ = shooting_game(path, "flamer")
    game.rng = ScriptedNecromunda(6, 2, 1)  # type: ignore[assignment]  # hit, firepower, wound
    events = game.declare(Act("flamer", Action.shoot("Lasgun", "foe")))
    assert not of(events, BlazeRolled) and BLAZE not in state(game).model("foe").flags


# -- Blaze: a burning fighter activates ---------------------------------------------------

BURNING = [
    ("shooter", "goliath", "ganger", (2.0, 2.0), 0.0),
    ("foe", "escher", "ganger", (12.0, 12.0), 0.0),
]


def burning(
    write: Write, *, status: str = STANDING, friend: float | None = None, scenery: str = ""
) -> tuple[Game, Path]:
    """Escher to activate, its fighter 'foe' on fire (and `status`); `friend`: an Escher
    fighter that far from it, base edge to base edge."""
    fighters = list(BURNING)
    if friend is not None:
        fighters.append(("pal", "escher", "ganger", (12.0, 12.0 - 2 * R - friend), 0.0))
    path = necromunda_table(write, fighters, scenery=scenery)
    game, s = shooting_game(path, "foe")
    m = s.model("foe")
    game.state = s.with_model(m.replace(status=status, flags=m.flags | {BLAZE}))
    return game, path


def test_blaze_a_burning_fighter_may_not_act_the_flames_take_its_activation(
    write_scenario: Write,
) -> None:
    # FACTS is silent on what a burning fighter may do; the reading (the rulebook's):
    # the fire takes its activation, so an action is refused with the reason
    game, _ = burning(write_scenario)
    before = game.state
    with pytest.raises(IllegalDeclaration, match="foe is on fire: the flames take its activation"):
        game.declare(Act("foe", Action.move((13.0, 12.0))))
    assert game.state == before


def test_blaze_a_burning_fighter_takes_the_hit_runs_2d6_at_random_and_burns_on(
    write_scenario: Write,
) -> None:
    # FACTS 2.9: "when it next activates it takes an S3 AP-1 hit, moves 2D6" at random if
    # Active, and the fire goes out on a 6+": wound roll 1 (S3 vs T3: no wound); 2D6 3 + 4,
    # the scatter arrow east (0 degrees): 7" east; D6 5 to put it out: it burns on
    game, path = burning(write_scenario)
    game.rng = ScriptedNecromunda(1, 3, 4, 5, angles=[0.0])  # type: ignore[assignment]
    events = game.declare(EndActivation("foe"))
    [burned] = of(events, Burned)
    assert (burned.strength, burned.ap, burned.damage) == (3, -1, 1)
    [run] = of(events, ForcedMove)
    assert run.cause == "blaze" and run.faces == (3, 4) and run.wanted == 7.0
    assert not run.blocked and run.distance == pytest.approx(7.0)
    foe = state(game).model("foe")
    assert foe.at == pytest.approx((19.0, 12.0))
    assert BLAZE in foe.flags and READY not in foe.flags  # its activation is over
    [out] = of(events, BlazeRolled)
    assert (out.weapon, out.face, out.need, out.success, out.modifiers) == ("", 5, 6, False, ())
    lines = told(game, path)
    assert (
        "Foe is on fire, and the flames take its activation: a Strength 3, AP -1, Damage 1 hit"
    ) in lines
    # the flames' wound roll is nobody's (review14: "Foe, wound roll (the flames, ...) on Foe")
    assert "Wound roll (the flames, S3 vs T3) on Foe: needs 4+; rolled 1 (fail)" in lines
    # the run said once (review14: 'Foe runs burning toward the east: 2D6 3 + 4, 7.0"; 7.0"')
    assert 'Foe runs burning toward the east: 2D6 3 + 4, 7.0"' in lines
    assert "Foe rolls to put the fire out: D6 5, needs 6+: it burns on" in lines
    assert not [line for line in lines if line.startswith("Foe moves")]  # told once


@pytest.mark.parametrize("on_fire", [True, False])
def test_blaze_a_fighter_out_of_action_is_not_activated_to_burn(
    write_scenario: Write, on_fire: bool
) -> None:
    """A fighter taken Out of Action before its activation keeps its Ready flag (and, shot
    down while burning, its fire); the engine refused it an action but accepted its
    activating doing nothing, and one on fire then burned, Out of Action (review14).
    FACTS 2.8: the Action phase activates Ready fighters still in the fight."""
    game, _ = burning(write_scenario, status=OUT_OF_ACTION)
    if not on_fire:
        m = state(game).model("foe")
        game.state = state(game).with_model(m.replace(flags=m.flags - {BLAZE}))
    before, log = game.state, game.log()
    with pytest.raises(IllegalDeclaration, match="foe is out of action"):
        game.declare(EndActivation("foe"))
    assert game.state is before and game.log() == log


def test_blaze_a_burning_fighters_activation_is_told_as_the_fires() -> None:
    """FACTS 2.9, Blaze: the flames take a burning fighter's activation, so the log does not
    say it "is activated and does nothing" (review14: "House Orlock: Orlock leader is
    activated and does nothing", then the flames' hit and its run); once the fire is out,
    an activation that does nothing is told so again."""
    teller = Teller(RULESETS["necromunda"], ("foe",))
    passed = Declared("escher", {"declare": "EndActivation", "model": "foe"})
    caught = BlazeRolled("foe", "Flamer", 5, (), 4, True)
    out = BlazeRolled("foe", "", 6, (), 6, True)
    assert teller.say(passed) == "Escher: Foe is activated and does nothing"
    assert teller.say(caught) == "Foe rolls for the Flamer's Blaze: D6 5, needs 4+: catches fire"
    assert teller.say(passed) == "Escher: Foe is activated on fire"
    assert teller.say(out) == "Foe rolls to put the fire out: D6 6, needs 6+: the fire goes out"
    assert teller.say(passed) == "Escher: Foe is activated and does nothing"


def test_blaze_the_run_stops_where_the_base_meets_a_wall(write_scenario: Write) -> None:
    # the run stops as the engine's other forced moves do: at a wall 3" east
    game, path = burning(write_scenario, scenery=wall("w", 15.0, 10.0, 15.3, 14.0))
    game.rng = ScriptedNecromunda(1, 3, 4, 6, angles=[0.0])  # type: ignore[assignment]
    events = game.declare(EndActivation("foe"))
    [run] = of(events, ForcedMove)
    assert run.blocked and run.stopped_by == "w"
    assert state(game).model("foe").at[0] == pytest.approx(15.0 - R, abs=0.01)
    assert BLAZE not in state(game).model("foe").flags  # D6 6: the fire goes out
    assert any("stopped by w after" in line for line in told(game, path))


def test_blaze_a_pinned_burning_fighter_stands_then_runs(write_scenario: Write) -> None:
    # FACTS is silent whether a Pinned one runs; the reading (the rulebook's): it stands
    # first, then runs as an Active one. Wound 1; stands; 2D6 1 + 1 north (90): 2"; D6 6
    game, _ = burning(write_scenario, status=PINNED)
    game.rng = ScriptedNecromunda(1, 1, 1, 6, angles=[90.0])  # type: ignore[assignment]
    events = game.declare(EndActivation("foe"))
    assert ("foe", PINNED, STANDING) in [
        (e.model, e.before, e.after) for e in of(events, StateChanged)
    ]
    foe = state(game).model("foe")
    assert foe.at == pytest.approx((12.0, 14.0)) and foe.status == STANDING
    assert BLAZE not in foe.flags


def test_blaze_a_seriously_injured_fighter_does_not_run_and_adds_2_to_put_it_out(
    write_scenario: Write,
) -> None:
    # FACTS 2.9: "moves 2D6" at random if Active"; "+2 if Pinned": Seriously Injured is
    # Prone too. Wound 1; no run; D6 4 + 2 = 6: out
    game, _ = burning(write_scenario, status=SERIOUSLY_INJURED)
    game.rng = ScriptedNecromunda(1, 4)  # type: ignore[assignment]
    events = game.declare(EndActivation("foe"))
    assert not of(events, ForcedMove) and state(game).model("foe").at == (12.0, 12.0)
    [out] = of(events, BlazeRolled)
    assert out.modifiers == (("seriously injured", 2),) and out.success
    assert BLAZE not in state(game).model("foe").flags


@pytest.mark.parametrize(("gap", "success"), [(0.9, True), (1.2, False)])
def test_blaze_an_active_friend_within_1_inch_adds_1_to_put_it_out(
    write_scenario: Write, gap: float, success: bool
) -> None:
    # FACTS 2.9: "+1 per Active friend within 1"" (base edge to base edge): D6 3, +2
    # Seriously Injured, +1 for the friend 0.9" away (none 1.2" away)
    game, _ = burning(write_scenario, status=SERIOUSLY_INJURED, friend=gap)
    game.rng = ScriptedNecromunda(1, 3)  # type: ignore[assignment]
    events = game.declare(EndActivation("foe"))
    [out] = of(events, BlazeRolled)
    assert out.success is success
    assert (('friends within 1"', 1) in out.modifiers) is success


def test_blaze_the_flames_may_take_it_out_of_action_and_its_friends_test_their_nerve(
    write_scenario: Write,
) -> None:
    # the flames' hit is resolved as any hit: wound 6; flak 6+ with AP -1 is no save;
    # Injury die 6: out of action. No run, no roll to put it out; the friend 0.5" away
    # takes a Nerve test (FACTS 2.4): 4 + 4
    game, _ = burning(write_scenario, friend=0.5)
    game.rng = ScriptedNecromunda(6, 6, 4, 4)  # type: ignore[assignment]
    events = game.declare(EndActivation("foe"))
    assert state(game).model("foe").status == OUT_OF_ACTION
    assert of(events, InjuryRolled)[0].faces == (6,)
    assert not of(events, ForcedMove) and not of(events, BlazeRolled)
    assert any("Nerve test" in getattr(e, "purpose", "") for e in events)
    assert game.rng.left() == []  # type: ignore[attr-defined]


def test_blaze_the_automatic_players_activate_a_burning_fighter_to_burn(
    write_scenario: Write,
) -> None:
    game, _ = burning(write_scenario)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    for name in ("simple", "careful", "search"):
        player = RULESETS["necromunda"].player(name)(engine)
        assert player.choose(game.state, game.awaiting()) == EndActivation("foe"), name


# -- Knockback --------------------------------------------------------------------------

SHOT = [
    ("shooter", "goliath", "ganger", (4.0, 12.0), 0.0),
    ("target", "escher", "ganger", (10.0, 12.0), 180.0),
]


def test_knockback_a_hit_roll_at_or_above_the_strength_pushes_it_1_inch_away(
    write_scenario: Write,
) -> None:
    # FACTS 2.9: "hit roll >= target S pushes it 1"": hit roll 5 against S3; pushed 1"
    # directly away from the shooter (east); then wound 1
    path = necromunda_table(write_scenario, SHOT, scenery=PISTOL,
                            weapons={"shooter": ["Concussion pistol"]})  # fmt: skip
    game, _ = shooting_game(path, "shooter")
    game.rng = ScriptedNecromunda(5, 2, 1)  # type: ignore[assignment]  # hit, firepower, wound
    events = game.declare(Act("shooter", Action.shoot("Concussion pistol", "target")))
    [push] = of(events, ForcedMove)
    assert (push.cause, push.faces, push.strength, push.blocked) == ("knockback", (5,), 3, False)
    assert state(game).model("target").at == pytest.approx((11.0, 12.0))
    assert of(events, Moved)[-1].model == "target"
    assert 'Knockback on Target: 5 against its Strength 3: pushed toward the east, 1.0"' in (
        told(game, path)
    )


CARBINE = """
[[weapon]]
name = "Concussion carbine"
short = 12
long = 24
strength = 3
damage = 1
ammo = 4
traits = ["Rapid Fire (1)", "Knockback"]
"""


def test_knockback_one_hit_roll_pushes_a_fighter_once_however_many_hits_it_scores(
    write_scenario: Write,
) -> None:
    # FACTS 2.9: "hit roll >= target S pushes it 1"": one hit roll, one push. Hit roll 6
    # against S3, the Firepower die's 2 bullet holes (face 3): two hits on the target,
    # wound 1 and 1; it is pushed 1" east once (review14: twice, 2")
    path = necromunda_table(write_scenario, SHOT, scenery=CARBINE,
                            weapons={"shooter": ["Concussion carbine"]})  # fmt: skip
    game, _ = shooting_game(path, "shooter")
    game.rng = ScriptedNecromunda(6, 3, 1, 1)  # type: ignore[assignment]
    events = game.declare(Act("shooter", Action.shoot("Concussion carbine", "target")))
    assert len([e for e in events if type(e).__name__ == "Hit"]) == 2
    [push] = of(events, ForcedMove)
    assert (push.faces, push.distance) == ((6,), pytest.approx(1.0))
    assert state(game).model("target").at == pytest.approx((11.0, 12.0))
    assert game.rng.left() == []  # type: ignore[attr-defined]


def _pushed(
    write_scenario: Write,
    scenery: str,
    at: tuple[float, float],
    dice: tuple[int, ...],
    blocked_damage: int | None = None,
) -> tuple[Game, Path, list[Event]]:
    """The Concussion pistol (Knockback) of a Goliath 6" west of an Escher at `at` hits
    it with `dice`, the table's `scenery` behind it; `blocked_damage`: traits.toml's
    figure given otherwise."""
    fighters = [
        ("shooter", "goliath", "ganger", (at[0] - 6.0, 12.0), 0.0),
        ("target", "escher", "ganger", at, 180.0),
    ]
    path = necromunda_table(write_scenario, fighters, scenery=scenery + PISTOL,
                            weapons={"shooter": ["Concussion pistol"]})  # fmt: skip
    game, _ = shooting_game(path, "shooter")
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    if blocked_damage is not None:
        engine.traits = Traits(engine.traits.blaze, Knockback(blocked_damage=blocked_damage))
    game.rng = ScriptedNecromunda(*dice)  # type: ignore[assignment]
    events = game.declare(Act("shooter", Action.shoot("Concussion pistol", "target")))
    return game, path, events


WALL_BEHIND = wall("w", 11.0, 10.0, 11.3, 14.0)


@pytest.mark.parametrize(
    ("scenery", "at", "stopped_by"),
    [(WALL_BEHIND, (10.0, 12.0), "w"), ("", (23.0, 12.0), None)],
)
def test_knockback_stopped_short_adds_1_to_the_damage(
    write_scenario: Write, scenery: str, at: tuple[float, float], stopped_by: str | None
) -> None:
    # FACTS 2.9: "(+1 D if blocked)": a wall 0.5" behind it, or the table's edge: it moves
    # as far as it can; the hit's Damage 1 + 1 on W1 is two Injury dice. Hit 6, wound 6,
    # save 1 (flak 6+), Injury dice 1 and 1 (flesh wounds)
    game, path, events = _pushed(write_scenario, scenery, at, (6, 2, 6, 1, 1, 1))
    [push] = of(events, ForcedMove)
    assert push.blocked and push.stopped_by == stopped_by
    edge = 11.0 if stopped_by else 24.0
    assert state(game).model("target").at[0] == pytest.approx(edge - R, abs=0.01)
    assert push.distance == pytest.approx(edge - R - at[0], abs=0.01)
    [wounded] = of(events, Wounded)
    assert wounded.wounds == 2 and of(events, InjuryRolled)[0].faces == (1, 1)
    said = [line for line in told(game, path) if line.startswith("Knockback")]
    assert said[0].endswith(": the hit's Damage +1")
    assert push.damage == 1  # carried by the event (rules version 3)


def test_knockback_the_damage_a_push_stopped_short_adds_is_in_the_event(
    write_scenario: Write,
) -> None:
    # FACTS 2.9: "(+1 D if blocked)", the figure data (traits.toml's blocked_damage): the
    # ForcedMove event carries what the push added (rules version 3) and the log tells
    # that, not a +1 of its own (it said "+1" with blocked_damage 2). Hit 6, wound 6, save
    # 1 (flak 6+); Damage 1 + 2 on W1: three Injury dice, flesh wounds
    game, path, events = _pushed(
        write_scenario, WALL_BEHIND, (10.0, 12.0), (6, 2, 6, 1, 1, 1, 1), blocked_damage=2
    )
    [push] = of(events, ForcedMove)
    assert push.blocked and push.damage == 2
    [wounded] = of(events, Wounded)
    assert wounded.wounds == 3 and of(events, InjuryRolled)[0].faces == (1, 1, 1)
    said = [line for line in told(game, path) if line.startswith("Knockback")]
    assert said[0].endswith(": the hit's Damage +2")
    # a log of older rules has no such field: a push stopped short there added 1
    teller = Teller(RULESETS["necromunda"], ("target",))
    old = {k: v for k, v in event_dict(push).items() if k != "damage"}
    assert teller.say(old).endswith(": the hit's Damage +1")
    assert teller.say({**old, "damage": 0}).endswith('stopped by w after 0.5"')


def test_knockback_a_fighter_under_a_blast_rolls_a_d6_and_is_pushed_from_its_centre(
    write_scenario: Write,
) -> None:
    # a blast's one hit roll is at the aimed point; each fighter under the marker rolls a
    # D6 against its Strength (the reading, README) and is pushed from the centre: point
    # (8, 12) hit (6), ammo test 4; 'near' at (9, 12): D6 3 (S3): pushed east; wound 1;
    # 'other' at (8, 11): D6 2: not pushed; wound 1
    fighters = [
        ("thrower", "goliath", "ganger", (2.0, 12.0), 0.0),
        ("near", "escher", "ganger", (9.0, 12.0), 180.0),
        ("other", "escher", "ganger", (8.0, 11.0), 180.0),
    ]
    path = necromunda_table(write_scenario, fighters)
    game, _ = shooting_game(path, "thrower")
    game.rng = ScriptedNecromunda(6, 4, 3, 1, 2, 1)  # type: ignore[assignment]
    events = game.declare(Act("thrower", Action.shoot("Frag grenade", at=(8.0, 12.0))))
    pushes = {e.model: e for e in of(events, ForcedMove)}
    assert pushes["near"].faces == (3,) and pushes["near"].distance == pytest.approx(1.0)
    assert state(game).model("near").at == pytest.approx((10.0, 12.0))
    assert pushes["other"].faces == (2,) and pushes["other"].wanted == 0.0
    assert state(game).model("other").at == (8.0, 11.0)
    assert "Knockback on Other: 2 against its Strength 3: not pushed" in told(game, path)


def test_knockback_a_blast_centred_on_the_fighter_pushes_it_any_way(
    write_scenario: Write,
) -> None:
    # a blast at a fighter centres on it: pushed the way the scatter arrow points (90:
    # south, as the table is drawn). Hit 6, ammo 4, D6 5, wound 1
    fighters = [
        ("thrower", "goliath", "ganger", (2.0, 12.0), 0.0),
        ("foe", "escher", "ganger", (8.0, 12.0), 180.0),
    ]
    path = necromunda_table(write_scenario, fighters)
    game, _ = shooting_game(path, "thrower")
    game.rng = ScriptedNecromunda(6, 4, 5, 1, angles=[90.0])  # type: ignore[assignment]
    game.declare(Act("thrower", Action.shoot("Frag grenade", "foe")))
    foe = state(game).model("foe")
    assert math.dist(foe.at, (8.0, 13.0)) < 1e-6


def test_blaze_takes_activation_false_is_refused_not_ignored() -> None:
    """traits.toml's `takes_activation` is the rulebook's reading of FACTS 2.9's Blaze (the
    fire takes the burning fighter's activation); the engine plays only that reading, so a
    file saying false is refused in one line naming the file and the key, not ignored."""
    from game.errors import InputError
    from game.rules.necromunda.assets import parse_traits

    data: dict[str, Any] = {"blaze": {"takes_activation": False}, "knockback": {}}
    with pytest.raises(InputError) as refused:
        parse_traits(data, "my-traits.toml")
    said = str(refused.value)
    assert "my-traits.toml" in said and "blaze.takes_activation" in said
    assert "only true is played" in said
    assert parse_traits({"blaze": {"takes_activation": True}, "knockback": {}}).blaze.out_on == 6
