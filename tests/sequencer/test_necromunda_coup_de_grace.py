"""Necromunda's Coup de Grace (FACTS 2.4, 2.8) with scripted dice.

FACTS 2.4: a Seriously Injured fighter is "Vulnerable to Coup de Grace (Simple action
from within 1", which takes it OOA)"; FACTS 2.8 lists "Coup de Grace (Simple)" among the
actions. FACTS 2.4 step 4: "when a friendly fighter goes SI or OOA, each friendly fighter
within 3" takes a Cool test". Distances between fighters are base edge to base edge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from game.errors import IllegalDeclaration
from game.rules.registry import RULESETS
from game.scenario import load_scenario
from game.sequencer.declarations import decode
from game.sequencer.events import Event, Rolled, StateChanged
from game.sequencer.game import Game, decode_declarations
from game.sequencer.necromunda import Act, Action, NecromundaEngine
from game.sequencer.necromunda_types import (
    BLAZE,
    BROKEN,
    ENGAGED,
    OUT_OF_ACTION,
    PINNED,
    SERIOUSLY_INJURED,
    BottleTested,
    BrokenChanged,
    CoupDeGrace,
    EndActivation,
    NecromundaState,
)
from game.sequencer.sentences import Teller, names_of
from tests.sequencer.necromunda_tables import R, ScriptedNecromunda, Write, necromunda_table

# centres 2R + gap apart along y: the gap is the distance base edge to base edge
FIGHTERS = [
    ("goliath-ganger-2", "goliath", "ganger", (10.0, 10.0), 90.0),
    ("goliath-ganger-4", "goliath", "ganger", (4.0, 4.0), 90.0),
    ("orlock-ganger-3", "escher", "ganger", (10.0, 10.0 + 2 * R + 0.9), 270.0),  # 0.9"
    ("orlock-ganger-5", "escher", "ganger", (12.5, 12.0), 270.0),  # within 3" of ganger 3
    ("orlock-ganger-6", "escher", "ganger", (20.0, 20.0), 270.0),  # far from everyone
]
FINISHER, OTHER, DOWN, BUDDY, FAR = (f[0] for f in FIGHTERS)


def of(events: list[Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def game_with(write: Write, *, down: tuple[str, ...] = (DOWN,), moved: Any = None) -> Game:
    """Goliath to activate; the fighters in `down` Seriously Injured; `moved`: fighter id
    -> its place instead of the table's."""
    game = Game(load_scenario(table(write, down=down, moved=moved)), 1)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine) and isinstance(game.state, NecromundaState)
    game.state = engine.ready_to_shoot(game.state, FINISHER)
    return game


def table(write: Write, *, down: tuple[str, ...] = (DOWN,), moved: Any = None) -> Path:
    fighters = [
        (f, side, p, (moved or {}).get(f, at), facing) for f, side, p, at, facing in FIGHTERS
    ]
    return necromunda_table(write, fighters, states=dict.fromkeys(down, SERIOUSLY_INJURED))


def test_coup_de_grace_takes_a_seriously_injured_enemy_within_1_inch_out_of_action(
    write_scenario: Write,
) -> None:
    """FACTS 2.4: "Vulnerable to Coup de Grace (Simple action from within 1", which takes
    it OOA)": no dice; the enemy 0.9" away goes Out of Action. Its friend within 3" tests
    its nerve (below); here it passes."""
    game = game_with(write_scenario)
    game.rng = ScriptedNecromunda(6, 5)  # type: ignore[assignment]  # buddy's Nerve test
    events = game.declare(Act(FINISHER, Action.coup_de_grace(DOWN)))
    assert game.state.model(DOWN).status == OUT_OF_ACTION
    assert of(events, CoupDeGrace) == [CoupDeGrace(FINISHER, DOWN)]
    assert of(events, StateChanged) == [StateChanged(DOWN, SERIOUSLY_INJURED, OUT_OF_ACTION)]
    assert game.rng.left() == []  # type: ignore[attr-defined]


