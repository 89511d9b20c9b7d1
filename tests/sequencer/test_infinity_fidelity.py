"""Infinity rules a rules lawyer would check (issue: rules fidelity), each with scripted
dice: one shot, one cover; failed dice into close combat in AROs; Irregular Orders;
AROs from under a template; saves against another attribute; dice that are not rolled.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import pytest

from game.errors import IllegalDeclaration
from game.scenario import check_scenario, load_scenario
from game.scenario.names import told_names
from game.sequencer.events import (
    Declared,
    Event,
    Hit,
    Missed,
    Modifier,
    OrderSpent,
    Rolled,
    SaveRolled,
    TurnEnded,
    TurnStarted,
)
from game.sequencer.game import Game
from game.sequencer.infinity import Activate, Continue, InfinityEngine, React, Skill
from game.sequencer.infinity_orders import CircleTemplatePlaced, EndTurn
from game.sequencer.sentences import Teller, describe
from tests.sequencer.scripted import ScriptedDice
from tests.sequencer.test_infinity_seeds import FUSILIER, table
from tests.sequencer.test_infinity_templates import answer_aros, of

Write = Callable[..., Path]
R = 25 / 25.4 / 2  # a 25 mm base's radius in inches


def mods(roll: Rolled) -> list[tuple[str, int]]:
    return [(m.source.split(" ")[0], m.value) for m in roll.modifiers]


# -- 1. one shot, one cover -------------------------------------------------------


def test_partial_cover_for_the_save_is_read_where_the_aro_was_taken(write_scenario: Write) -> None:
    """Seed 000: in Partial Cover "the attacker will apply a -3 MOD to their BS Attack
    Roll and the target ... reduces the Attack Damage by 3 for Saving Roll purposes":
    one shot, one cover. The Fusilier leaves its wall; the Zhanshi's ARO is taken at the
    start of the route, behind the wall: -3 to her BS and +3 to his N5 save there,
    though he ends the Order in the open."""
    game = Game(load_scenario(table(write_scenario)), seed=1)
    game.rng = ScriptedDice(5, 10, 1)  # the fusilier saves, then passes a Guts Roll  # type: ignore[assignment]
    game.declare(Activate("fusilier", Skill.move((FUSILIER[0] - 4, FUSILIER[1]))))
    game.declare(React("zhanshi-a", Skill.attack("Combi Rifle", ("fusilier", 1)), at=FUSILIER))
    events = game.declare(Continue(Skill.idle()))
    [roll] = of(Rolled, events)
    assert ("partial", -3) in mods(roll)
    [save] = of(SaveRolled, events)
    # N5: PS 7 + ARM 1 + 3 for the Partial Cover of the ARO's moment = 11: a 10 is saved.
    assert (save.model, save.target, save.wounds) == ("fusilier", 11, 0)
    assert save.attribute == "ARM" and save.modifiers == (Modifier("partial cover", 3),)
    assert game.state.model("fusilier").status == "normal"
    # the same shot at the end of the route: no cover, no -3 and no +3
    game2 = Game(load_scenario(table(write_scenario)), seed=1)
    game2.rng = ScriptedDice(5, 10)  # type: ignore[assignment]
    end = (FUSILIER[0] - 4, FUSILIER[1])
    game2.declare(Activate("fusilier", Skill.move(end)))
    game2.declare(React("zhanshi-a", Skill.attack("Combi Rifle", ("fusilier", 1)), at=end))
    events2 = game2.declare(Continue(Skill.idle()))
    assert ("partial", -3) not in mods(of(Rolled, events2)[0])
    [save2] = of(SaveRolled, events2)
    assert (save2.target, save2.wounds, save2.modifiers) == (8, 1, ())


MELEE = """
[scenario]
name = "Melee"
ruleset = "infinity"
table = [32, 32]

[[side]]
id = "yj"

[[side]]
id = "pano"

[[model]]
id = "zhanshi"
side = "yj"
profile = "zhanshi"
at = [16, 20]
facing = 180

[[model]]
id = "brawler"
side = "pano"
profile = "fusilier"
at = [16, 19.0157]
facing = 90

