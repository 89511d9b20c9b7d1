"""Random declarations, finite and not, to all three engines: each one is applied or
refused with a reason (IllegalDeclaration), and nothing else. A refused one changes
nothing; an applied one leaves every model at a finite point on the table.

The declarations are built from the declaration classes' own type hints (any model id,
weapon, number or enum value), and from the automatic player's real choices with their
numbers replaced, so that the engines get past "not your turn" into the rules."""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from dataclasses import dataclass
from enum import Enum
from typing import Any, get_type_hints

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.errors import IllegalDeclaration
from game.scenario import Scenario, load_scenario
from game.sequencer.declarations import Declaration, carried, check_numbers
from game.sequencer.game import Game
from game.sequencer.infinity import Activate, Continue, EndTurn, React
from game.sequencer.necromunda_types import Act, EndActivation
from game.sequencer.open_rebellion_types import (
    ActivateUnit,
    EndUnit,
    FallBackChoice,
    PickInitiative,
    UnitAct,
)
from game.sequencer.state import GameState
from tests.conftest import SCENARIOS

DECLARATIONS: dict[str, tuple[type[Declaration], ...]] = {
    "infinity": (Activate, React, Continue, EndTurn),
    "necromunda": (Act, EndActivation),
    "open-rebellion": (PickInitiative, ActivateUnit, UnitAct, EndUnit, FallBackChoice),
}
BAD = [math.nan, math.inf, -math.inf, 1e308, -1e308, 5e-324, -0.0, 1e16]


def numbers(table: tuple[float, float]) -> st.SearchStrategy[float]:
    """Mostly numbers on the table, often ones that are not finite or are far off it."""
    reach = max(table) + 2
    return st.one_of(
        st.floats(-2, reach),
        st.sampled_from(BAD),
        st.floats(allow_nan=True, allow_infinity=True),
    )


def of_type(hint: Any, names: list[str], table: tuple[float, float]) -> st.SearchStrategy[Any]:
    """Any value of the annotated type: names from the table, numbers from `numbers`."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*(of_type(a, names, table) for a in typing.get_args(hint)))
    if hint is type(None):
        return st.none()
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(of_type(args[0], names, table), max_size=4).map(tuple)
        return st.tuples(*(of_type(a, names, table) for a in args))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        hints = get_type_hints(hint)
        fields = {f.name: of_type(hints[f.name], names, table) for f in dataclasses.fields(hint)}
        return st.builds(hint, **fields)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return st.sampled_from(list(hint))
    if hint is float:
        return numbers(table)
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(-2, 8)
    if hint is str:
        return st.sampled_from(names) | st.text(max_size=4)
    raise AssertionError(f"no strategy for {hint!r}")


def with_numbers(value: Any, draw: st.DrawFn, table: tuple[float, float]) -> Any:
    """`value` with some of its numbers replaced by any number at all."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {
            f.name: with_numbers(getattr(value, f.name), draw, table)
            for f in dataclasses.fields(value)
        }
        return dataclasses.replace(value, **changes)
    if isinstance(value, tuple):
        return tuple(with_numbers(v, draw, table) for v in value)
    if isinstance(value, float) and draw(st.booleans()):
        return draw(numbers(table))
    return value


@dataclass
class Played:
    """A game of a demo played by the simple player: the states it went through, the
    dice before each declaration and the declaration chosen there."""

    scenario: Scenario
    game: Game
    states: list[GameState]
    dice: list[dict[str, Any]]
    choices: list[Declaration]
    names: list[str]


def _play(ruleset: str, steps: int = 40) -> Played:
    scenario = load_scenario(SCENARIOS / f"{ruleset}-demo.toml")
    game = Game(scenario, seed=5)
    player = scenario.ruleset.player("simple")(game.engine)
    states, dice, choices = [], [], []
    for _ in range(steps):
        if game.state.finished:
            break
        choice = player.choose(game.state, game.awaiting())
        states.append(game.state)
        dice.append(game.rng.bit_generator.state)
        choices.append(choice)
        game.declare(choice)
    names = [m.id for m in scenario.models] + [w for m in scenario.models for w in m.weapons]
    names += [m.unit for m in scenario.models if m.unit] + [s.id for s in scenario.sides]
    return Played(scenario, game, states, dice, choices, sorted(set(names)))


