"""Infinity's log told in order (`Teller`): where the active trooper was when an ARO was
taken, and a Dodge that had nothing to dodge (session 7 tester's findings 5 and 6)."""

from __future__ import annotations

import re

from game.playtest.batch import automatic_player, play_out
from game.rules.registry import RULESETS
from game.scenario import load_scenario
from game.sequencer.events import Declared, Event, Moved, Rolled, TurnEnded
from game.sequencer.game import Game
from game.sequencer.infinity_orders import Activate, Continue, React, Skill
from game.sequencer.sentences import Teller, describe, names_of
from tests.conftest import SCENARIOS

RULES = RULESETS["infinity"]
IDS = {"fusilier-1": "Fusilier 1", "fusilier-2": "Fusilier 2", "zhanshi-hmg": "Zhanshi hmg",
       "zhanshi-1": "Zhanshi 1", "blue": "PanOceania", "red": "Yu Jing"}  # fmt: skip


def _told(events: list[Event]) -> list[str]:
    teller = Teller(RULES, IDS)
    return [teller.say(e) for e in events]


def _order(skill: Skill) -> Declared:
    return Declared("blue", Activate("fusilier-1", skill).to_dict())


def _aro(skill: Skill, at: tuple[float, float], model: str = "zhanshi-hmg") -> Declared:
    return Declared("red", React(model, skill, at).to_dict())


HMG = Skill.attack("HMG", ("fusilier-1", 1))


def test_an_aro_says_where_the_active_trooper_was_not_the_point() -> None:
    # "Zhanshi hmg shoots the HMG at Fusilier 1 (1 die) at (4.0, 29.0)" for an Order with no
    # move: the ARO is taken where the trooper stands (README: at a point of its route)
    still = _told([_order(Skill.attack("Combi Rifle", ("zhanshi-hmg", 3))), _aro(HMG, (4.0, 29.0))])
    assert (
        still[1]
        == "Yu Jing: ARO, Zhanshi hmg shoots the HMG at Fusilier 1 (1 die), where it stands"
    )
    route = _order(Skill.move((4.0, 25.0), (7.0, 25.0)))  # from (4, 29): 4" then 3"
    assert _told([route, _aro(HMG, (4.0, 26.0))])[1].endswith(
        '(1 die), 4.0" short of the end of its move'
    )
    assert _told([route, _aro(HMG, (5.5, 25.0))])[1].endswith(
        '(1 die), 1.5" short of the end of its move'
    )
    assert _told([route, _aro(HMG, (7.0, 25.0))])[1].endswith("(1 die), at the end of its move")
    # an ARO at someone else says whose place it is
    other = Skill.attack("HMG", ("fusilier-2", 1))
    assert _told([route, _aro(other, (7.0, 25.0))])[1].endswith(
        "at Fusilier 2 (1 die), with Fusilier 1 at the end of its move"
    )


def test_a_dodge_with_nothing_to_dodge_says_so() -> None:
    # A Dodge ARO against an Order that attacks no one is not rolled (infinity_attacks: no
    # attack to dodge): the log said "Fusilier 1 dodges", then nothing
    order = [
        _order(Skill.move((4.0, 25.0))), _aro(Skill.dodge(), (4.0, 25.0), "zhanshi-1"),
        Declared("blue", Continue(Skill.idle()).to_dict()),
        Moved("fusilier-1", ((4.0, 29.0), (4.0, 25.0)), 4.0),
    ]  # fmt: skip
    lines = _told([*order, _order(Skill.idle())])
    assert lines[-1] == (
        "Zhanshi 1's Dodge: no attack to dodge, no roll\nPanOceania: Order to Fusilier 1, who "
        "stays idle"
    )
    ended = _told([*order, TurnEnded(1, "blue")])
    assert (
        ended[-1]
        == "Zhanshi 1's Dodge: no attack to dodge, no roll\nPanOceania's Active Turn 1 ends"
    )
    rolled = Rolled("zhanshi-1", "Dodge against fusilier-1", "PH", 10, (), 10, (3,), ("success",))
    lines = _told([*order, rolled, _order(Skill.idle())])
    assert "no attack to dodge" not in "\n".join(lines)
    # told on its own, a declaration says only what it declares
    assert describe(_order(Skill.idle()), RULES, IDS) == (
        "PanOceania: Order to Fusilier 1, who stays idle"
    )


def test_a_played_game_names_no_point_and_accounts_for_every_dodge() -> None:
    """A seeded game between the simple players (16 Dodges, AROs with and without a move):
    no ARO names a point, and every Dodge is rolled or said to have had nothing to dodge."""
    game = Game(load_scenario(SCENARIOS / "infinity-demo.toml"), 6)
    play_out(game, automatic_player(game.engine, "simple"))
    teller = Teller(RULES, names_of(game.setup))
    text = "\n".join(teller.say(e) for e in game.events)
    assert not re.search(r"\(\d+\.\d, \d+\.\d\)", text)
    assert "where it stands" in text and "short of the end of its move" in text
    dodged = text.count(" dodges")
    assert dodged >= 10
    assert dodged == text.count(", Dodge against") + text.count("no attack to dodge")


def test_dice_and_split_targets_are_listed_with_an_and() -> None:
    """Session 10's new user: lists read with no "and". Saving rolls say their dice as
    every roll does ("3, 5 and 12"), a Burst split its targets ("Fusilier 1 (2 dice) and
    Fusilier 2 (1 die)")."""
    from game.sequencer.events import SaveRolled

    said = describe(SaveRolled("fusilier-1", (3, 5, 12), 11, 1), RULES, IDS)
    assert said.endswith(": 3, 5 and 12, 1 wound"), said
    split = Skill.attack("HMG", ("fusilier-1", 2), ("fusilier-2", 1))
    said = describe(_order(split), RULES, IDS)
    assert "Fusilier 1 (2 dice) and Fusilier 2 (1 die)" in said, said