[[model]]
id = "shooter"
side = "pano"
profile = "fusilier"
at = [16, 28]
facing = -90
"""


def test_failed_aro_dice_into_close_combat_hit_the_allied_trooper(write_scenario: Write) -> None:
    """Seed 000: "a -6 MOD must be applied for each Allied Trooper engaged in the CC ...
    Every failed BS Attack Roll will hit the Allied Trooper". The Zhanshi, engaged with
    the brawler, walks away; the shooter's ARO is taken where she was still engaged:
    -6 there, and its failed die hits the brawler, not the Zhanshi."""
    # shooter SV 12 + 3 (range 7") - 6 (one ally engaged) = 9: a 15 fails; brawler's
    # save (PS 7 + ARM 1 = 8) on a 12 fails.
    game2 = Game(load_scenario(write_scenario(MELEE, header=False)), seed=1)
    game2.rng = ScriptedDice(15, 12)  # type: ignore[assignment]
    game2.declare(Activate("zhanshi", Skill.move((12.0, 20.0))))
    while game2.awaiting().kind == "aro":
        reactor = game2.awaiting().models[0]
        if reactor == "shooter":
            skill = Skill.attack("Combi Rifle", ("zhanshi", 1))
            game2.declare(React("shooter", skill, at=(16.0, 20.0)))
        else:
            game2.declare(React(reactor, Skill.idle()))
    events = game2.declare(Continue(Skill.idle()))
    [roll] = of(Rolled, events)
    assert roll.target == 9 and ("close", -6) in mods(roll)
    assert roll.results == ("fail",)
    assert [(h.attacker, h.target) for h in of(Hit, events)] == [("shooter", "brawler")]
    [save] = of(SaveRolled, events)
    assert (save.model, save.target, save.wounds) == ("brawler", 8, 1)
    assert game2.state.model("brawler").status == "unconscious"


def test_close_combat_is_judged_where_the_aro_was_taken_not_at_the_end(
    write_scenario: Write,
) -> None:
    """Seed 000 (-6 per engaged ally) read at the ARO's point: at the end of the route
    the Zhanshi is no longer engaged, so an ARO taken there has no -6 and its failed die
    hits nobody."""
    game = Game(load_scenario(write_scenario(MELEE, header=False)), seed=1)
    game.rng = ScriptedDice(17)  # type: ignore[assignment]  # SV 12 + 3 = 15: fails
    game.declare(Activate("zhanshi", Skill.move((12.0, 20.0))))
    answer_aros(game, shooter=Skill.attack("Combi Rifle", ("zhanshi", 1)))
    events = game.declare(Continue(Skill.idle()))
    [roll] = of(Rolled, events)
    assert ("close", -6) not in mods(roll) and roll.results == ("fail",)
    assert of(Hit, events) == []


# -- 3. Irregular Orders -----------------------------------------------------------

IRREGULAR = """
[[profile]]
name = "morat"
mov = [4, 4]
cc = 15
bs = 11
ph = 12
wip = 12
arm = 1
bts = 0
wounds = 1
silhouette = 2
base = 25
height = 1.0
irregular = true
weapons = ["Combi Rifle"]

[[model]]
id = "wild"
side = "blue"
profile = "morat"
at = [2, 22]

[[model]]
id = "f1"
side = "blue"
profile = "fusilier"
at = [6, 22]