def test_coup_de_grace_is_a_simple_action(write_scenario: Write) -> None:
    """FACTS 2.8: "Simple = repeatable": two Seriously Injured enemies within 1" are both
    finished off in one activation, one action each."""
    second = (10.0 - 2 * R - 0.5, 10.0)  # 0.5" to the finisher's left
    game = game_with(write_scenario, down=(DOWN, FAR), moved={FAR: second})
    game.rng = ScriptedNecromunda(6, 6, 6, 6)  # type: ignore[assignment]  # nerve tests
    game.declare(Act(FINISHER, Action.coup_de_grace(DOWN)))
    state = game.state
    assert isinstance(state, NecromundaState)
    assert (state.activating, state.actions_left) == (FINISHER, 1)
    game.declare(Act(FINISHER, Action.coup_de_grace(FAR)))
    assert game.state.model(FAR).status == OUT_OF_ACTION
    assert game.state.active == "escher"  # both actions spent: the activation is over


def test_coup_de_grace_nerve_tests_as_any_fighter_going_out_of_action(
    write_scenario: Write,
) -> None:
    """FACTS 2.4 step 4: "when a friendly fighter goes SI or OOA, each friendly fighter
    within 3" takes a Cool test ... Failure -> Broken": the finished fighter's friend
    within 3" rolls 2 + 3 against Cl 7+ and is Broken; the one far off does not test."""
    game = game_with(write_scenario)
    game.rng = ScriptedNecromunda(2, 3)  # type: ignore[assignment]
    events = game.declare(Act(FINISHER, Action.coup_de_grace(DOWN)))
    [nerve] = of(events, Rolled)
    assert (nerve.model, nerve.purpose, nerve.faces) == (BUDDY, f"Nerve test ({DOWN} went down)",
                                                         (2, 3))  # fmt: skip
    assert of(events, BrokenChanged) == [
        BrokenChanged(BUDDY, True, f"failed a Nerve test ({DOWN})")
    ]
    assert BROKEN in game.state.model(BUDDY).flags
    assert BROKEN not in game.state.model(FAR).flags
    assert game.rng.left() == []  # type: ignore[attr-defined]


def test_coup_de_grace_counts_once_in_the_bottle_test(write_scenario: Write) -> None:
    """FACTS 2.8: "Bottle test: D6 + number of SI/OOA > starting crew": the fighter
    finished off was counted Seriously Injured and is counted Out of Action, once."""
    game = game_with(write_scenario)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine) and isinstance(game.state, NecromundaState)
    assert engine.down_count(game.state, "escher") == 1
    game.rng = ScriptedNecromunda(6, 6)  # type: ignore[assignment]
    game.declare(Act(FINISHER, Action.coup_de_grace(DOWN)))
    assert isinstance(game.state, NecromundaState)
    assert engine.down_count(game.state, "escher") == 1
    # the round ends: every other fighter does nothing; the Bottle test counts 1 casualty
    game.rng = np.random.default_rng(3)
    events: list[Event] = list(game.declare(EndActivation()))
    while not of(events, BottleTested):
        awaiting = game.awaiting()
        events += game.declare(EndActivation(awaiting.models[0]))
    [bottle] = [b for b in of(events, BottleTested) if b.side == "escher"]
    assert (bottle.casualties, bottle.crew) == (1, 3)


