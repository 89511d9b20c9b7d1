"""Open Rebellion's log in its own words, told in order (`Teller`): the defender's answer
to damage, the tier damage converts as and why, the defence pool broken down, the
markers a unit is left with (session 7 tester's findings 2-4, 8)."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest

from game.errors import IllegalDeclaration
from game.playtest.batch import automatic_player, play_out
from game.rules.registry import RULESETS
from game.scenario import load_scenario
from game.sequencer.events import Declared, Event, GameEnded, TurnEnded, TurnStarted
from game.sequencer.game import Game
from game.sequencer.open_rebellion_types import (
    Action,
    ActivateUnit,
    BangTest,
    DamageConverted,
    EndUnit,
    FallBackChoice,
    FellBack,
    InitiativeRolled,
    MarkersChanged,
    PickInitiative,
    SmallArmsFire,
    TookPosition,
    UnitAct,
)
from game.sequencer.sentences import Teller, describe, names_of, told
from tests.conftest import SCENARIOS

RULES = RULESETS["open-rebellion"]
IDS = {"gov-squad-b", "rebel-squad-a", "government", "rebels"}


def _told(events: list[Event]) -> list[str]:
    teller = Teller(RULES, IDS)
    return [teller.say(e) for e in events]


def _fire(cover: str, damage: int = 1, defence: int = 6, bands: int = 2) -> SmallArmsFire:
    return SmallArmsFire("rebel-squad-a", "gov-squad-b", ("reb-a1",), 7, defence, bands,
                         cover, "", (5,) * 7, (1,) * defence, damage)  # fmt: skip


def _choice(fall_back: bool) -> Declared:
    return Declared("government", FallBackChoice("gov-squad-b", fall_back).to_dict())


def test_a_unit_in_the_open_that_does_not_fall_back_takes_the_morale_check() -> None:
    # seed 001, Fall Back: "If there is any damage and the Defender is in the open, they
    # must pass a morale check or fall back". The log said "Gov squad b stands its ground",
    # then the unit failed the check and fell back (replay ord/saves/game-0000.json)
    lines = _told([
        _fire("open"), _choice(False), BangTest("gov-squad-b", "morale check", (3, 3, 2, 2), 0),
        BangTest("gov-squad-b", "fall back", (3, 6, 3, 4), 1),
        FellBack("gov-squad-b", "failed the morale check", (0.6714, -1.4094)),
    ])  # fmt: skip
    assert lines[1] == "Government: Gov squad b takes the morale check"
    assert lines[4] == 'Gov squad b falls back 1.6" north-east: failed the morale check'
    assert not [line for line in lines if "stands its ground" in line]


def test_a_unit_in_light_cover_needs_no_morale_check() -> None:
    # seed 001: "If there is any damage and the Defender is in light cover, no check is
    # required, but the Defender may opt to fall back toward hard cover"
    assert _told([_fire("light"), _choice(False)])[1] == (
        "Government: Gov squad b stays in its light cover"
    )
    assert _told([_fire("light"), _choice(True)])[1] == (
        "Government: Gov squad b falls back toward hard cover"
    )
    assert _told([_fire("open"), _choice(True)])[1] == (
        "Government: Gov squad b fails the morale check on purpose"
    )
    # told on its own, the cover is not known: only the choice is said
    alone = describe(_choice(False), RULES, IDS)
    assert alone == "Government: Gov squad b does not choose to fall back"


def test_damage_in_position_says_why_it_converts_a_tier_better() -> None:
    # seed 001, Damage Conversion: "Defender's position is improved by one tier if they are
    # in position". The log said "in light cover (4 of 4 in cover)", then "Damage on West
    # squad in hard cover": nothing said the squad was in position
    placed = TookPosition("gov-squad-b")
    hard = DamageConverted("gov-squad-b", "hard", "attacker", (1, 6), 1, 1)
    lines = _told([placed, _fire("light", defence=9, bands=1), _choice(False), hard])
    assert lines[3] == (
        "Damage on Gov squad b, in light cover and in position, converts as in hard cover "
        "(attacker rolls 1 and 6): 1 wound marker and 1 pinned marker"
    )
    # not in position (it moved since): the same tier reads as it did
    moved = Declared("government", UnitAct("gov-squad-b", Action.move(1.0, 0.0)).to_dict())
    light = DamageConverted("gov-squad-b", "light", "defender", (5,), 0, 1)
    lines = _told([placed, moved, _fire("light", defence=9, bands=1), _choice(False), light])
    assert lines[4] == "Damage on Gov squad b in light cover (defender rolls 5): 1 pinned marker"
    # on its own, the tier is what damage converts as, not where the unit is
    assert describe(hard, RULES, IDS) == (
        "Damage on Gov squad b converts as in hard cover (attacker rolls 1 and 6): "
        "1 wound marker and 1 pinned marker"
    )


def test_the_initiative_action_leaves_a_unit_in_position_and_says_which_markers() -> None:
    # FACTS 1.2: the Initiative Action keeps heads down and sheds pinned markers; it does
    # not move the unit, so it stays in position. The log said "now has no markers" while
    # the picture showed "in position"
    initiative = Declared("government", UnitAct("gov-squad-b", Action.initiative()).to_dict())
    lines = _told([TookPosition("gov-squad-b"), initiative, MarkersChanged("gov-squad-b", 0, 0)])
    assert lines[2] == "Gov squad b now has no wound or pinned markers and is still in position"
    assert describe(MarkersChanged("gov-squad-b", 0, 0), RULES, IDS) == (
        "Gov squad b now has no wound or pinned markers"
    )


def test_the_defence_pool_is_broken_down() -> None:
    # seed 001, Defender Dice Pool: +1 per full range band, 3-5 skill dice by quality, +4
    # in cover. After two of its models died a squad's pool went from 9 to 10 dice with no
    # reason given (the skill dice follow the quality most living models have)
    light = describe(_fire("light", damage=0, defence=10, bands=1), RULES, IDS)
    assert light is not None and "against 10 defence dice (1 range, 5 skill, 4 cover: " in light
    opened = describe(_fire("open", damage=0, defence=6, bands=2), RULES, IDS)
    assert opened is not None and "against 6 defence dice (2 range, 4 skill: " in opened


def test_a_played_game_breaks_every_pool_down_to_what_it_holds() -> None:
    """Every volley of a seeded game: range, skill and cover add up to the pool, the skill
    dice one of the qualities' (3-5), cover dice only in cover."""
    game = Game(load_scenario(SCENARIOS / "open-rebellion-demo.toml"), 2)
    play_out(game, automatic_player(game.engine, "simple"))
    teller = Teller(RULES, names_of(game.setup))
    pools = 0
    for event in game.events:
        said = teller.say(event)
        if not isinstance(event, SmallArmsFire):
            continue
        found = re.search(r"against (\d+) defence dice \(([^:]*):", said)
        assert found is not None, said
        parts = dict(reversed(p.split(" ")) for p in found.group(2).split(", "))
        assert sum(map(int, parts.values())) == event.defence_dice == int(found.group(1))
        assert int(parts["skill"]) in (3, 4, 5)
        assert int(parts.get("range", 0)) == event.range_bands
        assert ("cover" in parts) == (event.cover != "open")
        pools += 1
    assert pools >= 5