[[model]]
id = "z1"
side = "red"
profile = "zhanshi"
at = [22, 2]
facing = -45
"""


def test_irregular_orders_an_irregular_trooper_also_spends_regular_orders(
    write_scenario: Write,
) -> None:
    """FACTS 3.4: "Irregular Order -> only the trooper that generated it may spend it
    (it may also use pool Orders)". One irregular and one regular trooper: 2 Orders;
    the irregular trooper spends its own, then the regular one."""
    game = Game(load_scenario(write_scenario(IRREGULAR)), seed=2)
    assert game.events[0] == TurnStarted(1, "blue", 2)
    spent = []
    for _ in range(2):
        spent += of(OrderSpent, game.declare(Activate("wild", Skill.idle())))
        game.declare(Continue(Skill.idle()))
    assert [(o.model, o.pool, o.remaining) for o in spent] == [
        ("wild", "irregular", 1),
        ("wild", "regular", 0),
    ]
    assert game.state.active == "red"  # no Orders left: the turn passes


def test_irregular_orders_are_said_apart_from_the_pool(write_scenario: Write) -> None:
    """FACTS 3.4: an Irregular Order is its trooper's alone and the Lieutenant Special
    Order "separate, for the Lieutenant only": the log says each apart from the regular
    pool, as the window's Orders line does (tester13b finding 4: "6 Orders in the pool"
    where the side had 4 regular ones), the engine's count unchanged."""
    scenario = load_scenario(
        write_scenario(IRREGULAR.replace('id = "f1"\n', 'id = "f1"\nlieutenant = true\n'))
    )
    game = Game(scenario, seed=2)
    assert game.events[0] == TurnStarted(1, "blue", 3)  # the count the saves keep
    teller = Teller(scenario.ruleset, told_names(scenario))
    said = [teller.say(e) for e in game.events]
    said += [teller.say(e) for e in game.declare(Activate("wild", Skill.idle()))]
    assert (
        said[0] == "Turn 1: Blue's Active Turn, 1 Order, Wild's own Order and the Lieutenant Order"
    )
    assert "Blue spends an irregular Order on Wild (1 Order and the Lieutenant Order left)" in said
    # an event told on its own (no roles known) keeps the count
    assert describe(game.events[0], scenario.ruleset) == "Turn 1: Blue's Active Turn, 3 Orders"


def test_lieutenant_order_a_trooper_refused_is_told_who_may_spend_what_is_left(
    write_scenario: Write,
) -> None:
    """FACTS 3.4: the Lieutenant Order is the Lieutenant's alone and who the Lieutenant
    is open information; an Irregular Order its trooper's alone. A trooper refused for
    want of an Order it may spend is told which are left and whose (tester13b finding 5:
    "no Order left for Fusilier 2" while the Lieutenant could still act)."""
    text = IRREGULAR.replace('id = "f1"\n', 'id = "f1"\nlieutenant = true\n')
    game = Game(load_scenario(write_scenario(text)), seed=2)
    for _ in range(2):  # its own Order, then the one regular Order
        game.declare(Activate("wild", Skill.idle()))
        game.declare(Continue(Skill.idle()))
    lieutenant_only = "only the Lieutenant Order is left: f1, the Lieutenant, may spend it"
    with pytest.raises(IllegalDeclaration, match=f"^{lieutenant_only}$"):
        game.declare(Activate("wild", Skill.idle()))
    game = Game(load_scenario(write_scenario(text)), seed=2)
    for _ in range(2):  # the Lieutenant Order, then the one regular Order
        game.declare(Activate("f1", Skill.idle()))
        game.declare(Continue(Skill.idle()))
    own_only = r"^only wild's own Order is left: wild alone may spend it$"
    with pytest.raises(IllegalDeclaration, match=own_only):
        game.declare(Activate("f1", Skill.idle()))


def test_irregular_orders_an_irregular_trooper_cannot_be_lieutenant(
    write_scenario: Write,
) -> None:
    """FACTS 3.4: "Irregular troopers cannot be Lieutenant": refused at validation."""
    path = write_scenario(
        IRREGULAR.replace('profile = "morat"\n', 'profile = "morat"\nlieutenant = true\n')
    )
    _, problems = check_scenario(path)
    assert [p.problem for p in problems] == ["an irregular trooper (morat) cannot be Lieutenant"]


