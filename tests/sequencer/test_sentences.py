"""Every event of every rule system reads as a sentence: no `field=value`, no
`<Enum: 'x'>` repr, no Python `None` or `True` (issue 15, "Words for people")."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import re
import types
import typing
from collections.abc import Iterator
from typing import Any

import pytest

import game.sequencer
from game.playtest.batch import automatic_player, play_out
from game.rules.registry import RULESETS, Ruleset
from game.scenario import load_scenario
from game.sequencer.events import Event, Modifier
from game.sequencer.game import Game
from game.sequencer.sentences import describe, heading, ids_in, listed, named, names_of, who
from tests.conftest import SCENARIOS

REPR = re.compile(r"<[^<>]*>")
WORDS_NOT_ALLOWED = re.compile(r"\b(None|True|False)\b")


def _event_classes() -> dict[str, list[type[Event]]]:
    """Event classes by the module that defines them (every module of the sequencer)."""
    found: dict[str, list[type[Event]]] = {}
    for info in pkgutil.iter_modules(game.sequencer.__path__):
        module = importlib.import_module(f"game.sequencer.{info.name}")
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, Event)
                and value is not Event
                and value.__module__ == module.__name__
            ):
                found.setdefault(info.name, []).append(value)
    return found


def _systems_of(module: str) -> list[str]:
    """The rule systems whose events a sequencer module defines (the shared ones: all)."""
    if module == "events":
        return list(RULESETS)
    return [n for n in RULESETS if module.startswith(n.replace("-", "_"))]


def _sample(kind: Any, name: str, variant: int) -> Any:
    """A value of the annotated type, varied by `variant` (so booleans and optional
    fields take both forms)."""
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        if type(None) in args and variant % 2:
            return None
        return _sample(options[0], name, variant)
    if kind is str:
        return ["escher-ganger-1", "rebel-squad-a", "partial cover", ""][variant % 4] or "x"
    if kind is bool:
        return bool(variant % 2)
    if kind is int:
        return [3, 1, 0, 6][variant % 4]
    if kind is float:
        return [12.5, 86.0, 0.0, 271.3][variant % 4]
    if kind is Modifier:
        return Modifier('range 8"', -3)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_sample(args[0], name, variant + i) for i in range(2))
        return tuple(_sample(a, name, variant + i) for i, a in enumerate(args))
    if origin is dict:
        return {"blue": 10, "red": 3}
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return None
    return None


def _instances(cls: type[Event]) -> Iterator[Event]:
    hints = typing.get_type_hints(cls)
    for variant in range(4):
        values = {f.name: _sample(hints[f.name], f.name, variant) for f in dataclasses.fields(cls)}
        yield cls(**values)


def _check(text: str | None, what: str) -> None:
    assert text, f"{what}: no sentence"
    assert "=" not in text, f"{what}: {text}"
    assert not REPR.search(text), f"{what}: {text}"
    assert not WORDS_NOT_ALLOWED.search(text), f"{what}: {text}"


CLASSES = _event_classes()


@pytest.mark.parametrize("system", list(RULESETS))
def test_every_event_type_has_a_sentence(system: str) -> None:
    ruleset: Ruleset = RULESETS[system]
    checked = 0
    for module, classes in CLASSES.items():
        if system not in _systems_of(module):
            continue
        for cls in classes:
            for event in _instances(cls):
                _check(describe(event, ruleset), f"{system} {cls.__name__}")
                checked += 1
    assert checked >= 4 * 13  # the shared events at least


SCENARIO_OF = {
    "infinity": "infinity-demo",
    "necromunda": "necromunda-bombardment",
    "open-rebellion": "open-rebellion-demo",
}


@pytest.mark.parametrize("system", list(SCENARIO_OF))
def test_a_played_game_reads_as_sentences(system: str) -> None:
    """Real events (declarations with enums inside, floats, nested dicts) of a game
    played by the automatic players, as objects and in their saved JSON form."""
    game = Game(load_scenario(SCENARIOS / f"{SCENARIO_OF[system]}.toml"), 5)
    play_out(game, automatic_player(game.engine, "simple"), limit=80)
    ruleset = game.setup.ruleset
    ids = names_of(game.setup)
    stray = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")
    kinds = set()
    for event, data in zip(game.events, game.log(), strict=True):
        text = describe(event, ruleset, ids)
        _check(text, f"{system} {event}")
        assert describe(data, ruleset, ids) == text  # the saved form reads the same
        assert text is not None and not stray.search(text), f"an id in {text!r}"
        kinds.add(event.name)
    assert {"Declared", "TurnStarted"} <= kinds


def test_ids_in_free_text_read_as_names() -> None:
    """A roll's purpose and a reason are the engine's text: the table's ids in them read
    as names; words that merely contain an id do not change."""
    from game.sequencer.events import Rolled

    cool = Rolled("escher-ganger-1", "Cool test to target escher-champion past escher-ganger-2",
                  "Cl", 7, (), 7, (3, 4), ("fail", "fail"))  # fmt: skip
    ids = {"escher-ganger-1", "escher-ganger-2", "escher-champion", "red"}
    text = describe(cool, RULESETS["necromunda"], ids)
    assert text is not None
    assert "Cool test to target Escher champion past Escher ganger 2" in text
    assert named("red-ish escher-ganger-20 and red, escher-ganger-2.", ids) == (
        "red-ish escher-ganger-20 and Red, Escher ganger 2."
    )
    assert ids_in([cool]) == {"escher-ganger-1"}


def test_plain_word_ids_are_named_except_where_used_as_the_word() -> None:
    """A model called "target" or "boss" is named wherever the text names it; after an
    article, a determiner or "may"/"must" the word is the word ("the target itself")."""
    ids = {"target", "boss", "escher-ganger-1"}
    assert named("boss has no line of sight to target", ids) == (
        "Boss has no line of sight to Target"
    )
    assert named("target is the target itself", ids) == "Target is the target itself"
    assert named("only a Blast weapon may target a point; give a target", ids) == (
        "only a Blast weapon may target a point; give a target"
    )
    assert named("The boss, then boss", ids) == "The boss, then Boss"
    # an id with a hyphen or a digit is never a plain word: named after "the" too
    assert named("the escher-ganger-1 itself", ids) == "the Escher ganger 1 itself"


def test_sides_read_by_the_names_the_scenario_gives() -> None:
    """A side's `name` ("PanOceania") is what sentences call it, in their own words and
    in an engine's free text; without the table's names, its id made readable."""
    from game.sequencer.events import GameEnded, TurnStarted

    scenario = load_scenario(SCENARIOS / "infinity-demo.toml")
    names = names_of(scenario)
    assert names["blue"] == "PanOceania" and names["red"] == "Yu Jing"
    assert names["fusilier-1"] == "Fusilier 1"
    ended = GameEnded("blue", "red has nothing left able to act", {"blue": 54, "red": 0})
    infinity = RULESETS["infinity"]
    assert describe(ended, infinity, names) == (
        "Game over: won by PanOceania; Yu Jing has nothing left able to act (points of "
        "troopers still able to act: PanOceania 54, Yu Jing 0)"
    )
    turn = describe(TurnStarted(1, "red", 4), infinity, names)
    assert turn is not None and turn.startswith("Turn 1: Yu Jing's Active Turn")
    assert describe(ended, infinity) == (
        "Game over: won by Blue; red has nothing left able to act (points of troopers still "
        "able to act: Blue 54, Red 0)"
    )
    assert who("blue") == "Blue"  # the names are the table's only while it is spoken of


def test_words_for_people() -> None:
    assert who("escher-ganger-1") == "Escher ganger 1"
    assert listed(["a-1", "b-2", "c-3"]) == "A 1, B 2 and C 3"
    assert listed([]) == "nobody"
    assert heading(86.03) == "south" and heading(-90) == "north" and heading(0) == "east"


def test_the_system_speaks_its_own_terms() -> None:
    from game.sequencer.events import OrderSpent, Rolled, TurnStarted

    roll = Rolled("b1", "BS Attack (Combi Rifle) at r1", "BS", 12, (Modifier("range", -3),),
                  9, (3, 17), ("success", "fail"))  # fmt: skip
    infinity = describe(roll, RULESETS["infinity"])
    assert infinity is not None and "SV 9" in infinity and "3 (success)" in infinity
    necromunda = describe(roll, RULESETS["necromunda"])
    assert necromunda is not None and "needs 9+" in necromunda and "SV" not in necromunda
    turn = TurnStarted(1, "escher", 10)
    text = describe(turn, RULESETS["necromunda"])
    assert text is not None and "Orders" not in text and "priority" in text
    text = describe(TurnStarted(2, "rebels", 0), RULESETS["open-rebellion"])
    assert text is not None and "Orders" not in text
    # FACTS 3.4's Orders: "a lieutenant Order", "a irregular Order" before
    spent = [describe(OrderSpent("yj", "z", pool, 2), RULESETS["infinity"]) for pool in
             ("regular", "irregular", "lieutenant")]  # fmt: skip
    assert spent == [
        "Yj spends a regular Order on Z (2 Orders left)",
        "Yj spends an irregular Order on Z (2 Orders left)",
        "Yj spends the Lieutenant Order on Z (2 Orders left)",
    ]


def test_a_move_that_goes_nowhere_says_so() -> None:
    """A move of no length spends the action and leaves the model where it stood: the
    log says that, not 'moves 0.0"' (a tester read that as a fault)."""
    from game.sequencer.events import Moved

    ids = {"escher-leader"}
    still = describe(Moved("escher-leader", ((3.0, 4.0), (3.0, 4.0)), 0.0),
                     RULESETS["necromunda"], ids)  # fmt: skip
    moved = describe(Moved("escher-leader", ((3.0, 4.0), (3.0, 6.5)), 2.5),
                     RULESETS["necromunda"], ids)  # fmt: skip
    assert still == "Escher leader moves, but stays where it stands"
    assert moved == 'Escher leader moves 2.5"'


def _told(seed: int) -> list[str]:
    """A seeded game on the Necromunda demo between the simple players as they played
    when these seeds were found (before they led group activations, session 10), told in
    order."""
    from game.ai.necromunda import SimpleNecromundaPlayer
    from game.sequencer.sentences import Teller

    class LeadingNoGroup(SimpleNecromundaPlayer):
        def _group(self, state: Any, leader: Any) -> tuple[str, ...]:
            return ()

    game = Game(load_scenario(SCENARIOS / "necromunda-demo.toml"), seed)
    play_out(game, LeadingNoGroup(game.engine))  # type: ignore[arg-type]
    teller = Teller(game.setup.ruleset, names_of(game.setup))
    return [teller.say(e) for e in game.events]


def test_a_necromunda_log_does_not_hit_a_fighter_already_out_of_action() -> None:
    # FACTS 2.6: a Rapid Fire weapon's hits are allocated before rolling to wound. On this
    # seed (playtest --seed 1, game 3) the heavy's four hits meet Escher ganger 2, out of
    # action after the first: the log said "hits Escher ganger 2" three times more
    lines = _told(10440292027562319872)
    out = lines.index("Escher ganger 2 is now out of action (was pinned)")
    after = lines[out + 1 : out + 4]
    assert (
        after
        == [
            "Another hit from Orlock heavy's Heavy stubber is lost: "
            "Escher ganger 2 is already out of action"
        ]
        * 3
    )
    for i, line in enumerate(lines):  # and no plain hit on any fighter out of action
        if " is now out of action" in line:
            name = line.split(" is now out of action")[0]
            assert not [later for later in lines[i:] if f" hits {name} with " in later]


def test_a_necromunda_log_says_damage_past_the_last_wound_once() -> None:
    # FACTS 2.4: Damage beyond the last Wound rolls Injury dice and loses no Wound. On this
    # seed (playtest --seed 1, game 1) the W2 Escher champion's third and fourth hits each
    # read "(2 Wounds lost in all)" again
    lines = _told(4042681867674859520)
    said = [line for line in lines if line.startswith("Escher champion takes")]
    again = "Escher champion takes 1 Damage with no Wound left to lose (2 Wounds lost before)"
    assert said == [
        "Escher champion takes 1 Damage (1 Wound lost in all)",
        "Escher champion takes 2 Damage (2 Wounds lost in all)",
        again,
        again,
    ]
    totals = [line for line in lines if "lost in all" in line]
    assert len(set(totals)) == len(totals)  # no fighter's total is told twice


def test_told_names_name_scenery_whose_id_is_a_plain_word_where_the_rules_put_scenery() -> None:
    # session 7's note: told_names left a piece whose id is a plain word ("still", the
    # water still of necromunda-demo) unnamed, since naming the word everywhere turned
    # "fighters still in the fight" into "fighters the water still in the fight"; it is
    # named where the rules' cover readings name scenery (game.rules.*.cover)
    from game.scenario import load_scenario
    from game.scenario.names import told_names
    from game.sequencer.sentences import Teller
    from tests.conftest import SCENARIOS

    scenario = load_scenario(SCENARIOS / "necromunda-demo.toml")
    teller = Teller(scenario.ruleset, told_names(scenario))
    missed = {
        "event": "Missed", "attacker": "orlock-leader", "target": "escher-leader",
        "weapon": "Bolt pistol", "reason": "full: not in line of sight, still in the way",
    }  # fmt: skip
    said = teller.say(missed)
    assert said.endswith("not in line of sight, the water still in the way"), said
    for reason, told in [
        ("partial: 40% hidden by still, barricade-1", "hidden by the water still and barricade 1"),
        ("touching still, which hides none of it", "touching the water still, which"),
    ]:
        assert told in teller.say({**missed, "reason": reason})
    ended = {
        "event": "GameEnded", "winner": "orlock", "scores": {"orlock": 465, "escher": 50},
        "reason": "turn limit (4): points of fighters still in the fight",
    }  # fmt: skip
    assert teller.say(ended).endswith(
        "points of fighters still in the fight: House Orlock 465, House Escher 50"
    )


def test_the_game_over_line_is_one_pattern_in_every_rule_system() -> None:
    """tester14 finding 11: Necromunda said "Game over: House Escher wins (...)" and Open
    Rebellion "Game over: won by Government (...)". Now one pattern, which no side's name
    (singular or plural) makes wrong, each with its system's word for the limit; the
    window's prompt says it so too. tester15 finding 14: "(House Orlock 0, House Goliath
    465)" had no unit: the scores are said as what each system's engine counts, after
    the reason where it names it, else beside it."""
    from game.render.play_rules import game_over
    from game.sequencer.sentences import Teller

    scores = {"orlock": 465, "escher": 50}
    for system, word, counted in (
        ("infinity", "turn", "points of troopers still able to act"),
        ("necromunda", "round", "points of fighters still in the fight"),
        ("open-rebellion", "turn", "points of models left"),
    ):
        ended = {"event": "GameEnded", "winner": "orlock", "scores": scores,
                 "reason": f"turn limit (4): {counted}"}  # fmt: skip
        said = Teller(RULESETS[system]).say(ended)
        assert said == (
            f"Game over: won by Orlock; {word} limit (4): {counted}: Orlock 465, Escher 50"
        ), (system, said)
        drawn = Teller(RULESETS[system]).say({**ended, "winner": None})
        assert drawn.startswith(f"Game over: a draw; {word} limit (4)"), (system, drawn)
        beaten = Teller(RULESETS[system]).say({**ended, "reason": "escher has nothing left"})
        assert beaten == (
            f"Game over: won by Orlock; escher has nothing left ({counted}: Orlock 465, Escher 50)"
        ), (system, beaten)
    assert game_over("rebels").text == "game over: won by Rebels"
    assert game_over(None).text == "game over: a draw"


def test_a_necromunda_game_ends_at_the_round_limit_as_the_window_counts_rounds() -> None:
    """A new user (session 10): Necromunda's window says "Round 2 of 4" but the game over
    said "turn limit (4)". The event keeps the engine's reason (saves replay it); the
    sentence says the system's word. Open Rebellion and Infinity play turns."""
    from game.rules.registry import RULESETS
    from game.sequencer.sentences import Teller

    ended = {
        "event": "GameEnded", "winner": "orlock", "scores": {"orlock": 465, "escher": 50},
        "reason": "turn limit (4): points of fighters still in the fight",
    }  # fmt: skip
    said = Teller(RULESETS["necromunda"]).say(ended)
    assert said.endswith(
        "; round limit (4): points of fighters still in the fight: Orlock 465, Escher 50"
    ), said
    for system in ("infinity", "open-rebellion"):
        said = Teller(RULESETS[system]).say(ended)
        assert "; turn limit (4): " in said, said