def test_a_side_named_a_plural_or_not_is_never_the_subject_of_a_verb() -> None:
    # Side names take either number ("Rebels", "Government", "Alpha platoon"): the log
    # said "Government activate Gov squad b" and "Rebels have the initiative" (tester9
    # finding 4). Every sentence about a side names it where no verb agrees with it, as
    # "Government: Gov squad b is activated".
    ended = GameEnded("government", "turn limit (5): points of models left", {"government": 9})
    said = describe(ended, RULES, IDS)
    assert (
        said == "Game over: won by Government; turn limit (5): points of models left: Government 9"
    )
    tie = describe(InitiativeRolled(2, (("rebels", "rebel-squad-a"),), (1,), ""), RULES, IDS)
    assert tie is not None and tie.endswith("; a tie, both roll again")
    won = describe(InitiativeRolled(2, (("rebels", "rebel-squad-a"),), (2,), "rebels"), RULES, IDS)
    assert won is not None and won.endswith("; the initiative goes to Rebels")
    both = InitiativeRolled(2, (("rebels", "rebel-squad-a"), ("government", "gov-squad-b")),
                            (2, 1), "rebels")  # fmt: skip
    said = describe(both, RULES, IDS)  # session 10: lists read with an "and"
    assert said == "Initiative, turn 2: Rebel squad a 2 bangs and Gov squad b 1 bang; "\
        "the initiative goes to Rebels", said  # fmt: skip
    begun = describe(TurnStarted(3, "government"), RULES, IDS)
    assert begun == "Turn 3 begins, Government to pick first"
    picked = describe(Declared("rebels", PickInitiative("rebel-squad-a").to_dict()), RULES, IDS)
    assert picked == "Rebels: Rebel squad a goes forward to roll for the initiative"
    assert _told([_gov(ActivateUnit("gov-squad-b"))]) == ["Government: Gov squad b is activated"]
    assert _told([_gov(EndUnit())]) == ["Government: the squad's activation ends"]
    # every sentence of played games: no side's name followed by a verb of either number
    verbs = r"(activate|activates|end|ends|put|puts|pick|picks|have|has|win|wins)\b"
    for seed in (1, 2):
        game = Game(load_scenario(SCENARIOS / "open-rebellion-demo.toml"), seed)
        play_out(game, automatic_player(game.engine, "careful"))
        teller = Teller(RULES, names_of(game.setup))
        for event in game.events:
            line = teller.say(event)
            assert not re.search(rf"(Rebels|Government) {verbs}", line), line