def test_lieutenant_order_the_lieutenant_spends_its_own_first(write_scenario: Write) -> None:
    """FACTS 3.4: "Lieutenant Special Order -> separate, for the Lieutenant only"; the
    player spends the Order (N5 sequence 1.1), and a wargamer spends the one no other
    trooper could use. The Lieutenant (seed 003's Fusilier) shoots and goes down to
    Zhanshi A's ARO; the 2 regular Orders are still the other Fusilier's (paid from the
    pool first, the Lieutenant took one of them and its own Order went with it)."""
    path = table(write_scenario)
    text = path.read_text().replace('id = "fusilier"\n', 'id = "fusilier"\nlieutenant = true\n')
    # behind Zhanshi A (out of its arc) and 17" away: it draws no ARO
    path.write_text(
        text + '[[model]]\nid = "f2"\nside = "pano"\nprofile = "fusilier"\nat = [2, 2]\n'
    )
    game = Game(load_scenario(path), seed=1)
    assert game.events[0] == TurnStarted(1, "pano", 3)
    game.rng = ScriptedDice(2, 4, 6, 7, 15)  # type: ignore[assignment]
    spent = of(
        OrderSpent,
        game.declare(Activate("fusilier", Skill.attack("Combi Rifle", ("zhanshi-a", 3)))),
    )
    game.declare(React("zhanshi-a", Skill.attack("Combi Rifle", ("fusilier", 1))))
    game.declare(Continue(Skill.idle()))
    assert game.state.model("fusilier").status == "unconscious"  # as in seed 003
    assert game.awaiting().models == ("f2",)
    for _ in range(2):
        spent += of(OrderSpent, game.declare(Activate("f2", Skill.idle())))
        game.declare(Continue(Skill.idle()))
    assert [(o.model, o.pool, o.remaining) for o in spent] == [
        ("fusilier", "lieutenant", 2),
        ("f2", "regular", 1),
        ("f2", "regular", 0),
    ]
    assert game.state.active == "yj"  # no Orders left: the turn passes
    assert game.rng.left() == []  # type: ignore[attr-defined]


# MELEE with PanOceania first, its brawler the Lieutenant (or an irregular trooper):
# the shooter fires into the close combat, and a failed die hits the brawler (seed 000).
STRANDED = MELEE.replace(
    '[[side]]\nid = "yj"\n\n[[side]]\nid = "pano"\n',
    '[[side]]\nid = "pano"\n\n[[side]]\nid = "yj"\n',
).replace('id = "brawler"\n', 'id = "brawler"\nlieutenant = true\n')


def _shoot_the_brawler_down(game: Game) -> list[Event]:
    """The shooter's Order into the close combat: SV 12 + 3 (range 7") - 6 (the engaged
    ally) = 9, its Burst of 15, 16 and 17 fails and hits the brawler, whose first save
    (PS 7 + ARM 1 = 8) fails on a 12 and the others pass: Unconscious (no Guts Roll: a
    Null trooper takes none, FACTS 3.3)."""
    game.rng = ScriptedDice(15, 16, 17, 12, 1, 1)  # type: ignore[assignment]
    events = game.declare(Activate("shooter", Skill.attack("Combi Rifle", ("zhanshi", 3))))
    answer_aros(game)
    events += game.declare(Continue(Skill.idle()))
    assert game.state.model("brawler").status == "unconscious"
    assert game.rng.left() == []  # type: ignore[attr-defined]
    return events


def test_lieutenant_order_of_a_lieutenant_out_of_the_fight_ends_the_turn(
    write_scenario: Write,
) -> None:
    """FACTS 3.4: the Lieutenant Special Order is "separate, for the Lieutenant only".
    The pool spent and the Lieutenant put out of the fight before it acted, its Order is
    one nobody can spend: the Active Turn ends (before: it waited for an Order, the
    window saying "0 Orders left", until the player ended it)."""
    game = Game(load_scenario(write_scenario(STRANDED, header=False)), seed=1)
    assert game.events[0] == TurnStarted(1, "pano", 3)
    spent = of(OrderSpent, game.declare(Activate("shooter", Skill.idle())))
    answer_aros(game)
    game.declare(Continue(Skill.idle()))
    spent += of(OrderSpent, _shoot_the_brawler_down(game))
    # the Lieutenant Order is counted while its Lieutenant may still spend it
    assert [(o.model, o.pool, o.remaining) for o in spent] == [
        ("shooter", "regular", 2),
        ("shooter", "regular", 1),
    ]
    assert game.state.active == "yj"
    assert game.awaiting().models == ("zhanshi",)


