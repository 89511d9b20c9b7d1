"""The search player (game.ai.search and its three systems' modules): weights as data,
a budget that makes choices the same on any machine, legal answers only, games that
replay identically from the save, and better choices in small hand-made positions."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from game.ai.search import (
    TEMPERAMENTS,
    Candidate,
    Remembered,
    SearchPlayer,
    load_weights,
    step_budget,
)
from game.errors import IllegalDeclaration
from game.playtest.batch import BySide, play_out, seeds_for
from game.rules.registry import RULESETS
from game.scenario import load_scenario
from game.sequencer.declarations import Declaration
from game.sequencer.game import Game, decode_declarations
from game.sequencer.infinity import (
    Activate,
    Continue,
    EndTurn,
    InfinityState,
    React,
    Skill,
    SkillKind,
)
from game.sequencer.sight import Cover
from tests.conftest import SCENARIOS

DEMOS = {
    "infinity": "infinity-demo.toml",
    "necromunda": "necromunda-demo.toml",
    "open-rebellion": "open-rebellion-village.toml",
}


def search_player(game: Game, **options: object) -> SearchPlayer:
    cls = game.setup.ruleset.player("search")
    player = cls(game.engine, **options)
    assert isinstance(player, SearchPlayer)
    return player


def test_every_playing_system_has_a_search_player_and_weights() -> None:
    playing = [name for name, rs in RULESETS.items() if rs.plays]
    assert set(DEMOS) <= set(playing)
    for name in DEMOS:
        balanced = load_weights(name, "balanced")
        for temperament in TEMPERAMENTS:
            w = load_weights(name, temperament)
            assert set(w.values) == set(balanced.values)  # a temperament only re-weighs
            assert w.search["budget"] >= 1 and w.search["steps_per_second"] > 0
        assert load_weights(name, "cautious").values != balanced.values
        assert load_weights(name, "aggressive")["exposure"] < balanced["exposure"]
        assert load_weights(name, "cautious")["exposure"] > balanced["exposure"]


def test_unknown_temperament_is_refused() -> None:
    with pytest.raises(IllegalDeclaration, match="no temperament 'reckless'"):
        load_weights("infinity", "reckless")


def test_think_seconds_become_a_step_budget_the_smaller_limit_wins() -> None:
    w = load_weights("infinity")
    rate = w.search["steps_per_second"]
    assert step_budget(w, None, None) == int(w.search["budget"])
    assert step_budget(w, None, 0.5) == int(0.5 * rate)
    assert step_budget(w, 10, 0.5) == min(10, int(0.5 * rate))
    assert step_budget(w, 10_000, 0.2) == int(0.2 * rate)
    assert step_budget(w, 0, None) == 1  # always at least one step
    with pytest.raises(IllegalDeclaration):
        step_budget(w, None, -1.0)


@pytest.mark.parametrize(
    ("budget", "think", "words"),
    [
        (None, math.nan, "think must be a number of seconds, not nan"),
        (None, math.inf, "think must be a number of seconds, not inf"),
        (None, 1e9, "think must be from 0 to 3600 seconds, not 1e+09"),
        (math.nan, None, "the search budget must be a whole number of steps, not nan"),
        (-5, None, "the search budget must be from 0 to 10,000,000 steps, not -5"),
        (10**12, 0.5, "the search budget must be from 0 to 10,000,000 steps"),
    ],
)
def test_a_think_or_budget_that_is_nan_inf_or_absurd_is_refused_in_a_sentence(
    budget: float | None, think: float | None, words: str
) -> None:
    w = load_weights("infinity")
    with pytest.raises(IllegalDeclaration, match=re.escape(words)):
        step_budget(w, budget, think)  # type: ignore[arg-type]


@pytest.mark.parametrize("system", sorted(DEMOS))
def test_same_seed_same_choice_and_the_choice_is_legal(system: str) -> None:
    setup = load_scenario(SCENARIOS / DEMOS[system])
    game = Game(setup, 11)
    one = search_player(game, seed=3, budget=40)
    two = search_player(game, seed=3, budget=40)
    for _ in range(4):
        if game.state.finished:
            break
        awaiting = game.awaiting()
        first = one.choose(game.state, awaiting)
        assert two.choose(game.state, awaiting) == first
        assert one.steps <= 40
        game.declare(first)  # an IllegalDeclaration would fail the test


@pytest.mark.slow
@pytest.mark.parametrize("system", sorted(DEMOS))
def test_a_search_game_replays_identically_from_its_save(system: str, tmp_path: Path) -> None:
    setup = load_scenario(SCENARIOS / DEMOS[system])
    sides = [s.id for s in setup.sides]

    def played(seed: int) -> Game:
        game = Game(setup, seed)
        players = {
            sides[0]: search_player(game, seed=5, budget=8),
            sides[1]: setup.ruleset.player("simple")(game.engine),
        }
        return play_out(game, BySide(players))

    game = played(21)
    assert game.state.finished
    path = tmp_path / "save.json"
    game.save(path)
    saved = json.loads(path.read_text())
    replayed = Game.replay(setup, saved["seed"], decode_declarations(saved["declarations"]))
    assert replayed.log() == saved["events"] == game.log()
    # the player itself is deterministic: the same seeds give the same game again
    assert played(21).log() == game.log()


@pytest.mark.slow
@pytest.mark.parametrize("system", sorted(DEMOS))
def test_two_hundred_seeded_games_end_with_no_refusal(system: str) -> None:
    """The search player never stalls: 200 games on the system's demo, the search player
    on each side in turn against the simple player, every one to its end. The budget is
    one step (the simple choice, checked by the engine, else a pass) to keep CI short;
    the full search's answers are checked by the tests above and the replay tests."""
    setup = load_scenario(SCENARIOS / DEMOS[system])
    sides = [s.id for s in setup.sides]
    for index, seed in seeds_for(17, 200):
        game = Game(setup, seed)
        me, other = sides[index % 2], sides[1 - index % 2]
        players = {
            me: search_player(game, seed=index, budget=1),
            other: setup.ruleset.player("simple")(game.engine),
        }
        play_out(game, BySide(players), limit=2000)  # a refusal raises IllegalDeclaration
        assert game.state.finished, f"game {index} did not end"


