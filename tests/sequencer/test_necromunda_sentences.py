"""Necromunda's log told in order (`Teller`) says the cause: whose activation ends, why a
fighter went out of action, which Recovery die is kept and why there were two, what
pinned a fighter, where a fighter ran for cover; a gang is one House (session 7 tester's
findings 6-8)."""

from __future__ import annotations

import pytest

from game.playtest.batch import automatic_player, play_out
from game.rules.registry import RULESETS
from game.scenario import load_scenario
from game.sequencer.events import Declared, Event, Hit, Moved, StateChanged
from game.sequencer.game import Game
from game.sequencer.necromunda_types import (
    OUT_OF_ACTION,
    PINNED,
    SERIOUSLY_INJURED,
    STANDING,
    Act,
    Action,
    BottleTested,
    EndActivation,
    InjuryRolled,
    PriorityRolled,
    RanForCover,
)
from game.sequencer.sentences import Teller, describe, names_of
from tests.conftest import SCENARIOS

RULES = RULESETS["necromunda"]
IDS = {"goliath-leader", "goliath-ganger-2", "cawdor-champion", "goliath", "cawdor"}


def _told(events: list[Event]) -> list[str]:
    teller = Teller(RULES, IDS)
    return [teller.say(e) for e in events]


def _act(model: str, action: Action, side: str = "goliath") -> Declared:
    return Declared(side, Act(model, action).to_dict())


def test_ending_an_activation_names_the_fighter() -> None:
    # "House Goliath ends the fighter's activation" named no one (FACTS 2.8: fighters are
    # activated one at a time)
    lines = _told([_act("goliath-leader", Action.move((3.0, 4.0))),
                   Declared("goliath", EndActivation().to_dict())])  # fmt: skip
    assert lines[1] == "Goliath ends Goliath leader's activation"
    alone = describe(Declared("goliath", EndActivation().to_dict()), RULES, IDS)
    assert alone == "Goliath ends its fighter's activation"


def test_flesh_wounds_that_take_toughness_to_0_say_so() -> None:
    # FACTS 2.4: "Flesh Wound: -1 T. At T 0 the fighter goes Out of Action". The log read
    # "rolls injury dice: 2 (flesh wound) / Cawdor champion is now out of action"
    fell = StateChanged("cawdor-champion", SERIOUSLY_INJURED, OUT_OF_ACTION)
    flesh = InjuryRolled("cawdor-champion", (2,), ("flesh wound",))
    assert _told([flesh, fell])[1] == (
        "Cawdor champion is now out of action (was seriously injured): its Flesh Wounds took "
        "its Toughness to 0"
    )
    out = InjuryRolled("cawdor-champion", (2, 6), ("flesh wound", "out of action"))
    assert _told([out, fell])[1] == "Cawdor champion is now out of action (was seriously injured)"


def test_two_recovery_dice_say_why_and_which_is_kept() -> None:
    # FACTS 2.8, Recovery: "one Active friend within 1\" adds an extra die and the player
    # picks one" (the engine keeps the best). The log gave two dice and no reason
    two = InjuryRolled("goliath-ganger-2", (3, 2), ("seriously injured", "flesh wound"), "recovery")
    assert describe(two, RULES, IDS) == (
        'Goliath ganger 2 rolls two recovery dice, a friend being within 1": 3 (seriously '
        "injured) and 2 (flesh wound); keeps the 2 (flesh wound)"
    )
    one = InjuryRolled("goliath-ganger-2", (4,), ("seriously injured",), "recovery")
    assert (
        describe(one, RULES, IDS) == "Goliath ganger 2 rolls recovery dice: 4 (seriously injured)"
    )


def test_a_hit_pins_and_taking_cover_is_not_a_hit() -> None:
    # FACTS 2.5: "A hit Pins: a Standing+Active fighter that is hit goes Prone+Pinned", before
    # its wound roll: "X is now pinned" came before "... hits X" with no cause
    # (session 7), and then the pin still came before the hit that caused it (the engine
    # pins every fighter hit before it resolves each hit): the hit tells it, in order
    pinned = StateChanged("cawdor-champion", STANDING, PINNED)
    shot = _act("goliath-leader", Action.shoot("Bolt pistol", "cawdor-champion"))
    hit = Hit("goliath-leader", "cawdor-champion", "Bolt pistol")
    assert _told([shot, pinned, hit])[1:] == [
        "",
        "Goliath leader hits Cawdor champion with the Bolt pistol; Cawdor champion is pinned "
        "(was standing)",
    ]
    assert _told([shot, hit])[1] == "Goliath leader hits Cawdor champion with the Bolt pistol"
    cover = _act("cawdor-champion", Action.take_cover(), "cawdor")
    assert _told([cover, pinned])[1] == "Cawdor champion is now pinned (was standing)"