@pytest.mark.parametrize(
    ("down", "moved", "finisher", "refusal"),
    [
        # FACTS 2.4: "from within 1"": 1.2" base edge to base edge is too far
        ((DOWN,), {DOWN: (10.0, 10.0 + 2 * R + 1.2)}, None,
         r'orlock-ganger-3 is 1\.20" from goliath-ganger-2: a Coup de Grace is taken from '
         r'within 1"'),
        # only a Seriously Injured fighter is vulnerable to it (FACTS 2.4)
        ((), None, None, "orlock-ganger-3 is standing: only a Seriously Injured fighter"),
        # an enemy's: a friend Seriously Injured is no target
        ((OTHER,), {OTHER: (10.0 + 2 * R + 0.5, 10.0)}, None,
         "goliath-ganger-4 is a fighter of goliath: a Coup de Grace finishes off an enemy"),
        # a Standing Active fighter's action: not Pinned (FACTS 2.8)
        ((DOWN,), None, PINNED, "goliath-ganger-2 is pinned: only a Standing Active fighter"),
        # Standing Engaged (base contact with a standing enemy) is not Active
        ((DOWN,), {BUDDY: (10.0 + 2 * R, 10.0)}, ENGAGED,
         "goliath-ganger-2 is engaged: only a Standing Active fighter"),
        # a Seriously Injured fighter may only Crawl (FACTS 2.4)
        ((DOWN,), None, SERIOUSLY_INJURED, "goliath-ganger-2 is seriously injured: it may only"),
        # Broken: "only Running for Cover" (FACTS 2.8)
        ((DOWN,), None, BROKEN, "goliath-ganger-2 is Broken: it may only Run for Cover"),
        # on fire: the flames take its activation (FACTS 2.9, Blaze; traits.toml's reading)
        ((DOWN,), None, BLAZE, "goliath-ganger-2 is on fire: the flames take its activation"),
    ],
)  # fmt: skip
def test_coup_de_grace_refused_with_the_reason_and_nothing_changes(
    write_scenario: Write, down: tuple[str, ...], moved: Any, finisher: str | None,
    refusal: str,
) -> None:  # fmt: skip
    game = game_with(write_scenario, down=down, moved=moved)
    state = game.state
    assert isinstance(state, NecromundaState)
    me = state.model(FINISHER)
    if finisher in (BROKEN, BLAZE):
        state = state.with_model(me.replace(flags=me.flags | {finisher}))
    elif finisher is not None:
        state = state.with_model(me.replace(status=finisher))
    game.state = state
    target = OTHER if OTHER in down else DOWN
    before, log = game.state, game.log()
    declaration = Act(FINISHER, Action.coup_de_grace(target))
    with pytest.raises(IllegalDeclaration, match=refusal):
        game.declare(declaration)
    assert game.state is before and game.log() == log and game.declarations == []
    engine = game.engine
    assert isinstance(engine, NecromundaEngine)
    assert target not in engine.coup_de_grace_targets(before, FINISHER)


def test_coup_de_grace_targets_are_the_seriously_injured_enemies_within_1_inch(
    write_scenario: Write,
) -> None:
    """The engine's list of who a fighter may finish off now, nearest first."""
    game = game_with(write_scenario, down=(DOWN, FAR))
    engine = game.engine
    assert isinstance(engine, NecromundaEngine) and isinstance(game.state, NecromundaState)
    assert engine.coup_de_grace_targets(game.state, FINISHER) == [DOWN]
    assert engine.coup_de_grace_targets(game.state, OTHER) == []


def test_coup_de_grace_said_in_necromundas_words(write_scenario: Write) -> None:
    """The log: "Goliath ganger 2 finishes off the Seriously Injured Orlock ganger 3 with a
    Coup de Grace: Out of Action", once (the change of state is told with it)."""
    path = necromunda_table(write_scenario, FIGHTERS)
    game = game_with(write_scenario)
    game.rng = ScriptedNecromunda(6, 6)  # type: ignore[assignment]
    game.declare(Act(FINISHER, Action.coup_de_grace(DOWN)))
    teller = Teller(RULESETS["necromunda"], names_of(load_scenario(path)))
    lines = [line for line in (teller.say(e) for e in game.events) if line]
    assert lines[-3:-1] == [
        "Goliath: Goliath ganger 2 takes a Coup de Grace on Orlock ganger 3",
        "Goliath ganger 2 finishes off the Seriously Injured Orlock ganger 3 with a Coup de "
        "Grace: Out of Action",
    ]
    assert lines[-1].startswith("Orlock ganger 5, Nerve test (Orlock ganger 3 went down)")


def test_coup_de_grace_saved_and_replayed(write_scenario: Write) -> None:
    """A new action kind extends the save: written as any action, read back to itself,
    and the game replays from its save to the same log."""
    setup = load_scenario(table(write_scenario))
    seed = next(s for s in range(1, 50) if Game(setup, s).state.active == "goliath")
    game = Game(setup, seed)
    act = Act(FINISHER, Action.coup_de_grace(DOWN))
    game.declare(act)
    game.declare(EndActivation())
    saved = json.loads(json.dumps(game.to_save()))
    [first, _] = saved["declarations"]
    assert first["action"]["kind"] == "coup-de-grace" and decode(first) == act
    replayed = Game.replay(setup, saved["seed"], decode_declarations(saved["declarations"]))
    assert replayed.log() == saved["events"] == game.log()
    assert replayed.state.model(DOWN).status == OUT_OF_ACTION