def _gov(declaration: ActivateUnit | UnitAct | EndUnit) -> Declared:
    return Declared("government", declaration.to_dict())


def test_an_end_unit_ends_the_activation_it_follows() -> None:
    # FACTS 1.2 / seed 001: a unit activates and takes its actions; EndUnit ends the
    # activating unit's activation, or, with none activating, activates the unit it names
    # and does nothing. The log said "Government activate Gov squad a" and then "Government
    # activate Gov squad a, which does nothing" (replay ord/saves/game-0001.json, tester7b A)
    # and "Government activate": no verb agrees with a side's name (tester9 finding 4)
    move = UnitAct("gov-squad-b", Action.move(1.0, 0.0))
    acted = _told([_gov(ActivateUnit("gov-squad-b")), _gov(move), _gov(EndUnit("gov-squad-b"))])
    assert acted[2] == "Government: Gov squad b's activation ends"
    idle = _told([_gov(ActivateUnit("gov-squad-b")), _gov(EndUnit("gov-squad-b"))])
    assert idle[1] == "Government: Gov squad b's activation ends without an action"
    unnamed = _told([_gov(move), _gov(EndUnit())])
    assert unnamed[1] == "Government: Gov squad b's activation ends"
    # with no unit activating (a new turn), EndUnit activates it and does nothing: one line
    passed = _told([_gov(move), TurnEnded(1, "government"), _gov(EndUnit("gov-squad-b"))])
    assert passed[2] == "Government: Gov squad b is activated and does nothing"
    assert _told([_gov(EndUnit("gov-squad-b"))]) == passed[2:]


def test_a_played_game_never_says_a_unit_activating_activates_again() -> None:
    game = Game(load_scenario(SCENARIOS / "open-rebellion-demo.toml"), 2)
    play_out(game, automatic_player(game.engine, "careful"))
    teller = Teller(RULES, names_of(game.setup))
    lines = [teller.say(event) for event in game.events]
    ends = [line for line in lines if "'s activation" in line]
    assert ends
    for before, line in pairwise(lines):
        if line.endswith(" and does nothing"):
            assert before != line.removesuffix(" and does nothing"), line


def test_a_fall_back_cut_short_by_scenery_names_the_piece_as_the_table_does() -> None:
    # the playtester's log read 'cut short by Barn' (the barn named as a model)
    from game.scenario.names import told_names

    scenario = load_scenario(SCENARIOS / "open-rebellion-demo.toml")
    teller = Teller(RULES, told_names(scenario))
    reason = "failed the morale check"
    by_barn = FellBack("gov-squad-b", reason, (3.0, 0.0), "barn", 6.0)
    assert teller.say(by_barn) == (
        'Gov squad b falls back 3.0" east (of 6.0", cut short by the barn): ' + reason
    )
    by_unit = FellBack("gov-squad-b", reason, (3.0, 0.0), "reb-a1", 6.0)
    assert "cut short by Reb a1)" in teller.say(by_unit)


def _fired_on(reason: str) -> str:
    fire = SmallArmsFire("rebel-squad-a", "gov-squad-b", ("reb-a1",), 7, 4, 0,
                         reason.split(":")[0], reason, (5,) * 7, (1,) * 4, 1)  # fmt: skip
    return describe(fire, RULES, IDS) or ""