def test_a_turn_ended_by_an_order_nobody_can_spend_says_why(write_scenario: Write) -> None:
    """retest14's finding 6: the turn the Lieutenant's fall ended (FACTS 3.4: the
    Lieutenant Order is for the Lieutenant only) said only "Pano's Active Turn 1 ends",
    and a turn the player ended said it twice ("Yj ends the Active Turn", then "Yj's
    Active Turn 1 ends"). Words only: the events are as before."""
    scenario = load_scenario(write_scenario(STRANDED, header=False))
    game = Game(scenario, seed=1)
    game.declare(Activate("shooter", Skill.idle()))
    answer_aros(game)
    game.declare(Continue(Skill.idle()))
    _shoot_the_brawler_down(game)
    ended = game.declare(EndTurn())
    assert [type(e) for e in ended[:2]] == [Declared, TurnEnded]
    teller = Teller(scenario.ruleset, told_names(scenario))
    said = [teller.say(e) for e in game.events]
    assert said.count("Pano spends a regular Order on Shooter (the Lieutenant Order left)") == 1
    assert (
        "Pano's Active Turn 1 ends: the Lieutenant Order is left, and no trooper able to act "
        "may spend it"
    ) in said
    # the player's end: one line, with the Order it leaves
    yj = said.index("Yj ends its Active Turn 1, 1 Order unspent")
    assert said[yj + 1] == ""  # the turn's end, told with it
    assert not [s for s in said if s.startswith("Yj's Active Turn")]
    # told on its own, each keeps its plain words
    assert describe(ended[0], scenario.ruleset) == "Yj ends the Active Turn"
    assert describe(ended[1], scenario.ruleset) == "Yj's Active Turn 1 ends"


def test_irregular_orders_of_a_trooper_out_of_the_fight_are_not_left(
    write_scenario: Write,
) -> None:
    """FACTS 3.4: an Irregular Order "only the trooper that generated it may spend". The
    irregular brawler put out of the fight before it acted takes its own Order with it:
    the log, the window's Orders line and the event's count leave it out alike (before,
    the event counted it while both said the pool alone), and the turn ends with the
    pool spent (before, it waited for the brawler's Order)."""
    text = STRANDED.replace("lieutenant = true\n", "").replace(
        'profile = "fusilier"\nat = [16, 19', 'profile = "morat"\nat = [16, 19'
    )
    text += IRREGULAR.split("[[model]]")[0]  # the morat profile
    for name, x in (("second", 2), ("third", 4)):  # far off, each with its regular Order
        text += f'[[model]]\nid = "{name}"\nside = "pano"\nprofile = "fusilier"\nat = [{x}, 30]\n'
    scenario = load_scenario(write_scenario(text, header=False))
    game = Game(scenario, seed=1)
    assert game.events[0] == TurnStarted(1, "pano", 4)  # 3 regular, the brawler's own
    events = list(game.events)
    events += _shoot_the_brawler_down(game)
    engine = game.engine
    assert isinstance(engine, InfinityEngine)
    assert engine.orders_apart(game.state) == (2, (), False)  # the window's Orders line
    for name in ("second", "third"):
        events += game.declare(Activate(name, Skill.idle()))
        answer_aros(game)
        events += game.declare(Continue(Skill.idle()))
    spent = of(OrderSpent, events)
    assert [(o.model, o.pool, o.remaining) for o in spent] == [
        ("shooter", "regular", 3),
        ("second", "regular", 1),
        ("third", "regular", 0),
    ]
    assert game.state.active == "yj"
    teller = Teller(scenario.ruleset, told_names(scenario))
    said = [teller.say(e) for e in events]
    assert "Pano spends a regular Order on Shooter (2 Orders and Brawler's own Order left)" in said
    assert "Pano spends a regular Order on Second (1 Order left)" in said
    assert "Pano spends a regular Order on Third (0 Orders left)" in said
    assert "Pano's Active Turn 1 ends" in said  # the pool spent: no why to give


# -- 4. AROs from under a template --------------------------------------------------

UNDER = f"""
[scenario]
name = "Heavy flamer"
ruleset = "infinity"
table = [24, 24]

[[side]]
id = "blue"

[[side]]
id = "red"

[[model]]
id = "flamer"
side = "blue"
profile = "fusilier-flamer"
weapons = ["Heavy Flamethrower"]
at = [12, 22]
facing = -90

[[model]]
id = "z1"
side = "red"
profile = "zhanshi"
at = [12, 17]
facing = 90

[[model]]
id = "z2"
side = "red"
profile = "zhanshi"
at = [12, {22 - 2 * R - 9.5:.4f}]
facing = -90
"""