# -- hand-made Infinity positions ---------------------------------------------------

OPEN_GROUND = """
[scenario]
name = "Open ground"
ruleset = "infinity"
table = [32, 24]
turns = {turns}

[[side]]
id = "blue"
player = "ai"

[[side]]
id = "red"
player = "ai"

[[scenery]]
id = "block"
kind = "building"
polygon = [[6, 14], [9, 14], [9, 18], [6, 18]]
"""


def _setup(write_scenario: Callable[..., Path], body: str, turns: int = 3) -> Game:
    path = write_scenario(OPEN_GROUND.format(turns=turns) + body, header=False)
    return Game(load_scenario(path), 1)


def test_a_wounded_trooper_moves_into_cover_rather_than_across_the_line_of_fire(
    write_scenario: Callable[..., Path],
) -> None:
    """A Knight (2 wounds, one taken) with no gun stands in the open in the line of fire
    of an HMG 26" away, which faces the other way (no ARO now; it turns on its own
    turn): its Order takes it out of the HMG's line of fire (or into cover) instead of
    toward the gun or staying. (With the HMG facing it, any move draws its ARO, which
    the exact odds rate worse than staying; with a pistol, a move closer shoots it in
    the back, which is better still.)"""
    game = _setup(
        write_scenario,
        """
[[model]]
id = "knight"
side = "blue"
profile = "knight-of-justice"
at = [4, 12]
facing = 0
weapons = []

[[model]]
id = "hmg"
side = "red"
profile = "zhanshi-hmg"
at = [30, 12]
facing = 0
""",
    )
    state = game.state
    assert isinstance(state, InfinityState)
    knight = state.model("knight")
    state = state.with_model(knight.replace(wounds=1))
    engine = game.engine
    assert engine.sighting(state, "hmg", "knight").lof  # exposed where it stands
    assert not engine.in_arc(state, "hmg", "knight")  # but the HMG looks away
    choice = search_player(game, seed=1, budget=150).choose(state, engine.awaiting(state))
    assert isinstance(choice, Activate) and choice.model == "knight"
    assert choice.skill.kind is SkillKind.MOVE
    end = choice.skill.path[-1]
    moved = state.with_model(state.model("knight").replace(at=end))
    s = engine.sighting(moved, "hmg", "knight")
    assert not s.lof or s.cover is not Cover.NONE, f"ends at {end} in the open"