def test_a_squads_cover_count_reads_as_a_player_says_it_for_every_count() -> None:
    # FACTS 1.4: "a unit counts as being in a cover category if more than half its models
    # are in it". The event keeps the rules' reason as saves hold it; the log said "in the
    # open (only 0 of the 1 in sight in cover; 3 of 4 out of sight)" (tester12 item 8)
    said = {
        "open: only 0 of the 1 in sight in cover; 3 of 4 out of sight": "in the open (the one "
        "model in sight is not in cover; the other 3 are out of sight)",
        "open: only 0 of 1 in cover": "in the open (its one model is not in cover)",
        "light: 1 of 1 in cover": "in light cover (its one model is in cover)",
        "open: only 0 of 2 in cover": "in the open (neither of its 2 models is in cover)",
        "open: only 1 of 2 in cover": "in the open (only 1 of its 2 models is in cover)",
        "light: 2 of 2 in cover": "in light cover (both its models are in cover)",
        "open: only 0 of 4 in cover": "in the open (none of its 4 models is in cover)",
        "open: only 2 of 4 in cover": "in the open (only 2 of its 4 models are in cover)",
        "light: 3 of 4 in cover": "in light cover (3 of its 4 models are in cover)",
        "light: 4 of 4 in cover": "in light cover (all 4 of its models are in cover)",
        "light: 2 of the 2 in sight in cover; 1 of 3 out of sight": "in light cover (both "
        "models in sight are in cover; the other one is out of sight)",
        "open: only 1 of the 3 in sight in cover; 1 of 4 out of sight": "in the open (only 1 "
        "of the 3 in sight is in cover; the other one is out of sight)",
        "hard: 3 of the 3 in sight touching stone-wall-2; 1 of 4 out of sight": "in hard cover "
        "(all 3 in sight are touching stone-wall-2; the other one is out of sight)",
        # a flank (fix13a: it was said as the rules put it, "hard cover flanked, 3 of 4
        # seen past the wall"); its count is of the models in sight
        "light: hard cover flanked, 3 of 4 seen past the wall": "in light cover (hard cover "
        "flanked: 3 of the 4 in sight are seen past the wall)",
    }
    for reason, words in said.items():
        line = _fired_on(reason)
        assert f" {words}; 1 damage gets through" in line, (reason, line)
        assert not re.search(r"\b0 of|of the 1\b|1 of 1\b", line), line


def test_take_position_is_said_once_its_event_saying_what_it_gives() -> None:
    # seed 001: "support weapons that are in position (usually +3 dice per HMG, +2 dice
    # for a SAW)"; "Defender's position is improved by one tier if they are in position".
    # The log said "Government: Gov squad b takes position", then "Gov squad b takes
    # position" (tester12 item 10)
    take = Declared("government", UnitAct("gov-squad-b", Action.take_position()).to_dict())
    lines = _told([take, TookPosition("gov-squad-b")])
    assert lines == [
        "Government: Gov squad b takes position",
        "Gov squad b is in position until it moves: its support weapons add their dice, and "
        "damage on it converts a tier better",
    ]


def test_a_unit_of_the_side_not_activating_is_refused_in_words_that_agree() -> None:
    # FACTS 1.2 item 2: players alternate activating one unit at a time. The refusal
    # read "it is Rebels's turn to activate, not Gov squad a's side" (review12): a
    # possessive of a plural name and the unit called a side. It names the unit's side and
    # the side to activate with no possessive or verb of either name.
    game = Game(load_scenario(SCENARIOS / "open-rebellion-demo.toml"), 1)
    game.declare(PickInitiative("rebel-squad-a"))
    game.declare(PickInitiative("gov-squad-a"))
    side = game.state.active
    other = "gov-squad-a" if side == "rebels" else "rebel-squad-a"
    with pytest.raises(IllegalDeclaration) as refused:
        game.declare(ActivateUnit(other))
    said = told(str(refused.value), names_of(game.setup))
    expected = {
        "rebels": "Gov squad a is a unit of Government, not of Rebels, "
        "whose turn it is to activate",
        "government": "Rebel squad a is a unit of Rebels, not of Government, "
        "whose turn it is to activate",
    }
    assert said == expected[side], said