def test_a_trooper_under_a_template_may_aro_out_of_lof_and_zoc(write_scenario: Write) -> None:
    """FACTS 3.4: ARO eligibility includes "the reactor is under a template". z2 faces
    away (no LoF) 9.5" off (outside the 8" ZoC) but the Heavy Flamethrower's teardrop
    reaches it: it may Dodge (a Normal PH roll, -3 without LoF: rule data), not shoot."""
    game = Game(load_scenario(write_scenario(UNDER, header=False)), seed=1)
    game.rng = ScriptedDice(5, 3, 1)  # type: ignore[assignment]
    game.declare(Activate("flamer", Skill.attack("Heavy Flamethrower", ("z1", 1))))
    assert set(game.awaiting().models) == {"z1", "z2"}
    game.declare(React("z1", Skill.idle()))
    with pytest.raises(IllegalDeclaration, match="may only Dodge"):
        game.declare(React("z2", Skill.attack("Combi Rifle", ("flamer", 1))))
    game.declare(React("z2", Skill.dodge()))
    events = game.declare(Continue(Skill.idle()))
    [dodge] = of(Rolled, events)
    assert (dodge.model, dodge.attribute, dodge.target, dodge.results) == (
        "z2", "PH", 7, ("success",),
    )  # fmt: skip
    assert mods(dodge) == [("no", -3)]
    assert [h.target for h in of(Hit, events)] == ["z1"]


# -- 5. saves against another attribute ---------------------------------------------

PARA = """
[[weapon]]
name = "Para Pistol"
bands = [[8, 3], [16, 0]]
ps = 7
burst = 1
save = "PH"
save_mod = -6

[[model]]
id = "f"
side = "blue"
profile = "fusilier"
weapons = ["Para Pistol"]
at = [12, 20]
facing = -90

[[model]]
id = "z"
side = "red"
profile = "zhanshi"
at = [12, 14]
facing = 90
"""


def test_a_save_against_ph_is_a_normal_roll_against_ph_plus_mod(write_scenario: Write) -> None:
    """FACTS 3.2: "Non-PS saves: an Attribute+MOD such as PH-6 -> Normal Roll". The
    Zhanshi (PH 10) saves on PH 10 - 6 = 4 or less: a 5 wounds, where against ARM
    (PS 7 + ARM 1 = 8) it would have been saved."""
    game = Game(load_scenario(write_scenario(PARA)), seed=1)
    game.rng = ScriptedDice(2, 5)  # type: ignore[assignment]
    game.declare(Activate("f", Skill.attack("Para Pistol", ("z", 1))))
    answer_aros(game)
    events = game.declare(Continue(Skill.idle()))
    [save] = of(SaveRolled, events)
    assert (save.model, save.attribute, save.target, save.faces, save.wounds) == (
        "z", "PH", 4, (5,), 1,
    )  # fmt: skip
    assert save.modifiers == (Modifier("Para Pistol", -6),) and not save.wound_on_low
    assert game.state.model("z").status == "unconscious"


def test_a_save_with_success_value_below_one_is_not_rolled(write_scenario: Write) -> None:
    """Seed 003: "if the Success Value drops below 1 ... the player does not roll the
    dice, and the Roll is an automatic failure": PH 10 - 12 = -2, no save die, a wound."""
    game = Game(
        load_scenario(write_scenario(PARA.replace("save_mod = -6", "save_mod = -12"))), seed=1
    )
    game.rng = ScriptedDice(2)  # type: ignore[assignment]
    game.declare(Activate("f", Skill.attack("Para Pistol", ("z", 1))))
    answer_aros(game)
    events = game.declare(Continue(Skill.idle()))
    [save] = of(SaveRolled, events)
    assert (save.target, save.faces, save.wounds) == (-2, (), 1)


# -- 6. dice that are not rolled ------------------------------------------------------

ROOKIE = """
[[profile]]
name = "rookie"
mov = [4, 4]
cc = 8
bs = 5
ph = 10
wip = 10
arm = 0
bts = 0
wounds = 1
silhouette = 2
base = 25
height = 1.0
weapons = ["Combi Rifle", "Pistol"]

[[model]]
id = "rookie"
side = "blue"
profile = "rookie"
at = [12, 23]
facing = -90

[[model]]
id = "hac"
side = "red"
profile = "hac-tao"
at = [12, 3]
facing = 90
"""


