"""Necromunda shooting on the sequencer with scripted dice: every branch of issue 7.

Dice are drawn in the order necromunda_fire documents: Cool test, hit roll, Firepower
dice, Ammo tests, scatter die, scatter D6, misfire D6, stray D6s, then per hit the
wound roll, the save and the Injury dice. Firepower face 2 is one hole and no Ammo
symbol; Injury face 6 is Out of Action (assets/necromunda/dice.toml)."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

from game.errors import IllegalDeclaration
from game.sequencer.events import Event, Hit, Missed, Rolled, StateChanged
from game.sequencer.necromunda import Act, Action, NecromundaEngine
from game.sequencer.necromunda_types import (
    AmmoChanged,
    BlastPlaced,
    BlastRemoved,
    Misfired,
    Scattered,
    StrayChecked,
    TargetChanged,
    TemplatePlaced,
)
from tests.sequencer.necromunda_tables import (
    R,
    ScriptedNecromunda,
    Write,
    necromunda_table,
    shooting_game,
    wall,
)

GL = "Grenade launcher (frag)"


@pytest.fixture
def write(write_scenario: Write) -> Write:
    return write_scenario


def of(events: list[Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def hit_targets(events: list[Event]) -> list[str]:
    return [e.target for e in events if isinstance(e, Hit)]


# -- stray shots -------------------------------------------------------------------

STRAY_FIGHTERS = [
    ("shooter", "goliath", "ganger", (4.0, 12.0), 0.0),
    ("target", "escher", "ganger", (16.0, 12.0), 180.0),
    ("near", "goliath", "ganger", (8.0, 12.9), 0.0),  # base 0.41" from the line
    ("second", "goliath", "ganger", (12.0, 11.1), 0.0),  # base 0.41" from the line
    ("wide", "goliath", "ganger", (10.0, 12.0 + 1.5 + R), 0.0),  # base 1.5" from the line
]


def test_a_stray_shot_hits_the_second_bystander_after_the_first_passes(write: Write) -> None:
    path = necromunda_table(write, STRAY_FIGHTERS)
    game, _ = shooting_game(path, "shooter")
    # hit roll 1 (miss), firepower 2, stray: near 5 (passes), second 2 (hit);
    # then the hit on second: wound 6, save 1, injury 6 (out of action); wide, within
    # 3" of second, takes a Nerve test: 2D6 6, 6
    game.rng = ScriptedNecromunda(1, 2, 5, 2, 6, 1, 6, 6, 6)  # type: ignore[assignment]
    events = game.declare(Act("shooter", Action.shoot("Lasgun", "target")))
    [roll] = [e for e in of(events, Rolled) if e.purpose.startswith("hit roll")]
    assert roll.target == 3 and roll.results == ("fail",)  # BS 4+, short range +1
    assert of(events, Missed)[0].reason == "hit roll failed"
    checks = [(e.model, e.face, e.hit) for e in of(events, StrayChecked)]
    assert checks == [("near", 5, False), ("second", 2, True)]
    assert hit_targets(events) == ["second"]
    assert game.state.model("second").status == "out-of-action"
    assert game.state.model("target").status == "standing"
    assert game.rng.left() == []  # type: ignore[attr-defined]


def test_a_bystander_1_5_inches_from_the_line_is_never_checked(write: Write) -> None:
    path = necromunda_table(write, STRAY_FIGHTERS)
    game, state = shooting_game(path, "shooter")
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    assert engine.at_risk(state, "shooter", "target") == ["near", "second"]
    # both at risk pass (4, 6): the script has no die for "wide", so asking would fail
    game.rng = ScriptedNecromunda(1, 2, 4, 6)  # type: ignore[assignment]
    events = game.declare(Act("shooter", Action.shoot("Lasgun", "target")))
    assert [e.model for e in of(events, StrayChecked)] == ["near", "second"]
    assert hit_targets(events) == []


def test_rapid_fire_repeats_the_stray_sequence_for_each_hit(write: Write) -> None:
    fighters = [
        ("shooter", "goliath", "ganger-autogun", (4.0, 12.0), 0.0),
        *STRAY_FIGHTERS[1:3],
    ]
    path = necromunda_table(write, fighters)
    game, _ = shooting_game(path, "shooter")
    # miss; firepower face 3 (two holes); hit one: near 6 (passes); hit two: near 3 (hit);
    # then near's wound roll 1 (fails)
    game.rng = ScriptedNecromunda(1, 3, 6, 3, 1)  # type: ignore[assignment]
    events = game.declare(Act("shooter", Action.shoot("Autogun", "target")))
    checks = [(e.model, e.face, e.hit, e.shot) for e in of(events, StrayChecked)]
    assert checks == [("near", 6, False, 1), ("near", 3, True, 2)]
    assert hit_targets(events) == ["near"]
    assert game.state.model("near").status == "pinned"


# -- improbable shots, range, target priority --------------------------------------


@pytest.mark.parametrize(("faces", "hit"), [((6, 5), True), ((6, 4), False), ((5,), False)])
def test_an_improbable_shot_needs_a_six_then_a_plain_bs_test(
    write: Write, faces: tuple[int, ...], hit: bool
) -> None:
    # A juve (BS 5+) throws a frag grenade at a point: -2, so 7+: improbable.
    path = necromunda_table(
        write,
        [
            ("juve", "goliath", "juve", (4.0, 12.0), 0.0),
            ("foe", "escher", "ganger", (20.0, 20.0), 180.0),
        ],
        weapons={"juve": ["Frag grenade"]},
    )
    game, _ = shooting_game(path, "juve")
    rest = (4,) if hit else (4, 3, 2)  # ammo test; on a miss: scatter 3 (arrow), 2"
    game.rng = ScriptedNecromunda(*faces, *rest, angles=[90.0])  # type: ignore[assignment]
    events = game.declare(Act("juve", Action.shoot("Frag grenade", at=(10.0, 12.0))))
    [roll] = [e for e in of(events, Rolled) if e.purpose.startswith("hit roll")]
    assert roll.target == 7 and "improbable" in roll.purpose
    assert roll.faces == faces
    assert (roll.results[-1] == "success") is hit
    assert bool(of(events, Scattered)) is not hit


def test_beyond_long_range_misses_but_rolls_the_firepower_die(write: Write) -> None:
    path = necromunda_table(
        write,
        [
            ("shooter", "goliath", "ganger", (2.0, 12.0), 0.0),
            ("target", "escher", "ganger", (16.0, 12.0), 180.0),
        ],
        weapons={"shooter": ["Stub gun"]},
    )
    game, _ = shooting_game(path, "shooter")
    game.rng = ScriptedNecromunda(6, 1)  # firepower: the Ammo symbol; ammo test 1 fails
    events = game.declare(Act("shooter", Action.shoot("Stub gun", "target")))
    assert "out of range" in of(events, Missed)[0].reason
    assert not [e for e in of(events, Rolled) if e.purpose.startswith("hit roll")]
    assert of(events, AmmoChanged)[0].state == "out of ammo"
    assert "out-of-ammo:Stub gun" in game.state.model("shooter").flags
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    with pytest.raises(IllegalDeclaration, match="out of ammo"):
        engine.check_shot(game.state, "shooter", Action.shoot("Stub gun", "target"))  # type: ignore[arg-type]
    game.rng = ScriptedNecromunda()  # type: ignore[assignment]
    # Stub gun is Plentiful: the reload passes without a die
    events = game.declare(Act("shooter", Action.reload("Stub gun")))
    assert of(events, AmmoChanged)[0].state == "reloaded"


def priority_table(write: Write) -> Any:
    """A shooter with an enemy closer than the one it aims at."""
    return necromunda_table(
        write,
        [
            ("shooter", "goliath", "ganger", (4.0, 12.0), 0.0),
            ("close", "escher", "ganger", (10.0, 10.0), 180.0),
            ("far", "escher", "ganger", (16.0, 12.0), 180.0),
        ],
    )


@pytest.mark.parametrize(("cool", "shot_at"), [((4, 3), "far"), ((3, 3), "close")])
def test_target_priority_cool_test(write: Write, cool: tuple[int, int], shot_at: str) -> None:
    game, _ = shooting_game(priority_table(write), "shooter")
    # Cool 7+: 4+3 passes, 3+3 fails; then hit roll 5, firepower 2, wound 1
    game.rng = ScriptedNecromunda(*cool, 5, 2, 1)  # type: ignore[assignment]
    events = game.declare(Act("shooter", Action.shoot("Lasgun", "far")))
    [test] = [e for e in of(events, Rolled) if e.attribute == "Cl"]
    assert test.target == 7
    assert hit_targets(events) == [shot_at]
    assert bool(of(events, TargetChanged)) is (shot_at == "close")


def test_target_priority_skips_a_closer_seriously_injured_fighter(write: Write) -> None:
    """FACTS 2.3: "The shooter may skip a closer target that is Prone+Seriously Injured":
    no Cool test to shoot past it (the closer fighter is not even asked about), while a
    closer one standing makes the shooter take it."""
    game, state = shooting_game(priority_table(write), "shooter")
    game.state = state.with_model(state.model("close").replace(status="seriously-injured"))
    game.rng = ScriptedNecromunda(5, 2, 1)  # type: ignore[assignment]  # hit 5, firepower, wound 1
    events = game.declare(Act("shooter", Action.shoot("Lasgun", "far")))
    assert not [e for e in of(events, Rolled) if e.attribute == "Cl"]
    assert hit_targets(events) == ["far"]


def test_a_prone_fighter_in_cover_is_hidden(write: Write) -> None:
    path = necromunda_table(
        write,
        [
            ("shooter", "goliath", "ganger", (4.0, 12.0), 0.0),
            ("target", "escher", "ganger", (16.0, 12.0), 180.0),
        ],
        scenery=wall("low", 15.2, 11.0, 15.4, 13.0, height=0.6),
    )
    game, state = shooting_game(path, "shooter")
    game.state = state.with_model(state.model("target").replace(status="pinned"))
    with pytest.raises(IllegalDeclaration, match="hidden"):
        game.declare(Act("shooter", Action.shoot("Lasgun", "target")))
    assert game.declarations == []


# -- blasts --------------------------------------------------------------------------


def blast_table(write: Write, scenery: str = "", extra: list[Any] | None = None) -> Any:
    fighters = [
        ("gren", "goliath", "grenadier", (2.0, 12.0), 0.0),
        ("mate", "goliath", "ganger", (2.0, 13.0 + 0.01), 0.0),
        ("foe", "escher", "ganger", (20.0, 2.0), 180.0),
        *(extra or []),
    ]
    return necromunda_table(write, fighters, scenery=scenery)


def test_a_scatter_stops_at_a_wall(write: Write) -> None:
    path = blast_table(write, scenery=wall("w", 14.0, 6.0, 14.4, 18.0))
    game, _ = shooting_game(path, "gren")
    # miss (1), firepower 2, scatter die 3 (arrow), 6", toward +x: the wall at x = 14
    game.rng = ScriptedNecromunda(1, 2, 3, 6, angles=[0.0])  # type: ignore[assignment]
    events = game.declare(Act("gren", Action.shoot(GL, at=(12.0, 12.0))))
    [s] = of(events, Scattered)
    assert s.stopped_by == "w" and not s.left_table
    assert s.end == pytest.approx((14.0, 12.0))
    assert s.distance == pytest.approx(2.0)
    assert hit_targets(events) == []


def test_a_blast_whose_centre_leaves_the_table_is_removed(write: Write) -> None:
    path = blast_table(write)
    game, _ = shooting_game(path, "gren")
    game.rng = ScriptedNecromunda(1, 2, 4, 6, angles=[0.0])  # type: ignore[assignment]
    events = game.declare(Act("gren", Action.shoot(GL, at=(21.0, 12.0))))
    [s] = of(events, Scattered)
    assert s.left_table and s.end[0] > 24
    assert of(events, BlastRemoved)
    assert hit_targets(events) == []


def test_a_misfire_on_a_one_centres_the_blast_on_the_firer(write: Write) -> None:
    path = blast_table(write)
    game, _ = shooting_game(path, "gren")
    # miss, firepower 2, scatter die 1 (Hit) and a 1: misfire; D6 1: on the firer.
    # Hits: gren and mate (each a Knockback D6 1, below S3: FACTS 2.9; wound rolls 1)
    game.rng = ScriptedNecromunda(1, 2, 1, 1, 1, 1, 1, 1, 1)  # type: ignore[assignment]
    events = game.declare(Act("gren", Action.shoot(GL, at=(12.0, 12.0))))
    [m] = of(events, Misfired)
    assert m.result == "centred on the firer"
    assert sorted(hit_targets(events)) == ["gren", "mate"]
    assert not of(events, Scattered)
    assert game.state.model("gren").status == "pinned"


def test_a_misfire_on_two_to_six_is_a_dud(write: Write) -> None:
    path = blast_table(write)
    game, _ = shooting_game(path, "gren")
    game.rng = ScriptedNecromunda(1, 2, 2, 1, 4)  # type: ignore[assignment]
    events = game.declare(Act("gren", Action.shoot(GL, at=(12.0, 12.0))))
    [m] = of(events, Misfired)
    assert m.result == "dud"
    assert hit_targets(events) == [] and not of(events, Scattered)
    assert game.rng.left() == []  # type: ignore[attr-defined]


def test_a_fighter_behind_a_wall_under_a_blast_is_not_hit(write: Write) -> None:
    extra = [
        ("front", "escher", "ganger", (11.0, 12.6), 180.0),
        ("behind", "escher", "ganger", (13.3, 12.0), 180.0),
    ]
    path = blast_table(write, scenery=wall("w", 12.5, 8.0, 12.7, 16.0), extra=extra)
    game, _ = shooting_game(path, "gren")
    assert math.dist((13.3, 12.0), (12.0, 12.0)) < 1.5 + R  # its base is under the marker
    # a hit (6) on the point: stays; firepower 2; front: Knockback D6 1 (FACTS 2.9:
    # below its S3, not pushed), wound 1
    game.rng = ScriptedNecromunda(6, 2, 1, 1)  # type: ignore[assignment]
    events = game.declare(Act("gren", Action.shoot(GL, at=(12.0, 12.0))))
    assert of(events, BlastPlaced)[0].centre == (12.0, 12.0)
    [roll] = [e for e in of(events, Rolled) if e.purpose.startswith("hit roll")]
    assert ("a point on the battlefield", -2) in [(m.source, m.value) for m in roll.modifiers]
    assert hit_targets(events) == ["front"]
    assert ("front", "standing", "pinned") in [
        (e.model, e.before, e.after) for e in of(events, StateChanged)
    ]


def test_a_blast_centre_beyond_long_range_is_pulled_back(write: Write) -> None:
    path = necromunda_table(
        write,
        [
            ("thrower", "goliath", "ganger", (2.0, 12.0), 0.0),
            ("foe", "escher", "ganger", (20.0, 2.0), 180.0),
        ],
    )
    game, _ = shooting_game(path, "thrower")
    game.rng = ScriptedNecromunda(6, 4)  # hit, ammo test (a grenade: no firepower die)
    events = game.declare(Act("thrower", Action.shoot("Frag grenade", at=(20.0, 12.0))))
    [placed] = of(events, BlastPlaced)
    assert placed.reason == "pulled back to long range"
    assert placed.centre == pytest.approx((2.0 + 9.0 + R, 12.0))  # S3 x 3 = 9"


def test_blast_saves_get_the_cover_bonus_from_the_centre(write: Write) -> None:
    # a low wall hides part of the fighter from the centre but not its whole base
    extra = [("crouched", "escher", "ganger", (12.5, 13.6), 180.0)]
    low = wall("low", 11.0, 12.9, 12.3, 13.05, height=0.7)
    path = blast_table(write, scenery=low, extra=extra)
    game, _ = shooting_game(path, "gren")
    # a hit on (12, 12); crouched: Knockback D6 1 (FACTS 2.9: below its S3), wound 6,
    # save 5 (6+ with partial or full cover: 5+ or 4+)
    game.rng = ScriptedNecromunda(6, 2, 1, 6, 5)  # type: ignore[assignment]
    events = game.declare(Act("gren", Action.shoot(GL, at=(12.0, 12.0))))
    [save] = [e for e in of(events, Rolled) if e.attribute == "Sv"]
    assert save.modifiers and save.modifiers[0].source == "cover"
    assert save.target < 6 and save.results == ("success",)
    assert game.state.model("crouched").status == "pinned"


# -- flame templates -------------------------------------------------------------------


def test_a_template_round_a_corner_does_not_hit_the_far_side_of_the_wall(
    write: Write,
) -> None:
    fighters = [
        ("flamer", "goliath", "champion-flamer", (4.0, 12.0), 0.0),
        ("before", "escher", "ganger", (6.5, 12.0), 180.0),
        ("beside", "escher", "ganger", (10.0, 10.9), 180.0),
        ("behind", "escher", "ganger", (10.0, 12.6), 180.0),
    ]
    path = necromunda_table(write, fighters, scenery=wall("w", 8.0, 11.8, 8.3, 16.0))
    game, _ = shooting_game(path, "flamer")
    # firepower 2; wound rolls 1, 1 (before, then beside: nearest first); each hit then
    # rolls the Flamer's Blaze (FACTS 2.9): 1, 1, no fire
    game.rng = ScriptedNecromunda(2, 1, 1, 1, 1)  # type: ignore[assignment]
    events = game.declare(Act("flamer", Action.flame("Flamer", 0.0)))
    [placed] = of(events, TemplatePlaced)
    assert placed.under == ("before", "beside")
    assert hit_targets(events) == ["before", "beside"]
    assert game.state.model("behind").status == "standing"
    assert not [e for e in of(events, Rolled) if e.purpose.startswith("hit roll")]


def test_a_template_must_lie_inside_the_vision_arc(write: Write) -> None:
    fighters = [
        ("flamer", "goliath", "champion-flamer", (4.0, 12.0), 0.0),
        ("foe", "escher", "ganger", (8.0, 16.0), 180.0),
    ]
    path = necromunda_table(write, fighters)
    game, _ = shooting_game(path, "flamer")
    with pytest.raises(IllegalDeclaration, match="vision arc"):
        game.declare(Act("flamer", Action.flame("Flamer", 40.0)))
    game.rng = ScriptedNecromunda(2, 1, 1)  # type: ignore[assignment]  # firepower, wound, Blaze
    # turning at the start of the activation brings it into the arc
    events = game.declare(Act("flamer", Action.flame("Flamer", 45.0), turn_to=45.0))
    assert of(events, TemplatePlaced)[0].under == ("foe",)


def test_a_template_leaving_the_arc_after_acting_is_refused_in_the_rules_words(
    write: Write,
) -> None:
    """Seed 004: the whole template lies inside the 90 degree vision arc, and a fighter
    turns only as it activates (FACTS 2.8). Refused after a Move, the refusal names the
    fighter it is laid toward and why it cannot turn: no bearings, no float noise."""
    fighters = [
        ("flamer", "goliath", "champion-flamer", (4.0, 12.0), 0.0),
        ("foe", "escher", "ganger", (6.0, 16.0), 180.0),
    ]
    path = necromunda_table(write, fighters)
    game, _ = shooting_game(path, "flamer")
    game.declare(Act("flamer", Action.move((4.0, 11.5))))
    with pytest.raises(IllegalDeclaration) as refused:
        game.declare(Act("flamer", Action.flame("Flamer", 56.3099, target="foe")))
    assert str(refused.value) == (
        "flamer's Flamer template must lie within its 90° vision arc, and foe is outside "
        "it: it has acted, so it cannot turn"
    )
    with pytest.raises(IllegalDeclaration) as refused:
        game.declare(Act("flamer", Action.flame("Flamer", 120.0)))
    said = str(refused.value)
    assert said.endswith(
        "(it faces north), and laid to the south-west it leaves it: it has acted, so it cannot turn"
    )
    assert not re.search(r"\d\.\d", said)


def test_a_point_refused_is_said_to_two_decimals_not_the_pointers_float(write: Write) -> None:
    # FACTS 2.7: a Blast weapon may aim at a point it sees; one behind the firer is
    # refused, said as distances are said (two decimals at most), not "(2.3456, 12.1)"
    fighters = [
        ("shooter", "goliath", "ganger", (4.0, 12.0), 0.0),
        ("target", "escher", "ganger", (12.0, 12.0), 180.0),
    ]
    path = necromunda_table(write, fighters, weapons={"shooter": [GL]})
    game, _ = shooting_game(path, "shooter")
    with pytest.raises(IllegalDeclaration) as refused:
        game.declare(Act("shooter", Action.shoot(GL, at=(2.3456, 12.1))))
    assert str(refused.value) == "(2.35, 12.1) is outside shooter's vision arc"


def test_the_template_hit_order_is_the_firers_choice(write: Write) -> None:
    fighters = [
        ("flamer", "goliath", "champion-flamer", (4.0, 12.0), 0.0),
        ("a", "escher", "ganger", (6.5, 12.0), 180.0),
        ("b", "escher", "ganger", (9.5, 12.0), 180.0),
    ]
    path = necromunda_table(write, fighters)
    game, _ = shooting_game(path, "flamer")
    # firepower 2; each hit a wound roll 1 and the Flamer's Blaze 1 (FACTS 2.9)
    game.rng = ScriptedNecromunda(2, 1, 1, 1, 1)  # type: ignore[assignment]
    events = game.declare(Act("flamer", Action.flame("Flamer", 0.0, hit_order=("b",))))
    assert hit_targets(events) == ["b", "a"]


# -- resolving hits and actions ------------------------------------------------------------


def test_a_hit_wounds_and_rolls_injury_dice_from_data(write: Write) -> None:
    fighters = [
        ("shooter", "goliath", "ganger", (4.0, 12.0), 0.0),
        ("target", "escher", "leader", (12.0, 12.0), 180.0),  # W2, mesh 5+
    ]
    path = necromunda_table(write, fighters, weapons={"shooter": ["Grenade launcher (krak)"]})
    game, _ = shooting_game(path, "shooter")
    # krak: S6 D2 AP-2 vs T3 (2+): hit 6, firepower 2, wound 2, save 6 (5+ -> 7+: no save
    # roll), then 2 damage on W2: one Injury die, face 1 (flesh wound)
    game.rng = ScriptedNecromunda(6, 2, 2, 1)  # type: ignore[assignment]
    events = game.declare(Act("shooter", Action.shoot("Grenade launcher (krak)", "target")))
    assert not [e for e in of(events, Rolled) if e.attribute == "Sv"]
    target = game.state.model("target")
    assert target.wounds == 2 and target.marker("flesh-wounds") == 1
    assert target.status == "pinned"


def test_damage_beyond_the_last_wound_is_injury_dice_and_reads_so(write: Write) -> None:
    """FACTS 2.4: "each point of D removes 1 Wound. At 0 W, roll one Injury die. Each
    further point of D beyond the last Wound adds one more Injury die." A second krak
    hit on the W2 leader already at 0 W loses no more Wounds (2 in all, still) and
    rolls two Injury dice; the sentence says the Damage taken and the Wounds lost, and
    told in order, that the second found no Wound left."""
    from game.rules.registry import RULESETS
    from game.sequencer.events import Wounded
    from game.sequencer.necromunda_types import InjuryRolled
    from game.sequencer.sentences import Teller, describe

    fighters = [
        ("shooter", "goliath", "ganger", (4.0, 12.0), 0.0),
        ("target", "escher", "leader", (12.0, 12.0), 180.0),  # W2, T3
    ]
    path = necromunda_table(write, fighters, weapons={"shooter": ["Grenade launcher (krak)"]})
    game, _ = shooting_game(path, "shooter")
    shot = Act("shooter", Action.shoot("Grenade launcher (krak)", "target"))
    # hit 6, firepower 2, wound 2, no save, one Injury die (1: a flesh wound)
    game.rng = ScriptedNecromunda(6, 2, 2, 1)  # type: ignore[assignment]
    first = game.declare(shot)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    game.state = engine.ready_to_shoot(game.state, "shooter")  # type: ignore[arg-type]
    # again: hit 6, firepower 2, wound 2 (S6 vs T2), then two Injury dice (1 and 1)
    game.rng = ScriptedNecromunda(6, 2, 2, 1, 1)  # type: ignore[assignment]
    second = game.declare(shot)
    assert of(first, Wounded) == [Wounded("target", 2, 2)]
    assert of(second, Wounded) == [Wounded("target", 2, 2)]
    [injury] = of(second, InjuryRolled)
    assert injury.faces == (1, 1)
    assert game.state.model("target").status == "out-of-action"  # T3 less three flesh wounds
    words = [describe(e, RULESETS["necromunda"], {"target": "Escher leader"})
             for e in of(first + second, Wounded)]  # fmt: skip
    assert words == ["Escher leader takes 2 Damage (2 Wounds lost in all)"] * 2  # one at a time
    teller = Teller(RULESETS["necromunda"], {"target": "Escher leader"})
    told = [teller.say(e) for e in first + second if isinstance(e, Wounded)]  # in order
    assert told == [
        "Escher leader takes 2 Damage (2 Wounds lost in all)",
        "Escher leader takes 2 Damage with no Wound left to lose (2 Wounds lost before)",
    ]


def test_basic_actions_once_and_double_actions_need_both(write: Write) -> None:
    fighters = [
        ("shooter", "goliath", "ganger", (4.0, 12.0), 0.0),
        ("target", "escher", "ganger", (16.0, 12.0), 180.0),
    ]
    path = necromunda_table(write, fighters)
    game, _ = shooting_game(path, "shooter")
    game.declare(Act("shooter", Action.aim()))
    with pytest.raises(IllegalDeclaration, match="Basic"):
        game.declare(Act("shooter", Action.aim()))
    with pytest.raises(IllegalDeclaration, match="Double action"):
        game.declare(Act("shooter", Action.shoot("Lasgun", "target", blind=True)))
    game.rng = ScriptedNecromunda(2, 2, 1)  # type: ignore[assignment]
    events = game.declare(Act("shooter", Action.shoot("Lasgun", "target")))
    [roll] = [e for e in of(events, Rolled) if e.purpose.startswith("hit roll")]
    assert roll.target == 2  # BS 4+, short +1, aim +1
    assert game.awaiting().kind == "activate"  # two actions spent: the next fighter
    assert "ready" not in game.state.model("shooter").flags


def test_twin_guns_blazing_rolls_both_before_resolving(write: Write) -> None:
    fighters = [
        ("shooter", "goliath", "ganger", (4.0, 12.0), 0.0),
        ("target", "escher", "ganger", (10.0, 12.0), 180.0),
    ]
    path = necromunda_table(
        write, fighters, weapons={"shooter": ["Laspistol", "Stub gun", "Lasgun"]}
    )
    game, _ = shooting_game(path, "shooter")
    with pytest.raises(IllegalDeclaration, match="not a Sidearm"):
        game.declare(Act("shooter", Action.shoot("Lasgun", "target", twin="Stub gun")))
    # Laspistol 4+ (short +1, twin -1): 4 hits; firepower 2; Stub gun 3+: 2 misses;
    # firepower 2; then the Laspistol hit: wound 1
    game.rng = ScriptedNecromunda(4, 2, 2, 2, 1)  # type: ignore[assignment]
    events = game.declare(Act("shooter", Action.shoot("Laspistol", "target", twin="Stub gun")))
    rolls = [e for e in of(events, Rolled) if e.purpose.startswith("hit roll")]
    assert [(r.target, r.results) for r in rolls] == [(4, ("success",)), (3, ("fail",))]
    assert all(("twin guns blazing", -1) in [(m.source, m.value) for m in r.modifiers]
               for r in rolls)  # fmt: skip
    assert hit_targets(events) == ["target"]
    assert events.index(rolls[1]) < events.index(of(events, Hit)[0])