PLAYED = {name: _play(name) for name in DECLARATIONS}


def _on_table(state: GameState, table: tuple[float, float]) -> None:
    for m in state.models:
        x, y = m.at
        assert math.isfinite(x) and math.isfinite(y) and math.isfinite(m.facing), m
        assert -1e-6 <= x <= table[0] + 1e-6 and -1e-6 <= y <= table[1] + 1e-6, m


@st.composite
def cases(draw: st.DrawFn, ruleset: str) -> tuple[int, Declaration]:
    played = PLAYED[ruleset]
    table = played.scenario.header.table
    index = draw(st.integers(0, len(played.states) - 1))
    if draw(st.booleans()):
        declaration = with_numbers(played.choices[index], draw, table)
    else:
        kind = draw(st.sampled_from(DECLARATIONS[ruleset]))
        declaration = draw(of_type(kind, played.names, table))
    return index, declaration


def _refused_or_applied(ruleset: str, index: int, declaration: Declaration) -> None:
    played = PLAYED[ruleset]
    table = played.scenario.header.table
    state = played.states[index]
    engine = played.game.engine
    # The engine itself, as the automatic players and `shoot` call it.
    rng = np.random.default_rng()
    rng.bit_generator.state = played.dice[index]
    try:
        after, events = engine.apply(state, declaration, rng=rng)
    except IllegalDeclaration as why:
        assert str(why).strip() and "\n" not in str(why)
    else:
        _on_table(after, table)
        assert all(e is not None for e in events)
    # Through the game, which must leave everything as it was when it refuses.
    game = played.game
    game.state, game.events, game.declarations = state, [], []
    game.rng.bit_generator.state = played.dice[index]
    try:
        game.declare(declaration)
    except IllegalDeclaration:
        assert game.state is state and game.events == [] and game.declarations == []
        assert game.rng.bit_generator.state == played.dice[index]
    else:
        _on_table(game.state, table)


@pytest.mark.parametrize("ruleset", sorted(DECLARATIONS))
def test_random_declarations_are_applied_or_refused_with_a_reason(ruleset: str) -> None:
    @settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
    @given(case=cases(ruleset))
    def check(case: tuple[int, Declaration]) -> None:
        _refused_or_applied(ruleset, *case)

    check()


@pytest.mark.parametrize("ruleset", sorted(DECLARATIONS))
def test_a_non_finite_number_anywhere_is_refused_with_a_reason(ruleset: str) -> None:
    """Every number of the player's real choices, made NaN or infinite in turn, is refused
    by the game and by the engine alike, naming what is wrong."""
    played = PLAYED[ruleset]
    tried = 0
    for index, choice in enumerate(played.choices):
        for bad in (math.nan, math.inf, -math.inf):
            for spoiled in _each_number_replaced(choice, bad):
                tried += 1
                with pytest.raises(IllegalDeclaration, match="not a finite"):
                    played.game.engine.apply(
                        played.states[index], spoiled, rng=np.random.default_rng(0)
                    )
                with pytest.raises(IllegalDeclaration, match="not a finite"):
                    check_numbers(spoiled, played.scenario.header.table)
    assert tried > 0, f"the {ruleset} player chose no declaration with a number in it"


@pytest.mark.parametrize("ruleset", sorted(DECLARATIONS))
def test_the_game_leaves_the_numbers_to_an_engine_that_checks_them(ruleset: str) -> None:
    """Each bundled engine's `apply` checks the numbers first and says so
    (`checks_numbers`), so Game.declare does not check them again: a spoiled choice is
    still refused through the game, in the check's words, and nothing changes."""
    played = PLAYED[ruleset]
    game = played.game
    assert type(game.engine).checks_numbers is True  # type: ignore[attr-defined]
    refused = 0
    for index, choice in enumerate(played.choices):
        for spoiled in _each_number_replaced(choice, math.nan)[:1]:
            state = played.states[index]
            game.state, game.events, game.declarations = state, [], []
            # in the check's words, with no class name ("Act: ...") before them
            with pytest.raises(IllegalDeclaration, match=r"^[^:]*not a finite"):
                game.declare(spoiled)
            assert game.state is state and game.events == [] and game.declarations == []
            refused += 1
    assert refused > 0