def test_success_value_below_one_rolls_no_dice(write_scenario: Write) -> None:
    """Seed 003: "Success Values Below 1 ... the player does not roll the dice, and the
    Roll is an automatic failure": BS 5 - 3 (range 19") - 6 (Mimetism) = -4."""
    game = Game(load_scenario(write_scenario(ROOKIE)), seed=1)
    game.rng = ScriptedDice()  # type: ignore[assignment]  # no die may be drawn
    game.declare(Activate("rookie", Skill.attack("Combi Rifle", ("hac", 3))))
    answer_aros(game)
    events = game.declare(Continue(Skill.idle()))
    [roll] = of(Rolled, events)
    assert (roll.target, roll.faces, roll.results) == (-4, (), ())
    [missed] = of(Missed, events)
    assert missed.reason == "SV -4: an automatic failure, not rolled"
    assert of(Hit, events) == []


def test_beyond_maximum_range_rolls_no_dice(write_scenario: Write) -> None:
    """Seed 000: "If the target is beyond the maximum Range ... the BS Attack
    automatically fails": the Pistol reaches 24" and the Hac Tao is 25" away, so the
    Pistol draws no die, and the Hac Tao's Face-to-Face ARO wins with any success."""
    hac_x = 20 - math.sqrt((25 + 2 * R) ** 2 - 20**2)  # 25" edge to edge
    path = write_scenario(
        ROOKIE.replace("at = [12, 23]", "at = [20, 23]")
        .replace("at = [12, 3]", f"at = [{hac_x:.4f}, 3]")
        .replace("facing = 90", "facing = 45")
    )
    game = Game(load_scenario(path), seed=1)
    game.rng = ScriptedDice(3, 19)  # type: ignore[assignment]  # only the Hac Tao's die
    game.declare(Activate("rookie", Skill.attack("Pistol", ("hac", 2))))
    game.declare(React("hac", Skill.attack("HMG", ("rookie", 1))))
    events = game.declare(Continue(Skill.idle()))
    rolled = {r.model: r for r in of(Rolled, events)}
    assert rolled["rookie"].faces == () and rolled["hac"].faces == (3,)
    assert [m.reason.split(" (")[0] for m in of(Missed, events)] == ["out of range"]
    assert [(h.attacker, h.target) for h in of(Hit, events)] == [("hac", "rookie")]


# -- Impact Templates (FACTS 3.6) --------------------------------------------------------

IMPACT = """
[[model]]
id = "ml"
side = "blue"
profile = "fusilier"
weapons = ["Missile Launcher"]
at = [12, 22]
facing = -90

[[model]]
id = "z1"
side = "red"
profile = "zhanshi"
at = [12, 10]
facing = 90

[[model]]
id = "z2"
side = "red"
profile = "zhanshi"
at = [13.2, 10]
facing = 90

[[model]]
id = "z3"
side = "red"
profile = "zhanshi"
at = [16, 10]
facing = 90
"""


def test_impact_template_rolls_separately_for_each_trooper_under_it(write_scenario: Write) -> None:
    """FACTS 3.6: "Impact Template Weapons: need an Attack Roll ... The Circular template
    centres on the Main Target's base. Effects apply to each affected trooper only if the
    roll against them succeeds; other affected enemies oppose separately." The template
    (3" across, rule data) covers z1 and z2, not z3: a Normal roll hits z1; z2 shoots
    back Face-to-Face and its 10 beats the roll against it."""
    game = Game(load_scenario(write_scenario(IMPACT)), seed=1)
    # ml at z1: 5; ml at z2: 8 against z2's 10; saves (EXP: 3 for z1, 1 for ml); Guts
    game.rng = ScriptedDice(5, 8, 10, 1, 1, 1, 1, 1, 1, 1, 1)  # type: ignore[assignment]
    game.declare(Activate("ml", Skill.attack("Missile Launcher", ("z1", 1))))
    answer_aros(game, z2=Skill.attack("Combi Rifle", ("ml", 1)))
    events = game.declare(Continue(Skill.idle()))
    [circle] = of(CircleTemplatePlaced, events)
    assert (circle.centre, circle.diameter, circle.affected) == ((12, 10), 3.0, ("z1", "z2"))
    rolls = {(r.model, r.purpose): r for r in of(Rolled, events)}
    at_z1 = rolls[("ml", "BS Attack (Missile Launcher) at z1")]
    at_z2 = rolls[("ml", "BS Attack (Missile Launcher) at z2 (under the template)")]
    assert (at_z1.faces, at_z1.results) == ((5,), ("success",))
    assert (at_z2.faces, at_z2.results) == ((8,), ("cancelled",))
    assert at_z2.modifiers == at_z1.modifiers  # the MODs of the attack at the Main Target
    assert [(h.attacker, h.target) for h in of(Hit, events)] == [("ml", "z1"), ("z2", "ml")]
    assert [s.model for s in of(SaveRolled, events)] == ["z1", "ml"]
    assert len(of(SaveRolled, events)[0].faces) == 3  # EXP: three saves per hit