def test_holds_an_objective_on_the_last_turn(write_scenario: Callable[..., Path]) -> None:
    """Last turn, the only objective under blue's trooper (pistol only), the enemy far
    beyond its reach: the careful player walks off toward the enemy; the search player
    keeps its trooper on the objective (which wins the game)."""
    game = _setup(
        write_scenario,
        """
[[objective]]
id = "beacon"
at = [3, 20]
radius = 1.0
points = 2

[[model]]
id = "fusilier"
side = "blue"
profile = "fusilier"
at = [3, 20]
facing = 0
weapons = ["Pistol"]

[[model]]
id = "zhanshi"
side = "red"
profile = "zhanshi"
at = [30, 3]
facing = 180
""",
        turns=1,
    )
    state = game.state
    engine = game.engine
    careful = game.setup.ruleset.player("careful")(engine).choose(state, engine.awaiting(state))
    player = search_player(game, seed=2, budget=150)
    choice = player.choose(state, engine.awaiting(state))
    objective = game.setup.objectives[0]

    def on_it(declaration: object) -> bool:
        if not (isinstance(declaration, Activate) and declaration.skill.kind is SkillKind.MOVE):
            return True
        end = declaration.skill.path[-1]
        radius = engine.radii["fusilier"]
        return bool(((end[0] - 3) ** 2 + (end[1] - 20) ** 2) ** 0.5 - radius <= objective.radius)

    assert not on_it(careful), "the position no longer tempts the careful player away"
    assert on_it(choice), f"search chose {choice}"
    # played out, blue keeps the objective and wins
    game.state = state
    play_out(game, BySide({"blue": player, "red": game.setup.ruleset.player("simple")(engine)}))
    assert game.state.winner == "blue"


def test_does_not_walk_through_an_aro_it_can_avoid(write_scenario: Callable[..., Path]) -> None:
    """A fusilier (pistol only) hidden behind the block; an HMG 25" away, in its best
    range band, watches the open ground east of it. The careful player's advance walks
    into the HMG's line of fire (a shooting ARO it cannot answer); the search player's
    Order draws none."""
    game = _setup(
        write_scenario,
        """
[[model]]
id = "fusilier"
side = "blue"
profile = "fusilier"
at = [5.2, 17]
facing = -90
weapons = ["Pistol"]

[[model]]
id = "hmg"
side = "red"
profile = "zhanshi-hmg"
at = [30, 6]
facing = 180
""",
    )
    state = game.state
    engine = game.engine
    assert not engine.sighting(state, "hmg", "fusilier").lof  # hidden where it stands

    def draws_fire(declaration: object) -> bool:
        if isinstance(declaration, EndTurn):
            return False
        after, _ = engine.apply(state, declaration, rng=game.rng)  # type: ignore[arg-type]
        order = getattr(after, "order", None)
        return order is not None and any(full for _, full in order.eligible)

    careful = game.setup.ruleset.player("careful")(engine).choose(state, engine.awaiting(state))
    assert draws_fire(careful), "the position no longer tempts the careful player"
    choice = search_player(game, seed=3, budget=150).choose(state, engine.awaiting(state))
    assert not draws_fire(choice), f"search chose {choice}"


# -- the search's own parts ----------------------------------------------------------


class Counting:
    """A policy that counts the positions it is asked about."""

    def __init__(self, answer: Declaration) -> None:
        self.answer = answer
        self.asked = 0

    def choose(self, state: object, awaiting: object) -> Declaration:
        self.asked += 1
        return self.answer


def test_a_remembered_policy_answers_a_position_once_per_decision() -> None:
    game = Game(load_scenario(SCENARIOS / DEMOS["infinity"]), 3)
    counting = Counting(EndTurn())
    remembered = Remembered(counting)
    state, awaiting = game.state, game.awaiting()
    assert remembered.choose(state, awaiting) == EndTurn()
    assert remembered.choose(state.replace(), awaiting) == EndTurn()  # an equal position
    assert counting.asked == 1
    moved = state.with_model(state.models[0].replace(at=(1.0, 1.0)))
    remembered.choose(moved, awaiting)
    assert counting.asked == 2
    remembered.forget()
    remembered.choose(state, awaiting)
    assert counting.asked == 3


