"""Necromunda shooting against exact values, over many seeded attacks.

Each share is compared with its exact value within four standard errors of a binomial
share (sqrt(p(1-p)/n)); the seeds are fixed, so the runs are the same every time."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from game.dice.rng import make_rng
from game.sequencer.events import Event, Missed
from game.sequencer.necromunda import Act, Action, NecromundaEngine, NecromundaState
from game.sequencer.necromunda_types import Misfired, Scattered, ScatterRolled, StrayChecked
from tests.sequencer.necromunda_tables import R, Write, necromunda_table, shooting_game

GL = "Grenade launcher (frag)"
Z = 4.0  # standard errors allowed


def close(count: int, n: int, p: Fraction) -> None:
    share = count / n
    se = math.sqrt(float(p) * (1 - float(p)) / n)
    assert abs(share - float(p)) <= Z * se, f"{count}/{n} = {share:.4f}, exact {float(p):.4f}"


def attacks(path: Path, shooter: str, action: Action, trials: int, seed: int) -> list[list[Event]]:
    game, state = shooting_game(path, shooter)
    engine = game.engine
    assert isinstance(engine, NecromundaEngine) and isinstance(state, NecromundaState)
    rng = make_rng(seed)
    return [engine.apply(state, Act(shooter, action), rng=rng)[1] for _ in range(trials)]


@pytest.fixture(scope="module")
def blasts(tmp_path_factory: pytest.TempPathFactory) -> list[list[Event]]:
    """Frag shells aimed at an open point 10" away: 6+ to hit (-2 for a point); no
    wall, edge or fighter within reach of a 6" scatter."""
    folder = tmp_path_factory.mktemp("blasts")

    def write(text: str, header: bool = False) -> Path:
        path = folder / "open.toml"
        path.write_text(text, encoding="utf-8")
        return path

    path = necromunda_table(
        write,
        [
            ("gren", "goliath", "grenadier", (2.0, 12.0), 0.0),
            ("foe", "escher", "ganger", (23.0, 23.0), 180.0),
        ],
    )
    return attacks(path, "gren", Action.shoot(GL, at=(12.0, 12.0)), 15000, seed=20240)


def missed(events: list[Event]) -> bool:
    return any(isinstance(e, ScatterRolled) for e in events)


@pytest.mark.slow
def test_misfires_are_one_in_eighteen_missed_blasts(blasts: list[list[Event]]) -> None:
    misses = [ev for ev in blasts if missed(ev)]
    close(len(misses), len(blasts), Fraction(5, 6))  # 6+ to hit
    misfires = [ev for ev in misses if any(isinstance(e, Misfired) for e in ev)]
    # Necromunda: the scatter die's Hit (2 faces of 6) and a 1 on the D6
    close(len(misfires), len(misses), Fraction(1, 18))
    on_firer = sum(1 for ev in misfires for e in ev if isinstance(e, Misfired) and e.face == 1)
    close(on_firer, len(misfires), Fraction(1, 6))


@pytest.mark.slow
def test_scatter_distance_is_uniform_over_one_to_six(blasts: list[list[Event]]) -> None:
    arrows: Counter[int] = Counter()
    scattered: Counter[int] = Counter()
    for ev in blasts:
        rolled = [e for e in ev if isinstance(e, ScatterRolled)]
        moved = [e for e in ev if isinstance(e, Scattered)]
        if rolled and not rolled[0].hit_face:
            arrows[rolled[0].distance] += 1
        if moved:
            assert not moved[0].left_table and moved[0].stopped_by is None
            assert moved[0].distance == pytest.approx(rolled[0].distance)
            scattered[round(moved[0].distance)] += 1
    n = sum(arrows.values())
    for d in range(1, 7):  # an arrow face: the D6 alone
        close(arrows[d], n, Fraction(1, 6))
    # Every scatter (Hit faces too, misfires left out): 1" loses the Hit-and-1 misfire.
    total = sum(scattered.values())
    for d in range(1, 7):
        close(scattered[d], total, Fraction(2, 17) if d == 1 else Fraction(3, 17))


def test_the_first_bystander_on_the_line_is_hit_in_half_of_the_misses(
    write_scenario: Write,
) -> None:
    path = necromunda_table(
        write_scenario,
        [
            ("shooter", "goliath", "ganger", (4.0, 12.0), 0.0),
            ("target", "escher", "ganger", (16.0, 12.0), 180.0),
            ("near", "goliath", "ganger", (8.0, 12.9), 0.0),
            ("second", "goliath", "ganger", (12.0, 11.1), 0.0),
            ("wide", "goliath", "ganger", (10.0, 12.0 + 1.5 + R), 0.0),
        ],
        weapons={"shooter": ["Lasgun"]},
    )
    runs = attacks(path, "shooter", Action.shoot("Lasgun", "target"), 6000, seed=7)
    misses = [ev for ev in runs if any(isinstance(e, Missed) for e in ev)]
    close(len(misses), len(runs), Fraction(2, 6))  # 3+ to hit (short range +1)
    first = [next(e for e in ev if isinstance(e, StrayChecked)) for ev in misses]
    assert {e.model for e in first} == {"near"}
    close(sum(e.hit for e in first), len(misses), Fraction(1, 2))
    # the second is hit when the first passes and its own D6 is 1-3: 1/4; 'wide' never
    seconds = sum(1 for ev in misses for e in ev if isinstance(e, StrayChecked)
                  and e.model == "second" and e.hit)  # fmt: skip
    close(seconds, len(misses), Fraction(1, 4))
    assert not any(isinstance(e, StrayChecked) and e.model == "wide" for ev in runs for e in ev)