def test_impact_template_has_one_main_target(write_scenario: Write) -> None:
    """FACTS 3.6: the template centres on "the Main Target": one target per attack."""
    text = IMPACT.replace('weapons = ["Missile Launcher"]', 'weapons = ["Impact Burst"]')
    text = WEAPON_B2 + text
    game = Game(load_scenario(write_scenario(text)), seed=1)
    with pytest.raises(IllegalDeclaration, match="one Main Target"):
        game.declare(Activate("ml", Skill.attack("Impact Burst", ("z1", 1), ("z3", 1))))


WEAPON_B2 = """
[[weapon]]
name = "Impact Burst"
bands = [[24, 0]]
template = "circular"
ps = 5
burst = 2
"""


# -- Speculative Attack (FACTS 3.7) ------------------------------------------------------

SPECULATIVE = """
[[scenery]]
id = "bunker-wall"
kind = "wall"
height = 3.0
polygon = [[9, 14], [15, 14], [15, 14.3], [9, 14.3]]
""" + IMPACT.split('[[model]]\nid = "z2"')[0]


def test_speculative_attack_at_a_target_out_of_line_of_fire(write_scenario: Write) -> None:
    """FACTS 3.7: "Speculative Attack: one BS Attack against a target outside LoF, B = 1
    ... -6 MOD plus range MODs". The wall hides z1 from ml: BS 12 - 6 + 0 (11") = 6; a
    3 hits, and the Circular template falls on z1, who could only Dodge."""
    game = Game(load_scenario(write_scenario(SPECULATIVE)), seed=1)
    game.rng = ScriptedDice(3, 1, 1, 1, 1, 1)  # type: ignore[assignment]
    game.declare(Activate("ml", Skill.speculative_attack("Missile Launcher", "z1")))
    assert game.awaiting().models == ("z1",)  # under the template, out of LoF and ZoC
    with pytest.raises(IllegalDeclaration, match="may only Dodge"):
        game.declare(React("z1", Skill.attack("Combi Rifle", ("ml", 1))))
    game.declare(React("z1", Skill.idle()))
    with pytest.raises(IllegalDeclaration, match="takes the entire Order"):
        game.declare(Continue(Skill.move((12, 23))))
    events = game.declare(Continue(Skill.idle()))
    [roll] = [r for r in of(Rolled, events) if r.model == "ml"]
    assert mods(roll) == [("range", 0), ("speculative", -6)]
    assert (roll.target, roll.faces, roll.results) == (6, (3,), ("success",))
    assert [(h.attacker, h.target) for h in of(Hit, events)] == [("ml", "z1")]


def test_speculative_attack_refusals(write_scenario: Write) -> None:
    """FACTS 3.7: only at a target outside LoF, "placed on the floor ..., never on a wall",
    and (here) only with a Circular Impact Template weapon."""
    game = Game(load_scenario(write_scenario(SPECULATIVE)), seed=1)
    cases = [
        (Skill.speculative_attack("Missile Launcher", "z1", at=(12, 14.1)), "on bunker-wall"),
        (Skill.speculative_attack("Missile Launcher", "z1", at=(12, 7)), "not under"),
    ]
    for skill, reason in cases:
        with pytest.raises(IllegalDeclaration, match=reason):
            game.declare(Activate("ml", skill))
    in_sight = Game(load_scenario(write_scenario(IMPACT, "open.toml")), seed=1)
    with pytest.raises(IllegalDeclaration, match="shoot it directly"):
        in_sight.declare(Activate("ml", Skill.speculative_attack("Missile Launcher", "z3")))