@pytest.mark.parametrize(
    ("lead", "spread", "kept"),
    [
        (1.0, 0.0, False),  # better on every sample: the search's choice
        (1.0, 20.0, True),  # better on average, within the noise of the difference
        (-1.0, 0.0, True),  # worse: the default
        (3.0, 4.0, False),  # 3 ahead, a difference's standard error of about 0.9
    ],
)
def test_the_default_choice_stands_unless_clearly_beaten(
    lead: float, spread: float, kept: bool
) -> None:
    """`deviate_z` standard errors of the paired difference (common dice): the careful
    choice is replaced only by a candidate whose lead is beyond the noise."""
    game = Game(load_scenario(SCENARIOS / DEMOS["infinity"]), 3)
    player = search_player(game, seed=1, budget=40)
    player.weights.search["deviate_z"] = 1.0  # this player's own copy of the weights
    base = Candidate(EndTurn(), 0.0, default=True)
    other = Candidate(Activate("a", Skill.idle()), 0.0)
    rng = np.random.default_rng(5)
    for k in range(20):
        common = float(rng.normal(0, 10))  # the dice both candidates share
        noise = spread * (1 if k % 2 else -1)
        for c, v in ((base, common), (other, common + lead + noise)):
            c.values[k] = v
            c.total += v
            c.samples += 1
    chosen = player._pick([other, base], 0.0)
    assert (chosen is base) is kept


def test_an_orders_luck_averages_to_nothing(write_scenario: Callable[..., Path]) -> None:
    """The Infinity control variate: blue's fusilier shoots red's Zhanshi, which shoots
    back (Face-to-Face) while red's HMG shoots it too (a Normal roll); the fusilier's
    wounds add up from both. The troopers' worth after sampled dice less its exact
    expectation averages to zero within 4 standard errors, and takes nearly all the
    spread out of the samples (nothing else is rolled)."""
    game = _setup(
        write_scenario,
        """
[[model]]
id = "fusilier"
side = "blue"
profile = "fusilier"
at = [10, 12]
facing = 0

[[model]]
id = "zhanshi"
side = "red"
profile = "zhanshi"
at = [20, 12]
facing = 180

[[model]]
id = "hmg"
side = "red"
profile = "zhanshi-hmg"
at = [22, 4]
facing = 160
""",
    )
    engine = game.engine
    player = search_player(game, seed=1, budget=40)
    state = game.state
    rng = np.random.default_rng(0)
    weapon = engine.weapons_of("fusilier")[0]
    state, _ = engine.apply(
        state, Activate("fusilier", Skill.attack(weapon.name, ("zhanshi", weapon.burst))), rng=rng
    )
    assert isinstance(state, InfinityState) and state.order is not None
    assert {r for r, full in state.order.eligible if full} == {"zhanshi", "hmg"}
    for reactor in ("zhanshi", "hmg"):
        shot = engine.weapons_of(reactor)[0]
        state, _ = engine.apply(
            state, React(reactor, Skill.attack(shot.name, ("fusilier", 1))), rng=rng
        )
    last = Continue(Skill.idle())
    ids, joint = player._order_wounds(state, last)  # type: ignore[attr-defined]
    assert set(ids) == {"fusilier", "zhanshi", "hmg"}
    assert sum(joint.values()) == pytest.approx(1.0)
    assert max(w[ids.index("fusilier")] for w in joint) >= 2  # both red shots may wound it
    lucks, worths = [], []
    for k in range(400):
        after, _ = engine.apply(state, last, rng=np.random.default_rng(k))
        lucks.append(player.luck(state, last, after, "blue"))
        hurt = {i: after.model(i) for i in ids}
        worths.append(player._settled(after, hurt, "blue"))  # type: ignore[attr-defined]
    luck, worth = np.array(lucks), np.array(worths)
    assert worth.std() > 1  # the dice do matter
    assert abs(luck.mean()) < 4 * luck.std() / np.sqrt(len(luck))
    assert (worth - luck).std() < 0.05 * worth.std()