def test_running_for_cover_names_no_point() -> None:
    # "runs for cover ... to (22.3, 9.3)": the move that follows says how far; a fighter
    # that stays put says so
    ran = RanForCover("goliath-leader", (3, 4), 7.0, (22.3, 9.3), ("out of sight",))
    moved = Moved("goliath-leader", ((20.0, 9.3), (22.3, 9.3)), 2.3)
    lines = _told([ran, moved])
    assert lines == [
        'Goliath leader runs for cover (2D6 3 and 4, up to 7.0"): out of sight',
        'Goliath leader moves 2.3"',
    ]
    priority = PriorityRolled(2, (("goliath", 3), ("cawdor", 4)), "cawdor")
    stayed = _told([ran, priority])
    assert stayed[1].startswith("Goliath leader stays where it stands\nRound 2 priority roll")


def test_a_house_is_one_gang() -> None:
    # "House Cawdor have priority" beside the engine's "House Cawdor has no fighter left"
    won = describe(PriorityRolled(1, (("goliath", 3), ("cawdor", 5)), "cawdor"), RULES, IDS)
    assert won == "Round 1 priority roll: Goliath 3 and Cawdor 5; Cawdor has priority"
    tie = describe(PriorityRolled(4, (("goliath", 2), ("cawdor", 2)), ""), RULES, IDS)
    assert tie is not None and tie.endswith("; a tie, both roll again")
    bottle = describe(BottleTested("goliath", 1, 1, 5, False), RULES, IDS)
    assert bottle is not None and bottle.startswith("Goliath takes a Bottle test")


def test_a_played_game_names_every_fighter_whose_activation_ends() -> None:
    # seed 3: a game whose fighters end activations early (seed 7's did before Blaze and
    # Knockback were played, FACTS 2.9; it goes otherwise now and ends none early)
    game = Game(load_scenario(SCENARIOS / "necromunda-alley.toml"), 3)
    play_out(game, automatic_player(game.engine, "simple"))
    teller = Teller(RULES, names_of(game.setup))
    lines = [teller.say(e) for e in game.events]
    ended = [line for line in lines if "activation" in line and " ends " in line]
    assert ended and all(line.endswith("'s activation") for line in ended)
    assert not [line for line in lines if "its fighter" in line or " have priority" in line]


def test_every_pin_by_a_hit_is_told_with_its_hit_in_seeded_games() -> None:
    # the engine logs the pins of a shot before its hits: each is told once, with the
    # hit on that fighter, never before it (every Necromunda table, 3 simple games each)
    seen = 0
    for table in ("necromunda-demo", "necromunda-alley", "necromunda-bombardment"):
        scenario = load_scenario(SCENARIOS / f"{table}.toml")
        for seed in range(3):
            game = Game(scenario, seed)
            player = automatic_player(game.engine, "simple")
            play_out(game, player)
            teller = Teller(RULES, names_of(scenario))
            lines = [teller.say(e) for e in game.events]
            pins = [e for e in game.events if isinstance(e, StateChanged)
                    and (e.before, e.after) == (STANDING, PINNED)]  # fmt: skip
            told = [line for line in lines if line.endswith("is pinned (was standing)")]
            cover = sum(1 for line in lines if line.endswith("is now pinned (was standing)"))
            assert len(told) + cover == len(pins)
            assert all(" hits " in line for line in told)
            assert "is hit and pinned" not in "\n".join(lines)
            seen += len(told)
    assert seen > 10


def test_a_scatter_stopped_by_scenery_names_the_piece_as_the_table_does() -> None:
    # 'stopped by Barrels' named a piece of scenery as a fighter
    from game.scenario.names import told_names
    from game.sequencer.necromunda_types import Scattered

    scenario = load_scenario(SCENARIOS / "necromunda-demo.toml")
    teller = Teller(RULES, told_names(scenario))
    stopped = Scattered("cawdor-champion", (10.0, 10.0), (12.0, 10.0), 0.0, 2.0, "barrels", False)
    said = teller.say(stopped)
    assert said.endswith(", stopped by the barrels"), said


def test_a_fighter_of_the_gang_not_activating_is_refused_without_a_possessive() -> None:
    """FACTS 2.8: the gangs alternate activating one Ready fighter. The refusal read "it
    is House Escher's turn to activate, not House Orlock's": a possessive of a gang's
    name, which a plural name ("Goliaths") makes "Goliaths's" (Open Rebellion's was
    mended so in session 12; this one was left). It names the fighter, its gang and the
    gang whose turn it is, with no possessive of either name."""
    from game.errors import IllegalDeclaration
    from game.sequencer.sentences import told

    game = Game(load_scenario(SCENARIOS / "necromunda-demo.toml"), 1)
    active = game.state.active
    fighter = next(m for m in game.state.models if m.side != active)
    with pytest.raises(IllegalDeclaration) as refused:
        game.declare(Act(fighter.id, Action.take_cover()))
    names = names_of(game.setup)
    said = told(str(refused.value), names)
    expected = (
        f"{names[fighter.id]} is a fighter of {names[fighter.side]}, not of {names[active]}, "
        "whose turn it is to activate"
    )
    assert said == expected
    assert "'s" not in said