def _each_number_replaced(value: Any, bad: float) -> list[Any]:
    """Copies of `value` with one of its numbers (each in turn) replaced by `bad`."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = []
        for f in dataclasses.fields(value):
            for inner in _each_number_replaced(getattr(value, f.name), bad):
                out.append(dataclasses.replace(value, **{f.name: inner}))
        return out
    if isinstance(value, tuple):
        out = []
        for i, item in enumerate(value):
            for inner in _each_number_replaced(item, bad):
                out.append((*value[:i], inner, *value[i + 1 :]))
        return out
    if isinstance(value, float):
        return [bad]
    return []


def test_points_must_be_on_the_table_and_moves_no_longer_than_it() -> None:
    table = (24.0, 12.0)
    check_numbers(Act("a", _move((3.0, 4.0))), table)
    with pytest.raises(IllegalDeclaration) as refused:
        check_numbers(Act("a", _move((3.0, 12.5))), table)
    # the point in a person's words, not the engine's ("Act: action path point 1 (3, 12.5)")
    assert str(refused.value) == "(3, 12.5) is off the 24x12 table"
    with pytest.raises(IllegalDeclaration, match=r"turn to inf is not a finite number"):
        check_numbers(Act("a", _move((3.0, 4.0)), turn_to=math.inf), table)
    from game.sequencer.open_rebellion_types import Action as UnitAction

    check_numbers(UnitAct("u", UnitAction.move(-20.0, 3.0)), table)
    with pytest.raises(IllegalDeclaration, match="longer than the table"):
        check_numbers(UnitAct("u", UnitAction.move(25.0, 0.0)), table)
    with pytest.raises(IllegalDeclaration, match=r"\(nan, 0.0\) is not a finite point"):
        check_numbers(UnitAct("u", UnitAction.move(math.nan, 0.0)), table)


def _move(*path: tuple[float, float]) -> Any:
    from game.sequencer.necromunda_types import Action

    return Action.move(*path)


def test_a_fall_back_choice_for_no_unit_is_refused_on_one_line() -> None:
    """The fuzzer once named a unit '\\n' while a fall back was awaited: the refusal copied
    the line break ("gov-squad-a chooses, not \\n"). A name that is no unit is quoted."""
    played = PLAYED["open-rebellion"]
    awaited = [s for s in played.states if getattr(s, "phase", None) == "fall-back"]
    assert awaited, "the played game has a fall back to answer"
    engine = played.game.engine
    for name in ("\n", "x\ny", "nobody"):
        with pytest.raises(IllegalDeclaration) as refused:
            engine.apply(awaited[0], FallBackChoice(name, True), rng=np.random.default_rng(1))
        assert "\n" not in str(refused.value) and repr(name) in str(refused.value)


def test_a_weapon_no_model_carries_is_refused_on_one_line() -> None:
    """The fuzzer named a weapon '\\n' (session 8): the refusal copied the line break
    ("fusilier-1 has no \\n (it has Combi Rifle, Pistol)"). An odd name is quoted; a
    plain one reads as typed ("has no HMG")."""
    for name in ("\n", "x\ny", " Lasgun", ""):
        with pytest.raises(IllegalDeclaration) as refused:
            carried(("Combi Rifle", "Pistol"), "fusilier-1", name)
        assert "\n" not in str(refused.value) and repr(name) in str(refused.value)
    with pytest.raises(IllegalDeclaration, match="fusilier-1 has no HMG \\(it has Combi"):
        carried(("Combi Rifle", "Pistol"), "fusilier-1", "HMG")
